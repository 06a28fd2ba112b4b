/* cta_lcs.h: LCS, lazy CTA scheduling (reference 004 §2.2; Lee et al.,
 * HPCA'14): the monitor that decides a kernel launch's cap T_new, shared by
 * the lcs and lcs_bcs CTA policies (cta_lcs.c, cta_lcs_bcs.c), which place
 * through the engine of cta_place.h.
 *
 * Per launch: T_max is the CTAs of it an empty SM holds (the `kernel`
 * query).  Phase 1, the monitor: from the launch's first placement, SMs
 * fill to T_max as usual (no cap).  The window ends at the first CTA
 * completion of the launch on SM lcs_monitor_sm; then, over the CTAs of
 * the launch resident there at that moment (the finisher included, and any
 * other finisher of the same cycle), with inst[x] the warp-instructions
 * CTA x issued since its placement (all placed after the launch began):
 *     T_new = round(sum(inst) / max(inst))      (Eq. 1)
 * rounded by lcs_round (floor, the paper's Eq. 1; ceil; round: nearest,
 * halves up), clamped to 1..T_max.  Phase 2/3: T_new becomes the launch's
 * cap on every SM (cta_place_set_cap): refills only while resident <
 * T_new; nothing is preempted.  lcs_scope=launch monitors every launch
 * afresh; lcs_scope=kernel reuses the T_new of the first launch of the same
 * static kernel that decided one (no monitor: window 0).  A launch whose
 * monitored SM never completes one of its CTAs has no decision (T_new 0 in
 * the statistics) and runs uncapped.
 *
 * Invariants: a launch's cap is set once, at its decision (or at
 * kernel_ready when reused), except that completions in the decision's own
 * cycle on the monitored SM join the sum and max and recompute it. */
#ifndef GPU_CTA_LCS_H
#define GPU_CTA_LCS_H

#include "gpu/cta_place.h"

/* Eq. 1 over counts[0..n): sum/max rounded by r, clamped to 1..tmax (tmax
 * when every count is 0 or n is 0). */
unsigned cta_lcs_t_new(const uint64_t *counts, unsigned n, cta_lcs_round_t r,
                       unsigned tmax);

typedef struct cta_lcs_kernel {
    uint32_t t_max, t_new;    /* t_new 0: not decided */
    uint32_t code;            /* its static kernel */
    uint8_t started;          /* its first CTA placed */
    uint8_t monitored;        /* decided by its own monitor window */
    uint64_t start, decided;  /* cycles: first placement, decision */
    uint64_t sum, max;        /* Eq. 1's figures at the decision */
} cta_lcs_kernel_t;

typedef struct cta_lcs {
    cta_place_t *engine;      /* where the cap goes */
    cta_policy_env_t env;
    cta_lcs_kernel_t *ks;     /* per launch */
    uint64_t *counts;         /* scratch: env.slots counts */
} cta_lcs_t;

int cta_lcs_init(cta_lcs_t *m, const cta_policy_env_t *env, cta_place_t *engine);
void cta_lcs_free(cta_lcs_t *m);
void cta_lcs_kernel_ready(cta_lcs_t *m, unsigned kernel);
/* The engine placed CTAs of `kernel`. */
void cta_lcs_placed(cta_lcs_t *m, unsigned kernel);
void cta_lcs_cta_done(cta_lcs_t *m, unsigned sm, unsigned kernel,
                      uint64_t warp_insns);
void cta_lcs_kstats(const cta_lcs_t *m, unsigned kernel, cta_policy_kstats_t *out);

#endif
