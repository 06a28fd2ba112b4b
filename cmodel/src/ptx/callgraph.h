/* callgraph.h: the functions a kernel reaches through calls.
 *
 * The model gives every function one register and frame layout, so a call
 * graph with a cycle (recursion) is refused here, once, for everyone who
 * walks it: the program builder (exec/program.c) and the compiler passes
 * (compiler/). */
#ifndef PTX_CALLGRAPH_H
#define PTX_CALLGRAPH_H

#include <stdint.h>

#include "ptx/ir.h"
#include "simt/simt.h"

/* Functions reachable from `kernel` through calls, in depth-first
 * preorder (kernel first), then those whose address is taken (by a reached
 * function or an initializer), which an indirect call may reach; *n receives the count.  The caller frees the
 * array.  NULL with err filled when out of host memory, or when the calls
 * recurse (a "file:line:col: error:" at the call, SIMT_EINPUT). */
uint32_t *ptx_reachable(const ptx_module_t *m, uint32_t kernel, uint32_t *n,
                        simt_error_t *err);

#endif
