/* test_icnt.c: the crossbar direction, cycle by cycle on hand-worked
 * cases (32-byte flits, latency 5 unless stated). */
#include <stddef.h>

#include "../harness.h"
#include "mem/icnt.h"

static icnt_cfg_t cfg2x2(void)
{
    return (icnt_cfg_t){ .inputs = 2, .outputs = 2, .flit_bytes = 32,
                         .latency = 5, .in_flits = 8, .out_flits = 8 };
}

static int tag[8];

/* 64 bytes = 2 flits, crossing at cycles 0 and 1: delivered at 1 + 5. */
TEST(icnt_packet_latency_is_flits_plus_latency)
{
    icnt_t n;
    icnt_cfg_t c = cfg2x2();
    CHECK(icnt_init(&n, &c) == NULL);
    CHECK_EQ(icnt_flits(&n, 64), 2);
    CHECK_EQ(icnt_flits(&n, 8), 1);
    icnt_push(&n, 0, 1, &tag[0], 64);
    for (uint64_t t = 0; t < 6; t++) {
        icnt_cycle(&n, t);
        CHECK_MSG(icnt_pop(&n, 1, t) == NULL, "delivered early at %llu",
                  (unsigned long long)t);
    }
    icnt_cycle(&n, 6);
    CHECK(icnt_pop(&n, 1, 6) == &tag[0]);
    CHECK_EQ(n.stats.flits, 2);
    icnt_free(&n);
}

/* Two inputs to one output serialise one flit per cycle, round robin:
 * input 0 holds packets A and C, input 1 holds B: order A (t0), B (t1),
 * C (t2).  Inputs to different outputs move in the same cycle. */
TEST(icnt_output_bandwidth_and_round_robin)
{
    icnt_t n;
    icnt_cfg_t c = cfg2x2();
    c.latency = 0;
    CHECK(icnt_init(&n, &c) == NULL);
    icnt_push(&n, 0, 0, &tag[0], 32);
    icnt_push(&n, 0, 0, &tag[2], 32);
    icnt_push(&n, 1, 0, &tag[1], 32);
    int *order[3];
    for (uint64_t t = 0; t < 3; t++) {
        icnt_cycle(&n, t);
        order[t] = icnt_pop(&n, 0, t);
    }
    CHECK(order[0] == &tag[0] && order[1] == &tag[1] && order[2] == &tag[2]);
    icnt_push(&n, 0, 0, &tag[3], 32);
    icnt_push(&n, 1, 1, &tag[4], 32);
    icnt_cycle(&n, 3);
    CHECK(icnt_pop(&n, 0, 3) == &tag[3]);
    CHECK(icnt_pop(&n, 1, 3) == &tag[4]);
    icnt_free(&n);
}

/* Input queues hold in_flits flits; a packet larger than that never fits. */
TEST(icnt_input_buffer_bound)
{
    icnt_t n;
    icnt_cfg_t c = cfg2x2();
    c.in_flits = 4;
    CHECK(icnt_init(&n, &c) == NULL);
    for (int i = 0; i < 4; i++) {
        CHECK(icnt_can_push(&n, 0, 32));
        icnt_push(&n, 0, 0, &tag[i], 32);
    }
    CHECK(!icnt_can_push(&n, 0, 32));
    CHECK(icnt_can_push(&n, 1, 128));
    CHECK(!icnt_can_push(&n, 1, 160)); /* 5 flits > 4 */
    icnt_free(&n);
}

/* An output buffer of 2 flits that nobody drains takes two packets; the
 * third waits at its input until the receiver pops one. */
TEST(icnt_output_credits)
{
    icnt_t n;
    icnt_cfg_t c = cfg2x2();
    c.latency = 0;
    c.out_flits = 2;
    CHECK(icnt_init(&n, &c) == NULL);
    for (int i = 0; i < 3; i++)
        icnt_push(&n, 0, 0, &tag[i], 32);
    for (uint64_t t = 0; t < 5; t++)
        icnt_cycle(&n, t);
    CHECK_EQ(n.out[0].count, 2);
    CHECK_EQ(n.in[0].count, 1);
    CHECK(icnt_pop(&n, 0, 5) == &tag[0]);
    icnt_cycle(&n, 6);
    CHECK_EQ(n.in[0].count, 0);
    CHECK(icnt_pop(&n, 0, 6) == &tag[1]);
    CHECK(icnt_pop(&n, 0, 6) == &tag[2]);
    CHECK(icnt_pop(&n, 0, 6) == NULL);
    icnt_free(&n);
}

/* An output whose round robin found a packet without credit waits only
 * for what can change that: a new head at an input earlier in the order,
 * or the receiver taking a packet.  Three inputs, one output of 3 flits,
 * latency 0.  t0: A (1 flit, input 0) crosses; last served: input 0.
 * t1, t2: B (3 flits, input 2) finds 1 + 3 > 3 flits: no credit.  Before
 * t3 C (1 flit) arrives at input 1, which comes before input 2 after
 * input 0: C crosses at t3 (2 flits held).  The receiver takes A at t3
 * and C at t4; B needs the 3 flits free, so it starts at t5 and its last
 * flit crosses at t7. */
TEST(icnt_no_credit_waits_for_a_head_or_a_take)
{
    icnt_t n;
    icnt_cfg_t c = { .inputs = 3, .outputs = 1, .flit_bytes = 32,
                     .latency = 0, .in_flits = 8, .out_flits = 3 };
    CHECK(icnt_init(&n, &c) == NULL);
    icnt_push(&n, 0, 0, &tag[0], 32);
    icnt_push(&n, 2, 0, &tag[1], 96);
    for (uint64_t t = 0; t < 3; t++)
        icnt_cycle(&n, t);
    CHECK_EQ(n.out[0].count, 1);
    CHECK_EQ(n.in[2].count, 1);
    icnt_push(&n, 1, 0, &tag[2], 32);
    icnt_cycle(&n, 3);
    CHECK_EQ(n.out[0].count, 2); /* C crossed */
    CHECK_EQ(n.in[1].count, 0);
    CHECK(icnt_pop(&n, 0, 3) == &tag[0]);
    icnt_cycle(&n, 4);
    CHECK(icnt_pop(&n, 0, 4) == &tag[2]);
    for (uint64_t t = 5; t < 7; t++) {
        icnt_cycle(&n, t);
        CHECK(icnt_pop(&n, 0, t) == NULL);
    }
    icnt_cycle(&n, 7);
    CHECK(icnt_pop(&n, 0, 7) == &tag[1]);
    CHECK_EQ(n.stats.flits, 5);
    icnt_free(&n);
}

TEST(icnt_bad_config)
{
    icnt_t n;
    icnt_cfg_t c = cfg2x2();
    c.flit_bytes = 0;
    CHECK(icnt_init(&n, &c) != NULL);
}
