/* test_partition.c: the L2 slice over an ideal memory, cycle by cycle
 * (L2 latency 10, memory 100; 4 sets x 2 ways x 128 B; one partition, so
 * channel addresses are the global ones unless stated). */
#include <stddef.h>

#include "../harness.h"
#include "mem/partition.h"

static part_cfg_t cfg(void)
{
    return (part_cfg_t){ .l2_enabled = 1, .l2 = { .sets = 4, .ways = 2, .line = 128, .mshrs = 4,
                                 .mshr_merge = 4, .write = CACHE_WRITE_BACK },
                         .l2_latency = 10, .mem_latency = 100, .queue = 4,
                         .map = { .scheme = ADDRMAP_LINEAR, .partitions = 1,
                                  .interleave = 256, .banks = 4, .row_bytes = 1024 } };
}

/* Runs cycles from..to and returns the cycle request `want` was ready at
 * (its reply taken then), or -1. */
static long run_until_reply(partition_t *p, uint64_t from, uint64_t to,
                            uint32_t want)
{
    for (uint64_t t = from; t <= to; t++) {
        if (p->cfg.dram_model) /* one clock for both in these tests */
            partition_dram_cycle(p, t);
        partition_cycle(p, t);
        uint32_t r;
        while (partition_peek_reply(p, t, &r)) {
            partition_pop_reply(p);
            if (r == want)
                return (long)t;
        }
    }
    return -1;
}

/* A read miss accessed at cycle 0 fetches the line (ready at 100), fills
 * and replies at 100 + 10; a read of the same line accessed at cycle 1
 * waits for the same fill; a later read hits: access + 10. */
TEST(partition_miss_merge_hit)
{
    partition_t p;
    part_cfg_t c = cfg();
    CHECK(partition_init(&p, &c) == NULL);
    partition_push(&p, 7, 0x1000, 0);
    partition_push(&p, 8, 0x1040, 0);
    CHECK_EQ(run_until_reply(&p, 0, 200, 7), 110);
    uint32_t r;
    CHECK(partition_peek_reply(&p, 110, &r) && r == 8); /* same fill */
    partition_pop_reply(&p);
    partition_push(&p, 9, 0x1008, 0);
    CHECK_EQ(run_until_reply(&p, 111, 200, 9), 121);
    CHECK_EQ(p.l2.stats.misses, 1);
    CHECK_EQ(p.l2.stats.pending_hits, 1);
    CHECK_EQ(p.l2.stats.hits, 1);
    partition_free(&p);
}

/* The queue holds 4 requests; one slice access per cycle. */
TEST(partition_queue_bound_and_rate)
{
    partition_t p;
    part_cfg_t c = cfg();
    CHECK(partition_init(&p, &c) == NULL);
    for (uint32_t i = 0; i < 4; i++) {
        CHECK(partition_can_accept(&p));
        partition_push(&p, i, 0x1000 + 4 * i, 1);
    }
    CHECK(!partition_can_accept(&p));
    partition_cycle(&p, 0);
    CHECK_EQ(p.in_count, 3);
    CHECK(partition_can_accept(&p));
    partition_free(&p);
}

/* With the DRAM channel below (test_dram.c's timing, bursts of 2): the miss
 * accessed at cycle 0 reaches the channel at 1: ACT at 1, RD at 1 + tRCD
 * = 5, data 10..11, done at 12; the fill replies at 12 + 10 = 22. */
TEST(partition_miss_through_dram)
{
    partition_t p;
    part_cfg_t c = cfg();
    c.dram_model = 1;
    c.map = (addrmap_cfg_t){ .scheme = ADDRMAP_LINEAR, .partitions = 1,
                             .interleave = 256,
                             .banks = 4, .row_bytes = 1024 };
    c.dram = (dram_cfg_t){ .banks = 4, .burst_cycles = 2,
                           .tCL = 5, .tWL = 3, .tRCD = 4, .tRAS = 10, .tRP = 3,
                           .tRC = 13, .tRRD = 2, .tCCD = 2, .tWTR = 3, .tRTW = 4,
                           .queue = 8 };
    CHECK(partition_init(&p, &c) == NULL);
    partition_push(&p, 5, 0x2000, 0);
    CHECK_EQ(run_until_reply(&p, 0, 100, 5), 22);
    CHECK_EQ(p.dram.stats.reads, 1);
    partition_free(&p);
}

/* The channel's banks come from the address map: the two must agree. */
TEST(partition_map_banks_must_match_dram)
{
    partition_t p;
    part_cfg_t c = cfg();
    c.dram_model = 1;
    c.map = (addrmap_cfg_t){ .scheme = ADDRMAP_LINEAR, .partitions = 1,
                             .interleave = 256, .banks = 8, .row_bytes = 1024 };
    c.dram = (dram_cfg_t){ .banks = 4, .burst_cycles = 2, .queue = 8 };
    CHECK(partition_init(&p, &c) != NULL);
}

/* The slice indexes its sets by channel address.  Partition 0 of 4 with
 * 128-byte chunks holds 0x000, 0x200, 0x400, 0x600: by global address all
 * four are set (addr >> 7) mod 4 = 0, by channel address (0x00, 0x80,
 * 0x100, 0x180) sets 0..3.  In a direct-mapped 4-set L2 the four misses
 * therefore all stay, and reading them again hits: access + 10. */
TEST(partition_l2_indexes_by_channel_address)
{
    partition_t p;
    part_cfg_t c = cfg();
    c.l2.ways = 1;
    c.map.partitions = 4;
    c.map.interleave = 128;
    CHECK(partition_init(&p, &c) == NULL);
    for (uint32_t i = 0; i < 4; i++) {
        partition_push(&p, i, 0x200u * i, 0);
        CHECK_EQ(run_until_reply(&p, 200 * i, 200 * i + 150, i), 200 * i + 110);
    }
    for (uint32_t i = 0; i < 4; i++) {
        partition_push(&p, 10 + i, 0x200u * i, 0);
        CHECK_EQ(run_until_reply(&p, 1000 + 20 * i, 1000 + 20 * i + 15, 10 + i),
                 1000 + 20 * i + 10);
    }
    CHECK_EQ(p.l2.stats.misses, 4);
    CHECK_EQ(p.l2.stats.hits, 4);
    partition_free(&p);
}

/* A reply network that never drains (the false deadlock of hmmer at paper
 * size on kepler-ss: the reply ring overflowed, overwriting replies, so an
 * L1 fill never came back).  Every request taken is one reply owed: the
 * slice takes requests only while the replies it owes fit its ring, here
 * queue 4 + mshrs 4 x merge 4 + 1 = 21.  Pushing whenever it accepts over
 * 400 cycles (reads of 8 lines: misses, merges and hits) takes exactly 21;
 * draining then returns each of them exactly once. */
TEST(partition_backpressure_when_replies_wait)
{
    partition_t p;
    part_cfg_t c = cfg();
    CHECK(partition_init(&p, &c) == NULL);
    uint32_t taken = 0;
    for (uint64_t t = 0; t < 400; t++) {
        while (partition_can_accept(&p)) {
            partition_push(&p, taken, 0x1000 + 128 * (taken % 8), 0);
            taken++;
        }
        partition_cycle(&p, t);
    }
    CHECK_EQ(taken, 21);
    CHECK(!partition_can_accept(&p));
    unsigned seen[21] = { 0 }, replies = 0;
    for (uint64_t t = 400; t < 1000; t++) {
        partition_cycle(&p, t);
        uint32_t r;
        while (partition_peek_reply(&p, t, &r)) {
            partition_pop_reply(&p);
            CHECK(r < 21);
            if (r < 21)
                seen[r]++;
            replies++;
        }
    }
    CHECK_EQ(replies, 21);
    for (unsigned i = 0; i < 21; i++)
        CHECK_EQ(seen[i], 1);
    CHECK(partition_can_accept(&p));
    partition_free(&p);
}

/* A head request the L2 refuses is retried each cycle (counted without a
 * lookup while nothing changed the L2): with one MSHR, request 1 misses
 * line 0x0 at cycle 0 (back at 100, replies at 110); request 2 (line
 * 0x2000) is refused at cycles 1..99, then the fill at 100 frees the MSHR
 * before the slice's turn: it misses then, back at 200, replies at 210:
 * 99 failures and 99 stall cycles.  Request 4 (line 0x6000) misses at
 * 211 (back at 311); request 3 (line 0x4000) behind it is refused at
 * 212..219 (8 more); its line is then prefilled (as a copy to the device
 * would) and it hits at 220, replying at 230, where without the prefill
 * it would wait for the MSHR until 311. */
TEST(partition_refused_head_sees_fill_and_prefill)
{
    partition_t p;
    part_cfg_t c = cfg();
    c.l2.mshrs = 1;
    CHECK(partition_init(&p, &c) == NULL);
    partition_push(&p, 1, 0x0, 0);
    partition_push(&p, 2, 0x2000, 0);
    CHECK_EQ(run_until_reply(&p, 0, 300, 1), 110);
    CHECK_EQ(run_until_reply(&p, 111, 300, 2), 210);
    CHECK_EQ(p.l2.stats.fails[CACHE_FAIL_MSHR], 99);
    CHECK_EQ(p.stats.stall_cycles, 99);
    partition_push(&p, 4, 0x6000, 0);
    partition_push(&p, 3, 0x4000, 0);
    CHECK_EQ(run_until_reply(&p, 211, 219, 3), -1);
    CHECK_EQ(p.l2.stats.fails[CACHE_FAIL_MSHR], 99 + 8);
    partition_prefill(&p, 0x4000);
    CHECK_EQ(run_until_reply(&p, 220, 400, 3), 230);
    partition_free(&p);
}
