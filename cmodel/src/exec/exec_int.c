/* exec_int.c: integer, bit and predicate-logic instructions, mov, selp,
 * slct and integer comparisons.  Semantics follow the PTX ISA manual; where
 * it leaves a result undefined (division by zero) we pick what NVIDIA
 * hardware returns and say so in docs/semantics.md. */
#include <limits.h>
#include <math.h>

#include "exec/dispatch.h"
#include "exec/lanes.h"

#define TYPE(ei) ((ptx_type_t)(ei)->ir->type)
#define D (&ei->o[0])

/* ---------- mov ---------- */

static void h_mov(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const exec_opnd_t *d = D, *s = &ei->o[1];
    if (d->kind == EO_PRED) {
        uint32_t v = s->kind == EO_PRED ? pred_mask(w, s)
                   : s->kind == EO_IMM  ? (x->l->prog->imm[(size_t)s->slot * WARP_SIZE] & 1 ? ~0u : 0)
                                        : 0;
        put_pred_mask(w, d->slot, m, v);
        return;
    }
    unsigned bits = ptx_type_bits(TYPE(ei));
    if (d->kind == EO_VEC) { /* unpack: mov.b64 {lo, hi}, %rd */
        const uint64_t *a = SRC(1);
        unsigned part = bits / d->n;
        FOR_LANES(m, l) {
            for (unsigned i = 0; i < d->n; i++)
                if (d->vslot[i] != EXEC_NO_PC)
                    w->regs[(size_t)d->vslot[i] * WARP_SIZE + l] =
                        zext(a[l] >> (i * part), part);
        }
        return;
    }
    if (s->kind == EO_VEC) { /* pack: mov.b64 %rd, {lo, hi} */
        unsigned part = bits / s->n;
        FOR_LANES(m, l) {
            uint64_t v = 0;
            for (unsigned i = 0; i < s->n; i++)
                if (s->vslot[i] != EXEC_NO_PC)
                    v |= zext(w->regs[(size_t)s->vslot[i] * WARP_SIZE + l], part)
                         << (i * part);
            put(w, d, l, v);
        }
        return;
    }
    const uint64_t *a = SRC(1);
    FOR_LANES(m, l)
        put(w, d, l, zext(a[l], bits));
}

/* ---------- predicate logic (and/or/xor/not/cnot .pred) ---------- */

static void h_pred_logic(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                         uint32_t m)
{
    (void)x;
    uint32_t a = pred_mask(w, &ei->o[1]);
    uint32_t b = ei->nops > 2 ? pred_mask(w, &ei->o[2]) : 0;
    uint32_t r;
    switch (ei->ir->op) {
    case PTX_OP_AND: r = a & b; break;
    case PTX_OP_OR: r = a | b; break;
    case PTX_OP_XOR: r = a ^ b; break;
    default: r = ~a; break; /* not, cnot */
    }
    put_pred_mask(w, D->slot, m, r);
}

/* ---------- add/sub with .sat and carry ---------- */

static int64_t sat_s32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
}

static void h_addsub(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                     uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    ptx_type_t t = TYPE(ei);
    unsigned bits = ptx_type_bits(t);
    int op = ei->ir->op;
    int sub = op == PTX_OP_SUB || op == PTX_OP_SUBC;
    int use_cc = op == PTX_OP_ADDC || op == PTX_OP_SUBC;
    int set_cc = (ei->ir->flags & PTX_F_CC) != 0;
    if (ei->ir->flags & PTX_F_SAT) { /* add.sat.s32 / sub.sat.s32 */
        FOR_LANES(m, l) {
            int64_t va = (int32_t)a[l], vb = (int32_t)b[l];
            put(w, D, l, zext((uint64_t)sat_s32(sub ? va - vb : va + vb), 32));
        }
        return;
    }
    if (!use_cc && !set_cc) { /* the common case: modular add/sub */
        if (sub)
            FOR_LANES(m, l) put(w, D, l, zext(a[l] - b[l], bits));
        else
            FOR_LANES(m, l) put(w, D, l, zext(a[l] + b[l], bits));
        return;
    }
    uint32_t cc = 0;
    FOR_LANES(m, l) {
        uint64_t va = zext(a[l], bits), vb = zext(b[l], bits);
        uint64_t cin = use_cc ? (*w->cc >> l & 1) : 0;
        uint64_t r;
        unsigned __int128 wide;
        if (!sub) {
            wide = (unsigned __int128)va + vb + cin;
            r = (uint64_t)wide;
            if (set_cc && (bits == 64 ? (wide >> 64) != 0 : (r >> bits) != 0))
                cc |= 1u << l;
        } else {
            /* borrow: PTX sets CC.CF on a - b - borrow < 0 (unsigned) */
            r = va - vb - cin;
            if (set_cc && ((unsigned __int128)va < (unsigned __int128)vb + cin))
                cc |= 1u << l;
        }
        put(w, D, l, zext(r, bits));
    }
    if (set_cc)
        *w->cc = (*w->cc & ~m) | cc;
}

/* ---------- mul / mad (integer) ---------- */

static uint64_t mul_part(uint64_t a, uint64_t b, ptx_type_t t, int sub,
                         unsigned *rbits)
{
    unsigned bits = ptx_type_bits(t);
    int sgn = ptx_type_is_signed(t);
    if (sub == PTX_SUB_WIDE) {
        *rbits = bits * 2;
        if (sgn)
            return (uint64_t)((int64_t)sext(a, bits) * (int64_t)sext(b, bits));
        return zext(a, bits) * zext(b, bits);
    }
    *rbits = bits;
    if (sub == PTX_SUB_HI) {
        if (bits == 64) {
            if (sgn)
                return (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
            return (uint64_t)(((unsigned __int128)a * b) >> 64);
        }
        uint64_t p = sgn ? (uint64_t)((int64_t)sext(a, bits) * (int64_t)sext(b, bits))
                         : zext(a, bits) * zext(b, bits);
        return zext(p >> bits, bits);
    }
    return zext(a * b, bits);
}

static void h_mul(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    ptx_type_t t = TYPE(ei);
    int sub = ei->ir->sub;
    unsigned rbits;
    if (sub == PTX_SUB_LO && ptx_type_bits(t) == 32) { /* the common case */
        FOR_LANES(m, l)
            put(w, D, l, (uint32_t)(a[l] * b[l]));
        return;
    }
    FOR_LANES(m, l)
        put(w, D, l, mul_part(a[l], b[l], t, sub, &rbits));
}

static void h_mad(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    ptx_type_t t = TYPE(ei);
    int sub = ei->ir->sub;
    int use_cc = ei->ir->op == PTX_OP_MADC;
    int set_cc = (ei->ir->flags & PTX_F_CC) != 0;
    int sat = (ei->ir->flags & PTX_F_SAT) != 0; /* mad.hi.sat.s32 */
    uint32_t cc = 0;
    FOR_LANES(m, l) {
        unsigned rbits;
        uint64_t p = mul_part(a[l], b[l], t, sub, &rbits);
        if (sat) {
            int64_t r = (int64_t)(int32_t)p + (int64_t)(int32_t)c[l];
            put(w, D, l, zext((uint64_t)sat_s32(r), 32));
            continue;
        }
        uint64_t vc = zext(c[l], rbits);
        uint64_t cin = use_cc ? (*w->cc >> l & 1) : 0;
        unsigned __int128 wide = (unsigned __int128)p + vc + cin;
        uint64_t r = (uint64_t)wide;
        if (set_cc && (rbits == 64 ? (wide >> 64) != 0 : (r >> rbits) != 0))
            cc |= 1u << l;
        put(w, D, l, zext(r, rbits));
    }
    if (set_cc)
        *w->cc = (*w->cc & ~m) | cc;
}

static void h_mul24(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                    uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    const uint64_t *c = ei->ir->op == PTX_OP_MAD24 ? SRC(3) : NULL;
    int sgn = ptx_type_is_signed(TYPE(ei));
    int hi = ei->ir->sub == PTX_SUB_HI;
    FOR_LANES(m, l) {
        int64_t va = sgn ? (int64_t)sext(a[l], 24) : (int64_t)zext(a[l], 24);
        int64_t vb = sgn ? (int64_t)sext(b[l], 24) : (int64_t)zext(b[l], 24);
        uint64_t p = (uint64_t)(va * vb); /* 48-bit product */
        uint32_t r = hi ? (uint32_t)(p >> 16) : (uint32_t)p;
        if (c)
            r += (uint32_t)c[l];
        put(w, D, l, r);
    }
}

/* ---------- div / rem ---------- */

static void h_divrem(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                     uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    ptx_type_t t = TYPE(ei);
    unsigned bits = ptx_type_bits(t);
    int rem = ei->ir->op == PTX_OP_REM;
    if (ptx_type_is_signed(t)) {
        FOR_LANES(m, l) {
            int64_t va = (int64_t)sext(a[l], bits), vb = (int64_t)sext(b[l], bits);
            int64_t r;
            if (vb == 0)
                r = rem ? va : -1;            /* hardware: quotient all ones */
            else if (vb == -1)
                r = rem ? 0 : (int64_t)(0 - (uint64_t)va); /* wraps at MIN */
            else
                r = rem ? va % vb : va / vb;
            put(w, D, l, zext((uint64_t)r, bits));
        }
    } else {
        FOR_LANES(m, l) {
            uint64_t va = zext(a[l], bits), vb = zext(b[l], bits);
            uint64_t r = vb == 0 ? (rem ? va : ~0ull) : rem ? va % vb : va / vb;
            put(w, D, l, zext(r, bits));
        }
    }
}

/* ---------- abs / neg / min / max ---------- */

static void h_absneg(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                     uint32_t m)
{
    const uint64_t *a = SRC(1);
    unsigned bits = ptx_type_bits(TYPE(ei));
    int neg = ei->ir->op == PTX_OP_NEG;
    FOR_LANES(m, l) {
        int64_t v = (int64_t)sext(a[l], bits);
        uint64_t r = neg || v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
        put(w, D, l, zext(r, bits));
    }
}

static void h_minmax(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                     uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    ptx_type_t t = TYPE(ei);
    unsigned bits = ptx_type_bits(t);
    int mx = ei->ir->op == PTX_OP_MAX;
    int sgn = ptx_type_is_signed(t);
    FOR_LANES(m, l) {
        uint64_t va = as_type(a[l], t), vb = as_type(b[l], t);
        int less = sgn ? (int64_t)va < (int64_t)vb : va < vb;
        uint64_t r = (less != mx) ? va : vb;
        put(w, D, l, zext(r, bits));
    }
}

/* ---------- bitwise ---------- */

static void h_logic(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                    uint32_t m)
{
    unsigned bits = ptx_type_bits(TYPE(ei));
    const uint64_t *a = SRC(1);
    switch (ei->ir->op) {
    case PTX_OP_NOT:
        FOR_LANES(m, l) put(w, D, l, zext(~a[l], bits));
        return;
    case PTX_OP_CNOT:
        FOR_LANES(m, l) put(w, D, l, zext(a[l], bits) == 0);
        return;
    default:
        break;
    }
    const uint64_t *b = SRC(2);
    switch (ei->ir->op) {
    case PTX_OP_AND: FOR_LANES(m, l) put(w, D, l, zext(a[l] & b[l], bits)); break;
    case PTX_OP_OR: FOR_LANES(m, l) put(w, D, l, zext(a[l] | b[l], bits)); break;
    default: FOR_LANES(m, l) put(w, D, l, zext(a[l] ^ b[l], bits)); break;
    }
}

static void h_shift(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                    uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    ptx_type_t t = TYPE(ei);
    unsigned bits = ptx_type_bits(t);
    int left = ei->ir->op == PTX_OP_SHL;
    int arith = !left && ptx_type_is_signed(t);
    FOR_LANES(m, l) {
        uint32_t n = (uint32_t)b[l]; /* shift amount: unsigned 32-bit */
        uint64_t v = zext(a[l], bits), r;
        if (left)
            r = n >= bits ? 0 : v << n;
        else if (arith) {
            int64_t s = (int64_t)sext(v, bits);
            r = (uint64_t)(s >> (n >= bits ? bits - 1 : n));
        } else
            r = n >= bits ? 0 : v >> n;
        put(w, D, l, zext(r, bits));
    }
}

static void h_shf(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    int sub = ei->ir->sub;
    int left = sub == PTX_SUB_L_WRAP || sub == PTX_SUB_L_CLAMP;
    int clamp = sub == PTX_SUB_L_CLAMP || sub == PTX_SUB_R_CLAMP;
    FOR_LANES(m, l) {
        uint32_t n = (uint32_t)c[l];
        n = clamp ? (n > 32 ? 32 : n) : n & 31;
        uint64_t v = (uint64_t)(uint32_t)b[l] << 32 | (uint32_t)a[l];
        uint32_t r = left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
        put(w, D, l, r);
    }
}

static void h_bfe(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    ptx_type_t t = TYPE(ei);
    unsigned bits = ptx_type_bits(t);
    int sgn = ptx_type_is_signed(t);
    FOR_LANES(m, l) {
        uint32_t pos = (uint32_t)b[l] & 0xff, len = (uint32_t)c[l] & 0xff;
        uint64_t v = zext(a[l], bits);
        uint64_t sbit = 0;
        if (sgn && len) {
            unsigned top = pos + len - 1 < bits - 1 ? pos + len - 1 : bits - 1;
            sbit = v >> top & 1;
        }
        uint64_t r = 0;
        for (unsigned i = 0; i < bits; i++) {
            uint64_t bit = (i < len && pos + i < bits) ? v >> (pos + i) & 1 : sbit;
            r |= bit << i;
        }
        put(w, D, l, r);
    }
}

static void h_bfi(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3), *e = SRC(4);
    unsigned bits = ptx_type_bits(TYPE(ei));
    FOR_LANES(m, l) {
        uint32_t pos = (uint32_t)c[l] & 0xff, len = (uint32_t)e[l] & 0xff;
        uint64_t r = zext(b[l], bits);
        for (unsigned i = 0; i < len && pos + i < bits; i++) {
            uint64_t bit = a[l] >> i & 1;
            r = (r & ~(1ull << (pos + i))) | bit << (pos + i);
        }
        put(w, D, l, r);
    }
}

static void h_bitcount(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                       uint32_t m)
{
    const uint64_t *a = SRC(1);
    ptx_type_t t = TYPE(ei);
    unsigned bits = ptx_type_bits(t);
    int op = ei->ir->op;
    FOR_LANES(m, l) {
        uint64_t v = zext(a[l], bits), r = 0;
        switch (op) {
        case PTX_OP_POPC:
            r = (uint64_t)__builtin_popcountll(v);
            break;
        case PTX_OP_CLZ:
            r = v ? (uint64_t)(__builtin_clzll(v) - (64 - (int)bits)) : bits;
            break;
        case PTX_OP_BREV:
            for (unsigned i = 0; i < bits; i++)
                r |= (v >> i & 1) << (bits - 1 - i);
            break;
        default: { /* bfind: position of the most significant non-sign bit */
            uint64_t s = v;
            if (ptx_type_is_signed(t) && (v >> (bits - 1) & 1))
                s = zext(~v, bits);
            if (s == 0) {
                r = 0xffffffffu;
            } else {
                r = (uint64_t)(63 - __builtin_clzll(s));
                if (ei->ir->flags & PTX_F_SHIFTAMT)
                    r = bits - 1 - r;
            }
            break;
        }
        }
        /* brev keeps the operand width; popc, clz and bfind give a u32 */
        put(w, D, l, zext(r, op == PTX_OP_BREV ? bits : 32));
    }
}

static void h_prmt(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    int mode = ei->ir->sub;
    FOR_LANES(m, l) {
        uint64_t src = (uint64_t)(uint32_t)b[l] << 32 | (uint32_t)a[l];
        uint32_t sel = (uint32_t)c[l], r = 0;
        for (unsigned i = 0; i < 4; i++) {
            unsigned idx, sign = 0;
            unsigned s2 = sel & 3;
            switch (mode) {
            case PTX_SUB_F4E: idx = (s2 + i) & 7; break;
            case PTX_SUB_B4E: idx = (s2 - i) & 7; break;
            case PTX_SUB_RC8: idx = s2; break;
            case PTX_SUB_ECL: idx = i > s2 ? i : s2; break;
            case PTX_SUB_ECR: idx = i < s2 ? i : s2; break;
            case PTX_SUB_RC16: idx = (s2 & 1) * 2 + (i & 1); break;
            default:
                idx = sel >> (4 * i) & 7;
                sign = sel >> (4 * i) & 8;
                break;
            }
            uint32_t byte = (uint32_t)(src >> (8 * idx)) & 0xff;
            if (sign)
                byte = byte & 0x80 ? 0xff : 0;
            r |= byte << (8 * i);
        }
        put(w, D, l, r);
    }
}

/* bmsk.mode.b32 d, a, b: b ones starting at bit a.  .wrap takes a and b
 * modulo 32, .clamp limits them to 32; bits past 31 fall off. */
static void h_bmsk(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    int wrap = ei->ir->sub == PTX_SUB_WRAP;
    FOR_LANES(m, l) {
        uint32_t pos = (uint32_t)a[l], width = (uint32_t)b[l];
        if (wrap) {
            pos &= 31;
            width &= 31;
        } else {
            pos = pos > 32 ? 32 : pos;
            width = width > 32 ? 32 : width;
        }
        uint64_t ones = width >= 64 ? ~0ull : (1ull << width) - 1;
        put(w, D, l, pos >= 32 ? 0 : (uint32_t)(ones << pos));
    }
}

/* szext.mode.type d, a, b: the low b bits of a, sign-extended (.s32) or
 * zero-extended (.u32); .wrap takes b modulo 32, .clamp limits it to 32. */
static void h_szext(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                    uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    int wrap = ei->ir->sub == PTX_SUB_WRAP;
    int sgn = TYPE(ei) == PTX_T_S32;
    FOR_LANES(m, l) {
        uint32_t width = (uint32_t)b[l];
        width = wrap ? width & 31 : width > 32 ? 32 : width;
        uint64_t v = width == 0 ? 0 : sgn ? sext(a[l], width) : zext(a[l], width);
        put(w, D, l, (uint32_t)v);
    }
}

/* fns.b32 d, mask, base, offset: the bit position of the offset-th set bit
 * of mask counting up (offset > 0) or down (offset < 0) from bit base,
 * base itself included; offset 0 gives base if that bit is set.  Not
 * found: 0xffffffff. */
static void h_fns(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    FOR_LANES(m, l) {
        uint32_t mask = (uint32_t)a[l], base = (uint32_t)b[l] & 31;
        int32_t off = (int32_t)c[l];
        uint32_t r = 0xffffffffu;
        if (off == 0) {
            if (mask >> base & 1)
                r = base;
        } else {
            int step = off > 0 ? 1 : -1;
            uint32_t n = off > 0 ? (uint32_t)off : 0u - (uint32_t)off;
            for (int p = (int)base; p >= 0 && p < 32; p += step)
                if ((mask >> p & 1) && --n == 0) {
                    r = (uint32_t)p;
                    break;
                }
        }
        put(w, D, l, r);
    }
}

/* dp4a.atype.btype d, a, b, c: c plus the four products of a's and b's
 * bytes; dp2a.mode: c plus the products of a's two half-words with bytes
 * 0-1 (.lo) or 2-3 (.hi) of b.  Elements extend by their type; the sum
 * wraps at 32 bits. */
static void h_dp(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    const ptx_insn_t *in = ei->ir;
    int as = in->type == PTX_T_S32, bs = in->type2 == PTX_T_S32;
    int four = in->op == PTX_OP_DP4A;
    unsigned abits = four ? 8 : 16, n = four ? 4 : 2;
    unsigned boff = in->sub == PTX_SUB_HI ? 2 : 0;
    FOR_LANES(m, l) {
        uint32_t r = (uint32_t)c[l];
        for (unsigned i = 0; i < n; i++) {
            uint64_t ea = (uint32_t)a[l] >> (i * abits);
            uint64_t eb = (uint32_t)b[l] >> (8 * (i + boff));
            int64_t va = as ? (int64_t)sext(ea, abits) : (int64_t)zext(ea, abits);
            int64_t vb = bs ? (int64_t)sext(eb, 8) : (int64_t)zext(eb, 8);
            r += (uint32_t)(va * vb);
        }
        put(w, D, l, r);
    }
}

static void h_lop3(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3), *lut = SRC(4);
    FOR_LANES(m, l) {
        uint32_t va = (uint32_t)a[l], vb = (uint32_t)b[l], vc = (uint32_t)c[l];
        uint32_t f = (uint32_t)lut[l] & 0xff, r = 0;
        for (unsigned i = 0; i < 8; i++) {
            if (!(f >> i & 1))
                continue;
            uint32_t ta = i & 4 ? va : ~va, tb = i & 2 ? vb : ~vb,
                     tc = i & 1 ? vc : ~vc;
            r |= ta & tb & tc;
        }
        put(w, D, l, r);
    }
}

static void h_sad(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    ptx_type_t t = TYPE(ei);
    unsigned bits = ptx_type_bits(t);
    int sgn = ptx_type_is_signed(t);
    FOR_LANES(m, l) {
        uint64_t va = as_type(a[l], t), vb = as_type(b[l], t);
        int less = sgn ? (int64_t)va < (int64_t)vb : va < vb;
        uint64_t d = less ? vb - va : va - vb;
        put(w, D, l, zext(c[l] + d, bits));
    }
}

/* ---------- selection and comparison ---------- */

static void h_selp(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                   uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint32_t c = pred_mask(w, &ei->o[3]);
    unsigned bits = ptx_type_bits(TYPE(ei));
    FOR_LANES(m, l)
        put(w, D, l, zext(c >> l & 1 ? a[l] : b[l], bits));
}

static void h_slct(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                   uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    unsigned bits = ptx_type_bits(TYPE(ei));
    int fsel = ei->ir->type2 == PTX_T_F32;
    int ftz = (ei->ir->flags & PTX_F_FTZ) != 0;
    FOR_LANES(m, l) {
        int ge;
        if (fsel) {
            float cv = f32_of(c[l]);
            /* .ftz: a subnormal c counts as a (signed) zero, so it is >= 0 */
            ge = (ftz && fpclassify(cv) == FP_SUBNORMAL) || cv >= 0.0f;
        } else {
            ge = (int32_t)c[l] >= 0;
        }
        put(w, D, l, zext(ge ? a[l] : b[l], bits));
    }
}

/* Integer comparison of one lane. */
static int icmp(uint64_t a, uint64_t b, ptx_type_t t, int cmp)
{
    int sgn = ptx_type_is_signed(t);
    a = as_type(a, t);
    b = as_type(b, t);
    int lt = sgn ? (int64_t)a < (int64_t)b : a < b;
    int eq = a == b;
    switch (cmp) {
    case PTX_CMP_EQ: return eq;
    case PTX_CMP_NE: return !eq;
    case PTX_CMP_LT: case PTX_CMP_LO: return lt;
    case PTX_CMP_LE: case PTX_CMP_LS: return lt || eq;
    case PTX_CMP_GT: case PTX_CMP_HI: return !lt && !eq;
    case PTX_CMP_GE: case PTX_CMP_HS: return !lt;
    default: return 0;
    }
}

/* Unsigned forms (lo/ls/hi/hs) compare unsigned whatever the type says. */
static ptx_type_t cmp_type(ptx_type_t t, int cmp)
{
    if (cmp >= PTX_CMP_LO && cmp <= PTX_CMP_HS) {
        switch (ptx_type_bits(t)) {
        case 8: return PTX_T_U8;
        case 16: return PTX_T_U16;
        case 32: return PTX_T_U32;
        default: return PTX_T_U64;
        }
    }
    return t;
}

/* Applies setp's .and/.or/.xor combiner and writes p (and q = !cmp op c). */
void exec_setp_finish(warp_t *w, const exec_insn_t *ei, uint32_t m,
                      uint32_t res)
{
    uint32_t resq = ~res;
    if (ei->ir->combine) {
        uint32_t c = pred_mask(w, &ei->o[3]);
        switch (ei->ir->combine) {
        case PTX_SUB_AND: res &= c; resq &= c; break;
        case PTX_SUB_OR: res |= c; resq |= c; break;
        default: res ^= c; resq ^= c; break;
        }
    }
    if (D->kind == EO_PRED)
        put_pred_mask(w, D->slot, m, res);
    if (D->pipe != EXEC_NO_PC)
        put_pred_mask(w, D->pipe, m, resq);
}

static void h_setp_int(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                       uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    int cmp = ei->ir->cmp;
    ptx_type_t t = cmp_type(TYPE(ei), cmp);
    uint32_t res = 0;
    if (t == PTX_T_S32 || t == PTX_T_U32 || t == PTX_T_B32) {
        int sgn = t == PTX_T_S32;
        FOR_LANES(m, l) { /* 32-bit compare without per-lane type dispatch */
            int64_t va = sgn ? (int32_t)a[l] : (int64_t)(uint32_t)a[l];
            int64_t vb = sgn ? (int32_t)b[l] : (int64_t)(uint32_t)b[l];
            int r;
            switch (cmp) {
            case PTX_CMP_EQ: r = va == vb; break;
            case PTX_CMP_NE: r = va != vb; break;
            case PTX_CMP_LT: case PTX_CMP_LO: r = va < vb; break;
            case PTX_CMP_LE: case PTX_CMP_LS: r = va <= vb; break;
            case PTX_CMP_GT: case PTX_CMP_HI: r = va > vb; break;
            case PTX_CMP_GE: case PTX_CMP_HS: r = va >= vb; break;
            default: r = 0; break; /* unordered forms are float-only */
            }
            res |= (uint32_t)r << l;
        }
    } else {
        FOR_LANES(m, l)
            res |= (uint32_t)icmp(a[l], b[l], t, cmp) << l;
    }
    exec_setp_finish(w, ei, m, res);
}

/* set.cmp.dtype.stype: 1.0f / 0xffffffff when true. */
static void h_set_int(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                      uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    int cmp = ei->ir->cmp;
    ptx_type_t st = cmp_type((ptx_type_t)ei->ir->type2, cmp);
    int fdst = TYPE(ei) == PTX_T_F32;
    uint32_t c = ei->ir->combine ? pred_mask(w, &ei->o[3]) : 0;
    FOR_LANES(m, l) {
        int r = icmp(a[l], b[l], st, cmp);
        switch (ei->ir->combine) {
        case PTX_SUB_AND: r = r && (c >> l & 1); break;
        case PTX_SUB_OR: r = r || (c >> l & 1); break;
        case PTX_SUB_XOR: r = r ^ (int)(c >> l & 1); break;
        default: break;
        }
        put(w, D, l, r ? (fdst ? 0x3f800000u : 0xffffffffu) : 0);
    }
}

exec_fn exec_select_int(const ptx_insn_t *in)
{
    int pred = in->type == PTX_T_PRED;
    switch (in->op) {
    case PTX_OP_MOV: return h_mov;
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT:
    case PTX_OP_CNOT:
        return pred ? h_pred_logic : h_logic;
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_ADDC: case PTX_OP_SUBC:
        return h_addsub;
    case PTX_OP_MUL: return h_mul;
    case PTX_OP_MAD: case PTX_OP_MADC: return h_mad;
    case PTX_OP_MUL24: case PTX_OP_MAD24: return h_mul24;
    case PTX_OP_DIV: case PTX_OP_REM: return h_divrem;
    case PTX_OP_ABS: case PTX_OP_NEG: return h_absneg;
    case PTX_OP_MIN: case PTX_OP_MAX: return h_minmax;
    case PTX_OP_SHL: case PTX_OP_SHR: return h_shift;
    case PTX_OP_SHF: return h_shf;
    case PTX_OP_BFE: return h_bfe;
    case PTX_OP_BFI: return h_bfi;
    case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_BFIND:
        return h_bitcount;
    case PTX_OP_PRMT: return h_prmt;
    case PTX_OP_LOP3: return h_lop3;
    case PTX_OP_BMSK: return h_bmsk;
    case PTX_OP_SZEXT: return h_szext;
    case PTX_OP_FNS: return h_fns;
    case PTX_OP_DP4A: case PTX_OP_DP2A: return h_dp;
    case PTX_OP_SAD: return h_sad;
    case PTX_OP_SELP: return h_selp;
    case PTX_OP_SLCT: return h_slct;
    case PTX_OP_SETP: return h_setp_int;
    case PTX_OP_SET: return h_set_int;
    default: return NULL;
    }
}
