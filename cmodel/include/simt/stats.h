/* stats.h: statistics a GPU accumulates.  Names are stable; docs/stats.md
 * documents each.  Same inputs and configuration give identical values. */
#ifndef SIMT_STATS_H
#define SIMT_STATS_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct simt_stats {
    uint64_t kernels_launched;
    uint64_t ctas_completed;
    uint64_t warp_insns;     /* warp-level instructions executed */
    uint64_t thread_insns;   /* sum of active lanes over warp_insns */
    uint64_t gpu_sim_cycle;  /* 0 in functional mode */
    uint64_t global_loads, global_stores;   /* thread-level accesses */
    uint64_t shared_loads, shared_stores;
    uint64_t local_loads, local_stores;
    uint64_t atomics;
    uint64_t barriers;       /* warp arrivals at bar.sync */
    uint64_t divergent_branches;
} simt_stats_t;

void simt_stats_print(const simt_stats_t *s, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
