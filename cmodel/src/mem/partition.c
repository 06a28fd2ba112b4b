/* partition.c: an L2 slice over an ideal memory (partition.h). */
#include <stdlib.h>

#include "mem/partition.h"

const char *partition_init(partition_t *p, const part_cfg_t *cfg)
{
    *p = (partition_t){ .cfg = *cfg };
    if (cfg->queue < 1)
        return "the L2 request queue must hold at least 1 request";
    const char *why = cache_init(&p->l2, &cfg->l2);
    if (why)
        return why;
    /* every request becomes one reply; the L2 holds at most mshrs x merge
     * waiting ones plus the queue's */
    p->out_cap = cfg->queue + cfg->l2.mshrs * cfg->l2.mshr_merge + 1;
    p->in = calloc(cfg->queue, sizeof *p->in);
    p->in_write = calloc(cfg->queue, sizeof *p->in_write);
    p->in_addr = calloc(cfg->queue, sizeof *p->in_addr);
    p->fetch = calloc(cfg->l2.mshrs, sizeof *p->fetch);
    p->out = calloc(p->out_cap, sizeof *p->out);
    if (!p->in || !p->in_write || !p->in_addr || !p->fetch || !p->out) {
        partition_free(p);
        return "out of memory";
    }
    return NULL;
}

void partition_free(partition_t *p)
{
    cache_free(&p->l2);
    free(p->in);
    free(p->in_write);
    free(p->in_addr);
    free(p->fetch);
    free(p->out);
    *p = (partition_t){ 0 };
}

int partition_can_accept(const partition_t *p)
{
    return p->in_count < p->cfg.queue;
}

void partition_push(partition_t *p, uint32_t req, uint64_t addr, int write)
{
    unsigned k = (p->in_head + p->in_count++) % p->cfg.queue;
    p->in[k] = req;
    p->in_addr[k] = addr;
    p->in_write[k] = (uint8_t)write;
}

static void reply(partition_t *p, uint32_t req, uint64_t ready)
{
    p->out[(p->out_head + p->out_count++) % p->out_cap] =
        (part_reply_t){ req, ready };
}

void partition_cycle(partition_t *p, uint64_t now)
{
    while (p->fetch_count && p->fetch[p->fetch_head].ready <= now) {
        cache_fill(&p->l2, p->fetch[p->fetch_head].line);
        p->fetch_head = (p->fetch_head + 1) % p->cfg.l2.mshrs;
        p->fetch_count--;
        uint64_t t;
        while (cache_pop_ready(&p->l2, &t))
            reply(p, (uint32_t)t, now + p->cfg.l2_latency);
    }
    if (!p->in_count)
        return;
    unsigned k = p->in_head;
    cache_result_t r;
    if (!p->cfg.l2_enabled) {
        *(p->in_write[k] ? &p->stats.writes : &p->stats.reads) += 1;
        reply(p, p->in[k], now + p->cfg.mem_latency);
        p->in_head = (p->in_head + 1) % p->cfg.queue;
        p->in_count--;
        return;
    }
    cache_access(&p->l2, p->in_addr[k], p->in_write[k], 0, p->in[k], &r);
    if (r.outcome == CACHE_FAIL) {
        p->stats.stall_cycles++;
        return;
    }
    *(p->in_write[k] ? &p->stats.writes : &p->stats.reads) += 1;
    if (r.outcome == CACHE_MISS)
        p->fetch[(p->fetch_head + p->fetch_count++) % p->cfg.l2.mshrs] =
            (part_fetch_t){ r.fill_addr, now + p->cfg.mem_latency };
    else if (r.outcome != CACHE_HIT_RESERVED)
        reply(p, p->in[k], now + p->cfg.l2_latency);
    p->in_head = (p->in_head + 1) % p->cfg.queue;
    p->in_count--;
}

int partition_peek_reply(const partition_t *p, uint64_t now, uint32_t *req)
{
    if (!p->out_count || p->out[p->out_head].ready > now)
        return 0;
    *req = p->out[p->out_head].req;
    return 1;
}

void partition_pop_reply(partition_t *p)
{
    p->out_head = (p->out_head + 1) % p->out_cap;
    p->out_count--;
}
