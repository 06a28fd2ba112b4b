/* sm_ready.c: the issue gates and the cached readiness of warp slots
 * (sm_ready.h). */
#include <stdio.h>
#include <stdlib.h>

#include "core/sm.h"
#include "units/warp_arbiter.h"

/* Each gate: what it stands for and the SM-wide events that can open it
 * (the warp's own events, sm_ready_touch, open any gate); gate_closed()
 * below says whether it is closed. */
static const struct {
    const char *name;          /* for reports */
    sm_stall_t stall;
    unsigned opened_by;        /* SM_EV_* */
} sm_gates[SM_NGATES] = {
    /* a paused warp has nothing it may issue: idle, as DYNCTA counts it */
    [SM_GATE_PAUSED] = { "paused with its CTA (CTA policy)", SM_STALL_IDLE, 0 },
    [SM_GATE_BARRIER] = { "waiting at a barrier", SM_STALL_BARRIER,
                          SM_EV_BARRIER_RELEASED },
    [SM_GATE_FETCH] = { "instruction buffer empty", SM_STALL_FETCH, 0 },
    [SM_GATE_SCOREBOARD] = { "waiting for registers still in flight",
                             SM_STALL_SCOREBOARD, 0 },
    [SM_GATE_PIPELINE] = { "waiting for a collector unit, an instruction "
                           "record or LD/ST room", SM_STALL_PIPELINE,
                           SM_EV_RESOURCE_FREED },
    /* opened by touches: every lock change touches the pair's slots */
    [SM_GATE_SMEM_LOCK] = { "smem_lock_wait: its pair's scratchpad lock is "
                            "the partner's", SM_STALL_SMEM_LOCK, 0 },
};

/* The pipeline gate depends on the slot only through its instruction's
 * collector class. */
static inline int class_closed(const sm_t *s, opc_class_t cls)
{
    return !opc_free_cus(&s->opc, cls) || !s->nfree_insts ||
           (cls == OPC_MEM && !ldst_can_prepare(&s->ldst));
}

static inline int pipeline_closed(const sm_t *s, unsigned i)
{
    return class_closed(s, s->slots[i].timing.cls);
}

/* Whether gate g is closed for slot i at `now` (a switch, not a table of
 * functions: sm_ready_fresh calls it with each constant g, so each call
 * inlines into that gate's test alone). */
static inline int gate_closed(const sm_t *s, unsigned i, uint64_t now,
                              sm_gate_t g)
{
    const sm_slot_t *sl = &s->slots[i];
    const sm_regs_t *r = &s->regs[i];
    switch (g) {
    case SM_GATE_PAUSED:
        return s->ctas[sl->cta].paused;
    case SM_GATE_BARRIER:
        return sl->at_bar;
    case SM_GATE_FETCH: /* a non-empty buffer always holds the warp's PC:
                           issue empties it on any control transfer */
        return !sl->ibuf || now < sl->ibuf_ready;
    case SM_GATE_SCOREBOARD:
        return scoreboard_collides(&s->sb, i, r->rd, r->nrd) ||
               scoreboard_collides(&s->sb, i, r->wr, r->nwr);
    case SM_GATE_PIPELINE:
        return pipeline_closed(s, i);
    case SM_GATE_SMEM_LOCK: /* closed only for a non-owner's warp (the
                               class test here: most warps are not) */
        return s->share.k &&
               s->share.lout.cls[sl->cta] == WARP_ARBITER_NONOWNER &&
               sm_share_gate_closed(s, i);
    default:
        return 0;
    }
}

sm_stall_t sm_gate_stall(sm_gate_t g)
{
    return sm_gates[g].stall;
}

const char *sm_gate_name(sm_gate_t g)
{
    return sm_gates[g].name;
}

int sm_ready_fresh(const sm_t *s, unsigned slot, uint64_t now)
{
    /* Every gate by name, in sm_gate_t's order: GCC compiled the loop over
     * g into an indirect jump through the switch's table at each gate,
     * which the host mispredicted 5.4 M times in srad1's 3.3 M calls
     * under Unshared-LRR and 8.4 M times in 4.0 M under Shared-OWF-OPT
     * (cachegrind --branch-sim), its largest source of mispredictions. */
    _Static_assert(SM_NGATES == 6, "sm_ready_fresh names every gate");
    if (gate_closed(s, slot, now, SM_GATE_PAUSED))
        return SM_GATE_PAUSED;
    if (gate_closed(s, slot, now, SM_GATE_BARRIER))
        return SM_GATE_BARRIER;
    if (gate_closed(s, slot, now, SM_GATE_FETCH))
        return SM_GATE_FETCH;
    if (gate_closed(s, slot, now, SM_GATE_SCOREBOARD))
        return SM_GATE_SCOREBOARD;
    if (gate_closed(s, slot, now, SM_GATE_SMEM_LOCK))
        return SM_GATE_SMEM_LOCK;
    if (gate_closed(s, slot, now, SM_GATE_PIPELINE))
        return SM_GATE_PIPELINE;
    return -1;
}

/* Waits at a barrier or on a long-latency operation, or is paused with its
 * CTA (sched_view_t): a policy that keeps a set of warps to issue from
 * (two_level, ltlws) moves such warps out, else paused warps could fill it
 * while the running ones wait outside. */
static int slot_waiting(const sm_t *s, unsigned i)
{
    return s->slots[i].at_bar || scoreboard_long_pending(&s->sb, i) > 0 ||
           s->ctas[s->slots[i].cta].paused;
}

void sm_ready_touch(sm_t *s, unsigned slot)
{
    sm_sched_t *q = &s->scheds[slot % s->cfg.nsched];
    q->dirty = 1;
    s->issue_same = 0;
    q->stale |= (uint64_t)1 << (slot / s->cfg.nsched);
}

void sm_ready_event(sm_t *s, unsigned ev)
{
    s->issue_same = 0;
    for (unsigned k = 0; k < s->cfg.nsched; k++) {
        sm_sched_t *q = &s->scheds[k];
        /* a ready slot had every gate open: taking resources can close
         * only the last, the pipeline gate (sm_ready_refresh) */
        if (ev & SM_EV_RESOURCE_TAKEN)
            q->recheck |= q->ready;
        if (!(ev & ~SM_EV_RESOURCE_TAKEN))
            continue;
        uint64_t m = 0;
        for (int g = 0; g < SM_NGATES; g++)
            if (sm_gates[g].opened_by & ev)
                m |= q->blocked[g];
        /* the pipeline gate is the last: a slot it blocks had every other
         * gate open, and they stay open until a touch, so only that gate
         * needs a look (as for the ready slots above), not a refresh from
         * scratch of the slot and its view (most of a memory-bound
         * kernel's issue stage: gaussian's warps wait for LD/ST room) */
        q->recheck |= m & q->blocked[SM_GATE_PIPELINE];
        q->stale |= m & ~q->blocked[SM_GATE_PIPELINE];
        q->dirty = 1;
    }
}

void sm_ready_refresh(sm_t *s, unsigned k, uint64_t now)
{
    unsigned n = s->cfg.nsched;
    sm_sched_t *q = &s->scheds[k];
    uint64_t stale = q->stale;
    /* slots whose every gate but the pipeline's is open (ready, or
     * blocked by the pipeline gate alone): that gate decides, the same
     * for every slot of a class (a memory-bound kernel's warps wait in
     * dozens for LD/ST room; one test per class, not per slot) */
    uint64_t recheck = q->recheck & ~stale;
    for (int c = 0; recheck && c < OPC_NCLASSES; c++) {
        uint64_t m = recheck & q->by_class[c];
        if (!m)
            continue;
        recheck &= ~m;
        uint64_t *pipe = &q->blocked[SM_GATE_PIPELINE];
        if (class_closed(s, (opc_class_t)c)) {
            *pipe |= q->ready & m;
            q->ready &= ~m;
        } else {
            q->ready |= *pipe & m;
            *pipe &= ~m;
        }
    }
    q->stale = q->recheck = 0;
    /* the stale slots forget what was known of them, all at once; then
     * each live one is looked at afresh */
    q->owf_b0 &= ~stale;
    q->owf_b1 &= ~stale;
    q->valid &= ~stale;
    q->ready &= ~stale;
    q->waiting &= ~stale;
    for (uint64_t lock = q->blocked[SM_GATE_SMEM_LOCK] & stale; lock; lock &= lock - 1)
        s->share.lock_blocked--;
    for (int g = 0; g < SM_NGATES; g++)
        q->blocked[g] &= ~stale;
    for (int c = 0; c < OPC_NCLASSES; c++)
        q->by_class[c] &= ~stale;
    for (; stale; stale &= stale - 1) {
        unsigned l = (unsigned)__builtin_ctzll(stale), i = l * n + k;
        uint64_t bit = (uint64_t)1 << l;
        if (i >= s->cfg.max_warps || !s->slots[i].live)
            continue;
        const sm_slot_t *sl = &s->slots[i];
        q->by_class[sl->timing.cls] |= bit;
        int g = sm_ready_fresh(s, i, now);
        q->valid |= bit;
        if (g < 0)
            q->ready |= bit;
        else
            q->blocked[g] |= bit;
        s->share.lock_blocked += g == SM_GATE_SMEM_LOCK;
        if (slot_waiting(s, i))
            q->waiting |= bit;
        const sm_cta_t *c = &s->ctas[sl->cta];
        uint8_t owf = sm_share_class(s, sl->cta);
        q->slot[l] = (sched_slot_t){ .age = sl->age, .cta = sl->cta,
                                     .kernel = c->k->launch,
                                     /* a non-empty buffer holds the
                                      * warp's PC (issue empties it on a
                                      * control transfer): no load of the
                                      * warp's stack, a cache miss */
                                     .pc = sl->ibuf ? sl->ibuf_pc : warp_pc(sl->w),
                                     .cls = owf,
                                     .l1d = (uint8_t)(sl->ibuf && sl->l1d),
                                     .block_age = c->block_age,
                                     .widx = (uint32_t)(sl->w - c->cta.warps),
                                     .pair = c->hi ? 2 : c->partner >= 0 };
        q->owf_b0 |= (uint64_t)(owf & 1) << l;
        q->owf_b1 |= (uint64_t)(owf >> 1 & 1) << l;
    }
    q->any_waiting = (q->waiting & q->valid & ~q->blocked[SM_GATE_BARRIER] &
                      ~q->blocked[SM_GATE_PAUSED]) != 0;
}

#ifdef SIMT_CHECK_READINESS
static const char *describe(int g)
{
    return g < 0 ? "ready" : sm_gates[g].name;
}

void sm_ready_check(const sm_t *s, unsigned k, uint64_t now)
{
    unsigned n = s->cfg.nsched;
    const sm_sched_t *q = &s->scheds[k];
    for (unsigned l = 0; l < q->policy.p.nslots; l++) {
        unsigned i = l * n + k;
        uint64_t bit = (uint64_t)1 << l;
        if ((q->stale | q->recheck) & bit)
            continue;
        int live = i < s->cfg.max_warps && s->slots[i].live;
        int cached = -2, fresh = -2;
        if (q->valid & bit) {
            cached = -1;
            for (int g = 0; g < SM_NGATES; g++)
                if (q->blocked[g] & bit)
                    cached = g;
        }
        if (live)
            fresh = sm_ready_fresh(s, i, now);
        int wait_ok = !live || !!(q->waiting & bit) == slot_waiting(s, i);
        if (live && s->slots[i].ibuf && s->slots[i].ibuf_pc != warp_pc(s->slots[i].w)) {
            fprintf(stderr, "readiness check: SM %u, cycle %llu, slot %u: buffer "
                    "PC %u, warp PC %u\n", s->id, (unsigned long long)now, i,
                    s->slots[i].ibuf_pc, warp_pc(s->slots[i].w));
            abort();
        }
        if (cached == fresh && wait_ok && !!(q->ready & bit) == (fresh == -1))
            continue;
        fprintf(stderr, "readiness check: SM %u, cycle %llu, slot %u: cached "
                "%s%s, from scratch %s%s\n", s->id, (unsigned long long)now, i,
                cached == -2 ? "no warp" : describe(cached),
                q->waiting & bit ? " (waiting)" : "",
                fresh == -2 ? "no warp" : describe(fresh),
                live && slot_waiting(s, i) ? " (waiting)" : "");
        abort();
    }
}
#endif
