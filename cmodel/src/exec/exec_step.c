/* exec_step.c: executing one instruction of an issue group, special
 * registers, fault reports, and the choice of handler per instruction. */
#include <stdarg.h>
#include <stdio.h>

#include "base/error.h"
#include "exec/dispatch.h"
#include "exec/lanes.h"
#include "exec/recon.h"
#include "exec/uninit.h"

exec_fn exec_select(const ptx_insn_t *in)
{
    exec_fn f;
    int fl = ptx_type_is_float((ptx_type_t)in->type);
    switch (in->op) {
    case PTX_OP_CVT:
        return exec_select_cvt(in);
    case PTX_OP_SET:
        if (ptx_type_is_half((ptx_type_t)in->type2))
            return exec_select_half(in);
        return ptx_type_is_float((ptx_type_t)in->type2) ? exec_select_float(in)
                                                         : exec_select_int(in);
    case PTX_OP_MOV: case PTX_OP_SELP: case PTX_OP_SLCT:
        return exec_select_int(in); /* f16 and f16x2 move as bits */
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST: case PTX_OP_ATOM:
    case PTX_OP_RED: case PTX_OP_CVTA: case PTX_OP_ISSPACEP:
        return exec_select_mem(in);
    case PTX_OP_TEX: case PTX_OP_TLD4: case PTX_OP_SULD: case PTX_OP_SUST:
        return exec_select_tex(in);
    default:
        break;
    }
    if (ptx_type_is_half((ptx_type_t)in->type))
        return exec_select_half(in);
    if (fl)
        return exec_select_float(in);
    if ((f = exec_select_int(in)) != NULL)
        return f;
    if ((f = exec_select_mem(in)) != NULL)
        return f;
    if ((f = exec_select_ctrl(in)) != NULL)
        return f;
    if ((f = exec_select_video(in)) != NULL)
        return f;
    if ((f = exec_select_stack(in)) != NULL)
        return f;
    return exec_select_warp(in);
}

void exec_fill_sreg(exec_ctx_t *x, const warp_t *w, ptx_sreg_t s,
                    uint64_t *row)
{
    const exec_launch_t *L = x->l;
    const cta_t *c = w->cta;
    uint64_t v = 0;
    switch (s) {
    case PTX_SREG_TID_X: case PTX_SREG_TID_Y: case PTX_SREG_TID_Z: {
        /* the thread's index in the block, from its linear index */
        uint32_t bx = L->block.x, bxy = L->block.x * L->block.y;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            uint32_t t = w->thread[l];
            row[l] = t == EXEC_NO_THREAD ? 0
                   : s == PTX_SREG_TID_X ? t % bx
                   : s == PTX_SREG_TID_Y ? t / bx % L->block.y
                                         : t / bxy;
        }
        return;
    }
    case PTX_SREG_LANEID:
        for (unsigned l = 0; l < WARP_SIZE; l++)
            row[l] = l;
        return;
    case PTX_SREG_LANEMASK_EQ: case PTX_SREG_LANEMASK_LE:
    case PTX_SREG_LANEMASK_LT: case PTX_SREG_LANEMASK_GE:
    case PTX_SREG_LANEMASK_GT:
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            uint32_t eq = 1u << l, lt = eq - 1;
            row[l] = s == PTX_SREG_LANEMASK_EQ ? eq
                   : s == PTX_SREG_LANEMASK_LE ? (lt | eq)
                   : s == PTX_SREG_LANEMASK_LT ? lt
                   : s == PTX_SREG_LANEMASK_GE ? ~lt
                                               : ~(lt | eq);
        }
        return;
    case PTX_SREG_NTID_X: v = L->block.x; break;
    case PTX_SREG_NTID_Y: v = L->block.y; break;
    case PTX_SREG_NTID_Z: v = L->block.z; break;
    case PTX_SREG_CTAID_X: v = c->ctaid[0]; break;
    case PTX_SREG_CTAID_Y: v = c->ctaid[1]; break;
    case PTX_SREG_CTAID_Z: v = c->ctaid[2]; break;
    case PTX_SREG_NCTAID_X: v = L->grid.x; break;
    case PTX_SREG_NCTAID_Y: v = L->grid.y; break;
    case PTX_SREG_NCTAID_Z: v = L->grid.z; break;
    case PTX_SREG_WARPID: v = w->wid; break;
    case PTX_SREG_NWARPID: v = c->nwarps; break;
    case PTX_SREG_SMID: v = c->smid; break;
    case PTX_SREG_NSMID: v = L->smid_count; break;
    case PTX_SREG_GRIDID: v = 0; break;
    case PTX_SREG_CLOCK: v = (uint32_t)x->clock; break;
    case PTX_SREG_CLOCK_HI: v = (uint32_t)(x->clock >> 32); break;
    case PTX_SREG_CLOCK64: case PTX_SREG_GLOBALTIMER: v = x->clock; break;
    case PTX_SREG_DYN_SMEM_SIZE: v = L->dyn_shared; break;
    /* clusters of one CTA: the cluster is the CTA */
    case PTX_SREG_CLUSTERID_X: v = c->ctaid[0]; break;
    case PTX_SREG_CLUSTERID_Y: v = c->ctaid[1]; break;
    case PTX_SREG_CLUSTERID_Z: v = c->ctaid[2]; break;
    case PTX_SREG_NCLUSTERID_X: v = L->grid.x; break;
    case PTX_SREG_NCLUSTERID_Y: v = L->grid.y; break;
    case PTX_SREG_NCLUSTERID_Z: v = L->grid.z; break;
    case PTX_SREG_CLUSTER_NCTAID_X: case PTX_SREG_CLUSTER_NCTAID_Y:
    case PTX_SREG_CLUSTER_NCTAID_Z: case PTX_SREG_CLUSTER_NCTARANK:
        v = 1;
        break;
    case PTX_SREG_TOTAL_SMEM_SIZE: v = c->smem_size; break;
    default: v = 0; break;
    }
    for (unsigned l = 0; l < WARP_SIZE; l++)
        row[l] = v;
}

int exec_fault(exec_ctx_t *x, const warp_t *w, const exec_insn_t *ei,
               uint32_t lanes, const char *fmt, ...)
{
    x->faulted = 1;
    exec_ordered(x); /* a lower SM's fault of the same cycle wins */
    const exec_launch_t *L = x->l;
    if (L->err->status != SIMT_OK)
        return SIMT_EFAULT;
    char what[3072], src[256]; /* a deadlock lists every warp */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const cta_t *c = w->cta;
    const ptx_module_t *m = L->prog->mod;
    uint32_t pc = ei ? (uint32_t)(ei - L->prog->code) : warp_pc(w);
    uint32_t line = ei ? ei->ir->line : 0;
    ptx_source_line(m, line, src, sizeof src);
    set_error(L->err, SIMT_EFAULT,
              "%s:%u: fault: %s\n"
              "  kernel %s, CTA (%u,%u,%u), warp %u, lanes 0x%08x, PC %u\n"
              "  %u | %s",
              m->file, line, what, L->kernel_name, c->ctaid[0], c->ctaid[1],
              c->ctaid[2], w->wid, lanes, pc, line, src);
    return SIMT_EFAULT;
}

void exec_stats_move(simt_stats_t *to, simt_stats_t *from)
{
#define MOVE(f) (to->f += from->f, from->f = 0)
    MOVE(warp_insns);
    MOVE(thread_insns);
    MOVE(barriers);
    MOVE(atomics);
    MOVE(divergent_branches);
    MOVE(shared_loads);
    MOVE(shared_stores);
    MOVE(local_loads);
    MOVE(local_stores);
    MOVE(global_loads);
    MOVE(global_stores);
    MOVE(ctas_completed);
    MOVE(ssp_relssp_insns);
#undef MOVE
}

int exec_step(exec_ctx_t *x, warp_t *w)
{
    if (w->depth == 0) {
        w->state = WARP_DONE;
        return SIMT_OK;
    }
    const exec_program_t *p = x->l->prog;
    simt_entry_t *top = &w->stack[w->depth - 1];
    uint32_t pc = top->pc;
    uint32_t active = top->mask & ~w->exited;
    if (pc >= p->ncode)
        return exec_fault(x, w, NULL, active, "control reached PC %u outside "
                          "the kernel (missing ret/exit?)", pc);
    const exec_insn_t *ei = &p->code[pc];
    int mixed = w->home == EXEC_NO_THREAD;
    if (mixed)
        exec_group_copy_in(w, ei);
    uint32_t m = active;
    if (ei->guard != EXEC_NO_PC) {
        uint32_t g = w->preds[ei->guard];
        m &= ei->guard_neg ? ~g : g;
    }
    int shadow = w->cta->written != NULL; /* check_uninit */
    if (shadow && uninit_check(x, w, ei, active, m) != SIMT_OK)
        return SIMT_EFAULT;
    if (x->trace) {
        x->trace->mask = 0;
        x->trace->write = 0;
        x->trace->tex = 0;
        x->trace->ntaps = 0;
        x->trace->atomic = ei->ir->op == PTX_OP_ATOM || ei->ir->op == PTX_OP_RED;
    }
    simt_stats_t *st = exec_stats(x);
    st->warp_insns++;
    st->thread_insns += (uint64_t)__builtin_popcount(active);
    x->clock++;
    top->pc = pc + 1;
    ei->fn(x, w, ei, m);
    if (shadow)
        uninit_mark(w, ei, m);
    if (mixed)
        exec_group_copy_out(w, ei);
    if (x->faulted)
        return SIMT_EFAULT;
    return w->cta->recon->settle(x, w, ei);
}
