/* cta_trace.h: `simt run --trace-ctas FILE`: the resident CTA count of
 * every SM over time, as a tab-separated file that
 * scripts/plot_cta_trace.py draws (docs/stats.md, "CTA-count trace").
 *
 * Format: a header line `cycle<TAB>sm<TAB>ctas`, then one line per change
 * of one SM's count, in cycle order (SMs in id order within a cycle): at
 * the start of each timing run a line with count 0 for every SM, then a
 * line after each core cycle in which the SM's count changed.  An SM's
 * count holds from its line's cycle until its next line.
 *
 * The rows go to FILE.tmp while the run goes on; cli_cta_trace_close
 * renames it over FILE once written whole (a failed run leaves no FILE). */
#ifndef CLI_CTA_TRACE_H
#define CLI_CTA_TRACE_H

#include <stdio.h>

#include "simt/simt.h"

typedef struct cli_cta_trace {
    FILE *f;
    char *path, *tmp;
    int bad;                   /* a write failed */
} cli_cta_trace_t;

/* Opens FILE.tmp and installs the callback on `gpu`; SIMT_OK or
 * SIMT_EINPUT (in err). */
int cli_cta_trace_open(cli_cta_trace_t *t, const char *path, simt_gpu_t *gpu,
                       simt_error_t *err);
/* Finishes the file: `keep` renames it into place, else it is removed.
 * SIMT_OK, or SIMT_EINPUT when it could not be written. */
int cli_cta_trace_close(cli_cta_trace_t *t, int keep, simt_error_t *err);

#endif
