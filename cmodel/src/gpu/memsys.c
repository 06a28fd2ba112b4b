/* memsys.c: crossbars and memory partitions below the L1s (memsys.h). */
#include <stdlib.h>

#include "gpu/memsys.h"

#define HEADER 8u

const char *memsys_init(memsys_t *m, const memsys_cfg_t *cfg,
                        unsigned clusters, unsigned per_cluster)
{
    *m = (memsys_t){ .cfg = *cfg, .clusters = clusters,
                     .per_cluster = per_cluster };
    m->cfg.part.map = cfg->map;
    const char *why = addrmap_check(&cfg->map);
    if (why)
        return why;
    icnt_cfg_t req = cfg->icnt, rep = cfg->icnt;
    req.inputs = clusters;
    req.outputs = cfg->map.partitions;
    rep.inputs = cfg->map.partitions;
    rep.outputs = clusters;
    why = icnt_init(&m->req_net, &req);
    if (!why)
        why = icnt_init(&m->rep_net, &rep);
    m->parts = calloc(cfg->map.partitions, sizeof *m->parts);
    for (unsigned p = 0; !why && m->parts && p < cfg->map.partitions; p++)
        why = partition_init(&m->parts[p], &m->cfg.part);
    /* every request is in an outbox, a network, a partition or a reply:
     * bounded by what those hold; the pool is sized generously above it */
    m->npool = (clusters + cfg->map.partitions) * (cfg->icnt.in_flits + cfg->icnt.out_flits) +
               cfg->map.partitions * (cfg->part.queue + cfg->part.l2.mshrs * cfg->part.l2.mshr_merge);
    m->pool = calloc(m->npool, sizeof *m->pool);
    m->free_list = calloc(m->npool, sizeof *m->free_list);
    m->reply = calloc(m->npool, sizeof *m->reply);
    unsigned nsms = clusters * per_cluster;
    m->outq_words = (nsms + 63) / 64;
    m->outq = calloc(m->outq_words ? m->outq_words : 1, sizeof *m->outq);
    m->parked = calloc(m->outq_words ? m->outq_words : 1, sizeof *m->parked);
    if (!why && (!m->parts || !m->pool || !m->free_list || !m->reply || !m->outq ||
                 !m->parked))
        why = "out of memory";
    if (why) {
        memsys_free(m);
        return why;
    }
    for (unsigned i = 0; i < m->npool; i++)
        m->free_list[m->nfree++] = m->npool - 1 - i;
    return NULL;
}

void memsys_prefill(memsys_t *m, uint64_t addr, uint64_t bytes)
{
    uint64_t line = m->cfg.part.l2.line;
    for (uint64_t a = addr / line * line; a < addr + bytes; a += line)
        partition_prefill(&m->parts[addrmap_partition(&m->cfg.map, a)], a);
}

void memsys_free(memsys_t *m)
{
    icnt_free(&m->req_net);
    icnt_free(&m->rep_net);
    for (unsigned p = 0; m->parts && p < m->cfg.map.partitions; p++)
        partition_free(&m->parts[p]);
    free(m->parts);
    free(m->pool);
    free(m->free_list);
    free(m->reply);
    free(m->outq);
    free(m->parked);
    *m = (memsys_t){ 0 };
}

static unsigned request_bytes(const mem_req_t *r)
{
    int data = r->kind == MEM_WRITE_THROUGH || r->kind == MEM_WRITEBACK ||
               r->kind == MEM_ATOMIC;
    return HEADER + (data ? r->size : 0);
}

static unsigned reply_bytes(const mem_req_t *r)
{
    return HEADER + (r->kind == MEM_FILL || r->kind == MEM_READ_THROUGH ||
                     r->kind == MEM_ATOMIC ? r->size : 0);
}

/* SMs' outboxes into the request network, in SM order (cluster-major):
 * only the SMs whose outbox holds requests (outq), and of those not the
 * ones whose head is known not to fit (parked): for them the loop would
 * break at once. */
static void send_requests(memsys_t *m, sm_t *sms, uint64_t now)
{
    /* the clusters whose input a packet left: their SMs may fit now */
    uint64_t drained = icnt_take_drained(&m->req_net);
    while (drained) {
        unsigned c = (unsigned)__builtin_ctzll(drained);
        drained &= drained - 1;
        for (unsigned i = c * m->per_cluster; i < (c + 1) * m->per_cluster; i++)
            m->parked[i >> 6] &= ~((uint64_t)1 << (i & 63));
    }
    for (unsigned w = 0; w < m->outq_words; w++) {
        uint64_t bits = m->outq[w] & ~m->parked[w];
        while (bits) {
            unsigned i = w * 64 + (unsigned)__builtin_ctzll(bits);
            bits &= bits - 1;
            unsigned c = i / m->per_cluster;
            sm_t *s = &sms[i];
            ldst_out_t o;
            while (m->nfree && ldst_out_peek(&s->ldst, &o)) {
                mem_req_t r = { .kind = o.kind, .addr = o.addr, .size = o.bytes,
                                .space = o.space, .sm = (uint16_t)s->id, .tag = o.op,
                                .t_issue = now };
                if (!icnt_can_push(&m->req_net, c, request_bytes(&r))) {
                    if (c < 64) /* icnt_take_drained tells when to look */
                        m->parked[w] |= (uint64_t)1 << (i & 63);
                    break;
                }
                uint32_t f = m->free_list[--m->nfree];
                r.id = m->next_id++;
                m->pool[f] = r;
                m->reply[f] = (memsys_reply_t){
                    .bytes = (uint16_t)(r.kind == MEM_WRITEBACK ? 0 : reply_bytes(&r)),
                    .cluster = (uint16_t)(r.sm / m->per_cluster) };
                unsigned part = addrmap_partition(&m->cfg.map, r.addr);
                icnt_push(&m->req_net, c, part, &m->pool[f], request_bytes(&r));
                m->stats.req_flits += icnt_flits(&m->req_net, request_bytes(&r));
                m->stats.requests++;
                sm_wake(s, now);
                ldst_out_pop(&s->ldst);
            }
            if (!s->ldst.out_count)
                m->outq[w] &= ~((uint64_t)1 << (i & 63));
        }
    }
}

/* Requests out of the request network into their partitions. */
static void to_partitions(memsys_t *m, uint64_t now)
{
    /* the outputs with a delivered packet, in order (icnt_recv_first) */
    for (unsigned p = icnt_recv_first(&m->req_net, now); p < m->cfg.map.partitions;
         p = icnt_recv_next(&m->req_net, p, now)) {
        partition_t *pt = &m->parts[p];
        mem_req_t *r;
        while (partition_can_accept(pt) && (r = icnt_pop(&m->req_net, p, now)))
            partition_push_bytes(pt, (uint32_t)(r - m->pool), r->addr, r->size,
                                 r->kind != MEM_FILL && r->kind != MEM_READ_THROUGH);
    }
}

/* The L2 slices, and their replies into the reply network. */
static void serve(memsys_t *m, uint64_t now)
{
    for (unsigned p = 0; p < m->cfg.map.partitions; p++) {
        partition_t *pt = &m->parts[p];
        if (partition_l2_active(pt, now))
            partition_cycle(pt, now);
        uint32_t i;
        while (partition_peek_reply(pt, now, &i)) {
            memsys_reply_t a = m->reply[i];
            if (!a.bytes) { /* a write-back: nobody waits for it */
                partition_pop_reply(pt);
                m->free_list[m->nfree++] = i;
                continue;
            }
            if (!icnt_can_push(&m->rep_net, p, a.bytes))
                break;
            icnt_push(&m->rep_net, p, a.cluster, &m->pool[i], a.bytes);
            m->stats.rep_flits += icnt_flits(&m->rep_net, a.bytes);
            partition_pop_reply(pt);
        }
    }
}

/* Replies out of the network into their SMs (at core cycle `core`). */
static void deliver(memsys_t *m, sm_t *sms, uint64_t now, uint64_t core)
{
    for (unsigned c = icnt_recv_first(&m->rep_net, now); c < m->clusters;
         c = icnt_recv_next(&m->rep_net, c, now)) {
        mem_req_t *r;
        while ((r = icnt_pop(&m->rep_net, c, now))) {
            sm_t *s = &sms[r->sm];
            ldst_t *u = &s->ldst;
            if (r->kind == MEM_FILL && r->space == MEM_INST) {
                sm_wake(s, core);
                sm_icache_line_arrived(s, r->addr, core);
            } else {
                int l1_line = r->kind == MEM_FILL && r->space != MEM_CONST &&
                              r->space != MEM_TEX;
                int asleep = sm_ldst_reply_begin(s, core, l1_line, r->addr);
                if (r->kind == MEM_FILL && r->space == MEM_CONST)
                    ldst_const_line_arrived(u, r->addr, core);
                else if (r->kind == MEM_FILL && r->space == MEM_TEX)
                    ldst_tex_line_arrived(u, r->addr, core);
                else if (r->kind == MEM_FILL)
                    ldst_line_arrived(u, r->addr, core);
                else
                    ldst_acknowledged(u, r->tag, core);
                sm_ldst_reply_end(s, asleep);
            }
            r->t_done = core;
            m->stats.replies++;
            m->free_list[m->nfree++] = (uint32_t)(r - m->pool);
        }
    }
}

void memsys_icnt_cycle(memsys_t *m, sm_t *sms, uint64_t now, uint64_t core)
{
    send_requests(m, sms, core);
    icnt_cycle(&m->req_net, now);
    to_partitions(m, now);
    icnt_cycle(&m->rep_net, now);
    deliver(m, sms, now, core);
}

void memsys_l2_cycle(memsys_t *m, uint64_t now)
{
    serve(m, now);
}

void memsys_dram_cycle(memsys_t *m, uint64_t now)
{
    for (unsigned p = 0; p < m->cfg.map.partitions; p++)
        if (m->parts[p].cfg.dram_model && partition_dram_active(&m->parts[p], now))
            partition_dram_cycle(&m->parts[p], now);
}

int memsys_busy(const memsys_t *m, const sm_t *sms)
{
    (void)sms;
    if (m->nfree < m->npool)
        return 1;
    if (memsys_icnt_moves(m))
        return 1;
    for (unsigned p = 0; p < m->cfg.map.partitions; p++) {
        const partition_t *pt = &m->parts[p];
        if (pt->todo_count || pt->done_count || pt->fetch.count ||
            (pt->cfg.dram_model && (pt->dram.nq || pt->dram.done_count)))
            return 1;
    }
    return 0;
}

static void lower(uint64_t *t, uint64_t v)
{
    if (v < *t)
        *t = v;
}

void memsys_next_events(const memsys_t *m, const sm_t *sms, uint64_t *icnt,
                        uint64_t *l2, uint64_t *dram)
{
    (void)sms;
    *icnt = *l2 = *dram = UINT64_MAX;
    if (memsys_icnt_moves(m)) { /* send_requests or icnt_cycle moves it */
        *icnt = 0;
    } else {
        lower(icnt, icnt_next_event(&m->req_net));
        lower(icnt, icnt_next_event(&m->rep_net));
    }
    for (unsigned p = 0; p < m->cfg.map.partitions; p++) {
        lower(l2, partition_next_l2_event(&m->parts[p]));
        lower(dram, partition_next_dram_event(&m->parts[p]));
    }
}

void memsys_export_stats(const memsys_t *m, uint64_t dram_cycles,
                         simt_stats_t *st)
{
    st->icnt_requests += m->stats.requests;
    st->icnt_request_flits += m->stats.req_flits;
    st->icnt_reply_flits += m->stats.rep_flits;
    for (unsigned p = 0; p < m->cfg.map.partitions; p++)
        partition_export_stats(&m->parts[p], st);
    st->dram_channel_cycles += dram_cycles * m->cfg.map.partitions;
}
