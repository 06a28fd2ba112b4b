/* test_threads.c: simt_gpu_set_threads (gpu/smpar.h), the SMs of a cycle
 * on several host threads with results bit-identical to one thread.
 *
 * The reference is the one-thread run, whose order is the model's
 * definition (docs/timing-model.md, "Several host threads"); besides, each
 * kernel's outcome is derived by hand where it can be: the tickets of an
 * atomic counter are a permutation of 0..n-1, and a store to address 8
 * faults with "no allocation there". */
#include <string.h>

#include "../harness.h"
#include "ptx_kernel_helpers.h"

/* Each thread takes ITERS tickets from a global counter (atom.add returns
 * the old value; the loop waits for each) and writes ticket k to
 * out[global thread id * ITERS + k].  The waits on the counter's line
 * make the SMs' issue cycles drift, so atomics of different SMs meet in
 * the same cycle. */
static const char ticket_ptx[] =
    PK_HEADER
    ".visible .entry ticket(.param .u64 ctr, .param .u64 out)\n"
    "{\n"
    "\t.reg .pred %p<2>;\n"
    "\t.reg .b32 %r<8>;\n"
    "\t.reg .b64 %rd<5>;\n"
    "\tld.param.u64 %rd1, [ctr];\n"
    "\tld.param.u64 %rd2, [out];\n"
    "\tmov.u32 %r1, %ctaid.x;\n"
    "\tmov.u32 %r2, %tid.x;\n"
    "\tmov.u32 %r5, %ntid.x;\n"
    "\tmad.lo.s32 %r3, %r1, %r5, %r2;\n"
    "\tshl.b32 %r3, %r3, 3;\n"      /* x ITERS (8) */
    "\tmov.u32 %r6, 0;\n"
    "$L_loop:\n"
    "\tatom.global.add.u32 %r4, [%rd1], 1;\n"
    "\tadd.s32 %r7, %r3, %r6;\n"
    "\tmul.wide.u32 %rd3, %r7, 4;\n"
    "\tadd.s64 %rd4, %rd2, %rd3;\n"
    "\tst.global.u32 [%rd4], %r4;\n"
    "\tadd.s32 %r6, %r6, 1;\n"
    "\tsetp.lt.u32 %p1, %r6, 8;\n"
    "\t@%p1 bra.uni $L_loop;\n"
    "\tret;\n"
    "}\n";

/* Each thread takes tickets until their sum reaches 4, then stores to
 * address 8, where no allocation is: warps of every SM fault, at cycles
 * that depend on the order of the atomics; the first report wins. */
static const char oob_ptx[] =
    PK_HEADER
    ".visible .entry oob(.param .u64 ctr)\n"
    "{\n"
    "\t.reg .pred %p<2>;\n"
    "\t.reg .b32 %r<4>;\n"
    "\t.reg .b64 %rd<3>;\n"
    "\tld.param.u64 %rd1, [ctr];\n"
    "\tmov.u32 %r1, 0;\n"
    "$L_loop:\n"
    "\tatom.global.add.u32 %r2, [%rd1], 1;\n"
    "\tadd.s32 %r1, %r1, %r2;\n"
    "\tsetp.lt.u32 %p1, %r1, 4;\n"
    "\t@%p1 bra.uni $L_loop;\n"
    "\tmov.u64 %rd2, 8;\n"
    "\tst.global.u32 [%rd2], %r1;\n"
    "\tret;\n"
    "}\n";

/* Four SMs (one per cluster): the first cycle places a CTA on each. */
static const char *const four_sms[] = { "functional=0", "gpgpu_n_clusters=4",
                                        "gpgpu_n_cores_per_cluster=1", NULL };

enum { NCTA = 16, NTHR = 64, ITERS = 8, NT = NCTA * NTHR * ITERS };

TEST(threads_set_checks_its_range)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    CHECK_EQ(simt_gpu_set_threads(g, 0), SIMT_EINPUT);
    CHECK_EQ(simt_gpu_set_threads(g, SIMT_MAX_THREADS + 1), SIMT_EINPUT);
    CHECK_EQ(simt_gpu_set_threads(g, 1), SIMT_OK);
    CHECK_EQ(simt_gpu_set_threads(g, SIMT_MAX_THREADS), SIMT_OK);
    pk_gpu_free(g);
}

/* One run of `ticket` with n threads: out[] and the statistics. */
static int tickets(unsigned n, uint32_t out[NT], uint32_t *count,
                   simt_stats_t *st, simt_error_t *err)
{
    simt_gpu_t *g = pk_gpu(four_sms, err);
    if (!g)
        return err->status;
    int rc = simt_gpu_set_threads(g, n);
    simt_module_t *m = rc == SIMT_OK ? pk_load(g, "ticket.ptx", ticket_ptx, err) : NULL;
    simt_devptr_t ctr = pk_alloc_u32(g, 1, 0), o = pk_alloc_u32(g, NT, 0xffffffffu);
    simt_arg_t a[2] = { SIMT_ARG(ctr), SIMT_ARG(o) };
    if (rc == SIMT_OK)
        rc = m && ctr && o ? pk_run(g, m, "ticket", pk_dim(NCTA, 1, 1),
                                    pk_dim(NTHR, 1, 1), 0, a, 2, err)
                           : SIMT_EINPUT;
    if (rc == SIMT_OK)
        rc = pk_read_u32(g, o, out, NT);
    if (rc == SIMT_OK)
        rc = pk_read_u32(g, ctr, count, 1);
    if (rc == SIMT_OK)
        *st = *simt_gpu_stats(g);
    pk_gpu_free(g);
    return rc;
}

TEST(threads_atomic_tickets_identical_to_one_thread)
{
    static uint32_t ref[NT], out[NT];
    uint32_t count;
    simt_stats_t st1, st;
    simt_error_t err;
    CHECK_MSG(tickets(1, ref, &count, &st1, &err) == SIMT_OK, "%s", err.msg);
    /* by hand: NT increments, each ticket handed out once */
    CHECK_EQ(count, NT);
    static uint8_t seen[NT];
    memset(seen, 0, sizeof seen);
    for (unsigned i = 0; i < NT; i++) {
        CHECK(ref[i] < NT);
        if (ref[i] < NT)
            seen[ref[i]]++;
    }
    for (unsigned i = 0; i < NT; i++)
        CHECK_EQ(seen[i], 1);
    CHECK_EQ(st1.atomics, NT);
    for (unsigned n = 2; n <= 4; n++) {
        CHECK_MSG(tickets(n, out, &count, &st, &err) == SIMT_OK, "%s", err.msg);
        CHECK_EQ(count, NT);
        CHECK_MSG(!memcmp(out, ref, sizeof ref), "%u threads: other tickets", n);
        CHECK_MSG(!memcmp(&st, &st1, sizeof st), "%u threads: other statistics", n);
    }
}

TEST(threads_fault_report_identical_to_one_thread)
{
    char ref[sizeof ((simt_error_t *)0)->msg] = "";
    for (unsigned n = 1; n <= 3; n++) {
        simt_error_t err;
        simt_gpu_t *g = pk_gpu(four_sms, &err);
        CHECK_MSG(g, "%s", err.msg);
        CHECK_EQ(simt_gpu_set_threads(g, n), SIMT_OK);
        simt_module_t *m = pk_load(g, "oob.ptx", oob_ptx, &err);
        CHECK_MSG(m, "%s", err.msg);
        simt_devptr_t ctr = pk_alloc_u32(g, 1, 0);
        simt_arg_t a[1] = { SIMT_ARG(ctr) };
        CHECK_EQ(pk_run(g, m, "oob", pk_dim(NCTA, 1, 1), pk_dim(NTHR, 1, 1), 0, a, 1,
                        &err), SIMT_EFAULT);
        CHECK_MSG(strstr(err.msg, "no allocation there"), "%s", err.msg);
        if (n == 1)
            snprintf(ref, sizeof ref, "%s", err.msg);
        else
            CHECK_MSG(!strcmp(ref, err.msg), "%u threads:\n%s\none thread:\n%s", n,
                      err.msg, ref);
        pk_gpu_free(g);
    }
}
