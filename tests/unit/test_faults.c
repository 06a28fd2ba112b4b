/* test_faults.c: kernel faults (SIMT_EFAULT from simt_synchronize, with a
 * complete report) and input errors at load and launch (SIMT_EINPUT).
 *
 * Every kernel is hand-written so that the PTX line and the PC (the index
 * of the instruction in the kernel, counting from 0; the kernel is laid out
 * first) of the faulting instruction are known: they are written next to
 * each instruction.  After every fault the GPU is destroyed, which the
 * sanitizer build checks for leaks and use-after-free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "ptx_kernel_helpers.h"

/* Loads `text` as `file` into a fresh GPU (configured by `sets`), runs
 * `kernel` once with the given arguments and destroys the GPU.  Returns the
 * status of the first failing call, err holding its message. */
static int run_once(const char *const *sets, const char *file,
                    const char *text, const char *kernel, simt_dim3_t grid,
                    simt_dim3_t block, uint32_t dyn, int nbufs,
                    const uint32_t *words, simt_error_t *err)
{
    simt_gpu_t *g = pk_gpu(sets, err);
    if (!g)
        return err->status ? err->status : -1;
    simt_module_t *m = pk_load(g, file, text, err);
    if (!m) {
        pk_gpu_free(g);
        return err->status;
    }
    simt_devptr_t buf[4] = { 0 };
    simt_arg_t args[4];
    for (int i = 0; i < nbufs; i++) {
        buf[i] = pk_alloc_u32(g, words[i], 0);
        args[i] = (simt_arg_t){ &buf[i], sizeof buf[i] };
    }
    int rc = pk_run(g, m, kernel, grid, block, dyn, args, (size_t)nbufs, err);
    pk_gpu_free(g);
    return rc;
}

#define FAULT_OK(msg, file, text, line, kernel, cx, cy, cz, warp, lanes, pc,  \
                 what)                                                     \
    do {                                                                   \
        char why_[5000];                                                   \
        CHECK_MSG(pk_fault_ok((msg), (file), (text), (line), (kernel), (cx), \
                              (cy), (cz), (warp), (lanes), (pc), (what),    \
                              why_, sizeof why_),                          \
                  "%s", why_);                                             \
    } while (0)

/* ------------------------------------------------------------------ */
/* global memory: out of bounds, freed, misaligned                     */
/* ------------------------------------------------------------------ */

/* out[gid] = in[gid] */
static const char gcopy_ptx[] =
    PK_HEADER                                       /* lines 1-4 */
    ".visible .entry gcopy(\n"                      /* 5 */
    "    .param .u64 gcopy_param_0,\n"              /* 6 */
    "    .param .u64 gcopy_param_1\n"               /* 7 */
    ")\n"                                           /* 8 */
    "{\n"                                           /* 9 */
    "    .reg .b32 %r<6>;\n"                        /* 10 */
    "    .reg .b64 %rd<6>;\n"                       /* 11 */
    "    ld.param.u64 %rd1, [gcopy_param_0];\n"     /* 12 PC 0 */
    "    ld.param.u64 %rd2, [gcopy_param_1];\n"     /* 13 PC 1 */
    "    mov.u32 %r1, %tid.x;\n"                    /* 14 PC 2 */
    "    mov.u32 %r2, %ctaid.x;\n"                  /* 15 PC 3 */
    "    mov.u32 %r3, %ntid.x;\n"                   /* 16 PC 4 */
    "    mad.lo.s32 %r4, %r2, %r3, %r1;\n"          /* 17 PC 5 */
    "    mul.wide.u32 %rd3, %r4, 4;\n"              /* 18 PC 6 */
    "    add.s64 %rd4, %rd1, %rd3;\n"               /* 19 PC 7 */
    "    ld.global.u32 %r5, [%rd4];\n"              /* 20 PC 8 */
    "    add.s64 %rd5, %rd2, %rd3;\n"               /* 21 PC 9 */
    "    st.global.u32 [%rd5], %r5;\n"              /* 22 PC 10 */
    "    ret;\n"                                    /* 23 PC 11 */
    "}\n";

/* Runs gcopy on 2 CTAs of 64 threads with in/out pointers; returns the
 * status, the GPU destroyed. */
static int run_gcopy(simt_devptr_t (*make)(simt_gpu_t *, int), simt_error_t *err)
{
    simt_gpu_t *g = pk_gpu(NULL, err);
    if (!g)
        return -1;
    simt_module_t *m = pk_load(g, "gcopy.ptx", gcopy_ptx, err);
    if (!m) {
        pk_gpu_free(g);
        return -1;
    }
    simt_devptr_t in = make(g, 0), out = make(g, 1);
    simt_arg_t a[2] = { SIMT_ARG(in), SIMT_ARG(out) };
    int rc = pk_run(g, m, "gcopy", pk_dim(2, 1, 1), pk_dim(64, 1, 1), 0, a, 2,
                    err);
    pk_gpu_free(g);
    return rc;
}

static simt_devptr_t small_in(simt_gpu_t *g, int which)
{
    return pk_alloc_u32(g, which == 0 ? 100 : 128, 1);
}

static simt_devptr_t small_out(simt_gpu_t *g, int which)
{
    return pk_alloc_u32(g, which == 0 ? 128 : 100, 1);
}

static simt_devptr_t freed_in(simt_gpu_t *g, int which)
{
    simt_devptr_t p = pk_alloc_u32(g, 128, 1);
    if (which == 0) {
        simt_error_t e;
        memset(&e, 0, sizeof e);
        simt_free(g, p, &e);
    }
    return p;
}

static simt_devptr_t misaligned_in(simt_gpu_t *g, int which)
{
    simt_devptr_t p = pk_alloc_u32(g, 129, 1);
    return which == 0 ? p + 2 : p;
}

TEST(fault_global_load_out_of_bounds)
{
    simt_error_t err;
    int rc = run_gcopy(small_in, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    CHECK_EQ(err.status, SIMT_EFAULT);
    /* gid 100 = CTA 1, thread 36 = warp 1, lane 4 */
    CHECK_EQ(pk_line_of(gcopy_ptx, "ld.global.u32"), 20);
    FAULT_OK(err.msg, "gcopy.ptx", gcopy_ptx, 20, "gcopy", 1, 0, 0, 1,
             0x00000010, 8, "out-of-bounds");
    CHECK_MSG(strstr(err.msg, "load"), "%s", err.msg);
    CHECK_MSG(strstr(err.msg, "lane 4"), "%s", err.msg);
}

TEST(fault_global_store_out_of_bounds)
{
    simt_error_t err;
    int rc = run_gcopy(small_out, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    CHECK_EQ(pk_line_of(gcopy_ptx, "st.global.u32"), 22);
    FAULT_OK(err.msg, "gcopy.ptx", gcopy_ptx, 22, "gcopy", 1, 0, 0, 1,
             0x00000010, 10, "out-of-bounds");
    CHECK_MSG(strstr(err.msg, "store"), "%s", err.msg);
}

TEST(fault_global_load_from_freed_memory)
{
    simt_error_t err;
    int rc = run_gcopy(freed_in, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    FAULT_OK(err.msg, "gcopy.ptx", gcopy_ptx, 20, "gcopy", 0, 0, 0, 0,
             0x00000001, 8, "freed");
}

TEST(fault_global_misaligned_access)
{
    simt_error_t err;
    int rc = run_gcopy(misaligned_in, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    FAULT_OK(err.msg, "gcopy.ptx", gcopy_ptx, 20, "gcopy", 0, 0, 0, 0,
             0x00000001, 8, "misaligned");
    CHECK_MSG(strstr(err.msg, "4-byte"), "%s", err.msg);
}

/* A null pointer: no allocation anywhere near. */
static simt_devptr_t null_in(simt_gpu_t *g, int which)
{
    return which == 0 ? 0 : pk_alloc_u32(g, 128, 1);
}

TEST(fault_global_null_pointer)
{
    simt_error_t err;
    int rc = run_gcopy(null_in, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    FAULT_OK(err.msg, "gcopy.ptx", gcopy_ptx, 20, "gcopy", 0, 0, 0, 0,
             0x00000001, 8, "out-of-bounds");
}

/* ------------------------------------------------------------------ */
/* shared and local memory                                             */
/* ------------------------------------------------------------------ */

static const char shoob_ptx[] =
    PK_HEADER                                       /* 1-4 */
    ".visible .entry shoob()\n"                     /* 5 */
    "{\n"                                           /* 6 */
    "    .reg .b32 %r<6>;\n"                        /* 7 */
    "    .shared .align 4 .b8 sbuf[128];\n"         /* 8 */
    "    mov.u32 %r1, %tid.x;\n"                    /* 9  PC 0 */
    "    shl.b32 %r2, %r1, 2;\n"                    /* 10 PC 1 */
    "    mov.u32 %r3, sbuf;\n"                      /* 11 PC 2 */
    "    add.s32 %r4, %r3, %r2;\n"                  /* 12 PC 3 */
    "    st.shared.u32 [%r4], %r1;\n"               /* 13 PC 4 */
    "    ret;\n"                                    /* 14 PC 5 */
    "}\n";

TEST(fault_shared_out_of_bounds)
{
    simt_error_t err;
    /* 64 threads: thread 32 (warp 1, lane 0) stores to byte 128 */
    int rc = run_once(NULL, "shoob.ptx", shoob_ptx, "shoob", pk_dim(1, 1, 1),
                      pk_dim(64, 1, 1), 0, 0, NULL, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    FAULT_OK(err.msg, "shoob.ptx", shoob_ptx, 13, "shoob", 0, 0, 0, 1,
             0x00000001, 4, "shared");
    CHECK_MSG(strstr(err.msg, "out-of-bounds"), "%s", err.msg);
}

TEST(fault_shared_in_bounds_with_dynamic_shared)
{
    /* the same kernel with 128 more bytes of dynamic shared memory stays in
     * bounds: 64 threads * 4 bytes = 256 = 128 static + 128 dynamic */
    simt_error_t err;
    int rc = run_once(NULL, "shoob.ptx", shoob_ptx, "shoob", pk_dim(1, 1, 1),
                      pk_dim(64, 1, 1), 128, 0, NULL, &err);
    CHECK_MSG(rc == SIMT_OK, "status %d: %s", rc, err.msg);
}

static const char loob_ptx[] =
    PK_HEADER                                       /* 1-4 */
    ".visible .entry loob()\n"                      /* 5 */
    "{\n"                                           /* 6 */
    "    .reg .b32 %r<4>;\n"                        /* 7 */
    "    .reg .b64 %rd<4>;\n"                       /* 8 */
    "    .local .align 4 .b8 lbuf[16];\n"           /* 9 */
    "    mov.u32 %r1, %tid.x;\n"                    /* 10 PC 0 */
    "    mul.wide.u32 %rd1, %r1, 4;\n"              /* 11 PC 1 */
    "    mov.u64 %rd2, lbuf;\n"                     /* 12 PC 2 */
    "    add.s64 %rd3, %rd2, %rd1;\n"               /* 13 PC 3 */
    "    st.local.u32 [%rd3], %r1;\n"               /* 14 PC 4 */
    "    ret;\n"                                    /* 15 PC 5 */
    "}\n";

TEST(fault_local_out_of_bounds)
{
    simt_error_t err;
    /* lane 4 stores to byte 16 of a 16-byte frame */
    int rc = run_once(NULL, "loob.ptx", loob_ptx, "loob", pk_dim(1, 1, 1),
                      pk_dim(32, 1, 1), 0, 0, NULL, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    FAULT_OK(err.msg, "loob.ptx", loob_ptx, 14, "loob", 0, 0, 0, 0,
             0x00000010, 4, "local");
    CHECK_MSG(strstr(err.msg, "out-of-bounds"), "%s", err.msg);
}

static const char atomlocal_ptx[] =
    PK_HEADER                                       /* 1-4 */
    ".visible .entry atom_local()\n"                /* 5 */
    "{\n"                                           /* 6 */
    "    .reg .b32 %r<3>;\n"                        /* 7 */
    "    .reg .b64 %rd<3>;\n"                       /* 8 */
    "    .local .align 4 .b8 lbuf[16];\n"           /* 9 */
    "    mov.u64 %rd1, lbuf;\n"                     /* 10 PC 0 */
    "    atom.local.add.u32 %r1, [%rd1], 1;\n"      /* 11 PC 1 */
    "    ret;\n"                                    /* 12 PC 2 */
    "}\n"                                           /* 13 */
    ".visible .entry atom_generic_local()\n"        /* 14 */
    "{\n"                                           /* 15 */
    "    .reg .b32 %r<3>;\n"                        /* 16 */
    "    .reg .b64 %rd<3>;\n"                       /* 17 */
    "    .local .align 4 .b8 lbuf2[16];\n"          /* 18 */
    "    mov.u64 %rd1, lbuf2;\n"                    /* 19 PC 0 */
    "    cvta.local.u64 %rd2, %rd1;\n"              /* 20 PC 1 */
    "    atom.add.u32 %r1, [%rd2], 1;\n"            /* 21 PC 2 */
    "    ret;\n"                                    /* 22 PC 3 */
    "}\n";

TEST(fault_atomic_on_local_memory)
{
    simt_error_t err;
    int rc = run_once(NULL, "atoml.ptx", atomlocal_ptx, "atom_local",
                      pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, 0, NULL, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    FAULT_OK(err.msg, "atoml.ptx", atomlocal_ptx, 11, "atom_local", 0, 0, 0,
             0, 0x00000001, 1, "atomic");
    CHECK_MSG(strstr(err.msg, "local"), "%s", err.msg);
}

TEST(fault_atomic_on_generic_local_address)
{
    simt_error_t err;
    int rc = run_once(NULL, "atoml.ptx", atomlocal_ptx, "atom_generic_local",
                      pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, 0, NULL, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    FAULT_OK(err.msg, "atoml.ptx", atomlocal_ptx, 21, "atom_generic_local",
             0, 0, 0, 0, 0x00000001, 2, "atomic");
    CHECK_MSG(strstr(err.msg, "local"), "%s", err.msg);
}

/* ------------------------------------------------------------------ */
/* barriers: divergence and deadlock                                   */
/* ------------------------------------------------------------------ */

static const char bars_ptx[] =
    PK_HEADER                                       /* 1-4 */
    ".visible .entry bar_divergent()\n"             /* 5 */
    "{\n"                                           /* 6 */
    "    .reg .pred %p<2>;\n"                       /* 7 */
    "    .reg .b32 %r<3>;\n"                        /* 8 */
    "    mov.u32 %r1, %tid.x;\n"                    /* 9  PC 0 */
    "    and.b32 %r2, %r1, 1;\n"                    /* 10 PC 1 */
    "    setp.eq.u32 %p1, %r2, 1;\n"                /* 11 PC 2 */
    "    @%p1 bra $SKIP;\n"                         /* 12 PC 3 */
    "    bar.sync 0;\n"                             /* 13 PC 4 */
    "$SKIP:\n"                                      /* 14 */
    "    ret;\n"                                    /* 15 PC 5 */
    "}\n"                                           /* 16 */
    ".visible .entry bar_count_too_big()\n"         /* 17 */
    "{\n"                                           /* 18 */
    "    .reg .b32 %r<2>;\n"                        /* 19 */
    "    mov.u32 %r1, %tid.x;\n"                    /* 20 PC 0 */
    "    bar.sync 0, 64;\n"                         /* 21 PC 1 */
    "    ret;\n"                                    /* 22 PC 2 */
    "}\n"                                           /* 23 */
    ".visible .entry bar_two_ids()\n"               /* 24 */
    "{\n"                                           /* 25 */
    "    .reg .pred %p<2>;\n"                       /* 26 */
    "    .reg .b32 %r<2>;\n"                        /* 27 */
    "    mov.u32 %r1, %tid.x;\n"                    /* 28 PC 0 */
    "    setp.lt.u32 %p1, %r1, 32;\n"               /* 29 PC 1 */
    "    @%p1 bra $W0;\n"                           /* 30 PC 2 */
    "    bar.sync 1;\n"                             /* 31 PC 3 warp 1 */
    "    bra.uni $END;\n"                           /* 32 PC 4 */
    "$W0:\n"                                        /* 33 */
    "    bar.sync 0;\n"                             /* 34 PC 5 warp 0 */
    "$END:\n"                                       /* 35 */
    "    ret;\n"                                    /* 36 PC 6 */
    "}\n"                                           /* 37 */
    ".visible .entry bar_after_exit()\n"            /* 38 */
    "{\n"                                           /* 39 */
    "    .reg .pred %p<2>;\n"                       /* 40 */
    "    .reg .b32 %r<2>;\n"                        /* 41 */
    "    mov.u32 %r1, %tid.x;\n"                    /* 42 PC 0 */
    "    setp.ge.u32 %p1, %r1, 32;\n"               /* 43 PC 1 */
    "    @%p1 exit;\n"                              /* 44 PC 2 warp 1 */
    "    bar.sync 0, 64;\n"                         /* 45 PC 3 warp 0 */
    "    ret;\n"                                    /* 46 PC 4 */
    "}\n";

TEST(fault_barrier_divergence)
{
    simt_error_t err;
    int rc = run_once(NULL, "bars.ptx", bars_ptx, "bar_divergent",
                      pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, 0, NULL, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    /* the even lanes reach bar.sync without the odd ones */
    CHECK_EQ(pk_line_of(bars_ptx, "bar.sync 0;"), 13);
    FAULT_OK(err.msg, "bars.ptx", bars_ptx, 13, "bar_divergent", 0, 0, 0, 0,
             0x55555555, 4, "barrier divergence");
}

TEST(fault_deadlock_barrier_count_never_reached)
{
    simt_error_t err;
    int rc = run_once(NULL, "bars.ptx", bars_ptx, "bar_count_too_big",
                      pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, 0, NULL, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    FAULT_OK(err.msg, "bars.ptx", bars_ptx, 21, "bar_count_too_big", 0, 0, 0,
             0, 0xffffffff, 1, "deadlock");
    CHECK_MSG(strstr(err.msg, "warp 0: waiting at barrier 0"), "%s", err.msg);
}

TEST(fault_deadlock_warps_at_different_barriers)
{
    simt_error_t err;
    int rc = run_once(NULL, "bars.ptx", bars_ptx, "bar_two_ids",
                      pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, 0, NULL, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    /* reported at the first waiting warp: warp 0 at bar.sync 0 (line 34) */
    FAULT_OK(err.msg, "bars.ptx", bars_ptx, 34, "bar_two_ids", 0, 0, 0, 0,
             0xffffffff, 5, "deadlock");
    CHECK_MSG(strstr(err.msg, "warp 0: waiting at barrier 0"), "%s", err.msg);
    CHECK_MSG(strstr(err.msg, "warp 1: waiting at barrier 1"), "%s", err.msg);
}

/* The per-warp lines of the deadlock dump name where each warp is stuck:
 * the barrier instruction's line for a waiting warp. */
TEST(fault_deadlock_dump_names_barrier_lines)
{
    simt_error_t err;
    int rc = run_once(NULL, "bars.ptx", bars_ptx, "bar_two_ids",
                      pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, 0, NULL, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    const char *w0 = strstr(err.msg, "warp 0: waiting at barrier 0");
    const char *w1 = strstr(err.msg, "warp 1: waiting at barrier 1");
    CHECK_MSG(w0 && w1, "%s", err.msg);
    /* the rest of each dump line */
    char l0[200], l1[200];
    snprintf(l0, sizeof l0, "%.*s", (int)strcspn(w0, "\n"), w0);
    snprintf(l1, sizeof l1, "%.*s", (int)strcspn(w1, "\n"), w1);
    CHECK_MSG(strstr(l0, "line 34") && strstr(l0, "PC 5"),
              "warp 0 waits at bar.sync 0 (line 34, PC 5); dump line: %s", l0);
    CHECK_MSG(strstr(l1, "line 31") && strstr(l1, "PC 3"),
              "warp 1 waits at bar.sync 1 (line 31, PC 3); dump line: %s", l1);
}

TEST(fault_deadlock_after_a_warp_exited)
{
    simt_error_t err;
    int rc = run_once(NULL, "bars.ptx", bars_ptx, "bar_after_exit",
                      pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, 0, NULL, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    FAULT_OK(err.msg, "bars.ptx", bars_ptx, 45, "bar_after_exit", 0, 0, 0, 0,
             0xffffffff, 3, "deadlock");
    CHECK_MSG(strstr(err.msg, "warp 0: waiting at barrier 0"), "%s", err.msg);
    /* warp 1's state reads "exited" (followed by a separator, not a
     * barrier number) */
    const char *w1 = strstr(err.msg, "warp 1: exited");
    CHECK_MSG(w1, "%s", err.msg);
    char c = w1[strlen("warp 1: exited")];
    CHECK_MSG(c == ',' || c == '\n' || c == '\0' || c == ' ' || c == ';',
              "warp 1's state is garbled: \"%.30s\"", w1);
}

/* ------------------------------------------------------------------ */
/* trap, and where a fault in a 3-D grid or a device function lands    */
/* ------------------------------------------------------------------ */

static const char trap_ptx[] =
    PK_HEADER                                       /* 1-4 */
    ".visible .entry trapper()\n"                   /* 5 */
    "{\n"                                           /* 6 */
    "    .reg .pred %p<4>;\n"                       /* 7 */
    "    .reg .b32 %r<4>;\n"                        /* 8 */
    "    mov.u32 %r1, %tid.x;\n"                    /* 9  PC 0 */
    "    mov.u32 %r2, %ctaid.x;\n"                  /* 10 PC 1 */
    "    mov.u32 %r3, %ctaid.z;\n"                  /* 11 PC 2 */
    "    setp.eq.u32 %p1, %r1, 37;\n"               /* 12 PC 3 */
    "    setp.eq.and.u32 %p2, %r2, 1, %p1;\n"       /* 13 PC 4 */
    "    setp.eq.and.u32 %p3, %r3, 1, %p2;\n"       /* 14 PC 5 */
    "    @%p3 trap;\n"                              /* 15 PC 6 */
    "    ret;\n"                                    /* 16 PC 7 */
    "}\n";

TEST(fault_trap_reports_cta_warp_and_lane)
{
    simt_error_t err;
    /* grid 2x2x2, 64 threads: thread 37 (warp 1, lane 5) of CTA (1,y,1);
     * CTA (1,0,1) comes before (1,1,1) */
    int rc = run_once(NULL, "trap.ptx", trap_ptx, "trapper", pk_dim(2, 2, 2),
                      pk_dim(64, 1, 1), 0, 0, NULL, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    FAULT_OK(err.msg, "trap.ptx", trap_ptx, 15, "trapper", 1, 0, 1, 1,
             0x00000020, 6, "trap");
}

static const char devfault_ptx[] =
    PK_HEADER                                       /* 1-4 */
    ".func (.param .b32 rd_ret) read_at(\n"         /* 5 */
    "    .param .b64 rd_ptr\n"                      /* 6 */
    ")\n"                                           /* 7 */
    "{\n"                                           /* 8 */
    "    .reg .b32 %r<2>;\n"                        /* 9 */
    "    .reg .b64 %rd<2>;\n"                       /* 10 */
    "    ld.param.u64 %rd1, [rd_ptr];\n"            /* 11 */
    "    ld.global.u32 %r1, [%rd1];\n"              /* 12 */
    "    st.param.b32 [rd_ret], %r1;\n"             /* 13 */
    "    ret;\n"                                    /* 14 */
    "}\n"                                           /* 15 */
    ".visible .entry devfault(\n"                   /* 16 */
    "    .param .u64 devfault_param_0\n"            /* 17 */
    ")\n"                                           /* 18 */
    "{\n"                                           /* 19 */
    "    .reg .b32 %r<3>;\n"                        /* 20 */
    "    .reg .b64 %rd<4>;\n"                       /* 21 */
    "    ld.param.u64 %rd1, [devfault_param_0];\n"  /* 22 PC 0 */
    "    mov.u32 %r1, %tid.x;\n"                    /* 23 PC 1 */
    "    mul.wide.u32 %rd2, %r1, 4;\n"              /* 24 PC 2 */
    "    add.s64 %rd3, %rd1, %rd2;\n"               /* 25 PC 3 */
    "    {\n"                                       /* 26 */
    "    .param .b64 param0;\n"                     /* 27 */
    "    st.param.b64 [param0+0], %rd3;\n"          /* 28 PC 4 */
    "    .param .b32 retval0;\n"                    /* 29 */
    "    call.uni (retval0), read_at, (param0);\n"  /* 30 PC 5 */
    "    ld.param.b32 %r2, [retval0+0];\n"          /* 31 PC 6 */
    "    }\n"                                       /* 32 */
    "    st.global.u32 [%rd3], %r2;\n"              /* 33 PC 7 */
    "    ret;\n"                                    /* 34 PC 8 */
    "}\n";

TEST(fault_inside_device_function)
{
    simt_error_t err;
    /* 20 words for 32 threads: lane 20 faults inside read_at (line 12) */
    uint32_t words = 20;
    int rc = run_once(NULL, "devfault.ptx", devfault_ptx, "devfault",
                      pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, 1, &words, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    /* the PC of a callee instruction depends on the layout: not checked */
    FAULT_OK(err.msg, "devfault.ptx", devfault_ptx, 12, "devfault", 0, 0, 0,
             0, 0x00100000, -1, "out-of-bounds");
}

/* ------------------------------------------------------------------ */
/* reconvergence stack overflow (simt_stack_depth)                     */
/* ------------------------------------------------------------------ */

/* `levels` nested if-statements, level k skipped by lanes tid <= k, so
 * that every level diverges (lane k leaves at level k).  Lane l ends with
 * min(l, levels) in its output word.  A post-dominator reconvergence stack
 * needs at least levels + 1 entries for the innermost lanes. */
static char *nest_ptx(unsigned levels)
{
    size_t cap = 4096 + (size_t)levels * 160;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t n = (size_t)snprintf(s, cap,
        PK_HEADER
        ".visible .entry nest(\n"
        "    .param .u64 nest_param_0\n"
        ")\n"
        "{\n"
        "    .reg .pred %%p<2>;\n"
        "    .reg .b32 %%r<4>;\n"
        "    .reg .b64 %%rd<4>;\n"
        "    ld.param.u64 %%rd1, [nest_param_0];\n"
        "    mov.u32 %%r1, %%tid.x;\n"
        "    mul.wide.u32 %%rd2, %%r1, 4;\n"
        "    add.s64 %%rd3, %%rd1, %%rd2;\n"
        "    mov.u32 %%r2, 0;\n");
    for (unsigned k = 0; k < levels; k++)
        n += (size_t)snprintf(s + n, cap - n,
                              "    setp.le.u32 %%p1, %%r1, %u;\n"
                              "    @%%p1 bra $S%u;\n"
                              "    add.s32 %%r2, %%r2, 1;\n", k, k);
    for (unsigned k = levels; k-- > 0;)
        n += (size_t)snprintf(s + n, cap - n,
                              "$S%u:\n"
                              "    add.s32 %%r3, %%r3, 1;\n", k);
    snprintf(s + n, cap - n,
             "    st.global.u32 [%%rd3], %%r2;\n"
             "    ret;\n"
             "}\n");
    return s;
}

/* Runs nest(levels) with simt_stack_depth = depth; fills out[32]. */
static int run_nest(unsigned levels, const char *depth_set, uint32_t *out,
                    char **text_out, simt_error_t *err)
{
    const char *sets[2] = { depth_set, NULL };
    char *text = nest_ptx(levels);
    *text_out = text;
    if (!text)
        return -1;
    simt_gpu_t *g = pk_gpu(sets, err);
    if (!g)
        return -1;
    simt_module_t *m = pk_load(g, "nest.ptx", text, err);
    if (!m) {
        pk_gpu_free(g);
        return -1;
    }
    simt_devptr_t buf = pk_alloc_u32(g, 32, 0xdeadbeef);
    simt_arg_t a[1] = { SIMT_ARG(buf) };
    int rc = pk_run(g, m, "nest", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a, 1,
                    err);
    if (rc == SIMT_OK)
        pk_read_u32(g, buf, out, 32);
    pk_gpu_free(g);
    return rc;
}

TEST(fault_stack_nested_levels_within_limit)
{
    /* 5 levels: at most 7 entries in any post-dominator scheme */
    simt_error_t err;
    uint32_t out[32];
    char *text = NULL;
    int rc = run_nest(5, "simt_stack_depth=8", out, &text, &err);
    free(text);
    CHECK_MSG(rc == SIMT_OK, "status %d: %s", rc, err.msg);
    for (uint32_t l = 0; l < 32; l++)
        CHECK_EQ(out[l], l < 5 ? l : 5);
}

static void check_overflow(unsigned levels, const char *depth_set)
{
    simt_error_t err;
    uint32_t out[32];
    char *text = NULL;
    int rc = run_nest(levels, depth_set, out, &text, &err);
    CHECK_MSG(text, "out of memory");
    if (rc != SIMT_EFAULT) {
        free(text);
        CHECK_MSG(rc == SIMT_EFAULT, "%u nested divergent levels need at "
                  "least %u stack entries but ran with %s: status %d %s",
                  levels, levels + 1, depth_set, rc, err.msg);
    }
    /* reported at one of the branches */
    char want[64];
    snprintf(want, sizeof want, "nest.ptx:");
    const char *at = strstr(err.msg, want);
    unsigned line = at ? (unsigned)strtoul(at + strlen(want), NULL, 10) : 0;
    char src[128];
    pk_line_text(text, line, src, sizeof src);
    int is_bra = strstr(src, "bra $S") != NULL;
    char why[5000];
    int ok = pk_fault_ok(err.msg, "nest.ptx", text, line, "nest", 0, 0, 0, 0,
                         -1, -1, "stack", why, sizeof why);
    free(text);
    CHECK_MSG(is_bra, "overflow reported at line %u (%s), not a branch: %s",
              line, src, err.msg);
    CHECK_MSG(ok, "%s", why);
    CHECK_MSG(strstr(err.msg, "simt_stack_depth"), "%s", err.msg);
}

TEST(fault_stack_overflow_depth_16)
{
    check_overflow(20, "simt_stack_depth=16");
}

TEST(fault_stack_overflow_small_depth_8)
{
    /* 12 levels need at least 13 entries: more than 8 */
    check_overflow(12, "simt_stack_depth=8");
}

/* ------------------------------------------------------------------ */
/* the GPU is usable for new work and destroyed cleanly after a fault  */
/* ------------------------------------------------------------------ */

TEST(fault_gpu_destroyed_cleanly_after_fault_with_queue)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "gcopy.ptx", gcopy_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    simt_devptr_t in = pk_alloc_u32(g, 100, 1), out = pk_alloc_u32(g, 128, 0);
    CHECK(in && out);
    simt_arg_t a[2] = { SIMT_ARG(in), SIMT_ARG(out) };
    /* a faulting launch followed by two more in the queue */
    CHECK(pk_launch(g, m, "gcopy", pk_dim(2, 1, 1), pk_dim(64, 1, 1), 0, a, 2,
                    &err) == SIMT_OK);
    CHECK(pk_launch(g, m, "gcopy", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, a, 2,
                    &err) == SIMT_OK);
    CHECK(pk_launch(g, m, "gcopy", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, a, 2,
                    &err) == SIMT_OK);
    memset(&err, 0, sizeof err);
    CHECK_EQ(simt_synchronize(g, &err), SIMT_EFAULT);
    CHECK_MSG(strstr(err.msg, "out-of-bounds"), "%s", err.msg);
    /* the queue is empty afterwards: a new synchronize has nothing to do */
    simt_error_t e2;
    memset(&e2, 0, sizeof e2);
    CHECK_EQ(simt_synchronize(g, &e2), SIMT_OK);
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* input errors at load and launch                                     */
/* ------------------------------------------------------------------ */

static const char inputs_ptx[] =
    PK_HEADER                                             /* 1-4 */
    ".visible .entry k_two(\n"                            /* 5 */
    "    .param .u64 k_two_param_0,\n"                    /* 6 */
    "    .param .u32 k_two_param_1\n"                     /* 7 */
    ")\n"                                                 /* 8 */
    "{\n"                                                 /* 9 */
    "    ret;\n"                                          /* 10 */
    "}\n"                                                 /* 11 */
    ".visible .entry k_req(\n"                            /* 12 */
    "    .param .u64 k_req_param_0\n"                     /* 13 */
    ")\n"                                                 /* 14 */
    ".reqntid 64, 1, 1\n"                                 /* 15 */
    "{\n"                                                 /* 16 */
    "    ret;\n"                                          /* 17 */
    "}\n"                                                 /* 18 */
    ".visible .entry k_shared()\n"                        /* 19 */
    "{\n"                                                 /* 20 */
    "    .reg .b32 %r<2>;\n"                              /* 21 */
    "    .shared .align 4 .b8 big[40000];\n"              /* 22 */
    "    mov.u32 %r1, big;\n"                             /* 23 */
    "    st.shared.u32 [big], %r1;\n"                     /* 24 */
    "    ret;\n"                                          /* 25 */
    "}\n";

static simt_gpu_t *inputs_gpu(const char *const *sets, simt_module_t **m,
                              simt_error_t *err)
{
    simt_gpu_t *g = pk_gpu(sets, err);
    if (!g)
        return NULL;
    *m = pk_load(g, "inputs.ptx", inputs_ptx, err);
    return *m ? g : NULL;
}

/* the launch must leave nothing behind in the queue */
static int nothing_queued(simt_gpu_t *g)
{
    simt_error_t e;
    memset(&e, 0, sizeof e);
    return simt_synchronize(g, &e) == SIMT_OK &&
           simt_gpu_stats(g)->kernels_launched == 0;
}

TEST(fault_input_unknown_kernel_lists_kernels)
{
    simt_error_t err;
    simt_module_t *m;
    simt_gpu_t *g = inputs_gpu(NULL, &m, &err);
    CHECK_MSG(g, "%s", err.msg);
    int rc = pk_launch(g, m, "k_three", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0,
                       NULL, 0, &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_EQ(err.status, SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "'k_three'"), "%s", err.msg);
    CHECK_MSG(strstr(err.msg, "k_two") && strstr(err.msg, "k_req") &&
              strstr(err.msg, "k_shared"), "kernels not listed: %s", err.msg);
    CHECK(nothing_queued(g));
    pk_gpu_free(g);
}

TEST(fault_input_device_function_is_not_a_kernel)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "devfault.ptx", devfault_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    uint64_t p = 0;
    simt_arg_t a[1] = { SIMT_ARG(p) };
    int rc = pk_launch(g, m, "read_at", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0,
                       a, 1, &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "devfault"), "%s", err.msg);
    CHECK(nothing_queued(g));
    pk_gpu_free(g);
}

TEST(fault_input_wrong_argument_count)
{
    simt_error_t err;
    simt_module_t *m;
    simt_gpu_t *g = inputs_gpu(NULL, &m, &err);
    CHECK_MSG(g, "%s", err.msg);
    uint64_t p = 0;
    simt_arg_t a[1] = { SIMT_ARG(p) };
    int rc = pk_launch(g, m, "k_two", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a,
                       1, &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "k_two") && strstr(err.msg, "1") &&
              strstr(err.msg, "2"), "%s", err.msg);
    rc = pk_launch(g, m, "k_two", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, NULL,
                   0, &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK(nothing_queued(g));
    pk_gpu_free(g);
}

TEST(fault_input_wrong_argument_size_names_parameter)
{
    simt_error_t err;
    simt_module_t *m;
    simt_gpu_t *g = inputs_gpu(NULL, &m, &err);
    CHECK_MSG(g, "%s", err.msg);
    uint64_t p = 0;
    uint32_t n32 = 5;
    uint64_t n64 = 5;
    simt_arg_t a[2] = { SIMT_ARG(p), SIMT_ARG(n64) }; /* 8 bytes for a .u32 */
    int rc = pk_launch(g, m, "k_two", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a,
                       2, &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "k_two_param_1"), "%s", err.msg);
    simt_arg_t b[2] = { SIMT_ARG(n32), SIMT_ARG(n32) }; /* 4 for a .u64 */
    rc = pk_launch(g, m, "k_two", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, b, 2,
                   &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "k_two_param_0"), "%s", err.msg);
    CHECK(nothing_queued(g));
    /* the right sizes are accepted */
    simt_arg_t c[2] = { SIMT_ARG(p), SIMT_ARG(n32) };
    rc = pk_run(g, m, "k_two", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, c, 2,
                &err);
    CHECK_MSG(rc == SIMT_OK, "%s", err.msg);
    pk_gpu_free(g);
}

TEST(fault_input_zero_dimensions)
{
    simt_error_t err;
    simt_module_t *m;
    simt_gpu_t *g = inputs_gpu(NULL, &m, &err);
    CHECK_MSG(g, "%s", err.msg);
    uint64_t p = 0;
    uint32_t n = 0;
    simt_arg_t a[2] = { SIMT_ARG(p), SIMT_ARG(n) };
    static const simt_dim3_t bad[6] = { { 0, 1, 1 }, { 1, 0, 1 }, { 1, 1, 0 },
                                        { 0, 0, 0 }, { 4, 0, 2 }, { 1, 1, 0 } };
    for (int i = 0; i < 6; i++) {
        int rc = pk_launch(g, m, "k_two", bad[i], pk_dim(32, 1, 1), 0, a, 2,
                           &err);
        CHECK_MSG(rc == SIMT_EINPUT, "grid %d accepted", i);
        CHECK_MSG(strstr(err.msg, "grid"), "%s", err.msg);
        rc = pk_launch(g, m, "k_two", pk_dim(1, 1, 1), bad[i], 0, a, 2, &err);
        CHECK_MSG(rc == SIMT_EINPUT, "block %d accepted", i);
        CHECK_MSG(strstr(err.msg, "block"), "%s", err.msg);
    }
    CHECK(nothing_queued(g));
    pk_gpu_free(g);
}

TEST(fault_input_block_too_large)
{
    simt_error_t err;
    simt_module_t *m;
    simt_gpu_t *g = inputs_gpu(NULL, &m, &err);
    CHECK_MSG(g, "%s", err.msg);
    uint64_t p = 0;
    uint32_t n = 0;
    simt_arg_t a[2] = { SIMT_ARG(p), SIMT_ARG(n) };
    int rc = pk_launch(g, m, "k_two", pk_dim(1, 1, 1), pk_dim(1025, 1, 1), 0,
                       a, 2, &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "max_threads_per_cta"), "%s", err.msg);
    rc = pk_launch(g, m, "k_two", pk_dim(1, 1, 1), pk_dim(16, 16, 8), 0, a, 2,
                   &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    /* huge dimensions whose product overflows 32 bits */
    rc = pk_launch(g, m, "k_two", pk_dim(1, 1, 1),
                   pk_dim(65536, 65536, 65536), 0, a, 2, &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK(nothing_queued(g));
    pk_gpu_free(g);

    static const char *const small[] = { "max_threads_per_cta=256", NULL };
    g = inputs_gpu(small, &m, &err);
    CHECK_MSG(g, "%s", err.msg);
    rc = pk_launch(g, m, "k_two", pk_dim(1, 1, 1), pk_dim(257, 1, 1), 0, a, 2,
                   &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "256"), "%s", err.msg);
    rc = pk_run(g, m, "k_two", pk_dim(1, 1, 1), pk_dim(256, 1, 1), 0, a, 2,
                &err);
    CHECK_MSG(rc == SIMT_OK, "%s", err.msg);
    pk_gpu_free(g);
}

TEST(fault_input_reqntid_mismatch)
{
    simt_error_t err;
    simt_module_t *m;
    simt_gpu_t *g = inputs_gpu(NULL, &m, &err);
    CHECK_MSG(g, "%s", err.msg);
    uint64_t p = 0;
    simt_arg_t a[1] = { SIMT_ARG(p) };
    int rc = pk_launch(g, m, "k_req", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a,
                       1, &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "reqntid") && strstr(err.msg, "k_req"), "%s",
              err.msg);
    rc = pk_launch(g, m, "k_req", pk_dim(1, 1, 1), pk_dim(32, 2, 1), 0, a, 1,
                   &err);
    CHECK_EQ(rc, SIMT_EINPUT); /* 64 threads, but not 64x1x1 */
    CHECK(nothing_queued(g));
    rc = pk_run(g, m, "k_req", pk_dim(2, 1, 1), pk_dim(64, 1, 1), 0, a, 1,
                &err);
    CHECK_MSG(rc == SIMT_OK, "%s", err.msg);
    pk_gpu_free(g);
}

TEST(fault_input_shared_memory_over_limit)
{
    simt_error_t err;
    simt_module_t *m;
    simt_gpu_t *g = inputs_gpu(NULL, &m, &err);
    CHECK_MSG(g, "%s", err.msg);
    /* 40000 static + 10000 dynamic > 49152 */
    int rc = pk_launch(g, m, "k_shared", pk_dim(1, 1, 1), pk_dim(32, 1, 1),
                       10000, NULL, 0, &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "gpgpu_shmem_size") && strstr(err.msg,
              "k_shared"), "%s", err.msg);
    /* dynamic shared alone over the limit */
    rc = pk_launch(g, m, "k_two", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 49153,
                   NULL, 0, &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK(nothing_queued(g));
    /* 40000 + 9152 fits exactly */
    rc = pk_run(g, m, "k_shared", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 9152,
                NULL, 0, &err);
    CHECK_MSG(rc == SIMT_OK, "%s", err.msg);
    pk_gpu_free(g);

    static const char *const small[] = { "gpgpu_shmem_size=16384", NULL };
    g = inputs_gpu(small, &m, &err);
    CHECK_MSG(g, "%s", err.msg);
    rc = pk_launch(g, m, "k_shared", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0,
                   NULL, 0, &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "16384"), "%s", err.msg);
    pk_gpu_free(g);
}

static const char recur_ptx[] =
    PK_HEADER                                             /* 1-4 */
    ".func (.param .b32 fact_ret) fact(\n"                /* 5 */
    "    .param .b32 fact_x\n"                            /* 6 */
    ")\n"                                                 /* 7 */
    "{\n"                                                 /* 8 */
    "    .reg .pred %p<2>;\n"                             /* 9 */
    "    .reg .b32 %r<5>;\n"                              /* 10 */
    "    ld.param.u32 %r1, [fact_x];\n"                   /* 11 */
    "    setp.le.u32 %p1, %r1, 1;\n"                      /* 12 */
    "    @%p1 bra $BASE;\n"                               /* 13 */
    "    add.s32 %r2, %r1, -1;\n"                         /* 14 */
    "    {\n"                                             /* 15 */
    "    .param .b32 param0;\n"                           /* 16 */
    "    st.param.b32 [param0+0], %r2;\n"                 /* 17 */
    "    .param .b32 retval0;\n"                          /* 18 */
    "    call.uni (retval0), fact, (param0);\n"           /* 19 */
    "    ld.param.b32 %r3, [retval0+0];\n"                /* 20 */
    "    }\n"                                             /* 21 */
    "    mul.lo.s32 %r4, %r3, %r1;\n"                     /* 22 */
    "    st.param.b32 [fact_ret], %r4;\n"                 /* 23 */
    "    ret;\n"                                          /* 24 */
    "$BASE:\n"                                            /* 25 */
    "    st.param.b32 [fact_ret], 1;\n"                   /* 26 */
    "    ret;\n"                                          /* 27 */
    "}\n"                                                 /* 28 */
    ".func (.param .b32 ev_ret) is_even(\n"               /* 29 */
    "    .param .b32 ev_x\n"                              /* 30 */
    ");\n"                                                /* 31 */
    ".func (.param .b32 od_ret) is_odd(\n"                /* 32 */
    "    .param .b32 od_x\n"                              /* 33 */
    ")\n"                                                 /* 34 */
    "{\n"                                                 /* 35 */
    "    .reg .b32 %r<3>;\n"                              /* 36 */
    "    ld.param.u32 %r1, [od_x];\n"                     /* 37 */
    "    {\n"                                             /* 38 */
    "    .param .b32 param0;\n"                           /* 39 */
    "    st.param.b32 [param0+0], %r1;\n"                 /* 40 */
    "    .param .b32 retval0;\n"                          /* 41 */
    "    call.uni (retval0), is_even, (param0);\n"        /* 42 */
    "    ld.param.b32 %r2, [retval0+0];\n"                /* 43 */
    "    }\n"                                             /* 44 */
    "    st.param.b32 [od_ret], %r2;\n"                   /* 45 */
    "    ret;\n"                                          /* 46 */
    "}\n"                                                 /* 47 */
    ".func (.param .b32 ev_ret) is_even(\n"               /* 48 */
    "    .param .b32 ev_x\n"                              /* 49 */
    ")\n"                                                 /* 50 */
    "{\n"                                                 /* 51 */
    "    .reg .b32 %r<3>;\n"                              /* 52 */
    "    ld.param.u32 %r1, [ev_x];\n"                     /* 53 */
    "    {\n"                                             /* 54 */
    "    .param .b32 param0;\n"                           /* 55 */
    "    st.param.b32 [param0+0], %r1;\n"                 /* 56 */
    "    .param .b32 retval0;\n"                          /* 57 */
    "    call.uni (retval0), is_odd, (param0);\n"         /* 58 */
    "    ld.param.b32 %r2, [retval0+0];\n"                /* 59 */
    "    }\n"                                             /* 60 */
    "    st.param.b32 [ev_ret], %r2;\n"                   /* 61 */
    "    ret;\n"                                          /* 62 */
    "}\n"                                                 /* 63 */
    ".visible .entry use_fact()\n"                        /* 64 */
    "{\n"                                                 /* 65 */
    "    .reg .b32 %r<3>;\n"                              /* 66 */
    "    mov.u32 %r1, %tid.x;\n"                          /* 67 */
    "    {\n"                                             /* 68 */
    "    .param .b32 param0;\n"                           /* 69 */
    "    st.param.b32 [param0+0], %r1;\n"                 /* 70 */
    "    .param .b32 retval0;\n"                          /* 71 */
    "    call.uni (retval0), fact, (param0);\n"           /* 72 */
    "    ld.param.b32 %r2, [retval0+0];\n"                /* 73 */
    "    }\n"                                             /* 74 */
    "    ret;\n"                                          /* 75 */
    "}\n"                                                 /* 76 */
    ".visible .entry use_even()\n"                        /* 77 */
    "{\n"                                                 /* 78 */
    "    .reg .b32 %r<3>;\n"                              /* 79 */
    "    mov.u32 %r1, %tid.x;\n"                          /* 80 */
    "    {\n"                                             /* 81 */
    "    .param .b32 param0;\n"                           /* 82 */
    "    st.param.b32 [param0+0], %r1;\n"                 /* 83 */
    "    .param .b32 retval0;\n"                          /* 84 */
    "    call.uni (retval0), is_even, (param0);\n"        /* 85 */
    "    ld.param.b32 %r2, [retval0+0];\n"                /* 86 */
    "    }\n"                                             /* 87 */
    "    ret;\n"                                          /* 88 */
    "}\n"                                                 /* 89 */
    ".visible .entry no_recursion()\n"                    /* 90 */
    "{\n"                                                 /* 91 */
    "    ret;\n"                                          /* 92 */
    "}\n";

/* Recursion runs (each activation's registers and frame on the thread's
 * stack, exec_stack.c); recursion without a base case ends in a stack
 * overflow fault at the call, naming the kernel. */
TEST(fault_recursion_runs_or_overflows)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "recur.ptx", recur_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    int rc = pk_run(g, m, "use_fact", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0,
                    NULL, 0, &err);
    CHECK_MSG(rc == SIMT_OK, "use_fact: %s", err.msg);
    /* use_even -> is_even -> is_odd -> is_even ... never stops */
    rc = pk_run(g, m, "use_even", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, NULL,
                0, &err);
    CHECK_EQ(rc, SIMT_EFAULT);
    CHECK_MSG(strstr(err.msg, "stack overflow") &&
              strstr(err.msg, "kernel use_even"), "%s", err.msg);
    rc = pk_run(g, m, "no_recursion", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0,
                NULL, 0, &err);
    CHECK_MSG(rc == SIMT_OK, "%s", err.msg);
    pk_gpu_free(g);
}

TEST(fault_input_memcpy_out_of_range)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_devptr_t a = 0, b = 0;
    CHECK(simt_malloc(g, 100, &a, &err) == SIMT_OK);
    CHECK(simt_malloc(g, 100, &b, &err) == SIMT_OK);
    uint8_t h[300];
    memset(h, 7, sizeof h);
    struct { simt_devptr_t p; size_t n; } bad[] = {
        { a, 101 },              /* one past the end */
        { a + 100, 1 },          /* starts at the end */
        { a + 99, 2 },           /* straddles the end */
        { a - 1, 2 },            /* starts before */
        { a + 4096, 4 },         /* in the guard gap */
        { a, 300 },              /* runs into the next allocation */
        { 0, 4 },                /* null */
        { a + 50, (size_t)-1 },  /* length wraps around */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        size_t n = bad[i].n == (size_t)-1 ? (size_t)-60 : bad[i].n;
        memset(&err, 0, sizeof err);
        if (n <= sizeof h) {
            CHECK_MSG(simt_memcpy_htod(g, bad[i].p, h, n, &err) == SIMT_EINPUT,
                      "htod case %zu accepted", i);
            CHECK_MSG(strstr(err.msg, "simt_memcpy_htod"), "%s", err.msg);
            memset(&err, 0, sizeof err);
            CHECK_MSG(simt_memcpy_dtoh(g, h, bad[i].p, n, &err) == SIMT_EINPUT,
                      "dtoh case %zu accepted", i);
            CHECK_MSG(strstr(err.msg, "simt_memcpy_dtoh"), "%s", err.msg);
        }
        memset(&err, 0, sizeof err);
        CHECK_MSG(simt_memset(g, bad[i].p, 0, n, &err) == SIMT_EINPUT,
                  "memset case %zu accepted", i);
    }
    /* freed memory */
    CHECK(simt_free(g, b, &err) == SIMT_OK);
    memset(&err, 0, sizeof err);
    CHECK_EQ(simt_memcpy_htod(g, b, h, 4, &err), SIMT_EINPUT);
    memset(&err, 0, sizeof err);
    CHECK_EQ(simt_memcpy_dtoh(g, h, b, 4, &err), SIMT_EINPUT);
    /* in range still works */
    memset(&err, 0, sizeof err);
    CHECK_EQ(simt_memcpy_htod(g, a, h, 100, &err), SIMT_OK);
    pk_gpu_free(g);
}

TEST(fault_input_free_of_non_allocation)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_devptr_t a = 0;
    CHECK(simt_malloc(g, 64, &a, &err) == SIMT_OK);
    simt_devptr_t bad[] = { 0, a + 4, a - 4096, a + 1000000, ~0ull };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        memset(&err, 0, sizeof err);
        CHECK_MSG(simt_free(g, bad[i], &err) == SIMT_EINPUT,
                  "free of 0x%llx accepted", (unsigned long long)bad[i]);
        CHECK_MSG(strstr(err.msg, "simt_free"), "%s", err.msg);
    }
    memset(&err, 0, sizeof err);
    CHECK_EQ(simt_free(g, a, &err), SIMT_OK);
    memset(&err, 0, sizeof err);
    CHECK_MSG(simt_free(g, a, &err) == SIMT_EINPUT, "double free accepted");
    pk_gpu_free(g);
}

/* __syncwarp() in divergent code: the even lanes reach bar.warp.sync with
 * a full member mask while the odd lanes are on the other path, which the
 * reconvergence stack cannot synchronise. */
static const char warpsync_ptx[] =
    PK_HEADER                                       /* 1-4 */
    ".visible .entry warpsync_divergent()\n"        /* 5 */
    "{\n"                                           /* 6 */
    "    .reg .pred %p<2>;\n"                       /* 7 */
    "    .reg .b32 %r<3>;\n"                        /* 8 */
    "    mov.u32 %r1, %tid.x;\n"                    /* 9  PC 0 */
    "    and.b32 %r2, %r1, 1;\n"                    /* 10 PC 1 */
    "    setp.eq.u32 %p1, %r2, 1;\n"                /* 11 PC 2 */
    "    @%p1 bra $SKIP;\n"                         /* 12 PC 3 */
    "    bar.warp.sync -1;\n"                       /* 13 PC 4 */
    "$SKIP:\n"                                      /* 14 */
    "    ret;\n"                                    /* 15 PC 5 */
    "}\n";

TEST(fault_warp_sync_in_divergent_code)
{
    simt_error_t err;
    int rc = run_once(NULL, "wsync.ptx", warpsync_ptx, "warpsync_divergent",
                      pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, 0, NULL, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    FAULT_OK(err.msg, "wsync.ptx", warpsync_ptx, 13, "warpsync_divergent", 0,
             0, 0, 0, 0x55555555, 4, "bar.warp.sync");
}

/* A CTA needing more registers than an SM has is refused at launch, naming
 * the resource and its configuration key (gcopy needs a few registers per
 * thread: 1024 threads need thousands, more than 1024). */
TEST(fault_input_cta_registers_exceed_the_sm)
{
    simt_error_t err;
    const char *sets[] = { "gpgpu_shader_registers=1024",
                           "gpgpu_shader_core_max_threads=1024", NULL };
    simt_gpu_t *g = pk_gpu(sets, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "gcopy.ptx", gcopy_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    uint64_t p = 0;
    simt_arg_t a[2] = { SIMT_ARG(p), SIMT_ARG(p) };
    int rc = pk_launch(g, m, "gcopy", pk_dim(1, 1, 1), pk_dim(1024, 1, 1), 0,
                       a, 2, &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "registers") &&
              strstr(err.msg, "gpgpu_shader_registers = 1024"), "%s", err.msg);
    CHECK(nothing_queued(g));
    pk_gpu_free(g);
}

/* Under the timing model a barrier that is never released stops every SM;
 * after gpgpu_deadlock_detect_cycles the fault lists every resident warp
 * of every SM with what it waits for (CTA 1 went to SM 1). */
TEST(fault_timing_deadlock_dumps_every_warp)
{
    simt_error_t err;
    const char *sets[] = { "functional=0", "gpgpu_deadlock_detect_cycles=1000",
                           NULL };
    int rc = run_once(sets, "bars.ptx", bars_ptx, "bar_count_too_big",
                      pk_dim(2, 1, 1), pk_dim(32, 1, 1), 0, 0, NULL, &err);
    CHECK_MSG(rc == SIMT_EFAULT, "status %d: %s", rc, err.msg);
    FAULT_OK(err.msg, "bars.ptx", bars_ptx, 21, "bar_count_too_big", 0, 0, 0,
             0, 0xffffffff, 1, "deadlock");
    CHECK_MSG(strstr(err.msg, "for 1001 cycles"), "%s", err.msg);
    CHECK_MSG(strstr(err.msg, "SM 0, CTA (0,0,0), warp 0: waiting at barrier 0, "
                              "PC 1 (line 21)"), "%s", err.msg);
    CHECK_MSG(strstr(err.msg, "SM 1, CTA (1,0,0), warp 0: waiting at barrier 0"),
              "%s", err.msg);
}
