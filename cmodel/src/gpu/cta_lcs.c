/* cta_lcs.c: the LCS monitor (cta_lcs.h) and the `lcs` CTA placement
 * policy (gpu/cta_policy.h): rr's order of single CTAs (cta_place.h
 * without pairs), each launch capped at the T_new its monitor decides. */
#include <stdlib.h>
#include <string.h>

#include "gpu/cta_lcs.h"

/* Eq. 1 on the figures: sum/max rounded by r, clamped to 1..tmax. */
static unsigned eq1(uint64_t sum, uint64_t max, cta_lcs_round_t r,
                    unsigned tmax)
{
    if (max == 0)
        return tmax ? tmax : 1;
    uint64_t t = r == CTA_LCS_CEIL ? (sum + max - 1) / max
               : r == CTA_LCS_ROUND ? (2 * sum + max) / (2 * max)
               : sum / max;
    if (t < 1)
        t = 1;
    if (tmax && t > tmax)
        t = tmax;
    return (unsigned)t;
}

unsigned cta_lcs_t_new(const uint64_t *counts, unsigned n, cta_lcs_round_t r,
                       unsigned tmax)
{
    uint64_t sum = 0, max = 0;
    for (unsigned i = 0; i < n; i++) {
        sum += counts[i];
        if (counts[i] > max)
            max = counts[i];
    }
    return eq1(sum, max, r, tmax);
}

int cta_lcs_init(cta_lcs_t *m, const cta_policy_env_t *env, cta_place_t *engine)
{
    memset(m, 0, sizeof *m);
    m->engine = engine;
    m->env = *env;
    m->ks = calloc(env->nkernels ? env->nkernels : 1, sizeof *m->ks);
    m->counts = calloc(env->slots ? env->slots : 1, sizeof *m->counts);
    return m->ks && m->counts ? 0 : -1;
}

void cta_lcs_free(cta_lcs_t *m)
{
    free(m->ks);
    free(m->counts);
    memset(m, 0, sizeof *m);
}

void cta_lcs_kernel_ready(cta_lcs_t *m, unsigned kernel)
{
    cta_lcs_kernel_t *k = &m->ks[kernel];
    cta_policy_kernel_t info = { .tmax = 0 };
    if (m->env.query.kernel)
        m->env.query.kernel(m->env.query.ctx, kernel, &info);
    *k = (cta_lcs_kernel_t){ .t_max = info.tmax, .code = info.code };
    if (m->env.params.lcs_scope != CTA_LCS_KERNEL)
        return;
    /* an earlier launch of the same code that decided: its T_new */
    for (unsigned j = kernel; j-- > 0;)
        if (m->ks[j].code == info.code && m->ks[j].monitored &&
            m->ks[j].t_new) {
            k->t_new = m->ks[j].t_new < k->t_max || !k->t_max
                     ? m->ks[j].t_new : k->t_max;
            cta_place_set_cap(m->engine, kernel, k->t_new);
            return;
        }
}

void cta_lcs_placed(cta_lcs_t *m, unsigned kernel)
{
    cta_lcs_kernel_t *k = &m->ks[kernel];
    if (k->started)
        return;
    k->started = 1;
    k->start = m->env.query.now ? m->env.query.now(m->env.query.ctx) : 0;
}

void cta_lcs_cta_done(cta_lcs_t *m, unsigned sm, unsigned kernel,
                      uint64_t warp_insns)
{
    cta_lcs_kernel_t *k = &m->ks[kernel];
    if (sm != m->env.params.lcs_monitor_sm)
        return;
    const cta_policy_query_t *q = &m->env.query;
    uint64_t now = q->now ? q->now(q->ctx) : 0;
    if (!k->t_new) { /* the window closes: the resident CTAs and this one */
        unsigned n = q->issued(q->ctx, sm, kernel, m->counts, m->env.slots);
        k->sum = k->max = 0;
        for (unsigned i = 0; i < n; i++) {
            k->sum += m->counts[i];
            if (m->counts[i] > k->max)
                k->max = m->counts[i];
        }
        k->monitored = 1;
        k->decided = now;
    } else if (!k->monitored || k->decided != now) {
        return; /* decided before: the cap stands */
    }
    /* this finisher (and any other of the decision's cycle) joins */
    k->sum += warp_insns;
    if (warp_insns > k->max)
        k->max = warp_insns;
    k->t_new = eq1(k->sum, k->max, m->env.params.lcs_round, k->t_max);
    cta_place_set_cap(m->engine, kernel, k->t_new);
}

void cta_lcs_kstats(const cta_lcs_t *m, unsigned kernel, cta_policy_kstats_t *out)
{
    const cta_lcs_kernel_t *k = &m->ks[kernel];
    *out = (cta_policy_kstats_t){
        .t_max = k->t_max, .t_new = k->t_new,
        .window_cycles = k->monitored && k->decided >= k->start
                         ? k->decided - k->start : 0 };
}

/* ---------- the lcs policy ---------- */

typedef struct lcs_policy {
    cta_place_t engine;
    cta_lcs_t mon;
} lcs_policy_t;

static void lcs_free(void *state)
{
    lcs_policy_t *p = state;
    if (!p)
        return;
    cta_place_free(&p->engine);
    cta_lcs_free(&p->mon);
    free(p);
}

static int lcs_init(void **state, const cta_policy_env_t *env)
{
    lcs_policy_t *p = calloc(1, sizeof *p);
    *state = p;
    if (!p)
        return -1;
    int a = cta_place_init(&p->engine, env, 0);
    int b = cta_lcs_init(&p->mon, env, &p->engine);
    return a || b || !env->query.issued ? -1 : 0;
}

static void lcs_kernel_ready(void *state, unsigned kernel, uint64_t ctas)
{
    lcs_policy_t *p = state;
    cta_place_kernel_ready(&p->engine, kernel, ctas);
    cta_lcs_kernel_ready(&p->mon, kernel);
}

static void lcs_cta_done(void *state, unsigned sm, unsigned kernel,
                         uint64_t cta, uint64_t warp_insns)
{
    lcs_policy_t *p = state;
    cta_place_cta_done(&p->engine, sm, kernel, cta);
    cta_lcs_cta_done(&p->mon, sm, kernel, warp_insns);
}

static int lcs_place(void *state, unsigned cluster, unsigned *sm,
                     unsigned *kernel)
{
    lcs_policy_t *p = state;
    int n = cta_place_place(&p->engine, cluster, sm, kernel);
    if (n)
        cta_lcs_placed(&p->mon, *kernel);
    return n;
}

static void lcs_kernel_stats(const void *state, unsigned kernel,
                             cta_policy_kstats_t *out)
{
    cta_lcs_kstats(&((const lcs_policy_t *)state)->mon, kernel, out);
}

const cta_policy_methods_t cta_lcs_methods = {
    .init = lcs_init,
    .free = lcs_free,
    .kernel_ready = lcs_kernel_ready,
    .cta_done = lcs_cta_done,
    .kernel_done = NULL,
    .place = lcs_place,
    .kernel_stats = lcs_kernel_stats,
};
