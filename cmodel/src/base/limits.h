/* limits.h: the run limits that stop a simulation early: gpgpu_max_cycle
 * (core cycles over the GPU's whole life), gpgpu_max_insn (thread
 * instructions over its whole life, GPGPU-Sim's count) and a wall-clock
 * deadline (`simt run --timeout`).
 *
 * Contract.  The owner (the GPU) sets the limits; the functional runner
 * calls limits_check after every warp instruction and the timing loop once
 * per core cycle, so a count may pass its limit by what one warp
 * instruction (functional) or one core cycle (timing) adds.  A check is two
 * compares and a countdown: the monotonic clock is read only every
 * LIMITS_POLL checks.  Invariant: once a limit is hit, `hit` names it and
 * every later check reports it again (the run is over: the caller stops,
 * reports where every warp is and keeps the statistics so far, marked
 * partial). */
#ifndef BASE_LIMITS_H
#define BASE_LIMITS_H

#include <stdint.h>

typedef enum limits_kind {
    LIMITS_NONE = 0,
    LIMITS_CYCLE,   /* gpgpu_max_cycle */
    LIMITS_INSN,    /* gpgpu_max_insn */
    LIMITS_TIME,    /* the wall-clock timeout */
} limits_kind_t;

enum { LIMITS_POLL = 4096 };

typedef struct limits {
    uint64_t max_cycle;    /* UINT64_MAX: none */
    uint64_t max_insn;     /* UINT64_MAX: none */
    double deadline;       /* monotonic seconds; 0: none */
    double timeout;        /* the seconds it was set from (for messages) */
    uint32_t countdown;    /* checks until the clock is read again */
    limits_kind_t hit;
} limits_t;

/* No limit set; 0 for max_cycle or max_insn means none (the keys'
 * default). */
void limits_init(limits_t *l, uint64_t max_cycle, uint64_t max_insn);
/* A deadline `seconds` from now (> 0). */
void limits_set_timeout(limits_t *l, double seconds);

limits_kind_t limits_poll_clock(limits_t *l);

/* The limit reached at `cycle` core cycles and `insns` thread
 * instructions, or LIMITS_NONE. */
static inline limits_kind_t limits_check(limits_t *l, uint64_t cycle,
                                         uint64_t insns)
{
    if (l->hit)
        return l->hit;
    if (cycle >= l->max_cycle)
        return l->hit = LIMITS_CYCLE;
    if (insns >= l->max_insn)
        return l->hit = LIMITS_INSN;
    if (l->deadline > 0 && --l->countdown == 0)
        return limits_poll_clock(l);
    return LIMITS_NONE;
}

/* What stopped the run, as the user set it: "gpgpu_max_cycle = 5000",
 * "gpgpu_max_insn = 100", "--timeout 2 s"; written to buf. */
const char *limits_describe(const limits_t *l, char *buf, unsigned size);
/* The name of the limit hit: "gpgpu_max_cycle", "gpgpu_max_insn",
 * "timeout", or NULL. */
const char *limits_name(limits_kind_t k);

#endif
