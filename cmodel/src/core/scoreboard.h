/* scoreboard.h: per-warp register reservations between issue and
 * writeback.
 *
 * Issue reserves every register an instruction writes; writeback releases
 * it.  An instruction may issue only when none of the registers it reads
 * or writes is reserved (RAW and WAW hazards; WAR cannot occur because
 * operands are read before a later instruction of the same warp writes).
 * Registers are numbered per warp: value register slots first, then the
 * predicate registers (the exec program's slot numbering).  A reservation
 * made by a long-latency operation (a global or local load) is also
 * counted, so a two-level scheduler can tell which warps wait on memory. */
#ifndef CORE_SCOREBOARD_H
#define CORE_SCOREBOARD_H

#include <stdint.h>

typedef struct scoreboard {
    unsigned nwarps, nregs, words;  /* words: 64-bit words per warp */
    uint64_t *reserved;             /* nwarps * words bits */
    uint64_t *long_lat;             /* same shape: long-latency ones */
    uint32_t *nlong;                /* per warp: long-latency count */
} scoreboard_t;

/* 0, or -1 when out of memory. */
int scoreboard_init(scoreboard_t *sb, unsigned nwarps, unsigned nregs);
void scoreboard_free(scoreboard_t *sb);

/* Reserving a reserved register or releasing a free one is a pipeline bug:
 * both return -1 and change nothing; 0 otherwise. */
int scoreboard_reserve(scoreboard_t *sb, unsigned warp, unsigned reg,
                       int long_latency);
int scoreboard_release(scoreboard_t *sb, unsigned warp, unsigned reg);

/* 1 when any of regs[0..n) is reserved for `warp`. */
int scoreboard_collides(const scoreboard_t *sb, unsigned warp,
                        const uint32_t *regs, unsigned n);

/* Long-latency reservations pending for `warp`. */
static inline unsigned scoreboard_long_pending(const scoreboard_t *sb,
                                               unsigned warp)
{
    return sb->nlong[warp];
}

/* Clears a warp's reservations (a new warp in the slot). */
void scoreboard_clear_warp(scoreboard_t *sb, unsigned warp);

#endif
