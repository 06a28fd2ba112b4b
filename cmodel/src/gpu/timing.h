/* timing.h: running queued kernel launches on the cycle-level timing model.
 *
 * The GPU has gpgpu_n_clusters x gpgpu_n_cores_per_cluster SMs (core/sm.h).
 * Launches run in queue order within a stream and concurrently across
 * streams: a launch is ready once every earlier launch of its stream has
 * completed (gpu/dispatch.h).  Each cycle the CTA placement policy
 * (gpu/cta_policy.h) may place one CTA per cluster; then every SM runs one
 * cycle.  The run ends
 * when every CTA of every launch has completed.  A deadlock (no SM issued
 * or retired anything for gpgpu_deadlock_detect_cycles cycles of the
 * slowest clock domain) is a fault that dumps the resident warps. */
#ifndef GPU_TIMING_H
#define GPU_TIMING_H

#include "exec/exec.h"
#include "simt/config.h"
#include "simt/simt.h"
#include "units/unit_hooks.h"

typedef struct timing_launch {
    exec_launch_t l;          /* the launch, as the functional runner takes it */
    uint32_t regs;            /* registers per thread (gpu/compiled.h) */
    const uint32_t *slot_phys; /* value slot -> physical register */
    uint32_t smem;            /* scratchpad bytes per CTA, static + dynamic */
    uint32_t stream;
} timing_launch_t;

/* A byte range a host-to-device copy wrote since the last run. */
typedef struct timing_copy {
    uint64_t addr, bytes;
} timing_copy_t;

/* What a run takes besides its launches: the copies the L2 starts with
 * (gpgpu_perf_sim_memcpy; in copy order, so the last copied lines are the
 * most recently used), and a progress callback called every
 * `progress_every` core cycles (NULL: none), and the CTA-count trace
 * (simt.h simt_gpu_set_cta_trace).  None changes a result. */
typedef struct timing_extras {
    const timing_copy_t *copies;
    unsigned ncopies;
    simt_progress_fn progress;
    void *progress_ctx;
    uint64_t progress_every;
    simt_cta_trace_fn cta_trace; /* NULL: none (simt_gpu_set_cta_trace) */
    void *cta_trace_ctx;
    unsigned threads;         /* host threads for the SMs (gpu/smpar.h);
                                 0 or 1: the caller's thread alone */
    struct smpar_way *way;    /* with threads > 1: the choice between
                                 parallel and alone phases, carried from
                                 run to run (gpu/smpar.h) */
} timing_extras_t;

/* Runs launches ls[0..n), adds their statistics to `stats` and fills
 * ks[0..n) (whose names, dimensions and counts the caller set) with their
 * cycles, occupancy limit and achieved occupancy, and adds each SM's
 * counts to sms[id] (one record per SM of the configuration).  `hooks` (or NULL) are
 * the units' hooks (units/unit_hooks.h); they see cycles counted from the
 * first run of the GPU (gpu_sim_cycle).  SIMT_OK, SIMT_EFAULT (a kernel
 * fault, reported in that launch's error), SIMT_ECOSIM (a hook stopped the
 * run), SIMT_ELIMIT (a run limit, ls[0].l.limits, checked at the start of
 * every core cycle: the statistics so far are added as for a complete
 * run, unfinished kernels ending at the stop) or SIMT_EINPUT (also for
 * x->threads > 1 with unit hooks: co-simulation steps on one thread).
 * Every launch's statistics (ls[k].l.stats) are one object. */
int timing_run(timing_launch_t *ls, unsigned n, const simt_config_t *cfg,
               const unit_hooks_t *hooks, const timing_extras_t *x,
               simt_stats_t *stats, simt_kernel_stats_t *ks, simt_sm_stats_t *sms);

#endif
