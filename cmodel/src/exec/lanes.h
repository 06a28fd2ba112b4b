/* lanes.h: helpers every instruction handler uses to read and write the
 * 32 lanes of a warp's registers. */
#ifndef EXEC_LANES_H
#define EXEC_LANES_H

#include <string.h>

#include "exec/exec.h"

/* for each set bit l of mask m, lowest first */
#define FOR_LANES(m, l)                                                  \
    for (uint32_t lm_ = (m), l = 0;                                      \
         lm_ && ((l = (uint32_t)__builtin_ctz(lm_)), 1); lm_ &= lm_ - 1)

static inline uint64_t zext(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

static inline uint64_t sext(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v
                      : (uint64_t)((int64_t)(v << (64 - bits)) >> (64 - bits));
}

/* A raw register value read as type t (sign- or zero-extended to 64 bits). */
static inline uint64_t as_type(uint64_t v, ptx_type_t t)
{
    unsigned bits = ptx_type_bits(t);
    return ptx_type_is_signed(t) ? sext(v, bits) : zext(v, bits);
}

static inline float f32_of(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint64_t bits_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline double f64_of(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}

static inline uint64_t bits_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

void exec_fill_sreg(exec_ctx_t *x, const warp_t *w, ptx_sreg_t s,
                    uint64_t *row);

/* The 32-lane row of a source operand. */
static inline const uint64_t *src_row(exec_ctx_t *x, warp_t *w,
                                      const exec_opnd_t *o, unsigned i)
{
    switch (o->kind) {
    case EO_REG:
        return &w->regs[(size_t)o->slot * WARP_SIZE];
    case EO_IMM:
        return &x->l->prog->imm[(size_t)o->slot * WARP_SIZE];
    case EO_SREG:
        exec_fill_sreg(x, w, (ptx_sreg_t)o->slot, w->scratch[i]);
        return w->scratch[i];
    case EO_PRED: {
        uint32_t pm = w->preds[o->slot];
        if (o->neg)
            pm = ~pm;
        for (unsigned l = 0; l < WARP_SIZE; l++)
            w->scratch[i][l] = pm >> l & 1;
        return w->scratch[i];
    }
    default:
        memset(w->scratch[i], 0, sizeof w->scratch[i]);
        return w->scratch[i];
    }
}

#define SRC(i) src_row(x, w, &ei->o[i], (i))

/* Writes v to lane l of destination d (a register: masked to its width). */
static inline void put(warp_t *w, const exec_opnd_t *d, unsigned l, uint64_t v)
{
    if (d->kind == EO_REG)
        w->regs[(size_t)d->slot * WARP_SIZE + l] = zext(v, d->bits);
}

/* Predicate source as a lane mask (honours !p). */
static inline uint32_t pred_mask(const warp_t *w, const exec_opnd_t *o)
{
    uint32_t pm = w->preds[o->slot];
    return o->neg ? ~pm : pm;
}

static inline void put_pred_mask(warp_t *w, uint32_t slot, uint32_t m,
                                 uint32_t value)
{
    w->preds[slot] = (w->preds[slot] & ~m) | (value & m);
}

#endif
