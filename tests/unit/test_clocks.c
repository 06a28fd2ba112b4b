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

/* One core edge at a time: the reference clocks_skip_core must match. */
static void step_core_edges(clocks_t *c, uint64_t n)
{
    while (n--)
        while (!(clocks_step(c) >> CLK_CORE & 1))
            ;
}

/* clocks_skip_core against stepping (the idle-cycle skip), from several
 * points in the period, over less than a period, over many periods and
 * over none; then the next 700 edges must come in the same order.  Kepler-
 * like frequencies (a replayed period of 61 core edges) and a set too long
 * to record (compared), for which the hand-computed figure is: after 1,000
 * core edges from the start of 997 / 1009 / 1013 / 1019 MHz, t = 1000/997
 * us, and DRAM has taken floor(1000 * 1019 / 997) = 1022 edges. */
TEST(clocks_skip_matches_stepping)
{
    const uint64_t sets[2][CLK_NDOMAINS] = { { 732, 1464, 732, 924 },
                                             { 997, 1009, 1013, 1019 } };
    const uint64_t before[] = { 0, 1, 7, 60, 61, 130 };
    const uint64_t skip[] = { 0, 1, 5, 60, 61, 62, 1000, 123457 };
    for (int s = 0; s < 2; s++)
        for (size_t b = 0; b < sizeof before / sizeof *before; b++)
            for (size_t k = 0; k < sizeof skip / sizeof *skip; k++) {
                clocks_t a, r;
                CHECK(clocks_init(&a, sets[s]) == NULL);
                CHECK(clocks_init(&r, sets[s]) == NULL);
                step_core_edges(&a, before[b]);
                step_core_edges(&r, before[b]);
                clocks_skip_core(&a, skip[k]);
                step_core_edges(&r, skip[k]);
                for (int d = 0; d < CLK_NDOMAINS; d++)
                    CHECK_EQ(a.ticks[d], r.ticks[d]);
                for (int i = 0; i < 700; i++)
                    CHECK_EQ(clocks_step(&a), clocks_step(&r));
            }
    clocks_t c;
    CHECK(clocks_init(&c, sets[1]) == NULL);
    clocks_skip_core(&c, 1000);
    CHECK_EQ(c.ticks[CLK_CORE], 1000);
    CHECK_EQ(c.ticks[CLK_DRAM], 1022);
}

/* clocks_core_pass against stepping: each edge of each domain, taken in
 * the pass of the core cycle that "step until the core ticks" ends in.
 * By hand: interconnect at 2800 MHz against a 1400 MHz core, its cycle 1
 * (edge 2, at 2/2800 us) ties with core edge 1 and is taken first, in
 * pass 0; its cycle 2 (3/2800 us) in pass 1. */
TEST(clocks_core_pass_matches_stepping)
{
    const uint64_t sets[3][CLK_NDOMAINS] = { { 732, 1464, 732, 924 },
                                             { 997, 1009, 1013, 1019 },
                                             { 1400, 2800, 700, 1400 } };
    for (int s = 0; s < 3; s++) {
        clocks_t c;
        CHECK(clocks_init(&c, sets[s]) == NULL);
        for (uint64_t pass = 0; pass < 3000; pass++) {
            unsigned edges;
            do {
                edges = clocks_step(&c);
                for (int d = CLK_ICNT; d < CLK_NDOMAINS; d++)
                    if (edges >> d & 1)
                        CHECK_EQ(clocks_core_pass(&c, d, c.ticks[d] - 1), pass);
            } while (!(edges >> CLK_CORE & 1));
        }
    }
    clocks_t c;
    CHECK(clocks_init(&c, sets[2]) == NULL);
    CHECK_EQ(clocks_core_pass(&c, CLK_ICNT, 1), 0);
    CHECK_EQ(clocks_core_pass(&c, CLK_ICNT, 2), 1);
    CHECK_EQ(clocks_core_pass(&c, CLK_ICNT, UINT64_MAX), UINT64_MAX);
}
