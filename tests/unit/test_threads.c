/* test_threads.c: simt_gpu_set_threads (gpu/smpar.h), the SMs of a cycle
 * on several host threads with results bit-identical to one thread.
 *
 * The reference is the one-thread run, whose order is the model's
 * definition (docs/timing-model.md, "Several host threads"); besides, each
 * kernel's outcome is derived by hand where it can be: the tickets of an
 * atomic counter are a permutation of 0..n-1, and a store to address 8
 * faults with "no allocation there". */
#include <stdio.h>
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

/* Each thread stores its iteration count to its slot and loads the slots
 * of the same thread in the CTAs before and after it (ring order), again
 * and again, and hashes what it read.  CTA c runs on SM c, so SM j's loads
 * meet the stores of SM j - 1 (and j + 1) in the same cycles: with one
 * thread a load sees the lower SM's store of its cycle and not the
 * higher SM's, and so must every other thread count (a load that runs
 * before a lower SM's store of the cycle hashes another value). */
static const char relay_ptx[] =
    PK_HEADER
    ".visible .entry relay(.param .u64 slots, .param .u64 out)\n"
    "{\n"
    "\t.reg .pred %p<2>;\n"
    "\t.reg .b32 %r<16>;\n"
    "\t.reg .b64 %rd<8>;\n"
    "\tld.param.u64 %rd1, [slots];\n"
    "\tld.param.u64 %rd2, [out];\n"
    "\tmov.u32 %r1, %ctaid.x;\n"
    "\tmov.u32 %r2, %tid.x;\n"
    "\tmov.u32 %r3, %ntid.x;\n"
    "\tmov.u32 %r4, %nctaid.x;\n"
    "\tmad.lo.s32 %r5, %r1, %r3, %r2;\n"      /* mine: c * ntid + t */
    "\tadd.s32 %r6, %r1, %r4;\n"
    "\tsub.s32 %r6, %r6, 1;\n"
    "\trem.u32 %r6, %r6, %r4;\n"
    "\tmad.lo.s32 %r6, %r6, %r3, %r2;\n"      /* prev: (c - 1) mod n */
    "\tadd.s32 %r7, %r1, 1;\n"
    "\trem.u32 %r7, %r7, %r4;\n"
    "\tmad.lo.s32 %r7, %r7, %r3, %r2;\n"      /* next: (c + 1) mod n */
    "\tmul.wide.u32 %rd3, %r5, 4;\n"
    "\tadd.s64 %rd3, %rd1, %rd3;\n"
    "\tmul.wide.u32 %rd4, %r6, 4;\n"
    "\tadd.s64 %rd4, %rd1, %rd4;\n"
    "\tmul.wide.u32 %rd5, %r7, 4;\n"
    "\tadd.s64 %rd5, %rd1, %rd5;\n"
    "\tmov.u32 %r8, 0;\n"                     /* i */
    "\tmov.u32 %r9, 0;\n"                     /* hash */
    "$L_loop:\n"
    "\tst.global.u32 [%rd3], %r8;\n"
    "\tld.volatile.global.u32 %r10, [%rd4];\n"
    "\tld.volatile.global.u32 %r11, [%rd5];\n"
    "\tadd.s32 %r8, %r8, 1;\n"
    "\tst.global.u32 [%rd3], %r8;\n"
    "\tld.volatile.global.u32 %r12, [%rd4];\n"
    "\tld.volatile.global.u32 %r13, [%rd5];\n"
    "\tmad.lo.s32 %r9, %r9, 31, %r10;\n"
    "\tmad.lo.s32 %r9, %r9, 31, %r11;\n"
    "\tmad.lo.s32 %r9, %r9, 31, %r12;\n"
    "\tmad.lo.s32 %r9, %r9, 31, %r13;\n"
    "\tadd.s32 %r8, %r8, 1;\n"
    "\tsetp.lt.u32 %p1, %r8, 256;\n"
    "\t@%p1 bra.uni $L_loop;\n"
    "\tmul.wide.u32 %rd6, %r5, 4;\n"
    "\tadd.s64 %rd6, %rd2, %rd6;\n"
    "\tst.global.u32 [%rd6], %r9;\n"
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

/* One run of kernel `name` (source `ptx`) on four SMs with n host
 * threads: its two parameters are buffers of n0 and n1 words, filled with
 * v0 and v1 and read back into b0 and b1 (NULL: not read); and the
 * statistics. */
static int run_two_buffers(unsigned n, const char *ptx, const char *name,
                           unsigned nctas, unsigned nthr, uint32_t *b0, unsigned n0,
                           uint32_t v0, uint32_t *b1, unsigned n1, uint32_t v1,
                           simt_stats_t *st, simt_error_t *err)
{
    simt_gpu_t *g = pk_gpu(four_sms, err);
    if (!g)
        return err->status;
    char file[64];
    snprintf(file, sizeof file, "%s.ptx", name);
    int rc = simt_gpu_set_threads(g, n);
    simt_module_t *m = rc == SIMT_OK ? pk_load(g, file, ptx, err) : NULL;
    simt_devptr_t d0 = pk_alloc_u32(g, n0, v0), d1 = pk_alloc_u32(g, n1, v1);
    simt_arg_t a[2] = { SIMT_ARG(d0), SIMT_ARG(d1) };
    if (rc == SIMT_OK)
        rc = m && d0 && d1 ? pk_run(g, m, name, pk_dim(nctas, 1, 1),
                                    pk_dim(nthr, 1, 1), 0, a, 2, err)
                           : SIMT_EINPUT;
    if (rc == SIMT_OK && b0)
        rc = pk_read_u32(g, d0, b0, n0);
    if (rc == SIMT_OK && b1)
        rc = pk_read_u32(g, d1, b1, n1);
    if (rc == SIMT_OK)
        *st = *simt_gpu_stats(g);
    pk_gpu_free(g);
    return rc;
}

/* One run of `ticket` with n threads: out[], the counter and the
 * statistics. */
static int tickets(unsigned n, uint32_t out[NT], uint32_t *count,
                   simt_stats_t *st, simt_error_t *err)
{
    return run_two_buffers(n, ticket_ptx, "ticket", NCTA, NTHR, count, 1, 0, out, NT,
                           0xffffffffu, st, err);
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

enum { RCTA = 4, RTHR = 256, RN = RCTA * RTHR };

/* One run of `relay` with n threads: the hashes and the statistics. */
static int relays(unsigned n, uint32_t out[RN], simt_stats_t *st, simt_error_t *err)
{
    return run_two_buffers(n, relay_ptx, "relay", RCTA, RTHR, NULL, RN, 0, out, RN, 0,
                           st, err);
}

TEST(threads_loads_see_lower_sms_stores_of_the_cycle)
{
    static uint32_t ref[RN], out[RN];
    simt_stats_t st1, st;
    simt_error_t err;
    CHECK_MSG(relays(1, ref, &st1, &err) == SIMT_OK, "%s", err.msg);
    /* by hand: 128 iterations of two stores and four loads, one store more */
    CHECK_EQ(st1.global_stores, (uint64_t)RN * 256 + RN);
    CHECK_EQ(st1.global_loads, (uint64_t)RN * 512);
    for (unsigned n = 2; n <= 4; n++)
        for (unsigned rep = 0; rep < 2; rep++) {
            CHECK_MSG(relays(n, out, &st, &err) == SIMT_OK, "%s", err.msg);
            CHECK_MSG(!memcmp(out, ref, sizeof ref), "%u threads: other loads", n);
            CHECK_MSG(!memcmp(&st, &st1, sizeof st), "%u threads: other statistics", n);
        }
}
