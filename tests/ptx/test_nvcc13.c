/* test_nvcc13.c: PTX as nvcc 13 emits it for real programs, end to end:
 * device printf and assert, addresses in initializers, indirect calls,
 * WARP_SZ and long template names.  The CUDA sources and the PTX nvcc
 * made of them are in tests/ptx/nvcc13/ (the test needs no nvcc); expected
 * values are worked out by hand from the CUDA source and C's printf. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "simt/config.h"
#include "simt/simt.h"
#include "ptx/ir.h"
#include "ptx/printer.h"

#define DIR "tests/ptx/nvcc13/"

typedef struct run {
    simt_gpu_t *gpu;
    simt_module_t *mod;
    simt_error_t err;
    FILE *out;          /* device printf output */
    char *text;         /* what the run printed, NUL-terminated */
    size_t len;
} run_t;

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s) {
        s[n] = '\0';
        *len = (size_t)n;
    }
    return s;
}

/* Loads PTX text on a GPU (functional, or the timing model). */
static int run_open_text(run_t *r, const char *name, const char *text,
                         size_t len, int functional)
{
    memset(r, 0, sizeof *r);
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    if (!functional &&
        simt_config_set(&cfg, "functional=0", "test", &r->err) != SIMT_OK)
        return -1;
    r->gpu = simt_gpu_create(&cfg, &r->err);
    r->out = tmpfile();
    if (!r->gpu || !r->out)
        return -1;
    simt_gpu_set_device_output(r->gpu, r->out);
    return simt_module_load_text(r->gpu, name, text, len, &r->mod, &r->err) ==
                   SIMT_OK ? 0 : -1;
}

/* Loads DIR/file on a GPU (functional, or the timing model). */
static int run_open(run_t *r, const char *file, int functional)
{
    char path[256];
    snprintf(path, sizeof path, DIR "%s", file);
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        memset(r, 0, sizeof *r);
        snprintf(r->err.msg, sizeof r->err.msg, "cannot read %s", path);
        return -1;
    }
    int rc = run_open_text(r, path, text, len, functional);
    free(text);
    return rc;
}

/* Launches `kernel` on one block of `block` threads with buffers
 * bufs[i] (sizes[i] bytes, copied back) and runs it; returns the
 * simt_synchronize status (or -1) and reads what it printed. */
static int run_kernel(run_t *r, const char *kernel, unsigned block,
                      void **bufs, const size_t *sizes, unsigned nbuf)
{
    simt_devptr_t dev[4];
    simt_arg_t args[4];
    for (unsigned i = 0; i < nbuf; i++) {
        if (simt_malloc(r->gpu, sizes[i], &dev[i], &r->err) != SIMT_OK ||
            simt_memcpy_htod(r->gpu, dev[i], bufs[i], sizes[i], &r->err) !=
                SIMT_OK)
            return -1;
        args[i] = (simt_arg_t){ &dev[i], sizeof dev[i] };
    }
    simt_launch_t l;
    memset(&l, 0, sizeof l);
    l.grid = (simt_dim3_t){ 1, 1, 1 };
    l.block = (simt_dim3_t){ block, 1, 1 };
    if (simt_launch_kernel(r->gpu, r->mod, kernel, &l, args, nbuf, &r->err) !=
        SIMT_OK)
        return -1;
    int rc = simt_synchronize(r->gpu, &r->err);
    for (unsigned i = 0; rc == SIMT_OK && i < nbuf; i++)
        if (simt_memcpy_dtoh(r->gpu, bufs[i], dev[i], sizes[i], &r->err) !=
            SIMT_OK)
            return -1;
    long n = ftell(r->out);
    free(r->text);
    r->text = calloc(1, n > 0 ? (size_t)n + 1 : 1);
    if (r->text && n > 0) {
        rewind(r->out);
        r->len = fread(r->text, 1, (size_t)n, r->out);
    }
    return rc;
}

static void run_close(run_t *r)
{
    if (r->gpu)
        simt_gpu_destroy(r->gpu);
    if (r->out)
        fclose(r->out);
    free(r->text);
}

/* printf_k's text for n threads with inputs in[], from C's printf: one
 * warp, which runs the even lanes' printf call (lanes in ascending order),
 * then the odd lanes'. */
static void printf_expected(const int *in, unsigned n, char *buf, size_t size)
{
    size_t k = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned t = i < (n + 1) / 2 ? 2 * i : 2 * (i - (n + 1) / 2) + 1;
        int v = in[t];
        if (t % 2 == 0)
            k += (size_t)snprintf(buf + k, size - k,
                                  "t%d v=%d u=%u x=%x %5.2f [%s] %c %lld %%\n",
                                  (int)t, v, (unsigned)v, (unsigned)v, v * 0.5,
                                  "str", 'a' + (int)t, (long long)v << 33);
        else
            k += (size_t)snprintf(buf + k, size - k, "odd %03d %-4d|%e\n",
                                  (int)t, v, (double)v);
    }
}

static void check_printf(int functional)
{
    run_t r;
    int in[4] = { 5, -7, 123456, 0x7fffffff };
    void *bufs[] = { in };
    size_t sizes[] = { sizeof in };
    int ok = run_open(&r, "printf_assert.ptx", functional) == 0 &&
             run_kernel(&r, "printf_k", 4, bufs, sizes, 1) == SIMT_OK;
    char want[1024];
    printf_expected(in, 4, want, sizeof want);
    int same = ok && r.text && strcmp(r.text, want) == 0;
    if (!same)
        printf("  error: %s\n  got:\n%s  want:\n%s", r.err.msg,
               r.text ? r.text : "", want);
    run_close(&r);
    CHECK(ok);
    CHECK(same);
}

/* The output appears on the host after the kernel, in the order the warp
 * executed its printf calls, functional and timed alike. */
TEST(nvcc13_printf_functional) { check_printf(1); }
TEST(nvcc13_printf_timing) { check_printf(0); }

/* A failed assert: a fault (status 3) naming the CUDA file, line, function,
 * block, thread and the assertion; what the kernel printed before it is
 * still written. */
TEST(nvcc13_assert_fault)
{
    run_t r;
    int in[4] = { 1, 2, 300, 4 };
    void *bufs[] = { in };
    size_t sizes[] = { sizeof in };
    int ok = run_open(&r, "printf_assert.ptx", 1) == 0;
    int rc = ok ? run_kernel(&r, "assert_k", 4, bufs, sizes, 1) : -1;
    char msg[sizeof r.err.msg];
    memcpy(msg, r.err.msg, sizeof msg);
    int printed = r.text && strcmp(r.text, "before 0\nbefore 1\nbefore 2\n"
                                           "before 3\n") == 0;
    if (!printed)
        printf("  printed: %s\n", r.text ? r.text : "(nothing)");
    run_close(&r);
    CHECK(ok);
    CHECK_EQ(rc, SIMT_EFAULT);
    CHECK_MSG(strstr(msg, "device assertion failed: printf_assert.cu:22: "
                          "void assert_k(const int *): ") &&
              strstr(msg, "block [0,0,0], thread [2,0,0]: Assertion "
                          "`in[t] < 100` failed.") &&
              strstr(msg, "lanes 0x00000004"), "message: %s", msg);
    CHECK(printed);
}

/* funcptr.ptx as `simt opt` prints it (relocations and prototypes
 * written back) when `printed`, else as nvcc wrote it. */
static int open_funcptr(run_t *r, int functional, int printed)
{
    if (!printed)
        return run_open(r, "funcptr.ptx", functional);
    size_t len;
    char *text = read_file(DIR "funcptr.ptx", &len);
    simt_error_t err;
    memset(&err, 0, sizeof err);
    ptx_module_t *m = text ? ptx_parse("funcptr.ptx", text, len, &err) : NULL;
    FILE *f = tmpfile();
    int rc = -1;
    if (m && f && ptx_print_module(m, f) == 0) {
        long n = ftell(f);
        char *out = malloc((size_t)n + 1);
        rewind(f);
        if (out && fread(out, 1, (size_t)n, f) == (size_t)n)
            rc = run_open_text(r, "printed.ptx", out, (size_t)n, functional);
        free(out);
    }
    if (f)
        fclose(f);
    ptx_module_free(m);
    free(text);
    return rc;
}

static void check_funcptr(int functional, int printed)
{
    run_t r;
    enum { N = 64 };
    static int out[4 * N];
    int sel[2] = { 4, 2 }; /* warp 0: square (4 % 3 = 1), warp 1: negate */
    memset(out, 0xff, sizeof out);
    void *bufs[] = { out, sel };
    size_t sizes[] = { sizeof out, sizeof sel };
    int ok = open_funcptr(&r, functional, printed) == 0 &&
             run_kernel(&r, "funcptr_k", N, bufs, sizes, 2) == SIMT_OK;
    if (!ok)
        printf("  error: %s\n", r.err.msg);
    run_close(&r);
    CHECK(ok);
    /* sizeof(Big): 3 x 3 Levels of {int, float, double} (16 bytes),
     * {char, short, long} (16), {unsigned, uchar, ushort} (8): 40 each,
     * 120 in all */
    for (int t = 0; t < N; t++) {
        int want = t < 32 ? t * t : -t;
        CHECK_EQ(out[4 * t + 0], 20 + 40 + 7);
        CHECK_EQ(out[4 * t + 1], want);
        CHECK_EQ(out[4 * t + 2], t + 120);
        CHECK_EQ(out[4 * t + 3], 32);
    }
}

/* Lanes of a warp calling different functions through pointers: the
 * call runs once per function, lanes reconverge after it. */
static void check_funcptr_divergent(int functional)
{
    run_t r;
    enum { N = 64 };
    static int out[N];
    memset(out, 0, sizeof out);
    void *bufs[] = { out };
    size_t sizes[] = { sizeof out };
    int ok = run_open(&r, "funcptr.ptx", functional) == 0 &&
             run_kernel(&r, "funcptr_div_k", N, bufs, sizes, 1) == SIMT_OK;
    if (!ok)
        printf("  error: %s\n", r.err.msg);
    run_close(&r);
    CHECK(ok);
    for (int t = 0; t < N; t++) {
        int k = (t * 7) % 3;
        int first = k == 0 ? 2 * t : k == 1 ? t * t : -t;
        int second = t % 2 == 0 ? 2 : 1; /* twice(1) or square(1) */
        CHECK_EQ(out[t], first + second);
    }
}

TEST(nvcc13_funcptr_divergent_functional) { check_funcptr_divergent(1); }
TEST(nvcc13_funcptr_divergent_timing) { check_funcptr_divergent(0); }

TEST(nvcc13_funcptr_functional) { check_funcptr(1, 0); }
TEST(nvcc13_funcptr_timing) { check_funcptr(0, 0); }
TEST(nvcc13_funcptr_printed) { check_funcptr(1, 1); }

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

/* Recursion, direct (fib, to a depth that differs per lane) and mutual
 * (is_even/is_odd with a local array), and a deep chain of 256-byte
 * frames: each activation keeps its own registers and frame. */
static void check_recursion(int functional)
{
    run_t r;
    enum { N = 64 };
    static int out[3 * N];
    int limit = 200;
    int ok = run_open(&r, "recursion.ptx", functional) == 0;
    /* the second argument is an int passed by value: launch by hand */
    simt_devptr_t dev;
    ok = ok && simt_malloc(r.gpu, sizeof out, &dev, &r.err) == SIMT_OK;
    simt_arg_t args[] = { { &dev, sizeof dev }, { &limit, sizeof limit } };
    simt_launch_t l;
    memset(&l, 0, sizeof l);
    l.grid = (simt_dim3_t){ 1, 1, 1 };
    l.block = (simt_dim3_t){ N, 1, 1 };
    ok = ok && simt_launch_kernel(r.gpu, r.mod, "recursion_k", &l, args, 2,
                                  &r.err) == SIMT_OK &&
         simt_synchronize(r.gpu, &r.err) == SIMT_OK &&
         simt_memcpy_dtoh(r.gpu, out, dev, sizeof out, &r.err) == SIMT_OK;
    if (!ok)
        printf("  error: %s\n", r.err.msg);
    run_close(&r);
    CHECK(ok);
    for (int t = 0; t < N; t++) {
        CHECK_EQ(out[3 * t + 0], fib(t % 12));
        CHECK_EQ(out[3 * t + 1], t % 2 == 0);
        CHECK_EQ(out[3 * t + 2], limit);
    }
}

TEST(nvcc13_recursion_functional) { check_recursion(1); }
TEST(nvcc13_recursion_timing) { check_recursion(0); }

/* Runaway recursion: a "stack overflow" fault naming the function. */
TEST(nvcc13_recursion_stack_overflow)
{
    run_t r;
    int limit = 100000;
    int ok = run_open(&r, "recursion.ptx", 1) == 0;
    simt_devptr_t dev;
    ok = ok && simt_malloc(r.gpu, 3 * 32 * sizeof(int), &dev, &r.err) == SIMT_OK;
    simt_arg_t args[] = { { &dev, sizeof dev }, { &limit, sizeof limit } };
    simt_launch_t l;
    memset(&l, 0, sizeof l);
    l.grid = (simt_dim3_t){ 1, 1, 1 };
    l.block = (simt_dim3_t){ 32, 1, 1 };
    int rc = ok ? simt_launch_kernel(r.gpu, r.mod, "recursion_k", &l, args, 2,
                                     &r.err) : -1;
    rc = rc == SIMT_OK ? simt_synchronize(r.gpu, &r.err) : rc;
    char msg[sizeof r.err.msg];
    memcpy(msg, r.err.msg, sizeof msg);
    run_close(&r);
    CHECK(ok);
    CHECK_EQ(rc, SIMT_EFAULT);
    CHECK_MSG(strstr(msg, "stack overflow: entering '_Z5depthi' again"),
              "%s", msg);
}

/* C++ virtual calls: odd lanes call Square::area, even ones Tri::area,
 * through the vtables' function addresses. */
static void check_virtual(int functional)
{
    run_t r;
    enum { N = 64 };
    static char buf[16 * N];
    static float out[N];
    memset(out, 0, sizeof out);
    void *bufs[] = { buf, out };
    size_t sizes[] = { sizeof buf, sizeof out };
    int ok = run_open(&r, "virtual.ptx", functional) == 0 &&
             run_kernel(&r, "virtual_k", N, bufs, sizes, 2) == SIMT_OK;
    if (!ok)
        printf("  error: %s\n", r.err.msg);
    run_close(&r);
    CHECK(ok);
    for (int t = 0; t < N; t++)
        CHECK_MSG(out[t] == (t & 1 ? (float)t * t : 3.0f * t * t),
                  "lane %d: %g", t, (double)out[t]);
}

TEST(nvcc13_virtual_functional) { check_virtual(1); }
TEST(nvcc13_virtual_timing) { check_virtual(0); }

/* alloca: room on the thread's dynamic stack, at an address in .local;
 * too much of it is a located fault. */
static int run_alloca(run_t *r, int n, int *out, int functional)
{
    simt_devptr_t dev;
    if (run_open(r, "alloca.ptx", functional) != 0 ||
        simt_malloc(r->gpu, 64 * sizeof(int), &dev, &r->err) != SIMT_OK)
        return -1;
    simt_arg_t args[] = { { &dev, sizeof dev }, { &n, sizeof n } };
    simt_launch_t l;
    memset(&l, 0, sizeof l);
    l.grid = (simt_dim3_t){ 1, 1, 1 };
    l.block = (simt_dim3_t){ 64, 1, 1 };
    int rc = simt_launch_kernel(r->gpu, r->mod, "alloca_k", &l, args, 2, &r->err);
    rc = rc == SIMT_OK ? simt_synchronize(r->gpu, &r->err) : rc;
    if (rc == SIMT_OK)
        rc = simt_memcpy_dtoh(r->gpu, out, dev, 64 * sizeof(int), &r->err);
    return rc;
}

TEST(nvcc13_alloca)
{
    static int out[64];
    for (int functional = 1; functional >= 0; functional--) {
        run_t r;
        int rc = run_alloca(&r, 10, out, functional);
        if (rc != SIMT_OK)
            printf("  error: %s\n", r.err.msg);
        run_close(&r);
        CHECK_EQ(rc, SIMT_OK);
        for (int t = 0; t < 64; t++)
            CHECK_EQ(out[t], (t % 10) * (t % 10) + t);
    }
    run_t r;
    int rc = run_alloca(&r, 1 << 20, out, 1);
    char msg[sizeof r.err.msg];
    memcpy(msg, r.err.msg, sizeof msg);
    run_close(&r);
    CHECK_EQ(rc, SIMT_EFAULT);
    CHECK_MSG(strstr(msg, "alloca of 4194304 bytes overflows"), "%s", msg);
}
