/* test_cta_trace.c: the CTA-count trace (simt.h simt_gpu_set_cta_trace)
 * on a run whose CTA placement is known: 40 CTAs of one 100-add warp each
 * on the default 15 SMs of 8 CTA slots, so every SM holds at most 8 and
 * all 40 are placed; the statistics do not change with the trace on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "ptx_kernel_helpers.h"

enum { NSM = 15, ROWS = 1024 };

typedef struct rows {
    unsigned n;
    uint64_t cycle[ROWS];
    unsigned sm[ROWS], ctas[ROWS];
} rows_t;

static void record(void *ctx, uint64_t cycle, unsigned sm, unsigned ctas)
{
    rows_t *r = ctx;
    if (r->n < ROWS) {
        r->cycle[r->n] = cycle;
        r->sm[r->n] = sm;
        r->ctas[r->n] = ctas;
    }
    r->n++;
}

static const char ptx[] = PK_HEADER
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n"
    "ld.param.u64 %rd1, [p];\n"
    "mov.u32 %r1, %tid.x;\n"
    "add.s32 %r2, %r1, 1;\n"
    "st.global.u32 [%rd1], %r2;\n"
    "ret;\n}\n";

/* gpu_sim_cycle of the run, with the trace into r (NULL: none). */
static uint64_t run(rows_t *r)
{
    static const char *const timing[] = { "functional=0", NULL };
    simt_error_t err = { 0 };
    simt_gpu_t *g = pk_gpu(timing, &err);
    simt_module_t *m = g ? pk_load(g, "k.ptx", ptx, &err) : NULL;
    uint64_t cycles = 0;
    if (m) {
        if (r)
            simt_gpu_set_cta_trace(g, record, r);
        simt_devptr_t out = pk_alloc_u32(g, 1, 0);
        simt_arg_t a[1] = { SIMT_ARG(out) };
        if (pk_run(g, m, "k", pk_dim(40, 1, 1), pk_dim(32, 1, 1), 0, a, 1,
                   &err) == SIMT_OK)
            cycles = simt_gpu_stats(g)->gpu_sim_cycle;
    }
    if (!cycles)
        printf("  %s\n", err.msg);
    pk_gpu_free(g);
    return cycles;
}

TEST(cta_trace_counts)
{
    static rows_t r;
    memset(&r, 0, sizeof r);
    uint64_t with = run(&r), without = run(NULL);
    CHECK(with && with == without);
    CHECK(r.n > NSM && r.n <= ROWS);
    /* the run starts with a 0 row for every SM, in SM order, at cycle 0 */
    for (unsigned i = 0; i < NSM; i++) {
        CHECK_EQ(r.sm[i], i);
        CHECK_EQ(r.cycle[i], 0);
        CHECK_EQ(r.ctas[i], 0);
    }
    unsigned now[NSM] = { 0 }, placed = 0;
    for (unsigned i = NSM; i < r.n && i < ROWS; i++) {
        CHECK(r.sm[i] < NSM);
        CHECK(r.cycle[i] >= r.cycle[i - 1] && r.cycle[i] < with);
        CHECK(r.ctas[i] != now[r.sm[i]]); /* a row is a change */
        CHECK(r.ctas[i] <= 8);            /* gpgpu_shader_cta */
        if (r.ctas[i] > now[r.sm[i]])
            placed += r.ctas[i] - now[r.sm[i]];
        now[r.sm[i]] = r.ctas[i];
    }
    CHECK_EQ(placed, 40); /* the grid */
    for (unsigned i = 0; i < NSM; i++)
        CHECK_EQ(now[i], 0); /* every SM ends empty */
}
