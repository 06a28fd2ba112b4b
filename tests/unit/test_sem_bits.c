/* test_sem_bits.c: semantics of the logic and bit-manipulation
 * instructions (and/or/xor/not/cnot, shl/shr, shf, bfe, bfi, brev, popc,
 * clz, bfind, prmt, lop3) and of selp/slct, checked lane by lane against
 * references written from the PTX ISA in plain C. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../harness.h"
#include "sem_helpers.h"

#define NV32 SEM_NV32
#define NV64 SEM_NV64

/* ------------------------------------------------------------------ */
/* logic                                                               */
/* ------------------------------------------------------------------ */

TEST(sem_and_or_xor_b32)
{
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, sem_v32, NV32);
    CHECK(sem_run("d.u64 e.b32 a.b32 b.b32 c.b32",
                  ".reg .b32 %x, %y;\n"
                  "and.b32 %x, %a, %b;\nor.b32 %y, %a, %b;\n"
                  "mov.b64 %d, {%x, %y};\n"
                  "xor.b32 %e, %a, %c;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = (uint32_t)L[i].a, b = (uint32_t)L[i].b,
                 c = (uint32_t)L[i].c;
        SEM_EQ(L, i, L[i].d, (uint64_t)(a | b) << 32 | (a & b));
        SEM_EQ(L, i, L[i].e, a ^ c);
    }
}

TEST(sem_and_or_xor_not_b64)
{
    static sem_lane_t L[NV64 * NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, sem_v64, NV64, sem_v64, NV64);
    CHECK(sem_run("d.b64 e.b64 a.b64 b.b64 c.b64",
                  ".reg .b64 %x, %y, %z;\n"
                  "and.b64 %x, %a, %b;\nor.b64 %y, %x, %c;\n"
                  "not.b64 %z, %y;\nxor.b64 %d, %z, %a;\n"
                  "not.b64 %e, %a;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = L[i].a, b = L[i].b, c = L[i].c;
        SEM_EQ(L, i, L[i].d, ~((a & b) | c) ^ a);
        SEM_EQ(L, i, L[i].e, ~a);
    }
}

TEST(sem_not_cnot_b32_b16)
{
    sem_lane_t L[NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, NULL, 1, NULL, 0);
    CHECK(sem_run("d.b32 e.u64 a.b32",
                  ".reg .b32 %x;\n.reg .b16 %h, %hc;\n"
                  "not.b32 %d, %a;\n"
                  "cnot.b32 %x, %a;\n"
                  "cvt.u16.u32 %h, %a;\n"
                  "cnot.b16 %hc, %h;\n"
                  "cvt.u32.u16 %a, %hc;\n"
                  "mov.b64 %e, {%x, %a};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = (uint32_t)L[i].a;
        SEM_EQ(L, i, L[i].d, (uint32_t)~a);
        SEM_EQ(L, i, L[i].e, (uint64_t)((uint16_t)a == 0) << 32 | (a == 0));
    }
}

TEST(sem_pred_logic)
{
    sem_lane_t L[8];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < 8; i++) {
        L[i].a = i & 1;
        L[i].b = (i >> 1) & 1;
        L[i].c = (i >> 2) & 1;
    }
    CHECK(sem_run("d.u32 e.u32 a.pred b.pred c.pred",
                  ".reg .pred %p, %q, %r, %s;\n.reg .u32 %t0, %t1, %t2;\n"
                  "and.pred %p, %a, %b;\n"
                  "or.pred %q, %p, %c;\n"
                  "xor.pred %r, %a, %c;\n"
                  "not.pred %s, %b;\n"
                  "selp.u32 %t0, 1, 0, %q;\n"
                  "selp.u32 %t1, 2, 0, %r;\n"
                  "selp.u32 %t2, 4, 0, %s;\n"
                  "or.b32 %d, %t0, %t1;\nor.b32 %d, %d, %t2;\n"
                  "mov.pred %p, %c;\nselp.u32 %e, 1, 0, %p;", L, 8) == 0);
    for (unsigned i = 0; i < 8; i++) {
        unsigned a = i & 1, b = (i >> 1) & 1, c = (i >> 2) & 1;
        SEM_EQ(L, i, L[i].d, ((a & b) | c) | (a ^ c) << 1 | (!b) << 2);
        SEM_EQ(L, i, L[i].e, c);
    }
}

/* ------------------------------------------------------------------ */
/* shifts: the amount is an unsigned 32-bit value; amounts at or past the
 * width give 0 (shl, shr.u/.b) or the sign fill (shr.s).               */
/* ------------------------------------------------------------------ */

static const uint64_t shamts[] = { 0, 1, 4, 31, 32, 33, 63, 64, 65, 100,
                                   0x80000000u, 0xffffffffu };
#define NSH (sizeof shamts / sizeof *shamts)

TEST(sem_shl_shr_32)
{
    static sem_lane_t L[NV32 * NSH];
    unsigned n = sem_cross(L, sem_v32, NV32, shamts, NSH, NULL, 0);
    CHECK(sem_run("d.u64 e.u64 a.b32 b.u32",
                  ".reg .b32 %l, %ru, %rb;\n.reg .s32 %x, %rs;\n"
                  "shl.b32 %l, %a, %b;\n"
                  "shr.u32 %ru, %a, %b;\n"
                  "shr.b32 %rb, %a, %b;\n"
                  "mov.b32 %x, %a;\n"
                  "shr.s32 %rs, %x, %b;\n"
                  "mov.b64 %d, {%l, %ru};\n"
                  "mov.b64 %e, {%rb, %rs};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = (uint32_t)L[i].a, s = (uint32_t)L[i].b;
        uint32_t l = s >= 32 ? 0 : a << s;
        uint32_t r = s >= 32 ? 0 : a >> s;
        uint32_t fill = (a & 0x80000000u) ? 0xffffffffu : 0;
        uint32_t rs = s >= 32 ? fill : (uint32_t)((int32_t)a >> s);
        SEM_EQ(L, i, L[i].d, (uint64_t)r << 32 | l);
        SEM_EQ(L, i, L[i].e, (uint64_t)rs << 32 | r);
    }
}

TEST(sem_shl_shr_64)
{
    static sem_lane_t L[NV64 * NSH];
    unsigned n = sem_cross(L, sem_v64, NV64, shamts, NSH, NULL, 0);
    CHECK(sem_run("d.b64 e.s64 a.b64 b.u32 c.u64",
                  ".reg .s64 %x;\n.reg .u64 %u;\n"
                  "shl.b64 %d, %a, %b;\n"
                  "mov.b64 %x, %a;\n"
                  "shr.s64 %e, %x, %b;\n"
                  "mov.b64 %u, %a;\n"
                  "shr.u64 %c, %u, %b;\n"
                  "xor.b64 %d, %d, %c;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = L[i].a;
        uint32_t s = (uint32_t)L[i].b;
        uint64_t l = s >= 64 ? 0 : a << s;
        uint64_t r = s >= 64 ? 0 : a >> s;
        uint64_t fill = (a >> 63) ? UINT64_MAX : 0;
        uint64_t rs = s >= 64 ? fill : (uint64_t)((int64_t)a >> s);
        SEM_EQ(L, i, L[i].d, l ^ r);
        SEM_EQ(L, i, L[i].e, rs);
    }
}

TEST(sem_shl_shr_16)
{
    static const uint64_t v[] = { 0x0001, 0x8000, 0xffff, 0x1234, 0x7fff };
    sem_lane_t L[5 * NSH];
    unsigned n = sem_cross(L, v, 5, shamts, NSH, NULL, 0);
    CHECK(sem_run("d.b16 e.s16 a.b16 b.u32",
                  ".reg .s16 %x;\n"
                  "shl.b16 %d, %a, %b;\n"
                  "mov.b16 %x, %a;\n"
                  "shr.s16 %e, %x, %b;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint16_t a = (uint16_t)L[i].a;
        uint32_t s = (uint32_t)L[i].b;
        uint16_t l = s >= 16 ? 0 : (uint16_t)(a << s);
        uint16_t fill = (a & 0x8000) ? 0xffff : 0;
        uint16_t rs = s >= 16 ? fill : (uint16_t)((int16_t)a >> s);
        SEM_EQ(L, i, L[i].d, l);
        SEM_EQ(L, i, L[i].e, rs);
    }
}

/* shf: funnel shift of the 64-bit value {b, a}; .wrap uses c & 31,
 * .clamp uses min(c, 32). */
TEST(sem_shf_l_r_wrap_clamp)
{
    static sem_lane_t L[NV32 * NSH];
    unsigned n = sem_cross(L, sem_v32, NV32, shamts, NSH, sem_v32, NV32);
    CHECK(sem_run("d.u64 e.u64 a.b32 b.u32 c.b32",
                  ".reg .b32 %lw, %lc, %rw, %rc;\n"
                  "shf.l.wrap.b32 %lw, %a, %c, %b;\n"
                  "shf.l.clamp.b32 %lc, %a, %c, %b;\n"
                  "shf.r.wrap.b32 %rw, %a, %c, %b;\n"
                  "shf.r.clamp.b32 %rc, %a, %c, %b;\n"
                  "mov.b64 %d, {%lw, %lc};\n"
                  "mov.b64 %e, {%rw, %rc};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        /* here the PTX a is lane a, PTX b is lane c, the amount lane b */
        uint64_t v = (uint64_t)(uint32_t)L[i].c << 32 | (uint32_t)L[i].a;
        uint32_t s = (uint32_t)L[i].b;
        uint32_t nw = s & 31, nc = s < 32 ? s : 32;
        uint32_t lw = (uint32_t)((v << nw) >> 32);
        uint32_t lc = (uint32_t)((v << nc) >> 32);
        uint32_t rw = (uint32_t)(v >> nw);
        uint32_t rc = (uint32_t)(v >> nc);
        SEM_EQ(L, i, L[i].d, (uint64_t)lc << 32 | lw);
        SEM_EQ(L, i, L[i].e, (uint64_t)rc << 32 | rw);
    }
}

/* ------------------------------------------------------------------ */
/* bit fields                                                          */
/* ------------------------------------------------------------------ */

static uint64_t bfe_ref(uint64_t a, uint32_t b, uint32_t c, unsigned bits,
                        int sgn)
{
    unsigned msb = bits - 1, pos = b & 0xff, len = c & 0xff;
    unsigned sbit = 0;
    if (sgn && len != 0) {
        unsigned k = pos + len - 1 < msb ? pos + len - 1 : msb;
        sbit = (unsigned)(a >> k) & 1;
    }
    uint64_t d = 0;
    for (unsigned i = 0; i <= msb; i++) {
        unsigned bit = (i < len && pos + i <= msb)
                           ? (unsigned)(a >> (pos + i)) & 1
                           : sbit;
        d |= (uint64_t)bit << i;
    }
    return d;
}

static const uint32_t bf_pos[] = { 0, 1, 4, 8, 15, 24, 28, 31, 32, 33, 40,
                                   60, 63, 64, 200, 0x104 };
static const uint32_t bf_len[] = { 0, 1, 3, 8, 16, 24, 31, 32, 33, 63, 64,
                                   65, 255, 0x108 };
#define NPOS (sizeof bf_pos / sizeof *bf_pos)
#define NLEN (sizeof bf_len / sizeof *bf_len)

static unsigned bf_lanes(sem_lane_t *L, const uint64_t *vals, unsigned nv)
{
    unsigned n = 0;
    for (unsigned p = 0; p < NPOS; p++)
        for (unsigned l = 0; l < NLEN; l++) {
            L[n].a = vals[(p * 7 + l * 3) % nv];
            L[n].b = bf_pos[p];
            L[n].c = bf_len[l];
            L[n].d = L[n].e = 0;
            n++;
        }
    return n;
}

TEST(sem_bfe_u32_s32)
{
    static sem_lane_t L[NPOS * NLEN];
    unsigned n = bf_lanes(L, sem_v32, NV32);
    CHECK(sem_run("d.u32 e.s32 a.u32 b.u32 c.u32",
                  ".reg .s32 %x;\n"
                  "bfe.u32 %d, %a, %b, %c;\n"
                  "mov.b32 %x, %a;\n"
                  "bfe.s32 %e, %x, %b, %c;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        SEM_EQ(L, i, L[i].d,
               bfe_ref((uint32_t)L[i].a, (uint32_t)L[i].b, (uint32_t)L[i].c, 32, 0));
        SEM_EQ(L, i, L[i].e,
               bfe_ref((uint32_t)L[i].a, (uint32_t)L[i].b, (uint32_t)L[i].c, 32, 1));
    }
}

TEST(sem_bfe_u64_s64)
{
    static sem_lane_t L[NPOS * NLEN];
    unsigned n = bf_lanes(L, sem_v64, NV64);
    CHECK(sem_run("d.u64 e.s64 a.u64 b.u32 c.u32",
                  ".reg .s64 %x;\n"
                  "bfe.u64 %d, %a, %b, %c;\n"
                  "mov.b64 %x, %a;\n"
                  "bfe.s64 %e, %x, %b, %c;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        SEM_EQ(L, i, L[i].d,
               bfe_ref(L[i].a, (uint32_t)L[i].b, (uint32_t)L[i].c, 64, 0));
        SEM_EQ(L, i, L[i].e,
               bfe_ref(L[i].a, (uint32_t)L[i].b, (uint32_t)L[i].c, 64, 1));
    }
}

static uint64_t bfi_ref(uint64_t a, uint64_t b, uint32_t c, uint32_t d,
                        unsigned bits)
{
    unsigned msb = bits - 1, pos = c & 0xff, len = d & 0xff;
    uint64_t f = b;
    for (unsigned i = 0; i < len && pos + i <= msb; i++) {
        f &= ~(1ull << (pos + i));
        f |= ((a >> i) & 1) << (pos + i);
    }
    return f;
}

/* bfi has four sources: the insert value (lane a), the base (~a here so
 * every inserted bit shows), and pos/len packed as {lane b, lane c}. */
TEST(sem_bfi_b32_b64)
{
    static sem_lane_t L[NPOS * NLEN];
    unsigned n = bf_lanes(L, sem_v64, NV64);
    CHECK(sem_run("d.b32 e.b64 a.b64 b.u32 c.u32",
                  ".reg .b32 %lo, %hi, %nlo;\n.reg .b64 %na;\n"
                  "mov.b64 {%lo, %hi}, %a;\n"
                  "not.b32 %nlo, %hi;\n"
                  "bfi.b32 %d, %lo, %nlo, %b, %c;\n"
                  "not.b64 %na, %a;\n"
                  "bfi.b64 %e, %na, %a, %b, %c;", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = L[i].a;
        uint32_t pos = (uint32_t)L[i].b, len = (uint32_t)L[i].c;
        SEM_EQ(L, i, L[i].d,
               bfi_ref((uint32_t)a, (uint32_t)~(uint32_t)(a >> 32), pos, len, 32));
        SEM_EQ(L, i, L[i].e, bfi_ref(~a, a, pos, len, 64));
    }
}

/* ------------------------------------------------------------------ */
/* brev, popc, clz, bfind                                              */
/* ------------------------------------------------------------------ */

static uint64_t brev_ref(uint64_t a, unsigned bits)
{
    uint64_t d = 0;
    for (unsigned i = 0; i < bits; i++)
        d |= ((a >> i) & 1) << (bits - 1 - i);
    return d;
}

static uint32_t popc_ref(uint64_t a)
{
    uint32_t n = 0;
    for (; a; a &= a - 1)
        n++;
    return n;
}

static uint32_t clz_ref(uint64_t a, unsigned bits)
{
    uint32_t n = 0;
    for (int i = (int)bits - 1; i >= 0 && !((a >> i) & 1); i--)
        n++;
    return n;
}

static uint32_t bfind_ref(uint64_t a, unsigned bits, int sgn, int shiftamt)
{
    unsigned msb = bits - 1;
    if (bits == 32)
        a &= 0xffffffffu;
    if (sgn && ((a >> msb) & 1))
        a = ~a;
    uint32_t d = 0xffffffffu;
    for (int i = (int)msb; i >= 0; i--)
        if ((a >> i) & 1) {
            d = (uint32_t)i;
            break;
        }
    if (shiftamt && d != 0xffffffffu)
        d = msb - d;
    return d;
}

TEST(sem_brev_popc_clz_b32)
{
    sem_lane_t L[NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, NULL, 1, NULL, 0);
    CHECK(sem_run("d.b32 e.u64 a.b32",
                  ".reg .u32 %p, %z;\n"
                  "brev.b32 %d, %a;\n"
                  "popc.b32 %p, %a;\n"
                  "clz.b32 %z, %a;\n"
                  "mov.b64 %e, {%p, %z};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = (uint32_t)L[i].a;
        SEM_EQ(L, i, L[i].d, brev_ref(a, 32));
        SEM_EQ(L, i, L[i].e, (uint64_t)clz_ref(a, 32) << 32 | popc_ref(a));
    }
}

TEST(sem_popc_clz_b64)
{
    sem_lane_t L[NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, NULL, 1, NULL, 0);
    CHECK(sem_run("e.u64 a.b64",
                  ".reg .u32 %p, %z;\n"
                  "popc.b64 %p, %a;\n"
                  "clz.b64 %z, %a;\n"
                  "mov.b64 %e, {%p, %z};", L, n) == 0);
    for (unsigned i = 0; i < n; i++)
        SEM_EQ(L, i, L[i].e, (uint64_t)clz_ref(L[i].a, 64) << 32 | popc_ref(L[i].a));
}

/* brev.b64 reverses all 64 bits: bit i goes to bit 63 - i. */
TEST(sem_brev_b64)
{
    sem_lane_t L[NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, NULL, 1, NULL, 0);
    CHECK(sem_run("d.b64 a.b64", "brev.b64 %d, %a;", L, n) == 0);
    for (unsigned i = 0; i < n; i++)
        SEM_EQ(L, i, L[i].d, brev_ref(L[i].a, 64));
}

TEST(sem_bfind_32)
{
    sem_lane_t L[NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, NULL, 1, NULL, 0);
    CHECK(sem_run("d.u64 e.u64 a.u32",
                  ".reg .u32 %u, %us, %s, %ss;\n.reg .s32 %x;\n"
                  "bfind.u32 %u, %a;\n"
                  "bfind.shiftamt.u32 %us, %a;\n"
                  "mov.b32 %x, %a;\n"
                  "bfind.s32 %s, %x;\n"
                  "bfind.shiftamt.s32 %ss, %x;\n"
                  "mov.b64 %d, {%u, %us};\n"
                  "mov.b64 %e, {%s, %ss};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = L[i].a;
        SEM_EQ(L, i, L[i].d,
               (uint64_t)bfind_ref(a, 32, 0, 1) << 32 | bfind_ref(a, 32, 0, 0));
        SEM_EQ(L, i, L[i].e,
               (uint64_t)bfind_ref(a, 32, 1, 1) << 32 | bfind_ref(a, 32, 1, 0));
    }
}

TEST(sem_bfind_64)
{
    sem_lane_t L[NV64];
    unsigned n = sem_cross(L, sem_v64, NV64, NULL, 1, NULL, 0);
    CHECK(sem_run("d.u64 e.u64 a.u64",
                  ".reg .u32 %u, %us, %s, %ss;\n.reg .s64 %x;\n"
                  "bfind.u64 %u, %a;\n"
                  "bfind.shiftamt.u64 %us, %a;\n"
                  "mov.b64 %x, %a;\n"
                  "bfind.s64 %s, %x;\n"
                  "bfind.shiftamt.s64 %ss, %x;\n"
                  "mov.b64 %d, {%u, %us};\n"
                  "mov.b64 %e, {%s, %ss};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = L[i].a;
        SEM_EQ(L, i, L[i].d,
               (uint64_t)bfind_ref(a, 64, 0, 1) << 32 | bfind_ref(a, 64, 0, 0));
        SEM_EQ(L, i, L[i].e,
               (uint64_t)bfind_ref(a, 64, 1, 1) << 32 | bfind_ref(a, 64, 1, 0));
    }
}

/* Spot values written out by hand (independent of the loops above). */
TEST(sem_bfind_clz_spot_values)
{
    static const uint32_t in[] = { 0, 1, 0x80000000u, 0xffffffffu,
                                   0x00010000u, 0xfffeffffu };
    /* bfind.u32, bfind.s32, bfind.shiftamt.u32, clz.b32 */
    static const uint32_t want[][4] = {
        { 0xffffffffu, 0xffffffffu, 0xffffffffu, 32 },
        { 0, 0, 31, 31 },
        { 31, 30, 0, 0 },
        { 31, 0xffffffffu, 0, 0 },
        { 16, 16, 15, 15 },
        { 31, 16, 0, 0 },
    };
    enum { N = sizeof in / sizeof *in };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < N; i++)
        L[i].a = in[i];
    CHECK(sem_run("d.u64 e.u64 a.u32",
                  ".reg .u32 %u, %s, %sh, %z;\n.reg .s32 %x;\n"
                  "bfind.u32 %u, %a;\n"
                  "mov.b32 %x, %a;\n"
                  "bfind.s32 %s, %x;\n"
                  "bfind.shiftamt.u32 %sh, %a;\n"
                  "clz.b32 %z, %a;\n"
                  "mov.b64 %d, {%u, %s};\n"
                  "mov.b64 %e, {%sh, %z};", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        SEM_EQ(L, i, L[i].d, (uint64_t)want[i][1] << 32 | want[i][0]);
        SEM_EQ(L, i, L[i].e, (uint64_t)want[i][3] << 32 | want[i][2]);
    }
}

/* ------------------------------------------------------------------ */
/* prmt                                                                */
/* ------------------------------------------------------------------ */

static uint32_t prmt_bytes(uint32_t a, uint32_t b, const unsigned sel[4])
{
    uint64_t t = (uint64_t)b << 32 | a;
    uint32_t d = 0;
    for (unsigned i = 0; i < 4; i++)
        d |= (uint32_t)((t >> (8 * sel[i])) & 0xff) << (8 * i);
    return d;
}

static uint32_t prmt_default(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t t = (uint64_t)b << 32 | a;
    uint32_t d = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned nib = (c >> (4 * i)) & 0xf;
        uint32_t byte = (uint32_t)(t >> (8 * (nib & 7))) & 0xff;
        if (nib & 8)
            byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * i);
    }
    return d;
}

/* The mode tables of the ISA: for c[1:0] = 0..3, the source byte of
 * d.b0, d.b1, d.b2, d.b3. */
static const unsigned prmt_modes[6][4][4] = {
    /* f4e */ { { 0, 1, 2, 3 }, { 1, 2, 3, 4 }, { 2, 3, 4, 5 }, { 3, 4, 5, 6 } },
    /* b4e */ { { 0, 7, 6, 5 }, { 1, 0, 7, 6 }, { 2, 1, 0, 7 }, { 3, 2, 1, 0 } },
    /* rc8 */ { { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 3, 3, 3, 3 } },
    /* ecl */ { { 0, 1, 2, 3 }, { 1, 1, 2, 3 }, { 2, 2, 2, 3 }, { 3, 3, 3, 3 } },
    /* ecr */ { { 0, 0, 0, 0 }, { 0, 1, 1, 1 }, { 0, 1, 2, 2 }, { 0, 1, 2, 3 } },
    /* rc16 */ { { 0, 1, 0, 1 }, { 2, 3, 2, 3 }, { 0, 1, 0, 1 }, { 2, 3, 2, 3 } },
};
static const char *const prmt_mode_names[6] = { "f4e", "b4e", "rc8",
                                                "ecl", "ecr", "rc16" };

TEST(sem_prmt_default_mode)
{
    enum { N = 256 };
    static sem_lane_t L[N];
    uint32_t x = 12345;
    for (unsigned i = 0; i < N; i++) {
        x = x * 1103515245u + 12345u;
        L[i].a = 0x80ff7f01u ^ (i * 0x01010101u);
        L[i].b = 0xfedc8a98u + i * 0x00030507u;
        /* every selector nibble, with and without the sign bit; the
         * upper 16 bits of c are ignored */
        L[i].c = (x & 0xffff0000u) | (i & 0xf) | ((i >> 4) & 0xf) << 4 |
                 ((i * 3) & 0xf) << 8 | ((i * 7 + 5) & 0xf) << 12;
        L[i].d = L[i].e = 0;
    }
    CHECK(sem_run("d.b32 a.b32 b.b32 c.b32", "prmt.b32 %d, %a, %b, %c;", L,
                  N) == 0);
    for (unsigned i = 0; i < N; i++)
        SEM_EQ(L, i, L[i].d,
               prmt_default((uint32_t)L[i].a, (uint32_t)L[i].b, (uint32_t)L[i].c));
}

TEST(sem_prmt_spot_values)
{
    /* cub's documented example, identity, and a sign-replicating swap */
    sem_lane_t L[4];
    memset(L, 0, sizeof L);
    L[0].a = 0x03020100; L[0].b = 0x07060504; L[0].c = 0x7531;
    L[1].a = 0x44332211; L[1].b = 0x88776655; L[1].c = 0x3210;
    L[2].a = 0x44332211; L[2].b = 0x88776655; L[2].c = 0x7654;
    L[3].a = 0x7f80017f; L[3].b = 0;          L[3].c = 0x89ab;
    CHECK(sem_run("d.b32 a.b32 b.b32 c.b32", "prmt.b32 %d, %a, %b, %c;", L,
                  4) == 0);
    SEM_EQ(L, 0, L[0].d, 0x07050301);
    SEM_EQ(L, 1, L[1].d, 0x44332211);
    SEM_EQ(L, 2, L[2].d, 0x88776655);
    /* nibbles (d.b0 first) b, a, 9, 8 all sign-replicate source bytes 3,
     * 2, 1, 0 = 0x7f, 0x80, 0x01, 0x7f: d.b0..b3 = 00 ff 00 00 */
    SEM_EQ(L, 3, L[3].d, 0x0000ff00);
}

TEST(sem_prmt_modes)
{
    for (unsigned m = 0; m < 6; m++) {
        enum { N = 16 };
        sem_lane_t L[N];
        for (unsigned i = 0; i < N; i++) {
            L[i].a = 0x33221100u + i;
            L[i].b = 0x77665544u ^ (i << 24);
            /* only c[1:0] matters */
            L[i].c = (i & 3) | (i & 12) << 6 | (i >> 2) * 0x1234500u;
            L[i].d = L[i].e = 0;
        }
        char body[64];
        snprintf(body, sizeof body, "prmt.b32.%s %%d, %%a, %%b, %%c;",
                 prmt_mode_names[m]);
        CHECK_MSG(sem_run("d.b32 a.b32 b.b32 c.b32", body, L, N) == 0,
                  "prmt.%s", prmt_mode_names[m]);
        for (unsigned i = 0; i < N; i++) {
            uint32_t want = prmt_bytes((uint32_t)L[i].a, (uint32_t)L[i].b,
                                       prmt_modes[m][L[i].c & 3]);
            CHECK_MSG(L[i].d == want,
                      "prmt.b32.%s a=0x%08x b=0x%08x c=0x%x: got 0x%08x, "
                      "want 0x%08x", prmt_mode_names[m], (uint32_t)L[i].a,
                      (uint32_t)L[i].b, (uint32_t)L[i].c, (uint32_t)L[i].d,
                      want);
        }
    }
}

/* ------------------------------------------------------------------ */
/* lop3: d bit = immLut bit ((a << 2) | (b << 1) | c)                  */
/* ------------------------------------------------------------------ */

static uint32_t lop3_ref(uint32_t a, uint32_t b, uint32_t c, unsigned lut)
{
    uint32_t d = 0;
    for (unsigned i = 0; i < 32; i++) {
        unsigned idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
        d |= (uint32_t)((lut >> idx) & 1) << i;
    }
    return d;
}

TEST(sem_lop3_luts)
{
    /* majority, xor3, and3, or3, a, b, c, zero, ones, a?b:c, a&~b|c */
    static const unsigned luts[] = { 0xe8, 0x96, 0x80, 0xfe, 0xf0, 0xcc,
                                     0xaa, 0x00, 0xff, 0xca, 0x3a, 0x1e };
    static sem_lane_t L[NV32 * NV32];
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, sem_v32, NV32);
    for (unsigned k = 0; k < sizeof luts / sizeof *luts; k++) {
        char body[64];
        snprintf(body, sizeof body, "lop3.b32 %%d, %%a, %%b, %%c, 0x%02x;",
                 luts[k]);
        CHECK_MSG(sem_run("d.b32 a.b32 b.b32 c.b32", body, L, n) == 0,
                  "lop3 0x%02x", luts[k]);
        for (unsigned i = 0; i < n; i++) {
            uint32_t a = (uint32_t)L[i].a, b = (uint32_t)L[i].b,
                     c = (uint32_t)L[i].c;
            uint32_t want = lop3_ref(a, b, c, luts[k]);
            CHECK_MSG(L[i].d == want,
                      "lop3.b32 lut 0x%02x a=0x%08x b=0x%08x c=0x%08x: got "
                      "0x%08x, want 0x%08x", luts[k], a, b, c,
                      (uint32_t)L[i].d, want);
        }
    }
    /* the named functions themselves, independent of lop3_ref */
    CHECK_EQ(lop3_ref(0xf0f0f0f0u, 0xccccccccu, 0xaaaaaaaau, 0xe8), 0xe8e8e8e8u);
    CHECK_EQ(lop3_ref(0x12345678u, 0x9abcdef0u, 0x0f0f0f0fu, 0x96),
             0x12345678u ^ 0x9abcdef0u ^ 0x0f0f0f0fu);
}

/* ------------------------------------------------------------------ */
/* selp / slct                                                         */
/* ------------------------------------------------------------------ */

TEST(sem_selp_b32_b64_f32)
{
    static sem_lane_t L[NV64 * 2];
    static const uint64_t pv[2] = { 0, 1 };
    unsigned n = sem_cross(L, sem_v64, NV64, pv, 2, sem_v64, NV64);
    for (unsigned i = 0; i < n; i++) {
        uint64_t p = L[i].b;
        L[i].b = L[i].c;
        L[i].c = p;
    }
    CHECK(sem_run("d.b64 e.u64 a.b64 b.b64 c.pred",
                  ".reg .b32 %al, %ah, %bl, %bh, %s32;\n.reg .f32 %fa, %fb, %fs;\n"
                  "selp.b64 %d, %a, %b, %c;\n"
                  "mov.b64 {%al, %ah}, %a;\nmov.b64 {%bl, %bh}, %b;\n"
                  "selp.u32 %s32, %al, %bl, %c;\n"
                  "mov.b32 %fa, %ah;\nmov.b32 %fb, %bh;\n"
                  "selp.f32 %fs, %fb, %fa, %c;\n"
                  "mov.b32 %al, %fs;\n"
                  "mov.b64 %e, {%s32, %al};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        int p = L[i].c != 0;
        uint64_t a = L[i].a, b = L[i].b;
        SEM_EQ(L, i, L[i].d, p ? a : b);
        uint32_t lo = (uint32_t)(p ? a : b), hi = (uint32_t)((p ? b : a) >> 32);
        SEM_EQ(L, i, L[i].e, (uint64_t)hi << 32 | lo);
    }
}

/* slct: d = (c >= 0) ? a : b, c compared as .s32 or as .f32 (IEEE: -0 >= 0
 * holds, NaN >= 0 does not); .ftz flushes a subnormal c to a signed 0. */
static const uint32_t slct_cs[] = {
    0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x3f800000u /* 1.0 */,
    0xbf800000u /* -1.0 */, 0x7f800000u /* +inf */, 0xff800000u,
    0x7fc00000u /* NaN */, 0xffc00000u /* -NaN */, 0x00000001u,
    0x80000001u /* -subnormal */, 0x807fffffu,
};
#define NSLCT (sizeof slct_cs / sizeof *slct_cs)

static void slct_lanes(sem_lane_t *L)
{
    for (unsigned i = 0; i < NSLCT; i++) {
        L[i].a = 0x1111u * (i + 1);
        L[i].b = 0xa0000000u + i;
        L[i].c = slct_cs[i];
        L[i].d = L[i].e = 0;
    }
}

/* slct: d = (c >= 0) ? a : b, c compared as .s32 or as .f32 (IEEE: -0 >= 0
 * holds, NaN >= 0 does not). */
TEST(sem_slct_s32_f32)
{
    sem_lane_t L[NSLCT];
    slct_lanes(L);
    CHECK(sem_run("d.u32 e.u32 a.u32 b.u32 c.b32",
                  ".reg .s32 %cs;\n.reg .f32 %cf;\n"
                  "mov.b32 %cs, %c;\nmov.b32 %cf, %c;\n"
                  "slct.u32.s32 %d, %a, %b, %cs;\n"
                  "slct.u32.f32 %e, %a, %b, %cf;", L, NSLCT) == 0);
    for (unsigned i = 0; i < NSLCT; i++) {
        uint32_t a = (uint32_t)L[i].a, b = (uint32_t)L[i].b, c = slct_cs[i];
        SEM_EQ(L, i, L[i].d, (int32_t)c >= 0 ? a : b);
        SEM_EQ(L, i, L[i].e, sem_u2f(c) >= 0.0f ? a : b);
    }
}

/* slct.ftz: the ISA flushes a subnormal c to a zero of the same sign, and
 * a (-)0 compares >= 0, so a is selected for every subnormal c. */
TEST(sem_slct_ftz_f32_subnormal_selects_a)
{
    sem_lane_t L[NSLCT];
    slct_lanes(L);
    CHECK(sem_run("d.u32 a.u32 b.u32 c.f32",
                  "slct.ftz.u32.f32 %d, %a, %b, %c;", L, NSLCT) == 0);
    for (unsigned i = 0; i < NSLCT; i++) {
        uint32_t a = (uint32_t)L[i].a, b = (uint32_t)L[i].b, c = slct_cs[i];
        int sub = (c & 0x7f800000u) == 0;
        SEM_EQ(L, i, L[i].d, (sub || sem_u2f(c) >= 0.0f) ? a : b);
    }
}

/* ------------------------------------------------------------------ */
/* bmsk, szext, fns (PTX ISA 7.6 / 6.0)                                */
/* ------------------------------------------------------------------ */

static const uint64_t pos_width[] = { 0, 1, 3, 7, 16, 31, 32, 33, 40, 63, 64,
                                      0xffffffffu };
#define NPW (sizeof pos_width / sizeof *pos_width)

/* Reference: bit i is set when start <= i < start + width, with the
 * operands first reduced as the mode says. */
static uint32_t ref_bmsk(uint32_t a, uint32_t b, int wrap)
{
    uint32_t start = wrap ? a % 32 : (a < 32 ? a : 32);
    uint32_t width = wrap ? b % 32 : (b < 32 ? b : 32);
    uint32_t r = 0;
    for (uint32_t i = 0; i < 32; i++)
        if (i >= start && i - start < width)
            r |= 1u << i;
    return r;
}

TEST(sem_bmsk_wrap_clamp)
{
    static sem_lane_t L[NPW * NPW];
    unsigned n = sem_cross(L, pos_width, NPW, pos_width, NPW, NULL, 0);
    CHECK(sem_run("d.b32 e.b32 a.u32 b.u32",
                  "bmsk.wrap.b32 %d, %a, %b;\nbmsk.clamp.b32 %e, %a, %b;",
                  L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = (uint32_t)L[i].a, b = (uint32_t)L[i].b;
        SEM_EQ(L, i, L[i].d, ref_bmsk(a, b, 1));
        SEM_EQ(L, i, L[i].e, ref_bmsk(a, b, 0));
    }
}

/* Reference: keep the low w bits, and copy bit w-1 upwards for .s32. */
static uint32_t ref_szext(uint32_t a, uint32_t b, int wrap, int sgn)
{
    uint32_t w = wrap ? b % 32 : (b < 32 ? b : 32);
    if (w == 0)
        return 0;
    if (w == 32)
        return a;
    uint32_t low = a & ((1u << w) - 1);
    if (sgn && (a >> (w - 1) & 1))
        low |= ~((1u << w) - 1);
    return low;
}

TEST(sem_szext_wrap_clamp)
{
    static sem_lane_t L[NV32 * NPW];
    unsigned n = sem_cross(L, sem_v32, NV32, pos_width, NPW, NULL, 0);
    CHECK(sem_run("d.u64 e.u64 a.u32 b.u32",
                  ".reg .b32 %w<4>;\n"
                  "szext.wrap.u32 %w0, %a, %b;\nszext.wrap.s32 %w1, %a, %b;\n"
                  "szext.clamp.u32 %w2, %a, %b;\nszext.clamp.s32 %w3, %a, %b;\n"
                  "mov.b64 %d, {%w0, %w1};\nmov.b64 %e, {%w2, %w3};",
                  L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = (uint32_t)L[i].a, b = (uint32_t)L[i].b;
        SEM_EQ(L, i, L[i].d, (uint64_t)ref_szext(a, b, 1, 1) << 32 |
                                 ref_szext(a, b, 1, 0));
        SEM_EQ(L, i, L[i].e, (uint64_t)ref_szext(a, b, 0, 1) << 32 |
                                 ref_szext(a, b, 0, 0));
    }
}

/* Reference: the set bits at or above base in ascending order (offset
 * > 0), or at or below it in descending order (offset < 0). */
static uint32_t ref_fns(uint32_t mask, uint32_t base, int32_t off)
{
    if (off == 0)
        return (mask >> base & 1) ? base : 0xffffffffu;
    uint32_t list[32], n = 0;
    for (uint32_t k = 0; k < 32; k++) {
        uint32_t bit = off > 0 ? k : 31 - k;
        if ((off > 0 ? bit >= base : bit <= base) && (mask >> bit & 1))
            list[n++] = bit;
    }
    uint32_t want = off > 0 ? (uint32_t)off : (uint32_t)-off;
    return want <= n ? list[want - 1] : 0xffffffffu;
}

TEST(sem_fns)
{
    static const uint64_t bases[] = { 0, 1, 5, 16, 31 };
    static const uint64_t offs[] = { 0, 1, 2, 3, 17, 32, 33,
                                     (uint32_t)-1, (uint32_t)-2, (uint32_t)-5,
                                     (uint32_t)-32 };
    static sem_lane_t L[NV32 * 5];
    unsigned n = sem_cross(L, sem_v32, NV32, bases, 5, NULL, 0);
    for (unsigned k = 0; k < sizeof offs / sizeof *offs; k++) {
        for (unsigned i = 0; i < n; i++)
            L[i].c = offs[k];
        CHECK(sem_run("d.b32 a.b32 b.u32 c.u32",
                      "fns.b32 %d, %a, %b, %c;", L, n) == 0);
        for (unsigned i = 0; i < n; i++)
            SEM_EQ(L, i, L[i].d, ref_fns((uint32_t)L[i].a, (uint32_t)L[i].b,
                                         (int32_t)L[i].c));
    }
    /* an immediate negative offset */
    CHECK(sem_run("d.b32 a.b32 b.u32", "fns.b32 %d, %a, %b, -2;", L, n) == 0);
    for (unsigned i = 0; i < n; i++)
        SEM_EQ(L, i, L[i].d, ref_fns((uint32_t)L[i].a, (uint32_t)L[i].b, -2));
}

/* Reference: the byte and half-word products summed one by one. */
static uint32_t ref_dp(int four, int hi, int as, int bs, uint32_t a,
                       uint32_t b, uint32_t c)
{
    int64_t sum = (int64_t)c;
    for (int i = 0; i < (four ? 4 : 2); i++) {
        int64_t va = four ? (as ? (int8_t)(a >> 8 * i) : (uint8_t)(a >> 8 * i))
                          : (as ? (int16_t)(a >> 16 * i) : (uint16_t)(a >> 16 * i));
        int sh = 8 * (i + (hi ? 2 : 0));
        int64_t vb = bs ? (int8_t)(b >> sh) : (uint8_t)(b >> sh);
        sum += va * vb;
    }
    return (uint32_t)sum;
}

TEST(sem_dp4a_dp2a)
{
    static sem_lane_t L[NV32 * NV32];
    static const char *const tn[2] = { "u32", "s32" };
    unsigned n = sem_cross(L, sem_v32, NV32, sem_v32, NV32, sem_v32, NV32);
    char body[256];
    for (int t = 0; t < 4; t++) {
        int as = t & 1, bs = t >> 1;
        snprintf(body, sizeof body, ".reg .b32 %%lo, %%hi;\n"
                 "dp4a.%s.%s %%d, %%a, %%b, %%c;\n"
                 "dp2a.lo.%s.%s %%lo, %%a, %%b, %%c;\n"
                 "dp2a.hi.%s.%s %%hi, %%a, %%b, %%c;\n"
                 "mov.b64 %%e, {%%lo, %%hi};", tn[as], tn[bs], tn[as], tn[bs],
                 tn[as], tn[bs]);
        CHECK_MSG(sem_run("d.u32 e.u64 a.u32 b.u32 c.u32", body, L, n) == 0,
                  "%s", body);
        for (unsigned i = 0; i < n; i++) {
            uint32_t a = (uint32_t)L[i].a, b = (uint32_t)L[i].b,
                     c = (uint32_t)L[i].c;
            SEM_EQ(L, i, L[i].d, ref_dp(1, 0, as, bs, a, b, c));
            SEM_EQ(L, i, L[i].e, (uint64_t)ref_dp(0, 1, as, bs, a, b, c) << 32 |
                                     ref_dp(0, 0, as, bs, a, b, c));
        }
    }
}
