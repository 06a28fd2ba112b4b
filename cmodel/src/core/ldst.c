/* ldst.c: the load/store unit, its L1 and the ideal memory (ldst.h). */
#include <stdlib.h>

#include "base/ring.h"
#include "core/ldst.h"
#include "core/smem_banks.h"
#include "mem/mem_regions.h"

const char *ldst_init(ldst_t *u, const ldst_cfg_t *cfg)
{
    *u = (ldst_t){ .cfg = *cfg };
    if (cfg->queue < 1 || cfg->smem_banks < 1 || cfg->prepared < 1 ||
        cfg->inflight < 1)
        return "the LD/ST queue and the scratchpad banks must be at least 1";
    if (cfg->hierarchy && cfg->outbox < 2)
        return "the LD/ST outbox must hold at least 2 requests";
    cache_cfg_t cc = cfg->l1c_cfg;
    cc.write = CACHE_READ_ONLY; /* whatever the caller says */
    const char *why = cache_init(&u->l1c, &cc);
    if (why)
        return why;
    int nomem = fill_queue_init(&u->cfills, cc.mshrs);
    cache_cfg_t tc = cfg->l1t_cfg;
    tc.write = CACHE_READ_ONLY;
    if (tc.sets && (why = cache_init(&u->l1t, &tc)) != NULL) {
        ldst_free(u);
        return why;
    }
    if (tc.sets)
        nomem |= fill_queue_init(&u->tfills, tc.mshrs);
    if (cfg->l1) {
        if ((why = cache_init(&u->l1, &cfg->l1_cfg)) != NULL) {
            ldst_free(u);
            return why;
        }
        nomem |= fill_queue_init(&u->fills, cfg->l1_cfg.mshrs);
    }
    if (cfg->hierarchy)
        u->out = calloc(cfg->outbox, sizeof *u->out);
    u->nops = cfg->queue + cfg->prepared + cfg->inflight;
    u->ops = calloc(u->nops, sizeof *u->ops);
    u->sent = calloc(u->nops, sizeof *u->sent);
    u->q = calloc(cfg->queue, sizeof *u->q);
    if (!u->ops || !u->sent || !u->q || nomem || (cfg->hierarchy && !u->out)) {
        ldst_free(u);
        return "out of memory";
    }
    return NULL;
}

void ldst_free(ldst_t *u)
{
    if (u->cfg.l1)
        cache_free(&u->l1);
    cache_free(&u->l1c);
    if (u->cfg.l1t_cfg.sets)
        cache_free(&u->l1t);
    fill_queue_free(&u->fills);
    fill_queue_free(&u->tfills);
    fill_queue_free(&u->cfills);
    free(u->out);
    free(u->ops);
    free(u->sent);
    free(u->q);
    *u = (ldst_t){ 0 };
}

/* The distinct addresses among the active lanes, in lane order, placed at
 * `base` (constant-cache accesses). */
static unsigned distinct_addresses(const exec_access_t *a, uint64_t base,
                                   uint64_t out[WARP_SIZE])
{
    unsigned n = 0;
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        if (!(a->mask >> l & 1))
            continue;
        unsigned k = 0;
        while (k < l && !((a->mask >> k & 1) && a->addr[k] == a->addr[l]))
            k++;
        if (k == l)
            out[n++] = base + a->addr[l];
    }
    return n;
}

/* The distinct texture-cache lines of a fetch's texels, in the order the
 * lanes read them (at most COALESCE_MAX_TXN). */
static unsigned distinct_lines(const exec_access_t *a, unsigned line,
                               uint64_t out[COALESCE_MAX_TXN])
{
    unsigned n = 0;
    for (unsigned k = 0; k < a->ntaps && n < COALESCE_MAX_TXN; k++) {
        uint64_t l = a->taps[k] & ~(uint64_t)(line - 1);
        unsigned j = 0;
        while (j < n && out[j] != l)
            j++;
        if (j == n)
            out[n++] = l;
    }
    return n;
}

uint32_t ldst_prepare(ldst_t *u, const exec_access_t *a, uint64_t const_window)
{
    uint32_t i = 0;
    while (u->ops[i].used)
        i++;
    ldst_op_t *op = &u->ops[i];
    *op = (ldst_op_t){ .used = 1, .kind = LDST_SHARED, .busy = 1,
                       .latency = u->cfg.smem_latency, .write = a->write,
                       .atomic = a->atomic };
    u->used_ops++;
    if (!a->mask)
        return i; /* every lane predicated off: one cycle, nothing moves */
    if (a->tex) {
        op->kind = LDST_TEX;
        op->ntxn = u->cfg.l1t_cfg.sets ? distinct_lines(a, u->cfg.l1t_cfg.line, op->txn)
                                       : 0;
        u->stats.tex_accesses++;
        return i;
    }
    unsigned first = (unsigned)__builtin_ctz(a->mask);
    switch ((ptx_space_t)a->space[first]) {
    case PTX_SPACE_SHARED:
        op->busy = smem_bank_cycles(a->addr, a->mask, a->bytes, u->cfg.smem_banks);
        u->stats.shared_accesses++;
        u->stats.shared_bank_cycles += op->busy;
        break;
    case PTX_SPACE_CONST: case PTX_SPACE_PARAM:
        op->kind = LDST_CONST;
        op->ntxn = distinct_addresses(a, const_window + (a->space[first] == PTX_SPACE_PARAM
                                                         ? MEM_PARAM_OFFSET : 0), op->txn);
        u->stats.const_accesses++;
        break;
    default: {
        coalesce_txn_t t[COALESCE_MAX_TXN];
        op->kind = LDST_GLOBAL;
        op->local = a->space[first] == PTX_SPACE_LOCAL;
        op->ntxn = coalesce_warp(a->addr, a->mask, a->bytes, t);
        for (unsigned k = 0; k < op->ntxn; k++) {
            op->txn[k] = t[k].addr;
            op->txn_bytes[k] = (uint16_t)t[k].size;
        }
        u->stats.global_accesses++;
        u->stats.global_transactions += op->ntxn;
        break;
    }
    }
    return i;
}

void ldst_accept(ldst_t *u, uint32_t op, uint64_t tag)
{
    u->ops[op].tag = tag;
    u->q[ring_slot(u->head, u->count++, u->cfg.queue)] = op;
}

static void later(ldst_op_t *op, uint64_t t)
{
    if (t > op->done)
        op->done = t;
}

/* Sent op `op` waits for nothing more: it completes at op->done, which
 * may be the earliest of the sent ones (ldst_pop_done looks no earlier). */
static void note_ready(ldst_t *u, const ldst_op_t *op)
{
    if (op->sent_all && !op->waiting && op->done < u->next_done)
        u->next_done = op->done;
}

/* One more of op i's transactions is served (at `now`). */
static void served(ldst_t *u, uint32_t i, uint64_t now)
{
    u->ops[i].waiting--;
    later(&u->ops[i], now);
    note_ready(u, &u->ops[i]);
}

int ldst_fill_unblocks(const ldst_t *u, uint64_t line)
{
    if (!u->l1_refused)
        return 0;
    int set = u->l1_refused == CACHE_FAIL_SET;
    if ((!set && u->l1_refused != CACHE_FAIL_MERGE) || !u->count || u->l1.cfg.sectored)
        return 1; /* an MSHR: any fill frees one (and no head, or a
                     sectored L1: look again) */
    const ldst_op_t *op = &u->ops[u->q[u->head]];
    uint64_t head = cache_line_addr(&u->l1, op->txn[op->next]);
    return set ? cache_set_index(&u->l1, head) == cache_set_index(&u->l1, line)
               : head == cache_line_addr(&u->l1, line);
}

/* A line arriving in cache c: the instructions waiting for it go on. */
static void line_arrived(ldst_t *u, cache_t *c, uint64_t line, uint64_t now)
{
    if (c == &u->l1 && ldst_fill_unblocks(u, line))
        u->l1_refused = 0; /* the head's retry may go now: look again */
    cache_fill(c, line);
    uint64_t t;
    while (cache_pop_ready(c, &t))
        served(u, (uint32_t)t, now);
}

void ldst_line_arrived(ldst_t *u, uint64_t line, uint64_t now)
{
    line_arrived(u, &u->l1, line, now);
}

void ldst_const_line_arrived(ldst_t *u, uint64_t line, uint64_t now)
{
    line_arrived(u, &u->l1c, line, now);
}

void ldst_tex_line_arrived(ldst_t *u, uint64_t line, uint64_t now)
{
    line_arrived(u, &u->l1t, line, now);
}

void ldst_acknowledged(ldst_t *u, uint32_t op, uint64_t now)
{
    served(u, op, now);
}

/* Ideal memory: lines that arrived by `now` fill cache c. */
static void take_fills(ldst_t *u, fill_queue_t *f, cache_t *c, uint64_t now)
{
    uint64_t line;
    while (fill_queue_pop(f, now, &line))
        line_arrived(u, c, line, now);
}

static void out_push(ldst_t *u, mem_kind_t kind, mem_space_kind_t space, uint32_t op,
                     uint64_t addr, uint32_t bytes)
{
    u->out[ring_slot(u->out_head, u->out_count++, u->cfg.outbox)] =
        (ldst_out_t){ (uint8_t)kind, (uint8_t)space, op, addr, bytes };
}

int ldst_out_room(const ldst_t *u)
{
    return u->out_count < u->cfg.outbox;
}

void ldst_out_fill(ldst_t *u, mem_space_kind_t space, uint64_t addr, uint32_t bytes)
{
    out_push(u, MEM_FILL, space, 0, addr, bytes);
}

void ldst_out_pop(ldst_t *u)
{
    u->out_head = ring_next(u->out_head, u->cfg.outbox);
    u->out_count--;
}

/* A request that bypasses the L1 (atomics; every access without an L1):
 * answered by the hierarchy, or by the ideal memory after its latency. */
static void bypass(ldst_t *u, uint32_t i, uint64_t now)
{
    ldst_op_t *op = &u->ops[i];
    if (!u->cfg.hierarchy) {
        later(op, now + u->cfg.mem_latency);
        return;
    }
    mem_kind_t k = op->atomic ? MEM_ATOMIC : op->write ? MEM_WRITE_THROUGH
                                                       : MEM_READ_THROUGH;
    out_push(u, k, MEM_GLOBAL, i, op->txn[op->next], op->txn_bytes[op->next]);
    op->waiting++;
}

/* Sends the next transaction of global op `i`; 0 when the L1 refused it
 * (retry next cycle). */
static int send_txn(ldst_t *u, uint32_t i, uint64_t now)
{
    ldst_op_t *op = &u->ops[i];
    uint64_t below = now + u->cfg.mem_latency;
    if (ldst_outbox_full(u)) {
        u->stats.l1_stall_cycles++;
        return 0;
    }
    if (!u->cfg.l1 || op->atomic) { /* atomics are done below the L1 */
        bypass(u, i, now);
        return 1;
    }
    cache_result_t r;
    cache_access_owned(&u->l1, op->txn[op->next], op->write, op->local, i,
                       op->owner, &r);
    if (r.outcome == CACHE_FAIL) {
        /* a failure changes nothing in the cache, and only a fill (or a
         * successful access, which this retry must come first to) can
         * change its outcome: until then each retry fails the same way */
        u->l1_refused = (uint8_t)r.cause;
        u->stats.l1_stall_cycles++;
        return 0;
    }
    if (u->sink.fn) {
        if (r.evicted)
            u->sink.fn(u->sink.ctx, LDST_L1_EVICT, r.evicted_owner, r.evicted_line);
        if (r.outcome == CACHE_MISS && !op->write)
            u->sink.fn(u->sink.ctx, LDST_L1_MISS, op->owner, r.fill_addr);
    }
    if (r.writeback && u->cfg.hierarchy)
        out_push(u, MEM_WRITEBACK, MEM_GLOBAL, 0, r.victim_addr, u->cfg.l1_cfg.line);
    switch (r.outcome) {
    case CACHE_MISS:
        if (u->cfg.hierarchy)
            out_push(u, MEM_FILL, MEM_GLOBAL, 0, r.fill_addr, u->cfg.l1_cfg.line);
        else
            fill_queue_push(&u->fills, r.fill_addr, below);
        op->waiting++;
        return 1;
    case CACHE_HIT_RESERVED:
        op->waiting++;
        return 1;
    default: /* a hit, or a write that goes down */
        if (!r.write_down) {
            later(op, now + u->cfg.l1_latency);
        } else if (u->cfg.hierarchy) {
            out_push(u, MEM_WRITE_THROUGH, MEM_GLOBAL, i, op->txn[op->next],
                     op->txn_bytes[op->next]);
            op->waiting++;
        } else {
            later(op, below);
        }
        return 1;
    }
}

/* Looks up the next distinct address of constant or texture op `i` in its
 * read-only cache; 0 when it refused (retry next cycle). */
static int send_const(ldst_t *u, uint32_t i, uint64_t now)
{
    ldst_op_t *op = &u->ops[i];
    int tex = op->kind == LDST_TEX;
    cache_t *c = tex ? &u->l1t : &u->l1c;
    if (u->cfg.hierarchy && !ldst_out_room(u))
        return 0;
    cache_result_t r;
    cache_access(c, op->txn[op->next], 0, 0, i, &r);
    if (r.outcome == CACHE_FAIL)
        return 0;
    if (r.outcome == CACHE_HIT) {
        later(op, now + (tex ? u->cfg.tex_latency : u->cfg.const_latency));
        return 1;
    }
    if (r.outcome == CACHE_MISS) {
        if (u->cfg.hierarchy)
            out_push(u, MEM_FILL, tex ? MEM_TEX : MEM_CONST, 0, r.fill_addr,
                     c->cfg.line);
        else
            fill_queue_push(tex ? &u->tfills : &u->cfills, r.fill_addr,
                            now + u->cfg.mem_latency);
    }
    op->waiting++;
    return 1;
}

void ldst_cycle_head(ldst_t *u, uint64_t now)
{
    if (!u->cfg.hierarchy) {
        take_fills(u, &u->cfills, &u->l1c, now);
        if (u->cfg.l1t_cfg.sets)
            take_fills(u, &u->tfills, &u->l1t, now);
        if (u->cfg.l1)
            take_fills(u, &u->fills, &u->l1, now);
    }
    if (!u->count || now < u->free_at)
        return;
    if (u->l1_refused) {
        /* the head's transaction again (send_txn's checks in its order),
         * and nothing changed the L1 since it refused it */
        u->stats.l1_stall_cycles++;
        if (!ldst_outbox_full(u))
            cache_count_fail(&u->l1, (cache_fail_cause_t)u->l1_refused);
        return;
    }
    if (ldst_head_waits_outbox(u)) {
        u->stats.l1_stall_cycles++; /* send_txn's first check, inline */
        return;
    }
    uint32_t i = u->q[u->head];
    ldst_op_t *op = &u->ops[i];
    if (op->kind != LDST_SHARED) {
        int (*send)(ldst_t *, uint32_t, uint64_t) =
            op->kind == LDST_GLOBAL ? send_txn : send_const;
        if (op->next < op->ntxn && !send(u, i, now))
            return;
        if (op->next < op->ntxn)
            op->next++;
        if (op->next < op->ntxn)
            return; /* one transaction per cycle */
        later(op, now + 1);
    } else {
        u->free_at = now + op->busy;
        later(op, now + op->busy - 1 + op->latency);
    }
    op->sent_all = 1;
    u->sent[u->nsent++] = i;
    note_ready(u, op);
    u->head = ring_next(u->head, u->cfg.queue);
    u->count--;
}

int ldst_pop_done_at(ldst_t *u, uint64_t now, uint64_t *tag)
{
    if (now < u->next_done)
        return 0;
    uint64_t next = UINT64_MAX;
    for (unsigned k = 0; k < u->nsent; k++) {
        ldst_op_t *op = &u->ops[u->sent[k]];
        if (op->waiting)
            continue;
        if (op->done > now) {
            next = op->done < next ? op->done : next;
            continue;
        }
        *tag = op->tag;
        op->used = 0;
        u->used_ops--;
        u->sent[k] = u->sent[--u->nsent];
        return 1;
    }
    u->next_done = next;
    return 0;
}

static uint64_t fill_head(const fill_queue_t *f)
{
    return f->count ? f->ring[f->head].ready : UINT64_MAX;
}

uint64_t ldst_next_event(const ldst_t *u)
{
    uint64_t t = u->nsent ? u->next_done : UINT64_MAX;
    if (!u->cfg.hierarchy) {
        const fill_queue_t *f[3] = { &u->cfills, &u->tfills, &u->fills };
        for (int i = 0; i < 3; i++)
            if (fill_head(f[i]) < t)
                t = fill_head(f[i]);
    }
    return t;
}

void ldst_parked_cycles(ldst_t *u, uint64_t n)
{
    /* ldst_cycle's parked paths, n times */
    u->stats.l1_stall_cycles += n;
    if (u->l1_refused && !ldst_outbox_full(u))
        u->l1.stats.fails[u->l1_refused] += n;
}

void ldst_export_stats(const ldst_t *u, simt_stats_t *st)
{
    st->shared_accesses += u->stats.shared_accesses;
    st->shared_bank_cycles += u->stats.shared_bank_cycles;
    st->global_accesses += u->stats.global_accesses;
    st->global_transactions += u->stats.global_transactions;
    st->const_accesses += u->stats.const_accesses;
    st->l1c_accesses += u->l1c.stats.accesses;
    st->l1c_misses += u->l1c.stats.misses + u->l1c.stats.pending_hits;
    st->tex_accesses += u->stats.tex_accesses;
    st->l1t_accesses += u->l1t.stats.accesses;
    st->l1t_misses += u->l1t.stats.misses + u->l1t.stats.pending_hits;
    st->l1d_accesses += u->l1.stats.accesses;
    st->l1d_hits += u->l1.stats.hits;
    st->l1d_pending_hits += u->l1.stats.pending_hits;
    st->l1d_misses += u->l1.stats.misses;
    for (int f = 0; f <= CACHE_FAIL_READ_ONLY; f++)
        st->l1d_reservation_fails += u->l1.stats.fails[f];
    st->l1d_writebacks += u->l1.stats.writebacks;
}
