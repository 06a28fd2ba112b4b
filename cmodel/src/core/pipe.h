/* pipe.h: the execution pipelines of an SM and the latency of each
 * instruction.
 *
 * Every instruction belongs to one unit class (the operand collector's
 * classes: SP, DP, SFU, INT, MEM) and one operation kind, which give its
 * latency (issue to result) and initiation interval (cycles before the
 * same unit takes the next instruction).  The kinds follow GPGPU-Sim 3.x's
 * latency lists: [0] add/sub and everything simple, [1] min/max, [2] mul,
 * [3] mad/fma, [4] div/rem; transcendentals use the SFU's own pair.
 *
 *   integer ops            INT   int[kind]
 *   f32 (and f16) ops      SP    fp[kind]
 *   f64 ops                DP    dp[kind]    (f64 rcp/sqrt: dp[DIV])
 *   rcp sqrt rsqrt ex2 lg2 sin cos tanh (f32)  SFU   sfu
 *   ld st ldu atom red     MEM   (the LD/ST unit times these itself)
 *   control, barriers, moves, warp ops         INT   int[ADD]
 *
 * A class has `units` identical pipelines; an instruction takes any of
 * them whose interval has elapsed.  Results come out when their latency
 * has elapsed, several in one cycle if they are due together. */
#ifndef CORE_PIPE_H
#define CORE_PIPE_H

#include <stdint.h>

#include "core/opcoll.h"
#include "ptx/ir.h"

typedef enum pipe_kind {
    PIPE_K_ADD, PIPE_K_MINMAX, PIPE_K_MUL, PIPE_K_MAD, PIPE_K_DIV, PIPE_NKINDS
} pipe_kind_t;

typedef struct pipe_lat {
    uint16_t latency;   /* cycles from dispatch to result, >= 1 */
    uint16_t interval;  /* cycles before the unit accepts again, >= 1 */
} pipe_lat_t;

typedef struct pipe_cfg {
    pipe_lat_t int_[PIPE_NKINDS], fp[PIPE_NKINDS], dp[PIPE_NKINDS], sfu;
    unsigned units[OPC_NCLASSES];   /* pipelines per class, >= 1 */
    unsigned max_inflight;          /* results in flight per SM, >= 1 */
} pipe_cfg_t;

/* The GTX480 values of GPGPU-Sim 3.x (docs/configs.md). */
pipe_cfg_t pipe_cfg_default(void);
/* NULL, or what is wrong. */
const char *pipe_cfg_check(const pipe_cfg_t *c);

typedef struct pipe_timing {
    opc_class_t cls;
    pipe_lat_t lat;     /* zero for MEM: the LD/ST unit decides */
} pipe_timing_t;

/* The unit class and timing of one decoded instruction. */
pipe_timing_t pipe_timing_of(const pipe_cfg_t *c, const ptx_insn_t *in);

typedef struct pipe_result {
    uint64_t done;      /* cycle the result is ready */
    uint64_t tag;
} pipe_result_t;

typedef struct pipes {
    pipe_cfg_t cfg;
    uint64_t *next_free[OPC_NCLASSES];  /* per pipeline: first free cycle */
    pipe_result_t *inflight;
    unsigned ninflight;
    uint64_t next_done;  /* no result in flight is due before this cycle
                            (a lower bound: pipes_pop_done scans only from
                            then on) */
} pipes_t;

const char *pipes_init(pipes_t *p, const pipe_cfg_t *cfg);
void pipes_free(pipes_t *p);

/* 1 when a pipeline of `cls` can take an instruction at cycle `now` (and
 * there is room for its result). */
int pipes_can_accept(const pipes_t *p, opc_class_t cls, uint64_t now);

/* Starts an instruction at `now` (pipes_can_accept must hold). */
void pipes_dispatch(pipes_t *p, opc_class_t cls, pipe_lat_t lat, uint64_t now,
                    uint64_t tag);

/* A result due at or before `now`: 1 and its tag (earliest due first, then
 * dispatch order), or 0. */
int pipes_pop_done(pipes_t *p, uint64_t now, uint64_t *tag);

/* The earliest cycle a result in flight is due (UINT64_MAX: none), for
 * the idle-cycle skip (gpu/timing.c): pipes_pop_done finds nothing before
 * it. */
uint64_t pipes_next_done(const pipes_t *p);

#endif
