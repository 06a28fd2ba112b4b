/* test_reconvergence.c: the SIMT reconvergence stack, checked with
 * hand-written PTX whose instruction counts and lane masks are worked out by
 * hand in the comments.
 *
 * Conventions of the kernels: one output buffer of 32-bit words, one
 * "slot" of 32 words (128 bytes) per recorded value, lane l writing word
 * slot*32 + l.  The buffer starts filled with PK_SENTINEL so that a lane
 * that must not write a slot is checked too.
 *
 * Counting rules (docs/stats.md, exec_step.c): every executed
 * warp-instruction counts once in warp_insns, guard-false included;
 * thread_insns adds the lanes active on the stack; a branch whose active
 * lanes split between target and fall-through counts one divergent branch.
 * A path whose first PC is already its reconvergence PC executes nothing. */
#include <stdio.h>
#include <string.h>

#include "../harness.h"
#include "ptx_kernel_helpers.h"

#define PK_SENTINEL 0xdeadbeefu
#define SLOT(s, l) ((s) * 32u + (l))

/* Runs `kernel` of `text` with one CTA of `threads` threads and one output
 * buffer of `slots` slots (32 words each, or `threads` words each when
 * threads > 32); copies the buffer into out.  Returns the GPU (for stats) or
 * NULL after reporting the failure in err. */
static simt_gpu_t *run_slots(const char *text, const char *kernel,
                             uint32_t threads, unsigned slots, uint32_t *out,
                             simt_error_t *err)
{
    simt_gpu_t *g = pk_gpu(NULL, err);
    if (!g)
        return NULL;
    simt_module_t *m = pk_load(g, "reconv.ptx", text, err);
    if (!m)
        return NULL;
    uint32_t per = threads > 32 ? threads : 32;
    simt_devptr_t buf = pk_alloc_u32(g, (size_t)slots * per, PK_SENTINEL);
    if (!buf) {
        snprintf(err->msg, sizeof err->msg, "allocation failed");
        err->status = SIMT_EINPUT;
        return NULL;
    }
    simt_arg_t a[1] = { SIMT_ARG(buf) };
    if (pk_run(g, m, kernel, pk_dim(1, 1, 1), pk_dim(threads, 1, 1), 0, a, 1,
               err) != SIMT_OK)
        return NULL;
    if (pk_read_u32(g, buf, out, (size_t)slots * per) != SIMT_OK) {
        snprintf(err->msg, sizeof err->msg, "read-back failed");
        err->status = SIMT_EINPUT;
        return NULL;
    }
    return g;
}

/* ------------------------------------------------------------------ */
/* if/else diamond                                                     */
/* ------------------------------------------------------------------ */

static const char diamond_ptx[] =
    PK_HEADER
    ".visible .entry diamond(\n"
    "    .param .u64 diamond_param_0\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<4>;\n"
    "\n"
    "    ld.param.u64 %rd1, [diamond_param_0];   // 1\n"
    "    mov.u32 %r1, %tid.x;                    // 2\n"
    "    mul.wide.u32 %rd2, %r1, 4;              // 3\n"
    "    add.s64 %rd3, %rd1, %rd2;               // 4\n"
    "    and.b32 %r2, %r1, 1;                    // 5\n"
    "    setp.eq.u32 %p1, %r2, 1;                // 6\n"
    "    @%p1 bra $ODD;                          // 7  odd lanes taken\n"
    "    activemask.b32 %r3;                     // E1 even side\n"
    "    mov.u32 %r4, 100;                       // E2\n"
    "    st.global.u32 [%rd3], %r3;              // E3 slot 0\n"
    "    bra.uni $JOIN;                          // E4\n"
    "$ODD:\n"
    "    activemask.b32 %r3;                     // O1 odd side\n"
    "    st.global.u32 [%rd3], %r3;              // O2 slot 0\n"
    "    mov.u32 %r4, 200;                       // O3\n"
    "$JOIN:\n"
    "    activemask.b32 %r5;                     // J1\n"
    "    st.global.u32 [%rd3+128], %r5;          // J2 slot 1\n"
    "    add.s32 %r6, %r4, %r1;                  // J3\n"
    "    st.global.u32 [%rd3+256], %r6;          // J4 slot 2\n"
    "    ret;                                    // J5\n"
    "}\n";

TEST(reconv_diamond_masks_and_counts)
{
    simt_error_t err;
    uint32_t out[3 * 32];
    simt_gpu_t *g = run_slots(diamond_ptx, "diamond", 32, 3, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t side = (l & 1) ? 0xaaaaaaaau : 0x55555555u;
        CHECK_MSG(out[SLOT(0, l)] == side, "lane %u: activemask inside its "
                  "side 0x%08x, expected 0x%08x", l, out[SLOT(0, l)], side);
        CHECK_MSG(out[SLOT(1, l)] == 0xffffffffu, "lane %u: activemask after "
                  "the join 0x%08x, expected 0xffffffff", l, out[SLOT(1, l)]);
        CHECK_EQ(out[SLOT(2, l)], ((l & 1) ? 200u : 100u) + l);
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    /* 7 common + 4 even side + 3 odd side + 5 after the join = 19 */
    CHECK_EQ(s->warp_insns, 19);
    /* 7*32 + 4*16 + 3*16 + 5*32 = 224 + 64 + 48 + 160 = 496 */
    CHECK_EQ(s->thread_insns, 496);
    CHECK_EQ(s->divergent_branches, 1);
    /* E3 + O2 (16 each) + J2 + J4 (32 each) */
    CHECK_EQ(s->global_stores, 96);
    CHECK_EQ(s->kernels_launched, 1);
    CHECK_EQ(s->ctas_completed, 1);
    pk_gpu_free(g);
}

/* The taken path runs first: each side takes a ticket from one counter
 * (atomics of one instruction apply in lane order). */
static const char ticket_ptx[] =
    PK_HEADER
    ".visible .entry ticket(\n"
    "    .param .u64 ticket_param_0,\n"
    "    .param .u64 ticket_param_1\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<5>;\n"
    "    ld.param.u64 %rd1, [ticket_param_0];\n"
    "    ld.param.u64 %rd4, [ticket_param_1];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mul.wide.u32 %rd2, %r1, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    and.b32 %r2, %r1, 1;\n"
    "    setp.eq.u32 %p1, %r2, 1;\n"
    "    @%p1 bra $ODD;\n"
    "    atom.global.add.u32 %r3, [%rd4], 1;\n"
    "    bra.uni $JOIN;\n"
    "$ODD:\n"
    "    atom.global.add.u32 %r3, [%rd4], 1;\n"
    "$JOIN:\n"
    "    st.global.u32 [%rd3], %r3;\n"
    "    ret;\n"
    "}\n";

TEST(reconv_taken_path_runs_first)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "ticket.ptx", ticket_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    simt_devptr_t out = pk_alloc_u32(g, 32, PK_SENTINEL);
    simt_devptr_t ctr = pk_alloc_u32(g, 1, 0);
    CHECK(out && ctr);
    simt_arg_t a[2] = { SIMT_ARG(out), SIMT_ARG(ctr) };
    CHECK_MSG(pk_run(g, m, "ticket", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a,
                     2, &err) == SIMT_OK, "%s", err.msg);
    uint32_t h[32], c;
    CHECK(pk_read_u32(g, out, h, 32) == SIMT_OK);
    CHECK(pk_read_u32(g, ctr, &c, 1) == SIMT_OK);
    CHECK_EQ(c, 32);
    for (uint32_t l = 0; l < 32; l++) {
        /* odd lanes (taken) draw 0..15 first, then even lanes 16..31 */
        uint32_t want = (l & 1) ? (l - 1) / 2 : 16 + l / 2;
        CHECK_MSG(h[l] == want, "lane %u drew ticket %u, expected %u", l,
                  h[l], want);
    }
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* nested if/else: four groups by tid & 3                              */
/* ------------------------------------------------------------------ */

static const char nested_ptx[] =
    PK_HEADER
    ".visible .entry nested(\n"
    "    .param .u64 nested_param_0\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<3>;\n"
    "    .reg .b32 %r<9>;\n"
    "    .reg .b64 %rd<4>;\n"
    "\n"
    "    ld.param.u64 %rd1, [nested_param_0];    // P1\n"
    "    mov.u32 %r1, %tid.x;                    // P2\n"
    "    mul.wide.u32 %rd2, %r1, 4;              // P3\n"
    "    add.s64 %rd3, %rd1, %rd2;               // P4\n"
    "    and.b32 %r2, %r1, 1;                    // P5\n"
    "    setp.ne.u32 %p1, %r2, 0;                // P6 bit 0\n"
    "    and.b32 %r3, %r1, 2;                    // P7\n"
    "    setp.ne.u32 %p2, %r3, 0;                // P8 bit 1\n"
    "    @%p1 bra $OUTER_ELSE;                   // P9 odd lanes taken\n"
    "    activemask.b32 %r4;                     // A1 even: 0x55555555\n"
    "    st.global.u32 [%rd3], %r4;              // A2 slot 0\n"
    "    @%p2 bra $IN1_ELSE;                     // A3 tid&3==2 taken\n"
    "    activemask.b32 %r5;                     // B1 tid&3==0: 0x11111111\n"
    "    mov.u32 %r6, 0;                         // B2\n"
    "    bra.uni $IN1_JOIN;                      // B3\n"
    "$IN1_ELSE:\n"
    "    activemask.b32 %r5;                     // C1 tid&3==2: 0x44444444\n"
    "    mov.u32 %r6, 2;                         // C2\n"
    "$IN1_JOIN:\n"
    "    st.global.u32 [%rd3+128], %r5;          // D1 slot 1\n"
    "    activemask.b32 %r7;                     // D2 0x55555555\n"
    "    st.global.u32 [%rd3+256], %r7;          // D3 slot 2\n"
    "    bra.uni $OUTER_JOIN;                    // D4\n"
    "$OUTER_ELSE:\n"
    "    activemask.b32 %r4;                     // E1 odd: 0xaaaaaaaa\n"
    "    st.global.u32 [%rd3], %r4;              // E2 slot 0\n"
    "    @%p2 bra $IN2_ELSE;                     // E3 tid&3==3 taken\n"
    "    activemask.b32 %r5;                     // F1 tid&3==1: 0x22222222\n"
    "    mov.u32 %r6, 1;                         // F2\n"
    "    bra.uni $IN2_JOIN;                      // F3\n"
    "$IN2_ELSE:\n"
    "    activemask.b32 %r5;                     // G1 tid&3==3: 0x88888888\n"
    "    mov.u32 %r6, 3;                         // G2\n"
    "$IN2_JOIN:\n"
    "    st.global.u32 [%rd3+128], %r5;          // H1 slot 1\n"
    "    activemask.b32 %r7;                     // H2 0xaaaaaaaa\n"
    "    st.global.u32 [%rd3+256], %r7;          // H3 slot 2\n"
    "$OUTER_JOIN:\n"
    "    activemask.b32 %r8;                     // J1 0xffffffff\n"
    "    st.global.u32 [%rd3+384], %r8;          // J2 slot 3\n"
    "    st.global.u32 [%rd3+512], %r6;          // J3 slot 4\n"
    "    ret;                                    // J4\n"
    "}\n";

TEST(reconv_nested_if_else)
{
    simt_error_t err;
    uint32_t out[5 * 32];
    simt_gpu_t *g = run_slots(nested_ptx, "nested", 32, 5, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    static const uint32_t level2[4] = { 0x11111111u, 0x22222222u,
                                        0x44444444u, 0x88888888u };
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t level1 = (l & 1) ? 0xaaaaaaaau : 0x55555555u;
        CHECK_MSG(out[SLOT(0, l)] == level1, "lane %u outer level mask 0x%08x,"
                  " expected 0x%08x", l, out[SLOT(0, l)], level1);
        CHECK_MSG(out[SLOT(1, l)] == level2[l & 3], "lane %u inner level mask "
                  "0x%08x, expected 0x%08x", l, out[SLOT(1, l)], level2[l & 3]);
        CHECK_MSG(out[SLOT(2, l)] == level1, "lane %u mask after the inner "
                  "join 0x%08x, expected 0x%08x", l, out[SLOT(2, l)], level1);
        CHECK_MSG(out[SLOT(3, l)] == 0xffffffffu, "lane %u mask after the "
                  "outer join 0x%08x", l, out[SLOT(3, l)]);
        CHECK_EQ(out[SLOT(4, l)], l & 3);
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    /* P 9 + A 3 + B 3 + C 2 + D 4 + E 3 + F 3 + G 2 + H 3 + J 4 = 36 */
    CHECK_EQ(s->warp_insns, 36);
    /* 9*32 + 3*16 + 3*8 + 2*8 + 4*16 + 3*16 + 3*8 + 2*8 + 3*16 + 4*32
     * = 288 + 48 + 24 + 16 + 64 + 48 + 24 + 16 + 48 + 128 = 704 */
    CHECK_EQ(s->thread_insns, 704);
    CHECK_EQ(s->divergent_branches, 3); /* P9, A3, E3 */
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* loop with a data-dependent trip count: lane l iterates l % 5 times  */
/* ------------------------------------------------------------------ */

static const char varloop_ptx[] =
    PK_HEADER
    ".visible .entry varloop(\n"
    "    .param .u64 varloop_param_0\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<3>;\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<4>;\n"
    "\n"
    "    ld.param.u64 %rd1, [varloop_param_0];   // P1\n"
    "    mov.u32 %r1, %tid.x;                    // P2\n"
    "    mul.wide.u32 %rd2, %r1, 4;              // P3\n"
    "    add.s64 %rd3, %rd1, %rd2;               // P4\n"
    "    rem.u32 %r2, %r1, 5;                    // P5 trips\n"
    "    mov.u32 %r3, 0;                         // P6 i\n"
    "    mov.u32 %r4, 0;                         // P7 acc\n"
    "    mov.u32 %r6, 0;                         // P8 mask in last trip\n"
    "    setp.eq.u32 %p1, %r2, 0;                // P9\n"
    "    @%p1 bra $DONE;                         // P10 0-trip lanes skip\n"
    "$LOOP:\n"
    "    add.s32 %r5, %r3, 10;                   // L1\n"
    "    add.s32 %r4, %r4, %r5;                  // L2 acc += i + 10\n"
    "    activemask.b32 %r6;                     // L3\n"
    "    add.s32 %r3, %r3, 1;                    // L4\n"
    "    setp.lt.u32 %p2, %r3, %r2;              // L5\n"
    "    @%p2 bra $LOOP;                         // L6 divergent exit\n"
    "$DONE:\n"
    "    activemask.b32 %r7;                     // D1\n"
    "    st.global.u32 [%rd3], %r7;              // D2 slot 0\n"
    "    st.global.u32 [%rd3+128], %r4;          // D3 slot 1\n"
    "    st.global.u32 [%rd3+256], %r3;          // D4 slot 2\n"
    "    st.global.u32 [%rd3+384], %r6;          // D5 slot 3\n"
    "    ret;                                    // D6\n"
    "}\n";

TEST(reconv_loop_data_dependent_trips)
{
    /* lanes whose l % 5 >= t, t = 1..4 (lane l has l % 5 trips) */
    static const uint32_t ge[5] = { 0xffffffffu, 0xbdef7bdeu, 0x39ce739cu,
                                    0x318c6318u, 0x21084210u };
    for (uint32_t t = 0; t < 5; t++) { /* the table itself, by definition */
        uint32_t m = 0;
        for (uint32_t l = 0; l < 32; l++)
            m |= (uint32_t)(l % 5 >= t) << l;
        CHECK_EQ(m, ge[t]);
    }
    simt_error_t err;
    uint32_t out[4 * 32];
    simt_gpu_t *g = run_slots(varloop_ptx, "varloop", 32, 4, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    static const uint32_t acc[5] = { 0, 10, 21, 33, 46 }; /* sum i+10 */
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t t = l % 5;
        CHECK_MSG(out[SLOT(0, l)] == 0xffffffffu, "lane %u: mask after the "
                  "loop 0x%08x", l, out[SLOT(0, l)]);
        CHECK_EQ(out[SLOT(1, l)], acc[t]);
        CHECK_EQ(out[SLOT(2, l)], t);
        /* in its last trip (t-1) the lanes with at least t trips run */
        uint32_t last = t ? ge[t] : 0;
        CHECK_MSG(out[SLOT(3, l)] == last, "lane %u: mask in its last trip "
                  "0x%08x, expected 0x%08x", l, out[SLOT(3, l)], last);
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    /* P 10 + body 6 x 4 trips (the warp's maximum) + D 6 = 40 */
    CHECK_EQ(s->warp_insns, 40);
    /* lanes per trip: 25, 18, 12, 6 (popcounts of ge[1..4])
     * 10*32 + 6*(25+18+12+6) + 6*32 = 320 + 366 + 192 = 878 */
    CHECK_EQ(s->thread_insns, 878);
    /* P10, and L6 in trips 1..3; in trip 4 no lane stays: not divergent */
    CHECK_EQ(s->divergent_branches, 4);
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* loop with a break in the middle and a continue                      */
/*   for (i = 0; i < 6; i++) {                                         */
/*       if (i == l % 7) break;                                        */
/*       if ((i + l) & 1) continue;                                    */
/*       acc += i + 1;                                                 */
/*   }                                                                 */
/* ------------------------------------------------------------------ */

static const char brkloop_ptx[] =
    PK_HEADER
    ".visible .entry brkloop(\n"
    "    .param .u64 brkloop_param_0\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<4>;\n"
    "    .reg .b32 %r<10>;\n"
    "    .reg .b64 %rd<6>;\n"
    "\n"
    "    ld.param.u64 %rd1, [brkloop_param_0];   // P1\n"
    "    mov.u32 %r1, %tid.x;                    // P2\n"
    "    mul.wide.u32 %rd2, %r1, 4;              // P3\n"
    "    add.s64 %rd3, %rd1, %rd2;               // P4\n"
    "    rem.u32 %r2, %r1, 7;                    // P5 b\n"
    "    mov.u32 %r3, 0;                         // P6 i\n"
    "    mov.u32 %r4, 0;                         // P7 acc\n"
    "    mov.u32 %r8, 0;                         // P8\n"
    "$LOOP:\n"
    "    setp.eq.u32 %p1, %r3, %r2;              // L1\n"
    "    @%p1 bra $EXIT;                         // L2 break\n"
    "    add.s32 %r5, %r3, %r1;                  // L3\n"
    "    and.b32 %r5, %r5, 1;                    // L4\n"
    "    setp.ne.u32 %p2, %r5, 0;                // L5\n"
    "    @%p2 bra $CONT;                         // L6 continue\n"
    "    add.s32 %r6, %r3, 1;                    // T1\n"
    "    add.s32 %r4, %r4, %r6;                  // T2\n"
    "$CONT:\n"
    "    activemask.b32 %r7;                     // C1\n"
    "    mul.wide.u32 %rd4, %r3, 128;            // C2\n"
    "    add.s64 %rd5, %rd3, %rd4;               // C3\n"
    "    st.global.u32 [%rd5+512], %r7;          // C4 slot 4 + i\n"
    "    add.s32 %r3, %r3, 1;                    // C5\n"
    "    setp.lt.u32 %p3, %r3, 6;                // C6\n"
    "    @%p3 bra $LOOP;                         // C7\n"
    "$EXIT:\n"
    "    activemask.b32 %r9;                     // X1\n"
    "    st.global.u32 [%rd3], %r9;              // X2 slot 0\n"
    "    st.global.u32 [%rd3+128], %r4;          // X3 slot 1\n"
    "    st.global.u32 [%rd3+256], %r3;          // X4 slot 2\n"
    "    ret;                                    // X5\n"
    "}\n";

TEST(reconv_loop_break_and_continue)
{
    simt_error_t err;
    uint32_t out[10 * 32];
    simt_gpu_t *g = run_slots(brkloop_ptx, "brkloop", 32, 10, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t b = l % 7, acc = 0, i;
        for (i = 0; i < 6; i++) {
            if (i == b)
                break;
            if ((i + l) & 1)
                continue;
            acc += i + 1;
        }
        CHECK_MSG(out[SLOT(0, l)] == 0xffffffffu, "lane %u: mask after the "
                  "loop 0x%08x", l, out[SLOT(0, l)]);
        CHECK_EQ(out[SLOT(1, l)], acc);
        CHECK_EQ(out[SLOT(2, l)], i);
        for (uint32_t k = 0; k < 6; k++) {
            /* at the continue point of trip k: every lane not broken yet,
             * i.e. l % 7 > k (the continue reconverges there) */
            uint32_t want = PK_SENTINEL;
            if (k < b) {
                want = 0;
                for (uint32_t x = 0; x < 32; x++)
                    want |= (uint32_t)(x % 7 > k) << x;
            }
            CHECK_MSG(out[SLOT(4 + k, l)] == want, "lane %u trip %u: mask at "
                      "the continue point 0x%08x, expected 0x%08x", l, k,
                      out[SLOT(4 + k, l)], want);
        }
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    /* Every trip 0..5 keeps lanes (l % 7 == 6 never breaks) and both
     * parities of i + l among them, so each trip runs L1-L6, T1-T2 and
     * C1-C7: 15.  P 8 + 6*15 + X 5 = 103. */
    CHECK_EQ(s->warp_insns, 103);
    /* break divergent in trips 0..5 (6) + continue divergent in trips
     * 0..5 (6); the latch C7 is uniform in every trip. */
    CHECK_EQ(s->divergent_branches, 12);
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* early exit in divergent code; a barrier after whole warps exited    */
/* ------------------------------------------------------------------ */

/* 96 threads: warp 2 leaves at once (uniform branch); in warps 0 and 1 the
 * lanes with tid % 4 == 3 leave in divergent code (the branch's immediate
 * post-dominator is the function exit).  The survivors diverge and rejoin
 * once more, exchange values through shared memory across a bar.sync and
 * record masks.  Slots are 96 words (384 bytes). */
#define EARLY_BODY(NAME, DIE)                                              \
    ".visible .entry " NAME "(\n"                                          \
    "    .param .u64 " NAME "_param_0\n"                                   \
    ")\n"                                                                  \
    "{\n"                                                                  \
    "    .reg .pred %p<4>;\n"                                              \
    "    .reg .b32 %r<16>;\n"                                              \
    "    .reg .b64 %rd<4>;\n"                                              \
    "    .shared .align 4 .b8 xch[256];\n"                                 \
    "    ld.param.u64 %rd1, [" NAME "_param_0];  // 1\n"                   \
    "    mov.u32 %r1, %tid.x;                    // 2\n"                   \
    "    mul.wide.u32 %rd2, %r1, 4;              // 3\n"                   \
    "    add.s64 %rd3, %rd1, %rd2;               // 4\n"                   \
    "    setp.ge.u32 %p1, %r1, 64;               // 5\n"                   \
    "    @%p1 bra $DIE;                          // 6 warp 2: uniform\n"   \
    "    and.b32 %r2, %r1, 3;                    // 7\n"                   \
    "    setp.eq.u32 %p2, %r2, 3;                // 8\n"                   \
    "    @%p2 bra $DIE;                          // 9 divergent\n"         \
    "    activemask.b32 %r3;                     // 10\n"                  \
    "    st.global.u32 [%rd3], %r3;              // 11 slot 0\n"           \
    "    and.b32 %r4, %r1, 1;                    // 12\n"                  \
    "    setp.eq.u32 %p3, %r4, 0;                // 13\n"                  \
    "    @%p3 bra $EVEN;                         // 14 divergent\n"        \
    "    mov.u32 %r5, 1;                         // 15 odd survivors\n"    \
    "    bra.uni $JOIN;                          // 16\n"                  \
    "$EVEN:\n"                                                             \
    "    mov.u32 %r5, 2;                         // 17 even survivors\n"   \
    "$JOIN:\n"                                                             \
    "    activemask.b32 %r6;                     // 18\n"                  \
    "    st.global.u32 [%rd3+384], %r6;          // 19 slot 1\n"           \
    "    mov.u32 %r7, xch;                       // 20\n"                  \
    "    shl.b32 %r8, %r1, 2;                    // 21\n"                  \
    "    add.s32 %r9, %r7, %r8;                  // 22\n"                  \
    "    mad.lo.s32 %r10, %r5, 1000, %r1;        // 23\n"                  \
    "    st.shared.u32 [%r9], %r10;              // 24\n"                  \
    "    bar.sync 0;                             // 25\n"                  \
    "    xor.b32 %r11, %r8, 128;                 // 26 partner tid ^ 32\n" \
    "    add.s32 %r12, %r7, %r11;                // 27\n"                  \
    "    ld.shared.u32 %r13, [%r12];             // 28\n"                  \
    "    st.global.u32 [%rd3+768], %r13;         // 29 slot 2\n"           \
    "    activemask.b32 %r14;                    // 30\n"                  \
    "    st.global.u32 [%rd3+1152], %r14;        // 31 slot 3\n"           \
    "    ret;                                    // 32\n"                  \
    "$DIE:\n"                                                              \
    "    " DIE ";                                // 33\n"                  \
    "}\n"

static const char early_ptx[] =
    PK_HEADER
    EARLY_BODY("early_exit", "exit")
    EARLY_BODY("early_ret", "ret");

static void check_early(const char *kernel)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "early.ptx", early_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    simt_devptr_t buf = pk_alloc_u32(g, 4 * 96, PK_SENTINEL);
    CHECK(buf);
    simt_arg_t a[1] = { SIMT_ARG(buf) };
    int rc = pk_run(g, m, kernel, pk_dim(1, 1, 1), pk_dim(96, 1, 1), 0, a, 1,
                    &err);
    CHECK_MSG(rc == SIMT_OK, "%s: status %d: %s", kernel, rc, err.msg);
    uint32_t out[4 * 96];
    CHECK(pk_read_u32(g, buf, out, 4 * 96) == SIMT_OK);
    for (uint32_t t = 0; t < 96; t++) {
        int dead = t >= 64 || (t & 3) == 3;
        for (uint32_t s = 0; s < 4; s++) {
            uint32_t v = out[s * 96 + t];
            uint32_t want;
            if (dead)
                want = PK_SENTINEL;
            else if (s == 2) /* the partner in the other warp survived too */
                want = ((t ^ 32) & 1 ? 1000u : 2000u) + (t ^ 32);
            else /* masks: the survivors, before and after every join */
                want = 0x77777777u;
            CHECK_MSG(v == want, "%s: thread %u slot %u = 0x%08x, expected "
                      "0x%08x", kernel, t, s, v, want);
        }
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    /* warp 2: instructions 1-6 and the exit (33): 7.
     * warps 0 and 1: 1-9 (32 lanes), the dying lanes 33 (8 lanes),
     * survivors (24 lanes) 10-14, odd side 15-16, even side 17, 18-32:
     * 9 + 1 + 5 + 2 + 1 + 15 = 33 each. */
    CHECK_EQ(s->warp_insns, 7 + 33 + 33);
    /* odd survivors (tid % 4 == 1) are 8 lanes, even ones (0 and 2) 16.
     * warp 2: 7*32.  warps 0/1: 9*32 + 1*8 + 5*24 + 2*8 + 1*16 + 15*24
     * = 288 + 8 + 120 + 16 + 16 + 360 = 808 each. */
    CHECK_EQ(s->thread_insns, 7 * 32 + 2 * 808);
    CHECK_EQ(s->divergent_branches, 4); /* 9 and 14 in warps 0 and 1 */
    CHECK_EQ(s->barriers, 2);           /* warps 0 and 1 arrive */
    pk_gpu_free(g);
}

TEST(reconv_early_exit_and_barrier)
{
    check_early("early_exit");
}

TEST(reconv_early_ret_from_kernel_and_barrier)
{
    check_early("early_ret");
}

/* Paths that never rejoin before the function exit. */
static const char noreconv_ptx[] =
    PK_HEADER
    ".visible .entry noreconv(\n"
    "    .param .u64 noreconv_param_0\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<6>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [noreconv_param_0];  // 1\n"
    "    mov.u32 %r1, %tid.x;                    // 2\n"
    "    mul.wide.u32 %rd2, %r1, 4;              // 3\n"
    "    add.s64 %rd3, %rd1, %rd2;               // 4\n"
    "    setp.lt.u32 %p1, %r1, 10;               // 5\n"
    "    @%p1 bra $LOW;                          // 6 lanes 0-9 taken\n"
    "    activemask.b32 %r2;                     // H1\n"
    "    st.global.u32 [%rd3], %r2;              // H2\n"
    "    st.global.u32 [%rd3+128], 222;          // H3\n"
    "    exit;                                   // H4\n"
    "$LOW:\n"
    "    activemask.b32 %r3;                     // W1\n"
    "    st.global.u32 [%rd3], %r3;              // W2\n"
    "    add.s32 %r4, %r1, 5;                    // W3\n"
    "    st.global.u32 [%rd3+128], %r4;          // W4\n"
    "    ret;                                    // W5\n"
    "}\n";

TEST(reconv_ipdom_is_function_exit)
{
    simt_error_t err;
    uint32_t out[2 * 32];
    simt_gpu_t *g = run_slots(noreconv_ptx, "noreconv", 32, 2, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t want = l < 10 ? 0x000003ffu : 0xfffffc00u;
        CHECK_MSG(out[SLOT(0, l)] == want, "lane %u mask 0x%08x, expected "
                  "0x%08x", l, out[SLOT(0, l)], want);
        CHECK_EQ(out[SLOT(1, l)], l < 10 ? l + 5 : 222u);
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    CHECK_EQ(s->warp_insns, 6 + 4 + 5);
    CHECK_EQ(s->thread_insns, 6 * 32 + 4 * 22 + 5 * 10);
    CHECK_EQ(s->divergent_branches, 1);
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* device functions                                                    */
/* ------------------------------------------------------------------ */

static const char calls_ptx[] =
    PK_HEADER
    /* triple(x) = (3x + 1, activemask inside) : 5 instructions */
    ".func (.param .b32 triple_ret0, .param .b32 triple_ret1) triple(\n"
    "    .param .b32 triple_x\n"
    ")\n"
    "{\n"
    "    .reg .b32 %r<4>;\n"
    "    ld.param.u32 %r1, [triple_x];           // t1\n"
    "    activemask.b32 %r2;                     // t2\n"
    "    mad.lo.s32 %r3, %r1, 3, 1;              // t3\n"
    "    st.param.b32 [triple_ret0], %r3;        // t4\n"
    "    st.param.b32 [triple_ret1], %r2;        // t5\n"
    "    ret;                                    // t6\n"
    "}\n"
    /* classify(x): x < 12 -> (2x, mask) else (x + 1000, mask); two rets */
    ".func (.param .b32 cl_ret0, .param .b32 cl_ret1) classify(\n"
    "    .param .b32 cl_x\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<6>;\n"
    "    ld.param.u32 %r1, [cl_x];               // c1\n"
    "    setp.lt.u32 %p1, %r1, 12;               // c2\n"
    "    @%p1 bra $SMALL;                        // c3 lanes 0-11 taken\n"
    "    activemask.b32 %r2;                     // b1\n"
    "    add.s32 %r3, %r1, 1000;                 // b2\n"
    "    st.param.b32 [cl_ret0], %r3;            // b3\n"
    "    st.param.b32 [cl_ret1], %r2;            // b4\n"
    "    ret;                                    // b5\n"
    "$SMALL:\n"
    "    activemask.b32 %r4;                     // s1\n"
    "    shl.b32 %r5, %r1, 1;                    // s2\n"
    "    st.param.b32 [cl_ret0], %r5;            // s3\n"
    "    st.param.b32 [cl_ret1], %r4;            // s4\n"
    "    ret;                                    // s5\n"
    "}\n"
    /* inner(x) = (x << 4, mask) */
    ".func (.param .b32 in_ret0, .param .b32 in_ret1) inner(\n"
    "    .param .b32 in_x\n"
    ")\n"
    "{\n"
    "    .reg .b32 %r<4>;\n"
    "    ld.param.u32 %r1, [in_x];               // i1\n"
    "    activemask.b32 %r2;                     // i2\n"
    "    shl.b32 %r3, %r1, 4;                    // i3\n"
    "    st.param.b32 [in_ret0], %r3;            // i4\n"
    "    st.param.b32 [in_ret1], %r2;            // i5\n"
    "    ret;                                    // i6\n"
    "}\n"
    /* outer(x) = (inner(x + 1) + 5, inner's mask, mask after inner) */
    ".func (.param .b32 out_ret0, .param .b32 out_ret1, .param .b32 out_ret2)"
    " outer(\n"
    "    .param .b32 out_x\n"
    ")\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    ld.param.u32 %r1, [out_x];              // o1\n"
    "    add.s32 %r2, %r1, 1;                    // o2\n"
    "    {\n"
    "    .param .b32 param0;\n"
    "    st.param.b32 [param0+0], %r2;           // o3\n"
    "    .param .b32 retval0;\n"
    "    .param .b32 retval1;\n"
    "    call.uni (retval0, retval1),\n"
    "    inner,\n"
    "    (\n"
    "    param0\n"
    "    );                                      // o4\n"
    "    ld.param.b32 %r3, [retval0+0];          // o5\n"
    "    ld.param.b32 %r4, [retval1+0];          // o6\n"
    "    }\n"
    "    add.s32 %r5, %r3, 5;                    // o7\n"
    "    activemask.b32 %r6;                     // o8\n"
    "    st.param.b32 [out_ret0], %r5;           // o9\n"
    "    st.param.b32 [out_ret1], %r4;           // o10\n"
    "    st.param.b32 [out_ret2], %r6;           // o11\n"
    "    ret;                                    // o12\n"
    "}\n"
    /* every lane calls triple */
    ".visible .entry call_all(\n"
    "    .param .u64 call_all_param_0\n"
    ")\n"
    "{\n"
    "    .reg .b32 %r<5>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [call_all_param_0];  // 1\n"
    "    mov.u32 %r1, %tid.x;                    // 2\n"
    "    mul.wide.u32 %rd2, %r1, 4;              // 3\n"
    "    add.s64 %rd3, %rd1, %rd2;               // 4\n"
    "    { // callseq 0, 0\n"
    "    .reg .b32 temp_param_reg;\n"
    "    .param .b32 param0;\n"
    "    st.param.b32 [param0+0], %r1;           // 5\n"
    "    .param .b32 retval0;\n"
    "    .param .b32 retval1;\n"
    "    call.uni (retval0, retval1),\n"
    "    triple,\n"
    "    (\n"
    "    param0\n"
    "    );                                      // 6\n"
    "    ld.param.b32 %r2, [retval0+0];          // 7\n"
    "    ld.param.b32 %r3, [retval1+0];          // 8\n"
    "    } // callseq 0\n"
    "    activemask.b32 %r4;                     // 9\n"
    "    st.global.u32 [%rd3], %r2;              // 10 slot 0\n"
    "    st.global.u32 [%rd3+128], %r3;          // 11 slot 1\n"
    "    st.global.u32 [%rd3+256], %r4;          // 12 slot 2\n"
    "    ret;                                    // 13\n"
    "}\n"
    /* odd lanes call triple from divergent code */
    ".visible .entry call_half(\n"
    "    .param .u64 call_half_param_0\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<6>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [call_half_param_0]; // 1\n"
    "    mov.u32 %r1, %tid.x;                    // 2\n"
    "    mul.wide.u32 %rd2, %r1, 4;              // 3\n"
    "    add.s64 %rd3, %rd1, %rd2;               // 4\n"
    "    mov.u32 %r2, 7;                         // 5\n"
    "    mov.u32 %r3, 0;                         // 6\n"
    "    and.b32 %r5, %r1, 1;                    // 7\n"
    "    setp.eq.u32 %p1, %r5, 0;                // 8\n"
    "    @%p1 bra $SKIP;                         // 9 even lanes skip\n"
    "    {\n"
    "    .param .b32 param0;\n"
    "    st.param.b32 [param0+0], %r1;           // 10\n"
    "    .param .b32 retval0;\n"
    "    .param .b32 retval1;\n"
    "    call.uni (retval0, retval1), triple, (param0); // 11\n"
    "    ld.param.b32 %r2, [retval0+0];          // 12\n"
    "    ld.param.b32 %r3, [retval1+0];          // 13\n"
    "    }\n"
    "$SKIP:\n"
    "    activemask.b32 %r4;                     // 14\n"
    "    st.global.u32 [%rd3], %r2;              // 15 slot 0\n"
    "    st.global.u32 [%rd3+128], %r3;          // 16 slot 1\n"
    "    st.global.u32 [%rd3+256], %r4;          // 17 slot 2\n"
    "    ret;                                    // 18\n"
    "}\n"
    /* every lane calls classify (two ret points) */
    ".visible .entry call_classify(\n"
    "    .param .u64 call_classify_param_0\n"
    ")\n"
    "{\n"
    "    .reg .b32 %r<5>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [call_classify_param_0]; // 1\n"
    "    mov.u32 %r1, %tid.x;                    // 2\n"
    "    mul.wide.u32 %rd2, %r1, 4;              // 3\n"
    "    add.s64 %rd3, %rd1, %rd2;               // 4\n"
    "    {\n"
    "    .param .b32 param0;\n"
    "    st.param.b32 [param0+0], %r1;           // 5\n"
    "    .param .b32 retval0;\n"
    "    .param .b32 retval1;\n"
    "    call.uni (retval0, retval1), classify, (param0); // 6\n"
    "    ld.param.b32 %r2, [retval0+0];          // 7\n"
    "    ld.param.b32 %r3, [retval1+0];          // 8\n"
    "    }\n"
    "    activemask.b32 %r4;                     // 9\n"
    "    st.global.u32 [%rd3], %r2;              // 10 slot 0\n"
    "    st.global.u32 [%rd3+128], %r3;          // 11 slot 1\n"
    "    st.global.u32 [%rd3+256], %r4;          // 12 slot 2\n"
    "    ret;                                    // 13\n"
    "}\n"
    /* lanes 20-31 call outer, which calls inner */
    ".visible .entry call_nested(\n"
    "    .param .u64 call_nested_param_0\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [call_nested_param_0]; // 1\n"
    "    mov.u32 %r1, %tid.x;                    // 2\n"
    "    mul.wide.u32 %rd2, %r1, 4;              // 3\n"
    "    add.s64 %rd3, %rd1, %rd2;               // 4\n"
    "    mov.u32 %r2, 1;                         // 5\n"
    "    mov.u32 %r3, 2;                         // 6\n"
    "    mov.u32 %r4, 3;                         // 7\n"
    "    setp.lt.u32 %p1, %r1, 20;               // 8\n"
    "    @%p1 bra $AFTER;                        // 9 lanes 0-19 skip\n"
    "    {\n"
    "    .param .b32 param0;\n"
    "    st.param.b32 [param0+0], %r1;           // 10\n"
    "    .param .b32 retval0;\n"
    "    .param .b32 retval1;\n"
    "    .param .b32 retval2;\n"
    "    call.uni (retval0, retval1, retval2), outer, (param0); // 11\n"
    "    ld.param.b32 %r2, [retval0+0];          // 12\n"
    "    ld.param.b32 %r3, [retval1+0];          // 13\n"
    "    ld.param.b32 %r4, [retval2+0];          // 14\n"
    "    }\n"
    "$AFTER:\n"
    "    activemask.b32 %r5;                     // 15\n"
    "    st.global.u32 [%rd3], %r2;              // 16 slot 0\n"
    "    st.global.u32 [%rd3+128], %r3;          // 17 slot 1\n"
    "    st.global.u32 [%rd3+256], %r4;          // 18 slot 2\n"
    "    st.global.u32 [%rd3+384], %r5;          // 19 slot 3\n"
    "    ret;                                    // 20\n"
    "}\n";

TEST(reconv_call_by_all_lanes)
{
    simt_error_t err;
    uint32_t out[3 * 32];
    simt_gpu_t *g = run_slots(calls_ptx, "call_all", 32, 3, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    for (uint32_t l = 0; l < 32; l++) {
        CHECK_EQ(out[SLOT(0, l)], 3 * l + 1);
        CHECK_EQ(out[SLOT(1, l)], 0xffffffffu); /* mask inside the callee */
        CHECK_EQ(out[SLOT(2, l)], 0xffffffffu); /* mask after the call */
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    CHECK_EQ(s->warp_insns, 13 + 6);      /* kernel 13, triple 6 */
    CHECK_EQ(s->thread_insns, 19 * 32);
    CHECK_EQ(s->divergent_branches, 0);
    pk_gpu_free(g);
}

TEST(reconv_call_from_divergent_code)
{
    simt_error_t err;
    uint32_t out[3 * 32];
    simt_gpu_t *g = run_slots(calls_ptx, "call_half", 32, 3, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    for (uint32_t l = 0; l < 32; l++) {
        int odd = l & 1;
        CHECK_MSG(out[SLOT(0, l)] == (odd ? 3 * l + 1 : 7u), "lane %u result "
                  "%u", l, out[SLOT(0, l)]);
        CHECK_MSG(out[SLOT(1, l)] == (odd ? 0xaaaaaaaau : 0u), "lane %u mask "
                  "in the callee 0x%08x", l, out[SLOT(1, l)]);
        CHECK_EQ(out[SLOT(2, l)], 0xffffffffu);
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    /* 1-9 (32 lanes), 10-13 (16), triple 6 (16), 14-18 (32) */
    CHECK_EQ(s->warp_insns, 9 + 4 + 6 + 5);
    CHECK_EQ(s->thread_insns, 9 * 32 + 4 * 16 + 6 * 16 + 5 * 32);
    CHECK_EQ(s->divergent_branches, 1);
    pk_gpu_free(g);
}

TEST(reconv_callee_with_two_returns)
{
    simt_error_t err;
    uint32_t out[3 * 32];
    simt_gpu_t *g = run_slots(calls_ptx, "call_classify", 32, 3, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    for (uint32_t l = 0; l < 32; l++) {
        int small = l < 12;
        CHECK_EQ(out[SLOT(0, l)], small ? 2 * l : l + 1000);
        CHECK_MSG(out[SLOT(1, l)] == (small ? 0x00000fffu : 0xfffff000u),
                  "lane %u: mask at its ret point 0x%08x", l, out[SLOT(1, l)]);
        CHECK_MSG(out[SLOT(2, l)] == 0xffffffffu, "lane %u: mask after the "
                  "call 0x%08x", l, out[SLOT(2, l)]);
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    /* kernel 13 (32 lanes); classify c1-c3 (32), s1-s5 (12), b1-b5 (20) */
    CHECK_EQ(s->warp_insns, 13 + 3 + 5 + 5);
    CHECK_EQ(s->thread_insns, 13 * 32 + 3 * 32 + 5 * 12 + 5 * 20);
    CHECK_EQ(s->divergent_branches, 1);
    pk_gpu_free(g);
}

TEST(reconv_nested_calls_in_divergent_code)
{
    simt_error_t err;
    uint32_t out[4 * 32];
    simt_gpu_t *g = run_slots(calls_ptx, "call_nested", 32, 4, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    for (uint32_t l = 0; l < 32; l++) {
        int in = l >= 20;
        CHECK_EQ(out[SLOT(0, l)], in ? ((l + 1) << 4) + 5 : 1u);
        CHECK_MSG(out[SLOT(1, l)] == (in ? 0xfff00000u : 2u), "lane %u: mask "
                  "in inner 0x%08x", l, out[SLOT(1, l)]);
        CHECK_MSG(out[SLOT(2, l)] == (in ? 0xfff00000u : 3u), "lane %u: mask "
                  "in outer after inner returned 0x%08x", l, out[SLOT(2, l)]);
        CHECK_EQ(out[SLOT(3, l)], 0xffffffffu);
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    /* kernel 1-9 (32), 10-14 (12), outer 12 (12), inner 6 (12), 15-20 (32) */
    CHECK_EQ(s->warp_insns, 9 + 5 + 12 + 6 + 6);
    CHECK_EQ(s->thread_insns, 9 * 32 + (5 + 12 + 6) * 12 + 6 * 32);
    CHECK_EQ(s->divergent_branches, 1);
    pk_gpu_free(g);
}

/* A callee whose lanes exit (not return) part-way: the caller continues
 * with the others only. */
static const char callexit_ptx[] =
    PK_HEADER
    ".func (.param .b32 q_ret) quit_some(\n"
    "    .param .b32 q_x\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<4>;\n"
    "    ld.param.u32 %r1, [q_x];                // q1\n"
    "    and.b32 %r2, %r1, 3;                    // q2\n"
    "    setp.eq.u32 %p1, %r2, 0;                // q3\n"
    "    @%p1 exit;                              // q4 lanes 0,4,8,.. exit\n"
    "    activemask.b32 %r3;                     // q5\n"
    "    st.param.b32 [q_ret], %r3;              // q6\n"
    "    ret;                                    // q7\n"
    "}\n"
    ".visible .entry call_exit(\n"
    "    .param .u64 call_exit_param_0\n"
    ")\n"
    "{\n"
    "    .reg .b32 %r<5>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [call_exit_param_0]; // 1\n"
    "    mov.u32 %r1, %tid.x;                    // 2\n"
    "    mul.wide.u32 %rd2, %r1, 4;              // 3\n"
    "    add.s64 %rd3, %rd1, %rd2;               // 4\n"
    "    {\n"
    "    .param .b32 param0;\n"
    "    st.param.b32 [param0+0], %r1;           // 5\n"
    "    .param .b32 retval0;\n"
    "    call.uni (retval0), quit_some, (param0); // 6\n"
    "    ld.param.b32 %r2, [retval0+0];          // 7\n"
    "    }\n"
    "    activemask.b32 %r3;                     // 8\n"
    "    st.global.u32 [%rd3], %r2;              // 9 slot 0\n"
    "    st.global.u32 [%rd3+128], %r3;          // 10 slot 1\n"
    "    ret;                                    // 11\n"
    "}\n";

TEST(reconv_exit_inside_callee)
{
    simt_error_t err;
    uint32_t out[2 * 32];
    simt_gpu_t *g = run_slots(callexit_ptx, "call_exit", 32, 2, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t want = (l & 3) == 0 ? PK_SENTINEL : 0xeeeeeeeeu;
        CHECK_MSG(out[SLOT(0, l)] == want && out[SLOT(1, l)] == want,
                  "lane %u: 0x%08x 0x%08x, expected 0x%08x", l,
                  out[SLOT(0, l)], out[SLOT(1, l)], want);
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    /* kernel 1-6 (32), quit_some q1-q4 (32), q5-q7 (24), kernel 7-11 (24) */
    CHECK_EQ(s->warp_insns, 6 + 4 + 3 + 5);
    CHECK_EQ(s->thread_insns, 10 * 32 + 8 * 24);
    CHECK_EQ(s->divergent_branches, 0);
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* a partial warp: masks never include lanes without a thread          */
/* ------------------------------------------------------------------ */

TEST(reconv_partial_warp_masks)
{
    /* the diamond with 40 threads: warp 1 holds threads 32-39 (lanes 0-7) */
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "reconv.ptx", diamond_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    /* slots are 32 words apart in the kernel: give each warp its own
     * buffer region by launching 40 threads over a 3*64-word buffer, where
     * thread t's slot s word is s*32 + t (warp 1 overlaps slot s+1 of warp
     * 0 for t >= 32, so read only what is unambiguous: slot 2) */
    simt_devptr_t buf = pk_alloc_u32(g, 3 * 64, PK_SENTINEL);
    CHECK(buf);
    simt_arg_t a[1] = { SIMT_ARG(buf) };
    CHECK_MSG(pk_run(g, m, "diamond", pk_dim(1, 1, 1), pk_dim(40, 1, 1), 0, a,
                     1, &err) == SIMT_OK, "%s", err.msg);
    uint32_t out[3 * 64];
    CHECK(pk_read_u32(g, buf, out, 3 * 64) == SIMT_OK);
    /* warp 1 runs after warp 0, so its words win where they overlap:
     * thread 32+l (lane l < 8) wrote word 32+l (side mask), 64+l (join
     * mask) and 96+l (value). */
    for (uint32_t l = 0; l < 8; l++) {
        uint32_t side = (l & 1) ? 0x000000aau : 0x00000055u;
        CHECK_MSG(out[32 + l] == side, "warp 1 lane %u: side mask 0x%08x, "
                  "expected 0x%08x", l, out[32 + l], side);
        CHECK_MSG(out[64 + l] == 0x000000ffu, "warp 1 lane %u: join mask "
                  "0x%08x, expected 0x000000ff", l, out[64 + l]);
        CHECK_EQ(out[96 + l], ((l & 1) ? 200u : 100u) + 32 + l);
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    CHECK_EQ(s->warp_insns, 19 * 2);
    /* warp 0 as before (496); warp 1: 7*8 + 4*4 + 3*4 + 5*8 = 124 */
    CHECK_EQ(s->thread_insns, 496 + 124);
    CHECK_EQ(s->divergent_branches, 2);
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* uniform branches are not divergent                                  */
/* ------------------------------------------------------------------ */

static const char uniform_ptx[] =
    PK_HEADER
    ".visible .entry uniform(\n"
    "    .param .u64 uniform_param_0\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [uniform_param_0];   // 1\n"
    "    mov.u32 %r1, %tid.x;                    // 2\n"
    "    mul.wide.u32 %rd2, %r1, 4;              // 3\n"
    "    add.s64 %rd3, %rd1, %rd2;               // 4\n"
    "    mov.u32 %r2, 0;                         // 5\n"
    "    setp.lt.u32 %p1, %r1, 1000;             // 6 true in every lane\n"
    "    @%p1 bra $A;                            // 7 all taken\n"
    "    add.s32 %r2, %r2, 100;                  // (skipped)\n"
    "$A:\n"
    "    @!%p1 bra $B;                           // 8 none taken\n"
    "    add.s32 %r2, %r2, 1;                    // 9\n"
    "$B:\n"
    "    bra.uni $C;                             // 10\n"
    "    add.s32 %r2, %r2, 1000;                 // (skipped)\n"
    "$C:\n"
    "    bra $D;                                 // 11 unconditional\n"
    "    add.s32 %r2, %r2, 10000;                // (skipped)\n"
    "$D:\n"
    "    activemask.b32 %r3;                     // 12\n"
    "    add.s32 %r2, %r2, %r3;                  // 13\n"
    "    st.global.u32 [%rd3], %r2;              // 14\n"
    "    ret;                                    // 15\n"
    "}\n";

TEST(reconv_uniform_branches_not_divergent)
{
    simt_error_t err;
    uint32_t out[32];
    simt_gpu_t *g = run_slots(uniform_ptx, "uniform", 32, 1, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    for (uint32_t l = 0; l < 32; l++)
        CHECK_EQ(out[l], 1u + 0xffffffffu); /* 1 + full mask, wrapped: 0 */
    const simt_stats_t *s = simt_gpu_stats(g);
    CHECK_EQ(s->warp_insns, 15);
    CHECK_EQ(s->thread_insns, 15 * 32);
    CHECK_EQ(s->divergent_branches, 0);
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* a loop whose lanes leave in 31 different trips needs few entries    */
/* ------------------------------------------------------------------ */

/* Lane l iterates l + 1 times.  With post-dominator reconvergence the
 * lanes that leave wait at the loop exit in the entry that already waits
 * there: the stack holds the exit entry and the loop entry whatever the
 * number of distinct trip counts (GPGPU-Sim reuses the top entry when the
 * new reconvergence PC equals its own).  A small simt_stack_depth must
 * therefore be enough. */
static const char stairs_ptx[] =
    PK_HEADER
    ".visible .entry stairs(\n"
    "    .param .u64 stairs_param_0\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<6>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [stairs_param_0];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mul.wide.u32 %rd2, %r1, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    mov.u32 %r2, 0;\n"
    "    mov.u32 %r3, 0;\n"
    "$LOOP:\n"
    "    add.s32 %r3, %r3, %r2;\n"
    "    add.s32 %r2, %r2, 1;\n"
    "    setp.le.u32 %p1, %r2, %r1;\n"
    "    @%p1 bra $LOOP;\n"
    "    activemask.b32 %r4;\n"
    "    st.global.u32 [%rd3], %r3;\n"
    "    st.global.u32 [%rd3+128], %r4;\n"
    "    ret;\n"
    "}\n";

TEST(reconv_loop_exits_keep_stack_small)
{
    simt_error_t err;
    static const char *const sets[] = { "simt_stack_depth=8", NULL };
    simt_gpu_t *g = pk_gpu(sets, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "stairs.ptx", stairs_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    simt_devptr_t buf = pk_alloc_u32(g, 64, PK_SENTINEL);
    CHECK(buf);
    simt_arg_t a[1] = { SIMT_ARG(buf) };
    int rc = pk_run(g, m, "stairs", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a,
                    1, &err);
    CHECK_MSG(rc == SIMT_OK, "a loop with 31 divergent exits overflowed "
              "simt_stack_depth=8 (status %d): %s", rc, err.msg);
    uint32_t out[64];
    CHECK(pk_read_u32(g, buf, out, 64) == SIMT_OK);
    for (uint32_t l = 0; l < 32; l++) {
        CHECK_EQ(out[l], l * (l + 1) / 2);
        CHECK_EQ(out[32 + l], 0xffffffffu);
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    CHECK_EQ(s->warp_insns, 6 + 4 * 32 + 4);
    CHECK_EQ(s->divergent_branches, 31);
    pk_gpu_free(g);
}

TEST(reconv_loop_exits_standard_depth)
{
    /* the same loop with the default stack depth: results and counts */
    simt_error_t err;
    uint32_t out[64];
    simt_gpu_t *g = run_slots(stairs_ptx, "stairs", 32, 2, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    for (uint32_t l = 0; l < 32; l++) {
        CHECK_EQ(out[l], l * (l + 1) / 2);
        CHECK_EQ(out[32 + l], 0xffffffffu);
    }
    const simt_stats_t *s = simt_gpu_stats(g);
    /* 6 before the loop, 4 per trip for the warp's 32 trips, 4 after */
    CHECK_EQ(s->warp_insns, 6 + 4 * 32 + 4);
    /* lanes per trip k (0-based): 32 - k */
    CHECK_EQ(s->thread_insns, 6 * 32 + 4 * (32 * 33 / 2) + 4 * 32);
    CHECK_EQ(s->divergent_branches, 31); /* trips 1..31; the last is uniform */
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* nested loops with divergent trip counts at both levels              */
/*   for (i = 0; i < (l & 3) + 1; i++) {                               */
/*       for (j = 0; j < ((l >> 2) & 3); j++) acc += 10 i + j;         */
/*       mask[i] = activemask();   // after the inner loop             */
/*   }                                                                 */
/* ------------------------------------------------------------------ */

static const char nestloop_ptx[] =
    PK_HEADER
    ".visible .entry nestloop(\n"
    "    .param .u64 nestloop_param_0\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<4>;\n"
    "    .reg .b32 %r<10>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    ld.param.u64 %rd1, [nestloop_param_0];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mul.wide.u32 %rd2, %r1, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    and.b32 %r2, %r1, 3;\n"
    "    add.s32 %r2, %r2, 1;\n"                 /* outer trips 1..4 */
    "    shr.u32 %r3, %r1, 2;\n"
    "    and.b32 %r3, %r3, 3;\n"                 /* inner trips 0..3 */
    "    mov.u32 %r4, 0;\n"                      /* i */
    "    mov.u32 %r6, 0;\n"                      /* acc */
    "$OUTER:\n"
    "    mov.u32 %r5, 0;\n"                      /* j */
    "    setp.eq.u32 %p1, %r3, 0;\n"
    "    @%p1 bra $LATCH;\n"
    "$INNER:\n"
    "    mad.lo.s32 %r7, %r4, 10, %r5;\n"
    "    add.s32 %r6, %r6, %r7;\n"
    "    add.s32 %r5, %r5, 1;\n"
    "    setp.lt.u32 %p2, %r5, %r3;\n"
    "    @%p2 bra $INNER;\n"
    "$LATCH:\n"
    "    activemask.b32 %r8;\n"
    "    mul.wide.u32 %rd4, %r4, 128;\n"
    "    add.s64 %rd5, %rd3, %rd4;\n"
    "    st.global.u32 [%rd5+256], %r8;\n"       /* slot 2 + i */
    "    add.s32 %r4, %r4, 1;\n"
    "    setp.lt.u32 %p3, %r4, %r2;\n"
    "    @%p3 bra $OUTER;\n"
    "    activemask.b32 %r9;\n"
    "    st.global.u32 [%rd3], %r9;\n"           /* slot 0 */
    "    st.global.u32 [%rd3+128], %r6;\n"       /* slot 1 */
    "    ret;\n"
    "}\n";

TEST(reconv_nested_loops_divergent_trips)
{
    simt_error_t err;
    uint32_t out[6 * 32];
    simt_gpu_t *g = run_slots(nestloop_ptx, "nestloop", 32, 6, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t outer = (l & 3) + 1, inner = (l >> 2) & 3, acc = 0;
        for (uint32_t i = 0; i < outer; i++)
            for (uint32_t j = 0; j < inner; j++)
                acc += 10 * i + j;
        CHECK_EQ(out[SLOT(0, l)], 0xffffffffu);
        CHECK_EQ(out[SLOT(1, l)], acc);
        for (uint32_t i = 0; i < 4; i++) {
            /* after the inner loop of outer trip i: every lane still in the
             * outer loop, whatever its inner trip count */
            uint32_t want = PK_SENTINEL;
            if (i < outer) {
                want = 0;
                for (uint32_t x = 0; x < 32; x++)
                    want |= (uint32_t)((x & 3) + 1 > i) << x;
            }
            CHECK_MSG(out[SLOT(2 + i, l)] == want, "lane %u outer trip %u: "
                      "mask 0x%08x, expected 0x%08x", l, i,
                      out[SLOT(2 + i, l)], want);
        }
    }
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* a call with two return points inside a loop with divergent trips     */
/* ------------------------------------------------------------------ */

static const char callloop_ptx[] =
    PK_HEADER
    ".func (.param .b32 cl_ret0, .param .b32 cl_ret1) classify(\n"
    "    .param .b32 cl_x\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<6>;\n"
    "    ld.param.u32 %r1, [cl_x];\n"
    "    setp.lt.u32 %p1, %r1, 12;\n"
    "    @%p1 bra $SMALL;\n"
    "    activemask.b32 %r2;\n"
    "    add.s32 %r3, %r1, 1000;\n"
    "    st.param.b32 [cl_ret0], %r3;\n"
    "    st.param.b32 [cl_ret1], %r2;\n"
    "    ret;\n"
    "$SMALL:\n"
    "    activemask.b32 %r4;\n"
    "    shl.b32 %r5, %r1, 1;\n"
    "    st.param.b32 [cl_ret0], %r5;\n"
    "    st.param.b32 [cl_ret1], %r4;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry callloop(\n"
    "    .param .u64 callloop_param_0\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<3>;\n"
    "    .reg .b32 %r<12>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [callloop_param_0];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mul.wide.u32 %rd2, %r1, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    rem.u32 %r2, %r1, 4;\n"                 /* trips 0..3 */
    "    mov.u32 %r3, 0;\n"                      /* i */
    "    mov.u32 %r4, 0;\n"                      /* acc */
    "    mov.u32 %r5, 0;\n"                      /* xor of callee masks */
    "    setp.eq.u32 %p1, %r2, 0;\n"
    "    @%p1 bra $DONE;\n"
    "$LOOP:\n"
    "    mad.lo.s32 %r6, %r3, 5, %r1;\n"         /* x = 5 i + l */
    "    {\n"
    "    .param .b32 param0;\n"
    "    st.param.b32 [param0+0], %r6;\n"
    "    .param .b32 retval0;\n"
    "    .param .b32 retval1;\n"
    "    call.uni (retval0, retval1), classify, (param0);\n"
    "    ld.param.b32 %r7, [retval0+0];\n"
    "    ld.param.b32 %r8, [retval1+0];\n"
    "    }\n"
    "    add.s32 %r4, %r4, %r7;\n"
    "    xor.b32 %r5, %r5, %r8;\n"
    "    add.s32 %r3, %r3, 1;\n"
    "    setp.lt.u32 %p2, %r3, %r2;\n"
    "    @%p2 bra $LOOP;\n"
    "$DONE:\n"
    "    activemask.b32 %r9;\n"
    "    st.global.u32 [%rd3], %r9;\n"
    "    st.global.u32 [%rd3+128], %r4;\n"
    "    st.global.u32 [%rd3+256], %r5;\n"
    "    ret;\n"
    "}\n";

TEST(reconv_call_inside_divergent_loop)
{
    simt_error_t err;
    uint32_t out[3 * 32];
    simt_gpu_t *g = run_slots(callloop_ptx, "callloop", 32, 3, out, &err);
    CHECK_MSG(g, "run failed: %s", err.msg);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t trips = l % 4, acc = 0, xr = 0;
        for (uint32_t i = 0; i < trips; i++) {
            uint32_t x = 5 * i + l;
            /* lanes in trip i: those with more than i trips; of them, the
             * ones whose x = 5 i + lane is below 12 return first */
            uint32_t in = 0, small = 0;
            for (uint32_t k = 0; k < 32; k++)
                if (k % 4 > i) {
                    in |= 1u << k;
                    small |= (uint32_t)(5 * i + k < 12) << k;
                }
            acc += x < 12 ? 2 * x : x + 1000;
            xr ^= x < 12 ? small : in & ~small;
        }
        CHECK_EQ(out[SLOT(0, l)], 0xffffffffu);
        CHECK_EQ(out[SLOT(1, l)], acc);
        CHECK_MSG(out[SLOT(2, l)] == xr, "lane %u: callee masks xor 0x%08x, "
                  "expected 0x%08x", l, out[SLOT(2, l)], xr);
    }
    pk_gpu_free(g);
}
