/* exec_half.c: arithmetic on the 16-bit float formats: .f16 (IEEE
 * binary16) and .bf16 (bfloat16, the upper half of a binary32), scalar in
 * the low 16 bits or paired (.f16x2, .bf16x2: element 0 in the low half):
 * add, sub, mul, fma, neg, abs, min, max, setp, set, and the bf16
 * conversions, element by element.
 *
 * Each result is the exact result rounded once to the format, to nearest
 * even (the only rounding PTX gives these instructions): it is computed
 * by a double fma rounded to odd, whose extra bits make the final rounding
 * the correct one (for bf16 through a binary32 rounded to odd).  .ftz
 * flushes subnormal inputs and results to a zero of the same sign; .sat
 * clamps to [0, 1] with NaN giving 0; a NaN result is the canonical 0x7fff.
 * min/max follow the f32 rules (one NaN gives the other operand, two the
 * canonical NaN; -0 < +0).  setp on pairs writes p from element 0 and q
 * from element 1, each combined with c under .and/.or/.xor; set writes 1.0
 * or all ones per element. */
#include <fenv.h>
#include <math.h>

#include "exec/dispatch.h"
#include "exec/lanes.h"

#define D (&ei->o[0])
#define HALF_NAN 0x7fffu

static int is_bf(ptx_type_t t)
{
    return t == PTX_T_BF16 || t == PTX_T_BF16X2;
}

static int is_subnormal(uint32_t h, int bf)
{
    uint32_t exp = bf ? 0x7f80u : 0x7c00u;
    return (h & exp) == 0 && (h & 0x7fffu & ~exp) != 0;
}

static double hval(uint32_t h, int bf, int ftz)
{
    if (ftz && is_subnormal(h, bf))
        h &= 0x8000u;
    return bf ? (double)f32_of((uint64_t)h << 16) : (double)exec_f16_to_f32(h);
}

/* x rounded toward zero, its last bit set when inexact (round to odd);
 * in a double (to_float 0) or a float (to_float 1). */
static double round_odd(double a, double b, double c, int to_float)
{
    int mode = fegetround();
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_INEXACT);
    volatile double r = fma(a, b, c);
    volatile float f = to_float ? (float)r : 0.0f; /* truncating twice is
                                                      truncating once */
    int inexact = fetestexcept(FE_INEXACT) != 0;
    fesetround(mode);
    if (to_float) {
        double v = (double)f;
        return inexact && isfinite(v) ? (double)f32_of(bits_f32(f) | 1) : v;
    }
    double v = r;
    return inexact && isfinite(v) ? f64_of(bits_f64(v) | 1) : v;
}

/* The format's encoding of v (a value rounded to odd), to nearest even. */
static uint32_t hround(double v, int bf)
{
    if (isnan(v))
        return HALF_NAN;
    if (!bf)
        return exec_f16_from_double(v, PTX_RND_RN);
    uint32_t x = (uint32_t)bits_f32((float)v); /* exact: v is a float */
    return (x + 0x7fffu + (x >> 16 & 1)) >> 16;
}

/* One element: the op of ei on a, b (and c for fma). */
static uint32_t half_op(const ptx_insn_t *in, uint32_t a, uint32_t b,
                        uint32_t c)
{
    int ftz = (in->flags & PTX_F_FTZ) != 0, bf = is_bf((ptx_type_t)in->type);
    double x = hval(a, bf, ftz), y = hval(b, bf, ftz), r;
    switch ((ptx_op_t)in->op) {
    case PTX_OP_NEG: return a ^ 0x8000u;
    case PTX_OP_ABS: return a & 0x7fffu;
    case PTX_OP_MIN: case PTX_OP_MAX: {
        int an = isnan(x), bn = isnan(y);
        if (an && bn)
            return HALF_NAN;
        if (an || bn)
            return an ? b : a;
        int less = x < y || (x == y && (a & 0x8000u) && !(b & 0x8000u));
        return (in->op == PTX_OP_MIN) == less ? a : b;
    }
    case PTX_OP_ADD: r = round_odd(1.0, x, y, bf); break;
    case PTX_OP_SUB: r = round_odd(1.0, x, -y, bf); break;
    case PTX_OP_MUL: r = round_odd(x, y, -0.0, bf); break;
    default: r = round_odd(x, y, hval(c, bf, ftz), bf); break; /* fma, mad */
    }
    if (isnan(r))
        return in->flags & PTX_F_SAT ? 0 : HALF_NAN;
    uint32_t h = hround(r, bf);
    if (in->flags & PTX_F_SAT) {
        double v = hval(h, bf, 0);
        h = v > 1.0 ? (bf ? 0x3f80u : 0x3c00u) : (v > 0.0 ? h : 0);
    }
    if (ftz && is_subnormal(h, bf))
        h &= 0x8000u;
    return h;
}

static void h_half(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                   uint32_t m)
{
    const ptx_insn_t *in = ei->ir;
    unsigned n = in->type == PTX_T_F16X2 || in->type == PTX_T_BF16X2 ? 2 : 1;
    const uint64_t *a = SRC(1);
    const uint64_t *b = ei->nops > 2 ? SRC(2) : a;
    const uint64_t *c = ei->nops > 3 ? SRC(3) : a;
    FOR_LANES(m, l) {
        uint32_t r = 0;
        for (unsigned i = 0; i < n; i++) {
            unsigned s = 16 * i;
            r |= half_op(in, (uint32_t)(a[l] >> s) & 0xffffu,
                         (uint32_t)(b[l] >> s) & 0xffffu,
                         (uint32_t)(c[l] >> s) & 0xffffu) << s;
        }
        put(w, D, l, r);
    }
}

static void h_setp_half(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                        uint32_t m)
{
    const ptx_insn_t *in = ei->ir;
    const uint64_t *a = SRC(1), *b = SRC(2);
    int ftz = (in->flags & PTX_F_FTZ) != 0, bf = is_bf((ptx_type_t)in->type);
    if (in->type == PTX_T_F16 || in->type == PTX_T_BF16) {
        uint32_t res = 0;
        FOR_LANES(m, l)
            res |= (uint32_t)exec_fcmp(hval((uint32_t)a[l] & 0xffffu, bf, ftz),
                                       hval((uint32_t)b[l] & 0xffffu, bf, ftz),
                                       in->cmp) << l;
        exec_setp_finish(w, ei, m, res);
        return;
    }
    uint32_t res[2] = { 0, 0 };
    FOR_LANES(m, l)
        for (unsigned i = 0; i < 2; i++)
            res[i] |= (uint32_t)exec_fcmp(
                          hval((uint32_t)(a[l] >> 16 * i) & 0xffffu, bf, ftz),
                          hval((uint32_t)(b[l] >> 16 * i) & 0xffffu, bf, ftz),
                          in->cmp) << l;
    if (in->combine) {
        uint32_t cm = pred_mask(w, &ei->o[3]);
        for (unsigned i = 0; i < 2; i++)
            res[i] = in->combine == PTX_SUB_AND ? res[i] & cm
                   : in->combine == PTX_SUB_OR  ? res[i] | cm
                                                : res[i] ^ cm;
    }
    if (D->kind == EO_PRED)
        put_pred_mask(w, D->slot, m, res[0]);
    if (D->pipe != EXEC_NO_PC)
        put_pred_mask(w, D->pipe, m, res[1]);
}

/* set.cmp.dtype.{f16,f16x2} d, a, b[, c]: per element, 1.0 (a binary16
 * destination) or all ones (an integer one) where the comparison holds,
 * else 0; with .and/.or/.xor, combined with predicate c first. */
static void h_set_half(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                       uint32_t m)
{
    const ptx_insn_t *in = ei->ir;
    const uint64_t *a = SRC(1), *b = SRC(2);
    int ftz = (in->flags & PTX_F_FTZ) != 0, bf = is_bf((ptx_type_t)in->type2);
    unsigned n = in->type2 == PTX_T_F16X2 || in->type2 == PTX_T_BF16X2 ? 2 : 1;
    unsigned ebits = n == 2 ? 16 : ptx_type_bits((ptx_type_t)in->type);
    int fdst = ptx_type_is_half((ptx_type_t)in->type);
    uint32_t one = is_bf((ptx_type_t)in->type) ? 0x3f80u : 0x3c00u;
    uint32_t yes = fdst ? one : (uint32_t)((1ull << ebits) - 1);
    uint32_t cm = in->combine ? pred_mask(w, &ei->o[3]) : 0;
    FOR_LANES(m, l) {
        uint32_t r = 0;
        for (unsigned i = 0; i < n; i++) {
            int v = exec_fcmp(hval((uint32_t)(a[l] >> 16 * i) & 0xffffu, bf, ftz),
                              hval((uint32_t)(b[l] >> 16 * i) & 0xffffu, bf, ftz),
                              in->cmp);
            int c = (int)(cm >> l & 1);
            v = in->combine == PTX_SUB_AND ? v && c
              : in->combine == PTX_SUB_OR  ? v || c
              : in->combine == PTX_SUB_XOR ? v ^ c : v;
            if (v)
                r |= yes << (16 * i);
        }
        put(w, D, l, r);
    }
}

/* cvt with bf16: cvt.rn.bf16.{f32,f64} and cvt.rn.bf16x2.f32 d, a, b
 * (a in the upper half) round once to nearest even (.rz truncates);
 * cvt.{f32,f64}.bf16 is exact. */
static void h_cvt_bf16(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                       uint32_t m)
{
    const ptx_insn_t *in = ei->ir;
    const uint64_t *a = SRC(1);
    const uint64_t *b = ei->nops > 2 ? SRC(2) : a;
    int rz = in->rnd == PTX_RND_RZ;
    ptx_type_t st = (ptx_type_t)in->type2;
    FOR_LANES(m, l) {
        if (in->type2 == PTX_T_BF16) { /* widen */
            float f = f32_of((uint64_t)((uint32_t)a[l] & 0xffffu) << 16);
            put(w, D, l, in->type == PTX_T_F64 ? bits_f64((double)f) : bits_f32(f));
            continue;
        }
        uint32_t r = 0;
        for (unsigned i = 0; i < (ei->nops > 2 ? 2u : 1u); i++) {
            uint64_t v = i == 0 ? (ei->nops > 2 ? b[l] : a[l]) : a[l];
            double d = st == PTX_T_F64 ? f64_of(v) : (double)f32_of(v);
            uint32_t h = rz ? (isnan(d) ? HALF_NAN
                                        : (uint32_t)bits_f32((float)d) >> 16)
                            : hround(round_odd(1.0, d, -0.0, 1), 1);
            r |= h << 16 * i;
        }
        put(w, D, l, r);
    }
}

exec_fn exec_select_half(const ptx_insn_t *in)
{
    if (in->op == PTX_OP_CVT) {
        ptx_type_t d = (ptx_type_t)in->type, s = (ptx_type_t)in->type2;
        if (d == PTX_T_BF16X2)
            return s == PTX_T_F32 && in->nops == 3 ? h_cvt_bf16 : NULL;
        if (d == PTX_T_BF16)
            return s == PTX_T_F32 || s == PTX_T_F64 ? h_cvt_bf16 : NULL;
        return s == PTX_T_BF16 && (d == PTX_T_F32 || d == PTX_T_F64)
                   ? h_cvt_bf16 : NULL;
    }
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_FMA:
    case PTX_OP_NEG: case PTX_OP_ABS: case PTX_OP_MIN: case PTX_OP_MAX:
        return h_half;
    case PTX_OP_SETP:
        return h_setp_half;
    case PTX_OP_SET:
        return h_set_half;
    default:
        return NULL;
    }
}
