/* smem_banks.c: the conflict degree of a warp's scratchpad access.
 *
 * Words are grouped by bank as they come, each bank's list checked for
 * the word before it is added (a broadcast costs nothing): the common
 * access spreads over the banks, so each check looks at a word or two
 * instead of every word the warp touched. */
#include "core/smem_banks.h"

#define MAX_WORDS (32 * 4) /* 32 lanes x up to 4 words (16 bytes) */
#define MAX_BANKS 64       /* gpgpu_shmem_num_banks' upper bound */

unsigned smem_bank_cycles(const uint64_t addr[32], uint32_t active,
                          unsigned bytes, unsigned banks)
{
    uint64_t words[MAX_WORDS];     /* distinct words, chained per bank */
    uint8_t next[MAX_WORDS];       /* the bank's previous word, or 0xff */
    uint8_t head[MAX_BANKS];       /* each bank's last word, or 0xff */
    uint8_t count[MAX_BANKS] = { 0 };
    unsigned nwords = 0, worst = 0;
    unsigned words_per_lane = bytes > 4 ? (bytes + 3) / 4 : 1;
    for (unsigned b = 0; b < banks && b < MAX_BANKS; b++)
        head[b] = 0xff;
    for (uint32_t m = active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (unsigned k = 0; k < words_per_lane && k < 4; k++) {
            uint64_t w = addr[l] / 4 + k;
            unsigned b = (unsigned)(w % banks);
            unsigned i = head[b];
            while (i != 0xff && words[i] != w)
                i = next[i];
            if (i != 0xff)
                continue;
            words[nwords] = w;
            next[nwords] = head[b];
            head[b] = (uint8_t)nwords++;
            if (++count[b] > worst)
                worst = count[b];
        }
    }
    return worst;
}
