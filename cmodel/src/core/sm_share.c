/* sm_share.c: Scratchpad Sharing on one SM (sm_share.h). */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "core/sm.h"
#include "units/warp_arbiter.h"

int sm_share_init(sm_t *s)
{
    sm_share_t *h = &s->share;
    *h = (sm_share_t){ 0 };
    if (!s->cfg.ssp_sharing)
        return 0;
    unsigned n = s->cfg.max_ctas;
    h->words = (s->cfg.max_threads + 31) / 32;
    h->partner = calloc(n, sizeof *h->partner);
    h->holder = calloc(n, sizeof *h->holder);
    h->held_since = calloc(n, sizeof *h->held_since);
    h->rel_done = calloc(n, 1);
    h->rel_pending = calloc(n, 1);
    h->rel_started = calloc(n, 1);
    h->inflight = calloc(n, sizeof *h->inflight);
    h->rel_bits = calloc((size_t)n * h->words, sizeof *h->rel_bits);
    if (!h->partner || !h->holder || !h->held_since || !h->rel_done ||
        !h->rel_pending || !h->rel_started || !h->inflight || !h->rel_bits)
        return -1;
    return 0;
}

void sm_share_free(sm_t *s)
{
    sm_share_t *h = &s->share;
    free(h->partner);
    free(h->holder);
    free(h->held_since);
    free(h->rel_done);
    free(h->rel_pending);
    free(h->rel_started);
    free(h->inflight);
    free(h->rel_bits);
    *h = (sm_share_t){ 0 };
}

static int sharing_kernel(const sm_t *s, const sm_kernel_t *k)
{
    return s->cfg.ssp_sharing && k->ssp_n > k->ssp_m;
}

int sm_share_fits(const sm_t *s, const sm_kernel_t *k)
{
    return sm_share_fits_n(s, k, 1);
}

int sm_share_fits_n(const sm_t *s, const sm_kernel_t *k, unsigned n)
{
    const sm_share_t *h = &s->share;
    if (s->nctas && h->k != k)
        /* a sharing kernel's layout owns the SM until it empties; a
         * sharing kernel arriving at an SM busy with another kernel's
         * CTAs is placed without sharing */
        return h->k ? 0 : -1;
    if (!sharing_kernel(s, k))
        return -1;
    unsigned free_slots = 0;
    for (unsigned ci = 0; ci < k->ssp_n; ci++)
        free_slots += !s->ctas[ci].used;
    return free_slots >= n &&
           s->used_warps + n * k->warps <= s->cfg.max_warps &&
           s->used_threads + n * k->threads <= s->cfg.max_threads &&
           s->used_regs + (uint64_t)n * k->regs <= s->cfg.regs;
}

int sm_share_slot(sm_t *s, const sm_kernel_t *k, unsigned *ci, uint32_t *base)
{
    sm_share_t *h = &s->share;
    if (sm_share_fits(s, k) < 0)
        return -1;
    if (!s->nctas) { /* kernel launch on this SM: the tables (§2.6 row 1) */
        h->k = k;
        unsigned m = k->ssp_m, p = k->ssp_n - k->ssp_m;
        for (unsigned c = 0; c < s->cfg.max_ctas; c++) {
            h->partner[c] = -1;
            h->holder[c] = -1;
        }
        for (unsigned j = 0; j < p; j++) {
            h->partner[j] = (int16_t)(m + j);
            h->partner[m + j] = (int16_t)j;
        }
    }
    unsigned c = 0;
    while (c < k->ssp_n && s->ctas[c].used)
        c++;
    *ci = c;
    *base = c < k->ssp_m ? c * k->smem
                         : k->ssp_m * k->smem + (c - k->ssp_m) * k->ssp_priv;
    return 0;
}

/* Pair index (the baseline slot) of CTA slot ci, or -1 when unshared. */
static int pair_of(const sm_share_t *h, unsigned ci)
{
    int p = h->partner[ci];
    return p < 0 ? -1 : (int)ci < p ? (int)ci : p;
}

void sm_share_placed(sm_t *s, unsigned ci)
{
    sm_share_t *h = &s->share;
    const sm_kernel_t *k = h->k;
    cta_t *c = &s->ctas[ci].cta;
    h->rel_done[ci] = h->rel_pending[ci] = h->rel_started[ci] = 0;
    h->inflight[ci] = 0;
    memset(h->rel_bits + (size_t)ci * h->words, 0, h->words * sizeof *h->rel_bits);
    int p = h->partner[ci];
    if (p < 0)
        return;
    if (ci >= k->ssp_m) { /* the extra slot: offsets >= limit are slot p's */
        c->smem_split = k->ssp_limit;
        c->smem_hi = s->smem + (size_t)p * k->smem;
    }
    /* (sm.c's share_zero zeroed the private bytes, and the shared region
     * only when the partner is absent) */
}

/* Touches every warp slot of CTA slot ci (lock state changed). */
static void touch_cta(sm_t *s, int ci)
{
    if (ci < 0)
        return;
    for (unsigned i = 0; i < s->cfg.max_warps; i++)
        if (s->slots[i].live && s->slots[i].cta == (unsigned)ci)
            sm_ready_touch(s, i);
}

/* Whether the instruction at slot i's PC needs the pair's shared region. */
static int needs_region(const sm_t *s, unsigned i, const exec_insn_t *ei)
{
    return exec_smem_reaches(s->slots[i].w, ei, s->share.k->ssp_limit);
}

int sm_share_gate_closed(const sm_t *s, unsigned i)
{
    const sm_share_t *h = &s->share;
    if (!h->k)
        return 0;
    unsigned ci = s->slots[i].cta;
    int j = pair_of(h, ci);
    if (j < 0 || h->holder[j] != h->partner[ci])
        return 0;
    const sm_kernel_t *k = s->ctas[ci].k;
    return needs_region(s, i, &k->l->prog->code[s->slots[i].ibuf_pc]);
}

uint8_t sm_share_class(const sm_t *s, unsigned ci)
{
    const sm_share_t *h = &s->share;
    int j = h->k ? pair_of(h, ci) : -1;
    if (j < 0 || h->holder[j] < 0)
        return WARP_ARBITER_UNSHARED;
    return h->holder[j] == (int)ci ? WARP_ARBITER_OWNER : WARP_ARBITER_NONOWNER;
}

int sm_share_before_issue(sm_t *s, unsigned i, const exec_insn_t *ei,
                          uint64_t now)
{
    sm_share_t *h = &s->share;
    if (!h->k)
        return SIMT_OK;
    unsigned ci = s->slots[i].cta;
    if (ei->ir->op == PTX_OP_RELSSP) {
        const warp_t *w = s->slots[i].w;
        uint32_t m = warp_active(w);
        if (ei->guard != EXEC_NO_PC)
            m &= ei->guard_neg ? ~w->preds[ei->guard] : w->preds[ei->guard];
        h->lanes = m;
        return SIMT_OK;
    }
    int j = pair_of(h, ci);
    if (j < 0 || !needs_region(s, i, ei))
        return SIMT_OK;
    if (h->rel_done[ci]) { /* §2.9: relssp placement guarantees no re-acquire */
        warp_t *w = s->slots[i].w;
        s->x.l = s->ctas[ci].k->l;
        exec_fault(&s->x, w, ei, warp_active(w), "Scratchpad Sharing: a "
                   "shared-region access (offset >= %u) after the CTA's relssp "
                   "released the region", h->k->ssp_limit);
        return SIMT_EFAULT;
    }
    if (h->holder[j] < 0) { /* FCFS: the first requester takes it now */
        h->holder[j] = (int16_t)ci;
        h->held_since[j] = now;
        h->acquisitions++;
        touch_cta(s, (int)ci);
        touch_cta(s, h->partner[ci]);
    }
    return SIMT_OK;
}

/* Frees pair j's lock (held by ci) at `now`. */
static void unlock(sm_t *s, int j, uint64_t now)
{
    sm_share_t *h = &s->share;
    h->held_cycles += now - h->held_since[j];
    int ci = h->holder[j];
    h->holder[j] = -1;
    touch_cta(s, ci);
    touch_cta(s, h->partner[ci]);
}

/* relssp completed for ci (every live thread released): frees the lock
 * once the CTA's shared accesses drained (the fence). */
static void try_release(sm_t *s, unsigned ci, uint64_t now)
{
    sm_share_t *h = &s->share;
    if (!h->rel_pending[ci] || h->inflight[ci])
        return;
    h->rel_pending[ci] = 0;
    int j = pair_of(h, ci);
    if (j >= 0 && h->holder[j] == (int)ci) {
        h->releases++;
        unlock(s, j, now);
    }
}

/* Whether every live (not exited) thread of CTA slot ci set its bit. */
static int all_released(const sm_t *s, unsigned ci)
{
    const sm_share_t *h = &s->share;
    const cta_t *c = &s->ctas[ci].cta;
    const uint32_t *bits = h->rel_bits + (size_t)ci * h->words;
    for (uint32_t wi = 0; wi < c->nwarps; wi++) {
        const warp_t *w = &c->warps[wi];
        uint32_t live = w->valid & ~w->exited;
        for (uint32_t m = live; m; m &= m - 1) {
            uint32_t t = w->thread[__builtin_ctz(m)];
            if (t == EXEC_NO_THREAD || !(bits[t / 32] >> (t % 32) & 1))
                return 0;
        }
    }
    return 1;
}

void sm_share_after_issue(sm_t *s, unsigned i, const exec_insn_t *ei,
                          sm_inst_t *in, uint64_t now)
{
    sm_share_t *h = &s->share;
    if (!h->k)
        return;
    unsigned ci = s->slots[i].cta;
    const exec_access_t *a = &s->access;
    if (in->cls == OPC_MEM && a->mask) {
        for (uint32_t m = a->mask; m; m &= m - 1)
            if (a->space[__builtin_ctz(m)] == PTX_SPACE_SHARED) {
                in->shared = 1;
                h->inflight[ci]++;
                break;
            }
    }
    if (h->rel_done[ci])
        return;
    if (ei->ir->op == PTX_OP_RELSSP) {
        /* the lanes that executed it (sm_share_before_issue kept them:
         * the step moves the group on) */
        const warp_t *w = s->slots[i].w;
        uint32_t m = h->lanes;
        uint32_t *bits = h->rel_bits + (size_t)ci * h->words;
        for (; m; m &= m - 1) {
            uint32_t t = w->thread[__builtin_ctz(m)];
            if (t != EXEC_NO_THREAD)
                bits[t / 32] |= 1u << (t % 32);
        }
        h->rel_started[ci] = 1;
    }
    if (h->rel_started[ci] && all_released(s, ci)) {
        h->rel_done[ci] = 1;
        h->rel_pending[ci] = 1;
        try_release(s, ci, now);
    }
}

void sm_share_retired(sm_t *s, const sm_inst_t *in, uint64_t now)
{
    sm_share_t *h = &s->share;
    unsigned ci = s->slots[in->slot].cta;
    h->inflight[ci]--;
    try_release(s, ci, now);
}

void sm_share_cta_done(sm_t *s, unsigned ci, uint64_t now)
{
    sm_share_t *h = &s->share;
    if (!h->k)
        return;
    int j = pair_of(h, ci), p = h->partner[ci];
    if (j >= 0 && h->holder[j] == (int)ci) {
        if (s->ctas[p].used && !h->rel_done[p]) { /* §2.6: to the partner */
            h->holder[j] = (int16_t)p;
            h->transfers++;
            touch_cta(s, p);
        } else {
            unlock(s, j, now);
        }
    }
    h->rel_done[ci] = h->rel_pending[ci] = h->rel_started[ci] = 0;
    h->inflight[ci] = 0;
    if (s->nctas == 1) /* the last CTA (the caller counts it down next):
                          ShSM ends with the kernel's stay on this SM */
        h->k = NULL;
}
