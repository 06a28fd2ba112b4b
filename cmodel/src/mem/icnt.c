/* icnt.c: a crossbar direction with flit-level output bandwidth (icnt.h). */
#include <stdlib.h>

#include "mem/icnt.h"

static int port_init(icnt_port_t *p, unsigned flits)
{
    p->cap = flits;             /* at most one packet per flit */
    p->q = calloc(flits, sizeof *p->q);
    return p->q ? 0 : -1;
}

/* i < cap and head < cap: one subtraction wraps (no division). */
static icnt_pkt_t *port_at(icnt_port_t *p, unsigned i)
{
    unsigned k = p->head + i;
    return &p->q[k >= p->cap ? k - p->cap : k];
}

static void port_push(icnt_port_t *p, icnt_pkt_t pkt)
{
    *port_at(p, p->count++) = pkt;
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
    *n = (icnt_t){ .cfg = *cfg, .first_ready = UINT64_MAX };
    if (!cfg->inputs || !cfg->outputs || !cfg->flit_bytes || !cfg->in_flits ||
        !cfg->out_flits)
        return "interconnect ports, flit size and buffers must be at least 1";
    n->in = calloc(cfg->inputs, sizeof *n->in);
    n->out = calloc(cfg->outputs, sizeof *n->out);
    n->last_in = calloc(cfg->outputs, sizeof *n->last_in);
    n->cur_in = calloc(cfg->outputs, sizeof *n->cur_in);
    n->left = calloc(cfg->outputs, sizeof *n->left);
    n->heads = calloc(cfg->outputs, sizeof *n->heads);
    n->head_in = calloc(cfg->outputs, sizeof *n->head_in);
    int bad = !n->in || !n->out || !n->last_in || !n->cur_in || !n->left ||
              !n->heads || !n->head_in;
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
    free(n->left);
    free(n->heads);
    free(n->head_in);
    *n = (icnt_t){ 0 };
}

/* Input i's head packet, a new one, goes to output o. */
static void head_added(icnt_t *n, unsigned o, unsigned i)
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
    n->pending++;
    n->queued++;
    n->stats.packets++;
}

/* Starts a packet at output o from the next input (round robin) whose head
 * packet goes to o and fits in o's buffer. */
static void start_packet(icnt_t *n, unsigned o)
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
            if (n->in[i].count && port_at(&n->in[i], 0)->output == o)
                break;
        }
        if (k > n->cfg.inputs)
            return; /* no head goes to o */
    }
    icnt_port_t *p = &n->in[i];
    if (n->out[o].flits + port_at(p, 0)->flits > n->cfg.out_flits) {
        /* no credit: wait for the receiver (or a new head) */
        if (o < 64)
            n->no_credit |= (uint64_t)1 << o;
        return;
    }
    n->cur_in[o] = (int32_t)i;
    n->left[o] = port_at(p, 0)->flits;
    n->last_in[o] = i;
}

/* Output o's cycle: it starts a packet if it has none, and moves a flit. */
static void output_cycle(icnt_t *n, unsigned o, uint64_t now)
{
    if (n->cur_in[o] < 0 && n->heads[o])
        start_packet(n, o);
    if (n->cur_in[o] < 0)
        return;
    n->stats.flits++;
    n->stats.out_busy_cycles++;
    if (--n->left[o])
        return;
    icnt_port_t *in = &n->in[n->cur_in[o]];
    icnt_pkt_t pkt = port_pop(in);
    if (n->cur_in[o] < 64)
        n->drained_in |= (uint64_t)1 << n->cur_in[o];
    n->heads[o]--;
    if (n->cur_in[o] < 64)
        n->head_in[o] &= ~((uint64_t)1 << n->cur_in[o]);
    if (in->count) /* the next packet is the input's head now */
        head_added(n, port_at(in, 0)->output, (unsigned)n->cur_in[o]);
    n->queued--;
    pkt.ready = now + n->cfg.latency;
    port_push(&n->out[o], pkt);
    if (o < 64)
        n->held_out |= (uint64_t)1 << o;
    if (pkt.ready < n->first_ready)
        n->first_ready = pkt.ready;
    n->cur_in[o] = -1;
    if (!n->heads[o] && o < 64)
        n->busy_out &= ~((uint64_t)1 << o);
}

void icnt_cycle(icnt_t *n, uint64_t now)
{
    if (!n->queued) /* nothing waits at an input: only output latency left */
        return;
    if (n->cfg.outputs > 64) {
        for (unsigned o = 0; o < n->cfg.outputs; o++)
            output_cycle(n, o, now);
        return;
    }
    /* the outputs in ascending order, as the loop above, visiting only the
     * busy ones; the mask is read again after each, since a packet that
     * leaves an input can make a later output busy in this same cycle */
    uint64_t m = n->busy_out & ~n->no_credit;
    while (m) {
        unsigned o = (unsigned)__builtin_ctzll(m);
        output_cycle(n, o, now);
        m = o < 63 ? n->busy_out & ~n->no_credit & (~(uint64_t)0 << (o + 1)) : 0;
    }
}

void *icnt_take(icnt_t *n, unsigned output)
{
    icnt_port_t *p = &n->out[output];
    n->pending--;
    icnt_pkt_t pkt = port_pop(p);
    void *payload = pkt.payload;
    if (output < 64) {
        n->no_credit &= ~((uint64_t)1 << output); /* room again */
        if (!p->count)
            n->held_out &= ~((uint64_t)1 << output);
    }
    /* each buffer is in delivery order: the earliest is at some head.  A
     * packet later than the earliest leaves it where it was (the new head
     * here is later still) */
    if (pkt.ready > n->first_ready)
        return payload;
    n->first_ready = UINT64_MAX;
    for (unsigned o = icnt_next_held(n, 0); o < n->cfg.outputs; o = icnt_next_held(n, o + 1))
        if (port_at(&n->out[o], 0)->ready < n->first_ready)
            n->first_ready = port_at(&n->out[o], 0)->ready;
    return payload;
}
