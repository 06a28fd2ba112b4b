/* fill_queue.h: lines on their way to a cache from a memory of fixed
 * latency, in arrival order.  A miss takes an MSHR, so at most one line
 * per MSHR is on its way: a ring of the cache's MSHR count never
 * overflows. */
#ifndef MEM_FILL_QUEUE_H
#define MEM_FILL_QUEUE_H

#include <stdint.h>
#include <stdlib.h>

#include "base/ring.h"

typedef struct fill {
    uint64_t line, ready;      /* the line, and the cycle it arrives */
} fill_t;

typedef struct fill_queue {
    fill_t *ring;
    unsigned head, count, cap;
} fill_queue_t;

/* 0, or -1 when out of memory. */
static inline int fill_queue_init(fill_queue_t *q, unsigned cap)
{
    *q = (fill_queue_t){ .ring = calloc(cap ? cap : 1, sizeof(fill_t)), .cap = cap };
    return q->ring ? 0 : -1;
}

static inline void fill_queue_free(fill_queue_t *q)
{
    free(q->ring);
    *q = (fill_queue_t){ 0 };
}

static inline void fill_queue_push(fill_queue_t *q, uint64_t line, uint64_t ready)
{
    q->ring[ring_slot(q->head, q->count++, q->cap)] = (fill_t){ line, ready };
}

/* The oldest line if it has arrived by `now` (taken): 1, else 0. */
static inline int fill_queue_pop(fill_queue_t *q, uint64_t now, uint64_t *line)
{
    if (!q->count || q->ring[q->head].ready > now)
        return 0;
    *line = q->ring[q->head].line;
    q->head = ring_next(q->head, q->cap);
    q->count--;
    return 1;
}

#endif
