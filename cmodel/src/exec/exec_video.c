/* exec_video.c: the SIMD video instructions on 4 bytes (vadd4, vsub4,
 * vavrg4, vabsdiff4, vmin4, vmax4, vset4) or 2 half-words (the ...2 forms)
 * of a 32-bit register, as the PTX ISA defines them:
 *
 *   vop.dtype.atype.btype{.sat}  d, a, b, c   element-wise op, merged into c
 *   vop.dtype.atype.btype.add    d, a, b, c   c + the sum of the elements
 *   vset.atype.btype.cmp{.add}   d, a, b, c   1 where the comparison holds
 *
 * Element i of a and of b is sign- or zero-extended by its type; the
 * intermediate results are exact integers.  vavrg rounds half away from
 * zero: (s + (s >= 0)) >> 1 of the sum s.  Without .add each result
 * element is written into the corresponding element of d (saturated to
 * the range of dtype's element with .sat, else its low bits): the default
 * destination mask (.b3210 / .h10) selects every element, so c only
 * matters with .add.  The accumulate sums the unsaturated intermediate
 * results.  Operand byte and half-word selectors (a.b3210, d.h0, ...) are
 * not supported: the parser rejects them; nvcc emits the default forms. */
#include "exec/dispatch.h"
#include "exec/lanes.h"

static int video_is4(ptx_op_t op)
{
    return op >= PTX_OP_VADD4 && op <= PTX_OP_VSET4;
}

/* Element i of v (n elements of 32/n bits), extended by type t. */
static int64_t element(uint32_t v, unsigned i, unsigned bits, ptx_type_t t)
{
    uint64_t e = (v >> (i * bits)) & ((1u << bits) - 1);
    return t == PTX_T_S32 ? (int64_t)sext(e, bits) : (int64_t)e;
}

static int video_cmp(int64_t a, int64_t b, int cmp)
{
    switch (cmp) {
    case PTX_CMP_EQ: return a == b;
    case PTX_CMP_NE: return a != b;
    case PTX_CMP_LT: return a < b;
    case PTX_CMP_LE: return a <= b;
    case PTX_CMP_GT: return a > b;
    default: return a >= b;
    }
}

static void h_video(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                    uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    const ptx_insn_t *in = ei->ir;
    ptx_op_t op = (ptx_op_t)in->op;
    int four = video_is4(op);
    unsigned n = four ? 4 : 2, bits = four ? 8 : 16;
    /* the ...2 opcodes are the ...4 ones shifted by a fixed distance */
    ptx_op_t base = four ? op : (ptx_op_t)(op - PTX_OP_VADD2 + PTX_OP_VADD4);
    int set = base == PTX_OP_VSET4;
    ptx_type_t at = (ptx_type_t)(set ? in->type : in->type2);
    ptx_type_t bt = (ptx_type_t)(set ? in->type2 : in->type3);
    int dsigned = !set && in->type == PTX_T_S32;
    int sat = (in->flags & PTX_F_SAT) != 0, add = in->sub == PTX_SUB_ADD;
    int64_t hi = dsigned ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
    int64_t lo = dsigned ? -(1 << (bits - 1)) : 0;
    uint32_t emask = (1u << bits) - 1;
    FOR_LANES(m, l) {
        uint32_t r = (uint32_t)c[l];
        int64_t sum = 0;
        for (unsigned i = 0; i < n; i++) {
            int64_t va = element((uint32_t)a[l], i, bits, at);
            int64_t vb = element((uint32_t)b[l], i, bits, bt), t;
            switch (base) {
            case PTX_OP_VADD4: t = va + vb; break;
            case PTX_OP_VSUB4: t = va - vb; break;
            case PTX_OP_VAVRG4: t = (va + vb + (va + vb >= 0)) >> 1; break;
            case PTX_OP_VABSDIFF4: t = va > vb ? va - vb : vb - va; break;
            case PTX_OP_VMIN4: t = va < vb ? va : vb; break;
            case PTX_OP_VMAX4: t = va > vb ? va : vb; break;
            default: t = video_cmp(va, vb, in->cmp); break; /* vset */
            }
            sum += t;
            if (sat)
                t = t > hi ? hi : t < lo ? lo : t;
            r = (r & ~(emask << (i * bits))) |
                ((uint32_t)t & emask) << (i * bits);
        }
        put(w, &ei->o[0], l, add ? (uint32_t)((int64_t)(int32_t)c[l] + sum) : r);
    }
}

exec_fn exec_select_video(const ptx_insn_t *in)
{
    return ptx_op_is_video(in->op) ? h_video : NULL;
}
