/* simt.h: the host API of the simtlab GPU model.
 *
 * A host program creates a GPU from a configuration, loads a PTX module,
 * allocates and copies device memory, launches kernels and runs them to
 * completion, then reads statistics.  Workload drivers and tests use only
 * this header (and workload.h).
 *
 * Every call that can fail takes a simt_error_t* and returns a status:
 *   SIMT_OK (0)      success
 *   SIMT_EINPUT (2)  bad input: PTX, configuration, arguments.  The message
 *                    reads "file:line:col: error: what, why" where a
 *                    position is known.
 *   SIMT_EFAULT (3)  a fault inside a simulated kernel (bad address,
 *                    barrier divergence, deadlock): the message names the
 *                    kernel, CTA, warp, lane mask, PC and PTX line.
 *   SIMT_ECOSIM (4)  co-simulation: an RTL unit disagreed with its C twin
 *                    (the co-simulation printed the report).
 *   SIMT_ELIMIT (5)  a run limit stopped the run (gpgpu_max_cycle,
 *                    gpgpu_max_insn, simt_gpu_set_timeout): the message
 *                    names the limit, the kernel and where every warp is;
 *                    the statistics hold the run so far (partial).
 * The statuses double as the documented exit statuses of the simt tool.
 */
#ifndef SIMT_SIMT_H
#define SIMT_SIMT_H

#include <stddef.h>
#include <stdint.h>

#include "simt/config.h"
#include "simt/stats.h"
#include "simt/texture.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { SIMT_OK = 0, SIMT_EINPUT = 2, SIMT_EFAULT = 3, SIMT_ECOSIM = 4,
       SIMT_ELIMIT = 5 };

typedef struct simt_error {
    int status;       /* SIMT_OK or one of the statuses above */
    char msg[4096];   /* human-readable, possibly several lines */
} simt_error_t;

typedef struct simt_gpu simt_gpu_t;
typedef struct simt_module simt_module_t;
typedef uint64_t simt_devptr_t;

typedef struct simt_dim3 {
    uint32_t x, y, z;
} simt_dim3_t;

/* One kernel argument: its bytes, in the order of the .entry parameters. */
typedef struct simt_arg {
    const void *data;
    size_t size;
} simt_arg_t;

#define SIMT_ARG(v) ((simt_arg_t){ &(v), sizeof(v) })

typedef struct simt_launch {
    simt_dim3_t grid;
    simt_dim3_t block;
    uint32_t dynamic_shared_bytes; /* extern .shared size */
    int stream;                    /* kernels in one stream run in order */
} simt_launch_t;

/* ---- GPU ---- */
simt_gpu_t *simt_gpu_create(const simt_config_t *cfg, simt_error_t *err);
void simt_gpu_destroy(simt_gpu_t *gpu);

/* Co-simulation: the hooks the model calls for every RTL unit instance
 * (cmodel/src/units/unit_hooks.h, DESIGN §4.2), or NULL for none.  The
 * pointer must stay valid while the GPU runs. */
struct unit_hooks;
void simt_gpu_set_unit_hooks(simt_gpu_t *gpu, const struct unit_hooks *hooks);
const simt_config_t *simt_gpu_config(const simt_gpu_t *gpu);

/* Where a timing run stands, for a progress display: cycles and
 * warp-instructions since the GPU was created, and the kernels of the
 * current synchronize done so far. */
typedef struct simt_progress {
    uint64_t cycles, warp_insns;
    unsigned kernels_done, kernels;
} simt_progress_t;
typedef void (*simt_progress_fn)(void *ctx, const simt_progress_t *at);
/* Calls fn(ctx, ...) every `every_cycles` core cycles of a timing run
 * (fn NULL: never).  It observes only: results do not change. */
void simt_gpu_set_progress(simt_gpu_t *gpu, simt_progress_fn fn, void *ctx,
                           uint64_t every_cycles);
/* The resident CTA count of each SM over time (fn NULL: none): at the
 * start of every timing run fn(ctx, cycle, sm, 0) for each SM, then after
 * every core cycle in which an SM's count changed (CTAs placed or
 * completed), fn(ctx, cycle, sm, count).  Cycles count from the GPU's
 * first run (gpu_sim_cycle), the run's first cycle being the one given at
 * its start.  It observes only: results do not change. */
typedef void (*simt_cta_trace_fn)(void *ctx, uint64_t cycle, unsigned sm,
                                  unsigned ctas);
void simt_gpu_set_cta_trace(simt_gpu_t *gpu, simt_cta_trace_fn fn, void *ctx);
/* Where device printf output goes (stdout unless set): written by
 * simt_synchronize once the kernels complete, in the order the warps
 * executed their printf calls (docs/semantics.md). */
void simt_gpu_set_device_output(simt_gpu_t *gpu, FILE *out);
/* Run limits.  A wall-clock limit of `seconds` (> 0) from now on the
 * simulation of every later simt_synchronize; gpgpu_max_cycle and
 * gpgpu_max_insn come from the configuration.  When a limit is reached,
 * simt_synchronize returns SIMT_ELIMIT (and so does every later one), the
 * statistics cover the run up to the stop, and simt_gpu_stopped_by names
 * the limit ("gpgpu_max_cycle", "gpgpu_max_insn" or "timeout"); NULL while
 * no limit was reached. */
void simt_gpu_set_timeout(simt_gpu_t *gpu, double seconds);
/* Host threads that step the timing model's SMs (1 by default; at most
 * SIMT_MAX_THREADS).  Results are bit-identical for every n: the SMs of a
 * cycle run in parallel and their shared effects are applied in SM order
 * (docs/timing-model.md, "Several host threads").  Co-simulation steps
 * on one thread: a timing run with unit hooks and n > 1 is SIMT_EINPUT.
 * SIMT_OK, or SIMT_EINPUT for n outside 1..SIMT_MAX_THREADS. */
#define SIMT_MAX_THREADS 64
#define SIMT_MAX_THREADS_STR "64"
int simt_gpu_set_threads(simt_gpu_t *gpu, unsigned n);
const char *simt_gpu_stopped_by(const simt_gpu_t *gpu);

/* ---- modules ---- */
/* PTX input is at most SIMT_PTX_MAX_BYTES; a file must be a regular file
 * (not a directory, FIFO or device).  A module whose .const variables
 * exceed gpgpu_const_mem_size is refused, naming the variable. */
#define SIMT_PTX_MAX_BYTES (256u << 20)
int simt_module_load_file(simt_gpu_t *gpu, const char *path,
                          simt_module_t **out, simt_error_t *err);
/* `name` is used in diagnostics as the file name. */
int simt_module_load_text(simt_gpu_t *gpu, const char *name, const char *text,
                          size_t len, simt_module_t **out, simt_error_t *err);
/* Records the registers per thread `ptxas -v` reports for `kernel` (from
 * the workload's meta), used when gpgpu_regs_source = ptxas.  Before the
 * kernel's first launch.  SIMT_EINPUT when the module has no such kernel. */
int simt_module_set_ptxas_regs(simt_module_t *mod, const char *kernel,
                               unsigned regs, simt_error_t *err);

/* ---- device memory ---- */
int simt_malloc(simt_gpu_t *gpu, size_t bytes, simt_devptr_t *out,
                simt_error_t *err);
int simt_free(simt_gpu_t *gpu, simt_devptr_t ptr, simt_error_t *err);
int simt_memcpy_htod(simt_gpu_t *gpu, simt_devptr_t dst, const void *src,
                     size_t bytes, simt_error_t *err);
int simt_memcpy_dtoh(simt_gpu_t *gpu, void *dst, simt_devptr_t src,
                     size_t bytes, simt_error_t *err);
int simt_memset(simt_gpu_t *gpu, simt_devptr_t dst, int value, size_t bytes,
                simt_error_t *err);

/* ---- kernels ---- */
/* Queue a launch.  Argument sizes are checked against the kernel's .param
 * list; a mismatch is SIMT_EINPUT naming the parameter. */
int simt_launch_kernel(simt_gpu_t *gpu, simt_module_t *mod, const char *kernel,
                       const simt_launch_t *launch, const simt_arg_t *args,
                       size_t nargs, simt_error_t *err);
/* Run every queued launch to completion. */
int simt_synchronize(simt_gpu_t *gpu, simt_error_t *err);

/* Statistics accumulated since the GPU was created. */
const simt_stats_t *simt_gpu_stats(const simt_gpu_t *gpu);

/* Every kernel launch run so far, in launch order; returns their number. */
size_t simt_gpu_kernels(const simt_gpu_t *gpu, const simt_kernel_stats_t **out);

/* Every SM's record over the timing runs so far, by SM id; returns their
 * number (0 in functional mode, where no SM is modelled). */
size_t simt_gpu_sms(const simt_gpu_t *gpu, const simt_sm_stats_t **out);

#ifdef __cplusplus
}
#endif

#endif
