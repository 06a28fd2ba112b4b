/* share_lock_table_cases.h: directed cases for the lock table, shared by
 * the C unit test (tests/unit/test_share_lock_table.c, twin alone) and the
 * RTL testbench (tb/share_lock_table/, RTL and twin in lockstep).
 *
 * Parameters: kepler-ss's T 16, S 4 (PartW 5, Pairs 8).  Every case starts
 * from reset.  Every expectation is derived by hand from
 * docs/units/share_lock_table.md and reference 000 §2.6 / §9, in the
 * comment above the case; none is copied from a run.  A step is one cycle:
 * its inputs, then the expected grant mask (bit k: scheduler k) and the
 * class of every slot from slot 0 ('0' owner, '1' unshared, '2' non-owner;
 * slots past the string's end: '1').  The launch in every case is DCT3's
 * shape: m = 7, 5 pairs, so slot j < 5 pairs with slot 7 + j, slots 5 and
 * 6 are unshared (reference §9 test 1). */
#ifndef TESTS_UNIT_SHARE_LOCK_TABLE_CASES_H
#define TESTS_UNIT_SHARE_LOCK_TABLE_CASES_H

#include <stdint.h>
#include <string.h>

#include "units/share_lock_table.h"

typedef struct slt_step {
    uint8_t launch;
    uint64_t live, place, release, done;
    uint32_t req_valid;
    uint8_t req_slot[4];
    uint32_t grant;
    const char *cls;
} slt_step_t;

typedef struct slt_case {
    const char *name;
    const slt_step_t *steps;
    unsigned nsteps;
} slt_case_t;

enum { SLT_T = 16, SLT_S = 4, SLT_BASE = 7, SLT_PAIRS = 5 };

#define B(x) ((uint64_t)1 << (x))
#define L07 (B(0) | B(7))

/* §9 test 5, first access (FCFS) and test 6, non-owner wait and retry:
 * launch with blocks in slots 0 and 7: all unshared.  Slot 7 asks first:
 * pair 0 is free, slot 7 takes it (owner), slot 0 becomes non-owner.  Slot
 * 0 then asks, twice (retried every cycle): it waits.  The holder asks
 * again: granted.  An unpaired slot (5) is always granted. */
static const slt_step_t slt_fcfs[] = {
    { 1, L07, L07, 0, 0, 0, { 0 }, 0, "1111111111111111" },
    { 0, L07, 0, 0, 0, 1, { 7 }, 1, "2111111011111111" },
    { 0, L07, 0, 0, 0, 2, { 0, 0 }, 0, "2111111011111111" },
    { 0, L07, 0, 0, 0, 2, { 0, 0 }, 0, "2111111011111111" },
    { 0, L07, 0, 0, 0, 4 | 8, { 0, 0, 7, 5 }, 4 | 8, "2111111011111111" },
};

/* Same-cycle arbitration: slots 1 and 8 (pair 1) ask in one cycle from
 * schedulers 1 and 0: the lower scheduler (0, slot 8) wins, 1 waits.  In
 * the same cycle scheduler 2 asks for unpaired slot 5 (granted) and 3 for
 * slot 2 (pair 2 free: granted).  Next cycle slot 1 retries from scheduler
 * 3 and slot 9 asks from scheduler 0: 1 waits (8 holds), 9 waits (2 holds). */
#define L_ARB (B(1) | B(8) | B(2) | B(9) | B(5))
static const slt_step_t slt_same_cycle[] = {
    { 1, L_ARB, L_ARB, 0, 0, 0, { 0 }, 0, "1111111111111111" },
    { 0, L_ARB, 0, 0, 0, 0xF, { 8, 1, 5, 2 }, 1 | 4 | 8, "1201111102111111" },
    { 0, L_ARB, 0, 0, 0, 1 | 8, { 9, 0, 0, 1 }, 0, "1201111102111111" },
};

/* §9 test 9, relssp release: slot 0 holds pair 0; its release frees the
 * lock in that cycle, and slot 7's request in the same cycle is granted
 * (a release applies before the requests).  Slot 0 is now released. */
static const slt_step_t slt_release[] = {
    { 1, L07, L07, 0, 0, 0, { 0 }, 0, "1111111111111111" },
    { 0, L07, 0, 0, 0, 1, { 0 }, 1, "0111111211111111" },
    { 0, L07, 0, B(0), 0, 1, { 7 }, 1, "2111111011111111" },
};

/* §9 test 10, release with no lock, and transfer when the partner already
 * released: slot 7 holds; slot 0 (never held) releases: no change.  Slot 7
 * completes: its partner is live but released, so the lock is freed
 * (§2.6 [decide]), not transferred. */
static const slt_step_t slt_release_no_lock[] = {
    { 1, L07, L07, 0, 0, 0, { 0 }, 0, "1111111111111111" },
    { 0, L07, 0, 0, 0, 1, { 7 }, 1, "2111111011111111" },
    { 0, L07, 0, B(0), 0, 0, { 0 }, 0, "2111111011111111" },
    { 0, L07, 0, 0, B(7), 0, { 0 }, 0, "1111111111111111" },
};

/* §9 test 8, transfer at completion, and slot inheritance: slot 0 holds;
 * it completes while slot 7 lives and has not released: the lock passes to
 * 7 (owner); slot 0's class reads non-owner.  A new block is placed in
 * slot 0 next cycle: it inherits the pair and starts as non-owner, so its
 * request waits.  Slot 7 releases and in the same cycle the new block asks
 * again: granted, owner. */
static const slt_step_t slt_transfer[] = {
    { 1, L07, L07, 0, 0, 0, { 0 }, 0, "1111111111111111" },
    { 0, L07, 0, 0, 0, 1, { 0 }, 1, "0111111211111111" },
    { 0, L07, 0, 0, B(0), 0, { 0 }, 0, "2111111011111111" },
    { 0, L07, B(0), 0, 0, 2, { 0, 0 }, 0, "2111111011111111" },
    { 0, L07, 0, B(7), 0, 2, { 0, 0 }, 2, "0111111211111111" },
};

/* Transfer from the upper slot to the lower: slot 7 holds and completes
 * while slot 0 lives: the lock passes to 0. */
static const slt_step_t slt_transfer_down[] = {
    { 1, L07, L07, 0, 0, 0, { 0 }, 0, "1111111111111111" },
    { 0, L07, 0, 0, 0, 1, { 7 }, 1, "2111111011111111" },
    { 0, L07, 0, 0, B(7), 0, { 0 }, 0, "0111111211111111" },
};

/* Partner dead: only slots 0 and 1 hold blocks (7 not placed); slot 0
 * holds pair 0 and completes: no live partner, the lock is freed.  Then
 * slot 1 holds pair 1 (its partner 8 not placed either) and completes as
 * the SM's last block: freed, and ShSM ends (every class unshared). */
static const slt_step_t slt_partner_dead[] = {
    { 1, B(0) | B(1), B(0) | B(1), 0, 0, 0, { 0 }, 0, "1111111111111111" },
    { 0, B(0) | B(1), 0, 0, 0, 3, { 0, 1 }, 3, "0011111221111111" },
    { 0, B(0) | B(1), 0, 0, B(0), 0, { 0 }, 0, "1011111121111111" },
    { 0, B(1), 0, 0, B(1), 0, { 0 }, 0, "1111111111111111" },
};

/* Both blocks of a pair complete in one cycle, the lower one holding: the
 * lower slot's completion passes the lock to the upper one (still live at
 * that point), whose own completion then frees it (§2.6 steps in slot
 * order); the SM is empty, ShSM ends. */
static const slt_step_t slt_both_done[] = {
    { 1, L07, L07, 0, 0, 0, { 0 }, 0, "1111111111111111" },
    { 0, L07, 0, 0, 0, 1, { 0 }, 1, "0111111211111111" },
    { 0, L07, 0, 0, L07, 0, { 0 }, 0, "1111111111111111" },
};

#define SLT_CASE(n, a) { n, a, sizeof a / sizeof a[0] }
static const slt_case_t slt_cases[] = {
    SLT_CASE("first access FCFS, non-owner wait and retry", slt_fcfs),
    SLT_CASE("same-cycle arbitration: lowest scheduler wins", slt_same_cycle),
    SLT_CASE("relssp release, partner acquires the same cycle", slt_release),
    SLT_CASE("release with no lock; partner released: no transfer", slt_release_no_lock),
    SLT_CASE("transfer at completion; slot inheritance", slt_transfer),
    SLT_CASE("transfer from the upper slot", slt_transfer_down),
    SLT_CASE("completion with the partner dead; ShSM ends", slt_partner_dead),
    SLT_CASE("both blocks of a pair complete in one cycle", slt_both_done),
};
enum { SLT_NCASES = sizeof slt_cases / sizeof slt_cases[0] };
#undef SLT_CASE
#undef L07
#undef L_ARB
#undef B

/* The inputs of one step (T 16, S 4). */
static inline void slt_step_in(const slt_step_t *st, share_lock_table_in_t *in)
{
    memset(in, 0, sizeof *in);
    in->launch = st->launch;
    in->base = SLT_BASE;
    in->pairs = SLT_PAIRS;
    in->live = st->live;
    in->place = st->place;
    in->release = st->release;
    in->done = st->done;
    in->req_valid = st->req_valid;
    for (unsigned k = 0; k < SLT_S; k++)
        in->req_slot[k] = st->req_slot[k];
}

/* The expected class of slot x. */
static inline unsigned slt_step_cls(const slt_step_t *st, unsigned x)
{
    for (unsigned i = 0; i <= x; i++)
        if (!st->cls[i])
            return 1;
    return (unsigned)(st->cls[x] - '0');
}

#endif
