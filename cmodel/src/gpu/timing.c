/* timing.c: the GPU-level cycle loop and CTA dispatcher (timing.h). */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/regalloc.h"
#include "core/sm.h"
#include "gpu/occupancy.h"
#include "gpu/timing.h"

#define GET(k) ((unsigned)simt_config_get(cfg, SIMT_CFG_##k))

static sm_cfg_t sm_config(const simt_config_t *cfg)
{
    sm_cfg_t c = {
        .max_warps = GET(MAX_THREADS_SM) / WARP_SIZE,
        .max_ctas = GET(CTAS_SM),
        .nsched = GET(NUM_SCHED),
        .sched = (sched_kind_t)GET(SCHEDULER),
        .two_level_active = GET(TWO_LEVEL_ACTIVE),
        .opc = { .banks = GET(REG_BANKS), .warp_skew = (int)GET(REG_BANK_WARP),
                 .cus = { [OPC_SP] = GET(OC_SP), [OPC_DP] = GET(OC_DP),
                          [OPC_SFU] = GET(OC_SFU), [OPC_INT] = GET(OC_INT),
                          [OPC_MEM] = GET(OC_MEM) } },
        .pipe = pipe_cfg_default(),
        .ldst = { .queue = GET(LDST_QUEUE), .smem_banks = 32,
                  .smem_latency = GET(SMEM_LATENCY),
                  .const_latency = GET(CONST_LATENCY),
                  .mem_latency = GET(MEM_LATENCY) },
    };
    return c;
}

/* Physical register of every value slot of the program, for register-bank
 * mapping: each function's own allocation (docs/regalloc.md). */
static uint32_t *slot_registers(const exec_program_t *p)
{
    uint32_t *phys = malloc((p->nslots ? p->nslots : 1) * sizeof *phys);
    if (!phys)
        return NULL;
    uint32_t f = ~0u;
    regalloc_result_t ra = { 0 };
    int have = 0;
    for (uint32_t s = 0; s < p->nslots; s++) {
        if (p->slot_func[s] != f) {
            if (have)
                regalloc_result_free(&ra);
            f = p->slot_func[s];
            have = regalloc_function(p->mod, f, &ra) == 0;
        }
        uint32_t r = have ? ra.phys[p->slot_reg[s]] : REGALLOC_NONE;
        phys[s] = r == REGALLOC_NONE ? s : r;
    }
    if (have)
        regalloc_result_free(&ra);
    return phys;
}

typedef struct gpu_run {
    const exec_launch_t *l;
    const simt_config_t *cfg;
    sm_t *sms;
    unsigned nsms, clusters, per_cluster;
    unsigned limit;             /* CTAs per SM (occupancy) */
    uint8_t *smem;              /* all SMs' scratchpads */
    uint32_t *slot_phys;
    uint64_t next_cta, nctas, done;
    unsigned *rr;               /* per cluster: next SM to try */
} gpu_run_t;

static void run_free(gpu_run_t *g)
{
    for (unsigned i = 0; g->sms && i < g->nsms; i++)
        sm_free(&g->sms[i]);
    free(g->sms);
    free(g->smem);
    free(g->slot_phys);
    free(g->rr);
}

static int run_setup(gpu_run_t *g, uint32_t regs, uint32_t smem)
{
    const simt_config_t *cfg = g->cfg;
    const exec_launch_t *l = g->l;
    uint32_t threads = l->block.x * l->block.y * l->block.z;
    occupancy_t occ = occupancy_of(cfg, threads, regs, smem);
    g->limit = occ.ctas;
    g->clusters = GET(N_CLUSTERS);
    g->per_cluster = GET(CORES_PER_CLUSTER);
    g->nsms = g->clusters * g->per_cluster;
    g->nctas = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    sm_cfg_t sc = sm_config(cfg);
    size_t smem_sm = (size_t)smem * sc.max_ctas;
    g->sms = calloc(g->nsms, sizeof *g->sms);
    g->smem = calloc(g->nsms, smem_sm ? smem_sm : 1);
    g->rr = calloc(g->clusters, sizeof *g->rr);
    g->slot_phys = slot_registers(l->prog);
    if (!g->sms || !g->smem || !g->rr || !g->slot_phys)
        return set_error(l->err, SIMT_EINPUT, "out of host memory for the "
                         "timing model");
    for (unsigned i = 0; i < g->nsms; i++) {
        const char *why = sm_init(&g->sms[i], i, &sc);
        if (why)
            return set_error(l->err, SIMT_EINPUT, "configuration: error: %s", why);
        int rc = sm_bind(&g->sms[i], l, g->slot_phys, smem,
                         g->smem + smem_sm * i);
        if (rc != SIMT_OK)
            return rc;
    }
    return SIMT_OK;
}

/* At most one CTA per cluster per cycle, to the cluster's SMs in turn. */
static int dispatch_ctas(gpu_run_t *g)
{
    const simt_dim3_t *gr = &g->l->grid;
    for (unsigned c = 0; c < g->clusters && g->next_cta < g->nctas; c++) {
        for (unsigned k = 0; k < g->per_cluster; k++) {
            unsigned s = c * g->per_cluster + (g->rr[c] + k) % g->per_cluster;
            sm_t *sm = &g->sms[s];
            if (sm->nctas >= g->limit || !sm_can_take_cta(sm))
                continue;
            uint64_t i = g->next_cta++;
            uint32_t id[3] = { (uint32_t)(i % gr->x), (uint32_t)(i / gr->x % gr->y),
                               (uint32_t)(i / ((uint64_t)gr->x * gr->y)) };
            int rc = sm_add_cta(sm, id);
            if (rc != SIMT_OK)
                return rc;
            g->rr[c] = (g->rr[c] + k + 1) % g->per_cluster;
            break;
        }
    }
    return SIMT_OK;
}

static int deadlock(gpu_run_t *g)
{
    for (unsigned i = 0; i < g->nsms; i++)
        for (unsigned c = 0; c < g->sms[i].cfg.max_ctas; c++)
            if (g->sms[i].ctas[c].used) {
                exec_ctx_t x = { .l = g->l, .cta = &g->sms[i].ctas[c].cta };
                return cta_deadlock(&g->sms[i].ctas[c].cta, &x);
            }
    return set_error(g->l->err, SIMT_EFAULT, "deadlock with no resident CTA");
}

static void add_stats(const gpu_run_t *g, simt_stats_t *st, uint64_t cycles)
{
    st->gpu_sim_cycle += cycles;
    for (unsigned i = 0; i < g->nsms; i++) {
        const sm_t *s = &g->sms[i];
        st->sm_active_cycles += s->stats.cycles_active;
        st->resident_warp_cycles += s->stats.resident_warp_cycles;
        st->stall_idle += s->stats.stall[SM_STALL_IDLE];
        st->stall_fetch += s->stats.stall[SM_STALL_FETCH];
        st->stall_barrier += s->stats.stall[SM_STALL_BARRIER];
        st->stall_scoreboard += s->stats.stall[SM_STALL_SCOREBOARD];
        st->stall_pipeline += s->stats.stall[SM_STALL_PIPELINE];
        st->reg_bank_reads += s->opc.stats.reads;
        st->reg_bank_conflicts += s->opc.stats.bank_conflicts;
        st->shared_accesses += s->ldst.stats.shared_accesses;
        st->shared_bank_cycles += s->ldst.stats.shared_bank_cycles;
        st->global_accesses += s->ldst.stats.global_accesses;
        st->global_transactions += s->ldst.stats.global_transactions;
        st->const_accesses += s->ldst.stats.const_accesses;
    }
}

int timing_run(const exec_launch_t *l, const simt_config_t *cfg, uint32_t regs,
               uint32_t smem)
{
    gpu_run_t g = { .l = l, .cfg = cfg };
    int rc = run_setup(&g, regs, smem);
    uint64_t now = 0, idle_limit = (uint64_t)simt_config_get(cfg, SIMT_CFG_DEADLOCK_CYCLES);
    uint64_t last_progress = 0;
    while (rc == SIMT_OK && g.done < g.nctas) {
        rc = dispatch_ctas(&g);
        unsigned done = 0;
        for (unsigned i = 0; i < g.nsms && rc == SIMT_OK; i++) {
            rc = sm_cycle(&g.sms[i], now, &done);
            if (g.sms[i].last_progress == now)
                last_progress = now;
        }
        g.done += done;
        if (done)
            last_progress = now;
        if (rc == SIMT_OK && now - last_progress > idle_limit)
            rc = deadlock(&g);
        now++;
    }
    if (rc == SIMT_OK)
        add_stats(&g, l->stats, now);
    run_free(&g);
    return rc;
}
