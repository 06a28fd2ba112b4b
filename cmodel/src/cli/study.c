/* study.c: `simt study run|submit|collect|report FILE [options]`: a thin
 * door to the study runner, scripts/study.py (Python: TOML study files,
 * process pools, Slurm and matplotlib belong there, not in the simulator).
 * It execs `python3 ROOT/scripts/study.py --simt THIS_BINARY args...`, so
 * every point of the study runs the very simulator that was asked. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

int cli_study(int argc, char **argv)
{
    char root[4096], script[8192], self[PATH_MAX];
    snprintf(script, sizeof script, "%s/scripts/study.py", cli_root(root, sizeof root));
    if (!realpath("/proc/self/exe", self)) {
        fprintf(stderr, "simt study: error: cannot find this executable: %s\n", strerror(errno));
        return 2;
    }
    char **args = calloc((size_t)argc + 5, sizeof *args);
    if (!args) {
        fprintf(stderr, "simt study: error: out of memory\n");
        return 2;
    }
    args[0] = "python3";
    args[1] = script;
    args[2] = "--simt";
    args[3] = self;
    for (int i = 0; i < argc; i++)
        args[4 + i] = argv[i];
    fflush(stdout);
    execvp(args[0], args);
    fprintf(stderr, "simt study: error: cannot run python3 %s: %s (make deps installs it)\n",
            script, strerror(errno));
    free(args);
    return 2;
}
