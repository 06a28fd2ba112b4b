/* cta.c: a CTA's threads and issue groups, its barriers, and the
 * functional runner: round-robin over ready groups, running each until it
 * blocks, releasing barriers when every live group has arrived,
 * reporting a deadlock when no group can move, and stopping at a run
 * limit (base/limits.h) with where every warp is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "exec/recon.h"

int cta_init(cta_t *c, const exec_launch_t *l, const uint32_t ctaid[3],
             uint32_t smid, uint8_t *smem, uint32_t smem_size)
{
    memset(c, 0, sizeof *c);
    c->launch = l;
    memcpy(c->ctaid, ctaid, sizeof c->ctaid);
    c->smid = smid;
    c->smem = smem;
    c->smem_size = smem_size;
    c->smem_hi = smem;
    c->smem_split = smem_size;
    c->recon = recon_model((unsigned)simt_config_get(l->cfg,
                                                     SIMT_CFG_RECONVERGENCE));
    const exec_program_t *p = l->prog;
    c->nthreads = l->block.x * l->block.y * l->block.z;
    c->nwarps = (c->nthreads + WARP_SIZE - 1) / WARP_SIZE;
    /* thread storage per home warp (exec.h), one allocation per kind */
    size_t hw = c->nwarps;
    c->threads.regs = calloc(hw * (p->nslots ? p->nslots : 1) * WARP_SIZE,
                             sizeof *c->threads.regs);
    c->threads.preds = calloc(hw * (p->npreds ? p->npreds : 1),
                              sizeof *c->threads.preds);
    c->threads.cc = calloc(hw, sizeof *c->threads.cc);
    c->threads.local = calloc((size_t)c->nthreads *
                              (p->frame_bytes ? p->frame_bytes : 1), 1);
    c->warps = calloc(c->nwarps, sizeof *c->warps);
    int shadow = simt_config_get(l->cfg, SIMT_CFG_CHECK_UNINIT) != 0;
    if (shadow) /* + 1: never a zero-sized allocation */
        c->written = calloc(hw * (p->nslots + p->npreds) + 1, sizeof *c->written);
    if ((shadow && !c->written) || !c->threads.regs || !c->threads.preds ||
        !c->threads.cc || !c->threads.local || !c->warps) {
        cta_release(c);
        return set_error(l->err, SIMT_EINPUT, "out of host memory for a CTA");
    }
    for (uint32_t i = 0; i < c->nwarps; i++) {
        warp_t *w = &c->warps[i];
        w->cta = c;
        w->wid = i;
        w->cap = 16;
        w->stack = malloc(w->cap * sizeof *w->stack);
        if (!w->stack) {
            cta_release(c);
            return set_error(l->err, SIMT_EINPUT, "out of host memory for a CTA");
        }
    }
    int rc = c->recon->init(c);
    if (rc != SIMT_OK)
        cta_release(c);
    return rc;
}

void cta_release(cta_t *c)
{
    for (uint32_t i = 0; c->warps && i < c->nwarps; i++) {
        free(c->warps[i].stack);
        free(c->warps[i].copy_regs);
        free(c->warps[i].copy_preds);
    }
    free(c->warps);
    free(c->written);
    c->written = NULL;
    free(c->threads.regs);
    free(c->threads.preds);
    free(c->threads.cc);
    free(c->threads.local);
    for (uint32_t t = 0; c->threads.stacks && t < c->nthreads; t++)
        free(c->threads.stacks[t].data);
    free(c->threads.stacks);
    c->warps = NULL;
    c->threads = (exec_threads_t){ 0 };
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
            for (uint32_t l = 0; l < WARP_SIZE; l++) {
                if (!(m >> l & 1))
                    continue;
                if (d->kind == EO_PRED)
                    exec_thread_set_pred(c, w->thread[l], d->slot, r != 0);
                else if (d->kind == EO_REG)
                    *exec_thread_reg(c, w->thread[l], d->slot) = r;
            }
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

/* One line per warp of the CTA: its state, PC, PTX line and lanes. */
static void describe_warps(const cta_t *c, char *dump, size_t size)
{
    const exec_launch_t *L = c->launch;
    size_t n = 0;
    dump[0] = '\0';
    uint32_t i = 0;
    for (; i < c->nwarps && n < size - 160; i++) {
        const warp_t *w = &c->warps[i];
        if (w->state == WARP_DONE) {
            n += (size_t)snprintf(dump + n, size - n,
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
        n += (size_t)snprintf(dump + n, size - n,
                              "\n    warp %u: %s, PC %u (line %u), lanes 0x%08x",
                              i, what, pc, line, warp_active(w));
    }
    if (i < c->nwarps)
        snprintf(dump + n, size - n, "\n    ... and %u more warps", c->nwarps - i);
}

int cta_deadlock(cta_t *c, exec_ctx_t *x)
{
    const exec_launch_t *L = c->launch;
    char dump[3000];
    describe_warps(c, dump, sizeof dump);
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

/* A run limit reached inside the CTA: SIMT_ELIMIT, naming the limit, the
 * kernel and where each of the CTA's warps is (the only resident ones: the
 * functional runner runs CTAs one at a time, in order). */
static int limit_stop(cta_t *c)
{
    const exec_launch_t *L = c->launch;
    char dump[3000], what[96];
    describe_warps(c, dump, sizeof dump);
    return set_error(L->err, SIMT_ELIMIT, "%s: stopped: %s reached in kernel "
                     "'%s' (functional run); the statistics are partial\n"
                     "  CTAs before (%u,%u,%u) completed, later ones did not "
                     "start; the warps of CTA (%u,%u,%u):%s",
                     L->prog->mod->file, limits_describe(L->limits, what, sizeof what),
                     L->kernel_name, c->ctaid[0], c->ctaid[1], c->ctaid[2],
                     c->ctaid[0], c->ctaid[1], c->ctaid[2], dump);
}

int cta_run_functional(cta_t *c)
{
    exec_ctx_t x = { .l = c->launch, .cta = c };
    limits_t *lim = c->launch->limits;
    const simt_stats_t *st = c->launch->stats;
    for (;;) {
        int progressed = 0, live = 0;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            warp_t *w = &c->warps[i];
            /* run a warp until it blocks or finishes: fewer switches */
            while (w->state == WARP_READY) {
                if (limits_check(lim, 0, st->thread_insns))
                    return limit_stop(c);
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
