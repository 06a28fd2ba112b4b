/* sched.h: one warp scheduler of an SM, behind a policy interface.
 *
 * An SM has N schedulers; warp slot i belongs to scheduler i mod N.  Each
 * cycle the issue stage fills one sched_slot_t per slot of this scheduler
 * and calls sched_pick(), which returns the slot to issue from (or -1),
 * then reports what actually issued with sched_issued().  Policies:
 *
 *   LRR         loose round robin: scan from the slot after the one that
 *               issued last; the first ready slot issues.
 *   GTO         greedy then oldest: the slot that issued last if it is
 *               ready, else the ready slot with the smallest age (dynamic
 *               warp id).
 *   OLDEST      the ready slot with the smallest age, every cycle.
 *   TWO_LEVEL   an active set of at most `two_level_active` slots and a
 *               pending FIFO.  Every cycle, active slots waiting on a
 *               long-latency operation (or no longer valid) leave the
 *               active set (valid ones join the back of the pending FIFO);
 *               then pending slots that are not waiting fill the active set
 *               in FIFO order.  New warps join the back of the pending
 *               FIFO.  Within the active set, LRR in set order.
 *
 * Later mechanisms (OWF, LTLWS, SCA, DWF) add policies here.  The policy
 * is chosen once, at init, through a table of functions. */
#ifndef CORE_SCHED_H
#define CORE_SCHED_H

#include <stdint.h>

typedef enum sched_kind {
    SCHED_LRR, SCHED_GTO, SCHED_OLDEST, SCHED_TWO_LEVEL, SCHED_NKINDS
} sched_kind_t;

/* What the scheduler sees of one of its slots this cycle. */
typedef struct sched_slot {
    uint8_t valid;      /* the slot holds a warp that has not finished */
    uint8_t ready;      /* it can issue this cycle (decoded instruction,
                           no hazard, unit free) */
    uint8_t long_wait;  /* it waits on a long-latency operation (a global
                           load, for two-level) */
    uint64_t age;       /* dynamic warp id: smaller is older */
} sched_slot_t;

struct sched;

typedef struct sched_policy {
    const char *name;
    int (*pick)(struct sched *s, const sched_slot_t *slots);
} sched_policy_t;

typedef struct sched {
    const sched_policy_t *policy;
    unsigned nslots;
    int last;               /* slot that issued last, or -1 */
    /* two-level state */
    unsigned active_max;
    uint8_t *member;        /* per slot: 0 none, 1 active, 2 pending */
    uint32_t *active;       /* active set, in order */
    unsigned nactive;
    uint32_t *pending;      /* pending FIFO */
    unsigned npending;
} sched_t;

/* 0, or -1 when out of memory or `kind`/`two_level_active` is invalid. */
int sched_init(sched_t *s, sched_kind_t kind, unsigned nslots,
               unsigned two_level_active);
void sched_free(sched_t *s);

/* The slot to issue from this cycle, or -1 when none is ready. */
int sched_pick(sched_t *s, const sched_slot_t *slots);

/* `slot` issued this cycle (it need not be the one sched_pick chose). */
void sched_issued(sched_t *s, int slot);

/* "lrr", "gto", "oldest", "two_level" */
const char *sched_kind_name(sched_kind_t k);

#endif
