/* cta_dyncta.c: the `dyncta` CTA placement policy (gpu/cta_policy.h):
 * DYNCTA (Kayiran et al., PACT 2013; the controller is cta_dyncta.h).
 *
 * Each SM has a limit on its resident CTAs, set to cta_dyncta_start(T_max)
 * when a kernel becomes ready (T_max: the query cap, the largest over the
 * ready kernels) and moved by the controller every dyncta_period cycles
 * from the SM's idle and memory-wait cycles of the period (the queries
 * counters).  Placement is rr's (cta_rr.c: SMs of a cluster round robin
 * after the one served last, ready kernels in launch order) on the SMs
 * below their limit.  When a limit drops below the SM's resident CTAs, the
 * most recently placed ones are paused, not killed (limit_active: the SM's
 * paused issue gate), and go on when the limit rises or older CTAs
 * complete.
 *
 * Invariants: res[s] is the CTAs resident on SM s (placed by place, less
 * those cta_done reported); limit[s] is in [1, tmax] and the SM was told it
 * by limit_active; `ready` and `blocked` as in cta_rr.c, blocked[c] also
 * cleared when a limit in c rises. */
#include <stdlib.h>
#include <string.h>

#include "gpu/cta_dyncta.h"
#include "gpu/cta_policy.h"
#include "simt/config.h"

unsigned cta_dyncta_step(unsigned limit, unsigned tmax, uint64_t idle,
                         uint64_t mem, const cta_dyncta_thresholds_t *t)
{
    if (idle >= t->t_idle || mem < t->t_mem_l)
        limit++;
    else if (mem > t->t_mem_h)
        limit--;
    if (limit > tmax)
        limit = tmax;
    return limit < 1 ? 1 : limit;
}

unsigned cta_dyncta_start(unsigned tmax)
{
    return tmax / 2 ? tmax / 2 : 1;
}

typedef struct cta_dyncta {
    cta_policy_env_t env;
    cta_dyncta_thresholds_t thr;
    uint64_t period;
    unsigned nsms, tmax;
    unsigned *next;           /* per cluster: SM offset to try first */
    uint8_t *blocked;         /* per cluster: nothing fits until an event */
    uint64_t *left;           /* per kernel: CTAs not yet placed */
    unsigned *ready;          /* ready kernels with CTAs left, ascending */
    unsigned nready;
    unsigned *limit, *res;    /* per SM */
    cta_policy_counters_t *last; /* per SM: the counters at the period's start */
} cta_dyncta_t;

static void dyncta_free(void *state)
{
    cta_dyncta_t *d = state;
    if (!d)
        return;
    free(d->next);
    free(d->blocked);
    free(d->left);
    free(d->ready);
    free(d->limit);
    free(d->res);
    free(d->last);
    free(d);
}

static int64_t key(const cta_policy_env_t *env, simt_cfg_key_t k)
{
    simt_config_t def;
    if (env->cfg)
        return simt_config_get(env->cfg, k);
    simt_config_defaults(&def);
    return simt_config_get(&def, k);
}

static int dyncta_init(void **state, const cta_policy_env_t *env)
{
    cta_dyncta_t *d = calloc(1, sizeof *d);
    *state = d;
    if (!d)
        return -1;
    d->env = *env;
    d->period = (uint64_t)key(env, SIMT_CFG_DYNCTA_PERIOD);
    d->thr = (cta_dyncta_thresholds_t){
        .t_idle = (uint64_t)key(env, SIMT_CFG_DYNCTA_T_IDLE),
        .t_mem_l = (uint64_t)key(env, SIMT_CFG_DYNCTA_T_MEM_L),
        .t_mem_h = (uint64_t)key(env, SIMT_CFG_DYNCTA_T_MEM_H) };
    d->nsms = env->clusters * env->per_cluster;
    size_t nc = env->clusters ? env->clusters : 1;
    size_t nk = env->nkernels ? env->nkernels : 1;
    size_t ns = d->nsms ? d->nsms : 1;
    d->next = calloc(nc, sizeof *d->next);
    d->blocked = calloc(nc, sizeof *d->blocked);
    d->left = calloc(nk, sizeof *d->left);
    d->ready = calloc(nk, sizeof *d->ready);
    d->limit = calloc(ns, sizeof *d->limit);
    d->res = calloc(ns, sizeof *d->res);
    d->last = calloc(ns, sizeof *d->last);
    return d->next && d->blocked && d->left && d->ready && d->limit &&
           d->res && d->last ? 0 : -1;
}

static void set_limit(cta_dyncta_t *d, unsigned s, unsigned n)
{
    const cta_policy_query_t *q = &d->env.query;
    if (n > d->limit[s])
        d->blocked[s / d->env.per_cluster] = 0;
    d->limit[s] = n;
    q->limit_active(q->ctx, s, n);
}

/* A kernel starts every SM at half T_max again (PACT'13: per kernel). */
static void dyncta_kernel_ready(void *state, unsigned kernel, uint64_t ctas)
{
    cta_dyncta_t *d = state;
    const cta_policy_query_t *q = &d->env.query;
    cta_ready_insert(d->ready, &d->nready, kernel);
    d->left[kernel] = ctas;
    d->tmax = 0;
    for (unsigned j = 0; j < d->nready; j++) {
        unsigned c = q->cap(q->ctx, d->ready[j]);
        if (c > d->tmax)
            d->tmax = c;
    }
    for (unsigned s = 0; s < d->nsms; s++)
        set_limit(d, s, cta_dyncta_start(d->tmax));
    memset(d->blocked, 0, d->env.clusters * sizeof *d->blocked);
}

static void dyncta_cta_done(void *state, unsigned sm, unsigned kernel,
                            uint64_t cta, uint64_t warp_insns)
{
    (void)cta;
    cta_dyncta_t *d = state;
    (void)kernel;
    (void)warp_insns;
    d->res[sm]--;
    d->blocked[sm / d->env.per_cluster] = 0;
}

/* The end of a sampling period: every SM's limit moves. */
static void dyncta_cycle(void *state, uint64_t now)
{
    cta_dyncta_t *d = state;
    if (now == 0 || now % d->period || !d->tmax)
        return;
    const cta_policy_query_t *q = &d->env.query;
    for (unsigned s = 0; s < d->nsms; s++) {
        cta_policy_counters_t c;
        q->counters(q->ctx, s, &c);
        unsigned n = cta_dyncta_step(d->limit[s], d->tmax,
                                     c.idle - d->last[s].idle,
                                     c.mem - d->last[s].mem, &d->thr);
        d->last[s] = c;
        if (n != d->limit[s])
            set_limit(d, s, n);
    }
}

static int dyncta_place(void *state, unsigned cluster, unsigned *sm,
                        unsigned *kernel)
{
    cta_dyncta_t *d = state;
    if (d->blocked[cluster])
        return 0;
    const cta_policy_query_t *q = &d->env.query;
    unsigned per = d->env.per_cluster;
    for (unsigned i = 0; i < per; i++) {
        unsigned off = (d->next[cluster] + i) % per;
        unsigned s = cluster * per + off;
        if (d->res[s] >= d->limit[s])
            continue;
        for (unsigned j = 0; j < d->nready; j++) {
            unsigned k = d->ready[j];
            if (!q->fits(q->ctx, s, k))
                continue;
            *sm = s;
            *kernel = k;
            d->res[s]++;
            d->next[cluster] = (off + 1) % per;
            if (--d->left[k] == 0) {
                cta_ready_remove(d->ready, &d->nready, j);
            }
            return 1;
        }
    }
    d->blocked[cluster] = 1;
    return 0;
}

/* Blocked everywhere, it acts next at its next sampling boundary (a
 * multiple of the period, never cycle 0; dyncta_cycle). */
static uint64_t dyncta_idle_until(const void *state, uint64_t now)
{
    const cta_dyncta_t *d = state;
    if (!cta_policy_all_blocked(d->blocked, d->env.clusters))
        return now;
    if (!d->tmax)
        return UINT64_MAX;
    uint64_t next = (now + d->period - 1) / d->period * d->period;
    return next ? next : d->period;
}

const cta_policy_methods_t cta_dyncta_methods = {
    .init = dyncta_init,
    .free = dyncta_free,
    .kernel_ready = dyncta_kernel_ready,
    .cta_done = dyncta_cta_done,
    .kernel_done = NULL,
    .cycle = dyncta_cycle,
    .place = dyncta_place,
    .limits_at_events = 1, /* kernel_ready restarts every SM's limit */
    .idle_until = dyncta_idle_until,
};
