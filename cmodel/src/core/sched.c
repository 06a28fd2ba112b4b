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

static int oldest_ready(const sched_t *s, const sched_slot_t *slots)
{
    int best = -1;
    for (unsigned i = 0; i < s->p.nslots; i++)
        if (slots[i].valid && slots[i].ready &&
            (best < 0 || slots[i].age < slots[best].age))
            best = (int)i;
    return best;
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
    for (unsigned i = 0; i < s->p.nslots; i++)
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
    for (unsigned k = 0; k < s->npending && s->nactive < s->p.two_level_active;) {
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

static const char *const kind_names[SCHED_NKINDS] = {
    [SCHED_LRR] = "lrr", [SCHED_GTO] = "gto", [SCHED_OLDEST] = "oldest",
    [SCHED_TWO_LEVEL] = "two_level", [SCHED_OWF] = "owf",
    [SCHED_LTLWS] = "ltlws",
};

/* The arbiter's policy_i for the arbiter kinds, -1 for the others. */
static int arbiter_policy(sched_kind_t k)
{
    switch (k) {
    case SCHED_LRR: return WARP_ARBITER_LRR;
    case SCHED_GTO: return WARP_ARBITER_GTO;
    case SCHED_OWF: return WARP_ARBITER_OWF;
    case SCHED_LTLWS: return WARP_ARBITER_LTLWS;
    default: return -1;
    }
}

const char *sched_init(sched_t *s, const sched_params_t *p, uint64_t now)
{
    *s = (sched_t){ .p = *p, .last = -1 };
    if ((unsigned)p->kind >= SCHED_NKINDS || p->nslots == 0)
        return "bad scheduler kind or no warp slots";
    int policy = arbiter_policy(p->kind);
    if (policy >= 0) {
        warp_arbiter_cfg_t cfg = warp_arbiter_default_cfg();
        cfg.n = p->nslots;
        while (cfg.n > (1u << cfg.wopt_w) - 1) /* the W_Opt register holds N */
            cfg.wopt_w++;
        if (p->nslots > WARP_ARBITER_MAX_N)
            return "the warp arbiter holds at most 64 warp slots per scheduler "
                   "(raise gpgpu_num_sched_per_core)";
        if (p->ltlws_inner > 1 || warp_arbiter_init(&s->arb, &cfg) != 0)
            return "bad warp arbiter parameters";
        s->arbiter = 1;
        s->in.policy = (uint8_t)policy;
        s->in.ltlws_inner = (uint8_t)p->ltlws_inner;
        if (sched_reset(s, now) != 0)
            return "co-simulation stopped at the arbiter's reset";
        return NULL;
    }
    if (p->kind == SCHED_TWO_LEVEL && p->two_level_active == 0)
        return "two-level needs an active set of at least one warp";
    s->member = calloc(p->nslots, sizeof *s->member);
    s->active = calloc(p->nslots, sizeof *s->active);
    s->pending = calloc(p->nslots, sizeof *s->pending);
    if (!s->member || !s->active || !s->pending) {
        sched_free(s);
        return "out of memory";
    }
    return NULL;
}

void sched_free(sched_t *s)
{
    free(s->member);
    free(s->active);
    free(s->pending);
    *s = (sched_t){ .last = -1 };
}

int sched_reset(sched_t *s, uint64_t now)
{
    s->last = -1;
    if (!s->arbiter)
        return 0;
    warp_arbiter_reset(&s->arb);
    s->in.valid = s->in.ready = s->in.alloc = s->in.finished = 0;
    s->in.issued_valid = 0;
    s->in.issued_idx = 0;
    s->evaluated = 0;
    return unit_hooks_reset(s->p.hooks, &warp_arbiter_desc, s->p.instance, now, &s->arb);
}

void sched_alloc(sched_t *s, unsigned slot)
{
    s->in.alloc |= (uint64_t)1 << slot;
}

void sched_finished(sched_t *s, unsigned slot)
{
    s->in.finished |= (uint64_t)1 << slot;
}

/* The arbiter's grant for the valid and ready masks (in->cls is set). */
static int arbiter_grant(sched_t *s, uint64_t valid, uint64_t ready, uint64_t now)
{
    warp_arbiter_in_t *in = &s->in;
    in->valid = valid;
    in->ready = ready;
    warp_arbiter_out_t out;
    warp_arbiter_eval(&s->arb, in, &out);
    s->evaluated = 1;
    if (unit_hooks_eval(s->p.hooks, &warp_arbiter_desc, s->p.instance, now, &s->arb, in, &out))
        return SCHED_STOP;
    return out.grant_valid ? (int)out.grant_idx : -1;
}

static int arbiter_pick(sched_t *s, const sched_slot_t *slots, uint64_t now)
{
    uint64_t valid = 0, ready = 0;
    for (unsigned i = 0; i < s->p.nslots; i++) {
        valid |= (uint64_t)slots[i].valid << i;
        ready |= (uint64_t)(slots[i].valid && slots[i].ready) << i;
        s->in.cls[i] = slots[i].cls;
    }
    return arbiter_grant(s, valid, ready, now);
}

int sched_pick_masks(sched_t *s, uint64_t valid, uint64_t ready, uint64_t now)
{
    return arbiter_grant(s, valid, ready & valid, now);
}

int sched_pick(sched_t *s, const sched_slot_t *slots, uint64_t now)
{
    switch (s->p.kind) {
    case SCHED_OLDEST: return oldest_ready(s, slots);
    case SCHED_TWO_LEVEL: return pick_two_level(s, slots);
    default: return arbiter_pick(s, slots, now);
    }
}

void sched_issued(sched_t *s, int slot)
{
    s->last = slot;
    s->in.issued_valid = 1;
    s->in.issued_idx = (uint32_t)slot;
}

int sched_pending(const sched_t *s)
{
    return s->arbiter && (s->in.alloc | s->in.finished);
}

int sched_clock(sched_t *s, uint64_t now)
{
    if (!s->arbiter)
        return 0;
    warp_arbiter_in_t *in = &s->in;
    if (!s->evaluated)
        in->ready = 0; /* clocked for an event only: nobody could issue */
    warp_arbiter_tick(&s->arb, in);
    int rc = unit_hooks_tick(s->p.hooks, &warp_arbiter_desc, s->p.instance, now, in, &s->arb);
    in->alloc = in->finished = 0;
    in->issued_valid = 0;
    in->issued_idx = 0;
    s->evaluated = 0;
    return rc;
}

const char *sched_kind_name(sched_kind_t k)
{
    return (unsigned)k < SCHED_NKINDS ? kind_names[k] : "?";
}
