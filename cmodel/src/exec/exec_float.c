/* exec_float.c: f32/f64 arithmetic, transcendental approximations,
 * comparisons and classification.
 *
 * Rounding modes .rz/.rm/.rp switch the host FPU rounding mode around the
 * operation (this file is compiled with -frounding-math).  .ftz flushes f32
 * subnormal inputs and results to sign-preserving zero; .sat clamps to
 * [0, 1] with NaN giving 0.  The .approx functions use the host's correctly
 * rounded (or nearly so) libm; hardware approximations differ by a few ulp
 * (docs/semantics.md). */
#include <fenv.h>
#include <math.h>

#include "exec/dispatch.h"
#include "exec/lanes.h"

#define TYPE(ei) ((ptx_type_t)(ei)->ir->type)
#define D (&ei->o[0])

static int host_mode(int rnd)
{
    switch (rnd) {
    case PTX_RND_RZ: return FE_TOWARDZERO;
    case PTX_RND_RM: return FE_DOWNWARD;
    case PTX_RND_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* Enters the instruction's rounding mode; returns the mode to restore. */
static int enter_rnd(const exec_insn_t *ei)
{
    int mode = host_mode(ei->ir->rnd);
    if (mode == FE_TONEAREST)
        return -1;
    int old = fegetround();
    fesetround(mode);
    return old;
}

static void leave_rnd(int old)
{
    if (old >= 0)
        fesetround(old);
}

static float ftz32(float f)
{
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

static float sat32(float f)
{
    if (isnan(f))
        return 0.0f;
    return f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
}

static double sat64(double d)
{
    if (isnan(d))
        return 0.0;
    return d < 0.0 ? 0.0 : d > 1.0 ? 1.0 : d;
}

typedef struct fctx {
    int ftz, sat;
} fctx_t;

static fctx_t fmods(const exec_insn_t *ei)
{
    return (fctx_t){ (ei->ir->flags & PTX_F_FTZ) != 0,
                     (ei->ir->flags & PTX_F_SAT) != 0 };
}

static float in32(const fctx_t *c, uint64_t v)
{
    float f = f32_of(v);
    return c->ftz ? ftz32(f) : f;
}

static uint64_t out32(const fctx_t *c, float f)
{
    if (c->ftz)
        f = ftz32(f);
    if (c->sat)
        f = sat32(f);
    return bits_f32(f);
}

static uint64_t out64(const fctx_t *c, double d)
{
    return bits_f64(c->sat ? sat64(d) : d);
}

/* ---------- binary and ternary arithmetic ---------- */

static void h_farith(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                     uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    const uint64_t *c = ei->nops > 3 ? SRC(3) : NULL;
    fctx_t fc = fmods(ei);
    int op = ei->ir->op;
    int old = enter_rnd(ei);
    if (TYPE(ei) == PTX_T_F32) {
        FOR_LANES(m, l) {
            float va = in32(&fc, a[l]), vb = in32(&fc, b[l]), r;
            switch (op) {
            case PTX_OP_ADD: r = va + vb; break;
            case PTX_OP_SUB: r = va - vb; break;
            case PTX_OP_MUL: r = va * vb; break;
            case PTX_OP_DIV: r = va / vb; break;
            default: r = fmaf(va, vb, in32(&fc, c[l])); break; /* fma, mad */
            }
            put(w, D, l, out32(&fc, r));
        }
    } else {
        FOR_LANES(m, l) {
            double va = f64_of(a[l]), vb = f64_of(b[l]), r;
            switch (op) {
            case PTX_OP_ADD: r = va + vb; break;
            case PTX_OP_SUB: r = va - vb; break;
            case PTX_OP_MUL: r = va * vb; break;
            case PTX_OP_DIV: r = va / vb; break;
            default: r = fma(va, vb, f64_of(c[l])); break;
            }
            put(w, D, l, out64(&fc, r));
        }
    }
    leave_rnd(old);
}

/* ---------- unary ---------- */

static float unary32(int op, float v)
{
    switch (op) {
    case PTX_OP_ABS: return fabsf(v);
    case PTX_OP_NEG: return -v;
    case PTX_OP_RCP: return 1.0f / v;
    case PTX_OP_SQRT: return sqrtf(v);
    case PTX_OP_RSQRT: return 1.0f / sqrtf(v);
    case PTX_OP_EX2: return exp2f(v);
    case PTX_OP_LG2: return log2f(v);
    case PTX_OP_SIN: return sinf(v);
    case PTX_OP_COS: return cosf(v);
    default: return tanhf(v);
    }
}

static double unary64(int op, double v)
{
    switch (op) {
    case PTX_OP_ABS: return fabs(v);
    case PTX_OP_NEG: return -v;
    case PTX_OP_RCP: return 1.0 / v;
    case PTX_OP_SQRT: return sqrt(v);
    case PTX_OP_RSQRT: return 1.0 / sqrt(v);
    case PTX_OP_EX2: return exp2(v);
    case PTX_OP_LG2: return log2(v);
    case PTX_OP_SIN: return sin(v);
    case PTX_OP_COS: return cos(v);
    default: return tanh(v);
    }
}

static void h_funary(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                     uint32_t m)
{
    const uint64_t *a = SRC(1);
    fctx_t fc = fmods(ei);
    int op = ei->ir->op;
    int old = enter_rnd(ei);
    if (TYPE(ei) == PTX_T_F32) {
        FOR_LANES(m, l)
            put(w, D, l, out32(&fc, unary32(op, in32(&fc, a[l]))));
    } else {
        FOR_LANES(m, l)
            put(w, D, l, out64(&fc, unary64(op, f64_of(a[l]))));
    }
    leave_rnd(old);
}

/* ---------- min / max / copysign ---------- */

static double fminmax(double a, double b, int mx)
{
    if (isnan(a) && isnan(b))
        return NAN;
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    if (a == b) /* -0 < +0 for min/max */
        return mx ? (signbit(a) ? b : a) : (signbit(a) ? a : b);
    return (a < b) != mx ? a : b;
}

static void h_fminmax(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                      uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    fctx_t fc = fmods(ei);
    int mx = ei->ir->op == PTX_OP_MAX;
    if (TYPE(ei) == PTX_T_F32) {
        FOR_LANES(m, l) {
            double r = fminmax(in32(&fc, a[l]), in32(&fc, b[l]), mx);
            put(w, D, l, isnan(r) ? 0x7fffffffu : out32(&fc, (float)r));
        }
    } else {
        FOR_LANES(m, l) {
            double r = fminmax(f64_of(a[l]), f64_of(b[l]), mx);
            put(w, D, l, isnan(r) ? 0x7fffffffffffffffull : bits_f64(r));
        }
    }
}

static void h_copysign(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                       uint32_t m)
{
    /* copysign.type d, a, b: magnitude of b, sign of a */
    const uint64_t *a = SRC(1), *b = SRC(2);
    if (TYPE(ei) == PTX_T_F32) {
        FOR_LANES(m, l)
            put(w, D, l, (b[l] & 0x7fffffffu) | (a[l] & 0x80000000u));
    } else {
        FOR_LANES(m, l)
            put(w, D, l, (b[l] & ~(1ull << 63)) | (a[l] & (1ull << 63)));
    }
}

static void h_testp(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                    uint32_t m)
{
    const uint64_t *a = SRC(1);
    uint32_t res = 0;
    FOR_LANES(m, l) {
        double v = TYPE(ei) == PTX_T_F32 ? (double)f32_of(a[l]) : f64_of(a[l]);
        int cls = TYPE(ei) == PTX_T_F32 ? fpclassify(f32_of(a[l])) : fpclassify(v);
        int r;
        switch (ei->ir->sub) {
        case PTX_SUB_FINITE: r = isfinite(v); break;
        case PTX_SUB_INFINITE: r = isinf(v) != 0; break;
        case PTX_SUB_NUMBER: r = !isnan(v); break;
        case PTX_SUB_NOTANUMBER: r = isnan(v); break;
        /* the ISA counts +0 and -0 as normal numbers */
        case PTX_SUB_NORMAL: r = cls == FP_NORMAL || cls == FP_ZERO; break;
        default: r = cls == FP_SUBNORMAL; break;
        }
        res |= (uint32_t)r << l;
    }
    put_pred_mask(w, D->slot, m, res);
}

/* ---------- comparisons ---------- */

int exec_fcmp(double a, double b, int cmp)
{
    int un = isnan(a) || isnan(b);
    switch (cmp) {
    case PTX_CMP_EQ: return !un && a == b;
    case PTX_CMP_NE: return !un && a != b;
    case PTX_CMP_LT: return !un && a < b;
    case PTX_CMP_LE: return !un && a <= b;
    case PTX_CMP_GT: return !un && a > b;
    case PTX_CMP_GE: return !un && a >= b;
    case PTX_CMP_EQU: return un || a == b;
    case PTX_CMP_NEU: return un || a != b;
    case PTX_CMP_LTU: return un || a < b;
    case PTX_CMP_LEU: return un || a <= b;
    case PTX_CMP_GTU: return un || a > b;
    case PTX_CMP_GEU: return un || a >= b;
    case PTX_CMP_NUM: return !un;
    case PTX_CMP_NAN: return un;
    default: return 0;
    }
}

static uint32_t fcmp_mask(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                          uint32_t m, ptx_type_t t)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    fctx_t fc = fmods(ei);
    int cmp = ei->ir->cmp;
    uint32_t res = 0;
    if (t == PTX_T_F32) {
        FOR_LANES(m, l)
            res |= (uint32_t)exec_fcmp(in32(&fc, a[l]), in32(&fc, b[l]), cmp) << l;
    } else {
        FOR_LANES(m, l)
            res |= (uint32_t)exec_fcmp(f64_of(a[l]), f64_of(b[l]), cmp) << l;
    }
    return res;
}

static void h_setp_float(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                         uint32_t m)
{
    exec_setp_finish(w, ei, m, fcmp_mask(x, w, ei, m, TYPE(ei)));
}

static void h_set_float(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                        uint32_t m)
{
    uint32_t res = fcmp_mask(x, w, ei, m, (ptx_type_t)ei->ir->type2);
    uint32_t c = ei->ir->combine ? pred_mask(w, &ei->o[3]) : 0;
    switch (ei->ir->combine) {
    case PTX_SUB_AND: res &= c; break;
    case PTX_SUB_OR: res |= c; break;
    case PTX_SUB_XOR: res ^= c; break;
    default: break;
    }
    int fdst = TYPE(ei) == PTX_T_F32;
    FOR_LANES(m, l)
        put(w, D, l, res >> l & 1 ? (fdst ? 0x3f800000u : 0xffffffffu) : 0);
}

exec_fn exec_select_float(const ptx_insn_t *in)
{
    ptx_type_t t = (ptx_type_t)in->type;
    if (in->op == PTX_OP_SET)
        return ptx_type_is_float((ptx_type_t)in->type2) &&
                       in->type2 != PTX_T_F16 ? h_set_float : NULL;
    if (t != PTX_T_F32 && t != PTX_T_F64)
        return NULL;
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_DIV:
    case PTX_OP_FMA: case PTX_OP_MAD:
        return h_farith;
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_RCP: case PTX_OP_SQRT:
    case PTX_OP_RSQRT: case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_SIN:
    case PTX_OP_COS: case PTX_OP_TANH:
        return h_funary;
    case PTX_OP_MIN: case PTX_OP_MAX: return h_fminmax;
    case PTX_OP_COPYSIGN: return h_copysign;
    case PTX_OP_TESTP: return h_testp;
    case PTX_OP_SETP: return h_setp_float;
    default: return NULL;
    }
}
