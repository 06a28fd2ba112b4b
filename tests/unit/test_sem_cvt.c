/* test_sem_cvt.c: semantics of cvt: every integer-to-integer pair (with
 * and without .sat, including 8-bit types held in 16-bit registers),
 * float to integer with .rni/.rzi/.rmi/.rpi (halfway cases, saturation,
 * NaN -> 0), integer to float in every rounding mode, f64 <-> f32, f32 <->
 * f16, rounding to an integral float value, .sat and .ftz.
 *
 * Register width rule used by the references (ISA, "operand size
 * exceeding instruction-type size"): a source register wider than the
 * instruction type is truncated to the type; a destination register wider
 * than the type receives the value sign-extended for a signed type and
 * zero-extended otherwise. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../harness.h"
#include "sem_helpers.h"

typedef struct {
    const char *name; /* PTX type */
    const char *reg;  /* register type used for it */
    unsigned bits, rbits;
    int sgn;
} itype_t;

static const itype_t itypes[8] = {
    { "u8", "u16", 8, 16, 0 },   { "u16", "u16", 16, 16, 0 },
    { "u32", "u32", 32, 32, 0 }, { "u64", "u64", 64, 64, 0 },
    { "s8", "s16", 8, 16, 1 },   { "s16", "s16", 16, 16, 1 },
    { "s32", "s32", 32, 32, 1 }, { "s64", "s64", 64, 64, 1 },
};

static uint64_t mask_bits(unsigned bits)
{
    return bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
}

/* the value of the low `bits` bits of w in the given signedness */
static __int128 int_value(uint64_t w, unsigned bits, int sgn)
{
    uint64_t v = w & mask_bits(bits);
    if (sgn && bits < 64 && (v >> (bits - 1)))
        return (__int128)v - ((__int128)1 << bits);
    if (sgn && bits == 64)
        return (__int128)(int64_t)v;
    return (__int128)v;
}

/* writes v (already in range for `bits` when needed) into a register of
 * rbits bits: wrap to `bits`, then extend by the type's signedness */
static uint64_t int_store(__int128 v, const itype_t *t)
{
    uint64_t r = (uint64_t)v & mask_bits(t->bits);
    if (t->sgn && t->bits < 64 && (r >> (t->bits - 1)))
        r |= ~mask_bits(t->bits);
    return r & mask_bits(t->rbits);
}

static __int128 int_clamp(__int128 v, const itype_t *t)
{
    __int128 lo = t->sgn ? -((__int128)1 << (t->bits - 1)) : 0;
    __int128 hi = t->sgn ? ((__int128)1 << (t->bits - 1)) - 1
                         : ((__int128)1 << t->bits) - 1;
    return v < lo ? lo : v > hi ? hi : v;
}

static const uint64_t ivals[] = {
    0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000,
    0x7fffffff, 0x80000000ull, 0xffffffffull, 0x100000000ull,
    0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffffffffffull,
    0xffffffffffffff80ull /* -128 */, 0xffffffffffff7fffull,
    0x123456789abcdef0ull, 0xfedcba9876543210ull, 0xfffffffffffffffeull,
};
#define NIV (sizeof ivals / sizeof *ivals)

/* every destination/source pair, plain (d) and .sat (e); the .sat results
 * are compared in the destination type's width here (their extension
 * into the wider register is sem_cvt_narrow_signed_result_fills_register) */
TEST(sem_cvt_int_to_int_all_pairs)
{
    for (unsigned di = 0; di < 8; di++)
        for (unsigned si = 0; si < 8; si++) {
            const itype_t *dt = &itypes[di], *st = &itypes[si];
            sem_lane_t L[NIV];
            memset(L, 0, sizeof L);
            for (unsigned i = 0; i < NIV; i++)
                L[i].a = ivals[i];
            char sig[64], body[128];
            snprintf(sig, sizeof sig, "d.%s e.%s a.%s", dt->reg, dt->reg, st->reg);
            snprintf(body, sizeof body,
                     "cvt.%s.%s %%d, %%a;\ncvt.sat.%s.%s %%e, %%a;", dt->name,
                     st->name, dt->name, st->name);
            CHECK_MSG(sem_run(sig, body, L, NIV) == 0, "%s", body);
            for (unsigned i = 0; i < NIV; i++) {
                /* the source register holds the low rbits of the word */
                uint64_t src = L[i].a & mask_bits(st->rbits);
                __int128 v = int_value(src, st->bits, st->sgn);
                uint64_t want = int_store(v, dt);
                uint64_t wsat = int_store(int_clamp(v, dt), dt) & mask_bits(dt->bits);
                CHECK_MSG(L[i].d == want,
                          "cvt.%s.%s 0x%llx: got 0x%llx, want 0x%llx", dt->name,
                          st->name, (unsigned long long)src,
                          (unsigned long long)L[i].d, (unsigned long long)want);
                CHECK_MSG((L[i].e & mask_bits(dt->bits)) == wsat,
                          "cvt.sat.%s.%s 0x%llx: got 0x%llx, want 0x%llx (low %u bits)",
                          dt->name, st->name, (unsigned long long)src,
                          (unsigned long long)L[i].e, (unsigned long long)wsat,
                          dt->bits);
            }
        }
}

/* A signed result narrower than its register is sign-extended into the
 * register whichever way it was produced: plain cvt, cvt.sat, or from a
 * float.  Every case is run and every mismatch listed before failing. */
TEST(sem_cvt_narrow_signed_result_fills_register)
{
    static const struct {
        const char *sig, *body;
        uint64_t in, want;
    } c[] = {
        { "d.s32 a.s32", "cvt.s8.s32 %d, %a;", 0xffffff80u, 0xffffff80u },
        { "d.s32 a.s32", "cvt.s8.s32 %d, %a;", 0x000000f0u, 0xfffffff0u },
        { "d.s32 a.s32", "cvt.sat.s8.s32 %d, %a;", 0xffffff80u, 0xffffff80u },
        { "d.s32 a.s32", "cvt.sat.s8.s32 %d, %a;", 0x80000000u, 0xffffff80u },
        { "d.s32 a.s16", "cvt.sat.s8.s16 %d, %a;", 0xfffeu, 0xfffffffeu },
        { "d.s32 a.s32", "cvt.sat.s16.s32 %d, %a;", 0xfffffffeu, 0xfffffffeu },
        { "d.s64 a.s64", "cvt.sat.s32.s64 %d, %a;", (uint64_t)-5, (uint64_t)-5 },
        { "d.s64 a.s64", "cvt.s32.s64 %d, %a;", (uint64_t)-5, (uint64_t)-5 },
        { "d.s32 a.f32", "cvt.rzi.s8.f32 %d, %a;", 0xbfc00000u, 0xffffffffu },
        { "d.s32 a.f32", "cvt.rzi.s16.f32 %d, %a;", 0xbfc00000u, 0xffffffffu },
        { "d.s64 a.f32", "cvt.rzi.s32.f32 %d, %a;", 0xbfc00000u, (uint64_t)-1 },
        { "d.s32 a.f64", "cvt.rni.s8.f64 %d, %a;", 0xc060000000000000ull, 0xffffff80u },
        { "d.s32 a.f32", "cvt.rzi.s8.f32 %d, %a;", 0xcf000000u, 0xffffff80u },
    };
    unsigned bad = 0;
    for (unsigned k = 0; k < sizeof c / sizeof *c; k++) {
        sem_lane_t L[1];
        memset(L, 0, sizeof L);
        L[0].a = c[k].in;
        CHECK_MSG(sem_run(c[k].sig, c[k].body, L, 1) == 0, "%s", c[k].body);
        if (L[0].d != c[k].want) {
            printf("  %s (%s) a=0x%llx: got 0x%llx, want 0x%llx\n", c[k].body,
                   c[k].sig, (unsigned long long)c[k].in,
                   (unsigned long long)L[0].d, (unsigned long long)c[k].want);
            bad++;
        }
    }
    CHECK_MSG(bad == 0, "%u cvt results not extended into their register", bad);
}

/* Spot values, written by hand. */
TEST(sem_cvt_int_spot_values)
{
    sem_lane_t L[4];
    memset(L, 0, sizeof L);
    L[0].a = 200;          /* s8 -> -56 */
    L[1].a = 0x1ff;        /* u8 source: 0xff */
    L[2].a = 0xffffff80u;  /* -128 */
    L[3].a = 0x80000000u;  /* INT_MIN */
    CHECK(sem_run("d.u64 e.u64 a.u32",
                  ".reg .s32 %s8, %x;\n.reg .u32 %u8;\n.reg .s16 %h;\n"
                  "cvt.s8.u32 %s8, %a;\n"     /* into a 32-bit register */
                  "cvt.u32.u8 %u8, %a;\n"
                  "mov.b64 %d, {%s8, %u8};\n"
                  "mov.b32 %x, %a;\n"
                  "cvt.sat.s16.s32 %h, %x;\n"
                  "cvt.s32.s16 %x, %h;\n"
                  "cvt.sat.u32.s32 %u8, %x;\n"
                  "mov.b64 %e, {%x, %u8};", L, 4) == 0);
    /* cvt.s8.u32 200 = -56 sign-extended into 32 bits; cvt.u32.u8 */
    SEM_EQ(L, 0, L[0].d, 200ull << 32 | 0xffffffc8u);
    SEM_EQ(L, 1, L[1].d, 0xffull << 32 | 0xffffffffu);
    /* -128 saturates to itself in s16; u32.sat of a negative is 0 */
    SEM_EQ(L, 2, L[2].e, 0ull << 32 | 0xffffff80u);
    /* INT_MIN saturates to -32768 in s16 */
    SEM_EQ(L, 3, L[3].e, 0ull << 32 | 0xffff8000u);
}

/* ------------------------------------------------------------------ */
/* float -> integer                                                    */
/* ------------------------------------------------------------------ */

static const char *const irnd[4] = { "rni", "rzi", "rmi", "rpi" };

static double round_int(double x, int m)
{
    switch (m) {
    case 0: {
        /* nearest, ties to even */
        double f = floor(x), r = x - f;
        if (r > 0.5 || (r == 0.5 && fmod(f, 2.0) != 0.0))
            f += 1.0;
        return copysign(f, x);
    }
    case 1: return trunc(x);
    case 2: return floor(x);
    default: return ceil(x);
    }
}

/* NaN -> 0, otherwise round and clamp to the destination range */
static uint64_t f2i_ref(double x, int m, const itype_t *t)
{
    if (isnan(x))
        return 0;
    double r = round_int(x, m);
    __int128 lo = t->sgn ? -((__int128)1 << (t->bits - 1)) : 0;
    __int128 hi = t->sgn ? ((__int128)1 << (t->bits - 1)) - 1
                         : ((__int128)1 << t->bits) - 1;
    __int128 v;
    if (r <= (double)lo)
        v = lo;
    else if (r >= (double)hi)
        v = hi;
    else
        v = (__int128)r;
    return int_store(v, t);
}

static const double fvals[] = {
    0.0, -0.0, 0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, -3.5, 0.49999997,
    0.7, -0.7, 1.0, -1.0, 123.456, -123.456, 2147483520.0, 2147483648.0,
    -2147483648.0, -2147483904.0, 4294967040.0, 4294967296.0, 1e10, -1e10,
    9.2233720368547758e18, 1.8446744073709552e19, 3e19, -9.3e18,
    INFINITY, -INFINITY, NAN, 1e-40, -1e-40, 8388609.0, 16777215.0,
    -16777216.0, 65535.5, -32768.5,
};
#define NFV (sizeof fvals / sizeof *fvals)

static void check_f2i(const char *ftype)
{
    int is64 = strcmp(ftype, "f64") == 0;
    static const unsigned dsts[4] = { 2, 3, 6, 7 }; /* u32 u64 s32 s64 */
    for (unsigned m = 0; m < 4; m++)
        for (unsigned k = 0; k < 4; k++) {
            const itype_t *t = &itypes[dsts[k]];
            sem_lane_t L[NFV];
            memset(L, 0, sizeof L);
            for (unsigned i = 0; i < NFV; i++)
                L[i].a = is64 ? sem_d2u(fvals[i])
                              : sem_f2u((float)fvals[i]);
            char sig[64], body[64];
            snprintf(sig, sizeof sig, "d.%s a.%s", t->reg, ftype);
            snprintf(body, sizeof body, "cvt.%s.%s.%s %%d, %%a;", irnd[m],
                     t->name, ftype);
            CHECK_MSG(sem_run(sig, body, L, NFV) == 0, "%s", body);
            for (unsigned i = 0; i < NFV; i++) {
                double x = is64 ? fvals[i] : (double)(float)fvals[i];
                uint64_t want = f2i_ref(x, (int)m, t);
                CHECK_MSG(L[i].d == want, "cvt.%s.%s.%s(%a): got 0x%llx, want 0x%llx",
                          irnd[m], t->name, ftype, x,
                          (unsigned long long)L[i].d, (unsigned long long)want);
            }
        }
}

TEST(sem_cvt_f32_to_int_rounding_and_saturation)
{
    check_f2i("f32");
}

TEST(sem_cvt_f64_to_int_rounding_and_saturation)
{
    check_f2i("f64");
}

/* Hand-written: 2.5 -> 2 and 3.5 -> 4 (rni), -2.5 -> -2, NaN -> 0, big ->
 * INT_MAX, -1 -> 0 for u32. */
TEST(sem_cvt_rni_halfway_spot_values)
{
    static const uint32_t in[] = { 0x40200000u, 0x40600000u, 0xc0200000u,
                                   0x7fc00000u, 0x501502f9u, 0xbf800000u };
    static const uint32_t want_s32[] = { 2, 4, (uint32_t)-2, 0, 0x7fffffffu,
                                         (uint32_t)-1 };
    static const uint32_t want_u32[] = { 2, 4, 0, 0, 0xffffffffu, 0 };
    enum { N = sizeof in / sizeof *in };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < N; i++)
        L[i].a = in[i];
    CHECK(sem_run("d.s32 e.u32 a.f32",
                  "cvt.rni.s32.f32 %d, %a;\ncvt.rni.u32.f32 %e, %a;", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        SEM_EQ(L, i, L[i].d, want_s32[i]);
        SEM_EQ(L, i, L[i].e, want_u32[i]);
    }
}

/* 8- and 16-bit destinations saturate to their own range. */
TEST(sem_cvt_f32_to_narrow_int_saturates)
{
    static const unsigned dsts[4] = { 0, 1, 4, 5 }; /* u8 u16 s8 s16 */
    for (unsigned k = 0; k < 4; k++) {
        const itype_t *t = &itypes[dsts[k]];
        sem_lane_t L[NFV];
        memset(L, 0, sizeof L);
        for (unsigned i = 0; i < NFV; i++)
            L[i].a = sem_f2u((float)fvals[i]);
        char sig[64], body[64];
        snprintf(sig, sizeof sig, "d.%s a.f32", t->reg);
        snprintf(body, sizeof body, "cvt.rzi.%s.f32 %%d, %%a;", t->name);
        CHECK_MSG(sem_run(sig, body, L, NFV) == 0, "%s", body);
        for (unsigned i = 0; i < NFV; i++) {
            double x = (double)(float)fvals[i];
            /* compared in the type's width: the register extension is
             * sem_cvt_narrow_signed_result_fills_register */
            uint64_t want = f2i_ref(x, 1, t) & mask_bits(t->bits);
            CHECK_MSG((L[i].d & mask_bits(t->bits)) == want,
                      "cvt.rzi.%s.f32(%a): got 0x%llx, want 0x%llx",
                      t->name, x, (unsigned long long)L[i].d,
                      (unsigned long long)want);
        }
    }
}

/* ------------------------------------------------------------------ */
/* integer -> float                                                    */
/* ------------------------------------------------------------------ */

static const char *const frnd[4] = { "rn", "rz", "rm", "rp" };

static const uint64_t i2f_vals[] = {
    0, 1, 0xffffffffffffffffull, 16777216, 16777217, 16777219,
    0x7fffffff, 0x80000000ull,
    0xffffffffull, 0xffffff7fffffffffull, 0x20000000000001ull,
    0x7fffffffffffffffull, 0x8000000000000000ull, 0x8000000000000401ull,
    0xfffffffffffff801ull, 0x123456789abcdef0ull, 0x0000000100000001ull,
    0xfffffffffeffffffull, 33554435,
};
#define NI2F (sizeof i2f_vals / sizeof *i2f_vals)

TEST(sem_cvt_int_to_float_rounding_modes)
{
    static const unsigned srcs[4] = { 2, 3, 6, 7 }; /* u32 u64 s32 s64 */
    for (unsigned m = 0; m < 4; m++)
        for (unsigned k = 0; k < 4; k++) {
            const itype_t *t = &itypes[srcs[k]];
            sem_lane_t L[NI2F];
            memset(L, 0, sizeof L);
            for (unsigned i = 0; i < NI2F; i++)
                L[i].a = i2f_vals[i];
            char sig[64], body[128];
            snprintf(sig, sizeof sig, "d.f32 e.f64 a.%s", t->reg);
            snprintf(body, sizeof body,
                     "cvt.%s.f32.%s %%d, %%a;\ncvt.%s.f64.%s %%e, %%a;", frnd[m],
                     t->name, frnd[m], t->name);
            CHECK_MSG(sem_run(sig, body, L, NI2F) == 0, "%s", body);
            for (unsigned i = 0; i < NI2F; i++) {
                __int128 v = int_value(L[i].a, t->bits, t->sgn);
                float wf = t->sgn ? sem_i2f_r((int64_t)v, (int)m)
                                  : sem_u2f_r((uint64_t)v, (int)m);
                double wd = t->sgn ? sem_i2d_r((int64_t)v, (int)m)
                                   : sem_u2d_r((uint64_t)v, (int)m);
                CHECK_MSG(L[i].d == sem_f2u(wf),
                          "cvt.%s.f32.%s(0x%llx): got 0x%08x, want 0x%08x (%a)",
                          frnd[m], t->name, (unsigned long long)L[i].a,
                          (uint32_t)L[i].d, sem_f2u(wf), (double)wf);
                CHECK_MSG(L[i].e == sem_d2u(wd),
                          "cvt.%s.f64.%s(0x%llx): got 0x%016llx, want %a",
                          frnd[m], t->name, (unsigned long long)L[i].a,
                          (unsigned long long)L[i].e, wd);
            }
        }
}

/* 16777217 is halfway between two floats: rn/rz/rm -> 16777216, rp ->
 * 16777218; -16777217 rm -> -16777218. */
TEST(sem_cvt_int_to_f32_hand_derived)
{
    sem_lane_t L[2];
    memset(L, 0, sizeof L);
    L[0].a = 16777217;
    L[1].a = (uint32_t)-16777217;
    CHECK(sem_run("d.b64 e.b64 a.s32",
                  ".reg .f32 %n, %z, %m, %p;\n"
                  "cvt.rn.f32.s32 %n, %a;\ncvt.rz.f32.s32 %z, %a;\n"
                  "cvt.rm.f32.s32 %m, %a;\ncvt.rp.f32.s32 %p, %a;\n"
                  "mov.b64 %d, {%n, %z};\nmov.b64 %e, {%m, %p};", L, 2) == 0);
    SEM_EQ(L, 0, L[0].d, (uint64_t)sem_f2u(16777216.0f) << 32 | sem_f2u(16777216.0f));
    SEM_EQ(L, 0, L[0].e, (uint64_t)sem_f2u(16777218.0f) << 32 | sem_f2u(16777216.0f));
    SEM_EQ(L, 1, L[1].d, (uint64_t)sem_f2u(-16777216.0f) << 32 | sem_f2u(-16777216.0f));
    SEM_EQ(L, 1, L[1].e, (uint64_t)sem_f2u(-16777216.0f) << 32 | sem_f2u(-16777218.0f));
}

/* cvt.f32.s32 without a modifier rounds to nearest. */
TEST(sem_cvt_int_to_float_default_is_rn)
{
    sem_lane_t L[NI2F];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < NI2F; i++)
        L[i].a = i2f_vals[i];
    CHECK(sem_run("d.f32 e.f32 a.s64",
                  ".reg .s32 %x;\ncvt.f32.s64 %d, %a;\n"
                  "cvt.u32.u64 %x, %a;\ncvt.f32.s32 %e, %x;", L, NI2F) == 0);
    for (unsigned i = 0; i < NI2F; i++) {
        SEM_EQ(L, i, L[i].d, sem_f2u(sem_i2f_r((int64_t)L[i].a, 0)));
        SEM_EQ(L, i, L[i].e, sem_f2u(sem_i2f_r((int32_t)(uint32_t)L[i].a, 0)));
    }
}

/* ------------------------------------------------------------------ */
/* float <-> float                                                     */
/* ------------------------------------------------------------------ */

static const double f2f_vals[] = {
    0.0, -0.0, 1.0, -1.0, 0.1, 1.0 / 3.0, -2.0 / 3.0, 1.0 + 0x1p-24,
    1.0 + 0x1p-24 + 0x1p-50, 1.0 - 0x1p-25, -(1.0 + 0x1p-24), 3.4028235e38,
    3.4028236e38, 3.5e38, -3.5e38, 1e300, 1e-300, 0x1p-149, 0x1p-150,
    0x1.8p-150, 0x1p-127, 0x1.fffffffp-127, -0x1p-140, 1.17549435e-38,
    INFINITY, -INFINITY, NAN, 6.02214076e23,
};
#define NF2F (sizeof f2f_vals / sizeof *f2f_vals)

TEST(sem_cvt_f64_to_f32_rounding_modes)
{
    for (unsigned m = 0; m < 4; m++) {
        sem_lane_t L[NF2F];
        memset(L, 0, sizeof L);
        for (unsigned i = 0; i < NF2F; i++)
            L[i].a = sem_d2u(f2f_vals[i]);
        char body[64];
        snprintf(body, sizeof body, "cvt.%s.f32.f64 %%d, %%a;", frnd[m]);
        CHECK_MSG(sem_run("d.f32 a.f64", body, L, NF2F) == 0, "%s", body);
        for (unsigned i = 0; i < NF2F; i++) {
            float w = sem_d2f_r(f2f_vals[i], (int)m);
            int ok = isnan(w) ? isnan(sem_u2f((uint32_t)L[i].d))
                              : L[i].d == sem_f2u(w);
            CHECK_MSG(ok, "cvt.%s.f32.f64(%a): got 0x%08x, want 0x%08x (%a)",
                      frnd[m], f2f_vals[i], (uint32_t)L[i].d, sem_f2u(w),
                      (double)w);
        }
    }
}

TEST(sem_cvt_f64_to_f32_ftz)
{
    sem_lane_t L[NF2F];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < NF2F; i++)
        L[i].a = sem_d2u(f2f_vals[i]);
    CHECK(sem_run("d.f32 a.f64", "cvt.rn.ftz.f32.f64 %d, %a;", L, NF2F) == 0);
    for (unsigned i = 0; i < NF2F; i++) {
        float w = sem_d2f_r(f2f_vals[i], 0);
        if (fpclassify(w) == FP_SUBNORMAL)
            w = copysignf(0.0f, w);
        int ok = isnan(w) ? isnan(sem_u2f((uint32_t)L[i].d))
                          : L[i].d == sem_f2u(w);
        CHECK_MSG(ok, "cvt.rn.ftz.f32.f64(%a): got 0x%08x, want 0x%08x",
                  f2f_vals[i], (uint32_t)L[i].d, sem_f2u(w));
    }
}

TEST(sem_cvt_f32_to_f64_exact)
{
    sem_lane_t L[NF2F];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < NF2F; i++)
        L[i].a = sem_f2u((float)f2f_vals[i]);
    CHECK(sem_run("d.f64 a.f32", "cvt.f64.f32 %d, %a;", L, NF2F) == 0);
    for (unsigned i = 0; i < NF2F; i++) {
        double w = (double)sem_u2f((uint32_t)L[i].a);
        int ok = isnan(w) ? isnan(sem_u2d(L[i].d)) : L[i].d == sem_d2u(w);
        CHECK_MSG(ok, "cvt.f64.f32(0x%08x): got 0x%016llx, want %a",
                  (uint32_t)L[i].a, (unsigned long long)L[i].d, w);
    }
}

/* cvt.rXi.f32.f32 / .f64.f64: round to an integral value, sign kept. */
TEST(sem_cvt_round_to_integral_float)
{
    for (unsigned m = 0; m < 4; m++) {
        sem_lane_t L[NFV];
        memset(L, 0, sizeof L);
        for (unsigned i = 0; i < NFV; i++) {
            L[i].a = sem_f2u((float)fvals[i]);
            L[i].b = sem_d2u(fvals[i]);
        }
        char body[128];
        snprintf(body, sizeof body,
                 "cvt.%s.f32.f32 %%d, %%a;\ncvt.%s.f64.f64 %%e, %%b;", irnd[m],
                 irnd[m]);
        CHECK_MSG(sem_run("d.f32 e.f64 a.f32 b.f64", body, L, NFV) == 0, "%s", body);
        for (unsigned i = 0; i < NFV; i++) {
            float xf = (float)fvals[i];
            double xd = fvals[i];
            float wf = (float)round_int(xf, (int)m);
            double wd = round_int(xd, (int)m);
            int okf = isnan(wf) ? isnan(sem_u2f((uint32_t)L[i].d))
                                : L[i].d == sem_f2u(wf);
            int okd = isnan(wd) ? isnan(sem_u2d(L[i].e)) : L[i].e == sem_d2u(wd);
            CHECK_MSG(okf, "cvt.%s.f32.f32(%a): got 0x%08x, want %a", irnd[m],
                      (double)xf, (uint32_t)L[i].d, (double)wf);
            CHECK_MSG(okd, "cvt.%s.f64.f64(%a): got 0x%016llx, want %a", irnd[m],
                      xd, (unsigned long long)L[i].e, wd);
        }
    }
}

/* cvt.sat.f32.f32 clamps to [0, 1] (NaN -> 0); cvt.ftz.f32.f32 flushes
 * subnormals to a signed zero. */
TEST(sem_cvt_f32_f32_sat_ftz)
{
    sem_lane_t L[NF2F];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < NF2F; i++)
        L[i].a = sem_f2u((float)f2f_vals[i]);
    CHECK(sem_run("d.f32 e.f32 a.f32",
                  "cvt.sat.f32.f32 %d, %a;\ncvt.ftz.f32.f32 %e, %a;", L, NF2F) == 0);
    for (unsigned i = 0; i < NF2F; i++) {
        float x = sem_u2f((uint32_t)L[i].a);
        float s = isnan(x) ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
        float z = fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
        if (!(s == 0.0f && signbit(s)))
            SEM_EQ(L, i, L[i].d, sem_f2u(s));
        if (isnan(z))
            CHECK(isnan(sem_u2f((uint32_t)L[i].e)));
        else
            SEM_EQ(L, i, L[i].e, sem_f2u(z));
    }
}

/* ------------------------------------------------------------------ */
/* f16                                                                 */
/* ------------------------------------------------------------------ */

static double f16_value(uint16_t h)
{
    int e = (h >> 10) & 0x1f;
    double m = h & 0x3ff;
    double s = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 31)
        return m ? NAN : s * INFINITY;
    if (e == 0)
        return s * ldexp(m, -24);
    return s * ldexp(1024.0 + m, e - 25);
}

/* binary16 from a double in rounding mode m (0 rn, 1 rz, 2 rm, 3 rp) */
static uint16_t f16_from(double x, int m)
{
    if (isnan(x))
        return 0x7e00;
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double ax = fabs(x);
    if (isinf(x))
        return sign | 0x7c00;
    /* round toward +inf in magnitude for rp on positives / rm on
     * negatives; toward zero for rz, rp on negatives, rm on positives */
    int up = (m == 3 && !sign) || (m == 2 && sign);
    int down = m == 1 || (m == 3 && sign) || (m == 2 && !sign);
    int e;
    frexp(ax, &e); /* ax = f * 2^e, f in [0.5, 1) */
    int q = e - 11;   /* quantum exponent for 11 significant bits */
    if (q < -24)
        q = -24;      /* subnormal quantum */
    double scaled = ldexp(ax, -q);
    double r = floor(scaled), frac = scaled - r;
    if (frac > 0.0) {
        if (up)
            r += 1.0;
        else if (!down && (frac > 0.5 || (frac == 0.5 && fmod(r, 2.0) != 0.0)))
            r += 1.0;
    }
    double v = ldexp(r, q);
    if (v > 65504.0)
        return sign | (down ? 0x7bff : 0x7c00);
    if (v == 0.0)
        return sign;
    if (v < 0x1p-14)
        return sign | (uint16_t)(v * 0x1p24);
    int ve;
    double f = frexp(v, &ve); /* v = f * 2^ve, f in [0.5, 1) */
    uint16_t mant = (uint16_t)((f * 2.0 - 1.0) * 1024.0);
    return sign | (uint16_t)((ve - 1 + 15) << 10) | mant;
}

static const float f16_inputs[] = {
    1.0f, -1.0f, 0.0f, -0.0f, 65504.0f, 65519.0f, 65520.0f, -65520.0f,
    70000.0f, 0x1p-24f, 0x1p-25f, 0x1.8p-25f, 0x1p-26f, 0x1p-14f,
    0x1.ff8p-15f, 0.1f, 1.0f / 3.0f, 2049.0f, 2051.0f, -2049.0f, 1e-10f,
    3.14159265f, 0.0009765625f, INFINITY, -INFINITY, NAN, 1.0009765625f,
    1.00048828125f, 1.00146484375f, -7.7e-5f,
};
#define NF16 (sizeof f16_inputs / sizeof *f16_inputs)

/* Hand-checked anchors of f16_from (rn): 1.0, 65504, 65520 -> inf, 2^-24
 * -> the smallest subnormal, 2^-25 -> 0 (tie to even), 2049 -> 2048. */
TEST(sem_cvt_f16_reference_anchors)
{
    CHECK_EQ(f16_from(1.0, 0), 0x3c00);
    CHECK_EQ(f16_from(65504.0, 0), 0x7bff);
    CHECK_EQ(f16_from(65519.0, 0), 0x7bff);
    CHECK_EQ(f16_from(65520.0, 0), 0x7c00);
    CHECK_EQ(f16_from(65520.0, 1), 0x7bff);
    CHECK_EQ(f16_from(0x1p-24, 0), 0x0001);
    CHECK_EQ(f16_from(0x1p-25, 0), 0x0000);
    CHECK_EQ(f16_from(0x1.8p-25, 0), 0x0001);
    CHECK_EQ(f16_from(2049.0, 0), 0x6800);
    CHECK_EQ(f16_from(2051.0, 0), 0x6802);
    CHECK_EQ(f16_from(0.1, 0), 0x2e66);
    CHECK_EQ(f16_from(-2.0, 0), 0xc000);
    CHECK(f16_value(0x7bff) == 65504.0 && f16_value(0x0001) == 0x1p-24);
}

static void check_f16(unsigned m0, unsigned m1)
{
    for (unsigned m = m0; m <= m1; m++) {
        sem_lane_t L[NF16];
        memset(L, 0, sizeof L);
        for (unsigned i = 0; i < NF16; i++)
            L[i].a = sem_f2u(f16_inputs[i]);
        char body[160];
        snprintf(body, sizeof body,
                 ".reg .b16 %%h;\ncvt.%s.f16.f32 %%h, %%a;\n"
                 "cvt.u32.u16 %%d, %%h;\ncvt.f32.f16 %%e, %%h;", frnd[m]);
        CHECK_MSG(sem_run("d.u32 e.f32 a.f32", body, L, NF16) == 0, "%s", body);
        for (unsigned i = 0; i < NF16; i++) {
            float x = f16_inputs[i];
            uint16_t want = f16_from(x, (int)m);
            uint16_t got = (uint16_t)L[i].d;
            if (isnan(x)) {
                CHECK_MSG((got & 0x7c00) == 0x7c00 && (got & 0x3ff),
                          "cvt.%s.f16.f32(NaN) = 0x%04x", frnd[m], got);
                CHECK(isnan(sem_u2f((uint32_t)L[i].e)));
                continue;
            }
            CHECK_MSG(got == want, "cvt.%s.f16.f32(%a): got 0x%04x, want 0x%04x",
                      frnd[m], (double)x, got, want);
            float back = (float)f16_value(want);
            CHECK_MSG(L[i].e == sem_f2u(back),
                      "cvt.f32.f16(0x%04x): got 0x%08x, want 0x%08x", want,
                      (uint32_t)L[i].e, sem_f2u(back));
        }
    }
}

TEST(sem_cvt_f32_to_f16_rn_and_back)
{
    check_f16(0, 0);
}

/* .rz/.rm/.rp to f16 round toward zero / -inf / +inf: e.g. 65520 -> 65504
 * (.rz), 1/3 -> 0x3556 (.rp), -1/3 -> 0xb556 (.rm). */
TEST(sem_cvt_f32_to_f16_directed_rounding)
{
    check_f16(1, 3);
}

/* every exponent with a few mantissas: cvt.f32.f16 and cvt.f64.f16 are
 * exact */
TEST(sem_cvt_f16_to_f32_f64_exact)
{
    static const uint16_t mant[] = { 0x000, 0x001, 0x155, 0x200, 0x3ff };
    enum { N = 2 * 32 * 5 };
    static sem_lane_t L[N];
    unsigned n = 0;
    for (unsigned s = 0; s < 2; s++)
        for (unsigned e = 0; e < 32; e++)
            for (unsigned k = 0; k < 5; k++) {
                memset(&L[n], 0, sizeof L[n]);
                L[n++].a = (uint16_t)(s << 15 | e << 10 | mant[k]);
            }
    CHECK(sem_run("d.f32 e.f64 a.b16",
                  "cvt.f32.f16 %d, %a;\ncvt.f64.f16 %e, %a;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        double w = f16_value((uint16_t)L[i].a);
        if (isnan(w)) {
            CHECK_MSG(isnan(sem_u2f((uint32_t)L[i].d)) && isnan(sem_u2d(L[i].e)),
                      "cvt from f16 NaN 0x%04x", (unsigned)L[i].a);
            continue;
        }
        CHECK_MSG(L[i].d == sem_f2u((float)w), "cvt.f32.f16(0x%04x): got 0x%08x, want %a",
                  (unsigned)L[i].a, (uint32_t)L[i].d, w);
        CHECK_MSG(L[i].e == sem_d2u(w), "cvt.f64.f16(0x%04x): got 0x%016llx, want %a",
                  (unsigned)L[i].a, (unsigned long long)L[i].e, w);
    }
}

TEST(sem_cvt_f64_to_f16)
{
    sem_lane_t L[NF2F];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < NF2F; i++)
        L[i].a = sem_d2u(f2f_vals[i]);
    CHECK(sem_run("d.u32 a.f64",
                  ".reg .b16 %h;\ncvt.rn.f16.f64 %h, %a;\ncvt.u32.u16 %d, %h;",
                  L, NF2F) == 0);
    for (unsigned i = 0; i < NF2F; i++) {
        double x = f2f_vals[i];
        uint16_t got = (uint16_t)L[i].d;
        if (isnan(x)) {
            CHECK((got & 0x7c00) == 0x7c00 && (got & 0x3ff));
            continue;
        }
        uint16_t want = f16_from(x, 0);
        CHECK_MSG(got == want, "cvt.rn.f16.f64(%a): got 0x%04x, want 0x%04x", x,
                  got, want);
    }
}
