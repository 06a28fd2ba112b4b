/* test_sem_int.c: semantics of the integer arithmetic instructions
 * (add/sub and their .sat and carry forms, mul/mad in all widths, mul24,
 * mad24, div/rem, abs/neg, min/max, sad) checked lane by lane against
 * references written from the PTX ISA in plain C. */
#include <stdint.h>
#include <string.h>

#include "../harness.h"
#include "sem_helpers.h"

#define NV32 SEM_NV32
#define NV64 SEM_NV64

static int32_t s32(uint64_t x) { return (int32_t)(uint32_t)x; }
static int64_t s64(uint64_t x) { return (int64_t)x; }
static int16_t s16(uint64_t x) { return (int16_t)(uint16_t)x; }

static int64_t clamp_s32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
}

/* ------------------------------------------------------------------ */
/* add / sub                                                           */
/* ------------------------------------------------------------------ */

TEST(sem_add_u32_wraps)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, NULL, 0);
    CHECK(sem_run("d.u32 a.u32 b.u32", "add.u32 %d, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++)
        SEM_EQ(L, i, L[i].d, (uint32_t)(L[i].a + L[i].b));
}

TEST(sem_add_s32_and_sub_s32_wrap)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, NULL, 0);
    CHECK(sem_run("d.s32 e.s32 a.s32 b.s32",
                  "add.s32 %d, %a, %b;\nsub.s32 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        SEM_EQ(L, i, L[i].d, (uint32_t)(L[i].a + L[i].b));
        SEM_EQ(L, i, L[i].e, (uint32_t)(L[i].a - L[i].b));
    }
}

TEST(sem_add_sat_s32_clamps)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, NULL, 0);
    CHECK(sem_run("d.s32 e.s32 a.s32 b.s32",
                  "add.sat.s32 %d, %a, %b;\nsub.sat.s32 %e, %a, %b;", L,
                  n) == 0);
    for (unsigned i = 0; i < n; i++) {
        int64_t a = s32(L[i].a), b = s32(L[i].b);
        SEM_EQ(L, i, L[i].d, (uint32_t)clamp_s32(a + b));
        SEM_EQ(L, i, L[i].e, (uint32_t)clamp_s32(a - b));
    }
}

TEST(sem_add_sub_64bit_wrap)
{
    static sem_lane_t L[NV64 * NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, sem_v64, NV64, NULL, 0);
    CHECK(sem_run("d.u64 e.s64 a.u64 b.u64",
                  ".reg .s64 %x, %y;\nadd.u64 %d, %a, %b;\n"
                  "mov.b64 %x, %a;\nmov.b64 %y, %b;\nsub.s64 %e, %x, %y;",
                  L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        SEM_EQ(L, i, L[i].d, L[i].a + L[i].b);
        SEM_EQ(L, i, L[i].e, L[i].a - L[i].b);
    }
}

TEST(sem_add_sub_u16_wrap)
{
    static const uint64_t v[] = { 0, 1, 0x7fff, 0x8000, 0xffff, 0x1234,
                                  0xfffe, 0x00ff };
    sem_lane_t L[64];
    unsigned n = sem_cross(L, v, 8, v, 8, NULL, 0);
    CHECK(sem_run("d.u16 e.s16 a.u16 b.u16",
                  ".reg .s16 %x, %y;\nadd.u16 %d, %a, %b;\n"
                  "mov.b16 %x, %a;\nmov.b16 %y, %b;\nsub.s16 %e, %x, %y;",
                  L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        SEM_EQ(L, i, L[i].d, (uint16_t)(L[i].a + L[i].b));
        SEM_EQ(L, i, L[i].e, (uint16_t)(L[i].a - L[i].b));
    }
}

/* ---- carry chains ---- */

/* A 64-bit add out of two 32-bit halves, and the carry out of bit 63. */
TEST(sem_addc_64bit_from_halves)
{
    static sem_lane_t L[NV64 * NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, sem_v64, NV64, NULL, 0);
    CHECK(sem_run("d.u64 e.u32 a.u64 b.u64",
                  ".reg .b32 %al, %ah, %bl, %bh, %dl, %dh;\n"
                  "mov.b64 {%al, %ah}, %a;\n"
                  "mov.b64 {%bl, %bh}, %b;\n"
                  "add.cc.u32 %dl, %al, %bl;\n"
                  "addc.cc.u32 %dh, %ah, %bh;\n"
                  "addc.u32 %e, 0, 0;\n"
                  "mov.b64 %d, {%dl, %dh};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        unsigned __int128 s = (unsigned __int128)L[i].a + L[i].b;
        SEM_EQ(L, i, L[i].d, (uint64_t)s);
        SEM_EQ(L, i, L[i].e, (uint64_t)(s >> 64));
    }
}

/* A 96-bit add: X = {b.lo32, a.hi32, a.lo32}, Y = {c.hi32, c.lo32,
 * b.hi32}; the result's low 64 bits in d, bits 95:64 and the carry out
 * (as bit 32) in e. */
TEST(sem_addc_96bit_chain)
{
    static sem_lane_t L[NV64 * NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, sem_v64, NV64, sem_v64, NV64);
    CHECK(sem_run("d.u64 e.u64 a.u64 b.u64 c.u64",
                  ".reg .b32 %x0, %x1, %x2, %y0, %y1, %y2, %r0, %r1, %r2, %k;\n"
                  "mov.b64 {%x0, %x1}, %a;\n"
                  "mov.b64 {%x2, %y0}, %b;\n"
                  "mov.b64 {%y1, %y2}, %c;\n"
                  "add.cc.u32 %r0, %x0, %y0;\n"
                  "addc.cc.u32 %r1, %x1, %y1;\n"
                  "addc.cc.u32 %r2, %x2, %y2;\n"
                  "addc.u32 %k, 0, 0;\n"
                  "mov.b64 %d, {%r0, %r1};\n"
                  "mov.b64 %e, {%r2, %k};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        unsigned __int128 x = (unsigned __int128)(uint32_t)L[i].b << 64 |
                              L[i].a;
        unsigned __int128 y = (unsigned __int128)L[i].c << 32 |
                              (L[i].b >> 32);
        unsigned __int128 s = x + y;
        SEM_EQ(L, i, L[i].d, (uint64_t)s);
        SEM_EQ(L, i, L[i].e, (uint64_t)(s >> 64) & 0x1ffffffffull);
    }
}

/* A 128-bit add from four addc steps on 64-bit halves: {b, a} + {c, a}. */
TEST(sem_addc_128bit_u64_chain)
{
    static sem_lane_t L[NV64 * NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, sem_v64, NV64, sem_v64, NV64);
    CHECK(sem_run("d.u64 e.u64 a.u64 b.u64 c.u64",
                  "add.cc.u64 %d, %a, %a;\n"
                  "addc.u64 %e, %b, %c;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        unsigned __int128 x = (unsigned __int128)L[i].b << 64 | L[i].a;
        unsigned __int128 y = (unsigned __int128)L[i].c << 64 | L[i].a;
        unsigned __int128 s = x + y;
        SEM_EQ(L, i, L[i].d, (uint64_t)s);
        SEM_EQ(L, i, L[i].e, (uint64_t)(s >> 64));
    }
}

/* A 64-bit subtraction from halves; the borrow out is read with
 * subc.u32 0, 0 (= 0 - (0 + CF): all ones when the subtraction wrapped). */
TEST(sem_subc_64bit_from_halves)
{
    static sem_lane_t L[NV64 * NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, sem_v64, NV64, NULL, 0);
    CHECK(sem_run("d.u64 e.u32 a.u64 b.u64",
                  ".reg .b32 %al, %ah, %bl, %bh, %dl, %dh;\n"
                  "mov.b64 {%al, %ah}, %a;\n"
                  "mov.b64 {%bl, %bh}, %b;\n"
                  "sub.cc.u32 %dl, %al, %bl;\n"
                  "subc.cc.u32 %dh, %ah, %bh;\n"
                  "subc.u32 %e, 0, 0;\n"
                  "mov.b64 %d, {%dl, %dh};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        SEM_EQ(L, i, L[i].d, L[i].a - L[i].b);
        SEM_EQ(L, i, L[i].e, L[i].a < L[i].b ? 0xffffffffu : 0);
    }
}

/* a*b + c for u32 a, b and u64 c, from mad.lo.cc + madc.hi.cc; the carry
 * out of bit 63 lands in e. */
TEST(sem_madc_wide_product_plus_c)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, sem_v64, NV64);
    CHECK(sem_run("d.u64 e.u32 a.u32 b.u32 c.u64",
                  ".reg .b32 %cl, %ch, %dl, %dh;\n"
                  "mov.b64 {%cl, %ch}, %c;\n"
                  "mad.lo.cc.u32 %dl, %a, %b, %cl;\n"
                  "madc.hi.cc.u32 %dh, %a, %b, %ch;\n"
                  "addc.u32 %e, 0, 0;\n"
                  "mov.b64 %d, {%dl, %dh};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        unsigned __int128 t = (unsigned __int128)((uint64_t)(uint32_t)L[i].a *
                                                  (uint32_t)L[i].b) + L[i].c;
        SEM_EQ(L, i, L[i].d, (uint64_t)t);
        SEM_EQ(L, i, L[i].e, (uint64_t)(t >> 64));
    }
}

/* madc.lo consumes the carry set by add.cc (CF = a != 0 after a + ~0). */
TEST(sem_madc_lo_uses_carry_in)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, sem_v32, NV32);
    CHECK(sem_run("d.u32 a.u32 b.u32 c.u32",
                  ".reg .u32 %x;\n"
                  "add.cc.u32 %x, %a, 0xffffffff;\n"
                  "madc.lo.u32 %d, %a, %b, %c;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = (uint32_t)L[i].a, b = (uint32_t)L[i].b;
        uint32_t want = a * b + (uint32_t)L[i].c + (a != 0);
        SEM_EQ(L, i, L[i].d, want);
    }
}

/* ------------------------------------------------------------------ */
/* mul / mad                                                           */
/* ------------------------------------------------------------------ */

TEST(sem_mul_u32_lo_hi_wide)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, NULL, 0);
    CHECK(sem_run("d.u64 e.u64 a.u32 b.u32",
                  ".reg .u32 %lo, %hi;\n"
                  "mul.lo.u32 %lo, %a, %b;\n"
                  "mul.hi.u32 %hi, %a, %b;\n"
                  "mov.b64 %e, {%lo, %hi};\n"
                  "mul.wide.u32 %d, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t p = (uint64_t)(uint32_t)L[i].a * (uint32_t)L[i].b;
        SEM_EQ(L, i, L[i].d, p);
        SEM_EQ(L, i, L[i].e, p);
    }
}

TEST(sem_mul_s32_lo_hi_wide)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, NULL, 0);
    CHECK(sem_run("d.s64 e.u64 a.s32 b.s32",
                  ".reg .s32 %lo, %hi;\n"
                  "mul.lo.s32 %lo, %a, %b;\n"
                  "mul.hi.s32 %hi, %a, %b;\n"
                  "mov.b64 %e, {%lo, %hi};\n"
                  "mul.wide.s32 %d, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        int64_t p = (int64_t)s32(L[i].a) * s32(L[i].b);
        SEM_EQ(L, i, L[i].d, (uint64_t)p);
        SEM_EQ(L, i, L[i].e, (uint64_t)p);
    }
}

TEST(sem_mul_u64_lo_hi)
{
    static sem_lane_t L[NV64 * NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, sem_v64, NV64, NULL, 0);
    CHECK(sem_run("d.u64 e.u64 a.u64 b.u64",
                  "mul.lo.u64 %d, %a, %b;\nmul.hi.u64 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        unsigned __int128 p = (unsigned __int128)L[i].a * L[i].b;
        SEM_EQ(L, i, L[i].d, (uint64_t)p);
        SEM_EQ(L, i, L[i].e, (uint64_t)(p >> 64));
    }
}

TEST(sem_mul_s64_lo_hi)
{
    static sem_lane_t L[NV64 * NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, sem_v64, NV64, NULL, 0);
    CHECK(sem_run("d.s64 e.s64 a.s64 b.s64",
                  "mul.lo.s64 %d, %a, %b;\nmul.hi.s64 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        __int128 p = (__int128)s64(L[i].a) * s64(L[i].b);
        SEM_EQ(L, i, L[i].d, (uint64_t)p);
        SEM_EQ(L, i, L[i].e, (uint64_t)((unsigned __int128)p >> 64));
    }
}

TEST(sem_mul_wide_u16_s16)
{
    static const uint64_t v[] = { 0, 1, 0x7fff, 0x8000, 0xffff, 0x1234,
                                  0xfffe, 0x00ff };
    sem_lane_t L[64];
    unsigned n = sem_cross(L, v, 8, v, 8, NULL, 0);
    CHECK(sem_run("d.u32 e.s32 a.u16 b.u16",
                  ".reg .s16 %x, %y;\n"
                  "mul.wide.u16 %d, %a, %b;\n"
                  "mov.b16 %x, %a;\nmov.b16 %y, %b;\n"
                  "mul.wide.s16 %e, %x, %y;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        SEM_EQ(L, i, L[i].d, (uint32_t)((uint32_t)L[i].a * (uint32_t)L[i].b));
        SEM_EQ(L, i, L[i].e,
               (uint32_t)((int32_t)s16(L[i].a) * (int32_t)s16(L[i].b)));
    }
}

TEST(sem_mad_lo_hi_32)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, sem_v32, NV32);
    CHECK(sem_run("d.u32 e.s32 a.u32 b.u32 c.u32",
                  ".reg .s32 %x, %y, %z;\n"
                  "mad.lo.u32 %d, %a, %b, %c;\n"
                  "mov.b32 %x, %a;\nmov.b32 %y, %b;\nmov.b32 %z, %c;\n"
                  "mad.hi.s32 %e, %x, %y, %z;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = (uint32_t)L[i].a, b = (uint32_t)L[i].b,
                 c = (uint32_t)L[i].c;
        SEM_EQ(L, i, L[i].d, (uint32_t)(a * b + c));
        int64_t p = (int64_t)s32(a) * s32(b);
        SEM_EQ(L, i, L[i].e, (uint32_t)((uint32_t)((uint64_t)p >> 32) + c));
    }
}

TEST(sem_mad_hi_u32)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, sem_v32, NV32);
    CHECK(sem_run("d.u32 a.u32 b.u32 c.u32", "mad.hi.u32 %d, %a, %b, %c;", L,
                  n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t p = (uint64_t)(uint32_t)L[i].a * (uint32_t)L[i].b;
        SEM_EQ(L, i, L[i].d, (uint32_t)((uint32_t)(p >> 32) + (uint32_t)L[i].c));
    }
}

TEST(sem_mad_wide_u32_s32)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, sem_v64, NV64);
    CHECK(sem_run("d.u64 e.s64 a.u32 b.u32 c.u64",
                  ".reg .s32 %x, %y;\n.reg .s64 %z;\n"
                  "mad.wide.u32 %d, %a, %b, %c;\n"
                  "mov.b32 %x, %a;\nmov.b32 %y, %b;\nmov.b64 %z, %c;\n"
                  "mad.wide.s32 %e, %x, %y, %z;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t pu = (uint64_t)(uint32_t)L[i].a * (uint32_t)L[i].b;
        SEM_EQ(L, i, L[i].d, pu + L[i].c);
        int64_t ps = (int64_t)s32(L[i].a) * s32(L[i].b);
        SEM_EQ(L, i, L[i].e, (uint64_t)ps + L[i].c);
    }
}

TEST(sem_mad_64bit_lo_hi)
{
    static sem_lane_t L[NV64 * NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, sem_v64, NV64, sem_v64, NV64);
    CHECK(sem_run("d.u64 e.s64 a.u64 b.u64 c.u64",
                  ".reg .s64 %x, %y, %z;\n"
                  "mad.hi.u64 %d, %a, %b, %c;\n"
                  "mov.b64 %x, %a;\nmov.b64 %y, %b;\nmov.b64 %z, %c;\n"
                  "mad.lo.s64 %e, %x, %y, %z;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        unsigned __int128 p = (unsigned __int128)L[i].a * L[i].b;
        SEM_EQ(L, i, L[i].d, (uint64_t)(p >> 64) + L[i].c);
        SEM_EQ(L, i, L[i].e, L[i].a * L[i].b + L[i].c);
    }
}

/* ---- mul24 / mad24: the low 24 bits of each operand (sign-extended
 * for .s32), a 48-bit product; .lo = bits 31:0, .hi = bits 47:16. ---- */

static int64_t lo24s(uint64_t x)
{
    uint32_t v = (uint32_t)x & 0xffffffu;
    return (v & 0x800000u) ? (int64_t)v - 0x1000000 : (int64_t)v;
}

TEST(sem_mul24_u32_lo_hi)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, NULL, 0);
    CHECK(sem_run("d.u32 e.u32 a.u32 b.u32",
                  "mul24.lo.u32 %d, %a, %b;\nmul24.hi.u32 %e, %a, %b;", L,
                  n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t p = (uint64_t)(L[i].a & 0xffffff) * (L[i].b & 0xffffff);
        SEM_EQ(L, i, L[i].d, (uint32_t)p);
        SEM_EQ(L, i, L[i].e, (uint32_t)(p >> 16));
    }
}

TEST(sem_mul24_s32_lo_hi)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, NULL, 0);
    CHECK(sem_run("d.s32 e.s32 a.s32 b.s32",
                  "mul24.lo.s32 %d, %a, %b;\nmul24.hi.s32 %e, %a, %b;", L,
                  n) == 0);
    for (unsigned i = 0; i < n; i++) {
        int64_t p = lo24s(L[i].a) * lo24s(L[i].b);
        SEM_EQ(L, i, L[i].d, (uint32_t)p);
        SEM_EQ(L, i, L[i].e, (uint32_t)((uint64_t)p >> 16));
    }
}

TEST(sem_mad24_lo_hi)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, sem_v32, NV32);
    CHECK(sem_run("d.u32 e.s32 a.u32 b.u32 c.u32",
                  ".reg .s32 %x, %y, %z;\n"
                  "mad24.hi.u32 %d, %a, %b, %c;\n"
                  "mov.b32 %x, %a;\nmov.b32 %y, %b;\nmov.b32 %z, %c;\n"
                  "mad24.lo.s32 %e, %x, %y, %z;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t pu = (uint64_t)(L[i].a & 0xffffff) * (L[i].b & 0xffffff);
        SEM_EQ(L, i, L[i].d, (uint32_t)((uint32_t)(pu >> 16) + (uint32_t)L[i].c));
        int64_t ps = lo24s(L[i].a) * lo24s(L[i].b);
        SEM_EQ(L, i, L[i].e, (uint32_t)((uint32_t)ps + (uint32_t)L[i].c));
    }
}

/* ------------------------------------------------------------------ */
/* div / rem                                                           */
/* ------------------------------------------------------------------ */
/* The ISA leaves division by zero (and signed overflow) unspecified.
 * These tests assert what NVIDIA hardware is observed to produce and what
 * docs/semantics.md promises: unsigned x/0 = all ones, x%0 = x; signed
 * x/0 = -1, x%0 = x; INT_MIN / -1 = INT_MIN with remainder 0. */

static uint64_t udiv_ref(uint64_t a, uint64_t b, uint64_t ones)
{
    return b ? a / b : ones;
}

static uint64_t urem_ref(uint64_t a, uint64_t b) { return b ? a % b : a; }

static int64_t sdiv_ref(int64_t a, int64_t b, int64_t min)
{
    if (b == 0)
        return -1;
    if (a == min && b == -1)
        return min;
    return a / b;
}

static int64_t srem_ref(int64_t a, int64_t b, int64_t min)
{
    if (b == 0)
        return a;
    if (a == min && b == -1)
        return 0;
    return a % b;
}

TEST(sem_div_rem_u32)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, NULL, 0);
    CHECK(sem_run("d.u32 e.u32 a.u32 b.u32",
                  "div.u32 %d, %a, %b;\nrem.u32 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        SEM_EQ(L, i, L[i].d, udiv_ref(L[i].a, L[i].b, 0xffffffffu));
        SEM_EQ(L, i, L[i].e, urem_ref(L[i].a, L[i].b));
    }
}

TEST(sem_div_rem_s32)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, NULL, 0);
    CHECK(sem_run("d.s32 e.s32 a.s32 b.s32",
                  "div.s32 %d, %a, %b;\nrem.s32 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        int64_t a = s32(L[i].a), b = s32(L[i].b);
        SEM_EQ(L, i, L[i].d, (uint32_t)sdiv_ref(a, b, INT32_MIN));
        SEM_EQ(L, i, L[i].e, (uint32_t)srem_ref(a, b, INT32_MIN));
    }
}

TEST(sem_div_rem_u64)
{
    static sem_lane_t L[NV64 * NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, sem_v64, NV64, NULL, 0);
    CHECK(sem_run("d.u64 e.u64 a.u64 b.u64",
                  "div.u64 %d, %a, %b;\nrem.u64 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        SEM_EQ(L, i, L[i].d, udiv_ref(L[i].a, L[i].b, UINT64_MAX));
        SEM_EQ(L, i, L[i].e, urem_ref(L[i].a, L[i].b));
    }
}

TEST(sem_div_rem_s64)
{
    static sem_lane_t L[NV64 * NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, sem_v64, NV64, NULL, 0);
    CHECK(sem_run("d.s64 e.s64 a.s64 b.s64",
                  "div.s64 %d, %a, %b;\nrem.s64 %e, %a, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        int64_t a = s64(L[i].a), b = s64(L[i].b);
        SEM_EQ(L, i, L[i].d, (uint64_t)sdiv_ref(a, b, INT64_MIN));
        SEM_EQ(L, i, L[i].e, (uint64_t)srem_ref(a, b, INT64_MIN));
    }
}

/* Signed division truncates toward zero; the remainder takes the sign of
 * the dividend. */
TEST(sem_div_s32_truncates_toward_zero)
{
    static const int32_t cases[][4] = {
        /* a, b, a/b, a%b */
        { 7, 2, 3, 1 },    { -7, 2, -3, -1 }, { 7, -2, -3, 1 },
        { -7, -2, 3, -1 }, { 1, 3, 0, 1 },    { -1, 3, 0, -1 },
        { INT32_MIN, 2, INT32_MIN / 2, 0 },
        { INT32_MIN, -1, INT32_MIN, 0 },
        { INT32_MAX, -1, -INT32_MAX, 0 },
        { 5, 0, -1, 5 },   { -5, 0, -1, -5 }, { 0, 0, -1, 0 },
    };
    enum { N = sizeof cases / sizeof *cases };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < N; i++) {
        L[i].a = (uint32_t)cases[i][0];
        L[i].b = (uint32_t)cases[i][1];
    }
    CHECK(sem_run("d.s32 e.s32 a.s32 b.s32",
                  "div.s32 %d, %a, %b;\nrem.s32 %e, %a, %b;", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        SEM_EQ(L, i, L[i].d, (uint32_t)cases[i][2]);
        SEM_EQ(L, i, L[i].e, (uint32_t)cases[i][3]);
    }
}

/* ------------------------------------------------------------------ */
/* abs / neg / min / max / sad                                         */
/* ------------------------------------------------------------------ */

TEST(sem_abs_neg_s32_incl_int_min)
{
    sem_lane_t L[NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, NULL, 1, NULL, 0);
    CHECK(sem_run("d.s32 e.s32 a.s32",
                  "abs.s32 %d, %a;\nneg.s32 %e, %a;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = (uint32_t)L[i].a;
        /* |INT_MIN| wraps to INT_MIN */
        SEM_EQ(L, i, L[i].d, (a & 0x80000000u) ? 0u - a : a);
        SEM_EQ(L, i, L[i].e, 0u - a);
    }
}

TEST(sem_abs_neg_s64_and_s16)
{
    sem_lane_t L[NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, NULL, 1, NULL, 0);
    CHECK(sem_run("d.s64 e.u64 a.s64",
                  ".reg .s16 %h, %ha, %hn;\n.reg .s64 %n;\n"
                  "cvt.u16.u64 %h, %a;\n"
                  "abs.s64 %d, %a;\nneg.s16 %hn, %h;\nabs.s16 %ha, %h;\n"
                  "neg.s64 %n, %a;\n"
                  "cvt.u64.u16 %e, %hn;\n"
                  "cvt.u64.u16 %n, %ha;\n"
                  "shl.b64 %n, %n, 16;\n"
                  "or.b64 %e, %e, %n;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = L[i].a;
        uint16_t h = (uint16_t)a;
        uint16_t ha = (h & 0x8000) ? (uint16_t)(0u - h) : h;
        SEM_EQ(L, i, L[i].d, (a >> 63) ? 0 - a : a);
        SEM_EQ(L, i, L[i].e, (uint64_t)ha << 16 | (uint16_t)(0u - h));
    }
}

TEST(sem_min_max_32)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, NULL, 0);
    CHECK(sem_run("d.u64 e.u64 a.u32 b.u32",
                  ".reg .u32 %mnu, %mxu;\n.reg .s32 %x, %y, %mns, %mxs;\n"
                  "min.u32 %mnu, %a, %b;\nmax.u32 %mxu, %a, %b;\n"
                  "mov.b32 %x, %a;\nmov.b32 %y, %b;\n"
                  "min.s32 %mns, %x, %y;\nmax.s32 %mxs, %x, %y;\n"
                  "mov.b64 %d, {%mnu, %mxu};\nmov.b64 %e, {%mns, %mxs};",
                  L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = (uint32_t)L[i].a, b = (uint32_t)L[i].b;
        uint32_t mnu = a < b ? a : b, mxu = a > b ? a : b;
        uint32_t mns = s32(a) < s32(b) ? a : b, mxs = s32(a) > s32(b) ? a : b;
        SEM_EQ(L, i, L[i].d, (uint64_t)mxu << 32 | mnu);
        SEM_EQ(L, i, L[i].e, (uint64_t)mxs << 32 | mns);
    }
}

TEST(sem_min_max_64)
{
    static sem_lane_t L[NV64 * NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, sem_v64, NV64, NULL, 0);
    CHECK(sem_run("d.u64 e.s64 a.u64 b.u64",
                  ".reg .s64 %x, %y;\n"
                  "min.u64 %d, %a, %b;\n"
                  "mov.b64 %x, %a;\nmov.b64 %y, %b;\n"
                  "max.s64 %e, %x, %y;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = L[i].a, b = L[i].b;
        SEM_EQ(L, i, L[i].d, a < b ? a : b);
        SEM_EQ(L, i, L[i].e, s64(a) > s64(b) ? a : b);
    }
}

TEST(sem_min_max_16)
{
    static const uint64_t v[] = { 0, 1, 0x7fff, 0x8000, 0xffff, 0x1234,
                                  0xfffe, 0x00ff };
    sem_lane_t L[64];
    unsigned n = sem_cross(L, v, 8, v, 8, NULL, 0);
    CHECK(sem_run("d.u16 e.s16 a.u16 b.u16",
                  ".reg .s16 %x, %y;\n"
                  "max.u16 %d, %a, %b;\n"
                  "mov.b16 %x, %a;\nmov.b16 %y, %b;\n"
                  "min.s16 %e, %x, %y;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = L[i].a, b = L[i].b;
        SEM_EQ(L, i, L[i].d, a > b ? a : b);
        SEM_EQ(L, i, L[i].e, s16(a) < s16(b) ? a : b);
    }
}

/* sad: d = c + |a - b| (the difference taken in the instruction's
 * signedness). */
TEST(sem_sad_u32_s32)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, sem_v32, NV32);
    CHECK(sem_run("d.u32 e.s32 a.u32 b.u32 c.u32",
                  ".reg .s32 %x, %y, %z;\n"
                  "sad.u32 %d, %a, %b, %c;\n"
                  "mov.b32 %x, %a;\nmov.b32 %y, %b;\nmov.b32 %z, %c;\n"
                  "sad.s32 %e, %x, %y, %z;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = (uint32_t)L[i].a, b = (uint32_t)L[i].b,
                 c = (uint32_t)L[i].c;
        uint32_t du = a < b ? b - a : a - b;
        uint32_t ds = s32(a) < s32(b) ? b - a : a - b;
        SEM_EQ(L, i, L[i].d, (uint32_t)(c + du));
        SEM_EQ(L, i, L[i].e, (uint32_t)(c + ds));
    }
}
