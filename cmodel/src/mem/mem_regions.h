/* mem_regions.h: where the timing model places what is not global memory
 * in the device address space, so that instruction and constant-cache
 * misses travel the interconnect and hit the L2 and DRAM like any line.
 *
 * Global memory lies below DEVMEM_LIMIT (2^44, exec/devmem.h); the regions
 * sit above it and never overlap it or each other:
 *   code      MEM_REGION_CODE + code_id * 2^32 + pc * 8
 *             (8 bytes per instruction; each kernel's code in a 4 GB window);
 *   constant  MEM_REGION_CONST + launch * 2^21: that launch's view of its
 *             module's constant bank at +0 (64 KB at most) and its
 *             parameter buffer at +MEM_PARAM_OFFSET. */
#ifndef MEM_MEM_REGIONS_H
#define MEM_MEM_REGIONS_H

#include <stdint.h>

#define MEM_REGION_CODE   (1ull << 44)
#define MEM_REGION_CONST  (1ull << 45)
#define MEM_CONST_WINDOW  (1ull << 21)  /* bytes of one launch's window */
#define MEM_PARAM_OFFSET  (1ull << 20)

/* The constant window of launch `k` of a timing run. */
static inline uint64_t mem_const_window(unsigned k)
{
    return MEM_REGION_CONST + (uint64_t)k * MEM_CONST_WINDOW;
}

#endif
