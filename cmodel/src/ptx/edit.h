/* edit.h: changing a parsed module, for the compiler passes.
 *
 * The parser's IR is read-only to everything else; a pass that rewrites
 * code works on a clone (ptx_module_clone) and edits it only through these
 * calls, which keep the IR's invariants:
 *   - the instructions of function f are [funcs[f].first, +count), the
 *     functions' ranges tile the array in order;
 *   - a LABEL operand holds the module index of its target instruction;
 *   - every instruction's `func` names its owner.
 * Inserted instructions take the line and column of `at` (or of the
 * function's last instruction) so faults still point into the source.
 * All calls return 0, or -1 when out of host memory (the module is then
 * unchanged). */
#ifndef PTX_EDIT_H
#define PTX_EDIT_H

#include "ptx/ir.h"

/* A deep copy, or NULL when out of memory. */
ptx_module_t *ptx_module_clone(const ptx_module_t *m);

/* Inserts n instructions before module instruction `at` of function `f`
 * (at == first + count appends to the function).  Branches to `at` keep
 * going to the old instruction when `labels_follow` is 0 (the new code is
 * reached by falling into it only), and go to the first inserted one when
 * it is 1 (the new code runs whenever `at` was entered).  Label operands of
 * the inserted instructions are given as pre-insertion indices and are
 * remapped by the same rule as every other label.  The `func` field of the
 * new instructions is set to f. */
int ptx_insert(ptx_module_t *m, uint32_t f, uint32_t at, const ptx_insn_t *ins,
               uint32_t n, int labels_follow);

/* A new register of `type` in function f named like "%<prefix><n>";
 * *reg receives its index.  -1 when out of memory or when the function
 * already has 0xfffe registers. */
int ptx_add_reg(ptx_module_t *m, uint32_t f, ptx_type_t type,
                const char *prefix, uint16_t *reg);

/* Grows function f's per-thread .local variable `name` (created on the
 * first call, 8-byte aligned, at the end of f's frame) by `bytes`;
 * *sym receives its symbol and *offset where the new bytes start within
 * it.  The variable must stay the last thing in the frame: later frame
 * growth is through this call only. */
int ptx_grow_local(ptx_module_t *m, uint32_t f, const char *name,
                   uint32_t bytes, uint32_t *sym, uint64_t *offset);

/* An unconditional `bra.uni` to module instruction `target`, and a `ret`,
 * as the parser would have built them. */
ptx_insn_t ptx_make_bra(uint32_t target, uint32_t func);
ptx_insn_t ptx_make_ret(uint32_t func);

/* An unguarded `relssp;` (Scratchpad Sharing's release, no operand). */
ptx_insn_t ptx_make_relssp(uint32_t func);

#endif
