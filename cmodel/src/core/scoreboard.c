/* scoreboard.c: register reservation bitsets per warp. */
#include <stdlib.h>
#include <string.h>

#include "core/scoreboard.h"

int scoreboard_init(scoreboard_t *sb, unsigned nwarps, unsigned nregs)
{
    *sb = (scoreboard_t){ .nwarps = nwarps, .nregs = nregs,
                          .words = (nregs + 63) / 64 };
    size_t bits = (size_t)nwarps * (sb->words ? sb->words : 1);
    sb->reserved = calloc(bits, sizeof *sb->reserved);
    sb->long_lat = calloc(bits, sizeof *sb->long_lat);
    sb->nlong = calloc(nwarps ? nwarps : 1, sizeof *sb->nlong);
    if (!sb->reserved || !sb->long_lat || !sb->nlong) {
        scoreboard_free(sb);
        return -1;
    }
    return 0;
}

void scoreboard_free(scoreboard_t *sb)
{
    free(sb->reserved);
    free(sb->long_lat);
    free(sb->nlong);
    *sb = (scoreboard_t){ 0 };
}

static uint64_t *word_of(uint64_t *base, const scoreboard_t *sb,
                         unsigned warp, unsigned reg)
{
    return &base[(size_t)warp * sb->words + reg / 64];
}

int scoreboard_reserve(scoreboard_t *sb, unsigned warp, unsigned reg,
                       int long_latency)
{
    if (warp >= sb->nwarps || reg >= sb->nregs)
        return -1;
    uint64_t bit = 1ull << (reg % 64);
    uint64_t *w = word_of(sb->reserved, sb, warp, reg);
    if (*w & bit)
        return -1;
    *w |= bit;
    if (long_latency) {
        *word_of(sb->long_lat, sb, warp, reg) |= bit;
        sb->nlong[warp]++;
    }
    return 0;
}

int scoreboard_release(scoreboard_t *sb, unsigned warp, unsigned reg)
{
    if (warp >= sb->nwarps || reg >= sb->nregs)
        return -1;
    uint64_t bit = 1ull << (reg % 64);
    uint64_t *w = word_of(sb->reserved, sb, warp, reg);
    if (!(*w & bit))
        return -1;
    *w &= ~bit;
    uint64_t *l = word_of(sb->long_lat, sb, warp, reg);
    if (*l & bit) {
        *l &= ~bit;
        sb->nlong[warp]--;
    }
    return 0;
}

int scoreboard_collides(const scoreboard_t *sb, unsigned warp,
                        const uint32_t *regs, unsigned n)
{
    const uint64_t *w = &sb->reserved[(size_t)warp * sb->words];
    for (unsigned i = 0; i < n; i++)
        if (regs[i] < sb->nregs && (w[regs[i] / 64] >> (regs[i] % 64) & 1))
            return 1;
    return 0;
}

void scoreboard_clear_warp(scoreboard_t *sb, unsigned warp)
{
    memset(&sb->reserved[(size_t)warp * sb->words], 0,
           sb->words * sizeof *sb->reserved);
    memset(&sb->long_lat[(size_t)warp * sb->words], 0,
           sb->words * sizeof *sb->long_lat);
    sb->nlong[warp] = 0;
}
