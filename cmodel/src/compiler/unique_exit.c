/* unique_exit.c: the unique-exit pass.  Afterwards every function reached
 * from the kernel has exactly one ret/exit, its last instruction, and
 * every other way out branches there.  Seed 000's relssp placement needs
 * it: a release point must post-dominate every path to the end.
 *
 * Each ret/exit other than the last instruction becomes a branch (keeping
 * its guard) to a `ret` appended to the function, or to the function's
 * last instruction when that is already an unguarded ret/exit.  `exit` in
 * a kernel and `ret` end the thread alike; a device function's `ret`
 * returns. */
#include <stdlib.h>

#include "base/error.h"
#include "compiler/pass.h"
#include "compiler/relssp.h"
#include "compiler/ssp_access.h"
#include "ptx/callgraph.h"
#include "ptx/edit.h"

static int is_exit(const ptx_insn_t *in)
{
    return in->op == PTX_OP_RET || in->op == PTX_OP_EXIT;
}

/* Is the last instruction of f an unguarded ret/exit? */
static int ends_in_exit(const ptx_module_t *m, uint32_t f)
{
    const ptx_function_t *fn = &m->funcs[f];
    if (!fn->count)
        return 0;
    const ptx_insn_t *tail = &m->insns[fn->first + fn->count - 1];
    return is_exit(tail) && tail->guard == PTX_REG_SINK;
}

/* Does f have an exit other than an unguarded last instruction? */
static int needs_unify(const ptx_module_t *m, uint32_t f)
{
    const ptx_function_t *fn = &m->funcs[f];
    uint32_t exits = 0;
    for (uint32_t i = fn->first; i < fn->first + fn->count; i++)
        exits += is_exit(&m->insns[i]);
    return exits > 1 || (exits == 1 && !ends_in_exit(m, f));
}

/* 0, or -1 when out of memory. */
static int unify(ptx_module_t *m, uint32_t f)
{
    uint32_t last = m->funcs[f].first + m->funcs[f].count - 1;
    if (!ends_in_exit(m, f)) {
        ptx_insn_t ret = ptx_make_ret(f);
        if (ptx_insert(m, f, last + 1, &ret, 1, 0) != 0)
            return -1;
        last++;
    }
    for (uint32_t i = m->funcs[f].first; i < last; i++) {
        ptx_insn_t *in = &m->insns[i];
        if (!is_exit(in))
            continue;
        ptx_insn_t b = ptx_make_bra(last, f);
        b.guard = in->guard;
        b.guard_neg = in->guard_neg;
        b.line = in->line;
        b.col = in->col;
        *in = b;
    }
    return 0;
}

static int run(compiler_unit_t *u)
{
    /* Wanted by relssp placement only: a kernel that touches no
     * scratchpad gets no relssp and stays as it is. */
    if (simt_config_get(u->cfg, SIMT_CFG_SSP_RELSSP) != RELSSP_NONE &&
        !simt_config_get(u->cfg, SIMT_CFG_UNIQUE_EXIT)) {
        int touch = ssp_kernel_touches(u->mod, u->kernel, u->err);
        if (touch <= 0)
            return touch < 0 ? SIMT_EINPUT : SIMT_OK;
    }
    uint32_t n;
    uint32_t *funcs = ptx_reachable(u->mod, u->kernel, &n, u->err);
    if (!funcs)
        return SIMT_EINPUT;
    int rc = SIMT_OK;
    for (uint32_t i = 0; i < n && rc == SIMT_OK; i++) {
        if (!needs_unify(u->mod, funcs[i]))
            continue;
        ptx_module_t *m = compiler_writable(u);
        if (!m || unify(m, funcs[i]) != 0)
            rc = set_error(u->err, SIMT_EINPUT, "out of host memory in pass "
                           "unique_exit");
    }
    free(funcs);
    return rc;
}

/* On its own key, or for relssp placement, which needs one block that
 * every path to the end passes (seed 000, Sec. 6.3). */
static int selected(const simt_config_t *cfg)
{
    return simt_config_get(cfg, SIMT_CFG_UNIQUE_EXIT) != 0 ||
           simt_config_get(cfg, SIMT_CFG_SSP_RELSSP) != RELSSP_NONE;
}

const compiler_pass_t compiler_pass_unique_exit = {
    .name = "unique_exit",
    .summary = "one ret/exit per function, at its end; other exits branch there",
    .selected = selected,
    .run = run,
};
