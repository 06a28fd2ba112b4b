/* sched_oldest.c: the oldest-first policy (sched.h).  Every cycle the
 * ready slot with the smallest age (dynamic warp id) issues.  No state. */
#include <stddef.h>

#include "core/sched.h"

static const char *oldest_init(sched_t *s, uint64_t now)
{
    (void)s;
    (void)now;
    return NULL;
}

static int oldest_pick(sched_t *s, const sched_view_t *v, uint64_t now)
{
    (void)s;
    (void)now;
    int best = -1;
    for (uint64_t r = v->ready; r; r &= r - 1) {
        int i = __builtin_ctzll(r);
        if (best < 0 || v->slot[i].age < v->slot[best].age)
            best = i;
    }
    return best;
}

static int oldest_reset(sched_t *s, uint64_t now) { (void)s; (void)now; return 0; }
static void oldest_event(sched_t *s, unsigned slot) { (void)s; (void)slot; }
static void oldest_issued(sched_t *s, int slot) { (void)s; (void)slot; }

const sched_ops_t sched_oldest_ops = {
    .init = oldest_init, .reset = oldest_reset, .alloc = oldest_event,
    .finished = oldest_event, .pick = oldest_pick, .issued = oldest_issued,
    .clock = oldest_reset,
};
