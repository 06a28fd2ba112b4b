/* info.c: `simt info <file.ptx>`: per kernel, its parameters, physical
 * registers from our allocator, static shared and local memory, the
 * ptxas -v figure when the file's workload meta records one, and the
 * occupancy (CTAs per SM and the limiting resource) under a configuration. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "compiler/regalloc.h"
#include "gpu/occupancy.h"
#include "ptx/ir.h"

/* ptxas_regs for `kernel` from the `meta` file beside the PTX, or -1. */
static long meta_ptxas_regs(const char *ptx_path, const char *kernel)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", ptx_path);
    char *slash = strrchr(path, '/');
    snprintf(slash ? slash + 1 : path, sizeof path - (size_t)(slash ? slash + 1 - path : 0),
             "meta");
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024], kernels[1024] = "", regs[1024] = "";
    while (fgets(line, sizeof line, f)) {
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        *eq = '\0';
        char *k = line, *v = eq + 1;
        while (*k == ' ') k++;
        char *ke = k + strlen(k);
        while (ke > k && (ke[-1] == ' ' || ke[-1] == '\t')) *--ke = '\0';
        while (*v == ' ') v++;
        v[strcspn(v, "\r\n")] = '\0';
        /* a '#' after a blank and before a blank or the end starts a comment */
        for (char *h = strchr(v, '#'); h; h = strchr(h + 1, '#'))
            if ((h == v || h[-1] == ' ' || h[-1] == '\t') &&
                (h[1] == '\0' || h[1] == ' ' || h[1] == '\t')) {
                *h = '\0';
                break;
            }
        if (!strcmp(k, "kernels"))
            snprintf(kernels, sizeof kernels, "%s", v);
        else if (!strcmp(k, "ptxas_regs"))
            snprintf(regs, sizeof regs, "%s", v);
    }
    fclose(f);
    /* the n-th kernel name gives the n-th register count */
    char *ks = kernels, *rs = regs;
    for (;;) {
        char *kc = strchr(ks, ','), *rc = strchr(rs, ',');
        size_t kl = kc ? (size_t)(kc - ks) : strlen(ks);
        while (kl && ks[kl - 1] == ' ') kl--;
        while (*ks == ' ') { ks++; kl--; }
        if (kl == strlen(kernel) && !strncmp(ks, kernel, kl))
            return strtol(rs, NULL, 10);
        if (!kc || !rc)
            return -1;
        ks = kc + 1;
        rs = rc + 1;
    }
}

static int info_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "simt info: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nusage: simt info <file.ptx> [--config FILE] [--set key=value]... "
                    "[--block THREADS] [--dynamic-shared BYTES]\n");
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

int cli_info(int argc, char **argv)
{
    const char *file = NULL, *config_file = NULL;
    const char *sets[64];
    int nsets = 0;
    long block = 0, dyn = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has_next = i + 1 < argc;
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
    FILE *f = fopen(file, "rb");
    char *text = NULL;
    long len = 0;
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)len + 1)) &&
        fread(text, 1, (size_t)len, f) == (size_t)len) {
    } else {
        len = -1;
    }
    if (f)
        fclose(f);
    ptx_module_t *m = len >= 0 ? ptx_parse(file, text, (size_t)len, &err) : NULL;
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
        regalloc_result_t ra;
        if (regalloc_kernel(m, i, &ra) != 0) {
            fprintf(stderr, "simt info: error: register allocation of '%s' "
                    "failed (out of memory)\n", fn->name);
            rc = 2;
            continue;
        }
        long ptxas = meta_ptxas_regs(file, fn->name);
        printf("\nkernel %s\n", fn->name);
        printf("  parameters:     %u (%llu bytes)\n", fn->nparams,
               (unsigned long long)fn->param_bytes);
        for (uint32_t p = 0; p < fn->nparams; p++) {
            const ptx_symbol_t *s = &m->syms[fn->params[p]];
            printf("    %-24s %-5s %llu bytes at offset %llu\n", s->name,
                   ptx_type_name((ptx_type_t)s->type),
                   (unsigned long long)s->size, (unsigned long long)s->offset);
        }
        printf("  registers:      %u per thread (32-bit, our allocator), %u predicates",
               ra.regs, ra.preds);
        if (ptxas >= 0)
            printf("; ptxas -v: %ld", ptxas);
        printf("\n  virtual regs:   %u\n", fn->nregs);
        printf("  shared memory:  %llu bytes static\n",
               (unsigned long long)ptx_kernel_shared_bytes(m, i));
        printf("  local memory:   %llu bytes per thread (own frame)\n",
               (unsigned long long)fn->frame_bytes);
        printf("  instructions:   %u\n", fn->count);
        print_occupancy(&cfg, m, i, ra.regs, block, dyn);
        regalloc_result_free(&ra);
    }
    ptx_module_free(m);
    return rc;
}
