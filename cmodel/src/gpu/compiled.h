/* compiled.h: a kernel ready to launch: the compiler pipeline's result
 * (compiler/pipeline.h), the executable program built from its code, the
 * physical register of every value slot (for the register-bank model) and
 * the registers per thread that occupancy uses.
 *
 * gpu.c keeps one per kernel of a module, built at the kernel's first
 * launch: the cache key (module, kernel, configuration) needs no more,
 * because a module belongs to one GPU and a GPU's configuration is fixed
 * when it is created.  `simt info` builds them the same way, so the two
 * always agree. */
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

#endif
