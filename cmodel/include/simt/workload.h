/* workload.h: how a workload's host driver plugs into the simt tool.
 *
 * A driver (workloads/<name>/driver.c or tests/kernels/<name>/driver.c)
 * builds inputs from a fixed seed, launches its kernel(s) through simt.h,
 * checks the output against a CPU reference and reports the check.  It ends
 * with SIMT_WORKLOAD(...), which the build collects into the registry that
 * `simt list` and `simt run` use. */
#ifndef SIMT_WORKLOAD_H
#define SIMT_WORKLOAD_H

#include <stdint.h>
#include <stdio.h>

#include "simt/simt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Workload parameters from the command line (`--param key=value`).  A
 * driver reads its knobs with simt_wl_param_int(); the "size" knob selects a
 * preset ("small" for tests, "paper" for experiments). */
/* What the driver asked for, kept when simt_wl_params_t.log is set: the
 * tool then refuses a --param that the run never read (a misspelt or
 * unknown knob would otherwise be silently ignored). */
typedef struct simt_wl_param_log {
    uint32_t read;          /* bit i: key[i] was read */
    int nasked;
    const char *asked[32];  /* the knobs asked for, first ask first */
} simt_wl_param_log_t;

typedef struct simt_wl_params {
    int count;
    const char *key[32];
    const char *value[32];
    simt_wl_param_log_t *log; /* or NULL */
} simt_wl_params_t;

/* Reads integer knob `key`, or `def` when absent.  A value that is not an
 * integer in [lo, hi] is SIMT_EINPUT (returns -1 and fills err). */
int simt_wl_param_int(const simt_wl_params_t *p, const char *key, long def,
                      long lo, long hi, long *out, simt_error_t *err);
/* Reads string knob `key`, or `def` when absent. */
const char *simt_wl_param_str(const simt_wl_params_t *p, const char *key,
                              const char *def);

/* Helpers every driver needs (cmodel/src/gpu/workload_util.c). */

/* xorshift32: the drivers' seeded pseudo-random sequence; a non-zero
 * state never becomes zero. */
uint32_t simt_wl_rand(uint32_t *state);

/* Frees the non-zero device pointers p[0..n).  Returns rc, or, when rc is
 * SIMT_OK and a free fails, that failure (with err filled). */
int simt_wl_release(simt_gpu_t *gpu, const simt_devptr_t *p, int n, int rc,
                    simt_error_t *err);

/* simt_malloc of `bytes` then a copy of `src` into it. */
int simt_wl_upload(simt_gpu_t *gpu, const void *src, size_t bytes,
                   simt_devptr_t *dst, simt_error_t *err);

/* What a driver reports back. */
typedef struct simt_wl_result {
    int passed;            /* 1 when the output matched the CPU reference */
    char detail[512];      /* e.g. "4096 elements, max abs err 0" */
} simt_wl_result_t;

/* Run the workload on `gpu` with `mod` loaded from its kernel.ptx.
 * Returns SIMT_OK (then see res->passed) or an error status. */
typedef int (*simt_wl_run_fn)(simt_gpu_t *gpu, simt_module_t *mod,
                              const simt_wl_params_t *params,
                              simt_wl_result_t *res, simt_error_t *err);

typedef struct simt_workload {
    const char *name;
    const char *summary;
    const char *ptx_path;  /* relative to the repository root */
    simt_wl_run_fn run;
} simt_workload_t;

/* One workload of a mix (simt_mix_run). */
typedef struct simt_mix_member {
    simt_wl_run_fn run;            /* its driver */
    simt_module_t *mod;            /* its kernels, loaded on the mix's GPU */
    const simt_wl_params_t *params;
    simt_wl_result_t *res;
    simt_error_t *err;
    int rc;                        /* out: what its driver returned */
} simt_mix_member_t;

/* Runs the drivers m[0..n) on `gpu` at once, each launch of member i on
 * stream (its stream) x n + i, so the members' kernels run concurrently;
 * each driver still checks its own result.  Deterministic: the drivers'
 * host code runs one at a time in a fixed order, and the GPU runs when
 * every unfinished driver waits in simt_synchronize (rounds: gpu/mix.h).
 * SIMT_OK with each member's rc set, or an error of the mix itself. */
int simt_mix_run(simt_gpu_t *gpu, simt_mix_member_t *m, unsigned n,
                 simt_error_t *err);

#define SIMT_WORKLOAD(ident, summary, ptx_path, fn) \
    const simt_workload_t simt_wl_##ident = { #ident, summary, ptx_path, fn }

#ifdef __cplusplus
}
#endif

#endif
