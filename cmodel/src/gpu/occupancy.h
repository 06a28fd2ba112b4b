/* occupancy.h: how many CTAs of a kernel fit on one SM at once.
 *
 * The limit is the minimum over five resources, each on its own:
 *   threads    max_threads_per_SM / threads_per_CTA
 *   warps      (max_threads_per_SM / 32) / ceil(threads_per_CTA / 32)
 *   CTA slots  gpgpu_shader_cta
 *   registers  registers_per_SM / (32 * warps_per_CTA * regs_per_thread
 *              rounded up to gpgpu_reg_alloc_unit)
 *   shared     gpgpu_shmem_size / shared bytes per CTA
 * A resource the kernel does not use (no registers, no shared memory) does
 * not limit.  The limiter reported is the first in that order that reaches
 * the minimum.  0 CTAs means the kernel cannot run on this SM at all. */
#ifndef GPU_OCCUPANCY_H
#define GPU_OCCUPANCY_H

#include <stdint.h>

#include "simt/config.h"

typedef enum occ_resource {
    OCC_THREADS, OCC_WARPS, OCC_CTA_SLOTS, OCC_REGISTERS, OCC_SHARED,
    OCC_NRESOURCES
} occ_resource_t;

typedef struct occupancy {
    uint32_t ctas;                      /* resident CTAs per SM */
    occ_resource_t limiter;             /* what sets `ctas` */
    uint32_t by[OCC_NRESOURCES];        /* each resource's own limit
                                           (UINT32_MAX: does not limit) */
    uint32_t regs_per_cta;              /* after the allocation rounding */
} occupancy_t;

/* The per-SM limit for CTAs of `threads` threads needing `regs` registers
 * per thread and `shared` bytes of shared memory (static + dynamic). */
occupancy_t occupancy_of(const simt_config_t *cfg, uint32_t threads,
                         uint32_t regs, uint64_t shared);

/* Scratchpad Sharing's occupancy (reference 000 §2.2, the [recon] closed
 * form; docs/scratchpad-sharing.md).  With R = gpgpu_shmem_size, R_tb the
 * CTA's bytes, t = permille/1000 and `other` the least of the other
 * resources' limits (threads, warps, CTA slots, registers, each with its
 * allocation rounding):
 *   m      = the baseline occupancy (occupancy_of);
 *   sharing applies (ShSM) only when the scratchpad is the strict limiter,
 *          floor(R/R_tb) < other, and n > m below; otherwise n = m;
 *   priv   = ceil(t*R_tb): an extra CTA's private slice;
 *   n      = min(m + floor((R - m*R_tb) / priv), 2m, other);
 *   pairs  = n - m (baseline slots 0..pairs-1 with extra slots m..n-1).
 * Invariants: m <= n <= 2m; m*R_tb + pairs*priv <= R; unpaired CTAs
 * (m - pairs) plus one runnable CTA per pair is never below m.
 * limit  = ssp_unshared_limit(R_tb, permille): offsets below it are each
 *          CTA's own, the rest is the pair's shared region. */
typedef struct occ_sharing {
    uint32_t m, n, pairs;
    uint32_t priv;      /* bytes of an extra CTA's private slice */
    uint32_t limit;     /* the unshared limit (a multiple of 4) */
} occ_sharing_t;

occ_sharing_t occupancy_sharing(const simt_config_t *cfg, uint32_t threads,
                                uint32_t regs, uint64_t shared,
                                uint32_t permille);

/* "threads", "warps", "CTA slots", "registers", "shared memory" */
const char *occupancy_resource_name(occ_resource_t r);

/* The configuration key that bounds resource r. */
simt_cfg_key_t occupancy_resource_key(occ_resource_t r);

#endif
