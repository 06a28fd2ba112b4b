/* test_skip_idle.c: the idle-cycle skip of the timing loop (gpu/timing.c,
 * docs/timing-model.md "Skipping idle cycles") against its independent
 * reference, the same run stepped cycle by cycle (skip_idle_cycles=0).
 * Every statistic, every per-kernel and per-SM record, the progress
 * callbacks and the CTA-count trace must be identical.  The kernels are
 * chosen to spend most cycles quiescent: a dependent add chain (each add
 * waits 5 cycles for its predecessor's result), a chain of dependent loads
 * each missing in the L1 (every warp waits on memory), both with ideal
 * memory (only timed fills) and with the hierarchy; DYNCTA with a short
 * sampling period (a skip must stop at each boundary), and a cycle limit
 * reached in a quiescent stretch (the run must stop in the same cycle). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "ptx_kernel_helpers.h"

/* `n` dependent steps per thread.  loads=0: each step adds 1 to the
 * previous result; loads=1: each step loads the word at p (0: the buffer
 * is zeroed; a final store of a thread id is masked off by the and), adds
 * it to p and moves p on by a line, so every load waits
 * for the one before and misses in the L1 (and, each CTA in its own 8 KB,
 * n <= 60, in the L2: the DRAM's timing is on the path); loads=2: the
 * same, each lane starting on its own line, so every load is 32
 * transactions and the L1's MSHRs run out (the LD/ST unit retries a
 * refused transaction every cycle, counting l1_stall_cycles and the
 * cache's reservation failures); loads=3: loads=1 after a store into the
 * Scratchpad Sharing region (offset 80 of an 800-byte array on the small
 * SM of test_ssp_timing.c: slot 0 and slot 1 share bytes 80..799), so a
 * CTA that takes the pair's lock holds it through its load chain and its
 * partner's warps wait at the lock gate (ssp_lock_wait_cycles) while the
 * SM has nothing else to do. */
static char *chain_kernel(unsigned n, int loads)
{
    size_t cap = 900 + (size_t)n * 128;
    char *t = malloc(cap);
    if (!t)
        return NULL;
    size_t k = (size_t)snprintf(t, cap, PK_HEADER
        ".visible .entry chain(.param .u64 buf)\n{\n"
        ".reg .b32 %%r<6>;\n.reg .b64 %%rd<4>;\n%s"
        "ld.param.u64 %%rd1, [buf];\nmov.u32 %%r1, %%tid.x;\n"
        "mov.u32 %%r3, %%ctaid.x;\nmul.wide.u32 %%rd3, %%r3, 8192;\n"
        "add.u64 %%rd1, %%rd1, %%rd3;\n",
        loads == 3 ? ".shared .align 4 .b8 s[800];\n" : "");
    if (loads == 3) { /* the shared word 80 + 4 * (tid & 15) */
        k += (size_t)snprintf(t + k, cap - k, "mov.u32 %%r4, s;\n"
                              "and.b32 %%r5, %%r1, 15;\nshl.b32 %%r5, %%r5, 2;\n"
                              "add.u32 %%r4, %%r4, %%r5;\n"
                              "st.shared.u32 [%%r4+80], %%r3;\n");
        loads = 1;
    }
    if (loads == 2) /* each lane its own line: 32 transactions per load */
        k += (size_t)snprintf(t + k, cap - k, "mul.wide.u32 %%rd3, %%r1, 128;\n"
                              "add.u64 %%rd1, %%rd1, %%rd3;\n");
    for (unsigned i = 0; i < n; i++)
        k += (size_t)snprintf(t + k, cap - k, loads
            ? "ld.global.u32 %%r2, [%%rd1];\nand.b32 %%r2, %%r2, -128;\n"
              "cvt.u64.u32 %%rd2, %%r2;\n"
              "add.u64 %%rd1, %%rd1, %%rd2;\nadd.u64 %%rd1, %%rd1, 128;\n"
            : "add.s32 %%r1, %%r1, 1;\n");
    snprintf(t + k, cap - k, "st.global.u32 [%%rd1], %%r1;\nret;\n}\n");

    return t;
}

enum { MAX_EVENTS = 4096 };

/* What one run leaves, everything compared. */
typedef struct outcome {
    int rc;
    simt_stats_t stats;
    simt_sm_stats_t sms[64];
    size_t nsms;
    simt_kernel_stats_t kernels[4]; /* the timing fields only (the name
                                        pointer differs) */
    size_t nkernels;
    uint64_t progress[MAX_EVENTS][2]; /* cycles, warp_insns */
    unsigned nprogress;
    uint64_t trace[MAX_EVENTS][3];    /* cycle, sm, count */
    unsigned ntrace;
} outcome_t;

static void on_progress(void *ctx, const simt_progress_t *at)
{
    outcome_t *o = ctx;
    if (o->nprogress < MAX_EVENTS) {
        o->progress[o->nprogress][0] = at->cycles;
        o->progress[o->nprogress][1] = at->warp_insns;
    }
    o->nprogress++;
}

static void on_trace(void *ctx, uint64_t cycle, unsigned sm, unsigned count)
{
    outcome_t *o = ctx;
    if (o->ntrace < MAX_EVENTS) {
        o->trace[o->ntrace][0] = cycle;
        o->trace[o->ntrace][1] = sm;
        o->trace[o->ntrace][2] = count;
    }
    o->ntrace++;
}

/* Runs the chain kernel under `sets` plus skip_idle_cycles=`skip`, the
 * SMs stepped on `host` host threads (simt_gpu_set_threads). */
static void run(outcome_t *o, const char *const *sets, int skip, unsigned n,
                int loads, unsigned ctas, unsigned threads, unsigned host)
{
    const char *all[16];
    unsigned k = 0;
    all[k++] = "functional=0";
    all[k++] = skip ? "skip_idle_cycles=1" : "skip_idle_cycles=0";
    for (unsigned i = 0; sets && sets[i] && k < 15; i++)
        all[k++] = sets[i];
    all[k] = NULL;
    memset(o, 0, sizeof *o);
    simt_error_t err;
    char *text = chain_kernel(n, loads);
    simt_gpu_t *g = text ? pk_gpu(all, &err) : NULL;
    simt_module_t *m = g ? pk_load(g, "chain.ptx", text, &err) : NULL;
    free(text);
    o->rc = -1;
    if (!m) {
        printf("  %s\n", err.msg);
        pk_gpu_free(g);
        return;
    }
    if (simt_gpu_set_threads(g, host) != SIMT_OK) {
        pk_gpu_free(g);
        return;
    }
    simt_gpu_set_progress(g, on_progress, o, 7);
    simt_gpu_set_cta_trace(g, on_trace, o);
    simt_devptr_t buf = pk_alloc_u32(g, 2048 * (size_t)ctas + 16384, 0);
    simt_arg_t a[1] = { SIMT_ARG(buf) };
    o->rc = pk_run(g, m, "chain", pk_dim(ctas, 1, 1), pk_dim(threads, 1, 1), 0,
                   a, 1, &err);
    if (o->rc != SIMT_OK && o->rc != SIMT_ELIMIT)
        printf("  %s\n", err.msg);
    o->stats = *simt_gpu_stats(g);
    const simt_sm_stats_t *sm;
    o->nsms = simt_gpu_sms(g, &sm);
    if (o->nsms <= 64)
        memcpy(o->sms, sm, o->nsms * sizeof *sm);
    const simt_kernel_stats_t *ks;
    o->nkernels = simt_gpu_kernels(g, &ks);
    for (size_t i = 0; i < o->nkernels && i < 4; i++) /* the timing fields */
        o->kernels[i] = (simt_kernel_stats_t){
            .ctas = ks[i].ctas, .warp_insns = ks[i].warp_insns,
            .thread_insns = ks[i].thread_insns, .start_cycle = ks[i].start_cycle,
            .end_cycle = ks[i].end_cycle,
            .achieved_occupancy = ks[i].achieved_occupancy };
    pk_gpu_free(g);
}

/* Stepped (one host thread) and skipped (`host` host threads) runs agree
 * in everything (and the run did time). */
static int same_on(const char *const *sets, unsigned n, int loads,
                   unsigned ctas, unsigned threads, int want_rc, unsigned host)
{
    static outcome_t a, b;
    run(&a, sets, 0, n, loads, ctas, threads, 1);
    run(&b, sets, 1, n, loads, ctas, threads, host);
    int ok = a.rc == want_rc && b.rc == want_rc && a.stats.gpu_sim_cycle > 0 &&
             a.nsms <= 64 && a.nkernels <= 4 && a.nprogress <= MAX_EVENTS &&
             a.ntrace <= MAX_EVENTS &&
             memcmp(&a.stats, &b.stats, sizeof a.stats) == 0 &&
             a.nsms == b.nsms &&
             memcmp(a.sms, b.sms, a.nsms * sizeof *a.sms) == 0 &&
             a.nkernels == b.nkernels &&
             memcmp(a.kernels, b.kernels, a.nkernels * sizeof *a.kernels) == 0 &&
             a.nprogress == b.nprogress &&
             memcmp(a.progress, b.progress, sizeof a.progress) == 0 &&
             a.ntrace == b.ntrace && memcmp(a.trace, b.trace, sizeof a.trace) == 0;
    if (!ok) {
        for (size_t i = 0; i < simt_stats_count; i++)
            if (simt_stats_field(&a.stats, i) != simt_stats_field(&b.stats, i))
                printf("  %s: %llu stepped, %llu skipped\n", simt_stats_names[i],
                       (unsigned long long)simt_stats_field(&a.stats, i),
                       (unsigned long long)simt_stats_field(&b.stats, i));
        for (size_t i = 0; i < a.nsms && i < b.nsms; i++)
            if (memcmp(&a.sms[i], &b.sms[i], sizeof a.sms[i]))
                printf("  SM %zu's record differs\n", i);
        if (a.nkernels == b.nkernels &&
            memcmp(a.kernels, b.kernels, a.nkernels * sizeof *a.kernels))
            printf("  the kernel records differ\n");
    }
    if (!ok)
        printf("  rc %d/%d, cycles %llu/%llu, idle class %llu/%llu, stall "
               "scoreboard %llu/%llu, progress %u/%u, trace %u/%u\n", a.rc, b.rc,
               (unsigned long long)a.stats.gpu_sim_cycle,
               (unsigned long long)b.stats.gpu_sim_cycle,
               (unsigned long long)a.stats.core_cycles_idle,
               (unsigned long long)b.stats.core_cycles_idle,
               (unsigned long long)a.stats.stall_scoreboard,
               (unsigned long long)b.stats.stall_scoreboard,
               a.nprogress, b.nprogress, a.ntrace, b.ntrace);
    return ok;
}

static int same(const char *const *sets, unsigned n, int loads,
                unsigned ctas, unsigned threads, int want_rc)
{
    return same_on(sets, n, loads, ctas, threads, want_rc, 1);
}

TEST(skip_idle_add_chain_ideal_memory)
{
    static const char *const s[] = { "gpgpu_ideal_memory=1", NULL };
    CHECK(same(s, 300, 0, 7, 96, SIMT_OK));
}

TEST(skip_idle_add_chain_hierarchy)
{
    CHECK(same(NULL, 300, 0, 20, 64, SIMT_OK));
}

TEST(skip_idle_load_chain_ideal_memory)
{
    static const char *const s[] = { "gpgpu_ideal_memory=1",
                                     "gpgpu_ideal_mem_latency=150", NULL };
    CHECK(same(s, 40, 1, 30, 32, SIMT_OK));
}

TEST(skip_idle_load_chain_hierarchy)
{
    CHECK(same(NULL, 40, 1, 30, 32, SIMT_OK));
}

/* A crossbar slower than the core: a packet waiting at an input does not
 * hold every core cycle (its next edge can fall a pass or more later), so
 * the skip looks at the memory system's timed events instead of stopping
 * at the packet (skip_idle's first question holds only for a crossbar at
 * least as fast as the core). */
TEST(skip_idle_load_chain_slow_crossbar)
{
    static const char *const s[] = { "gpgpu_icnt_clock_mhz=300", NULL };
    CHECK(same(s, 40, 1, 30, 32, SIMT_OK));
}

/* DYNCTA acts every 50 cycles; 200 CTAs leave CTAs waiting to be placed. */
TEST(skip_idle_dyncta_period)
{
    static const char *const s[] = { "gpgpu_cta_policy=dyncta", "dyncta_period=50",
                                     "gpgpu_ideal_memory=1",
                                     "gpgpu_ideal_mem_latency=150", NULL };
    CHECK(same(s, 20, 1, 200, 256, SIMT_OK));
}

/* The cycle limit falls inside a stretch of quiescent cycles (every warp
 * waiting 150 cycles for a load): both runs stop in the same cycle. */
TEST(skip_idle_cycle_limit)
{
    static const char *const s[] = { "gpgpu_ideal_memory=1",
                                     "gpgpu_ideal_mem_latency=150",
                                     "gpgpu_max_cycle=1000", NULL };
    CHECK(same(s, 40, 1, 3, 32, SIMT_ELIMIT));
}

/* Every load 32 lines: the L1 refuses (MSHRs) while 150-cycle fills are
 * out, with ideal memory and with the hierarchy. */
TEST(skip_idle_l1_refusals_ideal_memory)
{
    static const char *const s[] = { "gpgpu_ideal_memory=1",
                                     "gpgpu_ideal_mem_latency=150", NULL };
    CHECK(same(s, 12, 2, 1, 256, SIMT_OK));
}

TEST(skip_idle_l1_refusals_hierarchy)
{
    CHECK(same(NULL, 12, 2, 1, 256, SIMT_OK));
}

/* The skip decision sits in the serial part of the loop, after every SM's
 * commit; with the SMs stepped on two host threads (gpu/smpar.c) the
 * skipped run must still equal the stepped one-thread run: load chains
 * missing to DRAM on 30 CTAs over the default machine's SMs. */
TEST(skip_idle_two_host_threads)
{
    CHECK(same_on(NULL, 40, 1, 30, 32, SIMT_OK, 2));
    static const char *const s[] = { "gpgpu_ideal_memory=1",
                                     "gpgpu_ideal_mem_latency=150", NULL };
    CHECK(same_on(s, 300, 0, 7, 96, SIMT_OK, 2));
}

/* Scratchpad Sharing (docs/scratchpad-sharing.md): on the small SM of
 * test_ssp_timing.c (one SM, m = 1, n = 2: CTA slots 0 and 1 a pair),
 * each CTA stores into the shared region and then runs a 20-load chain
 * with 150-cycle ideal memory.  The first CTA to store takes the lock and
 * keeps it to its end; its partner's warp waits at the lock gate for
 * those ~3,000 cycles, all of them quiescent, and the skip must credit
 * ssp_lock_wait_cycles (one warp-cycle per skipped cycle), the lock's
 * hold time and the transfer exactly as stepping counts them.  Four CTAs:
 * two pairs one after the other. */
TEST(skip_idle_scratchpad_sharing_lock_wait)
{
    static const char *const s[] = { "gpgpu_n_clusters=1",
                                     "gpgpu_n_cores_per_cluster=1",
                                     "gpgpu_shmem_size=1000", "ssp_sharing=1",
                                     "gpgpu_ideal_memory=1",
                                     "gpgpu_ideal_mem_latency=150", NULL };
    static outcome_t a;
    run(&a, s, 0, 20, 3, 4, 32, 1);
    /* the premise: the partner did wait, most of a chain (20 x 150) */
    CHECK_MSG(a.rc == SIMT_OK && a.stats.ssp_pairs == 1 &&
              a.stats.ssp_lock_wait_cycles > 2000,
              "rc %d, pairs %llu, lock waits %llu", a.rc,
              (unsigned long long)a.stats.ssp_pairs,
              (unsigned long long)a.stats.ssp_lock_wait_cycles);
    CHECK(same(s, 20, 3, 4, 32, SIMT_OK));
}

/* An SM whose LD/ST head waits for outbox room sleeps until the crossbar
 * takes a request from its outbox (core/ldst.h ldst_parked, core/sm.h
 * "Quiescent SMs asleep"): every load 32 lines through a 2-request
 * outbox, 32 CTAs on 8 SMs of one cluster, so that the SMs' outboxes
 * stay full while the cluster's crossbar input takes one request at a
 * time, and SMs wake and sleep at different cycles.  The premise: the
 * small outbox does slow the run down. */
TEST(skip_idle_outbox_full_hierarchy)
{
    static const char *const small[] = { "gpgpu_ldst_outbox=2",
                                         "gpgpu_n_clusters=1",
                                         "gpgpu_n_cores_per_cluster=8", NULL };
    static const char *const large[] = { "gpgpu_ldst_outbox=16",
                                         "gpgpu_n_clusters=1",
                                         "gpgpu_n_cores_per_cluster=8", NULL };
    static outcome_t a, b;
    run(&a, small, 0, 4, 2, 32, 64, 1);
    run(&b, large, 0, 4, 2, 32, 64, 1);
    CHECK_MSG(a.rc == SIMT_OK && b.rc == SIMT_OK &&
              a.stats.gpu_sim_cycle > b.stats.gpu_sim_cycle,
              "rc %d/%d, cycles %llu with 2, %llu with 16", a.rc, b.rc,
              (unsigned long long)a.stats.gpu_sim_cycle,
              (unsigned long long)b.stats.gpu_sim_cycle);
    CHECK(same(small, 4, 2, 32, 64, SIMT_OK));
    CHECK(same_on(small, 4, 2, 32, 64, SIMT_OK, 2));
}
