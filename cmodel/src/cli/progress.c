/* progress.c: the progress line `simt run` keeps on a terminal's stderr
 * (progress.h). */
#include <stdio.h>
#include <time.h>

#include "cli/progress.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* 1234567 -> "1.23M": the line stays short however long the run. */
static const char *human(char *buf, size_t size, double v)
{
    static const char *const suffix[] = { "", "k", "M", "G", "T" };
    int i = 0;
    while (v >= 1000.0 && i < 4) {
        v /= 1000.0;
        i++;
    }
    snprintf(buf, size, i ? "%.2f%s" : "%.0f%s", v, suffix[i]);
    return buf;
}

static void cli_progress_report(void *ctx, const simt_progress_t *at)
{
    cli_progress_t *p = ctx;
    double t = now_s();
    if (t - p->last < CLI_PROGRESS_PERIOD_S)
        return;
    char c[16], i[16], s[16];
    double speed = (double)at->cycles / (t - p->start);
    fprintf(p->out, "\r%s cycles, %s warp-insns, kernels %u/%u, %s cycles/s  ",
            human(c, sizeof c, (double)at->cycles), human(i, sizeof i, (double)at->warp_insns),
            at->kernels_done, at->kernels, human(s, sizeof s, speed));
    fflush(p->out);
    p->last = t;
    p->shown = 1;
}

void cli_progress_start(cli_progress_t *p, simt_gpu_t *gpu, FILE *out)
{
    *p = (cli_progress_t){ .out = out, .start = now_s() };
    p->last = p->start; /* the first line after one period: short runs show none */
    simt_gpu_set_progress(gpu, cli_progress_report, p, CLI_PROGRESS_CYCLES);
}

void cli_progress_end(cli_progress_t *p)
{
    if (p->shown)
        fprintf(p->out, "\r\033[K");
    fflush(p->out);
}
