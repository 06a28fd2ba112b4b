/* run.c: `simt run <workload>`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "simt run: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nusage: simt run <workload> [--config FILE] [--set key=value]... "
                    "[--functional] [--param key=value]... [--json FILE]\n");
    return 2;
}

static const simt_workload_t *find_workload(const char *name)
{
    for (int i = 0; simt_workloads[i]; i++)
        if (!strcmp(simt_workloads[i]->name, name))
            return simt_workloads[i];
    return NULL;
}

int cli_run(int argc, char **argv)
{
    const char *name = NULL, *json = NULL;
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    simt_wl_params_t params = { 0 };
    simt_error_t err = { 0 };
    const char *sets[64];
    int nsets = 0;
    const char *config_file = NULL;
    int functional = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has_next = i + 1 < argc;
        if (!strcmp(a, "--config")) {
            if (!has_next)
                return usage_error("%s needs a file", a);
            config_file = argv[++i];
        } else if (!strcmp(a, "--set")) {
            if (!has_next)
                return usage_error("%s needs key=value", a);
            if (nsets == 64)
                return usage_error("too many %s options", a);
            sets[nsets++] = argv[++i];
        } else if (!strcmp(a, "--functional")) {
            functional = 1;
        } else if (!strcmp(a, "--json")) {
            if (!has_next)
                return usage_error("%s needs a file", a);
            json = argv[++i];
        } else if (!strcmp(a, "--param")) {
            if (!has_next)
                return usage_error("%s needs key=value", a);
            char *kv = argv[++i], *eq = strchr(kv, '=');
            if (!eq || eq == kv)
                return usage_error("--param '%s' is not key=value", kv);
            if (params.count == 32)
                return usage_error("too many %s options", a);
            *eq = '\0';
            params.key[params.count] = kv;
            params.value[params.count++] = eq + 1;
        } else if (a[0] == '-') {
            return usage_error("unknown option '%s'", a);
        } else if (!name) {
            name = a;
        } else {
            return usage_error("unexpected argument '%s'", a);
        }
    }
    if (!name)
        return usage_error("%s", "missing workload name (simt list shows them)");
    const simt_workload_t *wl = find_workload(name);
    if (!wl) {
        fprintf(stderr, "simt run: error: unknown workload '%s'; known:", name);
        for (int i = 0; simt_workloads[i]; i++)
            fprintf(stderr, " %s", simt_workloads[i]->name);
        fprintf(stderr, "\n");
        return 2;
    }
    if (config_file && simt_config_load_file(&cfg, config_file, &err) != SIMT_OK)
        goto fail;
    for (int i = 0; i < nsets; i++)
        if (simt_config_set(&cfg, sets[i], "--set", &err) != SIMT_OK)
            goto fail;
    if (functional && simt_config_set(&cfg, "functional=1", "--functional", &err))
        goto fail;
    simt_gpu_t *gpu = simt_gpu_create(&cfg, &err);
    if (!gpu)
        goto fail;
    char root[4096], path[8192];
    snprintf(path, sizeof path, "%s/%s", cli_root(root, sizeof root), wl->ptx_path);
    simt_module_t *mod;
    simt_wl_result_t res = { 0 };
    int rc = simt_module_load_file(gpu, path, &mod, &err);
    if (rc == SIMT_OK)
        rc = wl->run(gpu, mod, &params, &res, &err);
    if (rc != SIMT_OK) {
        simt_gpu_destroy(gpu);
        goto fail;
    }
    const simt_stats_t *st = simt_gpu_stats(gpu);
    printf("workload %s: %s (%s)\n", wl->name, res.passed ? "PASS" : "FAIL",
           res.detail);
    printf("\n---- statistics ----\n");
    simt_stats_print(st, stdout);
    const simt_kernel_stats_t *ks;
    size_t nks = simt_gpu_kernels(gpu, &ks);
    printf("\n---- kernels ----\n");
    simt_kernel_stats_print(ks, nks, stdout);
    printf("\n---- configuration ----\n");
    simt_config_print(&cfg, stdout, "");
    if (json && cli_write_json(json, wl->name, &res, st, ks, nks, &cfg,
                               &err) != SIMT_OK) {
        simt_gpu_destroy(gpu);
        goto fail;
    }
    simt_gpu_destroy(gpu);
    return res.passed ? 0 : 1;
fail:
    fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "simt run: error");
    return err.status ? err.status : 2;
}
