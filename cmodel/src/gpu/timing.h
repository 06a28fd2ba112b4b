/* timing.h: running one kernel launch on the cycle-level timing model.
 *
 * The GPU has gpgpu_n_clusters x gpgpu_n_cores_per_cluster SMs (core/sm.h).
 * Each cycle the CTA dispatcher places at most one CTA per cluster, on the
 * cluster's SMs in turn (round robin), while the SM is under the kernel's
 * occupancy limit (gpu/occupancy.h); then every SM runs one cycle.  The
 * launch ends when every CTA has completed.  A deadlock (no SM issued or
 * retired anything for gpgpu_deadlock_detect_cycles) is a fault that dumps
 * the warps of a resident CTA. */
#ifndef GPU_TIMING_H
#define GPU_TIMING_H

#include "exec/exec.h"
#include "simt/config.h"

/* Runs launch `l` (whose kernel needs `regs` registers per thread and
 * `smem` bytes of shared memory per CTA) and adds its statistics to
 * l->stats.  SIMT_OK, SIMT_EFAULT (kernel fault, l->err filled) or
 * SIMT_EINPUT. */
int timing_run(const exec_launch_t *l, const simt_config_t *cfg,
               uint32_t regs, uint32_t smem);

#endif
