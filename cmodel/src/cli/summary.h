/* summary.h: `simt run`'s default output after the result line: a
 * screenful that says what the run measured.  A timing run: the machine,
 * cycles, instructions and IPC, occupancy and what limits it, where the
 * schedulers' cycles went, cache hit rates, DRAM bandwidth use, the
 * mechanisms selected and their counters.  A functional run: only what it
 * measures (instruction and memory-operation counts).  `--stats all`
 * prints every statistic instead (docs/stats.md). */
#ifndef CLI_SUMMARY_H
#define CLI_SUMMARY_H

#include <stdio.h>

#include "simt/config.h"
#include "simt/stats.h"

void cli_summary_print(FILE *out, const simt_stats_t *s, const simt_config_t *cfg,
                       const simt_kernel_stats_t *ks, size_t nks);

#endif
