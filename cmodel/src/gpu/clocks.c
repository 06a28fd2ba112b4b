/* clocks.c: exact multi-frequency edge ordering (clocks.h). */
#include <stddef.h>

#include "gpu/clocks.h"

const char *clocks_init(clocks_t *c, const uint64_t mhz[CLK_NDOMAINS])
{
    for (int d = 0; d < CLK_NDOMAINS; d++) {
        if (mhz[d] == 0 || mhz[d] > 100000)
            return "clock frequencies must be in 1..100000 MHz";
        c->mhz[d] = mhz[d];
        c->ticks[d] = 0;
    }
    return NULL;
}

/* Compares the next edges of a and b: <0 when a's comes first, 0 when
 * together.  Edge k+1 of a is at (k+1)/f_a. */
static int cmp_next(const clocks_t *c, int a, int b)
{
    unsigned __int128 ta = (unsigned __int128)(c->ticks[a] + 1) * c->mhz[b];
    unsigned __int128 tb = (unsigned __int128)(c->ticks[b] + 1) * c->mhz[a];
    return ta < tb ? -1 : ta > tb;
}

unsigned clocks_step(clocks_t *c)
{
    int first = 0;
    for (int d = 1; d < CLK_NDOMAINS; d++)
        if (cmp_next(c, d, first) < 0)
            first = d;
    unsigned set = 0;
    for (int d = 0; d < CLK_NDOMAINS; d++)
        if (cmp_next(c, d, first) == 0)
            set |= 1u << d;
    for (int d = 0; d < CLK_NDOMAINS; d++)
        if (set >> d & 1)
            c->ticks[d]++;
    return set;
}
