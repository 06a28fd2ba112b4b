/* sem_helpers.c: see sem_helpers.h. */
#include "sem_helpers.h"

#include <ctype.h>
#include <fenv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- one GPU per run, freed before returning ---- */

static simt_gpu_t *sem_gpu(simt_error_t *err)
{
    memset(err, 0, sizeof *err);
    return simt_gpu_create(NULL, err);
}

static void sem_print_ptx(const char *ptx)
{
    printf("  --- generated PTX ---\n");
    unsigned line = 1;
    const char *s = ptx;
    while (*s) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        printf("  %3u | %.*s\n", line++, (int)len, s);
        if (!e)
            break;
        s = e + 1;
    }
}

int sem_exec(const char *ptx, unsigned grid, unsigned block, void **bufs,
             const size_t *sizes, unsigned nbuf)
{
    return sem_exec_dims(ptx, (simt_dim3_t){ grid, 1, 1 },
                         (simt_dim3_t){ block, 1, 1 }, bufs, sizes, nbuf);
}

int sem_exec_dims(const char *ptx, simt_dim3_t grid, simt_dim3_t block,
                  void **bufs, const size_t *sizes, unsigned nbuf)
{
    enum { MAXB = 16 };
    if (nbuf > MAXB) {
        printf("  sem_exec: too many buffers\n");
        return -1;
    }
    simt_error_t err;
    simt_gpu_t *g = sem_gpu(&err);
    if (!g) {
        printf("  sem_exec: gpu: %s\n", err.msg);
        return -1;
    }
    int rc = -1;
    simt_devptr_t dev[MAXB] = { 0 };
    simt_arg_t args[MAXB];
    simt_module_t *mod = NULL;
    memset(&err, 0, sizeof err);
    if (simt_module_load_text(g, "sem.ptx", ptx, strlen(ptx), &mod, &err) !=
        SIMT_OK) {
        printf("  sem_exec: load: %s\n", err.msg);
        sem_print_ptx(ptx);
        goto out;
    }
    for (unsigned i = 0; i < nbuf; i++) {
        size_t sz = sizes[i] ? sizes[i] : 8;
        if (simt_malloc(g, sz, &dev[i], &err) != SIMT_OK ||
            simt_memcpy_htod(g, dev[i], bufs[i], sizes[i], &err) != SIMT_OK) {
            printf("  sem_exec: buffer %u: %s\n", i, err.msg);
            goto out;
        }
        args[i] = (simt_arg_t){ &dev[i], sizeof dev[i] };
    }
    simt_launch_t l;
    memset(&l, 0, sizeof l);
    l.grid = grid;
    l.block = block;
    if (simt_launch_kernel(g, mod, "k", &l, args, nbuf, &err) != SIMT_OK ||
        simt_synchronize(g, &err) != SIMT_OK) {
        printf("  sem_exec: run: %s\n", err.msg);
        sem_print_ptx(ptx);
        goto out;
    }
    for (unsigned i = 0; i < nbuf; i++)
        if (simt_memcpy_dtoh(g, bufs[i], dev[i], sizes[i], &err) != SIMT_OK) {
            printf("  sem_exec: read back %u: %s\n", i, err.msg);
            goto out;
        }
    rc = 0;
out:
    simt_gpu_destroy(g);
    return rc;
}

/* ---- sem_run ---- */

typedef struct {
    char *s;
    size_t len, cap;
} sem_text_t;

__attribute__((format(printf, 2, 3)))
static void sem_emit(sem_text_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0)
        return;
    if (t->len + (size_t)need + 1 > t->cap) {
        size_t cap = (t->len + (size_t)need + 1) * 2;
        char *ns = realloc(t->s, cap);
        if (!ns)
            return;
        t->s = ns;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)need;
}

typedef struct {
    char type[8]; /* "" when the register is unused */
} sem_reg_t;

static int parse_sig(const char *sig, sem_reg_t regs[5])
{
    memset(regs, 0, 5 * sizeof *regs);
    const char *s = sig;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        if (s[0] < 'a' || s[0] > 'e' || s[1] != '.') {
            printf("  sem_run: bad signature '%s'\n", sig);
            return -1;
        }
        int r = s[0] - 'a';
        s += 2;
        size_t n = 0;
        while (isalnum((unsigned char)s[n]))
            n++;
        if (n == 0 || n >= sizeof regs[r].type) {
            printf("  sem_run: bad type in '%s'\n", sig);
            return -1;
        }
        memcpy(regs[r].type, s, n);
        regs[r].type[n] = '\0';
        s += n;
    }
    return 0;
}

int sem_run_block(const char *sig, const char *body, sem_lane_t *lanes,
                  unsigned n, unsigned block)
{
    sem_reg_t regs[5];
    if (parse_sig(sig, regs) != 0)
        return -1;
    if (n == 0 || block == 0 || n % block != 0 || n > 8192) {
        printf("  sem_run: bad lane count %u / block %u\n", n, block);
        return -1;
    }
    sem_text_t t = { NULL, 0, 0 };
#define EMIT(...) sem_emit(&t, __VA_ARGS__)
    EMIT(SEM_HEADER);
    EMIT(".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc,\n"
         "    .param .u64 pd, .param .u64 pe)\n{\n");
    EMIT("    .reg .u32 %%sem_tid, %%sem_t32, %%sem_cta, %%sem_ntid;\n"
         "    .reg .u64 %%sem_off, %%sem_ptr;\n");
    for (int r = 0; r < 5; r++)
        if (regs[r].type[0])
            EMIT("    .reg .%s %%%c;\n", regs[r].type, 'a' + r);
    EMIT("    mov.u32 %%sem_tid, %%tid.x;\n"
         "    mov.u32 %%sem_cta, %%ctaid.x;\n"
         "    mov.u32 %%sem_ntid, %%ntid.x;\n"
         "    mad.lo.u32 %%sem_tid, %%sem_cta, %%sem_ntid, %%sem_tid;\n"
         "    mul.wide.u32 %%sem_off, %%sem_tid, 8;\n");
    for (int r = 0; r < 3; r++) {
        if (!regs[r].type[0])
            continue;
        EMIT("    ld.param.u64 %%sem_ptr, [p%c];\n"
             "    add.u64 %%sem_ptr, %%sem_ptr, %%sem_off;\n", 'a' + r);
        if (strcmp(regs[r].type, "pred") == 0)
            EMIT("    ld.global.u32 %%sem_t32, [%%sem_ptr];\n"
                 "    setp.ne.u32 %%%c, %%sem_t32, 0;\n", 'a' + r);
        else
            EMIT("    ld.global.%s %%%c, [%%sem_ptr];\n", regs[r].type,
                 'a' + r);
    }
    EMIT("    // ---- body ----\n%s\n    // ---- end ----\n", body);
    for (int r = 3; r < 5; r++) {
        if (!regs[r].type[0])
            continue;
        EMIT("    ld.param.u64 %%sem_ptr, [p%c];\n"
             "    add.u64 %%sem_ptr, %%sem_ptr, %%sem_off;\n", 'a' + r);
        if (strcmp(regs[r].type, "pred") == 0)
            EMIT("    selp.u32 %%sem_t32, 1, 0, %%%c;\n"
                 "    st.global.u32 [%%sem_ptr], %%sem_t32;\n", 'a' + r);
        else
            EMIT("    st.global.%s [%%sem_ptr], %%%c;\n", regs[r].type,
                 'a' + r);
    }
    EMIT("    ret;\n}\n");
#undef EMIT
    if (!t.s)
        return -1;
    char *ptx = t.s;

    size_t bytes = (size_t)n * 8;
    uint64_t *cols[5];
    int ok = 1;
    for (int r = 0; r < 5; r++) {
        cols[r] = calloc(n, 8);
        ok &= cols[r] != NULL;
    }
    int rc = -1;
    if (ok) {
        for (unsigned i = 0; i < n; i++) {
            cols[0][i] = lanes[i].a;
            cols[1][i] = lanes[i].b;
            cols[2][i] = lanes[i].c;
        }
        void *bufs[5] = { cols[0], cols[1], cols[2], cols[3], cols[4] };
        size_t sizes[5] = { bytes, bytes, bytes, bytes, bytes };
        rc = sem_exec(ptx, n / block, block, bufs, sizes, 5);
        if (rc == 0)
            for (unsigned i = 0; i < n; i++) {
                lanes[i].d = cols[3][i];
                lanes[i].e = cols[4][i];
            }
    }
    for (int r = 0; r < 5; r++)
        free(cols[r]);
    free(ptx);
    return rc;
}

int sem_run(const char *sig, const char *body, sem_lane_t *lanes, unsigned n)
{
    if (n <= 256)
        return sem_run_block(sig, body, lanes, n, n);
    /* pad to whole blocks of 256; the extra lanes see zero inputs */
    unsigned nn = (n + 255) / 256 * 256;
    sem_lane_t *pad = calloc(nn, sizeof *pad);
    if (!pad)
        return -1;
    memcpy(pad, lanes, (size_t)n * sizeof *pad);
    int rc = sem_run_block(sig, body, pad, nn, 256);
    if (rc == 0)
        memcpy(lanes, pad, (size_t)n * sizeof *pad);
    free(pad);
    return rc;
}

/* ---- value tables ---- */

const uint64_t sem_v32[SEM_NV32] = {
    0x00000000, 0x00000001, 0x00000002, 0x00000007, 0x0000007f, 0x00000080,
    0x000000ff, 0x00008000, 0x0000ffff, 0x00ffffff, 0x12345678, 0x7ffffffe,
    0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0xdeadbeef,
    0xaaaaaaaa, 0x55555555,
};

const uint64_t sem_v64[SEM_NV64] = {
    0x0000000000000000ull, 0x0000000000000001ull, 0x0000000000000002ull,
    0x000000007fffffffull, 0x0000000080000000ull, 0x00000000ffffffffull,
    0x0000000100000000ull, 0x00000001ffffffffull, 0x123456789abcdef0ull,
    0x7ffffffffffffffeull, 0x7fffffffffffffffull, 0x8000000000000000ull,
    0x8000000000000001ull, 0xfedcba9876543210ull, 0xfffffffffffffffeull,
    0xffffffffffffffffull, 0xffffffff00000000ull, 0xdeadbeefcafebabeull,
};

unsigned sem_cross(sem_lane_t *L, const uint64_t *A, unsigned na,
                   const uint64_t *B, unsigned nb, const uint64_t *C,
                   unsigned nc)
{
    unsigned n = 0;
    for (unsigned i = 0; i < na; i++)
        for (unsigned j = 0; j < nb; j++) {
            L[n].a = A[i];
            L[n].b = B ? B[j] : 0;
            L[n].c = C ? C[(i * 5 + j * 3) % nc] : 0;
            L[n].d = L[n].e = 0;
            n++;
        }
    return n;
}

/* ---- float bits ---- */

uint32_t sem_f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

float sem_u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint64_t sem_d2u(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

double sem_u2d(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* ---- directed rounding on the host ----
 * The operands go through volatile objects and the result into one, so
 * that the operation is evaluated between the two fesetround calls even
 * though this file is not compiled with -frounding-math. */

static const int sem_modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
                                  FE_UPWARD };

#define SEM_ROUNDED(T, expr)                                               \
    do {                                                                   \
        volatile T r_;                                                     \
        fesetround(sem_modes[mode & 3]);                                   \
        r_ = (expr);                                                       \
        fesetround(FE_TONEAREST);                                          \
        return r_;                                                         \
    } while (0)

float sem_fadd_r(float a, float b, int mode)
{
    volatile float va = a, vb = b;
    SEM_ROUNDED(float, va + vb);
}

float sem_fmul_r(float a, float b, int mode)
{
    volatile float va = a, vb = b;
    SEM_ROUNDED(float, va * vb);
}

float sem_fdiv_r(float a, float b, int mode)
{
    volatile float va = a, vb = b;
    SEM_ROUNDED(float, va / vb);
}

float sem_ffma_r(float a, float b, float c, int mode)
{
    volatile float va = a, vb = b, vc = c;
    SEM_ROUNDED(float, fmaf(va, vb, vc));
}

float sem_fsqrt_r(float a, int mode)
{
    volatile float va = a;
    SEM_ROUNDED(float, sqrtf(va));
}

double sem_dadd_r(double a, double b, int mode)
{
    volatile double va = a, vb = b;
    SEM_ROUNDED(double, va + vb);
}

double sem_dmul_r(double a, double b, int mode)
{
    volatile double va = a, vb = b;
    SEM_ROUNDED(double, va * vb);
}

double sem_ddiv_r(double a, double b, int mode)
{
    volatile double va = a, vb = b;
    SEM_ROUNDED(double, va / vb);
}

double sem_dfma_r(double a, double b, double c, int mode)
{
    volatile double va = a, vb = b, vc = c;
    SEM_ROUNDED(double, fma(va, vb, vc));
}

double sem_dsqrt_r(double a, int mode)
{
    volatile double va = a;
    SEM_ROUNDED(double, sqrt(va));
}

float sem_d2f_r(double a, int mode)
{
    volatile double va = a;
    SEM_ROUNDED(float, (float)va);
}

float sem_i2f_r(int64_t v, int mode)
{
    volatile int64_t vv = v;
    SEM_ROUNDED(float, (float)vv);
}

float sem_u2f_r(uint64_t v, int mode)
{
    volatile uint64_t vv = v;
    SEM_ROUNDED(float, (float)vv);
}

double sem_i2d_r(int64_t v, int mode)
{
    volatile int64_t vv = v;
    SEM_ROUNDED(double, (double)vv);
}

double sem_u2d_r(uint64_t v, int mode)
{
    volatile uint64_t vv = v;
    SEM_ROUNDED(double, (double)vv);
}

uint64_t sem_ulp_f32(float a, float b)
{
    if (isnan(a) || isnan(b) || isinf(a) || isinf(b) ||
        (signbit(a) != signbit(b) && a != b))
        return a == b ? 0 : UINT64_MAX;
    uint32_t x = sem_f2u(fabsf(a)), y = sem_f2u(fabsf(b));
    return x > y ? x - y : y - x;
}

uint64_t sem_ulp_f64(double a, double b)
{
    if (isnan(a) || isnan(b) || isinf(a) || isinf(b) ||
        (signbit(a) != signbit(b) && a != b))
        return a == b ? 0 : UINT64_MAX;
    uint64_t x = sem_d2u(fabs(a)), y = sem_d2u(fabs(b));
    return x > y ? x - y : y - x;
}
