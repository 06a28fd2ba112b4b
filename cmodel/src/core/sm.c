/* sm.c: one SM of the timing model (sm.h). */
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "core/sm.h"
#include "mem/mem_regions.h"

static int writes_operand0(const exec_insn_t *ei)
{
    switch (ei->ir->op) {
    case PTX_OP_ST: case PTX_OP_RED: case PTX_OP_BRA: case PTX_OP_CALL:
    case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_MEMBAR: case PTX_OP_FENCE:
    case PTX_OP_PREF: case PTX_OP_RELSSP: case PTX_OP_TRAP:
    case PTX_OP_NANOSLEEP: case PTX_OP_SUST: case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
    case PTX_OP_STACKRESTORE:
        return 0;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        return ei->ir->sub == PTX_SUB_RED;
    default:
        return ei->nops > 0;
    }
}

static void add_reg(uint32_t *list, uint8_t *n, uint32_t r)
{
    for (unsigned i = 0; i < *n; i++)
        if (list[i] == r)
            return;
    assert(*n < SM_MAX_REGS); /* SM_MAX_REGS bounds every instruction */
    list[(*n)++] = r;
}

static void read_value(const sm_kernel_t *k, sm_regs_t *r, uint32_t slot)
{
    add_reg(r->rd, &r->nrd, slot);
    add_reg(r->bank, &r->nbank, k->slot_phys[slot]);
}

static void insn_regs(const sm_kernel_t *k, const exec_insn_t *ei, sm_regs_t *r)
{
    uint32_t npv = k->l->prog->nslots; /* predicates follow values */
    r->nrd = r->nwr = r->nbank = 0;
    if (ei->guard != EXEC_NO_PC)
        add_reg(r->rd, &r->nrd, npv + ei->guard);
    unsigned first_src = 0;
    if (writes_operand0(ei)) {
        const exec_opnd_t *d = &ei->o[0];
        first_src = 1;
        if (d->kind == EO_REG)
            add_reg(r->wr, &r->nwr, d->slot);
        else if (d->kind == EO_PRED)
            add_reg(r->wr, &r->nwr, npv + d->slot);
        else if (d->kind == EO_VEC)
            for (unsigned i = 0; i < d->n; i++)
                if (d->vslot[i] != EXEC_NO_PC)
                    add_reg(r->wr, &r->nwr, d->vslot[i]);
        if (d->pipe != EXEC_NO_PC)
            add_reg(r->wr, &r->nwr, npv + d->pipe);
    }
    for (unsigned i = first_src; i < ei->nops; i++) {
        const exec_opnd_t *o = &ei->o[i];
        if (o->kind == EO_REG || (o->kind == EO_ADDR && o->has_reg))
            read_value(k, r, o->slot);
        else if (o->kind == EO_PRED)
            add_reg(r->rd, &r->nrd, npv + o->slot);
        else if (o->kind == EO_VEC)
            for (unsigned v = 0; v < o->n; v++)
                if (o->vslot[v] != EXEC_NO_PC)
                    read_value(k, r, o->vslot[v]);
    }
}

/* Whether an instruction may reach the L1 data cache: a global, local or
 * generic load, store or atomic (the policies' view, sched_slot_t.l1d). */
static int reaches_l1d(const ptx_insn_t *ir)
{
    switch (ir->op) {
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST: case PTX_OP_ATOM:
    case PTX_OP_RED:
        return ir->space == PTX_SPACE_GLOBAL || ir->space == PTX_SPACE_LOCAL ||
               ir->space == PTX_SPACE_NONE;
    default:
        return 0;
    }
}

/* Decodes the instruction at the slot's buffer PC (once, as it enters the
 * buffer: the issue stage's refresh reads the slot, not the program). */
static void decode(const sm_t *s, sm_slot_t *sl)
{
    const sm_kernel_t *k = s->ctas[sl->cta].k;
    const exec_insn_t *ei = &k->l->prog->code[sl->ibuf_pc];
    insn_regs(k, ei, &s->regs[sl - s->slots]);
    sl->timing = pipe_timing_of(&s->cfg.pipe, ei->ir);
    sl->l1d = (uint8_t)reaches_l1d(ei->ir);
}

/* A unit hook stopped the run, or (`why`) the unit's outputs asked for
 * something the pipeline cannot do: SIMT_ECOSIM, in `err` or in a resident
 * kernel's error. */
static int cosim_stop(sm_t *s, simt_error_t *err, const char *why)
{
    for (unsigned ci = 0; !err && ci < s->cfg.max_ctas; ci++)
        if (s->ctas[ci].used)
            err = s->ctas[ci].k->l->err;
    if (!err)
        return SIMT_ECOSIM;
    return set_error(err, SIMT_ECOSIM, "co-simulation: SM %u: %s", s->id,
                     why ? why : "a unit's RTL disagreed with its C twin "
                                 "(report above)");
}

/* ---------- set-up ---------- */

/* The L1 data cache's report about warp slot `owner`, to the scheduler
 * that holds the slot (ldst_l1_sink_t). */
static void l1_report(void *ctx, int kind, uint32_t owner, uint64_t line)
{
    sm_t *s = ctx;
    if (owner >= s->cfg.max_warps)
        return;
    sched_l1_event_t e = { .kind = kind == LDST_L1_MISS ? SCHED_L1_MISS
                                                        : SCHED_L1_EVICT,
                           .slot = owner / s->cfg.nsched, .line = line };
    sched_l1_event(&s->scheds[owner % s->cfg.nsched].policy, &e);
}

const char *sm_init(sm_t *s, unsigned id, const sm_cfg_t *cfg)
{
    *s = (sm_t){ .id = id, .cfg = *cfg, .active_limit = UINT_MAX };
    if (!cfg->max_warps || !cfg->max_ctas || !cfg->nsched ||
        cfg->nsched > cfg->max_warps)
        return "an SM needs warp slots, CTA slots and 1..warps schedulers";
    const char *why;
    if ((why = opc_init(&s->opc, &cfg->opc)) != NULL)
        return why;
    if ((why = pipes_init(&s->pipes, &cfg->pipe)) != NULL ||
        (why = ldst_init(&s->ldst, &cfg->ldst)) != NULL) {
        sm_free(s);
        return why;
    }
    if (cfg->icache) {
        if ((why = cache_init(&s->icache, &cfg->icache_cfg)) != NULL) {
            sm_free(s);
            return why;
        }
        if (fill_queue_init(&s->ifills, cfg->icache_cfg.mshrs) != 0) {
            sm_free(s);
            return "out of memory";
        }
    }
    s->smem = calloc(cfg->smem ? cfg->smem : 1, 1);
    s->slots = calloc(cfg->max_warps, sizeof *s->slots);
    s->regs = calloc(cfg->max_warps, sizeof *s->regs);
    s->ctas = calloc(cfg->max_ctas, sizeof *s->ctas);
    s->completed = calloc(cfg->max_ctas, sizeof *s->completed);
    s->scheds = calloc(cfg->nsched, sizeof *s->scheds);
    s->ninsts = cfg->max_warps * SM_INSTS_PER_WARP;
    s->insts = calloc(s->ninsts, sizeof *s->insts);
    s->free_insts = calloc(s->ninsts, sizeof *s->free_insts);
    s->fetch_mask = calloc((cfg->max_warps + 63) / 64, sizeof *s->fetch_mask);
    s->kd = calloc(cfg->max_ctas, sizeof *s->kd);
    s->x.stats = &s->xstats; /* the launches' when the run ends (sm_take_xstats) */
    if (!s->smem || !s->slots || !s->regs || !s->ctas || !s->completed ||
        !s->scheds || !s->fetch_mask || !s->kd ||
        !s->insts || !s->free_insts || !cfg->issue_interval) {
        sm_free(s);
        return "out of memory";
    }
    if ((why = sm_share_init(s)) != NULL) {
        sm_free(s);
        return why;
    }
    for (unsigned i = 0; i < s->ninsts; i++)
        s->free_insts[s->nfree_insts++] = s->ninsts - 1 - i;
    unsigned per = (cfg->max_warps + cfg->nsched - 1) / cfg->nsched;
    for (unsigned k = 0; k < cfg->nsched; k++) {
        sched_params_t p = { .kind = cfg->sched, .nslots = per,
                             .two_level_active = cfg->two_level_active,
                             .ltlws_inner = cfg->ltlws_inner,
                             .tlv_group = cfg->tlv_group,
                             .ccws_vta_entries = cfg->ccws_vta_entries,
                             .ccws_base_score = cfg->ccws_base_score,
                             .ccws_kthrottle = cfg->ccws_kthrottle,
                             .ccws_decay_cycles = cfg->ccws_decay_cycles,
                             .sca_strict = cfg->sca_strict,
                             .hooks = cfg->hooks,
                             .instance = id * cfg->nsched + k };
        if ((why = sched_init(&s->scheds[k].policy, &p, cfg->cycle_base)) != NULL) {
            sm_free(s);
            return why;
        }
        s->scheds[k].cls = SM_CYCLE_IDLE; /* no warp yet */
        s->scheds[k].slot = calloc(per, sizeof *s->scheds[k].slot);
        if (!s->scheds[k].slot) {
            sm_free(s);
            return "out of memory";
        }
    }
    if (s->scheds[0].policy.ops->l1_event) /* a policy that wants them */
        s->ldst.sink = (ldst_l1_sink_t){ .fn = l1_report, .ctx = s };
    return NULL;
}

void sm_free(sm_t *s)
{
    for (unsigned i = 0; s->ctas && i < s->cfg.max_ctas; i++)
        if (s->ctas[i].used)
            cta_release(&s->ctas[i].cta);
    for (unsigned k = 0; s->scheds && k < s->cfg.nsched; k++) {
        sched_free(&s->scheds[k].policy);
        free(s->scheds[k].slot);
    }
    free(s->scheds);
    if (s->cfg.icache)
        cache_free(&s->icache);
    fill_queue_free(&s->ifills);
    free(s->smem);
    free(s->slots);
    free(s->regs);
    free(s->ctas);
    free(s->completed);
    free(s->insts);
    free(s->free_insts);
    free(s->fetch_mask);
    free(s->kd);
    sm_share_free(s);
    scoreboard_free(&s->sb);
    opc_free(&s->opc);
    pipes_free(&s->pipes);
    ldst_free(&s->ldst);
    *s = (sm_t){ 0 };
}

/* The lowest scratchpad offset where `bytes` fit among the resident
 * CTAs' slices and nextra more slices of `bytes` at extra[] (first fit),
 * or -1. */
static int64_t smem_fit_with(const sm_t *s, uint32_t bytes,
                             const uint64_t *extra, unsigned nextra)
{
    uint64_t base = 0;
    for (;;) {
        int moved = 0;
        for (unsigned c = 0; c < s->cfg.max_ctas; c++) {
            const sm_cta_t *o = &s->ctas[c];
            if (!o->used || !o->k->smem)
                continue;
            uint64_t lo = o->smem_base, hi = lo + o->k->smem;
            if (bytes && base < hi && lo < base + bytes) {
                base = hi;
                moved = 1;
            }
        }
        for (unsigned e = 0; e < nextra; e++)
            if (bytes && base < extra[e] + bytes && extra[e] < base + bytes) {
                base = extra[e] + bytes;
                moved = 1;
            }
        if (!moved)
            break;
    }
    return base + bytes <= s->cfg.smem ? (int64_t)base : -1;
}

static int64_t smem_fit(const sm_t *s, uint32_t bytes)
{
    return smem_fit_with(s, bytes, NULL, 0);
}

int sm_can_take_cta(const sm_t *s, const sm_kernel_t *k)
{
    if (s->cfg.ssp_sharing) { /* Scratchpad Sharing's own placement */
        int fits = sm_share_fits(s, k);
        if (fits >= 0)
            return fits;
    }
    return s->nctas < s->cfg.max_ctas &&
           s->used_warps + k->warps <= s->cfg.max_warps &&
           s->used_threads + k->threads <= s->cfg.max_threads &&
           s->used_regs + k->regs <= s->cfg.regs &&
           smem_fit(s, k->smem) >= 0;
}

int sm_can_take_ctas(const sm_t *s, const sm_kernel_t *k, unsigned n)
{
    if (n <= 1)
        return sm_can_take_cta(s, k);
    if (s->cfg.ssp_sharing) { /* Scratchpad Sharing's own placement */
        int fits = sm_share_fits_n(s, k, n);
        if (fits >= 0)
            return fits;
    }
    if (s->nctas + n > s->cfg.max_ctas ||
        s->used_warps + n * k->warps > s->cfg.max_warps ||
        s->used_threads + n * k->threads > s->cfg.max_threads ||
        s->used_regs + (uint64_t)n * k->regs > s->cfg.regs)
        return 0;
    uint64_t at[64];
    if (n > 64)
        return 0;
    for (unsigned i = 0; i < n; i++) {
        int64_t b = smem_fit_with(s, k->smem, at, i);
        if (b < 0)
            return 0;
        at[i] = (uint64_t)b;
    }
    return 1;
}

unsigned sm_max_ctas_of(const sm_cfg_t *c, const sm_kernel_t *k)
{
    unsigned n = c->max_ctas;
    if (k->warps && c->max_warps / k->warps < n)
        n = c->max_warps / k->warps;
    if (k->threads && c->max_threads / k->threads < n)
        n = c->max_threads / k->threads;
    if (k->regs && c->regs / k->regs < n)
        n = c->regs / k->regs;
    if (k->smem && c->smem / k->smem < n)
        n = c->smem / k->smem;
    return n;
}

unsigned sm_cta_issued(const sm_t *s, const sm_kernel_t *k, uint64_t *out,
                       unsigned max)
{
    unsigned n = 0;
    for (unsigned c = 0; c < s->cfg.max_ctas && n < max; c++)
        if (s->ctas[c].used && s->ctas[c].k == k)
            out[n++] = s->ctas[c].warp_insns;
    return n;
}

/* Scoreboard entries per warp for kernel k's registers: grown (keeping the
 * reservations of the warps already resident) when a kernel needs more. */
static int scoreboard_fit(sm_t *s, const sm_kernel_t *k)
{
    unsigned need = k->l->prog->nslots + k->l->prog->npreds;
    if (s->sb.reserved && need <= s->sb.nregs)
        return 0;
    scoreboard_t next;
    if (scoreboard_init(&next, s->cfg.max_warps, need > 64 ? need : 64) != 0)
        return -1;
    for (unsigned w = 0; s->sb.reserved && w < s->cfg.max_warps; w++) {
        for (unsigned r = 0; r < s->sb.nregs; r++)
            if (s->sb.reserved[(size_t)w * s->sb.words + r / 64] >> (r % 64) & 1)
                scoreboard_reserve(&next, w, r,
                    s->sb.long_lat[(size_t)w * s->sb.words + r / 64] >> (r % 64) & 1);
    }
    scoreboard_free(&s->sb);
    s->sb = next;
    return 0;
}

/* Pauses exactly the resident CTAs beyond the active limit in placement
 * order (the youngest), and touches the slots of each CTA whose state
 * changes, so that their cached readiness is looked at again.  Rare: a
 * limit change, or a placement or completion while the limit binds. */
static void repause(sm_t *s)
{
    s->npaused = 0;
    for (unsigned ci = 0; ci < s->cfg.max_ctas; ci++) {
        sm_cta_t *c = &s->ctas[ci];
        if (!c->used)
            continue;
        unsigned older = 0;
        for (unsigned j = 0; j < s->cfg.max_ctas; j++)
            older += s->ctas[j].used && s->ctas[j].seq < c->seq;
        uint8_t paused = older >= s->active_limit;
        s->npaused += paused;
        if (paused == c->paused)
            continue;
        c->paused = paused;
        for (unsigned i = 0; i < s->cfg.max_warps; i++)
            if (s->slots[i].live && s->slots[i].cta == ci)
                sm_ready_touch(s, i);
    }
}

void sm_set_active_limit(sm_t *s, unsigned n, uint64_t now)
{
    if (n == s->active_limit)
        return;
    sm_wake(s, now);
    s->active_limit = n;
    repause(s);
}

/* Zeroes what a CTA placed into sharing slot ci starts with: its private
 * bytes, and the pair's shared region only when the partner is absent
 * (a resident partner may be using it). */
static void share_zero(sm_t *s, const sm_kernel_t *k, unsigned ci,
                       uint8_t *smem)
{
    int p = sm_share_partner(s, ci);
    if (p < 0) {
        memset(smem, 0, k->smem);
        return;
    }
    unsigned baseline = ci < k->ssp_m ? ci : (unsigned)p;
    memset(smem, 0, ci < k->ssp_m ? k->ssp_limit : k->ssp_priv);
    if (!s->ctas[p].used)
        memset(s->smem + (size_t)baseline * k->smem + k->ssp_limit, 0,
               k->smem - k->ssp_limit);
}

/* A free warp slot for warp i of a CTA: with a partner (the pair's lower
 * CTA in slot `partner`), one of the scheduler that holds the partner's
 * warp i when that scheduler has a free slot; else the lowest free. */
static unsigned free_slot(const sm_t *s, int partner, uint32_t i)
{
    unsigned n = s->cfg.nsched, slot = 0;
    while (s->slots[slot].w)
        slot++;
    if (partner < 0 || n == 1)
        return slot;
    const sm_cta_t *p = &s->ctas[partner];
    if (i >= p->cta.nwarps)
        return slot;
    const warp_t *pw = &p->cta.warps[i];
    for (unsigned j = 0; j < s->cfg.max_warps; j++)
        if (s->slots[j].w == pw) {
            for (unsigned f = j % n; f < s->cfg.max_warps; f += n)
                if (!s->slots[f].w)
                    return f;
            break;
        }
    return slot;
}

static int add_cta(sm_t *s, sm_kernel_t *k, const uint32_t ctaid[3],
                   uint64_t now, int partner, int *placed)
{
    const exec_launch_t *l = k->l;
    unsigned ci = 0;
    int64_t base;
    uint32_t sbase;
    int shared = s->cfg.ssp_sharing && sm_share_slot(s, k, &ci, &sbase) == 0;
    if (shared) {
        base = sbase;
    } else {
        while (ci < s->cfg.max_ctas && s->ctas[ci].used)
            ci++;
        base = smem_fit(s, k->smem);
    }
    if (ci == s->cfg.max_ctas || base < 0)
        return set_error(l->err, SIMT_EINPUT, "internal: the CTA does not fit");
    if (scoreboard_fit(s, k) != 0)
        return set_error(l->err, SIMT_EINPUT, "out of host memory for an SM");
    if (!s->nctas && s->last_kernel != k) { /* a new kernel: schedulers reset */
        for (unsigned j = 0; j < s->cfg.nsched; j++)
            if (sched_reset(&s->scheds[j].policy, s->cfg.cycle_base + now))
                return cosim_stop(s, l->err, NULL);
    }
    s->last_kernel = k;
    sm_cta_t *c = &s->ctas[ci];
    uint8_t *smem = s->smem + base;
    if (shared)
        share_zero(s, k, ci, smem);
    else
        memset(smem, 0, k->smem);
    int rc = cta_init(&c->cta, l, ctaid, s->id, smem, k->smem);
    if (rc != SIMT_OK)
        return rc;
    c->used = 1;
    c->paused = 0;
    c->seq = s->next_cta_seq++;
    c->warp_insns = 0;
    c->id = ctaid[0] + (uint64_t)l->grid.x * (ctaid[1] + (uint64_t)l->grid.y * ctaid[2]);
    c->base_age = s->next_age;
    c->block_age = partner >= 0 ? s->ctas[partner].block_age : c->base_age;
    c->partner = partner;
    c->hi = partner >= 0;
    if (partner >= 0)
        s->ctas[partner].partner = (int32_t)ci;
    *placed = (int)ci;
    c->k = k;
    c->smem_base = (uint32_t)base;
    if (shared)
        sm_share_placed(s, ci, now);
    s->nctas++;
    s->used_warps += k->warps;
    s->used_threads += k->threads;
    s->used_regs += k->regs;
    c->smem_held = shared && ci >= k->ssp_m ? k->ssp_priv : k->smem;
    s->used_smem += c->smem_held;
    unsigned slot = 0;
    c->busy_warps = c->cta.nwarps;
    for (uint32_t i = 0; i < c->cta.nwarps; i++) {
        slot = free_slot(s, partner, i);
        s->slots[slot] = (sm_slot_t){ .w = &c->cta.warps[i], .live = 1,
                                      .cta = ci, .age = s->next_age++ };
        sched_alloc(&s->scheds[slot % s->cfg.nsched].policy, slot / s->cfg.nsched);
        s->scheds[slot % s->cfg.nsched].event = 1;
        s->issue_same = 0;
        scoreboard_clear_warp(&s->sb, slot);
        sm_ready_touch(s, slot);
        s->fetch_mask[slot / 64] |= (uint64_t)1 << (slot % 64);
    }
    if (shared && sm_share_warps_placed(s, ci, now) != SIMT_OK)
        return cosim_stop(s, l->err, NULL);
    s->live_warps += c->cta.nwarps;
    s->need_fetch += c->cta.nwarps;
    k->live_warps += c->cta.nwarps;
    if (k->ctas_on_sm[s->id]++ == 0) {
        k->hosting_sms++;
        s->nkernels++;
    }
    if (s->nctas > s->active_limit)
        repause(s);
    return SIMT_OK;
}

int sm_add_cta(sm_t *s, sm_kernel_t *k, const uint32_t ctaid[3], uint64_t now)
{
    int ci;
    sm_wake(s, now);
    return add_cta(s, k, ctaid, now, -1, &ci);
}

int sm_add_cta_pair(sm_t *s, sm_kernel_t *k, const uint32_t lo[3],
                    const uint32_t hi[3], uint64_t now)
{
    int ci, cj;
    sm_wake(s, now);
    int rc = add_cta(s, k, lo, now, -1, &ci);
    if (rc != SIMT_OK)
        return rc;
    return add_cta(s, k, hi, now, ci, &cj);
}

/* ---------- stages ---------- */

/* The cycle's entry for kernel k's shared counters (sm_kdelta_t): one per
 * kernel with a CTA here, so at most max_ctas. */
static sm_kdelta_t *kdelta(sm_t *s, sm_kernel_t *k)
{
    for (unsigned i = 0; i < s->nkd; i++)
        if (s->kd[i].k == k)
            return &s->kd[i];
    assert(s->nkd < s->cfg.max_ctas);
    s->kd[s->nkd] = (sm_kdelta_t){ .k = k };
    return &s->kd[s->nkd++];
}

static void retire(sm_t *s, uint64_t tag, uint64_t now)
{
    sm_inst_t *in = &s->insts[tag];
    for (unsigned i = 0; i < in->ndst; i++) {
        int rc = scoreboard_release(&s->sb, in->slot, in->dst[i]);
        assert(rc == 0); /* reserved at issue, released once */
        (void)rc;
    }
    sm_ready_touch(s, in->slot);
    if (!s->nfree_insts)
        sm_ready_event(s, SM_EV_RESOURCE_FREED);
    if (in->cls == OPC_MEM)
        s->slots[in->slot].mem_inflight--;
    if (in->shared)
        sm_share_retired(s, in, now);
    if (--s->slots[in->slot].inflight == 0 &&
        !s->slots[in->slot].live) {
        /* a warp leaves only here: issue counts its last instruction in
         * flight before it marks the warp finished */
        s->ctas[s->slots[in->slot].cta].busy_warps--;
        s->check_ctas = 1;
    }
    in->used = 0;
    s->free_insts[s->nfree_insts++] = (uint32_t)tag;
    s->last_progress = now;
}

static void writeback(sm_t *s, uint64_t now)
{
    uint64_t tag;
    while (pipes_pop_done(&s->pipes, now, &tag))
        retire(s, tag, now);
    for (;;) {
        int was_full = !ldst_can_prepare(&s->ldst);
        if (!ldst_pop_done(&s->ldst, now, &tag))
            break;
        retire(s, tag, now);
        if (was_full) /* the unit has room again: warps it held back */
            sm_ready_event(s, SM_EV_RESOURCE_FREED);
    }
}

static void dispatch(sm_t *s, uint64_t now)
{
    uint64_t tag;
    for (int c = 0; c < OPC_NCLASSES; c++) {
        if (!opc_ready_cus(&s->opc, (opc_class_t)c))
            continue; /* nothing to dispatch: the unit's room is moot */
        /* a freed collector unit matters only to a class that had none */
        int was_full = !opc_free_cus(&s->opc, (opc_class_t)c);
        if (c == OPC_MEM) {
            if (ldst_can_accept(&s->ldst) && opc_dispatch(&s->opc, OPC_MEM, &tag)) {
                ldst_accept(&s->ldst, s->insts[tag].mem_op, tag);
                if (was_full)
                    sm_ready_event(s, SM_EV_RESOURCE_FREED);
            }
        } else if (pipes_can_accept(&s->pipes, (opc_class_t)c, now) &&
                   opc_dispatch(&s->opc, (opc_class_t)c, &tag)) {
            pipes_dispatch(&s->pipes, (opc_class_t)c, s->insts[tag].lat, now, tag);
            if (was_full)
                sm_ready_event(s, SM_EV_RESOURCE_FREED);
        }
    }
    ldst_cycle(&s->ldst, now);
}


static int is_long_latency(const exec_insn_t *ei)
{
    int op = ei->ir->op;
    int sp = ei->space;
    if (op == PTX_OP_TEX || op == PTX_OP_TLD4 || op == PTX_OP_SULD)
        return 1; /* through the texture cache or the L1 */
    return (op == PTX_OP_LD || op == PTX_OP_LDU || op == PTX_OP_ATOM) &&
           (sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_LOCAL || sp == PTX_SPACE_NONE);
}

static int issue_one(sm_t *s, unsigned i, uint64_t now)
{
    sm_slot_t *sl = &s->slots[i];
    warp_t *w = sl->w;
    uint32_t pc = warp_pc(w);
    sm_kernel_t *kern = s->ctas[sl->cta].k;
    const exec_insn_t *ei = &kern->l->prog->code[pc];
    const sm_regs_t *r = &s->regs[i];
    pipe_timing_t t = sl->timing;
    if (s->share.k) {
        int rc = sm_share_before_issue(s, i, ei, now);
        if (rc == SIMT_ECOSIM)
            return cosim_stop(s, NULL, s->share.lt_why);
        if (rc != SIMT_OK)
            return SIMT_EFAULT;
    }
    uint32_t k = s->free_insts[--s->nfree_insts];
    sm_inst_t *in = &s->insts[k];
    *in = (sm_inst_t){ .used = 1, .cls = (uint8_t)t.cls, .slot = i, .lat = t.lat };
    int long_lat = is_long_latency(ei);
    for (unsigned d = 0; d < r->nwr; d++) {
        /* the scoreboard gate was open: none of them is reserved */
        int rc = scoreboard_reserve(&s->sb, i, r->wr[d], long_lat);
        assert(rc == 0);
        (void)rc;
        in->dst[in->ndst++] = r->wr[d];
    }
    /* the pipeline gate was open: a collector unit is free */
    int rc = opc_alloc(&s->opc, t.cls, i, r->bank, r->nbank, (uint64_t)k);
    assert(rc == 0);
    (void)rc;
    sm_kdelta_t *kd = kdelta(s, kern);
    kd->warp_insns++;
    s->ctas[sl->cta].warp_insns++;
    uint64_t threads = (uint64_t)__builtin_popcount(warp_active(w));
    kd->thread_insns += threads;
    s->stats.thread_insns_issued += threads;
    s->x.l = kern->l;
    s->x.cta = &s->ctas[sl->cta].cta;
    s->x.clock = now;
    s->x.trace = &s->access;
    if (exec_step(&s->x, w) != SIMT_OK)
        return SIMT_EFAULT;
    if (t.cls == OPC_MEM) {
        sl->mem_inflight++;
        in->mem_op = ldst_prepare(&s->ldst, &s->access, kern->const_window);
        ldst_set_owner(&s->ldst, in->mem_op, i);
    }
    if (s->share.k && sm_share_after_issue(s, i, ei, in, now) != SIMT_OK)
        return cosim_stop(s, NULL, NULL);
    sl->inflight++;
    sl->ibuf--;
    sl->ibuf_pc = pc + 1;
    if (warp_pc(w) != pc + 1 || w->state == WARP_DONE)
        sl->ibuf = 0; /* control transfer: refetch */
    if (sl->ibuf)
        decode(s, sl);
    else if (w->state != WARP_DONE) {
        s->need_fetch++;
        s->fetch_mask[i / 64] |= (uint64_t)1 << (i % 64);
    }
    if (w->state == WARP_AT_BARRIER)
        sl->at_bar = 1;
    if (w->state == WARP_DONE) {
        sched_finished(&s->scheds[i % s->cfg.nsched].policy, i / s->cfg.nsched);
        s->scheds[i % s->cfg.nsched].event = 1;
        s->issue_same = 0;
        sl->live = 0;
        s->live_warps--;
        kd->warps_done++;
        s->check_ctas = 1;
    }
    /* at a barrier, or exited: maybe the barrier others wait at is done */
    if (w->state != WARP_READY && cta_release_barriers(&s->ctas[sl->cta].cta)) {
        for (unsigned j = 0; j < s->cfg.max_warps; j++)
            if (s->slots[j].live && s->slots[j].cta == sl->cta)
                s->slots[j].at_bar = s->slots[j].w->state == WARP_AT_BARRIER;
        sm_ready_event(s, SM_EV_BARRIER_RELEASED);
    }
    sm_ready_touch(s, i);
    s->stats.warp_insns_issued++;
    s->last_progress = now;
    return SIMT_OK;
}

/* The stall of a scheduler-cycle without an issue, from the gates that
 * block its warps (the most telling first). */
static sm_stall_t stall_reason(const sm_sched_t *q)
{
    static const sm_gate_t order[] = { SM_GATE_SMEM_LOCK, SM_GATE_SCOREBOARD, SM_GATE_PIPELINE,
                                       SM_GATE_FETCH, SM_GATE_BARRIER };
    for (unsigned g = 0; g < sizeof order / sizeof *order; g++)
        if (q->blocked[order[g]])
            return sm_gate_stall(order[g]);
    return SM_STALL_IDLE;
}

/* What scheduler k's slots say about the cycle's class when it did not
 * issue (sm_cycle_class_t; docs/stats.md): a ready slot it held back, a
 * slot whose first closed gate is the pipeline, or one blocked on
 * registers with no memory instruction in flight (a short-latency
 * result): CORE_STALL; else a slot blocked on registers while a memory
 * instruction of its own is in flight: MEM_STALL; else IDLE (no slot,
 * empty buffers, barriers). */
static sm_cycle_class_t sched_class(const sm_t *s, unsigned k,
                                    const sm_sched_t *q)
{
    if (q->ready | q->blocked[SM_GATE_PIPELINE])
        return SM_CYCLE_CORE_STALL;
    uint64_t sb = q->blocked[SM_GATE_SCOREBOARD];
    for (uint64_t m = sb; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m) * s->cfg.nsched + k;
        if (!s->slots[i].mem_inflight)
            return SM_CYCLE_CORE_STALL;
    }
    return sb ? SM_CYCLE_MEM_STALL : SM_CYCLE_IDLE;
}

static int issue(sm_t *s, uint64_t now)
{
    unsigned n = s->cfg.nsched;
    if (s->issue_same) { /* the last cycle again (sm_t.issue_same) */
        if (s->share.k) /* no refresh: the lock's waiters are the last's */
            s->share.wait_cycles += s->share.lock_blocked;
        for (unsigned k = 0; k < n; k++)
            s->stats.stall[s->scheds[k].stall]++;
        s->stats.cycle_class[s->same_cls]++;
        if (!s->same_held)
            *(s->same_waiting ? &s->stats.mem_wait_cycles : &s->stats.idle_cycles) += 1;
        return SIMT_OK;
    }
    uint64_t cyc = s->cfg.cycle_base + now;
    sm_cycle_class_t cls = SM_CYCLE_IDLE; /* the smallest over schedulers */
    /* this cycle for idle_cycles and mem_wait_cycles (sm_stats_t) */
    unsigned issued = 0, held = 0, waiting = 0;
    int same = 1; /* every scheduler skipped, clean, with no event */
    for (unsigned k = 0; k < n; k++) {
        sm_sched_t *q = &s->scheds[k];
        sched_t *sc = &q->policy;
        int skip = -1; /* the stall of a cycle the scheduler cannot issue in */
        sm_cycle_class_t c = SM_CYCLE_IDLE; /* this scheduler's class */
        if (now < q->free_at) { /* still issuing the last warp: a busy unit */
            skip = SM_STALL_PIPELINE;
            c = SM_CYCLE_CORE_STALL;
            same = 0;
        } else if (!q->dirty) { /* nothing changed: still no warp to issue */
            skip = q->stall;
            c = (sm_cycle_class_t)q->cls; /* nor has what sched_class saw */
        }
        if (skip >= 0) {
            if (c < cls)
                cls = c;
            sm_ready_check(s, k, now);
            s->stats.stall[skip]++;
            held |= skip == SM_STALL_PIPELINE;
            waiting |= q->any_waiting;
            if (q->event) {
                same = 0;
                q->event = 0;
                if (sched_clock(sc, cyc))
                    return cosim_stop(s, NULL, NULL);
            }
            continue;
        }
        same = 0;
        sm_ready_refresh(s, k, now);
        sm_ready_check(s, k, now);
        sched_view_t view = { .valid = q->valid, .ready = q->ready,
                              .waiting = q->waiting, .slot = q->slot,
                              .has_cls = 1, .cls_b0 = q->owf_b0,
                              .cls_b1 = q->owf_b1 };
        int j = sched_pick(sc, &view, cyc);
        if (j == SCHED_STOP)
            return cosim_stop(s, NULL, NULL);
        if (j < 0) {
            sm_stall_t why = stall_reason(q);
            c = sched_class(s, k, q);
            if (c < cls)
                cls = c;
            q->cls = (uint8_t)c;
            s->stats.stall[why]++;
            held |= q->blocked[SM_GATE_PIPELINE] != 0;
            waiting |= q->any_waiting;
            q->dirty = sc->ops->timed && q->ready;
            q->stall = (uint8_t)why;
        } else {
            unsigned i = (unsigned)j * n + k;
            if (i >= s->cfg.max_warps || !s->slots[i].live)
                return cosim_stop(s, NULL, "the warp arbiter granted a slot "
                                           "that holds no warp");
            if (!(q->ready >> j & 1))
                return cosim_stop(s, NULL, "the warp arbiter granted a slot "
                                           "that cannot issue");
            int rc = issue_one(s, i, now);
            if (rc != SIMT_OK)
                return rc == SIMT_ECOSIM ? rc : SIMT_EFAULT;
            sm_ready_event(s, SM_EV_RESOURCE_TAKEN);
            sched_issued(sc, j);
            cls = SM_CYCLE_ACTIVE;
            issued = 1;
            q->free_at = now + s->cfg.issue_interval;
        }
        q->event = 0;
        if (sched_clock(sc, cyc))
            return cosim_stop(s, NULL, NULL);
    }
    if (s->share.k) /* warp-cycles whose first closed gate is the lock */
        s->share.wait_cycles += s->share.lock_blocked;
    s->stats.cycle_class[cls]++;
    if (!issued && !held) {
        if (waiting)
            s->stats.mem_wait_cycles++;
        else
            s->stats.idle_cycles++;
    }
#ifndef SIMT_CHECK_READINESS
    if (same) {
        s->issue_same = 1;
        s->same_cls = (uint8_t)cls;
        s->same_held = (uint8_t)held;
        s->same_waiting = (uint8_t)waiting;
    }
#else
    (void)same;
#endif
    return SIMT_OK;
}

/* Fills slot i's instruction buffer at its PC, usable next cycle. */
static void fill_ibuf(sm_t *s, unsigned i, uint64_t now)
{
    sm_slot_t *sl = &s->slots[i];
    sl->ifetch_wait = 0;
    sl->ibuf = 2;
    sl->ibuf_pc = warp_pc(sl->w);
    sl->ibuf_ready = now + 1;
    decode(s, sl);
    sm_ready_touch(s, i);
}

void sm_icache_line_arrived(sm_t *s, uint64_t line, uint64_t now)
{
    fill_queue_push(&s->ifills, line, now); /* the fetch stage takes it now */
}

/* Instruction-cache lines that arrived by `now` release the warps waiting
 * on them. */
static void icache_fills(sm_t *s, uint64_t now)
{
    uint64_t line;
    while (fill_queue_pop(&s->ifills, now, &line)) {
        cache_fill(&s->icache, line);
        uint64_t slot;
        while (cache_pop_ready(&s->icache, &slot))
            if (s->slots[slot].live && s->slots[slot].ifetch_wait)
                fill_ibuf(s, (unsigned)slot, now);
    }
}

/* The instruction address of the warp's next instruction (mem/mem_regions.h). */
static uint64_t code_addr(const sm_t *s, const sm_slot_t *sl)
{
    return MEM_REGION_CODE + ((uint64_t)s->ctas[sl->cta].k->code_id << 32) +
           (uint64_t)warp_pc(sl->w) * 8;
}

/* The first slot at or after `from`, cyclically, whose bit is set in
 * `mask` (n slots, at least one bit set). */
static unsigned next_set(const uint64_t *mask, unsigned n, unsigned from)
{
    unsigned words = (n + 63) / 64;
    for (unsigned k = 0; k <= words; k++) {
        unsigned w = (from / 64 + k) % words;
        uint64_t m = mask[w];
        if (k == 0)
            m &= ~(uint64_t)0 << (from % 64);
        if (m)
            return w * 64 + (unsigned)__builtin_ctzll(m);
    }
    return from; /* not reached: a bit is set */
}

static void fetch(sm_t *s, uint64_t now)
{
    unsigned n = s->cfg.max_warps;
    int hierarchy = s->cfg.ldst.hierarchy;
    if (s->cfg.icache)
        icache_fills(s, now);
    if (!s->need_fetch)
        return;
    /* the next slot round robin that is live with an empty buffer and no
     * fetch outstanding */
    unsigned i = next_set(s->fetch_mask, n, s->fetch_rr);
    sm_slot_t *sl = &s->slots[i];
    s->fetch_rr = (i + 1) % n;
    if (s->cfg.icache) {
        cache_result_t r;
        if (hierarchy && !ldst_out_room(&s->ldst))
            return; /* the fetch stage retries next cycle */
        cache_access(&s->icache, code_addr(s, sl), 0, 0, i, &r);
        if (r.outcome == CACHE_FAIL)
            return;
        if (r.outcome == CACHE_MISS && hierarchy)
            ldst_out_fill(&s->ldst, MEM_INST, r.fill_addr, s->cfg.icache_cfg.line);
        else if (r.outcome == CACHE_MISS)
            fill_queue_push(&s->ifills, r.fill_addr, now + s->cfg.icache_miss_latency);
        if (r.outcome != CACHE_HIT) {
            sl->ifetch_wait = 1;
            s->need_fetch--;
            s->fetch_mask[i / 64] &= ~((uint64_t)1 << (i % 64));
            return;
        }
    }
    s->need_fetch--;
    s->fetch_mask[i / 64] &= ~((uint64_t)1 << (i % 64));
    fill_ibuf(s, i, now);
}

/* Frees CTAs whose warps are all done and written back. */
static unsigned complete_ctas(sm_t *s, uint64_t now)
{
    unsigned done = 0;
    for (unsigned ci = 0; ci < s->cfg.max_ctas; ci++) {
        sm_cta_t *c = &s->ctas[ci];
        if (!c->used)
            continue;
#ifdef SIMT_CHECK_READINESS /* the count against the warps themselves */
        unsigned busy = 0;
        for (unsigned i = 0; i < s->cfg.max_warps; i++)
            busy += s->slots[i].w && s->slots[i].cta == ci &&
                    (s->slots[i].live || s->slots[i].inflight);
        assert(busy == c->busy_warps);
#endif
        if (c->busy_warps)
            continue;
        for (unsigned i = 0; i < s->cfg.max_warps; i++)
            if (s->slots[i].w && s->slots[i].cta == ci)
                s->slots[i] = (sm_slot_t){ 0 };
        /* popped by the dispatcher after every cycle, so the log never
         * holds more than the CTA slots */
        s->completed[s->ncompleted++] = (sm_cta_done_t){
            .launch = c->k->launch, .cta = c->id, .warp_insns = c->warp_insns };
        sm_kdelta_t *kd = kdelta(s, c->k);
        s->xstats.ctas_completed++;
        kd->ctas_done++;
        s->stats.ctas_completed++;
        if (--c->k->ctas_on_sm[s->id] == 0) { /* this SM's own entry */
            kd->sms_left++;
            s->nkernels--;
        }
        cta_release(&c->cta);
        c->used = 0;
        sm_share_cta_done(s, ci, now);
        s->npaused -= c->paused;
        c->paused = 0;
        s->nctas--;
        s->used_warps -= c->k->warps;
        s->used_threads -= c->k->threads;
        s->used_regs -= c->k->regs;
        s->used_smem -= c->smem_held;
        done++;
    }
    return done;
}

int sm_cycle(sm_t *s, uint64_t now, unsigned *done)
{
    if (!s->nctas) {
        s->stats.cycle_class[SM_CYCLE_IDLE]++; /* no warp at all */
        s->stats.idle_cycles++;
        return SIMT_OK;
    }
    /* the last cycle's effects were committed (sm_commit) before this
     * one: a new entry list, and its counters join the run's */
    s->nkd = 0;
    s->kd_at = now + 1;
    if (s->xstats.warp_insns || s->xstats.ctas_completed)
        exec_stats_move(&s->xrun, &s->xstats);
    s->stats.cycles_active++;
    s->stats.resident_warp_cycles += s->live_warps;
    s->stats.mixed_cycles += s->nkernels > 1;
    /* what power gating leaves powered (reference 004 §6): the rest of
     * the register file and scratchpad can be gated off */
    s->stats.reg_alloc_cycles += s->used_regs;
    s->stats.smem_alloc_cycles += s->used_smem;
    writeback(s, now);
    dispatch(s, now);
    opc_read_cycle(&s->opc);
    if (issue(s, now) != SIMT_OK)
        return SIMT_EFAULT;
    /* execution happens at issue only; what follows cannot fail, except
     * Scratchpad Sharing's lock-table clock (a twin's check): that SM
     * passes at the cycle's end (gpu/smpar.h) */
    if (s->x.order && !s->cfg.ssp_sharing)
        s->x.order->pass(s->x.order);
    fetch(s, now);
    if (s->check_ctas) {
        s->check_ctas = 0;
        unsigned n = complete_ctas(s, now);
        if (n && s->npaused) /* an older CTA left: a paused one may go on */
            repause(s);
        *done += n;
    }
    if (s->cfg.ssp_sharing && sm_share_clock(s, now) != SIMT_OK)
        return cosim_stop(s, NULL, s->share.lt_why);
    return SIMT_OK;
}

void sm_commit(const sm_t *s, uint64_t now)
{
    if (s->kd_at != now + 1)
        return;
    for (unsigned i = 0; i < s->nkd; i++) {
        const sm_kdelta_t *d = &s->kd[i];
        d->k->warp_insns += d->warp_insns;
        d->k->thread_insns += d->thread_insns;
        d->k->live_warps -= d->warps_done;
        d->k->ctas_done += d->ctas_done;
        d->k->hosting_sms -= d->sms_left;
    }
}

uint64_t sm_run_thread_insns(const sm_t *s)
{
    return s->xrun.thread_insns + s->xstats.thread_insns;
}

uint64_t sm_run_warp_insns(const sm_t *s)
{
    return s->xrun.warp_insns + s->xstats.warp_insns;
}

void sm_take_xstats(sm_t *s, simt_stats_t *st, int last)
{
    exec_stats_move(st, &s->xrun);
    if (last)
        exec_stats_move(st, &s->xstats);
}

uint64_t sm_idle_until(const sm_t *s, uint64_t now)
{
    if (!s->nctas)
        return UINT64_MAX;
    /* (an event of this cycle left the lock table's cycle open: its edge
     * comes with the SM's next cycle, sm_share_clock) */
    if (s->check_ctas || s->need_fetch || s->share.lt_open)
        return now;
    /* collector units may hold memory instructions whose operands are
     * read and that wait for room in a full LD/ST queue, and that queue
     * may hold work parked (ldst_parked): dispatch() then does nothing
     * until a fill, a request leaving the outbox or a completion
     * (ldst_next_event).  (The collector first: the most common reason
     * a busy SM is not quiescent, and the cheapest to ask.) */
    if (s->opc.busy && (s->opc.busy != s->opc.nready[OPC_MEM] ||
                        ldst_can_accept(&s->ldst)))
        return now;
    if (s->ldst.count && !ldst_parked(&s->ldst, now))
        return now;
    for (unsigned k = 0; k < s->cfg.nsched; k++) {
        const sm_sched_t *q = &s->scheds[k];
        if (q->dirty || q->event || now < q->free_at)
            return now;
    }
    uint64_t t = pipes_next_done(&s->pipes);
    uint64_t l = ldst_next_event(&s->ldst);
    if (l < t)
        t = l;
    if (s->ifills.count && s->ifills.ring[s->ifills.head].ready < t)
        t = s->ifills.ring[s->ifills.head].ready;
    return t > now ? t : now;
}

/* The bulk form of sm_cycle's counters and of issue()'s path for a clean
 * scheduler (its cached stall reason and class; `held` and `waiting` as
 * issue() finds them).  Nothing they read changes while quiescent. */
void sm_idle_cycles(sm_t *s, uint64_t n)
{
    if (!s->nctas) {
        s->stats.cycle_class[SM_CYCLE_IDLE] += n;
        s->stats.idle_cycles += n;
        return;
    }
    if (s->ldst.count) /* parked (sm_idle_until) */
        ldst_parked_cycles(&s->ldst, n);
    s->stats.cycles_active += n;
    s->stats.resident_warp_cycles += (uint64_t)s->live_warps * n;
    if (s->nkernels > 1)
        s->stats.mixed_cycles += n;
    s->stats.reg_alloc_cycles += (uint64_t)s->used_regs * n;
    s->stats.smem_alloc_cycles += (uint64_t)s->used_smem * n;
    sm_cycle_class_t cls = SM_CYCLE_IDLE;
    unsigned held = 0, waiting = 0;
    for (unsigned k = 0; k < s->cfg.nsched; k++) {
        const sm_sched_t *q = &s->scheds[k];
        if ((sm_cycle_class_t)q->cls < cls)
            cls = (sm_cycle_class_t)q->cls;
        s->stats.stall[q->stall] += n;
        held |= q->stall == SM_STALL_PIPELINE;
        waiting |= q->any_waiting;
    }
    if (s->share.k) /* as issue(): warp-cycles blocked first by the lock */
        s->share.wait_cycles += n * (uint64_t)s->share.lock_blocked;
    s->stats.cycle_class[cls] += n;
    if (!held) {
        if (waiting)
            s->stats.mem_wait_cycles += n;
        else
            s->stats.idle_cycles += n;
    }
}

int sm_doze(sm_t *s, uint64_t now)
{
    if (s->wake_at) {
        if (now < s->wake_at)
            return 1;
        sm_settle(s, now);
        s->wake_at = 0;
    }
    if (!s->cfg.sleep)
        return 0;
    uint64_t t = sm_idle_until(s, now);
    if (t <= now)
        return 0;
    s->asleep_from = now;
    s->wake_at = t;
    return 1;
}

int sm_step_awake(sm_t *s, uint64_t now, unsigned *done)
{
    int rc = sm_doze(s, now) ? SIMT_OK : sm_cycle(s, now, done);
    s->past = now + 1;
    return rc;
}

void sm_settle(sm_t *s, uint64_t now)
{
    uint64_t end = now > s->past ? now : s->past;
    if (s->wake_at && end > s->asleep_from) {
        sm_idle_cycles(s, end - s->asleep_from);
        s->asleep_from = end;
    }
}

int sm_ldst_reply_begin(sm_t *s, uint64_t now, int l1_line, uint64_t line)
{
    if (s->wake_at && !(l1_line && s->ldst.count && ldst_fill_unblocks(&s->ldst, line)))
        return 1;
    sm_wake(s, now);
    return 0;
}

void sm_ldst_reply_end(sm_t *s, int asleep)
{
    if (!asleep)
        return; /* woken: its step asks ldst_next_event itself */
    uint64_t t = ldst_next_event(&s->ldst);
    if (t < s->wake_at)
        s->wake_at = t;
}

void sm_wait_cycles(sm_t *s, uint64_t now, uint64_t *idle, uint64_t *mem)
{
    sm_settle(s, now);
    *idle = s->stats.idle_cycles;
    *mem = s->stats.mem_wait_cycles;
}

int sm_pop_completed(sm_t *s, sm_cta_done_t *out)
{
    if (!s->ncompleted)
        return 0;
    *out = s->completed[0];
    memmove(s->completed, s->completed + 1,
            --s->ncompleted * sizeof *s->completed);
    return 1;
}

int sm_describe_warp(const sm_t *s, unsigned slot, char *buf, size_t size)
{
    const sm_slot_t *sl = &s->slots[slot];
    if (!sl->live)
        return 0;
    const warp_t *w = sl->w;
    const cta_t *c = &s->ctas[sl->cta].cta;
    const exec_program_t *p = c->launch->prog;
    uint32_t pc = sl->at_bar ? w->bar_pc : warp_pc(w);
    uint32_t line = pc < p->ncode ? p->code[pc].ir->line : 0;
    char what[96];
    int g = sm_ready_fresh(s, slot, UINT64_MAX); /* however long it waited */
    if (g == SM_GATE_BARRIER)
        snprintf(what, sizeof what, "waiting at barrier %u", w->bar_id);
    else
        snprintf(what, sizeof what, "%s", g < 0 ? "ready" : sm_gate_name((sm_gate_t)g));
    snprintf(buf, size, "SM %u, CTA (%u,%u,%u), warp %u: %s, PC %u (line %u), "
             "lanes 0x%08x", s->id, c->ctaid[0], c->ctaid[1], c->ctaid[2],
             w->wid, what, pc, line, warp_active(w));
    return 1;
}

void sm_export_stats(const sm_t *s, simt_stats_t *st, simt_sm_stats_t *rec)
{
    const sm_stats_t *t = &s->stats;
    st->sm_active_cycles += t->cycles_active;
    st->resident_warp_cycles += t->resident_warp_cycles;
    st->sm_mixed_cycles += t->mixed_cycles;
    st->rf_alloc_reg_cycles += t->reg_alloc_cycles;
    st->smem_alloc_byte_cycles += t->smem_alloc_cycles;
    st->stall_idle += t->stall[SM_STALL_IDLE];
    st->stall_fetch += t->stall[SM_STALL_FETCH];
    st->stall_barrier += t->stall[SM_STALL_BARRIER];
    st->stall_scoreboard += t->stall[SM_STALL_SCOREBOARD];
    st->stall_pipeline += t->stall[SM_STALL_PIPELINE];
    st->stall_smem_lock += t->stall[SM_STALL_SMEM_LOCK];
    st->ssp_lock_acquisitions += s->share.acquisitions;
    st->ssp_lock_wait_cycles += s->share.wait_cycles;
    st->ssp_lock_transfers += s->share.transfers;
    st->ssp_relssp_releases += s->share.releases;
    st->ssp_lock_held_cycles += s->share.held_cycles;
    st->ssp_paired_ctas += s->share.paired_ctas;
    st->ssp_pre_acquire_cycles += s->share.progress[0];
    st->ssp_shared_cycles += s->share.progress[1];
    st->ssp_post_release_cycles += s->share.progress[2];
    st->core_cycles_active += t->cycle_class[SM_CYCLE_ACTIVE];
    st->core_cycles_core_stall += t->cycle_class[SM_CYCLE_CORE_STALL];
    st->core_cycles_mem_stall += t->cycle_class[SM_CYCLE_MEM_STALL];
    st->core_cycles_idle += t->cycle_class[SM_CYCLE_IDLE];
    st->l1i_accesses += s->icache.stats.accesses;
    st->l1i_misses += s->icache.stats.misses + s->icache.stats.pending_hits;
    opc_export_stats(&s->opc, st);
    ldst_export_stats(&s->ldst, st);
    rec->sm = s->id;
    rec->active_cycles += t->cycles_active;
    rec->resident_warp_cycles += t->resident_warp_cycles;
    rec->ctas_completed += t->ctas_completed;
    rec->core_cycles_active += t->cycle_class[SM_CYCLE_ACTIVE];
    rec->core_cycles_core_stall += t->cycle_class[SM_CYCLE_CORE_STALL];
    rec->core_cycles_mem_stall += t->cycle_class[SM_CYCLE_MEM_STALL];
    rec->core_cycles_idle += t->cycle_class[SM_CYCLE_IDLE];
    rec->warp_insns += t->warp_insns_issued;
    rec->thread_insns += t->thread_insns_issued;
    rec->achieved_occupancy =
        rec->active_cycles ? (double)rec->resident_warp_cycles /
                                 ((double)rec->active_cycles * s->cfg.max_warps)
                           : 0.0;
}
