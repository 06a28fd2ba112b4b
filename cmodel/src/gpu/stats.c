/* stats.c: the human-readable statistics summary. */
#include "simt/stats.h"

void simt_stats_print(const simt_stats_t *s, FILE *out)
{
#define P(name) fprintf(out, "%-24s = %llu\n", #name, (unsigned long long)s->name)
    P(kernels_launched);
    P(ctas_completed);
    P(gpu_sim_cycle);
    P(warp_insns);
    P(thread_insns);
    P(global_loads);
    P(global_stores);
    P(shared_loads);
    P(shared_stores);
    P(local_loads);
    P(local_stores);
    P(atomics);
    P(barriers);
    P(divergent_branches);
#undef P
    double simd = s->warp_insns ? (double)s->thread_insns / (double)s->warp_insns : 0;
    fprintf(out, "%-24s = %.2f\n", "avg_active_lanes", simd);
}
