/* ldst.h: the SM's load/store unit, its L1 data cache and an ideal memory
 * below it.
 *
 * A memory instruction is prepared at issue, from the accesses the
 * functional executor recorded (exec_access_t), queued at dispatch and
 * served in order, one at a time:
 *   shared:        it occupies the unit for the bank-conflict degree
 *                  (core/smem_banks.h) cycles, then gpgpu_smem_latency;
 *   const/param:   one constant-cache lookup per distinct address, one
 *                  per cycle (accesses to different addresses serialise),
 *                  at the launch's constant window (mem/mem_regions.h);
 *                  a hit is ready after gpgpu_const_latency, a miss or
 *                  pending hit when its line arrives;
 *   texture:       tex/tld4: one texture-cache lookup per distinct line
 *                  of the texels the lanes read, one per cycle, like the
 *                  constant cache; a hit is ready after gpgpu_tex_latency
 *                  (at most COALESCE_MAX_TXN lines per instruction are
 *                  modelled; docs/textures.md);
 *   global/local:  coalesced into transactions (mem/coalescer.h), one sent
 *                  per cycle.  With the L1 enabled each goes through it
 *                  (mem/cache.h): a hit is ready after the L1 latency, a
 *                  miss or pending hit when its line arrives, a write that
 *                  goes down (and an atomic, which bypasses the L1) when
 *                  the memory below acknowledges it; a reservation failure
 *                  stalls the unit, which retries the same transaction
 *                  next cycle.
 * Below the caches is either the hierarchy (requests leave through the
 * outbox, which the SM's instruction fetch shares) or an ideal memory:
 * every fill and acknowledgement takes gpgpu_ideal_mem_latency.
 * The instruction completes when all its transactions have. */
#ifndef CORE_LDST_H
#define CORE_LDST_H

#include <stdint.h>

#include "exec/exec.h"
#include "mem/cache.h"
#include "mem/coalescer.h"
#include "mem/fill_queue.h"
#include "mem/mem_req.h"
#include "simt/stats.h"

typedef struct ldst_cfg {
    unsigned queue;            /* instructions waiting for the unit */
    unsigned prepared;         /* instructions issued, not yet queued (the
                                  memory collector units) */
    unsigned inflight;         /* instructions sent, waiting for memory */
    unsigned smem_banks;       /* scratchpad banks */
    unsigned smem_latency;     /* cycles after the bank accesses */
    unsigned const_latency;    /* constant/param cache hit */
    cache_cfg_t l1c_cfg;       /* the constant cache (read-only) */
    unsigned tex_latency;      /* texture cache hit */
    cache_cfg_t l1t_cfg;       /* the texture cache (read-only); 0 sets:
                                  none, texture fetches take one cycle
                                  (LD/ST unit tests without textures) */
    unsigned mem_latency;      /* the ideal memory below the L1 */
    int l1;                    /* 1: global/local accesses use the L1 */
    int hierarchy;             /* 1: misses, writes and atomics go out
                                  through the outbox to the interconnect;
                                  0: the ideal memory answers them */
    unsigned outbox;           /* requests waiting for the interconnect */
    cache_cfg_t l1_cfg;
    unsigned l1_latency;       /* L1 hit */
} ldst_cfg_t;

typedef struct ldst_stats {
    uint64_t shared_accesses;      /* warp-level */
    uint64_t shared_bank_cycles;   /* sum of conflict degrees */
    uint64_t global_accesses;      /* warp-level, global + local */
    uint64_t global_transactions;
    uint64_t const_accesses;
    uint64_t tex_accesses;         /* warp-level */
    uint64_t l1_stall_cycles;      /* cycles lost to reservation failures */
} ldst_stats_t;

enum { LDST_SHARED, LDST_CONST, LDST_GLOBAL, LDST_TEX };


typedef struct ldst_op {
    uint8_t used, kind, write, atomic, local;
    uint8_t sent_all;          /* every transaction has gone out */
    uint32_t busy, latency;    /* shared */
    uint64_t tag;              /* the SM's handle */
    uint32_t owner;            /* the issuing warp's slot (ldst_set_owner) */
    uint32_t ntxn, next;       /* global: transactions, const: distinct
                                  addresses; and the next to send */
    uint32_t waiting;          /* transactions waiting for a line */
    uint64_t done;             /* the latest known completion cycle */
    uint64_t txn[COALESCE_MAX_TXN];
    uint16_t txn_bytes[COALESCE_MAX_TXN];
} ldst_op_t;

/* A request for the memory below (mem/mem_req.h kinds). */
typedef struct ldst_out {
    uint8_t kind;              /* mem_kind_t */
    uint8_t space;             /* mem_space_kind_t: whose cache a fill is
                                  for (global/local: the L1) */
    uint32_t op;               /* the waiting instruction (not for fills
                                  and write-backs) */
    uint64_t addr;
    uint32_t bytes;
} ldst_out_t;

/* Where the L1 data cache's reports about warps go (CCWS's victim tags):
 * a read miss that fetches a line (LDST_L1_MISS, the missing op's owner)
 * and the eviction of a valid line (LDST_L1_EVICT, the owner of the access
 * that brought it in).  fn NULL: nothing is reported (and nothing costs). */
enum { LDST_L1_MISS, LDST_L1_EVICT };
typedef struct ldst_l1_sink {
    void (*fn)(void *ctx, int kind, uint32_t owner, uint64_t line);
    void *ctx;
} ldst_l1_sink_t;

typedef struct ldst {
    ldst_cfg_t cfg;
    ldst_l1_sink_t sink;
    ldst_op_t *ops;            /* prepared, queued and in-flight ones */
    unsigned nops, used_ops;
    uint32_t *sent;            /* ops whose transactions all went out */
    unsigned nsent;
    uint64_t next_done;        /* no sent op completes before this cycle */
    uint32_t *q;               /* queued op indices, a ring */
    unsigned head, count;
    uint64_t free_at;          /* first cycle the unit can start another */
    cache_t l1;
    uint8_t l1_refused;        /* cache_fail_cause_t: the head transaction's
                                  last L1 access failed for this cause and
                                  no line that could change that has filled
                                  the L1 since (ldst_fill_unblocks), so its
                                  retry would fail the same way (counted,
                                  not looked up); 0: look */
    cache_t l1c;               /* the constant cache */
    cache_t l1t;               /* the texture cache */
    fill_queue_t fills, cfills;/* ideal memory: L1 and constant lines */
    fill_queue_t tfills;       /* ideal memory: texture lines */
    ldst_out_t *out;           /* the outbox, a ring */
    unsigned out_head, out_count;
    ldst_stats_t stats;
} ldst_t;

const char *ldst_init(ldst_t *u, const ldst_cfg_t *cfg);
void ldst_free(ldst_t *u);

/* Room to prepare one more instruction (the issue stage checks it). */
static inline int ldst_can_prepare(const ldst_t *u)
{
    return u->used_ops < u->nops;
}

static inline int ldst_can_accept(const ldst_t *u)
{
    return u->count < u->cfg.queue;
}

/* Prepares an instruction whose accesses are `a` (at issue) for a launch
 * whose constant window (mem/mem_regions.h) starts at `const_window`;
 * returns its handle for ldst_accept. */
uint32_t ldst_prepare(ldst_t *u, const exec_access_t *a, uint64_t const_window);

/* The warp slot that issued prepared instruction `op`: the owner the L1
 * records for the lines its accesses bring in. */
static inline void ldst_set_owner(ldst_t *u, uint32_t op, uint32_t owner)
{
    u->ops[op].owner = owner;
}

/* Queues prepared instruction `op` under the SM's `tag` (at dispatch). */
void ldst_accept(ldst_t *u, uint32_t op, uint64_t tag);

/* send_txn's first check: a global transaction may need two requests (a
 * fill and a write-back), so it waits while the outbox lacks room for
 * both. */
static inline int ldst_outbox_full(const ldst_t *u)
{
    return u->cfg.hierarchy && u->out_count + 2 > u->cfg.outbox;
}

/* The head instruction's next transaction is a global one waiting for
 * outbox room (count > 0). */
static inline int ldst_head_waits_outbox(const ldst_t *u)
{
    if (!ldst_outbox_full(u))
        return 0;
    const ldst_op_t *op = &u->ops[u->q[u->head]];
    return op->kind == LDST_GLOBAL && op->next < op->ntxn;
}

/* One cycle: lines arriving, then the head instruction.  Inline, the
 * cycles that can only count (asked every SM every core cycle, and in a
 * saturated memory side most are these): with the hierarchy, nothing
 * queued or the unit busy does nothing (its lines arrive as the
 * hierarchy's events); a head transaction the L1 refused and that nothing
 * has filled since (l1_refused) only counts the stall and, unless the
 * outbox is full (send_txn's first check), the cache's reservation
 * failure.  ldst_cycle_head does the rest. */
void ldst_cycle_head(ldst_t *u, uint64_t now);
static inline void ldst_cycle(ldst_t *u, uint64_t now)
{
    if (u->cfg.hierarchy && (!u->count || now < u->free_at))
        return;
    if (u->cfg.hierarchy && u->l1_refused) {
        u->stats.l1_stall_cycles++;
        if (!ldst_outbox_full(u))
            cache_count_fail(&u->l1, (cache_fail_cause_t)u->l1_refused);
        return;
    }
    ldst_cycle_head(u, now);
}

/* A finished instruction: 1 and its tag, or 0 (inline: none before
 * next_done, the case of almost every cycle). */
int ldst_pop_done_at(ldst_t *u, uint64_t now, uint64_t *tag);
static inline int ldst_pop_done(ldst_t *u, uint64_t now, uint64_t *tag)
{
    if (now < u->next_done)
        return 0;
    return ldst_pop_done_at(u, now, tag);
}

/* For the idle-cycle skip (gpu/timing.c): with nothing queued to send
 * (count 0) or the queue parked (ldst_parked), the first cycle ldst_cycle
 * or ldst_pop_done can change anything: a sent op's completion
 * (next_done) or, with ideal memory, a line arriving from its fill queues
 * (a fill into the L1 ends parking).  UINT64_MAX: nothing timed is
 * pending (lines from the hierarchy are the memory system's events). */
uint64_t ldst_next_event(const ldst_t *u);

/* Parked at `now`: the unit is free and its head's transaction was
 * refused by the L1 (l1_refused) or waits for outbox room, so until a
 * line fills the L1 or a request leaves the outbox each ldst_cycle only
 * counts the retry (l1_stall_cycles, and after a refusal the cache's
 * reservation failure unless the outbox is full) and changes nothing
 * else.  ldst_parked_cycles counts n such cycles as n calls would (the
 * outbox does not change in them: taking from it is an event). */
static inline int ldst_parked(const ldst_t *u, uint64_t now)
{
    return u->count && now >= u->free_at &&
           (u->l1_refused || ldst_head_waits_outbox(u));
}
void ldst_parked_cycles(ldst_t *u, uint64_t n);

/* The hierarchy side: the oldest outgoing request (1, or 0 when none),
 * taking it, and the replies coming back. */
static inline int ldst_out_peek(const ldst_t *u, ldst_out_t *req)
{
    if (!u->out_count)
        return 0;
    *req = u->out[u->out_head];
    return 1;
}
void ldst_out_pop(ldst_t *u);
void ldst_line_arrived(ldst_t *u, uint64_t line, uint64_t now);
/* Whether L1 line `line` arriving can change the outcome of the refused
 * head transaction (l1_refused), so that the fill ends the refusal: a
 * refusal for want of an MSHR ends with any fill (each frees one); one for
 * a set whose every way waits for a fill, only with a fill into that set;
 * one at the merge limit of the head's own pending line, only with that
 * line.  Any other fill leaves the head's retry failing the same way:
 * only the head accesses the L1 while it is refused, so nothing but fills
 * changes the cache, and a fill elsewhere adds a free MSHR (which the set
 * and merge checks do not ask) and changes no other set or line.  0 when
 * nothing is refused. */
int ldst_fill_unblocks(const ldst_t *u, uint64_t line);
void ldst_const_line_arrived(ldst_t *u, uint64_t line, uint64_t now);
void ldst_tex_line_arrived(ldst_t *u, uint64_t line, uint64_t now);

/* The outbox for another of the SM's caches (the instruction cache): room
 * for a request, and a line fetch for cache `space`. */
int ldst_out_room(const ldst_t *u);
void ldst_out_fill(ldst_t *u, mem_space_kind_t space, uint64_t addr, uint32_t bytes);
void ldst_acknowledged(ldst_t *u, uint32_t op, uint64_t now);

/* Adds the unit's figures to the GPU's statistics: its scratchpad, global
 * and constant accesses, and its L1 data and constant caches (a pending
 * hit counts as a constant-cache miss: the line was not there). */
void ldst_export_stats(const ldst_t *u, simt_stats_t *st);

#endif
