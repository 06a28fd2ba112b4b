/* timing.c: the GPU-level cycle loop: set-up, the clock domains, the
 * deadlock check and the run's statistics (timing.h); the kernel queue and
 * CTA dispatch are gpu/dispatch.c's. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "gpu/clocks.h"
#include "gpu/dispatch.h"
#include "gpu/memsys.h"
#include "gpu/occupancy.h"
#include "gpu/smpar.h"
#include "gpu/timing.h"
#include "mem/mem_regions.h"

#define GET(k) ((unsigned)simt_config_get(cfg, SIMT_CFG_##k))

/* The instruction timing table with every initiation interval stretched
 * by the cycles a warp needs on a narrower SIMD unit. */
static pipe_cfg_t pipe_config(unsigned issue_interval)
{
    pipe_cfg_t p = pipe_cfg_default();
    for (int k = 0; k < PIPE_NKINDS; k++) {
        p.int_[k].interval = (uint16_t)(p.int_[k].interval * issue_interval);
        p.fp[k].interval = (uint16_t)(p.fp[k].interval * issue_interval);
        p.dp[k].interval = (uint16_t)(p.dp[k].interval * issue_interval);
    }
    p.sfu.interval = (uint16_t)(p.sfu.interval * issue_interval);
    return p;
}

static sm_cfg_t sm_config(const simt_config_t *cfg)
{
    unsigned issue_interval = WARP_SIZE / GET(SIMD_WIDTH);
    sm_cfg_t c = {
        .issue_interval = issue_interval,
        .max_warps = GET(MAX_THREADS_SM) / WARP_SIZE,
        .max_threads = GET(MAX_THREADS_SM),
        .max_ctas = GET(CTAS_SM),
        .regs = GET(REGS_SM),
        .smem = GET(SHMEM_SM),
        .nsched = GET(NUM_SCHED),
        .ssp_sharing = GET(SSP_SHARING),
        .sched = (sched_kind_t)GET(SCHEDULER),
        .two_level_active = GET(TWO_LEVEL_ACTIVE),
        .ltlws_inner = (unsigned)GET(LTLWS_INNER),
        .tlv_group = GET(TLV_GROUP_SIZE),
        .ccws_vta_entries = GET(CCWS_VTA_ENTRIES),
        .ccws_base_score = GET(CCWS_BASE_SCORE),
        .ccws_kthrottle = GET(CCWS_KTHROTTLE),
        .ccws_decay_cycles = GET(CCWS_DECAY_CYCLES),
        .sca_strict = GET(SCA_STALL_RULE),
        .opc = { .banks = GET(REG_BANKS), .warp_skew = (int)GET(REG_BANK_WARP),
                 .cus = { [OPC_SP] = GET(OC_SP), [OPC_DP] = GET(OC_DP),
                          [OPC_SFU] = GET(OC_SFU), [OPC_INT] = GET(OC_INT),
                          [OPC_MEM] = GET(OC_MEM) } },
        .pipe = pipe_config(issue_interval),
        .icache = !GET(PERFECT_ICACHE),
        .icache_cfg = { .sets = GET(L1I_SETS), .ways = GET(L1I_WAYS),
                        .line = GET(L1I_LINE), .mshrs = GET(L1I_MSHRS),
                        .mshr_merge = GET(MAX_THREADS_SM) / WARP_SIZE,
                        .write = CACHE_READ_ONLY },
        .icache_miss_latency = GET(L1I_MISS_LATENCY),
        .sleep = GET(SKIP_IDLE) != 0,
        .ldst = { .queue = GET(LDST_QUEUE), .prepared = GET(OC_MEM),
                  .inflight = GET(MAX_THREADS_SM) / WARP_SIZE * SM_INSTS_PER_WARP,
                  .smem_banks = GET(SMEM_BANKS),
                  .smem_latency = GET(SMEM_LATENCY),
                  .const_latency = GET(CONST_LATENCY),
                  .l1c_cfg = { .sets = GET(L1C_SETS), .ways = GET(L1C_WAYS),
                               .line = GET(L1C_LINE), .mshrs = GET(L1C_MSHRS),
                               .mshr_merge = GET(L1C_MSHR_MERGE),
                               .write = CACHE_READ_ONLY },
                  .tex_latency = GET(TEX_LATENCY),
                  .l1t_cfg = { .sets = GET(L1T_SETS), .ways = GET(L1T_WAYS),
                               .line = GET(L1T_LINE), .mshrs = GET(L1T_MSHRS),
                               .mshr_merge = GET(L1T_MSHR_MERGE),
                               .write = CACHE_READ_ONLY },
                  .mem_latency = GET(MEM_LATENCY),
                  .l1 = (int)GET(L1D_ENABLED),
                  .hierarchy = !GET(IDEAL_MEMORY),
                  .outbox = GET(LDST_OUTBOX),
                  .l1_cfg = { .sets = GET(L1D_SETS), .ways = GET(L1D_WAYS),
                              .line = GET(L1D_LINE), .mshrs = GET(L1D_MSHRS),
                              .mshr_merge = GET(L1D_MSHR_MERGE),
                              .write = (cache_write_policy_t)GET(L1D_POLICY) },
                  .l1_latency = GET(L1D_LATENCY) },
    };
    return c;
}

static memsys_cfg_t memsys_config(const simt_config_t *cfg)
{
    memsys_cfg_t c = {
        .map = { .scheme = (addrmap_scheme_t)GET(ADDR_MAPPING),
                 .partitions = GET(N_MEM), .interleave = GET(MEM_INTERLEAVE),
                 .banks = GET(DRAM_BANKS), .row_bytes = GET(DRAM_ROW) },
        .part = { .l2_enabled = (int)GET(L2_ENABLED),
                  .dram_model = (int)GET(DRAM_MODEL),
                  .dram = { .banks = GET(DRAM_BANKS),
                            .burst_cycles = GET(DRAM_BURST), .queue = GET(DRAM_QUEUE),
                            .fifo = (int)GET(DRAM_SCHED),
                            .tCL = GET(DRAM_TCL), .tWL = GET(DRAM_TWL),
                            .tRCD = GET(DRAM_TRCD), .tRAS = GET(DRAM_TRAS),
                            .tRP = GET(DRAM_TRP), .tRC = GET(DRAM_TRC),
                            .tRRD = GET(DRAM_TRRD), .tCCD = GET(DRAM_TCCD),
                            .tWTR = GET(DRAM_TWTR), .tRTW = GET(DRAM_TRTW) },
                  .l2 = { .sets = GET(L2_SETS), .ways = GET(L2_WAYS),
                          .line = GET(L2_LINE), .mshrs = GET(L2_MSHRS),
                          .mshr_merge = GET(L2_MSHR_MERGE),
                          .write = CACHE_WRITE_BACK,
                          .sectored = (int)GET(L2_SECTORED) },
                  .l2_latency = GET(L2_LATENCY),
                  .mem_latency = GET(DRAM_LATENCY),
                  .queue = GET(L2_QUEUE) },
        .icnt = { .flit_bytes = GET(ICNT_FLIT), .latency = GET(ICNT_LATENCY),
                  .in_flits = GET(ICNT_BUFFER), .out_flits = GET(ICNT_BUFFER) },
    };
    return c;
}

typedef struct gpu_run {
    const simt_config_t *cfg;
    timing_launch_t *ls;
    gpu_kernel_t *ks;
    unsigned nk;
    sm_t *sms;
    unsigned nsms, clusters;
    dispatch_t dispatch;
    int hierarchy;
    memsys_t mem;
    const unit_hooks_t *hooks;
    uint64_t cycle_base;      /* gpu_sim_cycle before this run */
    simt_stats_t *xstats;     /* the launches' statistics (run_take_xstats) */
    unsigned fault_sm;        /* the SM whose cycle fault_at failed, or
                                 UINT_MAX: none */
    uint64_t fault_at;
    smpar_t *par;             /* the SMs' host threads, or NULL: one */
    unsigned busy_sm;         /* the SM skip_idle last found not
                                 quiescent: asked first, as it mostly
                                 still is (any one such SM ends the skip) */
    int icnt_every_pass;      /* the crossbar's clock is at least the
                                 core's: its next edge falls in every
                                 pass (skip_idle) */
} gpu_run_t;

static void run_free(gpu_run_t *g)
{
    smpar_destroy(g->par); /* its threads stop before the SMs go */
    for (unsigned i = 0; g->sms && i < g->nsms; i++)
        sm_free(&g->sms[i]);
    for (unsigned k = 0; g->ks && k < g->nk; k++) {
        free(g->ks[k].k.ctas_on_sm);
    }
    free(g->sms);
    free(g->ks);
    dispatch_free(&g->dispatch);
    if (g->hierarchy)
        memsys_free(&g->mem);
}

/* What one CTA of launch t (the k-th of the run) takes from an SM. */
static int kernel_setup(gpu_kernel_t *gk, timing_launch_t *t, unsigned k,
                        const simt_config_t *cfg, unsigned nsms)
{
    const exec_launch_t *l = &t->l;
    uint32_t threads = l->block.x * l->block.y * l->block.z;
    uint32_t warps = (threads + WARP_SIZE - 1) / WARP_SIZE;
    uint32_t unit = GET(REG_ALLOC_UNIT);
    uint32_t regs = (t->regs + unit - 1) / unit * unit * warps * WARP_SIZE;
    uint32_t *on_sm = calloc(nsms ? nsms : 1, sizeof *on_sm);
    if (!on_sm) {
        return set_error(l->err, SIMT_EINPUT, "out of host memory");
    }
    gk->k = (sm_kernel_t){ .l = l, .slot_phys = t->slot_phys, .threads = threads,
                           .warps = warps, .regs = regs, .smem = t->smem,
                           .ctas_on_sm = on_sm, .launch = k,
                           .code_id = l->prog->kernel,
                           .const_window = mem_const_window(k) };
    if (GET(SSP_SHARING)) { /* Scratchpad Sharing's occupancy */
        occ_sharing_t o = occupancy_sharing(cfg, threads, t->regs, t->smem,
                                            GET(SSP_THRESHOLD));
        gk->k.ssp_m = o.m;
        gk->k.ssp_n = o.n;
        gk->k.ssp_priv = o.priv;
        gk->k.ssp_limit = o.limit;
    }
    gk->nctas = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    return SIMT_OK;
}

static int run_setup(gpu_run_t *g)
{
    const simt_config_t *cfg = g->cfg;
    simt_error_t *err = g->ls[0].l.err;
    g->clusters = GET(N_CLUSTERS);
    g->nsms = g->clusters * GET(CORES_PER_CLUSTER);
    g->sms = calloc(g->nsms, sizeof *g->sms);
    g->ks = calloc(g->nk, sizeof *g->ks);
    if (!g->sms || !g->ks)
        return set_error(err, SIMT_EINPUT, "out of host memory for the "
                         "timing model");
    for (unsigned k = 0; k < g->nk; k++) {
        int rc = kernel_setup(&g->ks[k], &g->ls[k], k, cfg, g->nsms);
        if (rc != SIMT_OK)
            return rc;
    }
    if (!GET(IDEAL_MEMORY)) {
        memsys_cfg_t mc = memsys_config(cfg);
        const char *why = memsys_init(&g->mem, &mc, g->clusters,
                                      GET(CORES_PER_CLUSTER));
        if (why)
            return set_error(err, SIMT_EINPUT, "configuration: error: %s", why);
        g->hierarchy = 1;
    }
    sm_cfg_t sc = sm_config(cfg);
    sc.hooks = g->hooks;
    sc.cycle_base = g->cycle_base;
    for (unsigned i = 0; i < g->nsms; i++) {
        const char *why = sm_init(&g->sms[i], i, &sc);
        if (why)
            return set_error(err, SIMT_EINPUT, "configuration: error: %s", why);
    }
    /* after the SMs: the policy's first events may ask them (cap) */
    if (dispatch_init(&g->dispatch, g->ks, g->ls, g->nk, g->sms, g->clusters,
                      GET(CORES_PER_CLUSTER), cfg) != 0)
        return set_error(err, SIMT_EINPUT, "out of host memory for the "
                         "timing model");
    return SIMT_OK;
}

/* The SMs' host threads (gpu/smpar.h): none for one thread, nor when a
 * policy's completion events change other SMs within the cycle
 * (dispatch_events_touch_sms), which only the one-thread order gives. */
static int par_setup(gpu_run_t *g, unsigned threads, smpar_way_t *way)
{
    simt_error_t *err = g->ls[0].l.err;
    if (threads <= 1)
        return SIMT_OK;
    if (g->hooks)
        return set_error(err, SIMT_EINPUT, "co-simulation steps the SMs on "
                         "one host thread: --threads must be 1 with --cosim");
    if (threads > SIMT_MAX_THREADS)
        return set_error(err, SIMT_EINPUT, "%u host threads: at most %d",
                         threads, SIMT_MAX_THREADS);
    if (dispatch_events_touch_sms(&g->dispatch) || g->nsms < 2)
        return SIMT_OK;
    const char *why = smpar_create(&g->par, g->sms, g->nsms,
                                   threads < g->nsms ? threads : g->nsms, way);
    if (why)
        return set_error(err, SIMT_EINPUT, "--threads %u: %s", threads, why);
    return SIMT_OK;
}

/* One core cycle of every SM; then, SM by SM in index order, what its
 * cycle did to shared state is published (sm_commit) and the dispatcher
 * hears of its completed CTAs.  With one thread each SM steps just before
 * its commit; with several all step first, in parallel (gpu/smpar.h),
 * which the SMs cannot tell apart: nothing an SM's cycle reads is changed
 * by another SM's commit (docs/timing-model.md, "Several host threads"). */
static int sms_cycle(gpu_run_t *g, uint64_t now, uint64_t *last_progress)
{
    if (g->par)
        smpar_cycle(g->par, now);
    for (unsigned i = 0; i < g->nsms; i++) {
        unsigned done = 0;
        sm_t *s = &g->sms[i];
        int rc = g->par ? smpar_result(g->par, i, &done) : sm_step(s, now, &done);
        if (s->wake_at)
            continue; /* asleep: it changed nothing (sm_doze) */
        sm_commit(s, now);
        if (g->hierarchy)
            memsys_note_outbox(&g->mem, i, &s->ldst);
        if (rc != SIMT_OK) {
            g->fault_sm = i;
            g->fault_at = now;
            return rc; /* the SMs above did not step (or are discarded) */
        }
        if (s->last_progress == now && s->nctas)
            *last_progress = now;
        if (done) {
            *last_progress = now;
            dispatch_sm_completed(&g->dispatch, i);
        }
    }
    return SIMT_OK;
}

/* Every resident warp of every SM with what it waits for, one line each;
 * when they do not all fit in `size`, a summary first (the number of
 * resident warps at each PTX line), then the lines that fit and the number
 * left out.  *first_sm and *first_slot: the first warp (first_sm NULL when
 * none is resident). */
static void describe_warps(const gpu_run_t *g, char *dump, size_t size,
                           const sm_t **first_sm_out, unsigned *first_slot_out)
{
    enum { NLINES = 12 };
    uint32_t at_line[NLINES], count[NLINES];
    unsigned nlines = 0, other = 0, total = 0;
    const sm_t *first_sm = NULL;
    unsigned first_slot = 0;
    for (unsigned i = 0; i < g->nsms; i++)
        for (unsigned w = 0; w < g->sms[i].cfg.max_warps; w++) {
            const sm_slot_t *sl = &g->sms[i].slots[w];
            if (!sl->live)
                continue;
            if (!first_sm) {
                first_sm = &g->sms[i];
                first_slot = w;
            }
            total++;
            const exec_program_t *p = g->sms[i].ctas[sl->cta].cta.launch->prog;
            uint32_t pc = sl->at_bar ? sl->w->bar_pc : warp_pc(sl->w);
            uint32_t line = pc < p->ncode ? p->code[pc].ir->line : 0;
            unsigned k = 0;
            while (k < nlines && at_line[k] != line)
                k++;
            if (k == nlines && nlines < NLINES) {
                at_line[nlines] = line;
                count[nlines++] = 0;
            }
            if (k < nlines)
                count[k]++;
            else
                other++;
        }
    size_t n = 0, budget = size - 40;
    dump[0] = '\0';
    if (total * 120 > size) { /* too many for one line each */
        n += (size_t)snprintf(dump, size, " %u, by PTX line:", total);
        for (unsigned k = 0; k < nlines; k++)
            n += (size_t)snprintf(dump + n, size - n, " %u (%u)%s", at_line[k], count[k],
                                  k + 1 < nlines || other ? "," : "");
        if (other)
            n += (size_t)snprintf(dump + n, size - n, " other lines (%u)", other);
        n += (size_t)snprintf(dump + n, size - n, "; the first:");
    }
    unsigned shown = 0;
    for (unsigned i = 0; i < g->nsms; i++)
        for (unsigned w = 0; w < g->sms[i].cfg.max_warps; w++) {
            char line[256];
            if (!sm_describe_warp(&g->sms[i], w, line, sizeof line))
                continue;
            if (n + strlen(line) + 6 >= budget)
                break;
            n += (size_t)snprintf(dump + n, size - n, "\n    %s", line);
            shown++;
        }
    if (shown < total)
        snprintf(dump + n, size - n, "\n    ... and %u more warps", total - shown);
    *first_sm_out = first_sm;
    *first_slot_out = first_slot;
}

/* The deadlock fault: reported at the first resident warp, listing every
 * resident warp of every SM with what it waits for. */
static int deadlock(gpu_run_t *g, uint64_t cycles)
{
    char dump[3072];
    const sm_t *first_sm;
    unsigned first_slot;
    describe_warps(g, dump, sizeof dump, &first_sm, &first_slot);
    if (!first_sm)
        return set_error(g->ls[0].l.err, SIMT_EFAULT, "deadlock: no CTA can be "
                         "placed and none is resident");
    const sm_slot_t *sl = &first_sm->slots[first_slot];
    const sm_cta_t *ct = &first_sm->ctas[sl->cta];
    exec_ctx_t x = { .l = ct->k->l, .cta = (cta_t *)&ct->cta };
    const exec_program_t *p = ct->k->l->prog;
    uint32_t pc = sl->at_bar ? sl->w->bar_pc : warp_pc(sl->w);
    return exec_fault(&x, sl->w, pc < p->ncode ? &p->code[pc] : NULL,
                      warp_active(sl->w), "deadlock: no SM issued or retired an "
                      "instruction for %llu cycles (a barrier some warps never "
                      "reach?); resident warps:%s", (unsigned long long)cycles,
                      dump);
}

/* A run limit reached at core cycle `now` of this run: SIMT_ELIMIT naming
 * the limit, the kernels running and every resident warp.  The unfinished
 * kernels end at `now` in their records (the statistics are partial). */
static int limit_stop(gpu_run_t *g, limits_t *lim, uint64_t now)
{
    char dump[3072], names[512] = "", what[96];
    size_t n = 0;
    unsigned running = 0;
    for (unsigned k = 0; k < g->nk; k++) {
        gpu_kernel_t *gk = &g->ks[k];
        if (gk->end)
            continue;
        gk->end = now;
        if (gk->next_cta == 0)
            continue; /* not started */
        running++;
        if (n + 80 < sizeof names)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s'%s' (launch %u)",
                                  n ? ", " : "", gk->k.l->kernel_name, k);
    }
    const sm_t *first_sm;
    unsigned first_slot;
    describe_warps(g, dump, sizeof dump, &first_sm, &first_slot);
    return set_error(g->ls[0].l.err, SIMT_ELIMIT, "%s: stopped: %s reached at "
                     "core cycle %llu in kernel%s %s; the statistics are "
                     "partial\n  resident warps:%s",
                     g->ls[0].l.prog->mod->file, limits_describe(lim, what, sizeof what),
                     (unsigned long long)(g->cycle_base + now), running == 1 ? "" : "s",
                     running ? names : "(none started)", first_sm ? dump : " none");
}

/* This run's figures, from the modules that own them. */
static void add_stats(gpu_run_t *g, simt_stats_t *st, uint64_t cycles,
                      uint64_t dram_cycles, simt_sm_stats_t *rec)
{
    st->gpu_sim_cycle += cycles;
    for (unsigned i = 0; i < g->nsms; i++) {
        sm_settle(&g->sms[i], cycles); /* the cycles it slept */
        sm_export_stats(&g->sms[i], st, &rec[i]);
    }
    if (g->hierarchy)
        memsys_export_stats(&g->mem, dram_cycles, st);
}

/* Ticks the memory clock domains up to and including the next core edge
 * (memory first when edges coincide). */
static void memory_until_core_edge(gpu_run_t *g, clocks_t *clk, uint64_t core)
{
    unsigned edges;
    int busy = memsys_busy(&g->mem, g->sms);
    do {
        edges = clocks_step(clk);
        if (!busy)
            continue; /* an idle hierarchy: its clocks only advance */
        if (edges >> CLK_ICNT & 1)
            memsys_icnt_cycle(&g->mem, g->sms, clk->ticks[CLK_ICNT] - 1, core);
        if (edges >> CLK_L2 & 1)
            memsys_l2_cycle(&g->mem, clk->ticks[CLK_L2] - 1);
        if (edges >> CLK_DRAM & 1)
            memsys_dram_cycle(&g->mem, clk->ticks[CLK_DRAM] - 1);
    } while (!(edges >> CLK_CORE & 1));
}

/* The idle-cycle skip (docs/timing-model.md, "Skipping idle cycles").  At
 * the start of core cycle `now`: when every SM is quiescent
 * (sm_idle_until), the dispatcher can place nothing (dispatch_idle_until)
 * and the memory system is idle (memsys_busy: its clocks would only
 * advance) or holds only timed events (memsys_next_events, each turned
 * into the core cycle whose pass takes it), nothing changes before the
 * first of their events, so
 * the cycles up to it are credited in bulk (the SMs' per-cycle counters,
 * the kernels' occupancy) and the clocks advanced through them instead of
 * stepped.  `bound`: the first cycle that must be stepped anyway (a run
 * limit, the deadlock window's end, a progress report).  Returns the
 * cycle to step next (now when none is skipped).  A skipped cycle clocks
 * no unit (a quiescent scheduler neither picks nor has an event), so
 * co-simulation sees the same cycles. */
static uint64_t skip_idle(gpu_run_t *g, clocks_t *clk, uint64_t now,
                          uint64_t bound)
{
    uint64_t to = bound;
    /* a crossbar with a packet to move has work in this very pass when
     * its clock is at least the core's: no skip, and nothing below need
     * be asked (the cheapest question first: in a saturated memory side
     * it ends most skips).  The SMs' dozing below is not lost: each SM's
     * own step at `now` dozes it the same way (sm_step), and whatever
     * wakes it in between settles it first either way. */
    if (g->hierarchy && g->icnt_every_pass && memsys_icnt_moves(&g->mem))
        return now;
    /* every SM asleep (sm_doze puts the quiescent ones to sleep): the one
     * that stopped the last skip first, then the others */
    if (g->busy_sm < g->nsms && !sm_doze(&g->sms[g->busy_sm], now))
        return now;
    for (unsigned i = 0; i < g->nsms; i++) {
        sm_t *s = &g->sms[i];
        if (!sm_doze(s, now)) {
            g->busy_sm = i;
            return now;
        }
        if (s->wake_at < to)
            to = s->wake_at;
    }
    if (to <= now)
        return now;
    uint64_t t = dispatch_idle_until(&g->dispatch, now);
    if (t < to)
        to = t;
    if (to <= now)
        return now;
    if (g->hierarchy && memsys_busy(&g->mem, g->sms)) {
        /* only timed events in the hierarchy: its passes before the first
         * are no-ops, so it is skipped up to the core cycle taking it */
        uint64_t ev[CLK_NDOMAINS];
        memsys_next_events(&g->mem, g->sms, &ev[CLK_ICNT], &ev[CLK_L2],
                           &ev[CLK_DRAM]);
        for (int d = CLK_ICNT; d < CLK_NDOMAINS; d++) {
            uint64_t k = ev[d] > clk->ticks[d] ? ev[d] : clk->ticks[d];
            uint64_t c = clocks_core_pass(clk, d, k);
            if (c < to)
                to = c;
        }
        if (to <= now)
            return now;
    }
    /* the SMs sleep through the skipped cycles, credited when they wake */
    dispatch_idle_cycles(&g->dispatch, to - now);
    if (g->hierarchy)
        clocks_skip_core(clk, to - now);
    return to;
}

/* Execution's counters stay with the SMs until the run ends
 * (sm_take_xstats): thread- and warp-instructions so far, for the run
 * limit and the progress line. */
static uint64_t thread_insns_so_far(const gpu_run_t *g, const simt_stats_t *stats)
{
    uint64_t n = stats->thread_insns;
    for (unsigned i = 0; i < g->nsms; i++)
        n += sm_run_thread_insns(&g->sms[i]);
    return n;
}

/* Into the launches' statistics at the end of the run, SM by SM, without
 * the fault cycle of the SMs above one that faulted (they stepped beside
 * it on other host threads; with one thread they would not have). */
static void run_take_xstats(gpu_run_t *g)
{
    for (unsigned i = 0; g->sms && i < g->nsms; i++) {
        sm_t *s = &g->sms[i];
        int discard = i > g->fault_sm && s->kd_at == g->fault_at + 1;
        sm_take_xstats(s, g->xstats, !discard);
    }
}

/* The callback's view (warp_insns counts as instructions execute, at
 * issue; gpu_sim_cycle only when the run ends). */
static void report_progress(const gpu_run_t *g, const timing_extras_t *x,
                            const simt_stats_t *stats, uint64_t now)
{
    uint64_t warp_insns = stats->warp_insns;
    for (unsigned i = 0; i < g->nsms; i++)
        warp_insns += sm_run_warp_insns(&g->sms[i]);
    simt_progress_t at = { .cycles = stats->gpu_sim_cycle + now,
                             .warp_insns = warp_insns,
                             .kernels_done = g->dispatch.ndone, .kernels = g->nk };
    x->progress(x->progress_ctx, &at);
}

/* gpgpu_deadlock_detect_cycles counts cycles of the slowest clock domain
 * a memory access crosses: with the hierarchy, a core 100x faster than
 * the DRAM waits 100x more core cycles for the same access, which is not a
 * deadlock.  In core cycles: the key times ceil(core / slowest). */
static uint64_t deadlock_window(const simt_config_t *cfg,
                                const uint64_t mhz[CLK_NDOMAINS], int hierarchy)
{
    uint64_t slowest = mhz[CLK_CORE];
    for (int d = 0; hierarchy && d < CLK_NDOMAINS; d++)
        if (mhz[d] < slowest)
            slowest = mhz[d];
    uint64_t ratio = (mhz[CLK_CORE] + slowest - 1) / slowest;
    return (uint64_t)simt_config_get(cfg, SIMT_CFG_DEADLOCK_CYCLES) * ratio;
}

int timing_run(timing_launch_t *ls, unsigned n, const simt_config_t *cfg,
               const unit_hooks_t *hooks, const timing_extras_t *x,
               simt_stats_t *stats, simt_kernel_stats_t *ks, simt_sm_stats_t *sms)
{
    if (!n)
        return SIMT_OK;
    gpu_run_t g = { .cfg = cfg, .ls = ls, .nk = n, .hooks = hooks,
                    .cycle_base = stats->gpu_sim_cycle, .xstats = ls[0].l.stats,
                    .fault_sm = UINT_MAX };
    int rc = run_setup(&g);
    if (rc == SIMT_OK)
        rc = par_setup(&g, x->threads, x->way);
    uint64_t now = 0, last_progress = 0;
    clocks_t clk;
    const uint64_t mhz[CLK_NDOMAINS] = { GET(CLK_CORE), GET(CLK_ICNT),
                                         GET(CLK_L2), GET(CLK_DRAM) };
    uint64_t idle_limit = deadlock_window(cfg, mhz, g.hierarchy);
    g.icnt_every_pass = mhz[CLK_ICNT] >= mhz[CLK_CORE];
    const char *why = clocks_init(&clk, mhz);
    if (rc == SIMT_OK && why)
        rc = set_error(ls[0].l.err, SIMT_EINPUT, "configuration: error: %s", why);
    for (unsigned i = 0; rc == SIMT_OK && g.hierarchy && GET(PERF_SIM_MEMCPY) &&
                         i < x->ncopies; i++)
        memsys_prefill(&g.mem, x->copies[i].addr, x->copies[i].bytes);
    uint64_t next_report = x->progress ? x->progress_every : UINT64_MAX;
    /* the CTA-count trace: the counts last reported, per SM */
    unsigned *traced = x->cta_trace && rc == SIMT_OK
                           ? calloc(g.nsms, sizeof *traced) : NULL;
    if (x->cta_trace && rc == SIMT_OK && !traced)
        rc = set_error(ls[0].l.err, SIMT_EINPUT, "out of host memory");
    for (unsigned i = 0; traced && i < g.nsms; i++)
        x->cta_trace(x->cta_trace_ctx, g.cycle_base, i, 0);
    limits_t *lim = ls[0].l.limits;
    const int skip = GET(SKIP_IDLE) != 0;
    while (rc == SIMT_OK && !dispatch_finished(&g.dispatch)) {
        uint64_t insns = lim->max_insn == UINT64_MAX ? 0 : thread_insns_so_far(&g, stats);
        if (limits_check(lim, g.cycle_base + now, insns)) {
            rc = limit_stop(&g, lim, now);
            break;
        }
        /* the memory domains tick on their own clocks; one core cycle per
         * pass (edges that fall together: memory first) */
        if (g.hierarchy)
            memory_until_core_edge(&g, &clk, now);
        rc = dispatch_place(&g.dispatch, now);
        if (rc == SIMT_OK)
            rc = sms_cycle(&g, now, &last_progress);
        dispatch_account(&g.dispatch, now);
        for (unsigned i = 0; traced && i < g.nsms; i++)
            if (g.sms[i].nctas != traced[i]) {
                traced[i] = g.sms[i].nctas;
                x->cta_trace(x->cta_trace_ctx, g.cycle_base + now, i, traced[i]);
            }
        if (rc == SIMT_OK && now - last_progress > idle_limit)
            rc = deadlock(&g, now - last_progress);
        now++;
        if (now == next_report) {
            report_progress(&g, x, stats, now);
            next_report += x->progress_every;
        }
        if (skip && rc == SIMT_OK && !dispatch_finished(&g.dispatch)) {
            /* never past the cycle a limit, the deadlock check or a report
             * would act in (nor past the end: the cycle count is the run's) */
            uint64_t bound = last_progress + idle_limit + 1;
            uint64_t stop = lim->max_cycle > g.cycle_base
                                ? lim->max_cycle - g.cycle_base : 0;
            if (stop < bound)
                bound = stop;
            if (next_report < bound)
                bound = next_report;
            now = skip_idle(&g, &clk, now, bound);
            if (now == next_report) {
                report_progress(&g, x, stats, now);
                next_report += x->progress_every;
            }
        }
    }
    run_take_xstats(&g);
    if (rc == SIMT_OK || rc == SIMT_ELIMIT) {
        dispatch_export_stats(&g.dispatch, GET(MAX_THREADS_SM) / WARP_SIZE,
                              stats->gpu_sim_cycle, ks);
        add_stats(&g, stats, now, clk.ticks[CLK_DRAM], sms);
        for (unsigned k = 0; GET(SSP_SHARING) && k < g.nk; k++) {
            stats->ssp_blocks_baseline += g.ks[k].k.ssp_m;
            stats->ssp_blocks_shared += g.ks[k].k.ssp_n;
            stats->ssp_pairs += g.ks[k].k.ssp_n - g.ks[k].k.ssp_m;
        }
    }
    free(traced);
    run_free(&g);
    return rc;
}
