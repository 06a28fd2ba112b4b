/* test_sem_float.c: semantics of the f32/f64 instructions: add, sub, mul,
 * div, fma/mad in every IEEE rounding mode (references computed on the
 * host FPU under the same rounding mode), .ftz and .sat, NaN and infinity
 * propagation, min/max, abs/neg, rcp/sqrt (exact .rn/.rz/.rm/.rp forms and
 * .approx within a tolerance), rsqrt, ex2, lg2, sin, cos, tanh, copysign
 * and testp.
 *
 * A NaN result is accepted as any NaN (the ISA does not promise payloads);
 * every other result must match bit for bit, so the sign of zero counts. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../harness.h"
#include "sem_helpers.h"

static const char *const rnd_names[4] = { ".rn", ".rz", ".rm", ".rp" };

static const uint32_t F32[] = {
    0x00000000u, /* +0 */          0x80000000u, /* -0 */
    0x3f800000u, /* 1 */           0xbf800000u, /* -1 */
    0x3fc00000u, /* 1.5 */         0x3dcccccdu, /* 0.1 */
    0x40400000u, /* 3 */           0xc0f80000u, /* -7.75 */
    0x3eaaaaabu, /* 1/3 */         0x4b800000u, /* 2^24 */
    0x3f800001u, /* 1 + 2^-23 */   0x33800000u, /* 2^-24 */
    0x7f7fffffu, /* FLT_MAX */     0xff7fffffu, /* -FLT_MAX */
    0x00800000u, /* FLT_MIN */     0x00000001u, /* min subnormal */
    0x007fffffu, /* max subnormal */ 0x80400000u, /* -subnormal */
    0x7f800000u, /* +inf */        0xff800000u, /* -inf */
    0x7fc00000u, /* NaN */         0x501502f9u, /* 1e10 */
    0x1e3ce508u, /* 1e-20 */       0xc2f6e979u, /* -123.456 */
};
#define NF32 (sizeof F32 / sizeof *F32)

static const uint64_t F64[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull,
    0xbff0000000000000ull, 0x3ff8000000000000ull, 0x3fb999999999999aull,
    0x4008000000000000ull, 0xc01f000000000000ull, 0x3fd5555555555555ull,
    0x4340000000000000ull, 0x3ff0000000000001ull, 0x3ca0000000000000ull,
    0x7fefffffffffffffull, 0xffefffffffffffffull, 0x0010000000000000ull,
    0x0000000000000001ull, 0x000fffffffffffffull, 0x8008000000000000ull,
    0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
    0x4202a05f20000000ull, 0x3bc79ca10c924223ull, 0xc05edd2f1a9fbe77ull,
};
#define NF64 (sizeof F64 / sizeof *F64)

static unsigned f32_lanes(sem_lane_t *L, int three)
{
    uint64_t v[NF32];
    for (unsigned i = 0; i < NF32; i++)
        v[i] = F32[i];
    return sem_cross(L, v, NF32, v, NF32, three ? v : NULL, NF32);
}

static unsigned f64_lanes(sem_lane_t *L, int three)
{
    return sem_cross(L, F64, NF64, F64, NF64, three ? F64 : NULL, NF64);
}

static int same32(uint64_t got, float want)
{
    if (isnan(want))
        return isnan(sem_u2f((uint32_t)got));
    return (uint32_t)got == sem_f2u(want) && got >> 32 == 0;
}

static int same64(uint64_t got, double want)
{
    if (isnan(want))
        return isnan(sem_u2d(got));
    return got == sem_d2u(want);
}

#define CHECK_F32(L, i, what, got, want)                                   \
    CHECK_MSG(same32(got, want),                                           \
              "%s a=0x%08x b=0x%08x c=0x%08x: got 0x%08x (%a), want 0x%08x (%a)", \
              what, (uint32_t)(L)[i].a, (uint32_t)(L)[i].b,                \
              (uint32_t)(L)[i].c, (uint32_t)(got),                         \
              (double)sem_u2f((uint32_t)(got)), sem_f2u(want), (double)(want))

#define CHECK_F64(L, i, what, got, want)                                   \
    CHECK_MSG(same64(got, want),                                           \
              "%s a=0x%016llx b=0x%016llx c=0x%016llx: got 0x%016llx (%a), " \
              "want 0x%016llx (%a)", what, (unsigned long long)(L)[i].a,   \
              (unsigned long long)(L)[i].b, (unsigned long long)(L)[i].c,  \
              (unsigned long long)(got), sem_u2d(got),                     \
              (unsigned long long)sem_d2u(want), (double)(want))

static float fa(const sem_lane_t *l) { return sem_u2f((uint32_t)l->a); }
static float fb(const sem_lane_t *l) { return sem_u2f((uint32_t)l->b); }
static float fc(const sem_lane_t *l) { return sem_u2f((uint32_t)l->c); }
static double da(const sem_lane_t *l) { return sem_u2d(l->a); }
static double db(const sem_lane_t *l) { return sem_u2d(l->b); }
static double dc(const sem_lane_t *l) { return sem_u2d(l->c); }

/* ------------------------------------------------------------------ */
/* f32 arithmetic in each rounding mode                                */
/* ------------------------------------------------------------------ */

TEST(sem_f32_add_sub_rounding_modes)
{
    static sem_lane_t L[NF32 * NF32];
    unsigned n = f32_lanes(L, 0);
    for (int m = 0; m < 4; m++) {
        char body[128], what[32];
        snprintf(body, sizeof body,
                 "add%s.f32 %%d, %%a, %%b;\nsub%s.f32 %%e, %%a, %%b;",
                 rnd_names[m], rnd_names[m]);
        CHECK_MSG(sem_run("d.f32 e.f32 a.f32 b.f32", body, L, n) == 0, "%s", body);
        for (unsigned i = 0; i < n; i++) {
            snprintf(what, sizeof what, "add%s.f32", rnd_names[m]);
            CHECK_F32(L, i, what, L[i].d, sem_fadd_r(fa(&L[i]), fb(&L[i]), m));
            snprintf(what, sizeof what, "sub%s.f32", rnd_names[m]);
            CHECK_F32(L, i, what, L[i].e, sem_fadd_r(fa(&L[i]), -fb(&L[i]), m));
        }
    }
}

/* No modifier means .rn. */
TEST(sem_f32_add_mul_default_is_rn)
{
    static sem_lane_t L[NF32 * NF32];
    unsigned n = f32_lanes(L, 0);
    CHECK(sem_run("d.f32 e.f32 a.f32 b.f32",
                  "add.f32 %d, %a, %b;\nmul.f32 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        CHECK_F32(L, i, "add.f32", L[i].d, sem_fadd_r(fa(&L[i]), fb(&L[i]), 0));
        CHECK_F32(L, i, "mul.f32", L[i].e, sem_fmul_r(fa(&L[i]), fb(&L[i]), 0));
    }
}

TEST(sem_f32_mul_rounding_modes)
{
    static sem_lane_t L[NF32 * NF32];
    unsigned n = f32_lanes(L, 0);
    for (int m = 0; m < 4; m++) {
        char body[64], what[32];
        snprintf(body, sizeof body, "mul%s.f32 %%d, %%a, %%b;", rnd_names[m]);
        snprintf(what, sizeof what, "mul%s.f32", rnd_names[m]);
        CHECK_MSG(sem_run("d.f32 a.f32 b.f32", body, L, n) == 0, "%s", body);
        for (unsigned i = 0; i < n; i++)
            CHECK_F32(L, i, what, L[i].d, sem_fmul_r(fa(&L[i]), fb(&L[i]), m));
    }
}

TEST(sem_f32_div_rounding_modes)
{
    static sem_lane_t L[NF32 * NF32];
    unsigned n = f32_lanes(L, 0);
    for (int m = 0; m < 4; m++) {
        char body[64], what[32];
        snprintf(body, sizeof body, "div%s.f32 %%d, %%a, %%b;", rnd_names[m]);
        snprintf(what, sizeof what, "div%s.f32", rnd_names[m]);
        CHECK_MSG(sem_run("d.f32 a.f32 b.f32", body, L, n) == 0, "%s", body);
        for (unsigned i = 0; i < n; i++)
            CHECK_F32(L, i, what, L[i].d, sem_fdiv_r(fa(&L[i]), fb(&L[i]), m));
    }
}

TEST(sem_f32_fma_rounding_modes)
{
    static sem_lane_t L[NF32 * NF32];
    unsigned n = f32_lanes(L, 1);
    for (int m = 0; m < 4; m++) {
        char body[128], what[32];
        snprintf(body, sizeof body,
                 "fma%s.f32 %%d, %%a, %%b, %%c;\nmad%s.f32 %%e, %%a, %%b, %%c;",
                 rnd_names[m], rnd_names[m]);
        CHECK_MSG(sem_run("d.f32 e.f32 a.f32 b.f32 c.f32", body, L, n) == 0,
                  "%s", body);
        for (unsigned i = 0; i < n; i++) {
            float want = sem_ffma_r(fa(&L[i]), fb(&L[i]), fc(&L[i]), m);
            snprintf(what, sizeof what, "fma%s.f32", rnd_names[m]);
            CHECK_F32(L, i, what, L[i].d, want);
            snprintf(what, sizeof what, "mad%s.f32", rnd_names[m]);
            CHECK_F32(L, i, what, L[i].e, want);
        }
    }
}

/* Hand-derived rounding: 1 + 2^-24 is a tie (rn: 1, rz: 1, rm: 1, rp:
 * 1 + 2^-23); 1 + 3*2^-25 is above the tie (rn: 1 + 2^-23); -(1 + 2^-24)
 * (rm: -(1 + 2^-23), rp: -1); fma keeps the product exact: (1 + 2^-12)^2 -
 * 1 = 2^-11 + 2^-24 exactly. */
TEST(sem_f32_rounding_hand_derived)
{
    sem_lane_t L[4];
    memset(L, 0, sizeof L);
    L[0].a = 0x3f800000u; L[0].b = 0x33800000u; /* 1 + 2^-24 */
    L[1].a = 0x3f800000u; L[1].b = 0x33c00000u; /* 1 + 1.5*2^-24 */
    L[2].a = 0xbf800000u; L[2].b = 0xb3800000u; /* -1 - 2^-24 */
    L[3].a = 0x3f800800u; L[3].b = 0x3f800800u; L[3].c = 0xbf800000u;
    static const char *const body =
        ".reg .f32 %rn, %rz, %rm, %rp;\n"
        "add.rn.f32 %rn, %a, %b;\nadd.rz.f32 %rz, %a, %b;\n"
        "add.rm.f32 %rm, %a, %b;\nadd.rp.f32 %rp, %a, %b;\n"
        "mov.b64 %d, {%rn, %rz};\nmov.b64 %e, {%rm, %rp};\n"
        "@%sem_p fma.rn.f32 %rn, %a, %b, %c;\n"
        "@%sem_p mul.rn.f32 %rz, %a, %b;\n"
        "@%sem_p add.rn.f32 %rz, %rz, %c;\n"
        "@%sem_p mov.b64 %d, {%rn, %rz};\n";
    char full[1024];
    snprintf(full, sizeof full,
             ".reg .pred %%sem_p;\n.reg .u32 %%lane;\nmov.u32 %%lane, %%tid.x;\n"
             "setp.eq.u32 %%sem_p, %%lane, 3;\n%s", body);
    CHECK(sem_run("d.b64 e.b64 a.f32 b.f32 c.f32", full, L, 4) == 0);
    /* {rn, rz} and {rm, rp} */
    SEM_EQ(L, 0, L[0].d, 0x3f800000ull << 32 | 0x3f800000u);
    SEM_EQ(L, 0, L[0].e, 0x3f800001ull << 32 | 0x3f800000u);
    SEM_EQ(L, 1, L[1].d, 0x3f800000ull << 32 | 0x3f800001u);
    SEM_EQ(L, 1, L[1].e, 0x3f800001ull << 32 | 0x3f800000u);
    SEM_EQ(L, 2, L[2].d, 0xbf800000ull << 32 | 0xbf800000u);
    SEM_EQ(L, 2, L[2].e, 0xbf800000ull << 32 | 0xbf800001u);
    /* fma: 2^-11 * (1 + 2^-13) = 0x3a000400; the separately rounded
     * mul (a tie, to even) + add loses the 2^-24 term: 2^-11 = 0x3a000000 */
    SEM_EQ(L, 3, L[3].d, 0x3a000000ull << 32 | 0x3a000400u);
}

/* ------------------------------------------------------------------ */
/* f64 arithmetic in each rounding mode                                */
/* ------------------------------------------------------------------ */

TEST(sem_f64_add_sub_mul_rounding_modes)
{
    static sem_lane_t L[NF64 * NF64];
    unsigned n = f64_lanes(L, 0);
    for (int m = 0; m < 4; m++) {
        char body[160], what[32];
        snprintf(body, sizeof body,
                 ".reg .f64 %%t;\nadd%s.f64 %%d, %%a, %%b;\nsub%s.f64 %%t, %%a, %%b;\n"
                 "mul%s.f64 %%e, %%a, %%b;\nmov.b64 %%c, %%t;",
                 rnd_names[m], rnd_names[m], rnd_names[m]);
        CHECK_MSG(sem_run("d.f64 e.f64 a.f64 b.f64 c.b64", body, L, n) == 0,
                  "%s", body);
        for (unsigned i = 0; i < n; i++) {
            snprintf(what, sizeof what, "add%s.f64", rnd_names[m]);
            CHECK_F64(L, i, what, L[i].d, sem_dadd_r(da(&L[i]), db(&L[i]), m));
            snprintf(what, sizeof what, "mul%s.f64", rnd_names[m]);
            CHECK_F64(L, i, what, L[i].e, sem_dmul_r(da(&L[i]), db(&L[i]), m));
        }
    }
}

TEST(sem_f64_sub_rounding_modes)
{
    static sem_lane_t L[NF64 * NF64];
    unsigned n = f64_lanes(L, 0);
    for (int m = 0; m < 4; m++) {
        char body[64], what[32];
        snprintf(body, sizeof body, "sub%s.f64 %%d, %%a, %%b;", rnd_names[m]);
        snprintf(what, sizeof what, "sub%s.f64", rnd_names[m]);
        CHECK_MSG(sem_run("d.f64 a.f64 b.f64", body, L, n) == 0, "%s", body);
        for (unsigned i = 0; i < n; i++)
            CHECK_F64(L, i, what, L[i].d, sem_dadd_r(da(&L[i]), -db(&L[i]), m));
    }
}

TEST(sem_f64_div_fma_rounding_modes)
{
    static sem_lane_t L[NF64 * NF64];
    unsigned n = f64_lanes(L, 1);
    for (int m = 0; m < 4; m++) {
        char body[128], what[32];
        snprintf(body, sizeof body,
                 "div%s.f64 %%d, %%a, %%b;\nfma%s.f64 %%e, %%a, %%b, %%c;",
                 rnd_names[m], rnd_names[m]);
        CHECK_MSG(sem_run("d.f64 e.f64 a.f64 b.f64 c.f64", body, L, n) == 0,
                  "%s", body);
        for (unsigned i = 0; i < n; i++) {
            snprintf(what, sizeof what, "div%s.f64", rnd_names[m]);
            CHECK_F64(L, i, what, L[i].d, sem_ddiv_r(da(&L[i]), db(&L[i]), m));
            snprintf(what, sizeof what, "fma%s.f64", rnd_names[m]);
            CHECK_F64(L, i, what, L[i].e,
                      sem_dfma_r(da(&L[i]), db(&L[i]), dc(&L[i]), m));
        }
    }
}

/* ------------------------------------------------------------------ */
/* .ftz and .sat                                                       */
/* ------------------------------------------------------------------ */

static float ftz(float x)
{
    if (fpclassify(x) == FP_SUBNORMAL)
        return copysignf(0.0f, x);
    return x;
}

/* .ftz: subnormal inputs are read as zero of the same sign, subnormal
 * results are written as zero of the same sign. */
TEST(sem_f32_ftz_add_mul_fma)
{
    static sem_lane_t L[NF32 * NF32];
    unsigned n = f32_lanes(L, 1);
    CHECK(sem_run("d.f32 e.f32 a.f32 b.f32 c.f32",
                  "add.ftz.f32 %d, %a, %b;\n"
                  "fma.rn.ftz.f32 %e, %a, %b, %c;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        float a = ftz(fa(&L[i])), b = ftz(fb(&L[i])), c = ftz(fc(&L[i]));
        CHECK_F32(L, i, "add.ftz.f32", L[i].d, ftz(sem_fadd_r(a, b, 0)));
        CHECK_F32(L, i, "fma.rn.ftz.f32", L[i].e, ftz(sem_ffma_r(a, b, c, 0)));
    }
    CHECK(sem_run("d.f32 e.f32 a.f32 b.f32",
                  "mul.ftz.f32 %d, %a, %b;\nsub.ftz.f32 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        float a = ftz(fa(&L[i])), b = ftz(fb(&L[i]));
        CHECK_F32(L, i, "mul.ftz.f32", L[i].d, ftz(sem_fmul_r(a, b, 0)));
        CHECK_F32(L, i, "sub.ftz.f32", L[i].e, ftz(sem_fadd_r(a, -b, 0)));
    }
}

TEST(sem_f32_ftz_spot_values)
{
    sem_lane_t L[4];
    memset(L, 0, sizeof L);
    L[0].a = 0x00000001u; L[0].b = 0x00000000u; /* sub + 0 -> +0 */
    L[1].a = 0x80400000u; L[1].b = 0x80000000u; /* -sub + -0 -> -0 */
    L[2].a = 0x1e3ce508u; L[2].b = 0x1e3ce508u; /* 1e-20 * 1e-20 -> 0 */
    L[3].a = 0x9e3ce508u; L[3].b = 0x1e3ce508u; /* -1e-20 * 1e-20 -> -0 */
    CHECK(sem_run("d.f32 e.f32 a.f32 b.f32",
                  "add.ftz.f32 %d, %a, %b;\nmul.ftz.f32 %e, %a, %b;", L, 4) == 0);
    SEM_EQ(L, 0, L[0].d, 0x00000000u);
    SEM_EQ(L, 1, L[1].d, 0x80000000u);
    SEM_EQ(L, 2, L[2].e, 0x00000000u);
    SEM_EQ(L, 3, L[3].e, 0x80000000u);
    /* without .ftz the same operations keep the subnormals */
    CHECK(sem_run("d.f32 e.f32 a.f32 b.f32",
                  "add.f32 %d, %a, %b;\nmul.f32 %e, %a, %b;", L, 4) == 0);
    SEM_EQ(L, 0, L[0].d, 0x00000001u);
    SEM_EQ(L, 1, L[1].d, 0x80400000u);
    SEM_EQ(L, 2, L[2].e, sem_f2u(sem_fmul_r(1e-20f, 1e-20f, 0)));
    CHECK(L[2].e != 0);
}

/* .sat clamps the result to [0, 1] and turns NaN into +0.  (A -0 result
 * is not checked: whether .sat turns it into +0 is not spelled out.) */
TEST(sem_f32_sat_add_mul_fma)
{
    static sem_lane_t L[NF32 * NF32];
    unsigned n = f32_lanes(L, 1);
    CHECK(sem_run("d.f32 e.f32 a.f32 b.f32 c.f32",
                  "add.sat.f32 %d, %a, %b;\n"
                  "fma.rn.sat.f32 %e, %a, %b, %c;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        float s = sem_fadd_r(fa(&L[i]), fb(&L[i]), 0);
        float f = sem_ffma_r(fa(&L[i]), fb(&L[i]), fc(&L[i]), 0);
        float ws = isnan(s) ? 0.0f : s < 0.0f ? 0.0f : s > 1.0f ? 1.0f : s;
        float wf = isnan(f) ? 0.0f : f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
        if (!(ws == 0.0f && signbit(ws)))
            CHECK_F32(L, i, "add.sat.f32", L[i].d, ws);
        if (!(wf == 0.0f && signbit(wf)))
            CHECK_F32(L, i, "fma.rn.sat.f32", L[i].e, wf);
    }
    CHECK(sem_run("d.f32 a.f32 b.f32", "mul.sat.f32 %d, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        float m = sem_fmul_r(fa(&L[i]), fb(&L[i]), 0);
        float w = isnan(m) ? 0.0f : m < 0.0f ? 0.0f : m > 1.0f ? 1.0f : m;
        if (!(w == 0.0f && signbit(w)))
            CHECK_F32(L, i, "mul.sat.f32", L[i].d, w);
    }
}

/* ------------------------------------------------------------------ */
/* special values                                                      */
/* ------------------------------------------------------------------ */

TEST(sem_f32_nan_inf_propagation)
{
    /* a, b, want(add), want(mul), want(div) */
    static const uint32_t c[][5] = {
        { 0x7f800000u, 0xff800000u, 0x7fffffffu, 0xff800000u, 0x7fffffffu },
        { 0x7f800000u, 0x00000000u, 0x7f800000u, 0x7fffffffu, 0x7f800000u },
        { 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x7fffffffu },
        { 0x3f800000u, 0x80000000u, 0x3f800000u, 0x80000000u, 0xff800000u },
        { 0x7fc00000u, 0x3f800000u, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu },
        { 0x3f800000u, 0xffc00001u, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu },
        { 0x7f7fffffu, 0x7f7fffffu, 0x7f800000u, 0x7f800000u, 0x3f800000u },
        { 0x80000000u, 0x80000000u, 0x80000000u, 0x00000000u, 0x7fffffffu },
        { 0xff800000u, 0x40000000u, 0xff800000u, 0xff800000u, 0xff800000u },
    };
    enum { N = sizeof c / sizeof *c };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < N; i++) {
        L[i].a = c[i][0];
        L[i].b = c[i][1];
    }
    CHECK(sem_run("d.f32 e.b64 a.f32 b.f32",
                  ".reg .f32 %m, %q;\n"
                  "add.f32 %d, %a, %b;\nmul.f32 %m, %a, %b;\n"
                  "div.rn.f32 %q, %a, %b;\nmov.b64 %e, {%m, %q};", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        CHECK_F32(L, i, "add.f32", L[i].d, sem_u2f(c[i][2]));
        CHECK_F32(L, i, "mul.f32", (uint32_t)L[i].e, sem_u2f(c[i][3]));
        CHECK_F32(L, i, "div.rn.f32", L[i].e >> 32, sem_u2f(c[i][4]));
    }
}

/* min/max: one NaN operand gives the other operand, two give NaN;
 * -0 < +0 (ISA). */
static float fminmax_ref(float a, float b, int max)
{
    if (isnan(a) && isnan(b))
        return NAN;
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    if (a == 0.0f && b == 0.0f && signbit(a) != signbit(b))
        return max ? 0.0f : -0.0f;
    return max ? (a > b ? a : b) : (a < b ? a : b);
}

static double dminmax_ref(double a, double b, int max)
{
    if (isnan(a) && isnan(b))
        return NAN;
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    if (a == 0.0 && b == 0.0 && signbit(a) != signbit(b))
        return max ? 0.0 : -0.0;
    return max ? (a > b ? a : b) : (a < b ? a : b);
}

TEST(sem_f32_min_max_nan_and_signed_zero)
{
    static sem_lane_t L[NF32 * NF32];
    unsigned n = f32_lanes(L, 0);
    CHECK(sem_run("d.f32 e.f32 a.f32 b.f32",
                  "min.f32 %d, %a, %b;\nmax.f32 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        CHECK_F32(L, i, "min.f32", L[i].d, fminmax_ref(fa(&L[i]), fb(&L[i]), 0));
        CHECK_F32(L, i, "max.f32", L[i].e, fminmax_ref(fa(&L[i]), fb(&L[i]), 1));
    }
}

TEST(sem_f32_min_max_ftz)
{
    static sem_lane_t L[NF32 * NF32];
    unsigned n = f32_lanes(L, 0);
    CHECK(sem_run("d.f32 e.f32 a.f32 b.f32",
                  "min.ftz.f32 %d, %a, %b;\nmax.ftz.f32 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        float a = ftz(fa(&L[i])), b = ftz(fb(&L[i]));
        CHECK_F32(L, i, "min.ftz.f32", L[i].d, fminmax_ref(a, b, 0));
        CHECK_F32(L, i, "max.ftz.f32", L[i].e, fminmax_ref(a, b, 1));
    }
}

TEST(sem_f64_min_max_nan_and_signed_zero)
{
    static sem_lane_t L[NF64 * NF64];
    unsigned n = f64_lanes(L, 0);
    CHECK(sem_run("d.f64 e.f64 a.f64 b.f64",
                  "min.f64 %d, %a, %b;\nmax.f64 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        CHECK_F64(L, i, "min.f64", L[i].d, dminmax_ref(da(&L[i]), db(&L[i]), 0));
        CHECK_F64(L, i, "max.f64", L[i].e, dminmax_ref(da(&L[i]), db(&L[i]), 1));
    }
}

/* abs/neg only touch the sign bit (NaN stays a NaN). */
TEST(sem_f32_f64_abs_neg)
{
    sem_lane_t L[NF32 > NF64 ? NF32 : NF64];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < NF32; i++)
        L[i].a = F32[i];
    CHECK(sem_run("d.f32 e.f32 a.f32",
                  "abs.f32 %d, %a;\nneg.f32 %e, %a;", L, NF32) == 0);
    for (unsigned i = 0; i < NF32; i++) {
        CHECK_F32(L, i, "abs.f32", L[i].d, fabsf(fa(&L[i])));
        CHECK_F32(L, i, "neg.f32", L[i].e, -fa(&L[i]));
    }
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < NF64; i++)
        L[i].a = F64[i];
    CHECK(sem_run("d.f64 e.f64 a.f64",
                  "abs.f64 %d, %a;\nneg.f64 %e, %a;", L, NF64) == 0);
    for (unsigned i = 0; i < NF64; i++) {
        CHECK_F64(L, i, "abs.f64", L[i].d, fabs(da(&L[i])));
        CHECK_F64(L, i, "neg.f64", L[i].e, -da(&L[i]));
    }
}

TEST(sem_f32_abs_neg_ftz)
{
    sem_lane_t L[NF32];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < NF32; i++)
        L[i].a = F32[i];
    CHECK(sem_run("d.f32 e.f32 a.f32",
                  "abs.ftz.f32 %d, %a;\nneg.ftz.f32 %e, %a;", L, NF32) == 0);
    for (unsigned i = 0; i < NF32; i++) {
        CHECK_F32(L, i, "abs.ftz.f32", L[i].d, fabsf(ftz(fa(&L[i]))));
        CHECK_F32(L, i, "neg.ftz.f32", L[i].e, -ftz(fa(&L[i])));
    }
}

/* copysign d, a, b: the magnitude of b with the sign of a. */
TEST(sem_copysign_f32_f64)
{
    static sem_lane_t L[NF64 * NF64];
    unsigned n = f32_lanes(L, 0);
    CHECK(sem_run("d.f32 a.f32 b.f32", "copysign.f32 %d, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        if (isnan(fb(&L[i])))
            continue;
        CHECK_F32(L, i, "copysign.f32", L[i].d, copysignf(fb(&L[i]), fa(&L[i])));
    }
    n = f64_lanes(L, 0);
    CHECK(sem_run("d.f64 a.f64 b.f64", "copysign.f64 %d, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        if (isnan(db(&L[i])))
            continue;
        CHECK_F64(L, i, "copysign.f64", L[i].d, copysign(db(&L[i]), da(&L[i])));
    }
}

/* testp: finite, infinite, number, notanumber, normal, subnormal; the ISA
 * counts +0 and -0 as normal numbers. */
static unsigned testp_ref(double x, int subnormal)
{
    int nan = isnan(x) != 0, inf = isinf(x) != 0;
    int normal = !nan && !inf && !subnormal;
    return (unsigned)(!nan && !inf) | (unsigned)inf << 1 | (unsigned)!nan << 2 |
           (unsigned)nan << 3 | (unsigned)normal << 4 | (unsigned)subnormal << 5;
}

static const char testp_body_fmt[] =
    ".reg .pred %%p;\n.reg .u32 %%t;\nmov.u32 %%d, 0;\n"
    "testp.finite.%1$s %%p, %%a;\nselp.u32 %%t, 1, 0, %%p;\nor.b32 %%d, %%d, %%t;\n"
    "testp.infinite.%1$s %%p, %%a;\nselp.u32 %%t, 2, 0, %%p;\nor.b32 %%d, %%d, %%t;\n"
    "testp.number.%1$s %%p, %%a;\nselp.u32 %%t, 4, 0, %%p;\nor.b32 %%d, %%d, %%t;\n"
    "testp.notanumber.%1$s %%p, %%a;\nselp.u32 %%t, 8, 0, %%p;\nor.b32 %%d, %%d, %%t;\n"
    "testp.normal.%1$s %%p, %%a;\nselp.u32 %%t, 16, 0, %%p;\nor.b32 %%d, %%d, %%t;\n"
    "testp.subnormal.%1$s %%p, %%a;\nselp.u32 %%t, 32, 0, %%p;\nor.b32 %%d, %%d, %%t;\n";

static void testp_body(char *buf, size_t size, const char *type)
{
    /* expand %1$s by hand: C11 snprintf has no positional arguments */
    size_t o = 0;
    for (const char *s = testp_body_fmt; *s && o + 8 < size; s++) {
        if (s[0] == '%' && s[1] == '%') {
            buf[o++] = '%';
            s++;
        } else if (strncmp(s, "%1$s", 4) == 0) {
            size_t l = strlen(type);
            memcpy(buf + o, type, l);
            o += l;
            s += 3;
        } else {
            buf[o++] = *s;
        }
    }
    buf[o] = '\0';
}

TEST(sem_testp_f32_classes)
{
    sem_lane_t L[NF32];
    memset(L, 0, sizeof L);
    /* -inf goes to the last lane: sem_testp_infinite_is_per_lane checks
     * that a -inf does not affect other lanes */
    unsigned k = 0;
    for (unsigned i = 0; i < NF32; i++)
        if (F32[i] != 0xff800000u)
            L[k++].a = F32[i];
    L[k].a = 0xff800000u;
    char body[2048];
    testp_body(body, sizeof body, "f32");
    CHECK(sem_run("d.u32 a.f32", body, L, NF32) == 0);
    for (unsigned i = 0; i < NF32; i++) {
        float x = fa(&L[i]);
        if (x == 0.0f || isnan(x))
            continue; /* sem_testp_zero_is_normal, sem_testp_nan_classes */
        SEM_EQ(L, i, L[i].d, testp_ref(x, fpclassify(x) == FP_SUBNORMAL));
    }
}

TEST(sem_testp_f64_classes)
{
    sem_lane_t L[NF64];
    memset(L, 0, sizeof L);
    unsigned k = 0;
    for (unsigned i = 0; i < NF64; i++)
        if (F64[i] != 0xfff0000000000000ull)
            L[k++].a = F64[i];
    L[k].a = 0xfff0000000000000ull;
    char body[2048];
    testp_body(body, sizeof body, "f64");
    CHECK(sem_run("d.u32 a.f64", body, L, NF64) == 0);
    for (unsigned i = 0; i < NF64; i++) {
        double x = da(&L[i]);
        if (x == 0.0 || isnan(x))
            continue; /* sem_testp_zero_is_normal, sem_testp_nan_classes */
        SEM_EQ(L, i, L[i].d, testp_ref(x, fpclassify(x) == FP_SUBNORMAL));
    }
}

/* testp is per lane: a -inf in lane k makes testp.infinite true in lane k
 * only, whatever the other lanes hold. */
TEST(sem_testp_infinite_is_per_lane)
{
    static const char body[] =
        ".reg .pred %p, %q;\n"
        "testp.infinite.f32 %p, %a;\nselp.u32 %d, 1, 0, %p;\n"
        "testp.infinite.f64 %q, %b;\nselp.u32 %e, 1, 0, %q;";
    static const unsigned where[] = { 0, 5, 19, 31 };
    for (unsigned w = 0; w < 4; w++) {
        sem_lane_t L[32];
        memset(L, 0, sizeof L);
        for (unsigned i = 0; i < 32; i++) {
            L[i].a = 0x3f800000u;            /* 1.0f */
            L[i].b = 0x3ff0000000000000ull;  /* 1.0 */
        }
        L[where[w]].a = 0xff800000u;           /* -inf */
        L[where[w]].b = 0xfff0000000000000ull; /* -inf */
        CHECK(sem_run("d.u32 e.u32 a.f32 b.f64", body, L, 32) == 0);
        for (unsigned i = 0; i < 32; i++) {
            CHECK_MSG(L[i].d == (i == where[w]),
                      "testp.infinite.f32 with -inf in lane %u: lane %u "
                      "(1.0f) gives %llu", where[w], i,
                      (unsigned long long)L[i].d);
            CHECK_MSG(L[i].e == (i == where[w]),
                      "testp.infinite.f64 with -inf in lane %u: lane %u "
                      "(1.0) gives %llu", where[w], i,
                      (unsigned long long)L[i].e);
        }
    }
}

/* A NaN is only .notanumber: not finite, not infinite, not a number,
 * neither normal nor subnormal. */
TEST(sem_testp_nan_classes)
{
    sem_lane_t L[4];
    memset(L, 0, sizeof L);
    L[0].a = 0x7fc00000u;
    L[1].a = 0xffc00000u;
    L[2].a = 0x7f800001u;
    L[3].a = 0x7fffffffu;
    char body[2048];
    testp_body(body, sizeof body, "f32");
    CHECK(sem_run("d.u32 a.f32", body, L, 4) == 0);
    for (unsigned i = 0; i < 4; i++)
        SEM_EQ(L, i, L[i].d, 0x8);
    memset(L, 0, sizeof L);
    L[0].a = 0x7ff8000000000000ull;
    L[1].a = 0xfff8000000000000ull;
    L[2].a = 0x7ff0000000000001ull;
    L[3].a = 0x7fffffffffffffffull;
    testp_body(body, sizeof body, "f64");
    CHECK(sem_run("d.u32 a.f64", body, L, 4) == 0);
    for (unsigned i = 0; i < 4; i++)
        SEM_EQ(L, i, L[i].d, 0x8);
}

/* The ISA (testp): "As a special case, positive and negative zero are
 * considered normal numbers."  So testp.normal is true and
 * testp.subnormal false for +-0, in f32 and f64. */
TEST(sem_testp_zero_is_normal)
{
    sem_lane_t L[2];
    memset(L, 0, sizeof L);
    L[1].a = 0x80000000u;
    char body[2048];
    testp_body(body, sizeof body, "f32");
    CHECK(sem_run("d.u32 a.f32", body, L, 2) == 0);
    /* finite | number | normal */
    SEM_EQ(L, 0, L[0].d, 0x15);
    SEM_EQ(L, 1, L[1].d, 0x15);
    memset(L, 0, sizeof L);
    L[1].a = 0x8000000000000000ull;
    testp_body(body, sizeof body, "f64");
    CHECK(sem_run("d.u32 a.f64", body, L, 2) == 0);
    SEM_EQ(L, 0, L[0].d, 0x15);
    SEM_EQ(L, 1, L[1].d, 0x15);
}

/* ------------------------------------------------------------------ */
/* rcp / sqrt: exact forms                                             */
/* ------------------------------------------------------------------ */

TEST(sem_f32_rcp_sqrt_rounding_modes)
{
    sem_lane_t L[NF32];
    for (int m = 0; m < 4; m++) {
        memset(L, 0, sizeof L);
        for (unsigned i = 0; i < NF32; i++)
            L[i].a = F32[i];
        char body[128], what[32];
        snprintf(body, sizeof body,
                 "rcp%s.f32 %%d, %%a;\nsqrt%s.f32 %%e, %%a;", rnd_names[m],
                 rnd_names[m]);
        CHECK_MSG(sem_run("d.f32 e.f32 a.f32", body, L, NF32) == 0, "%s", body);
        for (unsigned i = 0; i < NF32; i++) {
            snprintf(what, sizeof what, "rcp%s.f32", rnd_names[m]);
            CHECK_F32(L, i, what, L[i].d, sem_fdiv_r(1.0f, fa(&L[i]), m));
            snprintf(what, sizeof what, "sqrt%s.f32", rnd_names[m]);
            CHECK_F32(L, i, what, L[i].e, sem_fsqrt_r(fa(&L[i]), m));
        }
    }
}

TEST(sem_f64_rcp_sqrt_rounding_modes)
{
    sem_lane_t L[NF64];
    for (int m = 0; m < 4; m++) {
        memset(L, 0, sizeof L);
        for (unsigned i = 0; i < NF64; i++)
            L[i].a = F64[i];
        char body[128], what[32];
        snprintf(body, sizeof body,
                 "rcp%s.f64 %%d, %%a;\nsqrt%s.f64 %%e, %%a;", rnd_names[m],
                 rnd_names[m]);
        CHECK_MSG(sem_run("d.f64 e.f64 a.f64", body, L, NF64) == 0, "%s", body);
        for (unsigned i = 0; i < NF64; i++) {
            snprintf(what, sizeof what, "rcp%s.f64", rnd_names[m]);
            CHECK_F64(L, i, what, L[i].d, sem_ddiv_r(1.0, da(&L[i]), m));
            snprintf(what, sizeof what, "sqrt%s.f64", rnd_names[m]);
            CHECK_F64(L, i, what, L[i].e, sem_dsqrt_r(da(&L[i]), m));
        }
    }
}

/* ------------------------------------------------------------------ */
/* approximations: special values exactly, finite values within the
 * ISA's stated error bounds (with some slack)                         */
/* ------------------------------------------------------------------ */

/* positive and negative finite inputs of moderate size */
static unsigned approx_inputs(sem_lane_t *L, float lo, float hi, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        float t = (float)i / (float)(n - 1);
        float x = lo + (hi - lo) * t;
        memset(&L[i], 0, sizeof L[i]);
        L[i].a = sem_f2u(x);
    }
    return n;
}

static int rel_ok(double got, double want, double tol)
{
    if (want == 0.0)
        return fabs(got) <= tol;
    return fabs(got - want) <= tol * fabs(want);
}

TEST(sem_f32_rcp_sqrt_rsqrt_approx_tolerance)
{
    enum { N = 200 };
    sem_lane_t L[N];
    unsigned n = approx_inputs(L, 0.001f, 5000.0f, N);
    L[0].a = 0x3f800000u;     /* 1 */
    L[1].a = 0x00800000u;     /* FLT_MIN */
    L[2].a = 0x7e800000u;     /* 2^126 */
    L[3].a = 0x40800000u;     /* 4 */
    /* rcp.approx: <= 1 ulp in the ISA; sqrt.approx: rel 2^-23;
     * rsqrt.approx: rel 2^-22.9.  Allowed here: 2, 3 and 4 ulp. */
    CHECK(sem_run("d.f32 e.b64 a.f32",
                  ".reg .f32 %s, %r;\n"
                  "rcp.approx.f32 %d, %a;\n"
                  "sqrt.approx.f32 %s, %a;\n"
                  "rsqrt.approx.f32 %r, %a;\n"
                  "mov.b64 %e, {%s, %r};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        float x = fa(&L[i]);
        float rc = sem_u2f((uint32_t)L[i].d);
        float sq = sem_u2f((uint32_t)L[i].e);
        float rs = sem_u2f((uint32_t)(L[i].e >> 32));
        float wrc = (float)(1.0 / x), wsq = sqrtf(x),
              wrs = (float)(1.0 / sqrt((double)x));
        CHECK_MSG(sem_ulp_f32(rc, wrc) <= 2, "rcp.approx.f32(%a) = %a, want ~%a",
                  (double)x, (double)rc, (double)wrc);
        CHECK_MSG(sem_ulp_f32(sq, wsq) <= 3, "sqrt.approx.f32(%a) = %a, want ~%a",
                  (double)x, (double)sq, (double)wsq);
        CHECK_MSG(sem_ulp_f32(rs, wrs) <= 4, "rsqrt.approx.f32(%a) = %a, want ~%a",
                  (double)x, (double)rs, (double)wrs);
    }
}

TEST(sem_f32_rcp_sqrt_rsqrt_approx_special_values)
{
    /* x, rcp, sqrt, rsqrt (0x7fffffff stands for any NaN) */
    static const uint32_t c[][4] = {
        { 0x00000000u, 0x7f800000u, 0x00000000u, 0x7f800000u },
        { 0x80000000u, 0xff800000u, 0x80000000u, 0xff800000u },
        { 0x7f800000u, 0x00000000u, 0x7f800000u, 0x00000000u },
        { 0xff800000u, 0x80000000u, 0x7fffffffu, 0x7fffffffu },
        { 0x7fc00000u, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu },
        { 0xbf800000u, 0 /* unchecked */, 0x7fffffffu, 0x7fffffffu },
    };
    enum { N = sizeof c / sizeof *c };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < N; i++)
        L[i].a = c[i][0];
    CHECK(sem_run("d.f32 e.b64 a.f32",
                  ".reg .f32 %s, %r;\n"
                  "rcp.approx.f32 %d, %a;\n"
                  "sqrt.approx.f32 %s, %a;\n"
                  "rsqrt.approx.f32 %r, %a;\n"
                  "mov.b64 %e, {%s, %r};", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        if (c[i][0] != 0xbf800000u)
            CHECK_F32(L, i, "rcp.approx.f32", L[i].d, sem_u2f(c[i][1]));
        CHECK_F32(L, i, "sqrt.approx.f32", (uint32_t)L[i].e, sem_u2f(c[i][2]));
        CHECK_F32(L, i, "rsqrt.approx.f32", L[i].e >> 32, sem_u2f(c[i][3]));
    }
}

TEST(sem_f32_ex2_lg2_approx)
{
    enum { N = 200 };
    sem_lane_t L[N];
    unsigned n = approx_inputs(L, -30.0f, 30.0f, N);
    CHECK(sem_run("d.f32 e.f32 a.f32",
                  ".reg .f32 %x;\n"
                  "ex2.approx.f32 %d, %a;\n"
                  "abs.f32 %x, %a;\n"
                  "lg2.approx.f32 %e, %x;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        double x = fa(&L[i]);
        double e = sem_u2f((uint32_t)L[i].d), g = sem_u2f((uint32_t)L[i].e);
        /* ex2: relative error 2^-22.5 in the ISA; allowed 2^-21 */
        CHECK_MSG(rel_ok(e, exp2(x), 0x1p-21), "ex2.approx.f32(%a) = %a, want ~%a",
                  x, e, exp2(x));
        /* lg2: absolute 2^-22.6 near 1, relative 2^-22 elsewhere; allowed
         * 2^-21 * max(1, |lg2 x|) */
        double w = log2(fabs(x));
        if (fabs(x) > 0.0) {
            double tol = 0x1p-21 * (fabs(w) > 1.0 ? fabs(w) : 1.0);
            CHECK_MSG(fabs(g - w) <= tol, "lg2.approx.f32(%a) = %a, want ~%a",
                      fabs(x), g, w);
        }
    }
    /* special values (the ISA's tables) */
    static const uint32_t s[][3] = {
        /* x, ex2(x), lg2(x) */
        { 0xff800000u, 0x00000000u, 0x7fffffffu },
        { 0x7f800000u, 0x7f800000u, 0x7f800000u },
        { 0x00000000u, 0x3f800000u, 0xff800000u },
        { 0x80000000u, 0x3f800000u, 0xff800000u },
        { 0x7fc00000u, 0x7fffffffu, 0x7fffffffu },
    };
    enum { S = sizeof s / sizeof *s };
    sem_lane_t M[S];
    memset(M, 0, sizeof M);
    for (unsigned i = 0; i < S; i++)
        M[i].a = s[i][0];
    CHECK(sem_run("d.f32 e.f32 a.f32",
                  "ex2.approx.f32 %d, %a;\nlg2.approx.f32 %e, %a;", M, S) == 0);
    for (unsigned i = 0; i < S; i++) {
        CHECK_F32(M, i, "ex2.approx.f32", M[i].d, sem_u2f(s[i][1]));
        CHECK_F32(M, i, "lg2.approx.f32", M[i].e, sem_u2f(s[i][2]));
    }
}

TEST(sem_f32_sin_cos_approx)
{
    enum { N = 256 };
    sem_lane_t L[N];
    unsigned n = approx_inputs(L, -3.14159f, 3.14159f, N);
    CHECK(sem_run("d.f32 e.f32 a.f32",
                  "sin.approx.f32 %d, %a;\ncos.approx.f32 %e, %a;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        double x = fa(&L[i]);
        double s = sem_u2f((uint32_t)L[i].d), c = sem_u2f((uint32_t)L[i].e);
        /* ISA: absolute error 2^-20.9 in [-pi, pi]; allowed 2^-19 */
        CHECK_MSG(fabs(s - sin(x)) <= 0x1p-19, "sin.approx.f32(%a) = %a, want ~%a",
                  x, s, sin(x));
        CHECK_MSG(fabs(c - cos(x)) <= 0x1p-19, "cos.approx.f32(%a) = %a, want ~%a",
                  x, c, cos(x));
    }
    sem_lane_t M[5];
    memset(M, 0, sizeof M);
    M[0].a = 0x7f800000u;
    M[1].a = 0xff800000u;
    M[2].a = 0x7fc00000u;
    M[3].a = 0x00000000u;
    M[4].a = 0x80000000u;
    CHECK(sem_run("d.f32 e.f32 a.f32",
                  "sin.approx.f32 %d, %a;\ncos.approx.f32 %e, %a;", M, 5) == 0);
    for (unsigned i = 0; i < 3; i++) {
        CHECK_F32(M, i, "sin.approx.f32", M[i].d, NAN);
        CHECK_F32(M, i, "cos.approx.f32", M[i].e, NAN);
    }
    CHECK_F32(M, 3, "sin.approx.f32", M[3].d, 0.0f);
    CHECK_F32(M, 4, "sin.approx.f32", M[4].d, -0.0f);
    CHECK_F32(M, 3, "cos.approx.f32", M[3].e, 1.0f);
    CHECK_F32(M, 4, "cos.approx.f32", M[4].e, 1.0f);
}

TEST(sem_f32_tanh_approx)
{
    enum { N = 128 };
    sem_lane_t L[N];
    unsigned n = approx_inputs(L, -12.0f, 12.0f, N);
    CHECK(sem_run("d.f32 a.f32", "tanh.approx.f32 %d, %a;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        double x = fa(&L[i]), t = sem_u2f((uint32_t)L[i].d);
        /* ISA: relative error 2^-10.987; allowed 2^-10 */
        CHECK_MSG(rel_ok(t, tanh(x), 0x1p-10), "tanh.approx.f32(%a) = %a, want ~%a",
                  x, t, tanh(x));
    }
}

TEST(sem_f32_div_approx_and_full)
{
    static sem_lane_t L[NF32 * NF32];
    unsigned n = f32_lanes(L, 0);
    CHECK(sem_run("d.f32 e.f32 a.f32 b.f32",
                  "div.approx.f32 %d, %a, %b;\ndiv.full.f32 %e, %a, %b;", L,
                  n) == 0);
    for (unsigned i = 0; i < n; i++) {
        float a = fa(&L[i]), b = fb(&L[i]);
        float w = sem_fdiv_r(a, b, 0);
        /* only where both operands and the quotient are normal numbers
         * (div.approx's bound holds for |b| in [2^-126, 2^126]) */
        if (!isnormal(a) || !isnormal(b) || !isnormal(w) ||
            fabsf(b) > 0x1p126f)
            continue;
        float ga = sem_u2f((uint32_t)L[i].d), gf = sem_u2f((uint32_t)L[i].e);
        CHECK_MSG(sem_ulp_f32(ga, w) <= 2, "div.approx.f32(%a, %a) = %a, want ~%a",
                  (double)a, (double)b, (double)ga, (double)w);
        CHECK_MSG(sem_ulp_f32(gf, w) <= 2, "div.full.f32(%a, %a) = %a, want ~%a",
                  (double)a, (double)b, (double)gf, (double)w);
    }
}

TEST(sem_f64_rsqrt_rcp_approx)
{
    enum { N = 100 };
    sem_lane_t L[N];
    for (unsigned i = 0; i < N; i++) {
        memset(&L[i], 0, sizeof L[i]);
        L[i].a = sem_d2u(0.37 + 123.5 * i);
    }
    CHECK(sem_run("d.f64 e.f64 a.f64",
                  "rsqrt.approx.f64 %d, %a;\nrcp.approx.ftz.f64 %e, %a;", L,
                  N) == 0);
    for (unsigned i = 0; i < N; i++) {
        double x = da(&L[i]), r = sem_u2d(L[i].d), c = sem_u2d(L[i].e);
        CHECK_MSG(rel_ok(r, 1.0 / sqrt(x), 0x1p-18), "rsqrt.approx.f64(%a) = %a",
                  x, r);
        CHECK_MSG(rel_ok(c, 1.0 / x, 0x1p-18), "rcp.approx.ftz.f64(%a) = %a",
                  x, c);
    }
    sem_lane_t M[4];
    memset(M, 0, sizeof M);
    M[0].a = sem_d2u(0.0);
    M[1].a = sem_d2u(INFINITY);
    M[2].a = sem_d2u(-1.0);
    M[3].a = sem_d2u(NAN);
    CHECK(sem_run("d.f64 a.f64", "rsqrt.approx.f64 %d, %a;", M, 4) == 0);
    CHECK_F64(M, 0, "rsqrt.approx.f64", M[0].d, INFINITY);
    CHECK_F64(M, 1, "rsqrt.approx.f64", M[1].d, 0.0);
    CHECK_F64(M, 2, "rsqrt.approx.f64", M[2].d, NAN);
    CHECK_F64(M, 3, "rsqrt.approx.f64", M[3].d, NAN);
}

/* ------------------------------------------------------------------ */
/* .ftz combined with a directed rounding mode                         */
/* ------------------------------------------------------------------ */

TEST(sem_f32_ftz_with_rounding_modes)
{
    static sem_lane_t L[NF32 * NF32];
    unsigned n = f32_lanes(L, 1);
    for (int m = 0; m < 4; m++) {
        char body[160], what[32];
        snprintf(body, sizeof body,
                 "add%s.ftz.f32 %%d, %%a, %%b;\nfma%s.ftz.f32 %%e, %%a, %%b, %%c;",
                 rnd_names[m], rnd_names[m]);
        CHECK_MSG(sem_run("d.f32 e.f32 a.f32 b.f32 c.f32", body, L, n) == 0, "%s",
                  body);
        for (unsigned i = 0; i < n; i++) {
            float a = ftz(fa(&L[i])), b = ftz(fb(&L[i])), c = ftz(fc(&L[i]));
            snprintf(what, sizeof what, "add%s.ftz.f32", rnd_names[m]);
            CHECK_F32(L, i, what, L[i].d, ftz(sem_fadd_r(a, b, m)));
            snprintf(what, sizeof what, "fma%s.ftz.f32", rnd_names[m]);
            CHECK_F32(L, i, what, L[i].e, ftz(sem_ffma_r(a, b, c, m)));
        }
    }
}

/* The host references themselves, against hand-derived values: they are
 * only meaningful if fesetround really takes effect around them. */
TEST(sem_reference_rounding_self_check)
{
    const float one = 1.0f, tie = 0x1p-24f;
    CHECK_EQ(sem_f2u(sem_fadd_r(one, tie, 0)), 0x3f800000u);
    CHECK_EQ(sem_f2u(sem_fadd_r(one, tie, 1)), 0x3f800000u);
    CHECK_EQ(sem_f2u(sem_fadd_r(one, tie, 2)), 0x3f800000u);
    CHECK_EQ(sem_f2u(sem_fadd_r(one, tie, 3)), 0x3f800001u);
    CHECK_EQ(sem_f2u(sem_fadd_r(-one, -tie, 2)), 0xbf800001u);
    CHECK_EQ(sem_f2u(sem_fdiv_r(1.0f, 3.0f, 0)), 0x3eaaaaabu);
    CHECK_EQ(sem_f2u(sem_fdiv_r(1.0f, 3.0f, 1)), 0x3eaaaaaau);
    CHECK_EQ(sem_f2u(sem_fmul_r(0x1.000002p0f, 0x1.000002p0f, 3)), 0x3f800003u);
    CHECK_EQ(sem_f2u(sem_fmul_r(0x1.000002p0f, 0x1.000002p0f, 1)), 0x3f800002u);
    CHECK_EQ(sem_f2u(sem_i2f_r(16777217, 3)), sem_f2u(16777218.0f));
    CHECK_EQ(sem_f2u(sem_i2f_r(16777217, 0)), sem_f2u(16777216.0f));
    CHECK_EQ(sem_f2u(sem_u2f_r(UINT64_MAX, 1)), 0x5f7fffffu);
    CHECK_EQ(sem_f2u(sem_u2f_r(UINT64_MAX, 0)), 0x5f800000u);
    CHECK_EQ(sem_f2u(sem_d2f_r(1.0 + 0x1p-24, 3)), 0x3f800001u);
    CHECK_EQ(sem_f2u(sem_d2f_r(1e300, 1)), 0x7f7fffffu);
    CHECK_EQ(sem_d2u(sem_dadd_r(1.0, 0x1p-53, 3)), 0x3ff0000000000001ull);
    CHECK_EQ(sem_d2u(sem_dsqrt_r(2.0, 1)), 0x3ff6a09e667f3bccull);
    CHECK_EQ(sem_d2u(sem_dsqrt_r(2.0, 3)), 0x3ff6a09e667f3bcdull);
    CHECK_EQ(sem_f2u(sem_ffma_r(0x1.001p0f, 0x1.001p0f, -1.0f, 0)), 0x3a000400u);
}
