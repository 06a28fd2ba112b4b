/* compiled.h: a kernel ready to launch: the compiler pipeline's result
 * (compiler/pipeline.h), the executable program built from its code, the
 * physical register of every value slot (for the register-bank model) and
 * the registers per thread that occupancy uses.
 *
 * gpu.c keeps one gpu_kernel_codes_t per kernel of a module: the cache key
 * (module, kernel, configuration) needs no more, because a module belongs
 * to one GPU and a GPU's configuration is fixed when it is created.
 * `simt info` builds them the same way, so the two always agree.
 *
 * Scratchpad Sharing's compiler passes (ssp_layout, relssp) serve only
 * launches that pair blocks, and whether a launch pairs is known only at
 * the launch (block size, dynamic scratchpad; seed 000 §6.7-§6.8: no
 * relssp where sharing does not apply).  So a kernel has up to two codes:
 * `configured`, the pipeline the configuration selects, and `plain`, the
 * same pipeline without the sharing passes (compiler_config_without_ssp:
 * byte-identical to sharing off).  With ssp_sharing = 1, gpu_kernel_code
 * picks per launch: `configured` when occupancy_sharing gives the launch
 * pairs > 0 with `configured`'s registers and scratchpad (the code that
 * runs when it pairs), else `plain`.  With ssp_sharing = 0 no launch pairs
 * and nothing is decided: every launch runs `configured`, the passes as
 * selected (a compiler experiment; docs/compiler.md).  Invariants:
 * plain.prog is NULL until a launch needs it (built once, then reused);
 * when the configuration selects no sharing pass, or ssp_sharing = 0,
 * `configured` is the only code and every launch runs it. */
#ifndef GPU_COMPILED_H
#define GPU_COMPILED_H

#include "compiler/pipeline.h"
#include "exec/exec.h"

typedef struct gpu_compiled {
    compiler_unit_t unit;
    exec_program_t *prog;
    uint32_t *slot_phys;  /* per value slot of prog */
    /* Registers per thread for occupancy: unit.res.regs, or the ptxas -v
     * figure when gpgpu_regs_source = ptxas. */
    uint32_t regs;
} gpu_compiled_t;

/* Compiles `kernel` of m under cfg.  ptxas_regs is the kernel's ptxas -v
 * figure from its workload meta, or -1 when none is known (an error under
 * gpgpu_regs_source = ptxas, naming the kernel).  SIMT_OK or SIMT_EINPUT
 * with err filled; on error *out holds nothing. */
int gpu_compile_kernel(const ptx_module_t *m, uint32_t kernel,
                       const simt_config_t *cfg, uint64_t global_base,
                       long ptxas_regs, gpu_compiled_t *out, simt_error_t *err);

void gpu_compiled_free(gpu_compiled_t *c);

typedef struct gpu_kernel_codes {
    gpu_compiled_t configured; /* prog NULL until the first launch */
    gpu_compiled_t plain;      /* prog NULL until a launch needs it */
} gpu_kernel_codes_t;

/* Scratchpad Sharing's pairs per SM for a launch of c's code with
 * `threads` threads per CTA and `dyn_shared` dynamic scratchpad bytes:
 * occupancy_sharing, the answer the timing model's launch setup
 * (gpu/timing.c) computes from the same figures. */
uint32_t gpu_compiled_pairs(const gpu_compiled_t *c, const simt_config_t *cfg,
                            uint32_t threads, uint64_t dyn_shared);

/* The code a launch of `kernel` with that shape runs, compiling what is
 * missing (the kernel's first launch reports unsupported code).  SIMT_OK
 * with *out set, or SIMT_EINPUT with err filled. */
int gpu_kernel_code(gpu_kernel_codes_t *k, const ptx_module_t *m,
                    uint32_t kernel, const simt_config_t *cfg,
                    uint64_t global_base, long ptxas_regs, uint32_t threads,
                    uint64_t dyn_shared, const gpu_compiled_t **out,
                    simt_error_t *err);

void gpu_kernel_codes_free(gpu_kernel_codes_t *k);

#endif
