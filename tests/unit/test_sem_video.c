/* test_sem_video.c: semantics of the SIMD video instructions (vadd4,
 * vsub4, vavrg4, vabsdiff4, vmin4, vmax4, vset4 and the half-word ...2
 * forms) with .sat and the .add accumulate, lane by lane against a
 * reference written from the PTX ISA's definition: each element of a and
 * b taken as a plain C int (sign- or zero-extended by its type), the
 * average rounded half away from zero (C's lround), saturated to the
 * destination element's range, or summed into c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "sem_helpers.h"

enum { V_ADD, V_SUB, V_AVRG, V_ABSDIFF, V_MIN, V_MAX, V_NOPS };
static const char *const vname[V_NOPS] = { "vadd", "vsub", "vavrg",
                                           "vabsdiff", "vmin", "vmax" };

static long el(uint32_t v, unsigned i, unsigned bits, int sgn)
{
    long e = (long)((v >> (i * bits)) & ((1ul << bits) - 1));
    if (sgn && e >= (1l << (bits - 1)))
        e -= 1l << bits;
    return e;
}

static long vop(int op, long a, long b)
{
    switch (op) {
    case V_ADD: return a + b;
    case V_SUB: return a - b;
    case V_AVRG: return lround((double)(a + b) / 2.0);
    case V_ABSDIFF: return labs(a - b);
    case V_MIN: return a < b ? a : b;
    default: return a > b ? a : b;
    }
}

/* d (merge form, with or without .sat) and the .add form's result. */
static void ref_video(int op, unsigned n, int ds, int as, int bs, int sat,
                      uint32_t a, uint32_t b, uint32_t c, uint32_t *d,
                      uint32_t *acc)
{
    unsigned bits = 32 / n;
    long lo = ds ? -(1l << (bits - 1)) : 0;
    long hi = ds ? (1l << (bits - 1)) - 1 : (1l << bits) - 1;
    uint32_t r = 0;
    long sum = (int32_t)c;
    for (unsigned i = 0; i < n; i++) {
        long t = vop(op, el(a, i, bits, as), el(b, i, bits, bs));
        sum += t;
        if (sat)
            t = t < lo ? lo : t > hi ? hi : t;
        r |= ((uint32_t)t & (uint32_t)((1ul << bits) - 1)) << (i * bits);
    }
    *d = r;
    *acc = (uint32_t)sum;
}

static const uint64_t vv[] = { 0, 0xffffffffu, 0x7f80017fu, 0x80ff0001u,
                               0x01020304u, 0xfefdfcfbu, 0x12345678u,
                               0x9abcdef0u, 0x7fff8000u, 0x00ff00ffu };
#define NVV (sizeof vv / sizeof *vv)

/* Every op, for 4 bytes and 2 half-words, over all type combinations. */
TEST(sem_video_ops)
{
    static sem_lane_t L[NVV * NVV];
    static const char *const tn[2] = { "u32", "s32" };
    unsigned n = sem_cross(L, vv, NVV, vv, NVV, vv, NVV);
    char body[512];
    for (int op = 0; op < V_NOPS; op++)
        for (unsigned w = 2; w <= 4; w += 2)
            for (int types = 0; types < 8; types++) {
                int ds = types & 1, as = types >> 1 & 1, bs = types >> 2 & 1;
                snprintf(body, sizeof body,
                         ".reg .b32 %%m, %%s, %%x;\n"
                         "%s%u.%s.%s.%s %%m, %%a, %%b, %%c;\n"
                         "%s%u.%s.%s.%s.sat %%s, %%a, %%b, %%c;\n"
                         "%s%u.%s.%s.%s.add %%x, %%a, %%b, %%c;\n"
                         "mov.b64 %%d, {%%m, %%s};\nmov.b32 %%e, %%x;",
                         vname[op], w, tn[ds], tn[as], tn[bs],
                         vname[op], w, tn[ds], tn[as], tn[bs],
                         vname[op], w, tn[ds], tn[as], tn[bs]);
                CHECK_MSG(sem_run("d.u64 e.u32 a.u32 b.u32 c.u32", body, L,
                                  n) == 0, "%s", body);
                for (unsigned i = 0; i < n; i++) {
                    uint32_t m, s, acc, acc2;
                    uint32_t a = (uint32_t)L[i].a, b = (uint32_t)L[i].b,
                             c = (uint32_t)L[i].c;
                    ref_video(op, w, ds, as, bs, 0, a, b, c, &m, &acc);
                    ref_video(op, w, ds, as, bs, 1, a, b, c, &s, &acc2);
                    CHECK_MSG(L[i].d == ((uint64_t)s << 32 | m) &&
                                  L[i].e == acc,
                              "%s lane %u a=%08x b=%08x c=%08x: got d=%016llx "
                              "e=%08llx want %08x %08x %08x", body, i, a, b, c,
                              (unsigned long long)L[i].d,
                              (unsigned long long)L[i].e, s, m, acc);
                }
            }
}

/* vset4/vset2: 1 per element where the comparison holds, or their count
 * added to c. */
TEST(sem_video_vset)
{
    static sem_lane_t L[NVV * NVV];
    static const char *const cmps[] = { "eq", "ne", "lt", "le", "gt", "ge" };
    unsigned n = sem_cross(L, vv, NVV, vv, NVV, vv, NVV);
    char body[512];
    for (unsigned k = 0; k < 6; k++)
        for (unsigned w = 2; w <= 4; w += 2)
            for (int sg = 0; sg < 2; sg++) {
                const char *t = sg ? "s32" : "u32";
                snprintf(body, sizeof body,
                         "vset%u.%s.%s.%s %%d, %%a, %%b, %%c;\n"
                         "vset%u.%s.%s.%s.add %%e, %%a, %%b, %%c;",
                         w, t, t, cmps[k], w, t, t, cmps[k]);
                CHECK_MSG(sem_run("d.u32 e.u32 a.u32 b.u32 c.u32", body, L,
                                  n) == 0, "%s", body);
                for (unsigned i = 0; i < n; i++) {
                    unsigned bits = 32 / w;
                    uint32_t r = 0, cnt = 0;
                    for (unsigned e = 0; e < w; e++) {
                        long x = el((uint32_t)L[i].a, e, bits, sg),
                             y = el((uint32_t)L[i].b, e, bits, sg);
                        int v = k == 0 ? x == y : k == 1 ? x != y
                              : k == 2 ? x < y : k == 3 ? x <= y
                              : k == 4 ? x > y : x >= y;
                        r |= (uint32_t)v << (e * bits);
                        cnt += (uint32_t)v;
                    }
                    SEM_EQ(L, i, L[i].d, r);
                    SEM_EQ(L, i, L[i].e, (uint32_t)L[i].c + cnt);
                }
            }
}
