/* exec_ctrl.c: control flow: bra, call, ret, exit, barriers, and
 * instructions with no functional effect.  What control flow does to a
 * group's lanes and PCs belongs to the reconvergence model (recon.h); the
 * handlers here do what every model shares: a uniform branch, the frame
 * copies of call and ret (with the stack records of recursive functions,
 * exec_stack.c), indirect calls (the callee chosen by the target
 * register; lanes calling different functions serialised as a branch of
 * the model), and barriers. */
#include <stdlib.h>

#include "exec/dispatch.h"
#include "exec/lanes.h"
#include "exec/recon.h"

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
    w->cta->recon->branch(x, w, ei, m);
}

/* Copies between frame offsets of the threads in lanes m. */
static void copy_frames(warp_t *w, const exec_program_t *p, uint32_t first,
                        uint32_t count, uint32_t m)
{
    for (uint32_t c = first; c < first + count; c++) {
        const exec_copy_t *cp = &p->copies[c];
        FOR_LANES(m, l) {
            uint8_t *base = exec_thread_local(w->cta, w->thread[l]);
            memmove(base + cp->to, base + cp->from, cp->bytes);
        }
    }
}

/* Lanes m of w enter `func` at `entry`: a recursive function first saves
 * its current activation (exec_stack.c), then the arguments are copied
 * (their sources, in the caller's frame, are not changed by the save). */
static void enter(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                  uint32_t func, uint32_t entry, uint32_t first,
                  uint32_t count, uint32_t m)
{
    if (x->l->prog->fsave[func].recursive &&
        exec_stack_push(x, w, ei, func, m) != 0)
        return;
    copy_frames(w, x->l->prog, first, count, m);
    w->cta->recon->call(x, w, ei, entry, m);
}

static void h_call(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                   uint32_t m)
{
    if (!m)
        return;
    uint32_t fi = ei->ir->ops[0].kind == PTX_OPND_LIST ? 1 : 0;
    enter(x, w, ei, (uint32_t)ei->ir->ops[fi].imm, ei->target, ei->call_first,
          ei->call_count, m);
}

/* The lanes of m whose target register holds the same function address
 * as the lowest lane's. */
static uint32_t icall_same(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                           uint32_t m)
{
    unsigned fi = ei->ir->ops[0].kind == PTX_OPND_LIST ? 1 : 0;
    const uint64_t *t = SRC(fi);
    uint64_t a = t[__builtin_ctz(m)];
    uint32_t same = 0;
    FOR_LANES(m, l)
        if (t[l] == a)
            same |= 1u << l;
    return same;
}

/* The callee of indirect call ei for lanes m (which all name it, see
 * icall_same): the function the target register names, among those
 * fitting the call's prototype (program.c); NULL after a fault report. */
static const exec_icall_t *icall_target(exec_ctx_t *x, warp_t *w,
                                        const exec_insn_t *ei, uint32_t m)
{
    const exec_program_t *p = x->l->prog;
    unsigned fi = ei->ir->ops[0].kind == PTX_OPND_LIST ? 1 : 0;
    uint64_t a = SRC(fi)[__builtin_ctz(m)];
    uint64_t off = a - EXEC_FUNC_BASE;
    for (uint32_t i = 0; a >= EXEC_FUNC_BASE && off % EXEC_FUNC_STRIDE == 0 &&
                         i < ei->icall_count; i++) {
        const exec_icall_t *c = &p->icalls[ei->icall_first + i];
        if (c->func == off / EXEC_FUNC_STRIDE)
            return c;
    }
    exec_fault(x, w, ei, m, "indirect call to 0x%llx, which is not the "
               "address of a function matching the call's prototype",
               (unsigned long long)a);
    return NULL;
}

/* Is `func` active in the group (a frame entry runs in it)?  A function
 * no cycle of direct calls leads back to keeps a single activation (no
 * stack record): entered again through a pointer, it would overwrite
 * it. */
static int active_in(const warp_t *w, const exec_program_t *p, uint32_t func)
{
    for (uint32_t i = 0; i < w->depth; i++)
        if (w->stack[i].call_pc != EXEC_NO_PC && w->stack[i].pc < p->ncode &&
            p->code[w->stack[i].pc].func == func)
            return 1;
    return 0;
}

static void h_call_indirect(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                            uint32_t m)
{
    if (!m)
        return;
    uint32_t same = icall_same(x, w, ei, m);
    if (same != m) {
        /* lanes call different functions: run the call again for the
         * lanes of the lowest one's function first, then for the others,
         * as a divergent branch from the call to itself that reconverges
         * after it (program.c sets target and reconv so) */
        w->stack[w->depth - 1].pc = ei->target;
        w->cta->recon->branch(x, w, ei, same);
        return;
    }
    const exec_icall_t *c = icall_target(x, w, ei, m);
    if (!c)
        return;
    if (!x->l->prog->fsave[c->func].recursive &&
        active_in(w, x->l->prog, c->func)) {
        exec_fault(x, w, ei, m, "indirect call to '%s', which is already "
                   "active: recursion through function pointers alone is "
                   "not supported (direct calls must lead back to it)",
                   x->l->prog->mod->funcs[c->func].name);
        return;
    }
    enter(x, w, ei, c->func, c->entry, c->call_first, c->call_count, m);
}

/* The return values of lanes m leave the frame of `func` (recursive) for
 * the caller's: read them first, restore the outer activation, then write
 * them (the caller's destination may lie in the restored frame). */
static void leave_recursive(exec_ctx_t *x, warp_t *w, uint32_t func,
                            uint32_t first, uint32_t count, uint32_t m)
{
    const exec_program_t *p = x->l->prog;
    size_t bytes = 0;
    for (uint32_t c = first; c < first + count; c++)
        bytes += p->copies[c].bytes;
    uint8_t *tmp = bytes ? malloc(bytes * WARP_SIZE) : NULL;
    if (bytes && !tmp) {
        exec_fault(x, w, NULL, m, "out of host memory returning from '%s'",
                   p->mod->funcs[func].name);
        return;
    }
    size_t off = 0;
    for (uint32_t c = first; c < first + count; c++) {
        const exec_copy_t *cp = &p->copies[c];
        FOR_LANES(m, l)
            memcpy(tmp + off + (size_t)l * cp->bytes,
                   exec_thread_local(w->cta, w->thread[l]) + cp->from, cp->bytes);
        off += (size_t)cp->bytes * WARP_SIZE;
    }
    exec_stack_pop(x, w, func, m);
    off = 0;
    for (uint32_t c = first; c < first + count; c++) {
        const exec_copy_t *cp = &p->copies[c];
        FOR_LANES(m, l)
            memcpy(exec_thread_local(w->cta, w->thread[l]) + cp->to,
                   tmp + off + (size_t)l * cp->bytes, cp->bytes);
        off += (size_t)cp->bytes * WARP_SIZE;
    }
    free(tmp);
}

static void h_ret(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    if (!m)
        return;
    const exec_program_t *p = x->l->prog;
    uint32_t call_pc = w->cta->recon->ret(x, w, m);
    if (call_pc == EXEC_NO_PC) { /* ret from the kernel itself */
        w->cta->recon->exit(x, w, m);
        return;
    }
    const exec_insn_t *call = &p->code[call_pc];
    uint32_t first = call->ret_first, count = call->ret_count;
    if (call->fn == h_call_indirect) {
        /* the callee's copies: the target register (the caller's, which
         * the callee cannot write) still names it */
        const exec_icall_t *c = icall_target(x, w, call, m);
        if (!c)
            return;
        first = c->ret_first;
        count = c->ret_count;
    }
    if (p->fsave[ei->func].recursive)
        leave_recursive(x, w, ei->func, first, count, m);
    else
        copy_frames(w, p, first, count, m);
}

static void h_exit(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                   uint32_t m)
{
    (void)ei;
    w->cta->recon->exit(x, w, m);
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
    exec_stats(x)->barriers++;
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
 * satisfied by sequential execution; prefetch is a hint (the timing model
 * does not fetch the line yet); pref gets its meaning from the timing
 * model's mechanisms (EXPARS). */
static void h_nop(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    (void)x;
    (void)w;
    (void)ei;
    (void)m;
}

/* relssp: counted (ssp_relssp_insns: which launches ran the Scratchpad
 * Sharing passes' code, gpu/compiled.h); the release itself is the timing
 * model's (core/sm_share.c), which sees the instruction at issue. */
static void h_relssp(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                     uint32_t m)
{
    (void)w;
    (void)ei;
    (void)m;
    exec_stats(x)->ssp_relssp_insns++;
}

exec_fn exec_select_ctrl(const ptx_insn_t *in)
{
    switch (in->op) {
    case PTX_OP_BRA: return h_bra;
    case PTX_OP_CALL: {
        unsigned fi = in->ops[0].kind == PTX_OPND_LIST ? 1 : 0;
        return in->ops[fi].kind == PTX_OPND_REG ? h_call_indirect : h_call;
    }
    case PTX_OP_RET: return h_ret;
    case PTX_OP_EXIT: return h_exit;
    case PTX_OP_TRAP: return h_trap;
    case PTX_OP_BAR: case PTX_OP_BARRIER: return h_bar;
    case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_NANOSLEEP:
    case PTX_OP_RELSSP: return h_relssp;
    case PTX_OP_PREF: case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
        return h_nop;
    default: return NULL;
    }
}
