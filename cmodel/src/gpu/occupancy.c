/* occupancy.c: resident CTAs per SM and the resource that limits them. */
#include "gpu/occupancy.h"

#define WARP 32u

static uint32_t clamp32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

occupancy_t occupancy_of(const simt_config_t *cfg, uint32_t threads,
                         uint32_t regs, uint64_t shared)
{
    occupancy_t o = { 0 };
    uint64_t max_threads = (uint64_t)simt_config_get(cfg, SIMT_CFG_MAX_THREADS_SM);
    uint64_t warps = threads ? (threads + WARP - 1) / WARP : 1;
    uint64_t unit = (uint64_t)simt_config_get(cfg, SIMT_CFG_REG_ALLOC_UNIT);
    uint64_t regs_rounded = (regs + unit - 1) / unit * unit;
    uint64_t regs_per_cta = regs_rounded * warps * WARP;
    o.regs_per_cta = clamp32(regs_per_cta);
    o.by[OCC_THREADS] = threads ? clamp32(max_threads / threads) : 0;
    o.by[OCC_WARPS] = clamp32(max_threads / WARP / warps);
    o.by[OCC_CTA_SLOTS] = clamp32((uint64_t)simt_config_get(cfg, SIMT_CFG_CTAS_SM));
    o.by[OCC_REGISTERS] = regs_per_cta
        ? clamp32((uint64_t)simt_config_get(cfg, SIMT_CFG_REGS_SM) / regs_per_cta)
        : UINT32_MAX;
    o.by[OCC_SHARED] = shared
        ? clamp32((uint64_t)simt_config_get(cfg, SIMT_CFG_SHMEM_SM) / shared)
        : UINT32_MAX;
    o.ctas = UINT32_MAX;
    for (int r = 0; r < OCC_NRESOURCES; r++)
        if (o.by[r] < o.ctas) {
            o.ctas = o.by[r];
            o.limiter = (occ_resource_t)r;
        }
    return o;
}

const char *occupancy_resource_name(occ_resource_t r)
{
    static const char *const names[OCC_NRESOURCES] = {
        "threads", "warps", "CTA slots", "registers", "shared memory",
    };
    return r < OCC_NRESOURCES ? names[r] : "?";
}

simt_cfg_key_t occupancy_resource_key(occ_resource_t r)
{
    static const simt_cfg_key_t keys[OCC_NRESOURCES] = {
        SIMT_CFG_MAX_THREADS_SM, SIMT_CFG_MAX_THREADS_SM, SIMT_CFG_CTAS_SM,
        SIMT_CFG_REGS_SM, SIMT_CFG_SHMEM_SM,
    };
    return keys[r < OCC_NRESOURCES ? r : 0];
}
