/* pipe.c: instruction classes, latencies and the pipelines (pipe.h). */
#include <stdlib.h>

#include "core/pipe.h"

pipe_cfg_t pipe_cfg_default(void)
{
    /* GPGPU-Sim 3.x GTX480: -ptx_opcode_latency_int 4,13,4,5,145,
     * -ptx_opcode_initiation_int 1,2,2,1,8, _fp 4,13,4,5,39 / 1,2,1,1,4,
     * _dp 8,19,8,8,330 / 8,16,8,8,130.  SFU: our decision, 4 SFU lanes per
     * SM serve a warp in 8 cycles; 20 cycles of latency. */
    pipe_cfg_t c = {
        .int_ = { { 4, 1 }, { 13, 2 }, { 4, 2 }, { 5, 1 }, { 145, 8 } },
        .fp = { { 4, 1 }, { 13, 2 }, { 4, 1 }, { 5, 1 }, { 39, 4 } },
        .dp = { { 8, 8 }, { 19, 16 }, { 8, 8 }, { 8, 8 }, { 330, 130 } },
        .sfu = { 20, 8 },
        .units = { 1, 1, 1, 1, 1 },
        .max_inflight = 256,
    };
    return c;
}

static int lat_ok(pipe_lat_t l)
{
    return l.latency >= 1 && l.interval >= 1;
}

const char *pipe_cfg_check(const pipe_cfg_t *c)
{
    for (int k = 0; k < PIPE_NKINDS; k++)
        if (!lat_ok(c->int_[k]) || !lat_ok(c->fp[k]) || !lat_ok(c->dp[k]))
            return "every latency and initiation interval must be at least 1";
    if (!lat_ok(c->sfu))
        return "the SFU latency and initiation interval must be at least 1";
    for (int u = 0; u < OPC_NCLASSES; u++)
        if (c->units[u] < 1 || c->units[u] > 64)
            return "pipelines per unit class must be in 1..64";
    if (c->max_inflight < 1)
        return "max_inflight must be at least 1";
    return NULL;
}

static pipe_kind_t kind_of(ptx_op_t op)
{
    switch (op) {
    case PTX_OP_MIN: case PTX_OP_MAX: return PIPE_K_MINMAX;
    case PTX_OP_MUL: case PTX_OP_MUL24: return PIPE_K_MUL;
    case PTX_OP_MAD: case PTX_OP_MAD24: case PTX_OP_MADC: case PTX_OP_FMA:
        return PIPE_K_MAD;
    case PTX_OP_DIV: case PTX_OP_REM: return PIPE_K_DIV;
    default: return PIPE_K_ADD;
    }
}

static int is_sfu_op(ptx_op_t op)
{
    switch (op) {
    case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_EX2:
    case PTX_OP_LG2: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_TANH:
        return 1;
    default:
        return 0;
    }
}

static int is_mem_op(ptx_op_t op)
{
    return op == PTX_OP_LD || op == PTX_OP_LDU || op == PTX_OP_ST ||
           op == PTX_OP_ATOM || op == PTX_OP_RED || op == PTX_OP_TEX ||
           op == PTX_OP_TLD4 || op == PTX_OP_SULD || op == PTX_OP_SUST;
}

pipe_timing_t pipe_timing_of(const pipe_cfg_t *c, const ptx_insn_t *in)
{
    ptx_op_t op = (ptx_op_t)in->op;
    ptx_type_t t = (ptx_type_t)in->type, t2 = (ptx_type_t)in->type2;
    if (is_mem_op(op))
        return (pipe_timing_t){ OPC_MEM, { 0, 0 } };
    int f64 = t == PTX_T_F64 || (op == PTX_OP_CVT && t2 == PTX_T_F64);
    int flt = ptx_type_is_float(t) || (op == PTX_OP_CVT && ptx_type_is_float(t2));
    if (is_sfu_op(op))
        return f64 ? (pipe_timing_t){ OPC_DP, c->dp[PIPE_K_DIV] }
                   : (pipe_timing_t){ OPC_SFU, c->sfu };
    pipe_kind_t k = kind_of(op);
    if (f64)
        return (pipe_timing_t){ OPC_DP, c->dp[k] };
    if (flt && op != PTX_OP_MOV && op != PTX_OP_SELP && op != PTX_OP_TESTP)
        return (pipe_timing_t){ OPC_SP, c->fp[k] };
    return (pipe_timing_t){ OPC_INT, c->int_[k] };
}

const char *pipes_init(pipes_t *p, const pipe_cfg_t *cfg)
{
    *p = (pipes_t){ .cfg = *cfg };
    const char *why = pipe_cfg_check(cfg);
    if (why)
        return why;
    for (int u = 0; u < OPC_NCLASSES; u++)
        if (!(p->next_free[u] = calloc(cfg->units[u], sizeof *p->next_free[u]))) {
            pipes_free(p);
            return "out of memory";
        }
    if (!(p->inflight = calloc(cfg->max_inflight, sizeof *p->inflight))) {
        pipes_free(p);
        return "out of memory";
    }
    return NULL;
}

void pipes_free(pipes_t *p)
{
    for (int u = 0; u < OPC_NCLASSES; u++)
        free(p->next_free[u]);
    free(p->inflight);
    *p = (pipes_t){ 0 };
}

/* The first pipeline of `cls` free at `now`, or -1. */
static int free_unit(const pipes_t *p, opc_class_t cls, uint64_t now)
{
    for (unsigned i = 0; i < p->cfg.units[cls]; i++)
        if (p->next_free[cls][i] <= now)
            return (int)i;
    return -1;
}

int pipes_can_accept(const pipes_t *p, opc_class_t cls, uint64_t now)
{
    return p->ninflight < p->cfg.max_inflight && free_unit(p, cls, now) >= 0;
}

void pipes_dispatch(pipes_t *p, opc_class_t cls, pipe_lat_t lat, uint64_t now,
                    uint64_t tag)
{
    int u = free_unit(p, cls, now);
    if (u < 0 || p->ninflight == p->cfg.max_inflight)
        return; /* the caller checked pipes_can_accept */
    p->next_free[cls][u] = now + lat.interval;
    p->inflight[p->ninflight++] = (pipe_result_t){ now + lat.latency, tag };
    if (now + lat.latency < p->next_done)
        p->next_done = now + lat.latency;
}

int pipes_pop_done(pipes_t *p, uint64_t now, uint64_t *tag)
{
    if (now < p->next_done)
        return 0;
    int best = -1;
    uint64_t later = UINT64_MAX; /* the earliest of those not yet due */
    for (unsigned i = 0; i < p->ninflight; i++) {
        uint64_t d = p->inflight[i].done;
        if (d <= now && (best < 0 || d < p->inflight[best].done))
            best = (int)i;
        else if (d > now && d < later)
            later = d;
    }
    if (best < 0) {
        p->next_done = later;
        return 0;
    }
    *tag = p->inflight[best].tag;
    /* keep dispatch order among the rest: shift down */
    for (unsigned i = (unsigned)best + 1; i < p->ninflight; i++)
        p->inflight[i - 1] = p->inflight[i];
    p->ninflight--;
    return 1;
}

uint64_t pipes_next_done(const pipes_t *p)
{
    uint64_t t = UINT64_MAX;
    for (unsigned i = 0; i < p->ninflight; i++)
        if (p->inflight[i].done < t)
            t = p->inflight[i].done;
    return t;
}
