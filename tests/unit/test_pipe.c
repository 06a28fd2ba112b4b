/* test_pipe.c: instruction classes and latencies (pipe.h's table with the
 * GTX480 defaults), initiation intervals and result order. */
#include <string.h>

#include "../harness.h"
#include "core/pipe.h"

static ptx_insn_t insn(ptx_op_t op, ptx_type_t t, ptx_type_t t2)
{
    ptx_insn_t in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)t;
    in.type2 = (uint8_t)t2;
    return in;
}

TEST(pipe_classes_and_latencies)
{
    static const struct {
        ptx_op_t op;
        ptx_type_t t, t2;
        opc_class_t cls;
        unsigned lat, ii;
    } c[] = {
        { PTX_OP_ADD, PTX_T_S32, PTX_T_NONE, OPC_INT, 4, 1 },
        { PTX_OP_MIN, PTX_T_S32, PTX_T_NONE, OPC_INT, 13, 2 },
        { PTX_OP_MUL, PTX_T_U32, PTX_T_NONE, OPC_INT, 4, 2 },
        { PTX_OP_MAD, PTX_T_U32, PTX_T_NONE, OPC_INT, 5, 1 },
        { PTX_OP_REM, PTX_T_U32, PTX_T_NONE, OPC_INT, 145, 8 },
        { PTX_OP_ADD, PTX_T_F32, PTX_T_NONE, OPC_SP, 4, 1 },
        { PTX_OP_FMA, PTX_T_F32, PTX_T_NONE, OPC_SP, 5, 1 },
        { PTX_OP_DIV, PTX_T_F32, PTX_T_NONE, OPC_SP, 39, 4 },
        { PTX_OP_SETP, PTX_T_F32, PTX_T_NONE, OPC_SP, 4, 1 },
        { PTX_OP_FMA, PTX_T_F64, PTX_T_NONE, OPC_DP, 8, 8 },
        { PTX_OP_MAX, PTX_T_F64, PTX_T_NONE, OPC_DP, 19, 16 },
        { PTX_OP_SQRT, PTX_T_F64, PTX_T_NONE, OPC_DP, 330, 130 },
        { PTX_OP_SIN, PTX_T_F32, PTX_T_NONE, OPC_SFU, 20, 8 },
        { PTX_OP_RSQRT, PTX_T_F32, PTX_T_NONE, OPC_SFU, 20, 8 },
        { PTX_OP_CVT, PTX_T_F64, PTX_T_S32, OPC_DP, 8, 8 },
        { PTX_OP_CVT, PTX_T_S32, PTX_T_F32, OPC_SP, 4, 1 },
        { PTX_OP_CVT, PTX_T_U64, PTX_T_U32, OPC_INT, 4, 1 },
        { PTX_OP_MOV, PTX_T_F32, PTX_T_NONE, OPC_INT, 4, 1 },
        { PTX_OP_BRA, PTX_T_NONE, PTX_T_NONE, OPC_INT, 4, 1 },
        { PTX_OP_LD, PTX_T_F32, PTX_T_NONE, OPC_MEM, 0, 0 },
        { PTX_OP_ATOM, PTX_T_U32, PTX_T_NONE, OPC_MEM, 0, 0 },
    };
    pipe_cfg_t cfg = pipe_cfg_default();
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        ptx_insn_t in = insn(c[i].op, c[i].t, c[i].t2);
        pipe_timing_t t = pipe_timing_of(&cfg, &in);
        CHECK_MSG(t.cls == c[i].cls && t.lat.latency == c[i].lat &&
                  t.lat.interval == c[i].ii,
                  "%s.%s: class %d %u/%u, want class %d %u/%u",
                  ptx_op_name(c[i].op), ptx_type_name(c[i].t), (int)t.cls,
                  t.lat.latency, t.lat.interval, (int)c[i].cls, c[i].lat,
                  c[i].ii);
    }
}

/* One SFU pipeline with interval 8: dispatch at 0, refused at 1..7,
 * accepted at 8.  A div (145) dispatched at 0 and an add (4) at 1 on the
 * INT pipeline complete at 5 (add) and 145 (div). */
TEST(pipe_interval_and_completion_order)
{
    pipes_t p;
    pipe_cfg_t cfg = pipe_cfg_default();
    CHECK(pipes_init(&p, &cfg) == NULL);
    CHECK(pipes_can_accept(&p, OPC_SFU, 0));
    pipes_dispatch(&p, OPC_SFU, cfg.sfu, 0, 1);
    for (uint64_t t = 1; t < 8; t++)
        CHECK_MSG(!pipes_can_accept(&p, OPC_SFU, t), "accepted at %llu",
                  (unsigned long long)t);
    CHECK(pipes_can_accept(&p, OPC_SFU, 8));
    pipes_dispatch(&p, OPC_INT, cfg.int_[PIPE_K_DIV], 0, 2);
    CHECK(!pipes_can_accept(&p, OPC_INT, 1)); /* div's interval is 8 */
    CHECK(pipes_can_accept(&p, OPC_INT, 8));
    pipes_dispatch(&p, OPC_INT, cfg.int_[PIPE_K_ADD], 8, 3);
    uint64_t tag;
    CHECK_EQ(pipes_pop_done(&p, 11, &tag), 0);
    CHECK_EQ(pipes_pop_done(&p, 12, &tag), 1); /* add: 8 + 4 */
    CHECK_EQ(tag, 3);
    CHECK_EQ(pipes_pop_done(&p, 20, &tag), 1); /* sfu: 0 + 20 */
    CHECK_EQ(tag, 1);
    CHECK_EQ(pipes_pop_done(&p, 144, &tag), 0);
    CHECK_EQ(pipes_pop_done(&p, 145, &tag), 1);
    CHECK_EQ(tag, 2);
    pipes_free(&p);
}

/* Two INT pipelines take two instructions in one cycle; results due in the
 * same cycle come out in dispatch order; the in-flight bound holds. */
TEST(pipe_units_and_inflight_bound)
{
    pipes_t p;
    pipe_cfg_t cfg = pipe_cfg_default();
    cfg.units[OPC_INT] = 2;
    cfg.max_inflight = 2;
    CHECK(pipes_init(&p, &cfg) == NULL);
    pipes_dispatch(&p, OPC_INT, cfg.int_[PIPE_K_MUL], 0, 10);
    CHECK(pipes_can_accept(&p, OPC_INT, 0));
    pipes_dispatch(&p, OPC_INT, cfg.int_[PIPE_K_MUL], 0, 11);
    CHECK(!pipes_can_accept(&p, OPC_SP, 0)); /* two results in flight */
    uint64_t tag;
    CHECK_EQ(pipes_pop_done(&p, 4, &tag), 1);
    CHECK_EQ(tag, 10);
    CHECK_EQ(pipes_pop_done(&p, 4, &tag), 1);
    CHECK_EQ(tag, 11);
    pipes_free(&p);
    cfg = pipe_cfg_default();
    cfg.fp[PIPE_K_MAD].interval = 0;
    CHECK(pipes_init(&p, &cfg) != NULL);
}

/* pipes_pop_done skips the cycles before the earliest result it knows of:
 * a result dispatched after a fruitless look, and due before the results
 * seen then, must still come out on time.  SFU op (20 cycles) at 0, due
 * at 20; a look at 1 finds nothing; an INT add (4) at 2 is due at 6: at 5
 * nothing, at 6 the add, at 19 nothing, at 20 the SFU op. */
TEST(pipe_result_dispatched_after_a_look_comes_out_on_time)
{
    pipes_t p;
    pipe_cfg_t cfg = pipe_cfg_default();
    CHECK(pipes_init(&p, &cfg) == NULL);
    uint64_t tag = 0;
    pipes_dispatch(&p, OPC_SFU, cfg.sfu, 0, 1);
    CHECK_EQ(pipes_pop_done(&p, 1, &tag), 0);
    pipes_dispatch(&p, OPC_INT, cfg.int_[PIPE_K_ADD], 2, 2);
    CHECK_EQ(pipes_pop_done(&p, 5, &tag), 0);
    CHECK_EQ(pipes_pop_done(&p, 6, &tag), 1);
    CHECK_EQ(tag, 2);
    CHECK_EQ(pipes_pop_done(&p, 19, &tag), 0);
    CHECK_EQ(pipes_pop_done(&p, 20, &tag), 1);
    CHECK_EQ(tag, 1);
    CHECK_EQ(pipes_pop_done(&p, 1000, &tag), 0);
    pipes_free(&p);
}
