/* memsys.h: the memory hierarchy below the SMs' L1s: a request crossbar
 * from the clusters to the memory partitions, the partitions (an L2 slice
 * each, mem/partition.h) and a reply crossbar back (mem/icnt.h).
 *
 * The SMs' outgoing requests enter the request network (one
 * port per cluster); requests leave it into their partition, chosen by
 * address (mem/addrmap.h);
 * the partitions run; ready replies enter the reply network; replies
 * leave it into their SM's LD/ST unit: a line for the L1, or the
 * acknowledgement of a write, an atomic or an uncached read.  Packets are
 * 8 bytes of header plus the data they carry (a read request carries none,
 * a write its bytes; a fill reply a line). */
#ifndef GPU_MEMSYS_H
#define GPU_MEMSYS_H

#include "core/sm.h"
#include "mem/icnt.h"
#include "mem/mem_req.h"
#include "mem/partition.h"

typedef struct memsys_cfg {
    addrmap_cfg_t map;         /* partitions, interleave and scheme */
    part_cfg_t part;           /* every partition's; memsys_init sets its
                                  map to `map` */
    icnt_cfg_t icnt;           /* inputs/outputs are set per direction */
} memsys_cfg_t;

typedef struct memsys_stats {
    uint64_t requests, replies;
    uint64_t req_flits, rep_flits;
} memsys_stats_t;

/* A request's reply as the partitions' side sends it: its size in bytes
 * (0: a write-back, which nobody waits for) and the cluster it goes to. */
typedef struct memsys_reply {
    uint16_t bytes;
    uint16_t cluster;
} memsys_reply_t;

typedef struct memsys {
    memsys_cfg_t cfg;
    unsigned clusters, per_cluster;
    icnt_t req_net, rep_net;
    partition_t *parts;
    mem_req_t *pool;           /* request records */
    memsys_reply_t *reply;     /* per record, what serve() needs to answer
                                  it: 4 bytes beside the record's 56, so
                                  that a partition's reply does not bring
                                  the record (written when the request was
                                  sent, long out of the host's caches)
                                  back in */
    uint32_t *free_list;
    unsigned npool, nfree;
    uint64_t next_id;
    uint64_t *outq;            /* bit i % 64 of word i / 64: SM i's outbox
                                  holds requests (memsys_note_outbox sets
                                  it, send_requests clears it when it has
                                  emptied the outbox), so a cycle visits
                                  only those SMs */
    unsigned outq_words;
    uint64_t *parked;          /* same layout: SM i's outbox head did not
                                  fit in its cluster's request input (a
                                  cluster below 64) and no packet has left
                                  that input since (icnt_take_drained).
                                  The head changes only when it is sent,
                                  and an input only fills up until a
                                  packet leaves it, so until then the head
                                  cannot fit and is not asked again */
    memsys_stats_t stats;
} memsys_t;

const char *memsys_init(memsys_t *m, const memsys_cfg_t *cfg,
                        unsigned clusters, unsigned per_cluster);
void memsys_free(memsys_t *m);

/* GPGPU-Sim's memcpy prefill: every L2 line of [addr, addr + bytes) is
 * installed in its partition's slice (partition_prefill), in address
 * order.  Before the first cycle. */
void memsys_prefill(memsys_t *m, uint64_t addr, uint64_t bytes);

/* After SM `sm`'s cycle (which may have put requests in its outbox, and
 * nothing else does): memsys_icnt_cycle, memsys_busy and
 * memsys_next_events see only the outboxes noted here (inline: asked for
 * every SM every core cycle). */
static inline void memsys_note_outbox(memsys_t *m, unsigned sm, const ldst_t *u)
{
    if (u->out_count)
        m->outq[sm >> 6] |= (uint64_t)1 << (sm & 63);
}

/* The hierarchy's three clock domains, each ticked on its own clock with
 * `now` counting that clock's cycles: the interconnect (SMs' outboxes in,
 * both networks, requests into partitions, replies into the SMs at core
 * cycle `core`), the L2 slices (and their replies into the network), and
 * the DRAM channels. */
void memsys_icnt_cycle(memsys_t *m, sm_t *sms, uint64_t now, uint64_t core);
void memsys_l2_cycle(memsys_t *m, uint64_t now);
void memsys_dram_cycle(memsys_t *m, uint64_t now);

/* Whether the crossbar moves something at its next edge: an SM's outbox
 * holds a request or a packet waits at an input (memsys_next_events'
 * interconnect time is then 0; memsys_busy holds).  Inline: the
 * idle-cycle skip asks it first, as in a saturated memory side this ends
 * the question. */
static inline int memsys_icnt_moves(const memsys_t *m)
{
    if (m->req_net.queued || m->rep_net.queued)
        return 1;
    for (unsigned w = 0; w < m->outq_words; w++)
        if (m->outq[w])
            return 1;
    return 0;
}

/* Whether any request is on its way anywhere in the hierarchy (when not,
 * ticking it changes nothing and can be skipped). */
int memsys_busy(const memsys_t *m, const sm_t *sms);

/* For the idle-cycle skip (gpu/timing.c): per clock domain, the first
 * cycle of that domain at which memsys_icnt_cycle, memsys_l2_cycle or
 * memsys_dram_cycle can do anything (0: every cycle, e.g. while an SM's
 * outbox or a crossbar input holds a request; UINT64_MAX: never without a
 * new request).  Every call for an earlier cycle is a no-op (the
 * components' *_next_event contracts), so only timed events remain. */
void memsys_next_events(const memsys_t *m, const sm_t *sms, uint64_t *icnt,
                        uint64_t *l2, uint64_t *dram);

/* Adds the hierarchy's figures to the GPU's statistics: the request
 * crossbar's, each partition's, and `dram_cycles` DRAM cycles of every
 * channel. */
void memsys_export_stats(const memsys_t *m, uint64_t dram_cycles,
                         simt_stats_t *st);

#endif
