/* test_share_lock_table.c: the lock table's C twin alone, on the directed
 * cases of share_lock_table_cases.h (hand-derived from
 * docs/units/share_lock_table.md), its state after them, and its
 * parameter checks. */
#include <string.h>

#include "../harness.h"
#include "units/share_lock_table.h"
#include "share_lock_table_cases.h"

/* Runs one directed case; returns 0, or reports and returns -1. */
static int run_case(const slt_case_t *c, share_lock_table_state_t *s)
{
    share_lock_table_cfg_t cfg = share_lock_table_cfg_for(SLT_T, SLT_S);
    if (share_lock_table_init(s, &cfg))
        return -1;
    for (unsigned k = 0; k < c->nsteps; k++) {
        const slt_step_t *st = &c->steps[k];
        share_lock_table_in_t in;
        share_lock_table_out_t out;
        slt_step_in(st, &in);
        share_lock_table_eval(s, &in, &out);
        if (out.grant != st->grant) {
            harness_fail(__FILE__, __LINE__, "%s: step %u: grant %#x, want %#x",
                         c->name, k, out.grant, st->grant);
            return -1;
        }
        for (unsigned x = 0; x < SLT_T; x++)
            if (out.cls[x] != slt_step_cls(st, x)) {
                harness_fail(__FILE__, __LINE__, "%s: step %u: slot %u class %u, want %u",
                             c->name, k, x, out.cls[x], slt_step_cls(st, x));
                return -1;
            }
        share_lock_table_tick(s, &in);
    }
    return 0;
}

TEST(share_lock_table_directed_cases)
{
    share_lock_table_state_t s;
    for (int k = 0; k < SLT_NCASES; k++)
        CHECK(run_case(&slt_cases[k], &s) == 0);
}

/* PartW = ceil(log2(T+1)) and Pairs = T/2 (reference §2.5): T 16 -> 5, 8;
 * T 15 -> 4, 7; T 2 -> 2, 1.  Out of range: T 1, T 65, S 0, S 9, PartW
 * too narrow for T (T 16, PartW 4), Pairs above T/2. */
TEST(share_lock_table_parameters)
{
    share_lock_table_cfg_t c = share_lock_table_cfg_for(16, 4);
    CHECK_EQ(c.part_w, 5);
    CHECK_EQ(c.pairs, 8);
    c = share_lock_table_cfg_for(15, 4);
    CHECK_EQ(c.part_w, 4);
    CHECK_EQ(c.pairs, 7);
    c = share_lock_table_cfg_for(2, 1);
    CHECK_EQ(c.part_w, 2);
    CHECK_EQ(c.pairs, 1);
    share_lock_table_state_t s;
    share_lock_table_cfg_t bad[] = { { 1, 1, 1, 1 }, { 65, 4, 7, 32 }, { 16, 0, 5, 8 },
                                     { 16, 9, 5, 8 }, { 16, 4, 4, 8 }, { 16, 4, 5, 9 } };
    for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++)
        CHECK_EQ(share_lock_table_init(&s, &bad[k]), -1);
    c = share_lock_table_cfg_for(64, 8);
    CHECK_EQ(share_lock_table_init(&s, &c), 0);
}

/* The launch writes the DCT3 table (m 7, 5 pairs): partner[j] = 7 + j and
 * partner[7 + j] = j for j < 5, every other slot 31 (unshared, PartW 5);
 * the state after the transfer case: pair 0 held by slot 0, valid, slot 7
 * released. */
TEST(share_lock_table_state_after_cases)
{
    share_lock_table_state_t s;
    CHECK(run_case(&slt_cases[0], &s) == 0);
    CHECK_EQ(s.shsm, 1);
    for (unsigned x = 0; x < 16; x++) {
        unsigned want = x < 5 ? x + 7 : x >= 7 && x < 12 ? x - 7 : 31;
        CHECK_EQ(s.partner[x], want);
    }
    CHECK_EQ(s.lock_valid, 1);
    CHECK_EQ(s.lock[0], 7);
    CHECK(run_case(&slt_cases[4], &s) == 0);
    CHECK_EQ(s.lock_valid, 1);
    CHECK_EQ(s.lock[0], 0);
    CHECK_EQ(s.rel_done, (uint64_t)1 << 7);
    /* the partner-dead case ends with ShSM off and every lock free */
    CHECK(run_case(&slt_cases[6], &s) == 0);
    CHECK_EQ(s.shsm, 0);
    CHECK_EQ(s.lock_valid, 0);
}
