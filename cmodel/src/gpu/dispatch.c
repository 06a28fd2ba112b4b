/* dispatch.c: the kernel queue of a timing run and CTA dispatch
 * (dispatch.h). */
#include <assert.h>
#include <stdlib.h>

#include <limits.h>

#include "base/error.h"
#include "gpu/cta_quota.h"
#include "gpu/dispatch.h"
#include "simt/config.h"

/* ---------- the policy's queries (gpu/cta_policy.h) ---------- */

/* A quota (cke_quota) is a limit like a resource: no policy exceeds it. */
static int fits(const void *ctx, unsigned sm, unsigned kernel)
{
    const dispatch_t *d = ctx;
    const sm_kernel_t *k = &d->ks[kernel].k;
    return sm_can_take_cta(&d->sms[sm], k) &&
           (!d->quota[kernel] || k->ctas_on_sm[sm] < d->quota[kernel]);
}

static unsigned at_most(unsigned a, unsigned b)
{
    return a < b ? a : b;
}

/* T_max: what an empty SM holds of the kernel by resources alone (SMs are
 * alike, so SM 0's configuration stands for all), lowered by its quota. */
static unsigned cap(const void *ctx, unsigned kernel)
{
    const dispatch_t *d = ctx;
    const sm_cfg_t *c = &d->sms[0].cfg;
    const sm_kernel_t *k = &d->ks[kernel].k;
    unsigned n = c->max_ctas;
    if (k->ssp_n > k->ssp_m) { /* Scratchpad Sharing: n of occupancy_sharing */
        n = k->ssp_n;
        return d->quota[kernel] ? at_most(n, d->quota[kernel]) : n;
    }
    n = at_most(n, c->max_threads / k->threads);
    n = at_most(n, c->max_warps / k->warps);
    if (k->regs)
        n = at_most(n, c->regs / k->regs);
    if (k->smem)
        n = at_most(n, c->smem / k->smem);
    if (d->quota[kernel])
        n = at_most(n, d->quota[kernel]);
    return n;
}

static unsigned resident(const void *ctx, unsigned sm, unsigned kernel)
{
    const dispatch_t *d = ctx;
    return d->ks[kernel].k.ctas_on_sm[sm];
}

static void counters(const void *ctx, unsigned sm, cta_policy_counters_t *out)
{
    const dispatch_t *d = ctx;
    sm_wait_cycles(&d->sms[sm], d->now, &out->idle, &out->mem);
}

static void limit_active(const void *ctx, unsigned sm, unsigned n)
{
    const dispatch_t *d = ctx;
    sm_set_active_limit(&d->sms[sm], n, d->now);
}

/* n at once (a BCS pair), under the quota too */
static int fits_n(const void *ctx, unsigned sm, unsigned kernel, unsigned n)
{
    const dispatch_t *d = ctx;
    const sm_kernel_t *k = &d->ks[kernel].k;
    return sm_can_take_ctas(&d->sms[sm], k, n) &&
           (!d->quota[kernel] || k->ctas_on_sm[sm] + n <= d->quota[kernel]);
}

static unsigned issued(const void *ctx, unsigned sm, unsigned kernel,
                       uint64_t *out, unsigned max)
{
    const dispatch_t *d = ctx;
    return sm_cta_issued(&d->sms[sm], &d->ks[kernel].k, out, max);
}

static void kernel_info(const void *ctx, unsigned kernel,
                        cta_policy_kernel_t *out)
{
    const dispatch_t *d = ctx;
    const sm_kernel_t *k = &d->ks[kernel].k;
    *out = (cta_policy_kernel_t){
        .block = { k->l->block.x, k->l->block.y, k->l->block.z },
        .code = k->code_id,
        .tmax = d->nsms ? cap(d, kernel) : 0 };
}

static uint64_t now_of(const void *ctx)
{
    return ((const dispatch_t *)ctx)->now;
}

static void kernel_ready(dispatch_t *d, unsigned k)
{
    d->wake = 0; /* an event: the policy may place again */
    if (d->policy.m->kernel_ready)
        d->policy.m->kernel_ready(d->policy.state, k, d->ks[k].nctas);
}

int dispatch_init(dispatch_t *d, gpu_kernel_t *ks, const timing_launch_t *ls,
                  unsigned nk, sm_t *sms, unsigned clusters,
                  unsigned per_cluster, const simt_config_t *cfg)
{
    *d = (dispatch_t){ .ks = ks, .nk = nk, .sms = sms, .clusters = clusters,
                       .per_cluster = per_cluster,
                       .nsms = clusters * per_cluster };
    size_t n = nk ? nk : 1;
    d->next_in_stream = malloc(n * sizeof *d->next_in_stream);
    d->active = malloc(n * sizeof *d->active);
    d->quota = calloc(n, sizeof *d->quota);
    /* per kernel: whether an earlier launch shares its stream */
    uint8_t *follows = calloc(n, 1);
    const char *quotas = simt_config_value_name(cfg, SIMT_CFG_CKE_QUOTA);
    cta_policy_params_t params = {
        .lcs_round = (cta_lcs_round_t)simt_config_get(cfg, SIMT_CFG_LCS_ROUND),
        .lcs_scope = (cta_lcs_scope_t)simt_config_get(cfg, SIMT_CFG_LCS_SCOPE),
        .lcs_monitor_sm = (unsigned)simt_config_get(cfg, SIMT_CFG_LCS_MONITOR_SM),
        .bcs_odd_fill = (cta_bcs_odd_fill_t)simt_config_get(cfg, SIMT_CFG_BCS_ODD_FILL) };
    for (unsigned k = 0; d->quota && k < nk; k++)
        d->quota[k] = cta_quota_of(quotas, ks[k].k.l->kernel_name);
    cta_policy_env_t env = { .clusters = clusters, .per_cluster = per_cluster,
                             .nkernels = nk, .cfg = cfg,
                             .slots = d->nsms ? sms[0].cfg.max_ctas : 0,
                             .params = params,
                             .query = { .fits = fits, .fits_n = fits_n,
                                        .issued = issued,
                                        .kernel = kernel_info, .now = now_of,
                                        .cap = cap,
                                        .resident = resident,
                                        .counters = counters,
                                        .limit_active = limit_active,
                                        .ctx = d } };
    cta_policy_kind_t policy =
        (cta_policy_kind_t)simt_config_get(cfg, SIMT_CFG_CTA_POLICY);
    if (!d->next_in_stream || !d->active || !follows || !d->quota ||
        cta_policy_init(&d->policy, policy, &env) != 0) {
        free(follows);
        return -1;
    }
    /* streams are few: for each launch, the next one of its stream */
    for (unsigned k = 0; k < nk; k++) {
        d->next_in_stream[k] = nk;
        for (unsigned j = k + 1; j < nk; j++)
            if (ls[j].stream == ls[k].stream) {
                d->next_in_stream[k] = j;
                follows[j] = 1;
                break;
            }
    }
    for (unsigned k = 0; k < nk; k++)
        if (!follows[k])
            kernel_ready(d, k);
    free(follows);
    return 0;
}

void dispatch_free(dispatch_t *d)
{
    cta_policy_free(&d->policy);
    free(d->next_in_stream);
    free(d->active);
    free(d->quota);
    d->next_in_stream = d->active = d->quota = NULL;
}

/* Kernel k placed its first CTA: it joins the active list (ascending). */
static void activate(dispatch_t *d, unsigned k)
{
    unsigned i = d->nactive++;
    while (i > 0 && d->active[i - 1] > k) {
        d->active[i] = d->active[i - 1];
        i--;
    }
    d->active[i] = k;
}

/* Linear CTA id i of a grid as (x, y, z). */
static void cta_xyz(const simt_dim3_t *gr, uint64_t i, uint32_t id[3])
{
    id[0] = (uint32_t)(i % gr->x);
    id[1] = (uint32_t)(i / gr->x % gr->y);
    id[2] = (uint32_t)(i / ((uint64_t)gr->x * gr->y));
}

int dispatch_place(dispatch_t *d, uint64_t now)
{
    d->now = now;
    if (now < d->wake)
        return SIMT_OK;
    if (d->policy.m->cycle)
        d->policy.m->cycle(d->policy.state, now);
    for (unsigned c = 0; c < d->clusters; c++) {
        unsigned s, k;
        int n = d->policy.m->place(d->policy.state, c, &s, &k);
        if (!n)
            continue;
        /* the policy's side of the contract (gpu/cta_policy.h), checked:
         * placements are rare next to cycles */
        if (n < 0 || n > 2 || k >= d->nk || s / d->per_cluster != c ||
            d->ks[k].next_cta + (unsigned)n > d->ks[k].nctas ||
            !fits_n(d, s, k, (unsigned)n))
            return set_error(d->ks[0].k.l->err, SIMT_EINPUT, "internal: the CTA "
                             "policy placed %d CTAs of kernel %u on SM %u of "
                             "cluster %u, where they cannot go", n, k, s, c);
        gpu_kernel_t *gk = &d->ks[k];
        const simt_dim3_t *gr = &gk->k.l->grid;
        if (gk->next_cta == 0) {
            gk->start = now;
            activate(d, k);
        }
        uint32_t lo[3], hi[3];
        cta_xyz(gr, gk->next_cta++, lo);
        int rc;
        if (n == 2) {
            cta_xyz(gr, gk->next_cta++, hi);
            rc = sm_add_cta_pair(&d->sms[s], &gk->k, lo, hi, now);
        } else {
            rc = sm_add_cta(&d->sms[s], &gk->k, lo, now);
        }
        if (rc != SIMT_OK)
            return rc;
    }
    /* nothing to ask before this unless an event comes (no idle_until:
     * every cycle) */
    if (d->policy.m->idle_until)
        d->wake = d->policy.m->idle_until(d->policy.state, now + 1);
    return SIMT_OK;
}

void dispatch_sm_completed(dispatch_t *d, unsigned sm)
{
    const cta_policy_methods_t *m = d->policy.m;
    sm_cta_done_t done[d->sms[sm].cfg.max_ctas];
    unsigned ndone = 0;
    d->wake = 0; /* CTAs completed: events the policy hears of */
    while (sm_pop_completed(&d->sms[sm], &done[ndone]))
        ndone++;
    for (unsigned i = 0; i < d->nactive; i++) {
        unsigned k = d->active[i];
        gpu_kernel_t *gk = &d->ks[k];
        if (gk->done_seen == gk->k.ctas_done)
            continue;
        for (unsigned j = 0; j < ndone; j++) {
            if (done[j].launch != k)
                continue;
            gk->done_seen++;
            gk->done_insns += done[j].warp_insns;
            if (m->cta_done)
                m->cta_done(d->policy.state, sm, k, done[j].cta,
                            done[j].warp_insns);
        }
        assert(gk->done_seen == gk->k.ctas_done);
        if (gk->done_seen < gk->nctas)
            continue;
        /* the per-CTA counts add up to the kernel's, counted apart */
        assert(gk->done_insns == gk->k.warp_insns);
        if (m->kernel_done)
            m->kernel_done(d->policy.state, k);
        d->ndone++;
        if (d->next_in_stream[k] < d->nk)
            kernel_ready(d, d->next_in_stream[k]);
    }
}

void dispatch_account(dispatch_t *d, uint64_t now)
{
    unsigned n = 0;
    for (unsigned i = 0; i < d->nactive; i++) {
        gpu_kernel_t *gk = &d->ks[d->active[i]];
        gk->warp_cycles += gk->k.live_warps;
        gk->sm_cycles += gk->k.hosting_sms;
        if (gk->k.ctas_done == gk->nctas)
            gk->end = now + 1;
        else
            d->active[n++] = d->active[i];
    }
    d->nactive = n;
}

uint64_t dispatch_idle_until(const dispatch_t *d, uint64_t now)
{
    if (!d->policy.m->idle_until)
        return now;
    return d->policy.m->idle_until(d->policy.state, now);
}

void dispatch_idle_cycles(dispatch_t *d, uint64_t n)
{
    for (unsigned i = 0; i < d->nactive; i++) {
        gpu_kernel_t *gk = &d->ks[d->active[i]];
        gk->warp_cycles += (uint64_t)gk->k.live_warps * n;
        gk->sm_cycles += (uint64_t)gk->k.hosting_sms * n;
    }
}

void dispatch_export_stats(const dispatch_t *d, unsigned max_warps,
                           uint64_t base, simt_kernel_stats_t *ks)
{
    for (unsigned k = 0; k < d->nk; k++) {
        const gpu_kernel_t *gk = &d->ks[k];
        ks[k].warp_insns = gk->k.warp_insns;
        ks[k].thread_insns = gk->k.thread_insns;
        ks[k].start_cycle = base + gk->start;
        ks[k].end_cycle = base + gk->end;
        ks[k].achieved_occupancy =
            gk->sm_cycles ? (double)gk->warp_cycles / ((double)gk->sm_cycles * max_warps)
                          : 0.0;
        cta_policy_kstats_t ps = { 0 };
        if (d->policy.m->kernel_stats)
            d->policy.m->kernel_stats(d->policy.state, k, &ps);
        ks[k].lcs_t_max = ps.t_max;
        ks[k].lcs_t_new = ps.t_new;
        ks[k].lcs_window_cycles = ps.window_cycles;
    }
}
