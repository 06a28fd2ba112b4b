/* test_sem_half.c: semantics of half-precision arithmetic (.f16 and
 * .f16x2 add, sub, mul, fma, neg, abs, min, max, setp, with .sat and
 * .ftz) against a reference written from IEEE 754 binary16: values decoded
 * with ldexp, results rounded to nearest even by searching the sorted
 * table of every finite binary16 value.  NaN results are the canonical
 * 0x7fff (docs/semantics.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../harness.h"
#include "sem_helpers.h"

static double hdec(uint32_t h)
{
    double s = (h & 0x8000u) ? -1.0 : 1.0;
    uint32_t e = h >> 10 & 31, f = h & 1023;
    if (e == 31)
        return f ? NAN : s * INFINITY;
    return s * (e ? ldexp(1024.0 + f, (int)e - 25) : ldexp(f, -24));
}

/* Nearest binary16 to v, ties to the even encoding. */
static uint32_t henc(double v)
{
    if (isnan(v))
        return 0x7fffu;
    uint32_t sign = signbit(v) ? 0x8000u : 0;
    double a = fabs(v);
    /* largest k with hdec(k) <= a among 0 .. 0x7c00 (0x7c00: 2^16 as the
     * step past the largest finite value) */
    uint32_t lo = 0, hi = 0x7c00u;
    if (a >= 65536.0)
        return sign | 0x7c00u;
    while (lo < hi) {
        uint32_t mid = (lo + hi + 1) / 2;
        double mv = mid == 0x7c00u ? 65536.0 : hdec(mid);
        if (mv <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    double below = hdec(lo), above = lo + 1 == 0x7c00u ? 65536.0 : hdec(lo + 1);
    uint32_t k = lo;
    if (a - below > above - a || (a - below == above - a && (lo & 1)))
        k = lo + 1;
    return sign | k;
}

static double ftzv(uint32_t h, int ftz)
{
    if (ftz && (h & 0x7c00u) == 0)
        h &= 0x8000u;
    return hdec(h);
}

static uint32_t ref_op(int op, uint32_t a, uint32_t b, uint32_t c, int sat,
                       int ftz)
{
    double x = ftzv(a, ftz), y = ftzv(b, ftz), z = ftzv(c, ftz), r;
    switch (op) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break;
    default: r = (double)((long double)x * y + z); break;
    }
    uint32_t h = henc(r);
    if (sat)
        h = isnan(r) || hdec(h) <= 0 ? 0 : hdec(h) > 1 ? 0x3c00u : h;
    if (ftz && (h & 0x7c00u) == 0)
        h &= 0x8000u;
    return h;
}

static const uint64_t hv[] = {
    0x0000, 0x8000, 0x3c00, 0xbc00, 0x3555, 0x7bff, 0xfbff, 0x0001, 0x03ff,
    0x0400, 0x7c00, 0xfc00, 0x7e00, 0x4248, 0xc900, 0x5640, 0x2e66, 0x3bff,
    0x1400, 0x6b00, 0x8401,
};
#define NHV (sizeof hv / sizeof *hv)

/* a and b pack two binary16 each: element 0 from the cross product,
 * element 1 from a shifted walk of the same values. */
static unsigned half_lanes(sem_lane_t *L)
{
    unsigned n = sem_cross(L, hv, NHV, hv, NHV, hv, NHV);
    for (unsigned i = 0; i < n; i++) {
        L[i].a |= hv[(i * 7 + 3) % NHV] << 16;
        L[i].b |= hv[(i * 5 + 1) % NHV] << 16;
        L[i].c = (L[i].c & 0xffff) | hv[(i * 3 + 2) % NHV] << 16;
    }
    return n;
}

static uint32_t el(uint64_t v, unsigned i) { return (uint32_t)(v >> 16 * i) & 0xffff; }

TEST(sem_half_arith_f16x2)
{
    static sem_lane_t L[NHV * NHV];
    static const char *const names[] = { "add", "sub", "mul", "fma.rn" };
    static const char *const mods[] = { "", ".sat", ".ftz" };
    unsigned n = half_lanes(L);
    char body[256];
    for (int op = 0; op < 4; op++)
        for (int md = 0; md < 3; md++) {
            snprintf(body, sizeof body, "%s%s.f16x2 %%d, %%a, %%b%s;\n"
                     "%s%s.f16 %%e, %%a, %%b%s;", names[op], mods[md],
                     op == 3 ? ", %c" : "", names[op], mods[md],
                     op == 3 ? ", %c" : "");
            CHECK_MSG(sem_run("d.b32 e.b16 a.b32 b.b32 c.b32", body, L, n) == 0,
                      "%s", body);
            for (unsigned i = 0; i < n; i++) {
                uint32_t want = 0;
                for (unsigned k = 0; k < 2; k++)
                    want |= ref_op(op, el(L[i].a, k), el(L[i].b, k),
                                   el(L[i].c, k), md == 1, md == 2) << 16 * k;
                CHECK_MSG(L[i].d == want && L[i].e == (want & 0xffff),
                          "%s: lane %u a=%08llx b=%08llx c=%08llx: got "
                          "%08llx/%04llx, want %08x", body, i,
                          (unsigned long long)L[i].a, (unsigned long long)L[i].b,
                          (unsigned long long)L[i].c, (unsigned long long)L[i].d,
                          (unsigned long long)L[i].e, want);
            }
        }
}

/* min/max: one NaN gives the other operand, two the canonical NaN, and
 * -0 is below +0; neg and abs flip or clear the sign bit only. */
static uint32_t ref_minmax(uint32_t a, uint32_t b, int max)
{
    double x = hdec(a), y = hdec(b);
    if (isnan(x) && isnan(y))
        return 0x7fffu;
    if (isnan(x))
        return b;
    if (isnan(y))
        return a;
    if (x == y && x == 0)
        return ((a & 0x8000u) != 0) == !max ? a : b;
    return (max ? x > y : x < y) ? a : b;
}

TEST(sem_half_minmax_neg_abs)
{
    static sem_lane_t L[NHV * NHV];
    unsigned n = half_lanes(L);
    CHECK(sem_run("d.b64 e.b64 a.b32 b.b32",
                  ".reg .b32 %mn, %mx, %ng, %ab;\n"
                  "min.f16x2 %mn, %a, %b;\nmax.f16x2 %mx, %a, %b;\n"
                  "neg.f16x2 %ng, %a;\nabs.f16x2 %ab, %a;\n"
                  "mov.b64 %d, {%mn, %mx};\nmov.b64 %e, {%ng, %ab};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t mn = 0, mx = 0, ng = 0, ab = 0;
        for (unsigned k = 0; k < 2; k++) {
            uint32_t a = el(L[i].a, k), b = el(L[i].b, k);
            mn |= (uint64_t)ref_minmax(a, b, 0) << 16 * k;
            mx |= (uint64_t)ref_minmax(a, b, 1) << 16 * k;
            ng |= (uint64_t)(a ^ 0x8000u) << 16 * k;
            ab |= (uint64_t)(a & 0x7fffu) << 16 * k;
        }
        SEM_EQ(L, i, L[i].d, mx << 32 | mn);
        SEM_EQ(L, i, L[i].e, ab << 32 | ng);
    }
}

/* setp.f16x2 p|q: p from element 0, q from element 1. */
TEST(sem_half_setp)
{
    static sem_lane_t L[NHV * NHV];
    unsigned n = half_lanes(L);
    static const struct { const char *n; int c; } cmps[] = {
        { "lt", 0 }, { "ge", 1 }, { "equ", 2 }, { "nan", 3 },
    };
    char body[256];
    for (unsigned k = 0; k < 4; k++) {
        snprintf(body, sizeof body, ".reg .pred %%p, %%q, %%s;\n"
                 ".reg .b16 %%lo;\nmov.b32 {%%lo, _}, %%a;\n"
                 "setp.%s.f16x2 %%p|%%q, %%a, %%b;\n"
                 "setp.%s.f16 %%s, %%lo, %%b;\n"
                 "selp.u32 %%d, 1, 0, %%p;\nselp.u32 %%e, 2, 0, %%q;\n"
                 "@%%s or.b32 %%d, %%d, 4;", cmps[k].n, cmps[k].n);
        CHECK_MSG(sem_run("d.u32 e.u32 a.b32 b.b32", body, L, n) == 0, "%s",
                  body);
        for (unsigned i = 0; i < n; i++) {
            unsigned r[2];
            for (unsigned e = 0; e < 2; e++) {
                double x = hdec(el(L[i].a, e)), y = hdec(el(L[i].b, e));
                int un = isnan(x) || isnan(y);
                r[e] = cmps[k].c == 0 ? !un && x < y
                     : cmps[k].c == 1 ? !un && x >= y
                     : cmps[k].c == 2 ? un || x == y : un;
            }
            SEM_EQ(L, i, L[i].d, r[0] | 4u * r[0]);
            SEM_EQ(L, i, L[i].e, 2u * r[1]);
        }
    }
}

/* cvt.rn.f16x2.f32 d, a, b packs a (upper) and b (lower); set.f16x2 gives
 * 1.0 or 0xffff per element; atom.add.noftz.f16x2 adds per element. */
TEST(sem_half_cvt_pack_set_atom)
{
    static sem_lane_t L[NHV * NHV];
    unsigned n = half_lanes(L);
    static const float fv[] = { 0.0f, -0.0f, 1.0f, 65504.0f, 65520.0f,
                                1e-8f, 3.14159f, -2.5e-5f, 1.0f / 3.0f };
    for (unsigned i = 0; i < n; i++) {
        L[i].c = sem_f2u(fv[i % 9]);
        L[i].d = 0;
    }
    CHECK(sem_run("d.b32 e.b32 c.f32 a.b32",
                  ".reg .f32 %x;\nmov.b32 %x, %a;\n"
                  "cvt.rn.f16x2.f32 %d, %c, %x;\n"
                  "cvt.rn.f16x2.f32 %e, %x, %c;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t hc = henc((double)fv[i % 9]);
        uint32_t hx = henc((double)sem_u2f((uint32_t)L[i].a));
        SEM_EQ(L, i, L[i].d, hc << 16 | hx);
        SEM_EQ(L, i, L[i].e, hx << 16 | hc);
    }
    n = half_lanes(L);
    CHECK(sem_run("d.b32 e.b32 a.b32 b.b32",
                  "set.lt.f16x2.f16x2 %d, %a, %b;\n"
                  "set.ge.u32.f16x2 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t lt = 0, ge = 0;
        for (unsigned k = 0; k < 2; k++) {
            double x = hdec(el(L[i].a, k)), y = hdec(el(L[i].b, k));
            lt |= (x < y ? 0x3c00u : 0) << 16 * k;
            ge |= (x >= y ? 0xffffu : 0) << 16 * k;
        }
        SEM_EQ(L, i, L[i].d, lt);
        SEM_EQ(L, i, L[i].e, ge);
    }
    enum { NB = 256 };
    CHECK(sem_run_block("d.b32 e.b32 a.b32 b.b32",
                        ".shared .align 4 .b32 sh[256];\n"
                        ".reg .b32 %t;\n.reg .b64 %p, %q;\n"
                        "mov.u32 %t, %tid.x;\nmul.wide.u32 %p, %t, 4;\n"
                        "mov.u64 %q, sh;\nadd.u64 %p, %p, %q;\n"
                        "st.shared.b32 [%p], %a;\n"
                        "atom.shared.add.noftz.f16x2 %e, [%p], %b;\n"
                        "ld.shared.b32 %d, [%p];", L, NB, NB) == 0);
    for (unsigned i = 0; i < NB; i++) {
        uint32_t want = 0;
        for (unsigned k = 0; k < 2; k++)
            want |= ref_op(0, el(L[i].a, k), el(L[i].b, k), 0, 0, 0) << 16 * k;
        SEM_EQ(L, i, L[i].e, (uint32_t)L[i].a);
        SEM_EQ(L, i, L[i].d, want);
    }
}

/* ---- bfloat16: the upper half of a binary32 ---- */

static long double bdec(uint32_t h)
{
    return (long double)sem_u2f(h << 16);
}

/* Nearest bfloat16 to v (ties to even) by binary search over the
 * encodings, which grow with the value for positive numbers. */
static uint32_t benc(long double v)
{
    if (isnan(v))
        return 0x7fffu;
    uint32_t sign = signbit(v) ? 0x8000u : 0;
    long double a = fabsl(v);
    long double top = ldexpl(1.0L, 128); /* past the largest: infinity */
    if (a >= top)
        return sign | 0x7f80u;
    uint32_t lo = 0, hi = 0x7f80u;
    while (lo < hi) {
        uint32_t mid = (lo + hi + 1) / 2;
        long double mv = mid == 0x7f80u ? top : bdec(mid);
        if (mv <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    long double below = bdec(lo), above = lo + 1 == 0x7f80u ? top : bdec(lo + 1);
    uint32_t k = lo;
    if (a - below > above - a || (a - below == above - a && (lo & 1)))
        k = lo + 1;
    return sign | k;
}

static const uint64_t bv[] = {
    0x0000, 0x8000, 0x3f80, 0xbf80, 0x3eab, 0x4049, 0xc2c8, 0x3a83, 0x7f7f,
    0x0001, 0x0080, 0x7f80, 0xff80, 0x7fc0, 0x4b80, 0x3f81, 0xc0a0, 0x3c23,
};
#define NBV (sizeof bv / sizeof *bv)

TEST(sem_bf16_arith_cvt)
{
    static sem_lane_t L[NBV * NBV];
    unsigned n = sem_cross(L, bv, NBV, bv, NBV, bv, NBV);
    for (unsigned i = 0; i < n; i++) {
        L[i].a |= bv[(i * 7 + 3) % NBV] << 16;
        L[i].b |= bv[(i * 5 + 1) % NBV] << 16;
        L[i].c = (L[i].c & 0xffff) | bv[(i * 3 + 2) % NBV] << 16;
    }
    static const char *const names[] = { "add.rn", "sub.rn", "mul.rn", "fma.rn" };
    char body[256];
    for (int op = 0; op < 4; op++) {
        snprintf(body, sizeof body, "%s.bf16x2 %%d, %%a, %%b%s;\n"
                 "%s.bf16 %%e, %%a, %%b%s;", names[op],
                 op == 3 ? ", %c" : "", names[op], op == 3 ? ", %c" : "");
        CHECK_MSG(sem_run("d.b32 e.b16 a.b32 b.b32 c.b32", body, L, n) == 0,
                  "%s", body);
        for (unsigned i = 0; i < n; i++) {
            uint32_t want = 0;
            for (unsigned k = 0; k < 2; k++) {
                long double x = bdec(el(L[i].a, k)), y = bdec(el(L[i].b, k)),
                            z = bdec(el(L[i].c, k));
                long double r = op == 0 ? x + y : op == 1 ? x - y
                              : op == 2 ? x * y : x * y + z;
                want |= benc(r) << 16 * k;
            }
            CHECK_MSG(L[i].d == want && L[i].e == (want & 0xffff),
                      "%s: lane %u a=%08llx b=%08llx c=%08llx: got %08llx/%04llx,"
                      " want %08x", body, i, (unsigned long long)L[i].a,
                      (unsigned long long)L[i].b, (unsigned long long)L[i].c,
                      (unsigned long long)L[i].d, (unsigned long long)L[i].e,
                      want);
        }
    }
    /* conversions: f32 -> bf16 (rounded), pairs, and back (exact) */
    static const float fv[] = { 1.0f, 3.14159265f, -1e-30f, 3.4e38f, 1.00390625f,
                                1.01171875f, -0.0f, 2e-40f };
    for (unsigned i = 0; i < n; i++)
        L[i].c = sem_f2u(fv[i % 8]);
    CHECK(sem_run("d.b32 e.f32 c.f32 a.b32",
                  ".reg .f32 %x;\n.reg .b16 %h;\nmov.b32 %x, %a;\n"
                  "cvt.rn.bf16x2.f32 %d, %c, %x;\n"
                  "cvt.rn.bf16.f32 %h, %c;\ncvt.f32.bf16 %e, %h;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t hc = benc((long double)fv[i % 8]);
        uint32_t hx = benc((long double)sem_u2f((uint32_t)L[i].a));
        SEM_EQ(L, i, L[i].d, hc << 16 | hx);
        SEM_EQ(L, i, L[i].e, (uint64_t)sem_f2u(sem_u2f(hc << 16)));
    }
}

/* mov.b32 %f, {0, %h}: the bf16 in the upper half, zeros below. */
TEST(sem_bf16_widen_by_mov)
{
    static sem_lane_t L[NBV];
    unsigned n = sem_cross(L, bv, NBV, NULL, 1, NULL, 0);
    CHECK(sem_run("d.f32 a.b16", "mov.b32 %d, {0, %a};", L, n) == 0);
    for (unsigned i = 0; i < n; i++)
        SEM_EQ(L, i, L[i].d, (uint32_t)L[i].a << 16);
}
