/* test_cache.c: the cache with MSHRs on hand-worked access sequences.
 * Unless stated: 4 sets x 2 ways of 128-byte lines (set = (addr >> 7) % 4,
 * so 0x000, 0x200, 0x400 share set 0), 4 MSHRs of 4 requests. */
#include <stddef.h>

#include "../harness.h"
#include "mem/cache.h"

static cache_cfg_t small(cache_write_policy_t w)
{
    return (cache_cfg_t){ .sets = 4, .ways = 2, .line = 128, .mshrs = 4,
                          .mshr_merge = 4, .write = w };
}

static cache_outcome_t rd(cache_t *c, uint64_t a, uint64_t tag, cache_result_t *r)
{
    cache_access(c, a, 0, 0, tag, r);
    return r->outcome;
}

TEST(cache_miss_pending_hit_fill_hit)
{
    cache_t c;
    cache_cfg_t cfg = small(CACHE_WRITE_BACK);
    CHECK(cache_init(&c, &cfg) == NULL);
    cache_result_t r;
    CHECK_EQ(rd(&c, 0x10, 1, &r), CACHE_MISS);
    CHECK_EQ(r.fill_addr, 0x0);
    CHECK_EQ(rd(&c, 0x40, 2, &r), CACHE_HIT_RESERVED); /* same line in flight */
    uint64_t t;
    CHECK_EQ(cache_pop_ready(&c, &t), 0);
    cache_fill(&c, 0x0);
    CHECK(cache_pop_ready(&c, &t) && t == 1);
    CHECK(cache_pop_ready(&c, &t) && t == 2);
    CHECK_EQ(cache_pop_ready(&c, &t), 0);
    CHECK_EQ(rd(&c, 0x7c, 3, &r), CACHE_HIT);
    CHECK_EQ(c.stats.misses, 1);
    CHECK_EQ(c.stats.pending_hits, 1);
    CHECK_EQ(c.stats.hits, 1);
    cache_free(&c);
}

/* 0x000 and 0x200 fill set 0; touching 0x000 makes 0x200 the LRU way, so
 * 0x400 evicts it: 0x000 still hits, 0x200 misses. */
TEST(cache_lru_victim)
{
    cache_t c;
    cache_cfg_t cfg = small(CACHE_WRITE_BACK);
    CHECK(cache_init(&c, &cfg) == NULL);
    cache_result_t r;
    rd(&c, 0x000, 1, &r);
    cache_fill(&c, 0x000);
    rd(&c, 0x200, 2, &r);
    cache_fill(&c, 0x200);
    CHECK_EQ(rd(&c, 0x000, 3, &r), CACHE_HIT);
    CHECK_EQ(rd(&c, 0x400, 4, &r), CACHE_MISS);
    CHECK_EQ(r.writeback, 0); /* the victim was clean */
    cache_fill(&c, 0x400);
    CHECK_EQ(rd(&c, 0x000, 5, &r), CACHE_HIT);
    CHECK_EQ(rd(&c, 0x200, 6, &r), CACHE_MISS);
    CHECK_EQ(c.stats.evictions, 2);
    cache_free(&c);
}

/* Reservation failures change nothing: one MSHR busy with 0x000 refuses a
 * miss to 0x080; a merge limit of 2 refuses a third request to a pending
 * line; two pending lines in a 2-way set refuse a third line there. */
TEST(cache_reservation_failures)
{
    cache_t c;
    cache_result_t r;
    cache_cfg_t cfg = small(CACHE_WRITE_BACK);
    cfg.mshrs = 1;
    CHECK(cache_init(&c, &cfg) == NULL);
    CHECK_EQ(rd(&c, 0x000, 1, &r), CACHE_MISS);
    CHECK_EQ(rd(&c, 0x080, 2, &r), CACHE_FAIL);
    CHECK_EQ(r.cause, CACHE_FAIL_MSHR);
    CHECK_EQ(rd(&c, 0x000, 3, &r), CACHE_HIT_RESERVED); /* merging still works */
    cache_free(&c);

    cfg = small(CACHE_WRITE_BACK);
    cfg.mshr_merge = 2;
    CHECK(cache_init(&c, &cfg) == NULL);
    rd(&c, 0x000, 1, &r);
    CHECK_EQ(rd(&c, 0x004, 2, &r), CACHE_HIT_RESERVED);
    CHECK_EQ(rd(&c, 0x008, 3, &r), CACHE_FAIL);
    CHECK_EQ(r.cause, CACHE_FAIL_MERGE);
    cache_free(&c);

    cfg = small(CACHE_WRITE_BACK);
    CHECK(cache_init(&c, &cfg) == NULL);
    rd(&c, 0x000, 1, &r);
    rd(&c, 0x200, 2, &r);
    CHECK_EQ(rd(&c, 0x400, 3, &r), CACHE_FAIL);
    CHECK_EQ(r.cause, CACHE_FAIL_SET);
    cache_fill(&c, 0x000);
    uint64_t t;
    CHECK(cache_pop_ready(&c, &t) && t == 1);
    CHECK_EQ(rd(&c, 0x400, 4, &r), CACHE_MISS); /* 0x000 is now a victim */
    CHECK_EQ(c.stats.fails[CACHE_FAIL_SET], 1);
    cache_free(&c);
}

/* Write-back: a write miss allocates and fetches; the line is dirty after
 * its fill and is written back when evicted. */
TEST(cache_write_back_dirty_victim)
{
    cache_t c;
    cache_result_t r;
    cache_cfg_t cfg = small(CACHE_WRITE_BACK);
    CHECK(cache_init(&c, &cfg) == NULL);
    cache_access(&c, 0x000, 1, 0, 1, &r);
    CHECK_EQ(r.outcome, CACHE_MISS);
    CHECK_EQ(r.write_down, 0);
    cache_fill(&c, 0x000);
    rd(&c, 0x200, 2, &r);
    cache_fill(&c, 0x200);
    rd(&c, 0x200, 3, &r);           /* 0x000 becomes the LRU way */
    CHECK_EQ(rd(&c, 0x400, 4, &r), CACHE_MISS);
    CHECK_EQ(r.writeback, 1);
    CHECK_EQ(r.victim_addr, 0x000);
    CHECK_EQ(c.stats.writebacks, 1);
    cache_free(&c);
}

/* Write-through: a hit updates and goes down; a miss goes down without
 * allocating (a later read misses).  Write-evict: a hit invalidates. */
TEST(cache_write_through_and_evict)
{
    cache_t c;
    cache_result_t r;
    cache_cfg_t cfg = small(CACHE_WRITE_THROUGH);
    CHECK(cache_init(&c, &cfg) == NULL);
    rd(&c, 0x000, 1, &r);
    cache_fill(&c, 0x000);
    cache_access(&c, 0x010, 1, 0, 2, &r);
    CHECK(r.outcome == CACHE_HIT && r.write_down);
    cache_access(&c, 0x080, 1, 0, 3, &r);
    CHECK(r.outcome == CACHE_WRITE_SENT && r.write_down);
    CHECK_EQ(rd(&c, 0x080, 4, &r), CACHE_MISS);
    CHECK_EQ(rd(&c, 0x000, 5, &r), CACHE_HIT);
    cache_free(&c);

    cfg = small(CACHE_WRITE_EVICT);
    CHECK(cache_init(&c, &cfg) == NULL);
    rd(&c, 0x000, 1, &r);
    cache_fill(&c, 0x000);
    cache_access(&c, 0x000, 1, 0, 2, &r);
    CHECK(r.outcome == CACHE_WRITE_SENT && r.write_down);
    CHECK_EQ(rd(&c, 0x000, 3, &r), CACHE_MISS);
    cache_free(&c);
}

/* Fermi L1: local writes are write-back (allocate), global writes
 * write-through (no allocate); a read-only cache refuses writes. */
TEST(cache_local_wb_global_wt_and_read_only)
{
    cache_t c;
    cache_result_t r;
    cache_cfg_t cfg = small(CACHE_LOCAL_WB_GLOBAL_WT);
    CHECK(cache_init(&c, &cfg) == NULL);
    cache_access(&c, 0x000, 1, 1, 1, &r);
    CHECK_EQ(r.outcome, CACHE_MISS);
    cache_access(&c, 0x080, 1, 0, 2, &r);
    CHECK_EQ(r.outcome, CACHE_WRITE_SENT);
    cache_free(&c);
    cfg = small(CACHE_READ_ONLY);
    CHECK(cache_init(&c, &cfg) == NULL);
    cache_access(&c, 0x000, 1, 0, 1, &r);
    CHECK(r.outcome == CACHE_FAIL && r.cause == CACHE_FAIL_READ_ONLY);
    cache_free(&c);
    cfg = small(CACHE_READ_ONLY);
    cfg.line = 96;
    CHECK(cache_init(&c, &cfg) != NULL);
}

/* The owner seam (CCWS's victim tags): set 0 holds 0x000 (owner 7) and
 * 0x200 (owner 8), both filled; 0x000 is used again, so 0x200 is the LRU.
 * 0x400 (owner 9) evicts 0x200: the result names line 0x200 and owner 8.
 * A miss into a free way evicts nothing. */
TEST(cache_eviction_reports_line_and_owner)
{
    cache_t c;
    cache_cfg_t cfg = small(CACHE_WRITE_BACK);
    CHECK(cache_init(&c, &cfg) == NULL);
    cache_result_t r;
    cache_access_owned(&c, 0x000, 0, 0, 1, 7, &r);
    CHECK_EQ(r.outcome, CACHE_MISS);
    CHECK_EQ(r.evicted, 0);
    cache_access_owned(&c, 0x200, 0, 0, 2, 8, &r);
    CHECK_EQ(r.evicted, 0);
    cache_fill(&c, 0x000);
    cache_fill(&c, 0x200);
    CHECK_EQ(rd(&c, 0x000, 3, &r), CACHE_HIT);
    cache_access_owned(&c, 0x400, 0, 0, 4, 9, &r);
    CHECK_EQ(r.outcome, CACHE_MISS);
    CHECK_EQ(r.evicted, 1);
    CHECK_EQ(r.evicted_line, 0x200);
    CHECK_EQ(r.evicted_owner, 8);
    cache_free(&c);
}
