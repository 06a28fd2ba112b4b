/* pipeline.c: the ordered list of compiler passes and the driver that runs
 * them over one kernel (pipeline.h, pass.h). */
#include "compiler/pipeline.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/relssp.h"
#include "ptx/edit.h"

/* Every pass, in the order a configuration-driven pipeline runs them.
 * Structural rewrites first, spilling before the count it changes,
 * register allocation last.  One line per pass. */
#define COMPILER_PASSES(X)                                                    \
    X(unique_exit)                                                            \
    X(split_edges)                                                            \
    X(ssp_layout)                                                             \
    X(ssp_split)                                                              \
    X(relssp)                                                                 \
    X(spill)                                                                  \
    X(regalloc)

#define X(n) extern const compiler_pass_t compiler_pass_##n;
COMPILER_PASSES(X)
#undef X

static const compiler_pass_t *const passes[] = {
#define X(n) &compiler_pass_##n,
    COMPILER_PASSES(X)
#undef X
};
enum { NPASSES = sizeof passes / sizeof *passes };

ptx_module_t *compiler_writable(compiler_unit_t *u)
{
    if (!u->owned) {
        u->owned = ptx_module_clone(u->mod);
        if (!u->owned) {
            set_error(u->err, SIMT_EINPUT, "out of host memory compiling '%s'",
                      u->src->funcs[u->kernel].name);
            return NULL;
        }
        u->mod = u->owned;
    }
    return u->owned;
}

static const compiler_pass_t *find_pass(const char *name, size_t len)
{
    for (int i = 0; i < NPASSES; i++)
        if (strlen(passes[i]->name) == len && !memcmp(passes[i]->name, name, len))
            return passes[i];
    return NULL;
}

int compiler_compile(const ptx_module_t *m, uint32_t kernel,
                     const simt_config_t *cfg, const char *list,
                     compiler_unit_t *u, simt_error_t *err)
{
    memset(u, 0, sizeof *u);
    u->src = m;
    u->mod = (ptx_module_t *)m; /* read-only until compiler_writable */
    u->kernel = kernel;
    u->cfg = cfg;
    u->err = err;
    int rc = SIMT_OK;
    if (list) {
        for (const char *p = list; rc == SIMT_OK && *p;) {
            size_t len = strcspn(p, ",");
            const compiler_pass_t *pass = find_pass(p, len);
            if (!pass) {
                char names[256] = "";
                for (int i = 0; i < NPASSES; i++)
                    snprintf(names + strlen(names), sizeof names - strlen(names),
                             "%s%s", i ? ", " : "", passes[i]->name);
                rc = set_error(err, SIMT_EINPUT, "unknown compiler pass '%.*s' "
                               "(passes: %s)", (int)len, p, names);
                break;
            }
            rc = pass->run(u);
            p += len;
            if (*p == ',')
                p++;
        }
    } else {
        for (int i = 0; rc == SIMT_OK && i < NPASSES; i++)
            if (!passes[i]->selected || passes[i]->selected(cfg))
                rc = passes[i]->run(u);
    }
    if (rc == SIMT_OK) {
        u->res.shared_bytes = ptx_kernel_shared_bytes(u->mod, kernel);
        u->res.local_bytes = u->mod->funcs[kernel].frame_bytes;
    }
    if (rc != SIMT_OK)
        compiler_unit_free(u);
    return rc;
}

int compiler_selects_ssp(const simt_config_t *cfg)
{
    return simt_config_get(cfg, SIMT_CFG_SSP_LAYOUT) != 0 ||
           simt_config_get(cfg, SIMT_CFG_SSP_RELSSP) != RELSSP_NONE;
}

void compiler_config_without_ssp(const simt_config_t *cfg, simt_config_t *out)
{
    *out = *cfg;
    out->value[SIMT_CFG_SSP_LAYOUT] = 0; /* decl */
    out->value[SIMT_CFG_SSP_RELSSP] = RELSSP_NONE;
}

ptx_module_t *compiler_take_module(compiler_unit_t *u)
{
    ptx_module_t *m = u->owned;
    u->owned = NULL;
    return m;
}

void compiler_unit_free(compiler_unit_t *u)
{
    if (u->phys) {
        for (uint32_t f = 0; f < u->nphys; f++)
            free(u->phys[f]);
        free(u->phys);
    }
    ptx_module_free(u->owned);
    memset(u, 0, sizeof *u);
}

void compiler_list_passes(FILE *out)
{
    for (int i = 0; i < NPASSES; i++)
        fprintf(out, "  %-12s %s\n", passes[i]->name, passes[i]->summary);
}
