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

/* "threads", "warps", "CTA slots", "registers", "shared memory" */
const char *occupancy_resource_name(occ_resource_t r);

/* The configuration key that bounds resource r. */
simt_cfg_key_t occupancy_resource_key(occ_resource_t r);

#endif
