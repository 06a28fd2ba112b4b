/* smem_banks.c: the conflict degree of a warp's scratchpad access.
 *
 * Each distinct word the warp touches is counted once in its bank (a
 * broadcast costs nothing).  Most accesses are conflict-free (each bank
 * asked for one word, maybe by several lanes): a first pass keeps one
 * word per bank and answers 1 if no bank is asked for a second.  Else the
 * words are counted with a small open-addressing table of those seen, so
 * an access costs the same whatever its conflicts: a list per bank,
 * searched word by word, took 32 x 31 / 2 comparisons when every lane hit
 * one bank (a column of a 32-word-wide array, common in tiled kernels). */
#include <string.h>

#include "core/smem_banks.h"

#define MAX_WORDS (32 * 4) /* 32 lanes x up to 4 words (16 bytes) */
#define MAX_BANKS 64       /* gpgpu_shmem_num_banks' upper bound */
#define SLOT_BITS 8        /* 256 slots: at most half full */

/* Word w's bank: a mask for the usual power-of-two count (no division). */
static inline unsigned bank_of(uint64_t w, unsigned banks)
{
    return (unsigned)((banks & (banks - 1)) ? w % banks : w & (banks - 1)) % MAX_BANKS;
}

/* Bank b is asked for word w: 0 if it already gives another word. */
static inline int ask(uint64_t first[MAX_BANKS], uint64_t *used, unsigned b, uint64_t w)
{
    if (!(*used >> b & 1)) {
        *used |= (uint64_t)1 << b;
        first[b] = w;
        return 1;
    }
    return first[b] == w;
}

/* Whether no bank is asked for two distinct words.  The loop is the
 * cost of nearly every shared access, so the usual case (one word per
 * lane, a power-of-two bank count) has its own. */
static int conflict_free(const uint64_t addr[32], uint32_t active,
                         unsigned words_per_lane, unsigned banks)
{
    uint64_t first[MAX_BANKS]; /* bank b's word, valid where `used` has b */
    uint64_t used = 0;
    if (words_per_lane == 1 && !(banks & (banks - 1)) && banks <= MAX_BANKS) {
        uint64_t mask = banks - 1;
        for (uint32_t m = active; m; m &= m - 1) {
            uint64_t w = addr[__builtin_ctz(m)] >> 2;
            if (!ask(first, &used, (unsigned)(w & mask), w))
                return 0;
        }
        return 1;
    }
    for (uint32_t m = active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (unsigned k = 0; k < words_per_lane; k++) {
            uint64_t w = addr[l] / 4 + k;
            if (!ask(first, &used, bank_of(w, banks), w))
                return 0;
        }
    }
    return 1;
}

unsigned smem_bank_cycles(const uint64_t addr[32], uint32_t active,
                          unsigned bytes, unsigned banks)
{
    unsigned words_per_lane = bytes > 4 ? (bytes + 3) / 4 : 1;
    if (words_per_lane > 4)
        words_per_lane = 4;
    if (!active)
        return 0;
    if (conflict_free(addr, active, words_per_lane, banks))
        return 1;
    uint64_t words[MAX_WORDS];     /* the distinct words, in order seen */
    uint8_t slot[1u << SLOT_BITS]; /* 1 + the word's index, or 0: free */
    uint8_t count[MAX_BANKS];
    unsigned nwords = 0, worst = 0;
    memset(slot, 0, sizeof slot);
    memset(count, 0, sizeof count);
    for (uint32_t m = active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (unsigned k = 0; k < words_per_lane; k++) {
            uint64_t w = addr[l] / 4 + k;
            unsigned h = (unsigned)((w * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - SLOT_BITS));
            while (slot[h] && words[slot[h] - 1] != w)
                h = (h + 1) & ((1u << SLOT_BITS) - 1);
            if (slot[h])
                continue; /* seen: a broadcast */
            words[nwords] = w;
            slot[h] = (uint8_t)++nwords;
            unsigned b = bank_of(w, banks);
            if (++count[b] > worst)
                worst = count[b];
        }
    }
    return worst;
}
