/* test_sem_cmp.c: semantics of setp and set: every integer comparison in
 * signed and unsigned forms, every float comparison including the
 * unordered ones with NaN, signed zeros and infinities, .ftz, the
 * .and/.or/.xor combiners with a negated predicate and the p|q second
 * destination, and set's integer and float results. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../harness.h"
#include "sem_helpers.h"

#define NV32 SEM_NV32
#define NV64 SEM_NV64

enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_LO, C_LS, C_HI, C_HS, C_EQU,
       C_NEU, C_LTU, C_LEU, C_GTU, C_GEU, C_NUM, C_NAN, C_COUNT };
static const char *const cmp_names[C_COUNT] = {
    "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
    "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
};

/* integer comparison in the given signedness (lo/ls/hi/hs: unsigned) */
static int icmp(int op, uint64_t a, uint64_t b, unsigned bits, int sgn)
{
    if (bits == 32) {
        a &= 0xffffffffu;
        b &= 0xffffffffu;
    }
    int64_t sa = bits == 32 ? (int32_t)(uint32_t)a : (int64_t)a;
    int64_t sb = bits == 32 ? (int32_t)(uint32_t)b : (int64_t)b;
    int lt = sgn ? sa < sb : a < b;
    int eq = a == b;
    switch (op) {
    case C_EQ: return eq;
    case C_NE: return !eq;
    case C_LT: return lt;
    case C_LE: return lt || eq;
    case C_GT: return !lt && !eq;
    case C_GE: return !lt;
    case C_LO: return a < b;
    case C_LS: return a <= b;
    case C_HI: return a > b;
    case C_HS: return a >= b;
    }
    return -1;
}

static int fcmp(int op, double a, double b)
{
    int un = isnan(a) || isnan(b);
    switch (op) {
    case C_EQ: return !un && a == b;
    case C_NE: return !un && a != b;
    case C_LT: return !un && a < b;
    case C_LE: return !un && a <= b;
    case C_GT: return !un && a > b;
    case C_GE: return !un && a >= b;
    case C_EQU: return un || a == b;
    case C_NEU: return un || a != b;
    case C_LTU: return un || a < b;
    case C_LEU: return un || a <= b;
    case C_GTU: return un || a > b;
    case C_GEU: return un || a >= b;
    case C_NUM: return !un;
    case C_NAN: return un;
    }
    return -1;
}

/* Builds one setp per comparison in `ops`, packing result k into bit k
 * of d. */
static void setp_body(char *body, size_t size, const char *type,
                      const int *ops, unsigned nops, const char *mods)
{
    size_t len = 0;
    len += (size_t)snprintf(body + len, size - len,
                            ".reg .pred %%p;\n.reg .u32 %%bit;\nmov.u32 %%d, 0;\n");
    for (unsigned k = 0; k < nops; k++)
        len += (size_t)snprintf(body + len, size - len,
                                "setp.%s%s.%s %%p, %%a, %%b;\n"
                                "selp.u32 %%bit, %u, 0, %%p;\n"
                                "or.b32 %%d, %%d, %%bit;\n",
                                cmp_names[ops[k]], mods, type, 1u << k);
}

static const int int_signed_ops[] = { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };
static const int int_unsigned_ops[] = { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE,
                                        C_LO, C_LS, C_HI, C_HS };

static void check_int_setp(const char *type, unsigned bits, int sgn,
                           const uint64_t *vals, unsigned nv)
{
    static sem_lane_t L[NV32 * NV32 > NV64 * NV64 ? NV32 * NV32 : NV64 * NV64];
    const int *ops = sgn ? int_signed_ops : int_unsigned_ops;
    unsigned nops = sgn ? 6 : 10;
    unsigned n = sem_cross(L, vals, nv, vals, nv, NULL, 0);
    char body[4096], sig[64];
    setp_body(body, sizeof body, type, ops, nops, "");
    snprintf(sig, sizeof sig, "d.u32 a.%s b.%s", type, type);
    CHECK_MSG(sem_run(sig, body, L, n) == 0, "setp.*.%s", type);
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < nops; k++) {
            int want = icmp(ops[k], L[i].a, L[i].b, bits, sgn);
            int got = (int)(L[i].d >> k) & 1;
            CHECK_MSG(got == want, "setp.%s.%s 0x%llx, 0x%llx: got %d, want %d",
                      cmp_names[ops[k]], type, (unsigned long long)L[i].a,
                      (unsigned long long)L[i].b, got, want);
        }
}

TEST(sem_setp_s32_all_comparisons)
{
    check_int_setp("s32", 32, 1, sem_v32, NV32);
}

TEST(sem_setp_u32_all_comparisons)
{
    check_int_setp("u32", 32, 0, sem_v32, NV32);
}

TEST(sem_setp_s64_all_comparisons)
{
    check_int_setp("s64", 64, 1, sem_v64, NV64);
}

TEST(sem_setp_u64_all_comparisons)
{
    check_int_setp("u64", 64, 0, sem_v64, NV64);
}

TEST(sem_setp_b32_eq_ne_and_16bit)
{
    static const uint64_t v[] = { 0, 1, 0x7fff, 0x8000, 0xffff, 0x1234 };
    sem_lane_t L[36];
    unsigned n = sem_cross(L, v, 6, v, 6, NULL, 0);
    CHECK(sem_run("d.u32 a.u16 b.u16",
                  ".reg .pred %p, %q, %r;\n.reg .s16 %x, %y;\n.reg .b16 %ba, %bb;\n"
                  ".reg .u32 %t;\n"
                  "mov.b16 %ba, %a;\nmov.b16 %bb, %b;\n"
                  "setp.ne.b16 %p, %ba, %bb;\n"
                  "setp.hi.u16 %q, %a, %b;\n"
                  "mov.b16 %x, %a;\nmov.b16 %y, %b;\n"
                  "setp.lt.s16 %r, %x, %y;\n"
                  "selp.u32 %d, 1, 0, %p;\n"
                  "selp.u32 %t, 2, 0, %q;\nor.b32 %d, %d, %t;\n"
                  "selp.u32 %t, 4, 0, %r;\nor.b32 %d, %d, %t;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint16_t a = (uint16_t)L[i].a, b = (uint16_t)L[i].b;
        unsigned want = (a != b) | (a > b) << 1 | ((int16_t)a < (int16_t)b) << 2;
        SEM_EQ(L, i, L[i].d, want);
    }
}

/* ---- floats ---- */

static const uint32_t fvals32[] = {
    0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u,
    0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f7fffffu, 0x00000001u,
    0x80000001u, 0x00800000u, 0x3f800001u, 0x40490fdbu, 0x7fa00000u,
};
#define NF32 (sizeof fvals32 / sizeof *fvals32)

static const uint64_t fvals64[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull,
    0xbff0000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
    0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7fefffffffffffffull,
    0x0000000000000001ull, 0x8000000000000001ull, 0x3ff0000000000001ull,
    0x3ff0000010000000ull,
};
#define NF64 (sizeof fvals64 / sizeof *fvals64)

static const int float_ops[] = { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE,
                                 C_EQU, C_NEU, C_LTU, C_LEU, C_GTU, C_GEU,
                                 C_NUM, C_NAN };

TEST(sem_setp_f32_all_comparisons)
{
    static sem_lane_t L[NF32 * NF32];
    uint64_t v[NF32];
    for (unsigned i = 0; i < NF32; i++)
        v[i] = fvals32[i];
    unsigned n = sem_cross(L, v, NF32, v, NF32, NULL, 0);
    char body[4096];
    setp_body(body, sizeof body, "f32", float_ops, 14, "");
    CHECK(sem_run("d.u32 a.f32 b.f32", body, L, n) == 0);
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < 14; k++) {
            float a = sem_u2f((uint32_t)L[i].a), b = sem_u2f((uint32_t)L[i].b);
            int want = fcmp(float_ops[k], a, b);
            int got = (int)(L[i].d >> k) & 1;
            CHECK_MSG(got == want, "setp.%s.f32 %a, %a: got %d, want %d",
                      cmp_names[float_ops[k]], (double)a, (double)b, got, want);
        }
}

TEST(sem_setp_f64_all_comparisons)
{
    static sem_lane_t L[NF64 * NF64];
    unsigned n = sem_cross(L, fvals64, NF64, fvals64, NF64, NULL, 0);
    char body[4096];
    setp_body(body, sizeof body, "f64", float_ops, 14, "");
    CHECK(sem_run("d.u32 a.f64 b.f64", body, L, n) == 0);
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < 14; k++) {
            double a = sem_u2d(L[i].a), b = sem_u2d(L[i].b);
            int want = fcmp(float_ops[k], a, b);
            int got = (int)(L[i].d >> k) & 1;
            CHECK_MSG(got == want, "setp.%s.f64 %a, %a: got %d, want %d",
                      cmp_names[float_ops[k]], a, b, got, want);
        }
}

/* .ftz: subnormal operands compare as (signed) zero. */
TEST(sem_setp_ftz_f32_subnormals_are_zero)
{
    static sem_lane_t L[NF32 * NF32];
    uint64_t v[NF32];
    for (unsigned i = 0; i < NF32; i++)
        v[i] = fvals32[i];
    unsigned n = sem_cross(L, v, NF32, v, NF32, NULL, 0);
    char body[4096];
    setp_body(body, sizeof body, "f32", float_ops, 14, ".ftz");
    CHECK(sem_run("d.u32 a.f32 b.f32", body, L, n) == 0);
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < 14; k++) {
            uint32_t ua = (uint32_t)L[i].a, ub = (uint32_t)L[i].b;
            if ((ua & 0x7f800000u) == 0)
                ua &= 0x80000000u;
            if ((ub & 0x7f800000u) == 0)
                ub &= 0x80000000u;
            int want = fcmp(float_ops[k], sem_u2f(ua), sem_u2f(ub));
            int got = (int)(L[i].d >> k) & 1;
            CHECK_MSG(got == want, "setp.%s.ftz.f32 0x%08x, 0x%08x: got %d, want %d",
                      cmp_names[float_ops[k]], (uint32_t)L[i].a,
                      (uint32_t)L[i].b, got, want);
        }
}

/* setp.CmpOp.BoolOp p|q, a, b, {!}c:  p = BoolOp(t, c'), q = BoolOp(!t, c')
 * where t = a CmpOp b and c' = c or !c. */
TEST(sem_setp_combiners_and_second_destination)
{
    static const char *const bops[3] = { "and", "or", "xor" };
    for (unsigned bo = 0; bo < 3; bo++)
        for (unsigned neg = 0; neg < 2; neg++) {
            sem_lane_t L[12];
            static const int32_t av[] = { -5, 3, 7 };
            static const int32_t bv[] = { 3, 3 };
            unsigned n = 0;
            for (unsigned i = 0; i < 3; i++)
                for (unsigned j = 0; j < 2; j++)
                    for (unsigned c = 0; c < 2; c++) {
                        L[n].a = (uint32_t)av[i];
                        L[n].b = (uint32_t)bv[j];
                        L[n].c = c;
                        L[n].d = L[n].e = 0;
                        n++;
                    }
            char body[256];
            snprintf(body, sizeof body,
                     "setp.lt.%s.s32 %%d|%%e, %%a, %%b, %s%%c;", bops[bo],
                     neg ? "!" : "");
            CHECK_MSG(sem_run("d.pred e.pred a.s32 b.s32 c.pred", body, L, n) == 0,
                      "%s", body);
            for (unsigned i = 0; i < n; i++) {
                int t = (int32_t)(uint32_t)L[i].a < (int32_t)(uint32_t)L[i].b;
                int c = (L[i].c != 0) ^ (int)neg;
                int p = bo == 0 ? (t & c) : bo == 1 ? (t | c) : (t ^ c);
                int nt = !t;
                int q = bo == 0 ? (nt & c) : bo == 1 ? (nt | c) : (nt ^ c);
                CHECK_MSG((int)L[i].d == p && (int)L[i].e == q,
                          "%s with a=%d b=%d c=%d: p=%d q=%d, want p=%d q=%d",
                          body, (int32_t)(uint32_t)L[i].a,
                          (int32_t)(uint32_t)L[i].b, (int)L[i].c, (int)L[i].d,
                          (int)L[i].e, p, q);
            }
        }
}

/* The plain p|q form: q is the complement of p. */
TEST(sem_setp_pipe_destination_without_combiner)
{
    sem_lane_t L[6];
    static const uint32_t af[] = { 0x3f800000u, 0x40000000u, 0x7fc00000u,
                                   0x00000000u, 0x80000000u, 0xff800000u };
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < 6; i++) {
        L[i].a = af[i];
        L[i].b = 0x3f800000u; /* 1.0 */
    }
    L[3].b = 0x80000000u; /* +0 vs -0 */
    CHECK(sem_run("d.pred e.pred a.f32 b.f32", "setp.ge.f32 %d|%e, %a, %b;",
                  L, 6) == 0);
    /* 1>=1, 2>=1, NaN>=1 false, +0>=-0, -0>=1 false, -inf>=1 false */
    static const int want[6] = { 1, 1, 0, 1, 0, 0 };
    for (unsigned i = 0; i < 6; i++) {
        SEM_EQ(L, i, L[i].d, want[i]);
        SEM_EQ(L, i, L[i].e, !want[i]);
    }
}

/* set.CmpOp.dtype.stype: 0xffffffff / 0 for integer results, 1.0f / 0.0f
 * for .f32 results; with a combiner, BoolOp(t, c). */
TEST(sem_set_integer_and_float_results)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, NULL, 0);
    for (unsigned i = 0; i < n; i++)
        L[i].c = i & 1;
    CHECK(sem_run("d.u64 e.u64 a.s32 b.s32 c.pred",
                  ".reg .u32 %x, %y;\n.reg .s32 %z;\n.reg .f32 %f;\n"
                  "set.lt.u32.s32 %x, %a, %b;\n"
                  "set.hi.s32.u32 %z, %a, %b;\n"
                  "mov.b64 %d, {%x, %z};\n"
                  "set.ge.f32.s32 %f, %a, %b;\n"
                  "mov.b32 %x, %f;\n"
                  "set.eq.or.u32.s32 %y, %a, %b, !%c;\n"
                  "mov.b64 %e, {%x, %y};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = (uint32_t)L[i].a, b = (uint32_t)L[i].b;
        int lt = (int32_t)a < (int32_t)b, hi = a > b, ge = !lt;
        int eqor = (a == b) | !(L[i].c & 1);
        SEM_EQ(L, i, L[i].d,
               (uint64_t)(hi ? 0xffffffffu : 0) << 32 | (lt ? 0xffffffffu : 0));
        SEM_EQ(L, i, L[i].e,
               (uint64_t)(eqor ? 0xffffffffu : 0) << 32 |
                   (ge ? 0x3f800000u : 0));
    }
}

TEST(sem_set_f32_sources_with_nan)
{
    static sem_lane_t L[NF32 * NF32];
    uint64_t v[NF32];
    for (unsigned i = 0; i < NF32; i++)
        v[i] = fvals32[i];
    unsigned n = sem_cross(L, v, NF32, v, NF32, NULL, 0);
    CHECK(sem_run("d.u32 e.f32 a.f32 b.f32",
                  "set.neu.u32.f32 %d, %a, %b;\n"
                  "set.lt.f32.f32 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        float a = sem_u2f((uint32_t)L[i].a), b = sem_u2f((uint32_t)L[i].b);
        SEM_EQ(L, i, L[i].d, fcmp(C_NEU, a, b) ? 0xffffffffu : 0);
        SEM_EQ(L, i, L[i].e, fcmp(C_LT, a, b) ? 0x3f800000u : 0);
    }
}
