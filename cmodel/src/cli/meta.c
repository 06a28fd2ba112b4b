/* meta.c: the ptxas -v figures of a workload's meta file (cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

long cli_meta_ptxas_regs(const char *ptx_path, const char *kernel)
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

int cli_meta_apply(simt_module_t *mod, const char *ptx_path,
                   simt_error_t *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", ptx_path);
    char *slash = strrchr(path, '/');
    snprintf(slash ? slash + 1 : path, sizeof path - (size_t)(slash ? slash + 1 - path : 0),
             "meta");
    FILE *f = fopen(path, "r");
    if (!f)
        return SIMT_OK;
    char line[1024], kernels[1024] = "";
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "kernels", 7) && strchr(line, '=')) {
            snprintf(kernels, sizeof kernels, "%s", strchr(line, '=') + 1);
            break;
        }
    fclose(f);
    for (char *k = strtok(kernels, ", \t\r\n"); k; k = strtok(NULL, ", \t\r\n")) {
        if (*k == '#')
            break;
        long regs = cli_meta_ptxas_regs(ptx_path, k);
        if (regs >= 0 && simt_module_set_ptxas_regs(mod, k, (unsigned)regs, err))
            return SIMT_EINPUT;
    }
    return SIMT_OK;
}
