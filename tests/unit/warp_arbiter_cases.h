/* warp_arbiter_cases.h: directed cases for the warp arbiter, shared by the C
 * unit tests (tests/unit/test_warp_arbiter.c, C twin alone) and the RTL
 * testbench (tb/warp_arbiter/, RTL and twin in lockstep).
 *
 * Every expectation is derived by hand from docs/units/warp_arbiter.md, in
 * the comment above the case; none is copied from a run.  The arbiter has
 * the default parameters (N 24, CNT_W 32, WOPT_W 6) and starts from reset
 * (slot 0 oldest).  A step lasts `repeat` cycles with the same inputs; each
 * cycle the grant must equal `expect` (WA_NONE: no grant, WA_ANY: not
 * checked), then `issue` says what issued (WA_GRANT: the grant, if any;
 * WA_NONE: nothing; k: slot k, possibly out of range), then the clock ticks.
 * After the step, `wopt` is checked: WA_ANY unchecked, 0 not computed yet,
 * k computed and equal to k. */
#ifndef TESTS_UNIT_WARP_ARBITER_CASES_H
#define TESTS_UNIT_WARP_ARBITER_CASES_H

#include <stdint.h>

enum { WA_ANY = -3, WA_GRANT = -2, WA_NONE = -1 };

typedef struct wa_step {
    unsigned repeat;
    uint32_t valid, ready, alloc, finished; /* bit i: slot i */
    const char *cls; /* class digit per slot from slot 0; missing: 1 */
    int issue;
    int expect;
    int wopt;
} wa_step_t;

typedef struct wa_case {
    const char *name;
    unsigned policy, ltlws_inner;
    const wa_step_t *steps;
    unsigned nsteps;
} wa_case_t;

#define WA_ALL24 0xFFFFFFu

/* LRR, 4 valid slots.  All ready: 0 1 2 3, then the scan from 4 passes the
 * invalid slots 4..23 and wraps to 0.  Ready {1,3}: last 0 -> 1, 3, wrap 1.
 * Nothing ready: none.  An out-of-range issue (slot 30) changes nothing, so
 * the scan still starts after 1: all ready -> 2. */
static const wa_step_t wa_lrr_steps[] = {
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 0, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 1, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 2, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 3, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 0, 0 },
    { 1, 0xF, 0xA, 0, 0, 0, WA_GRANT, 1, 0 },
    { 1, 0xF, 0xA, 0, 0, 0, WA_GRANT, 3, 0 },
    { 1, 0xF, 0xA, 0, 0, 0, WA_GRANT, 1, 0 },
    { 1, 0xF, 0x0, 0, 0, 0, WA_GRANT, WA_NONE, 0 },
    { 1, 0xF, 0x0, 0, 0, 0, 30, WA_NONE, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 2, 0 },
};

/* GTO.  Allocating 3, 2, 1, 0 one per cycle makes slot 3 the oldest.  Then
 * ready 15 15 7 15 11 15: 3 (oldest), 3 (greedy), 2 (3 stalls: oldest ready),
 * 2 (greedy though 3 is back), 3 (2 stalls), 3 (greedy). */
static const wa_step_t wa_gto_steps[] = {
    { 1, 0x0, 0x0, 0x8, 0, 0, WA_GRANT, WA_NONE, 0 },
    { 1, 0x8, 0x0, 0x4, 0, 0, WA_GRANT, WA_NONE, 0 },
    { 1, 0xC, 0x0, 0x2, 0, 0, WA_GRANT, WA_NONE, 0 },
    { 1, 0xE, 0x0, 0x1, 0, 0, WA_GRANT, WA_NONE, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 3, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 3, 0 },
    { 1, 0xF, 0x7, 0, 0, 0, WA_GRANT, 2, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 2, 0 },
    { 1, 0xF, 0xB, 0, 0, 0, WA_GRANT, 3, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 3, 0 },
};

/* GTO and allocation.  Allocating 2 and 3 together makes both younger than
 * every other slot, 2 older than 3.  Valid 0..3: ready {2,3} -> 2; ready
 * {0,2,3} -> 2 (greedy); ready {0,3} -> 0 (oldest).  Then slot 0 issues in
 * the cycle a new warp is allocated into it: 0 becomes the youngest but stays
 * the last issuer, so all ready -> 0 (greedy); ready {1,2,3} -> 1; ready
 * {0,2,3} -> 2 (0 is now younger than 2 and 3). */
static const wa_step_t wa_gto_alloc_steps[] = {
    { 1, 0x0, 0x0, 0xC, 0, 0, WA_GRANT, WA_NONE, 0 },
    { 1, 0xF, 0xC, 0, 0, 0, WA_GRANT, 2, 0 },
    { 1, 0xF, 0xD, 0, 0, 0, WA_GRANT, 2, 0 },
    { 1, 0xF, 0x9, 0, 0, 0, WA_GRANT, 0, 0 },
    { 1, 0xF, 0x1, 0x1, 0, 0, WA_GRANT, 0, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 0, 0 },
    { 1, 0xF, 0xE, 0, 0, 0, WA_GRANT, 1, 0 },
    { 1, 0xF, 0xD, 0, 0, 0, WA_GRANT, 2, 0 },
};

/* OWF priority.  Classes: slot 0 non-owner, 1 unshared, 2 and 3 owners; slot
 * 0 oldest.  All ready -> 2 (owner, older owner); all -> 2 (greedy); {0,1,3}
 * -> 3 (the other owner); {0,1} -> 1 (unshared beats the older non-owner);
 * {0} -> 0; all -> 0 (greedy even on a non-owner); {1,2,3} -> 2. */
static const wa_step_t wa_owf_steps[] = {
    { 1, 0xF, 0xF, 0, 0, "2100", WA_GRANT, 2, 0 },
    { 1, 0xF, 0xF, 0, 0, "2100", WA_GRANT, 2, 0 },
    { 1, 0xF, 0xB, 0, 0, "2100", WA_GRANT, 3, 0 },
    { 1, 0xF, 0x3, 0, 0, "2100", WA_GRANT, 1, 0 },
    { 1, 0xF, 0x1, 0, 0, "2100", WA_GRANT, 0, 0 },
    { 1, 0xF, 0xF, 0, 0, "2100", WA_GRANT, 0, 0 },
    { 1, 0xF, 0xE, 0, 0, "2100", WA_GRANT, 2, 0 },
};

/* OWF, age within a class.  Allocating slot 2 makes it the youngest.  Slots
 * 0,1 unshared, 2,3 owners.  All ready -> 3 (the older owner); {0,1,2} -> 2
 * (the only owner); {0,1} -> 0 (older unshared). */
static const wa_step_t wa_owf_age_steps[] = {
    { 1, 0x0, 0x0, 0x4, 0, "1100", WA_GRANT, WA_NONE, 0 },
    { 1, 0xF, 0xF, 0, 0, "1100", WA_GRANT, 3, 0 },
    { 1, 0xF, 0x7, 0, 0, "1100", WA_GRANT, 2, 0 },
    { 1, 0xF, 0x3, 0, 0, "1100", WA_GRANT, 0, 0 },
};

/* Reference 000 Fig. 5 toy: U (slot 0, unshared, oldest), O (slot 1, owner),
 * N (slot 2, non-owner).  OWF: all ready -> O (I1), all -> O (greedy, I2
 * load); O stalls on I3: {U,N} -> U; {U,N} -> U (greedy, I2); U stalls too:
 * {N} -> N (I1); N blocks on the lock: none.  The owner issues first (an
 * unshared-first order would have started with U). */
static const wa_step_t wa_fig5_steps[] = {
    { 1, 0x7, 0x7, 0, 0, "102", WA_GRANT, 1, 0 },
    { 1, 0x7, 0x7, 0, 0, "102", WA_GRANT, 1, 0 },
    { 1, 0x7, 0x5, 0, 0, "102", WA_GRANT, 0, 0 },
    { 1, 0x7, 0x5, 0, 0, "102", WA_GRANT, 0, 0 },
    { 1, 0x7, 0x4, 0, 0, "102", WA_GRANT, 2, 0 },
    { 1, 0x7, 0x0, 0, 0, "102", WA_GRANT, WA_NONE, 0 },
};

/* LTLWS-LRR is lazy: before any warp finishes there is no cap, so 4 ready
 * slots rotate 0 1 2 3 0 1 2 3 exactly like LRR. */
static const wa_step_t wa_ltlws_lazy_steps[] = {
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 0, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 1, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 2, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 3, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 0, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 1, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 2, 0 },
    { 1, 0xF, 0xF, 0, 0, 0, WA_GRANT, 3, 0 },
};

/* Reference 001 §9.12: counts {100 (finishes first), 100, 50, 30}.  Only one
 * slot ready at a time, so each issues its count.  The finish cycle issues
 * nothing: W_Opt = floor(280 / 100) = 2.  Valid {1,2,3}, oldest 1 then 2: the
 * eligible set is {1,2}.  All ready, LRR after 3 wraps -> 1, 2, 1, 2 (3
 * never); only 3 ready -> none.  A second finish (slot 2) does not recompute
 * W_Opt: it stays 2. */
static const wa_step_t wa_ltlws_wopt2_steps[] = {
    { 100, 0xF, 0x1, 0, 0, 0, WA_GRANT, 0, 0 },
    { 100, 0xF, 0x2, 0, 0, 0, WA_GRANT, 1, 0 },
    { 50, 0xF, 0x4, 0, 0, 0, WA_GRANT, 2, 0 },
    { 30, 0xF, 0x8, 0, 0, 0, WA_GRANT, 3, 0 },
    { 1, 0xF, 0x0, 0, 0x1, 0, WA_GRANT, WA_NONE, 2 },
    { 1, 0xE, 0xE, 0, 0, 0, WA_GRANT, 1, 2 },
    { 1, 0xE, 0xE, 0, 0, 0, WA_GRANT, 2, 2 },
    { 1, 0xE, 0xE, 0, 0, 0, WA_GRANT, 1, 2 },
    { 1, 0xE, 0xE, 0, 0, 0, WA_GRANT, 2, 2 },
    { 1, 0xE, 0x8, 0, 0, 0, WA_GRANT, WA_NONE, 2 },
    { 1, 0xE, 0x0, 0, 0x4, 0, WA_GRANT, WA_NONE, 2 },
};

/* Clamp at 1 (LTLWS-GTO): counts {10 (finishes), 3, 2}: floor(15/10) = 1.
 * Valid {1,2}: only the oldest, 1, is eligible: ready {2} -> none; ready
 * {1,2} -> 1 (last is 2, not eligible, so no greedy); when 1 leaves, 2 is the
 * oldest valid: -> 2. */
static const wa_step_t wa_ltlws_clamp1_steps[] = {
    { 10, 0x7, 0x1, 0, 0, 0, WA_GRANT, 0, 0 },
    { 3, 0x7, 0x2, 0, 0, 0, WA_GRANT, 1, 0 },
    { 2, 0x7, 0x4, 0, 0, 0, WA_GRANT, 2, 0 },
    { 1, 0x7, 0x0, 0, 0x1, 0, WA_GRANT, WA_NONE, 1 },
    { 1, 0x6, 0x4, 0, 0, 0, WA_GRANT, WA_NONE, 1 },
    { 1, 0x6, 0x6, 0, 0, 0, WA_GRANT, 1, 1 },
    { 1, 0x4, 0x4, 0, 0, 0, WA_GRANT, 2, 1 },
};

/* Clamp at N (LTLWS-LRR, all 24 slots valid): slot 0 issues once, then 46
 * cycles of LRR over slots 1..23 give each of them 2 issues.  Slot 0
 * finishes: floor(47 / 1) = 47, clamped to N = 24.  Every valid slot is
 * eligible: only the youngest (23) ready -> 23. */
static const wa_step_t wa_ltlws_clampn_steps[] = {
    { 1, WA_ALL24, 0x1, 0, 0, 0, WA_GRANT, 0, 0 },
    { 46, WA_ALL24, WA_ALL24 & ~1u, 0, 0, 0, WA_GRANT, WA_ANY, 0 },
    { 1, WA_ALL24, 0x0, 0, 0x1, 0, WA_GRANT, WA_NONE, 24 },
    { 1, WA_ALL24 & ~1u, 1u << 23, 0, 0, 0, WA_GRANT, 23, 24 },
};

/* The finish cycle's own issue counts (LTLWS-GTO): slot 0 issues once, slot
 * 1 twice, then slot 0 issues in the cycle it finishes (GTO: last 1 is not
 * ready, oldest ready 0).  c = 2, sum = 4: W_Opt = 2 (without that issue it
 * would be floor(3/1) = 3).  Valid {1,2,3}: eligible {1,2}; ready {3} ->
 * none; ready {2,3} -> 2. */
static const wa_step_t wa_ltlws_finish_issue_steps[] = {
    { 1, 0xF, 0x1, 0, 0, 0, WA_GRANT, 0, 0 },
    { 2, 0xF, 0x2, 0, 0, 0, WA_GRANT, 1, 0 },
    { 1, 0xF, 0x1, 0, 0x1, 0, WA_GRANT, 0, 2 },
    { 1, 0xE, 0x8, 0, 0, 0, WA_GRANT, WA_NONE, 2 },
    { 1, 0xE, 0xC, 0, 0, 0, WA_GRANT, 2, 2 },
};

#define WA_CASE(name, pol, inner, steps) \
    { name, pol, inner, steps, (unsigned)(sizeof steps / sizeof steps[0]) }

static const wa_case_t wa_cases[] = {
    WA_CASE("lrr_order", 0, 0, wa_lrr_steps),
    WA_CASE("gto_order", 1, 0, wa_gto_steps),
    WA_CASE("gto_alloc", 1, 0, wa_gto_alloc_steps),
    WA_CASE("owf_priority", 2, 0, wa_owf_steps),
    WA_CASE("owf_age_within_class", 2, 0, wa_owf_age_steps),
    WA_CASE("owf_fig5_toy", 2, 0, wa_fig5_steps),
    WA_CASE("ltlws_lazy", 3, 1, wa_ltlws_lazy_steps),
    WA_CASE("ltlws_wopt_2", 3, 1, wa_ltlws_wopt2_steps),
    WA_CASE("ltlws_clamp_1", 3, 0, wa_ltlws_clamp1_steps),
    WA_CASE("ltlws_clamp_n", 3, 1, wa_ltlws_clampn_steps),
    WA_CASE("ltlws_finish_cycle_issue", 3, 0, wa_ltlws_finish_issue_steps),
};

enum { WA_NCASES = (int)(sizeof wa_cases / sizeof wa_cases[0]) };

/* The cls digit of slot i in a step (1, unshared, when not given). */
static inline unsigned wa_step_cls(const wa_step_t *st, unsigned i)
{
    if (!st->cls)
        return 1;
    for (unsigned k = 0; k <= i; k++)
        if (!st->cls[k])
            return 1;
    return (unsigned)(st->cls[i] - '0') & 3;
}

#endif
