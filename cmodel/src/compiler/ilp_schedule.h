/* ilp_schedule.h: the part of ptxas's instruction scheduling that costs
 * registers: independent instructions issued early to hide latency, which
 * keeps more values live at once than the PTX order does.
 *
 * Within each basic block of function f, an instruction's level is one
 * more than that of the latest earlier instruction it depends on (one that
 * defines a register it reads, or reads or writes a register it writes),
 * and more than that of the instruction ILP_WINDOW places above it; the
 * block is stably sorted by level, as a list scheduler issuing in order as
 * soon as operands are ready would.  Anything that may write memory, order
 * it or leave the block (st, atom, red, bar/barrier, membar, fence, call,
 * ret, exit, bra, ld.volatile, the carry chain of .cc/addc) and ld.param
 * stay between everything before and after them.  Block boundaries are
 * not crossed, so every label still names the start of its block, the
 * control flow is unchanged, and so are the values computed.
 *
 * The register allocator counts on a scheduled copy (docs/regalloc.md,
 * "Modelling ptxas"); the code that runs keeps the PTX order. */
#ifndef COMPILER_ILP_SCHEDULE_H
#define COMPILER_ILP_SCHEDULE_H

#include "ptx/ir.h"

/* Reorders m's function f in place.  0, or -1 when out of host memory
 * (then f is unchanged). */
int ilp_schedule(ptx_module_t *m, uint32_t f);

#endif
