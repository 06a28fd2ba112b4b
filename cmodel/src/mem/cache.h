/* cache.h: a set-associative cache with MSHRs, as GPGPU-Sim 3.x models
 * them (L1 data, constant and instruction caches; L2 slices).
 *
 * Lines of `line` bytes in `sets` x `ways`, LRU replacement.  A read miss
 * reserves a line at once (allocate on miss: the victim is the least
 * recently used way that is not itself waiting for a fill; a dirty victim
 * is written back) and takes an MSHR, which later misses to the same line
 * join (a "pending hit") up to `mshr_merge` requests.  When the line's data
 * arrives (cache_fill), the line becomes valid and the waiting requests
 * become ready (cache_pop_ready), in arrival order.  An access that cannot
 * proceed (no free MSHR, the merge limit, every way of the set reserved)
 * is a reservation failure: nothing changes and the caller retries.
 *
 * Writes follow the policy:
 *   write-back      a hit dirties the line; a miss allocates and fetches
 *                   the line like a read (write-allocate) and dirties it;
 *   write-through   a hit updates the line and the write goes down; a miss
 *                   goes down without allocating;
 *   write-evict     a hit invalidates the line; the write goes down;
 *   local-wb/global-wt  write-back for local accesses, write-through for
 *                   global (GPGPU-Sim's Fermi L1);
 *   read-only       a write is refused (CACHE_FAIL_READ_ONLY).
 * Requests are the caller's 64-bit tags.
 *
 * A sectored cache (`sectors` = CACHE_SECTORS, GPGPU-Sim 4's 'S' caches,
 * used as a write-back L2) keeps the tag and LRU per line but the data per
 * sector of line / CACHE_SECTORS bytes: cache_access_bytes names the bytes
 * a request touches, a read hits when its sectors are present, and a miss
 * fetches only the sectors missing (fill_sectors), also on a line whose
 * tag is present (a sector miss).  A write makes the sectors it covers
 * whole present and dirty without a fetch; only a sector it covers in part
 * and that is absent is fetched first.  While a line's fetch is pending, a
 * request whose sectors are present or on their way joins it, and one
 * that needs another sector is a reservation failure (CACHE_FAIL_MERGE)
 * until the fill.  A dirty line is written back whole. */
#ifndef MEM_CACHE_H
#define MEM_CACHE_H

#include <stdint.h>

typedef enum cache_write_policy {
    CACHE_WRITE_BACK, CACHE_WRITE_THROUGH, CACHE_WRITE_EVICT,
    CACHE_LOCAL_WB_GLOBAL_WT, CACHE_READ_ONLY
} cache_write_policy_t;

#define CACHE_SECTORS 4

typedef struct cache_cfg {
    unsigned sets, ways, line;     /* line: bytes, a power of two */
    unsigned mshrs;                /* MSHR entries (lines being fetched) */
    unsigned mshr_merge;           /* requests per MSHR entry */
    cache_write_policy_t write;
    int sectored;                  /* 1: CACHE_SECTORS sectors per line
                                      (write-back only; cache_access_bytes) */
} cache_cfg_t;

typedef enum cache_outcome {
    CACHE_HIT,
    CACHE_HIT_RESERVED,            /* joined a pending fill */
    CACHE_MISS,                    /* a fill must be sent (fill_addr) */
    CACHE_WRITE_SENT,              /* a write that only goes down */
    CACHE_FAIL                     /* reservation failure: retry */
} cache_outcome_t;

typedef enum cache_fail_cause {
    CACHE_FAIL_NONE, CACHE_FAIL_MSHR, CACHE_FAIL_MERGE, CACHE_FAIL_SET,
    CACHE_FAIL_READ_ONLY
} cache_fail_cause_t;

typedef struct cache_result {
    cache_outcome_t outcome;
    cache_fail_cause_t cause;      /* for CACHE_FAIL */
    uint8_t write_down;            /* the write must also go to the next level */
    uint8_t writeback;             /* a dirty victim must be written back */
    uint64_t fill_addr;            /* CACHE_MISS: line to fetch */
    uint8_t fill_sectors;          /* CACHE_MISS, sectored: the sectors to
                                      fetch (bit i: sector i); else 1 */
    uint64_t victim_addr;          /* writeback: the victim's line */
    uint8_t evicted;               /* a valid line made room (its owner:
                                      evicted_line, evicted_owner) */
    uint32_t evicted_owner;        /* the owner the access that brought it
                                      in gave (cache_access_owned) */
    uint64_t evicted_line;
} cache_result_t;

typedef struct cache_stats {
    uint64_t accesses, hits, pending_hits, misses, writes_down;
    uint64_t fails[CACHE_FAIL_READ_ONLY + 1];
    uint64_t evictions, writebacks;
} cache_stats_t;

typedef struct cache_line {
    uint64_t tag;                  /* line address */
    uint64_t lru;                  /* last use */
    uint8_t valid, dirty, reserved;
    uint8_t sect_valid;            /* sectored: the sectors present */
    uint32_t mshr;                 /* while reserved: its MSHR entry */
    uint32_t owner;                /* who brought it in (cache_access_owned) */
} cache_line_t;

typedef struct cache_mshr {      /* in use while its line is reserved */
    uint8_t dirty_on_fill;         /* a write-allocate miss */
    uint8_t sectors;               /* sectored: the sectors being fetched */
    unsigned n;                    /* waiting requests */
} cache_mshr_t;

typedef struct cache {
    cache_cfg_t cfg;
    unsigned line_shift;
    uint64_t set_mask;             /* sets - 1 when a power of two, else 0 */
    cache_line_t *lines;           /* sets * ways */
    cache_mshr_t *mshr;            /* an entry per reserved line */
    uint32_t *mshr_free;           /* unused entries, a stack */
    unsigned nmshr_free;
    uint64_t *waiting;             /* mshrs * mshr_merge tags */
    uint64_t *ready;               /* released tags, a ring */
    unsigned ready_head, ready_count, ready_cap;
    uint64_t clock;                /* LRU time */
    cache_stats_t stats;
} cache_t;

/* NULL, or what is wrong with the configuration. */
const char *cache_init(cache_t *c, const cache_cfg_t *cfg);
void cache_free(cache_t *c);

static inline uint64_t cache_line_addr(const cache_t *c, uint64_t addr)
{
    return addr >> c->line_shift << c->line_shift;
}

/* The set that holds the line of `addr`. */
static inline uint64_t cache_set_index(const cache_t *c, uint64_t addr)
{
    uint64_t n = addr >> c->line_shift;
    return c->set_mask ? n & c->set_mask : n % c->cfg.sets;
}

/* One access of request `tag` (a read, or a write of `is_local` data for
 * the local-wb/global-wt policy). */
void cache_access(cache_t *c, uint64_t addr, int is_write, int is_local,
                  uint64_t tag, cache_result_t *res);

/* cache_access, and a line this access allocates records `owner` (the L1
 * data cache: the warp slot), which the result of the access that later
 * evicts it reports (CCWS's victim tags, core/sched_ccws.c).  The owner
 * changes nothing else: cache_access is this with owner 0. */
void cache_access_owned(cache_t *c, uint64_t addr, int is_write, int is_local,
                        uint64_t tag, uint32_t owner, cache_result_t *res);

/* A sectored cache's access to bytes [addr, addr + bytes) of one line (a
 * read, or a write under write-back). */
void cache_access_bytes(cache_t *c, uint64_t addr, unsigned bytes, int is_write,
                        uint64_t tag, cache_result_t *res);

/* The data of line `line_addr` arrived. */
void cache_fill(cache_t *c, uint64_t line_addr);

/* Makes the line holding `addr` present and clean without an access (a
 * prefill: GPGPU-Sim's memcpy into the L2), the most recently used of its
 * set; the victim is the least recently used clean way that is not
 * reserved, and a set with none keeps its lines.  Nothing is counted. */
void cache_install(cache_t *c, uint64_t addr);

/* Counts a reservation failure for `why` without an access: the caller
 * knows the access would fail again for that cause, because it failed
 * for it and nothing has changed the cache since (a failure changes
 * nothing; only a successful access or a fill does).  A retry that would
 * repeat thus costs no lookup (the LD/ST unit and the L2 slice, whose
 * head access may be refused for thousands of cycles). */
static inline void cache_count_fail(cache_t *c, cache_fail_cause_t why)
{
    c->stats.fails[why]++;
}

/* A request released by a fill: 1 and its tag, or 0. */
int cache_pop_ready(cache_t *c, uint64_t *tag);

#endif
