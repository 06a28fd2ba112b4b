/* test_occupancy.c: CTAs per SM and the limiting resource, against numbers
 * the papers print: EXPARS Table 3's baseline CTAs/SM on its Fermi machine
 * (registers per thread from the table), and Scratchpad Sharing Table 1's
 * baseline blocks m at 16 KB of scratchpad; plus hand-computed edge cases
 * for warp padding and register rounding. */
#include <string.h>

#include "../harness.h"
#include "gpu/occupancy.h"
#include "simt/simt.h"

static void fermi(simt_config_t *c) /* EXPARS Table 2 = GTX480 */
{
    simt_config_defaults(c);
    c->value[SIMT_CFG_MAX_THREADS_SM] = 1536;
    c->value[SIMT_CFG_CTAS_SM] = 8;
    c->value[SIMT_CFG_REGS_SM] = 32768;
    c->value[SIMT_CFG_SHMEM_SM] = 49152;
    c->value[SIMT_CFG_REG_ALLOC_UNIT] = 4;
}

static void kepler_ss(simt_config_t *c) /* Scratchpad Sharing Table 4 */
{
    simt_config_defaults(c);
    c->value[SIMT_CFG_MAX_THREADS_SM] = 3072;
    c->value[SIMT_CFG_CTAS_SM] = 16;
    c->value[SIMT_CFG_REGS_SM] = 65536;
    c->value[SIMT_CFG_SHMEM_SM] = 16384;
}

TEST(occupancy_expars_table3_baseline_ctas)
{
    static const struct {
        const char *abbr;
        uint32_t threads, regs, smem, ctas;
    } t[] = {
        { "LBM", 128, 36, 0, 7 },     { "ST", 512, 28, 0, 2 },
        { "MQ", 256, 28, 0, 4 },      { "SGE", 128, 44, 512, 5 },
        { "BT", 512, 24, 0, 2 },      { "HS", 256, 36, 3072, 3 },
        { "LEUK", 192, 24, 0, 7 },    { "MC", 256, 24, 2048, 5 },
        { "CONV", 192, 24, 0, 7 },    { "EST", 256, 24, 0, 5 },
        { "MERG", 512, 24, 8192, 2 }, { "QUA", 384, 32, 0, 2 },
        { "SING1", 256, 24, 0, 5 },   { "SING2", 256, 28, 0, 4 },
    };
    simt_config_t c;
    fermi(&c);
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        occupancy_t o = occupancy_of(&c, t[i].threads, t[i].regs, t[i].smem);
        CHECK_MSG(o.ctas == t[i].ctas, "%s: %u CTAs, the paper has %u",
                  t[i].abbr, o.ctas, t[i].ctas);
        /* every row of Table 3 is register-file limited */
        CHECK_MSG(o.limiter == OCC_REGISTERS, "%s: limited by %s", t[i].abbr,
                  occupancy_resource_name(o.limiter));
    }
}

TEST(occupancy_scratchpad_sharing_table1_blocks)
{
    static const struct {
        const char *app;
        uint32_t threads, smem, m;
    } t[] = {
        { "backprop", 256, 9408, 1 }, { "DCT1", 64, 2112, 7 },
        { "DCT3", 128, 2176, 7 },     { "NQU", 64, 10496, 1 },
        { "SRAD1", 576, 13824, 1 },   { "SRAD2", 576, 11520, 1 },
        { "FDTD3d", 128, 3840, 4 },   { "heartwall", 128, 11872, 1 },
        { "histogram", 192, 9216, 1 }, { "MC1", 32, 9216, 1 },
        { "NW1", 32, 8452, 1 },
    };
    simt_config_t c;
    kepler_ss(&c);
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        /* the paper reports no registers: a small count that never limits */
        occupancy_t o = occupancy_of(&c, t[i].threads, 16, t[i].smem);
        CHECK_MSG(o.ctas == t[i].m && o.limiter == OCC_SHARED,
                  "%s: %u CTAs limited by %s; the paper has m = %u by scratchpad",
                  t[i].app, o.ctas, occupancy_resource_name(o.limiter), t[i].m);
    }
}

/* 48 threads occupy two warps: 1536/48 = 32 by threads but 48/2 = 24 by
 * warps; 9 registers round up to 12: 32768 / (12 * 64) = 42. */
TEST(occupancy_warp_padding_and_register_rounding)
{
    simt_config_t c;
    fermi(&c);
    c.value[SIMT_CFG_CTAS_SM] = 64;
    occupancy_t o = occupancy_of(&c, 48, 9, 0);
    CHECK_EQ(o.by[OCC_THREADS], 32);
    CHECK_EQ(o.by[OCC_WARPS], 24);
    CHECK_EQ(o.by[OCC_REGISTERS], 42);
    CHECK_EQ(o.regs_per_cta, 768);
    CHECK_EQ(o.ctas, 24);
    CHECK(o.limiter == OCC_WARPS);
    CHECK_EQ(o.by[OCC_SHARED], UINT32_MAX); /* no shared memory: no limit */
}

/* Ties go to the first resource in the documented order. */
TEST(occupancy_tie_reports_first_resource)
{
    simt_config_t c;
    fermi(&c);
    occupancy_t o = occupancy_of(&c, 192, 0, 6144); /* 8 by everything */
    CHECK_EQ(o.ctas, 8);
    CHECK(o.limiter == OCC_THREADS);
}

/* A CTA whose registers exceed the SM's cannot run at all. */
TEST(occupancy_zero_when_a_cta_cannot_fit)
{
    simt_config_t c;
    fermi(&c);
    occupancy_t o = occupancy_of(&c, 1024, 36, 0); /* 36864 > 32768 */
    CHECK_EQ(o.ctas, 0);
    CHECK(o.limiter == OCC_REGISTERS);
    CHECK(!strcmp(occupancy_resource_name(o.limiter), "registers"));
    CHECK(occupancy_resource_key(o.limiter) == SIMT_CFG_REGS_SM);
}
