/* sched.h: one warp scheduler of an SM, behind a policy interface.
 *
 * An SM has N schedulers; warp slot i belongs to scheduler i mod N (its
 * local slot i / N here).  Each cycle the issue stage fills one
 * sched_slot_t per local slot and calls sched_pick(), which returns the
 * slot to issue from (or -1), reports what actually issued with
 * sched_issued(), then ends the cycle with sched_clock().  Events from
 * anywhere in the cycle (a warp allocated into a slot, a warp that
 * finished) are reported with sched_alloc() / sched_finished().  Policies:
 *
 *   LRR         loose round robin: scan from the slot after the one that
 *               issued last; the first ready slot issues.
 *   GTO         greedy then oldest: the slot that issued last if it is
 *               ready, else the oldest ready slot (allocation order).
 *   OWF         owner warp first (Scratchpad Sharing): greedy, else the
 *               smallest class (owner < unshared < non-owner), oldest
 *               within it.
 *   LTLWS       lazy thread-level warp scheduling (EXPARS): no cap until
 *               the first warp finishes, then only the W_Opt oldest warps
 *               issue, W_Opt = floor(all issued / issued by that warp);
 *               GTO or LRR inside (ltlws_inner).
 *   OLDEST      the ready slot with the smallest age, every cycle.
 *   TWO_LEVEL   an active set of at most `two_level_active` slots and a
 *               pending FIFO.  Every cycle, active slots waiting on a
 *               long-latency operation (or no longer valid) leave the
 *               active set (valid ones join the back of the pending FIFO);
 *               then pending slots that are not waiting fill the active set
 *               in FIFO order.  New warps join the back of the pending
 *               FIFO.  Within the active set, LRR in set order.
 *
 * LRR, GTO, OWF and LTLWS are the warp arbiter unit: the scheduler drives
 * its C twin (units/warp_arbiter.h, docs/units/warp_arbiter.md) through
 * eval/tick, and through the unit hooks a co-simulation can check it
 * against the RTL, or let the RTL's grant drive the pipeline.  OLDEST and
 * TWO_LEVEL are C-only policies. */
#ifndef CORE_SCHED_H
#define CORE_SCHED_H

#include <stdint.h>

#include "units/unit_hooks.h"
#include "units/warp_arbiter.h"

typedef enum sched_kind {
    SCHED_LRR, SCHED_GTO, SCHED_OLDEST, SCHED_TWO_LEVEL, SCHED_OWF,
    SCHED_LTLWS, SCHED_NKINDS
} sched_kind_t;

/* sched_pick's result when a unit hook stopped the run. */
enum { SCHED_STOP = -2 };

/* What the scheduler sees of one of its slots this cycle. */
typedef struct sched_slot {
    uint8_t valid;      /* the slot holds a warp that has not finished */
    uint8_t ready;      /* it can issue this cycle (decoded instruction,
                           no hazard, unit free) */
    uint8_t long_wait;  /* it waits on a long-latency operation (a global
                           load, for two-level) */
    uint8_t cls;        /* OWF class: WARP_ARBITER_OWNER/UNSHARED/NONOWNER */
    uint64_t age;       /* dynamic warp id, smaller is older (OLDEST and
                           TWO_LEVEL; the arbiter keeps its own order) */
} sched_slot_t;

typedef struct sched_params {
    sched_kind_t kind;
    unsigned nslots;
    unsigned two_level_active; /* TWO_LEVEL: active-set size */
    unsigned ltlws_inner;      /* LTLWS: 0 GTO, 1 LRR */
    const unit_hooks_t *hooks; /* NULL: none */
    unsigned instance;         /* this scheduler's arbiter instance */
} sched_params_t;

typedef struct sched {
    sched_params_t p;
    int last;               /* slot that issued last, or -1 */
    /* the warp arbiter (LRR, GTO, OWF, LTLWS) */
    int arbiter;            /* 1 when the policy is the arbiter unit */
    warp_arbiter_state_t arb;
    warp_arbiter_in_t in;   /* this cycle's input ports */
    int evaluated;          /* eval ran this cycle */
    /* two-level state */
    uint8_t *member;        /* per slot: 0 none, 1 active, 2 pending */
    uint32_t *active;       /* active set, in order */
    unsigned nactive;
    uint32_t *pending;      /* pending FIFO */
    unsigned npending;
} sched_t;

/* NULL, or what is wrong with the parameters (or "out of memory"). */
const char *sched_init(sched_t *s, const sched_params_t *p, uint64_t now);
void sched_free(sched_t *s);

/* Back to the reset state (a new kernel on the SM).  Non-zero: a hook
 * stopped the run. */
int sched_reset(sched_t *s, uint64_t now);

/* A new warp entered `slot` this cycle; it is the youngest. */
void sched_alloc(sched_t *s, unsigned slot);
/* `slot`'s warp finished this cycle (its last instruction issued). */
void sched_finished(sched_t *s, unsigned slot);

/* The slot to issue from this cycle, -1 when none is ready, SCHED_STOP
 * when a hook stopped the run. */
int sched_pick(sched_t *s, const sched_slot_t *slots, uint64_t now);

/* The same for an arbiter policy (s->arbiter), from the masks of valid
 * and ready local slots, with each slot's class already in s->in.cls (the
 * issue stage's fast path: no per-slot view). */
int sched_pick_masks(sched_t *s, uint64_t valid, uint64_t ready, uint64_t now);

/* `slot` issued this cycle (it need not be the one sched_pick chose). */
void sched_issued(sched_t *s, int slot);

/* 1 when the scheduler must be clocked this cycle even without a pick (an
 * allocation or a finish is waiting for the clock edge). */
int sched_pending(const sched_t *s);

/* The clock edge that ends the cycle; a cycle without pick, issue or event
 * may skip it (it would not change the state).  Non-zero: a hook stopped
 * the run. */
int sched_clock(sched_t *s, uint64_t now);

/* "lrr", "gto", "oldest", "two_level", "owf", "ltlws" */
const char *sched_kind_name(sched_kind_t k);

#endif
