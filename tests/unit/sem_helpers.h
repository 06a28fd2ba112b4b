/* sem_helpers.h: helpers for the instruction-semantics tests
 * (tests/unit/test_sem_*.c).
 *
 * Each semantics test runs one PTX instruction (or a few) on many lanes
 * with per-lane inputs and compares every lane's result with a reference
 * computed independently in plain C from the PTX ISA's definition.
 *
 *   sem_lane_t L[N] = { { .a = 1, .b = 2 }, ... };
 *   CHECK(sem_run("d.u32 a.u32 b.u32", "add.u32 %d, %a, %b;", L, N) == 0);
 *   for (i...) CHECK_EQ(L[i].d, ref(L[i].a, L[i].b));
 *
 * The signature names the registers the body uses: inputs a, b, c and
 * outputs d, e, each with its PTX register type ("pred", "b16", "u32",
 * "s64", "f32", "f64", ...).  Inputs are loaded from one 64-bit word per
 * lane with ld.global.<type> (so a narrower type reads the low bytes of the
 * word); a .pred input is true when the word's low 32 bits are nonzero.
 * Outputs are stored with st.global.<type> into a zeroed 64-bit word (a
 * .pred output is stored as 0 or 1), so bits above the type width read 0.
 * The body may declare extra registers and use labels. */
#ifndef TESTS_UNIT_SEM_HELPERS_H
#define TESTS_UNIT_SEM_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "simt/simt.h"

typedef struct sem_lane {
    uint64_t a, b, c; /* inputs */
    uint64_t d, e;    /* outputs */
} sem_lane_t;

/* Runs `body` on n lanes (n <= 8192; blocks of 256 threads, or one block
 * of n when n <= 256, so warp lane = i % 32; beyond 256 the lanes are
 * padded to whole blocks with zero inputs).  0 on success; on any
 * failure prints the reason and the generated PTX and returns -1. */
int sem_run(const char *sig, const char *body, sem_lane_t *lanes, unsigned n);

/* Same, with an explicit block size (n must be a multiple of block). */
int sem_run_block(const char *sig, const char *body, sem_lane_t *lanes,
                  unsigned n, unsigned block);

/* Runs a complete PTX module whose kernel is `.entry k` taking `nbuf`
 * .u64 pointer parameters: buffer i is allocated with sizes[i] bytes,
 * initialised from bufs[i], and copied back into bufs[i] after the run.
 * 0 on success; on failure prints the reason and returns -1. */
int sem_exec(const char *ptx, unsigned grid, unsigned block, void **bufs,
             const size_t *sizes, unsigned nbuf);

/* Edge-case integer values: 32-bit patterns and 64-bit patterns. */
#define SEM_NV32 20
#define SEM_NV64 18
extern const uint64_t sem_v32[SEM_NV32];
extern const uint64_t sem_v64[SEM_NV64];

/* Fills L with the cross product A x B (B may be NULL: b = 0); c takes
 * values from C (NULL: 0) in a scrambled order.  Returns the lane count
 * (na * nb; L must hold that many). */
unsigned sem_cross(sem_lane_t *L, const uint64_t *A, unsigned na,
                   const uint64_t *B, unsigned nb, const uint64_t *C,
                   unsigned nc);

/* Lane i's result `got` must equal `want` (both as uint64_t); the message
 * names the lane and its inputs. */
#define SEM_EQ(L, i, got, want)                                            \
    CHECK_MSG((uint64_t)(got) == (uint64_t)(want),                         \
              "lane %u (a=0x%llx b=0x%llx c=0x%llx): %s = 0x%llx, want 0x%llx", \
              (unsigned)(i), (unsigned long long)(L)[i].a,                 \
              (unsigned long long)(L)[i].b, (unsigned long long)(L)[i].c,  \
              #got, (unsigned long long)(uint64_t)(got),                   \
              (unsigned long long)(uint64_t)(want))

/* sem_exec with 3-D grid and block dimensions. */
int sem_exec_dims(const char *ptx, simt_dim3_t grid, simt_dim3_t block,
                  void **bufs, const size_t *sizes, unsigned nbuf);

/* The PTX header of every generated module. */
#define SEM_HEADER ".version 9.0\n.target sm_75\n.address_size 64\n\n"

/* ---- bit views of floats ---- */
uint32_t sem_f2u(float f);
float sem_u2f(uint32_t u);
uint64_t sem_d2u(double d);
double sem_u2d(uint64_t u);

/* ---- references with an explicit IEEE rounding mode ----
 * mode: 0 nearest-even, 1 toward zero, 2 toward -inf, 3 toward +inf
 * (the order of .rn .rz .rm .rp).  Computed on the host FPU with
 * fesetround around volatile operands. */
float sem_fadd_r(float a, float b, int mode);
float sem_fmul_r(float a, float b, int mode);
float sem_fdiv_r(float a, float b, int mode);
float sem_ffma_r(float a, float b, float c, int mode);
float sem_fsqrt_r(float a, int mode);
double sem_dadd_r(double a, double b, int mode);
double sem_dmul_r(double a, double b, int mode);
double sem_ddiv_r(double a, double b, int mode);
double sem_dfma_r(double a, double b, double c, int mode);
double sem_dsqrt_r(double a, int mode);
float sem_d2f_r(double a, int mode);
float sem_i2f_r(int64_t v, int mode);
float sem_u2f_r(uint64_t v, int mode);
double sem_i2d_r(int64_t v, int mode);
double sem_u2d_r(uint64_t v, int mode);

/* Distance in units in the last place between two finite f32 / f64
 * values of the same sign (UINT64_MAX when not comparable). */
uint64_t sem_ulp_f32(float a, float b);
uint64_t sem_ulp_f64(double a, double b);

#endif
