/* group.c: an issue group's lane map and its view of its threads' state
 * (exec.h).
 *
 * A group whose mapped lanes all hold threads of one home warp in their
 * home lanes (lane l: thread home * 32 + l) reads and writes that home
 * warp's block in place: no copy, the handlers' [slot][lane] rows are the
 * threads' storage.  Any other map (threads from several home warps, or
 * away from their home lanes) gets a private copy of the block; each
 * instruction runs on it between exec_group_copy_in and
 * exec_group_copy_out, which move the registers the instruction names
 * (and the carry) for the mapped lanes. */
#include <stdlib.h>

#include "exec/exec.h"

int exec_group_map(warp_t *w, const uint32_t thread[WARP_SIZE])
{
    const cta_t *c = w->cta;
    const exec_program_t *p = c->launch->prog;
    uint32_t home = EXEC_NO_THREAD, valid = 0;
    int identity = 1;
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        uint32_t t = thread[l];
        w->thread[l] = t;
        if (t == EXEC_NO_THREAD)
            continue;
        valid |= 1u << l;
        if (home == EXEC_NO_THREAD)
            home = t / WARP_SIZE;
        identity &= t == home * WARP_SIZE + l;
    }
    w->valid = valid;
    if (home == EXEC_NO_THREAD)
        home = 0; /* no thread: any block, no lane of it is ever used */
    if (identity) {
        w->home = home;
        w->regs = &c->threads.regs[(size_t)home * p->nslots * WARP_SIZE];
        w->preds = &c->threads.preds[(size_t)home * p->npreds];
        w->cc = &c->threads.cc[home];
        return 0;
    }
    if (!w->copy_regs) {
        w->copy_regs = calloc((size_t)(p->nslots ? p->nslots : 1) * WARP_SIZE,
                              sizeof *w->copy_regs);
        w->copy_preds = calloc(p->npreds ? p->npreds : 1, sizeof *w->copy_preds);
        if (!w->copy_regs || !w->copy_preds)
            return -1;
    }
    w->home = EXEC_NO_THREAD;
    w->regs = w->copy_regs;
    w->preds = w->copy_preds;
    w->cc = &w->copy_cc;
    return 0;
}

/* Moves value register `slot` between the copy and the threads. */
static void move_reg(warp_t *w, uint32_t slot, int out)
{
    uint64_t *row = &w->regs[(size_t)slot * WARP_SIZE];
    for (uint32_t lm = w->valid; lm; lm &= lm - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(lm);
        uint64_t *r = exec_thread_reg(w->cta, w->thread[l], slot);
        if (out)
            *r = row[l];
        else
            row[l] = *r;
    }
}

/* Moves the lane bits of a per-thread bit word (a predicate, at `words`
 * + home warp * stride) between `*mine` and the threads. */
static void move_bits(warp_t *w, uint32_t *mine, uint32_t *words,
                      size_t stride, int out)
{
    uint32_t v = out ? *mine : 0;
    for (uint32_t lm = w->valid; lm; lm &= lm - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(lm), t = w->thread[l];
        uint32_t *word = &words[(size_t)(t / WARP_SIZE) * stride];
        uint32_t bit = 1u << (t % WARP_SIZE);
        if (out)
            *word = (v >> l & 1) ? *word | bit : *word & ~bit;
        else
            v |= (*word & bit) ? 1u << l : 0;
    }
    if (!out)
        *mine = v;
}

static void move_pred(warp_t *w, uint32_t slot, int out)
{
    const cta_t *c = w->cta;
    move_bits(w, &w->preds[slot], &c->threads.preds[slot],
              c->launch->prog->npreds, out);
}

/* Every register ei names (sources and destinations alike: writing back a
 * source unchanged is harmless), and the carry. */
static void move_operands(warp_t *w, const exec_insn_t *ei, int out)
{
    if (ei->guard != EXEC_NO_PC)
        move_pred(w, ei->guard, out);
    for (unsigned i = 0; i < ei->nops; i++) {
        const exec_opnd_t *o = &ei->o[i];
        if (o->kind == EO_REG || (o->kind == EO_ADDR && o->has_reg))
            move_reg(w, o->slot, out);
        else if (o->kind == EO_PRED)
            move_pred(w, o->slot, out);
        else if (o->kind == EO_VEC)
            for (unsigned v = 0; v < o->n; v++)
                if (o->vslot[v] != EXEC_NO_PC)
                    move_reg(w, o->vslot[v], out);
        if (o->pipe != EXEC_NO_PC) /* the second destination: a predicate */
            move_pred(w, o->pipe, out);
    }
    move_bits(w, w->cc, w->cta->threads.cc, 1, out);
}

void exec_group_copy_in(warp_t *w, const exec_insn_t *ei)
{
    move_operands(w, ei, 0);
}

void exec_group_copy_out(warp_t *w, const exec_insn_t *ei)
{
    move_operands(w, ei, 1);
}
