/* smem_banks.c: the conflict degree of a warp's scratchpad access. */
#include "core/smem_banks.h"

#define MAX_WORDS (32 * 4) /* 32 lanes x up to 4 words (16 bytes) */

unsigned smem_bank_cycles(const uint64_t addr[32], uint32_t active,
                          unsigned bytes, unsigned banks)
{
    uint64_t words[MAX_WORDS];
    unsigned nwords = 0;
    unsigned words_per_lane = bytes > 4 ? (bytes + 3) / 4 : 1;
    for (unsigned l = 0; l < 32; l++) {
        if (!(active >> l & 1))
            continue;
        for (unsigned k = 0; k < words_per_lane && k < 4; k++) {
            uint64_t w = addr[l] / 4 + k;
            unsigned i = 0;
            while (i < nwords && words[i] != w) /* a broadcast costs nothing */
                i++;
            if (i == nwords)
                words[nwords++] = w;
        }
    }
    unsigned worst = 0;
    for (unsigned i = 0; i < nwords; i++) {
        unsigned bank = (unsigned)(words[i] % banks), same = 0;
        for (unsigned j = 0; j < nwords; j++)
            same += (unsigned)(words[j] % banks) == bank;
        if (same > worst)
            worst = same;
    }
    return worst;
}
