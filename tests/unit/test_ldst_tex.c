/* test_ldst_tex.c: texture fetches through the LD/ST unit's texture cache,
 * cycle by cycle (core/ldst.h).  Unless stated: an ideal memory of 50
 * cycles, a texture-cache hit of 20, a texture cache of 2 sets x 2 ways of
 * 128-byte lines with 4 MSHRs.  One lookup per cycle, one per distinct line
 * of the texels the lanes read; the fetch completes when its last line's
 * data is there. */
#include <string.h>

#include "../harness.h"
#include "core/ldst.h"

static ldst_cfg_t cfg(int hierarchy)
{
    return (ldst_cfg_t){ .queue = 4, .prepared = 4, .inflight = 4, .smem_banks = 32,
                         .smem_latency = 24, .const_latency = 8, .mem_latency = 50,
                         .hierarchy = hierarchy, .outbox = 8,
                         .l1c_cfg = { .sets = 4, .ways = 2, .line = 64, .mshrs = 2,
                                      .mshr_merge = 4, .write = CACHE_READ_ONLY },
                         .tex_latency = 20,
                         .l1t_cfg = { .sets = 2, .ways = 2, .line = 128, .mshrs = 4,
                                      .mshr_merge = 4, .write = CACHE_READ_ONLY } };
}

/* A fetch whose lanes read the texels at taps[0..n) (lane order). */
static exec_access_t fetch_of(const uint64_t *taps, unsigned n)
{
    static exec_access_t a;
    memset(&a, 0, sizeof a);
    a.mask = 0xffffffffu;
    a.tex = 1;
    for (unsigned k = 0; k < n; k++)
        a.taps[a.ntaps++] = taps[k];
    return a;
}

static uint64_t run_access(ldst_t *u, const exec_access_t *a, uint64_t start)
{
    uint32_t op = ldst_prepare(u, a, 0);
    ldst_accept(u, op, 77);
    for (uint64_t t = start; t < start + 1000; t++) {
        ldst_cycle(u, t);
        uint64_t tag;
        if (ldst_pop_done(u, t, &tag))
            return tag == 77 ? t : 0;
    }
    return 0;
}

/* Texels in two lines (0x1000 and 0x1080), several per line: lookups at 0
 * and 1 miss, the lines arrive at 50 and 51.  Again at 100: hits at 100
 * and 101, done at 101 + 20. */
TEST(ldst_tex_distinct_lines_miss_then_hit)
{
    ldst_t u;
    ldst_cfg_t c = cfg(0);
    CHECK(ldst_init(&u, &c) == NULL);
    const uint64_t taps[6] = { 0x1000, 0x1010, 0x1080, 0x1004, 0x10fc, 0x1000 };
    exec_access_t a = fetch_of(taps, 6);
    CHECK_EQ(run_access(&u, &a, 0), 51);
    CHECK_EQ(run_access(&u, &a, 100), 121);
    CHECK_EQ(u.l1t.stats.accesses, 4);
    CHECK_EQ(u.l1t.stats.misses, 2);
    CHECK_EQ(u.l1t.stats.hits, 2);
    CHECK_EQ(u.stats.tex_accesses, 2);
    CHECK_EQ(u.l1c.stats.accesses, 0); /* not the constant cache */
    simt_stats_t st;
    memset(&st, 0, sizeof st);
    ldst_export_stats(&u, &st);
    CHECK_EQ(st.tex_accesses, 2);
    CHECK_EQ(st.l1t_accesses, 4);
    CHECK_EQ(st.l1t_misses, 2);
    ldst_free(&u);
}

/* Three lines of one set (2 sets of 128 B: lines 0x0, 0x100, 0x200) in a
 * 2-way cache: the third evicts the first, which misses again. */
TEST(ldst_tex_lru_eviction)
{
    ldst_t u;
    ldst_cfg_t c = cfg(0);
    CHECK(ldst_init(&u, &c) == NULL);
    const uint64_t l0 = 0x0, l1 = 0x100, l2 = 0x200;
    exec_access_t a = fetch_of(&l0, 1), b = fetch_of(&l1, 1);
    CHECK_EQ(run_access(&u, &a, 0), 50);
    b = fetch_of(&l1, 1);
    CHECK_EQ(run_access(&u, &b, 100), 150);
    b = fetch_of(&l2, 1);
    CHECK_EQ(run_access(&u, &b, 200), 250);
    a = fetch_of(&l0, 1);
    CHECK_EQ(run_access(&u, &a, 300), 350);
    CHECK_EQ(u.l1t.stats.misses, 4);
    ldst_free(&u);
}

/* With the hierarchy, a miss leaves through the outbox as a texture-line
 * fill; its reply completes the fetch that cycle. */
TEST(ldst_tex_miss_goes_out_and_returns)
{
    ldst_t u;
    ldst_cfg_t c = cfg(1);
    CHECK(ldst_init(&u, &c) == NULL);
    const uint64_t tap = 0x100000a4;
    exec_access_t a = fetch_of(&tap, 1);
    uint32_t op = ldst_prepare(&u, &a, 0);
    ldst_accept(&u, op, 5);
    ldst_cycle(&u, 0);
    ldst_out_t o;
    CHECK(ldst_out_peek(&u, &o));
    CHECK_EQ(o.kind, MEM_FILL);
    CHECK_EQ(o.space, MEM_TEX);
    CHECK_EQ(o.addr, 0x10000080);
    CHECK_EQ(o.bytes, 128);
    ldst_out_pop(&u);
    uint64_t tag;
    for (uint64_t t = 1; t < 30; t++) {
        ldst_cycle(&u, t);
        CHECK(!ldst_pop_done(&u, t, &tag));
    }
    ldst_tex_line_arrived(&u, 0x10000080, 30);
    CHECK(ldst_pop_done(&u, 30, &tag));
    CHECK_EQ(tag, 5);
    ldst_free(&u);
}

/* An LD/ST unit without a texture cache (0 sets) takes a fetch in one
 * cycle and looks nothing up. */
TEST(ldst_tex_without_cache_takes_one_cycle)
{
    ldst_t u;
    ldst_cfg_t c = cfg(0);
    c.l1t_cfg.sets = 0;
    CHECK(ldst_init(&u, &c) == NULL);
    const uint64_t tap = 0x2000;
    exec_access_t a = fetch_of(&tap, 1);
    CHECK_EQ(run_access(&u, &a, 10), 11);
    CHECK_EQ(u.stats.tex_accesses, 1);
    ldst_free(&u);
}
