/* sched_ccws.c: Cache-Conscious Wavefront Scheduling (sched.h), after
 * Rogers, O'Connor and Aamodt, MICRO 2012, as reference 004 §2.1 and
 * docs/cta-scheduling.md ("TLV, CCWS, cycle breakdown") state it.
 *
 * Per local slot (warp): a victim tag array (VTA) of ccws_vta_entries line
 * addresses, fully associative, LRU; and a lost-locality score (LLS),
 * ccws_base_score when the warp arrives.  Per scheduler: the VTA hits and
 * the instructions issued since the kernel started on the SM.
 *
 * Events (the L1 data cache's reports through sched_l1_event):
 *   EVICT(w, line)  a line that warp w brought in was evicted: `line`
 *                   enters w's VTA (replacing its least recently inserted
 *                   tag when full);
 *   MISS(w, line)   w's load missed: if `line` is in w's VTA, that is lost
 *                   intra-warp locality: the tag leaves the VTA, hits += 1
 *                   and w's score rises by
 *                     LLDS = hits * ccws_kthrottle * cutoff / max(issued, 1)
 *                   (integer division), cutoff = valid warps x base score
 *                   (the valid warps of the last pick; before any pick,
 *                   every slot).
 * Decay: a score above the base falls by one point every
 * ccws_decay_cycles cycles, never below the base; applied at each pick for
 * the cycles since the last (the issue stage may skip cycles with nothing
 * to do; the result is the same as a per-cycle decrement for every score
 * that did not rise in between).
 * Throttle, at each pick: the valid warps sorted by score, highest first
 * (ties: older first); walking that order and summing the scores, a warp
 * whose running sum exceeds the cutoff may not issue an instruction that
 * may reach the L1 data cache (sched_slot_t.l1d).  The first warp in the
 * order is never throttled (so some warp can always issue a load).  With
 * every score at the base the sum is exactly the cutoff: nothing is
 * throttled and the policy is GTO.
 * Pick: GTO over the ready warps that are not throttled for their next
 * instruction: the warp that issued last if it is among them, else the
 * oldest (smallest age). */
#include <stdlib.h>

#include "core/sched_ccws.h"

typedef struct ccws {
    unsigned entries;          /* VTA entries per warp */
    uint64_t *vta;             /* nslots x entries line addresses */
    uint8_t *vta_n;            /* per slot: tags held (oldest first) */
    uint64_t score[SCHED_MAX_SLOTS];
    uint64_t hits, issued;
    uint64_t decayed_to;       /* decay applied up to this cycle */
    uint64_t cutoff;           /* the last pick's cutoff (0: none yet) */
    int last;                  /* slot that issued last, or -1 */
} ccws_t;

static const char *ccws_init(sched_t *s, uint64_t now)
{
    if (s->p.ccws_vta_entries == 0 || s->p.ccws_vta_entries > 255 ||
        s->p.ccws_base_score == 0 || s->p.ccws_decay_cycles == 0)
        return "ccws needs 1..255 victim tags per warp, a base score and "
               "a decay period of at least 1";
    ccws_t *c = calloc(1, sizeof *c);
    if (!c)
        return "out of memory";
    c->entries = s->p.ccws_vta_entries;
    c->vta = calloc((size_t)s->p.nslots * c->entries, sizeof *c->vta);
    c->vta_n = calloc(s->p.nslots, 1);
    s->state = c;
    if (!c->vta || !c->vta_n)
        return "out of memory"; /* sched_init frees what was allocated */
    c->last = -1;
    c->decayed_to = now;
    for (unsigned i = 0; i < SCHED_MAX_SLOTS; i++)
        c->score[i] = s->p.ccws_base_score;
    return NULL;
}

static void ccws_free(sched_t *s)
{
    ccws_t *c = s->state;
    if (c) {
        free(c->vta);
        free(c->vta_n);
    }
}

static int ccws_reset(sched_t *s, uint64_t now)
{
    ccws_t *c = s->state;
    c->hits = c->issued = c->cutoff = 0;
    c->last = -1;
    c->decayed_to = now;
    for (unsigned i = 0; i < s->p.nslots; i++) {
        c->score[i] = s->p.ccws_base_score;
        c->vta_n[i] = 0;
    }
    return 0;
}

/* A new warp in `slot`: a fresh score and an empty VTA. */
static void ccws_alloc(sched_t *s, unsigned slot)
{
    ccws_t *c = s->state;
    c->score[slot] = s->p.ccws_base_score;
    c->vta_n[slot] = 0;
}

static void ccws_finished(sched_t *s, unsigned slot) { (void)s; (void)slot; }

/* Index of `line` in slot's VTA, or -1. */
static int vta_find(const ccws_t *c, unsigned slot, uint64_t line)
{
    const uint64_t *v = c->vta + (size_t)slot * c->entries;
    for (unsigned k = 0; k < c->vta_n[slot]; k++)
        if (v[k] == line)
            return (int)k;
    return -1;
}

static void vta_remove(ccws_t *c, unsigned slot, unsigned k)
{
    uint64_t *v = c->vta + (size_t)slot * c->entries;
    for (unsigned j = k + 1; j < c->vta_n[slot]; j++)
        v[j - 1] = v[j];
    c->vta_n[slot]--;
}

static void ccws_l1_event(sched_t *s, const sched_l1_event_t *e)
{
    ccws_t *c = s->state;
    unsigned w = e->slot;
    if (w >= s->p.nslots)
        return;
    int k = vta_find(c, w, e->line);
    if (e->kind == SCHED_L1_EVICT) {
        if (k >= 0) /* already there: it becomes the newest */
            vta_remove(c, w, (unsigned)k);
        else if (c->vta_n[w] == c->entries)
            vta_remove(c, w, 0); /* the oldest tag makes room */
        c->vta[(size_t)w * c->entries + c->vta_n[w]++] = e->line;
        return;
    }
    if (k < 0)
        return;
    vta_remove(c, w, (unsigned)k);
    c->hits++;
    uint64_t cutoff = c->cutoff ? c->cutoff
                                : (uint64_t)s->p.nslots * s->p.ccws_base_score;
    uint64_t issued = c->issued ? c->issued : 1;
    c->score[w] += c->hits * s->p.ccws_kthrottle * cutoff / issued;
}

/* Scores fall toward the base for the cycles up to `now`. */
static void ccws_decay(sched_t *s, uint64_t now)
{
    ccws_t *c = s->state;
    if (now <= c->decayed_to)
        return;
    uint64_t pts = (now - c->decayed_to) / s->p.ccws_decay_cycles;
    if (!pts)
        return;
    c->decayed_to += pts * s->p.ccws_decay_cycles;
    uint64_t base = s->p.ccws_base_score;
    for (unsigned i = 0; i < s->p.nslots; i++)
        if (c->score[i] > base)
            c->score[i] = c->score[i] - base > pts ? c->score[i] - pts : base;
}

/* The valid slots that may not issue an L1 data access this cycle. */
static uint64_t ccws_throttled(const sched_t *s, const sched_view_t *v)
{
    ccws_t *c = s->state;
    uint64_t base = s->p.ccws_base_score, raised = 0;
    unsigned n = 0;
    for (uint64_t m = v->valid; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        n++;
        raised |= (uint64_t)(c->score[i] > base) << i;
    }
    c->cutoff = (uint64_t)n * base;
    if (!raised)
        return 0; /* every score at the base: the sum is the cutoff */
    uint64_t cutoff = (uint64_t)n * base, sum = 0, left = v->valid, out = 0;
    for (int first = 1; left; first = 0) {
        int best = -1; /* the highest score, then the oldest */
        for (uint64_t m = left; m; m &= m - 1) {
            int i = __builtin_ctzll(m);
            if (best < 0 || c->score[i] > c->score[best] ||
                (c->score[i] == c->score[best] &&
                 v->slot[i].age < v->slot[best].age))
                best = i;
        }
        left &= ~((uint64_t)1 << best);
        sum += c->score[best];
        if (!first && sum > cutoff)
            out |= (uint64_t)1 << best;
    }
    return out;
}

static int ccws_pick(sched_t *s, const sched_view_t *v, uint64_t now)
{
    ccws_t *c = s->state;
    ccws_decay(s, now);
    uint64_t cand = v->ready;
    uint64_t thr = ccws_throttled(s, v) & cand;
    for (; thr; thr &= thr - 1) {
        int i = __builtin_ctzll(thr);
        if (v->slot[i].l1d)
            cand &= ~((uint64_t)1 << i);
    }
    if (c->last >= 0 && (cand >> c->last & 1))
        return c->last;
    int best = -1;
    for (; cand; cand &= cand - 1) {
        int i = __builtin_ctzll(cand);
        if (best < 0 || v->slot[i].age < v->slot[best].age)
            best = i;
    }
    return best;
}

static void ccws_issued(sched_t *s, int slot)
{
    ccws_t *c = s->state;
    c->last = slot;
    c->issued++;
}

static int ccws_clock(sched_t *s, uint64_t now) { (void)s; (void)now; return 0; }

const sched_ops_t sched_ccws_ops = {
    .init = ccws_init, .free = ccws_free, .reset = ccws_reset,
    .alloc = ccws_alloc, .finished = ccws_finished, .pick = ccws_pick,
    .issued = ccws_issued, .clock = ccws_clock, .l1_event = ccws_l1_event,
    .timed = 1,
};

uint64_t sched_ccws_score(const sched_t *s, unsigned slot)
{
    return ((const ccws_t *)s->state)->score[slot];
}

unsigned sched_ccws_vta_count(const sched_t *s, unsigned slot)
{
    return ((const ccws_t *)s->state)->vta_n[slot];
}

uint64_t sched_ccws_hits(const sched_t *s)
{
    return ((const ccws_t *)s->state)->hits;
}
