/* icnt.c: a crossbar direction with flit-level output bandwidth (icnt.h). */
#include <stdlib.h>

#include "mem/icnt.h"

static int port_init(icnt_port_t *p, unsigned flits)
{
    p->cap = flits;             /* at most one packet per flit */
    p->q = calloc(flits, sizeof *p->q);
    return p->q ? 0 : -1;
}

static icnt_pkt_t *port_head(icnt_port_t *p)
{
    return &p->q[p->head];
}

static void port_push(icnt_port_t *p, icnt_pkt_t pkt)
{
    /* count < cap and head < cap: one subtraction wraps (no division) */
    unsigned k = p->head + p->count++;
    p->q[k >= p->cap ? k - p->cap : k] = pkt;
    p->flits += pkt.flits;
}

static icnt_pkt_t port_pop(icnt_port_t *p)
{
    icnt_pkt_t pkt = p->q[p->head];
    if (++p->head == p->cap)
        p->head = 0;
    p->count--;
    p->flits -= pkt.flits;
    return pkt;
}

const char *icnt_init(icnt_t *n, const icnt_cfg_t *cfg)
{
    *n = (icnt_t){ .cfg = *cfg };
    if (!cfg->inputs || !cfg->outputs || !cfg->flit_bytes || !cfg->in_flits ||
        !cfg->out_flits)
        return "interconnect ports, flit size and buffers must be at least 1";
    n->in = calloc(cfg->inputs, sizeof *n->in);
    n->out = calloc(cfg->outputs, sizeof *n->out);
    n->last_in = calloc(cfg->outputs, sizeof *n->last_in);
    n->cur_in = calloc(cfg->outputs, sizeof *n->cur_in);
    n->done = calloc(cfg->outputs, sizeof *n->done);
    if (!(cfg->flit_bytes & (cfg->flit_bytes - 1)))
        while ((1u << n->flit_shift) < cfg->flit_bytes)
            n->flit_shift++;
    /* a packet's last flit is at most in_flits - 1 ticks ahead */
    unsigned slots = 1;
    while (slots < cfg->in_flits)
        slots *= 2;
    n->wheel_mask = slots - 1;
    n->wheel = calloc(slots, sizeof *n->wheel);
    /* a packet arrives at most latency after the receiver's last pass */
    slots = 1;
    while (slots <= cfg->latency)
        slots *= 2;
    n->cal_mask = slots - 1;
    n->cal = calloc(slots, sizeof *n->cal);
    n->heads = calloc(cfg->outputs, sizeof *n->heads);
    n->head_in = calloc(cfg->outputs, sizeof *n->head_in);
    int bad = !n->in || !n->out || !n->last_in || !n->cur_in || !n->done ||
              !n->wheel || !n->cal || !n->heads || !n->head_in;
    for (unsigned i = 0; !bad && i < cfg->inputs; i++)
        bad = port_init(&n->in[i], cfg->in_flits);
    for (unsigned o = 0; !bad && o < cfg->outputs; o++) {
        bad = port_init(&n->out[o], cfg->out_flits);
        n->cur_in[o] = -1;
        n->last_in[o] = cfg->inputs - 1;
    }
    if (bad) {
        icnt_free(n);
        return "out of memory";
    }
    return NULL;
}

void icnt_free(icnt_t *n)
{
    for (unsigned i = 0; n->in && i < n->cfg.inputs; i++)
        free(n->in[i].q);
    for (unsigned o = 0; n->out && o < n->cfg.outputs; o++)
        free(n->out[o].q);
    free(n->in);
    free(n->out);
    free(n->last_in);
    free(n->cur_in);
    free(n->done);
    free(n->wheel);
    free(n->cal);
    free(n->heads);
    free(n->head_in);
    *n = (icnt_t){ 0 };
}

/* Input i's head packet, a new one, goes to output o. */
static inline void head_added(icnt_t *n, unsigned o, unsigned i)
{
    n->heads[o]++;
    if (i < 64)
        n->head_in[o] |= (uint64_t)1 << i;
    if (o < 64) {
        n->busy_out |= (uint64_t)1 << o;
        n->no_credit &= ~((uint64_t)1 << o); /* it may come first */
    }
}

void icnt_push(icnt_t *n, unsigned input, unsigned output, void *payload,
               unsigned bytes)
{
    if (!n->in[input].count) /* it becomes the input's head */
        head_added(n, output, input);
    port_push(&n->in[input], (icnt_pkt_t){ .payload = payload, .output = output,
                                           .flits = icnt_flits(n, bytes) });
    n->queued++;
    n->stats.packets++;
}

/* Starts a packet at output o from the next input (round robin) whose head
 * packet goes to o and fits in o's buffer; whether it did. */
static int start_packet(icnt_t *n, unsigned o)
{
    unsigned i = n->last_in[o];
    if (n->cfg.inputs <= 64) {
        /* the first input after last_in, cyclically, whose head goes to
         * o: what the scan below finds */
        uint64_t m = n->head_in[o];
        uint64_t after = i < 63 ? m & (~(uint64_t)0 << (i + 1)) : 0;
        i = (unsigned)__builtin_ctzll(after ? after : m); /* heads[o] > 0 */
    } else {
        unsigned k = 1;
        for (; k <= n->cfg.inputs; k++) {
            if (++i == n->cfg.inputs)
                i = 0;
            if (n->in[i].count && port_head(&n->in[i])->output == o)
                break;
        }
        if (k > n->cfg.inputs)
            return 0; /* no head goes to o */
    }
    icnt_port_t *p = &n->in[i];
    unsigned flits = port_head(p)->flits;
    if (n->out[o].flits + flits > n->cfg.out_flits) {
        /* no credit: wait for the receiver (or a new head) */
        if (o < 64)
            n->no_credit |= (uint64_t)1 << o;
        return 0;
    }
    n->cur_in[o] = (int32_t)i;
    n->last_in[o] = i;
    n->done[o] = n->ticks + flits - 1;
    if (flits > 1 && n->cfg.outputs <= 64) {
        n->xfer |= (uint64_t)1 << o;
        n->wheel[n->done[o] & n->wheel_mask] |= (uint64_t)1 << o;
    }
    return 1;
}

/* Output o's new head packet is delivered at `ready`: the receiver's pass
 * must visit o by then (icnt_t.due). */
static void schedule(icnt_t *n, unsigned o, uint64_t ready)
{
    if (ready <= n->coll) /* its slot was collected already */
        n->due |= (uint64_t)1 << o;
    else
        n->cal[ready & n->cal_mask] |= (uint64_t)1 << o;
}

/* Output o's cycle: it starts a packet if it has none, and moves a flit;
 * after the last, the packet goes into o's buffer. */
static void output_cycle(icnt_t *n, unsigned o, uint64_t now)
{
    if (n->cur_in[o] < 0 && (!n->heads[o] || !start_packet(n, o)))
        return;
    if (n->done[o] != n->ticks)
        return; /* a flit crossed, not the packet's last */
    icnt_port_t *in = &n->in[n->cur_in[o]];
    icnt_pkt_t pkt = port_pop(in);
    n->stats.flits += pkt.flits;
    n->stats.out_busy_cycles += pkt.flits;
    if (n->cur_in[o] < 64)
        n->drained_in |= (uint64_t)1 << n->cur_in[o];
    n->heads[o]--;
    if (n->cur_in[o] < 64)
        n->head_in[o] &= ~((uint64_t)1 << n->cur_in[o]);
    if (in->count) /* the next packet is the input's head now */
        head_added(n, port_head(in)->output, (unsigned)n->cur_in[o]);
    n->queued--;
    pkt.ready = now + n->cfg.latency;
    if (o < 64) {
        n->xfer &= ~((uint64_t)1 << o);
        if (!n->out[o].count) /* a new head: into the calendar */
            schedule(n, o, pkt.ready);
    }
    port_push(&n->out[o], pkt);
    n->cur_in[o] = -1;
    if (!n->heads[o] && o < 64)
        n->busy_out &= ~((uint64_t)1 << o);
}

/* The first output >= o that icnt_cycle visits: with more than 64
 * outputs every one; else the busy ones that can do more than move a
 * middle flit (`mid`: those in transfer whose last flit is not this
 * tick's; a visit only changes the visited output's transfer, so `mid`
 * stays right for the ones after it).  The masks are read again at each
 * step, since a packet that leaves an input can make a later output busy
 * (or give it credit) in this same cycle. */
static unsigned next_visit(const icnt_t *n, unsigned o, uint64_t mid)
{
    if (n->cfg.outputs > 64)
        return o;
    uint64_t m = o < 64 ? n->busy_out & ~n->no_credit & ~mid & (~(uint64_t)0 << o) : 0;
    return m ? (unsigned)__builtin_ctzll(m) : n->cfg.outputs;
}

void icnt_cycle(icnt_t *n, uint64_t now)
{
    if (!n->queued) /* nothing waits at an input: only output latency left */
        return;
    uint64_t mid = 0;
    if (n->cfg.outputs <= 64) {
        uint64_t *slot = &n->wheel[n->ticks & n->wheel_mask];
        mid = n->xfer & ~*slot;
        *slot = 0;
    }
    /* the outputs in ascending order (one call site: output_cycle is
     * inlined) */
    for (unsigned o = next_visit(n, 0, mid); o < n->cfg.outputs; o = next_visit(n, o + 1, mid))
        output_cycle(n, o, now);
    n->ticks++;
}

void icnt_collect(icnt_t *n, uint64_t now)
{
    /* the times coll + 1 .. now, or every slot once it is a lap or more
     * behind */
    uint64_t t = now - n->coll > n->cal_mask ? now - n->cal_mask : n->coll + 1;
    for (; t <= now; t++) {
        n->due |= n->cal[t & n->cal_mask];
        n->cal[t & n->cal_mask] = 0;
    }
    n->coll = now;
}

uint64_t icnt_next_event(const icnt_t *n)
{
    if (n->queued)
        return 0;
    uint64_t t = UINT64_MAX;
    if (n->cfg.outputs > 64) {
        for (unsigned o = 0; o < n->cfg.outputs; o++) {
            const icnt_port_t *p = &n->out[o];
            if (p->count && p->q[p->head].ready < t)
                t = p->q[p->head].ready;
        }
        return t;
    }
    /* the heads in due (delivered by the last pass, or early), and the
     * first time in the calendar */
    for (uint64_t m = n->due; m; m &= m - 1) {
        const icnt_port_t *p = &n->out[__builtin_ctzll(m)];
        if (p->count && p->q[p->head].ready < t)
            t = p->q[p->head].ready;
    }
    for (uint64_t k = n->coll + 1; k <= n->coll + n->cal_mask + 1 && k < t; k++)
        if (n->cal[k & n->cal_mask])
            return k;
    return t;
}
