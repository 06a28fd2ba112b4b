/* printer.h: PTX text from the IR, for `simt opt`.
 *
 * The contract is a round trip: ptx_parse of the printed text gives the
 * same program (the same functions, registers in the same order, the same
 * instructions with the same operands and modifiers, the same symbols and
 * layouts), so the transformed PTX runs exactly as the module it was
 * printed from.  It is not the nvcc text: labels are renamed ($L_<f>_<n>),
 * every register has its own .reg line, module-scope arrays are printed as
 * .b8 byte arrays, qualifiers the parser ignores (.nc, cache hints) are
 * gone, and a memory-order or scope qualifier prints as one that sets the
 * same flag.  .param declarations of call sequences move to the top of
 * their function (renamed name_<symbol> when a name repeats), so they
 * keep their frame offsets. */
#ifndef PTX_PRINTER_H
#define PTX_PRINTER_H

#include <stdio.h>

#include "ptx/ir.h"

/* 0, or -1 when writing failed. */
int ptx_print_module(const ptx_module_t *m, FILE *out);

#endif
