/* test_cta_policy.c: the CTA placement policies (gpu/cta_policy.h) driven
 * through their events with a fake GPU: each SM holds at most `cap` CTAs
 * of any kernel, so whether a CTA fits is known without an SM.  Every
 * expected placement was worked out by hand from the rule in the policy's
 * header comment (rr: GPGPU-Sim 3.x's round robin). */
#include <string.h>

#include "harness.h"
#include "core/sched.h"
#include "gpu/cta_lcs.h"
#include "ptx_kernel_helpers.h"
#include "gpu/cta_dyncta.h"
#include "gpu/cta_policy.h"
#include "gpu/cta_quota.h"
#include "simt/simt.h"

#define NSM 32
#define NKF 4
#define NRES 16

/* The fake GPU: each SM holds at most `cap` CTAs of any kernel; it keeps
 * the CTAs it holds (kernel, linear id, warp-instructions issued, which a
 * test sets) so that the LCS and BCS queries have answers. */
typedef struct fres {
    unsigned k;
    uint64_t id, insns;
} fres_t;

typedef struct fake {
    unsigned cap;             /* CTAs per SM */
    unsigned held[NSM];       /* CTAs resident per SM */
    unsigned fits_calls;
    fres_t res[NSM][NRES];
    uint64_t next_id[NKF];
    uint32_t block[NKF][3];   /* 0 0 0: 1D (taken as 1 1 1 in y, z) */
    uint32_t code[NKF];
    unsigned tmax;
    uint64_t now;
} fake_t;

static int fake_fits(const void *ctx, unsigned sm, unsigned kernel)
{
    fake_t *f = (fake_t *)ctx;
    (void)kernel;
    f->fits_calls++;
    return f->held[sm] < f->cap;
}

static int fake_fits_n(const void *ctx, unsigned sm, unsigned kernel, unsigned n)
{
    fake_t *f = (fake_t *)ctx;
    (void)kernel;
    f->fits_calls++;
    return f->held[sm] + n <= f->cap;
}

static unsigned fake_issued(const void *ctx, unsigned sm, unsigned kernel,
                            uint64_t *out, unsigned max)
{
    const fake_t *f = ctx;
    unsigned n = 0;
    for (unsigned i = 0; i < f->held[sm] && n < max; i++)
        if (f->res[sm][i].k == kernel)
            out[n++] = f->res[sm][i].insns;
    return n;
}

static void fake_kernel(const void *ctx, unsigned kernel, cta_policy_kernel_t *out)
{
    const fake_t *f = ctx;
    *out = (cta_policy_kernel_t){ .block = { f->block[kernel][0] ? f->block[kernel][0] : 64,
                                             f->block[kernel][1] ? f->block[kernel][1] : 1,
                                             f->block[kernel][2] ? f->block[kernel][2] : 1 },
                                  .code = f->code[kernel], .tmax = f->tmax ? f->tmax : f->cap };
}

static uint64_t fake_now(const void *ctx)
{
    return ((const fake_t *)ctx)->now;
}

static int start_kind(cta_policy_t *p, fake_t *f, cta_policy_kind_t kind,
                      unsigned clusters, unsigned per_cluster, unsigned nkernels,
                      const cta_policy_params_t *params)
{
    cta_policy_env_t env = { .clusters = clusters, .per_cluster = per_cluster,
                             .nkernels = nkernels, .slots = NRES,
                             .query = { .fits = fake_fits, .fits_n = fake_fits_n,
                                        .issued = fake_issued, .kernel = fake_kernel,
                                        .now = fake_now, .ctx = f } };
    if (params)
        env.params = *params;
    return cta_policy_init(p, kind, &env);
}

static int start(cta_policy_t *p, fake_t *f, unsigned clusters,
                 unsigned per_cluster, unsigned nkernels)
{
    return start_kind(p, f, CTA_POLICY_RR, clusters, per_cluster, nkernels, NULL);
}

/* One place(cluster) call applied to the fake: n CTAs, *sm and *k set. */
static int place_n(cta_policy_t *p, fake_t *f, unsigned cluster, unsigned *sm,
                   unsigned *k)
{
    int n = p->m->place(p->state, cluster, sm, k);
    for (int i = 0; i < n; i++)
        f->res[*sm][f->held[*sm]++] = (fres_t){ .k = *k, .id = f->next_id[*k]++ };
    return n;
}

/* One place(cluster) call: the SM and kernel packed as sm * 10 + kernel,
 * or -1 when nothing is placed. */
static int place(cta_policy_t *p, fake_t *f, unsigned cluster)
{
    unsigned sm, k;
    if (!place_n(p, f, cluster, &sm, &k))
        return -1;
    return (int)(sm * 10 + k);
}

/* CTA `id` of kernel k completes on SM sm (reporting its count); the
 * fake's clock then moves one cycle on, so that completions a test makes
 * one after the other fall in different cycles. */
static void done_id(cta_policy_t *p, fake_t *f, unsigned sm, unsigned k,
                    uint64_t id)
{
    for (unsigned i = 0; i < f->held[sm]; i++)
        if (f->res[sm][i].k == k && f->res[sm][i].id == id) {
            uint64_t n = f->res[sm][i].insns;
            f->res[sm][i] = f->res[sm][--f->held[sm]];
            p->m->cta_done(p->state, sm, k, id, n);
            f->now++;
            return;
        }
}

/* The oldest resident CTA of kernel k completes on SM sm. */
static void done(cta_policy_t *p, fake_t *f, unsigned sm, unsigned k)
{
    uint64_t id = UINT64_MAX;
    for (unsigned i = 0; i < f->held[sm]; i++)
        if (f->res[sm][i].k == k && f->res[sm][i].id < id)
            id = f->res[sm][i].id;
    done_id(p, f, sm, k, id);
}

/* Sets the issue count of CTA `id` of kernel k on SM sm. */
static void set_insns(fake_t *f, unsigned sm, unsigned k, uint64_t id, uint64_t n)
{
    for (unsigned i = 0; i < f->held[sm]; i++)
        if (f->res[sm][i].k == k && f->res[sm][i].id == id)
            f->res[sm][i].insns = n;
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
    CHECK_MSG(strstr(err.msg, "must be one of rr, dyncta, cke, mcke, lcs, bcs, lcs_bcs") != NULL, "%s", err.msg);
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

/* ---------- lcs (reference 004 §2.2, Eq. 1) ---------- */

/* Eq. 1 by hand:
 *   [4,3,3,0]: sum 10, max 4, 10/4 = 2.5: floor 2, ceil 3, round 3 (halves
 *     up).  The paper's Fig. 7(b) prints "floor(10/4) = 3", which is ceil.
 *   [7]*8: 56/7 = 8 (Type I: T_max kept).
 *   [100,0,...,0]: 100/100 = 1.
 *   LPS-like, 3 dominant CTAs and 5 near zero (Fig. 8):
 *     [1000,1000,995,4,3,2,1,0]: 3005/1000 = 3.005, floor 3.
 *   clamps: [5,5,5] with T_max 2 gives 2; all zero gives T_max. */
TEST(cta_policy_lcs_eq1)
{
    const uint64_t fig7[] = { 4, 3, 3, 0 };
    CHECK_EQ(cta_lcs_t_new(fig7, 4, CTA_LCS_FLOOR, 8), 2);
    CHECK_EQ(cta_lcs_t_new(fig7, 4, CTA_LCS_CEIL, 8), 3);
    CHECK_EQ(cta_lcs_t_new(fig7, 4, CTA_LCS_ROUND, 8), 3);
    const uint64_t eq[] = { 7, 7, 7, 7, 7, 7, 7, 7 };
    CHECK_EQ(cta_lcs_t_new(eq, 8, CTA_LCS_FLOOR, 8), 8);
    const uint64_t one[] = { 100, 0, 0, 0, 0, 0, 0, 0 };
    CHECK_EQ(cta_lcs_t_new(one, 8, CTA_LCS_FLOOR, 8), 1);
    const uint64_t lps[] = { 1000, 1000, 995, 4, 3, 2, 1, 0 };
    CHECK_EQ(cta_lcs_t_new(lps, 8, CTA_LCS_FLOOR, 8), 3);
    const uint64_t five[] = { 5, 5, 5 };
    CHECK_EQ(cta_lcs_t_new(five, 3, CTA_LCS_FLOOR, 2), 2);
    const uint64_t zero[] = { 0, 0 };
    CHECK_EQ(cta_lcs_t_new(zero, 2, CTA_LCS_FLOOR, 6), 6);
}

/* Two clusters of one SM each, 4 CTAs per SM (T_max 4), monitor SM 0, one
 * kernel of 100 CTAs.  Cycles 0..3 fill both SMs: SM 0 holds CTAs 0, 2, 4,
 * 6 and SM 1 holds 1, 3, 5, 7.  SM 0's CTAs issue [4,3,3,0].
 *  - cycle 10: CTA 1 completes on SM 1, not the monitored SM: no decision,
 *    SM 1 refills to T_max (CTA 8).
 *  - cycle 20: CTA 0 completes on SM 0: the window closes (20 cycles from
 *    the first placement at cycle 0); T_new = floor((4+3+3+0)/4) = 2.
 *  - SM 0 holds 3 >= 2 and SM 1 holds 4: neither gets a CTA; none is
 *    removed.  SM 0 at 2 still gets none; at 1 it gets one (2), then none.
 *  - SM 1 drained to 1 (CTA 8 left) gets one, then none. */
TEST(cta_policy_lcs_window_and_cap)
{
    fake_t f = { .cap = 4 };
    cta_policy_t p;
    CHECK_EQ(start_kind(&p, &f, CTA_POLICY_LCS, 2, 1, 1, NULL), 0);
    p.m->kernel_ready(p.state, 0, 100);
    for (f.now = 0; f.now < 4; f.now++) {
        CHECK_EQ(place(&p, &f, 0), 0);
        CHECK_EQ(place(&p, &f, 1), 10);
    }
    CHECK_EQ(place(&p, &f, 0), -1);
    set_insns(&f, 0, 0, 0, 4);
    set_insns(&f, 0, 0, 2, 3);
    set_insns(&f, 0, 0, 4, 3);
    set_insns(&f, 0, 0, 6, 0);
    for (unsigned i = 1; i < 8; i += 2)
        set_insns(&f, 1, 0, i, 5);
    f.now = 10;
    done_id(&p, &f, 1, 0, 1);
    cta_policy_kstats_t ks;
    p.m->kernel_stats(p.state, 0, &ks);
    CHECK_EQ(ks.t_new, 0);
    CHECK_EQ(place(&p, &f, 1), 10);          /* SM 1 back to 4 */
    CHECK_EQ(f.held[1], 4);
    f.now = 20;
    done_id(&p, &f, 0, 0, 0);
    p.m->kernel_stats(p.state, 0, &ks);
    CHECK_EQ(ks.t_max, 4);
    CHECK_EQ(ks.t_new, 2);
    CHECK_EQ(ks.window_cycles, 20);
    CHECK_EQ(place(&p, &f, 0), -1);          /* 3 resident >= 2 */
    CHECK_EQ(place(&p, &f, 1), -1);          /* 4 resident >= 2 */
    CHECK_EQ(f.held[0], 3);                  /* nothing preempted */
    done_id(&p, &f, 0, 0, 2);
    CHECK_EQ(place(&p, &f, 0), -1);          /* 2 resident */
    done_id(&p, &f, 0, 0, 4);
    CHECK_EQ(place(&p, &f, 0), 0);           /* 1 -> 2 */
    CHECK_EQ(place(&p, &f, 0), -1);
    done_id(&p, &f, 1, 0, 3);
    done_id(&p, &f, 1, 0, 5);
    CHECK_EQ(place(&p, &f, 1), -1);          /* 2 resident */
    done_id(&p, &f, 1, 0, 7);
    CHECK_EQ(place(&p, &f, 1), 10);          /* 1 -> 2 */
    CHECK_EQ(place(&p, &f, 1), -1);
    /* the first decision stands: later completions on SM 0 change nothing */
    f.now = 30;
    done(&p, &f, 0, 0);
    p.m->kernel_stats(p.state, 0, &ks);
    CHECK_EQ(ks.t_new, 2);
    CHECK_EQ(ks.window_cycles, 20);
    cta_policy_free(&p);
}

/* Two launches of the same static kernel, one after the other, on one SM
 * of 4 CTAs.  Launch 0 (4 CTAs) issues [8,8,1,1]: floor(18/8) = 2.
 * lcs_scope=launch: launch 1 is monitored afresh, so it fills to 4.
 * lcs_scope=kernel: launch 1 takes T_new 2 at once: 2 CTAs, then none. */
TEST(cta_policy_lcs_reset_per_launch_and_scope)
{
    for (int scope = 0; scope < 2; scope++) {
        fake_t f = { .cap = 4 };
        cta_policy_params_t pp = { .lcs_scope = scope ? CTA_LCS_KERNEL : CTA_LCS_LAUNCH };
        cta_policy_t p;
        CHECK_EQ(start_kind(&p, &f, CTA_POLICY_LCS, 1, 1, 2, &pp), 0);
        p.m->kernel_ready(p.state, 0, 4);
        for (int i = 0; i < 4; i++)
            CHECK_EQ(place(&p, &f, 0), 0);
        static const uint64_t n[] = { 8, 8, 1, 1 };
        for (unsigned i = 0; i < 4; i++)
            set_insns(&f, 0, 0, i, n[i]);
        for (unsigned i = 0; i < 4; i++)
            done_id(&p, &f, 0, 0, i);
        cta_policy_kstats_t ks;
        p.m->kernel_stats(p.state, 0, &ks);
        CHECK_EQ(ks.t_new, 2);
        p.m->kernel_ready(p.state, 1, 8);
        unsigned placed = 0;
        while (place(&p, &f, 0) >= 0)
            placed++;
        CHECK_MSG(placed == (scope ? 2u : 4u), "scope %d: %u placed", scope, placed);
        p.m->kernel_stats(p.state, 1, &ks);
        CHECK_EQ(ks.t_new, scope ? 2u : 0u);
        cta_policy_free(&p);
    }
}

/* A Type-I launch: equal counts [6,6,6,6] give 24/6 = 4 = T_max, so the
 * cap changes nothing: the SM refills to 4 after every completion. */
TEST(cta_policy_lcs_type_one_keeps_t_max)
{
    fake_t f = { .cap = 4 };
    cta_policy_t p;
    CHECK_EQ(start_kind(&p, &f, CTA_POLICY_LCS, 1, 1, 1, NULL), 0);
    p.m->kernel_ready(p.state, 0, 20);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(place(&p, &f, 0), 0);
    for (unsigned i = 0; i < 4; i++)
        set_insns(&f, 0, 0, i, 6);
    done_id(&p, &f, 0, 0, 0);
    cta_policy_kstats_t ks;
    p.m->kernel_stats(p.state, 0, &ks);
    CHECK_EQ(ks.t_new, 4);
    CHECK_EQ(place(&p, &f, 0), 0);
    CHECK_EQ(f.held[0], 4);
    cta_policy_free(&p);
}

/* ---------- bcs (reference 004 §2.3, §8) ---------- */

/* 28 SMs (28 clusters of one), 8 CTAs each, a 16x16-CTA kernel of 200
 * CTAs: in the first cycle cluster c places the pair (2c, 2c+1) on SM c,
 * so (0,1) -> SM 0, (2,3) -> SM 1, ..., (54,55) -> SM 27; in the next
 * cycle (56,57) -> SM 0. */
TEST(cta_policy_bcs_pairs_round_robin)
{
    fake_t f = { .cap = 8, .block = { { 16, 16, 1 } } };
    cta_policy_t p;
    CHECK_EQ(start_kind(&p, &f, CTA_POLICY_BCS, 28, 1, 1, NULL), 0);
    p.m->kernel_ready(p.state, 0, 200);
    for (unsigned c = 0; c < 28; c++) {
        unsigned sm, k;
        CHECK_EQ(place_n(&p, &f, c, &sm, &k), 2);
        CHECK_EQ(sm, c);
        CHECK_EQ(f.res[c][0].id, 2 * c);
        CHECK_EQ(f.res[c][1].id, 2 * c + 1);
    }
    unsigned sm, k;
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 2);
    CHECK_EQ(sm, 0);
    CHECK_EQ(f.res[0][2].id, 56);
    CHECK_EQ(f.res[0][3].id, 57);
    cta_policy_free(&p);
}

/* One SM of 4 CTAs, a 2D kernel of 10 CTAs: pairs (0,1) and (2,3), then
 * full.  CTA 0 finishes: its slot stays empty (rr would refill it).  CTA 2
 * finishes: two half pairs, still nothing.  CTA 1 finishes: pair (0,1) is
 * done, its two slots take the pair (4,5); CTA 2's slot is still held for
 * its pair, so nothing more. */
TEST(cta_policy_bcs_delayed_refill)
{
    fake_t f = { .cap = 4, .block = { { 16, 8, 1 } } };
    cta_policy_t p;
    CHECK_EQ(start_kind(&p, &f, CTA_POLICY_BCS, 1, 1, 1, NULL), 0);
    p.m->kernel_ready(p.state, 0, 10);
    unsigned sm, k;
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 2);
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 2);
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 0);
    done_id(&p, &f, 0, 0, 0);
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 0);
    done_id(&p, &f, 0, 0, 2);
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 0);
    done_id(&p, &f, 0, 0, 1);
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 2);
    CHECK_EQ(f.next_id[0], 6);
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 0);
    cta_policy_free(&p);
}

/* An odd total leaves a singleton at the end (5 CTAs: 2, 2, 1); a kernel
 * of 1D CTAs goes one CTA at a time as rr places it (SMs 0, 1, 2, 0). */
TEST(cta_policy_bcs_odd_total_and_1d_fallback)
{
    fake_t f = { .cap = 8, .block = { { 16, 16, 1 }, { 256, 1, 1 } } };
    cta_policy_t p;
    CHECK_EQ(start_kind(&p, &f, CTA_POLICY_BCS, 1, 1, 1, NULL), 0);
    p.m->kernel_ready(p.state, 0, 5);
    unsigned sm, k;
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 2);
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 2);
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 1);
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 0);
    cta_policy_free(&p);

    fake_t g = { .cap = 8, .block = { { 256, 1, 1 } } };
    CHECK_EQ(start_kind(&p, &g, CTA_POLICY_BCS, 1, 3, 1, NULL), 0);
    p.m->kernel_ready(p.state, 0, 4);
    static const unsigned want[] = { 0, 1, 2, 0 };
    for (unsigned i = 0; i < 4; i++) {
        CHECK_EQ(place_n(&p, &g, 0, &sm, &k), 1);
        CHECK_EQ(sm, want[i]);
    }
    cta_policy_free(&p);
}

/* An SM of 3 CTAs: bcs_odd_fill=none places one pair and leaves the third
 * slot empty; singleton fills it with a lone CTA. */
TEST(cta_policy_bcs_odd_fill)
{
    for (int fill = 0; fill < 2; fill++) {
        fake_t f = { .cap = 3, .block = { { 16, 16, 1 } } };
        cta_policy_params_t pp = { .bcs_odd_fill = fill ? CTA_BCS_SINGLETON : CTA_BCS_NONE };
        cta_policy_t p;
        CHECK_EQ(start_kind(&p, &f, CTA_POLICY_BCS, 1, 1, 1, &pp), 0);
        p.m->kernel_ready(p.state, 0, 10);
        unsigned sm, k;
        CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 2);
        CHECK_EQ(place_n(&p, &f, 0, &sm, &k), fill ? 1 : 0);
        CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 0);
        cta_policy_free(&p);
    }
}

/* lcs_bcs on one SM of 8 CTAs: a 2D kernel of 40 CTAs is placed as 4
 * pairs (0..7); CTAs 0-3 issued 10 each, 4-7 none.  CTA 0 completes:
 * T_new = floor(40/10) = 4.  CTAs 1, 2, 3 complete: 4 resident, none
 * placed.  CTAs 4, 5 complete: 2 resident, a pair fits under 4: (8, 9).
 * A 1D kernel is placed as lcs: one CTA at a time. */
TEST(cta_policy_lcs_bcs_pairs_under_the_cap)
{
    fake_t f = { .cap = 8, .block = { { 16, 16, 1 }, { 128, 1, 1 } } };
    cta_policy_t p;
    CHECK_EQ(start_kind(&p, &f, CTA_POLICY_LCS_BCS, 1, 1, 2, NULL), 0);
    p.m->kernel_ready(p.state, 0, 40);
    unsigned sm, k;
    for (int i = 0; i < 4; i++)
        CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 2);
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 0);
    for (unsigned i = 0; i < 4; i++)
        set_insns(&f, 0, 0, i, 10);
    done_id(&p, &f, 0, 0, 0);
    cta_policy_kstats_t ks;
    p.m->kernel_stats(p.state, 0, &ks);
    CHECK_EQ(ks.t_new, 4);
    for (unsigned i = 1; i < 4; i++) {
        done_id(&p, &f, 0, 0, i);
        CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 0);
    }
    done_id(&p, &f, 0, 0, 4);
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 0);
    done_id(&p, &f, 0, 0, 5);
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 2);
    CHECK_EQ(f.next_id[0], 10);
    CHECK_EQ(place_n(&p, &f, 0, &sm, &k), 0);
    cta_policy_free(&p);

    fake_t g = { .cap = 8, .block = { { 128, 1, 1 } } };
    CHECK_EQ(start_kind(&p, &g, CTA_POLICY_LCS_BCS, 1, 1, 1, NULL), 0);
    p.m->kernel_ready(p.state, 0, 3);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(place_n(&p, &g, 0, &sm, &k), 1);
    CHECK_EQ(place_n(&p, &g, 0, &sm, &k), 0);
    cta_policy_free(&p);
}

/* The policies' keys: names from their lists, and bad values are errors
 * that name the key (an lcs_monitor_sm past the last SM is caught by
 * simt_config_validate: 15 clusters x 1 SM by default, so 15 names none). */
TEST(cta_policy_keys)
{
    simt_config_t c;
    simt_error_t err;
    memset(&err, 0, sizeof err);
    simt_config_defaults(&c);
    CHECK_EQ(simt_config_set(&c, "gpgpu_cta_policy=lcs_bcs", "t", &err), SIMT_OK);
    CHECK_EQ(simt_config_get(&c, SIMT_CFG_CTA_POLICY), CTA_POLICY_LCS_BCS);
    CHECK_EQ(simt_config_set(&c, "lcs_round=ceil", "t", &err), SIMT_OK);
    CHECK_EQ(simt_config_get(&c, SIMT_CFG_LCS_ROUND), CTA_LCS_CEIL);
    CHECK_EQ(simt_config_set(&c, "lcs_scope=kernel", "t", &err), SIMT_OK);
    CHECK_EQ(simt_config_get(&c, SIMT_CFG_LCS_SCOPE), CTA_LCS_KERNEL);
    CHECK_EQ(simt_config_set(&c, "bcs_odd_fill=singleton", "t", &err), SIMT_OK);
    CHECK_EQ(simt_config_get(&c, SIMT_CFG_BCS_ODD_FILL), CTA_BCS_SINGLETON);
    CHECK_EQ(simt_config_set(&c, "sca_stall_rule=strict", "t", &err), SIMT_OK);
    CHECK_EQ(simt_config_get(&c, SIMT_CFG_SCA_STALL_RULE), 1);
    CHECK_EQ(simt_config_set(&c, "gpgpu_scheduler=sca", "t", &err), SIMT_OK);
    CHECK_EQ(simt_config_get(&c, SIMT_CFG_SCHEDULER), SCHED_SCA);
    CHECK_EQ(simt_config_set(&c, "lcs_round=half", "t", &err), SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "'lcs_round' must be one of floor, ceil, round") != NULL,
              "%s", err.msg);
    memset(&err, 0, sizeof err);
    CHECK_EQ(simt_config_set(&c, "bcs_odd_fill=yes", "t", &err), SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "bcs_odd_fill") != NULL, "%s", err.msg);
    memset(&err, 0, sizeof err);
    CHECK_EQ(simt_config_validate(&c, &err), SIMT_OK);
    CHECK_EQ(simt_config_set(&c, "lcs_monitor_sm=15", "t", &err), SIMT_OK);
    CHECK_EQ(simt_config_validate(&c, &err), SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "lcs_monitor_sm (15) names no SM") != NULL, "%s", err.msg);
    CHECK_EQ(simt_config_set(&c, "lcs_monitor_sm=14", "t", &err), SIMT_OK);
    CHECK_EQ(simt_config_validate(&c, &err), SIMT_OK);
}

/* Two CTAs complete on the monitored SM in the decision's cycle: CTAs 0..3
 * issued [4,3,3,0]; 0 and 1 complete together (the SM reports both before
 * the first event), so the resident ones at the first event are [3,0] and
 * CTA 1's count arrives with the second event.  Both join:
 * floor((4+3+3+0)/4) = 2; counting only the first event gives
 * floor((4+3+0)/4) = 1.  A completion one cycle later changes nothing. */
TEST(cta_policy_lcs_same_cycle_completions)
{
    fake_t f = { .cap = 4 };
    cta_policy_t p;
    CHECK_EQ(start_kind(&p, &f, CTA_POLICY_LCS, 1, 1, 1, NULL), 0);
    p.m->kernel_ready(p.state, 0, 20);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(place(&p, &f, 0), 0);
    static const uint64_t n[] = { 4, 3, 3, 0 };
    for (unsigned i = 0; i < 4; i++)
        set_insns(&f, 0, 0, i, n[i]);
    f.now = 5;
    /* the fake's held list is [0,1,2,3]: take 0 and 1 out first */
    f.res[0][0] = f.res[0][2];
    f.res[0][1] = f.res[0][3];
    f.held[0] = 2;
    p.m->cta_done(p.state, 0, 0, 0, 4);
    p.m->cta_done(p.state, 0, 0, 1, 3);
    cta_policy_kstats_t ks;
    p.m->kernel_stats(p.state, 0, &ks);
    CHECK_EQ(ks.t_new, 2);
    f.now = 6;
    done_id(&p, &f, 0, 0, 2);
    p.m->kernel_stats(p.state, 0, &ks);
    CHECK_EQ(ks.t_new, 2);
    cta_policy_free(&p);
}

/* ---------- dyncta, cke, mcke ----------
 * A fake GPU with resources: each SM has 1536 threads, 32768 registers,
 * 48 KiB of scratchpad and 8 CTA slots (reference 004 §3's Fermi SM); a
 * CTA of kernel k takes threads[k], regs[k] and smem[k].  fits answers
 * from those sums alone (no quota: the policies must keep their caps);
 * cap is T_max from the same figures, lowered by quota[k] (0: none). */
#define RK 3

typedef struct rfake {
    unsigned threads[RK], regs[RK], smem[RK], quota[RK];
    unsigned held[NSM][RK];
    /* the linear ids of the CTAs held, oldest first, as the dispatcher
     * gives them out (per kernel in launch order) and reports them done */
    uint64_t ids[NSM][RK][8];
    uint64_t next_id[RK];
    cta_policy_counters_t ctr[NSM];
    unsigned active[NSM];     /* the last limit_active per SM */
    unsigned limit_calls;
} rfake_t;

static unsigned used(const rfake_t *f, unsigned sm, const unsigned *per)
{
    unsigned n = 0;
    for (unsigned k = 0; k < RK; k++)
        n += f->held[sm][k] * per[k];
    return n;
}

static unsigned ctas_on(const rfake_t *f, unsigned sm)
{
    unsigned n = 0;
    for (unsigned k = 0; k < RK; k++)
        n += f->held[sm][k];
    return n;
}

static int rfits(const void *ctx, unsigned sm, unsigned k)
{
    const rfake_t *f = ctx;
    return ctas_on(f, sm) < 8 && used(f, sm, f->threads) + f->threads[k] <= 1536 &&
           used(f, sm, f->regs) + f->regs[k] <= 32768 &&
           used(f, sm, f->smem) + f->smem[k] <= 49152;
}

static unsigned rcap(const void *ctx, unsigned k)
{
    const rfake_t *f = ctx;
    unsigned n = 8;
    if (1536 / f->threads[k] < n)
        n = 1536 / f->threads[k];
    if (f->regs[k] && 32768 / f->regs[k] < n)
        n = 32768 / f->regs[k];
    if (f->smem[k] && 49152 / f->smem[k] < n)
        n = 49152 / f->smem[k];
    return f->quota[k] && f->quota[k] < n ? f->quota[k] : n;
}

static unsigned rresident(const void *ctx, unsigned sm, unsigned k)
{
    const rfake_t *f = ctx;
    return f->held[sm][k];
}

static void rcounters(const void *ctx, unsigned sm, cta_policy_counters_t *out)
{
    const rfake_t *f = ctx;
    *out = f->ctr[sm];
}

static void rlimit(const void *ctx, unsigned sm, unsigned n)
{
    rfake_t *f = (rfake_t *)ctx;
    f->active[sm] = n;
    f->limit_calls++;
}

static int rstart(cta_policy_t *p, rfake_t *f, cta_policy_kind_t kind,
                  unsigned clusters, unsigned per_cluster, unsigned nkernels)
{
    cta_policy_env_t env = { .clusters = clusters, .per_cluster = per_cluster,
                             .nkernels = nkernels, .slots = 8, /* rfits' CTA slots */
                             .query = { .fits = rfits, .cap = rcap,
                                        .resident = rresident,
                                        .counters = rcounters,
                                        .limit_active = rlimit, .ctx = f } };
    return cta_policy_init(p, kind, &env);
}

/* place(cluster) applied to the fake, as sm * 10 + kernel or -1; a
 * placement the resources do not allow is returned as -2. */
static int rplace(cta_policy_t *p, rfake_t *f, unsigned cluster)
{
    unsigned sm, k;
    if (!p->m->place(p->state, cluster, &sm, &k))
        return -1;
    if (!rfits(f, sm, k))
        return -2;
    f->ids[sm][k][f->held[sm][k]++] = f->next_id[k]++;
    return (int)(sm * 10 + k);
}

static void rdone(cta_policy_t *p, rfake_t *f, unsigned sm, unsigned k)
{
    uint64_t id = f->ids[sm][k][0];
    f->held[sm][k]--;
    memmove(f->ids[sm][k], f->ids[sm][k] + 1, f->held[sm][k] * sizeof f->ids[sm][k][0]);
    p->m->cta_done(p->state, sm, k, id, 0);
}

/* Every cluster placed until none places (at most `rounds` rounds); the
 * placements made, or -1 when one broke the resources. */
static int fill(cta_policy_t *p, rfake_t *f, unsigned clusters, unsigned rounds)
{
    int n = 0;
    for (unsigned r = 0; r < rounds; r++) {
        int any = 0;
        for (unsigned c = 0; c < clusters; c++) {
            int got = rplace(p, f, c);
            if (got == -2)
                return -1;
            if (got >= 0) {
                any = 1;
                n++;
            }
        }
        if (!any)
            break;
    }
    return n;
}

/* PACT'13's thresholds (the keys' defaults): t_idle 16, t_mem_l 128,
 * t_mem_h 384.  Each case worked out from the rule in cta_dyncta.h. */
TEST(cta_policy_dyncta_controller_up_down_hold_clamps)
{
    const cta_dyncta_thresholds_t t = { 16, 128, 384 };
    CHECK_EQ(cta_dyncta_step(4, 8, 16, 1000, &t), 5);  /* idle first: up */
    CHECK_EQ(cta_dyncta_step(4, 8, 15, 127, &t), 5);   /* little memory wait */
    CHECK_EQ(cta_dyncta_step(4, 8, 15, 128, &t), 4);   /* hold at t_mem_l */
    CHECK_EQ(cta_dyncta_step(4, 8, 0, 384, &t), 4);    /* hold at t_mem_h */
    CHECK_EQ(cta_dyncta_step(4, 8, 0, 385, &t), 3);    /* down */
    CHECK_EQ(cta_dyncta_step(8, 8, 100, 0, &t), 8);    /* clamp at T_max */
    CHECK_EQ(cta_dyncta_step(1, 8, 0, 5000, &t), 1);   /* clamp at 1 */
    CHECK_EQ(cta_dyncta_step(9, 6, 0, 200, &t), 6);    /* T_max fell */
    CHECK_EQ(cta_dyncta_start(8), 4);
    CHECK_EQ(cta_dyncta_start(7), 3);                  /* rounded down */
    CHECK_EQ(cta_dyncta_start(1), 1);
    CHECK_EQ(cta_dyncta_start(3), 1);
}

/* The policy over a crafted counter sequence, 2 SMs (2 clusters of 1), one
 * kernel of 128-thread CTAs: T_max = 8, start 4 on both SMs (told by
 * limit_active).  Period 2048 (default): at cycle 2048 SM 0 had 20 idle
 * cycles (up: 5), SM 1 500 memory-wait cycles (down: 3); cycle 3000 is no
 * period end; at 4096 SM 0 200 memory-wait cycles (hold), SM 1 400 more
 * (down: 2). */
TEST(cta_policy_dyncta_limits_over_counter_sequence)
{
    rfake_t f = { .threads = { 128 } };
    cta_policy_t p;
    CHECK_EQ(rstart(&p, &f, CTA_POLICY_DYNCTA, 2, 1, 1), 0);
    p.m->kernel_ready(p.state, 0, 100);
    CHECK_EQ(f.active[0], 4);
    CHECK_EQ(f.active[1], 4);
    CHECK_EQ(fill(&p, &f, 2, 20), 8);
    CHECK_EQ(f.held[0][0], 4);
    CHECK_EQ(f.held[1][0], 4);
    p.m->cycle(p.state, 2047);
    CHECK_EQ(f.active[0], 4);
    f.ctr[0] = (cta_policy_counters_t){ .idle = 20, .mem = 0 };
    f.ctr[1] = (cta_policy_counters_t){ .idle = 0, .mem = 500 };
    p.m->cycle(p.state, 2048);
    CHECK_EQ(f.active[0], 5);
    CHECK_EQ(f.active[1], 3);
    CHECK_EQ(rplace(&p, &f, 0), 0);   /* SM 0 below its new limit */
    CHECK_EQ(rplace(&p, &f, 0), -1);
    CHECK_EQ(rplace(&p, &f, 1), -1);  /* SM 1 holds 4 > 3: none placed */
    f.ctr[1].mem = 900;
    p.m->cycle(p.state, 3000);
    CHECK_EQ(f.active[1], 3);
    f.ctr[0].mem = 200;
    p.m->cycle(p.state, 4096);
    CHECK_EQ(f.active[0], 5);
    CHECK_EQ(f.active[1], 2);
    rdone(&p, &f, 1, 0);              /* 3 left on SM 1: still above 2 */
    CHECK_EQ(rplace(&p, &f, 1), -1);
    rdone(&p, &f, 1, 0);
    rdone(&p, &f, 1, 0);              /* 1 left: room for one */
    CHECK_EQ(rplace(&p, &f, 1), 10);
    CHECK_EQ(rplace(&p, &f, 1), -1);
    cta_policy_free(&p);
}

/* The paper's KMN-SRAD mix (reference 004 Table 3): quotas 1 and 5, both
 * 256-thread CTAs (T_max 6 each by threads).  1 + 5 CTAs = 1536 threads:
 * every SM of 4 (4 clusters of 1) ends with exactly 1 KMN and 5 SRAD CTAs,
 * and nothing more fits.  A KMN CTA completing on SM 2 is replaced by one
 * of KMN on SM 2, not SRAD (SRAD is at its quota there).  Without quotas
 * the first kernel takes all 6 slots of threads and SRAD gets none. */
TEST(cta_policy_mcke_quotas_coresidence_resources)
{
    rfake_t f = { .threads = { 256, 256 }, .regs = { 256 * 20, 256 * 16 },
                  .quota = { 1, 5 } };
    cta_policy_t p;
    CHECK_EQ(rstart(&p, &f, CTA_POLICY_MCKE, 4, 1, 2), 0);
    p.m->kernel_ready(p.state, 0, 1936);
    p.m->kernel_ready(p.state, 1, 16384);
    CHECK_EQ(fill(&p, &f, 4, 100), 24);
    for (unsigned s = 0; s < 4; s++) {
        CHECK_EQ(f.held[s][0], 1);
        CHECK_EQ(f.held[s][1], 5);
        CHECK(used(&f, s, f.threads) <= 1536);
        CHECK(used(&f, s, f.regs) <= 32768);
    }
    rdone(&p, &f, 2, 0);
    CHECK_EQ(rplace(&p, &f, 2), 20);
    cta_policy_free(&p);

    rfake_t g = { .threads = { 256, 256 } };
    CHECK_EQ(rstart(&p, &g, CTA_POLICY_MCKE, 4, 1, 2), 0);
    p.m->kernel_ready(p.state, 0, 1936);
    p.m->kernel_ready(p.state, 1, 16384);
    CHECK_EQ(fill(&p, &g, 4, 100), 24);
    for (unsigned s = 0; s < 4; s++)
        CHECK(g.held[s][0] == 6 && g.held[s][1] == 0);
    cta_policy_free(&p);
}

/* Resources, not quotas, bound a mix when the quotas ask too much: KMN 3
 * and SRAD 5 of 256 threads would be 2048 threads; the SM takes 6 CTAs in
 * all, in rr's kernel order (KMN's 3 first, then SRAD's 3). */
TEST(cta_policy_mcke_resources_never_exceeded)
{
    rfake_t f = { .threads = { 256, 256 }, .smem = { 8192, 4096 },
                  .quota = { 3, 5 } };
    cta_policy_t p;
    CHECK_EQ(rstart(&p, &f, CTA_POLICY_MCKE, 2, 1, 2), 0);
    p.m->kernel_ready(p.state, 0, 50);
    p.m->kernel_ready(p.state, 1, 50);
    CHECK_EQ(fill(&p, &f, 2, 100), 12);
    for (unsigned s = 0; s < 2; s++) {
        CHECK_EQ(f.held[s][0], 3);
        CHECK_EQ(f.held[s][1], 3);
        CHECK(used(&f, s, f.threads) <= 1536 && used(&f, s, f.smem) <= 49152);
    }
    cta_policy_free(&p);
}

static int one_kernel_per_sm(const rfake_t *f, unsigned nsm)
{
    for (unsigned s = 0; s < nsm; s++) {
        unsigned kinds = 0;
        for (unsigned k = 0; k < RK; k++)
            kinds += f->held[s][k] > 0;
        if (kinds > 1)
            return 0;
    }
    return 1;
}

/* cke on 4 SMs (4 clusters of 1), kernels A (12 CTAs) and B (100), both
 * 256 threads (T_max 6).  Round 1: SMs 0..3 go to A, B, A, B (fewest SMs
 * owned, A first on a tie); 6 rounds fill them: A's 12 CTAs are placed
 * out on SMs 0 and 2.  Those drain: a completion on SM 0 places nothing
 * until its last A CTA is gone, then SM 0 is B's. */
TEST(cta_policy_cke_one_kernel_per_sm_and_hand_over)
{
    rfake_t f = { .threads = { 256, 256 } };
    cta_policy_t p;
    CHECK_EQ(rstart(&p, &f, CTA_POLICY_CKE, 4, 1, 2), 0);
    p.m->kernel_ready(p.state, 0, 12);
    p.m->kernel_ready(p.state, 1, 100);
    static const int first[4] = { 0, 11, 20, 31 };
    for (unsigned c = 0; c < 4; c++)
        CHECK_EQ(rplace(&p, &f, c), first[c]);
    CHECK_EQ(fill(&p, &f, 4, 100), 20);
    CHECK(one_kernel_per_sm(&f, 4));
    CHECK(f.held[0][0] == 6 && f.held[2][0] == 6);
    CHECK(f.held[1][1] == 6 && f.held[3][1] == 6);
    for (int i = 0; i < 5; i++) {
        rdone(&p, &f, 0, 0);
        CHECK_EQ(rplace(&p, &f, 0), -1);   /* draining */
        CHECK(one_kernel_per_sm(&f, 4));
    }
    rdone(&p, &f, 0, 0);
    CHECK_EQ(rplace(&p, &f, 0), 1);        /* handed to B */
    CHECK_EQ(fill(&p, &f, 4, 100), 5);
    CHECK_EQ(f.held[0][1], 6);
    CHECK(one_kernel_per_sm(&f, 4));
    cta_policy_free(&p);
}

/* A kernel that becomes ready while another owns every SM gets its share
 * as SMs drain: A alone takes SMs 0..3 (quota 1 each); B arrives: SMs 0
 * and 1 drain for B (A 4 > B 0 + 1, then 3 > 1 + 1; at SM 2, 2 > 2 + 1 is
 * false), so each gets two. */
TEST(cta_policy_cke_late_kernel_gets_half)
{
    rfake_t f = { .threads = { 256, 256 }, .quota = { 1, 1 } };
    cta_policy_t p;
    CHECK_EQ(rstart(&p, &f, CTA_POLICY_CKE, 4, 1, 2), 0);
    p.m->kernel_ready(p.state, 0, 100);
    CHECK_EQ(fill(&p, &f, 4, 10), 4);
    p.m->kernel_ready(p.state, 1, 100);
    CHECK_EQ(fill(&p, &f, 4, 10), 0);      /* SMs 0, 1 drain; 2, 3 full */
    for (unsigned s = 0; s < 4; s++)
        rdone(&p, &f, s, 0);
    static const int want[4] = { 1, 11, 20, 30 };
    for (unsigned c = 0; c < 4; c++)
        CHECK_EQ(rplace(&p, &f, c), want[c]);
    CHECK(one_kernel_per_sm(&f, 4));
    cta_policy_free(&p);
}

/* ---------- dyncta on the timing model: CTA pausing ----------
 * Four one-warp CTAs on one SM; CTA i loads a word (a long-latency wait),
 * then counts down (4 - i) x 100 iterations and takes a completion ticket
 * (an atomic counter) into ticket[i].  Under lrr all warps progress alike,
 * so with every CTA running the least work finishes first: tickets
 * 3, 2, 1, 0 (rr).  Under dyncta with period 1 and thresholds that lower
 * the limit after every cycle of memory waiting (t_mem_h 0) and never
 * raise it (t_idle huge, t_mem_l 0): once the four wait on their loads the
 * limit falls 4 -> 1, pausing the most recently placed CTAs 3, 2, 1; CTA 0
 * runs alone, and each completion lets the next oldest go on: tickets
 * 0, 1, 2, 3.  (Pausing the oldest instead would run CTA 3 first.) */
static const char pause_ptx[] = PK_HEADER
    ".visible .entry tickets(.param .u64 out, .param .u64 cnt)\n{\n"
    ".reg .b32 %r<8>;\n.reg .b64 %rd<6>;\n.reg .pred %p<2>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [cnt];\n"
    "mov.u32 %r1, %ctaid.x;\nld.global.u32 %r2, [%rd2+4];\n"
    "mov.u32 %r3, 4;\nsub.s32 %r3, %r3, %r1;\nmul.lo.s32 %r3, %r3, 100;\n"
    "add.s32 %r3, %r3, %r2;\n"
    "LOOP:\nadd.s32 %r3, %r3, -1;\nsetp.ne.s32 %p1, %r3, 0;\n@%p1 bra LOOP;\n"
    "mov.u32 %r4, %tid.x;\nsetp.ne.s32 %p1, %r4, 0;\n@%p1 bra DONE;\n"
    "atom.global.add.u32 %r5, [%rd2], 1;\nmul.wide.u32 %rd3, %r1, 4;\n"
    "add.s64 %rd4, %rd1, %rd3;\nst.global.u32 [%rd4], %r5;\n"
    "DONE:\nret;\n}\n";

/* The tickets of one run under `policy` (0 on failure, reported). */
static int ticket_run(const char *policy, uint32_t ticket[4])
{
    char pol[64];
    snprintf(pol, sizeof pol, "gpgpu_cta_policy=%s", policy);
    const char *const sets[] = { "functional=0", "gpgpu_n_clusters=1",
                                 "gpgpu_n_cores_per_cluster=1",
                                 "gpgpu_ideal_memory=1", "gpgpu_ideal_mem_latency=200",
                                 "gpgpu_perfect_inst_cache=1", "gpgpu_scheduler=lrr",
                                 "dyncta_period=1", "dyncta_t_idle=1048576",
                                 "dyncta_t_mem_l=0", "dyncta_t_mem_h=0", pol, NULL };
    simt_error_t err = { 0 };
    simt_gpu_t *g = pk_gpu(sets, &err);
    simt_module_t *m = g ? pk_load(g, "tickets.ptx", pause_ptx, &err) : NULL;
    int ok = 0;
    if (m) {
        simt_devptr_t out = pk_alloc_u32(g, 4, 99), cnt = pk_alloc_u32(g, 2, 0);
        simt_arg_t a[2] = { SIMT_ARG(out), SIMT_ARG(cnt) };
        ok = pk_run(g, m, "tickets", pk_dim(4, 1, 1), pk_dim(32, 1, 1), 0, a, 2,
                    &err) == SIMT_OK && pk_read_u32(g, out, ticket, 4) == SIMT_OK;
    }
    if (!ok)
        printf("  %s: %s\n", policy, err.msg);
    pk_gpu_free(g);
    return ok;
}

TEST(cta_policy_dyncta_pauses_the_most_recent_cta)
{
    uint32_t rr[4], dyn[4];
    CHECK(ticket_run("rr", rr));
    CHECK(ticket_run("dyncta", dyn));
    for (unsigned i = 0; i < 4; i++) {
        CHECK_MSG(rr[i] == 3 - i, "rr: CTA %u took ticket %u", i, rr[i]);
        CHECK_MSG(dyn[i] == i, "dyncta: CTA %u took ticket %u", i, dyn[i]);
    }
}

/* cke_quota's form (gpu/cta_quota.h), by hand: names match whole, blanks
 * around items are allowed, an unnamed kernel has none (0). */
TEST(cta_policy_quota_text)
{
    const char *q = " kmeans_point:1, srad_main : 5 ,_Z3foov:12";
    CHECK(config_quota_check(q) == NULL);
    CHECK_EQ(cta_quota_of(q, "kmeans_point"), 1);
    CHECK_EQ(cta_quota_of(q, "srad_main"), 5);
    CHECK_EQ(cta_quota_of(q, "_Z3foov"), 12);
    CHECK_EQ(cta_quota_of(q, "srad"), 0);          /* a prefix is not a name */
    CHECK_EQ(cta_quota_of(q, "kmeans_point2"), 0);
    CHECK_EQ(cta_quota_of("", "kmeans_point"), 0);
    CHECK(config_quota_check("") == NULL);
    CHECK(config_quota_check("a:1,") != NULL);     /* a dangling comma */
    CHECK(config_quota_check("a:1 b:2") != NULL);
    CHECK(config_quota_check("a:1025") != NULL);
    CHECK(config_quota_check("1a:3") != NULL);
    CHECK(config_quota_check("ab:2,a:3") == NULL); /* a, ab: two names */
    CHECK(config_quota_check("a:2,ab:3,a:4") != NULL);
}
