/* progress.h: `simt run`'s progress line: cycles, warp-instructions,
 * kernels done of the current synchronize, and simulation speed, redrawn
 * in place on a terminal's stderr at most every CLI_PROGRESS_PERIOD_S
 * seconds and erased at the end.  The model calls back every
 * CLI_PROGRESS_CYCLES core cycles; the callback only reads the clock
 * then, so the run's speed does not change measurably and its results do
 * not change at all.  The caller decides whether to show it (a terminal,
 * no --quiet). */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <stdio.h>

#include "simt/simt.h"

#define CLI_PROGRESS_PERIOD_S 0.25
#define CLI_PROGRESS_CYCLES 4096

typedef struct cli_progress {
    FILE *out;
    double start, last;   /* seconds: the run's start, the last line */
    int shown;            /* a line is on the screen */
} cli_progress_t;

/* Installs the callback on a new GPU (its cycles count from 0). */
void cli_progress_start(cli_progress_t *p, simt_gpu_t *gpu, FILE *out);
/* Erases the line (if one was drawn). */
void cli_progress_end(cli_progress_t *p);

#endif
