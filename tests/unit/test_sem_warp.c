/* test_sem_warp.c: semantics of the warp-level instructions: vote.sync
 * (all/any/uni/ballot) on whole warps, inside a divergent branch and with
 * lanes predicated off; activemask in nested divergence; shfl.sync in
 * every mode with widths 32/16/8 (CUDA's encoding of c: for .up
 * c = (32 - width) << 8, otherwise ((32 - width) << 8) | 0x1f), per-lane
 * and immediate source operands, other clamp values, and the p output. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../harness.h"
#include "sem_helpers.h"

/* ------------------------------------------------------------------ */
/* vote                                                                */
/* ------------------------------------------------------------------ */

/* four warps: pred = lane % 3 == 0, all true, all false, lane 31 only */
static int vote_pred(unsigned i)
{
    unsigned w = i / 32, l = i % 32;
    return w == 0 ? l % 3 == 0 : w == 1 ? 1 : w == 2 ? 0 : l == 31;
}

TEST(sem_vote_full_warps)
{
    enum { N = 128 };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < N; i++)
        L[i].a = (uint64_t)vote_pred(i);
    CHECK(sem_run("d.u32 e.u32 a.pred",
                  ".reg .pred %all, %any, %uni;\n.reg .u32 %t;\n"
                  "vote.sync.all.pred %all, %a, 0xffffffff;\n"
                  "vote.sync.any.pred %any, %a, 0xffffffff;\n"
                  "vote.sync.uni.pred %uni, %a, 0xffffffff;\n"
                  "vote.sync.ballot.b32 %e, %a, 0xffffffff;\n"
                  "selp.u32 %d, 1, 0, %all;\n"
                  "selp.u32 %t, 2, 0, %any;\nor.b32 %d, %d, %t;\n"
                  "selp.u32 %t, 4, 0, %uni;\nor.b32 %d, %d, %t;", L, N) == 0);
    for (unsigned w = 0; w < 4; w++) {
        uint32_t ballot = 0;
        for (unsigned l = 0; l < 32; l++)
            ballot |= (uint32_t)vote_pred(w * 32 + l) << l;
        unsigned all = ballot == 0xffffffffu, any = ballot != 0,
                 uni = all || !any;
        for (unsigned l = 0; l < 32; l++) {
            unsigned i = w * 32 + l;
            SEM_EQ(L, i, L[i].d, all | any << 1 | uni << 2);
            SEM_EQ(L, i, L[i].e, ballot);
        }
    }
}

/* Inside a branch taken by the lanes with lane & 3 != 0: activemask names
 * them, and the votes only see them. */
TEST(sem_vote_in_divergent_branch)
{
    enum { N = 64 };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < N; i++)
        L[i].a = (i < 32) ? ((i * 7) % 5 == 0) : (i % 4 != 0);
    CHECK(sem_run("d.u64 e.u32 a.pred",
                  ".reg .pred %out, %all, %any, %uni;\n"
                  ".reg .u32 %ln, %m, %b, %t;\n"
                  "mov.u64 %d, 0xdead;\nmov.u32 %e, 0xdead;\n"
                  "mov.u32 %ln, %laneid;\n"
                  "and.b32 %t, %ln, 3;\n"
                  "setp.eq.u32 %out, %t, 0;\n"
                  "@%out bra SKIP;\n"
                  "activemask.b32 %m;\n"
                  "vote.sync.ballot.b32 %b, %a, %m;\n"
                  "vote.sync.all.pred %all, %a, %m;\n"
                  "vote.sync.any.pred %any, %a, %m;\n"
                  "vote.sync.uni.pred %uni, %a, %m;\n"
                  "mov.b64 %d, {%m, %b};\n"
                  "selp.u32 %e, 1, 0, %all;\n"
                  "selp.u32 %t, 2, 0, %any;\nor.b32 %e, %e, %t;\n"
                  "selp.u32 %t, 4, 0, %uni;\nor.b32 %e, %e, %t;\n"
                  "SKIP:", L, N) == 0);
    for (unsigned w = 0; w < 2; w++) {
        uint32_t act = 0, ballot = 0;
        for (unsigned l = 0; l < 32; l++)
            if (l & 3) {
                act |= 1u << l;
                ballot |= (uint32_t)L[w * 32 + l].a << l;
            }
        unsigned all = ballot == act, any = ballot != 0, uni = all || !any;
        for (unsigned l = 0; l < 32; l++) {
            unsigned i = w * 32 + l;
            if (l & 3) {
                SEM_EQ(L, i, L[i].d, (uint64_t)ballot << 32 | act);
                SEM_EQ(L, i, L[i].e, all | any << 1 | uni << 2);
            } else {
                SEM_EQ(L, i, L[i].d, 0xdead);
                SEM_EQ(L, i, L[i].e, 0xdead);
            }
        }
    }
}

/* A guard predicate turns lanes 24..31 off; the member mask names the
 * other lanes; the predicated-off lanes keep their old value. */
TEST(sem_vote_with_lanes_predicated_off)
{
    enum { N = 32 };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < N; i++)
        L[i].a = i % 2 == 0 || i >= 24; /* lanes 24..31 would vote true */
    CHECK(sem_run("d.u32 e.u32 a.pred",
                  ".reg .pred %g, %any, %all;\n.reg .u32 %ln, %t;\n"
                  "mov.u32 %d, 0xdead;\nmov.u32 %e, 0xdead;\n"
                  "mov.u32 %ln, %laneid;\n"
                  "setp.lt.u32 %g, %ln, 24;\n"
                  "@%g vote.sync.ballot.b32 %d, %a, 0x00ffffff;\n"
                  "@%g vote.sync.all.pred %all, %a, 0x00ffffff;\n"
                  "@%g vote.sync.any.pred %any, %a, 0x00ffffff;\n"
                  "@%g selp.u32 %e, 1, 0, %all;\n"
                  "@%g selp.u32 %t, 2, 0, %any;\n"
                  "@%g or.b32 %e, %e, %t;", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        if (i < 24) {
            SEM_EQ(L, i, L[i].d, 0x00555555u);
            SEM_EQ(L, i, L[i].e, 0 | 2);
        } else {
            SEM_EQ(L, i, L[i].d, 0xdead);
            SEM_EQ(L, i, L[i].e, 0xdead);
        }
    }
}

/* activemask at three nesting levels and after reconvergence. */
TEST(sem_activemask_nested_divergence)
{
    enum { N = 64 };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    CHECK(sem_run("d.u64 e.u64",
                  ".reg .pred %p, %q;\n.reg .u32 %ln, %t, %m0, %m1, %m2, %m3;\n"
                  "mov.u32 %m1, 0;\nmov.u32 %m2, 0;\n"
                  "mov.u32 %ln, %laneid;\n"
                  "activemask.b32 %m0;\n"
                  "setp.ge.u32 %p, %ln, 20;\n"
                  "@%p bra OUTER_END;\n"
                  "activemask.b32 %m1;\n"
                  "and.b32 %t, %ln, 1;\n"
                  "setp.eq.u32 %q, %t, 0;\n"
                  "@%q bra INNER_END;\n"
                  "activemask.b32 %m2;\n"
                  "INNER_END:\n"
                  "OUTER_END:\n"
                  "activemask.b32 %m3;\n"
                  "mov.b64 %d, {%m0, %m1};\n"
                  "mov.b64 %e, {%m2, %m3};", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        unsigned l = i % 32;
        uint32_t m1 = l < 20 ? 0x000fffffu : 0;
        uint32_t m2 = (l < 20 && (l & 1)) ? 0x000aaaaau : 0;
        SEM_EQ(L, i, L[i].d, (uint64_t)m1 << 32 | 0xffffffffu);
        SEM_EQ(L, i, L[i].e, 0xffffffffull << 32 | m2);
    }
}

/* ------------------------------------------------------------------ */
/* shfl                                                                */
/* ------------------------------------------------------------------ */

enum { SH_UP, SH_DOWN, SH_BFLY, SH_IDX };
static const char *const sh_names[4] = { "up", "down", "bfly", "idx" };

/* The ISA's shfl: source lane j and the in-range flag p for `lane`. */
static void shfl_ref(int mode, unsigned lane, uint32_t b, uint32_t c,
                     unsigned *j_out, int *p_out)
{
    int bval = (int)(b & 0x1f), cval = (int)(c & 0x1f);
    int mask = (int)((c >> 8) & 0x1f), ln = (int)lane;
    int maxl = (ln & mask) | (cval & ~mask), minl = ln & mask;
    int j, p;
    switch (mode) {
    case SH_UP: j = ln - bval; p = j >= maxl; break;
    case SH_DOWN: j = ln + bval; p = j <= maxl; break;
    case SH_BFLY: j = ln ^ bval; p = j <= maxl; break;
    default: j = minl | (bval & ~mask); p = j <= maxl; break;
    }
    if (!p)
        j = ln;
    *j_out = (unsigned)j;
    *p_out = p;
}

static uint32_t cuda_c(int mode, unsigned width)
{
    uint32_t c = (32u - width) << 8;
    return mode == SH_UP ? c : c | 0x1f;
}

static void check_shfl(int mode, uint32_t c, int per_lane_b, uint32_t imm_b)
{
    enum { N = 64 };
    sem_lane_t L[N];
    for (unsigned i = 0; i < N; i++) {
        L[i].a = i * 0x01000193u + 0x55u;
        /* per-lane b, including values >= 32 (only b[4:0] counts) */
        L[i].b = per_lane_b ? (i * 7 + (i >> 3)) % 40 : imm_b;
        L[i].c = 0;
        L[i].d = L[i].e = 0;
    }
    char body[160];
    if (per_lane_b)
        snprintf(body, sizeof body,
                 "shfl.sync.%s.b32 %%d|%%e, %%a, %%b, 0x%x, 0xffffffff;",
                 sh_names[mode], c);
    else
        snprintf(body, sizeof body,
                 "shfl.sync.%s.b32 %%d|%%e, %%a, %u, 0x%x, 0xffffffff;",
                 sh_names[mode], imm_b, c);
    CHECK_MSG(sem_run("d.u32 e.pred a.u32 b.u32", body, L, N) == 0, "%s", body);
    for (unsigned i = 0; i < N; i++) {
        unsigned lane = i % 32, j;
        int p;
        shfl_ref(mode, lane, (uint32_t)L[i].b, c, &j, &p);
        uint64_t want = L[(i / 32) * 32 + j].a;
        CHECK_MSG(L[i].d == want && L[i].e == (uint64_t)p,
                  "%s lane %u (b=%u): d=0x%llx p=%llu, want 0x%llx (lane %u) p=%d",
                  body, lane, (unsigned)L[i].b, (unsigned long long)L[i].d,
                  (unsigned long long)L[i].e, (unsigned long long)want, j, p);
    }
}

TEST(sem_shfl_up_widths)
{
    static const unsigned widths[3] = { 32, 16, 8 };
    static const uint32_t bs[] = { 0, 1, 3, 7, 8, 16, 31 };
    for (unsigned w = 0; w < 3; w++) {
        check_shfl(SH_UP, cuda_c(SH_UP, widths[w]), 1, 0);
        for (unsigned k = 0; k < sizeof bs / sizeof *bs; k++)
            check_shfl(SH_UP, cuda_c(SH_UP, widths[w]), 0, bs[k]);
    }
}

TEST(sem_shfl_down_widths)
{
    static const unsigned widths[3] = { 32, 16, 8 };
    static const uint32_t bs[] = { 0, 1, 3, 7, 8, 16, 31 };
    for (unsigned w = 0; w < 3; w++) {
        check_shfl(SH_DOWN, cuda_c(SH_DOWN, widths[w]), 1, 0);
        for (unsigned k = 0; k < sizeof bs / sizeof *bs; k++)
            check_shfl(SH_DOWN, cuda_c(SH_DOWN, widths[w]), 0, bs[k]);
    }
}

TEST(sem_shfl_bfly_widths)
{
    static const unsigned widths[3] = { 32, 16, 8 };
    static const uint32_t bs[] = { 0, 1, 2, 5, 8, 16, 31 };
    for (unsigned w = 0; w < 3; w++) {
        check_shfl(SH_BFLY, cuda_c(SH_BFLY, widths[w]), 1, 0);
        for (unsigned k = 0; k < sizeof bs / sizeof *bs; k++)
            check_shfl(SH_BFLY, cuda_c(SH_BFLY, widths[w]), 0, bs[k]);
    }
}

TEST(sem_shfl_idx_widths)
{
    static const unsigned widths[3] = { 32, 16, 8 };
    static const uint32_t bs[] = { 0, 5, 9, 17, 31, 37 };
    for (unsigned w = 0; w < 3; w++) {
        check_shfl(SH_IDX, cuda_c(SH_IDX, widths[w]), 1, 0);
        for (unsigned k = 0; k < sizeof bs / sizeof *bs; k++)
            check_shfl(SH_IDX, cuda_c(SH_IDX, widths[w]), 0, bs[k]);
    }
}

/* c values CUDA does not produce: a clamp below 31 with no segments, and
 * a segment mask with a clamp inside the segment. */
TEST(sem_shfl_other_clamps)
{
    static const uint32_t cs[] = { 0x0f, 0x00, 0x1805, 0x1003, 0x1f1f };
    for (unsigned k = 0; k < sizeof cs / sizeof *cs; k++)
        for (int mode = 0; mode < 4; mode++)
            check_shfl(mode, cs[k], 1, 0);
}

/* Hand-computed: a warp-wide inclusive scan with shfl.up (the ISA's own
 * example) sums 1..lane+1. */
TEST(sem_shfl_up_inclusive_scan)
{
    enum { N = 64 };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < N; i++)
        L[i].a = i % 32 + 1;
    CHECK(sem_run("d.u32 a.u32",
                  ".reg .u32 %y;\n.reg .pred %p;\n"
                  "mov.u32 %d, %a;\n"
                  "shfl.sync.up.b32 %y|%p, %d, 1, 0, 0xffffffff;\n"
                  "@%p add.u32 %d, %d, %y;\n"
                  "shfl.sync.up.b32 %y|%p, %d, 2, 0, 0xffffffff;\n"
                  "@%p add.u32 %d, %d, %y;\n"
                  "shfl.sync.up.b32 %y|%p, %d, 4, 0, 0xffffffff;\n"
                  "@%p add.u32 %d, %d, %y;\n"
                  "shfl.sync.up.b32 %y|%p, %d, 8, 0, 0xffffffff;\n"
                  "@%p add.u32 %d, %d, %y;\n"
                  "shfl.sync.up.b32 %y|%p, %d, 16, 0, 0xffffffff;\n"
                  "@%p add.u32 %d, %d, %y;", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        unsigned n = i % 32 + 1;
        SEM_EQ(L, i, L[i].d, n * (n + 1) / 2);
    }
}

/* Butterfly reduction (the ISA's example): every lane ends with the sum. */
TEST(sem_shfl_bfly_reduction_without_predicate)
{
    enum { N = 32 };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    uint32_t sum = 0;
    for (unsigned i = 0; i < N; i++) {
        L[i].a = i * i + 3;
        sum += (uint32_t)L[i].a;
    }
    CHECK(sem_run("d.u32 a.u32",
                  ".reg .u32 %y;\n"
                  "mov.u32 %d, %a;\n"
                  "shfl.sync.bfly.b32 %y, %d, 16, 0x1f, 0xffffffff;\nadd.u32 %d, %d, %y;\n"
                  "shfl.sync.bfly.b32 %y, %d, 8, 0x1f, 0xffffffff;\nadd.u32 %d, %d, %y;\n"
                  "shfl.sync.bfly.b32 %y, %d, 4, 0x1f, 0xffffffff;\nadd.u32 %d, %d, %y;\n"
                  "shfl.sync.bfly.b32 %y, %d, 2, 0x1f, 0xffffffff;\nadd.u32 %d, %d, %y;\n"
                  "shfl.sync.bfly.b32 %y, %d, 1, 0x1f, 0xffffffff;\nadd.u32 %d, %d, %y;",
                  L, N) == 0);
    for (unsigned i = 0; i < N; i++)
        SEM_EQ(L, i, L[i].d, sum);
}

/* __syncwarp(): a converged warp passes bar.warp.sync with a full mask, and
 * a branch's lanes pass it with exactly their own mask (activemask). */
TEST(sem_bar_warp_sync_converged_and_own_mask)
{
    enum { N = 64 };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    CHECK(sem_run("d.u32 a.u32",
                  ".reg .pred %odd;\n.reg .u32 %m, %t;\n"
                  "bar.warp.sync -1;\n"
                  "mov.u32 %d, 1;\n"
                  "and.b32 %t, %laneid, 1;\n"
                  "setp.eq.u32 %odd, %t, 1;\n"
                  "@!%odd bra DONE;\n"
                  "activemask.b32 %m;\n"
                  "bar.warp.sync %m;\n"
                  "mov.u32 %d, 2;\n"
                  "DONE:", L, N) == 0);
    for (unsigned i = 0; i < N; i++)
        SEM_EQ(L, i, L[i].d, (i & 1) ? 2u : 1u);
}

/* ------------------------------------------------------------------ */
/* match, redux, elect                                                 */
/* ------------------------------------------------------------------ */

/* Two warps: values in classes lane % 5 (warp 0) and all equal (warp 1);
 * inside a branch that only the lanes with lane % 4 != 3 take. */
TEST(sem_match_any_all)
{
    enum { N = 64 };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < N; i++) {
        L[i].a = i < 32 ? 0x100000000ull * (i % 5) + 7 : 42;
        L[i].b = i % 4 != 3;
    }
    CHECK(sem_run("d.u64 e.u64 a.b64 b.pred",
                  ".reg .b32 %any32, %any64, %all, %f;\n.reg .pred %p;\n"
                  ".reg .b32 %lo;\ncvt.u32.u64 %lo, %a;\n"
                  "@!%b bra $L_skip;\n"
                  "match.any.sync.b32 %any32, %lo, 0xffffffff;\n"
                  "match.any.sync.b64 %any64, %a, 0xffffffff;\n"
                  "match.all.sync.b64 %all|%p, %a, 0xffffffff;\n"
                  "selp.u32 %f, 1, 0, %p;\n"
                  "mov.b64 %d, {%any32, %any64};\nmov.b64 %e, {%all, %f};\n"
                  "$L_skip:", L, N) == 0);
    for (unsigned w = 0; w < 2; w++) {
        uint32_t active = 0;
        for (unsigned l = 0; l < 32; l++)
            active |= (uint32_t)(l % 4 != 3) << l;
        for (unsigned l = 0; l < 32; l++) {
            unsigned i = w * 32 + l;
            if (l % 4 == 3) {
                SEM_EQ(L, i, L[i].d, 0);
                continue;
            }
            uint32_t same64 = 0, same32 = 0;
            for (unsigned k = 0; k < 32; k++) {
                if (!(active >> k & 1))
                    continue;
                same64 |= (uint32_t)(L[w * 32 + k].a == L[i].a) << k;
                same32 |= (uint32_t)((uint32_t)L[w * 32 + k].a ==
                                     (uint32_t)L[i].a) << k;
            }
            int all = same64 == active;
            SEM_EQ(L, i, L[i].d, (uint64_t)same64 << 32 | same32);
            SEM_EQ(L, i, L[i].e, (uint64_t)all << 32 | (all ? active : 0));
        }
    }
}

TEST(sem_redux_sync)
{
    enum { N = 96 };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < N; i++) {
        L[i].a = (uint32_t)(i * 2654435761u) ^ (i % 7 ? 0 : 0x80000000u);
        L[i].b = i >= 64 ? i % 3 == 0 : 1; /* warp 2: a third of the lanes */
    }
    /* or and xor first, kept in c (an input the second run ignores) */
    CHECK(sem_run("d.u64 a.u32 b.pred",
                  ".reg .b32 %s<2>;\n@!%b bra $L_skip;\n"
                  "redux.sync.or.b32 %s0, %a, 0xffffffff;\n"
                  "redux.sync.xor.b32 %s1, %a, 0xffffffff;\n"
                  "mov.b64 %d, {%s0, %s1};\n$L_skip:", L, N) == 0);
    for (unsigned i = 0; i < N; i++)
        L[i].c = L[i].d;
    CHECK(sem_run("d.u64 e.u64 a.u32 b.pred",
                  ".reg .b32 %s<4>;\n@!%b bra $L_skip;\n"
                  "redux.sync.add.u32 %s0, %a, 0xffffffff;\n"
                  "redux.sync.min.u32 %s1, %a, 0xffffffff;\n"
                  "redux.sync.max.s32 %s2, %a, 0xffffffff;\n"
                  "redux.sync.and.b32 %s3, %a, 0xffffffff;\n"
                  "mov.b64 %d, {%s0, %s1};\nmov.b64 %e, {%s2, %s3};\n"
                  "$L_skip:", L, N) == 0);
    for (unsigned w = 0; w < 3; w++) {
        uint32_t add = 0, umin = 0xffffffffu, and_ = 0xffffffffu, or_ = 0,
                 xor_ = 0;
        int32_t smax = INT32_MIN;
        for (unsigned l = 0; l < 32; l++) {
            unsigned i = w * 32 + l;
            if (!L[i].b)
                continue;
            uint32_t v = (uint32_t)L[i].a;
            add += v;
            umin = v < umin ? v : umin;
            smax = (int32_t)v > smax ? (int32_t)v : smax;
            and_ &= v;
            or_ |= v;
            xor_ ^= v;
        }
        for (unsigned l = 0; l < 32; l++) {
            unsigned i = w * 32 + l;
            if (!L[i].b)
                continue;
            SEM_EQ(L, i, L[i].d, (uint64_t)umin << 32 | add);
            SEM_EQ(L, i, L[i].e, (uint64_t)and_ << 32 | (uint32_t)smax);
            SEM_EQ(L, i, L[i].c, (uint64_t)xor_ << 32 | or_);
        }
    }
}

/* elect.sync: the lowest active lane, named in every active lane, its
 * predicate true there alone. */
TEST(sem_elect_sync)
{
    enum { N = 64 };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < N; i++)
        L[i].b = i < 32 ? i >= 5 : i % 2 == 1;
    CHECK(sem_run("d.u32 e.u32 b.pred",
                  ".reg .pred %p;\n@!%b bra $L_skip;\n"
                  "elect.sync %d|%p, 0xffffffff;\nselp.u32 %e, 1, 2, %p;\n"
                  "$L_skip:", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        unsigned leader = i < 32 ? 5 : 1;
        if (!L[i].b)
            continue;
        SEM_EQ(L, i, L[i].d, leader);
        SEM_EQ(L, i, L[i].e, i % 32 == leader ? 1 : 2);
    }
}

/* The cluster registers (sm_90) and %envreg: the model runs clusters of
 * one CTA (the cluster is the CTA, at rank 0 of 1), and the driver's
 * environment registers read 0. */
TEST(sem_cluster_and_env_registers)
{
    enum { N = 512 }; /* two blocks of 256 */
    static sem_lane_t L[N];
    memset(L, 0, sizeof L);
    CHECK(sem_run("d.u64 e.u64",
                  ".reg .b32 %c<8>;\n"
                  "mov.u32 %c0, %clusterid.x;\nmov.u32 %c1, %nclusterid.x;\n"
                  "mov.u32 %c2, %cluster_ctaid.x;\n"
                  "mov.u32 %c3, %cluster_nctaid.y;\n"
                  "mov.u32 %c4, %cluster_ctarank;\n"
                  "mov.u32 %c5, %cluster_nctarank;\n"
                  "mov.u32 %c6, %is_explicit_cluster;\n"
                  "mov.u32 %c7, %envreg5;\n"
                  "mad.lo.u32 %c0, %c1, 100, %c0;\n"
                  "mad.lo.u32 %c0, %c3, 10000, %c0;\n"
                  "mov.b64 %d, {%c0, %c2};\n"
                  "mad.lo.u32 %c4, %c5, 100, %c4;\n"
                  "add.u32 %c6, %c6, %c7;\n"
                  "mov.b64 %e, {%c4, %c6};", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        SEM_EQ(L, i, L[i].d, 10000 + 2 * 100 + i / 256);
        SEM_EQ(L, i, L[i].e, 100);
    }
}
