/* devmem.h: global device memory owned by the host API.
 *
 * Sparse: only allocated ranges have backing store.  Allocations get
 * page-aligned addresses from a bump allocator that never reuses an address,
 * so a stale pointer into freed memory is detected rather than aliased.
 * A lookup finds the allocation holding an address; an access that is not
 * wholly inside one live allocation is an out-of-bounds fault. */
#ifndef EXEC_DEVMEM_H
#define EXEC_DEVMEM_H

#include <stddef.h>
#include <stdint.h>

#define DEVMEM_BASE 0x100000000ull  /* first device address (4 GiB) */
#define DEVMEM_LIMIT (1ull << 44)   /* addresses at and above are not global */
#define DEVMEM_PAGE 4096ull

typedef struct devmem_alloc {
    uint64_t base, size;
    uint8_t *data;     /* NULL once freed */
} devmem_alloc_t;

typedef struct devmem {
    devmem_alloc_t *allocs;  /* sorted by base */
    uint32_t n, cap;
    uint32_t last;           /* index of the last allocation hit (devmem_ptr) */
    uint64_t next;           /* next free address */
    uint64_t live_bytes;
} devmem_t;

void devmem_init(devmem_t *d);
void devmem_release(devmem_t *d);
/* 0 on success; -1 when out of host memory or address space. */
int devmem_alloc(devmem_t *d, uint64_t size, uint64_t *addr);
/* 0 on success; -1 when addr is not the base of a live allocation. */
int devmem_free(devmem_t *d, uint64_t addr);

/* Host pointer for [addr, addr+size) or NULL when not inside one live
 * allocation.  devmem_ptr_at checks allocation *hint (the caller's last
 * hit) first and sets it on a hit elsewhere: a hint of its own for each
 * SM, so that SMs stepped on different host threads (gpu/smpar.h) do not
 * write one shared word on every access; devmem_ptr uses d->last.  The
 * hint only makes the search shorter, never changes its answer. */
uint8_t *devmem_lookup(devmem_t *d, uint32_t *hint, uint64_t addr, uint64_t size);
static inline uint8_t *devmem_ptr_at(devmem_t *d, uint32_t *hint, uint64_t addr,
                                     uint64_t size)
{
    if (*hint < d->n) {
        devmem_alloc_t *a = &d->allocs[*hint];
        if (addr >= a->base && addr - a->base < a->size &&
            size <= a->size - (addr - a->base) && a->data)
            return a->data + (addr - a->base);
    }
    return devmem_lookup(d, hint, addr, size);
}
static inline uint8_t *devmem_ptr(devmem_t *d, uint64_t addr, uint64_t size)
{
    return devmem_ptr_at(d, &d->last, addr, size);
}

/* The allocation nearest below addr (for fault messages), or NULL. */
const devmem_alloc_t *devmem_nearest(const devmem_t *d, uint64_t addr);

#endif
