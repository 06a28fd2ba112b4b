/* main.c: the simt tool. */
#include <errno.h>
#include <stdio.h>
#include <string.h>


#include "base/error.h"
#include "cli/cli.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: simt <command> [options]\n"
        "\n"
        "  simt run <workload> [--config FILE] [--set key=value]... [--functional]\n"
        "                      [--param key=value]... [--json FILE] [--ptx FILE]\n"
        "                      [--stats all] [--show-config] [--config-out FILE] [--quiet]\n"
        "      run a workload, check its result against the CPU reference and\n"
        "      print a summary (--stats all: every statistic); FILE may be a\n"
        "      simtlab preset or a GPGPU-Sim gpgpusim.config\n"
        "  simt info <file.ptx>    kernels, parameters, registers, shared and local memory\n"
        "  simt opt [--passes a,b] [--relssp=opt|postdom|none] [--layout=min|decl]\n"
        "           [--config FILE] [--set key=value]... in.ptx -o out.ptx\n"
        "      run compiler passes over every kernel and write the PTX (--list: passes)\n"
        "  simt list               the workloads this build knows\n"
        "  simt config [--config FILE] [--set key=value]... [--functional]\n"
        "      print the resolved configuration and run nothing\n"
        "  simt study run|submit|collect|report FILE [options]\n"
        "      a study: workloads x configurations x sweeps, run locally or on\n"
        "      Slurm, cached, reported as tables and charts (docs/experiments.md)\n"
        "\n"
        "exit status: 0 ok, 1 result check failed, 2 bad input (or output that\n"
        "cannot be written), 3 kernel fault, 4 co-simulation mismatch, 5 a run limit\n"
        "stopped the run (partial statistics); simt <command> --help says more\n");
}

/* Output that did not reach its destination (a full disk, a closed pipe
 * with SIGPIPE ignored) must not end in status 0: stdout is flushed and
 * checked before exit. */
static int finish(int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "simt: error: writing the standard output failed: %s\n",
                strerror(errno));
        return rc ? rc : 2;
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run"))
        return finish(cli_run(argc - 2, argv + 2));
    if (!strcmp(cmd, "info"))
        return finish(cli_info(argc - 2, argv + 2));
    if (!strcmp(cmd, "opt"))
        return finish(cli_opt(argc - 2, argv + 2));
    if (!strcmp(cmd, "list"))
        return finish(cli_list(argc - 2, argv + 2));
    if (!strcmp(cmd, "config"))
        return finish(cli_config(argc - 2, argv + 2));
    if (!strcmp(cmd, "study"))
        return finish(cli_study(argc - 2, argv + 2));
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return finish(0);
    }
    char shown[256];
    fprintf(stderr, "simt: error: unknown command '%s'\n\n",
            printable(cmd, (size_t)-1, shown, sizeof shown));
    usage(stderr);
    return 2;
}
