/* info.c: `simt info <file.ptx>`: per kernel, its parameters, physical
 * registers from our allocator, static shared and local memory, the
 * ptxas -v figure when the file's workload meta records one, and the
 * occupancy (CTAs per SM and the limiting resource) under a configuration.
 * With a launch shape (--block, .reqntid, .maxntid) the figures are those
 * of the code a launch of that shape runs: with ssp_sharing = 1, a shape
 * that pairs no blocks runs the kernel without the Scratchpad Sharing
 * passes (gpu/compiled.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/readfile.h"
#include "cli/cli.h"
#include "gpu/compiled.h"
#include "gpu/occupancy.h"
#include "ptx/ir.h"

static const char info_usage_line[] =
    "usage: simt info <file.ptx> [--config FILE] [--set key=value]... "
    "[--block THREADS] [--dynamic-shared BYTES]\n";

static int info_usage(const char *fmt, const char *arg)
{
    char shown[256];
    fprintf(stderr, "simt info: error: ");
    fprintf(stderr, fmt, printable(arg, (size_t)-1, shown, sizeof shown));
    fprintf(stderr, "\n%s", info_usage_line);
    return 2;
}

/* Parses a decimal count in [0, 2^30]; -1 when it is not one. */
static long parse_count(const char *v)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    return (errno || end == v || *end || n < 0 || n > (1L << 30)) ? -1 : n;
}

/* Threads per CTA for the occupancy line: --block, else the kernel's
 * .reqntid, else its .maxntid; 0 when none is known. */
static uint64_t cta_threads(const ptx_function_t *fn, long block)
{
    if (block > 0)
        return (uint64_t)block;
    if (fn->reqntid[0])
        return (uint64_t)fn->reqntid[0] * fn->reqntid[1] * fn->reqntid[2];
    if (fn->maxntid[0])
        return (uint64_t)fn->maxntid[0] * fn->maxntid[1] * fn->maxntid[2];
    return 0;
}

static void print_occupancy(const simt_config_t *cfg, const ptx_module_t *m,
                            uint32_t fi, uint32_t regs, long block, long dyn)
{
    uint64_t threads = cta_threads(&m->funcs[fi], block);
    if (!threads) {
        printf("  occupancy:      pass --block THREADS to compute it\n");
        return;
    }
    uint64_t shared = ptx_kernel_shared_bytes(m, fi) + (uint64_t)dyn;
    occupancy_t o = occupancy_of(cfg, (uint32_t)threads, regs, shared);
    printf("  occupancy:      %u CTAs/SM of %llu threads, limited by %s "
           "(%s)\n", o.ctas, (unsigned long long)threads,
           occupancy_resource_name(o.limiter),
           cfg->preset[0] ? cfg->preset : "default configuration");
    printf("    per resource:");
    for (int r = 0; r < OCC_NRESOURCES; r++) {
        if (o.by[r] == UINT32_MAX)
            printf(" %s -", occupancy_resource_name((occ_resource_t)r));
        else
            printf(" %s %u", occupancy_resource_name((occ_resource_t)r), o.by[r]);
        printf(r + 1 < OCC_NRESOURCES ? "," : "\n");
    }
}

/* Which code the sharing passes left (docs/compiler.md): only when the
 * configuration selects them and the hardware shares (ssp_sharing). */
static void print_sharing_passes(const simt_config_t *cfg,
                                 const gpu_compiled_t *code,
                                 const gpu_kernel_codes_t *codes,
                                 uint64_t threads, long dyn)
{
    if (!compiler_selects_ssp(cfg) || !simt_config_get(cfg, SIMT_CFG_SSP_SHARING))
        return;
    if (!threads)
        printf("  sharing passes: run (pass --block THREADS: a launch that "
               "pairs no blocks runs the kernel without them)\n");
    else if (code == &codes->configured)
        printf("  sharing passes: run (%u pairs per SM at this shape)\n",
               gpu_compiled_pairs(code, cfg, (uint32_t)threads, (uint64_t)dyn));
    else
        printf("  sharing passes: not run (no pair per SM at this shape; "
               "ssp_layout and ssp_relssp apply only where blocks pair)\n");
}

int cli_info(int argc, char **argv)
{
    const char *file = NULL, *config_file = NULL;
    const char *sets[64];
    int nsets = 0;
    long block = 0, dyn = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has_next = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("%s\nKernels of a PTX file: parameters, registers per thread, shared and\n"
                   "local memory, instructions, and occupancy on the configuration\n"
                   "(--block THREADS per CTA, --dynamic-shared BYTES).\n"
                   "exit status: 0 ok; 2 bad input\n", info_usage_line);
            return 0;
        }
        if (!strcmp(a, "--config") || !strcmp(a, "--set") ||
            !strcmp(a, "--block") || !strcmp(a, "--dynamic-shared")) {
            if (!has_next)
                return info_usage("%s needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--config")) {
                config_file = v;
            } else if (!strcmp(a, "--set")) {
                if (nsets == 64)
                    return info_usage("too many %s options", a);
                sets[nsets++] = v;
            } else if (!strcmp(a, "--block")) {
                if ((block = parse_count(v)) <= 0)
                    return info_usage("--block '%s' is not a positive count", v);
            } else if ((dyn = parse_count(v)) < 0) {
                return info_usage("--dynamic-shared '%s' is not a byte count", v);
            }
        } else if (a[0] == '-') {
            return info_usage("unknown option '%s'", a);
        } else if (!file) {
            file = a;
        } else {
            return info_usage("unexpected argument '%s'", a);
        }
    }
    if (!file)
        return info_usage("%s", "missing PTX file");
    simt_error_t err = { 0 };
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    if (config_file && simt_config_load_file(&cfg, config_file, &err) != SIMT_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return err.status ? err.status : 2;
    }
    for (int i = 0; i < nsets; i++)
        if (simt_config_set(&cfg, sets[i], "--set", &err) != SIMT_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return err.status ? err.status : 2;
        }
    simt_gpu_t *gpu = simt_gpu_create(&cfg, &err);
    simt_module_t *mod;
    if (!gpu || simt_module_load_file(gpu, file, &mod, &err) != SIMT_OK) {
        fprintf(stderr, "%s\n", err.msg);
        simt_gpu_destroy(gpu);
        return err.status ? err.status : 2;
    }
    /* parse again for direct access to the IR (the module keeps its own) */
    char *text;
    size_t len;
    ptx_module_t *m = NULL;
    if (read_input_file(file, "PTX file", SIMT_PTX_MAX_BYTES, &text, &len, &err) == SIMT_OK)
        m = ptx_parse(file, text, len, &err);
    free(text);
    simt_gpu_destroy(gpu);
    if (!m) {
        fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "simt info: cannot read file");
        return 2;
    }
    printf("%s: PTX %u.%u, target %s\n", file, m->version_major,
           m->version_minor, m->target);
    int rc = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const ptx_function_t *fn = &m->funcs[i];
        if (!fn->is_entry || !fn->count)
            continue;
        long ptxas = cli_meta_ptxas_regs(file, fn->name);
        /* the code a launch of this shape runs (gpu/compiled.h: with or
         * without the Scratchpad Sharing passes); without a shape, the
         * configured pipeline's */
        uint64_t threads = cta_threads(fn, block);
        gpu_kernel_codes_t codes;
        memset(&codes, 0, sizeof codes);
        const gpu_compiled_t *code = &codes.configured;
        simt_error_t cerr = { 0 };
        int crc = threads
            ? gpu_kernel_code(&codes, m, i, &cfg, 0, ptxas, (uint32_t)threads,
                              (uint64_t)dyn, &code, &cerr)
            : gpu_compile_kernel(m, i, &cfg, 0, ptxas, &codes.configured, &cerr);
        if (crc != SIMT_OK) {
            fprintf(stderr, "%s\n", cerr.msg);
            gpu_kernel_codes_free(&codes);
            rc = 2;
            continue;
        }
        const gpu_compiled_t ck = *code;
        const compiler_resources_t *res = &ck.unit.res;
        printf("\nkernel %s\n", fn->name);
        printf("  parameters:     %u (%llu bytes)\n", fn->nparams,
               (unsigned long long)fn->param_bytes);
        for (uint32_t p = 0; p < fn->nparams; p++) {
            const ptx_symbol_t *s = &m->syms[fn->params[p]];
            printf("    %-24s %-5s %llu bytes at offset %llu\n", s->name,
                   ptx_type_name((ptx_type_t)s->type),
                   (unsigned long long)s->size, (unsigned long long)s->offset);
        }
        printf("  registers:      %u per thread (32-bit, %s), %u predicates",
               ck.regs, simt_config_get(&cfg, SIMT_CFG_REGS_SOURCE)
                            ? "ptxas -v" : "our allocator", res->preds);
        if (ptxas >= 0)
            printf("; ptxas -v: %ld", ptxas);
        printf("\n  allocator:      %u registers modelled like ptxas, %u coloured",
               res->regs, res->alloc_regs);
        if (res->cap)
            printf(", cap %u (maxrregcount, .maxntid)", res->cap);
        if (res->spilled)
            printf(", %u values spilled to local memory", res->spilled);
        printf("\n  virtual regs:   %u\n", fn->nregs);
        printf("  shared memory:  %llu bytes static\n",
               (unsigned long long)ptx_kernel_shared_bytes(m, i));
        printf("  local memory:   %llu bytes per thread (own frame)\n",
               (unsigned long long)res->local_bytes);
        printf("  instructions:   %u\n", ck.unit.mod->funcs[i].count);
        print_occupancy(&cfg, m, i, ck.regs, block, dyn);
        print_sharing_passes(&cfg, code, &codes, threads, dyn);
        gpu_kernel_codes_free(&codes);
    }
    ptx_module_free(m);
    return rc;
}
