/* test_ldst_const.c: constant and parameter accesses through the LD/ST
 * unit's constant cache, cycle by cycle (core/ldst.h).  Unless stated: an
 * ideal memory of 50 cycles, a constant-cache hit of 8, a constant cache of
 * 4 sets x 2 ways of 64-byte lines with 2 MSHRs.  One lookup per cycle, one
 * per distinct address; the instruction completes when its last lookup's
 * data is there. */
#include <string.h>

#include "../harness.h"
#include "core/ldst.h"
#include "mem/mem_regions.h"

#define WINDOW mem_const_window(3)

static ldst_cfg_t cfg(int hierarchy)
{
    return (ldst_cfg_t){ .queue = 4, .prepared = 4, .inflight = 4, .smem_banks = 32,
                         .smem_latency = 24, .const_latency = 8, .mem_latency = 50,
                         .hierarchy = hierarchy, .outbox = 8,
                         .l1c_cfg = { .sets = 4, .ways = 2, .line = 64, .mshrs = 2,
                                      .mshr_merge = 4, .write = CACHE_READ_ONLY } };
}

/* A warp's access to `space` where lane l reads offset addr[l % n]. */
static exec_access_t access_of(ptx_space_t space, const uint64_t *addr, unsigned n)
{
    exec_access_t a;
    memset(&a, 0, sizeof a);
    a.mask = 0xffffffffu;
    a.bytes = 4;
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        a.space[l] = (uint8_t)space;
        a.addr[l] = addr[l % n];
    }
    return a;
}

/* Issues the access at `start` and runs the unit until it completes;
 * returns the completion cycle (0 if not done by start + 1000). */
static uint64_t run_access(ldst_t *u, const exec_access_t *a, uint64_t start)
{
    uint32_t op = ldst_prepare(u, a, WINDOW);
    ldst_accept(u, op, 77);
    for (uint64_t t = start; t < start + 1000; t++) {
        ldst_cycle(u, t);
        uint64_t tag;
        if (ldst_pop_done(u, t, &tag))
            return tag == 77 ? t : 0;
    }
    return 0;
}

/* Broadcast: every lane reads offset 16.  Cold: the lookup at 0 misses,
 * the line is back at 0 + 50.  Again at 60: a hit, done at 60 + 8. */
TEST(ldst_const_miss_then_hit)
{
    ldst_t u;
    ldst_cfg_t c = cfg(0);
    CHECK(ldst_init(&u, &c) == NULL);
    uint64_t off = 16;
    exec_access_t a = access_of(PTX_SPACE_CONST, &off, 1);
    CHECK_EQ(run_access(&u, &a, 0), 50);
    CHECK_EQ(run_access(&u, &a, 60), 68);
    CHECK_EQ(u.l1c.stats.accesses, 2);
    CHECK_EQ(u.l1c.stats.misses, 1);
    CHECK_EQ(u.l1c.stats.hits, 1);
    CHECK_EQ(u.stats.const_accesses, 2);
    ldst_free(&u);
}

/* Four distinct addresses in one cached line serialise: lookups at 100,
 * 101, 102 and 103, all hits; done at 103 + 8. */
TEST(ldst_const_distinct_addresses_serialise)
{
    ldst_t u;
    ldst_cfg_t c = cfg(0);
    CHECK(ldst_init(&u, &c) == NULL);
    uint64_t one = 0, four[4] = { 0, 4, 8, 12 };
    exec_access_t warm = access_of(PTX_SPACE_CONST, &one, 1);
    exec_access_t a = access_of(PTX_SPACE_CONST, four, 4);
    CHECK_EQ(run_access(&u, &warm, 0), 50);
    CHECK_EQ(run_access(&u, &a, 100), 111);
    CHECK_EQ(u.l1c.stats.hits, 4);
    ldst_free(&u);
}

/* Parameters live in their own part of the window: offset 0 of the
 * parameters is not offset 0 of the constant bank, so it misses again. */
TEST(ldst_param_is_apart_from_const)
{
    ldst_t u;
    ldst_cfg_t c = cfg(0);
    CHECK(ldst_init(&u, &c) == NULL);
    uint64_t off = 0;
    exec_access_t k = access_of(PTX_SPACE_CONST, &off, 1);
    exec_access_t p = access_of(PTX_SPACE_PARAM, &off, 1);
    CHECK_EQ(run_access(&u, &k, 0), 50);
    CHECK_EQ(run_access(&u, &p, 60), 110);
    CHECK_EQ(u.l1c.stats.misses, 2);
    ldst_free(&u);
}

/* Three lines, two MSHRs: lookups at 0 and 1 miss (lines back at 50 and
 * 51); the third fails (no MSHR) and retries every cycle until the fill at
 * 50 frees one, then misses at 50: its line is back at 100. */
TEST(ldst_const_mshr_reservation_failure_retries)
{
    ldst_t u;
    ldst_cfg_t c = cfg(0);
    CHECK(ldst_init(&u, &c) == NULL);
    uint64_t three[3] = { 0, 64, 128 };
    exec_access_t a = access_of(PTX_SPACE_CONST, three, 3);
    CHECK_EQ(run_access(&u, &a, 0), 100);
    CHECK_EQ(u.l1c.stats.misses, 3);
    CHECK_EQ(u.l1c.stats.fails[CACHE_FAIL_MSHR], 48); /* cycles 2..49 */
    ldst_free(&u);
}

/* With the hierarchy, a miss leaves through the outbox as a constant-line
 * fill at the window; its reply completes the instruction that cycle. */
TEST(ldst_const_miss_goes_out_and_returns)
{
    ldst_t u;
    ldst_cfg_t c = cfg(1);
    CHECK(ldst_init(&u, &c) == NULL);
    uint64_t off = 72; /* line 64 of the bank */
    exec_access_t a = access_of(PTX_SPACE_CONST, &off, 1);
    uint32_t op = ldst_prepare(&u, &a, WINDOW);
    ldst_accept(&u, op, 5);
    ldst_cycle(&u, 0);
    ldst_out_t o;
    CHECK(ldst_out_peek(&u, &o));
    CHECK_EQ(o.kind, MEM_FILL);
    CHECK_EQ(o.space, MEM_CONST);
    CHECK_EQ(o.addr, WINDOW + 64);
    CHECK_EQ(o.bytes, 64);
    ldst_out_pop(&u);
    uint64_t tag;
    for (uint64_t t = 1; t < 30; t++) {
        ldst_cycle(&u, t);
        CHECK(!ldst_pop_done(&u, t, &tag));
    }
    ldst_const_line_arrived(&u, WINDOW + 64, 30);
    CHECK(ldst_pop_done(&u, 30, &tag));
    CHECK_EQ(tag, 5);
    ldst_free(&u);
}
