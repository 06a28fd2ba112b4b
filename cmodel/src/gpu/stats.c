/* stats.c: the statistics' names and the human-readable summary. */
#include "simt/stats.h"

const char *const simt_stats_names[] = {
#define X(name, doc) #name,
#include "simt/stats_fields.def"
#undef X
};
const size_t simt_stats_count = sizeof simt_stats_names / sizeof *simt_stats_names;

uint64_t simt_stats_field(const simt_stats_t *s, size_t i)
{
    const uint64_t *f = (const uint64_t *)s; /* every field is a uint64_t */
    return i < simt_stats_count ? f[i] : 0;
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

void simt_stats_print(const simt_stats_t *s, FILE *out)
{
    for (size_t i = 0; i < simt_stats_count; i++)
        fprintf(out, "%-24s = %llu\n", simt_stats_names[i],
                (unsigned long long)simt_stats_field(s, i));
    fprintf(out, "%-24s = %.2f\n", "avg_active_lanes",
            ratio(s->thread_insns, s->warp_insns));
    if (s->gpu_sim_cycle) {
        fprintf(out, "%-24s = %.4f\n", "ipc", ratio(s->thread_insns, s->gpu_sim_cycle));
        fprintf(out, "%-24s = %.4f\n", "warp_ipc", ratio(s->warp_insns, s->gpu_sim_cycle));
    }
}

void simt_kernel_stats_print(const simt_kernel_stats_t *k, size_t n, FILE *out)
{
    fprintf(out, "%-20s %13s %5s %6s %10s %12s %14s %9s\n", "kernel", "grid x block",
            "regs", "smem", "CTAs/SM", "cycles", "thread_insns", "occupancy");
    for (size_t i = 0; i < n; i++) {
        char dims[32], lim[40];
        snprintf(dims, sizeof dims, "%ux%ux%u x %u", k[i].grid[0], k[i].grid[1],
                 k[i].grid[2], k[i].block[0] * k[i].block[1] * k[i].block[2]);
        snprintf(lim, sizeof lim, "%u (%s)", k[i].ctas_per_sm, k[i].limiter);
        fprintf(out, "%-20.20s %13s %5u %6u %10s %12llu %14llu %8.1f%%\n",
                k[i].name, dims, k[i].regs_per_thread, k[i].smem_per_cta, lim,
                (unsigned long long)(k[i].end_cycle - k[i].start_cycle),
                (unsigned long long)k[i].thread_insns,
                100.0 * k[i].achieved_occupancy);
    }
}

void simt_sm_stats_print(const simt_sm_stats_t *s, size_t n, FILE *out)
{
    fprintf(out, "%4s %14s %8s %12s %14s %9s\n", "SM", "active_cycles", "CTAs",
            "warp_insns", "thread_insns", "occupancy");
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%4u %14llu %8llu %12llu %14llu %8.1f%%\n", s[i].sm,
                (unsigned long long)s[i].active_cycles,
                (unsigned long long)s[i].ctas_completed,
                (unsigned long long)s[i].warp_insns,
                (unsigned long long)s[i].thread_insns, 100.0 * s[i].achieved_occupancy);
}
