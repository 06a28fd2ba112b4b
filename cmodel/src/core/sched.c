/* sched.c: the warp scheduler policies (see sched.h). */
#include <stdlib.h>

#include "core/sched.h"

/* First ready slot scanning `order` (n entries) from position `from`. */
static int first_ready_from(const sched_slot_t *slots, const uint32_t *order,
                            unsigned n, unsigned from)
{
    for (unsigned k = 0; k < n; k++) {
        uint32_t i = order ? order[(from + k) % n] : (from + k) % n;
        if (slots[i].valid && slots[i].ready)
            return (int)i;
    }
    return -1;
}

static int pick_lrr(sched_t *s, const sched_slot_t *slots)
{
    unsigned from = s->last < 0 ? 0 : (unsigned)s->last + 1;
    return first_ready_from(slots, NULL, s->nslots, from % s->nslots);
}

static int oldest_ready(const sched_t *s, const sched_slot_t *slots)
{
    int best = -1;
    for (unsigned i = 0; i < s->nslots; i++)
        if (slots[i].valid && slots[i].ready &&
            (best < 0 || slots[i].age < slots[best].age))
            best = (int)i;
    return best;
}

static int pick_gto(sched_t *s, const sched_slot_t *slots)
{
    if (s->last >= 0 && slots[s->last].valid && slots[s->last].ready)
        return s->last;
    return oldest_ready(s, slots);
}

static int pick_oldest(sched_t *s, const sched_slot_t *slots)
{
    return oldest_ready(s, slots);
}

static void remove_at(uint32_t *list, unsigned *n, unsigned k)
{
    for (unsigned j = k + 1; j < *n; j++)
        list[j - 1] = list[j];
    (*n)--;
}

/* Moves slots between the active set and the pending FIFO (sched.h). */
static void two_level_update(sched_t *s, const sched_slot_t *slots)
{
    for (unsigned i = 0; i < s->nslots; i++)
        if (slots[i].valid && !s->member[i]) {
            s->pending[s->npending++] = i;
            s->member[i] = 2;
        }
    for (unsigned k = 0; k < s->nactive;) {
        uint32_t i = s->active[k];
        if (slots[i].valid && !slots[i].long_wait) {
            k++;
            continue;
        }
        remove_at(s->active, &s->nactive, k);
        s->member[i] = 0;
        if (slots[i].valid) {
            s->pending[s->npending++] = i;
            s->member[i] = 2;
        }
    }
    for (unsigned k = 0; k < s->npending && s->nactive < s->active_max;) {
        uint32_t i = s->pending[k];
        if (!slots[i].valid) {
            remove_at(s->pending, &s->npending, k);
            s->member[i] = 0;
        } else if (slots[i].long_wait) {
            k++;
        } else {
            remove_at(s->pending, &s->npending, k);
            s->active[s->nactive++] = i;
            s->member[i] = 1;
        }
    }
}

static int pick_two_level(sched_t *s, const sched_slot_t *slots)
{
    two_level_update(s, slots);
    if (!s->nactive)
        return -1;
    unsigned from = 0;
    for (unsigned k = 0; k < s->nactive; k++)
        if ((int)s->active[k] == s->last)
            from = k + 1;
    return first_ready_from(slots, s->active, s->nactive, from % s->nactive);
}

static const sched_policy_t policies[SCHED_NKINDS] = {
    [SCHED_LRR] = { "lrr", pick_lrr },
    [SCHED_GTO] = { "gto", pick_gto },
    [SCHED_OLDEST] = { "oldest", pick_oldest },
    [SCHED_TWO_LEVEL] = { "two_level", pick_two_level },
};

int sched_init(sched_t *s, sched_kind_t kind, unsigned nslots,
               unsigned two_level_active)
{
    *s = (sched_t){ .last = -1 };
    if ((unsigned)kind >= SCHED_NKINDS || nslots == 0 ||
        (kind == SCHED_TWO_LEVEL && two_level_active == 0))
        return -1;
    s->policy = &policies[kind];
    s->nslots = nslots;
    s->active_max = two_level_active;
    s->member = calloc(nslots, sizeof *s->member);
    s->active = calloc(nslots, sizeof *s->active);
    s->pending = calloc(nslots, sizeof *s->pending);
    if (!s->member || !s->active || !s->pending) {
        sched_free(s);
        return -1;
    }
    return 0;
}

void sched_free(sched_t *s)
{
    free(s->member);
    free(s->active);
    free(s->pending);
    *s = (sched_t){ .last = -1 };
}

int sched_pick(sched_t *s, const sched_slot_t *slots)
{
    return s->policy->pick(s, slots);
}

void sched_issued(sched_t *s, int slot)
{
    s->last = slot;
}

const char *sched_kind_name(sched_kind_t k)
{
    return (unsigned)k < SCHED_NKINDS ? policies[k].name : "?";
}
