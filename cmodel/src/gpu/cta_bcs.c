/* cta_bcs.c: the `bcs` CTA placement policy (gpu/cta_policy.h), block CTA
 * scheduling (reference 004 §2.3; Lee et al., HPCA'14): the CTAs of a
 * kernel with 2D (or 3D) CTAs go in pairs of consecutive linear ids (2k,
 * 2k+1) to one SM, the pairs handed round robin over the SMs exactly as rr
 * hands single CTAs, with delayed refill (an SM with a half-finished pair
 * of the kernel gets none of its CTAs until the pair is done); a pair goes
 * only where two CTAs fit (bcs_odd_fill=singleton: a lone CTA may fill a
 * last free slot, and the pairs after it start one id later); an odd grid
 * ends with a lone CTA; a kernel with 1D CTAs (block.y == block.z == 1)
 * is placed as rr places it.  The engine is cta_place.h's (pairs, no cap);
 * the pairs reach the SMs as sm_add_cta_pair, whose blocks the SCA warp
 * scheduler reads (core/sched_sca.c). */
#include <stdlib.h>

#include "gpu/cta_place.h"

static void bcs_free(void *state)
{
    if (!state)
        return;
    cta_place_free(state);
    free(state);
}

static int bcs_init(void **state, const cta_policy_env_t *env)
{
    cta_place_t *e = calloc(1, sizeof *e);
    *state = e;
    if (!e)
        return -1;
    return cta_place_init(e, env, 1) || !env->query.fits_n ||
           !env->query.kernel ? -1 : 0;
}

static void bcs_kernel_ready(void *state, unsigned kernel, uint64_t ctas)
{
    cta_place_kernel_ready(state, kernel, ctas);
}

static void bcs_cta_done(void *state, unsigned sm, unsigned kernel,
                         uint64_t cta, uint64_t warp_insns)
{
    (void)warp_insns;
    cta_place_cta_done(state, sm, kernel, cta);
}

static int bcs_place(void *state, unsigned cluster, unsigned *sm,
                     unsigned *kernel)
{
    return cta_place_place(state, cluster, sm, kernel);
}

const cta_policy_methods_t cta_bcs_methods = {
    .init = bcs_init,
    .free = bcs_free,
    .kernel_ready = bcs_kernel_ready,
    .cta_done = bcs_cta_done,
    .kernel_done = NULL,
    .place = bcs_place,
    .kernel_stats = NULL,
};
