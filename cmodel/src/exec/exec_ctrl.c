/* exec_ctrl.c: control flow on the reconvergence (SIMT) stack: bra, call,
 * ret, exit, barriers, and instructions with no functional effect.
 *
 * Stack entries are {pc, reconvergence pc, mask}.  A divergent branch turns
 * the current entry into the reconvergence entry (pc = immediate
 * post-dominator), pushes the not-taken path, then the taken path, so the
 * taken path runs first.  An entry is popped when its pc reaches its
 * reconvergence pc or when all its lanes have left (exit or ret).  A call
 * pushes a frame entry marked with the call's PC; ret removes the returning
 * lanes from every entry down to and including that frame. */
#include <stdlib.h>

#include "exec/dispatch.h"
#include "exec/lanes.h"

int exec_push(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t pc,
              uint32_t rpc, uint32_t mask, uint32_t call_pc)
{
    uint32_t limit = (uint32_t)simt_config_get(x->l->cfg,
                                               SIMT_CFG_SIMT_STACK_DEPTH);
    if (w->depth >= limit)
        return exec_fault(x, w, ei, mask, "reconvergence stack overflow "
                          "(%u entries, simt_stack_depth): runaway "
                          "divergence or call nesting", limit);
    if (w->depth == w->cap) {
        uint32_t nc = w->cap * 2 > limit ? limit : w->cap * 2;
        simt_entry_t *s = realloc(w->stack, nc * sizeof *s);
        if (!s)
            return exec_fault(x, w, ei, mask, "out of host memory for the "
                              "reconvergence stack");
        w->stack = s;
        w->cap = nc;
    }
    w->stack[w->depth++] = (simt_entry_t){ pc, rpc, mask, call_pc };
    return SIMT_OK;
}

static void h_bra(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    simt_entry_t *top = &w->stack[w->depth - 1];
    uint32_t active = top->mask & ~w->exited;
    if (m == active) {
        top->pc = ei->target;
        return;
    }
    if (m == 0)
        return; /* falls through: pc already advanced */
    uint32_t fall = top->pc, rpc = ei->reconv;
    x->l->stats->divergent_branches++;
    if (top->rpc == rpc && top->call_pc == EXEC_NO_PC) {
        /* The current entry already reconverges where these paths do (a
         * loop latch inside the loop's own divergence), and the lanes that
         * reach rpc wait in the entry below: reuse this entry for one path
         * instead of leaving a finished entry buried under the other, so
         * the stack does not grow with every divergent trip. */
        if (fall != rpc) {
            top->mask = active & ~m; /* not-taken path; pc is already fall */
        } else {
            top->pc = ei->target;    /* not-taken lanes are already at rpc */
            top->mask = m;
            return;
        }
    } else {
        top->pc = rpc;
        if (fall != rpc && /* lanes already at rpc wait in this entry */
            exec_push(x, w, ei, fall, rpc, active & ~m, EXEC_NO_PC))
            return;
    }
    if (ei->target != rpc)
        exec_push(x, w, ei, ei->target, rpc, m, EXEC_NO_PC);
}

static void copy_frames(warp_t *w, const exec_program_t *p, uint32_t first,
                        uint32_t count, uint32_t m)
{
    uint32_t fb = p->frame_bytes;
    for (uint32_t c = first; c < first + count; c++) {
        const exec_copy_t *cp = &p->copies[c];
        FOR_LANES(m, l) {
            uint8_t *base = w->local + (size_t)l * fb;
            memmove(base + cp->to, base + cp->from, cp->bytes);
        }
    }
}

static void h_call(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                   uint32_t m)
{
    if (!m)
        return;
    const exec_program_t *p = x->l->prog;
    copy_frames(w, p, ei->call_first, ei->call_count, m);
    uint32_t call_pc = (uint32_t)(ei - p->code);
    exec_push(x, w, ei, ei->target, EXEC_NO_PC, m, call_pc);
}

static void do_exit(exec_ctx_t *x, warp_t *w, uint32_t m)
{
    (void)x;
    w->exited |= m;
    if ((w->valid & ~w->exited) == 0)
        w->state = WARP_DONE;
}

static void h_ret(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    if (!m)
        return;
    uint32_t f = w->depth;
    while (f > 0 && w->stack[f - 1].call_pc == EXEC_NO_PC)
        f--;
    if (f == 0) { /* ret from the kernel itself */
        do_exit(x, w, m);
        return;
    }
    const exec_program_t *p = x->l->prog;
    const exec_insn_t *call = &p->code[w->stack[f - 1].call_pc];
    copy_frames(w, p, call->ret_first, call->ret_count, m);
    for (uint32_t i = f - 1; i < w->depth; i++)
        w->stack[i].mask &= ~m;
    (void)ei;
}

static void h_exit(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                   uint32_t m)
{
    (void)ei;
    do_exit(x, w, m);
}

static void h_trap(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                   uint32_t m)
{
    if (m)
        exec_fault(x, w, ei, m, "trap instruction executed");
}

/* bar.sync / barrier.sync / bar.arrive / bar.red */
static void h_bar(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    uint32_t live = w->valid & ~w->exited;
    int red = ei->ir->sub == PTX_SUB_RED;
    unsigned idx_op = red ? 1 : 0;
    const uint64_t *id = SRC(idx_op);
    if (!m)
        return;
    if (ei->ir->sub == PTX_SUB_WARP_SYNC) {
        /* The warp runs its active lanes in lockstep, so the lanes that
         * arrive together are synchronised already. Member lanes that are
         * live but elsewhere would need independent thread scheduling,
         * which the reconvergence stack does not model: report them. */
        uint32_t member = (uint32_t)id[__builtin_ctz(m)];
        if ((m & ~member) || (member & live & ~m))
            exec_fault(x, w, ei, m, "bar.warp.sync: member mask 0x%08x but "
                       "lanes 0x%08x arrive together and the warp's live "
                       "lanes are 0x%08x", member, m, live);
        return;
    }
    if (m != live)
        exec_fault(x, w, ei, m, "barrier divergence: %s reached by lanes "
                   "0x%08x but the warp's live lanes are 0x%08x",
                   ptx_op_name((ptx_op_t)ei->ir->op), m, live);
    if (x->faulted)
        return;
    uint32_t first = (uint32_t)__builtin_ctz(m);
    uint64_t bid = id[first];
    if (bid >= EXEC_NBARRIERS) {
        exec_fault(x, w, ei, m, "barrier id %llu out of range (0..%u)",
                   (unsigned long long)bid, EXEC_NBARRIERS - 1);
        return;
    }
    uint32_t count = 0;
    unsigned cnt_op = red ? 2 : 1;
    if (ei->nops > cnt_op + (red ? 1 : 0)) {
        count = (uint32_t)SRC(cnt_op)[first];
        if (count == 0 || count % WARP_SIZE) {
            exec_fault(x, w, ei, m, "barrier thread count %u is not a "
                       "positive multiple of %u", count, WARP_SIZE);
            return;
        }
    }
    cta_t *c = w->cta;
    c->bar_arrived[bid] += WARP_SIZE; /* a warp arrives as a whole */
    x->l->stats->barriers++;
    if (red) {
        const exec_opnd_t *po = &ei->o[ei->nops - 1];
        uint32_t pv = pred_mask(w, po) & m;
        uint32_t op = ei->ir->combine;
        if (!c->bar_red_any[bid]) {
            c->bar_red_any[bid] = 1;
            c->bar_red[bid] = op == PTX_SUB_AND ? 1 : 0;
        }
        if (op == PTX_SUB_POPC)
            c->bar_red[bid] += (uint32_t)__builtin_popcount(pv);
        else if (op == PTX_SUB_AND)
            c->bar_red[bid] &= pv == m;
        else
            c->bar_red[bid] |= pv != 0;
    }
    if (ei->ir->sub == PTX_SUB_ARRIVE)
        return;
    w->state = WARP_AT_BARRIER;
    w->bar_pc = (uint32_t)(ei - x->l->prog->code);
    w->bar_id = (uint8_t)bid;
    w->bar_count = count;
}

/* Instructions with no functional effect: memory ordering is trivially
 * satisfied by sequential execution; relssp and pref get their meaning
 * from the timing model's mechanisms (Scratchpad Sharing, EXPARS). */
static void h_nop(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    (void)x;
    (void)w;
    (void)ei;
    (void)m;
}

exec_fn exec_select_ctrl(const ptx_insn_t *in)
{
    switch (in->op) {
    case PTX_OP_BRA: return h_bra;
    case PTX_OP_CALL: return h_call;
    case PTX_OP_RET: return h_ret;
    case PTX_OP_EXIT: return h_exit;
    case PTX_OP_TRAP: return h_trap;
    case PTX_OP_BAR: case PTX_OP_BARRIER: return h_bar;
    case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_NANOSLEEP:
    case PTX_OP_RELSSP: case PTX_OP_PREF:
        return h_nop;
    default: return NULL;
    }
}
