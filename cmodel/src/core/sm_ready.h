/* sm_ready.h: why a warp cannot issue, as explicit gates, and the issue
 * stage's cached readiness of every warp slot.
 *
 * A warp can issue when every gate is open.  The gates, in the order they
 * are looked at (the first closed one is the warp's stall reason), and
 * the events that can open them:
 *
 *   paused      its CTA is paused (DYNCTA,             the SM touches the
 *               sm_set_active_limit)                  CTA's slots when it
 *                                                     unpauses (and pauses)
 *   barrier     the warp waits at a barrier           a barrier released
 *   fetch       its instruction buffer is empty, or   its buffer filled
 *               filled this cycle                     (the warp's own)
 *   scoreboard  a register its next instruction       its own writeback
 *               reads or writes is still in flight    (the warp's own)
 *   smem_lock   Scratchpad Sharing: the instruction   the SM touches both
 *               needs the pair's shared region and    CTAs' slots whenever
 *               the partner CTA holds the lock        the lock changes
 *               (core/sm_share.h)                     hands
 *   pipeline    no collector unit of its class, no    a collector unit, a
 *               instruction record, or no room in     record or LD/ST room
 *               the LD/ST unit                        freed
 *   (pipeline stays last: taking resources at an issue can close only it,
 *   so only the ready slots need a recheck then, and freeing them can
 *   open only it for the slots it blocks, which need only that gate
 *   looked at again)
 *
 * The cache: each scheduler (sm_sched_t) keeps its slots' readiness, the
 * view its policy picks from (core/sched.h), and per gate the slots that
 * gate blocks.  A slot's readiness is computed again only when the slot is
 * stale, and it becomes stale only through an event that can change it:
 *
 *   sm_ready_touch(s, slot)  something of the warp itself changed (it
 *                            arrived, issued, wrote back, its buffer
 *                            filled): whatever gate blocked it;
 *   sm_ready_event(s, ev)    an SM-wide event: the slots blocked by the
 *                            gates that list it (sm_ready.c's table), and
 *                            for SM_EV_RESOURCE_TAKEN the ready slots; a
 *                            slot that only the pipeline gate can change
 *                            (ready, or blocked by that gate) is not made
 *                            stale but rechecked: that gate alone.
 *
 * A new gate is a line in the table with the events that open it, and the
 * calls of sm_ready_event where those events happen.  Invariant: every
 * slot that is not stale has the readiness sm_ready_fresh() computes from
 * scratch.  A check build (-DSIMT_CHECK_READINESS, `make check-build`)
 * asserts it for every slot of every scheduler every cycle. */
#ifndef CORE_SM_READY_H
#define CORE_SM_READY_H

#include <stdint.h>

#include "core/opcoll.h"
#include "core/sched.h"

typedef enum sm_stall {
    SM_STALL_IDLE,        /* no warp in this scheduler's slots */
    SM_STALL_FETCH,       /* instruction buffers empty (control hazard) */
    SM_STALL_BARRIER,     /* every warp waits at a barrier */
    SM_STALL_SCOREBOARD,  /* operands or results still in flight */
    SM_STALL_PIPELINE,    /* no collector unit / record free */
    SM_STALL_SMEM_LOCK,   /* Scratchpad Sharing: the partner holds the
                             pair's lock (smem_lock_wait) */
    SM_NSTALLS
} sm_stall_t;

typedef enum sm_gate {
    SM_GATE_PAUSED, SM_GATE_BARRIER, SM_GATE_FETCH, SM_GATE_SCOREBOARD,
    SM_GATE_SMEM_LOCK, SM_GATE_PIPELINE, SM_NGATES
} sm_gate_t;

/* SM-wide events (a bit mask). */
enum {
    SM_EV_BARRIER_RELEASED = 1 << 0, /* a CTA's barrier released its warps */
    SM_EV_RESOURCE_FREED = 1 << 1,   /* a collector unit, an instruction
                                        record or LD/ST room freed */
    SM_EV_RESOURCE_TAKEN = 1 << 2,   /* an issue took some: the slots found
                                        ready may no longer be */
};

/* One scheduler of the SM, with its cached view of its slots. */
typedef struct sm_sched {
    sched_t policy;
    uint64_t free_at;          /* next cycle it may issue */
    uint64_t stale;            /* local slots to look at again */
    uint64_t recheck;          /* local slots, ready or blocked by the
                                  pipeline gate alone, whose pipeline gate
                                  (only) must be looked at again */
    uint64_t valid, ready, waiting; /* the view's masks (sched_view_t) */
    uint64_t by_class[OPC_NCLASSES]; /* valid local slots by the collector
                                        class of their buffered
                                        instruction (the pipeline gate's
                                        input, as of their last refresh) */
    uint64_t blocked[SM_NGATES]; /* local slots whose first closed gate
                                    is this one */
    sched_slot_t *slot;        /* the view, per local slot */
    uint64_t owf_b0, owf_b1;   /* the view's cls_b0, cls_b1: bits 0 and 1
                                  of slot[l].cls where valid, 0 elsewhere */
    uint8_t dirty;             /* something its readiness depends on
                                  changed since it last found no warp */
    uint8_t stall;             /* that last stall reason (sm_stall_t) */
    uint8_t cls;               /* and its core-cycle class
                                  (sm_cycle_class_t, core/sm.c) */
    uint8_t event;             /* an alloc or finish awaits the clock */
    uint8_t any_waiting;       /* a valid slot is `waiting` and neither at a
                                  barrier nor paused (the SM's
                                  mem_wait_cycles); the masks change only
                                  in sm_ready_refresh, which keeps it, so
                                  a cycle that skips the scheduler reads
                                  it instead of the masks */
} sm_sched_t;

struct sm;

/* The stall reason a closed gate stands for, and its name. */
sm_stall_t sm_gate_stall(sm_gate_t g);
const char *sm_gate_name(sm_gate_t g);

void sm_ready_touch(struct sm *s, unsigned slot);
void sm_ready_event(struct sm *s, unsigned ev);

/* Scheduler k's view, its stale slots looked at again (at cycle `now`). */
void sm_ready_refresh(struct sm *s, unsigned k, uint64_t now);

/* The first gate closed for slot `slot` at `now` (-1: it can issue),
 * computed from scratch.  The slot must hold an unfinished warp. */
int sm_ready_fresh(const struct sm *s, unsigned slot, uint64_t now);

/* The check build's assertion of the invariant for scheduler k: a report
 * and abort() on the first slot whose cached readiness is wrong (a no-op
 * in other builds). */
#ifdef SIMT_CHECK_READINESS
void sm_ready_check(const struct sm *s, unsigned k, uint64_t now);
#else
static inline void sm_ready_check(const struct sm *s, unsigned k, uint64_t now)
{
    (void)s;
    (void)k;
    (void)now;
}
#endif

#endif
