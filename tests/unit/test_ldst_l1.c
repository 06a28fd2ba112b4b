/* test_ldst_l1.c: global accesses through the LD/ST unit's L1 data cache
 * when the L1 refuses them (core/ldst.h), cycle by cycle.  An ideal memory
 * of 50 cycles below; an L1 of 4 sets x 2 ways of 128-byte lines with one
 * MSHR, so a second line missing while the first is fetched is a
 * reservation failure (CACHE_FAIL_MSHR) until the first line's fill. */
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

/* A global load where lanes 0-15 read line `a` and lanes 16-31 line `b`
 * (two transactions, a's first). */
static exec_access_t two_lines(uint64_t a, uint64_t b)
{
    exec_access_t x;
    memset(&x, 0, sizeof x);
    x.mask = 0xffffffffu;
    x.bytes = 4;
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        x.space[l] = (uint8_t)PTX_SPACE_GLOBAL;
        x.addr[l] = (l < 16 ? a : b) + 4 * (l % 16);
    }
    return x;
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
    exec_access_t a = two_lines(0x1000, 0x2000);
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
