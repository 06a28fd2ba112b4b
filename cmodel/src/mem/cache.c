/* cache.c: tag array, LRU, MSHRs and write policies (cache.h). */
#include <stdlib.h>

#include "mem/cache.h"

const char *cache_init(cache_t *c, const cache_cfg_t *cfg)
{
    *c = (cache_t){ .cfg = *cfg };
    if (!cfg->sets || !cfg->ways || !cfg->mshrs || !cfg->mshr_merge)
        return "cache sets, ways, MSHRs and MSHR merges must be at least 1";
    if (cfg->line < 4 || (cfg->line & (cfg->line - 1)))
        return "the cache line size must be a power of two of at least 4 bytes";
    while ((1u << c->line_shift) < cfg->line)
        c->line_shift++;
    if (!(cfg->sets & (cfg->sets - 1)))
        c->set_mask = cfg->sets - 1; /* 0 for one set: n % 1 is 0 too */
    c->ready_cap = cfg->mshrs * cfg->mshr_merge;
    c->lines = calloc((size_t)cfg->sets * cfg->ways, sizeof *c->lines);
    c->mshr = calloc(cfg->mshrs, sizeof *c->mshr);
    c->mshr_free = calloc(cfg->mshrs, sizeof *c->mshr_free);
    c->waiting = calloc(c->ready_cap, sizeof *c->waiting);
    c->ready = calloc(c->ready_cap, sizeof *c->ready);
    if (!c->lines || !c->mshr || !c->mshr_free || !c->waiting || !c->ready) {
        cache_free(c);
        return "out of memory";
    }
    for (unsigned i = 0; i < cfg->mshrs; i++)
        c->mshr_free[c->nmshr_free++] = cfg->mshrs - 1 - i; /* entry 0 first */
    return NULL;
}

void cache_free(cache_t *c)
{
    free(c->lines);
    free(c->mshr);
    free(c->mshr_free);
    free(c->waiting);
    free(c->ready);
    *c = (cache_t){ 0 };
}

static cache_line_t *set_of(cache_t *c, uint64_t line)
{
    uint64_t n = line >> c->line_shift;
    n = c->set_mask ? n & c->set_mask : n % c->cfg.sets;
    return &c->lines[(size_t)n * c->cfg.ways];
}

static cache_line_t *lookup(cache_t *c, uint64_t line)
{
    cache_line_t *set = set_of(c, line);
    for (unsigned w = 0; w < c->cfg.ways; w++)
        if ((set[w].valid || set[w].reserved) && set[w].tag == line)
            return &set[w];
    return NULL;
}

/* The MSHR entry of a line being fetched: a miss reserves the line and
 * its entry together, and both last until the fill. */
static cache_mshr_t *mshr_of(cache_t *c, uint64_t line)
{
    cache_line_t *l = lookup(c, line);
    return l && l->reserved ? &c->mshr[l->mshr] : NULL;
}

static int fail(cache_t *c, cache_result_t *res, cache_fail_cause_t why)
{
    res->outcome = CACHE_FAIL;
    res->cause = why;
    c->stats.fails[why]++;
    return 0;
}

/* Reserves a line and an MSHR for a miss on `line` and queues `tag`; a
 * reservation failure when none is free. */
static void miss(cache_t *c, uint64_t line, uint64_t tag, int dirty,
                 cache_result_t *res)
{
    if (!c->nmshr_free) {
        fail(c, res, CACHE_FAIL_MSHR);
        return;
    }
    cache_line_t *set = set_of(c, line), *victim = NULL;
    for (unsigned w = 0; w < c->cfg.ways; w++) {
        if (set[w].reserved)
            continue;
        if (!set[w].valid) {
            victim = &set[w];
            break;
        }
        if (!victim || set[w].lru < victim->lru)
            victim = &set[w];
    }
    if (!victim) {
        fail(c, res, CACHE_FAIL_SET);
        return;
    }
    if (victim->valid) {
        c->stats.evictions++;
        if (victim->dirty) {
            res->writeback = 1;
            res->victim_addr = victim->tag;
            c->stats.writebacks++;
        }
    }
    uint32_t e = c->mshr_free[--c->nmshr_free];
    cache_mshr_t *m = &c->mshr[e];
    *victim = (cache_line_t){ .tag = line, .reserved = 1, .lru = ++c->clock, .mshr = e };
    *m = (cache_mshr_t){ .dirty_on_fill = (uint8_t)dirty, .n = 1 };
    c->waiting[(size_t)(m - c->mshr) * c->cfg.mshr_merge] = tag;
    res->outcome = CACHE_MISS;
    res->fill_addr = line;
    c->stats.misses++;
}

/* A read, or a write-allocate write, that does not hit a valid line. */
static void read_miss(cache_t *c, uint64_t line, uint64_t tag, int dirty,
                      cache_result_t *res)
{
    cache_mshr_t *m = mshr_of(c, line);
    if (!m) {
        miss(c, line, tag, dirty, res);
        return;
    }
    if (m->n == c->cfg.mshr_merge) {
        fail(c, res, CACHE_FAIL_MERGE);
        return;
    }
    c->waiting[(size_t)(m - c->mshr) * c->cfg.mshr_merge + m->n++] = tag;
    m->dirty_on_fill |= (uint8_t)dirty;
    res->outcome = CACHE_HIT_RESERVED;
    c->stats.pending_hits++;
}

static void write_access(cache_t *c, uint64_t line, int is_local, uint64_t tag,
                         cache_result_t *res)
{
    cache_write_policy_t p = c->cfg.write;
    if (p == CACHE_LOCAL_WB_GLOBAL_WT)
        p = is_local ? CACHE_WRITE_BACK : CACHE_WRITE_THROUGH;
    cache_line_t *l = lookup(c, line);
    int hit = l && l->valid;
    switch (p) {
    case CACHE_READ_ONLY:
        fail(c, res, CACHE_FAIL_READ_ONLY);
        return;
    case CACHE_WRITE_BACK:
        if (hit) {
            l->dirty = 1;
            l->lru = ++c->clock;
            res->outcome = CACHE_HIT;
            c->stats.hits++;
        } else {
            read_miss(c, line, tag, 1, res);
        }
        return;
    case CACHE_WRITE_EVICT:
        if (hit)
            l->valid = 0;
        break;
    default: /* write-through, no write-allocate */
        if (hit)
            l->lru = ++c->clock;
        break;
    }
    res->outcome = hit && p == CACHE_WRITE_THROUGH ? CACHE_HIT : CACHE_WRITE_SENT;
    res->write_down = 1;
    c->stats.writes_down++;
    if (res->outcome == CACHE_HIT)
        c->stats.hits++;
}

void cache_access(cache_t *c, uint64_t addr, int is_write, int is_local,
                  uint64_t tag, cache_result_t *res)
{
    *res = (cache_result_t){ .outcome = CACHE_HIT };
    uint64_t line = cache_line_addr(c, addr);
    cache_line_t *l;
    if (is_write) {
        write_access(c, line, is_local, tag, res);
    } else if ((l = lookup(c, line)) && l->valid) {
        l->lru = ++c->clock;
        c->stats.hits++;
    } else {
        read_miss(c, line, tag, 0, res);
    }
    c->stats.accesses += res->outcome != CACHE_FAIL; /* a retry is not one */
}

void cache_fill(cache_t *c, uint64_t line_addr)
{
    cache_line_t *l = lookup(c, line_addr);
    if (!l || !l->reserved)
        return;
    cache_mshr_t *m = &c->mshr[l->mshr];
    l->reserved = 0;
    l->valid = 1;
    l->dirty = m->dirty_on_fill;
    const uint64_t *w = &c->waiting[(size_t)(m - c->mshr) * c->cfg.mshr_merge];
    for (unsigned i = 0; i < m->n; i++)
        c->ready[(c->ready_head + c->ready_count++) % c->ready_cap] = w[i];
    c->mshr_free[c->nmshr_free++] = l->mshr;
}

void cache_install(cache_t *c, uint64_t addr)
{
    uint64_t line = cache_line_addr(c, addr);
    cache_line_t *l = lookup(c, line);
    if (l && l->valid) {
        l->lru = ++c->clock;
        return;
    }
    if (l)
        return; /* being fetched: the fill brings it */
    cache_line_t *set = set_of(c, line), *victim = NULL;
    for (unsigned w = 0; w < c->cfg.ways; w++) {
        if (set[w].reserved || set[w].dirty)
            continue; /* a dirty line's data must not be lost */
        if (!set[w].valid) {
            victim = &set[w];
            break;
        }
        if (!victim || set[w].lru < victim->lru)
            victim = &set[w];
    }
    if (victim)
        *victim = (cache_line_t){ .tag = line, .valid = 1, .lru = ++c->clock };
}

int cache_pop_ready(cache_t *c, uint64_t *tag)
{
    if (!c->ready_count)
        return 0;
    *tag = c->ready[c->ready_head];
    c->ready_head = (c->ready_head + 1) % c->ready_cap;
    c->ready_count--;
    return 1;
}
