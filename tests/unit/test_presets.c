/* test_presets.c: the papers' machines as the presets state them.  Each
 * expected value is the paper's own number (reference/004 §3, the
 * CTA-scheduling paper's Table 1), turned into our keys by hand in the
 * comment beside it; a cache size is sets x ways x line. */
#include <string.h>

#include "../harness.h"
#include "gpu/occupancy.h"
#include "simt/simt.h"

static int load(simt_config_t *c, const char *path)
{
    simt_error_t err = { 0 };
    simt_config_defaults(c);
    int rc = simt_config_load_file(c, path, &err);
    if (rc == SIMT_OK)
        rc = simt_config_validate(c, &err);
    if (rc != SIMT_OK)
        harness_fail(__FILE__, __LINE__, "%s", err.msg);
    return rc;
}

#define G(k) simt_config_get(&c, SIMT_CFG_##k)

TEST(presets_fermi_cta_is_table_1_of_the_cta_scheduling_paper)
{
    simt_config_t c;
    if (load(&c, "configs/fermi-cta.cfg") != SIMT_OK)
        return;
    CHECK_EQ(G(N_CLUSTERS) * G(CORES_PER_CLUSTER), 28); /* 28 cores */
    CHECK_EQ(G(MAX_THREADS_SM), 1536);                  /* 1536 threads */
    CHECK_EQ(G(REGS_SM), 32768);                        /* 32768 registers */
    CHECK_EQ(G(CTAS_SM), 8);                            /* at most 8 CTAs */
    CHECK_EQ(G(SHMEM_SM), 48 * 1024);                   /* 48 KB shared */
    CHECK_EQ(G(L1C_SETS) * G(L1C_WAYS) * G(L1C_LINE), 8 * 1024); /* 8 KB constant */
    /* texture cache: 32 KB, 16-way, 64 B lines */
    CHECK_EQ(G(L1T_WAYS), 16);
    CHECK_EQ(G(L1T_LINE), 64);
    CHECK_EQ(G(L1T_SETS) * G(L1T_WAYS) * G(L1T_LINE), 32 * 1024);
    /* L1 data: 32 KB, 8-way, 128 B lines (32 sets) */
    CHECK_EQ(G(L1D_WAYS), 8);
    CHECK_EQ(G(L1D_LINE), 128);
    CHECK_EQ(G(L1D_SETS), 32);
    /* 8 memory controllers, each with 128 KB of L2, 8-way, 256 B lines */
    CHECK_EQ(G(N_MEM), 8);
    CHECK_EQ(G(L2_WAYS), 8);
    CHECK_EQ(G(L2_LINE), 256);
    CHECK_EQ(G(L2_SETS) * G(L2_WAYS) * G(L2_LINE), 128 * 1024);
    CHECK_EQ(G(ICNT_FLIT), 32);                          /* 32 B crossbar */
    /* clocks: core 1400, interconnect 1400, memory 924 MHz */
    CHECK_EQ(G(CLK_CORE), 1400);
    CHECK_EQ(G(CLK_ICNT), 1400);
    CHECK_EQ(G(CLK_DRAM), 924);
    /* GDDR5, 16 banks, tCL 12 tRP 12 tRC 40 tRAS 28 tRCD 12 tRRD 6 */
    CHECK_EQ(G(DRAM_BANKS), 16);
    CHECK_EQ(G(DRAM_TCL), 12);
    CHECK_EQ(G(DRAM_TRP), 12);
    CHECK_EQ(G(DRAM_TRC), 40);
    CHECK_EQ(G(DRAM_TRAS), 28);
    CHECK_EQ(G(DRAM_TRCD), 12);
    CHECK_EQ(G(DRAM_TRRD), 6);
    /* the baseline: round-robin CTA placement with the most CTAs, GTO */
    CHECK(!strcmp(simt_config_value_name(&c, SIMT_CFG_SCHEDULER), "gto"));
    CHECK(!strcmp(simt_config_value_name(&c, SIMT_CFG_CTA_POLICY), "rr"));
}

/* reference/004 §8: T_max = min(8, 1536/threads, registers, shared) with
 * negligible registers and shared memory: 128 threads -> 8 (capped by the
 * CTA slots), 256 -> 6, 512 -> 3, and 100 threads pad to 4 warps -> 8. */
TEST(presets_fermi_cta_t_max_by_threads)
{
    simt_config_t c;
    if (load(&c, "configs/fermi-cta.cfg") != SIMT_OK)
        return;
    CHECK_EQ(occupancy_of(&c, 128, 8, 0).ctas, 8);
    CHECK_EQ(occupancy_of(&c, 128, 8, 0).limiter, OCC_CTA_SLOTS);
    CHECK_EQ(occupancy_of(&c, 256, 8, 0).ctas, 6);
    CHECK_EQ(occupancy_of(&c, 512, 8, 0).ctas, 3);
    CHECK_EQ(occupancy_of(&c, 100, 8, 0).ctas, 8);
    /* 100 threads hold 4 warps: 12 CTAs by warps (48 / 4), so slots bind */
    CHECK_EQ(occupancy_of(&c, 100, 8, 0).by[OCC_WARPS], 12);
}
