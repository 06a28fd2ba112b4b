/* test_ldst_l1.c: global accesses through the LD/ST unit's L1 data cache
 * when the L1 refuses them (core/ldst.h), cycle by cycle.  An ideal memory
 * of 50 cycles below; an L1 of 4 sets x 2 ways of 128-byte lines (set =
 * line number mod 4) with one MSHR, so a second line missing while the
 * first is fetched is a reservation failure (CACHE_FAIL_MSHR) until the
 * first line's fill; the later tests give it more MSHRs, so that a full
 * set (CACHE_FAIL_SET) or a line's merge limit (CACHE_FAIL_MERGE) refuses
 * instead, and check which fills end such a refusal
 * (ldst_fill_unblocks). */
#include <string.h>

#include "../harness.h"
#include "core/ldst.h"

static ldst_cfg_t cfg(void)
{
    return (ldst_cfg_t){ .queue = 4, .prepared = 4, .inflight = 4, .smem_banks = 32,
                         .smem_latency = 24, .const_latency = 8, .mem_latency = 50,
                         .l1 = 1, .l1_latency = 20,
                         .l1c_cfg = { .sets = 4, .ways = 2, .line = 64, .mshrs = 2,
                                      .mshr_merge = 4, .write = CACHE_READ_ONLY },
                         .l1_cfg = { .sets = 4, .ways = 2, .line = 128, .mshrs = 1,
                                     .mshr_merge = 4, .write = CACHE_LOCAL_WB_GLOBAL_WT } };
}

/* A global load whose lanes read lines ls[0..n) in turn (lane l reads
 * ls[l * n / 32]): n transactions, in that order. */
static exec_access_t lines(const uint64_t *ls, unsigned n)
{
    exec_access_t x;
    memset(&x, 0, sizeof x);
    x.mask = 0xffffffffu;
    x.bytes = 4;
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        x.space[l] = (uint8_t)PTX_SPACE_GLOBAL;
        x.addr[l] = ls[l * n / WARP_SIZE] + 4 * (l % 16);
    }
    return x;
}

/* Queues one load per entry of `loads` (tags 0, 1, ...), steps the unit
 * from cycle 0 and records each load's completion cycle in done[tag];
 * at cycle `probe`, after the unit's cycle, asks ldst_fill_unblocks of
 * probe_lines[0..np) into unblocks[]. */
static void run_loads(ldst_t *u, const exec_access_t *loads, unsigned n, uint64_t *done,
                      uint64_t probe, const uint64_t *probe_lines, unsigned np,
                      int *unblocks)
{
    for (unsigned i = 0; i < n; i++) {
        ldst_accept(u, ldst_prepare(u, &loads[i], 0), i);
        done[i] = 0;
    }
    unsigned left = n;
    for (uint64_t t = 0; t < 1000 && left; t++) {
        ldst_cycle(u, t);
        uint64_t tag;
        while (ldst_pop_done(u, t, &tag)) {
            done[tag] = t;
            left--;
        }
        for (unsigned k = 0; t == probe && k < np; k++)
            unblocks[k] = ldst_fill_unblocks(u, probe_lines[k]);
    }
}

/* Line 0x1000 misses at cycle 0 (its fill is back at 50); line 0x2000
 * needs the only MSHR: refused at cycles 1..49 (49 failures, 49 stall
 * cycles, no access counted); at 50 the fill frees the MSHR before the
 * unit's turn, so 0x2000 misses then and is back at 100, when the load
 * completes.  A retry counted without a lookup must still see the fill. */
TEST(ldst_l1_refused_until_a_fill)
{
    ldst_t u;
    ldst_cfg_t c = cfg();
    CHECK(ldst_init(&u, &c) == NULL);
    static const uint64_t ls[] = { 0x1000, 0x2000 };
    exec_access_t a = lines(ls, 2);
    uint32_t op = ldst_prepare(&u, &a, 0);
    ldst_accept(&u, op, 77);
    uint64_t done = 0, tag = 0;
    for (uint64_t t = 0; t < 1000 && !done; t++) {
        ldst_cycle(&u, t);
        if (ldst_pop_done(&u, t, &tag))
            done = t;
    }
    CHECK_EQ(done, 100);
    CHECK_EQ(tag, 77);
    CHECK_EQ(u.l1.stats.fails[CACHE_FAIL_MSHR], 49);
    CHECK_EQ(u.stats.l1_stall_cycles, 49);
    CHECK_EQ(u.l1.stats.misses, 2);
    CHECK_EQ(u.l1.stats.accesses, 2);
    ldst_free(&u);
}

/* A full set.  Four MSHRs.  Load 0 misses on line 0x080 (set 1) at cycle
 * 0, back at 50; load 1's lines 0x000, 0x200 and 0x400 are all in set 0:
 * 0x000 and 0x200 miss at 1 and 2 (back at 51 and 52) and reserve both
 * ways, so 0x400 is refused for the set at 3.  The fill of 0x080 at 50
 * is in set 1 and leaves the refusal (a retry would find set 0 as full):
 * failures at 3..50, 48 of them; at 51 the fill of 0x000 ends it, 0x400
 * evicts 0x000 and misses, back at 101, when load 1 completes.  At cycle
 * 49, set 1's line would not end the refusal, and any line of set 0
 * would. */
TEST(ldst_l1_set_refusal_ends_with_a_fill_of_its_set)
{
    ldst_t u;
    ldst_cfg_t c = cfg();
    c.l1_cfg.mshrs = 4;
    CHECK(ldst_init(&u, &c) == NULL);
    static const uint64_t l0[] = { 0x080 }, l1[] = { 0x000, 0x200, 0x400 };
    exec_access_t loads[2] = { lines(l0, 1), lines(l1, 3) };
    static const uint64_t probe[] = { 0x080, 0x000, 0x600 };
    uint64_t done[2];
    int unblocks[3] = { -1, -1, -1 };
    run_loads(&u, loads, 2, done, 49, probe, 3, unblocks);
    CHECK_EQ(done[0], 50);
    CHECK_EQ(done[1], 101);
    CHECK_EQ(u.l1.stats.fails[CACHE_FAIL_SET], 48);
    CHECK_EQ(u.stats.l1_stall_cycles, 48);
    CHECK_EQ(u.l1.stats.misses, 4);
    CHECK_EQ(u.l1.stats.evictions, 1);
    CHECK_EQ(unblocks[0], 0);
    CHECK_EQ(unblocks[1], 1);
    CHECK_EQ(unblocks[2], 1);
    ldst_free(&u);
}

/* A line's merge limit.  Four MSHRs of one request each.  Load 0 misses
 * on 0x080 at 0 (back at 50), load 1 on 0x000 at 1 (back at 51); load 2
 * reads 0x000 again at 2, which would join the pending fill but finds
 * its MSHR full: refused for the merge limit at 2..50 (49 failures; the
 * fill of 0x080 at 50 leaves it), until 0x000 arrives at 51 and load 2
 * hits, complete 20 cycles later at 71.  At cycle 49 only 0x000 itself
 * would end the refusal, not another line of its set (0x200). */
TEST(ldst_l1_merge_refusal_ends_with_its_line)
{
    ldst_t u;
    ldst_cfg_t c = cfg();
    c.l1_cfg.mshrs = 4;
    c.l1_cfg.mshr_merge = 1;
    CHECK(ldst_init(&u, &c) == NULL);
    static const uint64_t l0[] = { 0x080 }, l1[] = { 0x000 };
    exec_access_t loads[3] = { lines(l0, 1), lines(l1, 1), lines(l1, 1) };
    static const uint64_t probe[] = { 0x080, 0x000, 0x200 };
    uint64_t done[3];
    int unblocks[3] = { -1, -1, -1 };
    run_loads(&u, loads, 3, done, 49, probe, 3, unblocks);
    CHECK_EQ(done[0], 50);
    CHECK_EQ(done[1], 51);
    CHECK_EQ(done[2], 71);
    CHECK_EQ(u.l1.stats.fails[CACHE_FAIL_MERGE], 49);
    CHECK_EQ(u.stats.l1_stall_cycles, 49);
    CHECK_EQ(u.l1.stats.misses, 2);
    CHECK_EQ(u.l1.stats.hits, 1);
    CHECK_EQ(unblocks[0], 0);
    CHECK_EQ(unblocks[1], 1);
    CHECK_EQ(unblocks[2], 0);
    ldst_free(&u);
}
