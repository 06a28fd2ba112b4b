/* test_sched.c: the exact issue order of each warp-scheduler policy on
 * crafted ready sets (every expected sequence is worked out by hand in the
 * comment above it from the rules in core/sched.h). */
#include <string.h>

#include "../harness.h"
#include "core/sched.h"

enum { N = 4 };

/* Runs `cycles` cycles; ready[c] is the ready mask of cycle c (bit i: slot
 * i), wait[c] the long-wait mask; every pick issues.  Writes the picks. */
static void run(sched_t *s, const uint64_t age[N], const unsigned *ready,
                const unsigned *wait, unsigned cycles, int *picks)
{
    for (unsigned c = 0; c < cycles; c++) {
        sched_slot_t slot[N];
        for (unsigned i = 0; i < N; i++)
            slot[i] = (sched_slot_t){ .valid = 1, .ready = ready[c] >> i & 1,
                                      .long_wait = wait ? wait[c] >> i & 1 : 0,
                                      .age = age[i] };
        picks[c] = sched_pick(s, slot);
        if (picks[c] >= 0)
            sched_issued(s, picks[c]);
    }
}

#define CHECK_PICKS(got, want, n)                                          \
    do {                                                                   \
        for (unsigned k_ = 0; k_ < (n); k_++)                              \
            CHECK_MSG((got)[k_] == (want)[k_], "cycle %u: picked %d, want %d", \
                      k_, (got)[k_], (want)[k_]);                          \
    } while (0)

static const uint64_t young_first[N] = { 30, 20, 10, 0 }; /* slot 3 oldest */

/* All ready: 0 1 2 3 0.  Slot 1 never ready: 0 2 3 0 2.  Nothing ready:
 * -1, and the rotation resumes after the last issuer (0): 2. */
TEST(sched_lrr_order)
{
    sched_t s;
    int p[6];
    static const unsigned all[5] = { 15, 15, 15, 15, 15 };
    CHECK_EQ(sched_init(&s, SCHED_LRR, N, 0), 0);
    run(&s, young_first, all, NULL, 5, p);
    CHECK_PICKS(p, ((int[]){ 0, 1, 2, 3, 0 }), 5);
    sched_free(&s);
    static const unsigned no1[6] = { 13, 13, 13, 13, 0, 13 };
    CHECK_EQ(sched_init(&s, SCHED_LRR, N, 0), 0);
    run(&s, young_first, no1, NULL, 6, p);
    CHECK_PICKS(p, ((int[]){ 0, 2, 3, 0, -1, 2 }), 6);
    sched_free(&s);
}

/* GTO with slot 3 oldest: picks 3 and stays there while it is ready; when
 * 3 stalls (cycle 2) the oldest ready is 2, which it then keeps even when 3
 * is ready again (cycle 3, greedy); when 2 stalls (cycle 4), 3 again. */
TEST(sched_gto_order)
{
    sched_t s;
    int p[6];
    static const unsigned r[6] = { 15, 15, 7, 15, 11, 15 };
    CHECK_EQ(sched_init(&s, SCHED_GTO, N, 0), 0);
    run(&s, young_first, r, NULL, 6, p);
    CHECK_PICKS(p, ((int[]){ 3, 3, 2, 2, 3, 3 }), 6);
    sched_free(&s);
}

/* Oldest-first never stays greedy: same ready sets as the GTO test give
 * 3 3 2 3 3 3 (cycle 3: 3 is ready again and older than 2). */
TEST(sched_oldest_order)
{
    sched_t s;
    int p[6];
    static const unsigned r[6] = { 15, 15, 7, 15, 11, 15 };
    CHECK_EQ(sched_init(&s, SCHED_OLDEST, N, 0), 0);
    run(&s, young_first, r, NULL, 6, p);
    CHECK_PICKS(p, ((int[]){ 3, 3, 2, 3, 3, 3 }), 6);
    sched_free(&s);
}

/* Two-level, 2 active of 4 (all ready throughout):
 * cycle 0: pending 0 1 2 3 -> active {0,1}, pending 2 3; LRR: 0
 * cycle 1: 1
 * cycle 2: slot 0 waits: active {1}, pending 2 3 0 -> 2 promoted: {1,2};
 *          after the last issuer (1): 2
 * cycle 3: nobody waits: 1 (wraps)
 * cycle 4: 1 and 2 wait: active {}, pending 3 0 1 2 -> 3 and 0 (0 no longer
 *          waits): {3,0}; last (1) is not in the set: from the start: 3
 * cycle 5: 0 */
TEST(sched_two_level_order)
{
    sched_t s;
    int p[6];
    static const unsigned r[6] = { 15, 15, 15, 15, 15, 15 };
    static const unsigned w[6] = { 0, 0, 1, 0, 6, 6 };
    static const uint64_t age[N] = { 0, 1, 2, 3 };
    CHECK_EQ(sched_init(&s, SCHED_TWO_LEVEL, N, 2), 0);
    run(&s, age, r, w, 6, p);
    CHECK_PICKS(p, ((int[]){ 0, 1, 2, 1, 3, 0 }), 6);
    CHECK_EQ(s.nactive, 2);
    CHECK_EQ(s.npending, 2);
    sched_free(&s);
}

/* Invalid slots never issue; bad configurations are refused. */
TEST(sched_invalid_slots_and_config)
{
    sched_t s;
    CHECK_EQ(sched_init(&s, SCHED_TWO_LEVEL, N, 0), -1);
    CHECK_EQ(sched_init(&s, SCHED_NKINDS, N, 0), -1);
    CHECK_EQ(sched_init(&s, SCHED_GTO, N, 0), 0);
    sched_slot_t slot[N];
    memset(slot, 0, sizeof slot);
    slot[2] = (sched_slot_t){ .valid = 0, .ready = 1 };
    CHECK_EQ(sched_pick(&s, slot), -1);
    CHECK(!strcmp(sched_kind_name(SCHED_TWO_LEVEL), "two_level"));
    sched_free(&s);
}
