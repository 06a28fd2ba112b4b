/* ilp_schedule.c: list-schedule blocks as soon as possible
 * (ilp_schedule.h). */
#include "compiler/ilp_schedule.h"

#include <stdlib.h>
#include <string.h>

#include "ptx/cfg.h"
#include "ptx/liveness.h"

/* How far (in instructions) an instruction may move up: the span ptxas
 * fills to cover a latency.  Fitted on the suite (docs/regalloc.md): 16
 * gives a median of 0.92 of ptxas, 32 gives 1.0 with the smallest spread,
 * 64 lets sgemm's unrolled loop need 121 registers (ptxas: 63). */
enum { ILP_WINDOW = 32 };

/* May `in` write memory, order accesses or end the block, so that nothing
 * passes it and it passes nothing? */
static int is_fence(const ptx_insn_t *in)
{
    switch ((ptx_op_t)in->op) {
    case PTX_OP_ST: case PTX_OP_ATOM: case PTX_OP_RED: case PTX_OP_BAR:
    case PTX_OP_BARRIER: case PTX_OP_MEMBAR: case PTX_OP_FENCE:
    case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_TRAP:
    case PTX_OP_RELSSP: case PTX_OP_BRA: case PTX_OP_SUST:
        return 1;
    case PTX_OP_ADDC: case PTX_OP_SUBC: case PTX_OP_MADC:
        return 1; /* the carry flag is not a register: keep the chain */
    case PTX_OP_LD:
        /* ld.param stays too: SASS reads kernel parameters as constant-bank
         * operands, so there is no load latency to hide */
        return (in->flags & PTX_F_VOLATILE) || in->space == PTX_SPACE_PARAM;
    default:
        return (in->flags & PTX_F_CC) != 0;
    }
}

typedef struct {
    uint16_t uses[PTX_INSN_MAX_USES], defs[PTX_INSN_MAX_DEFS];
    int nuses, ndefs, fence;
} operands_t;

static int overlaps(const uint16_t *a, int na, const uint16_t *b, int nb)
{
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (a[i] == b[j])
                return 1;
    return 0;
}

/* Must b stay after a (a earlier in the block)? */
static int depends(const operands_t *b, const operands_t *a)
{
    return a->fence || b->fence ||
           overlaps(a->defs, a->ndefs, b->uses, b->nuses) ||
           overlaps(a->defs, a->ndefs, b->defs, b->ndefs) ||
           overlaps(a->uses, a->nuses, b->defs, b->ndefs);
}

typedef struct {
    uint32_t level, pos;
} slot_t;

static int by_level(const void *x, const void *y)
{
    const slot_t *a = x, *b = y;
    if (a->level != b->level)
        return a->level < b->level ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Each instruction's level is one more than the highest level it depends
 * on, and more than the level of the instruction ILP_WINDOW places above
 * it (so it moves up at most that far); the block is then stably sorted
 * by level, so independent instructions keep their program order. */
int ilp_schedule(ptx_module_t *m, uint32_t f)
{
    ptx_cfg_t *cfg = ptx_cfg_build(m, f);
    if (!cfg)
        return -1;
    uint32_t most = 1;
    for (uint32_t b = 0; b < cfg->nblocks; b++)
        if (cfg->blocks[b].count > most)
            most = cfg->blocks[b].count;
    operands_t *ops = malloc(most * sizeof *ops);
    slot_t *slots = malloc(most * sizeof *slots);
    ptx_insn_t *order = malloc(most * sizeof *order);
    int rc = ops && slots && order ? 0 : -1;
    for (uint32_t b = 0; rc == 0 && b < cfg->nblocks; b++) {
        const ptx_block_t *bl = &cfg->blocks[b];
        const ptx_insn_t *in = &m->insns[bl->first];
        for (uint32_t i = 0; i < bl->count; i++) {
            operands_t *o = &ops[i];
            o->nuses = ptx_insn_uses(&in[i], o->uses, PTX_INSN_MAX_USES);
            o->ndefs = ptx_insn_defs(&in[i], o->defs, PTX_INSN_MAX_DEFS);
            o->fence = is_fence(&in[i]);
            uint32_t level = i >= ILP_WINDOW ? slots[i - ILP_WINDOW].level + 1 : 0;
            for (uint32_t j = 0; j < i; j++)
                if (slots[j].level + 1 > level && depends(o, &ops[j]))
                    level = slots[j].level + 1;
            slots[i] = (slot_t){ level, i };
        }
        qsort(slots, bl->count, sizeof *slots, by_level);
        for (uint32_t i = 0; i < bl->count; i++)
            order[i] = in[slots[i].pos];
        memcpy(&m->insns[bl->first], order, bl->count * sizeof *order);
    }
    free(ops);
    free(slots);
    free(order);
    ptx_cfg_free(cfg);
    return rc;
}
