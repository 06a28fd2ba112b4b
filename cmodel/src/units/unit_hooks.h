/* unit_hooks.h: the hook points the C model offers every RTL unit's twin
 * (DESIGN §4.2), one generic set for all units.
 *
 * A co-simulation build (sim/) fills a unit_hooks_t and hands it to the GPU
 * (simt_gpu_set_unit_hooks); the model then calls, for every instance of a
 * unit, the hooks in the cycles the unit is clocked, with the unit's
 * descriptor (units/unit_desc.h), which says how to read `in`, `out` and
 * the state.  Adding a unit changes nothing here: no ABI per unit.  The
 * model knows nothing of what is behind the hooks.
 *
 * Instances are numbered per unit (each unit's header says how; for the
 * warp arbiter, scheduler k of SM s is instance s * schedulers_per_sm + k).
 * `cycle` is the core clock's cycle (gpu_sim_cycle).
 *
 * A unit that is idle (no event and nobody reads its outputs) is not
 * clocked: its tick would leave the state as it is.  So the hooks see only
 * the cycles in which the unit does something; both sides see the same
 * ones.  Every hook returns 0 to go on, non-zero to stop the run (a
 * mismatch): the run then ends with SIMT_ECOSIM. */
#ifndef UNITS_UNIT_HOOKS_H
#define UNITS_UNIT_HOOKS_H

#include <stdint.h>

#include "units/unit_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct unit_hooks {
    void *ctx;
    /* The unit came out of reset (instance set up, or a new kernel on its
     * SM); `state` is the twin's state after reset. */
    int (*reset)(void *ctx, const unit_desc_t *u, unsigned instance,
                 uint64_t cycle, const void *state);
    /* After <unit>_eval: `in` holds every input but the UNIT_LATE ones,
     * `out` the twin's outputs, `state` the twin's state.  The hook may
     * overwrite *out (RTL in the loop): the model then uses the new value. */
    int (*eval)(void *ctx, const unit_desc_t *u, unsigned instance,
                uint64_t cycle, const void *state, const void *in, void *out);
    /* After <unit>_tick: the cycle's complete inputs and the twin's state
     * after the clock edge. */
    int (*tick)(void *ctx, const unit_desc_t *u, unsigned instance,
                uint64_t cycle, const void *in, const void *after);
} unit_hooks_t;

/* The call sites: one call each, 0 when no hooks are installed. */
static inline int unit_hooks_reset(const unit_hooks_t *h, const unit_desc_t *u,
                                   unsigned instance, uint64_t cycle,
                                   const void *state)
{
    return h && h->reset ? h->reset(h->ctx, u, instance, cycle, state) : 0;
}

static inline int unit_hooks_eval(const unit_hooks_t *h, const unit_desc_t *u,
                                  unsigned instance, uint64_t cycle,
                                  const void *state, const void *in, void *out)
{
    return h && h->eval ? h->eval(h->ctx, u, instance, cycle, state, in, out) : 0;
}

static inline int unit_hooks_tick(const unit_hooks_t *h, const unit_desc_t *u,
                                  unsigned instance, uint64_t cycle,
                                  const void *in, const void *after)
{
    return h && h->tick ? h->tick(h->ctx, u, instance, cycle, in, after) : 0;
}

#ifdef __cplusplus
}
#endif

#endif
