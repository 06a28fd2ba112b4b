/* exec_cvt.c: cvt between every integer and floating-point type, with
 * rounding modes, .sat and .ftz.  Float-to-integer conversions saturate to
 * the destination range and map NaN to 0, as the PTX ISA specifies. */
#include <fenv.h>
#include <math.h>

#include "exec/dispatch.h"
#include "exec/lanes.h"

#define D (&ei->o[0])

/* IEEE binary16 <-> binary32. */
float exec_f16_to_f32(uint32_t h)
{
    uint32_t sign = (h & 0x8000u) << 16, exp = h >> 10 & 0x1f, mant = h & 0x3ff;
    uint32_t u;
    if (exp == 0x1f) {
        u = sign | 0x7f800000u | mant << 13;
    } else if (exp == 0) {
        if (mant == 0) {
            u = sign;
        } else { /* subnormal: normalise */
            int e = -1;
            do {
                e++;
                mant <<= 1;
            } while (!(mant & 0x400));
            u = sign | (uint32_t)(127 - 15 - e) << 23 | (mant & 0x3ff) << 13;
        }
    } else {
        u = sign | (exp - 15 + 127) << 23 | mant << 13;
    }
    return f32_of(u);
}

/* A double (which holds any f32 or f64 exactly) to binary16 in rounding
 * mode `rnd` (RN for none and for the integer modes, whose rounding has
 * already been applied). Scaling by the f16 quantum is exact, so the result
 * does not depend on the host rounding mode and is rounded only once. */
uint32_t exec_f16_from_double(double v, int rnd)
{
    uint32_t sign = signbit(v) ? 0x8000u : 0;
    if (isnan(v))
        return sign | 0x7e00u;
    double a = fabs(v);
    if (isinf(a))
        return sign | 0x7c00u;
    if (a == 0)
        return sign;
    int e;
    frexp(a, &e);                 /* a = m * 2^e, m in [0.5, 1) */
    int E = e - 1 < -14 ? -14 : e - 1; /* subnormals share exponent -14 */
    int directed = rnd == PTX_RND_RZ || rnd == PTX_RND_RM || rnd == PTX_RND_RP;
    /* a directed mode that rounds this sign away from zero */
    int away = (rnd == PTX_RND_RP && !sign) || (rnd == PTX_RND_RM && sign);
    uint32_t overflow = directed && !away ? sign | 0x7bffu : sign | 0x7c00u;
    if (E > 15) /* beyond the largest binade */
        return overflow;
    double q = ldexp(a, 10 - E);  /* units of the quantum 2^(E-10) */
    double n = floor(q), frac = q - n;
    if (directed ? away && frac > 0
                 : frac > 0.5 || (frac == 0.5 && fmod(n, 2.0) != 0))
        n += 1;
    /* n is in [1024, 2048] for a normal, [0, 1024] for a subnormal; a carry
     * into the next binade falls out of the addition */
    uint32_t h = ((uint32_t)(E + 14) << 10) + (uint32_t)n;
    if (h >= 0x7c00u)
        return overflow;
    return sign | h;
}

static double round_int(double v, int rnd)
{
    switch (rnd) {
    case PTX_RND_RNI: return nearbyint(v); /* default mode: to nearest even */
    case PTX_RND_RMI: return floor(v);
    case PTX_RND_RPI: return ceil(v);
    default: return trunc(v);
    }
}

/* Float value to integer type t: saturating, NaN -> 0. */
static uint64_t float_to_int(double v, ptx_type_t t)
{
    unsigned bits = ptx_type_bits(t);
    if (isnan(v))
        return 0;
    if (ptx_type_is_signed(t)) {
        double lo = -ldexp(1.0, (int)bits - 1), hi = ldexp(1.0, (int)bits - 1);
        if (v <= lo)
            return zext((uint64_t)(int64_t)lo, bits);
        if (v >= hi)
            return zext((uint64_t)((1ull << (bits - 1)) - 1), bits);
        return zext((uint64_t)(int64_t)v, bits);
    }
    double hi = ldexp(1.0, (int)bits);
    if (v <= 0)
        return 0;
    if (v >= hi)
        return bits == 64 ? ~0ull : (1ull << bits) - 1;
    return (uint64_t)v;
}

/* Integer to integer with optional saturation to the destination range. */
static uint64_t int_to_int(uint64_t v, ptx_type_t st, ptx_type_t dt, int sat)
{
    unsigned db = ptx_type_bits(dt);
    uint64_t s = as_type(v, st);
    if (!sat)
        return ptx_type_is_signed(dt) ? sext(s, db) : zext(s, db);
    int ssrc = ptx_type_is_signed(st), sdst = ptx_type_is_signed(dt);
    if (sdst) {
        int64_t lo = db >= 64 ? INT64_MIN : -(int64_t)(1ull << (db - 1));
        int64_t hi = db >= 64 ? INT64_MAX : (int64_t)((1ull << (db - 1)) - 1);
        if (ssrc) {
            int64_t x = (int64_t)s;
            return zext((uint64_t)(x < lo ? lo : x > hi ? hi : x), db);
        }
        return zext(s > (uint64_t)hi ? (uint64_t)hi : s, db);
    }
    uint64_t hi = db >= 64 ? ~0ull : (1ull << db) - 1;
    if (ssrc && (int64_t)s < 0)
        return 0;
    return s > hi ? hi : s;
}

static int host_mode(int rnd)
{
    switch (rnd) {
    case PTX_RND_RZ: return FE_TOWARDZERO;
    case PTX_RND_RM: return FE_DOWNWARD;
    case PTX_RND_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

static void h_cvt(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const uint64_t *a = SRC(1);
    ptx_type_t dt = (ptx_type_t)ei->ir->type, st = (ptx_type_t)ei->ir->type2;
    int df = ptx_type_is_float(dt), sf = ptx_type_is_float(st);
    int rnd = ei->ir->rnd;
    int sat = (ei->ir->flags & PTX_F_SAT) != 0;
    int ftz = (ei->ir->flags & PTX_F_FTZ) != 0;
    int mode = host_mode(rnd), old = -1;
    if (mode != FE_TONEAREST) {
        old = fegetround();
        fesetround(mode);
    }
    FOR_LANES(m, l) {
        uint64_t r;
        if (!df && !sf) {
            r = int_to_int(a[l], st, dt, sat);
        } else if (!sf) { /* integer -> float */
            uint64_t v = as_type(a[l], st);
            int sgn = ptx_type_is_signed(st);
            if (dt == PTX_T_F64)
                r = bits_f64(sgn ? (double)(int64_t)v : (double)v);
            else {
                if (dt == PTX_T_F16) {
                    double d = sgn ? (double)(int64_t)v : (double)v;
                    if (sat)
                        d = d < 0 ? 0 : d > 1 ? 1 : d;
                    r = exec_f16_from_double(d, rnd);
                } else {
                    float f = sgn ? (float)(int64_t)v : (float)v;
                    if (sat)
                        f = f < 0 ? 0 : f > 1 ? 1 : f;
                    r = bits_f32(f);
                }
            }
        } else {
            double v = st == PTX_T_F64 ? f64_of(a[l])
                     : st == PTX_T_F16 ? (double)exec_f16_to_f32((uint32_t)a[l])
                                       : (double)f32_of(a[l]);
            if (ftz && st == PTX_T_F32 && fpclassify((float)v) == FP_SUBNORMAL)
                v = copysign(0.0, v);
            if (!df) { /* float -> integer */
                r = float_to_int(round_int(v, rnd), dt);
            } else {
                if (rnd >= PTX_RND_RNI)
                    v = round_int(v, rnd);
                if (sat)
                    v = isnan(v) ? 0 : v < 0 ? 0 : v > 1 ? 1 : v;
                if (dt == PTX_T_F64) {
                    r = bits_f64(v);
                } else if (dt == PTX_T_F16) {
                    r = exec_f16_from_double(v, rnd);
                } else {
                    float f = (float)v; /* rounds in the current mode */
                    if (ftz && dt == PTX_T_F32 && fpclassify(f) == FP_SUBNORMAL)
                        f = copysignf(0.0f, f);
                    r = bits_f32(f);
                }
            }
        }
        /* a signed integer result fills a wider register sign-extended */
        if (!df && ptx_type_is_signed(dt))
            r = sext(r, ptx_type_bits(dt));
        put(w, D, l, r);
    }
    if (old >= 0)
        fesetround(old);
}

/* cvt.rnd.f16x2.f32 d, a, b: a to binary16 in the upper half of d, b in
 * the lower, each rounded once. */
static void h_cvt_pack(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                       uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    int rnd = ei->ir->rnd;
    FOR_LANES(m, l)
        put(w, D, l, exec_f16_from_double((double)f32_of(a[l]), rnd) << 16 |
                         exec_f16_from_double((double)f32_of(b[l]), rnd));
}

exec_fn exec_select_cvt(const ptx_insn_t *in)
{
    if (in->op != PTX_OP_CVT)
        return NULL;
    if (in->type == PTX_T_F16X2)
        return in->type2 == PTX_T_F32 && in->nops == 3 ? h_cvt_pack : NULL;
    if (in->type == PTX_T_BF16 || in->type == PTX_T_BF16X2 ||
        in->type2 == PTX_T_BF16)
        return exec_select_half(in); /* bf16 conversions */
    return h_cvt;
}
