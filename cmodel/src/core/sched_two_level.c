/* sched_two_level.c: the two-level policy (sched.h), after Gebhart et al.
 * (ISCA'11) as reference 001 §2.7 describes it.
 *
 * An active set of at most `two_level_active` slots and a pending FIFO.
 * Every cycle, active slots that wait (at a barrier or on a long-latency
 * operation) or no longer hold a warp leave the active set (valid ones
 * join the back of the pending FIFO); then pending slots that do not wait
 * fill the active set in FIFO order.  New warps join the back of the
 * pending FIFO.  Within the active set, LRR in set order, starting after
 * the slot that issued last.  A warp waiting at a barrier leaves too:
 * otherwise an active set full of warps at a barrier would wait forever
 * for pending warps that never become active. */
#include <stdlib.h>

#include "core/sched.h"

typedef struct two_level {
    int last;                  /* local slot that issued last, or -1 */
    uint8_t member[SCHED_MAX_SLOTS]; /* 0 none, 1 active, 2 pending */
    uint32_t active[SCHED_MAX_SLOTS];
    unsigned nactive;
    uint32_t pending[SCHED_MAX_SLOTS];
    unsigned npending;
} two_level_t;

static const char *tl_init(sched_t *s, uint64_t now)
{
    (void)now;
    if (s->p.two_level_active == 0)
        return "two-level needs an active set of at least one warp";
    two_level_t *t = calloc(1, sizeof *t);
    if (!t)
        return "out of memory";
    t->last = -1;
    s->state = t;
    return NULL;
}

static int tl_reset(sched_t *s, uint64_t now)
{
    (void)now;
    ((two_level_t *)s->state)->last = -1;
    return 0;
}

static void remove_at(uint32_t *list, unsigned *n, unsigned k)
{
    for (unsigned j = k + 1; j < *n; j++)
        list[j - 1] = list[j];
    (*n)--;
}

/* Moves slots between the active set and the pending FIFO. */
static void tl_update(two_level_t *t, const sched_view_t *v, unsigned nslots,
                      unsigned cap)
{
    for (unsigned i = 0; i < nslots; i++)
        if ((v->valid >> i & 1) && !t->member[i]) {
            t->pending[t->npending++] = i;
            t->member[i] = 2;
        }
    for (unsigned k = 0; k < t->nactive;) {
        uint32_t i = t->active[k];
        int valid = v->valid >> i & 1;
        if (valid && !(v->waiting >> i & 1)) {
            k++;
            continue;
        }
        remove_at(t->active, &t->nactive, k);
        t->member[i] = 0;
        if (valid) {
            t->pending[t->npending++] = i;
            t->member[i] = 2;
        }
    }
    for (unsigned k = 0; k < t->npending && t->nactive < cap;) {
        uint32_t i = t->pending[k];
        if (!(v->valid >> i & 1)) {
            remove_at(t->pending, &t->npending, k);
            t->member[i] = 0;
        } else if (v->waiting >> i & 1) {
            k++;
        } else {
            remove_at(t->pending, &t->npending, k);
            t->active[t->nactive++] = i;
            t->member[i] = 1;
        }
    }
}

static int tl_pick(sched_t *s, const sched_view_t *v, uint64_t now)
{
    (void)now;
    two_level_t *t = s->state;
    tl_update(t, v, s->p.nslots, s->p.two_level_active);
    if (!t->nactive)
        return -1;
    unsigned from = 0;
    for (unsigned k = 0; k < t->nactive; k++)
        if ((int)t->active[k] == t->last)
            from = k + 1;
    for (unsigned k = 0; k < t->nactive; k++) {
        uint32_t i = t->active[(from + k) % t->nactive];
        if (v->ready >> i & 1)
            return (int)i;
    }
    return -1;
}

static void tl_event(sched_t *s, unsigned slot) { (void)s; (void)slot; }
static void tl_issued(sched_t *s, int slot) { ((two_level_t *)s->state)->last = slot; }
static int tl_clock(sched_t *s, uint64_t now) { (void)s; (void)now; return 0; }

const sched_ops_t sched_two_level_ops = {
    .init = tl_init, .reset = tl_reset, .alloc = tl_event,
    .finished = tl_event, .pick = tl_pick, .issued = tl_issued,
    .clock = tl_clock,
};
