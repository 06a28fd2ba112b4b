/* test_cta_policy.c: the CTA placement policies (gpu/cta_policy.h) driven
 * through their events with a fake GPU: each SM holds at most `cap` CTAs
 * of any kernel, so whether a CTA fits is known without an SM.  Every
 * expected placement was worked out by hand from the rule in the policy's
 * header comment (rr: GPGPU-Sim 3.x's round robin). */
#include <string.h>

#include "harness.h"
#include "gpu/cta_policy.h"
#include "simt/simt.h"

#define NSM 8

typedef struct fake {
    unsigned cap;             /* CTAs per SM */
    unsigned held[NSM];       /* CTAs resident per SM */
    unsigned fits_calls;
} fake_t;

static int fake_fits(const void *ctx, unsigned sm, unsigned kernel)
{
    fake_t *f = (fake_t *)ctx;
    (void)kernel;
    f->fits_calls++;
    return f->held[sm] < f->cap;
}

static int start(cta_policy_t *p, fake_t *f, unsigned clusters,
                 unsigned per_cluster, unsigned nkernels)
{
    cta_policy_env_t env = { .clusters = clusters, .per_cluster = per_cluster,
                             .nkernels = nkernels,
                             .query = { .fits = fake_fits, .ctx = f } };
    return cta_policy_init(p, CTA_POLICY_RR, &env);
}

/* One place(cluster) call applied to the fake: the SM and kernel packed as
 * sm * 10 + kernel, or -1 when nothing is placed. */
static int place(cta_policy_t *p, fake_t *f, unsigned cluster)
{
    unsigned sm, k;
    if (!p->m->place(p->state, cluster, &sm, &k))
        return -1;
    f->held[sm]++;
    return (int)(sm * 10 + k);
}

static void done(cta_policy_t *p, fake_t *f, unsigned sm, unsigned k)
{
    f->held[sm]--;
    p->m->cta_done(p->state, sm, k, 0);
}

TEST(cta_policy_names_from_the_list)
{
    CHECK(CTA_POLICY_NKINDS >= 1);
    CHECK(strcmp(cta_policy_names[CTA_POLICY_RR], "rr") == 0);
    CHECK(cta_policy_names[CTA_POLICY_NKINDS] == NULL);
    simt_config_t c;
    simt_error_t err;
    memset(&err, 0, sizeof err);
    simt_config_defaults(&c);
    CHECK_EQ(simt_config_set(&c, "gpgpu_cta_policy=rr", "t", &err), SIMT_OK);
    CHECK(strcmp(simt_config_value_name(&c, SIMT_CFG_CTA_POLICY), "rr") == 0);
    CHECK_EQ(simt_config_set(&c, "gpgpu_cta_policy=lazy", "t", &err), SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "must be one of rr") != NULL, "%s", err.msg);
}

/* One cluster of 3 SMs, 2 CTAs each; kernel 0 has 4 CTAs, kernel 1 has 5.
 * SMs in turn from SM 0, kernel 0 first while it has CTAs:
 *   (0,k0) (1,k0) (2,k0) (0,k0)  k0 is placed out
 *   (1,k1) (2,k1)                every SM holds 2: nothing fits.
 * A CTA of k0 completes on SM 1; the last SM served was 2, so the scan
 * starts at SM 0 (full) and places on SM 1: (1,k1).  Then nothing. */
TEST(cta_policy_rr_round_robin_in_launch_order)
{
    fake_t f = { .cap = 2 };
    cta_policy_t p;
    CHECK_EQ(start(&p, &f, 1, 3, 2), 0);
    p.m->kernel_ready(p.state, 0, 4);
    p.m->kernel_ready(p.state, 1, 5);
    static const int want[] = { 0, 10, 20, 0, 11, 21, -1 };
    for (unsigned i = 0; i < sizeof want / sizeof *want; i++) {
        int got = place(&p, &f, 0);
        CHECK_MSG(got == want[i], "placement %u: %d, want %d", i, got, want[i]);
    }
    done(&p, &f, 1, 0);
    CHECK_EQ(place(&p, &f, 0), 11);
    CHECK_EQ(place(&p, &f, 0), -1);
    cta_policy_free(&p);
}

/* Kernels ready out of launch order still go in launch order; clusters
 * keep their own round robin (2 clusters x 2 SMs, 1 CTA per SM). */
TEST(cta_policy_rr_launch_order_and_clusters)
{
    fake_t f = { .cap = 1 };
    cta_policy_t p;
    CHECK_EQ(start(&p, &f, 2, 2, 3), 0);
    p.m->kernel_ready(p.state, 2, 1);
    p.m->kernel_ready(p.state, 1, 2);
    CHECK_EQ(place(&p, &f, 1), 21); /* cluster 1 = SMs 2, 3 */
    CHECK_EQ(place(&p, &f, 0), 1);
    CHECK_EQ(place(&p, &f, 0), 12); /* kernel 1 placed out: kernel 2 */
    CHECK_EQ(place(&p, &f, 1), -1);
    CHECK_EQ(place(&p, &f, 0), -1);
    done(&p, &f, 2, 1);             /* frees SM 2, in cluster 1 */
    CHECK_EQ(place(&p, &f, 0), -1);
    CHECK_EQ(place(&p, &f, 1), -1); /* nothing left to place */
    cta_policy_free(&p);
}

/* A cluster where nothing fits is not scanned again until an event says
 * something may have changed there: a CTA completing in it, or a kernel
 * becoming ready.  A completion in another cluster does not wake it. */
TEST(cta_policy_rr_sleeps_until_an_event)
{
    fake_t f = { .cap = 1 };
    cta_policy_t p;
    CHECK_EQ(start(&p, &f, 2, 2, 2), 0);
    p.m->kernel_ready(p.state, 0, 100);
    CHECK_EQ(place(&p, &f, 0), 0);
    CHECK_EQ(place(&p, &f, 0), 10);
    CHECK_EQ(place(&p, &f, 1), 20);
    CHECK_EQ(place(&p, &f, 1), 30);
    CHECK_EQ(place(&p, &f, 0), -1);
    unsigned calls = f.fits_calls;
    for (int i = 0; i < 5; i++)
        CHECK_EQ(place(&p, &f, 0), -1);
    CHECK_EQ(f.fits_calls, calls);
    done(&p, &f, 3, 0);             /* cluster 1 */
    CHECK_EQ(place(&p, &f, 0), -1);
    CHECK_EQ(f.fits_calls, calls);
    CHECK_EQ(place(&p, &f, 1), 30);
    done(&p, &f, 1, 0);             /* cluster 0: SM 0 was served last */
    CHECK_EQ(place(&p, &f, 0), 10);
    CHECK_EQ(place(&p, &f, 0), -1);
    calls = f.fits_calls;
    p.m->kernel_ready(p.state, 1, 1);
    CHECK_EQ(place(&p, &f, 0), -1);
    /* scanned again: SMs 0 and 1 (full), each for kernels 0 and 1 */
    CHECK_EQ(f.fits_calls, calls + 4);
    cta_policy_free(&p);
}
