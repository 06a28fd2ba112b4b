/* stats.h: statistics a GPU accumulates.  Names are stable; docs/stats.md
 * documents each.  Same inputs and configuration give identical values. */
#ifndef SIMT_STATS_H
#define SIMT_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct simt_stats {
#define X(name, doc) uint64_t name;
#include "simt/stats_fields.def"
#undef X
} simt_stats_t;

/* Each field's name, in print order (for JSON and the text summary). */
extern const char *const simt_stats_names[];
extern const size_t simt_stats_count;

/* Field i of s, in the order of simt_stats_names. */
uint64_t simt_stats_field(const simt_stats_t *s, size_t i);

void simt_stats_print(const simt_stats_t *s, FILE *out);

/* One kernel launch.  Functional runs fill the counts; the cycle and
 * occupancy fields are those of the timing model (0 otherwise). */
typedef struct simt_kernel_stats {
    char *name;                  /* the whole kernel name, owned by the GPU */
    uint32_t grid[3], block[3];
    uint32_t regs_per_thread;    /* what occupancy used (gpgpu_regs_source) */
    uint32_t smem_per_cta;       /* static + dynamic bytes */
    uint32_t ctas_per_sm;        /* occupancy limit on this configuration */
    char limiter[16];            /* the resource that sets it */
    uint64_t ctas;
    uint64_t warp_insns, thread_insns;
    uint64_t start_cycle, end_cycle; /* first CTA placed, last completed */
    double achieved_occupancy;   /* resident warps / warp slots, averaged
                                    over the SM-cycles that hosted it */
    /* LCS (gpgpu_cta_policy lcs, lcs_bcs; 0 otherwise): the CTAs an SM
     * holds (T_max), the cap it chose (T_new; 0: no decision, the
     * monitored SM finished no CTA), and the monitor window (cycles from
     * the launch's first placement to the decision) */
    uint32_t lcs_t_max, lcs_t_new;
    uint64_t lcs_window_cycles;
} simt_kernel_stats_t;

/* One line per kernel, with a header line, for the text summary. */
void simt_kernel_stats_print(const simt_kernel_stats_t *k, size_t n, FILE *out);

/* One SM over every timing run since the GPU was created. */
typedef struct simt_sm_stats {
    uint32_t sm;                  /* SM id (cluster-major) */
    uint64_t active_cycles;       /* cycles with at least one resident CTA */
    uint64_t resident_warp_cycles;/* sum over those cycles of its resident,
                                     unfinished warps */
    uint64_t ctas_completed;
    uint64_t warp_insns, thread_insns;
    uint64_t core_cycles_active, core_cycles_core_stall,
             core_cycles_mem_stall, core_cycles_idle; /* one per cycle of
                                     every timing run (docs/stats.md) */
    double achieved_occupancy;    /* resident_warp_cycles / (active_cycles x
                                     warp slots); 0 if never active */
} simt_sm_stats_t;

/* One line per SM, with a header line, for the text summary. */
void simt_sm_stats_print(const simt_sm_stats_t *s, size_t n, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
