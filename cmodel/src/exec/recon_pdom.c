/* recon_pdom.c: the post-dominator reconvergence stack (recon.h).
 *
 * Groups are the CTA's static warps: group i holds threads 32i..32i+31 in
 * their home lanes and keeps them for the CTA's life.  Its entries form a
 * stack of {pc, reconvergence pc, mask}.  A divergent branch turns the
 * current entry into the reconvergence entry (pc = immediate
 * post-dominator), pushes the not-taken path, then the taken path, so the
 * taken path runs first.  An entry is popped when its pc reaches its
 * reconvergence pc or when all its lanes have left (exit or ret).  A call
 * pushes a frame entry marked with the call's PC; ret removes the returning
 * lanes from every entry down to and including that frame. */
#include <stdlib.h>

#include "base/error.h"
#include "exec/recon.h"

static int pdom_init(cta_t *c)
{
    for (uint32_t i = 0; i < c->nwarps; i++) {
        warp_t *w = &c->warps[i];
        uint32_t thread[WARP_SIZE];
        for (uint32_t lane = 0; lane < WARP_SIZE; lane++) {
            uint32_t t = i * WARP_SIZE + lane;
            thread[lane] = t < c->nthreads ? t : EXEC_NO_THREAD;
        }
        if (exec_group_map(w, thread) != 0) /* identity: never copies */
            return set_error(c->launch->err, SIMT_EINPUT,
                             "out of host memory for a CTA");
        w->stack[0] = (simt_entry_t){ 0, EXEC_NO_PC, w->valid, EXEC_NO_PC };
        w->depth = 1;
    }
    return SIMT_OK;
}

/* Pushes an entry; SIMT_EFAULT on overflow. */
static int push(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t pc,
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

static void pdom_branch(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                        uint32_t m)
{
    simt_entry_t *top = &w->stack[w->depth - 1];
    uint32_t active = top->mask & ~w->exited;
    uint32_t fall = top->pc, rpc = ei->reconv;
    exec_stats(x)->divergent_branches++;
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
            push(x, w, ei, fall, rpc, active & ~m, EXEC_NO_PC))
            return;
    }
    if (ei->target != rpc)
        push(x, w, ei, ei->target, rpc, m, EXEC_NO_PC);
}

static void pdom_call(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                      uint32_t entry, uint32_t m)
{
    uint32_t call_pc = (uint32_t)(ei - x->l->prog->code);
    push(x, w, ei, entry, EXEC_NO_PC, m, call_pc);
}

static uint32_t pdom_ret(exec_ctx_t *x, warp_t *w, uint32_t m)
{
    (void)x;
    uint32_t f = w->depth;
    while (f > 0 && w->stack[f - 1].call_pc == EXEC_NO_PC)
        f--;
    if (f == 0) /* ret from the kernel itself */
        return EXEC_NO_PC;
    for (uint32_t i = f - 1; i < w->depth; i++)
        w->stack[i].mask &= ~m;
    return w->stack[f - 1].call_pc;
}

static void pdom_exit(exec_ctx_t *x, warp_t *w, uint32_t m)
{
    (void)x;
    w->exited |= m;
    if ((w->valid & ~w->exited) == 0)
        w->state = WARP_DONE;
}

static int pdom_settle(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei)
{
    /* reconverge: pop finished entries */
    while (w->depth) {
        simt_entry_t *t = &w->stack[w->depth - 1];
        if ((t->mask & ~w->exited) && !(t->rpc != EXEC_NO_PC && t->pc == t->rpc))
            break;
        w->depth--;
    }
    if (w->depth == 0 || (w->valid & ~w->exited) == 0)
        w->state = WARP_DONE;
    else if (w->stack[w->depth - 1].pc == EXEC_NO_PC)
        return exec_fault(x, w, ei, warp_active(w), "internal: lanes 0x%08x "
                          "resumed at a reconvergence point that is the "
                          "function's exit", warp_active(w));
    return SIMT_OK;
}

const recon_ops_t recon_pdom = {
    .init = pdom_init,
    .branch = pdom_branch,
    .call = pdom_call,
    .ret = pdom_ret,
    .exit = pdom_exit,
    .settle = pdom_settle,
};
