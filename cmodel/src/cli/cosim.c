/* cosim.c: loading the co-simulation plugin for `simt run --cosim`. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "cli/cosim.h"

/* $SIMT_COSIM_PLUGIN, else lib/libsimt_cosim.so beside the bin/ folder
 * that holds this executable. */
static void plugin_path(char *buf, size_t size)
{
    const char *env = getenv("SIMT_COSIM_PLUGIN");
    if (env && *env) {
        snprintf(buf, size, "%s", env);
        return;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(buf, size, "build/lib/libsimt_cosim.so");
        return;
    }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    snprintf(buf, size, "%s/../lib/libsimt_cosim.so", exe);
}

int cli_cosim_open(cli_cosim_t *c, const simt_cosim_opts_t *o, simt_error_t *err)
{
    memset(c, 0, sizeof *c);
    char path[PATH_MAX + 64];
    plugin_path(path, sizeof path);
    c->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!c->dl)
        return set_error(err, SIMT_EINPUT,
                         "simt run: error: --cosim needs the co-simulation plugin %s, "
                         "which could not be loaded (build it with `make cosim`): %s",
                         path, dlerror());
    const simt_cosim_plugin_t *(*entry)(void);
    *(void **)&entry = dlsym(c->dl, "simt_cosim_plugin");
    c->p = entry ? entry() : NULL;
    if (!c->p || c->p->abi != SIMT_COSIM_ABI) {
        cli_cosim_close(c);
        return set_error(err, SIMT_EINPUT,
                         "simt run: error: %s is not a co-simulation plugin of this simt "
                         "(ABI %d expected); rebuild it with `make cosim`",
                         path, SIMT_COSIM_ABI);
    }
    char why[512] = "";
    c->session = c->p->open(o, &c->hooks, why, sizeof why);
    if (!c->session) {
        cli_cosim_close(c);
        return set_error(err, SIMT_EINPUT, "simt run: error: %s", why);
    }
    return SIMT_OK;
}

void cli_cosim_result(const cli_cosim_t *c, simt_cosim_result_t *r)
{
    c->p->result(c->session, r);
}

void cli_cosim_close(cli_cosim_t *c)
{
    if (c->session)
        c->p->close(c->session);
    if (c->dl)
        dlclose(c->dl);
    memset(c, 0, sizeof *c);
}
