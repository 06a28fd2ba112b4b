/* root.c: locating the repository root for workload files. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

const char *cli_root(char *buf, size_t size)
{
    const char *env = getenv("SIMT_ROOT");
    if (env && *env) {
        snprintf(buf, size, "%s", env);
        return buf;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(buf, size, ".");
        return buf;
    }
    exe[n] = '\0';
    /* walk up from the executable until the tree's marker file appears */
    for (char *s = strrchr(exe, '/'); s; s = strrchr(exe, '/')) {
        *s = '\0';
        char probe[PATH_MAX + 64];
        snprintf(probe, sizeof probe, "%s/cmodel/include/simt/simt.h", exe);
        if (access(probe, R_OK) == 0) {
            snprintf(buf, size, "%s", exe[0] ? exe : "/");
            return buf;
        }
    }
    snprintf(buf, size, ".");
    return buf;
}
