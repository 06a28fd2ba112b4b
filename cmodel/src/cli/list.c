/* list.c: `simt list`. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int cli_list(int argc, char **argv)
{
    if (argc == 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
        printf("usage: simt list\n\nThe workloads this build knows: name, summary, PTX file.\n");
        return 0;
    }
    if (argc) {
        fprintf(stderr, "simt list: error: takes no arguments\n");
        return 2;
    }
    for (int i = 0; simt_workloads[i]; i++)
        printf("%-14s %-40s %s\n", simt_workloads[i]->name,
               simt_workloads[i]->summary, simt_workloads[i]->ptx_path);
    return 0;
}
