/* test_dram.c: the DRAM channel's command timing and scheduling, cycle by
 * cycle.  Timing: tCL 5, tWL 3, tRCD 4, tRAS 10, tRP 3, tRC 13, tRRD 2,
 * tCCD 2, tWTR 3, tRTW 4, bursts of 2 cycles; 4 banks.  Requests name
 * their bank and row (mem/addrmap.h decodes addresses). */
#include <stddef.h>

#include "../harness.h"
#include "mem/dram.h"

static dram_cfg_t cfg(int fifo)
{
    return (dram_cfg_t){ .banks = 4, .burst_cycles = 2,
                         .tCL = 5, .tWL = 3, .tRCD = 4, .tRAS = 10, .tRP = 3,
                         .tRC = 13, .tRRD = 2, .tCCD = 2, .tWTR = 3, .tRTW = 4,
                         .queue = 8, .fifo = fifo };
}

static dram_trace_t tr[64];

static void run(dram_t *d, uint64_t cycles)
{
    d->trace = tr;
    d->trace_cap = 64;
    for (uint64_t t = 0; t < cycles; t++)
        dram_cycle(d, t);
}

#define CMD(i, c, cyc, b, r)                                                 \
    CHECK_MSG(tr[i].cmd == (c) && tr[i].cycle == (cyc) && tr[i].bank == (b) && \
              tr[i].row == (r), "command %d: %d at %llu bank %u row %u", (i),  \
              tr[i].cmd, (unsigned long long)tr[i].cycle, tr[i].bank, tr[i].row)

/* A closed bank: ACT at 0, RD at tRCD = 4, data 9..10, done at 11.  A
 * second read of the same row is a row hit: RD at 4 + tCCD = 6, whose data
 * (11) follows the first burst; done at 13. */
TEST(dram_row_miss_then_hit)
{
    dram_t d;
    dram_cfg_t c = cfg(0);
    CHECK(dram_init(&d, &c) == NULL);
    dram_push(&d, 1, 0, 0, 0);
    dram_push(&d, 2, 0, 0, 0);
    run(&d, 20);
    CHECK_EQ(d.trace_len, 3);
    CMD(0, DRAM_ACT, 0, 0, 0);
    CMD(1, DRAM_RD, 4, 0, 0);
    CMD(2, DRAM_RD, 6, 0, 0);
    uint32_t t;
    CHECK_EQ(dram_pop_done(&d, 10, &t), 0);
    CHECK(dram_pop_done(&d, 11, &t) && t == 1);
    CHECK_EQ(dram_pop_done(&d, 12, &t), 0);
    CHECK(dram_pop_done(&d, 13, &t) && t == 2);
    CHECK_EQ(d.stats.row_misses, 1);
    CHECK_EQ(d.stats.row_hits, 1);
    dram_free(&d);
}

/* Another row of the same bank: PRE waits for tRAS (10) and the end of the
 * first burst (11): PRE at 11; ACT at max(11 + tRP, 0 + tRC) = 14; RD at
 * 14 + tRCD = 18. */
TEST(dram_row_conflict_tras_trp_trc)
{
    dram_t d;
    dram_cfg_t c = cfg(0);
    CHECK(dram_init(&d, &c) == NULL);
    dram_push(&d, 1, 0, 0, 0);
    dram_push(&d, 2, 0, 1, 0);
    run(&d, 30);
    CHECK_EQ(d.trace_len, 5);
    CMD(2, DRAM_PRE, 11, 0, 1);
    CMD(3, DRAM_ACT, 14, 0, 1);
    CMD(4, DRAM_RD, 18, 0, 1);
    dram_free(&d);
}

/* Two banks: the second ACT waits tRRD (at 2); its RD at max(2 + tRCD,
 * 4 + tCCD) = 6. */
TEST(dram_trrd_and_tccd)
{
    dram_t d;
    dram_cfg_t c = cfg(0);
    CHECK(dram_init(&d, &c) == NULL);
    dram_push(&d, 1, 0, 0, 0);
    dram_push(&d, 2, 1, 0, 0);
    run(&d, 20);
    CMD(0, DRAM_ACT, 0, 0, 0);
    CMD(1, DRAM_ACT, 2, 1, 0);
    CMD(2, DRAM_RD, 4, 0, 0);
    CMD(3, DRAM_RD, 6, 1, 0);
    dram_free(&d);
}

/* Write then read: write data 7..8 ends at 9, so a read may issue at
 * 9 + tWTR = 12.  Read then write: a write may issue at 4 + tRTW = 8, when
 * its data (8 + tWL = 11) also follows the read's burst. */
TEST(dram_twtr_and_trtw)
{
    dram_t d;
    dram_cfg_t c = cfg(0);
    CHECK(dram_init(&d, &c) == NULL);
    dram_push(&d, 1, 0, 0, 1);
    dram_push(&d, 2, 0, 0, 0);
    run(&d, 20);
    CMD(1, DRAM_WR, 4, 0, 0);
    CMD(2, DRAM_RD, 12, 0, 0);
    dram_free(&d);
    CHECK(dram_init(&d, &c) == NULL);
    dram_push(&d, 1, 0, 0, 0);
    dram_push(&d, 2, 0, 0, 1);
    run(&d, 20);
    CMD(1, DRAM_RD, 4, 0, 0);
    CMD(2, DRAM_WR, 8, 0, 0);
    dram_free(&d);
}

/* A (row 0), B (row 1), C (row 0) to bank 0.  FR-FCFS serves the younger
 * row hit C before B: ACT, RD A, RD C, then PRE (at C's burst end 13), ACT
 * (16), RD B (20).  FIFO serves B first: ACT, RD A, PRE, ACT, RD B, PRE,
 * ACT, RD C. */
TEST(dram_frfcfs_vs_fifo)
{
    dram_t d;
    dram_cfg_t c = cfg(0);
    CHECK(dram_init(&d, &c) == NULL);
    dram_push(&d, 1, 0, 0, 0);
    dram_push(&d, 2, 0, 1, 0);
    dram_push(&d, 3, 0, 0, 0);
    run(&d, 40);
    CHECK_EQ(d.trace_len, 6);
    CMD(1, DRAM_RD, 4, 0, 0);
    CMD(2, DRAM_RD, 6, 0, 0);
    CMD(3, DRAM_PRE, 13, 0, 1);
    CMD(4, DRAM_ACT, 16, 0, 1);
    CMD(5, DRAM_RD, 20, 0, 1);
    dram_free(&d);
    c = cfg(1);
    CHECK(dram_init(&d, &c) == NULL);
    dram_push(&d, 1, 0, 0, 0);
    dram_push(&d, 2, 0, 1, 0);
    dram_push(&d, 3, 0, 0, 0);
    run(&d, 60);
    CHECK_EQ(d.trace_len, 8);
    static const dram_cmd_t want[8] = { DRAM_ACT, DRAM_RD, DRAM_PRE, DRAM_ACT,
                                        DRAM_RD, DRAM_PRE, DRAM_ACT, DRAM_RD };
    for (int i = 0; i < 8; i++)
        CHECK_EQ(tr[i].cmd, want[i]);
    CHECK_EQ(tr[4].row, 1);
    CHECK_EQ(tr[7].row, 0);
    dram_free(&d);
}

/* Row hits back to back keep the data bus busy every cycle after the
 * first access, and never more than every cycle; the queue bound holds. */
TEST(dram_streaming_bus_bound)
{
    dram_t d;
    dram_cfg_t c = cfg(0);
    CHECK(dram_init(&d, &c) == NULL);
    uint64_t t = 0, done = 0;
    uint32_t next = 0, tag;
    while (done < 200) {
        while (next < 200 && dram_can_accept(&d))
            dram_push(&d, next, 0, 0, 0), next++; /* one row */
        dram_cycle(&d, t);
        while (dram_pop_done(&d, t, &tag))
            done++;
        t++;
    }
    CHECK(d.stats.bus_busy <= t);
    CHECK_EQ(d.stats.bus_busy, 400);
    /* 400 bus cycles in t cycles, with the first 9 spent opening the row */
    CHECK_MSG(t < 400 + 20, "took %llu cycles", (unsigned long long)t);
    dram_free(&d);
}

/* A request that arrives while the channel sleeps goes at its own time,
 * not at the wake-up the queue had before it.  Bank 0: ACT row 0 at 0, RD
 * at 4 (data 9..10); row 1's PRE must wait for 11 (tRAS 10, end of burst
 * 11), so the channel sleeps from cycle 5.  At 7 a read of closed bank 1
 * arrives: ACT at 7 (tRRD from 0 long past); its RD at 7 + tRCD = 11 (its
 * data at 16 follows the first burst), a row hit that goes before bank 0's
 * PRE, which follows at 12; ACT row 1 at 12 + tRP = 15 and RD at
 * 15 + tRCD = 19. */
TEST(dram_wakes_for_a_new_request)
{
    dram_t d;
    dram_cfg_t c = cfg(0);
    CHECK(dram_init(&d, &c) == NULL);
    d.trace = tr;
    d.trace_cap = 64;
    dram_push(&d, 1, 0, 0, 0);
    dram_push(&d, 2, 0, 1, 0);
    for (uint64_t t = 0; t < 30; t++) {
        if (t == 7)
            dram_push(&d, 3, 1, 2, 0);
        dram_cycle(&d, t);
    }
    CHECK_EQ(d.trace_len, 7);
    CMD(0, DRAM_ACT, 0, 0, 0);
    CMD(1, DRAM_RD, 4, 0, 0);
    CMD(2, DRAM_ACT, 7, 1, 2);
    CMD(3, DRAM_RD, 11, 1, 2);
    CMD(4, DRAM_PRE, 12, 0, 1);
    CMD(5, DRAM_ACT, 15, 0, 1);
    CMD(6, DRAM_RD, 19, 0, 1);
    dram_free(&d);
}
