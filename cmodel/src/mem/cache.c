/* cache.c: tag array, LRU, MSHRs and write policies (cache.h). */
#include <stdlib.h>

#include "base/ring.h"
#include "mem/cache.h"

const char *cache_init(cache_t *c, const cache_cfg_t *cfg)
{
    *c = (cache_t){ .cfg = *cfg };
    if (!cfg->sets || !cfg->ways || !cfg->mshrs || !cfg->mshr_merge)
        return "cache sets, ways, MSHRs and MSHR merges must be at least 1";
    if (cfg->line < 4 || (cfg->line & (cfg->line - 1)))
        return "the cache line size must be a power of two of at least 4 bytes";
    if (cfg->sectored && (cfg->write != CACHE_WRITE_BACK || cfg->line < 4 * CACHE_SECTORS))
        return "a sectored cache is write-back, with lines of at least 16 bytes";
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
    return &c->lines[(size_t)cache_set_index(c, line) * c->cfg.ways];
}

static cache_line_t *lookup(cache_t *c, uint64_t line)
{
    cache_line_t *set = set_of(c, line);
    for (unsigned w = 0; w < c->cfg.ways; w++)
        if ((set[w].valid || set[w].reserved) && set[w].tag == line)
            return &set[w];
    return NULL;
}

static int fail(cache_t *c, cache_result_t *res, cache_fail_cause_t why)
{
    res->outcome = CACHE_FAIL;
    res->cause = why;
    c->stats.fails[why]++;
    return 0;
}

/* The way a new line takes: an invalid one, else the least recently used
 * that is not waiting for a fill; its eviction (and write-back) recorded
 * in res.  NULL (a reservation failure) when every way is reserved. */
static cache_line_t *take_victim(cache_t *c, uint64_t line, cache_result_t *res)
{
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
        return NULL;
    }
    if (victim->valid) {
        c->stats.evictions++;
        res->evicted = 1;
        res->evicted_line = victim->tag;
        res->evicted_owner = victim->owner;
        if (victim->dirty) {
            res->writeback = 1;
            res->victim_addr = victim->tag;
            c->stats.writebacks++;
        }
    }
    return victim;
}

/* Line l (a new line, or a sectored line missing sectors) takes an MSHR
 * for `sectors` and waits for them with `tag`. */
static void reserve(cache_t *c, cache_line_t *l, uint64_t tag, int dirty,
                    uint8_t sectors, cache_result_t *res)
{
    uint32_t e = c->mshr_free[--c->nmshr_free];
    cache_mshr_t *m = &c->mshr[e];
    l->reserved = 1;
    l->valid = 0;
    l->lru = ++c->clock;
    l->mshr = e;
    *m = (cache_mshr_t){ .dirty_on_fill = (uint8_t)dirty, .sectors = sectors, .n = 1 };
    c->waiting[(size_t)e * c->cfg.mshr_merge] = tag;
    res->outcome = CACHE_MISS;
    res->fill_addr = l->tag;
    res->fill_sectors = sectors;
    c->stats.misses++;
}

/* Reserves a line and an MSHR for a miss on `line` and queues `tag`; a
 * reservation failure when none is free. */
static void miss(cache_t *c, uint64_t line, uint64_t tag, int dirty,
                 uint32_t owner, cache_result_t *res)
{
    if (!c->nmshr_free) {
        fail(c, res, CACHE_FAIL_MSHR);
        return;
    }
    cache_line_t *victim = take_victim(c, line, res);
    if (!victim)
        return;
    *victim = (cache_line_t){ .tag = line, .owner = owner };
    reserve(c, victim, tag, dirty, 1, res);
}

/* Joins the pending fill of line l: a pending hit, or a failure at the
 * merge limit. */
static void join(cache_t *c, cache_line_t *l, uint64_t tag, int dirty,
                 cache_result_t *res)
{
    cache_mshr_t *m = &c->mshr[l->mshr];
    if (m->n == c->cfg.mshr_merge) {
        fail(c, res, CACHE_FAIL_MERGE);
        return;
    }
    c->waiting[(size_t)l->mshr * c->cfg.mshr_merge + m->n++] = tag;
    m->dirty_on_fill |= (uint8_t)dirty;
    res->outcome = CACHE_HIT_RESERVED;
    c->stats.pending_hits++;
}

/* A read, or a write-allocate write, that does not hit a valid line; l:
 * what lookup() found for it (the caller has looked). */
static void read_miss(cache_t *c, cache_line_t *l, uint64_t line, uint64_t tag,
                      int dirty, uint32_t owner, cache_result_t *res)
{
    if (l && l->reserved)
        join(c, l, tag, dirty, res);
    else
        miss(c, line, tag, dirty, owner, res);
}

static void write_access(cache_t *c, uint64_t line, int is_local, uint64_t tag,
                         uint32_t owner, cache_result_t *res)
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
            read_miss(c, l, line, tag, 1, owner, res);
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
    cache_access_owned(c, addr, is_write, is_local, tag, 0, res);
}

void cache_access_owned(cache_t *c, uint64_t addr, int is_write, int is_local,
                        uint64_t tag, uint32_t owner, cache_result_t *res)
{
    *res = (cache_result_t){ .outcome = CACHE_HIT };
    uint64_t line = cache_line_addr(c, addr);
    cache_line_t *l;
    if (is_write) {
        write_access(c, line, is_local, tag, owner, res);
    } else if ((l = lookup(c, line)) && l->valid) {
        l->lru = ++c->clock;
        c->stats.hits++;
    } else {
        read_miss(c, l, line, tag, 0, owner, res);
    }
    c->stats.accesses += res->outcome != CACHE_FAIL; /* a retry is not one */
}

void cache_access_bytes(cache_t *c, uint64_t addr, unsigned bytes, int is_write,
                        uint64_t tag, cache_result_t *res)
{
    *res = (cache_result_t){ .outcome = CACHE_HIT };
    uint64_t line = cache_line_addr(c, addr);
    unsigned sbytes = c->cfg.line / CACHE_SECTORS;
    uint64_t off = addr - line, end = off + (bytes ? bytes : 1);
    if (end > c->cfg.line)
        end = c->cfg.line;
    uint8_t touched = 0, whole = 0;
    for (unsigned s = 0; s < CACHE_SECTORS; s++) {
        uint64_t lo = (uint64_t)s * sbytes, hi = lo + sbytes;
        if (off < hi && end > lo)
            touched |= (uint8_t)(1u << s);
        if (is_write && off <= lo && end >= hi)
            whole |= (uint8_t)(1u << s);
    }
    /* the sectors that must be present before the access completes */
    uint8_t need = (uint8_t)(touched & ~whole);
    cache_line_t *l = lookup(c, line);
    if (l && !(need & ~l->sect_valid)) { /* present, fetch pending or not */
        l->lru = ++c->clock;
        l->sect_valid |= whole;
        l->dirty |= (uint8_t)is_write;
        c->stats.hits++;
    } else if (l && l->reserved) {
        if (need & ~(l->sect_valid | c->mshr[l->mshr].sectors)) {
            fail(c, res, CACHE_FAIL_MERGE); /* another sector: after the fill */
        } else {
            join(c, l, tag, is_write, res);
            if (res->outcome == CACHE_HIT_RESERVED)
                l->sect_valid |= whole;
        }
    } else if (!c->nmshr_free && (l || need)) {
        fail(c, res, CACHE_FAIL_MSHR);
    } else if (l) { /* a sector miss on a present line */
        l->sect_valid |= whole;
        l->dirty |= (uint8_t)is_write;
        reserve(c, l, tag, 0, (uint8_t)(need & ~l->sect_valid), res);
    } else if ((l = take_victim(c, line, res)) != NULL) {
        *l = (cache_line_t){ .tag = line, .valid = 1, .dirty = (uint8_t)is_write,
                             .sect_valid = whole, .lru = ++c->clock };
        if (need)
            reserve(c, l, tag, 0, need, res);
        else
            c->stats.misses++; /* written whole: present without a fetch */
    }
    c->stats.accesses += res->outcome != CACHE_FAIL;
}

void cache_fill(cache_t *c, uint64_t line_addr)
{
    cache_line_t *l = lookup(c, line_addr);
    if (!l || !l->reserved)
        return;
    cache_mshr_t *m = &c->mshr[l->mshr];
    l->reserved = 0;
    l->valid = 1;
    l->dirty |= m->dirty_on_fill; /* a sectored line may be dirty already */
    l->sect_valid |= m->sectors;
    const uint64_t *w = &c->waiting[(size_t)(m - c->mshr) * c->cfg.mshr_merge];
    for (unsigned i = 0; i < m->n; i++)
        c->ready[ring_slot(c->ready_head, c->ready_count++, c->ready_cap)] = w[i];
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
    c->ready_head = ring_next(c->ready_head, c->ready_cap);
    c->ready_count--;
    return 1;
}
