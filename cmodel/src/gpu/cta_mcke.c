/* cta_mcke.c: the `mcke` CTA placement policy (gpu/cta_policy.h): mixed
 * concurrent kernel execution (reference 004 §2.6, Lee et al. HPCA 2014):
 * CTAs of several ready kernels co-reside on the same SM, each kernel
 * holding at most its cap there (the query cap: its cke_quota, else its
 * occupancy limit T_max).  Placement is rr's (cta_rr.c): for a cluster,
 * its SMs round robin after the SM served last, on each SM the ready
 * kernels in launch order, the first below its cap whose CTA fits.  With
 * quotas that leave room (the paper's mixes: KMN 1 + SRAD 5), every SM
 * soon holds CTAs of every ready kernel.  The SM's resources (threads,
 * warps, registers, scratchpad, CTA slots) are never exceeded: the query
 * fits guarantees them, and the dispatcher checks every placement.
 *
 * Invariants: `ready` holds, ascending, the ready kernels with CTAs left;
 * blocked[c] as in cta_rr.c (a CTA completing in c or a kernel becoming
 * ready clears it; a cap only changes with a placement, which is place's
 * own). */
#include <stdlib.h>
#include <string.h>

#include "gpu/cta_policy.h"

typedef struct cta_mcke {
    cta_policy_env_t env;
    unsigned *next;           /* per cluster: SM offset to try first */
    uint8_t *blocked;         /* per cluster: nothing fits until an event */
    uint64_t *left;           /* per kernel: CTAs not yet placed */
    unsigned *cap;            /* per kernel: its cap, asked when ready */
    unsigned *ready;          /* ready kernels with CTAs left, ascending */
    unsigned nready;
} cta_mcke_t;

static void mcke_free(void *state)
{
    cta_mcke_t *m = state;
    if (!m)
        return;
    free(m->next);
    free(m->blocked);
    free(m->left);
    free(m->cap);
    free(m->ready);
    free(m);
}

static int mcke_init(void **state, const cta_policy_env_t *env)
{
    cta_mcke_t *m = calloc(1, sizeof *m);
    *state = m;
    if (!m)
        return -1;
    m->env = *env;
    size_t nc = env->clusters ? env->clusters : 1;
    size_t nk = env->nkernels ? env->nkernels : 1;
    m->next = calloc(nc, sizeof *m->next);
    m->blocked = calloc(nc, sizeof *m->blocked);
    m->left = calloc(nk, sizeof *m->left);
    m->cap = calloc(nk, sizeof *m->cap);
    m->ready = calloc(nk, sizeof *m->ready);
    return m->next && m->blocked && m->left && m->cap && m->ready ? 0 : -1;
}

static void mcke_kernel_ready(void *state, unsigned kernel, uint64_t ctas)
{
    cta_mcke_t *m = state;
    const cta_policy_query_t *q = &m->env.query;
    unsigned i = m->nready;
    while (i > 0 && m->ready[i - 1] > kernel) {
        m->ready[i] = m->ready[i - 1];
        i--;
    }
    m->ready[i] = kernel;
    m->nready++;
    m->left[kernel] = ctas;
    m->cap[kernel] = q->cap(q->ctx, kernel);
    memset(m->blocked, 0, m->env.clusters * sizeof *m->blocked);
}

static void mcke_cta_done(void *state, unsigned sm, unsigned kernel,
                          uint64_t cta, uint64_t warp_insns)
{
    (void)cta;
    cta_mcke_t *m = state;
    (void)kernel;
    (void)warp_insns;
    m->blocked[sm / m->env.per_cluster] = 0;
}

static int mcke_place(void *state, unsigned cluster, unsigned *sm,
                      unsigned *kernel)
{
    cta_mcke_t *m = state;
    if (m->blocked[cluster])
        return 0;
    const cta_policy_query_t *q = &m->env.query;
    unsigned per = m->env.per_cluster;
    for (unsigned i = 0; i < per; i++) {
        unsigned off = (m->next[cluster] + i) % per;
        unsigned s = cluster * per + off;
        for (unsigned j = 0; j < m->nready; j++) {
            unsigned k = m->ready[j];
            if (q->resident(q->ctx, s, k) >= m->cap[k] || !q->fits(q->ctx, s, k))
                continue;
            *sm = s;
            *kernel = k;
            m->next[cluster] = (off + 1) % per;
            if (--m->left[k] == 0) {
                m->nready--;
                memmove(&m->ready[j], &m->ready[j + 1],
                        (m->nready - j) * sizeof *m->ready);
            }
            return 1;
        }
    }
    m->blocked[cluster] = 1;
    return 0;
}

static uint64_t mcke_idle_until(const void *state, uint64_t now)
{
    const cta_mcke_t *m = state;
    return cta_policy_all_blocked(m->blocked, m->env.clusters) ? UINT64_MAX
                                                                : now;
}

const cta_policy_methods_t cta_mcke_methods = {
    .init = mcke_init,
    .free = mcke_free,
    .kernel_ready = mcke_kernel_ready,
    .cta_done = mcke_cta_done,
    .kernel_done = NULL,
    .cycle = NULL,
    .place = mcke_place,
    .idle_until = mcke_idle_until,
};
