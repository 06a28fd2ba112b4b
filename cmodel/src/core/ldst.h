/* ldst.h: the SM's load/store unit over an ideal memory.
 *
 * Memory instructions arrive in order with the accesses the functional
 * executor recorded (exec_access_t).  The unit works on one instruction at
 * a time; the instruction occupies it for
 *   shared:       the bank-conflict degree (core/smem_banks.h) cycles,
 *   global/local: one cycle per coalesced transaction (mem/coalescer.h),
 *   const/param:  one cycle per distinct address (a broadcast is free),
 * and its result is ready `latency` cycles after its last cycle in the
 * unit, with the latency of its space.  This is the "ideal memory" model:
 * every global access takes the same time, as with GPGPU-Sim's perfect
 * memory options; the cache and DRAM hierarchy replaces it for global and
 * local accesses when configured. */
#ifndef CORE_LDST_H
#define CORE_LDST_H

#include <stdint.h>

#include "exec/exec.h"

typedef struct ldst_cfg {
    unsigned queue;            /* instructions waiting for the unit */
    unsigned smem_banks;       /* scratchpad banks */
    unsigned smem_latency;     /* cycles after the bank accesses */
    unsigned const_latency;    /* constant/param cache hit */
    unsigned mem_latency;      /* global and local (ideal memory) */
} ldst_cfg_t;

typedef struct ldst_stats {
    uint64_t shared_accesses;      /* warp-level */
    uint64_t shared_bank_cycles;   /* sum of conflict degrees */
    uint64_t global_accesses;      /* warp-level, global + local */
    uint64_t global_transactions;
    uint64_t const_accesses;
} ldst_stats_t;

typedef struct ldst_op {
    uint64_t tag;
    uint64_t done;             /* result cycle, once started */
    uint32_t busy;             /* cycles it occupies the unit */
    uint32_t latency;
} ldst_op_t;

typedef struct ldst {
    ldst_cfg_t cfg;
    ldst_op_t *q;              /* waiting ring */
    unsigned head, count;
    uint64_t free_at;          /* first cycle the unit can start another */
    ldst_op_t *inflight;       /* started, result not yet taken */
    unsigned ninflight, inflight_cap;
    ldst_stats_t stats;
} ldst_t;

const char *ldst_init(ldst_t *u, const ldst_cfg_t *cfg);
void ldst_free(ldst_t *u);

int ldst_can_accept(const ldst_t *u);

/* The unit time and latency of an instruction whose accesses are `a`
 * (computed at issue, when the functional executor has recorded them). */
ldst_op_t ldst_prepare(ldst_t *u, const exec_access_t *a);

/* Queues a prepared memory instruction under `tag`. */
void ldst_accept(ldst_t *u, uint64_t tag, const ldst_op_t *op);

/* Starts the next waiting instruction when the unit is free. */
void ldst_cycle(ldst_t *u, uint64_t now);

/* A finished instruction: 1 and its tag, or 0. */
int ldst_pop_done(ldst_t *u, uint64_t now, uint64_t *tag);

/* Nothing queued or in flight. */
static inline int ldst_idle(const ldst_t *u)
{
    return u->count == 0 && u->ninflight == 0;
}

#endif
