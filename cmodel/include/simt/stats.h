/* stats.h: statistics a GPU accumulates.  Names are stable; docs/stats.md
 * documents each.  Same inputs and configuration give identical values. */
#ifndef SIMT_STATS_H
#define SIMT_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct simt_stats {
#define X(name, doc) uint64_t name;
#include "simt/stats_fields.def"
#undef X
} simt_stats_t;

/* Each field's name, in print order (for JSON and the text summary). */
extern const char *const simt_stats_names[];
extern const size_t simt_stats_count;

/* Field i of s, in the order of simt_stats_names. */
uint64_t simt_stats_field(const simt_stats_t *s, size_t i);

void simt_stats_print(const simt_stats_t *s, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
