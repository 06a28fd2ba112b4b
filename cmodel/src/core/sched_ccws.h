/* sched_ccws.h: what the CCWS policy (sched_ccws.c) shows beyond the
 * sched_t interface, for tests and reports. */
#ifndef CORE_SCHED_CCWS_H
#define CORE_SCHED_CCWS_H

#include "core/sched.h"

/* Local slot's lost-locality score, as of the last pick (s runs ccws). */
uint64_t sched_ccws_score(const sched_t *s, unsigned slot);

/* Tags in local slot's victim tag array, and the victim-tag hits so far. */
unsigned sched_ccws_vta_count(const sched_t *s, unsigned slot);
uint64_t sched_ccws_hits(const sched_t *s);

#endif
