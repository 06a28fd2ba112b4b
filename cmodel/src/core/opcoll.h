/* opcoll.h: the operand collector and its banked register file (GPGPU-Sim
 * 3.x structure).
 *
 * An issued instruction takes a free collector unit (CU) of its class and
 * queues one read per distinct source register.  Register r of warp w lives
 * in bank (r + w) mod banks with warp skew, r mod banks without.  Each
 * cycle every bank serves one read: the pending read of the oldest CU (by
 * allocation order, then operand order) among those waiting on that bank.
 * A CU whose reads are all served can dispatch to its execution unit; the
 * oldest ready CU of a class goes first.
 *
 * Bank conflicts: in a cycle, a bank with k > 1 waiting reads serves one
 * and counts k - 1 conflicts. */
#ifndef CORE_OPCOLL_H
#define CORE_OPCOLL_H

#include <stdint.h>

#include "simt/stats.h"

/* Distinct source registers of one instruction: at least what an
 * instruction can read (core/sm.h's SM_MAX_REGS), so allocation never
 * fails for the operands' sake. */
#define OPC_MAX_SRC 32

typedef enum opc_class {
    OPC_SP, OPC_DP, OPC_SFU, OPC_INT, OPC_MEM, OPC_NCLASSES
} opc_class_t;

typedef struct opc_cfg {
    unsigned banks;                 /* register-file banks (>= 1) */
    unsigned cus[OPC_NCLASSES];     /* collector units per class (>= 1) */
    int warp_skew;                  /* 1: bank = (reg + warp) mod banks */
} opc_cfg_t;

typedef struct opc_cu {
    uint8_t busy;
    uint8_t cls;
    uint8_t nsrc;
    uint32_t pending;               /* bit i: source i not read yet */
    uint32_t warp;
    uint16_t bank[OPC_MAX_SRC];     /* each distinct source's bank
                                       (opc_bank, at allocation) */
    uint64_t seq;                   /* allocation order */
    uint64_t tag;                   /* the issuer's handle */
} opc_cu_t;

typedef struct opc_stats {
    uint64_t reads;                 /* register reads served */
    uint64_t bank_conflicts;        /* reads delayed by another read */
} opc_stats_t;

typedef struct opc {
    opc_cfg_t cfg;
    opc_cu_t *cu;                   /* all classes, class by class */
    unsigned first[OPC_NCLASSES];   /* index of a class's first CU */
    unsigned ncu;
    unsigned busy;                  /* CUs in use (idle cycles are O(1)) */
    unsigned nfree[OPC_NCLASSES];   /* free CUs per class */
    unsigned nready[OPC_NCLASSES];  /* CUs with every operand read */
    uint64_t next_seq;
    uint64_t *reading;              /* CUs with reads pending, a bit per
                                       CU (the read cycle visits only
                                       these, not every CU's record) */
    int32_t *best;                  /* per bank: scratch for arbitration */
    uint8_t *best_op;
    uint32_t *waiting;
    opc_stats_t stats;
} opc_t;

/* NULL on success, else what is wrong with the configuration (the opc is
 * then unusable and needs no opc_free). */
const char *opc_init(opc_t *o, const opc_cfg_t *cfg);
void opc_free(opc_t *o);

/* Takes a free CU of class `cls` for warp `warp` reading regs[0..n)
 * (duplicates are read once).  0, or -1 when every CU of the class is busy
 * or n distinct registers exceed OPC_MAX_SRC. */
int opc_alloc(opc_t *o, opc_class_t cls, uint32_t warp, const uint32_t *regs,
              unsigned n, uint64_t tag);

/* Free CUs of class `cls`. */
static inline unsigned opc_free_cus(const opc_t *o, opc_class_t cls)
{
    return o->nfree[cls];
}

/* CUs of class `cls` whose operands are all read (0: opc_dispatch has
 * nothing to release, and the caller need not ask its unit for room). */
static inline unsigned opc_ready_cus(const opc_t *o, opc_class_t cls)
{
    return o->nready[cls];
}

/* One cycle of register-bank reads. */
void opc_read_cycle(opc_t *o);

/* Releases the oldest CU of `cls` whose operands are all read: 1 and its
 * tag in *tag, or 0 when none is ready. */
int opc_dispatch(opc_t *o, opc_class_t cls, uint64_t *tag);

static inline unsigned opc_bank(const opc_t *o, uint32_t warp, uint32_t reg)
{
    return (unsigned)((reg + (o->cfg.warp_skew ? warp : 0)) % o->cfg.banks);
}

/* Adds the register-file figures (reg_bank_reads, reg_bank_conflicts) to
 * the GPU's statistics. */
void opc_export_stats(const opc_t *o, simt_stats_t *st);

#endif
