/* sm_share.c: Scratchpad Sharing on one SM (sm_share.h). */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "core/sm.h"
#include "units/unit_hooks.h"
#include "units/warp_arbiter.h"

const char *sm_share_init(sm_t *s)
{
    sm_share_t *h = &s->share;
    *h = (sm_share_t){ 0 };
    if (!s->cfg.ssp_sharing)
        return NULL;
    unsigned n = s->cfg.max_ctas;
    share_lock_table_cfg_t lc = share_lock_table_cfg_for(n, s->cfg.nsched);
    if (share_lock_table_init(&h->lt, &lc) != 0)
        return "Scratchpad Sharing's lock table takes 2..64 CTA slots and 1..8 "
               "schedulers per SM (gpgpu_shader_cta, gpgpu_num_sched_per_core)";
    share_lock_table_eval(&h->lt, &h->lin, &h->lout); /* every class unshared */
    h->held_since = calloc(n, sizeof *h->held_since);
    h->rel_done = calloc(n, 1);
    h->rel_pending = calloc(n, 1);
    h->rel_started = calloc(n, 1);
    h->inflight = calloc(n, sizeof *h->inflight);
    h->prog = calloc(n, sizeof *h->prog);
    h->rel = malloc(sizeof *h->rel);
    if (!h->held_since || !h->rel_done || !h->rel_pending ||
        !h->rel_started || !h->inflight || !h->prog || !h->rel)
        return "out of memory";
    /* W warp slots and T CTA slots (config.c keeps them in the unit's
     * range when ssp_sharing is set) */
    relssp_release_cfg_t rc = { .w = s->cfg.max_warps, .t = n };
    if (relssp_release_init(h->rel, &rc) != 0)
        return "out of memory";
    if (unit_hooks_reset(s->cfg.hooks, &share_lock_table_desc, s->id,
                         s->cfg.cycle_base, &h->lt))
        return "co-simulation stopped at the lock table's reset";
    return NULL;
}

void sm_share_free(sm_t *s)
{
    sm_share_t *h = &s->share;
    free(h->held_since);
    free(h->rel_done);
    free(h->rel_pending);
    free(h->rel_started);
    free(h->inflight);
    free(h->prog);
    free(h->rel);
    free(h->pcf);
    *h = (sm_share_t){ 0 };
}

void sm_share_progress_begin(sm_share_progress_t *p, int paired, uint64_t now)
{
    *p = (sm_share_progress_t){ .start = now, .acquire = SM_SHARE_NEVER,
                                .release = SM_SHARE_NEVER, .paired = paired != 0 };
}

void sm_share_progress_access(sm_share_progress_t *p, uint64_t now)
{
    if (p->acquire == SM_SHARE_NEVER)
        p->acquire = now;
}

void sm_share_progress_release(sm_share_progress_t *p, uint64_t now)
{
    if (p->release == SM_SHARE_NEVER)
        p->release = now;
}

int sm_share_progress_end(const sm_share_progress_t *p, uint64_t now, uint64_t cyc[3])
{
    if (!p->paired)
        return 0;
    /* the phase boundaries, each clamped to the CTA's life */
    uint64_t a = p->acquire < now ? p->acquire : now;
    uint64_t r = p->release < now ? p->release : now;
    if (a > r) /* released without having touched the region */
        a = r;
    cyc[0] += a - p->start;
    cyc[1] += r - a;
    cyc[2] += now - r;
    return 1;
}

/* What the issue hooks need to know of an instruction (sm_share_t.pcf). */
enum { PC_RELSSP = 1, PC_SMEM = 2 };

static uint8_t insn_flags(const exec_insn_t *ei)
{
    int op = ei->ir->op;
    if (op == PTX_OP_RELSSP)
        return PC_RELSSP;
    return exec_smem_may_reach(ei) ? PC_SMEM : 0;
}

/* The flags of k's instruction ei: from the table when ei is in it. */
static uint8_t pc_flags(const sm_share_t *h, const exec_insn_t *ei)
{
    uintptr_t off = (uintptr_t)ei - (uintptr_t)h->pcf_code;
    return off < (uintptr_t)h->pcf_n * sizeof *ei ? h->pcf[off / sizeof *ei]
                                                   : insn_flags(ei);
}

/* The table for k's program (a launch on this SM). */
static void pcf_build(sm_share_t *h, const sm_kernel_t *k)
{
    const exec_program_t *p = k->l->prog;
    h->pcf_n = 0;
    if (p->ncode > h->pcf_cap) {
        uint8_t *t = realloc(h->pcf, p->ncode);
        if (!t) /* no table: pc_flags looks at each instruction */
            return;
        h->pcf = t;
        h->pcf_cap = p->ncode;
    }
    for (uint32_t pc = 0; pc < p->ncode; pc++)
        h->pcf[pc] = insn_flags(&p->code[pc]);
    h->pcf_code = p->code;
    h->pcf_n = p->ncode;
}

static int sharing_kernel(const sm_t *s, const sm_kernel_t *k)
{
    return s->cfg.ssp_sharing && k->ssp_n > k->ssp_m;
}

int sm_share_fits(const sm_t *s, const sm_kernel_t *k)
{
    return sm_share_fits_n(s, k, 1);
}

int sm_share_fits_n(const sm_t *s, const sm_kernel_t *k, unsigned n)
{
    const sm_share_t *h = &s->share;
    if (s->nctas && h->k != k)
        /* a sharing kernel's layout owns the SM until it empties; a
         * sharing kernel arriving at an SM busy with another kernel's
         * CTAs is placed without sharing */
        return h->k ? 0 : -1;
    if (!sharing_kernel(s, k))
        return -1;
    unsigned free_slots = 0;
    for (unsigned ci = 0; ci < k->ssp_n; ci++)
        free_slots += !s->ctas[ci].used;
    return free_slots >= n &&
           s->used_warps + n * k->warps <= s->cfg.max_warps &&
           s->used_threads + n * k->threads <= s->cfg.max_threads &&
           s->used_regs + (uint64_t)n * k->regs <= s->cfg.regs;
}

int sm_share_slot(sm_t *s, const sm_kernel_t *k, unsigned *ci, uint32_t *base)
{
    sm_share_t *h = &s->share;
    if (sm_share_fits(s, k) < 0)
        return -1;
    if (!s->nctas) { /* kernel launch on this SM: the tables (§2.6 row 1),
                        written by the lock table at this cycle's launch_i */
        h->k = k;
        h->launch = 1;
        /* baseline slot j < pairs with extra slot m + j */
        unsigned m = k->ssp_m, pairs = k->ssp_n - k->ssp_m;
        for (unsigned c = 0; c < h->lt.cfg.t; c++) {
            int p = c < pairs ? (int)(m + c) : c >= m && c < m + pairs ? (int)(c - m) : -1;
            h->partner[c] = (int8_t)p;
            h->pair[c] = (int8_t)(p < 0 ? -1 : (int)c < p ? (int)c : p);
        }
        pcf_build(h, k);
    }
    unsigned c = 0;
    while (c < k->ssp_n && s->ctas[c].used)
        c++;
    *ci = c;
    *base = c < k->ssp_m ? c * k->smem
                         : k->ssp_m * k->smem + (c - k->ssp_m) * k->ssp_priv;
    return 0;
}

int sm_share_partner(const sm_t *s, unsigned ci)
{
    return s->share.k ? s->share.partner[ci] : -1;
}

/* Pair index (the baseline slot) of CTA slot ci, or -1 when unshared. */
static int pair_of(const sm_t *s, unsigned ci)
{
    return s->share.k ? s->share.pair[ci] : -1;
}

/* Touches every warp slot of CTA slot ci (lock state changed). */
static void touch_cta(sm_t *s, int ci)
{
    if (ci < 0)
        return;
    for (unsigned i = 0; i < s->cfg.max_warps; i++)
        if (s->slots[i].live && s->slots[i].cta == (unsigned)ci)
            sm_ready_touch(s, i);
}

/* The lock table's clock edge for the open cycle. */
static void lt_tick(sm_t *s)
{
    sm_share_t *h = &s->share;
    share_lock_table_tick(&h->lt, &h->lin);
    if (!h->lt_stop && unit_hooks_tick(s->cfg.hooks, &share_lock_table_desc, s->id,
                                       h->lt_cycle, &h->lin, &h->lt))
        h->lt_stop = 1;
    h->lin.live &= ~h->lin.done;
    h->lin.launch = 0;
    h->lin.place = h->lin.release = h->lin.done = 0;
    h->lin.req_valid = 0;
    memset(h->lin.req_slot, 0, sizeof h->lin.req_slot);
    h->lt_open = 0;
}

/* Opens the lock table's cycle `now` before an event goes into h->lin
 * (ticking a cycle still open from an earlier one: an event outside
 * sm_cycle). */
static void lt_begin(sm_t *s, uint64_t now)
{
    sm_share_t *h = &s->share;
    uint64_t cyc = s->cfg.cycle_base + now;
    if (h->lt_open && h->lt_cycle != cyc)
        lt_tick(s);
    h->lt_open = 1;
    h->lt_cycle = cyc;
}

/* An event is in h->lin: the lock table evaluates the cycle's inputs so
 * far, and the warps of every CTA whose class changed are looked at again
 * (the readiness cache: the smem_lock gate and the OWF class). */
static void lt_eval(sm_t *s)
{
    sm_share_t *h = &s->share;
    uint8_t was[SHARE_LOCK_TABLE_MAX_T];
    unsigned t = h->lt.cfg.t;
    memcpy(was, h->lout.cls, t);
    share_lock_table_eval(&h->lt, &h->lin, &h->lout);
    if (!h->lt_stop && unit_hooks_eval(s->cfg.hooks, &share_lock_table_desc, s->id,
                                       h->lt_cycle, &h->lt, &h->lin, &h->lout))
        h->lt_stop = 1;
    for (unsigned ci = 0; ci < t; ci++)
        if (was[ci] != h->lout.cls[ci])
            touch_cta(s, (int)ci);
}

void sm_share_placed(sm_t *s, unsigned ci, uint64_t now)
{
    sm_share_t *h = &s->share;
    const sm_kernel_t *k = h->k;
    cta_t *c = &s->ctas[ci].cta;
    h->rel_done[ci] = h->rel_pending[ci] = h->rel_started[ci] = 0;
    h->inflight[ci] = 0;
    sm_share_progress_begin(&h->prog[ci], sm_share_partner(s, ci) >= 0, now);
    lt_begin(s, now);
    if (h->launch) { /* sm_share_slot saw the SM empty */
        h->launch = 0;
        h->lin.launch = 1;
        h->lin.base = k->ssp_m;
        h->lin.pairs = k->ssp_n - k->ssp_m;
    }
    h->lin.place |= (uint64_t)1 << ci;
    h->lin.live |= (uint64_t)1 << ci;
    lt_eval(s);
    int p = sm_share_partner(s, ci);
    if (p < 0)
        return;
    if (ci >= k->ssp_m) { /* the extra slot: offsets >= limit are slot p's */
        c->smem_split = k->ssp_limit;
        c->smem_hi = s->smem + (size_t)p * k->smem;
    }
    /* (sm.c's share_zero zeroed the private bytes, and the shared region
     * only when the partner is absent) */
}

/* Whether the instruction at slot i's PC needs the pair's shared region. */
static int needs_region(const sm_t *s, unsigned i, const exec_insn_t *ei)
{
    return exec_smem_reaches(s->slots[i].w, ei, s->share.k->ssp_limit);
}

int sm_share_gate_closed(const sm_t *s, unsigned i)
{
    const sm_share_t *h = &s->share;
    if (!h->k)
        return 0;
    unsigned ci = s->slots[i].cta;
    if (h->lout.cls[ci] != WARP_ARBITER_NONOWNER) /* the partner holds the lock */
        return 0;
    const exec_insn_t *ei = &s->ctas[ci].k->l->prog->code[s->slots[i].ibuf_pc];
    return (pc_flags(h, ei) & PC_SMEM) && needs_region(s, i, ei);
}

uint8_t sm_share_class(const sm_t *s, unsigned ci)
{
    const sm_share_t *h = &s->share;
    return h->k ? h->lout.cls[ci] : WARP_ARBITER_UNSHARED;
}

int sm_share_before_issue(sm_t *s, unsigned i, const exec_insn_t *ei,
                          uint64_t now)
{
    sm_share_t *h = &s->share;
    if (!h->k)
        return SIMT_OK;
    uint8_t f = pc_flags(h, ei);
    if (!f) /* neither relssp nor a possible shared access: most of them */
        return SIMT_OK;
    unsigned ci = s->slots[i].cta;
    int j = h->pair[ci]; /* h->k is set */
    if (f & PC_RELSSP) {
        const warp_t *w = s->slots[i].w;
        uint32_t m = warp_active(w);
        if (ei->guard != EXEC_NO_PC)
            m &= ei->guard_neg ? ~w->preds[ei->guard] : w->preds[ei->guard];
        h->lanes = m;
        return SIMT_OK;
    }
    if (j < 0 || !needs_region(s, i, ei))
        return SIMT_OK;
    if (h->rel_done[ci]) { /* §2.9: relssp placement guarantees no re-acquire */
        warp_t *w = s->slots[i].w;
        s->x.l = s->ctas[ci].k->l;
        exec_fault(&s->x, w, ei, warp_active(w), "Scratchpad Sharing: a "
                   "shared-region access (offset >= %u) after the CTA's relssp "
                   "released the region", h->k->ssp_limit);
        return SIMT_EFAULT;
    }
    /* the request of this warp's scheduler (one issue per scheduler and
     * cycle); the gate was open, so the table grants it: FCFS, a free
     * lock is taken now */
    unsigned k = i % s->cfg.nsched;
    uint8_t was = h->lout.cls[ci];
    lt_begin(s, now);
    h->lin.req_valid |= 1u << k;
    h->lin.req_slot[k] = ci;
    lt_eval(s);
    if (h->lt_stop)
        return SIMT_ECOSIM;
    if (!(h->lout.grant >> k & 1)) {
        h->lt_why = "the lock table made a warp wait whose issue gate was open";
        return SIMT_ECOSIM;
    }
    if (was != WARP_ARBITER_OWNER && h->lout.cls[ci] == WARP_ARBITER_OWNER) {
        h->held_since[j] = now;
        h->acquisitions++;
    }
    sm_share_progress_access(&h->prog[ci], now);
    return SIMT_OK;
}

/* relssp completed for ci (every live thread released): once the CTA's
 * shared accesses drained (the fence), the lock table's release_i, which
 * frees the lock if ci holds it. */
static void try_release(sm_t *s, unsigned ci, uint64_t now)
{
    sm_share_t *h = &s->share;
    if (!h->rel_pending[ci] || h->inflight[ci])
        return;
    h->rel_pending[ci] = 0;
    sm_share_progress_release(&h->prog[ci], now);
    int j = pair_of(s, ci);
    uint8_t was = h->lout.cls[ci];
    lt_begin(s, now);
    h->lin.release |= (uint64_t)1 << ci;
    lt_eval(s);
    if (j >= 0 && was == WARP_ARBITER_OWNER && h->lout.cls[ci] != WARP_ARBITER_OWNER) {
        h->releases++;
        h->held_cycles += now - h->held_since[j];
    }
}

/* One event into the release unit (one clock of it): eval, offered to the
 * hooks (which may replace the outputs with the RTL's), then the edge.
 * *released: all_released_o, the state after the event.  The unit is
 * clocked only for events, several in one core cycle when several happen
 * (the issue stage's order; docs/units/relssp_release.md, D1). */
static int rel_event(sm_t *s, unsigned op, unsigned slot, unsigned cta,
                     uint32_t lanes, uint64_t now, uint64_t *released)
{
    sm_share_t *h = &s->share;
    relssp_release_in_t in = { .op = (uint8_t)op, .slot = slot, .cta = cta,
                               .lanes = lanes };
    relssp_release_out_t out;
    uint64_t cyc = s->cfg.cycle_base + now;
    relssp_release_eval(h->rel, &in, &out);
    if (unit_hooks_eval(s->cfg.hooks, &relssp_release_desc, s->id, cyc, h->rel,
                        &in, &out))
        return SIMT_ECOSIM;
    relssp_release_tick(h->rel, &in);
    if (unit_hooks_tick(s->cfg.hooks, &relssp_release_desc, s->id, cyc, &in, h->rel))
        return SIMT_ECOSIM;
    if (released)
        *released = out.all_released;
    return SIMT_OK;
}

int sm_share_warps_placed(sm_t *s, unsigned ci, uint64_t now)
{
    sm_share_t *h = &s->share;
    if (s->nctas == 1) { /* the kernel's first CTA here: a fresh unit */
        relssp_release_reset(h->rel);
        if (unit_hooks_reset(s->cfg.hooks, &relssp_release_desc, s->id,
                             s->cfg.cycle_base + now, h->rel))
            return SIMT_ECOSIM;
    }
    if (rel_event(s, RELSSP_OP_CLEAR, 0, ci, 0, now, NULL) != SIMT_OK)
        return SIMT_ECOSIM;
    for (unsigned i = 0; i < s->cfg.max_warps; i++)
        if (s->slots[i].w && s->slots[i].cta == ci) {
            const warp_t *w = s->slots[i].w;
            if (rel_event(s, RELSSP_OP_ALLOC, i, ci, w->valid & ~w->exited, now,
                          NULL) != SIMT_OK)
                return SIMT_ECOSIM;
        }
    return SIMT_OK;
}

static int issue_events(sm_t *s, unsigned i, unsigned ci, const exec_insn_t *ei,
                        uint64_t now) __attribute__((noinline));

int sm_share_after_issue(sm_t *s, unsigned i, const exec_insn_t *ei,
                         sm_inst_t *in, uint64_t now)
{
    sm_share_t *h = &s->share;
    if (!h->k)
        return SIMT_OK;
    unsigned ci = s->slots[i].cta;
    const exec_access_t *a = &s->access;
    if (in->cls == OPC_MEM && a->mask) {
        for (uint32_t m = a->mask; m; m &= m - 1)
            if (a->space[__builtin_ctz(m)] == PTX_SPACE_SHARED) {
                in->shared = 1;
                h->inflight[ci]++;
                break;
            }
    }
    /* most instructions are neither relssp nor an exit: no event (the
     * IR was just read by the step: cheaper than the flags here) */
    if (ei->ir->op != PTX_OP_RELSSP && !(h->rel->live[i] & s->slots[i].w->exited))
        return SIMT_OK;
    return issue_events(s, i, ci, ei, now);
}

/* The release unit's events of warp slot i's issue (CTA slot ci): relssp
 * by the lanes that executed it (sm_share_before_issue kept them: the
 * step moves the group on), and lanes that exited with this instruction.
 * all_released_o can change only at such an event of the CTA, so the CTA
 * is checked there.  Apart from the issue's common path so that it stays
 * small (a call with few registers to save). */
static int issue_events(sm_t *s, unsigned i, unsigned ci, const exec_insn_t *ei,
                        uint64_t now)
{
    sm_share_t *h = &s->share;
    uint64_t released = 0;
    int event = 0;
    if (ei->ir->op == PTX_OP_RELSSP) {
        if (rel_event(s, RELSSP_OP_RELSSP, i, ci, h->lanes, now, &released) != SIMT_OK)
            return SIMT_ECOSIM;
        event = 1;
        if (!h->rel_done[ci])
            h->rel_started[ci] = 1;
    }
    uint32_t exited = h->rel->live[i] & s->slots[i].w->exited;
    if (exited) {
        if (rel_event(s, RELSSP_OP_EXIT, i, ci, exited, now, &released) != SIMT_OK)
            return SIMT_ECOSIM;
        event = 1;
    }
    if (h->rel_done[ci])
        return SIMT_OK;
    if (event && h->rel_started[ci] && (released >> ci & 1)) {
        h->rel_done[ci] = 1;
        h->rel_pending[ci] = 1;
        try_release(s, ci, now);
    }
    return SIMT_OK;
}

void sm_share_retired(sm_t *s, const sm_inst_t *in, uint64_t now)
{
    sm_share_t *h = &s->share;
    unsigned ci = s->slots[in->slot].cta;
    h->inflight[ci]--;
    try_release(s, ci, now);
}

void sm_share_cta_done(sm_t *s, unsigned ci, uint64_t now)
{
    sm_share_t *h = &s->share;
    if (!h->k)
        return;
    int j = pair_of(s, ci), p = sm_share_partner(s, ci);
    uint8_t was = h->lout.cls[ci];
    lt_begin(s, now);
    h->lin.done |= (uint64_t)1 << ci;
    lt_eval(s);
    if (j >= 0 && was == WARP_ARBITER_OWNER) {
        if (h->lout.cls[p] == WARP_ARBITER_OWNER) /* §2.6: to the partner */
            h->transfers++;
        else
            h->held_cycles += now - h->held_since[j];
    }
    h->paired_ctas += (uint64_t)sm_share_progress_end(&h->prog[ci], now, h->progress);
    h->rel_done[ci] = h->rel_pending[ci] = h->rel_started[ci] = 0;
    h->inflight[ci] = 0;
    if (s->nctas == 1) /* the last CTA (the caller counts it down next):
                          ShSM ends with the kernel's stay on this SM */
        h->k = NULL;
}

int sm_share_clock(sm_t *s, uint64_t now)
{
    sm_share_t *h = &s->share;
    (void)now;
    if (h->lt_open)
        lt_tick(s);
    return h->lt_stop || h->lt_why ? SIMT_ECOSIM : SIMT_OK;
}
