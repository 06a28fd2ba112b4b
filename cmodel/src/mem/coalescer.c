/* coalescer.c: lane addresses -> 32/128-byte transactions. */
#include "mem/coalescer.h"

/* The transaction for `segment` in out[0..n), appending a new one. */
static coalesce_txn_t *segment_txn(coalesce_txn_t *out, unsigned *n,
                                   uint64_t segment)
{
    for (unsigned i = 0; i < *n; i++)
        if (out[i].addr == segment)
            return &out[i];
    coalesce_txn_t *t = &out[(*n)++];
    *t = (coalesce_txn_t){ .addr = segment };
    return t;
}

unsigned coalesce_warp(const uint64_t addr[32], uint32_t active,
                       unsigned bytes, coalesce_txn_t out[COALESCE_MAX_TXN])
{
    unsigned n = 0;
    for (unsigned l = 0; l < 32; l++) {
        if (!(active >> l & 1))
            continue;
        uint64_t first = addr[l], last = addr[l] + (bytes ? bytes : 1) - 1;
        for (uint64_t seg = first / COALESCE_SEGMENT * COALESCE_SEGMENT;
             seg <= last; seg += COALESCE_SEGMENT) {
            coalesce_txn_t *t = segment_txn(out, &n, seg);
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
