/* partition.c: an L2 slice over an ideal memory (partition.h). */
#include <assert.h>
#include <stdlib.h>

#include "base/ring.h"
#include "mem/partition.h"

const char *partition_init(partition_t *p, const part_cfg_t *cfg)
{
    *p = (partition_t){ .cfg = *cfg };
    if (cfg->queue < 1)
        return "the L2 request queue must hold at least 1 request";
    const char *why = addrmap_check(&cfg->map);
    if (why)
        return why;
    if (cfg->dram_model && cfg->map.banks != cfg->dram.banks)
        return "the address map and the DRAM channel disagree on the banks";
    if ((why = cache_init(&p->l2, &cfg->l2)) != NULL)
        return why;
    /* every request becomes one reply; the L2 holds at most mshrs x merge
     * waiting ones plus the queue's */
    p->out_cap = cfg->queue + cfg->l2.mshrs * cfg->l2.mshr_merge + 1 +
                 (cfg->dram_model ? cfg->queue + 2 * cfg->l2.mshrs + cfg->dram.queue : 0);
    p->in = calloc(cfg->queue, sizeof *p->in);
    p->in_write = calloc(cfg->queue, sizeof *p->in_write);
    p->in_addr = calloc(cfg->queue, sizeof *p->in_addr);
    p->in_bytes = calloc(cfg->queue, sizeof *p->in_bytes);
    int nomem = fill_queue_init(&p->fetch, cfg->l2.mshrs);
    p->out = calloc(p->out_cap, sizeof *p->out);
    if (cfg->dram_model) {
        if ((why = dram_init(&p->dram, &cfg->dram)) != NULL) {
            partition_free(p);
            return why;
        }
        p->todo_cap = cfg->queue + 2 * cfg->l2.mshrs;
        p->todo = calloc(p->todo_cap, sizeof *p->todo);
        p->at_dram = calloc(cfg->dram.queue, sizeof *p->at_dram);
        p->dram_done = calloc(cfg->dram.queue, sizeof *p->dram_done);
        p->free_tags = calloc(cfg->dram.queue, sizeof *p->free_tags);
        for (unsigned t = 0; p->free_tags && t < cfg->dram.queue; t++)
            p->free_tags[p->nfree_tags++] = cfg->dram.queue - 1 - t;
    }
    if (!p->in || !p->in_write || !p->in_addr || !p->in_bytes || nomem || !p->out ||
        (cfg->dram_model && (!p->todo || !p->at_dram || !p->free_tags ||
                             !p->dram_done))) {
        partition_free(p);
        return "out of memory";
    }
    return NULL;
}

void partition_free(partition_t *p)
{
    cache_free(&p->l2);
    if (p->cfg.dram_model)
        dram_free(&p->dram);
    free(p->todo);
    free(p->at_dram);
    free(p->dram_done);
    free(p->free_tags);
    free(p->in);
    free(p->in_write);
    free(p->in_addr);
    free(p->in_bytes);
    fill_queue_free(&p->fetch);
    free(p->out);
    *p = (partition_t){ 0 };
}

void partition_push_bytes(partition_t *p, uint32_t req, uint64_t addr, unsigned bytes,
                          int write)
{
    assert(partition_can_accept(p));
    p->held++;
    unsigned k = ring_slot(p->in_head, p->in_count++, p->cfg.queue);
    p->in[k] = req;
    p->in_addr[k] = addrmap_chan(&p->cfg.map, addr);
    p->in_bytes[k] = (uint16_t)(bytes < p->cfg.l2.line ? bytes : p->cfg.l2.line);
    p->in_write[k] = (uint8_t)write;
}

void partition_push(partition_t *p, uint32_t req, uint64_t addr, int write)
{
    partition_push_bytes(p, req, addr, p->cfg.l2.line, write);
}

static void reply(partition_t *p, uint32_t req, uint64_t ready)
{
    assert(p->out_count < p->out_cap);
    p->out[ring_slot(p->out_head, p->out_count++, p->out_cap)] =
        (part_reply_t){ req, ready };
}

static int todo_room(const partition_t *p, unsigned n)
{
    return !p->cfg.dram_model || p->todo_count + n <= p->todo_cap;
}

static void todo_push(partition_t *p, part_mem_t m)
{
    p->todo[ring_slot(p->todo_head, p->todo_count++, p->todo_cap)] = m;
}

/* The DRAM clock: accesses into the channel, completions out of it (to
 * the L2 side, which takes them on its own clock). */
void partition_dram_cycle(partition_t *p, uint64_t now)
{
    while (p->todo_count && p->nfree_tags && dram_can_accept(&p->dram)) {
        part_mem_t m = p->todo[p->todo_head];
        p->todo_head = ring_next(p->todo_head, p->todo_cap);
        p->todo_count--;
        uint32_t t = p->free_tags[--p->nfree_tags];
        p->at_dram[t] = m;
        addrmap_loc_t at = addrmap_channel(&p->cfg.map, m.addr);
        if (m.sectors) { /* a sectored fill moves only its sectors */
            unsigned n = (unsigned)__builtin_popcount(m.sectors);
            unsigned burst = (p->cfg.dram.burst_cycles * n + CACHE_SECTORS - 1) / CACHE_SECTORS;
            dram_push_sized(&p->dram, t, at.bank, at.row, m.write, burst);
        } else {
            dram_push(&p->dram, t, at.bank, at.row, m.write);
        }
    }
    dram_cycle(&p->dram, now);
    uint32_t t;
    while (dram_pop_done(&p->dram, now, &t)) {
        p->dram_done[ring_slot(p->done_head, p->done_count++, p->cfg.dram.queue)] =
            p->at_dram[t];
        p->free_tags[p->nfree_tags++] = t;
    }
}

/* DRAM completions, on the L2 clock: fills and answers. */
static void dram_answers(partition_t *p, uint64_t now)
{
    while (p->done_count) {
        part_mem_t m = p->dram_done[p->done_head];
        p->done_head = ring_next(p->done_head, p->cfg.dram.queue);
        p->done_count--;
        if (m.fill) {
            cache_fill(&p->l2, m.addr);
            p->l2_refused = 0; /* an MSHR or a way may be free: look again */
            uint64_t w;
            while (cache_pop_ready(&p->l2, &w))
                reply(p, (uint32_t)w, now + p->cfg.l2_latency);
        } else if (m.req != PART_NOBODY) {
            reply(p, m.req, now);
        }
    }
}

void partition_cycle(partition_t *p, uint64_t now)
{
    if (p->cfg.dram_model)
        dram_answers(p, now);
    uint64_t line;
    while (fill_queue_pop(&p->fetch, now, &line)) {
        cache_fill(&p->l2, line);
        p->l2_refused = 0;
        uint64_t t;
        while (cache_pop_ready(&p->l2, &t))
            reply(p, (uint32_t)t, now + p->cfg.l2_latency);
    }
    if (!p->in_count)
        return;
    unsigned k = p->in_head;
    cache_result_t r;
    if (!todo_room(p, 2)) { /* a miss may need a fill and a write-back */
        p->stats.stall_cycles++;
        return;
    }
    if (!p->cfg.l2_enabled) {
        *(p->in_write[k] ? &p->stats.writes : &p->stats.reads) += 1;
        if (p->cfg.dram_model)
            todo_push(p, (part_mem_t){ p->in_addr[k], p->in[k], p->in_write[k], 0, 0 });
        else
            reply(p, p->in[k], now + p->cfg.mem_latency);
        p->in_head = ring_next(p->in_head, p->cfg.queue);
        p->in_count--;
        return;
    }
    if (p->l2_refused) { /* the head's retry: nothing changed the L2 */
        cache_count_fail(&p->l2, (cache_fail_cause_t)p->l2_refused);
        p->stats.stall_cycles++;
        return;
    }
    if (p->cfg.l2.sectored)
        cache_access_bytes(&p->l2, p->in_addr[k], p->in_bytes[k], p->in_write[k],
                           p->in[k], &r);
    else
        cache_access(&p->l2, p->in_addr[k], p->in_write[k], 0, p->in[k], &r);
    if (r.outcome == CACHE_FAIL) {
        /* a failure changes nothing, and the head stays until it succeeds:
         * until a fill its retries fail the same way (cache_count_fail) */
        p->l2_refused = (uint8_t)r.cause;
        p->stats.stall_cycles++;
        return;
    }
    *(p->in_write[k] ? &p->stats.writes : &p->stats.reads) += 1;
    if (r.writeback && p->cfg.dram_model)
        todo_push(p, (part_mem_t){ r.victim_addr, PART_NOBODY, 1, 0, 0 });
    if (r.outcome == CACHE_MISS && p->cfg.dram_model)
        todo_push(p, (part_mem_t){ r.fill_addr, PART_NOBODY, 0, 1,
                                   (uint8_t)(p->cfg.l2.sectored ? r.fill_sectors : 0) });
    else if (r.outcome == CACHE_MISS)
        fill_queue_push(&p->fetch, r.fill_addr, now + p->cfg.mem_latency);
    else if (r.outcome != CACHE_HIT_RESERVED)
        reply(p, p->in[k], now + p->cfg.l2_latency);
    p->in_head = ring_next(p->in_head, p->cfg.queue);
    p->in_count--;
}

void partition_pop_reply(partition_t *p)
{
    assert(p->out_count > 0 && p->held > 0);
    p->held--;
    p->out_head = ring_next(p->out_head, p->out_cap);
    p->out_count--;
}

uint64_t partition_next_l2_event(const partition_t *p)
{
    if (p->in_count || (p->cfg.dram_model && p->done_count))
        return 0;
    uint64_t t = p->fetch.count ? p->fetch.ring[p->fetch.head].ready : UINT64_MAX;
    if (p->out_count && p->out[p->out_head].ready < t)
        t = p->out[p->out_head].ready;
    return t;
}

uint64_t partition_next_dram_event(const partition_t *p)
{
    if (!p->cfg.dram_model)
        return UINT64_MAX;
    if (p->todo_count && p->nfree_tags && dram_can_accept(&p->dram))
        return 0;
    return dram_next_event(&p->dram);
}

void partition_prefill(partition_t *p, uint64_t addr)
{
    if (p->cfg.l2_enabled) {
        cache_install(&p->l2, addrmap_chan(&p->cfg.map, addr));
        p->l2_refused = 0; /* the line may be the head's */
    }
}

void partition_export_stats(const partition_t *p, simt_stats_t *st)
{
    const cache_stats_t *l2 = &p->l2.stats;
    st->l2_accesses += l2->accesses;
    st->l2_hits += l2->hits;
    st->l2_pending_hits += l2->pending_hits;
    st->l2_misses += l2->misses;
    for (int f = 0; f <= CACHE_FAIL_READ_ONLY; f++)
        st->l2_reservation_fails += l2->fails[f];
    st->l2_writebacks += l2->writebacks;
    const dram_stats_t *d = &p->dram.stats;
    st->dram_reads += d->reads;
    st->dram_writes += d->writes;
    st->dram_row_hits += d->row_hits;
    st->dram_row_misses += d->row_misses;
    st->dram_bus_busy += d->bus_busy;
}
