/* test_parser.c: positive tests of the PTX parser (cmodel/src/ptx/parser.c):
 * every directive and instruction form it accepts, checked on the decoded
 * IR (ir.h).  Names start with parser_ so that `unit_tests parser_` runs
 * them.  The error paths are in test_parser_errors.c. */
#include <stdint.h>
#include <string.h>

#include "ptx_text.h"
#include "ptx/parser_tables.h"

#define PARSE_OK(src)                                                     \
    simt_error_t err_;                                                    \
    const ptx_module_t *m = ptx_text_parse((src), &err_);                 \
    CHECK_MSG(m != NULL, "parse failed: %s", err_.msg)

/* `in` := instruction i of kernel k */
#define AT(i)                                                             \
    do {                                                                  \
        in = ptx_text_insn(m, "k", (uint32_t)(i));                        \
        CHECK_MSG(in != NULL, "kernel k has no instruction %d", (int)(i)); \
    } while (0)

#define CHECK_OP(in, OP, TYPE)                                            \
    do {                                                                  \
        CHECK_MSG((in)->op == PTX_OP_##OP, "line %u: op %s, expected %s", \
                  (in)->line, ptx_op_name((ptx_op_t)(in)->op), #OP);      \
        CHECK_MSG((in)->type == PTX_T_##TYPE, "line %u: type %s, expected " \
                  "%s", (in)->line, ptx_type_name((ptx_type_t)(in)->type), \
                  #TYPE);                                                 \
    } while (0)

#define CHECK_REG(o, r)                                                   \
    do {                                                                  \
        CHECK_EQ((o).kind, PTX_OPND_REG);                                 \
        CHECK_EQ((o).reg, (r));                                           \
    } while (0)

#define CHECK_IMM(o, v)                                                   \
    do {                                                                  \
        CHECK_EQ((o).kind, PTX_OPND_IMM);                                 \
        CHECK_EQ((uint64_t)(o).imm, (uint64_t)(v));                       \
    } while (0)

#define CHECK_FIMM(o, v)                                                  \
    do {                                                                  \
        CHECK_IMM(o, v);                                                  \
        CHECK_EQ((o).is_float, 1);                                        \
    } while (0)

#define CHECK_SREG(o, s)                                                  \
    do {                                                                  \
        CHECK_EQ((o).kind, PTX_OPND_SREG);                                \
        CHECK_EQ((o).reg, (s));                                           \
    } while (0)

/* [reg + off] */
#define CHECK_ADDR_R(o, r, off)                                           \
    do {                                                                  \
        CHECK_EQ((o).kind, PTX_OPND_ADDR);                                \
        CHECK_EQ((o).has_reg, 1);                                         \
        CHECK_EQ((o).reg, (r));                                           \
        CHECK_EQ((o).sym, PTX_NO_SYM);                                    \
        CHECK_EQ((uint64_t)(o).imm, (uint64_t)(int64_t)(off));            \
    } while (0)

/* [symbol + off] */
#define CHECK_ADDR_S(o, nm_, off)                                         \
    do {                                                                  \
        CHECK_EQ((o).kind, PTX_OPND_ADDR);                                \
        CHECK_EQ((o).has_reg, 0);                                         \
        CHECK((o).sym < m->nsyms);                                        \
        CHECK_MSG(strcmp(m->syms[(o).sym].name, (nm_)) == 0,              \
                  "address symbol '%s', expected '%s'",                   \
                  m->syms[(o).sym].name, (nm_));                          \
        CHECK_EQ((uint64_t)(o).imm, (uint64_t)(int64_t)(off));            \
    } while (0)

#define CHECK_VEC(o, n, a, b, c, d)                                       \
    do {                                                                  \
        CHECK_EQ((o).kind, PTX_OPND_VEC);                                 \
        CHECK_EQ((o).nvec, (n));                                          \
        const unsigned ev_[4] = { (a), (b), (c), (d) };                   \
        for (unsigned k_ = 0; k_ < (unsigned)(n); k_++)                   \
            CHECK_EQ((o).vec[k_], ev_[k_]);                               \
    } while (0)

#define SINK PTX_REG_SINK

static uint32_t f32bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t f64bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* ======================= instruction groups =======================
 * Each group is a kernel body; its test checks every instruction, and
 * parser_every_opcode_decodes parses all of them in one kernel and checks
 * that every opcode in PTX_OPCODES appears. */

#define G_MOV                                                             \
    "mov.u32 %r1, %r2;\n"               /* 0 */                           \
    "mov.u32 %r1, 42;\n"                /* 1 */                           \
    "mov.b64 %rd1, {%r1, %r2};\n"       /* 2 pack */                      \
    "mov.b64 {%r3, %r4}, %rd1;\n"       /* 3 unpack */                    \
    "mov.u64 %rd2, k_p0;\n"             /* 4 address of a symbol */       \
    "mov.pred %p1, 1;\n"                /* 5 */                           \
    "mov.f32 %f1, %f2;\n"               /* 6 */                           \
    "mov.b32 %r5, {%h1, %h2};\n"        /* 7 pack 2 x 16 */               \
    "mov.u64 %rd3, k_p0+8;\n"           /* 8 symbol + offset */           \
    "mov.b64 {_, %r6}, %rd2;\n"         /* 9 unpack into a sink */        \
    "mov.u16 %h3, 7;\n"                 /* 10 */                          \
    "mov.f64 %fd1, %fd2;\n"             /* 11 */

TEST(parser_mov_forms)
{
    PARSE_OK(K(G_MOV));
    const ptx_insn_t *in;
    int kp0 = ptx_text_sym(m, "k_p0");
    CHECK(kp0 >= 0);
    AT(0); CHECK_OP(in, MOV, U32); CHECK_EQ(in->nops, 2);
    CHECK_REG(in->ops[0], RR(1)); CHECK_REG(in->ops[1], RR(2));
    CHECK_EQ(in->vec, 1); CHECK_EQ(in->guard, SINK);
    AT(1); CHECK_OP(in, MOV, U32); CHECK_IMM(in->ops[1], 42);
    CHECK_EQ(in->ops[1].is_float, 0);
    AT(2); CHECK_OP(in, MOV, B64); CHECK_REG(in->ops[0], RRD(1));
    CHECK_VEC(in->ops[1], 2, RR(1), RR(2), 0, 0);
    AT(3); CHECK_OP(in, MOV, B64); CHECK_VEC(in->ops[0], 2, RR(3), RR(4), 0, 0);
    CHECK_REG(in->ops[1], RRD(1));
    AT(4); CHECK_OP(in, MOV, U64); CHECK_EQ(in->ops[1].kind, PTX_OPND_SYM);
    CHECK_EQ(in->ops[1].sym, (uint32_t)kp0); CHECK_EQ(in->ops[1].imm, 0);
    AT(5); CHECK_OP(in, MOV, PRED); CHECK_REG(in->ops[0], RP(1));
    CHECK_IMM(in->ops[1], 1);
    AT(6); CHECK_OP(in, MOV, F32); CHECK_REG(in->ops[0], RF(1));
    CHECK_REG(in->ops[1], RF(2));
    AT(7); CHECK_OP(in, MOV, B32); CHECK_VEC(in->ops[1], 2, RH(1), RH(2), 0, 0);
    AT(8); CHECK_OP(in, MOV, U64); CHECK_EQ(in->ops[1].kind, PTX_OPND_SYM);
    CHECK_EQ(in->ops[1].sym, (uint32_t)kp0); CHECK_EQ(in->ops[1].imm, 8);
    AT(9); CHECK_VEC(in->ops[0], 2, SINK, RR(6), 0, 0);
    AT(10); CHECK_OP(in, MOV, U16); CHECK_REG(in->ops[0], RH(3));
    CHECK_IMM(in->ops[1], 7);
    AT(11); CHECK_OP(in, MOV, F64); CHECK_REG(in->ops[1], RFD(2));
    AT(12); CHECK_OP(in, RET, NONE);
}

TEST(parser_special_registers)
{
    static const struct { const char *name; unsigned sreg; } sr[] = {
        { "%tid.x", PTX_SREG_TID_X },       { "%tid.y", PTX_SREG_TID_Y },
        { "%tid.z", PTX_SREG_TID_Z },       { "%ntid.x", PTX_SREG_NTID_X },
        { "%ntid.y", PTX_SREG_NTID_Y },     { "%ntid.z", PTX_SREG_NTID_Z },
        { "%ctaid.x", PTX_SREG_CTAID_X },   { "%ctaid.y", PTX_SREG_CTAID_Y },
        { "%ctaid.z", PTX_SREG_CTAID_Z },   { "%nctaid.x", PTX_SREG_NCTAID_X },
        { "%nctaid.y", PTX_SREG_NCTAID_Y }, { "%nctaid.z", PTX_SREG_NCTAID_Z },
        { "%laneid", PTX_SREG_LANEID },     { "%warpid", PTX_SREG_WARPID },
        { "%nwarpid", PTX_SREG_NWARPID },   { "%smid", PTX_SREG_SMID },
        { "%nsmid", PTX_SREG_NSMID },       { "%gridid", PTX_SREG_GRIDID },
        { "%clock", PTX_SREG_CLOCK },       { "%clock_hi", PTX_SREG_CLOCK_HI },
        { "%clock64", PTX_SREG_CLOCK64 },
        { "%globaltimer", PTX_SREG_GLOBALTIMER },
        { "%lanemask_eq", PTX_SREG_LANEMASK_EQ },
        { "%lanemask_le", PTX_SREG_LANEMASK_LE },
        { "%lanemask_lt", PTX_SREG_LANEMASK_LT },
        { "%lanemask_ge", PTX_SREG_LANEMASK_GE },
        { "%lanemask_gt", PTX_SREG_LANEMASK_GT },
        { "%dynamic_smem_size", PTX_SREG_DYN_SMEM_SIZE },
        { "%total_smem_size", PTX_SREG_TOTAL_SMEM_SIZE },
        { "%clusterid.x", PTX_SREG_CLUSTERID_X },
        { "%clusterid.y", PTX_SREG_CLUSTERID_Y },
        { "%clusterid.z", PTX_SREG_CLUSTERID_Z },
        { "%nclusterid.x", PTX_SREG_NCLUSTERID_X },
        { "%nclusterid.y", PTX_SREG_NCLUSTERID_Y },
        { "%nclusterid.z", PTX_SREG_NCLUSTERID_Z },
        { "%cluster_ctaid.x", PTX_SREG_CLUSTER_CTAID_X },
        { "%cluster_ctaid.y", PTX_SREG_CLUSTER_CTAID_Y },
        { "%cluster_ctaid.z", PTX_SREG_CLUSTER_CTAID_Z },
        { "%cluster_nctaid.x", PTX_SREG_CLUSTER_NCTAID_X },
        { "%cluster_nctaid.y", PTX_SREG_CLUSTER_NCTAID_Y },
        { "%cluster_nctaid.z", PTX_SREG_CLUSTER_NCTAID_Z },
        { "%cluster_ctarank", PTX_SREG_CLUSTER_CTARANK },
        { "%cluster_nctarank", PTX_SREG_CLUSTER_NCTARANK },
        { "%is_explicit_cluster", PTX_SREG_IS_EXPLICIT_CLUSTER },
    };
    const unsigned n = sizeof sr / sizeof *sr;
    CHECK_EQ(n + 32, PTX_SREG_COUNT); /* and %envreg0..31: parser_envreg */
    char text[8192];
    size_t len = (size_t)snprintf(text, sizeof text, "%s", PTX_HDR K_OPEN);
    for (unsigned i = 0; i < n; i++) {
        int is64 = sr[i].sreg == PTX_SREG_CLOCK64 ||
                   sr[i].sreg == PTX_SREG_GLOBALTIMER;
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "mov.%s %s, %s;\n", is64 ? "u64" : "u32",
                                is64 ? "%rd1" : "%r1", sr[i].name);
    }
    snprintf(text + len, sizeof text - len, "ret;\n}\n");
    PARSE_OK(text);
    const ptx_insn_t *in;
    for (unsigned i = 0; i < n; i++) {
        AT(i);
        CHECK_EQ(in->op, PTX_OP_MOV);
        CHECK_MSG(in->ops[1].kind == PTX_OPND_SREG && in->ops[1].reg == sr[i].sreg,
                  "%s: kind %u reg %u", sr[i].name, in->ops[1].kind,
                  in->ops[1].reg);
    }
}

/* special registers as arithmetic sources */
TEST(parser_special_register_sources)
{
    PARSE_OK(K("add.u32 %r1, %tid.x, %ntid.y;\n"
               "setp.eq.u32 %p1, %laneid, 0;\n"
               "mov.u64 %rd1, %clock64;\n"));
    const ptx_insn_t *in;
    AT(0); CHECK_SREG(in->ops[1], PTX_SREG_TID_X);
    CHECK_SREG(in->ops[2], PTX_SREG_NTID_Y);
    AT(1); CHECK_SREG(in->ops[1], PTX_SREG_LANEID); CHECK_IMM(in->ops[2], 0);
    AT(2); CHECK_SREG(in->ops[1], PTX_SREG_CLOCK64);
}

#define G_LDST                                                            \
    "ld.param.u64 %rd1, [k_p0];\n"      /* 0 */                           \
    "ld.global.u32 %r1, [%rd1];\n"      /* 1 */                           \
    "ld.shared.u32 %r2, [%r3+4];\n"     /* 2 */                           \
    "ld.local.u8 %r4, [%rd2+-4];\n"     /* 3 */                           \
    "ld.const.f32 %f1, [%rd3];\n"       /* 4 */                           \
    "ld.f64 %fd1, [%rd4];\n"            /* 5 generic */                   \
    "st.global.u32 [%rd1+16], %r1;\n"   /* 6 */                           \
    "st.shared.b32 [%r3], 7;\n"         /* 7 */                           \
    "st.local.f64 [%rd2], %fd1;\n"      /* 8 */                           \
    "st.u32 [%rd5], %r5;\n"             /* 9 generic */                   \
    "ld.volatile.global.u32 %r6, [%rd6];\n" /* 10 */                      \
    "ld.global.u32 %r7, [128];\n"       /* 11 */                          \
    "ld.param.u32 %r8, [k_p1+0];\n"     /* 12 */                          \
    "ld.global.s8 %h1, [%rd7];\n"       /* 13 */                          \
    "st.global.f32 [%rd8], 0f3F800000;\n" /* 14 */                        \
    "ld.shared::cta.u32 %r9, [%r10];\n" /* 15 */                          \
    "st.volatile.shared.u16 [%r11], %h2;\n" /* 16 */

TEST(parser_ld_st_spaces)
{
    PARSE_OK(K(G_LDST));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, LD, U64); CHECK_EQ(in->space, PTX_SPACE_PARAM);
    CHECK_REG(in->ops[0], RRD(1)); CHECK_ADDR_S(in->ops[1], "k_p0", 0);
    AT(1); CHECK_OP(in, LD, U32); CHECK_EQ(in->space, PTX_SPACE_GLOBAL);
    CHECK_ADDR_R(in->ops[1], RRD(1), 0); CHECK_EQ(in->flags, 0);
    AT(2); CHECK_OP(in, LD, U32); CHECK_EQ(in->space, PTX_SPACE_SHARED);
    CHECK_ADDR_R(in->ops[1], RR(3), 4);
    AT(3); CHECK_OP(in, LD, U8); CHECK_EQ(in->space, PTX_SPACE_LOCAL);
    CHECK_ADDR_R(in->ops[1], RRD(2), -4);
    AT(4); CHECK_OP(in, LD, F32); CHECK_EQ(in->space, PTX_SPACE_CONST);
    AT(5); CHECK_OP(in, LD, F64); CHECK_EQ(in->space, PTX_SPACE_NONE);
    CHECK_REG(in->ops[0], RFD(1));
    AT(6); CHECK_OP(in, ST, U32); CHECK_EQ(in->space, PTX_SPACE_GLOBAL);
    CHECK_ADDR_R(in->ops[0], RRD(1), 16); CHECK_REG(in->ops[1], RR(1));
    AT(7); CHECK_OP(in, ST, B32); CHECK_EQ(in->space, PTX_SPACE_SHARED);
    CHECK_IMM(in->ops[1], 7);
    AT(8); CHECK_OP(in, ST, F64); CHECK_EQ(in->space, PTX_SPACE_LOCAL);
    AT(9); CHECK_OP(in, ST, U32); CHECK_EQ(in->space, PTX_SPACE_NONE);
    AT(10); CHECK_OP(in, LD, U32); CHECK_EQ(in->space, PTX_SPACE_GLOBAL);
    CHECK_EQ(in->flags, PTX_F_VOLATILE);
    AT(11); CHECK_EQ(in->ops[1].kind, PTX_OPND_ADDR);
    CHECK_EQ(in->ops[1].has_reg, 0); CHECK_EQ(in->ops[1].sym, PTX_NO_SYM);
    CHECK_EQ(in->ops[1].imm, 128);
    AT(12); CHECK_OP(in, LD, U32); CHECK_ADDR_S(in->ops[1], "k_p1", 0);
    AT(13); CHECK_OP(in, LD, S8); CHECK_REG(in->ops[0], RH(1));
    AT(14); CHECK_OP(in, ST, F32); CHECK_FIMM(in->ops[1], 0x3F800000);
    AT(15); CHECK_OP(in, LD, U32); CHECK_EQ(in->space, PTX_SPACE_SHARED);
    AT(16); CHECK_OP(in, ST, U16); CHECK_EQ(in->flags, PTX_F_VOLATILE);
    CHECK_EQ(in->space, PTX_SPACE_SHARED);
    for (uint32_t i = 0; i <= 16; i++) {
        AT(i);
        CHECK_EQ(in->vec, 1);
        CHECK_EQ(in->nops, 2);
    }
}

#define G_VEC                                                             \
    "ld.global.v2.u32 {%r1, %r2}, [%rd1];\n"              /* 0 */         \
    "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n" /* 1 */         \
    "ld.global.v4.u32 {%r1, _, %r3, _}, [%rd2];\n"        /* 2 */         \
    "st.global.v2.f64 [%rd3], {%fd1, %fd2};\n"            /* 3 */         \
    "st.shared.v4.b32 [%r4], {%r5, %r6, %r7, %r8};\n"     /* 4 */         \
    "ldu.global.v2.f32 {%f5, %f6}, [%rd4];\n"             /* 5 */         \
    "ld.param.v2.u32 {%r9, %r10}, [k_p0];\n"              /* 6 */         \
    "st.local.v4.u16 [%rd5+8], {%h1, %h2, %h3, %h4};\n"   /* 7 */

TEST(parser_vector_operands_and_sinks)
{
    PARSE_OK(K(G_VEC));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, LD, U32); CHECK_EQ(in->vec, 2);
    CHECK_VEC(in->ops[0], 2, RR(1), RR(2), 0, 0);
    CHECK_ADDR_R(in->ops[1], RRD(1), 0);
    AT(1); CHECK_OP(in, LD, F32); CHECK_EQ(in->vec, 4);
    CHECK_VEC(in->ops[0], 4, RF(1), RF(2), RF(3), RF(4));
    CHECK_ADDR_R(in->ops[1], RRD(1), 16);
    AT(2); CHECK_EQ(in->vec, 4); CHECK_VEC(in->ops[0], 4, RR(1), SINK, RR(3), SINK);
    AT(3); CHECK_OP(in, ST, F64); CHECK_EQ(in->vec, 2);
    CHECK_ADDR_R(in->ops[0], RRD(3), 0);
    CHECK_VEC(in->ops[1], 2, RFD(1), RFD(2), 0, 0);
    AT(4); CHECK_OP(in, ST, B32); CHECK_EQ(in->vec, 4);
    CHECK_EQ(in->space, PTX_SPACE_SHARED);
    CHECK_VEC(in->ops[1], 4, RR(5), RR(6), RR(7), RR(8));
    AT(5); CHECK_OP(in, LDU, F32); CHECK_EQ(in->vec, 2);
    CHECK_EQ(in->space, PTX_SPACE_GLOBAL);
    CHECK_VEC(in->ops[0], 2, RF(5), RF(6), 0, 0);
    AT(6); CHECK_EQ(in->vec, 2); CHECK_ADDR_S(in->ops[1], "k_p0", 0);
    AT(7); CHECK_OP(in, ST, U16); CHECK_EQ(in->vec, 4);
    CHECK_EQ(in->space, PTX_SPACE_LOCAL); CHECK_ADDR_R(in->ops[0], RRD(5), 8);
}

#define G_CACHE                                                           \
    "ld.global.nc.f32 %f1, [%rd1];\n"                 /* 0 */             \
    "ld.global.ca.u32 %r1, [%rd1];\n"                 /* 1 */             \
    "ld.global.cg.u32 %r2, [%rd1];\n"                 /* 2 */             \
    "ld.global.cs.u32 %r3, [%rd1];\n"                 /* 3 */             \
    "ld.global.nc.L1::no_allocate.f32 %f2, [%rd2];\n" /* 4 */             \
    "st.global.wb.u32 [%rd1], %r1;\n"                 /* 5 */             \
    "st.global.cs.u32 [%rd1], %r1;\n"                 /* 6 */             \
    "ld.global.lu.u32 %r4, [%rd1];\n"                 /* 7 */             \
    "ld.global.cv.u32 %r5, [%rd1];\n"                 /* 8 */             \
    "ld.global.L1::evict_last.u32 %r6, [%rd1];\n"     /* 9 */             \
    "st.global.wt.u32 [%rd1], %r1;\n"                 /* 10 */            \
    "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd3];\n" /* 11 */

TEST(parser_cache_qualifiers_ignored)
{
    PARSE_OK(K(G_CACHE));
    const ptx_insn_t *in;
    for (uint32_t i = 0; i <= 11; i++) {
        AT(i);
        CHECK(in->op == PTX_OP_LD || in->op == PTX_OP_ST);
        CHECK_EQ(in->space, PTX_SPACE_GLOBAL);
        CHECK_EQ(in->flags, 0);
        CHECK_EQ(in->sub, PTX_SUB_NONE);
        CHECK_EQ(in->rnd, PTX_RND_NONE);
    }
    AT(0); CHECK_OP(in, LD, F32);
    AT(4); CHECK_OP(in, LD, F32); CHECK_REG(in->ops[0], RF(2));
    CHECK_ADDR_R(in->ops[1], RRD(2), 0);
    AT(5); CHECK_OP(in, ST, U32);
    AT(11); CHECK_EQ(in->vec, 4);
}

/* .L2::64B/128B/256B prefetch-size hints (nvcc emits them for sm_80+ on
 * ld.global.nc); the modifier table lists them as ignored. */
TEST(parser_cache_qualifier_l2_prefetch_size)
{
    PARSE_OK(K("ld.global.nc.L2::128B.f32 %f1, [%rd1];\n"
               "ld.global.L2::64B.u32 %r1, [%rd1];\n"
               "ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%r1, %r2, %r3, %r4}, [%rd2];\n"));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, LD, F32); CHECK_EQ(in->space, PTX_SPACE_GLOBAL);
    AT(1); CHECK_OP(in, LD, U32);
    AT(2); CHECK_OP(in, LD, U32); CHECK_EQ(in->vec, 4);
}

/* Memory-order and scope qualifiers: ir.h documents PTX_F_RELAXED_SCOPE
 * as "any memory-order/scope qualifier". */
TEST(parser_memory_order_qualifiers)
{
    PARSE_OK(K("ld.relaxed.gpu.global.u32 %r1, [%rd1];\n"
               "st.release.sys.global.u32 [%rd1], %r1;\n"
               "atom.acq_rel.gpu.global.add.u32 %r2, [%rd1], 1;\n"
               "ld.acquire.cta.shared.u32 %r3, [%r4];\n"));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, LD, U32); CHECK_EQ(in->space, PTX_SPACE_GLOBAL);
    CHECK_MSG(in->flags & PTX_F_RELAXED_SCOPE, "ld.relaxed.gpu: flags 0x%x",
              in->flags);
    AT(1); CHECK_OP(in, ST, U32);
    CHECK_MSG(in->flags & PTX_F_RELAXED_SCOPE, "st.release.sys: flags 0x%x",
              in->flags);
    AT(2); CHECK_OP(in, ATOM, U32); CHECK_EQ(in->sub, PTX_SUB_ADD);
    CHECK_MSG(in->flags & PTX_F_RELAXED_SCOPE, "atom.acq_rel.gpu: flags 0x%x",
              in->flags);
    AT(3); CHECK_EQ(in->space, PTX_SPACE_SHARED);
    CHECK_MSG(in->flags & PTX_F_RELAXED_SCOPE, "ld.acquire.cta: flags 0x%x",
              in->flags);
}

#define G_CVTA                                                            \
    "cvta.to.global.u64 %rd1, %rd2;\n"  /* 0 */                           \
    "cvta.to.shared.u64 %rd3, %rd4;\n"  /* 1 */                           \
    "cvta.shared.u64 %rd5, %rd6;\n"     /* 2 */                           \
    "cvta.local.u64 %rd7, %rd8;\n"      /* 3 */                           \
    "cvta.global.u64 %rd9, %rd10;\n"    /* 4 */                           \
    "cvta.to.local.u32 %r1, %r2;\n"     /* 5 */                           \
    "cvta.const.u64 %rd11, %rd12;\n"    /* 6 */

TEST(parser_cvta)
{
    PARSE_OK(K(G_CVTA));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, CVTA, U64); CHECK_EQ(in->space, PTX_SPACE_GLOBAL);
    CHECK_EQ(in->flags, PTX_F_TO);
    CHECK_REG(in->ops[0], RRD(1)); CHECK_REG(in->ops[1], RRD(2));
    AT(1); CHECK_EQ(in->space, PTX_SPACE_SHARED); CHECK_EQ(in->flags, PTX_F_TO);
    AT(2); CHECK_EQ(in->space, PTX_SPACE_SHARED); CHECK_EQ(in->flags, 0);
    AT(3); CHECK_EQ(in->space, PTX_SPACE_LOCAL); CHECK_EQ(in->flags, 0);
    AT(4); CHECK_EQ(in->space, PTX_SPACE_GLOBAL); CHECK_EQ(in->flags, 0);
    AT(5); CHECK_OP(in, CVTA, U32); CHECK_EQ(in->space, PTX_SPACE_LOCAL);
    CHECK_EQ(in->flags, PTX_F_TO);
    AT(6); CHECK_EQ(in->space, PTX_SPACE_CONST);
}

#define G_CVT                                                             \
    "cvt.rn.f32.s32 %f1, %r1;\n"        /* 0 */                           \
    "cvt.rz.f32.u32 %f1, %r1;\n"        /* 1 */                           \
    "cvt.rm.f64.s64 %fd1, %rd1;\n"      /* 2 */                           \
    "cvt.rp.f32.f64 %f2, %fd1;\n"       /* 3 narrowing with rounding */   \
    "cvt.rni.s32.f32 %r2, %f3;\n"       /* 4 */                           \
    "cvt.rzi.s32.f64 %r3, %fd2;\n"      /* 5 */                           \
    "cvt.rmi.u32.f32 %r4, %f4;\n"       /* 6 */                           \
    "cvt.rpi.s64.f32 %rd2, %f5;\n"      /* 7 */                           \
    "cvt.rni.f32.f32 %f6, %f7;\n"       /* 8 */                           \
    "cvt.sat.f32.f32 %f8, %f9;\n"       /* 9 */                           \
    "cvt.ftz.f64.f32 %fd3, %f10;\n"     /* 10 widening, no rounding */    \
    "cvt.u32.u64 %r5, %rd3;\n"          /* 11 */                          \
    "cvt.s64.s32 %rd4, %r6;\n"          /* 12 */                          \
    "cvt.u16.u32 %h1, %r7;\n"           /* 13 */                          \
    "cvt.rn.f16.f32 %h2, %f11;\n"       /* 14 */                          \
    "cvt.f32.f16 %f12, %h3;\n"          /* 15 */                          \
    "cvt.rzi.ftz.sat.s32.f32 %r8, %f13;\n" /* 16 */                       \
    "cvt.rn.ftz.sat.f32.f64 %f14, %fd4;\n" /* 17 */

TEST(parser_cvt_rounding_and_types)
{
    PARSE_OK(K(G_CVT));
    const ptx_insn_t *in;
    static const struct { uint8_t t, t2, rnd; uint16_t flags; } e[] = {
        { PTX_T_F32, PTX_T_S32, PTX_RND_RN, 0 },
        { PTX_T_F32, PTX_T_U32, PTX_RND_RZ, 0 },
        { PTX_T_F64, PTX_T_S64, PTX_RND_RM, 0 },
        { PTX_T_F32, PTX_T_F64, PTX_RND_RP, 0 },
        { PTX_T_S32, PTX_T_F32, PTX_RND_RNI, 0 },
        { PTX_T_S32, PTX_T_F64, PTX_RND_RZI, 0 },
        { PTX_T_U32, PTX_T_F32, PTX_RND_RMI, 0 },
        { PTX_T_S64, PTX_T_F32, PTX_RND_RPI, 0 },
        { PTX_T_F32, PTX_T_F32, PTX_RND_RNI, 0 },
        { PTX_T_F32, PTX_T_F32, PTX_RND_NONE, PTX_F_SAT },
        { PTX_T_F64, PTX_T_F32, PTX_RND_NONE, PTX_F_FTZ },
        { PTX_T_U32, PTX_T_U64, PTX_RND_NONE, 0 },
        { PTX_T_S64, PTX_T_S32, PTX_RND_NONE, 0 },
        { PTX_T_U16, PTX_T_U32, PTX_RND_NONE, 0 },
        { PTX_T_F16, PTX_T_F32, PTX_RND_RN, 0 },
        { PTX_T_F32, PTX_T_F16, PTX_RND_NONE, 0 },
        { PTX_T_S32, PTX_T_F32, PTX_RND_RZI, PTX_F_FTZ | PTX_F_SAT },
        { PTX_T_F32, PTX_T_F64, PTX_RND_RN, PTX_F_FTZ | PTX_F_SAT },
    };
    for (uint32_t i = 0; i < sizeof e / sizeof *e; i++) {
        AT(i);
        CHECK_EQ(in->op, PTX_OP_CVT);
        CHECK_MSG(in->type == e[i].t && in->type2 == e[i].t2 &&
                  in->rnd == e[i].rnd && in->flags == e[i].flags,
                  "cvt #%u (line %u): type %u type2 %u rnd %u flags 0x%x", i,
                  in->line, in->type, in->type2, in->rnd, in->flags);
        CHECK_EQ(in->nops, 2);
    }
    AT(3); CHECK_REG(in->ops[0], RF(2)); CHECK_REG(in->ops[1], RFD(1));
}

#define G_INT                                                             \
    "add.s32 %r1, %r2, %r3;\n"          /* 0 */                           \
    "add.cc.u32 %r1, %r2, %r3;\n"       /* 1 */                           \
    "addc.cc.u32 %r4, %r5, %r6;\n"      /* 2 */                           \
    "addc.u32 %r7, %r8, 0;\n"           /* 3 */                           \
    "sub.s64 %rd1, %rd2, %rd3;\n"       /* 4 */                           \
    "sub.cc.u32 %r1, %r2, %r3;\n"       /* 5 */                           \
    "subc.u32 %r4, %r5, %r6;\n"         /* 6 */                           \
    "mul.lo.s32 %r1, %r2, 3;\n"         /* 7 */                           \
    "mul.hi.u32 %r1, %r2, %r3;\n"       /* 8 */                           \
    "mul.wide.s32 %rd1, %r2, 4;\n"      /* 9 */                           \
    "mad.lo.s32 %r1, %r2, %r3, %r4;\n"  /* 10 */                          \
    "mad.hi.u32 %r1, %r2, %r3, %r4;\n"  /* 11 */                          \
    "mad.wide.u32 %rd1, %r1, %r2, %rd2;\n" /* 12 */                       \
    "mad.lo.cc.u32 %r1, %r2, %r3, %r4;\n" /* 13 */                        \
    "madc.hi.u32 %r1, %r2, %r3, %r4;\n" /* 14 */                          \
    "mul24.lo.s32 %r1, %r2, %r3;\n"     /* 15 */                          \
    "mad24.lo.u32 %r1, %r2, %r3, %r4;\n" /* 16 */                         \
    "div.s32 %r1, %r2, %r3;\n"          /* 17 */                          \
    "div.u64 %rd1, %rd2, %rd3;\n"       /* 18 */                          \
    "rem.s32 %r1, %r2, 7;\n"            /* 19 */                          \
    "rem.u32 %r1, %r2, %r3;\n"          /* 20 */                          \
    "abs.s32 %r1, %r2;\n"               /* 21 */                          \
    "neg.s32 %r1, %r2;\n"               /* 22 */                          \
    "min.u32 %r1, %r2, %r3;\n"          /* 23 */                          \
    "max.s32 %r1, %r2, -5;\n"           /* 24 */                          \
    "sad.u32 %r1, %r2, %r3, %r4;\n"     /* 25 */                          \
    "add.s16 %h1, %h2, %h3;\n"          /* 26 */                          \
    "add.sat.s32 %r1, %r2, %r3;\n"      /* 27 */                          \
    "mul.wide.u16 %r1, %h1, %h2;\n"     /* 28 */                          \
    "mul24.hi.u32 %r1, %r2, %r3;\n"     /* 29 */                          \
    "sub.u64 %rd4, %rd5, 1;\n"          /* 30 */

TEST(parser_integer_arithmetic)
{
    PARSE_OK(K(G_INT));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, ADD, S32); CHECK_EQ(in->nops, 3); CHECK_EQ(in->flags, 0);
    CHECK_REG(in->ops[0], RR(1)); CHECK_REG(in->ops[1], RR(2));
    CHECK_REG(in->ops[2], RR(3));
    AT(1); CHECK_OP(in, ADD, U32); CHECK_EQ(in->flags, PTX_F_CC);
    AT(2); CHECK_OP(in, ADDC, U32); CHECK_EQ(in->flags, PTX_F_CC);
    AT(3); CHECK_OP(in, ADDC, U32); CHECK_EQ(in->flags, 0); CHECK_IMM(in->ops[2], 0);
    AT(4); CHECK_OP(in, SUB, S64); CHECK_REG(in->ops[0], RRD(1));
    AT(5); CHECK_OP(in, SUB, U32); CHECK_EQ(in->flags, PTX_F_CC);
    AT(6); CHECK_OP(in, SUBC, U32);
    AT(7); CHECK_OP(in, MUL, S32); CHECK_EQ(in->sub, PTX_SUB_LO); CHECK_IMM(in->ops[2], 3);
    AT(8); CHECK_OP(in, MUL, U32); CHECK_EQ(in->sub, PTX_SUB_HI);
    AT(9); CHECK_OP(in, MUL, S32); CHECK_EQ(in->sub, PTX_SUB_WIDE);
    CHECK_REG(in->ops[0], RRD(1)); CHECK_IMM(in->ops[2], 4);
    AT(10); CHECK_OP(in, MAD, S32); CHECK_EQ(in->sub, PTX_SUB_LO); CHECK_EQ(in->nops, 4);
    CHECK_REG(in->ops[3], RR(4));
    AT(11); CHECK_OP(in, MAD, U32); CHECK_EQ(in->sub, PTX_SUB_HI);
    AT(12); CHECK_OP(in, MAD, U32); CHECK_EQ(in->sub, PTX_SUB_WIDE);
    CHECK_REG(in->ops[3], RRD(2));
    AT(13); CHECK_OP(in, MAD, U32); CHECK_EQ(in->sub, PTX_SUB_LO);
    CHECK_EQ(in->flags, PTX_F_CC);
    AT(14); CHECK_OP(in, MADC, U32); CHECK_EQ(in->sub, PTX_SUB_HI);
    AT(15); CHECK_OP(in, MUL24, S32); CHECK_EQ(in->sub, PTX_SUB_LO);
    AT(16); CHECK_OP(in, MAD24, U32); CHECK_EQ(in->sub, PTX_SUB_LO);
    AT(17); CHECK_OP(in, DIV, S32);
    AT(18); CHECK_OP(in, DIV, U64);
    AT(19); CHECK_OP(in, REM, S32); CHECK_IMM(in->ops[2], 7);
    AT(20); CHECK_OP(in, REM, U32);
    AT(21); CHECK_OP(in, ABS, S32); CHECK_EQ(in->nops, 2);
    AT(22); CHECK_OP(in, NEG, S32); CHECK_EQ(in->nops, 2);
    AT(23); CHECK_OP(in, MIN, U32);
    AT(24); CHECK_OP(in, MAX, S32); CHECK_IMM(in->ops[2], -5);
    AT(25); CHECK_OP(in, SAD, U32); CHECK_EQ(in->nops, 4);
    AT(26); CHECK_OP(in, ADD, S16); CHECK_REG(in->ops[0], RH(1));
    AT(27); CHECK_OP(in, ADD, S32); CHECK_EQ(in->flags, PTX_F_SAT);
    AT(28); CHECK_OP(in, MUL, U16); CHECK_EQ(in->sub, PTX_SUB_WIDE);
    CHECK_REG(in->ops[0], RR(1));
    AT(29); CHECK_OP(in, MUL24, U32); CHECK_EQ(in->sub, PTX_SUB_HI);
    AT(30); CHECK_OP(in, SUB, U64); CHECK_IMM(in->ops[2], 1);
}

#define G_FLT                                                             \
    "add.f32 %f1, %f2, %f3;\n"          /* 0 */                           \
    "add.rn.f32 %f1, %f2, %f3;\n"       /* 1 */                           \
    "sub.rz.ftz.f32 %f1, %f2, %f3;\n"   /* 2 */                           \
    "mul.rm.f32 %f1, %f2, %f3;\n"       /* 3 */                           \
    "mul.rp.sat.f32 %f1, %f2, %f3;\n"   /* 4 */                           \
    "add.rn.f64 %fd1, %fd2, %fd3;\n"    /* 5 */                           \
    "fma.rn.f32 %f1, %f2, %f3, %f4;\n"  /* 6 */                           \
    "fma.rn.ftz.sat.f32 %f1, %f2, %f3, %f4;\n" /* 7 */                    \
    "fma.rn.f64 %fd1, %fd2, %fd3, %fd4;\n" /* 8 */                        \
    "mad.rn.f32 %f1, %f2, %f3, %f4;\n"  /* 9 */                           \
    "div.rn.f32 %f1, %f2, %f3;\n"       /* 10 */                          \
    "div.approx.f32 %f1, %f2, %f3;\n"   /* 11 */                          \
    "div.full.ftz.f32 %f1, %f2, %f3;\n" /* 12 */                          \
    "div.rn.f64 %fd1, %fd2, %fd3;\n"    /* 13 */                          \
    "abs.ftz.f32 %f1, %f2;\n"           /* 14 */                          \
    "neg.f64 %fd1, %fd2;\n"             /* 15 */                          \
    "min.ftz.f32 %f1, %f2, %f3;\n"      /* 16 */                          \
    "max.f64 %fd1, %fd2, %fd3;\n"       /* 17 */                          \
    "sub.f64 %fd1, %fd2, %fd3;\n"       /* 18 */                          \
    "mul.f64 %fd1, %fd2, 0d4000000000000000;\n" /* 19 */                  \
    "add.sat.f32 %f1, %f2, 0f3F000000;\n" /* 20 */                        \
    "mul.rz.f64 %fd1, %fd2, %fd3;\n"    /* 21 */                          \
    "abs.f64 %fd1, %fd2;\n"             /* 22 */                          \
    "neg.ftz.f32 %f1, %f2;\n"           /* 23 */

TEST(parser_float_arithmetic)
{
    PARSE_OK(K(G_FLT));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, ADD, F32); CHECK_EQ(in->rnd, PTX_RND_NONE); CHECK_EQ(in->flags, 0);
    CHECK_EQ(in->sub, PTX_SUB_NONE);
    CHECK_REG(in->ops[0], RF(1)); CHECK_REG(in->ops[2], RF(3));
    AT(1); CHECK_OP(in, ADD, F32); CHECK_EQ(in->rnd, PTX_RND_RN);
    AT(2); CHECK_OP(in, SUB, F32); CHECK_EQ(in->rnd, PTX_RND_RZ); CHECK_EQ(in->flags, PTX_F_FTZ);
    AT(3); CHECK_OP(in, MUL, F32); CHECK_EQ(in->rnd, PTX_RND_RM);
    CHECK_EQ(in->sub, PTX_SUB_NONE);
    AT(4); CHECK_OP(in, MUL, F32); CHECK_EQ(in->rnd, PTX_RND_RP); CHECK_EQ(in->flags, PTX_F_SAT);
    AT(5); CHECK_OP(in, ADD, F64); CHECK_EQ(in->rnd, PTX_RND_RN); CHECK_REG(in->ops[0], RFD(1));
    AT(6); CHECK_OP(in, FMA, F32); CHECK_EQ(in->rnd, PTX_RND_RN); CHECK_EQ(in->nops, 4);
    AT(7); CHECK_OP(in, FMA, F32); CHECK_EQ(in->flags, PTX_F_FTZ | PTX_F_SAT);
    AT(8); CHECK_OP(in, FMA, F64); CHECK_REG(in->ops[3], RFD(4));
    AT(9); CHECK_OP(in, MAD, F32); CHECK_EQ(in->rnd, PTX_RND_RN); CHECK_EQ(in->sub, PTX_SUB_NONE);
    AT(10); CHECK_OP(in, DIV, F32); CHECK_EQ(in->rnd, PTX_RND_RN);
    AT(11); CHECK_OP(in, DIV, F32); CHECK_EQ(in->flags, PTX_F_APPROX); CHECK_EQ(in->rnd, 0);
    AT(12); CHECK_OP(in, DIV, F32); CHECK_EQ(in->flags, PTX_F_FULL | PTX_F_FTZ);
    AT(13); CHECK_OP(in, DIV, F64); CHECK_EQ(in->rnd, PTX_RND_RN);
    AT(14); CHECK_OP(in, ABS, F32); CHECK_EQ(in->flags, PTX_F_FTZ);
    AT(15); CHECK_OP(in, NEG, F64);
    AT(16); CHECK_OP(in, MIN, F32); CHECK_EQ(in->flags, PTX_F_FTZ);
    AT(17); CHECK_OP(in, MAX, F64);
    AT(18); CHECK_OP(in, SUB, F64);
    AT(19); CHECK_OP(in, MUL, F64); CHECK_FIMM(in->ops[2], 0x4000000000000000ull);
    AT(20); CHECK_OP(in, ADD, F32); CHECK_EQ(in->flags, PTX_F_SAT);
    CHECK_FIMM(in->ops[2], 0x3F000000u);
    AT(21); CHECK_OP(in, MUL, F64); CHECK_EQ(in->rnd, PTX_RND_RZ);
    AT(22); CHECK_OP(in, ABS, F64);
    AT(23); CHECK_OP(in, NEG, F32); CHECK_EQ(in->flags, PTX_F_FTZ);
}

#define G_TRANS                                                           \
    "rcp.rn.f32 %f1, %f2;\n"            /* 0 */                           \
    "rcp.approx.f32 %f1, %f2;\n"        /* 1 */                           \
    "rcp.approx.ftz.f64 %fd1, %fd2;\n"  /* 2 */                           \
    "rcp.rn.f64 %fd1, %fd2;\n"          /* 3 */                           \
    "sqrt.rn.f32 %f1, %f2;\n"           /* 4 */                           \
    "sqrt.approx.f32 %f1, %f2;\n"       /* 5 */                           \
    "sqrt.rn.f64 %fd1, %fd2;\n"         /* 6 */                           \
    "rsqrt.approx.f32 %f1, %f2;\n"      /* 7 */                           \
    "rsqrt.approx.ftz.f64 %fd1, %fd2;\n" /* 8 */                          \
    "ex2.approx.f32 %f1, %f2;\n"        /* 9 */                           \
    "ex2.approx.ftz.f32 %f1, %f2;\n"    /* 10 */                          \
    "lg2.approx.f32 %f1, %f2;\n"        /* 11 */                          \
    "sin.approx.f32 %f1, %f2;\n"        /* 12 */                          \
    "cos.approx.ftz.f32 %f1, %f2;\n"    /* 13 */                          \
    "tanh.approx.f32 %f1, %f2;\n"       /* 14 */                          \
    "sqrt.rz.ftz.f32 %f1, %f2;\n"       /* 15 */                          \
    "lg2.approx.ftz.f32 %f1, %f2;\n"    /* 16 */

TEST(parser_transcendentals)
{
    PARSE_OK(K(G_TRANS));
    const ptx_insn_t *in;
    static const struct { uint8_t op, type, rnd; uint16_t flags; } e[] = {
        { PTX_OP_RCP, PTX_T_F32, PTX_RND_RN, 0 },
        { PTX_OP_RCP, PTX_T_F32, 0, PTX_F_APPROX },
        { PTX_OP_RCP, PTX_T_F64, 0, PTX_F_APPROX | PTX_F_FTZ },
        { PTX_OP_RCP, PTX_T_F64, PTX_RND_RN, 0 },
        { PTX_OP_SQRT, PTX_T_F32, PTX_RND_RN, 0 },
        { PTX_OP_SQRT, PTX_T_F32, 0, PTX_F_APPROX },
        { PTX_OP_SQRT, PTX_T_F64, PTX_RND_RN, 0 },
        { PTX_OP_RSQRT, PTX_T_F32, 0, PTX_F_APPROX },
        { PTX_OP_RSQRT, PTX_T_F64, 0, PTX_F_APPROX | PTX_F_FTZ },
        { PTX_OP_EX2, PTX_T_F32, 0, PTX_F_APPROX },
        { PTX_OP_EX2, PTX_T_F32, 0, PTX_F_APPROX | PTX_F_FTZ },
        { PTX_OP_LG2, PTX_T_F32, 0, PTX_F_APPROX },
        { PTX_OP_SIN, PTX_T_F32, 0, PTX_F_APPROX },
        { PTX_OP_COS, PTX_T_F32, 0, PTX_F_APPROX | PTX_F_FTZ },
        { PTX_OP_TANH, PTX_T_F32, 0, PTX_F_APPROX },
        { PTX_OP_SQRT, PTX_T_F32, PTX_RND_RZ, PTX_F_FTZ },
        { PTX_OP_LG2, PTX_T_F32, 0, PTX_F_APPROX | PTX_F_FTZ },
    };
    for (uint32_t i = 0; i < sizeof e / sizeof *e; i++) {
        AT(i);
        CHECK_MSG(in->op == e[i].op && in->type == e[i].type &&
                  in->rnd == e[i].rnd && in->flags == e[i].flags,
                  "#%u (line %u): %s type %u rnd %u flags 0x%x", i, in->line,
                  ptx_op_name((ptx_op_t)in->op), in->type, in->rnd, in->flags);
        CHECK_EQ(in->nops, 2);
    }
}

#define G_LOGIC                                                           \
    "and.b32 %r1, %r2, %r3;\n"          /* 0 */                           \
    "or.b32 %r1, %r2, 0xff;\n"          /* 1 */                           \
    "xor.b64 %rd1, %rd2, %rd3;\n"       /* 2 */                           \
    "not.b32 %r1, %r2;\n"               /* 3 */                           \
    "cnot.b32 %r1, %r2;\n"              /* 4 */                           \
    "and.pred %p1, %p2, %p3;\n"         /* 5 */                           \
    "or.pred %p1, %p2, %p3;\n"          /* 6 */                           \
    "xor.pred %p1, %p2, %p3;\n"         /* 7 */                           \
    "not.pred %p4, %p5;\n"              /* 8 */                           \
    "and.b16 %h1, %h2, %h3;\n"          /* 9 */                           \
    "or.b64 %rd1, %rd2, -1;\n"          /* 10 */

TEST(parser_logic_ops)
{
    PARSE_OK(K(G_LOGIC));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, AND, B32); CHECK_REG(in->ops[2], RR(3));
    AT(1); CHECK_OP(in, OR, B32); CHECK_IMM(in->ops[2], 0xff);
    AT(2); CHECK_OP(in, XOR, B64); CHECK_REG(in->ops[0], RRD(1));
    AT(3); CHECK_OP(in, NOT, B32); CHECK_EQ(in->nops, 2);
    AT(4); CHECK_OP(in, CNOT, B32); CHECK_EQ(in->nops, 2);
    AT(5); CHECK_OP(in, AND, PRED); CHECK_REG(in->ops[0], RP(1));
    CHECK_REG(in->ops[2], RP(3));
    AT(6); CHECK_OP(in, OR, PRED);
    AT(7); CHECK_OP(in, XOR, PRED);
    AT(8); CHECK_OP(in, NOT, PRED); CHECK_REG(in->ops[1], RP(5));
    AT(9); CHECK_OP(in, AND, B16); CHECK_REG(in->ops[0], RH(1));
    AT(10); CHECK_OP(in, OR, B64); CHECK_IMM(in->ops[2], UINT64_MAX);
}

#define G_BITS                                                            \
    "shl.b32 %r1, %r2, 3;\n"            /* 0 */                           \
    "shl.b64 %rd1, %rd2, %r3;\n"        /* 1 */                           \
    "shr.u32 %r1, %r2, 31;\n"           /* 2 */                           \
    "shr.s32 %r1, %r2, %r3;\n"          /* 3 */                           \
    "shr.u64 %rd1, %rd2, 8;\n"          /* 4 */                           \
    "shf.l.wrap.b32 %r1, %r2, %r3, %r4;\n" /* 5 */                        \
    "shf.r.clamp.b32 %r1, %r2, %r3, 5;\n" /* 6 */                         \
    "shf.l.clamp.b32 %r1, %r2, %r3, %r4;\n" /* 7 */                       \
    "shf.r.wrap.b32 %r1, %r2, %r3, %r4;\n" /* 8 */                        \
    "bfe.u32 %r1, %r2, 8, 4;\n"         /* 9 */                           \
    "bfe.s64 %rd1, %rd2, %r3, %r4;\n"   /* 10 */                          \
    "bfi.b32 %r1, %r2, %r3, 0, 8;\n"    /* 11 */                          \
    "brev.b32 %r1, %r2;\n"              /* 12 */                          \
    "popc.b32 %r1, %r2;\n"              /* 13 */                          \
    "popc.b64 %r1, %rd1;\n"             /* 14 */                          \
    "clz.b32 %r1, %r2;\n"               /* 15 */                          \
    "bfind.u32 %r1, %r2;\n"             /* 16 */                          \
    "bfind.shiftamt.s32 %r1, %r2;\n"    /* 17 */                          \
    "prmt.b32 %r1, %r2, %r3, 0x3210;\n" /* 18 */                          \
    "prmt.b32.f4e %r1, %r2, %r3, %r4;\n" /* 19 */                         \
    "lop3.b32 %r1, %r2, %r3, %r4, 0x96;\n" /* 20 */                       \
    "clz.b64 %r1, %rd1;\n"              /* 21 */                          \
    "brev.b64 %rd1, %rd2;\n"            /* 22 */                          \
    "prmt.b32.ecl %r1, %r2, %r3, %r4;\n" /* 23 */

TEST(parser_shift_and_bit_ops)
{
    PARSE_OK(K(G_BITS));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, SHL, B32); CHECK_IMM(in->ops[2], 3);
    AT(1); CHECK_OP(in, SHL, B64); CHECK_REG(in->ops[2], RR(3));
    AT(2); CHECK_OP(in, SHR, U32); CHECK_IMM(in->ops[2], 31);
    AT(3); CHECK_OP(in, SHR, S32);
    AT(4); CHECK_OP(in, SHR, U64); CHECK_IMM(in->ops[2], 8);
    AT(5); CHECK_OP(in, SHF, B32); CHECK_EQ(in->sub, PTX_SUB_L_WRAP); CHECK_EQ(in->nops, 4);
    AT(6); CHECK_OP(in, SHF, B32); CHECK_EQ(in->sub, PTX_SUB_R_CLAMP); CHECK_IMM(in->ops[3], 5);
    AT(7); CHECK_EQ(in->sub, PTX_SUB_L_CLAMP);
    AT(8); CHECK_EQ(in->sub, PTX_SUB_R_WRAP);
    AT(9); CHECK_OP(in, BFE, U32); CHECK_IMM(in->ops[2], 8); CHECK_IMM(in->ops[3], 4);
    AT(10); CHECK_OP(in, BFE, S64); CHECK_REG(in->ops[3], RR(4));
    AT(11); CHECK_OP(in, BFI, B32); CHECK_EQ(in->nops, 5); CHECK_IMM(in->ops[3], 0);
    CHECK_IMM(in->ops[4], 8);
    AT(12); CHECK_OP(in, BREV, B32);
    AT(13); CHECK_OP(in, POPC, B32);
    AT(14); CHECK_OP(in, POPC, B64); CHECK_REG(in->ops[0], RR(1)); CHECK_REG(in->ops[1], RRD(1));
    AT(15); CHECK_OP(in, CLZ, B32);
    AT(16); CHECK_OP(in, BFIND, U32); CHECK_EQ(in->flags, 0);
    AT(17); CHECK_OP(in, BFIND, S32); CHECK_EQ(in->flags, PTX_F_SHIFTAMT);
    AT(18); CHECK_OP(in, PRMT, B32); CHECK_EQ(in->sub, PTX_SUB_NONE);
    CHECK_IMM(in->ops[3], 0x3210);
    AT(19); CHECK_OP(in, PRMT, B32); CHECK_EQ(in->sub, PTX_SUB_F4E);
    AT(20); CHECK_OP(in, LOP3, B32); CHECK_EQ(in->nops, 5); CHECK_IMM(in->ops[4], 0x96);
    AT(21); CHECK_OP(in, CLZ, B64);
    AT(22); CHECK_OP(in, BREV, B64);
    AT(23); CHECK_EQ(in->sub, PTX_SUB_ECL);
}

#define G_SETP                                                            \
    "setp.eq.s32 %p1, %r1, %r2;\n"      /* 0 */                           \
    "setp.ne.s32 %p1, %r1, %r2;\n"      /* 1 */                           \
    "setp.lt.s32 %p1, %r1, %r2;\n"      /* 2 */                           \
    "setp.le.s32 %p1, %r1, %r2;\n"      /* 3 */                           \
    "setp.gt.s32 %p1, %r1, %r2;\n"      /* 4 */                           \
    "setp.ge.s32 %p1, %r1, 10;\n"       /* 5 */                           \
    "setp.lo.u32 %p1, %r1, %r2;\n"      /* 6 */                           \
    "setp.ls.u32 %p1, %r1, %r2;\n"      /* 7 */                           \
    "setp.hi.u32 %p1, %r1, %r2;\n"      /* 8 */                           \
    "setp.hs.u64 %p1, %rd1, %rd2;\n"    /* 9 */                           \
    "setp.equ.f32 %p1, %f1, %f2;\n"     /* 10 */                          \
    "setp.neu.f32 %p1, %f1, %f2;\n"     /* 11 */                          \
    "setp.ltu.f32 %p1, %f1, %f2;\n"     /* 12 */                          \
    "setp.leu.f32 %p1, %f1, %f2;\n"     /* 13 */                          \
    "setp.gtu.f64 %p1, %fd1, %fd2;\n"   /* 14 */                          \
    "setp.geu.f32 %p1, %f1, 0f3F800000;\n" /* 15 */                       \
    "setp.num.f32 %p1, %f1, %f2;\n"     /* 16 */                          \
    "setp.nan.f64 %p1, %fd1, %fd2;\n"   /* 17 */

TEST(parser_setp_every_comparison)
{
    PARSE_OK(K(G_SETP));
    const ptx_insn_t *in;
    static const uint8_t cmp[] = {
        PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT,
        PTX_CMP_GE, PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,
        PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU,
        PTX_CMP_GEU, PTX_CMP_NUM, PTX_CMP_NAN,
    };
    for (uint32_t i = 0; i < sizeof cmp; i++) {
        AT(i);
        CHECK_EQ(in->op, PTX_OP_SETP);
        CHECK_MSG(in->cmp == cmp[i], "#%u: cmp %u, expected %u", i, in->cmp,
                  cmp[i]);
        CHECK_EQ(in->combine, PTX_SUB_NONE);
        CHECK_EQ(in->nops, 3);
        CHECK_REG(in->ops[0], RP(1));
        CHECK_EQ(in->ops[0].nvec, 0);
    }
    AT(0); CHECK_EQ(in->type, PTX_T_S32);
    AT(5); CHECK_IMM(in->ops[2], 10);
    AT(9); CHECK_EQ(in->type, PTX_T_U64);
    AT(14); CHECK_EQ(in->type, PTX_T_F64); CHECK_REG(in->ops[1], RFD(1));
    AT(15); CHECK_FIMM(in->ops[2], 0x3F800000u);
}

#define G_SETPC                                                           \
    "setp.eq.and.s32 %p1, %r1, %r2, %p2;\n"      /* 0 */                  \
    "setp.lt.or.f32 %p1|%p2, %f1, %f2, !%p3;\n"  /* 1 */                  \
    "setp.ne.xor.u32 %p4, %r3, 0, %p5;\n"        /* 2 */                  \
    "setp.gt.s32 %p1|%p2, %r1, %r2;\n"           /* 3 */                  \
    "setp.ge.f64 %p6, %fd1, 0d3FF0000000000000;\n" /* 4 */                \
    "setp.ne.s16 %p1, %h1, %h2;\n"               /* 5 */                  \
    "setp.eq.and.b32 %p1|%p2, %r1, 1, %p3;\n"    /* 6 */                  \
    "setp.lt.ftz.f32 %p1, %f1, %f2;\n"           /* 7 */

TEST(parser_setp_combiners_and_pairs)
{
    PARSE_OK(K(G_SETPC));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, SETP, S32); CHECK_EQ(in->cmp, PTX_CMP_EQ);
    CHECK_EQ(in->combine, PTX_SUB_AND); CHECK_EQ(in->nops, 4);
    CHECK_REG(in->ops[3], RP(2)); CHECK_EQ(in->ops[3].neg, 0);
    AT(1); CHECK_OP(in, SETP, F32); CHECK_EQ(in->cmp, PTX_CMP_LT);
    CHECK_EQ(in->combine, PTX_SUB_OR);
    CHECK_REG(in->ops[0], RP(1)); CHECK_EQ(in->ops[0].nvec, 1);
    CHECK_EQ(in->ops[0].vec[0], RP(2));
    CHECK_REG(in->ops[3], RP(3)); CHECK_EQ(in->ops[3].neg, 1);
    AT(2); CHECK_OP(in, SETP, U32); CHECK_EQ(in->combine, PTX_SUB_XOR);
    CHECK_IMM(in->ops[2], 0); CHECK_REG(in->ops[3], RP(5));
    AT(3); CHECK_EQ(in->combine, PTX_SUB_NONE); CHECK_EQ(in->nops, 3);
    CHECK_EQ(in->ops[0].nvec, 1); CHECK_EQ(in->ops[0].vec[0], RP(2));
    AT(4); CHECK_OP(in, SETP, F64); CHECK_FIMM(in->ops[2], 0x3FF0000000000000ull);
    AT(5); CHECK_OP(in, SETP, S16); CHECK_EQ(in->cmp, PTX_CMP_NE);
    AT(6); CHECK_OP(in, SETP, B32); CHECK_EQ(in->combine, PTX_SUB_AND);
    CHECK_EQ(in->ops[0].vec[0], RP(2)); CHECK_IMM(in->ops[2], 1);
    AT(7); CHECK_EQ(in->flags, PTX_F_FTZ);
}

#define G_SEL                                                             \
    "selp.b32 %r1, %r2, %r3, %p1;\n"    /* 0 */                           \
    "selp.f32 %f1, 0f3F800000, 0f00000000, %p2;\n" /* 1 */                \
    "set.lt.u32.s32 %r1, %r2, %r3;\n"   /* 2 */                           \
    "set.eq.f32.f32 %f1, %f2, %f3;\n"   /* 3 */                           \
    "set.gt.and.u32.f32 %r1, %f1, %f2, %p1;\n" /* 4 */                    \
    "slct.s32.s32 %r1, %r2, %r3, %r4;\n" /* 5 */                          \
    "slct.f32.f32 %f1, %f2, %f3, %f4;\n" /* 6 */                          \
    "slct.u32.s32 %r1, %r2, %r3, -1;\n" /* 7 */                           \
    "selp.u64 %rd1, 1, 0, %p3;\n"       /* 8 */                           \
    "set.ne.u32.f64 %r1, %fd1, 0d0000000000000000;\n" /* 9 */

TEST(parser_selp_set_slct)
{
    PARSE_OK(K(G_SEL));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, SELP, B32); CHECK_EQ(in->nops, 4); CHECK_REG(in->ops[3], RP(1));
    AT(1); CHECK_OP(in, SELP, F32); CHECK_FIMM(in->ops[1], 0x3F800000u);
    CHECK_FIMM(in->ops[2], 0); CHECK_REG(in->ops[3], RP(2));
    AT(2); CHECK_OP(in, SET, U32); CHECK_EQ(in->type2, PTX_T_S32);
    CHECK_EQ(in->cmp, PTX_CMP_LT); CHECK_EQ(in->nops, 3);
    AT(3); CHECK_OP(in, SET, F32); CHECK_EQ(in->type2, PTX_T_F32);
    CHECK_EQ(in->cmp, PTX_CMP_EQ);
    AT(4); CHECK_OP(in, SET, U32); CHECK_EQ(in->type2, PTX_T_F32);
    CHECK_EQ(in->cmp, PTX_CMP_GT); CHECK_EQ(in->combine, PTX_SUB_AND);
    CHECK_EQ(in->nops, 4); CHECK_REG(in->ops[3], RP(1));
    AT(5); CHECK_OP(in, SLCT, S32); CHECK_EQ(in->type2, PTX_T_S32); CHECK_EQ(in->nops, 4);
    AT(6); CHECK_OP(in, SLCT, F32); CHECK_EQ(in->type2, PTX_T_F32);
    AT(7); CHECK_OP(in, SLCT, U32); CHECK_EQ(in->type2, PTX_T_S32);
    CHECK_IMM(in->ops[3], -1);
    AT(8); CHECK_OP(in, SELP, U64); CHECK_IMM(in->ops[1], 1); CHECK_IMM(in->ops[2], 0);
    AT(9); CHECK_OP(in, SET, U32); CHECK_EQ(in->type2, PTX_T_F64);
    CHECK_FIMM(in->ops[2], 0);
}

#define G_CTRL                                                            \
    "$L_top:\n"                                                           \
    "setp.lt.s32 %p1, %r1, 10;\n"       /* 0 */                           \
    "@%p1 bra $L_top;\n"                /* 1 */                           \
    "@!%p1 bra.uni $L_end;\n"           /* 2 */                           \
    "bra L_mid;\n"                      /* 3 */                           \
    "L_mid: exit;\n"                    /* 4 */                           \
    "$L_end:\n"                                                           \
    "@%p2 trap;\n"                      /* 5 */                           \
    "@!%p3 ret;\n"                      /* 6 */                           \
    "ret.uni;\n"                        /* 7 */

TEST(parser_labels_guards_and_branches)
{
    PARSE_OK(K(G_CTRL));
    int k = ptx_find_function(m, "k");
    CHECK(k >= 0);
    uint32_t first = m->funcs[k].first;
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, SETP, S32); CHECK_EQ(in->guard, SINK);
    AT(1); CHECK_OP(in, BRA, NONE); CHECK_EQ(in->guard, RP(1)); CHECK_EQ(in->guard_neg, 0);
    CHECK_EQ(in->nops, 1); CHECK_EQ(in->ops[0].kind, PTX_OPND_LABEL);
    CHECK_EQ(in->ops[0].imm, first + 0); CHECK_EQ(in->flags, 0);
    AT(2); CHECK_OP(in, BRA, NONE); CHECK_EQ(in->guard, RP(1)); CHECK_EQ(in->guard_neg, 1);
    CHECK_EQ(in->flags, PTX_F_UNI); CHECK_EQ(in->ops[0].imm, first + 5);
    AT(3); CHECK_EQ(in->guard, SINK); CHECK_EQ(in->ops[0].imm, first + 4);
    AT(4); CHECK_OP(in, EXIT, NONE); CHECK_EQ(in->nops, 0);
    AT(5); CHECK_OP(in, TRAP, NONE); CHECK_EQ(in->guard, RP(2)); CHECK_EQ(in->nops, 0);
    AT(6); CHECK_OP(in, RET, NONE); CHECK_EQ(in->guard, RP(3)); CHECK_EQ(in->guard_neg, 1);
    AT(7); CHECK_OP(in, RET, NONE); CHECK_EQ(in->flags, PTX_F_UNI);
    CHECK_EQ(m->funcs[k].count, 9);
    for (uint32_t i = 0; i < 9; i++) {
        AT(i);
        CHECK_EQ(in->func, (uint32_t)k);
    }
}

/* A label at the start of a nested block and a backward/forward pair
 * across nested scopes. */
TEST(parser_labels_in_nested_blocks)
{
    PARSE_OK(K("{\n"
               "$L_a:\n"
               ".reg .b32 %t;\n"
               "add.s32 %t, %r1, 1;\n"   /* 0 */
               "@%p1 bra $L_b;\n"        /* 1 */
               "}\n"
               "bra $L_a;\n"             /* 2 */
               "$L_b:\n"
               "mov.u32 %r1, 0;\n"));    /* 3 */
    int k = ptx_find_function(m, "k");
    uint32_t first = m->funcs[k].first;
    const ptx_insn_t *in;
    AT(1); CHECK_EQ(in->ops[0].imm, first + 3);
    AT(2); CHECK_EQ(in->ops[0].imm, first + 0);
}

#define CALL_PRE                                                          \
    ".func (.param .b32 rv) f1(.param .b32 a, .param .b32 b)\n"           \
    "{\n"                                                                 \
    ".reg .b32 %x<3>;\n"                                                  \
    "ld.param.b32 %x1, [a];\n"                                            \
    "ld.param.b32 %x2, [b];\n"                                            \
    "add.s32 %x1, %x1, %x2;\n"                                            \
    "st.param.b32 [rv+0], %x1;\n"                                         \
    "ret;\n"                                                              \
    "}\n"                                                                 \
    ".func f0()\n"                                                        \
    "{\n"                                                                 \
    "ret;\n"                                                              \
    "}\n"                                                                 \
    ".func f2(.param .u64 p)\n"                                           \
    "{\n"                                                                 \
    "ret;\n"                                                              \
    "}\n"

#define G_CALL                                                            \
    "{\n"                                                                 \
    ".param .b32 param0;\n"                                               \
    ".param .b32 param1;\n"                                               \
    ".param .b32 retval0;\n"                                              \
    "st.param.b32 [param0+0], %r1;\n"   /* 0 */                           \
    "st.param.b32 [param1+0], %r2;\n"   /* 1 */                           \
    "call.uni (retval0), f1, (param0, param1);\n" /* 2 */                 \
    "ld.param.b32 %r3, [retval0+0];\n"  /* 3 */                           \
    "}\n"                                                                 \
    "call f0;\n"                        /* 4 */                           \
    "call.uni f0, ();\n"                /* 5 */                           \
    "{\n"                                                                 \
    ".param .u64 param0;\n"                                               \
    "st.param.u64 [param0], %rd1;\n"    /* 6 */                           \
    "call f2, (param0);\n"              /* 7 */                           \
    "}\n"                                                                 \
    "@%p1 call.uni f0;\n"               /* 8 */

TEST(parser_call_forms)
{
    PARSE_OK(KP(CALL_PRE, G_CALL));
    int f1 = ptx_find_function(m, "f1"), f0 = ptx_find_function(m, "f0");
    int f2 = ptx_find_function(m, "f2"), k = ptx_find_function(m, "k");
    CHECK(f1 >= 0 && f0 >= 0 && f2 >= 0 && k >= 0);
    CHECK_EQ(m->nfuncs, 4);
    const ptx_insn_t *in;
    AT(2); CHECK_OP(in, CALL, NONE); CHECK_EQ(in->flags, PTX_F_UNI); CHECK_EQ(in->nops, 3);
    CHECK_EQ(in->ops[0].kind, PTX_OPND_LIST); CHECK_EQ(in->ops[0].nvec, 1);
    CHECK_EQ(in->ops[1].kind, PTX_OPND_FUNC); CHECK_EQ(in->ops[1].imm, f1);
    CHECK_EQ(in->ops[2].kind, PTX_OPND_LIST); CHECK_EQ(in->ops[2].nvec, 2);
    CHECK((uint64_t)in->ops[2].imm + 2 <= m->ncall_lists);
    CHECK((uint64_t)in->ops[0].imm + 1 <= m->ncall_lists);
    {
        const ptx_symbol_t *r = &m->syms[m->call_lists[in->ops[0].imm]];
        const ptx_symbol_t *a0 = &m->syms[m->call_lists[in->ops[2].imm]];
        const ptx_symbol_t *a1 = &m->syms[m->call_lists[in->ops[2].imm + 1]];
        CHECK(strcmp(r->name, "retval0") == 0);
        CHECK(strcmp(a0->name, "param0") == 0);
        CHECK(strcmp(a1->name, "param1") == 0);
        CHECK_EQ(a0->kind, PTX_SYM_CPARAM); CHECK_EQ(a0->space, PTX_SPACE_PARAM);
        CHECK_EQ(a0->type, PTX_T_B32); CHECK_EQ(a0->size, 4);
        CHECK_EQ(a0->func, (uint32_t)k);
    }
    AT(0); CHECK_OP(in, ST, B32); CHECK_EQ(in->space, PTX_SPACE_PARAM);
    CHECK_ADDR_S(in->ops[0], "param0", 0);
    AT(3); CHECK_OP(in, LD, B32); CHECK_ADDR_S(in->ops[1], "retval0", 0);
    AT(4); CHECK_OP(in, CALL, NONE); CHECK_EQ(in->nops, 1); CHECK_EQ(in->flags, 0);
    CHECK_EQ(in->ops[0].kind, PTX_OPND_FUNC); CHECK_EQ(in->ops[0].imm, f0);
    AT(5); CHECK_EQ(in->nops, 2); CHECK_EQ(in->ops[0].imm, f0);
    CHECK_EQ(in->ops[1].kind, PTX_OPND_LIST); CHECK_EQ(in->ops[1].nvec, 0);
    AT(6); CHECK_OP(in, ST, U64); CHECK_ADDR_S(in->ops[0], "param0", 0);
    CHECK_EQ(m->syms[in->ops[0].sym].type, PTX_T_U64);
    AT(7); CHECK_EQ(in->nops, 2); CHECK_EQ(in->ops[0].kind, PTX_OPND_FUNC);
    CHECK_EQ(in->ops[0].imm, f2); CHECK_EQ(in->ops[1].nvec, 1);
    CHECK_EQ(m->syms[m->call_lists[in->ops[1].imm]].type, PTX_T_U64);
    CHECK_EQ(m->call_lists[in->ops[1].imm], in[-1].ops[0].sym);
    AT(8); CHECK_EQ(in->guard, RP(1)); CHECK_EQ(in->ops[0].imm, f0);
    /* f1's body */
    in = &m->insns[m->funcs[f1].first];
    CHECK_OP(in, LD, B32); CHECK_EQ(in->func, (uint32_t)f1);
    CHECK_ADDR_S(in->ops[1], "a", 0);
    CHECK_EQ(m->syms[in->ops[1].sym].kind, PTX_SYM_FPARAM);
    CHECK_EQ(m->funcs[f1].nregs, 3);
    CHECK_EQ(m->funcs[f1].count, 5);
}

/* A call to a function defined after the caller is resolved at the end. */
TEST(parser_call_forward_reference)
{
    PARSE_OK(PTX_HDR
             ".func later(.param .b32 x);\n"
             ".visible .entry k()\n"
             "{\n"
             ".param .b32 param0;\n"
             "st.param.b32 [param0], 1;\n"
             "call later, (param0);\n"
             "call.uni helper;\n"
             "ret;\n"
             "}\n"
             ".func helper()\n"
             "{\n"
             "ret;\n"
             "}\n"
             ".func later(.param .b32 x)\n"
             "{\n"
             "ret;\n"
             "}\n");
    int later = ptx_find_function(m, "later");
    int helper = ptx_find_function(m, "helper");
    CHECK(later >= 0 && helper >= 0);
    const ptx_insn_t *in;
    AT(1); CHECK_OP(in, CALL, NONE); CHECK_EQ(in->ops[0].kind, PTX_OPND_FUNC);
    CHECK_EQ(in->ops[0].imm, later);
    CHECK_EQ(m->funcs[later].count, 1);
    AT(2); CHECK_EQ(in->ops[0].kind, PTX_OPND_FUNC); CHECK_EQ(in->ops[0].imm, helper);
}

#define G_BAR                                                             \
    "bar.sync 0;\n"                     /* 0 */                           \
    "bar.sync 1, 64;\n"                 /* 1 */                           \
    "barrier.sync 0;\n"                 /* 2 */                           \
    "barrier.sync.aligned 2, %r1;\n"    /* 3 */                           \
    "bar.arrive 1, 64;\n"               /* 4 */                           \
    "bar.red.popc.u32 %r1, 0, %p1;\n"   /* 5 */                           \
    "bar.red.and.pred %p2, 0, %p1;\n"   /* 6 */                           \
    "bar.red.or.pred %p3, 1, 64, !%p1;\n" /* 7 */                         \
    "membar.gl;\n"                      /* 8 */                           \
    "membar.cta;\n"                     /* 9 */                           \
    "membar.sys;\n"                     /* 10 */                          \
    "fence.acq_rel.gpu;\n"              /* 11 */                          \
    "fence.sc.cta;\n"                   /* 12 */                          \
    "bar.sync %r2;\n"                   /* 13 */                          \
    "barrier.arrive 3, 32;\n"           /* 14 */

TEST(parser_barriers_and_fences)
{
    PARSE_OK(K(G_BAR));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, BAR, NONE); CHECK_EQ(in->sub, PTX_SUB_SYNC); CHECK_EQ(in->nops, 1);
    CHECK_IMM(in->ops[0], 0);
    AT(1); CHECK_EQ(in->sub, PTX_SUB_SYNC); CHECK_EQ(in->nops, 2);
    CHECK_IMM(in->ops[0], 1); CHECK_IMM(in->ops[1], 64);
    AT(2); CHECK_OP(in, BARRIER, NONE); CHECK_EQ(in->sub, PTX_SUB_SYNC);
    AT(3); CHECK_OP(in, BARRIER, NONE); CHECK_EQ(in->flags, PTX_F_ALIGNED);
    CHECK_IMM(in->ops[0], 2); CHECK_REG(in->ops[1], RR(1));
    AT(4); CHECK_OP(in, BAR, NONE); CHECK_EQ(in->sub, PTX_SUB_ARRIVE);
    AT(5); CHECK_OP(in, BAR, U32); CHECK_EQ(in->sub, PTX_SUB_RED);
    CHECK_EQ(in->combine, PTX_SUB_POPC); CHECK_EQ(in->nops, 3);
    CHECK_REG(in->ops[0], RR(1)); CHECK_IMM(in->ops[1], 0); CHECK_REG(in->ops[2], RP(1));
    AT(6); CHECK_OP(in, BAR, PRED); CHECK_EQ(in->sub, PTX_SUB_RED);
    CHECK_EQ(in->combine, PTX_SUB_AND);
    AT(7); CHECK_OP(in, BAR, PRED); CHECK_EQ(in->combine, PTX_SUB_OR);
    CHECK_EQ(in->nops, 4); CHECK_REG(in->ops[3], RP(1)); CHECK_EQ(in->ops[3].neg, 1);
    AT(8); CHECK_OP(in, MEMBAR, NONE); CHECK_EQ(in->nops, 0);
    AT(9); CHECK_OP(in, MEMBAR, NONE);
    AT(10); CHECK_OP(in, MEMBAR, NONE);
    AT(11); CHECK_OP(in, FENCE, NONE); CHECK_EQ(in->nops, 0);
    AT(12); CHECK_OP(in, FENCE, NONE);
    AT(13); CHECK_OP(in, BAR, NONE); CHECK_REG(in->ops[0], RR(2));
    AT(14); CHECK_OP(in, BARRIER, NONE); CHECK_EQ(in->sub, PTX_SUB_ARRIVE);
}

#define G_ATOM                                                            \
    "atom.global.add.u32 %r1, [%rd1], 1;\n"      /* 0 */                  \
    "atom.shared.min.s32 %r1, [%r2], %r3;\n"     /* 1 */                  \
    "atom.max.u32 %r1, [%rd1], %r3;\n"           /* 2 generic */          \
    "atom.global.inc.u32 %r1, [%rd1], 16;\n"     /* 3 */                  \
    "atom.global.dec.u32 %r1, [%rd1], 16;\n"     /* 4 */                  \
    "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;\n" /* 5 */                \
    "atom.shared.exch.b32 %r1, [%r2], %r3;\n"    /* 6 */                  \
    "atom.global.and.b32 %r1, [%rd1], %r2;\n"    /* 7 */                  \
    "atom.global.or.b32 %r1, [%rd1], %r2;\n"     /* 8 */                  \
    "atom.global.xor.b32 %r1, [%rd1], %r2;\n"    /* 9 */                  \
    "atom.global.add.f32 %f1, [%rd1], 0f3F800000;\n" /* 10 */             \
    "atom.global.cas.b64 %rd1, [%rd2], %rd3, %rd4;\n" /* 11 */            \
    "atom.global.add.u64 %rd1, [%rd2+8], 1;\n"   /* 12 */                 \
    "atom.shared.add.u32 %r1, [%r2+-4], 1;\n"    /* 13 */                 \
    "atom.exch.b64 %rd1, [%rd2], %rd3;\n"        /* 14 */

TEST(parser_atom_forms)
{
    PARSE_OK(K(G_ATOM));
    const ptx_insn_t *in;
    static const struct { uint8_t type, space, sub, nops; } e[] = {
        { PTX_T_U32, PTX_SPACE_GLOBAL, PTX_SUB_ADD, 3 },
        { PTX_T_S32, PTX_SPACE_SHARED, PTX_SUB_MIN, 3 },
        { PTX_T_U32, PTX_SPACE_NONE, PTX_SUB_MAX, 3 },
        { PTX_T_U32, PTX_SPACE_GLOBAL, PTX_SUB_INC, 3 },
        { PTX_T_U32, PTX_SPACE_GLOBAL, PTX_SUB_DEC, 3 },
        { PTX_T_B32, PTX_SPACE_GLOBAL, PTX_SUB_CAS, 4 },
        { PTX_T_B32, PTX_SPACE_SHARED, PTX_SUB_EXCH, 3 },
        { PTX_T_B32, PTX_SPACE_GLOBAL, PTX_SUB_AND, 3 },
        { PTX_T_B32, PTX_SPACE_GLOBAL, PTX_SUB_OR, 3 },
        { PTX_T_B32, PTX_SPACE_GLOBAL, PTX_SUB_XOR, 3 },
        { PTX_T_F32, PTX_SPACE_GLOBAL, PTX_SUB_ADD, 3 },
        { PTX_T_B64, PTX_SPACE_GLOBAL, PTX_SUB_CAS, 4 },
        { PTX_T_U64, PTX_SPACE_GLOBAL, PTX_SUB_ADD, 3 },
        { PTX_T_U32, PTX_SPACE_SHARED, PTX_SUB_ADD, 3 },
        { PTX_T_B64, PTX_SPACE_NONE, PTX_SUB_EXCH, 3 },
    };
    for (uint32_t i = 0; i < sizeof e / sizeof *e; i++) {
        AT(i);
        CHECK_MSG(in->op == PTX_OP_ATOM && in->type == e[i].type &&
                  in->space == e[i].space && in->sub == e[i].sub &&
                  in->nops == e[i].nops,
                  "#%u (line %u): op %u type %u space %u sub %u nops %u", i,
                  in->line, in->op, in->type, in->space, in->sub, in->nops);
        CHECK_EQ(in->ops[0].kind, PTX_OPND_REG);
        CHECK_EQ(in->ops[1].kind, PTX_OPND_ADDR);
    }
    AT(0); CHECK_REG(in->ops[0], RR(1)); CHECK_ADDR_R(in->ops[1], RRD(1), 0);
    CHECK_IMM(in->ops[2], 1);
    AT(5); CHECK_REG(in->ops[2], RR(2)); CHECK_REG(in->ops[3], RR(3));
    AT(10); CHECK_FIMM(in->ops[2], 0x3F800000u);
    AT(12); CHECK_ADDR_R(in->ops[1], RRD(2), 8);
    AT(13); CHECK_ADDR_R(in->ops[1], RR(2), -4);
}

#define G_RED                                                             \
    "red.global.add.u32 [%rd1], 1;\n"   /* 0 */                           \
    "red.shared.max.s32 [%r1], %r2;\n"  /* 1 */                           \
    "red.add.f32 [%rd1], %f1;\n"        /* 2 */                           \
    "red.global.and.b32 [%rd1], %r2;\n" /* 3 */                           \
    "red.global.or.b32 [%rd1], %r2;\n"  /* 4 */                           \
    "red.global.xor.b32 [%rd1], %r2;\n" /* 5 */                           \
    "red.global.min.u32 [%rd1], %r2;\n" /* 6 */                           \
    "red.global.inc.u32 [%rd1], 9;\n"   /* 7 */                           \
    "red.global.dec.u32 [%rd1], 9;\n"   /* 8 */                           \
    "red.global.add.u64 [%rd1+24], %rd2;\n" /* 9 */

TEST(parser_red_forms)
{
    PARSE_OK(K(G_RED));
    const ptx_insn_t *in;
    static const struct { uint8_t type, space, sub; } e[] = {
        { PTX_T_U32, PTX_SPACE_GLOBAL, PTX_SUB_ADD },
        { PTX_T_S32, PTX_SPACE_SHARED, PTX_SUB_MAX },
        { PTX_T_F32, PTX_SPACE_NONE, PTX_SUB_ADD },
        { PTX_T_B32, PTX_SPACE_GLOBAL, PTX_SUB_AND },
        { PTX_T_B32, PTX_SPACE_GLOBAL, PTX_SUB_OR },
        { PTX_T_B32, PTX_SPACE_GLOBAL, PTX_SUB_XOR },
        { PTX_T_U32, PTX_SPACE_GLOBAL, PTX_SUB_MIN },
        { PTX_T_U32, PTX_SPACE_GLOBAL, PTX_SUB_INC },
        { PTX_T_U32, PTX_SPACE_GLOBAL, PTX_SUB_DEC },
        { PTX_T_U64, PTX_SPACE_GLOBAL, PTX_SUB_ADD },
    };
    for (uint32_t i = 0; i < sizeof e / sizeof *e; i++) {
        AT(i);
        CHECK_MSG(in->op == PTX_OP_RED && in->type == e[i].type &&
                  in->space == e[i].space && in->sub == e[i].sub &&
                  in->nops == 2,
                  "#%u (line %u): op %u type %u space %u sub %u nops %u", i,
                  in->line, in->op, in->type, in->space, in->sub, in->nops);
        CHECK_EQ(in->ops[0].kind, PTX_OPND_ADDR);
    }
    AT(0); CHECK_IMM(in->ops[1], 1);
    AT(1); CHECK_ADDR_R(in->ops[0], RR(1), 0); CHECK_REG(in->ops[1], RR(2));
    AT(9); CHECK_ADDR_R(in->ops[0], RRD(1), 24);
}

#define G_VOTE                                                            \
    "vote.all.pred %p1, %p2;\n"         /* 0 */                           \
    "vote.any.pred %p1, !%p2;\n"        /* 1 */                           \
    "vote.uni.pred %p1, %p2;\n"         /* 2 */                           \
    "vote.ballot.b32 %r1, %p1;\n"       /* 3 */                           \
    "vote.sync.all.pred %p1, %p2, -1;\n" /* 4 */                          \
    "vote.sync.any.pred %p1, %p2, %r1;\n" /* 5 */                         \
    "vote.sync.uni.pred %p1, %p2, 0xffffffff;\n" /* 6 */                  \
    "vote.sync.ballot.b32 %r1, %p1, %r2;\n" /* 7 */                       \
    "activemask.b32 %r3;\n"             /* 8 */

TEST(parser_vote_and_activemask)
{
    PARSE_OK(K(G_VOTE));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, VOTE, PRED); CHECK_EQ(in->sub, PTX_SUB_ALL); CHECK_EQ(in->flags, 0);
    CHECK_EQ(in->nops, 2); CHECK_REG(in->ops[0], RP(1)); CHECK_REG(in->ops[1], RP(2));
    CHECK_EQ(in->ops[1].neg, 0);
    AT(1); CHECK_EQ(in->sub, PTX_SUB_ANY); CHECK_REG(in->ops[1], RP(2)); CHECK_EQ(in->ops[1].neg, 1);
    AT(2); CHECK_EQ(in->sub, PTX_SUB_UNI); CHECK_EQ(in->flags, 0);
    AT(3); CHECK_OP(in, VOTE, B32); CHECK_EQ(in->sub, PTX_SUB_BALLOT); CHECK_REG(in->ops[0], RR(1));
    AT(4); CHECK_OP(in, VOTE, PRED); CHECK_EQ(in->sub, PTX_SUB_ALL); CHECK_EQ(in->flags, PTX_F_SYNC);
    CHECK_EQ(in->nops, 3); CHECK_IMM(in->ops[2], -1);
    AT(5); CHECK_EQ(in->sub, PTX_SUB_ANY); CHECK_EQ(in->flags, PTX_F_SYNC); CHECK_REG(in->ops[2], RR(1));
    AT(6); CHECK_EQ(in->sub, PTX_SUB_UNI); CHECK_EQ(in->flags, PTX_F_SYNC);
    CHECK_IMM(in->ops[2], 0xffffffffu);
    AT(7); CHECK_OP(in, VOTE, B32); CHECK_EQ(in->sub, PTX_SUB_BALLOT); CHECK_EQ(in->flags, PTX_F_SYNC);
    AT(8); CHECK_OP(in, ACTIVEMASK, B32); CHECK_EQ(in->nops, 1); CHECK_REG(in->ops[0], RR(3));
}

#define G_SHFL                                                            \
    "shfl.sync.up.b32 %r1|%p1, %r2, 1, 0, -1;\n"           /* 0 */        \
    "shfl.sync.down.b32 %r1|%p1, %r2, %r3, 31, %r4;\n"     /* 1 */        \
    "shfl.sync.bfly.b32 %r1, %r2, 16, 31, -1;\n"           /* 2 */        \
    "shfl.sync.idx.b32 %r1|%p2, %r2, %r3, 0x1f, 0xffffffff;\n" /* 3 */    \
    "shfl.up.b32 %r1, %r2, 1, 0;\n"                        /* 4 */        \
    "shfl.idx.b32 %r1|%p1, %r2, 0, 31;\n"                  /* 5 */        \
    "shfl.sync.bfly.b32 %f1, %f2, 1, 31, -1;\n"            /* 6 */

TEST(parser_shfl_forms)
{
    PARSE_OK(K(G_SHFL));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, SHFL, B32); CHECK_EQ(in->sub, PTX_SUB_UP); CHECK_EQ(in->flags, PTX_F_SYNC);
    CHECK_EQ(in->nops, 5); CHECK_REG(in->ops[0], RR(1)); CHECK_EQ(in->ops[0].nvec, 1);
    CHECK_EQ(in->ops[0].vec[0], RP(1)); CHECK_REG(in->ops[1], RR(2));
    CHECK_IMM(in->ops[2], 1); CHECK_IMM(in->ops[3], 0); CHECK_IMM(in->ops[4], -1);
    AT(1); CHECK_EQ(in->sub, PTX_SUB_DOWN); CHECK_REG(in->ops[2], RR(3));
    CHECK_IMM(in->ops[3], 31); CHECK_REG(in->ops[4], RR(4));
    AT(2); CHECK_EQ(in->sub, PTX_SUB_BFLY); CHECK_EQ(in->ops[0].nvec, 0);
    CHECK_IMM(in->ops[2], 16);
    AT(3); CHECK_EQ(in->sub, PTX_SUB_IDX); CHECK_EQ(in->ops[0].vec[0], RP(2));
    CHECK_IMM(in->ops[3], 0x1f); CHECK_IMM(in->ops[4], 0xffffffffu);
    AT(4); CHECK_EQ(in->sub, PTX_SUB_UP); CHECK_EQ(in->flags, 0); CHECK_EQ(in->nops, 4);
    AT(5); CHECK_EQ(in->sub, PTX_SUB_IDX); CHECK_EQ(in->nops, 4); CHECK_EQ(in->ops[0].nvec, 1);
    AT(6); CHECK_REG(in->ops[0], RF(1));
}

#define G_MISC                                                            \
    "testp.finite.f32 %p1, %f1;\n"      /* 0 */                           \
    "testp.infinite.f64 %p1, %fd1;\n"   /* 1 */                           \
    "testp.number.f32 %p1, %f1;\n"      /* 2 */                           \
    "testp.notanumber.f32 %p1, %f1;\n"  /* 3 */                           \
    "testp.normal.f64 %p1, %fd1;\n"     /* 4 */                           \
    "testp.subnormal.f32 %p1, %f1;\n"   /* 5 */                           \
    "copysign.f32 %f1, %f2, %f3;\n"     /* 6 */                           \
    "copysign.f64 %fd1, %fd2, %fd3;\n"  /* 7 */                           \
    "isspacep.global %p1, %rd1;\n"      /* 8 */                           \
    "isspacep.shared %p2, %rd2;\n"      /* 9 */                           \
    "isspacep.local %p3, %rd3;\n"       /* 10 */                          \
    "isspacep.const %p4, %rd4;\n"       /* 11 */                          \
    "nanosleep.u32 100;\n"              /* 12 */                          \
    "nanosleep.u32 %r1;\n"              /* 13 */

TEST(parser_testp_copysign_isspacep_nanosleep)
{
    PARSE_OK(K(G_MISC));
    const ptx_insn_t *in;
    static const uint8_t cls[] = {
        PTX_SUB_FINITE, PTX_SUB_INFINITE, PTX_SUB_NUMBER,
        PTX_SUB_NOTANUMBER, PTX_SUB_NORMAL, PTX_SUB_SUBNORMAL,
    };
    for (uint32_t i = 0; i < 6; i++) {
        AT(i);
        CHECK_EQ(in->op, PTX_OP_TESTP);
        CHECK_EQ(in->sub, cls[i]);
        CHECK_EQ(in->nops, 2);
        CHECK_REG(in->ops[0], RP(1));
    }
    AT(0); CHECK_EQ(in->type, PTX_T_F32); CHECK_REG(in->ops[1], RF(1));
    AT(1); CHECK_EQ(in->type, PTX_T_F64); CHECK_REG(in->ops[1], RFD(1));
    AT(6); CHECK_OP(in, COPYSIGN, F32); CHECK_EQ(in->nops, 3);
    AT(7); CHECK_OP(in, COPYSIGN, F64); CHECK_REG(in->ops[2], RFD(3));
    AT(8); CHECK_OP(in, ISSPACEP, NONE); CHECK_EQ(in->space, PTX_SPACE_GLOBAL);
    CHECK_REG(in->ops[0], RP(1)); CHECK_REG(in->ops[1], RRD(1));
    AT(9); CHECK_EQ(in->space, PTX_SPACE_SHARED);
    AT(10); CHECK_EQ(in->space, PTX_SPACE_LOCAL);
    AT(11); CHECK_EQ(in->space, PTX_SPACE_CONST);
    AT(12); CHECK_OP(in, NANOSLEEP, U32); CHECK_EQ(in->nops, 1); CHECK_IMM(in->ops[0], 100);
    AT(13); CHECK_OP(in, NANOSLEEP, U32); CHECK_REG(in->ops[0], RR(1));
}

#define G_EXT                                                             \
    "relssp;\n"                         /* 0 */                           \
    "relssp %r1;\n"                     /* 1 */                           \
    "pref [%rd1];\n"                    /* 2 */                           \
    "pref 0x0f;\n"                      /* 3 */                           \
    "pref 1, 2, 3, 4;\n"                /* 4 */                           \
    "pref %r1, %r2, %r3;\n"             /* 5 */                           \
    "@%p1 relssp;\n"                    /* 6 */                           \
    "pref 0xffffffff, 0x1;\n"           /* 7 */

TEST(parser_simtlab_extensions)
{
    PARSE_OK(K(G_EXT));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, RELSSP, NONE); CHECK_EQ(in->nops, 0);
    AT(1); CHECK_OP(in, RELSSP, NONE); CHECK_EQ(in->nops, 1); CHECK_REG(in->ops[0], RR(1));
    AT(2); CHECK_OP(in, PREF, NONE); CHECK_EQ(in->nops, 1); CHECK_ADDR_R(in->ops[0], RRD(1), 0);
    AT(3); CHECK_OP(in, PREF, NONE); CHECK_IMM(in->ops[0], 0x0f);
    AT(4); CHECK_EQ(in->nops, 4);
    for (unsigned i = 0; i < 4; i++)
        CHECK_IMM(in->ops[i], i + 1);
    AT(5); CHECK_EQ(in->nops, 3); CHECK_REG(in->ops[2], RR(3));
    AT(6); CHECK_OP(in, RELSSP, NONE); CHECK_EQ(in->guard, RP(1));
    AT(7); CHECK_EQ(in->nops, 2); CHECK_IMM(in->ops[0], 0xffffffffu); CHECK_IMM(in->ops[1], 1);
}

/* Texture and surface instructions as nvcc 13 emits them for texture and
 * surface objects (tests/kernels/textures/kernel.ptx); the handle and the
 * coordinates of "[h, {c}]" become two operands (ptx/tex_syntax.h). */
#define G_TEX                                                             \
    "tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5}];\n"   /* 0 */ \
    "tex.1d.v4.u32.s32 {%r0, %r1, %r2, %r3}, [%rd2, {%r4}];\n"        /* 1 */ \
    "tex.a2d.v4.s32.f32 {%r0, %r1, _, %r3}, [%rd1, {%r5, %f4, %f5, %f5}];\n" /* 2 */ \
    "tex.level.cube.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5, %f6, %f6}], %f7;\n" /* 3 */ \
    "tld4.b.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5}];\n" /* 4 */ \
    "suld.b.3d.v2.b32.zero {%r0, %r1}, [%rd3, {%r4, %r5, %r6, %r6}];\n" /* 5 */ \
    "sust.b.a1d.b16.clamp [%rd3, {%r4, %r5}], {%h1};\n"                /* 6 */ \
    "@%p1 suld.b.1d.b32.trap %r2, [%rd3, {%r4}];\n"                    /* 7 */

TEST(parser_texture_and_surface_forms)
{
    PARSE_OK(K(G_TEX));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, TEX, F32); CHECK_EQ(in->type2, PTX_T_F32);
    CHECK_EQ(in->geom, PTX_GEOM_2D); CHECK_EQ(in->vec, 4); CHECK_EQ(in->nops, 3);
    CHECK_VEC(in->ops[0], 4, RF(0), RF(1), RF(2), RF(3));
    CHECK_REG(in->ops[1], RRD(1));
    CHECK_VEC(in->ops[2], 2, RF(4), RF(5), 0, 0);
    AT(1); CHECK_OP(in, TEX, U32); CHECK_EQ(in->type2, PTX_T_S32);
    CHECK_EQ(in->geom, PTX_GEOM_1D); CHECK_VEC(in->ops[2], 1, RR(4), 0, 0, 0);
    AT(2); CHECK_EQ(in->geom, PTX_GEOM_A2D);
    CHECK_VEC(in->ops[0], 4, RR(0), RR(1), SINK, RR(3));
    CHECK_VEC(in->ops[2], 4, RR(5), RF(4), RF(5), RF(5));
    AT(3); CHECK_EQ(in->geom, PTX_GEOM_CUBE); CHECK_EQ(in->sub, PTX_SUB_TEX_LEVEL);
    CHECK_EQ(in->nops, 4); CHECK_REG(in->ops[3], RF(7));
    AT(4); CHECK_OP(in, TLD4, F32); CHECK_EQ(in->sub, PTX_SUB_TEX_B);
    AT(5); CHECK_OP(in, SULD, B32); CHECK_EQ(in->geom, PTX_GEOM_3D);
    CHECK_EQ(in->vec, 2); CHECK_EQ(in->sub, PTX_SUB_SURF_ZERO);
    CHECK_VEC(in->ops[0], 2, RR(0), RR(1), 0, 0); CHECK_REG(in->ops[1], RRD(3));
    AT(6); CHECK_OP(in, SUST, B16); CHECK_EQ(in->geom, PTX_GEOM_A1D);
    CHECK_EQ(in->sub, PTX_SUB_SURF_CLAMP); CHECK_REG(in->ops[0], RRD(3));
    CHECK_VEC(in->ops[1], 2, RR(4), RR(5), 0, 0); CHECK_VEC(in->ops[2], 1, RH(1), 0, 0, 0);
    AT(7); CHECK_OP(in, SULD, B32); CHECK_EQ(in->guard, RP(1));
    CHECK_REG(in->ops[0], RR(2)); CHECK_EQ(in->sub, PTX_SUB_SURF_TRAP);
}

/* Instructions added for the PTX nvcc 13 emits (semantics: the
 * test_sem_bits/warp/video tests). */
#define G_NEW                                                             \
    "bmsk.clamp.b32 %r1, %r2, 4;\n"      /* 0 */                           \
    "szext.wrap.s32 %r1, %r2, %r3;\n"    /* 1 */                           \
    "fns.b32 %r1, %r2, 0, -3;\n"         /* 2 */                           \
    "match.all.sync.b64 %r1|%p1, %rd1, 0xffffffff;\n" /* 3 */             \
    "redux.sync.min.s32 %r1, %r2, %r3;\n" /* 4 */                          \
    "elect.sync _|%p2, 0xffffffff;\n"    /* 5 */                           \
    "vadd4.u32.u32.u32.sat %r1, %r2, %r3, %r4;\n" /* 6 */                  \
    "vsub4.s32.s32.s32 %r1, %r2, %r3, %r4;\n"                              \
    "vavrg4.u32.u32.u32 %r1, %r2, %r3, %r4;\n"                             \
    "vabsdiff4.u32.u32.u32.add %r1, %r2, %r3, %r4;\n" /* 9 */              \
    "vmin4.s32.s32.s32 %r1, %r2, %r3, %r4;\n"                              \
    "vmax4.u32.u32.u32 %r1, %r2, %r3, %r4;\n"                              \
    "vset4.s32.u32.ne %r1, %r2, %r3, %r4;\n" /* 12 */                      \
    "vadd2.s32.s32.u32 %r1, %r2, %r3, %r4;\n"                              \
    "vsub2.u32.u32.u32 %r1, %r2, %r3, %r4;\n"                              \
    "vavrg2.s32.s32.s32 %r1, %r2, %r3, %r4;\n"                             \
    "vabsdiff2.u32.u32.u32 %r1, %r2, %r3, %r4;\n"                          \
    "vmin2.u32.u32.u32 %r1, %r2, %r3, %r4;\n"                              \
    "vmax2.s32.s32.s32 %r1, %r2, %r3, %r4;\n"                              \
    "vset2.u32.u32.ge.add %r1, %r2, %r3, %r4;\n" /* 19 */                 \
    "dp4a.s32.u32 %r1, %r2, %r3, %r4;\n"  /* 20 */                          \
    "dp2a.hi.u32.s32 %r1, %r2, %r3, %r4;\n" /* 21 */                      \
    "prefetch.global.L2 [%rd1+64];\n"     /* 22 */                          \
    "prefetchu.L1 [%rd2];\n"              /* 23 */                          \
    "alloca.u64 %rd1, %rd2, 16;\n"        /* 24 */                          \
    "stacksave.u64 %rd3;\n"               /* 25 */                          \
    "stackrestore.u64 %rd3;\n"            /* 26 */

TEST(parser_new_instruction_forms)
{
    PARSE_OK(K(G_NEW));
    const ptx_insn_t *in;
    AT(0); CHECK_OP(in, BMSK, B32); CHECK_EQ(in->sub, PTX_SUB_CLAMP); CHECK_IMM(in->ops[2], 4);
    AT(1); CHECK_OP(in, SZEXT, S32); CHECK_EQ(in->sub, PTX_SUB_WRAP);
    AT(2); CHECK_OP(in, FNS, B32); CHECK_IMM(in->ops[3], (uint64_t)-3);
    AT(3); CHECK_OP(in, MATCH, B64); CHECK_EQ(in->sub, PTX_SUB_ALL);
    CHECK_EQ(in->ops[0].nvec, 1); CHECK_EQ(in->ops[0].vec[0], RP(1));
    AT(4); CHECK_OP(in, REDUX, S32); CHECK_EQ(in->sub, PTX_SUB_MIN);
    CHECK(in->flags & PTX_F_SYNC);
    AT(5); CHECK_OP(in, ELECT, NONE); CHECK_EQ(in->ops[0].reg, PTX_REG_SINK);
    CHECK_EQ(in->ops[0].vec[0], RP(2));
    AT(6); CHECK_OP(in, VADD4, U32); CHECK(in->flags & PTX_F_SAT);
    CHECK_EQ(in->type2, PTX_T_U32); CHECK_EQ(in->type3, PTX_T_U32);
    AT(9); CHECK_OP(in, VABSDIFF4, U32); CHECK_EQ(in->sub, PTX_SUB_ADD);
    AT(12); CHECK_OP(in, VSET4, S32); CHECK_EQ(in->type2, PTX_T_U32);
    CHECK_EQ(in->cmp, PTX_CMP_NE);
    AT(19); CHECK_OP(in, VSET2, U32); CHECK_EQ(in->cmp, PTX_CMP_GE);
    CHECK_EQ(in->sub, PTX_SUB_ADD);
    AT(20); CHECK_OP(in, DP4A, S32); CHECK_EQ(in->type2, PTX_T_U32);
    AT(21); CHECK_OP(in, DP2A, U32); CHECK_EQ(in->type2, PTX_T_S32);
    CHECK_EQ(in->sub, PTX_SUB_HI);
    AT(22); CHECK_OP(in, PREFETCH, NONE); CHECK_EQ(in->space, PTX_SPACE_GLOBAL);
    CHECK_ADDR_R(in->ops[0], RRD(1), 64);
    AT(23); CHECK_OP(in, PREFETCHU, NONE);
    AT(24); CHECK_OP(in, ALLOCA, U64); CHECK_IMM(in->ops[2], 16);
    AT(25); CHECK_OP(in, STACKSAVE, U64);
    AT(26); CHECK_OP(in, STACKRESTORE, U64); CHECK_REG(in->ops[0], RRD(3));
}

/* Every opcode in PTX_OPCODES, all the groups above in one kernel. */
TEST(parser_every_opcode_decodes)
{
    PARSE_OK(KP(CALL_PRE, G_MOV G_LDST G_VEC G_CACHE G_CVTA G_CVT G_INT G_FLT
                G_TRANS G_LOGIC G_BITS G_SETP G_SETPC G_SEL G_CTRL G_CALL G_BAR
                G_ATOM G_RED G_VOTE G_SHFL G_MISC G_EXT G_TEX G_NEW));
    unsigned seen[PTX_OP_COUNT] = { 0 };
    for (uint32_t i = 0; i < m->ninsns; i++) {
        CHECK(m->insns[i].op < PTX_OP_COUNT);
        seen[m->insns[i].op]++;
    }
    for (int op = 0; op < PTX_OP_COUNT; op++)
        CHECK_MSG(seen[op] > 0, "opcode '%s' is never decoded by the tests",
                  ptx_op_name((ptx_op_t)op));
    int k = ptx_find_function(m, "k");
    CHECK(k >= 0);
    CHECK_EQ(m->funcs[k].first + m->funcs[k].count, m->ninsns);
}

/* ======================= literals ======================= */

TEST(parser_float_immediates)
{
    PARSE_OK(K("mov.f32 %f1, 0f3F800000;\n"            /* 0 */
               "mov.f64 %fd1, 0d4008000000000000;\n"   /* 1 */
               "mov.f64 %fd1, 0f3F800000;\n"           /* 2 f32 literal in f64 */
               "mov.f32 %f1, 1.5;\n"                   /* 3 */
               "mov.f32 %f1, 0d3FF8000000000000;\n"    /* 4 f64 literal in f32 */
               "mov.f32 %f1, 2;\n"                     /* 5 integer in f32 */
               "mov.b32 %r1, 0f3F800000;\n"            /* 6 bits into .b32 */
               "mul.f64 %fd1, %fd2, 1.5;\n"            /* 7 */
               "add.f32 %f1, %f2, -1.5;\n"             /* 8 */
               "mov.f64 %fd1, 0.1;\n"                  /* 9 */
               "mov.f32 %f1, 0.1;\n"                   /* 10 */
               "mov.f32 %f1, 1e3;\n"                   /* 11 */
               "mov.f32 %f1, 0fFF800000;\n"            /* 12 -inf */
               "mov.f32 %f1, 0f7FC00000;\n"            /* 13 NaN stays */
               "mov.b64 %rd1, 0d4008000000000000;\n"   /* 14 */
               "fma.rn.f32 %f1, %f2, 0F40490FDB, %f3;\n" /* 15 upper-case F */
               "mov.f64 %fd1, -2;\n"));                 /* 16 */
    const ptx_insn_t *in;
    AT(0); CHECK_FIMM(in->ops[1], 0x3F800000u);
    AT(1); CHECK_FIMM(in->ops[1], 0x4008000000000000ull);
    AT(2); CHECK_FIMM(in->ops[1], 0x3FF0000000000000ull);
    AT(3); CHECK_FIMM(in->ops[1], 0x3FC00000u);
    AT(4); CHECK_FIMM(in->ops[1], 0x3FC00000u);
    AT(5); CHECK_FIMM(in->ops[1], 0x40000000u);
    AT(6); CHECK_IMM(in->ops[1], 0x3F800000u);
    AT(7); CHECK_FIMM(in->ops[2], 0x3FF8000000000000ull);
    AT(8); CHECK_FIMM(in->ops[2], 0xBFC00000u);
    AT(9); CHECK_FIMM(in->ops[1], f64bits(0.1));
    AT(10); CHECK_FIMM(in->ops[1], f32bits(0.1f));
    AT(11); CHECK_FIMM(in->ops[1], f32bits(1000.0f));
    AT(12); CHECK_FIMM(in->ops[1], 0xFF800000u);
    AT(13); CHECK_EQ(in->ops[1].is_float, 1);
    CHECK_MSG(((uint64_t)in->ops[1].imm & 0x7F800000u) == 0x7F800000u &&
              ((uint64_t)in->ops[1].imm & 0x7FFFFFu) != 0,
              "NaN literal became 0x%llx", (unsigned long long)in->ops[1].imm);
    AT(14); CHECK_IMM(in->ops[1], 0x4008000000000000ull);
    AT(15); CHECK_FIMM(in->ops[2], 0x40490FDBu);
    AT(16); CHECK_FIMM(in->ops[1], f64bits(-2.0));
}

TEST(parser_integer_immediates)
{
    PARSE_OK(K("mov.u32 %r1, 0x1F;\n"                  /* 0 */
               "mov.u32 %r1, 017;\n"                   /* 1 octal */
               "mov.u32 %r1, 0b101;\n"                 /* 2 */
               "mov.u32 %r1, -1;\n"                    /* 3 */
               "mov.u32 %r1, 10U;\n"                   /* 4 */
               "mov.u64 %rd1, 18446744073709551615;\n" /* 5 */
               "add.s32 %r1, %r2, -100003;\n"          /* 6 */
               "mov.u32 %r1, 0;\n"                     /* 7 */
               "mov.u32 %r1, 0XABCDEF;\n"              /* 8 */
               "mov.u64 %rd1, 0xFFFFFFFFFFFFFFFF;\n"   /* 9 */
               "mov.s64 %rd1, -9223372036854775807;\n" /* 10 */
               "mov.s32 %r1, -2147483648;\n"));        /* 11 */
    const ptx_insn_t *in;
    AT(0); CHECK_IMM(in->ops[1], 31); CHECK_EQ(in->ops[1].is_float, 0);
    AT(1); CHECK_IMM(in->ops[1], 15);
    AT(2); CHECK_IMM(in->ops[1], 5);
    AT(3); CHECK_IMM(in->ops[1], UINT64_MAX);
    AT(4); CHECK_IMM(in->ops[1], 10);
    AT(5); CHECK_IMM(in->ops[1], UINT64_MAX);
    AT(6); CHECK_IMM(in->ops[2], (uint64_t)(int64_t)-100003);
    AT(7); CHECK_IMM(in->ops[1], 0);
    AT(8); CHECK_IMM(in->ops[1], 0xABCDEF);
    AT(9); CHECK_IMM(in->ops[1], UINT64_MAX);
    AT(10); CHECK_IMM(in->ops[1], (uint64_t)(-INT64_MAX));
    AT(11); CHECK_IMM(in->ops[1], (uint64_t)(int64_t)INT32_MIN);
}

/* -9223372036854775808 is INT64_MIN: negating the literal must not
 * overflow (-(int64_t)v is undefined for v = 2^63; UBSan aborts there, hence
 * the child process). */
static void int64_min_body(void)
{
    PARSE_OK(K("mov.s64 %rd1, -9223372036854775808;\n"
               "mov.s64 %rd2, -0x8000000000000000;\n"
               "add.s64 %rd3, %rd1, -9223372036854775808;\n"));
    const ptx_insn_t *in;
    AT(0); CHECK_IMM(in->ops[1], 0x8000000000000000ull);
    AT(1); CHECK_IMM(in->ops[1], 0x8000000000000000ull);
    AT(2); CHECK_IMM(in->ops[2], 0x8000000000000000ull);
}

TEST(parser_integer_immediate_int64_min)
{
    ISOLATED(int64_min_body);
}

static void int64_min_init_body(void)
{
    PARSE_OK(PTX_HDR ".global .s64 g = -9223372036854775808;\n");
    int g = ptx_text_sym(m, "g");
    CHECK(g >= 0 && m->syms[g].init != NULL);
    for (unsigned i = 0; i < 7; i++)
        CHECK_EQ(m->syms[g].init[i], 0);
    CHECK_EQ(m->syms[g].init[7], 0x80);
}

TEST(parser_initializer_int64_min)
{
    ISOLATED(int64_min_init_body);
}

/* ======================= declarations ======================= */

TEST(parser_module_directives)
{
    PARSE_OK(".version 8.5\n.target sm_80\n.address_size 64\n"
             ".visible .entry k() { ret; }\n");
    CHECK_EQ(m->version_major, 8);
    CHECK_EQ(m->version_minor, 5);
    CHECK(strcmp(m->target, "sm_80") == 0);
    CHECK_EQ(m->address_size, 64);
    CHECK(strcmp(m->file, "t.ptx") == 0);
    CHECK_EQ(m->nfuncs, 1);
    CHECK(strcmp(m->funcs[0].name, "k") == 0);
    CHECK(m->funcs[0].is_entry);
    CHECK_EQ(m->funcs[0].count, 1);
    CHECK_EQ(m->funcs[0].nparams, 0);
}

TEST(parser_module_directives_variants)
{
    simt_error_t err;
    /* several targets; versions 6.x and 9.x; .file/.loc/.pragma skipped */
    const char *src =
        "// leading comment\n"
        ".version 9.1\n"
        ".target sm_90a, texmode_independent\n"
        ".address_size 64\n"
        ".file 1 \"kernel.cu\"\n"
        ".pragma \"nounroll\";\n"
        ".visible .entry k()\n"
        "{\n"
        ".loc 1 10 3\n"
        ".pragma \"nounroll\";\n"
        "ret;\n"
        "}\n";
    const ptx_module_t *m = ptx_text_parse(src, &err);
    CHECK_MSG(m != NULL, "%s", err.msg);
    CHECK_EQ(m->version_major, 9);
    CHECK_EQ(m->version_minor, 1);
    CHECK(strcmp(m->target, "sm_90a") == 0);
    CHECK_EQ(m->ninsns, 1);
    CHECK_EQ(m->insns[0].line, 11);
    m = ptx_text_parse(".version 6.0\n.target sm_30\n.address_size 64\n", &err);
    CHECK_MSG(m != NULL, "%s", err.msg);
    CHECK_EQ(m->version_major, 6);
    CHECK_EQ(m->version_minor, 0);
    CHECK_EQ(m->nfuncs, 0);
    CHECK_EQ(m->ninsns, 0);
}

/* Only `len` bytes are the input: what follows in memory must not leak into
 * the module (the version number is the last token here). */
TEST(parser_version_respects_len)
{
    static const char text[] = ".version 8.5" "1234\n";
    simt_error_t err;
    const ptx_module_t *m = ptx_text_parse_n(text, strlen(".version 8.5"), &err);
    CHECK_MSG(m != NULL, "%s", err.msg);
    CHECK_EQ(m->version_major, 8);
    CHECK_EQ(m->version_minor, 5);
}

TEST(parser_comments_and_positions)
{
    PARSE_OK(PTX_HDR                                   /* lines 1-3 */
             "/* a block comment\n"                    /* 4 */
             "   over two lines */ .visible .entry k(\n" /* 5 */
             ".param .u32 a // trailing\n"             /* 6 */
             ")\n"                                     /* 7 */
             "{\n"                                     /* 8 */
             "\t.reg .b32 %r<3>; /* inline */ .reg .pred %p1;\n" /* 9 */
             "\tld.param.u32 %r1, [a]; // comment\n"   /* 10 */
             "/**/add.s32 /* x */ %r2, %r1, 1;\n"      /* 11 */
             "  @%p1   bra $L1;\n"                     /* 12 */
             "$L1: mov.u32 %r0, 3; mov.u32 %r1, 4;\n"  /* 13 */
             "//ret;\n"                                /* 14 */
             "\tret; }\n");                            /* 15 */
    const ptx_insn_t *in;
    int k = ptx_find_function(m, "k");
    CHECK(k >= 0);
    CHECK_EQ(m->funcs[k].line, 5);
    CHECK_EQ(m->funcs[k].col, 31);
    CHECK_EQ(m->funcs[k].count, 6);
    AT(0); CHECK_OP(in, LD, U32); CHECK_EQ(in->line, 10); CHECK_EQ(in->col, 2);
    AT(1); CHECK_OP(in, ADD, S32); CHECK_EQ(in->line, 11); CHECK_EQ(in->col, 5);
    CHECK_REG(in->ops[0], 2);
    AT(2); CHECK_OP(in, BRA, NONE); CHECK_EQ(in->line, 12); CHECK_EQ(in->col, 10);
    CHECK_EQ(in->guard, 3);
    AT(3); CHECK_EQ(in->line, 13); CHECK_EQ(in->col, 6); CHECK_IMM(in->ops[1], 3);
    AT(4); CHECK_EQ(in->line, 13); CHECK_EQ(in->col, 22); CHECK_IMM(in->ops[1], 4);
    AT(5); CHECK_OP(in, RET, NONE); CHECK_EQ(in->line, 15); CHECK_EQ(in->col, 2);
    int a = ptx_text_sym(m, "a");
    CHECK(a >= 0);
    CHECK_EQ(m->syms[a].line, 6);
    CHECK_EQ(m->syms[a].col, 13);
    /* the source is kept for reports */
    char buf[64];
    CHECK(strcmp(ptx_source_line(m, 10, buf, sizeof buf),
                 "ld.param.u32 %r1, [a]; // comment") == 0);
    CHECK(m->nlines >= 15);
}

TEST(parser_crlf_line_endings)
{
    PARSE_OK(".version 9.0\r\n.target sm_75\r\n.address_size 64\r\n"
             ".visible .entry k()\r\n{\r\n.reg .b32 %r1;\r\n"
             "mov.u32 %r1, 1;\r\nret;\r\n}\r\n");
    const ptx_insn_t *in;
    AT(0); CHECK_EQ(in->line, 7); CHECK_EQ(in->col, 1);
    AT(1); CHECK_EQ(in->line, 8);
}

/* Kernel parameters, including the pointer attributes nvcc and clang emit
 * after the type: `.param .u64 .ptr.global.align 8 name`,
 * `.param .u32 .ptr .align 32 name` (PTX ISA "Kernel parameter attribute:
 * .ptr"). */
TEST(parser_entry_params)
{
    PARSE_OK(PTX_HDR
             ".visible .entry k(\n"
             ".param .u64 .ptr.global.align 8 k_p0,\n"
             ".param .u32 k_p1,\n"
             ".param .align 8 .b8 k_p2[12],\n"
             ".param .f64 k_p3,\n"
             ".param .u8 k_p4,\n"
             ".param .v2 .f32 k_p5,\n"
             ".param .u64 .ptr .align 32 k_p6\n"
             ")\n"
             "{\n"
             ".reg .b64 %rd<2>;\n"
             "ld.param.u64 %rd1, [k_p2+4];\n"
             "ret;\n"
             "}\n");
    int k = ptx_find_function(m, "k");
    CHECK(k >= 0);
    const ptx_function_t *f = &m->funcs[k];
    CHECK(f->is_entry);
    CHECK_EQ(f->nparams, 7);
    CHECK_EQ(f->nrets, 0);
    static const struct { const char *name; uint8_t type; uint64_t size, off;
                          uint32_t align; } e[] = {
        { "k_p0", PTX_T_U64, 8, 0, 8 },  { "k_p1", PTX_T_U32, 4, 8, 4 },
        { "k_p2", PTX_T_B8, 12, 16, 8 }, { "k_p3", PTX_T_F64, 8, 32, 8 },
        { "k_p4", PTX_T_U8, 1, 40, 1 },  { "k_p5", PTX_T_F32, 8, 48, 8 },
        /* .ptr .align N is the alignment of the memory pointed to */
        { "k_p6", PTX_T_U64, 8, 56, 8 },
    };
    for (uint32_t i = 0; i < 7; i++) {
        const ptx_symbol_t *s = &m->syms[f->params[i]];
        CHECK_MSG(strcmp(s->name, e[i].name) == 0 && s->type == e[i].type &&
                  s->size == e[i].size && s->offset == e[i].off &&
                  s->align == e[i].align && s->kind == PTX_SYM_KPARAM &&
                  s->space == PTX_SPACE_PARAM && s->func == (uint32_t)k,
                  "param %u: %s type %u size %llu off %llu align %u kind %u",
                  i, s->name, s->type, (unsigned long long)s->size,
                  (unsigned long long)s->offset, s->align, s->kind);
    }
    CHECK_EQ(f->param_bytes, 64);
    const ptx_insn_t *in;
    AT(0); CHECK_ADDR_S(in->ops[1], "k_p2", 4);
}

TEST(parser_func_params_rets_and_frame)
{
    PARSE_OK(PTX_HDR
             ".func (.param .b32 rv) f(.param .b64 a, .param .b32 b,\n"
             "                         .param .align 8 .b8 c[12])\n"
             "{\n"
             ".local .align 4 .b8 depot[8];\n"
             ".reg .b32 %r<2>;\n"
             "ld.param.b32 %r1, [b];\n"
             "st.local.u32 [depot+4], %r1;\n"
             "st.param.b32 [rv], %r1;\n"
             "ret;\n"
             "}\n"
             ".func g\n"
             "{\n"
             "ret;\n"
             "}\n");
    int fi = ptx_find_function(m, "f");
    CHECK(fi >= 0);
    const ptx_function_t *f = &m->funcs[fi];
    CHECK(!f->is_entry);
    CHECK_EQ(f->nrets, 1);
    CHECK_EQ(f->nparams, 3);
    const ptx_symbol_t *rv = &m->syms[f->rets[0]];
    CHECK(strcmp(rv->name, "rv") == 0);
    CHECK_EQ(rv->kind, PTX_SYM_FPARAM); CHECK_EQ(rv->offset, 0); CHECK_EQ(rv->size, 4);
    const ptx_symbol_t *a = &m->syms[f->params[0]];
    const ptx_symbol_t *b = &m->syms[f->params[1]];
    const ptx_symbol_t *c = &m->syms[f->params[2]];
    CHECK(strcmp(a->name, "a") == 0 && strcmp(b->name, "b") == 0 &&
          strcmp(c->name, "c") == 0);
    CHECK_EQ(a->kind, PTX_SYM_FPARAM); CHECK_EQ(a->offset, 8); CHECK_EQ(a->size, 8);
    CHECK_EQ(b->offset, 16); CHECK_EQ(b->size, 4);
    CHECK_EQ(c->offset, 24); CHECK_EQ(c->size, 12); CHECK_EQ(c->align, 8);
    int d = ptx_text_sym(m, "depot");
    CHECK(d >= 0);
    CHECK_EQ(m->syms[d].space, PTX_SPACE_LOCAL); CHECK_EQ(m->syms[d].kind, PTX_SYM_VAR);
    CHECK_EQ(m->syms[d].offset, 36); CHECK_EQ(m->syms[d].size, 8);
    CHECK_EQ(m->syms[d].func, (uint32_t)fi);
    CHECK_EQ(f->frame_bytes, 44);
    const ptx_insn_t *in = &m->insns[f->first + 1];
    CHECK_OP(in, ST, U32); CHECK_EQ(in->space, PTX_SPACE_LOCAL);
    CHECK_ADDR_S(in->ops[0], "depot", 4);
    int g = ptx_find_function(m, "g");
    CHECK(g >= 0);
    CHECK_EQ(m->funcs[g].nparams, 0); CHECK_EQ(m->funcs[g].nrets, 0);
    CHECK_EQ(m->funcs[g].count, 1);
}

TEST(parser_prototype_then_definition)
{
    PARSE_OK(PTX_HDR
             ".extern .func (.param .b32 r) add1(.param .b32 x);\n"
             ".func (.param .b32 r) add1(.param .b32 x);\n"  /* repeated */
             ".visible .entry k()\n"
             "{\n"
             ".param .b32 param0;\n"
             ".param .b32 retval0;\n"
             "st.param.b32 [param0], 1;\n"
             "call.uni (retval0), add1, (param0);\n"
             "ret;\n"
             "}\n"
             ".func (.param .b32 r) add1(.param .b32 x)\n"
             "{\n"
             ".reg .b32 %r<2>;\n"
             "ld.param.b32 %r1, [x];\n"
             "add.s32 %r1, %r1, 1;\n"
             "st.param.b32 [r], %r1;\n"
             "ret;\n"
             "}\n");
    int def = ptx_find_function(m, "add1");
    int k = ptx_find_function(m, "k");
    CHECK(def >= 0 && k >= 0);
    CHECK_EQ(m->funcs[def].count, 4);
    CHECK_EQ(m->funcs[def].nparams, 1);
    CHECK_EQ(m->funcs[def].nrets, 1);
    /* the definition's own parameter symbols are the ones its body uses */
    const ptx_insn_t *in = &m->insns[m->funcs[def].first];
    CHECK_EQ(in->ops[1].kind, PTX_OPND_ADDR);
    CHECK_EQ(in->ops[1].sym, m->funcs[def].params[0]);
    CHECK_EQ(m->syms[in->ops[1].sym].func, (uint32_t)def);
    AT(1); CHECK_OP(in, CALL, NONE); CHECK_EQ(in->ops[1].kind, PTX_OPND_FUNC);
    CHECK_EQ(in->ops[1].imm, def);
    /* prototypes stay as empty records */
    unsigned empty = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].count == 0) {
            empty++;
            CHECK(strcmp(m->funcs[i].name, "add1") == 0);
        }
    CHECK(empty >= 1);
    CHECK_EQ(m->nfuncs, empty + 2);
}

TEST(parser_performance_directives)
{
    PARSE_OK(PTX_HDR
             ".visible .entry k1() .maxntid 256, 1, 1 .minnctapersm 2\n"
             "{ ret; }\n"
             ".visible .entry k2\n"
             ".reqntid 128, 2\n"
             ".maxnreg 32\n"
             "{ ret; }\n"
             ".visible .entry k3(.param .u32 n) .maxntid 64 { ret; }\n"
             ".visible .entry k4() { ret; }\n");
    int k1 = ptx_find_function(m, "k1"), k2 = ptx_find_function(m, "k2");
    int k3 = ptx_find_function(m, "k3"), k4 = ptx_find_function(m, "k4");
    CHECK(k1 >= 0 && k2 >= 0 && k3 >= 0 && k4 >= 0);
    const ptx_function_t *f = &m->funcs[k1];
    CHECK_EQ(f->maxntid[0], 256); CHECK_EQ(f->maxntid[1], 1); CHECK_EQ(f->maxntid[2], 1);
    CHECK_EQ(f->minnctapersm, 2);
    CHECK_EQ(f->reqntid[0], 0); CHECK_EQ(f->maxnreg, 0);
    f = &m->funcs[k2];
    CHECK_EQ(f->reqntid[0], 128); CHECK_EQ(f->reqntid[1], 2); CHECK_EQ(f->reqntid[2], 1);
    CHECK_EQ(f->maxnreg, 32);
    CHECK_EQ(f->maxntid[0], 0);
    f = &m->funcs[k3];
    CHECK_EQ(f->maxntid[0], 64); CHECK_EQ(f->maxntid[1], 1); CHECK_EQ(f->maxntid[2], 1);
    CHECK_EQ(f->nparams, 1); CHECK_EQ(f->param_bytes, 4);
    f = &m->funcs[k4];
    CHECK_EQ(f->maxntid[0], 0); CHECK_EQ(f->reqntid[0], 0);
    CHECK_EQ(f->maxnreg, 0); CHECK_EQ(f->minnctapersm, 0);
}

TEST(parser_reg_ranges_and_lists)
{
    PARSE_OK(PTX_HDR
             ".visible .entry k()\n"
             "{\n"
             ".reg .pred %p<3>;\n"
             ".reg .b32 %r<4>, %a, %b;\n"
             ".reg .f32 %x, %y<2>;\n"
             ".reg .b64 %rd<1>;\n"
             ".reg .u16 %hs;\n"
             ".reg .f64 %fd<0>;\n"
             "mov.u32 %b, %r3;\n"
             "mov.f32 %y1, %x;\n"
             "mov.u64 %rd0, 0;\n"
             "ret;\n"
             "}\n");
    int k = ptx_find_function(m, "k");
    CHECK(k >= 0);
    const ptx_function_t *f = &m->funcs[k];
    static const struct { const char *name; uint8_t type; } e[] = {
        { "%p0", PTX_T_PRED }, { "%p1", PTX_T_PRED }, { "%p2", PTX_T_PRED },
        { "%r0", PTX_T_B32 },  { "%r1", PTX_T_B32 },  { "%r2", PTX_T_B32 },
        { "%r3", PTX_T_B32 },  { "%a", PTX_T_B32 },   { "%b", PTX_T_B32 },
        { "%x", PTX_T_F32 },   { "%y0", PTX_T_F32 },  { "%y1", PTX_T_F32 },
        { "%rd0", PTX_T_B64 }, { "%hs", PTX_T_U16 },
    };
    CHECK_EQ(f->nregs, sizeof e / sizeof *e);
    for (uint32_t i = 0; i < f->nregs; i++)
        CHECK_MSG(strcmp(f->regs[i].name, e[i].name) == 0 &&
                  f->regs[i].type == e[i].type,
                  "reg %u: %s type %u, expected %s", i, f->regs[i].name,
                  f->regs[i].type, e[i].name);
    const ptx_insn_t *in;
    AT(0); CHECK_REG(in->ops[0], 8); CHECK_REG(in->ops[1], 6);
    AT(1); CHECK_REG(in->ops[0], 11); CHECK_REG(in->ops[1], 9);
    AT(2); CHECK_REG(in->ops[0], 12);
}

/* Registers are numbered per function. */
TEST(parser_registers_per_function)
{
    PARSE_OK(PTX_HDR
             ".func f()\n{\n.reg .b32 %r<3>;\nmov.u32 %r2, 1;\nret;\n}\n"
             ".visible .entry k()\n{\n.reg .b64 %r<2>;\nmov.u64 %r1, 1;\nret;\n}\n");
    int f = ptx_find_function(m, "f"), k = ptx_find_function(m, "k");
    CHECK(f >= 0 && k >= 0);
    CHECK_EQ(m->funcs[f].nregs, 3);
    CHECK_EQ(m->funcs[k].nregs, 2);
    CHECK_EQ(m->funcs[k].regs[1].type, PTX_T_B64);
    CHECK_EQ(m->insns[m->funcs[f].first].ops[0].reg, 2);
    CHECK_EQ(m->insns[m->funcs[k].first].ops[0].reg, 1);
    CHECK_EQ(m->insns[m->funcs[k].first].func, (uint32_t)k);
}

TEST(parser_module_variables)
{
    PARSE_OK(PTX_HDR
             ".global .align 8 .u64 gp;\n"
             ".global .u32 garr[10];\n"
             ".const .align 4 .b8 c0[3];\n"
             ".const .align 8 .u64 c1;\n"
             ".const .f32 c2[2][3];\n"
             ".shared .align 4 .b8 s0[6];\n"
             ".shared .align 8 .u64 s1;\n"
             ".shared .align 4 .f32 tile[16][17];\n"
             ".extern .shared .align 16 .b8 dsm[];\n"
             ".visible .global .align 4 .s32 vis;\n"
             ".global .v4 .f32 gv4;\n"
             ".global .v2 .u64 gv2[3];\n"
             ".visible .entry k()\n"
             "{\n"
             ".reg .b64 %rd<3>;\n"
             ".reg .b32 %r<3>;\n"
             "ld.global.u64 %rd1, [gp];\n"
             "ld.global.u32 %r1, [garr+36];\n"
             "ld.const.u64 %rd2, [c1];\n"
             "ld.shared.u32 %r2, [dsm+-0];\n"
             "mov.u64 %rd1, tile;\n"
             "st.global.s32 [vis], %r1;\n"
             "ret;\n"
             "}\n");
    static const struct { const char *name; uint8_t space, type; uint64_t size;
                          uint32_t align; uint8_t ext; } e[] = {
        { "gp", PTX_SPACE_GLOBAL, PTX_T_U64, 8, 8, 0 },
        { "garr", PTX_SPACE_GLOBAL, PTX_T_U32, 40, 4, 0 },
        { "c0", PTX_SPACE_CONST, PTX_T_B8, 3, 4, 0 },
        { "c1", PTX_SPACE_CONST, PTX_T_U64, 8, 8, 0 },
        { "c2", PTX_SPACE_CONST, PTX_T_F32, 24, 4, 0 },
        { "s0", PTX_SPACE_SHARED, PTX_T_B8, 6, 4, 0 },
        { "s1", PTX_SPACE_SHARED, PTX_T_U64, 8, 8, 0 },
        { "tile", PTX_SPACE_SHARED, PTX_T_F32, 16 * 17 * 4, 4, 0 },
        { "dsm", PTX_SPACE_SHARED, PTX_T_B8, 0, 16, 1 },
        { "vis", PTX_SPACE_GLOBAL, PTX_T_S32, 4, 4, 0 },
        { "gv4", PTX_SPACE_GLOBAL, PTX_T_F32, 16, 16, 0 },
        { "gv2", PTX_SPACE_GLOBAL, PTX_T_U64, 48, 16, 0 },
    };
    for (uint32_t i = 0; i < sizeof e / sizeof *e; i++) {
        int si = ptx_text_sym(m, e[i].name);
        CHECK_MSG(si >= 0, "no symbol %s", e[i].name);
        const ptx_symbol_t *s = &m->syms[si];
        CHECK_MSG(s->kind == PTX_SYM_VAR && s->space == e[i].space &&
                  s->type == e[i].type && s->size == e[i].size &&
                  s->align == e[i].align && s->is_extern == e[i].ext &&
                  s->func == ~0u && s->init == NULL,
                  "%s: kind %u space %u type %u size %llu align %u extern %u "
                  "func %u", s->name, s->kind, s->space, s->type,
                  (unsigned long long)s->size, s->align, s->is_extern, s->func);
    }
    /* layouts: .const bank, module .shared, module .global */
    CHECK_EQ(m->syms[ptx_text_sym(m, "c0")].offset, 0);
    CHECK_EQ(m->syms[ptx_text_sym(m, "c1")].offset, 8);
    CHECK_EQ(m->syms[ptx_text_sym(m, "c2")].offset, 16);
    CHECK_EQ(m->const_bytes, 40);
    CHECK_EQ(m->syms[ptx_text_sym(m, "s0")].offset, 0);
    CHECK_EQ(m->syms[ptx_text_sym(m, "s1")].offset, 8);
    CHECK_EQ(m->syms[ptx_text_sym(m, "tile")].offset, 16);
    CHECK_EQ(m->shared_bytes, 16 + 16 * 17 * 4);
    CHECK_EQ(m->syms[ptx_text_sym(m, "gp")].offset, 0);
    CHECK_EQ(m->syms[ptx_text_sym(m, "garr")].offset, 8);
    CHECK_EQ(m->syms[ptx_text_sym(m, "vis")].offset, 48);
    CHECK_EQ(m->syms[ptx_text_sym(m, "gv4")].offset, 64);
    CHECK_EQ(m->syms[ptx_text_sym(m, "gv2")].offset, 80);
    CHECK_EQ(m->global_bytes, 128);
    const ptx_insn_t *in;
    AT(0); CHECK_ADDR_S(in->ops[1], "gp", 0);
    AT(1); CHECK_ADDR_S(in->ops[1], "garr", 36);
    AT(2); CHECK_ADDR_S(in->ops[1], "c1", 0);
    AT(3); CHECK_ADDR_S(in->ops[1], "dsm", 0);
    AT(4); CHECK_EQ(in->ops[1].kind, PTX_OPND_SYM);
    CHECK_EQ(in->ops[1].sym, (uint32_t)ptx_text_sym(m, "tile"));
    AT(5); CHECK_ADDR_S(in->ops[0], "vis", 0);
    int k = ptx_find_function(m, "k");
    CHECK_EQ(ptx_kernel_shared_bytes(m, (uint32_t)k), 16 + 16 * 17 * 4);
}

TEST(parser_initializers)
{
    PARSE_OK(PTX_HDR
             ".global .u32 gv = 42;\n"
             ".global .f32 gf = 1.5;\n"
             ".global .s32 gneg = -2;\n"
             ".const .align 4 .b8 cb[4] = {1, 2, 3, 255};\n"
             ".const .u16 ch[2][2] = {{1, 2}, {3, 4}};\n"
             ".const .f64 cd = 0d4008000000000000;\n"
             ".const .u32 cp[4] = {7};\n"
             ".const .f32 cf[2] = {0f3F800000, 2};\n"
             ".global .b32 gbits = 0f40000000;\n"
             ".global .u64 g64 = 0x123456789ABCDEF0;\n"
             ".global .f64 gd = -0.5;\n");
    struct { const char *name; unsigned n; uint8_t b[16]; } e[] = {
        { "gv", 4, { 42, 0, 0, 0 } },
        { "gf", 4, { 0x00, 0x00, 0xC0, 0x3F } },
        { "gneg", 4, { 0xFE, 0xFF, 0xFF, 0xFF } },
        { "cb", 4, { 1, 2, 3, 255 } },
        { "ch", 8, { 1, 0, 2, 0, 3, 0, 4, 0 } },
        { "cd", 8, { 0, 0, 0, 0, 0, 0, 0x08, 0x40 } },
        { "cp", 16, { 7, 0, 0, 0 } },
        { "cf", 8, { 0, 0, 0x80, 0x3F, 0, 0, 0, 0x40 } },
        { "gbits", 4, { 0, 0, 0, 0x40 } },
        { "g64", 8, { 0xF0, 0xDE, 0xBC, 0x9A, 0x78, 0x56, 0x34, 0x12 } },
        { "gd", 8, { 0, 0, 0, 0, 0, 0, 0xE0, 0xBF } },
    };
    for (unsigned i = 0; i < sizeof e / sizeof *e; i++) {
        int si = ptx_text_sym(m, e[i].name);
        CHECK_MSG(si >= 0, "no symbol %s", e[i].name);
        const ptx_symbol_t *s = &m->syms[si];
        CHECK_MSG(s->size == e[i].n, "%s: size %llu", s->name,
                  (unsigned long long)s->size);
        CHECK_MSG(s->init != NULL, "%s: no initializer", s->name);
        for (unsigned b = 0; b < e[i].n; b++)
            CHECK_MSG(s->init[b] == e[i].b[b], "%s: byte %u is 0x%02x, "
                      "expected 0x%02x", s->name, b, s->init[b], e[i].b[b]);
    }
    CHECK_EQ(m->nfuncs, 0);
}

TEST(parser_kernel_local_and_shared)
{
    PARSE_OK(PTX_HDR
             ".shared .align 4 .b8 modsh[12];\n"
             ".func f()\n"
             "{\n"
             ".shared .align 8 .b8 fsh[16];\n"
             "ret;\n"
             "}\n"
             ".visible .entry k()\n"
             "{\n"
             ".local .align 8 .b8 __local_depot0[32];\n"
             ".shared .align 4 .b8 buf[1024];\n"
             ".shared .align 16 .f32 v[3];\n"
             ".local .u32 l1;\n"
             "ret;\n"
             "}\n");
    int k = ptx_find_function(m, "k"), f = ptx_find_function(m, "f");
    CHECK(k >= 0 && f >= 0);
    const ptx_symbol_t *s;
    s = &m->syms[ptx_text_sym(m, "__local_depot0")];
    CHECK_EQ(s->space, PTX_SPACE_LOCAL); CHECK_EQ(s->offset, 0); CHECK_EQ(s->size, 32);
    CHECK_EQ(s->align, 8); CHECK_EQ(s->func, (uint32_t)k);
    s = &m->syms[ptx_text_sym(m, "l1")];
    CHECK_EQ(s->offset, 32); CHECK_EQ(s->size, 4);
    CHECK_EQ(m->funcs[k].frame_bytes, 36);
    s = &m->syms[ptx_text_sym(m, "buf")];
    CHECK_EQ(s->space, PTX_SPACE_SHARED); CHECK_EQ(s->offset, 0); CHECK_EQ(s->size, 1024);
    CHECK_EQ(s->func, (uint32_t)k);
    s = &m->syms[ptx_text_sym(m, "v")];
    CHECK_EQ(s->offset, 1024); CHECK_EQ(s->size, 12); CHECK_EQ(s->align, 16);
    CHECK_EQ(m->funcs[k].shared_bytes, 1036);
    /* .shared in a .func lives in the module region */
    s = &m->syms[ptx_text_sym(m, "fsh")];
    CHECK_EQ(s->func, ~0u); CHECK_EQ(s->offset, 16); CHECK_EQ(s->size, 16);
    CHECK_EQ(m->syms[ptx_text_sym(m, "modsh")].offset, 0);
    CHECK_EQ(m->shared_bytes, 32);
    CHECK_EQ(ptx_kernel_shared_bytes(m, (uint32_t)k), 32 + 1036);
}

TEST(parser_address_forms)
{
    PARSE_OK(KP(".global .align 4 .u32 gtab[64];\n",
                "ld.global.u32 %r1, [%rd1];\n"        /* 0 [reg] */
                "ld.global.u32 %r1, [%rd1+12];\n"     /* 1 [reg+imm] */
                "ld.global.u32 %r1, [%rd1+-4];\n"     /* 2 [reg+-4] */
                "ld.global.u32 %r1, [%rd1-8];\n"      /* 3 [reg-8] */
                "ld.global.u32 %r1, [gtab];\n"        /* 4 [var] */
                "ld.global.u32 %r1, [gtab+252];\n"    /* 5 [var+imm] */
                "ld.global.u32 %r1, [4096];\n"        /* 6 [imm] */
                "ld.global.u32 %r1, [0x1000+16];\n"   /* 7 [imm+imm] */
                "st.shared.u32 [%r2+0x10], %r1;\n"    /* 8 hex offset */
                "ld.global.u32 %r1, [ %rd1 + 4 ];\n"  /* 9 spaces */
                "ld.param.u32 %r1, [k_p1];\n"));      /* 10 */
    const ptx_insn_t *in;
    AT(0); CHECK_ADDR_R(in->ops[1], RRD(1), 0);
    AT(1); CHECK_ADDR_R(in->ops[1], RRD(1), 12);
    AT(2); CHECK_ADDR_R(in->ops[1], RRD(1), -4);
    AT(3); CHECK_ADDR_R(in->ops[1], RRD(1), -8);
    AT(4); CHECK_ADDR_S(in->ops[1], "gtab", 0);
    AT(5); CHECK_ADDR_S(in->ops[1], "gtab", 252);
    AT(6); CHECK_EQ(in->ops[1].kind, PTX_OPND_ADDR); CHECK_EQ(in->ops[1].has_reg, 0);
    CHECK_EQ(in->ops[1].sym, PTX_NO_SYM); CHECK_EQ(in->ops[1].imm, 4096);
    AT(7); CHECK_EQ(in->ops[1].imm, 0x1010); CHECK_EQ(in->ops[1].sym, PTX_NO_SYM);
    AT(8); CHECK_ADDR_R(in->ops[0], RR(2), 16);
    AT(9); CHECK_ADDR_R(in->ops[1], RRD(1), 4);
    AT(10); CHECK_ADDR_S(in->ops[1], "k_p1", 0);
    CHECK_EQ(m->syms[in->ops[1].sym].kind, PTX_SYM_KPARAM);
}

/* nvcc's call sequences: { .reg/.param ... call ... } repeated, with the same
 * names redeclared in each block, and an inner .reg shadowing an outer one. */
TEST(parser_nested_scopes_and_shadowing)
{
    PARSE_OK(PTX_HDR
             ".func (.param .b32 rv) g(.param .b32 a)\n"
             "{\n"
             ".reg .b32 %r<2>;\n"
             "ld.param.b32 %r1, [a];\n"
             "st.param.b32 [rv+0], %r1;\n"
             "ret;\n"
             "}\n"
             ".visible .entry k()\n"
             "{\n"
             ".reg .b32 %r<4>;\n"
             "{ // callseq 0, 0\n"
             ".reg .b32 temp_param_reg;\n"
             ".param .b32 param0;\n"
             "st.param.b32 [param0+0], %r1;\n"            /* 0 */
             ".param .b32 retval0;\n"
             "call.uni (retval0), \ng, \n(\nparam0\n);\n" /* 1 */
             "ld.param.b32 %r2, [retval0+0];\n"           /* 2 */
             "} // callseq 0\n"
             "{ // callseq 1, 0\n"
             ".reg .b32 temp_param_reg;\n"
             ".reg .b32 %r1;\n"
             ".param .b32 param0;\n"
             "mov.u32 %r1, 5;\n"                          /* 3 */
             "st.param.b32 [param0+0], %r1;\n"            /* 4 */
             ".param .b32 retval0;\n"
             "call.uni (retval0), g, (param0);\n"         /* 5 */
             "ld.param.b32 %r3, [retval0+0];\n"           /* 6 */
             "{\n"
             "{\n"
             ".reg .pred %r1;\n"
             "setp.eq.s32 %r1, %r3, 0;\n"                 /* 7 */
             "}\n"
             "}\n"
             "}\n"
             "add.u32 %r0, %r1, %r2;\n"                   /* 8 */
             "ret;\n"
             "}\n");
    int k = ptx_find_function(m, "k"), g = ptx_find_function(m, "g");
    CHECK(k >= 0 && g >= 0);
    const ptx_function_t *f = &m->funcs[k];
    /* %r0-3, temp_param_reg, temp_param_reg, %r1 (b32), %r1 (pred) */
    CHECK_EQ(f->nregs, 8);
    CHECK(strcmp(f->regs[4].name, "temp_param_reg") == 0);
    CHECK(strcmp(f->regs[5].name, "temp_param_reg") == 0);
    CHECK(strcmp(f->regs[6].name, "%r1") == 0);
    CHECK_EQ(f->regs[7].type, PTX_T_PRED);
    const ptx_insn_t *in;
    uint32_t p0a, p0b;
    AT(0); CHECK_REG(in->ops[1], 1); CHECK_ADDR_S(in->ops[0], "param0", 0);
    p0a = in->ops[0].sym;
    AT(1); CHECK_OP(in, CALL, NONE); CHECK_EQ(in->ops[1].imm, g);
    CHECK_EQ(m->call_lists[in->ops[2].imm], p0a);
    AT(3); CHECK_REG(in->ops[0], 6); CHECK_IMM(in->ops[1], 5);
    AT(4); CHECK_REG(in->ops[1], 6); p0b = in->ops[0].sym;
    CHECK(p0a != p0b);
    CHECK_EQ(m->syms[p0a].kind, PTX_SYM_CPARAM);
    CHECK_EQ(m->syms[p0b].kind, PTX_SYM_CPARAM);
    AT(5); CHECK_EQ(m->call_lists[in->ops[2].imm], p0b);
    CHECK(m->call_lists[in->ops[0].imm] != m->call_lists[in[-4].ops[0].imm]);
    AT(7); CHECK_REG(in->ops[0], 7);
    AT(8); CHECK_REG(in->ops[1], 1); CHECK_REG(in->ops[2], 2);
    CHECK_EQ(f->count, 10);
    /* four .param .b32 in the frame */
    CHECK_EQ(f->frame_bytes, 16);
}

/* ======================= real nvcc output ======================= */

TEST(parser_kernel_files)
{
    static const struct { const char *path; unsigned nfuncs; const char *names[3];
                          int entry[3]; } e[] = {
        { "tests/kernels/devfunc/kernel.ptx", 3,
          { "_Z9clamp_addii", "_Z3mixiii", "devfunc" }, { 0, 0, 1 } },
        { "tests/kernels/divergent/kernel.ptx", 1, { "divergent" }, { 1 } },
        { "tests/kernels/dpmath/kernel.ptx", 1, { "dpmath" }, { 1 } },
        { "tests/kernels/histogram/kernel.ptx", 2,
          { "hist_global", "hist_shared" }, { 1, 1 } },
        { "tests/kernels/nestedloops/kernel.ptx", 1, { "tri_matmul" }, { 1 } },
        { "tests/kernels/reduction/kernel.ptx", 1, { "reduce_sum" }, { 1 } },
        { "tests/kernels/vecadd/kernel.ptx", 1, { "vecadd" }, { 1 } },
        { "tests/kernels/warpvote/kernel.ptx", 2,
          { "warp_full", "warp_partial" }, { 1, 1 } },
    };
    for (unsigned i = 0; i < sizeof e / sizeof *e; i++) {
        size_t len = 0;
        char *text = ptx_text_read_file(e[i].path, &len);
        CHECK_MSG(text != NULL, "cannot read %s (run from the repository root)",
                  e[i].path);
        simt_error_t err;
        const ptx_module_t *m = ptx_text_parse_n(text, len, &err);
        free(text);
        CHECK_MSG(m != NULL, "%s: %s", e[i].path, err.msg);
        CHECK_EQ(m->version_major, 9);
        CHECK(strcmp(m->target, "sm_75") == 0);
        CHECK_EQ(m->address_size, 64);
        CHECK_MSG(m->nfuncs == e[i].nfuncs, "%s: %u functions", e[i].path,
                  m->nfuncs);
        uint32_t total = 0;
        for (unsigned f = 0; f < e[i].nfuncs; f++) {
            CHECK_MSG(strcmp(m->funcs[f].name, e[i].names[f]) == 0,
                      "%s: function %u is %s", e[i].path, f, m->funcs[f].name);
            CHECK_EQ(m->funcs[f].is_entry, e[i].entry[f]);
            CHECK(m->funcs[f].count > 0);
            CHECK_EQ(m->funcs[f].first, total);
            total += m->funcs[f].count;
            const ptx_insn_t *last = &m->insns[m->funcs[f].first +
                                               m->funcs[f].count - 1];
            CHECK_EQ(last->op, PTX_OP_RET);
        }
        CHECK_EQ(total, m->ninsns);
    }
}

/* Spot checks of the decoded IR of real nvcc output. */
TEST(parser_kernel_file_details)
{
    size_t len = 0;
    char *text = ptx_text_read_file("tests/kernels/reduction/kernel.ptx", &len);
    CHECK(text != NULL);
    simt_error_t err;
    const ptx_module_t *m = ptx_text_parse_n(text, len, &err);
    free(text);
    CHECK_MSG(m != NULL, "%s", err.msg);
    const ptx_function_t *f = &m->funcs[0];
    CHECK_EQ(f->nparams, 3);
    CHECK_EQ(f->param_bytes, 20);
    CHECK_EQ(f->shared_bytes, 1024);
    CHECK_EQ(f->nregs, 6 + 23 + 9);
    int buf = ptx_text_sym(m, "_ZZ10reduce_sumE3buf");
    CHECK(buf >= 0);
    CHECK_EQ(m->syms[buf].size, 1024); CHECK_EQ(m->syms[buf].align, 4);
    /* "bar.sync 0;" */
    unsigned bars = 0;
    for (uint32_t i = f->first; i < f->first + f->count; i++)
        if (m->insns[i].op == PTX_OP_BAR) {
            CHECK_EQ(m->insns[i].sub, PTX_SUB_SYNC);
            CHECK_IMM(m->insns[i].ops[0], 0);
            bars++;
        }
    CHECK_EQ(bars, 2);

    text = ptx_text_read_file("tests/kernels/devfunc/kernel.ptx", &len);
    CHECK(text != NULL);
    m = ptx_text_parse_n(text, len, &err);
    free(text);
    CHECK_MSG(m != NULL, "%s", err.msg);
    unsigned calls = 0;
    for (uint32_t i = 0; i < m->ninsns; i++)
        if (m->insns[i].op == PTX_OP_CALL) {
            const ptx_insn_t *in = &m->insns[i];
            CHECK_EQ(in->nops, 3);
            CHECK_EQ(in->flags, PTX_F_UNI);
            CHECK_EQ(in->ops[1].kind, PTX_OPND_FUNC);
            CHECK(in->ops[1].imm == 0 || in->ops[1].imm == 1);
            CHECK_EQ(in->ops[2].nvec, in->ops[1].imm == 0 ? 2 : 3);
            calls++;
        }
    CHECK_EQ(calls, 8);
    CHECK_EQ(m->funcs[0].nrets, 1);
    CHECK_EQ(m->funcs[1].nparams, 3);
}

TEST(parser_module_free_null)
{
    ptx_module_free(NULL);
    CHECK(1);
}

/* Nested { } blocks a thousand deep parse (the block parser recurses). */
static void nested_blocks_body(void)
{
    enum { DEPTH = 1000 };
    size_t cap = sizeof(PTX_HDR) + 64 + 2 * DEPTH + 64;
    char *text = malloc(cap);
    CHECK(text != NULL);
    size_t n = (size_t)snprintf(text, cap, "%s.visible .entry k()\n{\n", PTX_HDR);
    memset(text + n, '{', DEPTH);
    n += DEPTH;
    n += (size_t)snprintf(text + n, cap - n, "\nret;\n");
    memset(text + n, '}', DEPTH);
    n += DEPTH;
    n += (size_t)snprintf(text + n, cap - n, "\n}\n");
    simt_error_t err;
    const ptx_module_t *m = ptx_text_parse_n(text, n, &err);
    free(text);
    CHECK_MSG(m != NULL, "%s", err.msg);
    CHECK_EQ(m->ninsns, 1);
}

TEST(parser_deeply_nested_blocks)
{
    ISOLATED(nested_blocks_body);
}

/* Vector variables are initialized one element at a time:
 * `.v4 .u32 v = {1, 2, 3, 4}` (found by the fuzzer: a scalar initializer
 * for a .v4 .u32 shifted a 64-bit value by 64..120 bits). */
static void vector_init_body(void)
{
    PARSE_OK(PTX_HDR
             ".global .v4 .u32 gv = {1, 2, 3, 4};\n"
             ".global .v2 .f32 gf2[2] = {{1.0, 2.0}, {3.0, 4.0}};\n"
             ".const .v2 .u8 cv = {7, 9};\n");
    static const uint8_t ev[16] = { 1, 0, 0, 0, 2, 0, 0, 0,
                                    3, 0, 0, 0, 4, 0, 0, 0 };
    static const uint8_t ef[16] = { 0, 0, 0x80, 0x3F, 0, 0, 0, 0x40,
                                    0, 0, 0x40, 0x40, 0, 0, 0x80, 0x40 };
    const ptx_symbol_t *s = &m->syms[ptx_text_sym(m, "gv")];
    CHECK_EQ(s->size, 16);
    CHECK(s->init != NULL);
    CHECK(memcmp(s->init, ev, 16) == 0);
    s = &m->syms[ptx_text_sym(m, "gf2")];
    CHECK_EQ(s->size, 16);
    CHECK(s->init != NULL);
    CHECK(memcmp(s->init, ef, 16) == 0);
    s = &m->syms[ptx_text_sym(m, "cv")];
    CHECK_EQ(s->size, 2);
    CHECK(s->init != NULL);
    CHECK_EQ(s->init[0], 7);
    CHECK_EQ(s->init[1], 9);
}

TEST(parser_vector_variable_initializers)
{
    ISOLATED(vector_init_body);
}

/* The kernel's own .shared region starts after the module's, aligned for
 * its most aligned variable. */
TEST(parser_kernel_shared_base_alignment)
{
    PARSE_OK(PTX_HDR
             ".shared .align 4 .b8 a[4];\n"
             ".visible .entry k()\n"
             "{\n"
             ".shared .align 4 .b8 b[8];\n"
             ".shared .align 16 .b8 c[16];\n"
             "ret;\n"
             "}\n");
    int k = ptx_find_function(m, "k");
    CHECK(k >= 0);
    CHECK_EQ(m->shared_bytes, 4);
    CHECK_EQ(m->funcs[k].shared_bytes, 32);
    CHECK_EQ(m->syms[ptx_text_sym(m, "b")].offset, 0);
    CHECK_EQ(m->syms[ptx_text_sym(m, "c")].offset, 16);
    CHECK_EQ(ptx_kernel_shared_base(m, (uint32_t)k), 16);
    CHECK_EQ(ptx_kernel_shared_bytes(m, (uint32_t)k), 48);
}

/* ---------- PTX that nvcc 13 emits (issue 11) ---------- */

/* Identifiers have no length limit: a 5000-character kernel, register,
 * label and function name, kept whole (Thrust names pass 127 characters;
 * a 63-character cut would merge distinct names). */
TEST(parser_long_identifiers)
{
    enum { N = 5000 };
    char *name = malloc(N + 1), *src = malloc(8 * N + 512);
    CHECK(name && src);
    memset(name, 'a', N);
    name[N] = '\0';
    snprintf(src, 8 * N + 512,
             PTX_HDR ".func %s_f()\n{\nret;\n}\n"
             ".visible .entry %s()\n{\n.reg .b32 %%%s;\n"
             "mov.u32 %%%s, 1;\nbra %s_L;\n%s_L:\ncall %s_f, ();\nret;\n}\n",
             name, name, name, name, name, name, name);
    simt_error_t err_;
    const ptx_module_t *m = ptx_text_parse(src, &err_);
    int f = m ? ptx_find_function(m, name) : -1;
    free(src);
    CHECK_MSG(m != NULL, "parse failed: %s", err_.msg);
    CHECK(f >= 0);
    CHECK_EQ(strlen(m->funcs[f].regs[0].name), N + 1);
    CHECK_EQ(strcmp(m->funcs[f].regs[0].name + 1, name), 0);
    CHECK_EQ(m->insns[m->funcs[f].first + 1].ops[0].imm,
             m->funcs[f].first + 2); /* the long label resolved */
    free(name);
}

/* WARP_SZ is the immediate 32, typed like any immediate. */
TEST(parser_warp_sz)
{
    PARSE_OK(K("mov.u32 %r1, WARP_SZ;\nadd.s64 %rd1, %rd2, WARP_SZ;\n"
               "cvt.rn.f32.u32 %f1, %r1;\nmul.f32 %f2, %f1, WARP_SZ;"));
    const ptx_insn_t *in;
    AT(0);
    CHECK_IMM(in->ops[1], 32);
    AT(1);
    CHECK_IMM(in->ops[2], 32);
    AT(3);
    CHECK_FIMM(in->ops[2], 0x42000000); /* 32.0f */
}

TEST(parser_envreg)
{
    PARSE_OK(K("mov.u32 %r1, %envreg0;\nmov.u32 %r2, %envreg31;"));
    const ptx_insn_t *in;
    AT(0);
    CHECK_SREG(in->ops[1], PTX_SREG_ENVREG0);
    AT(1);
    CHECK_SREG(in->ops[1], PTX_SREG_ENVREG0 + 31);
    CHECK_EQ(strcmp(ptx_sreg_name(PTX_SREG_ENVREG0 + 31), "%envreg31"), 0);
}

/* A label before the closing brace stands on an implicit ret. */
TEST(parser_label_at_end_of_function)
{
    PARSE_OK(PTX_HDR ".visible .entry k()\n{\n.reg .pred %p;\n"
             "@%p bra $L_end;\ntrap;\n$L_end:\n}\n");
    const ptx_insn_t *in;
    AT(2);
    CHECK_OP(in, RET, NONE);
    CHECK_EQ(in->line, 9); /* the label's */
    AT(0);
    CHECK_EQ(in->ops[0].imm, ptx_text_insn(m, "k", 2) - m->insns);
}

/* Addresses in initializers become relocations (ir.h): the forms nvcc 13
 * writes for pointers to variables, function tables and byte arrays. */
TEST(parser_address_initializers)
{
    PARSE_OK(PTX_HDR
             ".func f()\n{\nret;\n}\n"
             ".global .align 4 .b8 g[16];\n"
             ".global .align 8 .u64 gp = generic(g)+8;\n"
             ".global .align 8 .u64 s[3] = {5, generic(g)+4, 120};\n"
             ".global .align 8 .u64 tbl[2] = {f, 0};\n"
             ".const .align 8 .u64 cp = g;\n"
             ".global .align 1 .b8 bytes[8] = {0xFF(generic(g+2)), "
             "0xFF00(generic(g+2)), 1, 2};\n"
             ".visible .entry k()\n{\nret;\n}\n");
    CHECK_EQ(m->nrelocs, 6);
    uint32_t g = (uint32_t)ptx_text_sym(m, "g");
    const ptx_reloc_t *r = m->relocs;
    CHECK_EQ(r[0].var, ptx_text_sym(m, "gp"));
    CHECK_EQ(r[0].target, g);
    CHECK_EQ(r[0].generic, 1);
    CHECK_EQ(r[0].addend, 8);
    CHECK_EQ(r[0].offset, 0);
    CHECK_EQ(r[0].bytes, 8);
    CHECK_EQ(r[1].offset, 8);
    CHECK_EQ(r[1].addend, 4);
    CHECK_EQ(m->syms[r[1].var].init[0], 5);
    CHECK_EQ(m->syms[r[1].var].init[16], 120);
    CHECK_EQ(m->syms[r[2].target].kind, PTX_SYM_FUNC);
    CHECK_EQ(r[3].generic, 0);
    CHECK_EQ(m->syms[r[3].var].space, PTX_SPACE_CONST);
    CHECK_EQ(r[4].mask, 0xFF);
    CHECK_EQ(r[4].bytes, 1);
    CHECK_EQ(r[4].addend, 2);
    CHECK_EQ(r[5].mask, 0xFF00);
    CHECK_EQ(r[5].offset, 1);
    CHECK_EQ(m->syms[r[5].var].init[2], 1);
}

/* An indirect call: target register, argument lists and the prototype. */
TEST(parser_indirect_call)
{
    PARSE_OK(PTX_HDR ".visible .entry k()\n{\n.reg .b64 %rd<2>;\n"
             ".reg .b32 %r<2>;\n{\n.param .b32 param0;\n"
             "st.param.b32 [param0+0], %r1;\n.param .b32 retval0;\n"
             "prototype_0 : .callprototype (.param .b32 _) _ "
             "(.param .b32 _);\n"
             "call (retval0),\n%rd1,\n(\nparam0\n)\n, prototype_0;\n"
             "ld.param.b32 %r0, [retval0+0];\n}\nret;\n}\n");
    const ptx_insn_t *in;
    AT(1);
    CHECK_OP(in, CALL, NONE);
    CHECK_EQ(in->nops, 4);
    CHECK_EQ(in->ops[1].kind, PTX_OPND_REG);
    CHECK_EQ(in->ops[3].kind, PTX_OPND_PROTO);
    CHECK_EQ(m->nprotos, 1);
    CHECK_EQ(m->protos[0].nargs, 1);
    CHECK_EQ(m->protos[0].nrets, 1);
    CHECK_EQ(strcmp(m->protos[0].text,
                    ".callprototype (.param .b32 _) _ (.param .b32 _)"), 0);
}

/* -lineinfo and -G add DWARF sections: skipped, the code still parses. */
TEST(parser_debug_sections_skipped)
{
    PARSE_OK(PTX_HDR ".visible .entry k()\n{\n.loc 1 18 30\nret;\n}\n"
             ".file 1 \"/tmp/x.cu\"\n"
             ".section .debug_str\n{\n$L__info_string0:\n"
             ".b8 95,90,52,0\n}\n"
             ".section .debug_info\n{\n.b32 $L__info_string0\n"
             ".b64 $L__func_end0-$L__func_begin0\n{\n}\n}\n");
    const ptx_insn_t *in;
    AT(0);
    CHECK_OP(in, RET, NONE);
    CHECK_EQ(m->nfuncs, 1);
}

/* {0, %rs}: a zero element of a packing mov (nvcc's bf16 to f32) is the
 * '_' element, which packs as zero bits. */
TEST(parser_vector_zero_element)
{
    PARSE_OK(K("mov.b32 %f1, {0, %h1};"));
    const ptx_insn_t *in;
    AT(0);
    CHECK_EQ(in->ops[1].kind, PTX_OPND_VEC);
    CHECK_EQ(in->ops[1].nvec, 2);
    CHECK_EQ(in->ops[1].vec[0], PTX_REG_SINK);
    CHECK_EQ(in->ops[1].vec[1], RH(1));
}
