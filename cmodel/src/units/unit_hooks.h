/* unit_hooks.h: the hook points the C model offers each RTL unit's twin
 * (DESIGN §4.2).
 *
 * A co-simulation build (sim/) fills a unit_hooks_t and hands it to the GPU
 * (simt_gpu_set_unit_hooks); the model then calls, for every instance of a
 * unit, the unit's hooks in the cycles the unit is clocked.  The model
 * knows nothing of what is behind them.
 *
 * Instances are numbered per unit: for the warp arbiter, the scheduler k
 * of SM s is instance s * schedulers_per_sm + k.  `cycle` is the core
 * clock's cycle (gpu_sim_cycle).
 *
 * A unit that is idle (no event and nobody reads its outputs) is not
 * clocked: its tick would leave the state as it is.  So the hooks see only
 * the cycles in which the unit does something; both sides see the same
 * ones. */
#ifndef UNITS_UNIT_HOOKS_H
#define UNITS_UNIT_HOOKS_H

#include <stdint.h>

#include "units/warp_arbiter.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct unit_hooks {
    void *ctx;
    /* The arbiter came out of reset (instance set up, or a new kernel on
     * its SM).  `s` is the state after reset. */
    int (*warp_arbiter_reset)(void *ctx, uint64_t cycle, unsigned instance,
                              const warp_arbiter_state_t *s);
    /* After warp_arbiter_eval: `in` holds every input but issued_* (they
     * are known only once the pipeline has acted on the grant), `out` the
     * twin's outputs.  The hook may overwrite *out (RTL in the loop): the
     * pipeline then uses the new value. */
    int (*warp_arbiter_eval)(void *ctx, uint64_t cycle, unsigned instance,
                             const warp_arbiter_state_t *s,
                             const warp_arbiter_in_t *in,
                             warp_arbiter_out_t *out);
    /* After warp_arbiter_tick: the complete inputs of the cycle and the
     * twin's state after the clock edge. */
    int (*warp_arbiter_tick)(void *ctx, uint64_t cycle, unsigned instance,
                             const warp_arbiter_in_t *in,
                             const warp_arbiter_state_t *after);
} unit_hooks_t;
/* Every hook returns 0 to go on, non-zero to stop the run (a mismatch):
 * the run then ends with SIMT_ECOSIM. */

#ifdef __cplusplus
}
#endif

#endif
