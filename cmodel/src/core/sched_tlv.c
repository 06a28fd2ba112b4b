/* sched_tlv.c: the two-level round-robin policy (sched.h) of Narasiman et
 * al., "Improving GPU Performance via Large Warps and Two-Level Warp
 * Scheduling" (MICRO'11), as reference 004 §2.1 states it.
 *
 * Fetch groups: local slot l belongs to group l / tlv_group_size (groups
 * by slot, fixed for the run, as Narasiman's are by warp id; the last
 * group may be smaller).  One group is current.  Each cycle:
 *   1. if a warp of the current group is ready, the first ready one
 *      round robin inside the group, starting after the group's warp that
 *      issued last (its own pointer), issues;
 *   2. otherwise every warp of the group is stalled: the next group
 *      cyclically (current+1, current+2, ...) with a ready warp becomes
 *      current and issues its first ready warp round robin as in 1;
 *   3. no ready warp anywhere: -1, and the current group stays.
 * So a group keeps the issue slot until all its warps stall, even when an
 * earlier group has ready warps again (it is not a priority order).
 * A group whose warps have finished holds no valid slot, so it is never
 * ready and step 2 passes over it; a slot that a new CTA's warp refills
 * rejoins the group of its slot.
 *
 * Not two_level (sched_two_level.c, Gebhart): there an active set of at
 * most N warps is rebuilt every cycle from a pending FIFO as warps start
 * and finish long-latency waits; here the groups are fixed and the switch
 * is on "no ready warp in the group", whatever the reason. */
#include <stdlib.h>

#include "core/sched.h"

typedef struct tlv {
    unsigned cur;              /* the current fetch group */
    unsigned ngroups;
    uint64_t group_mask;       /* the slots of group 0 (shifted per group) */
    uint8_t last[SCHED_MAX_SLOTS]; /* per group: offset that issued last */
} tlv_t;

static const char *tlv_init(sched_t *s, uint64_t now)
{
    (void)now;
    unsigned g = s->p.tlv_group;
    if (g == 0 || g > SCHED_MAX_SLOTS)
        return "tlv_group_size must be 1..64 warps";
    tlv_t *t = calloc(1, sizeof *t);
    if (!t)
        return "out of memory";
    t->ngroups = (s->p.nslots + g - 1) / g;
    t->group_mask = g == 64 ? ~(uint64_t)0 : ((uint64_t)1 << g) - 1;
    for (unsigned k = 0; k < SCHED_MAX_SLOTS; k++)
        t->last[k] = (uint8_t)(g - 1); /* round robin starts at offset 0 */
    s->state = t;
    return NULL;
}

static int tlv_reset(sched_t *s, uint64_t now)
{
    (void)now;
    tlv_t *t = s->state;
    t->cur = 0;
    for (unsigned k = 0; k < SCHED_MAX_SLOTS; k++)
        t->last[k] = (uint8_t)(s->p.tlv_group - 1);
    return 0;
}

/* The first ready slot of group grp round robin after its last issuer, or
 * -1. */
static int tlv_in_group(const tlv_t *t, unsigned size, unsigned grp,
                        uint64_t ready)
{
    uint64_t m = ready >> (grp * size) & t->group_mask;
    if (!m)
        return -1;
    unsigned from = (t->last[grp] + 1u) % size;
    uint64_t after = m & (~(uint64_t)0 << from);
    unsigned off = (unsigned)__builtin_ctzll(after ? after : m);
    return (int)(grp * size + off);
}

static int tlv_pick(sched_t *s, const sched_view_t *v, uint64_t now)
{
    (void)now;
    tlv_t *t = s->state;
    unsigned size = s->p.tlv_group;
    for (unsigned k = 0; k < t->ngroups; k++) {
        unsigned grp = (t->cur + k) % t->ngroups;
        int i = tlv_in_group(t, size, grp, v->ready);
        if (i >= 0)
            return i;
    }
    return -1;
}

/* The issuing slot's group becomes current (the issue stage may issue a
 * slot other than the pick: the state follows what issued). */
static void tlv_issued(sched_t *s, int slot)
{
    tlv_t *t = s->state;
    unsigned size = s->p.tlv_group;
    if (slot < 0)
        return;
    t->cur = (unsigned)slot / size;
    t->last[t->cur] = (uint8_t)((unsigned)slot % size);
}

static void tlv_event(sched_t *s, unsigned slot) { (void)s; (void)slot; }
static int tlv_clock(sched_t *s, uint64_t now) { (void)s; (void)now; return 0; }

const sched_ops_t sched_tlv_ops = {
    .init = tlv_init, .reset = tlv_reset, .alloc = tlv_event,
    .finished = tlv_event, .pick = tlv_pick, .issued = tlv_issued,
    .clock = tlv_clock,
};
