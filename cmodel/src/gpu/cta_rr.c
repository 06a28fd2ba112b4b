/* cta_rr.c: the `rr` CTA placement policy (gpu/cta_policy.h), GPGPU-Sim
 * 3.x's: for a cluster, try its SMs round robin starting after the SM that
 * last received a CTA there, and on each SM the ready kernels in launch
 * order; place the first CTA that fits.
 *
 * Invariants: `ready` holds, in increasing order, the kernels that are
 * ready and have CTAs left to place (left[k] > 0).  blocked[c] is set only
 * when a place(c) found that no ready kernel fits on any SM of cluster c;
 * as only a placement in c (which place(c) itself makes) or a CTA
 * completing in c changes what fits there, and a kernel becoming ready can
 * only add candidates, the flag is cleared by cta_done in c and by
 * kernel_ready, and a blocked cluster answers 0 at once: the same answer a
 * full scan would give, so the placement order and cycles are those of the
 * scan. */
#include <stdlib.h>
#include <string.h>

#include "gpu/cta_policy.h"

typedef struct cta_rr {
    cta_policy_env_t env;
    unsigned *next;           /* per cluster: SM offset to try first */
    uint8_t *blocked;         /* per cluster: nothing fits until an event */
    uint64_t *left;           /* per kernel: CTAs not yet placed */
    unsigned *ready;          /* ready kernels with CTAs left, ascending */
    unsigned nready;
} cta_rr_t;

static void rr_free(void *state)
{
    cta_rr_t *r = state;
    if (!r)
        return;
    free(r->next);
    free(r->blocked);
    free(r->left);
    free(r->ready);
    free(r);
}

static int rr_init(void **state, const cta_policy_env_t *env)
{
    cta_rr_t *r = calloc(1, sizeof *r);
    *state = r;
    if (!r)
        return -1;
    r->env = *env;
    size_t nc = env->clusters ? env->clusters : 1;
    size_t nk = env->nkernels ? env->nkernels : 1;
    r->next = calloc(nc, sizeof *r->next);
    r->blocked = calloc(nc, sizeof *r->blocked);
    r->left = calloc(nk, sizeof *r->left);
    r->ready = calloc(nk, sizeof *r->ready);
    return r->next && r->blocked && r->left && r->ready ? 0 : -1;
}

static void rr_kernel_ready(void *state, unsigned kernel, uint64_t ctas)
{
    cta_rr_t *r = state;
    cta_ready_insert(r->ready, &r->nready, kernel);
    r->left[kernel] = ctas;
    memset(r->blocked, 0, r->env.clusters * sizeof *r->blocked);
}

static void rr_cta_done(void *state, unsigned sm, unsigned kernel,
                        uint64_t cta, uint64_t warp_insns)
{
    cta_rr_t *r = state;
    (void)kernel;
    (void)cta;
    (void)warp_insns;
    r->blocked[sm / r->env.per_cluster] = 0;
}

static int rr_place(void *state, unsigned cluster, unsigned *sm,
                    unsigned *kernel)
{
    cta_rr_t *r = state;
    if (r->blocked[cluster])
        return 0;
    const cta_policy_query_t *q = &r->env.query;
    unsigned per = r->env.per_cluster;
    for (unsigned i = 0; i < per; i++) {
        unsigned off = (r->next[cluster] + i) % per;
        unsigned s = cluster * per + off;
        for (unsigned j = 0; j < r->nready; j++) {
            unsigned k = r->ready[j];
            if (!q->fits(q->ctx, s, k))
                continue;
            *sm = s;
            *kernel = k;
            r->next[cluster] = (off + 1) % per;
            if (--r->left[k] == 0) {
                cta_ready_remove(r->ready, &r->nready, j);
            }
            return 1;
        }
    }
    r->blocked[cluster] = 1;
    return 0;
}

static uint64_t rr_idle_until(const void *state, uint64_t now)
{
    const cta_rr_t *r = state;
    return cta_policy_all_blocked(r->blocked, r->env.clusters) ? UINT64_MAX
                                                                : now;
}

const cta_policy_methods_t cta_rr_methods = {
    .init = rr_init,
    .free = rr_free,
    .kernel_ready = rr_kernel_ready,
    .cta_done = rr_cta_done,
    .kernel_done = NULL,
    .cycle = NULL,
    .place = rr_place,
    .idle_until = rr_idle_until,
};
