/* opcoll.c: collector units and per-bank read arbitration (opcoll.h). */
#include <stdlib.h>

#include "core/opcoll.h"

const char *opc_init(opc_t *o, const opc_cfg_t *cfg)
{
    *o = (opc_t){ .cfg = *cfg };
    if (cfg->banks == 0 || cfg->banks > 1024)
        return "register banks must be in 1..1024";
    for (int c = 0; c < OPC_NCLASSES; c++) {
        if (cfg->cus[c] == 0 || cfg->cus[c] > 256)
            return "collector units per class must be in 1..256";
        o->first[c] = o->ncu;
        o->ncu += cfg->cus[c];
        o->nfree[c] = cfg->cus[c];
    }
    o->cu = calloc(o->ncu, sizeof *o->cu);
    o->reading = calloc((o->ncu + 63) / 64, sizeof *o->reading);
    o->best = calloc(cfg->banks, sizeof *o->best);
    o->best_op = calloc(cfg->banks, sizeof *o->best_op);
    o->waiting = calloc(cfg->banks, sizeof *o->waiting);
    if (!o->cu || !o->reading || !o->best || !o->best_op || !o->waiting) {
        opc_free(o);
        return "out of memory";
    }
    return NULL;
}

void opc_free(opc_t *o)
{
    free(o->cu);
    free(o->reading);
    free(o->best);
    free(o->best_op);
    free(o->waiting);
    *o = (opc_t){ 0 };
}

int opc_alloc(opc_t *o, opc_class_t cls, uint32_t warp, const uint32_t *regs,
              unsigned n, uint64_t tag)
{
    opc_cu_t *cu = NULL;
    for (unsigned i = 0; i < o->cfg.cus[cls] && !cu; i++)
        if (!o->cu[o->first[cls] + i].busy)
            cu = &o->cu[o->first[cls] + i];
    if (!cu)
        return -1;
    uint32_t distinct[OPC_MAX_SRC];
    unsigned nsrc = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned j = 0;
        while (j < nsrc && distinct[j] != regs[i])
            j++;
        if (j < nsrc)
            continue; /* read once */
        if (nsrc == OPC_MAX_SRC)
            return -1;
        distinct[nsrc++] = regs[i];
    }
    cu->busy = 1;
    cu->cls = (uint8_t)cls;
    cu->nsrc = (uint8_t)nsrc;
    cu->warp = warp;
    cu->seq = o->next_seq;
    cu->tag = tag;
    /* the bank of each read is fixed from now on: computed once here, not
     * in every cycle the read waits (a division per operand) */
    for (unsigned j = 0; j < nsrc; j++)
        cu->bank[j] = (uint16_t)opc_bank(o, warp, distinct[j]);
    cu->pending = nsrc == 32 ? ~0u : (1u << nsrc) - 1;
    if (cu->pending) {
        unsigned i = (unsigned)(cu - o->cu);
        o->reading[i / 64] |= (uint64_t)1 << (i % 64);
    }
    o->next_seq++;
    o->busy++;
    o->nfree[cls]--;
    o->nready[cls] += cu->pending == 0;
    return 0;
}

void opc_read_cycle(opc_t *o)
{
    unsigned reading = o->busy; /* CUs with operands still to read */
    for (int c = 0; c < OPC_NCLASSES; c++)
        reading -= o->nready[c];
    if (!reading)
        return;
    for (unsigned b = 0; b < o->cfg.banks; b++) {
        o->best[b] = -1;
        o->waiting[b] = 0;
    }
    /* in CU index order, each CU's reads in operand order: the order the
     * oldest-first ties were always broken in */
    for (unsigned wd = 0; wd < (o->ncu + 63) / 64; wd++) {
        for (uint64_t m = o->reading[wd]; m; m &= m - 1) {
            unsigned i = wd * 64 + (unsigned)__builtin_ctzll(m);
            const opc_cu_t *cu = &o->cu[i];
            for (uint32_t p = cu->pending; p; p &= p - 1) {
                unsigned k = (unsigned)__builtin_ctz(p);
                unsigned b = cu->bank[k];
                o->waiting[b]++;
                int cur = o->best[b];
                if (cur < 0 || cu->seq < o->cu[cur].seq) {
                    o->best[b] = (int32_t)i;
                    o->best_op[b] = (uint8_t)k;
                }
            }
        }
    }
    for (unsigned b = 0; b < o->cfg.banks; b++) {
        if (o->best[b] < 0)
            continue;
        opc_cu_t *cu = &o->cu[o->best[b]];
        cu->pending &= ~(1u << o->best_op[b]);
        if (!cu->pending) {
            o->nready[cu->cls]++;
            o->reading[o->best[b] / 64] &= ~((uint64_t)1 << (o->best[b] % 64));
        }
        o->stats.reads++;
        o->stats.bank_conflicts += o->waiting[b] - 1;
    }
}

int opc_dispatch(opc_t *o, opc_class_t cls, uint64_t *tag)
{
    if (!o->nready[cls])
        return 0;
    opc_cu_t *oldest = NULL;
    for (unsigned i = 0; i < o->cfg.cus[cls]; i++) {
        opc_cu_t *cu = &o->cu[o->first[cls] + i];
        if (cu->busy && !cu->pending && (!oldest || cu->seq < oldest->seq))
            oldest = cu;
    }
    if (!oldest)
        return 0;
    *tag = oldest->tag;
    oldest->busy = 0;
    o->busy--;
    o->nfree[cls]++;
    o->nready[cls]--;
    return 1;
}

void opc_export_stats(const opc_t *o, simt_stats_t *st)
{
    st->reg_bank_reads += o->stats.reads;
    st->reg_bank_conflicts += o->stats.bank_conflicts;
}
