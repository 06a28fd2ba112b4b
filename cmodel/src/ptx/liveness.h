/* liveness.h: which registers each instruction reads and writes, and which
 * registers are live at each point of a function.
 *
 * ptx_insn_defs / ptx_insn_uses are the one definition of an instruction's
 * register operands: the register allocator builds interference from them
 * and the timing model's scoreboard will use them for dependences, so both
 * see the same operands.
 *
 * Liveness is the classic backward dataflow problem over the CFG of
 * ptx/cfg.h, solved by iteration to a fixed point:
 *   out(B) = union of in(S) over successors S (the virtual exit has none)
 *   in(B)  = use(B) | (out(B) & ~kill(B))
 * Sets are bitsets over the function's registers (f->regs).  A guarded
 * (@p) definition does not kill: where the guard is false the old value
 * survives, so the register stays live above it.  Calls take their
 * arguments and give their results through .param memory, so a call reads
 * and writes no registers (except its guard).  The carry flag of
 * add.cc/addc/madc is not a register and is not tracked. */
#ifndef PTX_LIVENESS_H
#define PTX_LIVENESS_H

#include <stdint.h>

#include "ptx/cfg.h"
#include "ptx/ir.h"

/* The most registers ptx_insn_defs / ptx_insn_uses can return: a .v4
 * destination; every operand a .v4 vector plus the guard. */
#define PTX_INSN_MAX_DEFS 4
#define PTX_INSN_MAX_USES (PTX_MAX_OPERANDS * 4 + 1)

/* Registers written by `in`, each once, in operand order:
 *   - ops[0] of every value-producing instruction (a register, or every
 *     register of a {..} vector: ld/ldu .v2/.v4, mov unpack), including
 *     atom, vote, activemask, bar.red, testp, isspacep, cvta;
 *   - the second destination after '|' (setp p|q, shfl d|p), held in
 *     ops[0].vec[0] with ops[0].nvec == 1;
 *   - nothing for st, red, bra, call, ret, exit, trap, bar/barrier (other
 *     than bar.red), membar, fence, pref, nanosleep, relssp.
 * The sink '_' is not a register and is left out.  Up to `max` registers
 * are stored in regs; the return value is how many there are. */
int ptx_insn_defs(const ptx_insn_t *in, uint16_t *regs, int max);

/* Registers read by `in`, each once: every register operand that is not a
 * destination (plain, !negated predicates, [reg+imm] address bases, {..}
 * vector sources of st / mov pack), setp's and selp's predicate operand,
 * and the guard predicate.  Same storage contract as ptx_insn_defs. */
int ptx_insn_uses(const ptx_insn_t *in, uint16_t *regs, int max);

/* Does `in` kill its destinations?  Only when it is unguarded: a guarded
 * write leaves the old value in the lanes whose guard is false. */
static inline int ptx_insn_kills(const ptx_insn_t *in)
{
    return in->guard == PTX_REG_SINK;
}

typedef struct ptx_liveness {
    uint32_t func;
    uint32_t nregs;      /* registers of the function */
    uint32_t words;      /* uint64_t words per set */
    uint32_t nblocks;    /* cfg->nblocks (the virtual exit has no sets) */
    uint64_t *live_in;   /* nblocks * words */
    uint64_t *live_out;  /* nblocks * words */
} ptx_liveness_t;

/* NULL only when out of memory.  cfg must be ptx_cfg_build(m, func). */
ptx_liveness_t *ptx_liveness_build(const ptx_module_t *m, const ptx_cfg_t *cfg);
void ptx_liveness_free(ptx_liveness_t *lv);

static inline const uint64_t *ptx_live_in(const ptx_liveness_t *lv, uint32_t b)
{
    return lv->live_in + (uint64_t)b * lv->words;
}

static inline const uint64_t *ptx_live_out(const ptx_liveness_t *lv, uint32_t b)
{
    return lv->live_out + (uint64_t)b * lv->words;
}

static inline int ptx_live_has(const uint64_t *set, uint32_t reg)
{
    return (int)(set[reg >> 6] >> (reg & 63) & 1);
}

/* Turns the set live after instruction `insn` into the set live before it:
 * removes its definitions (when it kills) and adds its uses. */
void ptx_liveness_step(const ptx_module_t *m, uint32_t insn, uint64_t *set);

/* Visits the instructions of `block` from last to first, calling fn with
 * the module instruction index and the set live after it (lv->words
 * words, valid during the call only).  A non-zero return from fn stops the
 * walk and is returned; otherwise 0, or -1 when out of memory. */
typedef int (*ptx_live_fn)(void *ctx, uint32_t insn,
                           const uint64_t *live_after);
int ptx_liveness_walk(const ptx_liveness_t *lv, const ptx_module_t *m,
                      const ptx_cfg_t *cfg, uint32_t block, ptx_live_fn fn,
                      void *ctx);

/* The set live after module instruction `insn` into out (lv->words words). */
void ptx_liveness_after(const ptx_liveness_t *lv, const ptx_module_t *m,
                        const ptx_cfg_t *cfg, uint32_t insn, uint64_t *out);

#endif
