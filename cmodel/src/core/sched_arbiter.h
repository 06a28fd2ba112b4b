/* sched_arbiter.h: what the warp-arbiter policies (sched_arbiter.c) show
 * beyond the sched_t interface: the twin's flops, for tests and reports. */
#ifndef CORE_SCHED_ARBITER_H
#define CORE_SCHED_ARBITER_H

#include "core/sched.h"
#include "units/warp_arbiter.h"

/* The arbiter's state; s must run one of lrr, gto, owf, ltlws. */
const warp_arbiter_state_t *sched_arbiter_state(const sched_t *s);

#endif
