/* test_config_gpgpusim.c: GPGPU-Sim configuration files (gpu/config_gpgpusim.h)
 * and the options of GPGPU-Sim's files that change results: the memcpy
 * prefill, the sectored L2, the L1 hit latency, the interconnect clock;
 * and the progress callback, which must change nothing.
 *
 * The two GPGPU-Sim files are read where the project keeps them, in
 * ../shared/gpgpusim-configs/ (the tests run from the repository root).
 * Expected values are read off those files by hand; where
 * configs/fermi-gtx480.cfg deliberately differs from GPGPU-Sim 4.2's GTX480
 * file, docs/configs.md says why and the table below holds both values. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "gpu/config_gpgpusim.h"
#include "mem/cache.h"
#include "ptx_kernel_helpers.h"
#include "simt/simt.h"

#define GTX480 "../shared/gpgpusim-configs/SM2_GTX480/gpgpusim.config"
#define TITAN "../shared/gpgpusim-configs/SM3_KEPLER_TITAN/gpgpusim.config"

/* Loads a GPGPU-Sim file over the defaults; its notes land in *notes (to
 * free).  The status. */
static int load_with_notes(const char *path, simt_config_t *cfg, char **notes,
                           simt_error_t *err)
{
    simt_config_defaults(cfg);
    memset(err, 0, sizeof *err);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *text = NULL;
    size_t n = 0;
    ssize_t got = getdelim(&text, &n, '\0', f);
    fclose(f);
    if (got < 0) {
        free(text);
        return -1;
    }
    size_t len = 0;
    FILE *out = open_memstream(notes, &len);
    int rc = config_gpgpusim_apply(cfg, path, text, out, err);
    fclose(out);
    free(text);
    return rc;
}

static unsigned count_lines(const char *s, const char *needle)
{
    unsigned n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* The GTX480 keys where configs/fermi-gtx480.cfg follows GPGPU-Sim 3.x or
 * the papers rather than GPGPU-Sim 4.2's file (docs/configs.md). */
static const struct {
    simt_cfg_key_t key;
    int64_t gpgpusim, preset;
} gtx480_differences[] = {
    { SIMT_CFG_CLK_ICNT, 700, 1400 },        /* 3.x: 700:1400:700:924 */
    { SIMT_CFG_L1D_MSHRS, 64, 32 },
    { SIMT_CFG_L1D_LATENCY, 35, 20 },
    { SIMT_CFG_SMEM_LATENCY, 26, 24 },
    { SIMT_CFG_ICNT_FLIT, 40, 32 },          /* reference/004: 32-byte crossbar */
    { SIMT_CFG_L1I_SETS, 4, 8 },
    { SIMT_CFG_L2_MSHRS, 512, 32 },          /* 256 per sub-partition, 2 each */
    { SIMT_CFG_L2_MSHR_MERGE, 4, 8 },
    { SIMT_CFG_L2_QUEUE, 64, 16 },
    { SIMT_CFG_DRAM_QUEUE, 64, 32 },
    { SIMT_CFG_PERF_SIM_MEMCPY, 1, 0 },      /* a GPGPU-Sim 4 option */
    { SIMT_CFG_L2_SECTORED, 1, 0 },          /* GPGPU-Sim 4's 'S' L2 */
};

TEST(gpgpusim_gtx480_matches_the_preset_field_by_field)
{
    simt_config_t gs, preset;
    simt_error_t err;
    char *notes = NULL;
    int rc = load_with_notes(GTX480, &gs, &notes, &err);
    CHECK_MSG(rc != -1, "cannot read %s (the project keeps GPGPU-Sim's files in "
                        "../shared/gpgpusim-configs)", GTX480);
    CHECK_MSG(rc == SIMT_OK, "%s", err.msg);
    simt_config_defaults(&preset);
    CHECK_MSG(simt_config_load_file(&preset, "configs/fermi-gtx480.cfg", &err) == SIMT_OK,
              "%s", err.msg);
    unsigned compared = 0;
    for (int k = 0; k < SIMT_CFG_NKEYS; k++) {
        if (gs.origin[k] != 1)
            continue; /* the GPGPU-Sim file does not describe it */
        int64_t want = simt_config_get(&preset, (simt_cfg_key_t)k);
        for (size_t d = 0; d < sizeof gtx480_differences / sizeof *gtx480_differences; d++)
            if (gtx480_differences[d].key == (simt_cfg_key_t)k) {
                CHECK_MSG(want == gtx480_differences[d].preset, "%s: preset %lld, "
                          "docs say %lld", simt_config_key_name((simt_cfg_key_t)k),
                          (long long)want, (long long)gtx480_differences[d].preset);
                want = gtx480_differences[d].gpgpusim;
            }
        CHECK_MSG(simt_config_get(&gs, (simt_cfg_key_t)k) == want,
                  "%s: GPGPU-Sim file gives %lld, expected %lld",
                  simt_config_key_name((simt_cfg_key_t)k),
                  (long long)simt_config_get(&gs, (simt_cfg_key_t)k), (long long)want);
        compared++;
    }
    /* the mapped options reach 50 keys: geometry, clocks, caches, DRAM */
    CHECK_MSG(compared >= 50, "only %u keys came from the file", compared);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_FUNCTIONAL), 0); /* -gpgpu_ptx_sim_mode 0 */
    /* derived: L2 64 sets x 2 sub-partitions; a 128-byte line over a bus of
     * 4 bytes x 2 chips x 4 (QDR) per command cycle: 4 cycles */
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_L2_SETS), 128);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_DRAM_BURST), 4);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_DRAM_TWTR), 5); /* CDLR=5 */
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_MEM_INTERLEAVE), 256); /* dramid@8 */
    CHECK_EQ(count_lines(notes, "does not know"), 0);
    CHECK_MSG(strstr(notes, GTX480 ":157:21: note: -gpuwattch_xml_file ignored: "),
              "%s", notes);
    free(notes);
}

TEST(gpgpusim_titan_loads_every_option_mapped_or_listed)
{
    simt_config_t gs;
    simt_error_t err;
    char *notes = NULL;
    int rc = load_with_notes(TITAN, &gs, &notes, &err);
    CHECK_MSG(rc != -1, "cannot read %s", TITAN);
    CHECK_MSG(rc == SIMT_OK, "%s", err.msg);
    CHECK_EQ(count_lines(notes, "does not know"), 0);
    /* one line per ignored option, e.g. the L1 variants */
    CHECK_EQ(count_lines(notes, "-gpgpu_cache:dl1PrefL1 ignored"), 1);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_N_CLUSTERS), 14);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_MAX_THREADS_SM), 2048);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_CTAS_SM), 16);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_NUM_SCHED), 4);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_CLK_CORE), 837);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_CLK_DRAM), 1502);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_L1D_SETS), 4);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_L1D_WAYS), 32);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_L1D_LATENCY), 82);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_SMEM_LATENCY), 24);  /* -smem_latency */
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_L2_SETS), 64);       /* 32 x 2 */
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_L2_WAYS), 16);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_DRAM_BURST), 8);     /* 128 / (4 x 1 x 4) */
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_DRAM_TRAS), 37);
    CHECK_EQ(simt_config_get(&gs, SIMT_CFG_OC_MEM), 8);
    CHECK(simt_config_validate(&gs, &err) == SIMT_OK);
    free(notes);
}

TEST(gpgpusim_detected_by_simt_config_load_file)
{
    simt_config_t cfg;
    simt_error_t err = { 0 };
    simt_config_defaults(&cfg);
    FILE *old = stderr; /* the notes go to stderr: keep the test output clean */
    stderr = fopen("/dev/null", "w");
    int rc = simt_config_load_file(&cfg, TITAN, &err);
    fclose(stderr);
    stderr = old;
    CHECK_MSG(rc == SIMT_OK, "%s", err.msg);
    CHECK_EQ(simt_config_get(&cfg, SIMT_CFG_N_MEM), 12);
    CHECK(config_gpgpusim_detect("# comment\n-gpgpu_n_mem 6\n"));
    CHECK(!config_gpgpusim_detect("# comment\ngpgpu_n_mem = 6\n"));
}

TEST(gpgpusim_bad_values_are_errors_at_their_position)
{
    static const struct { const char *text, *msg; } cases[] = {
        { "-gpgpu_n_mem 6\n-gpgpu_cache:dl1 N:32:128,L:L:m:N:H,S:64:8,8\n",
          "t.config:2:18: error: -gpgpu_cache:dl1 'N:32:128,L:L:m:N:H,S:64:8,8' is not valid" },
        { "-gpgpu_clock_domains 700.0:700.0:700.0\n",
          "t.config:1:22: error: -gpgpu_clock_domains '700.0:700.0:700.0' is not valid" },
        { "-gpgpu_n_mem\n-gpgpu_n_clusters 4\n",
          "t.config:1:1: error: option '-gpgpu_n_mem' has no value" },
        { "-gpgpu_n_mem 0\n", "t.config:1:14: error: 'gpgpu_n_mem' = 0 is out of range" },
        { "-gpgpu_dram_timing_opt \"nbk=16:CCD=2\n", "t.config:1:24: error: unterminated" },
        { "-gpgpu_shader_core_pipeline 1536:16\n", "warps are 32 threads" },
        { "gpgpu_n_mem 6\n", "t.config:1:1: error: expected an option" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        simt_config_t cfg, before;
        simt_error_t err = { 0 };
        simt_config_defaults(&cfg);
        before = cfg;
        CHECK_EQ(config_gpgpusim_apply(&cfg, "t.config", cases[i].text, NULL, &err),
                 SIMT_EINPUT);
        CHECK_MSG(strstr(err.msg, cases[i].msg), "case %zu: %s", i, err.msg);
        CHECK_MSG(!memcmp(&cfg, &before, sizeof cfg), "case %zu changed the "
                  "configuration", i);
    }
}

/* A prefill makes a line present without counting an access; the next
 * read of it hits. */
TEST(cache_install_makes_a_line_present)
{
    cache_t c;
    cache_cfg_t cfg = { .sets = 2, .ways = 2, .line = 128, .mshrs = 2,
                        .mshr_merge = 2, .write = CACHE_WRITE_BACK };
    CHECK(cache_init(&c, &cfg) == NULL);
    cache_install(&c, 0x1004);
    CHECK_EQ(c.stats.accesses, 0);
    cache_result_t r;
    cache_access(&c, 0x1000, 0, 0, 1, &r);
    CHECK_EQ(r.outcome, CACHE_HIT);
    /* three lines of set 0 (0x1000, 0x1100, 0x1200): the oldest goes */
    cache_install(&c, 0x1100);
    cache_install(&c, 0x1200);
    cache_access(&c, 0x1000, 0, 0, 2, &r);
    CHECK_EQ(r.outcome, CACHE_MISS);
    cache_free(&c);
}

/* The streaming copy of test_timing.c (a 128 KB source, a 128 KB
 * destination, both written by the host first): 2050 DRAM reads without
 * the prefill.  With it, every line of both (2048 lines, 256 KB) is in
 * the 768 KB L2 before the kernel starts (341 or 342 lines per partition
 * over 128 sets of 8 ways: no set overflows), so only the kernel's code
 * and parameter lines come from DRAM: 2 reads. */
static uint64_t copy_dram(const char *setting, uint64_t *bus_busy)
{
    static const char ptx[] = PK_HEADER
        ".visible .entry copy(.param .u64 src, .param .u64 dst)\n{\n"
        ".reg .b32 %r<6>;\n.reg .b64 %rd<6>;\n"
        "ld.param.u64 %rd1, [src];\nld.param.u64 %rd2, [dst];\n"
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
        "mad.lo.s32 %r4, %r2, %r3, %r1;\n"
        "mul.wide.u32 %rd3, %r4, 4;\n"
        "add.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n"
        "ld.global.u32 %r5, [%rd4];\nst.global.u32 [%rd5], %r5;\n"
        "ret;\n}\n";
    const char *const timing[] = { "functional=0", setting, NULL };
    simt_error_t err;
    uint64_t reads = 0;
    simt_gpu_t *g = pk_gpu(timing, &err);
    simt_module_t *m = g ? pk_load(g, "copy.ptx", ptx, &err) : NULL;
    if (m) {
        simt_devptr_t src = pk_alloc_u32(g, 32768, 7), dst = pk_alloc_u32(g, 32768, 0);
        simt_arg_t a[2] = { SIMT_ARG(src), SIMT_ARG(dst) };
        uint32_t last = 0;
        if (pk_run(g, m, "copy", pk_dim(128, 1, 1), pk_dim(256, 1, 1), 0, a, 2,
                   &err) == SIMT_OK &&
            pk_read_u32(g, dst + 4 * 32767, &last, 1) == SIMT_OK && last == 7) {
            reads = simt_gpu_stats(g)->dram_reads;
            *bus_busy = simt_gpu_stats(g)->dram_bus_busy;
        }
    }
    pk_gpu_free(g);
    return reads;
}

TEST(perf_sim_memcpy_prefills_the_l2)
{
    uint64_t busy;
    CHECK_EQ(copy_dram("gpgpu_perf_sim_memcpy=0", &busy), 2050);
    CHECK_EQ(copy_dram("gpgpu_perf_sim_memcpy=1", &busy), 2);
}

/* The same copy on a sectored L2: the destination's write-throughs cover
 * whole 128-byte lines, so no destination line is fetched: 1024 source
 * lines, the code line and the parameter line (a 64-byte constant-cache
 * line: 2 of the 4 sectors, half a burst) come from DRAM, 1026 reads.
 * The data bus: 1025 bursts of 4 cycles and one of 2 (4102 cycles)
 * against 2050 x 4 = 8200 with whole lines. */
TEST(sectored_l2_fetches_only_missing_sectors)
{
    uint64_t busy = 0;
    CHECK_EQ(copy_dram("gpgpu_l2_sectored=0", &busy), 2050);
    CHECK_EQ(busy, 8200);
    CHECK_EQ(copy_dram("gpgpu_l2_sectored=1", &busy), 1026);
    CHECK_EQ(busy, 4102);
}

/* Sector by sector on one line of 4 x 32 bytes (hand-traced from
 * mem/cache.h's rules). */
TEST(cache_sectored_rules)
{
    cache_t c;
    cache_cfg_t cfg = { .sets = 1, .ways = 2, .line = 128, .mshrs = 2, .mshr_merge = 2,
                        .write = CACHE_WRITE_BACK, .sectored = 1 };
    CHECK(cache_init(&c, &cfg) == NULL);
    cache_result_t r;
    cache_access_bytes(&c, 0x1020, 32, 0, 1, &r);      /* sector 1: a miss */
    CHECK_EQ(r.outcome, CACHE_MISS);
    CHECK_EQ(r.fill_sectors, 0x2);
    cache_access_bytes(&c, 0x1024, 4, 0, 2, &r);       /* on its way: joins */
    CHECK_EQ(r.outcome, CACHE_HIT_RESERVED);
    cache_access_bytes(&c, 0x1040, 4, 0, 3, &r);       /* sector 2: after the fill */
    CHECK_EQ(r.outcome, CACHE_FAIL);
    cache_fill(&c, 0x1000);
    uint64_t t;
    CHECK(cache_pop_ready(&c, &t) && t == 1);
    CHECK(cache_pop_ready(&c, &t) && t == 2);
    cache_access_bytes(&c, 0x1030, 16, 0, 4, &r);      /* present: a hit */
    CHECK_EQ(r.outcome, CACHE_HIT);
    cache_access_bytes(&c, 0x1040, 4, 0, 5, &r);       /* a sector miss */
    CHECK_EQ(r.outcome, CACHE_MISS);
    CHECK_EQ(r.fill_sectors, 0x4);
    cache_fill(&c, 0x1000);
    CHECK(cache_pop_ready(&c, &t) && t == 5);
    cache_access_bytes(&c, 0x1060, 32, 1, 6, &r);      /* sector 3 written whole */
    CHECK_EQ(r.outcome, CACHE_HIT);
    cache_access_bytes(&c, 0x1000, 8, 1, 7, &r);       /* sector 0 in part: fetch */
    CHECK_EQ(r.outcome, CACHE_MISS);
    CHECK_EQ(r.fill_sectors, 0x1);
    cache_fill(&c, 0x1000);
    /* a new line written whole needs no fetch; two lines fill the set,
     * a third evicts the least recently used one, dirty: written back */
    cache_access_bytes(&c, 0x2000, 128, 1, 8, &r);
    CHECK_EQ(r.outcome, CACHE_HIT);
    cache_access_bytes(&c, 0x3000, 128, 1, 9, &r);
    CHECK_EQ(r.outcome, CACHE_HIT);
    CHECK(r.writeback && r.victim_addr == 0x1000);
    /* misses: 0x1020, the sector misses 0x1040 and 0x1000, the new lines
     * 0x2000 and 0x3000 */
    CHECK_EQ(c.stats.misses, 5);
    cache_free(&c);
}

/* The progress callback sees the cycles grow and the kernel finish, and
 * changes nothing: the same cycles with and without it. */
typedef struct reports {
    simt_progress_t last;
    unsigned n;
} reports_t;

static void count_reports(void *ctx, const simt_progress_t *at)
{
    reports_t *r = ctx;
    if (at->cycles > r->last.cycles)
        r->n++;
    r->last = *at;
}

TEST(progress_callback_observes_only)
{
    static const char *const timing[] = { "functional=0", NULL };
    uint64_t cycles[2] = { 0, 0 };
    reports_t seen = { 0 };
    for (int with = 0; with < 2; with++) {
        simt_error_t err;
        simt_gpu_t *g = pk_gpu(timing, &err);
        CHECK_MSG(g, "%s", err.msg);
        if (with)
            simt_gpu_set_progress(g, count_reports, &seen, 100);
        simt_module_t *m = pk_load(g, "c.ptx", PK_HEADER
            ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n"
            "ld.param.u64 %rd1, [p];\nld.global.u32 %r1, [%rd1];\n"
            "add.s32 %r2, %r1, 1;\nst.global.u32 [%rd1+4], %r2;\nret;\n}\n", &err);
        CHECK_MSG(m, "%s", err.msg);
        simt_devptr_t p = pk_alloc_u32(g, 2, 1);
        simt_arg_t a[1] = { SIMT_ARG(p) };
        CHECK_EQ(pk_run(g, m, "k", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a, 1, &err),
                 SIMT_OK);
        cycles[with] = simt_gpu_stats(g)->gpu_sim_cycle;
        pk_gpu_free(g);
    }
    CHECK_EQ(cycles[0], cycles[1]);
    /* one report per 100 cycles that the run reached */
    CHECK_EQ(seen.n, cycles[0] / 100);
    CHECK_EQ(seen.last.cycles, cycles[0] / 100 * 100);
    CHECK_EQ(seen.last.kernels, 1);
}

/* ---- L1 hit latency and interconnect clock: what the files set ---- */

/* One warp chasing k pointers through a zero-filled buffer: load i reads
 * [p + 4i + (value of load i-1)], so each load waits for the previous
 * one; all k addresses lie in one 128-byte line. */
static char *chase_kernel(unsigned k)
{
    size_t cap = 512 + (size_t)k * 160;
    char *t = malloc(cap);
    if (!t)
        return NULL;
    size_t n = (size_t)snprintf(t, cap, PK_HEADER
        ".visible .entry chase(.param .u64 p)\n{\n"
        ".reg .b32 %%r<%u>;\n.reg .b64 %%rd<%u>;\n"
        "ld.param.u64 %%rd0, [p];\nmov.u32 %%r0, 0;\n", k + 1, 2 * k + 2);
    for (unsigned i = 1; i <= k; i++)
        n += (size_t)snprintf(t + n, cap - n,
                              "cvt.u64.u32 %%rd%u, %%r%u;\nadd.s64 %%rd%u, %%rd0, %%rd%u;\n"
                              "ld.global.u32 %%r%u, [%%rd%u+%u];\n",
                              2 * i, i - 1, 2 * i + 1, 2 * i, i, 2 * i + 1, 4 * (i - 1));
    snprintf(t + n, cap - n, "st.global.u32 [%%rd0+128], %%r%u;\nret;\n}\n", k);
    return t;
}

static uint64_t chase_cycles(unsigned k, const char *const *sets)
{
    simt_error_t err;
    char *text = chase_kernel(k);
    simt_gpu_t *g = text ? pk_gpu(sets, &err) : NULL;
    simt_module_t *m = g ? pk_load(g, "chase.ptx", text, &err) : NULL;
    uint64_t cycles = 0;
    if (m) {
        simt_devptr_t p = pk_alloc_u32(g, 64, 0);
        simt_arg_t a[1] = { SIMT_ARG(p) };
        if (pk_run(g, m, "chase", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a, 1,
                   &err) == SIMT_OK)
            cycles = simt_gpu_stats(g)->gpu_sim_cycle;
        else
            printf("  %s\n", err.msg);
    }
    pk_gpu_free(g);
    free(text);
    return cycles;
}

/* Every load after the first hits the L1, one after another: 8 more of
 * them (k 4 -> 12) cost 8 x 15 more cycles when an L1 hit takes 35
 * (GPGPU-Sim 4.2's GTX480) instead of 20.  Differences cancel the miss
 * and the start-up. */
TEST(l1_hit_latency_costs_each_dependent_hit)
{
    const char *const l20[] = { "functional=0", "gpgpu_perfect_inst_cache=1",
                                "gpgpu_l1d_latency=20", NULL };
    const char *const l35[] = { "functional=0", "gpgpu_perfect_inst_cache=1",
                                "gpgpu_l1d_latency=35", NULL };
    uint64_t a4 = chase_cycles(4, l20), a12 = chase_cycles(12, l20);
    uint64_t b4 = chase_cycles(4, l35), b12 = chase_cycles(12, l35);
    CHECK(a4 && a12 && b4 && b12);
    CHECK_EQ((b12 - b4) - (a12 - a4), 8 * 15);
}

/* Without the L1 every load crosses the request and the reply network:
 * 20 more interconnect cycles of latency cost each of the k loads 40
 * interconnect cycles, 20 core cycles with the interconnect at twice the
 * core clock (700/1400 MHz, fermi-gtx480) and 40 at the core clock
 * (GPGPU-Sim 4.2's 700/700).  8 more loads: 160 or 320 cycles. */
static int64_t icnt_cost_of_8_loads(const char *clock)
{
    const char *const base[] = { "functional=0", "gpgpu_perfect_inst_cache=1",
                                 "gpgpu_l1d_enabled=0", clock, NULL };
    const char *const slow[] = { "functional=0", "gpgpu_perfect_inst_cache=1",
                                 "gpgpu_l1d_enabled=0", clock,
                                 "gpgpu_icnt_latency=28", NULL };
    uint64_t a4 = chase_cycles(4, base), a12 = chase_cycles(12, base);
    uint64_t b4 = chase_cycles(4, slow), b12 = chase_cycles(12, slow);
    if (!a4 || !a12 || !b4 || !b12)
        return -1;
    return (int64_t)((b12 - b4) - (a12 - a4));
}

TEST(icnt_clock_scales_interconnect_latency)
{
    CHECK_EQ(icnt_cost_of_8_loads("gpgpu_icnt_clock_mhz=1400"), 160);
    CHECK_EQ(icnt_cost_of_8_loads("gpgpu_icnt_clock_mhz=700"), 320);
}
