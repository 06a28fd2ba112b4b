/* test_sched.c: the exact issue order of each warp-scheduler policy on
 * crafted ready sets (every expected sequence is worked out by hand in the
 * comment above it from the rules in core/sched.h). */
#include <string.h>

#include "../harness.h"
#include "core/sched_arbiter.h"
#include "core/sched_ccws.h"

enum { N = 4 };

/* One slot as a test states it; pick() turns slots into the view. */
typedef struct tslot {
    uint8_t valid, ready, wait, cls;
    uint64_t age;
} tslot_t;

static int pick(sched_t *s, const tslot_t *t, uint64_t now)
{
    sched_slot_t view[N];
    sched_view_t v = { .slot = view };
    for (unsigned i = 0; i < N; i++) {
        view[i] = (sched_slot_t){ .age = t[i].age, .cls = t[i].cls };
        v.valid |= (uint64_t)t[i].valid << i;
        v.ready |= (uint64_t)(t[i].valid && t[i].ready) << i;
        v.waiting |= (uint64_t)(t[i].valid && t[i].wait) << i;
    }
    return sched_pick(s, &v, now);
}

/* A scheduler of kind k whose slots' order is age[] (smaller: older): for
 * the arbiter policies the warps are allocated one per cycle, oldest
 * first, since the arbiter orders slots by allocation. */
static void start(sched_t *s, sched_kind_t k, unsigned two_level_active,
                  const uint64_t age[N])
{
    sched_params_t p = { .kind = k, .nslots = N,
                         .two_level_active = two_level_active };
    CHECK(sched_init(s, &p, 0) == NULL);
    int done[N] = { 0 };
    for (unsigned n = 0; n < N; n++) {
        int o = -1;
        for (unsigned i = 0; i < N; i++)
            if (!done[i] && (o < 0 || age[i] < age[o]))
                o = (int)i;
        done[o] = 1;
        sched_alloc(s, (unsigned)o);
        CHECK_EQ(sched_clock(s, n), 0);
    }
}

/* Runs `cycles` cycles; ready[c] is the ready mask of cycle c (bit i: slot
 * i), wait[c] the long-wait mask; every pick issues.  Writes the picks. */
static void run(sched_t *s, const uint64_t age[N], const unsigned *ready,
                const unsigned *wait, unsigned cycles, int *picks)
{
    for (unsigned c = 0; c < cycles; c++) {
        tslot_t slot[N];
        for (unsigned i = 0; i < N; i++)
            slot[i] = (tslot_t){ .valid = 1, .ready = ready[c] >> i & 1,
                                      .wait = wait ? wait[c] >> i & 1 : 0,
                                      .cls = WARP_ARBITER_UNSHARED,
                                      .age = age[i] };
        picks[c] = pick(s, slot, 100 + c);
        if (picks[c] >= 0)
            sched_issued(s, picks[c]);
        CHECK_EQ(sched_clock(s, 100 + c), 0);
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
    start(&s, SCHED_LRR, 0, young_first);
    run(&s, young_first, all, NULL, 5, p);
    CHECK_PICKS(p, ((int[]){ 0, 1, 2, 3, 0 }), 5);
    sched_free(&s);
    static const unsigned no1[6] = { 13, 13, 13, 13, 0, 13 };
    start(&s, SCHED_LRR, 0, young_first);
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
    start(&s, SCHED_GTO, 0, young_first);
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
    start(&s, SCHED_OLDEST, 0, young_first);
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
    start(&s, SCHED_TWO_LEVEL, 2, age);
    run(&s, age, r, w, 6, p);
    CHECK_PICKS(p, ((int[]){ 0, 1, 2, 1, 3, 0 }), 6);
    sched_free(&s);
}

/* Invalid slots never issue; bad configurations are refused. */
TEST(sched_invalid_slots_and_config)
{
    sched_t s;
    sched_params_t p = { .kind = SCHED_TWO_LEVEL, .nslots = N };
    CHECK(sched_init(&s, &p, 0) != NULL);
    p.kind = SCHED_NKINDS;
    CHECK(sched_init(&s, &p, 0) != NULL);
    p = (sched_params_t){ .kind = SCHED_GTO, .nslots = 65 };
    CHECK(sched_init(&s, &p, 0) != NULL); /* more slots than the arbiter has */
    p.nslots = N;
    CHECK(sched_init(&s, &p, 0) == NULL);
    tslot_t slot[N];
    memset(slot, 0, sizeof slot);
    slot[2] = (tslot_t){ .valid = 0, .ready = 1 };
    CHECK_EQ(pick(&s, slot, 0), -1);
    CHECK(!strcmp(sched_kind_name(SCHED_TWO_LEVEL), "two_level"));
    CHECK(!strcmp(sched_kind_name(SCHED_LTLWS), "ltlws"));
    sched_free(&s);
}

/* OWF through the scheduler: all four ready, slot 0 oldest.  Classes
 * {non-owner, owner, unshared, owner}: the smallest class is owner (slots
 * 1 and 3), the older of them is 1; greedy keeps 1 while it is ready; when
 * 1 stalls (cycle 2), owner 3; when 1 and 3 stall (cycle 3), unshared 2
 * (greedy on 3 is gone: 3 is not ready). */
TEST(sched_owf_order)
{
    sched_t s;
    static const uint64_t age[N] = { 0, 1, 2, 3 };
    static const uint8_t cls[N] = { WARP_ARBITER_NONOWNER, WARP_ARBITER_OWNER,
                                    WARP_ARBITER_UNSHARED, WARP_ARBITER_OWNER };
    static const unsigned r[4] = { 15, 15, 13, 5 };
    static const int want[4] = { 1, 1, 3, 2 };
    start(&s, SCHED_OWF, 0, age);
    for (unsigned c = 0; c < 4; c++) {
        tslot_t slot[N];
        for (unsigned i = 0; i < N; i++)
            slot[i] = (tslot_t){ .valid = 1, .ready = r[c] >> i & 1,
                                      .cls = cls[i] };
        int p = pick(&s, slot, c);
        CHECK_MSG(p == want[c], "cycle %u: picked %d, want %d", c, p, want[c]);
        sched_issued(&s, p);
        CHECK_EQ(sched_clock(&s, c), 0);
    }
    sched_free(&s);
}

/* LTLWS-GTO through the scheduler, slot 0 oldest, everyone always ready:
 * GTO issues 0 three times; slot 0 finishes in the cycle it issues its
 * third instruction (the event reaches the arbiter at that clock edge):
 * W_Opt = floor(3 / 3) = 1, so only the oldest valid slot (1, now that 0
 * is gone) may issue afterwards, whatever else is ready. */
TEST(sched_ltlws_cap_after_first_finish)
{
    sched_t s;
    static const uint64_t age[N] = { 0, 1, 2, 3 };
    start(&s, SCHED_LTLWS, 0, age);
    for (unsigned c = 0; c < 6; c++) {
        tslot_t slot[N];
        for (unsigned i = 0; i < N; i++)
            slot[i] = (tslot_t){ .valid = !(c >= 3 && i == 0), .ready = 1 };
        if (c == 3) /* slot 1 stalls for a cycle: nobody else may issue */
            slot[1].ready = 0;
        int p = pick(&s, slot, c);
        int want = c < 3 ? 0 : c == 3 ? -1 : 1;
        CHECK_MSG(p == want, "cycle %u: picked %d, want %d", c, p, want);
        if (p >= 0)
            sched_issued(&s, p);
        if (c == 2)
            sched_finished(&s, 0);
        CHECK_EQ(sched_clock(&s, c), 0);
    }
    CHECK_EQ(sched_arbiter_state(&s)->wopt_valid, 1);
    CHECK_EQ(sched_arbiter_state(&s)->wopt, 1);
    sched_free(&s);
}

/* LTLWS once capped is two-level: a warp waiting at a barrier or on a
 * long-latency operation leaves the active set.  As above, W_Opt = 1 after
 * slot 0 finishes at cycle 2, so slot 1 (the oldest valid) is the active
 * set and issues at cycle 3.  At cycles 4-5 slot 1 waits at a barrier: it
 * leaves the set, whose one place goes to the oldest warp that does not
 * wait, slot 2 (all ready): 2, 2 (greedy).  At cycle 6 slot 1 is back:
 * it is older than 2, so the set is {1} again: 1.  (Counting slot 1
 * while it waits would leave nobody to issue: the srad1 deadlock.) */
TEST(sched_ltlws_waiting_warps_leave_the_active_set)
{
    sched_t s;
    static const uint64_t age[N] = { 0, 1, 2, 3 };
    static const int want[7] = { 0, 0, 0, 1, 2, 2, 1 };
    start(&s, SCHED_LTLWS, 0, age);
    for (unsigned c = 0; c < 7; c++) {
        tslot_t slot[N];
        for (unsigned i = 0; i < N; i++)
            slot[i] = (tslot_t){ .valid = !(c >= 3 && i == 0), .ready = 1 };
        if (c == 4 || c == 5)
            slot[1] = (tslot_t){ .valid = 1, .ready = 0, .wait = 1 };
        int p = pick(&s, slot, c);
        CHECK_MSG(p == want[c], "cycle %u: picked %d, want %d", c, p, want[c]);
        if (p >= 0)
            sched_issued(&s, p);
        if (c == 2)
            sched_finished(&s, 0);
        CHECK_EQ(sched_clock(&s, c), 0);
    }
    sched_free(&s);
}

/* The unit hooks: reset at init, eval with the cycle and instance, tick
 * with the issued slot; an eval hook that rewrites the grant drives the
 * pipeline (RTL in the loop), and a non-zero return stops the run. */
typedef struct hook_log {
    unsigned resets, evals, ticks, instance, override;
    uint64_t cycle;
    uint32_t issued_idx;
    int stop;
    const unit_desc_t *unit; /* the last hook's */
} hook_log_t;

static int log_reset(void *ctx, const unit_desc_t *u, unsigned inst, uint64_t cycle,
                     const void *st)
{
    hook_log_t *l = ctx;
    (void)st;
    l->resets++;
    l->cycle = cycle;
    l->instance = inst;
    l->unit = u;
    return 0;
}

static int log_eval(void *ctx, const unit_desc_t *u, unsigned inst, uint64_t cycle,
                    const void *st, const void *in, void *outp)
{
    hook_log_t *l = ctx;
    warp_arbiter_out_t *out = outp;
    (void)st;
    (void)in;
    l->evals++;
    l->cycle = cycle;
    l->instance = inst;
    l->unit = u;
    if (l->override) {
        out->grant_valid = 1;
        out->grant_idx = 2;
    }
    return l->stop;
}

static int log_tick(void *ctx, const unit_desc_t *u, unsigned inst, uint64_t cycle,
                    const void *inp, const void *after)
{
    hook_log_t *l = ctx;
    const warp_arbiter_in_t *in = inp;
    (void)inst;
    (void)after;
    l->ticks++;
    l->cycle = cycle;
    l->unit = u;
    l->issued_idx = in->issued_valid ? in->issued_idx : 99;
    return 0;
}

TEST(sched_unit_hooks)
{
    hook_log_t log = { 0 };
    unit_hooks_t h = { .ctx = &log, .reset = log_reset, .eval = log_eval,
                       .tick = log_tick };
    sched_params_t p = { .kind = SCHED_LRR, .nslots = N, .hooks = &h,
                         .instance = 7 };
    sched_t s;
    CHECK(sched_init(&s, &p, 40) == NULL);
    CHECK_EQ(log.resets, 1);
    CHECK_EQ(log.cycle, 40);
    CHECK_EQ(log.instance, 7);
    CHECK(log.unit == &warp_arbiter_desc);
    tslot_t slot[N];
    for (unsigned i = 0; i < N; i++)
        slot[i] = (tslot_t){ .valid = 1, .ready = 1 };
    CHECK_EQ(pick(&s, slot, 41), 0); /* LRR from reset: slot 0 */
    CHECK_EQ(log.evals, 1);
    sched_issued(&s, 0);
    CHECK_EQ(sched_clock(&s, 41), 0);
    CHECK_EQ(log.ticks, 1);
    CHECK_EQ(log.issued_idx, 0);
    log.override = 1; /* LRR would give 1; the hook's grant wins */
    CHECK_EQ(pick(&s, slot, 42), 2);
    sched_issued(&s, 2);
    CHECK_EQ(sched_clock(&s, 42), 0);
    CHECK_EQ(sched_arbiter_state(&s)->last, 2);
    log.stop = 1;
    CHECK_EQ(pick(&s, slot, 43), SCHED_STOP);
    sched_alloc(&s, 3);
    CHECK_EQ(sched_reset(&s, 44), 0);
    CHECK_EQ(log.resets, 2);
    sched_free(&s);
}

/* TLV, fetch groups of 2 over 4 slots: group 0 = {0,1}, group 1 = {2,3};
 * group 0 current at reset, round robin inside a group starting at its
 * first slot.  Ready sets per cycle and the picks, by hand:
 *   c0-3  all ready       0 1 0 1   (group 0 has a ready warp: group 1
 *                                    never issues; round robin 0,1)
 *   c4    {1,2,3}         1         (group 0 still has 1 ready)
 *   c5    {2,3}           2         (group 0 all stalled: next group,
 *                                    from its first slot)
 *   c6-7  all ready       3 2       (the rule: stay in group 1 until all
 *                                    its warps stall, not a priority)
 *   c8    {0,1}           0         (group 1 stalled: back to group 0,
 *                                    after its last issuer 1: slot 0)
 *   c9    none            -1
 *   c10   all ready       1         (group 0 stays current; after 0: 1) */
TEST(sched_tlv_order)
{
    sched_t s;
    sched_params_t p = { .kind = SCHED_TLV, .nslots = N, .tlv_group = 2 };
    static const uint64_t age[N] = { 0, 1, 2, 3 };
    CHECK(sched_init(&s, &p, 0) == NULL);
    for (unsigned i = 0; i < N; i++)
        sched_alloc(&s, i);
    static const unsigned r[11] = { 15, 15, 15, 15, 14, 12, 15, 15, 3, 0, 15 };
    int got[11];
    run(&s, age, r, NULL, 11, got);
    CHECK_PICKS(got, ((int[]){ 0, 1, 0, 1, 1, 2, 3, 2, 0, -1, 1 }), 11);
    /* group 0 ready in every cycle: group 1 never issues */
    CHECK_EQ(sched_reset(&s, 200), 0);
    static const unsigned r0[6] = { 15, 13, 14, 15, 13, 14 };
    run(&s, age, r0, NULL, 6, got);
    CHECK_PICKS(got, ((int[]){ 0, 0, 1, 0, 0, 1 }), 6);
    sched_free(&s);
    p.tlv_group = 0;
    CHECK(sched_init(&s, &p, 0) != NULL);
    CHECK(!strcmp(sched_kind_name(SCHED_TLV), "tlv"));
}

/* A CCWS scheduler over 4 slots (ages young_first: slot 3 oldest), 2
 * victim tags per warp, base score 100, K_THROTTLE 8, decay 1 point per
 * cycle. */
static void ccws_start(sched_t *s)
{
    sched_params_t p = { .kind = SCHED_CCWS, .nslots = N,
                         .ccws_vta_entries = 2, .ccws_base_score = 100,
                         .ccws_kthrottle = 8, .ccws_decay_cycles = 1 };
    CHECK(sched_init(s, &p, 0) == NULL);
    for (unsigned i = 0; i < N; i++)
        sched_alloc(s, i);
}

/* One pick with every slot valid, `ready` and `l1d` as masks. */
static int ccws_pick(sched_t *s, unsigned ready, unsigned l1d, uint64_t now)
{
    sched_slot_t view[N];
    sched_view_t v = { .slot = view, .valid = 15, .ready = ready };
    for (unsigned i = 0; i < N; i++)
        view[i] = (sched_slot_t){ .age = young_first[i],
                                  .l1d = (uint8_t)(l1d >> i & 1) };
    return sched_pick(s, &v, now);
}

static void l1(sched_t *s, sched_l1_kind_t k, unsigned slot, uint64_t line)
{
    sched_l1_event_t e = { .kind = k, .slot = slot, .line = line };
    sched_l1_event(s, &e);
}

/* No lost locality: the GTO test's ready sets give GTO's picks (3 3 2 2 3
 * 3), every next instruction a load, evictions filling VTAs but no miss
 * finding its line there. */
TEST(sched_ccws_without_lost_locality_is_gto)
{
    sched_t s;
    ccws_start(&s);
    static const unsigned r[6] = { 15, 15, 7, 15, 11, 15 };
    int got[6];
    for (unsigned c = 0; c < 6; c++) {
        l1(&s, SCHED_L1_EVICT, c % N, 0x1000 + 128 * c);
        l1(&s, SCHED_L1_MISS, c % N, 0x9000 + 128 * c);
        got[c] = ccws_pick(&s, r[c], 15, 100 + c);
        if (got[c] >= 0)
            sched_issued(&s, got[c]);
    }
    CHECK_PICKS(got, ((int[]){ 3, 3, 2, 2, 3, 3 }), 6);
    CHECK_EQ(sched_ccws_hits(&s), 0);
    for (unsigned i = 0; i < N; i++)
        CHECK_EQ(sched_ccws_score(&s, i), 100);
    sched_free(&s);
}

/* The victim tags and the score, by hand.  8 picks with all ready (GTO:
 * slot 3 each time, issued = 8; cutoff = 4 valid x 100 = 400).
 *   EVICT(0,A) EVICT(0,B) EVICT(0,C)  VTA(0) = [B C] (2 entries: A leaves)
 *   MISS(0,A)   not in VTA(0): no hit, score 100
 *   MISS(1,C)   C is in warp 0's VTA, not warp 1's: no hit
 *   MISS(0,B)   hit: hits = 1, LLDS = 1 x 8 x 400 / 8 = 400, score(0) =
 *               500; B leaves: VTA(0) = [C]
 *   MISS(0,B)   B already left: no hit
 * Throttle at cycle 108 (decay: 1 point since cycle 107): scores 499 100
 * 100 100; order 0, then 3 2 1 (ties: older first); sums 499 (the first
 * is never throttled), 599 > 400: slots 3, 2, 1 may not issue loads.
 *   ready {1,2,3} all loads  -> -1
 *   ready {1,2,3}, 1 not a load -> 1
 *   ready {0,3} loads        -> 0
 * At cycle 357: score 499 - 249 = 250: sums 250, 350 (slot 3 allowed),
 * 450 > 400 (slots 2 and 1 throttled):
 *   ready {1,2} loads -> -1; ready {2,3} loads -> 3.
 * At cycle 507: score 100 (floor at the base): nothing throttled:
 *   ready {1,2} loads -> 2 (GTO: the last issuer 0 is not ready; oldest).
 * Then EVICT(1,D), MISS(1,D): the second hit: hits = 2, issued = 9 (the
 * pick of slot 0 at cycle 108 issued), LLDS = 2 x 8 x 400 / 9 = 711
 * (integer), score(1) = 811. */
TEST(sched_ccws_victim_tags_and_throttle)
{
    sched_t s;
    ccws_start(&s);
    for (unsigned c = 0; c < 8; c++) {
        CHECK_EQ(ccws_pick(&s, 15, 15, 100 + c), 3);
        sched_issued(&s, 3);
    }
    enum { A = 0x1000, B = 0x1080, C = 0x1100 };
    l1(&s, SCHED_L1_EVICT, 0, A);
    l1(&s, SCHED_L1_EVICT, 0, B);
    l1(&s, SCHED_L1_EVICT, 0, C);
    CHECK_EQ(sched_ccws_vta_count(&s, 0), 2);
    l1(&s, SCHED_L1_MISS, 0, A);
    l1(&s, SCHED_L1_MISS, 1, C);
    CHECK_EQ(sched_ccws_hits(&s), 0);
    CHECK_EQ(sched_ccws_score(&s, 0), 100);
    l1(&s, SCHED_L1_MISS, 0, B);
    CHECK_EQ(sched_ccws_hits(&s), 1);
    CHECK_EQ(sched_ccws_score(&s, 0), 500);
    CHECK_EQ(sched_ccws_vta_count(&s, 0), 1);
    l1(&s, SCHED_L1_MISS, 0, B);
    CHECK_EQ(sched_ccws_hits(&s), 1);
    CHECK_EQ(ccws_pick(&s, 14, 15, 108), -1);
    CHECK_EQ(sched_ccws_score(&s, 0), 499);
    CHECK_EQ(ccws_pick(&s, 14, 13, 108), 1);
    CHECK_EQ(ccws_pick(&s, 9, 15, 108), 0);
    sched_issued(&s, 0);
    CHECK_EQ(ccws_pick(&s, 6, 15, 357), -1);
    CHECK_EQ(sched_ccws_score(&s, 0), 250);
    CHECK_EQ(ccws_pick(&s, 12, 15, 357), 3);
    CHECK_EQ(ccws_pick(&s, 6, 15, 507), 2);
    CHECK_EQ(sched_ccws_score(&s, 0), 100);
    l1(&s, SCHED_L1_EVICT, 1, 0x2000);
    l1(&s, SCHED_L1_MISS, 1, 0x2000);
    CHECK_EQ(sched_ccws_hits(&s), 2);
    CHECK_EQ(sched_ccws_score(&s, 1), 811);
    sched_free(&s);
}

/* ---------- sca (reference 004 §2.4) ---------- */

enum { SN = 8 };

/* A warp of an SCA view: its block (block_age), index in its CTA and pair
 * role (0 alone, 1 lower CTA, 2 higher CTA), its age. */
typedef struct swarp {
    uint64_t block, age;
    uint32_t widx;
    uint8_t pair;
} swarp_t;

/* Runs `cycles` cycles of scheduler s over warps w[0..n) (slot i = w[i],
 * all valid), ready mask ready[c]; every pick issues.  Writes the picks. */
static void run_sca(sched_t *s, const swarp_t *w, unsigned n,
                    const unsigned *ready, unsigned cycles, int *picks)
{
    sched_slot_t view[SN];
    for (unsigned c = 0; c < cycles; c++) {
        sched_view_t v = { .slot = view };
        for (unsigned i = 0; i < n; i++) {
            view[i] = (sched_slot_t){ .age = w[i].age, .block_age = w[i].block,
                                      .widx = w[i].widx, .pair = w[i].pair };
            v.valid |= (uint64_t)1 << i;
        }
        v.ready = ready[c] & v.valid;
        picks[c] = sched_pick(s, &v, c);
        if (picks[c] >= 0)
            sched_issued(s, picks[c]);
        CHECK_EQ(sched_clock(s, c), 0);
    }
}

static void start_sca(sched_t *s, unsigned strict, unsigned n)
{
    sched_params_t p = { .kind = SCHED_SCA, .nslots = n, .sca_strict = strict };
    CHECK(sched_init(s, &p, 0) == NULL);
    for (unsigned i = 0; i < n; i++)
        sched_alloc(s, i);
    CHECK_EQ(sched_clock(s, 0), 0);
}

/* Block X = CTAs A (lower) and B (higher), 2 warps each: slots 0 A0, 1 A1,
 * 2 B0, 3 B1 (ages 0..3).  Block Y = CTAs C, D: slots 4 C0, 5 C1, 6 D0,
 * 7 D1 (ages 4..7).
 *  - all ready: nothing issued yet, so rule 3: the oldest block X, group
 *    k=0, lower first: A0; then rule 1 alternates: B0, A0, B0.
 *  - A0 and B0 stall (cycles 4..7): rule 2, group k=1 of X, lower first:
 *    A1, then alternation: B1, A1, B1.
 *  - all of X stalls (cycles 8..11): rule 3, the oldest other block Y:
 *    C0, D0, C0, D0. */
TEST(sched_sca_order)
{
    static const swarp_t w[SN] = {
        { 0, 0, 0, 1 }, { 0, 1, 1, 1 }, { 0, 2, 0, 2 }, { 0, 3, 1, 2 },
        { 4, 4, 0, 1 }, { 4, 5, 1, 1 }, { 4, 6, 0, 2 }, { 4, 7, 1, 2 } };
    unsigned ready[12];
    for (int c = 0; c < 4; c++)
        ready[c] = 0xff;
    for (int c = 4; c < 8; c++)
        ready[c] = 0xff & ~0x05u;
    for (int c = 8; c < 12; c++)
        ready[c] = 0xf0;
    static const int want[12] = { 0, 2, 0, 2, 1, 3, 1, 3, 4, 6, 4, 6 };
    for (unsigned strict = 0; strict < 2; strict++) {
        sched_t s;
        start_sca(&s, strict, SN);
        int picks[12];
        run_sca(&s, w, SN, ready, 12, picks);
        for (int c = 0; c < 12; c++)
            CHECK_MSG(picks[c] == want[c], "strict %u cycle %d: slot %d, want %d",
                      strict, c, picks[c], want[c]);
        sched_free(&s);
    }
}

/* The stall rules differ when one member of the current group stalls and
 * the other can issue.  After A0, B0 (cycles 0, 1), B0 stalls:
 *  relaxed: the group keeps priority while A0 can issue: A0, A0, A0;
 *  strict:  the group loses it: rule 2, group k=1: A1, then B1 (the other
 *           member of the new current group), A1. */
TEST(sched_sca_stall_rules)
{
    static const swarp_t w[4] = {
        { 0, 0, 0, 1 }, { 0, 1, 1, 1 }, { 0, 2, 0, 2 }, { 0, 3, 1, 2 } };
    static const unsigned ready[5] = { 0xf, 0xf, 0xb, 0xb, 0xb };
    static const int want[2][5] = { { 0, 2, 0, 0, 0 }, { 0, 2, 1, 3, 1 } };
    for (unsigned strict = 0; strict < 2; strict++) {
        sched_t s;
        start_sca(&s, strict, 4);
        int picks[5];
        run_sca(&s, w, 4, ready, 5, picks);
        for (int c = 0; c < 5; c++)
            CHECK_MSG(picks[c] == want[strict][c], "strict %u cycle %d: slot %d, "
                      "want %d", strict, c, picks[c], want[strict][c]);
        sched_free(&s);
    }
}

/* Singleton blocks (CTAs placed alone: 4 CTAs of 2 warps, ages by slot)
 * make SCA exactly GTO: both schedulers see the same 300 pseudo-random
 * ready masks (an LCG, so the sequence is fixed) and must pick the same
 * slot every cycle. */
TEST(sched_sca_singletons_are_gto)
{
    swarp_t w[SN];
    for (unsigned i = 0; i < SN; i++)
        w[i] = (swarp_t){ .block = i / 2 * 2, .age = i, .widx = i % 2, .pair = 0 };
    enum { C = 300 };
    unsigned ready[C];
    uint32_t x = 12345;
    for (int c = 0; c < C; c++) {
        x = x * 1103515245u + 12345u;
        ready[c] = (x >> 16) & 0xff;
    }
    for (unsigned strict = 0; strict < 2; strict++) {
        sched_t sca, gto;
        start_sca(&sca, strict, SN);
        sched_params_t p = { .kind = SCHED_GTO, .nslots = SN };
        CHECK(sched_init(&gto, &p, 0) == NULL);
        for (unsigned i = 0; i < SN; i++) { /* one per cycle: slot order = age */
            sched_alloc(&gto, i);
            CHECK_EQ(sched_clock(&gto, i), 0);
        }
        int a[C], b[C];
        run_sca(&sca, w, SN, ready, C, a);
        run_sca(&gto, w, SN, ready, C, b);
        int differ = 0;
        for (int c = 0; c < C; c++)
            differ += a[c] != b[c];
        CHECK_MSG(differ == 0, "strict %u: %d cycles differ", strict, differ);
        sched_free(&sca);
        sched_free(&gto);
    }
}

/* Rule 2's order in a block of two 3-warp CTAs: slots 0..2 = A0, A1, A2,
 * 3..5 = B0, B1, B2 (one pair, ages 0..5).
 *  cycle 0, all ready: A0 (rule 3); cycle 1: B0 (rule 1).
 *  cycle 2, only B1 and A2 ready: group k=1 comes before k=2 even though
 *    its ready member is the higher CTA's: B1 (slot 4).
 *  cycle 3, only A0 and A2 ready (group 1 stalled): the next group after
 *    k=1 is k=2: A2 (slot 2).
 *  cycle 4, only A0 and B1 ready (group 2 stalled): cyclically after k=2
 *    comes k=0: A0 (slot 0). */
TEST(sched_sca_next_group_in_block)
{
    static const swarp_t w[6] = {
        { 0, 0, 0, 1 }, { 0, 1, 1, 1 }, { 0, 2, 2, 1 },
        { 0, 3, 0, 2 }, { 0, 4, 1, 2 }, { 0, 5, 2, 2 } };
    static const unsigned ready[5] = { 0x3f, 0x3f, 0x14, 0x05, 0x11 };
    static const int want[5] = { 0, 3, 4, 2, 0 };
    sched_t s;
    start_sca(&s, 0, 6);
    int picks[5];
    run_sca(&s, w, 6, ready, 5, picks);
    for (int c = 0; c < 5; c++)
        CHECK_MSG(picks[c] == want[c], "cycle %d: slot %d, want %d", c, picks[c], want[c]);
    sched_free(&s);
}
