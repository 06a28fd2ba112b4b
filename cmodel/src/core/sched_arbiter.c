/* sched_arbiter.c: the policies of the warp arbiter unit: lrr, gto, owf
 * and ltlws (sched.h; the rules are the unit's, docs/units/warp_arbiter.md).
 *
 * The scheduler drives the unit's C twin through its ports: the view's
 * masks and classes are the cycle's inputs, eval gives the grant, the
 * allocations, finishes and the issue of the cycle are the inputs of the
 * clock edge.  Every call is also offered to the unit hooks, so that a
 * co-simulation can check the twin against the RTL, or let the RTL's grant
 * drive the pipeline.
 *
 * ltlws leaves the active set to warps that can go on: once W_Opt is set
 * (the unit has "degenerated to two-level", reference 001 §2.7), a warp
 * waiting at a barrier or on a long-latency operation is not presented as
 * valid, so that the W_Opt oldest *non-waiting* warps are the active set.
 * Counting the waiting ones instead deadlocks whenever the W_Opt oldest
 * warps wait at a barrier that the capped-out warps never reach
 * (docs/units/warp_arbiter.md, D11). */
#include <stdlib.h>

#include "core/sched_arbiter.h"

typedef struct arbiter {
    warp_arbiter_state_t arb;
    warp_arbiter_in_t in;      /* this cycle's input ports */
    int evaluated;             /* eval ran this cycle */
} arbiter_t;

static int arbiter_policy(sched_kind_t k)
{
    switch (k) {
    case SCHED_LRR: return WARP_ARBITER_LRR;
    case SCHED_GTO: return WARP_ARBITER_GTO;
    case SCHED_OWF: return WARP_ARBITER_OWF;
    default: return WARP_ARBITER_LTLWS;
    }
}

static int arb_reset(sched_t *s, uint64_t now)
{
    arbiter_t *a = s->state;
    warp_arbiter_reset(&a->arb);
    a->in.valid = a->in.ready = a->in.alloc = a->in.finished = 0;
    a->in.issued_valid = 0;
    a->in.issued_idx = 0;
    a->evaluated = 0;
    return unit_hooks_reset(s->p.hooks, &warp_arbiter_desc, s->p.instance, now,
                            &a->arb);
}

static const char *arb_init(sched_t *s, uint64_t now)
{
    warp_arbiter_cfg_t cfg = warp_arbiter_default_cfg();
    cfg.n = s->p.nslots;
    while (cfg.n > (1u << cfg.wopt_w) - 1) /* the W_Opt register holds N */
        cfg.wopt_w++;
    if (s->p.ltlws_inner > 1)
        return "bad warp arbiter parameters";
    arbiter_t *a = calloc(1, sizeof *a);
    if (!a)
        return "out of memory";
    s->state = a;
    if (warp_arbiter_init(&a->arb, &cfg) != 0)
        return "bad warp arbiter parameters";
    a->in.policy = (uint8_t)arbiter_policy(s->p.kind);
    a->in.ltlws_inner = (uint8_t)s->p.ltlws_inner;
    if (arb_reset(s, now) != 0)
        return "co-simulation stopped at the arbiter's reset";
    return NULL;
}

static void arb_alloc(sched_t *s, unsigned slot)
{
    ((arbiter_t *)s->state)->in.alloc |= (uint64_t)1 << slot;
}

static void arb_finished(sched_t *s, unsigned slot)
{
    ((arbiter_t *)s->state)->in.finished |= (uint64_t)1 << slot;
}

static int arb_pick(sched_t *s, const sched_view_t *v, uint64_t now)
{
    arbiter_t *a = s->state;
    warp_arbiter_in_t *in = &a->in;
    uint64_t valid = v->valid;
    if (in->policy == WARP_ARBITER_LTLWS && a->arb.wopt_valid)
        valid &= ~v->waiting;
    in->valid = valid;
    in->ready = v->ready & valid;
    /* cls_i: the class of every valid slot, 0 elsewhere; OWF is the only
     * policy that reads it.  The issue stage keeps the classes as two bit
     * masks (v->cls_b0, v->cls_b1): with no hook watching the ports the
     * twin takes them as they are.  Copying per-slot class bytes into the
     * port array at every pick cost a cache line read and one written (the
     * arbiters of every SM's schedulers do not stay in the host's L1), and
     * sorting the candidates into classes a loop the host mispredicts. */
    _Static_assert(sizeof in->cls == SCHED_MAX_SLOTS, "cls_i is one byte a slot");
    warp_arbiter_out_t out;
    if (!s->p.hooks && (in->policy != WARP_ARBITER_OWF || v->has_cls)) {
        /* (the masks are read by OWF alone) */
        warp_arbiter_eval_classes(&a->arb, in, v->cls_b0, v->cls_b1, &out);
        a->evaluated = 1;
        return out.grant_valid ? (int)out.grant_idx : -1;
    }
    /* the port array, for the hooks (and a view built by hand) */
    if (in->policy == WARP_ARBITER_OWF && v->has_cls)
        for (unsigned l = 0; l < s->p.nslots; l++)
            in->cls[l] = (uint8_t)((v->cls_b0 >> l & 1) | (v->cls_b1 >> l & 1) << 1);
    else if (in->policy == WARP_ARBITER_OWF)
        for (unsigned l = 0; l < s->p.nslots; l++)
            in->cls[l] = v->valid >> l & 1 ? v->slot[l].cls : 0;
    warp_arbiter_eval(&a->arb, in, &out);
    a->evaluated = 1;
    if (unit_hooks_eval(s->p.hooks, &warp_arbiter_desc, s->p.instance, now,
                        &a->arb, in, &out))
        return SCHED_STOP;
    return out.grant_valid ? (int)out.grant_idx : -1;
}

static void arb_issued(sched_t *s, int slot)
{
    arbiter_t *a = s->state;
    a->in.issued_valid = 1;
    a->in.issued_idx = (uint32_t)slot;
}

static int arb_clock(sched_t *s, uint64_t now)
{
    arbiter_t *a = s->state;
    warp_arbiter_in_t *in = &a->in;
    if (!a->evaluated)
        in->ready = 0; /* clocked for an event only: nobody could issue */
    warp_arbiter_tick(&a->arb, in);
    int rc = unit_hooks_tick(s->p.hooks, &warp_arbiter_desc, s->p.instance, now,
                             in, &a->arb);
    in->alloc = in->finished = 0;
    in->issued_valid = 0;
    in->issued_idx = 0;
    a->evaluated = 0;
    return rc;
}

const warp_arbiter_state_t *sched_arbiter_state(const sched_t *s)
{
    return &((const arbiter_t *)s->state)->arb;
}

const sched_ops_t sched_arbiter_ops = {
    .init = arb_init, .reset = arb_reset, .alloc = arb_alloc,
    .finished = arb_finished, .pick = arb_pick, .issued = arb_issued,
    .clock = arb_clock,
};
