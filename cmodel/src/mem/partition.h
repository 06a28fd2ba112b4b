/* partition.h: one memory partition: an L2 slice in front of a DRAM
 * channel (mem/dram.h), or of an ideal memory where every line fetch takes
 * `mem_latency`.
 *
 * Requests arrive from the interconnect in order, and from there on the
 * partition knows them by their channel address (mem/addrmap.h): the L2
 * indexes its sets and keeps its tags by it, so every set of the slice is
 * reachable whatever the mapping, and the DRAM channel decodes its bank and
 * row from it.  The slice serves one
 * per cycle: a read (an L1 line fill) or a write (an L1 write going down,
 * or an atomic, which is performed here) accesses the L2 (mem/cache.h,
 * write-back with write-allocate).  A hit replies after `l2_latency`; a
 * miss or pending hit replies `l2_latency` after its line arrives; a
 * reservation failure leaves the request at the head for the next cycle.
 * Without an L2 every request is a memory access: it replies after
 * `mem_latency`.  Replies wait, in order of readiness, for the reply
 * network.  Every request taken is exactly one reply to come, so the
 * partition takes a request only while the replies it owes fit its reply
 * ring: a reply network that does not drain pushes back on the request
 * side instead of losing replies. */
#ifndef MEM_PARTITION_H
#define MEM_PARTITION_H

#include <stdint.h>

#include "mem/addrmap.h"
#include "mem/cache.h"
#include "mem/dram.h"
#include "mem/fill_queue.h"
#include "simt/stats.h"

typedef struct part_cfg {
    int l2_enabled;            /* 0: requests go straight to memory */
    int dram_model;            /* 1: a DRAM channel (mem/dram.h) below;
                                  0: an ideal memory of mem_latency */
    dram_cfg_t dram;
    addrmap_cfg_t map;         /* the GPU's: channel addresses, and each
                                  access's bank and row; its banks are the
                                  channel's */
    cache_cfg_t l2;
    unsigned l2_latency;       /* cycles from access (or fill) to reply */
    unsigned mem_latency;      /* the memory below: cycles per line fetch */
    unsigned queue;            /* requests waiting for the slice */
} part_cfg_t;

typedef struct part_stats {
    uint64_t reads, writes;
    uint64_t stall_cycles;     /* cycles the head request was refused */
} part_stats_t;

typedef struct part_reply {
    uint32_t req;              /* the caller's request handle */
    uint64_t ready;
} part_reply_t;

/* A memory access waiting for, or inside, the DRAM channel. */
typedef struct part_mem {
    uint64_t addr;             /* line (L2) or request address */
    uint32_t req;              /* requester to answer, or PART_NOBODY */
    uint8_t write, fill;       /* fill: the answer fills the L2 */
    uint8_t sectors;           /* a sectored L2's fill: the sectors fetched
                                  (bit i: sector i); 0: the whole line */
} part_mem_t;

#define PART_NOBODY 0xffffffffu

typedef struct partition {
    part_cfg_t cfg;
    cache_t l2;
    uint8_t l2_refused;        /* cache_fail_cause_t: the head request's
                                  last L2 access failed for this cause and
                                  nothing has filled the L2 since, so its
                                  retry would fail the same way (counted,
                                  not looked up); 0: look */
    dram_t dram;
    part_mem_t *todo;          /* accesses waiting for the channel, a ring */
    unsigned todo_head, todo_count, todo_cap;
    part_mem_t *at_dram;       /* per DRAM tag: the access it is */
    part_mem_t *dram_done;     /* completed, for the L2 side, a ring */
    unsigned done_head, done_count;
    uint32_t *free_tags;
    unsigned nfree_tags;
    uint32_t *in;              /* request handles, a ring */
    uint8_t *in_write;         /* per queued request: a write */
    uint64_t *in_addr;
    uint16_t *in_bytes;
    unsigned in_head, in_count;
    fill_queue_t fetch;        /* ideal memory: lines coming from below */
    part_reply_t *out;         /* replies waiting, a ring */
    unsigned out_head, out_count, out_cap;
    unsigned held;             /* requests taken and not yet replied to:
                                  at most out_cap (partition_can_accept) */
    part_stats_t stats;
} partition_t;

const char *partition_init(partition_t *p, const part_cfg_t *cfg);
void partition_free(partition_t *p);

/* Room in the request queue, and for one more reply to come: every
 * request taken is one reply to come, so with `held` below the reply
 * ring's capacity the ring cannot overflow however long the reply network
 * keeps its replies waiting (inline: asked every cycle). */
static inline int partition_can_accept(const partition_t *p)
{
    return p->in_count < p->cfg.queue && p->held < p->out_cap;
}
/* Queues request `req` (the caller's handle) for `addr`: for `bytes` from
 * there (what a sectored L2 fetches or overwrites, cache_access_bytes), or
 * for the whole L2 line. */
void partition_push_bytes(partition_t *p, uint32_t req, uint64_t addr, unsigned bytes,
                          int write);
void partition_push(partition_t *p, uint32_t req, uint64_t addr, int write);

/* One L2-clock cycle (`now` counts L2 cycles) and one DRAM-clock cycle
 * (`now` counts DRAM cycles).  Without a DRAM model only the first is
 * needed. */
void partition_cycle(partition_t *p, uint64_t now);
void partition_dram_cycle(partition_t *p, uint64_t now);

/* Whether partition_cycle or partition_dram_cycle at `now` can do
 * anything: 0 means the call would be a no-op (no request waits for the
 * slice, no DRAM answer and no line from the ideal memory has come; no
 * access waits for the channel, the channel sleeps (dram_cycle returns at
 * once before its wake-ups) and no completion is due), so the caller
 * leaves it out.  Inline: asked for every partition every cycle of its
 * clock, and a saturated memory side is mostly waiting. */
static inline int partition_l2_active(const partition_t *p, uint64_t now)
{
    return p->in_count || p->done_count ||
           (p->fetch.count && p->fetch.ring[p->fetch.head].ready <= now);
}
static inline int partition_dram_active(const partition_t *p, uint64_t now)
{
    const dram_t *d = &p->dram;
    return p->todo_count ||
           (d->nq && (now >= d->col_wake || now >= d->open_wake)) ||
           (d->done_count && d->done[d->done_head].at <= now);
}

/* The oldest reply ready by `now`, without taking it: 1 and its handle. */
static inline int partition_peek_reply(const partition_t *p, uint64_t now, uint32_t *req)
{
    if (!p->out_count || p->out[p->out_head].ready > now)
        return 0;
    *req = p->out[p->out_head].req;
    return 1;
}
void partition_pop_reply(partition_t *p);

/* For the idle-cycle skip (gpu/timing.c): the first cycle of the L2 clock
 * at which partition_cycle or a reply can do anything (0: every cycle,
 * while requests or DRAM answers wait; else the first line back from the
 * fixed-latency memory and the first reply due), and the same for the
 * DRAM clock and partition_dram_cycle (0 while an access can enter the
 * channel; else the channel's dram_next_event).  UINT64_MAX: never
 * without a new request.  Before them the calls are no-ops. */
uint64_t partition_next_l2_event(const partition_t *p);
uint64_t partition_next_dram_event(const partition_t *p);

/* The L2 slice holds the line of `addr` (a global address of this
 * partition) as if it had been fetched: cache_install; nothing without an
 * L2. */
void partition_prefill(partition_t *p, uint64_t addr);

/* Adds the partition's L2 slice and DRAM channel figures to the GPU's
 * statistics. */
void partition_export_stats(const partition_t *p, simt_stats_t *st);

#endif
