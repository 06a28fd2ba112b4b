/* compiled.c: from PTX to a launchable kernel (compiled.h). */
#include "gpu/compiled.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/regalloc.h"
#include "gpu/occupancy.h"

/* The physical register of every value slot: its function's own colouring
 * (compiler_unit_t.phys); a register the colouring did not place keeps the
 * slot number, so that it still maps to some bank. */
static uint32_t *slot_registers(const exec_program_t *p,
                                const compiler_unit_t *u)
{
    uint32_t *phys = malloc((p->nslots ? p->nslots : 1) * sizeof *phys);
    if (!phys)
        return NULL;
    for (uint32_t s = 0; s < p->nslots; s++) {
        uint32_t f = p->slot_func[s];
        uint32_t r = f < u->nphys && u->phys[f] ? u->phys[f][p->slot_reg[s]]
                                                : REGALLOC_NONE;
        phys[s] = r == REGALLOC_NONE ? s : r;
    }
    return phys;
}

int gpu_compile_kernel(const ptx_module_t *m, uint32_t kernel,
                       const simt_config_t *cfg, uint64_t global_base,
                       long ptxas_regs, gpu_compiled_t *out, simt_error_t *err)
{
    memset(out, 0, sizeof *out);
    const char *name = m->funcs[kernel].name;
    if (simt_config_get(cfg, SIMT_CFG_REGS_SOURCE) == 1 && ptxas_regs < 0)
        return set_error(err, SIMT_EINPUT, "kernel '%s': gpgpu_regs_source = "
                         "ptxas, but no ptxas -v register count is known for it "
                         "(ptxas_regs in its workload meta)", name);
    int rc = compiler_compile(m, kernel, cfg, NULL, &out->unit, err);
    if (rc != SIMT_OK)
        return rc;
    rc = exec_program_build(out->unit.mod, kernel, global_base, &out->prog, err);
    if (rc == SIMT_OK && !(out->slot_phys = slot_registers(out->prog, &out->unit)))
        rc = set_error(err, SIMT_EINPUT, "out of host memory");
    if (rc != SIMT_OK) {
        gpu_compiled_free(out);
        return rc;
    }
    out->regs = simt_config_get(cfg, SIMT_CFG_REGS_SOURCE) == 1
                    ? (uint32_t)ptxas_regs : out->unit.res.regs;
    return SIMT_OK;
}

void gpu_compiled_free(gpu_compiled_t *c)
{
    exec_program_free(c->prog);
    free(c->slot_phys);
    compiler_unit_free(&c->unit);
    memset(c, 0, sizeof *c);
}

uint32_t gpu_compiled_pairs(const gpu_compiled_t *c, const simt_config_t *cfg,
                            uint32_t threads, uint64_t dyn_shared)
{
    uint64_t smem = exec_cta_smem(c->prog->static_shared, dyn_shared);
    return occupancy_sharing(cfg, threads, c->regs, smem,
                             (uint32_t)simt_config_get(cfg, SIMT_CFG_SSP_THRESHOLD))
        .pairs;
}

int gpu_kernel_code(gpu_kernel_codes_t *k, const ptx_module_t *m,
                    uint32_t kernel, const simt_config_t *cfg,
                    uint64_t global_base, long ptxas_regs, uint32_t threads,
                    uint64_t dyn_shared, const gpu_compiled_t **out,
                    simt_error_t *err)
{
    int rc = SIMT_OK;
    if (!k->configured.prog)
        rc = gpu_compile_kernel(m, kernel, cfg, global_base, ptxas_regs,
                                &k->configured, err);
    if (rc != SIMT_OK)
        return rc;
    /* Without ssp_sharing nothing pairs and nothing decides: the passes
     * run as selected (a compiler experiment, as `simt opt` writes them).
     * With it, the launch is judged with the code that runs if it pairs:
     * the passes' code sets its registers and scratchpad then. */
    if (!compiler_selects_ssp(cfg) || !simt_config_get(cfg, SIMT_CFG_SSP_SHARING) ||
        gpu_compiled_pairs(&k->configured, cfg, threads, dyn_shared) > 0) {
        *out = &k->configured;
        return SIMT_OK;
    }
    if (!k->plain.prog) {
        simt_config_t plain;
        compiler_config_without_ssp(cfg, &plain);
        rc = gpu_compile_kernel(m, kernel, &plain, global_base, ptxas_regs,
                                &k->plain, err);
        if (rc != SIMT_OK)
            return rc;
        /* unit.cfg points at the copy, which dies here: nothing reads it
         * after compiling, but rather than leave it dangling it points at
         * the GPU's configuration, which outlives the code */
        k->plain.unit.cfg = cfg;
    }
    *out = &k->plain;
    return SIMT_OK;
}

void gpu_kernel_codes_free(gpu_kernel_codes_t *k)
{
    gpu_compiled_free(&k->configured);
    gpu_compiled_free(&k->plain);
}
