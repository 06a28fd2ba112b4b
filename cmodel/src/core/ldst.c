/* ldst.c: the load/store unit over an ideal memory (ldst.h). */
#include <stdlib.h>

#include "core/ldst.h"
#include "core/smem_banks.h"
#include "mem/coalescer.h"

const char *ldst_init(ldst_t *u, const ldst_cfg_t *cfg)
{
    *u = (ldst_t){ .cfg = *cfg };
    if (cfg->queue < 1 || cfg->smem_banks < 1)
        return "the LD/ST queue and the scratchpad banks must be at least 1";
    u->inflight_cap = cfg->queue + 1;
    u->q = calloc(cfg->queue, sizeof *u->q);
    u->inflight = calloc(u->inflight_cap, sizeof *u->inflight);
    if (!u->q || !u->inflight) {
        ldst_free(u);
        return "out of memory";
    }
    return NULL;
}

void ldst_free(ldst_t *u)
{
    free(u->q);
    free(u->inflight);
    *u = (ldst_t){ 0 };
}

int ldst_can_accept(const ldst_t *u)
{
    return u->count < u->cfg.queue;
}

/* Distinct addresses among the active lanes (constant-cache accesses). */
static unsigned distinct_addresses(const exec_access_t *a)
{
    unsigned n = 0;
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        if (!(a->mask >> l & 1))
            continue;
        unsigned k = 0;
        while (k < l && !((a->mask >> k & 1) && a->addr[k] == a->addr[l]))
            k++;
        n += k == l;
    }
    return n;
}

/* Cycles in the unit and latency of one instruction's accesses. */
static void cost(ldst_t *u, const exec_access_t *a, ldst_op_t *op)
{
    unsigned first = a->mask ? (unsigned)__builtin_ctz(a->mask) : 0;
    ptx_space_t space = (ptx_space_t)a->space[first];
    op->busy = 1;
    op->latency = u->cfg.smem_latency;
    if (!a->mask)
        return; /* every lane predicated off: one cycle, nothing moves */
    switch (space) {
    case PTX_SPACE_SHARED:
        op->busy = smem_bank_cycles(a->addr, a->mask, a->bytes, u->cfg.smem_banks);
        u->stats.shared_accesses++;
        u->stats.shared_bank_cycles += op->busy;
        return;
    case PTX_SPACE_CONST: case PTX_SPACE_PARAM:
        op->busy = distinct_addresses(a);
        op->latency = u->cfg.const_latency;
        u->stats.const_accesses++;
        return;
    default: {
        coalesce_txn_t t[COALESCE_MAX_TXN];
        op->busy = coalesce_warp(a->addr, a->mask, a->bytes, t);
        op->latency = u->cfg.mem_latency;
        u->stats.global_accesses++;
        u->stats.global_transactions += op->busy;
        return;
    }
    }
}

ldst_op_t ldst_prepare(ldst_t *u, const exec_access_t *a)
{
    ldst_op_t op = { 0 };
    cost(u, a, &op);
    return op;
}

void ldst_accept(ldst_t *u, uint64_t tag, const ldst_op_t *op)
{
    ldst_op_t *q = &u->q[(u->head + u->count++) % u->cfg.queue];
    *q = *op;
    q->tag = tag;
}

void ldst_cycle(ldst_t *u, uint64_t now)
{
    if (!u->count || now < u->free_at || u->ninflight == u->inflight_cap)
        return;
    ldst_op_t op = u->q[u->head];
    u->head = (u->head + 1) % u->cfg.queue;
    u->count--;
    u->free_at = now + op.busy;
    op.done = now + op.busy - 1 + op.latency;
    u->inflight[u->ninflight++] = op;
}

int ldst_pop_done(ldst_t *u, uint64_t now, uint64_t *tag)
{
    for (unsigned i = 0; i < u->ninflight; i++) {
        if (u->inflight[i].done > now)
            continue;
        *tag = u->inflight[i].tag;
        for (unsigned j = i + 1; j < u->ninflight; j++)
            u->inflight[j - 1] = u->inflight[j];
        u->ninflight--;
        return 1;
    }
    return 0;
}
