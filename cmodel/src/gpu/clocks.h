/* clocks.h: the GPU's clock domains (core, interconnect, L2, DRAM), each
 * with its own frequency.
 *
 * Domain d's k-th edge is at time k / f_d.  clocks_step() advances to the
 * earliest next edge of any domain and returns the set of domains whose
 * edge falls exactly then (ties tick together).  Times are compared
 * exactly (k_a * f_b against k_b * f_a in integers), so any set of
 * frequencies gives the same sequence on every machine.
 *
 * The sequence repeats every 1/g us, g the frequencies' greatest common
 * divisor (then every domain has an edge at once, as at time 0).  When
 * one such period has at most CLK_PATTERN_MAX steps, clocks_init records
 * it and clocks_step replays it (a table look-up per step instead of
 * the comparisons); otherwise it compares each time.  Both give the same
 * sequence. */
#ifndef GPU_CLOCKS_H
#define GPU_CLOCKS_H

#include <stdint.h>

enum { CLK_CORE, CLK_ICNT, CLK_L2, CLK_DRAM, CLK_NDOMAINS };

enum { CLK_PATTERN_MAX = 1024 };

typedef struct clocks {
    uint64_t mhz[CLK_NDOMAINS];
    uint64_t ticks[CLK_NDOMAINS]; /* edges taken so far */
    unsigned pattern_len;      /* steps of one period, or 0: compare */
    unsigned pattern_pos;      /* the next step's index */
    uint8_t pattern[CLK_PATTERN_MAX]; /* each step's set of domains */
} clocks_t;

/* NULL, or what is wrong (a frequency of 0 or above 100 GHz). */
const char *clocks_init(clocks_t *c, const uint64_t mhz[CLK_NDOMAINS]);

/* Advances to the next edge: bit d set when domain d ticks. */
unsigned clocks_step(clocks_t *c);

/* From just after a core edge (or the start), advances through the next n
 * core edges and every edge of the other domains up to the last of them,
 * ending just after it: the state n rounds of "clocks_step until the core
 * ticks" leave, without visiting each edge (whole periods of the pattern
 * at once; without a pattern, domain d has then taken
 * floor(K * f_d / f_core) edges, K the core's).  For the idle-cycle skip,
 * where no domain has work on the edges passed (gpu/timing.c). */
void clocks_skip_core(clocks_t *c, uint64_t n);

/* The core cycle in whose pass domain d's cycle k (its edge k + 1, at
 * (k + 1) / f_d) is taken: the first core cycle c whose edge, at
 * (c + 1) / f_core, is not before it (edges that fall together: memory
 * first), ceil((k + 1) f_core / f_d) - 1.  UINT64_MAX for k UINT64_MAX or
 * beyond the range. */
uint64_t clocks_core_pass(const clocks_t *c, int d, uint64_t k);

#endif
