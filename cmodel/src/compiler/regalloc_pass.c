/* regalloc_pass.c: the register-allocation pass: the registers per thread
 * that decide occupancy, counted the way ptxas counts them, and each
 * function's physical registers for the register-bank model.
 *
 * The count (docs/regalloc.md, "Modelling ptxas"):
 *   1. schedule a copy of the code the way ptxas does for latency
 *      (compiler/ilp_schedule.h: instructions moved up within their
 *      blocks as soon as their operands are ready);
 *   2. colour it (compiler/regalloc.h: 64-bit values in aligned even/odd
 *      pairs, callees on top of what is live across their calls);
 *   3. add what SASS reserves: R1 as the ABI stack pointer, one register
 *      more than the values need (measured with ptxas: n live values plus
 *      a 64-bit address take n + 3, the colouring gives n + 2), and no
 *      kernel below PTXAS_MIN_REGS (an empty kernel takes 4);
 *   4. predicates beyond the 7 that sm_75 has live in 32-bit registers;
 *   5. under a cap (compiler/spill.c) at most the cap: ptxas then
 *      schedules for fewer registers, and spills what still does not fit.
 * The physical registers come from colouring the code as it runs (PTX
 * order), one function at a time, as the bank model always used them. */
#include <stdlib.h>

#include "base/error.h"
#include "compiler/ilp_schedule.h"
#include "compiler/pass.h"
#include "compiler/regalloc.h"
#include "ptx/callgraph.h"
#include "ptx/edit.h"

enum {
    PTXAS_MIN_REGS = 4,  /* ptxas -v of a kernel that is only `ret;` */
    PTXAS_PREDS = 7,     /* P0..P6; PT is the constant true */
};

static int alloc_error(compiler_unit_t *u, int rc)
{
    return set_error(u->err, SIMT_EINPUT, "register allocation of '%s' failed "
                     "(%s)", u->mod->funcs[u->kernel].name,
                     rc == REGALLOC_ENOMEM ? "out of host memory"
                                           : "bad function");
}

/* Registers per thread as ptxas would report them for the kernel. */
static int count_like_ptxas(compiler_unit_t *u, const uint32_t *funcs,
                            uint32_t nfuncs)
{
    ptx_module_t *sched = ptx_module_clone(u->mod);
    if (!sched)
        return alloc_error(u, REGALLOC_ENOMEM);
    for (uint32_t i = 0; i < nfuncs; i++)
        if (ilp_schedule(sched, funcs[i]) != 0) {
            ptx_module_free(sched);
            return alloc_error(u, REGALLOC_ENOMEM);
        }
    regalloc_result_t ra;
    int rc = regalloc_kernel(sched, u->kernel, &ra);
    ptx_module_free(sched);
    if (rc != 0)
        return alloc_error(u, rc);
    uint32_t regs = ra.regs + COMPILER_RESERVED_REGS;
    if (ra.preds > PTXAS_PREDS)
        regs += ra.preds - PTXAS_PREDS;
    u->res.alloc_regs = ra.regs;
    u->res.preds = ra.preds;
    if (regs < PTXAS_MIN_REGS)
        regs = PTXAS_MIN_REGS;
    /* under a cap ptxas schedules for fewer registers rather than spill;
     * the spill pass has made the PTX order fit */
    u->res.regs = u->res.cap && regs > u->res.cap ? u->res.cap : regs;
    regalloc_result_free(&ra);
    return SIMT_OK;
}

static int run(compiler_unit_t *u)
{
    uint32_t nfuncs;
    uint32_t *funcs = ptx_reachable(u->mod, u->kernel, &nfuncs, u->err);
    if (!funcs)
        return SIMT_EINPUT;
    int rc = count_like_ptxas(u, funcs, nfuncs);
    if (rc == SIMT_OK && !u->phys) {
        u->nphys = u->mod->nfuncs;
        u->phys = calloc(u->nphys, sizeof *u->phys);
        if (!u->phys)
            rc = alloc_error(u, REGALLOC_ENOMEM);
    }
    for (uint32_t i = 0; rc == SIMT_OK && i < nfuncs; i++) {
        regalloc_result_t ra;
        int e = regalloc_function(u->mod, funcs[i], &ra);
        if (e != 0) {
            rc = alloc_error(u, e);
            break;
        }
        free(u->phys[funcs[i]]);
        u->phys[funcs[i]] = ra.phys; /* handed over */
    }
    free(funcs);
    return rc;
}

const compiler_pass_t compiler_pass_regalloc = {
    .name = "regalloc",
    .summary = "count registers per thread like ptxas (changes no code)",
    .selected = NULL,
    .run = run,
};
