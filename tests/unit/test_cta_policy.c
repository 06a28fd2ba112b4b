/* test_cta_policy.c: the CTA placement policies (gpu/cta_policy.h) driven
 * through their events with a fake GPU: each SM holds at most `cap` CTAs
 * of any kernel, so whether a CTA fits is known without an SM.  Every
 * expected placement was worked out by hand from the rule in the policy's
 * header comment (rr: GPGPU-Sim 3.x's round robin). */
#include <string.h>

#include "harness.h"
#include "core/sched.h"
#include "gpu/cta_lcs.h"
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
    CHECK_MSG(strstr(err.msg, "must be one of rr, lcs, bcs, lcs_bcs") != NULL, "%s", err.msg);
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
