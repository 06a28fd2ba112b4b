/* exec_warp.c: warp-wide instructions: vote, activemask, shfl, match,
 * redux, elect.  The lanes that take part are the active lanes of the
 * instruction (m); the member mask names the lanes expected, which the
 * reconvergence stack runs together whenever they are live (see bar.warp
 * in docs/semantics.md), so the model does not check it. */
#include "exec/dispatch.h"
#include "exec/lanes.h"

static void h_vote(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    (void)x;
    uint32_t p = pred_mask(w, &ei->o[1]) & m;
    const exec_opnd_t *d = &ei->o[0];
    switch (ei->ir->sub) {
    case PTX_SUB_BALLOT:
        FOR_LANES(m, l) put(w, d, l, p);
        return;
    case PTX_SUB_ALL:
        put_pred_mask(w, d->slot, m, p == m ? ~0u : 0);
        return;
    case PTX_SUB_ANY:
        put_pred_mask(w, d->slot, m, p ? ~0u : 0);
        return;
    default: /* uni: all active lanes agree */
        put_pred_mask(w, d->slot, m, (p == m || p == 0) ? ~0u : 0);
        return;
    }
}

static void h_activemask(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                         uint32_t m)
{
    (void)x;
    FOR_LANES(m, l) put(w, &ei->o[0], l, m);
}

/* shfl.mode.b32 d[|p], a, b, c[, membermask] (PTX ISA semantics: c packs
 * the clamp value in bits 4:0 and the segment mask in bits 12:8). */
static void h_shfl(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    const exec_opnd_t *d = &ei->o[0];
    uint32_t value[WARP_SIZE], valid = 0;
    int mode = ei->ir->sub;
    FOR_LANES(m, l) {
        uint32_t bval = (uint32_t)b[l] & 0x1f, cval = (uint32_t)c[l] & 0x1f;
        uint32_t segmask = (uint32_t)c[l] >> 8 & 0x1f;
        uint32_t maxl = (l & segmask) | (cval & ~segmask);
        uint32_t minl = l & segmask;
        int32_t j;
        int pval;
        switch (mode) {
        case PTX_SUB_UP: j = (int32_t)l - (int32_t)bval; pval = j >= (int32_t)maxl; break;
        case PTX_SUB_DOWN: j = (int32_t)(l + bval); pval = j <= (int32_t)maxl; break;
        case PTX_SUB_BFLY: j = (int32_t)(l ^ bval); pval = j <= (int32_t)maxl; break;
        default: j = (int32_t)(minl | (bval & ~segmask)); pval = j <= (int32_t)maxl; break;
        }
        if (!pval)
            j = (int32_t)l;
        value[l] = (uint32_t)a[j];
        valid |= (uint32_t)pval << l;
    }
    FOR_LANES(m, l) put(w, d, l, value[l]);
    if (d->pipe != EXEC_NO_PC)
        put_pred_mask(w, d->pipe, m, valid);
}

/* match.any.sync.bN d, a, mask: the lanes whose a equals this lane's;
 * match.all.sync.bN d|p, a, mask: all lanes if every a is equal, else 0,
 * and p says which. */
static void h_match(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                    uint32_t m)
{
    const uint64_t *a = SRC(1);
    const exec_opnd_t *d = &ei->o[0];
    uint64_t width_mask = ei->ir->type == PTX_T_B32 ? 0xffffffffull : ~0ull;
    if (!m)
        return;
    if (ei->ir->sub == PTX_SUB_ANY) {
        FOR_LANES(m, l) {
            uint32_t same = 0;
            for (unsigned k = 0; k < WARP_SIZE; k++)
                if ((m >> k & 1) && ((a[k] ^ a[l]) & width_mask) == 0)
                    same |= 1u << k;
            put(w, d, l, same);
        }
        return;
    }
    uint64_t first = a[__builtin_ctz(m)] & width_mask;
    uint32_t all = 1;
    FOR_LANES(m, l)
        all &= (a[l] & width_mask) == first;
    FOR_LANES(m, l) put(w, d, l, all ? m : 0);
    if (d->pipe != EXEC_NO_PC)
        put_pred_mask(w, d->pipe, m, all ? ~0u : 0);
}

/* redux.sync.op.type d, a, mask: the reduction of a over the lanes. */
static void h_redux(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                    uint32_t m)
{
    const uint64_t *a = SRC(1);
    if (!m)
        return;
    int sgn = ei->ir->type == PTX_T_S32;
    int op = ei->ir->sub;
    uint32_t r = (uint32_t)a[__builtin_ctz(m)];
    int first = 1;
    FOR_LANES(m, l) {
        uint32_t v = (uint32_t)a[l];
        if (first) {
            first = 0;
            continue;
        }
        switch (op) {
        case PTX_SUB_ADD: r += v; break;
        case PTX_SUB_AND: r &= v; break;
        case PTX_SUB_OR: r |= v; break;
        case PTX_SUB_XOR: r ^= v; break;
        case PTX_SUB_MIN:
            if (sgn ? (int32_t)v < (int32_t)r : v < r)
                r = v;
            break;
        default: /* max */
            if (sgn ? (int32_t)v > (int32_t)r : v > r)
                r = v;
            break;
        }
    }
    FOR_LANES(m, l) put(w, &ei->o[0], l, r);
}

/* elect.sync d|p, mask: one lane, the lowest active one, is elected: d
 * is its lane number in every lane, p is true in it alone. */
static void h_elect(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                    uint32_t m)
{
    (void)x;
    const exec_opnd_t *d = &ei->o[0];
    if (!m)
        return;
    uint32_t leader = (uint32_t)__builtin_ctz(m);
    FOR_LANES(m, l) put(w, d, l, leader);
    if (d->pipe != EXEC_NO_PC)
        put_pred_mask(w, d->pipe, m, 1u << leader);
}

exec_fn exec_select_warp(const ptx_insn_t *in)
{
    switch (in->op) {
    case PTX_OP_MATCH: return h_match;
    case PTX_OP_REDUX: return h_redux;
    case PTX_OP_ELECT: return h_elect;
    case PTX_OP_VOTE: return h_vote;
    case PTX_OP_ACTIVEMASK: return h_activemask;
    case PTX_OP_SHFL: return in->type == PTX_T_B32 ? h_shfl : NULL;
    default: return NULL;
    }
}
