/* coalescer.h: turns one warp memory instruction's lane addresses into the
 * memory transactions the LD/ST unit sends to L1 (GPGPU-Sim 3.x's Fermi
 * rule for cached global and local accesses).
 *
 * The address space is cut into 128-byte segments, each of four 32-byte
 * sectors.  Every segment that an active lane touches gives one
 * transaction: 32 bytes when the lanes touch a single sector of it, else
 * 128 bytes (the whole line), with the touched sectors recorded.  The
 * executor faults on misaligned accesses, so a lane's access never
 * straddles segments in practice; if one did, it would count in each.
 * Transactions come out in the order of the first lane touching their
 * segment, so the result is deterministic. */
#ifndef MEM_COALESCER_H
#define MEM_COALESCER_H

#include <stdint.h>

#define COALESCE_SEGMENT 128u
#define COALESCE_SECTOR 32u
#define COALESCE_MAX_TXN 64u /* 32 lanes x at most 2 segments each */

typedef struct coalesce_txn {
    uint64_t addr;        /* segment address, or sector address for 32 B */
    uint32_t size;        /* 32 or 128 */
    uint8_t sectors;      /* bit i: sector i of the segment is touched */
    uint32_t lanes;       /* lanes served by this transaction */
} coalesce_txn_t;

/* `addr[l]` for each lane l set in `active`; each lane accesses `bytes`
 * (1, 2, 4, 8 or 16) from there.  Writes at most COALESCE_MAX_TXN
 * transactions into `out` and returns how many. */
unsigned coalesce_warp(const uint64_t addr[32], uint32_t active,
                       unsigned bytes, coalesce_txn_t out[COALESCE_MAX_TXN]);

#endif
