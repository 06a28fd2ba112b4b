/* summary.c: the short account of a run `simt run` prints by default
 * (summary.h).  Every figure is a ratio of documented statistics
 * (docs/stats.md); the formulas are here, next to the words that name
 * them. */
#include <string.h>

#include "cli/summary.h"

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

#define GET(k) simt_config_get(cfg, SIMT_CFG_##k)

/* The occupancy of each distinct kernel (its first launch: the same
 * kernel on the same machine has the same limit), at most four. */
static void occupancy(FILE *out, const simt_stats_t *s, const simt_config_t *cfg,
                      const simt_kernel_stats_t *ks, size_t nks)
{
    uint64_t slots = (uint64_t)(GET(MAX_THREADS_SM) / 32);
    fprintf(out, "%-14s achieved %.1f%% of %llu warp slots (resident warps over "
            "active SM-cycles)\n", "occupancy",
            pct(s->resident_warp_cycles, s->sm_active_cycles * slots),
            (unsigned long long)slots);
    size_t shown = 0, distinct = 0;
    for (size_t i = 0; i < nks; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(ks[i].name, ks[j].name);
        if (seen)
            continue;
        distinct++;
        if (shown == 4)
            continue;
        shown++;
        fprintf(out, "%-14s %s: %u CTAs/SM of %u threads, limited by %s\n", "",
                ks[i].name, ks[i].ctas_per_sm,
                ks[i].block[0] * ks[i].block[1] * ks[i].block[2], ks[i].limiter);
    }
    if (distinct > shown)
        fprintf(out, "%-14s ... and %zu more kernels (--stats all)\n", "",
                distinct - shown);
}

/* Scheduler-cycles: each scheduler of each SM with a resident CTA either
 * issues (one warp-instruction) or stalls for one of the gates. */
static void stalls(FILE *out, const simt_stats_t *s, const simt_config_t *cfg)
{
    uint64_t all = s->sm_active_cycles * (uint64_t)GET(NUM_SCHED);
    fprintf(out, "%-14s issued %.1f%%, no warp %.1f%%, fetch %.1f%%, barrier %.1f%%, "
            "scoreboard %.1f%%, pipeline %.1f%% (of %llu scheduler-cycles)\n",
            "issue", pct(s->warp_insns, all), pct(s->stall_idle, all),
            pct(s->stall_fetch, all), pct(s->stall_barrier, all),
            pct(s->stall_scoreboard, all), pct(s->stall_pipeline, all),
            (unsigned long long)all);
}

static void caches(FILE *out, const simt_stats_t *s, const simt_config_t *cfg)
{
    fprintf(out, "%-14s", "caches");
    if (GET(L1D_ENABLED))
        fprintf(out, " L1D %.1f%% hits of %llu,", pct(s->l1d_hits, s->l1d_accesses),
                (unsigned long long)s->l1d_accesses);
    if (!GET(IDEAL_MEMORY) && GET(L2_ENABLED))
        fprintf(out, " L2 %.1f%% of %llu,", pct(s->l2_hits, s->l2_accesses),
                (unsigned long long)s->l2_accesses);
    fprintf(out, " L1I %.1f%% of %llu, constant %.1f%% of %llu\n",
            pct(s->l1i_accesses - s->l1i_misses, s->l1i_accesses),
            (unsigned long long)s->l1i_accesses,
            pct(s->l1c_accesses - s->l1c_misses, s->l1c_accesses),
            (unsigned long long)s->l1c_accesses);
}

/* Bandwidth: the bytes the data buses moved (a line per burst_cycles bus
 * cycles; a sectored L2's partial bursts count their share) over the
 * run's time at the core clock, against the channels' peak. */
static void dram(FILE *out, const simt_stats_t *s, const simt_config_t *cfg)
{
    if (GET(IDEAL_MEMORY) || !GET(DRAM_MODEL))
        return;
    double line = (double)GET(L2_LINE);
    double seconds = (double)s->gpu_sim_cycle / ((double)GET(CLK_CORE) * 1e6);
    double per_cycle = line / (double)GET(DRAM_BURST);
    double used = seconds > 0 ? (double)s->dram_bus_busy * per_cycle / seconds : 0;
    double peak = (double)GET(N_MEM) * per_cycle * (double)GET(CLK_DRAM) * 1e6;
    fprintf(out, "%-14s %.1f GB/s of %.1f peak (data bus busy %.1f%%), %llu reads, "
            "%llu writes, row hits %.1f%%\n", "DRAM", used / 1e9, peak / 1e9,
            pct(s->dram_bus_busy, s->dram_channel_cycles),
            (unsigned long long)s->dram_reads, (unsigned long long)s->dram_writes,
            pct(s->dram_row_hits, s->dram_row_hits + s->dram_row_misses));
}

/* The mechanisms this configuration selects, and the counters that
 * measured something. */
static void mechanisms(FILE *out, const simt_stats_t *s, const simt_config_t *cfg)
{
    fprintf(out, "%-14s scheduler %s x%lld per SM, CTA placement %s, reconvergence %s",
            "mechanisms", simt_config_value_name(cfg, SIMT_CFG_SCHEDULER),
            (long long)GET(NUM_SCHED), simt_config_value_name(cfg, SIMT_CFG_CTA_POLICY),
            simt_config_value_name(cfg, SIMT_CFG_RECONVERGENCE));
    if (GET(PERF_SIM_MEMCPY))
        fprintf(out, ", L2 prefill on memcpy");
    fprintf(out, "\n");
    const struct { const char *what; uint64_t n; } c[] = {
        { "divergent branches", s->divergent_branches },
        { "barrier arrivals", s->barriers },
        { "register bank conflicts", s->reg_bank_conflicts },
        { "scratchpad bank-conflict cycles", s->shared_bank_cycles - s->shared_accesses },
        { "L1D reservation fails", s->l1d_reservation_fails },
        { "L2 reservation fails", s->l2_reservation_fails },
    };
    int any = 0;
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        if (!c[i].n)
            continue;
        fprintf(out, "%s %s %llu", any ? "," : "counters      ", c[i].what,
                (unsigned long long)c[i].n);
        any = 1;
    }
    if (any)
        fprintf(out, "\n");
}

void cli_summary_print(FILE *out, const simt_stats_t *s, const simt_config_t *cfg,
                       const simt_kernel_stats_t *ks, size_t nks)
{
    if (GET(FUNCTIONAL)) {
        /* what a functional run measures: counts, not time */
        fprintf(out, "%-14s functional: counts only (--config a preset for the "
                "timing model)\n", "mode");
        fprintf(out, "%-14s %llu launched, %llu CTAs\n", "kernels",
                (unsigned long long)s->kernels_launched,
                (unsigned long long)s->ctas_completed);
        fprintf(out, "%-14s %llu warp, %llu thread (%.2f active lanes per warp-"
                "instruction)\n", "instructions", (unsigned long long)s->warp_insns,
                (unsigned long long)s->thread_insns, ratio(s->thread_insns, s->warp_insns));
        fprintf(out, "%-14s global %llu loads, %llu stores; shared %llu, %llu; local "
                "%llu, %llu; atomics %llu\n", "memory (lanes)",
                (unsigned long long)s->global_loads, (unsigned long long)s->global_stores,
                (unsigned long long)s->shared_loads, (unsigned long long)s->shared_stores,
                (unsigned long long)s->local_loads, (unsigned long long)s->local_stores,
                (unsigned long long)s->atomics);
        fprintf(out, "%-14s %llu divergent branches, %llu barrier arrivals\n", "control",
                (unsigned long long)s->divergent_branches, (unsigned long long)s->barriers);
        return;
    }
    fprintf(out, "%-14s %s: %lld SMs, %lld MHz core\n", "machine",
            cfg->preset[0] ? cfg->preset : "defaults",
            (long long)(GET(N_CLUSTERS) * GET(CORES_PER_CLUSTER)), (long long)GET(CLK_CORE));
    fprintf(out, "%-14s %llu (%.2f us at the core clock), %llu kernels, %llu CTAs\n",
            "gpu_sim_cycle", (unsigned long long)s->gpu_sim_cycle,
            (double)s->gpu_sim_cycle / (double)GET(CLK_CORE),
            (unsigned long long)s->kernels_launched, (unsigned long long)s->ctas_completed);
    fprintf(out, "%-14s %llu warp, %llu thread; IPC %.2f thread, %.3f warp per cycle\n",
            "instructions", (unsigned long long)s->warp_insns,
            (unsigned long long)s->thread_insns, ratio(s->thread_insns, s->gpu_sim_cycle),
            ratio(s->warp_insns, s->gpu_sim_cycle));
    occupancy(out, s, cfg, ks, nks);
    stalls(out, s, cfg);
    caches(out, s, cfg);
    dram(out, s, cfg);
    mechanisms(out, s, cfg);
}
