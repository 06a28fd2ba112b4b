/* mem_req.h: one memory request as it travels from an SM's LD/ST unit
 * through L1, the interconnect, an L2 slice and a DRAM channel, and back.
 *
 * Requests live in a pool owned by the GPU (flat array, no allocation per
 * cycle); modules pass them by index or pointer and never free them.  The
 * timestamps record the cycle (in the clock domain of the module that sets
 * it) at which each stage saw the request, for latency statistics. */
#ifndef MEM_MEM_REQ_H
#define MEM_MEM_REQ_H

#include <stdint.h>

typedef enum mem_access {
    MEM_READ,
    MEM_WRITE,
} mem_access_t;

typedef enum mem_space_kind {
    MEM_GLOBAL,   /* global and generic-to-global */
    MEM_LOCAL,    /* per-thread local (spills, stack arrays) */
    MEM_CONST,    /* constant cache misses */
    MEM_INST,     /* instruction cache misses */
    MEM_TEX,      /* texture cache misses */
} mem_space_kind_t;

/* What a request asks of the memory below the L1, and what its reply
 * does back at the SM. */
typedef enum mem_kind {
    MEM_FILL,             /* fetch an L1 line; the reply fills it */
    MEM_READ_THROUGH,     /* an uncached read; the reply completes it */
    MEM_WRITE_THROUGH,    /* a write going down; the reply acknowledges it */
    MEM_ATOMIC,           /* performed at the L2; the reply completes it */
    MEM_WRITEBACK,        /* a dirty L1 victim; nobody waits for it */
} mem_kind_t;

typedef struct mem_req {
    uint64_t id;          /* unique, in creation order (determinism, logs) */
    uint8_t kind;         /* mem_kind_t */
    uint64_t addr;        /* byte address of the first byte */
    uint32_t size;        /* bytes: 32 or 128 for L1 traffic, the line size
                             for fills */
    uint8_t access;       /* mem_access_t */
    uint8_t space;        /* mem_space_kind_t */
    uint16_t sm;          /* issuing SM */
    uint16_t warp;        /* issuing warp slot within the SM */
    uint32_t tag;         /* the issuer's own handle (e.g. LD/ST entry) */
    uint64_t t_issue;     /* cycle the SM issued it (core clock) */
    uint64_t t_done;      /* cycle its reply reached the SM (core clock) */
} mem_req_t;

#endif
