/* cta_trace.c: the CTA-count trace file of `simt run` (cta_trace.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "cli/cta_trace.h"

static void cli_cta_trace_row(void *ctx, uint64_t cycle, unsigned sm,
                              unsigned ctas)
{
    cli_cta_trace_t *t = ctx;
    if (fprintf(t->f, "%llu\t%u\t%u\n", (unsigned long long)cycle, sm, ctas) < 0)
        t->bad = 1;
}

int cli_cta_trace_open(cli_cta_trace_t *t, const char *path, simt_gpu_t *gpu,
                       simt_error_t *err)
{
    *t = (cli_cta_trace_t){ 0 };
    size_t n = strlen(path);
    t->path = malloc(n + 1);
    t->tmp = malloc(n + 5);
    if (!t->path || !t->tmp) {
        free(t->path);
        free(t->tmp);
        return set_error(err, SIMT_EINPUT, "--trace-ctas: error: out of memory");
    }
    memcpy(t->path, path, n + 1);
    memcpy(t->tmp, path, n);
    memcpy(t->tmp + n, ".tmp", 5);
    t->f = fopen(t->tmp, "w");
    if (!t->f) {
        int e = errno;
        char shown[256];
        set_error(err, SIMT_EINPUT, "%s: error: --trace-ctas cannot write "
                  "it: %s", printable(path, (size_t)-1, shown, sizeof shown),
                  strerror(e));
        free(t->path);
        free(t->tmp);
        *t = (cli_cta_trace_t){ 0 };
        return SIMT_EINPUT;
    }
    if (fprintf(t->f, "cycle\tsm\tctas\n") < 0)
        t->bad = 1;
    simt_gpu_set_cta_trace(gpu, cli_cta_trace_row, t);
    return SIMT_OK;
}

int cli_cta_trace_close(cli_cta_trace_t *t, int keep, simt_error_t *err)
{
    if (!t->f)
        return SIMT_OK;
    int bad = t->bad | ferror(t->f);
    bad |= fclose(t->f) != 0;
    int rc = SIMT_OK;
    if (keep && !bad && rename(t->tmp, t->path) == 0) {
        /* in place */
    } else {
        remove(t->tmp);
        if (keep) {
            char shown[256];
            rc = set_error(err, SIMT_EINPUT, "%s: error: --trace-ctas: write "
                           "failed", printable(t->path, (size_t)-1, shown,
                                               sizeof shown));
        }
    }
    free(t->path);
    free(t->tmp);
    *t = (cli_cta_trace_t){ 0 };
    return rc;
}
