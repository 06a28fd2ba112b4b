/* coalescer.c: lane addresses -> 32/128-byte transactions. */
#include <stddef.h>

#include "mem/coalescer.h"

/* Where a segment's transaction is in out[]: a small open-addressed table
 * of indices + 1 (0: empty), since an uncoalesced warp gives 32 segments
 * and a linear search per lane would cost 32 x 32 compares.  The table
 * holds at most COALESCE_MAX_TXN entries in twice as many slots. */
enum { FIND_BITS = 7, FIND_SLOTS = 1 << FIND_BITS };
_Static_assert(FIND_SLOTS >= 2 * COALESCE_MAX_TXN, "the table must stay half empty");

typedef struct coalesce_find {
    uint8_t slot[FIND_SLOTS];
    coalesce_txn_t *last;        /* the last segment's transaction: lanes
                                    run in order, and neighbours mostly
                                    share a segment */
} coalesce_find_t;

/* The transaction for `segment` in out[0..n), appending a new one. */
static coalesce_txn_t *segment_txn(coalesce_find_t *f, coalesce_txn_t *out,
                                   unsigned *n, uint64_t segment)
{
    if (f->last && f->last->addr == segment)
        return f->last;
    uint64_t mix = segment / COALESCE_SEGMENT * UINT64_C(0x9e3779b97f4a7c15);
    unsigned h = (unsigned)(mix >> (64 - FIND_BITS));
    while (f->slot[h] && out[f->slot[h] - 1].addr != segment)
        h = (h + 1) % FIND_SLOTS;
    if (!f->slot[h]) {
        out[*n] = (coalesce_txn_t){ .addr = segment };
        f->slot[h] = (uint8_t)++*n;
    }
    return f->last = &out[f->slot[h] - 1];
}

unsigned coalesce_warp(const uint64_t addr[32], uint32_t active,
                       unsigned bytes, coalesce_txn_t out[COALESCE_MAX_TXN])
{
    unsigned n = 0;
    coalesce_find_t f = { .last = NULL };
    for (unsigned l = 0; l < 32; l++) {
        if (!(active >> l & 1))
            continue;
        uint64_t first = addr[l], last = addr[l] + (bytes ? bytes : 1) - 1;
        for (uint64_t seg = first / COALESCE_SEGMENT * COALESCE_SEGMENT;
             seg <= last; seg += COALESCE_SEGMENT) {
            coalesce_txn_t *t = segment_txn(&f, out, &n, seg);
            t->lanes |= 1u << l;
            uint64_t lo = first > seg ? first : seg;
            uint64_t hi = last < seg + COALESCE_SEGMENT - 1
                              ? last : seg + COALESCE_SEGMENT - 1;
            for (uint64_t s = (lo - seg) / COALESCE_SECTOR;
                 s <= (hi - seg) / COALESCE_SECTOR; s++)
                t->sectors |= (uint8_t)(1u << s);
        }
    }
    for (unsigned i = 0; i < n; i++) {
        coalesce_txn_t *t = &out[i];
        if (__builtin_popcount(t->sectors) == 1) {
            t->size = COALESCE_SECTOR;
            t->addr += (uint64_t)__builtin_ctz(t->sectors) * COALESCE_SECTOR;
        } else {
            t->size = COALESCE_SEGMENT;
        }
    }
    return n;
}
