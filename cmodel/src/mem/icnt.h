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
    uint64_t out_busy_cycles;  /* output-port cycles moving a flit (both
                                  counted whole when a packet's last flit
                                  crosses) */
} icnt_stats_t;

typedef struct icnt {
    icnt_cfg_t cfg;
    icnt_port_t *in, *out;
    uint32_t *last_in;         /* per output: input served last */
    int32_t *cur_in;           /* per output: input of the packet in
                                  transfer, or -1 */
    uint64_t ticks;            /* icnt_cycle calls that moved flits (a
                                  packet waited at an input): the flits of
                                  a packet in transfer cross on consecutive
                                  ones, one per call */
    uint64_t *done;            /* per output: the tick whose call moves the
                                  last flit of the packet in transfer (set
                                  when it starts: its first flit crosses at
                                  `ticks`, so this is ticks + flits - 1) */
    uint64_t *wheel;           /* with at most 64 outputs, wheel[t &
                                  wheel_mask] bit o: output o's packet in
                                  transfer, of more than one flit, ends at
                                  tick t (done[o] == t).  A packet has at
                                  most in_flits flits, and the wheel is a
                                  power of two >= in_flits long, so one
                                  slot never holds two ticks; a slot is
                                  cleared in the call that reads it */
    unsigned wheel_mask;
    unsigned flit_shift;       /* log2(flit_bytes) when it is a power of
                                  two (icnt_flits shifts instead of
                                  dividing: asked for every packet, in
                                  and out), else 0 */
    uint64_t xfer;             /* with at most 64 outputs, bit o: output o
                                  has a packet of more than one flit in
                                  transfer (its bit is in the wheel).  In a
                                  call whose tick is not its done[o] the
                                  output only moves a middle flit, which
                                  changes nothing but the transfer's
                                  progress, so icnt_cycle does not visit
                                  it */
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
    uint64_t *cal;             /* with at most 64 outputs, the delivery
                                  calendar: cal[t & cal_mask] bit o:
                                  output o's head packet is delivered at
                                  t (a time after `coll`; a bit whose
                                  packet a pop outside a pass took only
                                  costs a visit) */
    unsigned cal_mask;         /* cal's length - 1: a power of two above
                                  latency, so a packet that arrives while
                                  the receiver passes every cycle has its
                                  own slot (a later time shares an earlier
                                  time's slot and is only visited early) */
    uint64_t coll;             /* the receiver's pass at `coll` moved the
                                  slots of the times up to it into due */
    uint64_t due;              /* with at most 64 outputs, bit o: output
                                  o's head packet may be delivered; the
                                  receiver's pass visits only these.  Each
                                  output holding packets is in due or in
                                  the slot of a time in (coll, the head's
                                  delivery] (icnt_recv_first), so it is in
                                  due by the pass at its head's delivery */
    icnt_stats_t stats;
} icnt_t;

/* NULL, or what is wrong with the configuration. */
const char *icnt_init(icnt_t *n, const icnt_cfg_t *cfg);
void icnt_free(icnt_t *n);

/* Flits of a `bytes`-byte packet. */
static inline unsigned icnt_flits(const icnt_t *n, unsigned bytes)
{
    if (!bytes)
        return 1;
    unsigned b = bytes + n->cfg.flit_bytes - 1;
    return n->flit_shift ? b >> n->flit_shift : b / n->cfg.flit_bytes;
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

/* Takes the oldest packet delivered to `output` by `now`, or NULL
 * (inline: a receiver asks each output it visits, until NULL). */
static inline void *icnt_pop(icnt_t *n, unsigned output, uint64_t now)
{
    icnt_port_t *p = &n->out[output];
    const icnt_pkt_t *h = &p->q[p->head];
    if (!p->count || h->ready > now)
        return NULL;
    if (++p->head == p->cap)
        p->head = 0;
    p->count--;
    p->flits -= h->flits;
    if (output < 64)
        n->no_credit &= ~((uint64_t)1 << output); /* room again */
    return h->payload;
}

/* The first output >= o whose buffer holds a packet, or cfg.outputs. */
static inline unsigned icnt_next_held(const icnt_t *n, unsigned o)
{
    while (o < n->cfg.outputs && !n->out[o].count)
        o++;
    return o;
}

/* The first output >= o in `due`, or cfg.outputs (at most 64 outputs). */
static inline unsigned icnt_next_due(const icnt_t *n, unsigned o)
{
    uint64_t m = o < 64 ? n->due & (~(uint64_t)0 << o) : 0;
    return m ? (unsigned)__builtin_ctzll(m) : n->cfg.outputs;
}

/* The receiver's pass at `now`, in ascending output order:
 *
 *     for (o = icnt_recv_first(n, now); o < outputs; o = icnt_recv_next(n, o, now))
 *         while (the receiver takes more && (p = icnt_pop(n, o, now))) ...
 *
 * visits every output whose head packet is delivered by `now` (what a
 * scan of every output would find something at), and with at most 64
 * outputs few others: the calendar's slots up to `now` join `due` first,
 * and after its visit an output leaves `due` for the slot of its new
 * head's delivery, or for nowhere when its buffer is empty.  An output
 * the receiver refused stays in due.  (More than 64 outputs: every output
 * holding a packet.) */
/* The calendar's slots after `coll` up to `now` into due (icnt_recv_first
 * when a pass skipped cycles). */
void icnt_collect(icnt_t *n, uint64_t now);

static inline unsigned icnt_recv_first(icnt_t *n, uint64_t now)
{
    if (n->cfg.outputs > 64)
        return icnt_next_held(n, 0);
    if (now == n->coll + 1) { /* a pass every cycle: one slot */
        n->due |= n->cal[now & n->cal_mask];
        n->cal[now & n->cal_mask] = 0;
        n->coll = now;
    } else if (now > n->coll) {
        icnt_collect(n, now);
    }
    return icnt_next_due(n, 0);
}

static inline unsigned icnt_recv_next(icnt_t *n, unsigned o, uint64_t now)
{
    if (n->cfg.outputs > 64)
        return icnt_next_held(n, o + 1);
    const icnt_port_t *p = &n->out[o];
    uint64_t bit = (uint64_t)1 << o;
    if (!p->count) {
        n->due &= ~bit;
    } else if (p->q[p->head].ready > now) {
        n->due &= ~bit;
        n->cal[p->q[p->head].ready & n->cal_mask] |= bit;
    }
    return icnt_next_due(n, o + 1);
}

/* For the idle-cycle skip (gpu/timing.c): the first cycle at which
 * icnt_cycle or icnt_pop can do anything: 0 while a packet waits at an
 * input (it moves every cycle), else the first delivery (UINT64_MAX: the
 * network is empty).  Before it both are no-ops.  Exact after a receiver's
 * pass at every cycle (memsys); otherwise it may come early (a pop outside
 * a pass, a slot shared by two times), which only stops a skip early. */
uint64_t icnt_next_event(const icnt_t *n);

#endif
