/* occupancy.c: resident CTAs per SM and the resource that limits them. */
#include "compiler/ssp_access.h"
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

occ_sharing_t occupancy_sharing(const simt_config_t *cfg, uint32_t threads,
                                uint32_t regs, uint64_t shared,
                                uint32_t permille)
{
    occupancy_t o = occupancy_of(cfg, threads, regs, shared);
    occ_sharing_t r = { .m = o.ctas, .n = o.ctas };
    if (!shared || !o.ctas)
        return r;
    uint64_t other = UINT32_MAX;
    for (int k = 0; k < OCC_NRESOURCES; k++)
        if (k != OCC_SHARED && o.by[k] < other)
            other = o.by[k];
    if (o.by[OCC_SHARED] >= other) /* not scratchpad-limited: ShSM = 0 */
        return r;
    uint64_t R = (uint64_t)simt_config_get(cfg, SIMT_CFG_SHMEM_SM);
    uint64_t priv = (shared * permille + 999) / 1000; /* ceil(t*R_tb) */
    if (!priv)
        return r;
    uint64_t n = r.m + (R - (uint64_t)r.m * shared) / priv;
    if (n > 2ull * r.m)
        n = 2ull * r.m;
    if (n > other)
        n = other;
    if (n <= r.m)
        return r;
    r.n = (uint32_t)n;
    r.pairs = r.n - r.m;
    r.priv = (uint32_t)priv;
    r.limit = (uint32_t)ssp_unshared_limit(shared, permille);
    return r;
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
