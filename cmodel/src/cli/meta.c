/* meta.c: the ptxas -v figures of a workload's meta file (cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* The meta file's `kernels` and `ptxas_regs` values (comma lists, comments
 * removed), from the `meta` beside ptx_path.  0, or -1 when there is none. */
static int meta_read(const char *ptx_path, char *kernels, char *regs, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", ptx_path);
    char *slash = strrchr(path, '/');
    snprintf(slash ? slash + 1 : path, sizeof path - (size_t)(slash ? slash + 1 - path : 0),
             "meta");
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    kernels[0] = regs[0] = '\0';
    char line[1024];
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
            snprintf(kernels, size, "%s", v);
        else if (!strcmp(k, "ptxas_regs"))
            snprintf(regs, size, "%s", v);
    }
    fclose(f);
    return 0;
}

/* The n-th kernel name of `kernels` gives the n-th count of `regs`: the
 * count of `kernel`, or -1. */
static long meta_regs_of(const char *kernels, const char *regs, const char *kernel)
{
    const char *ks = kernels, *rs = regs;
    for (;;) {
        const char *kc = strchr(ks, ','), *rc = strchr(rs, ',');
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

long cli_meta_ptxas_regs(const char *ptx_path, const char *kernel)
{
    char kernels[1024], regs[1024];
    if (meta_read(ptx_path, kernels, regs, sizeof kernels) != 0)
        return -1;
    return meta_regs_of(kernels, regs, kernel);
}

int cli_meta_apply(simt_module_t *mod, const char *ptx_path,
                   simt_error_t *err)
{
    char kernels[1024], regs[1024], names[1024];
    if (meta_read(ptx_path, kernels, regs, sizeof kernels) != 0)
        return SIMT_OK;
    snprintf(names, sizeof names, "%s", kernels);
    for (char *k = strtok(names, ", \t"); k; k = strtok(NULL, ", \t")) {
        long n = meta_regs_of(kernels, regs, k);
        if (n >= 0 && simt_module_set_ptxas_regs(mod, k, (unsigned)n, err))
            return SIMT_EINPUT;
    }
    return SIMT_OK;
}
