/* sched.h: one warp scheduler of an SM, behind a policy method table.
 *
 * An SM has N schedulers; warp slot i belongs to scheduler i mod N (its
 * local slot i / N here).  Each cycle the issue stage hands the scheduler
 * a view of its slots (sched_view_t: which hold a warp, which can issue,
 * which wait, and per slot its CTA, kernel, dynamic warp id, PC and OWF
 * class, all filled in one place, core/sm_ready.c) and calls sched_pick(),
 * which returns the local slot to issue from (or -1); it reports what
 * actually issued with sched_issued(), then ends the cycle with
 * sched_clock().  Events from anywhere in the cycle (a warp allocated into
 * a slot, a warp that finished) arrive through sched_alloc() /
 * sched_finished().
 *
 * Policies (sched_policies.def lists them; each file states its rules):
 *   lrr, gto, owf, ltlws   the warp arbiter unit (sched_arbiter.c): the
 *                          scheduler drives its C twin (units/warp_arbiter.h)
 *                          through eval/tick, and through the unit hooks a
 *                          co-simulation can check it against the RTL or
 *                          let the RTL's grant drive the pipeline;
 *   oldest                 sched_oldest.c;
 *   two_level              sched_two_level.c;
 *   tlv                    sched_tlv.c (Narasiman's fetch groups);
 *   ccws                   sched_ccws.c (cache-conscious: L1 events through
 *                          sched_l1_event throttle warps' memory issue);
 *   sca                    sched_sca.c (BCS's block-aware scheduler).
 *
 * Invariants: the view's ready and waiting masks are subsets of valid; a
 * policy's pick returns a local slot whose ready bit is set, -1, or
 * SCHED_STOP; pick, issued and clock never allocate. */
#ifndef CORE_SCHED_H
#define CORE_SCHED_H

#include <stdint.h>

#include "units/unit_hooks.h"

typedef enum sched_kind {
#define SCHED_POLICY(id, name, ops) SCHED_##id,
#include "core/sched_policies.def"
#undef SCHED_POLICY
    SCHED_NKINDS
} sched_kind_t;

/* sched_pick's result when a unit hook stopped the run. */
enum { SCHED_STOP = -2 };

/* Most local slots one scheduler holds (the masks are 64-bit). */
enum { SCHED_MAX_SLOTS = 64 };

/* What the scheduler sees of one of its slots (meaningful while the slot's
 * valid bit is set). */
typedef struct sched_slot {
    uint64_t age;       /* dynamic warp id: smaller is older */
    uint32_t cta;       /* the SM's CTA slot the warp belongs to */
    uint32_t kernel;    /* its kernel's launch index */
    uint32_t pc;        /* the PC of its next instruction */
    uint8_t cls;        /* OWF class: WARP_ARBITER_OWNER/UNSHARED/NONOWNER */
    uint8_t l1d;        /* its next instruction is a global, local or
                           generic ld/st/atom/red (one that may reach the
                           L1 data cache); 0 while its buffer is empty */
    /* SCA's block (a BCS pair of CTAs placed together, or a CTA alone):
     * block_age names the block and orders blocks (the age of the lower
     * CTA's warp 0: older blocks are smaller); widx is the warp's index in
     * its CTA; pair is 0 for a CTA placed alone, 1 for the pair's lower
     * CTA, 2 for its higher. */
    uint64_t block_age;
    uint32_t widx;
    uint8_t pair;
} sched_slot_t;

/* One cycle's view of a scheduler's slots; bit l of a mask is local slot l. */
typedef struct sched_view {
    uint64_t valid;     /* holds a warp that has not finished */
    uint64_t ready;     /* can issue this cycle (decoded instruction, no
                           hazard, a collector unit and a record free) */
    uint64_t waiting;   /* waits at a barrier or on a long-latency
                           operation (a global/local load or an atomic),
                           or is paused with its CTA (dyncta): a two-level
                           scheduler's pending warps */
    const sched_slot_t *slot; /* per local slot */
    /* The OWF classes as masks, when has_cls is set (the issue stage's
     * view): bit l of cls_b0 and cls_b1 are bits 0 and 1 of slot[l].cls
     * where valid is set, 0 elsewhere (the warp arbiter's cls_i in two
     * planes; a policy takes its sets from them instead of gathering the
     * classes slot by slot).  has_cls 0: read slot[l].cls. */
    uint8_t has_cls;
    uint64_t cls_b0, cls_b1;
} sched_view_t;

typedef struct sched_params {
    sched_kind_t kind;
    unsigned nslots;
    unsigned two_level_active; /* two_level: active-set size */
    unsigned ltlws_inner;      /* ltlws: 0 GTO, 1 LRR */
    unsigned tlv_group;        /* tlv: warps per fetch group */
    unsigned ccws_vta_entries; /* ccws: victim tags per warp */
    unsigned ccws_base_score;  /* ccws: a warp's score with no lost locality */
    unsigned ccws_kthrottle;   /* ccws: K_THROTTLE of the score update */
    unsigned ccws_decay_cycles;/* ccws: cycles per point of score decay */
    unsigned sca_strict;       /* sca: 0 relaxed, 1 strict stall rule */
    const unit_hooks_t *hooks; /* NULL: none */
    unsigned instance;         /* this scheduler's unit instance */
} sched_params_t;

struct sched;

/* What the L1 data cache reports about a warp (core/sm.c forwards the LD/ST
 * unit's reports to the scheduler that owns the warp's slot). */
typedef enum sched_l1_kind {
    SCHED_L1_MISS,             /* the warp's load missed (a line fetched) */
    SCHED_L1_EVICT             /* a line the warp brought in was evicted */
} sched_l1_kind_t;

typedef struct sched_l1_event {
    sched_l1_kind_t kind;
    unsigned slot;             /* local slot of the warp concerned */
    uint64_t line;             /* the line's address */
} sched_l1_event_t;

/* A policy.  Every method may be called only between init and free. */
typedef struct sched_ops {
    /* Sets s->state up from s->p (at reset); NULL or what is wrong. */
    const char *(*init)(struct sched *s, uint64_t now);
    void (*free)(struct sched *s);
    /* Back to the reset state (a new kernel on the SM); non-zero: a hook
     * stopped the run. */
    int (*reset)(struct sched *s, uint64_t now);
    void (*alloc)(struct sched *s, unsigned slot);
    void (*finished)(struct sched *s, unsigned slot);
    int (*pick)(struct sched *s, const sched_view_t *v, uint64_t now);
    void (*issued)(struct sched *s, int slot);
    /* The clock edge; non-zero: a hook stopped the run. */
    int (*clock)(struct sched *s, uint64_t now);
    /* Optional (NULL: ignored): an L1 data cache event about one of this
     * scheduler's local slots (sched_l1_event). */
    void (*l1_event)(struct sched *s, const struct sched_l1_event *e);
    /* 1: pick may return -1 while a slot is ready and decide otherwise
     * later with nothing in the view changed (a throttle that decays with
     * time): the issue stage then calls pick every cycle while a slot is
     * ready, instead of waiting for a change. */
    uint8_t timed;
} sched_ops_t;

typedef struct sched {
    const sched_ops_t *ops;
    sched_params_t p;
    void *state;               /* the policy's own */
} sched_t;

/* NULL, or what is wrong with the parameters (or "out of memory"). */
const char *sched_init(sched_t *s, const sched_params_t *p, uint64_t now);
void sched_free(sched_t *s);

static inline int sched_reset(sched_t *s, uint64_t now)
{
    return s->ops->reset(s, now);
}

/* A new warp entered `slot` this cycle; it is the youngest. */
static inline void sched_alloc(sched_t *s, unsigned slot)
{
    s->ops->alloc(s, slot);
}

/* `slot`'s warp finished this cycle (its last instruction issued). */
static inline void sched_finished(sched_t *s, unsigned slot)
{
    s->ops->finished(s, slot);
}

/* The local slot to issue from this cycle, -1 when none, SCHED_STOP when
 * a hook stopped the run. */
static inline int sched_pick(sched_t *s, const sched_view_t *v, uint64_t now)
{
    return s->ops->pick(s, v, now);
}

/* `slot` issued this cycle (it need not be the one sched_pick chose). */
static inline void sched_issued(sched_t *s, int slot)
{
    s->ops->issued(s, slot);
}

/* The clock edge that ends the cycle.  The caller clocks every cycle with
 * a pick or an event (alloc, finished); a cycle with neither may skip it
 * (it would not change the state).  Non-zero: a hook stopped the run. */
static inline int sched_clock(sched_t *s, uint64_t now)
{
    return s->ops->clock(s, now);
}

/* An L1 data cache event for one of this scheduler's warps. */
static inline void sched_l1_event(sched_t *s, const sched_l1_event_t *e)
{
    if (s->ops->l1_event)
        s->ops->l1_event(s, e);
}

/* The policy's configuration name ("lrr", ...), "?" out of range. */
const char *sched_kind_name(sched_kind_t k);

/* The policies' method tables (sched_policies.def). */
#define SCHED_POLICY(id, name, ops) extern const sched_ops_t ops;
#include "core/sched_policies.def"
#undef SCHED_POLICY

#endif
