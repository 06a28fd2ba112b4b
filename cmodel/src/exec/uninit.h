/* uninit.h: the uninitialised-register check (check_uninit = 1,
 * `simt run --check uninit`).
 *
 * Each thread has a shadow "written" bit per register (cta_t.written, a
 * lane mask per home warp and register).  Before an instruction runs,
 * every register it reads (exec_insn_t's uses: operands, address bases,
 * vector sources, the guard) must be written for every lane that reads it
 * (the guard: the active lanes; the rest: the lanes whose guard holds);
 * after it runs, its destinations become written for those lanes.  So the
 * check is exact per thread: a read is reported when no path this thread
 * took has written the register, whatever other threads did.  The first
 * such read is a fault (SIMT_EFAULT, exit status 3) naming the kernel,
 * CTA, warp, thread, register and PTX line. */
#ifndef EXEC_UNINIT_H
#define EXEC_UNINIT_H

#include "exec/exec.h"

/* Before ei runs on w: SIMT_OK, or the fault.  `active`: the lanes at the
 * instruction; `m`: those whose guard holds. */
int uninit_check(exec_ctx_t *x, const warp_t *w, const exec_insn_t *ei,
                 uint32_t active, uint32_t m);
/* After ei ran on lanes m: its destinations are written. */
void uninit_mark(const warp_t *w, const exec_insn_t *ei, uint32_t m);

#endif
