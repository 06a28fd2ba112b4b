/* addrmap.c: global address to partition, bank, row, column (addrmap.h). */
#include <stddef.h>

#include "mem/addrmap.h"

static int is_pow2(unsigned x)
{
    return (x & (x - 1)) == 0;
}

const char *addrmap_check(const addrmap_cfg_t *c)
{
    if (!c->partitions || !c->interleave || !c->banks || !c->row_bytes)
        return "memory partitions, interleave, DRAM banks and row bytes must be at least 1";
    return NULL;
}

/* f of addrmap.h: the XOR of the n-bit fields of s, n the bit length of
 * P - 1. */
static uint64_t fold(uint64_t s, unsigned partitions)
{
    unsigned n = 0;
    while ((UINT64_C(1) << n) < partitions)
        n++;
    if (!n)
        return 0;
    uint64_t f = 0, mask = (UINT64_C(1) << n) - 1;
    for (; s; s >>= n)
        f ^= s & mask;
    return f;
}

unsigned addrmap_partition(const addrmap_cfg_t *c, uint64_t addr)
{
    uint64_t chunk = addr / c->interleave, p = c->partitions;
    if (c->scheme == ADDRMAP_LINEAR)
        return (unsigned)(chunk % p);
    uint64_t f = fold(chunk / p, c->partitions);
    return (unsigned)(is_pow2(c->partitions) ? (chunk % p) ^ f : (chunk % p + f) % p);
}

uint64_t addrmap_chan(const addrmap_cfg_t *c, uint64_t addr)
{
    uint64_t i = c->interleave;
    return addr / (i * c->partitions) * i + addr % i;
}

addrmap_loc_t addrmap_channel(const addrmap_cfg_t *c, uint64_t chan)
{
    uint64_t rows = chan / c->row_bytes; /* rows of the channel before */
    uint32_t b = (uint32_t)(rows % c->banks), row = (uint32_t)(rows / c->banks);
    if (c->scheme == ADDRMAP_XOR)
        b = is_pow2(c->banks) ? b ^ (row % c->banks)
                              : (uint32_t)(((uint64_t)b + row) % c->banks);
    return (addrmap_loc_t){ .chan = chan, .bank = b, .row = row,
                            .col = (uint32_t)(chan % c->row_bytes) };
}

addrmap_loc_t addrmap_decode(const addrmap_cfg_t *c, uint64_t addr)
{
    addrmap_loc_t at = addrmap_channel(c, addrmap_chan(c, addr));
    at.partition = addrmap_partition(c, addr);
    return at;
}
