/* devmem.c: sparse device memory (see devmem.h). */
#include "exec/devmem.h"

#include <stdlib.h>
#include <string.h>

void devmem_init(devmem_t *d)
{
    memset(d, 0, sizeof *d);
    d->next = DEVMEM_BASE;
}

void devmem_release(devmem_t *d)
{
    for (uint32_t i = 0; i < d->n; i++)
        free(d->allocs[i].data);
    free(d->allocs);
    memset(d, 0, sizeof *d);
}

int devmem_alloc(devmem_t *d, uint64_t size, uint64_t *addr)
{
    if (size == 0)
        size = 1;
    uint64_t span = (size + DEVMEM_PAGE - 1) / DEVMEM_PAGE * DEVMEM_PAGE;
    /* one guard page between allocations catches small overruns */
    if (size > DEVMEM_LIMIT || d->next + span + DEVMEM_PAGE > DEVMEM_LIMIT)
        return -1;
    if (d->n == d->cap) {
        uint32_t nc = d->cap ? d->cap * 2 : 64;
        devmem_alloc_t *a = realloc(d->allocs, nc * sizeof *a);
        if (!a)
            return -1;
        d->allocs = a;
        d->cap = nc;
    }
    uint8_t *data = calloc(1, (size_t)size);
    if (!data)
        return -1;
    devmem_alloc_t *a = &d->allocs[d->n];
    a->base = d->next;
    a->size = size;
    a->data = data;
    d->last = d->n++;
    d->next += span + DEVMEM_PAGE;
    d->live_bytes += size;
    *addr = a->base;
    return 0;
}

static int64_t find(const devmem_t *d, uint64_t addr)
{
    uint32_t lo = 0, hi = d->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->allocs[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (int64_t)lo - 1; /* last allocation with base <= addr */
}

int devmem_free(devmem_t *d, uint64_t addr)
{
    int64_t i = find(d, addr);
    if (i < 0 || d->allocs[i].base != addr || !d->allocs[i].data)
        return -1;
    free(d->allocs[i].data);
    d->allocs[i].data = NULL;
    d->live_bytes -= d->allocs[i].size;
    return 0;
}

uint8_t *devmem_lookup(devmem_t *d, uint32_t *hint, uint64_t addr, uint64_t size)
{
    int64_t i = find(d, addr);
    if (i < 0)
        return NULL;
    devmem_alloc_t *a = &d->allocs[i];
    if (!a->data || addr - a->base >= a->size || size > a->size - (addr - a->base))
        return NULL;
    *hint = (uint32_t)i;
    return a->data + (addr - a->base);
}

const devmem_alloc_t *devmem_nearest(const devmem_t *d, uint64_t addr)
{
    int64_t i = find(d, addr);
    return i < 0 ? NULL : &d->allocs[i];
}
