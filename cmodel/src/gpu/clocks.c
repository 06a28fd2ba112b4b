/* clocks.c: exact multi-frequency edge ordering (clocks.h). */
#include <stddef.h>

#include "gpu/clocks.h"

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static unsigned compare_step(clocks_t *c);

/* One period's steps, taken by comparison from time 0 and recorded, if
 * it is short enough; the ticks return to 0 afterwards. */
static void record_pattern(clocks_t *c)
{
    uint64_t g = c->mhz[0];
    for (int d = 1; d < CLK_NDOMAINS; d++)
        g = gcd(g, c->mhz[d]);
    uint64_t edges = 0; /* an upper bound of the period's steps */
    for (int d = 0; d < CLK_NDOMAINS; d++)
        edges += c->mhz[d] / g;
    if (edges > CLK_PATTERN_MAX)
        return;
    unsigned n = 0;
    do
        c->pattern[n++] = (uint8_t)compare_step(c);
    while (c->ticks[CLK_CORE] < c->mhz[CLK_CORE] / g);
    /* the period ends at 1/g us, where every domain has an edge */
    c->pattern_len = n;
    for (int d = 0; d < CLK_NDOMAINS; d++)
        c->ticks[d] = 0;
}

const char *clocks_init(clocks_t *c, const uint64_t mhz[CLK_NDOMAINS])
{
    for (int d = 0; d < CLK_NDOMAINS; d++) {
        if (mhz[d] == 0 || mhz[d] > 100000)
            return "clock frequencies must be in 1..100000 MHz";
        c->mhz[d] = mhz[d];
        c->ticks[d] = 0;
    }
    c->pattern_len = c->pattern_pos = 0;
    record_pattern(c);
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

static unsigned compare_step(clocks_t *c)
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

unsigned clocks_step(clocks_t *c)
{
    if (!c->pattern_len)
        return compare_step(c);
    unsigned set = c->pattern[c->pattern_pos];
    if (++c->pattern_pos == c->pattern_len)
        c->pattern_pos = 0;
    for (int d = 0; d < CLK_NDOMAINS; d++)
        c->ticks[d] += set >> d & 1;
    return set;
}

uint64_t clocks_core_pass(const clocks_t *c, int d, uint64_t k)
{
    if (k == UINT64_MAX)
        return UINT64_MAX;
    unsigned __int128 num = (unsigned __int128)(k + 1) * c->mhz[CLK_CORE];
    unsigned __int128 q = (num + c->mhz[d] - 1) / c->mhz[d];
    return q - 1 >= UINT64_MAX ? UINT64_MAX : (uint64_t)(q - 1);
}

void clocks_skip_core(clocks_t *c, uint64_t n)
{
    if (!c->pattern_len) {
        uint64_t k = c->ticks[CLK_CORE] + n;
        for (int d = 0; d < CLK_NDOMAINS; d++)
            c->ticks[d] = (uint64_t)((unsigned __int128)k * c->mhz[d] /
                                     c->mhz[CLK_CORE]);
        return;
    }
    /* to the end of the current period (its last step has every domain) */
    while (n && c->pattern_pos)
        n -= clocks_step(c) >> CLK_CORE & 1;
    uint64_t g = c->mhz[0];
    for (int d = 1; d < CLK_NDOMAINS; d++)
        g = gcd(g, c->mhz[d]);
    uint64_t per = c->mhz[CLK_CORE] / g, periods = n / per;
    for (int d = 0; d < CLK_NDOMAINS; d++)
        c->ticks[d] += periods * (c->mhz[d] / g);
    n -= periods * per;
    while (n)
        n -= clocks_step(c) >> CLK_CORE & 1;
}
