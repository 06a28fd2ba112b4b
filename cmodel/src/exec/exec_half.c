/* exec_half.c: half-precision arithmetic on .f16 (one binary16 in the low
 * 16 bits) and .f16x2 (two, element 0 in the low half): add, sub, mul,
 * fma, neg, abs, min, max and setp, element by element.
 *
 * Each result is the exact result rounded once to binary16, to nearest
 * even (the only rounding PTX gives these instructions): sums,
 * differences and products of two binary16 values are exact in a double;
 * fma is computed in a double rounded to odd, which has enough extra bits
 * for the second rounding to binary16 to be the correct one.  .ftz
 * flushes subnormal inputs and results to a zero of the same sign; .sat
 * clamps to [0, 1] with NaN giving 0.  min/max follow the f32 rules (one
 * NaN gives the other operand, two the canonical NaN 0x7fff; -0 < +0).
 * setp.f16x2 writes p from element 0 and q from element 1, each combined
 * with c under .and/.or/.xor; set writes 1.0 or all ones per element. */
#include <fenv.h>
#include <math.h>

#include "exec/dispatch.h"
#include "exec/lanes.h"

#define D (&ei->o[0])
#define HALF_NAN 0x7fffu

static int is_subnormal(uint32_t h)
{
    return (h & 0x7c00u) == 0 && (h & 0x3ffu) != 0;
}

static double hval(uint32_t h, int ftz)
{
    if (ftz && is_subnormal(h))
        h &= 0x8000u;
    return (double)exec_f16_to_f32(h);
}

/* a * b + c rounded to odd in a double (sticky last bit when inexact). */
static double fma_odd(double a, double b, double c)
{
    int mode = fegetround();
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_INEXACT);
    volatile double r = fma(a, b, c);
    int inexact = fetestexcept(FE_INEXACT) != 0;
    fesetround(mode);
    double v = r;
    if (inexact) {
        uint64_t u = bits_f64(v) | 1;
        v = f64_of(u);
    }
    return v;
}

/* One element: the op of ei on binary16 a, b (and c for fma). */
static uint32_t half_op(const ptx_insn_t *in, uint32_t a, uint32_t b,
                        uint32_t c)
{
    int ftz = (in->flags & PTX_F_FTZ) != 0;
    double x = hval(a, ftz), y = hval(b, ftz), r;
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
    case PTX_OP_ADD: r = x + y; break;
    case PTX_OP_SUB: r = x - y; break;
    case PTX_OP_MUL: r = x * y; break;
    default: r = fma_odd(x, y, hval(c, ftz)); break; /* fma, mad */
    }
    if (isnan(r))
        return in->flags & PTX_F_SAT ? 0 : HALF_NAN;
    uint32_t h = exec_f16_from_double(r, PTX_RND_RN);
    if (in->flags & PTX_F_SAT) {
        double v = (double)exec_f16_to_f32(h);
        h = v > 1.0 ? 0x3c00u : (v > 0.0 ? h : 0);
    }
    if (ftz && is_subnormal(h))
        h &= 0x8000u;
    return h;
}

static void h_half(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                   uint32_t m)
{
    const ptx_insn_t *in = ei->ir;
    unsigned n = in->type == PTX_T_F16X2 ? 2 : 1;
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
    int ftz = (in->flags & PTX_F_FTZ) != 0;
    if (in->type == PTX_T_F16) {
        uint32_t res = 0;
        FOR_LANES(m, l)
            res |= (uint32_t)exec_fcmp(hval((uint32_t)a[l] & 0xffffu, ftz),
                                       hval((uint32_t)b[l] & 0xffffu, ftz),
                                       in->cmp) << l;
        exec_setp_finish(w, ei, m, res);
        return;
    }
    uint32_t res[2] = { 0, 0 };
    FOR_LANES(m, l)
        for (unsigned i = 0; i < 2; i++)
            res[i] |= (uint32_t)exec_fcmp(
                          hval((uint32_t)(a[l] >> 16 * i) & 0xffffu, ftz),
                          hval((uint32_t)(b[l] >> 16 * i) & 0xffffu, ftz),
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
    int ftz = (in->flags & PTX_F_FTZ) != 0;
    unsigned n = in->type2 == PTX_T_F16X2 ? 2 : 1;
    unsigned ebits = n == 2 ? 16 : ptx_type_bits((ptx_type_t)in->type);
    int fdst = in->type == PTX_T_F16 || in->type == PTX_T_F16X2;
    uint32_t yes = fdst ? 0x3c00u : (uint32_t)((1ull << ebits) - 1);
    uint32_t cm = in->combine ? pred_mask(w, &ei->o[3]) : 0;
    FOR_LANES(m, l) {
        uint32_t r = 0;
        for (unsigned i = 0; i < n; i++) {
            int v = exec_fcmp(hval((uint32_t)(a[l] >> 16 * i) & 0xffffu, ftz),
                              hval((uint32_t)(b[l] >> 16 * i) & 0xffffu, ftz),
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

exec_fn exec_select_half(const ptx_insn_t *in)
{
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
