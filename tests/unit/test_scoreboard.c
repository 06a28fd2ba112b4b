/* test_scoreboard.c: reservations per warp, hazards, long-latency counts. */
#include "../harness.h"
#include "core/scoreboard.h"

TEST(scoreboard_raw_waw_and_release)
{
    scoreboard_t sb;
    CHECK_EQ(scoreboard_init(&sb, 4, 100), 0);
    /* warp 1 issues r5 = ...: r5 reserved for warp 1 only */
    CHECK_EQ(scoreboard_reserve(&sb, 1, 5, 0), 0);
    uint32_t reads_r5[] = { 3, 5 }, other[] = { 3, 4, 99 };
    CHECK_EQ(scoreboard_collides(&sb, 1, reads_r5, 2), 1); /* RAW or WAW */
    CHECK_EQ(scoreboard_collides(&sb, 1, other, 3), 0);
    CHECK_EQ(scoreboard_collides(&sb, 0, reads_r5, 2), 0); /* other warp */
    /* a register past the first 64-bit word */
    CHECK_EQ(scoreboard_reserve(&sb, 1, 99, 0), 0);
    CHECK_EQ(scoreboard_collides(&sb, 1, other, 3), 1);
    CHECK_EQ(scoreboard_release(&sb, 1, 5), 0);
    CHECK_EQ(scoreboard_collides(&sb, 1, reads_r5, 2), 0);
    scoreboard_free(&sb);
}

TEST(scoreboard_double_reserve_and_bad_release_refused)
{
    scoreboard_t sb;
    CHECK_EQ(scoreboard_init(&sb, 2, 8), 0);
    CHECK_EQ(scoreboard_reserve(&sb, 0, 7, 0), 0);
    CHECK_EQ(scoreboard_reserve(&sb, 0, 7, 0), -1);
    CHECK_EQ(scoreboard_release(&sb, 0, 6), -1);
    CHECK_EQ(scoreboard_reserve(&sb, 0, 8, 0), -1); /* out of range */
    CHECK_EQ(scoreboard_reserve(&sb, 2, 0, 0), -1);
    scoreboard_free(&sb);
}

TEST(scoreboard_long_latency_count)
{
    scoreboard_t sb;
    CHECK_EQ(scoreboard_init(&sb, 2, 16), 0);
    CHECK_EQ(scoreboard_reserve(&sb, 1, 2, 1), 0);
    CHECK_EQ(scoreboard_reserve(&sb, 1, 3, 1), 0);
    CHECK_EQ(scoreboard_reserve(&sb, 1, 4, 0), 0);
    CHECK_EQ(scoreboard_long_pending(&sb, 1), 2);
    CHECK_EQ(scoreboard_long_pending(&sb, 0), 0);
    CHECK_EQ(scoreboard_release(&sb, 1, 4), 0);
    CHECK_EQ(scoreboard_long_pending(&sb, 1), 2);
    CHECK_EQ(scoreboard_release(&sb, 1, 2), 0);
    CHECK_EQ(scoreboard_long_pending(&sb, 1), 1);
    scoreboard_clear_warp(&sb, 1);
    CHECK_EQ(scoreboard_long_pending(&sb, 1), 0);
    uint32_t r3[] = { 3 };
    CHECK_EQ(scoreboard_collides(&sb, 1, r3, 1), 0);
    scoreboard_free(&sb);
}
