/* icnt.h: one direction of the crossbar interconnect (requests from the
 * SM clusters to the memory partitions, or replies back).
 *
 * Packets are cut into flits of `flit_bytes`.  Each input port has a queue
 * bounded by `in_flits`; each output port moves one flit per cycle, taking
 * packets whole from the inputs whose head packet goes there, round robin
 * starting after the input it served last.  A packet whose last flit
 * crossed at cycle t is delivered at t + latency into the output's buffer,
 * bounded by `out_flits` (credits: an output whose buffer cannot take a
 * packet does not start it).  The receiver pops delivered packets in
 * arrival order.  Payloads are opaque pointers owned by the caller. */
#ifndef MEM_ICNT_H
#define MEM_ICNT_H

#include <stdint.h>

typedef struct icnt_cfg {
    unsigned inputs, outputs;
    unsigned flit_bytes;       /* bytes per flit (channel width) */
    unsigned latency;          /* cycles from the last flit to delivery */
    unsigned in_flits;         /* input queue capacity, in flits */
    unsigned out_flits;        /* output buffer capacity, in flits */
} icnt_cfg_t;

typedef struct icnt_pkt {
    void *payload;
    uint32_t output;
    uint32_t flits;
    uint64_t ready;            /* delivery cycle (in an output buffer) */
} icnt_pkt_t;

typedef struct icnt_port {
    icnt_pkt_t *q;             /* ring of packets */
    unsigned head, count, cap;
    unsigned flits;            /* flits held */
} icnt_port_t;

typedef struct icnt_stats {
    uint64_t packets, flits;
    uint64_t out_busy_cycles;  /* output-port cycles moving a flit */
} icnt_stats_t;

typedef struct icnt {
    icnt_cfg_t cfg;
    icnt_port_t *in, *out;
    uint32_t *last_in;         /* per output: input served last */
    int32_t *cur_in;           /* per output: input of the packet in
                                  transfer, or -1 */
    uint32_t *left;            /* per output: flits of it still to move */
    uint64_t *head_in;         /* with at most 64 inputs, per output: bit
                                  i set when input i's head packet goes
                                  there, so the round robin finds the next
                                  one by a bit scan */
    uint32_t *heads;           /* per output: inputs whose head packet goes
                                  there (an output with none and no packet
                                  in transfer is skipped in O(1)) */
    uint64_t busy_out;         /* with at most 64 outputs, bit o: output o
                                  has a packet in transfer or a head
                                  packet waiting for it (heads[o]), so a
                                  cycle visits only those */
    unsigned pending;          /* packets anywhere (idle cycles are O(1)) */
    unsigned queued;           /* packets still at an input port */
    uint64_t no_credit;        /* with at most 64 outputs, bit o: output o
                                  has no packet in transfer and the packet
                                  its round robin found did not fit its
                                  buffer; the scan would find the same
                                  until the receiver takes a packet from o
                                  or a new head for o appears at an input,
                                  which clear it, so icnt_cycle leaves o
                                  alone until then */
    uint64_t drained_in;       /* bit i: a packet left input i (i < 64)
                                  since the sender last asked
                                  (icnt_take_drained) */
    uint64_t held_out;         /* with at most 64 outputs, bit o: output
                                  o's buffer holds a packet (delivered or
                                  not), so receivers visit only those
                                  (icnt_next_held) */
    uint64_t first_ready;      /* no packet in an output buffer is
                                  delivered before (UINT64_MAX: none is
                                  there), so receivers skip in O(1) */
    icnt_stats_t stats;
} icnt_t;

/* NULL, or what is wrong with the configuration. */
const char *icnt_init(icnt_t *n, const icnt_cfg_t *cfg);
void icnt_free(icnt_t *n);

/* Flits of a `bytes`-byte packet. */
static inline unsigned icnt_flits(const icnt_t *n, unsigned bytes)
{
    return bytes ? (bytes + n->cfg.flit_bytes - 1) / n->cfg.flit_bytes : 1;
}

/* Room at `input` for a `bytes`-byte packet (inline: a full input is
 * asked again every cycle until it drains). */
static inline int icnt_can_push(const icnt_t *n, unsigned input, unsigned bytes)
{
    unsigned f = icnt_flits(n, bytes);
    return f <= n->cfg.in_flits && n->in[input].flits + f <= n->cfg.in_flits;
}
/* Queues a packet (icnt_can_push must hold). */
void icnt_push(icnt_t *n, unsigned input, unsigned output, void *payload,
               unsigned bytes);

/* The inputs (below 64; bit i) a packet left since the last call, which
 * clears them: only those can take a packet now that they refused before
 * (an input only fills up otherwise), so a sender can leave the others
 * alone. */
static inline uint64_t icnt_take_drained(icnt_t *n)
{
    uint64_t d = n->drained_in;
    n->drained_in = 0;
    return d;
}

/* One interconnect cycle. */
void icnt_cycle(icnt_t *n, uint64_t now);

/* Takes the head packet of `output` (icnt_pop found it delivered). */
void *icnt_take(icnt_t *n, unsigned output);

/* The oldest packet delivered to `output` by `now`, or NULL (inline: the
 * receivers ask every output each cycle, and mostly nothing is there). */
static inline void *icnt_pop(icnt_t *n, unsigned output, uint64_t now)
{
    const icnt_port_t *p = &n->out[output];
    if (now < n->first_ready || !p->count || p->q[p->head].ready > now)
        return NULL;
    return icnt_take(n, output);
}

/* Whether icnt_pop can return a packet at `now` for some output. */
static inline int icnt_any_delivered(const icnt_t *n, uint64_t now)
{
    return n->first_ready <= now;
}

/* The first output >= o whose buffer holds a packet, or cfg.outputs: a
 * receiver visits for (o = icnt_next_held(n, 0); o < outputs;
 * o = icnt_next_held(n, o + 1)) the outputs a full scan would find
 * something at, in the same order. */
static inline unsigned icnt_next_held(const icnt_t *n, unsigned o)
{
    if (n->cfg.outputs > 64) {
        while (o < n->cfg.outputs && !n->out[o].count)
            o++;
        return o;
    }
    uint64_t m = o < 64 ? n->held_out & (~(uint64_t)0 << o) : 0;
    return m ? (unsigned)__builtin_ctzll(m) : n->cfg.outputs;
}

/* For the idle-cycle skip (gpu/timing.c): the first cycle at which
 * icnt_cycle or icnt_pop can do anything: 0 while a packet waits at an
 * input (it moves every cycle), else the first delivery (UINT64_MAX: the
 * network is empty).  Before it both are no-ops. */
static inline uint64_t icnt_next_event(const icnt_t *n)
{
    return n->queued ? 0 : n->first_ready;
}

#endif
