/* regalloc.h: maps a function's PTX virtual registers to per-thread
 * physical registers, to count the registers a kernel needs (occupancy).
 *
 * Two register files, as on the hardware: 32-bit registers R0, R1, ...
 * for every non-predicate register (8/16/32-bit values take one, 64-bit
 * values an aligned pair R2k:R2k+1), and predicate registers P0, P1, ...
 * for .pred.  The allocator colours an interference graph built from
 * ptx/liveness.h (Chaitin-Briggs simplify/select, with the register budget
 * raised from the pressure bound until the colouring succeeds); it never
 * spills.  docs/regalloc.md describes the algorithm, the accounting of
 * calls, and how the counts compare with ptxas. */
#ifndef COMPILER_REGALLOC_H
#define COMPILER_REGALLOC_H

#include <stdint.h>

#include "ptx/ir.h"

#define REGALLOC_NONE 0xffffffffu

/* Return codes besides 0. */
#define REGALLOC_ENOMEM (-1)
#define REGALLOC_EBADFUNC (-3)   /* no such function */

typedef struct regalloc_result {
    /* 32-bit registers: highest index used + 1.  From regalloc_kernel this
     * includes the callees (see regalloc_kernel); from regalloc_function it
     * equals own_regs. */
    uint32_t regs;
    uint32_t preds;      /* predicate registers, counted the same way */
    uint32_t own_regs;   /* this function's body alone */
    uint32_t own_preds;
    /* The most 32-bit registers this body holds live at one point (a
     * 64-bit value counts 2): a lower bound on own_regs. */
    uint32_t pressure;
    uint8_t pairs;       /* some 64-bit register, here or in a callee */
    uint32_t nvregs;     /* == the function's nregs */
    /* Per virtual register: the first physical register (of the pair for a
     * 64-bit value) when its type is not .pred, the predicate register
     * when it is; REGALLOC_NONE for registers no instruction names. */
    uint32_t *phys;
} regalloc_result_t;

/* Allocates one function's registers on its own.  0 or REGALLOC_E*; on
 * success out->phys must be released with regalloc_result_free. */
int regalloc_function(const ptx_module_t *m, uint32_t func,
                      regalloc_result_t *out);

/* regalloc_function, then adds the callees: a callee's registers sit on
 * top of the caller's registers live across the call, so
 *   regs = max(own_regs, max over call sites c of
 *                          base(c) + regs of c's callee, counted this way)
 * where base(c) is the highest physical register live across c, plus 1
 * (0 when none), rounded up to even when the callee needs pairs.  preds
 * likewise with predicates (no rounding).  Works for any function, entry
 * or not.  A call back into a function on the path (recursion) adds
 * nothing: the model keeps each activation's registers on the thread's
 * stack. */
int regalloc_kernel(const ptx_module_t *m, uint32_t func,
                    regalloc_result_t *out);

void regalloc_result_free(regalloc_result_t *r);

#endif
