/* test_icnt_reference.c: the crossbar direction (mem/icnt.h) against a
 * reference written the plain way, on random traffic.  The reference
 * moves every flit of a packet in transfer one cycle at a time, scans
 * every input for an output's round robin and every output for the
 * receiver, and recomputes the first delivery from the heads; the model
 * keeps masks, the transfers' end ticks (wheel), the delivery calendar
 * and `due` instead.  Any of those kept wrong shows as a packet taken at
 * another time, in another order or not at all, a different drained
 * input, or a different icnt_next_event. */
#include <stddef.h>
#include <stdlib.h>

#include "../harness.h"
#include "mem/icnt.h"

#define REF_PORTS 80
#define REF_QUEUE 64
#define REF_PACKETS 4000

typedef struct ref_pkt {
    unsigned tag, output, flits;
    uint64_t ready;
} ref_pkt_t;

typedef struct ref_port {
    ref_pkt_t q[REF_QUEUE];
    unsigned count, flits;
} ref_port_t;

typedef struct ref {
    icnt_cfg_t cfg;
    ref_port_t in[REF_PORTS], out[REF_PORTS];
    int cur[REF_PORTS];
    unsigned left[REF_PORTS], last[REF_PORTS];
    uint64_t flits, drained;
} ref_t;

static void ref_init(ref_t *r, const icnt_cfg_t *c)
{
    *r = (ref_t){ .cfg = *c };
    for (unsigned o = 0; o < c->outputs; o++) {
        r->cur[o] = -1;
        r->last[o] = c->inputs - 1;
    }
}

static ref_pkt_t ref_pop_port(ref_port_t *p)
{
    ref_pkt_t k = p->q[0];
    for (unsigned j = 1; j < p->count; j++)
        p->q[j - 1] = p->q[j];
    p->count--;
    p->flits -= k.flits;
    return k;
}

static void ref_push_port(ref_port_t *p, ref_pkt_t k)
{
    p->q[p->count++] = k;
    p->flits += k.flits;
}

/* Every output in order: start a packet (round robin after the input
 * served last, if it fits the output's buffer), move one flit. */
static void ref_cycle(ref_t *r, uint64_t now)
{
    for (unsigned o = 0; o < r->cfg.outputs; o++) {
        if (r->cur[o] < 0) {
            unsigned i = r->last[o];
            for (unsigned k = 0; k < r->cfg.inputs; k++) {
                i = (i + 1) % r->cfg.inputs;
                if (r->in[i].count && r->in[i].q[0].output == o)
                    break;
            }
            if (r->in[i].count && r->in[i].q[0].output == o &&
                r->out[o].flits + r->in[i].q[0].flits <= r->cfg.out_flits) {
                r->cur[o] = (int)i;
                r->left[o] = r->in[i].q[0].flits;
                r->last[o] = i;
            }
        }
        if (r->cur[o] < 0)
            continue;
        r->flits++;
        if (--r->left[o])
            continue;
        ref_pkt_t k = ref_pop_port(&r->in[r->cur[o]]);
        if (r->cur[o] < 64)
            r->drained |= (uint64_t)1 << r->cur[o];
        k.ready = now + r->cfg.latency;
        ref_push_port(&r->out[o], k);
        r->cur[o] = -1;
    }
}

static uint64_t ref_next_event(const ref_t *r)
{
    uint64_t t = UINT64_MAX;
    for (unsigned i = 0; i < r->cfg.inputs; i++)
        if (r->in[i].count)
            return 0;
    for (unsigned o = 0; o < r->cfg.outputs; o++)
        if (r->out[o].count && r->out[o].q[0].ready < t)
            t = r->out[o].q[0].ready;
    return t;
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* How many packets the receiver takes from output o at `now` (0: it
 * refuses), the same for the model and the reference. */
static unsigned takes(uint64_t seed, unsigned o, uint64_t now, int refusals)
{
    uint64_t s = seed ^ (now * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)o << 40) ^ 1;
    rng_next(&s);
    return refusals ? (unsigned)(rng_next(&s) % 3) : ~0u;
}

static int tags[REF_PACKETS];

typedef struct ref_run {
    unsigned sent, got, got_ref;
    unsigned order[2][REF_PACKETS];
} ref_run_t;

/* The receiver's pass at `now` on both (a failed check fails the test:
 * harness_failed). */
static void receive(icnt_t *n, ref_t *r, ref_run_t *x, uint64_t now, uint64_t seed,
                   int refusals, int exact)
{
    const icnt_cfg_t *c = &r->cfg;
    for (unsigned o = icnt_recv_first(n, now); o < c->outputs; o = icnt_recv_next(n, o, now)) {
        int *p;
        for (unsigned k = takes(seed, o, now, refusals); k && (p = icnt_pop(n, o, now)); k--)
            x->order[0][x->got++] = (unsigned)(p - tags);
    }
    for (unsigned o = 0; o < c->outputs; o++)
        for (unsigned k = takes(seed, o, now, refusals);
             k && r->out[o].count && r->out[o].q[0].ready <= now; k--)
            x->order[1][x->got_ref++] = ref_pop_port(&r->out[o]).tag;
    CHECK_MSG(x->got == x->got_ref, "cycle %llu: %u packets taken, the reference %u",
              (unsigned long long)now, x->got, x->got_ref);
    for (unsigned k = 0; k < x->got; k++)
        CHECK_MSG(x->order[0][k] == x->order[1][k], "packet %u: %u, the reference %u", k,
                  x->order[0][k], x->order[1][k]);
    /* exact while the receiver passes every cycle; else it may come early */
    uint64_t want = ref_next_event(r), have = icnt_next_event(n);
    if (exact)
        CHECK_MSG(have == want, "cycle %llu: next event %llu, the reference %llu",
                  (unsigned long long)now, (unsigned long long)have, (unsigned long long)want);
    else
        CHECK(have <= want);
}

/* `cycles` cycles of random pushes (at most `max_flits` flits each),
 * icnt_cycle, and a receiver's pass on a cycle out of `gap` (every cycle
 * when 1), after icnt_cycle (`when` 0), before it (1) or both (2), then
 * cycles without pushes until both are empty. */
static void check_against(icnt_t *n, ref_t *r, ref_run_t *x, const icnt_cfg_t *c,
                          unsigned max_flits, unsigned load, unsigned gap, int when,
                          int refusals, uint64_t seed, unsigned cycles)
{
    ref_init(r, c);
    uint64_t s = seed;
    for (uint64_t now = 0; now < 100000; now++) {
        int pushing = now < cycles;
        int pass = !pushing || gap == 1 || rng_next(&s) % gap == 0;
        if (pass && when >= 1)
            receive(n, r, x, now, seed, refusals, gap == 1);
        if (harness_failed())
            return;
        for (unsigned i = 0; pushing && i < c->inputs && x->sent < REF_PACKETS; i++) {
            if (rng_next(&s) % 100 >= load)
                continue;
            unsigned flits = 1 + (unsigned)(rng_next(&s) % max_flits);
            unsigned bytes = flits * c->flit_bytes - (unsigned)(rng_next(&s) % c->flit_bytes);
            unsigned o = (unsigned)(rng_next(&s) % c->outputs);
            int fits = r->in[i].flits + flits <= c->in_flits;
            CHECK_EQ(icnt_can_push(n, i, bytes), fits);
            if (!fits)
                continue;
            icnt_push(n, i, o, &tags[x->sent], bytes);
            ref_push_port(&r->in[i], (ref_pkt_t){ .tag = x->sent, .output = o, .flits = flits });
            x->sent++;
        }
        icnt_cycle(n, now);
        ref_cycle(r, now);
        CHECK_EQ(icnt_take_drained(n), r->drained);
        r->drained = 0;
        if (pass && when != 1)
            receive(n, r, x, now, seed, refusals, gap == 1);
        if (harness_failed())
            return;
        if (!pushing && x->got == x->sent)
            break;
    }
    CHECK_EQ(x->got, x->sent);
    CHECK_MSG(x->sent > REF_PACKETS / 8, "only %u packets", x->sent);
    CHECK_EQ(n->stats.flits, r->flits);
    CHECK_EQ(icnt_next_event(n), UINT64_MAX);
}

static void run_case(const icnt_cfg_t *c, unsigned max_flits, unsigned load,
                     unsigned gap, int when, int refusals, uint64_t seed,
                     unsigned cycles)
{
    ref_t *r = malloc(sizeof *r);
    ref_run_t *x = calloc(1, sizeof *x);
    icnt_t n;
    CHECK(r && x && icnt_init(&n, c) == NULL);
    check_against(&n, r, x, c, max_flits, load, gap, when, refusals, seed, cycles);
    icnt_free(&n);
    free(r);
    free(x);
}

/* The crossbar's shape on kepler-ss: 14 clusters, 6 partitions, 32-flit
 * buffers, latency 8; requests of one flit, replies of up to five. */
TEST(icnt_matches_reference_kepler_shape)
{
    icnt_cfg_t req = { .inputs = 14, .outputs = 6, .flit_bytes = 32,
                       .latency = 8, .in_flits = 32, .out_flits = 32 };
    icnt_cfg_t rep = { .inputs = 6, .outputs = 14, .flit_bytes = 32,
                       .latency = 8, .in_flits = 32, .out_flits = 32 };
    run_case(&req, 1, 60, 1, 0, 1, 11, 3000);
    run_case(&rep, 5, 70, 1, 0, 0, 12, 3000);
    run_case(&rep, 5, 70, 1, 0, 1, 13, 3000);
}

/* Small buffers (credits run out, packets as long as the input queue, so
 * the wheel's slots are all in use), latency 0 (a packet that arrives
 * after a pass at its own cycle, delivered at once) and 3, and passes every cycle or
 * skipped cycles (the calendar's slots collected several at a time, or a
 * lap or more behind). */
TEST(icnt_matches_reference_small_buffers_and_gaps)
{
    icnt_cfg_t c = { .inputs = 3, .outputs = 4, .flit_bytes = 16,
                     .latency = 0, .in_flits = 8, .out_flits = 8 };
    run_case(&c, 8, 50, 1, 0, 1, 21, 2000);
    run_case(&c, 8, 50, 1, 1, 1, 26, 2000); /* the pass before the cycle */
    run_case(&c, 8, 50, 1, 2, 1, 27, 2000); /* and a second after it */
    c.latency = 3;
    run_case(&c, 8, 50, 1, 0, 1, 22, 2000);
    run_case(&c, 8, 50, 3, 0, 1, 23, 5000);
    run_case(&c, 8, 50, 12, 0, 1, 24, 5000);
    c.out_flits = 9;
    c.latency = 5;
    run_case(&c, 7, 80, 1, 0, 1, 25, 2000);
}

/* More than 64 inputs or outputs (the scans instead of the masks), and
 * exactly 64. */
TEST(icnt_matches_reference_many_ports)
{
    icnt_cfg_t c = { .inputs = 70, .outputs = 3, .flit_bytes = 32,
                     .latency = 4, .in_flits = 8, .out_flits = 8 };
    run_case(&c, 4, 3, 1, 0, 1, 31, 1500);
    c = (icnt_cfg_t){ .inputs = 3, .outputs = 70, .flit_bytes = 32,
                      .latency = 4, .in_flits = 8, .out_flits = 8 };
    run_case(&c, 4, 60, 1, 0, 1, 32, 1500);
    run_case(&c, 4, 60, 4, 0, 1, 33, 1500);
    c.outputs = 64; /* the masks' last bit */
    run_case(&c, 1, 100, 1, 0, 1, 34, 1300);
}
