/* test_dram.c: the DRAM channel's command timing and scheduling, cycle by
 * cycle.  Timing: tCL 5, tWL 3, tRCD 4, tRAS 10, tRP 3, tRC 13, tRRD 2,
 * tCCD 2, tWTR 3, tRTW 4, bursts of 2 cycles; 4 banks.  Requests name
 * their bank and row (mem/addrmap.h decodes addresses). */
#include <stddef.h>
#include <stdlib.h>

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

/* A reference channel written from dram.h's description alone: each cycle
 * it looks at every request, the oldest row hit whose column command may
 * go, else the oldest request whose bank can make progress (PRE when
 * another row is open and, under FR-FCFS, no queued request hits it; ACT
 * when the bank is closed).  The channel under test keeps counts, wake-ups
 * and per-bank times instead; the two must issue the same commands at the
 * same cycles. */
typedef struct ref_req {
    uint32_t tag, bank, row, burst;
    int write, opened;
} ref_req_t;

typedef struct ref_chan {
    dram_cfg_t c;
    ref_req_t q[160];
    unsigned nq;
    struct { int64_t open_row; uint64_t pre_ok, act_ok, col_ok; } bank[128];
    uint64_t act_ok, col_ok, rd_ok, wr_ok, bus_free;
    dram_trace_t tr[4096];
    unsigned ntr;
    uint64_t row_hits, row_misses;
} ref_chan_t;

static uint64_t ref_max(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static void ref_cmd(ref_chan_t *r, uint64_t now, dram_cmd_t c, uint32_t bank, uint32_t row)
{
    if (r->ntr < 4096)
        r->tr[r->ntr++] = (dram_trace_t){ now, (uint8_t)c, bank, row };
}

/* One cycle; a completed column command's (tag, end) in *tag, *end. */
static int ref_cycle(ref_chan_t *r, uint64_t now, uint32_t *tag, uint64_t *end)
{
    unsigned n = r->c.fifo ? (r->nq > 0) : r->nq;
    for (unsigned i = 0; i < n; i++) {
        ref_req_t *q = &r->q[i];
        unsigned lat = q->write ? r->c.tWL : r->c.tCL;
        if (r->bank[q->bank].open_row != (int64_t)q->row || now < r->bank[q->bank].col_ok ||
            now < r->col_ok || now < (q->write ? r->wr_ok : r->rd_ok) ||
            now + lat < r->bus_free)
            continue;
        *end = now + lat + q->burst;
        *tag = q->tag;
        r->bus_free = *end;
        r->col_ok = now + r->c.tCCD;
        if (q->write)
            r->rd_ok = ref_max(r->rd_ok, *end + r->c.tWTR);
        else
            r->wr_ok = ref_max(r->wr_ok, now + r->c.tRTW);
        r->bank[q->bank].pre_ok = ref_max(r->bank[q->bank].pre_ok, *end);
        *(q->opened ? &r->row_misses : &r->row_hits) += 1;
        ref_cmd(r, now, q->write ? DRAM_WR : DRAM_RD, q->bank, q->row);
        for (unsigned k = i + 1; k < r->nq; k++)
            r->q[k - 1] = r->q[k];
        r->nq--;
        return 1;
    }
    for (unsigned i = 0; i < n; i++) {
        ref_req_t *q = &r->q[i];
        int64_t open = r->bank[q->bank].open_row;
        if (open == (int64_t)q->row)
            continue;
        if (open >= 0) {
            int held = 0;
            for (unsigned k = 0; !r->c.fifo && k < r->nq; k++)
                held |= r->q[k].bank == q->bank && r->q[k].row == (uint64_t)open;
            if (held || now < r->bank[q->bank].pre_ok)
                continue;
            r->bank[q->bank].open_row = -1;
            r->bank[q->bank].act_ok = ref_max(r->bank[q->bank].act_ok, now + r->c.tRP);
            q->opened = 1;
            ref_cmd(r, now, DRAM_PRE, q->bank, q->row);
            return 0;
        }
        if (now < r->bank[q->bank].act_ok || now < r->act_ok)
            continue;
        r->bank[q->bank].open_row = q->row;
        r->bank[q->bank].col_ok = now + r->c.tRCD;
        r->bank[q->bank].pre_ok = now + r->c.tRAS;
        r->bank[q->bank].act_ok = now + r->c.tRC;
        r->act_ok = now + r->c.tRRD;
        q->opened = 1;
        ref_cmd(r, now, DRAM_ACT, q->bank, q->row);
        return 0;
    }
    return 0;
}

/* Random traffic (a few rows per bank, reads and writes, part bursts) into
 * the channel and the reference at once, a request in one cycle of
 * `every` on average; the channel is stepped only in the cycles a caller
 * would step it (a new request, or dram_next_event reached), so a wake-up
 * that comes too late shows as a late command. */
static void dram_against_reference(unsigned banks, unsigned queue, int fifo, uint32_t seed,
                                   unsigned every)
{
    dram_cfg_t c = cfg(fifo);
    c.banks = banks;
    c.queue = queue;
    dram_t d;
    CHECK(dram_init(&d, &c) == NULL);
    static ref_chan_t r;
    r = (ref_chan_t){ .c = c };
    for (unsigned b = 0; b < banks; b++)
        r.bank[b].open_row = -1;
    dram_trace_t *tr_d = calloc(4096, sizeof *tr_d);
    d.trace = tr_d;
    d.trace_cap = 4096;
    uint32_t x = seed, next_tag = 0, tag;
    uint64_t done_d = 0, end;
    dram_done_t rdone[160]; /* the reference's completions, in issue order */
    unsigned nrdone = 0;
    for (uint64_t t = 0; t < 8000; t++) {
        x = x * 1664525u + 1013904223u;
        int pushed = 0;
        if ((x >> 8) % every == 0 && t < 3000 && dram_can_accept(&d)) {
            uint32_t bank = (x >> 12) % banks, row = (x >> 20) % 3;
            int write = (x >> 24) % 4 == 0;
            unsigned burst = 1 + (x >> 27) % c.burst_cycles;
            dram_push_sized(&d, next_tag, bank, row, write, burst);
            r.q[r.nq++] = (ref_req_t){ next_tag, bank, row, burst, write, 0 };
            next_tag++;
            pushed = 1;
        }
        if (pushed || dram_next_event(&d) <= t)
            dram_cycle(&d, t);
        if (ref_cycle(&r, t, &tag, &end))
            rdone[nrdone++] = (dram_done_t){ tag, end };
        while (dram_pop_done(&d, t, &tag)) {
            CHECK_MSG(nrdone > 0, "seed %u: completion of %u unmatched", seed, tag);
            CHECK_MSG(nrdone > 0 && rdone[0].tag == tag && rdone[0].at == t,
                      "seed %u: tag %u at %llu",
                      seed, tag, (unsigned long long)t);
            for (unsigned k = 1; k < nrdone; k++)
                rdone[k - 1] = rdone[k];
            nrdone--;
            done_d++;
        }
    }
    CHECK_MSG(d.trace_len == r.ntr, "seed %u, %u banks, fifo %d: %u commands, reference %u",
              seed, banks, fifo, d.trace_len, r.ntr);
    unsigned first_diff = d.trace_len;
    for (unsigned i = 0; i < d.trace_len && i < r.ntr; i++)
        if (tr_d[i].cycle != r.tr[i].cycle || tr_d[i].cmd != r.tr[i].cmd ||
            tr_d[i].bank != r.tr[i].bank || tr_d[i].row != r.tr[i].row) {
            first_diff = i;
            break;
        }
    CHECK_MSG(first_diff == d.trace_len, "seed %u, %u banks, fifo %d: command %u differs",
              seed, banks, fifo, first_diff);
    CHECK(d.trace_len > 1000); /* the traffic kept the channel busy */
    CHECK_EQ(d.stats.row_hits, r.row_hits);
    CHECK_EQ(d.stats.row_misses, r.row_misses);
    CHECK_EQ(done_d, next_tag); /* everything completed */
    free(tr_d);
    dram_free(&d);
}

TEST(dram_matches_a_per_request_reference)
{
    for (uint32_t seed = 1; seed <= 6; seed++) {
        dram_against_reference(4, 8, 0, seed, 3);
        dram_against_reference(16, 32, 0, seed, 3);
        dram_against_reference(100, 32, 0, seed, 3); /* banks beyond one mask word */
        dram_against_reference(16, 32, 1, seed, 3);
        /* a request every cycle: a queue of 150 fills, and its row hits
         * (dram.h hitq) span three words */
        dram_against_reference(4, 150, 0, seed, 1);
        dram_against_reference(4, 150, 1, seed, 1);
    }
}
