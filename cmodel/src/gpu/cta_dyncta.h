/* cta_dyncta.h: DYNCTA's CTA-limit controller (Kayiran, Jog, Kandemir,
 * Das, "Neither More Nor Less: Optimizing Thread-level Parallelism for
 * GPGPUs", PACT 2013), apart from the policy (cta_dyncta.c) so that a test
 * drives it over crafted counter sequences.
 *
 * Once per sampling period each SM's limit on resident CTAs moves by at most
 * one, from the period's idle cycles C_idle and memory-wait cycles C_mem
 * (cta_policy_counters_t), in this order (PACT'13, Algorithm 1 as we
 * read it: idle first, an idle core needs more CTAs whatever its memory
 * waits):
 *   C_idle >= t_idle        limit + 1   (too few warps to issue from)
 *   C_mem  <  t_mem_l       limit + 1   (memory is not the bottleneck)
 *   C_mem  >  t_mem_h       limit - 1   (too many CTAs contend for memory)
 *   otherwise               hold
 * always within [1, T_max]. */
#ifndef GPU_CTA_DYNCTA_H
#define GPU_CTA_DYNCTA_H

#include <stdint.h>

typedef struct cta_dyncta_thresholds {
    uint64_t t_idle, t_mem_l, t_mem_h;
} cta_dyncta_thresholds_t;

/* The limit after a period with `idle` and `mem` cycles. */
unsigned cta_dyncta_step(unsigned limit, unsigned tmax, uint64_t idle,
                         uint64_t mem, const cta_dyncta_thresholds_t *t);

/* The limit a kernel starts at: T_max / 2 rounded down, at least 1
 * (PACT'13 starts at half the maximum; it does not say how odd T_max
 * rounds: down keeps the start on the lean side the paper argues for). */
unsigned cta_dyncta_start(unsigned tmax);

#endif
