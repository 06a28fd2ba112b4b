/* cta_mcke.c: the `mcke` CTA placement policy (gpu/cta_policy.h): mixed
 * concurrent kernel execution (reference 004 §2.6, Lee et al. HPCA 2014):
 * CTAs of several ready kernels co-reside on the same SM, each kernel
 * holding at most its cap there (the query cap: its cke_quota, else its
 * occupancy limit T_max).  Placement is rr's order through the engine of
 * gpu/cta_place.h (single CTAs, a cap per kernel): for a cluster, its SMs
 * round robin after the SM served last, on each SM the ready kernels in
 * launch order, the first below its cap whose CTA fits.  With quotas that
 * leave room (the paper's mixes: KMN 1 + SRAD 5), every SM soon holds CTAs
 * of every ready kernel.  The SM's resources (threads, warps, registers,
 * scratchpad, CTA slots) are never exceeded: the query fits guarantees
 * them, and the dispatcher checks every placement. */
#include <stdlib.h>

#include "gpu/cta_place.h"

static void mcke_free(void *state)
{
    if (!state)
        return;
    cta_place_free(state);
    free(state);
}

static int mcke_init(void **state, const cta_policy_env_t *env)
{
    cta_place_t *e = calloc(1, sizeof *e);
    *state = e;
    if (!e)
        return -1;
    return cta_place_init(e, env, 0) || !env->query.cap ? -1 : 0;
}

static void mcke_kernel_ready(void *state, unsigned kernel, uint64_t ctas)
{
    cta_place_t *e = state;
    cta_place_kernel_ready(e, kernel, ctas);
    cta_place_set_cap(e, kernel, e->env.query.cap(e->env.query.ctx, kernel));
}

static void mcke_cta_done(void *state, unsigned sm, unsigned kernel,
                          uint64_t cta, uint64_t warp_insns)
{
    (void)warp_insns;
    cta_place_cta_done(state, sm, kernel, cta);
}

static int mcke_place(void *state, unsigned cluster, unsigned *sm,
                      unsigned *kernel)
{
    return cta_place_place(state, cluster, sm, kernel);
}

/* The engine's blocked clusters answer 0 at once until an event. */
static uint64_t mcke_idle_until(const void *state, uint64_t now)
{
    const cta_place_t *e = state;
    return cta_policy_all_blocked(e->blocked, e->env.clusters) ? UINT64_MAX
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
