/* info.c: `simt info <file.ptx>`: per kernel, its parameters, physical
 * registers from our allocator, static shared and local memory, and the
 * ptxas -v figure when the file's workload meta records one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "compiler/regalloc.h"
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
        v[strcspn(v, "\r\n#")] = '\0';
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

int cli_info(int argc, char **argv)
{
    if (argc != 1) {
        fprintf(stderr, "usage: simt info <file.ptx>\n");
        return 2;
    }
    simt_error_t err = { 0 };
    simt_gpu_t *gpu = simt_gpu_create(NULL, &err);
    simt_module_t *mod;
    if (!gpu || simt_module_load_file(gpu, argv[0], &mod, &err) != SIMT_OK) {
        fprintf(stderr, "%s\n", err.msg);
        simt_gpu_destroy(gpu);
        return err.status ? err.status : 2;
    }
    /* parse again for direct access to the IR (the module keeps its own) */
    FILE *f = fopen(argv[0], "rb");
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
    ptx_module_t *m = len >= 0 ? ptx_parse(argv[0], text, (size_t)len, &err) : NULL;
    free(text);
    simt_gpu_destroy(gpu);
    if (!m) {
        fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "simt info: cannot read file");
        return 2;
    }
    printf("%s: PTX %u.%u, target %s\n", argv[0], m->version_major,
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
        long ptxas = meta_ptxas_regs(argv[0], fn->name);
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
        regalloc_result_free(&ra);
    }
    ptx_module_free(m);
    return rc;
}
