/* opt.c: `simt opt`: the compiler passes over every kernel of a PTX file,
 * written back as PTX (ptx/printer.h), which `simt info` and
 * `simt run --ptx` accept.  The passes are the ones the configuration
 * selects (as a launch would run them: a kernel whose .reqntid shape
 * pairs no blocks under ssp_sharing = 1 is written without the Scratchpad
 * Sharing passes, keeps_ssp), or the --passes list in its order.  The output is written to a temporary file and renamed, so a
 * failure leaves nothing half-written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/readfile.h"
#include "cli/cli.h"
#include "compiler/pipeline.h"
#include "exec/exec.h"
#include "gpu/occupancy.h"
#include "ptx/printer.h"

static int opt_usage(const char *fmt, const char *arg)
{
    char shown[256];
    fprintf(stderr, "simt opt: error: ");
    fprintf(stderr, fmt, printable(arg, (size_t)-1, shown, sizeof shown));
    fprintf(stderr, "\nusage: simt opt [--passes a,b,...] [--config FILE] [--set key=value]... "
                    "in.ptx -o out.ptx\n       simt opt --list\n");
    return 2;
}

/* Whether the compiled kernel u keeps the Scratchpad Sharing passes
 * (gpu/compiled.h's rule for a launch): yes, unless the hardware shares
 * (ssp_sharing = 1) and the kernel declares its exact launch shape
 * (.reqntid) and a launch of that shape, with no dynamic scratchpad, pairs
 * no blocks.  Without .reqntid the shape is unknown (.maxntid is only a
 * bound, and a smaller block may pair where the largest does not), so the
 * passes run as selected. */
static int keeps_ssp(const compiler_unit_t *u, const simt_config_t *cfg,
                     const char *file)
{
    const ptx_function_t *fn = &u->src->funcs[u->kernel];
    if (!compiler_selects_ssp(cfg) || !simt_config_get(cfg, SIMT_CFG_SSP_SHARING) ||
        !fn->reqntid[0])
        return 1;
    uint32_t threads = fn->reqntid[0] * fn->reqntid[1] * fn->reqntid[2];
    long ptxas = cli_meta_ptxas_regs(file, fn->name);
    uint32_t regs = simt_config_get(cfg, SIMT_CFG_REGS_SOURCE) == 1 && ptxas >= 0
                        ? (uint32_t)ptxas : u->res.regs;
    uint64_t smem = exec_cta_smem(u->res.shared_bytes, 0);
    return occupancy_sharing(cfg, threads, regs, smem,
                             (uint32_t)simt_config_get(cfg, SIMT_CFG_SSP_THRESHOLD))
               .pairs > 0;
}

/* Every kernel of *m through the passes; *m becomes the edited module. */
static int compile_all(ptx_module_t **m, const simt_config_t *cfg,
                       const char *passes, const char *file, simt_error_t *err)
{
    for (uint32_t k = 0; k < (*m)->nfuncs; k++) {
        if (!(*m)->funcs[k].is_entry || !(*m)->funcs[k].count)
            continue;
        compiler_unit_t u;
        simt_config_t plain; /* outlives u, which points at it */
        int rc = compiler_compile(*m, k, cfg, passes, &u, err);
        if (rc == SIMT_OK && !passes && !keeps_ssp(&u, cfg, file)) {
            compiler_config_without_ssp(cfg, &plain);
            compiler_unit_free(&u);
            rc = compiler_compile(*m, k, &plain, NULL, &u, err);
        }
        if (rc != SIMT_OK)
            return rc;
        ptx_module_t *edited = compiler_take_module(&u);
        compiler_unit_free(&u);
        if (edited) {
            ptx_module_free(*m);
            *m = edited;
        }
    }
    return SIMT_OK;
}

int cli_opt(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *passes = NULL, *config_file = NULL;
    const char *sets[66];
    char relssp_kv[96] = "", layout_kv[96] = "";
    int nsets = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has_next = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: simt opt [--passes a,b,...] [--relssp=opt|postdom|none] "
                   "[--layout=min|decl] [--config FILE] [--set key=value]... "
                   "in.ptx -o out.ptx\n       simt opt --list\n\n"
                   "Runs compiler passes over every kernel and writes the PTX.\n"
                   "--relssp and --layout set ssp_relssp and ssp_layout (Scratchpad\n"
                   "Sharing's relssp placement and variable layout, docs/compiler.md).\n"
                   "exit status: 0 ok; 2 bad input\n");
            return 0;
        }
        if (!strcmp(a, "--list")) {
            compiler_list_passes(stdout);
            return 0;
        } else if (!strncmp(a, "--passes=", 9)) {
            passes = a + 9;
        } else if (!strncmp(a, "--relssp=", 9) || !strncmp(a, "--layout=", 9)) {
            /* the Scratchpad Sharing passes' keys (ssp_relssp, ssp_layout),
             * checked as --set checks them; the last one given counts */
            char *kv = a[2] == 'r' ? relssp_kv : layout_kv;
            if (strlen(a + 2) + 5 > sizeof relssp_kv)
                return opt_usage("value of '%s' is too long", a);
            snprintf(kv, sizeof relssp_kv, "ssp_%s", a + 2);
        } else if (!strcmp(a, "--passes") || !strcmp(a, "-o") ||
                   !strcmp(a, "--config") || !strcmp(a, "--set")) {
            if (!has_next)
                return opt_usage("%s needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--passes"))
                passes = v;
            else if (!strcmp(a, "-o"))
                out = v;
            else if (!strcmp(a, "--config"))
                config_file = v;
            else if (nsets == 64)
                return opt_usage("too many %s options", a);
            else
                sets[nsets++] = v;
        } else if (a[0] == '-') {
            return opt_usage("unknown option '%s'", a);
        } else if (!in) {
            in = a;
        } else {
            return opt_usage("unexpected argument '%s'", a);
        }
    }
    if (!in)
        return opt_usage("%s", "missing input PTX file");
    if (!out)
        return opt_usage("%s", "missing -o out.ptx");
    if (passes && !*passes)
        return opt_usage("%s", "--passes needs at least one pass (--list shows them)");
    if (*relssp_kv)
        sets[nsets++] = relssp_kv;
    if (*layout_kv)
        sets[nsets++] = layout_kv;
    simt_error_t err = { 0 };
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    int rc = config_file ? simt_config_load_file(&cfg, config_file, &err) : SIMT_OK;
    for (int i = 0; rc == SIMT_OK && i < nsets; i++)
        rc = simt_config_set(&cfg, sets[i], "--set", &err);
    size_t len = 0;
    char *text = NULL;
    if (rc == SIMT_OK)
        rc = read_input_file(in, "PTX file", SIMT_PTX_MAX_BYTES, &text, &len, &err);
    ptx_module_t *m = text ? ptx_parse(in, text, len, &err) : NULL;
    free(text);
    if (m)
        rc = compile_all(&m, &cfg, passes, in, &err);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *f = m && rc == SIMT_OK ? fopen(tmp, "w") : NULL;
    if (m && rc == SIMT_OK && !f) {
        fprintf(stderr, "%s: error: cannot write: %s\n", tmp, strerror(errno));
        ptx_module_free(m);
        return 2;
    }
    if (f) {
        int bad = ptx_print_module(m, f) != 0;
        bad |= fclose(f) != 0;
        if (bad || rename(tmp, out) != 0) {
            fprintf(stderr, "%s: error: cannot write: %s\n", out, strerror(errno));
            remove(tmp);
            ptx_module_free(m);
            return 2;
        }
    }
    ptx_module_free(m);
    if (!f) {
        fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "simt opt: error");
        return err.status ? err.status : 2;
    }
    return 0;
}
