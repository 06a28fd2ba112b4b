/* ssp_access.h: Scratchpad Sharing's access-range dataflow (seed 000,
 * Sec. 6.1; reference notes §3.2) over one kernel's CFG, shared by the
 * variable-layout pass (ssp_layout.c) and relssp placement (relssp.c).
 *
 * The variables are the .shared variables a CTA of the kernel allocates:
 * the module-scope ones (fixed at the low offsets, in every kernel's
 * layout), then the kernel's own (which the layout pass may reorder), then
 * the dynamic (extern) array, whose size is known only at launch.  Each is
 * one bit of an ssp_set_t, in that order (declaration order within each).
 *
 * Per instruction of the kernel, `acc` says which variables it may read or
 * write (a def or a use: ld, st, atom, red on .shared or generic
 * addresses, and calls).  An address is resolved to a variable by its
 * provenance: a register that `mov`/`cvta.shared` took from a variable's
 * address, carried through arithmetic (add, sub, mad, cvt, selp, ...;
 * flow-insensitively, over every definition of the register).  An index
 * added to it does not move it to another variable (C's rule).  What
 * cannot be resolved counts as an access to every variable:
 *   - a .shared access through an address with no variable provenance
 *     (a pointer loaded from memory or passed in);
 *   - a generic access whose address is neither derived from a variable
 *     nor from a global source (cvta.to.global, cvta.global/local/const,
 *     a kernel parameter, a .global/.const/.local variable);
 *   - a call to a function that (transitively) makes a .shared or a
 *     generic access.
 *
 * The dataflow is the seed's, per variable and per block, bit vectors
 * over the variables, iterated to the least fixed point from false:
 *   PreOUT(v,B) = acc(v,B) or PreIN(v,B);  PreIN(v,Entry) = false,
 *   PreIN(v,B) = OR over preds P of PreOUT(v,P);
 *   PostIN(v,B) = acc(v,B) or PostOUT(v,B);  PostOUT(v,Exit) = false,
 *   PostOUT(v,B) = OR over succs S of PostIN(v,S).
 * Entry is block 0, Exit the CFG's virtual exit (ptx/cfg.h), which holds
 * no instruction.  For a set S, AccIN(S,B) = (OR_{v in S} PreIN(v,B)) and
 * (OR_{v in S} PostIN(v,B)), AccOUT likewise with OUT.
 *
 * cost(S) refines this to the point before each instruction (the
 * reference's [decide]): that point is in S's range when some access to S
 * precedes it on a path from Entry (PreIN of its block, or an earlier
 * instruction of the block) and some access to S follows it on a path to
 * Exit (the instruction itself or a later one of the block, or PostOUT);
 * cost(S) sums K^depth over those instructions, depth being the number of
 * natural loops around the instruction's block.
 *
 * Invariants: nvars <= SSP_MAX_VARS; vars[] in layout order of the bits
 * above; offsets are CTA-relative (what exec/program.c addresses). */
#ifndef COMPILER_SSP_ACCESS_H
#define COMPILER_SSP_ACCESS_H

#include <stdint.h>

#include "ptx/cfg.h"
#include "ptx/ir.h"
#include "simt/simt.h"

#define SSP_MAX_VARS 64
typedef uint64_t ssp_set_t;

typedef struct ssp_var {
    uint32_t sym;     /* module symbol */
    uint64_t offset;  /* CTA-relative scratchpad offset */
    uint64_t size;    /* bytes; 0 for the dynamic array */
    uint8_t movable;  /* declared in the kernel body, not extern */
    uint8_t dynamic;  /* the extern array, after every static byte */
} ssp_var_t;

typedef struct ssp_access {
    const ptx_module_t *m;
    uint32_t kernel;
    ptx_cfg_t *cfg;
    uint32_t nvars;
    ssp_var_t vars[SSP_MAX_VARS];
    uint64_t rtb;        /* R_tb: the CTA's static scratchpad bytes,
                            rounded as exec_cta_smem rounds them */
    ssp_set_t *acc;      /* per kernel instruction (index - first) */
    ssp_set_t *blk_acc;  /* per block: OR of its instructions' acc */
    uint32_t *depth;     /* per block: natural loops containing it */
    ssp_set_t *pre_in, *pre_out, *post_in, *post_out; /* per block, and
                            the virtual exit (nblocks + 1 entries) */
} ssp_access_t;

/* Analyses kernel `kernel` of m.  SIMT_OK, or SIMT_EINPUT with err
 * filled (out of memory; more than SSP_MAX_VARS variables); on error
 * *a holds nothing to free. */
int ssp_access_build(ssp_access_t *a, const ptx_module_t *m, uint32_t kernel,
                     simt_error_t *err);
void ssp_access_free(ssp_access_t *a);

/* AccIN / AccOUT of set s at block b (0 or 1). */
int ssp_acc_in(const ssp_access_t *a, ssp_set_t s, uint32_t b);
int ssp_acc_out(const ssp_access_t *a, ssp_set_t s, uint32_t b);

/* cost(S) with loop weight k (k^depth per instruction; saturates). */
uint64_t ssp_cost(const ssp_access_t *a, ssp_set_t s, uint64_t k);

/* The first byte of the shared region, floor(t * R_tb) with
 * t = permille / 1000, rounded down to 4 bytes (reference §8.2): offsets
 * below it are each block's own, the rest is the pair's. */
uint64_t ssp_unshared_limit(uint64_t rtb, uint32_t permille);

/* The variables any of whose bytes lie at or above `limit` (a variable
 * straddling the boundary is shared; the dynamic array always is). */
ssp_set_t ssp_region_vars(const ssp_access_t *a, uint64_t limit);

/* 1 when some instruction of the kernel may access its scratchpad
 * (acc non-empty anywhere), 0 when none, -1 with err filled on error.
 * The Scratchpad Sharing passes leave a kernel that touches no
 * scratchpad as it is (the paper's Set-3 runs identical with them). */
int ssp_kernel_touches(const ptx_module_t *m, uint32_t kernel, simt_error_t *err);

/* Index of the variable symbol `sym`, or -1. */
int ssp_var_index(const ssp_access_t *a, uint32_t sym);

#endif
