/* cta_place.h: the placement engine that the lcs, bcs and lcs_bcs CTA
 * policies (gpu/cta_policy.h) share: GPGPU-Sim's round robin (gpu/cta_rr.c's
 * order: a cluster's SMs from the one after the SM served last, on each SM
 * the ready kernels in launch order), placing units of one CTA or of a BCS
 * pair, under an optional per-kernel cap on an SM's resident CTAs.
 *
 *   pairs   (bcs, lcs_bcs; a kernel whose CTAs are 2D or 3D, i.e. not
 *           block.y == block.z == 1) the unit is a pair of consecutive
 *           linear CTA ids placed together on one SM (cta_policy.h: place
 *           returns 2); a pair goes only where two CTAs fit (and the cap
 *           leaves two); with odd_fill a lone CTA may take a last slot
 *           instead; the grid's last CTA, when the count is odd, goes alone.
 *           A kernel of which an empty SM holds fewer than 2 CTAs (T_max <
 *           2), or whose cap is 1, goes one CTA at a time (else nothing
 *           could ever be placed).
 *           Delayed refill: when one CTA of a pair finishes, its slot
 *           stays empty until its partner finishes (a half-finished pair
 *           counts as two CTAs against the SM's room and the cap), and
 *           then a whole pair may take the two slots.
 *   cap     (lcs, lcs_bcs: T_new) a kernel with cap c > 0 goes to an SM only
 *           while its resident CTAs there plus the unit are at most c; 0 is
 *           no cap (the SM's resources decide, T_max).  Running CTAs are
 *           never touched.
 *
 * Invariants: as rr's: `ready` holds the ready kernels with CTAs left in
 * increasing order; blocked[c] set means no unit fits in cluster c and
 * only a cta_done in c or a kernel_ready clears it (a cap is set at
 * kernel_ready or lowered at a cta_done, so it needs no wake-up of its own); each
 * SM's `units` hold exactly its resident CTAs placed by the engine, one
 * entry per unit, with the unit's CTAs still running. */
#ifndef GPU_CTA_PLACE_H
#define GPU_CTA_PLACE_H

#include "gpu/cta_policy.h"

typedef struct cta_unit {
    unsigned kernel;
    uint64_t first;           /* its first linear CTA id */
    uint8_t n, done;          /* CTAs in it (1 or 2), of which completed */
} cta_unit_t;

typedef struct cta_place {
    cta_policy_env_t env;
    int pairs;                /* BCS pairing for 2D kernels */
    unsigned *next;           /* per cluster: SM offset to try first */
    uint8_t *blocked;         /* per cluster: nothing fits until an event */
    uint64_t *left;           /* per kernel: CTAs not yet placed */
    uint64_t *placed;         /* per kernel: the next linear CTA id */
    uint32_t *cap;            /* per kernel: 0 none, else T_new */
    uint8_t *paired;          /* per kernel: placed in pairs */
    unsigned *ready;          /* ready kernels with CTAs left, ascending */
    unsigned nready;
    cta_unit_t *units;        /* per SM: env.slots entries */
    unsigned *nunits;         /* per SM */
} cta_place_t;

/* 0, or -1 (host memory: cta_place_free then frees what was allocated). */
int cta_place_init(cta_place_t *e, const cta_policy_env_t *env, int pairs);
void cta_place_free(cta_place_t *e);

void cta_place_kernel_ready(cta_place_t *e, unsigned kernel, uint64_t ctas);
void cta_place_cta_done(cta_place_t *e, unsigned sm, unsigned kernel,
                        uint64_t cta);
/* The CTAs placed (0, 1 or 2) with *sm and *kernel. */
int cta_place_place(cta_place_t *e, unsigned cluster, unsigned *sm,
                    unsigned *kernel);

/* The cap of `kernel` (0: none). */
void cta_place_set_cap(cta_place_t *e, unsigned kernel, uint32_t cap);
/* Resident CTAs of `kernel` on SM `sm` that the engine placed. */
unsigned cta_place_resident(const cta_place_t *e, unsigned sm, unsigned kernel);

#endif
