/* cta.c: a CTA's warps and the functional runner: round-robin over ready
 * warps, one warp-instruction per turn, releasing barriers when every live
 * warp has arrived, and reporting a deadlock when no warp can move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "exec/exec.h"

int cta_init(cta_t *c, const exec_launch_t *l, const uint32_t ctaid[3],
             uint32_t smid, uint8_t *smem, uint32_t smem_size)
{
    memset(c, 0, sizeof *c);
    c->launch = l;
    memcpy(c->ctaid, ctaid, sizeof c->ctaid);
    c->smid = smid;
    c->smem = smem;
    c->smem_size = smem_size;
    const exec_program_t *p = l->prog;
    c->nthreads = l->block.x * l->block.y * l->block.z;
    c->nwarps = (c->nthreads + WARP_SIZE - 1) / WARP_SIZE;
    c->warps = calloc(c->nwarps, sizeof *c->warps);
    if (!c->warps)
        return set_error(l->err, SIMT_EINPUT, "out of host memory for a CTA");
    for (uint32_t i = 0; i < c->nwarps; i++) {
        warp_t *w = &c->warps[i];
        w->cta = c;
        w->wid = i;
        w->regs = calloc((size_t)(p->nslots ? p->nslots : 1) * WARP_SIZE,
                         sizeof *w->regs);
        w->preds = calloc(p->npreds ? p->npreds : 1, sizeof *w->preds);
        w->local = calloc((size_t)WARP_SIZE * (p->frame_bytes ? p->frame_bytes : 1), 1);
        w->cap = 16;
        w->stack = malloc(w->cap * sizeof *w->stack);
        if (!w->regs || !w->preds || !w->local || !w->stack) {
            cta_release(c);
            return set_error(l->err, SIMT_EINPUT, "out of host memory for a CTA");
        }
        for (uint32_t lane = 0; lane < WARP_SIZE; lane++) {
            uint32_t t = i * WARP_SIZE + lane;
            if (t >= c->nthreads)
                break;
            w->valid |= 1u << lane;
            w->tid[0][lane] = t % l->block.x;
            w->tid[1][lane] = t / l->block.x % l->block.y;
            w->tid[2][lane] = t / (l->block.x * l->block.y);
        }
        w->stack[0] = (simt_entry_t){ 0, EXEC_NO_PC, w->valid, EXEC_NO_PC };
        w->depth = 1;
    }
    return SIMT_OK;
}

void cta_release(cta_t *c)
{
    for (uint32_t i = 0; c->warps && i < c->nwarps; i++) {
        free(c->warps[i].regs);
        free(c->warps[i].preds);
        free(c->warps[i].local);
        free(c->warps[i].stack);
    }
    free(c->warps);
    c->warps = NULL;
}

/* Releases barrier `id` if enough warps have arrived; returns 1 if so. */
static int try_release(cta_t *c, unsigned id)
{
    uint32_t live = 0, waiting = 0, count = 0;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        warp_t *w = &c->warps[i];
        if (w->state == WARP_DONE)
            continue;
        live++;
        if (w->state == WARP_AT_BARRIER && w->bar_id == id) {
            waiting++;
            if (w->bar_count)
                count = w->bar_count;
        }
    }
    if (!waiting)
        return 0;
    uint32_t need = count ? count : live * WARP_SIZE;
    if (c->bar_arrived[id] < need)
        return 0;
    const exec_program_t *p = c->launch->prog;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        warp_t *w = &c->warps[i];
        if (w->state != WARP_AT_BARRIER || w->bar_id != id)
            continue;
        const exec_insn_t *ei = &p->code[w->bar_pc];
        if (ei->ir->sub == PTX_SUB_RED) { /* deliver the reduction */
            uint32_t m = warp_active(w);
            const exec_opnd_t *d = &ei->o[0];
            uint32_t r = c->bar_red[id];
            if (d->kind == EO_PRED)
                w->preds[d->slot] = (w->preds[d->slot] & ~m) | (r ? m : 0);
            else if (d->kind == EO_REG)
                for (uint32_t l = 0; l < WARP_SIZE; l++)
                    if (m >> l & 1)
                        w->regs[(size_t)d->slot * WARP_SIZE + l] = r;
        }
        w->state = WARP_READY;
    }
    c->bar_arrived[id] = 0;
    c->bar_red[id] = 0;
    c->bar_red_any[id] = 0;
    return 1;
}

unsigned cta_release_barriers(cta_t *c)
{
    unsigned n = 0;
    for (unsigned id = 0; id < EXEC_NBARRIERS; id++)
        n += (unsigned)try_release(c, id);
    return n;
}

int cta_deadlock(cta_t *c, exec_ctx_t *x)
{
    const exec_launch_t *L = c->launch;
    char dump[3000];
    size_t n = 0;
    for (uint32_t i = 0; i < c->nwarps && n < sizeof dump - 160; i++) {
        const warp_t *w = &c->warps[i];
        if (w->state == WARP_DONE) {
            n += (size_t)snprintf(dump + n, sizeof dump - n,
                                  "\n    warp %u: exited", i);
            continue;
        }
        int waiting = w->state == WARP_AT_BARRIER;
        uint32_t pc = waiting ? w->bar_pc : warp_pc(w);
        uint32_t line = pc < L->prog->ncode ? L->prog->code[pc].ir->line : 0;
        char what[48];
        if (waiting)
            snprintf(what, sizeof what, "waiting at barrier %u", w->bar_id);
        else
            snprintf(what, sizeof what, "ready");
        n += (size_t)snprintf(dump + n, sizeof dump - n,
                              "\n    warp %u: %s, PC %u (line %u), lanes 0x%08x",
                              i, what, pc, line, warp_active(w));
    }
    const warp_t *w0 = NULL;
    for (uint32_t i = 0; i < c->nwarps && !w0; i++)
        if (c->warps[i].state == WARP_AT_BARRIER)
            w0 = &c->warps[i];
    if (!w0)
        w0 = &c->warps[0];
    uint32_t pc = warp_pc(w0);
    const exec_insn_t *ei = pc < L->prog->ncode ? &L->prog->code[pc] : NULL;
    if (ei && w0->state == WARP_AT_BARRIER)
        ei = &L->prog->code[w0->bar_pc];
    return exec_fault(x, w0, ei, warp_active(w0), "deadlock: no warp of the "
                      "CTA can proceed (a barrier that some warps never "
                      "reach?); warps:%s", dump);
}

int cta_run_functional(cta_t *c)
{
    exec_ctx_t x = { .l = c->launch, .cta = c };
    for (;;) {
        int progressed = 0, live = 0;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            warp_t *w = &c->warps[i];
            /* run a warp until it blocks or finishes: fewer switches */
            while (w->state == WARP_READY) {
                if (exec_step(&x, w) != SIMT_OK)
                    return SIMT_EFAULT;
                progressed = 1;
            }
            if (w->state != WARP_DONE)
                live++;
        }
        if (!live)
            break;
        progressed |= cta_release_barriers(c) != 0;
        if (!progressed)
            return cta_deadlock(c, &x);
    }
    c->launch->stats->ctas_completed++;
    return SIMT_OK;
}
