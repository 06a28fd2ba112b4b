/* test_clocks.c: clock-domain edge ordering. */
#include <stddef.h>

#include "../harness.h"
#include "gpu/clocks.h"

/* Core and interconnect at 1400 MHz tick together, L2 at 2800 MHz twice
 * per core edge, DRAM at 700 MHz every second core edge.  The first edges:
 * L2 alone at 1/2800 us; core, icnt and L2 at 1/1400; L2 at 3/2800; all
 * four at 2/1400 = 1/700. */
TEST(clocks_edge_order)
{
    clocks_t c;
    const uint64_t f[CLK_NDOMAINS] = { 1400, 1400, 2800, 700 };
    CHECK(clocks_init(&c, f) == NULL);
    const unsigned core = 1u << CLK_CORE, icnt = 1u << CLK_ICNT,
                   l2 = 1u << CLK_L2, dram = 1u << CLK_DRAM;
    CHECK_EQ(clocks_step(&c), l2);
    CHECK_EQ(clocks_step(&c), core | icnt | l2);
    CHECK_EQ(clocks_step(&c), l2);
    CHECK_EQ(clocks_step(&c), core | icnt | l2 | dram);
}

/* GTX480-like 700 / 1400 / 700 / 924 MHz: when the core has taken
 * 1,400,000 edges, t = 1,400,000 / 700 MHz = 2000 us, and each domain has
 * taken t * f edges (all land exactly on that instant, and ties tick
 * together). */
TEST(clocks_long_run_counts)
{
    clocks_t c;
    const uint64_t f[CLK_NDOMAINS] = { 700, 1400, 700, 924 };
    CHECK(clocks_init(&c, f) == NULL);
    while (c.ticks[CLK_CORE] < 1400000)
        clocks_step(&c);
    CHECK_EQ(c.ticks[CLK_ICNT], 2800000);
    CHECK_EQ(c.ticks[CLK_L2], 1400000);
    CHECK_EQ(c.ticks[CLK_DRAM], 1848000);
}

TEST(clocks_bad_frequency)
{
    clocks_t c;
    const uint64_t f[CLK_NDOMAINS] = { 700, 0, 700, 924 };
    CHECK(clocks_init(&c, f) != NULL);
}

/* Kepler-like 732 / 1464 / 732 / 924 MHz (a replayed period: their common
 * divisor is 12 MHz).  After 61,000 core edges t = 61,000 / 732 MHz =
 * 1000/12 us, and each domain has taken t * f edges: 122,000, 61,000 and
 * 77,000.  The step that reaches the core's 61,000th edge is a tie of all
 * four (t is a multiple of every period). */
TEST(clocks_replayed_period_counts)
{
    clocks_t c;
    const uint64_t f[CLK_NDOMAINS] = { 732, 1464, 732, 924 };
    CHECK(clocks_init(&c, f) == NULL);
    CHECK(c.pattern_len > 0);
    unsigned last = 0;
    while (c.ticks[CLK_CORE] < 61000)
        last = clocks_step(&c);
    CHECK_EQ(last, 0xfu);
    CHECK_EQ(c.ticks[CLK_ICNT], 122000);
    CHECK_EQ(c.ticks[CLK_L2], 61000);
    CHECK_EQ(c.ticks[CLK_DRAM], 77000);
}

/* Frequencies with no common divisor above 1: a period of thousands of
 * edges, too long to record, so every step compares.  997 / 1009 / 1013 /
 * 1019 MHz after 997 core edges (t = 1 us): 1009, 1013 and 1019 edges. */
TEST(clocks_long_period_compares)
{
    clocks_t c;
    const uint64_t f[CLK_NDOMAINS] = { 997, 1009, 1013, 1019 };
    CHECK(clocks_init(&c, f) == NULL);
    CHECK_EQ(c.pattern_len, 0);
    while (c.ticks[CLK_CORE] < 997)
        clocks_step(&c);
    CHECK_EQ(c.ticks[CLK_ICNT], 1009);
    CHECK_EQ(c.ticks[CLK_L2], 1013);
    CHECK_EQ(c.ticks[CLK_DRAM], 1019);
}
