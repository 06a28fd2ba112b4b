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
    o->best = calloc(cfg->banks, sizeof *o->best);
    o->best_op = calloc(cfg->banks, sizeof *o->best_op);
    o->waiting = calloc(cfg->banks, sizeof *o->waiting);
    if (!o->cu || !o->best || !o->best_op || !o->waiting) {
        opc_free(o);
        return "out of memory";
    }
    return NULL;
}

void opc_free(opc_t *o)
{
    free(o->cu);
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
    opc_cu_t next = { .busy = 1, .cls = (uint8_t)cls, .warp = warp,
                      .seq = o->next_seq, .tag = tag };
    for (unsigned i = 0; i < n; i++) {
        unsigned j = 0;
        while (j < next.nsrc && next.reg[j] != regs[i])
            j++;
        if (j < next.nsrc)
            continue; /* read once */
        if (next.nsrc == OPC_MAX_SRC)
            return -1;
        next.reg[next.nsrc++] = regs[i];
    }
    next.pending = next.nsrc == 32 ? ~0u : (1u << next.nsrc) - 1;
    *cu = next;
    o->next_seq++;
    o->busy++;
    o->nfree[cls]--;
    o->nready[cls] += next.pending == 0;
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
    for (unsigned i = 0; i < o->ncu; i++) {
        const opc_cu_t *cu = &o->cu[i];
        if (!cu->busy || !cu->pending)
            continue;
        for (unsigned k = 0; k < cu->nsrc; k++) {
            if (!(cu->pending >> k & 1))
                continue;
            unsigned b = opc_bank(o, cu->warp, cu->reg[k]);
            o->waiting[b]++;
            int cur = o->best[b];
            if (cur < 0 || cu->seq < o->cu[cur].seq) {
                o->best[b] = (int32_t)i;
                o->best_op[b] = (uint8_t)k;
            }
        }
    }
    for (unsigned b = 0; b < o->cfg.banks; b++) {
        if (o->best[b] < 0)
            continue;
        opc_cu_t *cu = &o->cu[o->best[b]];
        cu->pending &= ~(1u << o->best_op[b]);
        o->nready[cu->cls] += cu->pending == 0;
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
