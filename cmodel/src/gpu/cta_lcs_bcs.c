/* cta_lcs_bcs.c: the `lcs_bcs` CTA placement policy (gpu/cta_policy.h),
 * LCS and BCS combined (reference 004 §2.5, the paper's Fig. 10): a kernel
 * with 2D (or 3D) CTAs is placed in BCS pairs (cta_bcs.c's rules) both
 * while LCS monitors and after, capped at the T_new that LCS decides
 * (cta_lcs.h); a kernel with 1D CTAs is placed exactly as `lcs` places it.
 * The paper runs it with the SCA warp scheduler (gpgpu_scheduler=sca, which
 * is GTO on CTAs placed alone).  Under a cap the pair rule still holds: a
 * pair goes only where the cap leaves two CTAs (bcs_odd_fill=singleton
 * lets a lone CTA take the last one). */
#include <stdlib.h>

#include "gpu/cta_lcs.h"

typedef struct lcs_bcs {
    cta_place_t engine;
    cta_lcs_t mon;
} lcs_bcs_t;

static void lb_free(void *state)
{
    lcs_bcs_t *p = state;
    if (!p)
        return;
    cta_place_free(&p->engine);
    cta_lcs_free(&p->mon);
    free(p);
}

static int lb_init(void **state, const cta_policy_env_t *env)
{
    lcs_bcs_t *p = calloc(1, sizeof *p);
    *state = p;
    if (!p)
        return -1;
    int a = cta_place_init(&p->engine, env, 1);
    int b = cta_lcs_init(&p->mon, env, &p->engine);
    return a || b || !env->query.issued || !env->query.fits_n ||
           !env->query.kernel ? -1 : 0;
}

static void lb_kernel_ready(void *state, unsigned kernel, uint64_t ctas)
{
    lcs_bcs_t *p = state;
    cta_place_kernel_ready(&p->engine, kernel, ctas);
    cta_lcs_kernel_ready(&p->mon, kernel);
}

static void lb_cta_done(void *state, unsigned sm, unsigned kernel,
                        uint64_t cta, uint64_t warp_insns)
{
    lcs_bcs_t *p = state;
    cta_place_cta_done(&p->engine, sm, kernel, cta);
    cta_lcs_cta_done(&p->mon, sm, kernel, warp_insns);
}

static int lb_place(void *state, unsigned cluster, unsigned *sm,
                    unsigned *kernel)
{
    lcs_bcs_t *p = state;
    int n = cta_place_place(&p->engine, cluster, sm, kernel);
    if (n)
        cta_lcs_placed(&p->mon, *kernel);
    return n;
}

static void lb_kernel_stats(const void *state, unsigned kernel,
                            cta_policy_kstats_t *out)
{
    cta_lcs_kstats(&((const lcs_bcs_t *)state)->mon, kernel, out);
}

const cta_policy_methods_t cta_lcs_bcs_methods = {
    .init = lb_init,
    .free = lb_free,
    .kernel_ready = lb_kernel_ready,
    .cta_done = lb_cta_done,
    .kernel_done = NULL,
    .place = lb_place,
    .kernel_stats = lb_kernel_stats,
};
