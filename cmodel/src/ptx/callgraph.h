/* callgraph.h: the functions a kernel reaches through calls, once, for
 * everyone who walks them: the program builder (exec/program.c) and the
 * compiler passes (compiler/).  Call graphs may have cycles (recursion):
 * the program builder asks ptx_calls_itself which functions need their
 * registers and frame kept on the thread's stack. */
#ifndef PTX_CALLGRAPH_H
#define PTX_CALLGRAPH_H

#include <stdint.h>

#include "ptx/ir.h"
#include "simt/simt.h"

/* Functions reachable from `kernel` through calls, in depth-first
 * preorder (kernel first), then those whose address is taken (by a
 * reached function or an initializer), which an indirect call may reach;
 * *n receives the count.  The caller frees the array.  NULL with err
 * filled when out of host memory. */
uint32_t *ptx_reachable(const ptx_module_t *m, uint32_t kernel, uint32_t *n,
                        simt_error_t *err);

/* 1 when direct calls from function g can lead back to g (g is
 * recursive), 0 when not, -1 when out of host memory. */
int ptx_calls_itself(const ptx_module_t *m, uint32_t g);

#endif
