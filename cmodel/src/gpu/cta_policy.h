/* cta_policy.h: where the next CTA goes.
 *
 * Each cycle, for each cluster, the GPU asks the configured policy for one
 * (SM, kernel) pair in that cluster; the CTA placed is the kernel's next in
 * launch order.  Policies see the SMs and the kernels and keep their own
 * state between calls.  `rr` (the baseline, GPGPU-Sim's) tries the
 * cluster's SMs round robin starting after the SM that last received a
 * CTA, and on each SM the eligible kernels in launch order, taking the
 * first CTA that fits.  The CTA-scheduling mechanisms (LCS, BCS, mCKE),
 * Scratchpad Sharing and EXPARS add policies here. */
#ifndef GPU_CTA_POLICY_H
#define GPU_CTA_POLICY_H

#include "core/sm.h"

typedef enum cta_policy_kind { CTA_POLICY_RR, CTA_POLICY_NKINDS } cta_policy_kind_t;

/* A kernel as the dispatcher tracks it. */
typedef struct gpu_kernel {
    sm_kernel_t k;            /* what the SMs see */
    uint64_t nctas, next_cta; /* CTAs in the grid, next to place */
    uint8_t eligible;         /* its stream's earlier launches are done */
    uint64_t start, end;      /* cycles of its first placement and last
                                 completion */
    uint64_t warp_cycles;     /* sum over cycles of its resident warps */
    uint64_t sm_cycles;       /* sum over cycles of the SMs hosting it */
} gpu_kernel_t;

typedef struct cta_policy {
    cta_policy_kind_t kind;
    unsigned *rr;             /* per cluster: next SM offset to try */
    unsigned clusters, per_cluster;
} cta_policy_t;

int cta_policy_init(cta_policy_t *p, cta_policy_kind_t kind, unsigned clusters,
                    unsigned per_cluster);
void cta_policy_free(cta_policy_t *p);

/* Chooses an SM of `cluster` and a kernel for one CTA: 1 with *sm (index
 * into sms) and *kernel set, or 0 when nothing fits. */
int cta_policy_place(cta_policy_t *p, const sm_t *sms, const gpu_kernel_t *ks,
                     unsigned nk, unsigned cluster, unsigned *sm,
                     unsigned *kernel);

#endif
