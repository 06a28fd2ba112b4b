/* sched_sca.c: SCA, the sequential CTA-aware warp scheduler that goes with
 * BCS (sched.h; reference 004 §2.4, Lee et al. HPCA'14).
 *
 * A block is a BCS pair of CTAs placed together on the SM (or a CTA placed
 * alone: a singleton block); the view names it by block_age (the age of
 * the lower CTA's warp 0, so older blocks compare smaller) and gives each
 * warp its index widx in its CTA and whether its CTA is the pair's lower or
 * higher.  Group (b, k) = {warp k of b's lower CTA, warp k of its higher}.
 * State: the current group (that of the warp that issued last) and the
 * slot that issued last.  Each cycle the first ready warp in this order
 * issues:
 *   1. the current group: its other member first, then the member that
 *      issued last (so A0,B0,A0,B0,...).  With sca_stall_rule=strict the
 *      group is skipped here as soon as one of its valid members cannot
 *      issue, even if the other can.
 *   2. (paired blocks only) the groups (b, k+1), (b, k+2), ... cyclically
 *      within the current block, each its lower-CTA warp first; under the
 *      strict rule the current group comes last in this cycle.
 *   3. every block, oldest first; inside one, groups in increasing k, the
 *      lower CTA's warp first.
 * For a singleton block, 1 is "the slot that issued last" (GTO's greedy
 * rule, taken slot for slot) and 2 is skipped, so on singleton blocks the
 * order is exactly GTO's: the last issuer while ready, else the oldest
 * ready warp (3, since a singleton's warps are ordered by age).  With two
 * schedulers per SM, sm_add_cta_pair puts warp k of both CTAs of a pair
 * into the same scheduler (docs/cta-scheduling.md), so a group is whole in
 * one scheduler's view.
 *
 * Invariants: pick returns a ready local slot or -1; the state changes only
 * in issued (and reset); pick, issued and clock never allocate. */
#include <stdlib.h>

#include "core/sched.h"

typedef struct sca {
    int last;                  /* local slot that issued last, or -1 */
    int have_cur;              /* the current group below is set */
    uint64_t cur_block;        /* its block_age */
    uint32_t cur_widx;         /* its k */
    uint8_t cur_pair;          /* the last issuer's pair field */
    const sched_slot_t *view;  /* this cycle's view (for issued) */
} sca_t;

static int sca_reset(sched_t *s, uint64_t now)
{
    (void)now;
    sca_t *a = s->state;
    a->last = -1;
    a->have_cur = 0;
    return 0;
}

static const char *sca_init(sched_t *s, uint64_t now)
{
    if (s->p.sca_strict > 1)
        return "sca_stall_rule must be relaxed or strict";
    s->state = calloc(1, sizeof(sca_t));
    if (!s->state)
        return "out of memory";
    sca_reset(s, now);
    return NULL;
}

/* The ready slot of `m` with the smallest key, or -1. */
static int least(const sched_view_t *v, uint64_t m,
                 uint64_t (*key)(const sched_slot_t *, const sca_t *),
                 const sca_t *a)
{
    int best = -1;
    uint64_t bk = 0;
    for (; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        uint64_t k = key(&v->slot[i], a);
        if (best < 0 || k < bk) {
            best = i;
            bk = k;
        }
    }
    return best;
}

/* Rule 2's order: cyclic distance after the current group, lower first
 * (the current group itself last: distance 2^32 - 1). */
static uint64_t key_in_block(const sched_slot_t *sl, const sca_t *a)
{
    uint32_t d = sl->widx - a->cur_widx - 1;
    return (uint64_t)d << 1 | (sl->pair == 2);
}

static int in_group(const sched_slot_t *sl, const sca_t *a)
{
    return sl->block_age == a->cur_block && sl->widx == a->cur_widx;
}

static int sca_pick(sched_t *s, const sched_view_t *v, uint64_t now)
{
    (void)now;
    sca_t *a = s->state;
    a->view = v->slot;
    if (!v->ready)
        return -1;
    if (a->have_cur && a->cur_pair == 0) {
        /* a singleton block: GTO's greedy rule */
        if (a->last >= 0 && (v->ready >> a->last & 1))
            return a->last;
    } else if (a->have_cur) {
        uint64_t group = 0, block = 0;
        for (uint64_t m = v->valid; m; m &= m - 1) {
            int i = __builtin_ctzll(m);
            if (v->slot[i].block_age != a->cur_block)
                continue;
            block |= (uint64_t)1 << i;
            if (in_group(&v->slot[i], a))
                group |= (uint64_t)1 << i;
        }
        int stalled = s->p.sca_strict && (group & ~v->ready);
        if (!stalled) {
            uint64_t other = group & v->ready;
            if (a->last >= 0)
                other &= ~((uint64_t)1 << a->last);
            if (other)
                return __builtin_ctzll(other);
            if (a->last >= 0 && (group & v->ready) >> a->last & 1)
                return a->last;
        }
        uint64_t cand = block & v->ready & (stalled ? ~(uint64_t)0 : ~group);
        if (cand)
            return least(v, cand, key_in_block, a);
    }
    /* 3: oldest block, increasing k, lower CTA first */
    int best = -1;
    for (uint64_t m = v->ready; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        const sched_slot_t *x = &v->slot[i], *b = best >= 0 ? &v->slot[best] : NULL;
        if (!b || x->block_age < b->block_age ||
            (x->block_age == b->block_age &&
             (x->widx < b->widx ||
              (x->widx == b->widx && (x->pair < b->pair ||
                                      (x->pair == b->pair && x->age < b->age))))))
            best = i;
    }
    return best;
}

static void sca_issued(sched_t *s, int slot)
{
    sca_t *a = s->state;
    const sched_slot_t *sl = &a->view[slot];
    a->last = slot;
    a->have_cur = 1;
    a->cur_block = sl->block_age;
    a->cur_widx = sl->widx;
    a->cur_pair = sl->pair;
}

static void sca_event(sched_t *s, unsigned slot) { (void)s; (void)slot; }
static int sca_clock(sched_t *s, uint64_t now) { (void)s; (void)now; return 0; }

const sched_ops_t sched_sca_ops = {
    .init = sca_init, .reset = sca_reset, .alloc = sca_event,
    .finished = sca_event, .pick = sca_pick, .issued = sca_issued,
    .clock = sca_clock,
};
