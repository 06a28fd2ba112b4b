/* config.c: `simt config [--config FILE] [--set key=value]... [--functional]`:
 * the resolved configuration, as `simt run` with the same options would
 * use it, printed as `key = value` lines and nothing run.  Scripts (the
 * study runner's result cache) hash this instead of the preset file, so a
 * result's key changes exactly when a value the simulator sees changes.
 * Bad input is reported as by `simt run`, exit status 2. */
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "cli/cli.h"

static int config_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "simt config: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nusage: simt config [--config FILE] [--set key=value]... [--functional]\n");
    return 2;
}

int cli_config(int argc, char **argv)
{
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    simt_error_t err = { 0 };
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int rc = SIMT_OK;
        if (!strcmp(a, "--config") || !strcmp(a, "--set")) {
            if (i + 1 == argc)
                return config_usage(!strcmp(a, "--set") ? "%s needs key=value"
                                                        : "%s needs a file", a);
            const char *v = argv[++i];
            rc = !strcmp(a, "--set") ? simt_config_set(&cfg, v, "--set", &err)
                                     : simt_config_load_file(&cfg, v, &err);
        } else if (!strcmp(a, "--functional")) {
            rc = simt_config_set(&cfg, "functional=1", "--functional", &err);
        } else {
            return config_usage("unknown argument '%s'", a);
        }
        if (rc != SIMT_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return err.status ? err.status : 2;
        }
    }
    if (simt_config_validate(&cfg, &err) != SIMT_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return err.status ? err.status : 2;
    }
    simt_config_print(&cfg, stdout, "");
    return 0;
}
