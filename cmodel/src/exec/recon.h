/* recon.h: the reconvergence-model interface.
 *
 * A reconvergence model owns how a CTA's threads are grouped into issue
 * groups (warp_t, exec.h) and which PC each group runs: it forms the
 * groups when the CTA starts and rewrites a group's entries (simt_entry_t)
 * when lanes diverge, call, return, exit or reconverge.  It is chosen per
 * run by `simt_reconvergence` (docs/configs.md); the names and their
 * configuration values come from EXEC_RECON_MODELS below, value i being the
 * i-th name.
 *
 * Contract shared by every model:
 *   - a group's current PC and lanes are its top entry (warp_pc,
 *     warp_active); exec_step moves that entry past each instruction
 *     before the handler runs, and a branch that every active lane takes
 *     (or none) is handled without the model;
 *   - a group holds its threads in the lanes its lane map says
 *     (exec_group_map); the issue stage, scoreboard and operand collector
 *     of the timing model key on the group, so a model that moves threads
 *     between groups does so only where no instruction of either group is
 *     in flight;
 *   - barriers are generic: a group waits at a barrier as a whole
 *     (cta.c counts 32 threads per arriving group).
 *
 * Adding a model: docs/reconvergence.md. */
#ifndef EXEC_RECON_H
#define EXEC_RECON_H

#include "exec/exec.h"

/* Every model, one X(name) each, in configuration-value order.  Model
 * `name` is the table recon_<name>, defined in exec/recon_<name>.c. */
#define EXEC_RECON_MODELS(X) \
    X(pdom)

typedef struct recon_ops {
    /* Forms the groups of a CTA whose threads and c->nwarps groups (one
     * per home warp, zeroed, each with an empty entry stack) exist: sets
     * each group's lane map and first entry (PC 0, its valid lanes).
     * SIMT_OK or SIMT_EINPUT (memory, in the launch's error). */
    int (*init)(cta_t *c);
    /* A divergent branch: of the active lanes, `taken` (neither none nor
     * all of them) go to ei->target, the others fall through to the top
     * entry's PC. */
    void (*branch)(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                   uint32_t taken);
    /* Lanes m enter the function whose first PC is `entry` (ei->target,
     * or an indirect call's callee), their frames copied. */
    void (*call)(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                 uint32_t entry, uint32_t m);
    /* Lanes m return from the function they are in: leave it and return
     * the PC of the call they return from, or EXEC_NO_PC when that
     * function is the kernel (the lanes then exit). */
    uint32_t (*ret)(exec_ctx_t *x, warp_t *w, uint32_t m);
    /* Lanes m leave the kernel; a group with no lane left is done. */
    void (*exit)(exec_ctx_t *x, warp_t *w, uint32_t m);
    /* After every instruction of w (ei): reconverge what has reached its
     * reconvergence point and mark the group done when nothing is left to
     * run.  SIMT_OK or SIMT_EFAULT (a fault report). */
    int (*settle)(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei);
} recon_ops_t;

#define RECON_DECLARE(name) extern const recon_ops_t recon_##name;
EXEC_RECON_MODELS(RECON_DECLARE)
#undef RECON_DECLARE

/* The model of configuration value v (0 <= v < the number of models). */
const recon_ops_t *recon_model(unsigned v);

/* The models' names in value order, NULL-terminated (the enum names of
 * `simt_reconvergence`). */
extern const char *const recon_model_names[];

#endif
