/* cta_cke.c: the `cke` CTA placement policy (gpu/cta_policy.h): baseline
 * concurrent kernel execution as reference 004 §2.6 decides it
 * (GPGPU-Sim-v3-like; the paper only says kernels run on different cores):
 *  - an SM holds CTAs of one kernel at a time, its owner;
 *  - an SM without an owner is given to the ready kernel (with CTAs left)
 *    that owns the fewest SMs, the lowest launch index on a tie: with two
 *    kernels ready at the start, SMs 0, 1, 2, ... go to A, B, A, ... and
 *    each gets half;
 *  - an SM drains (takes no new CTA, its resident ones run to completion)
 *    when its owner has no CTA left to place, or when another ready kernel
 *    with CTAs left owns two SMs fewer (a kernel that became ready later
 *    gets its share as SMs drain: work-conserving, never preempting); once
 *    empty it goes to the kernel it drained for, else to one as above;
 *  - on its SMs a kernel holds at most its cap (the query cap: its
 *    cke_quota, else T_max), the same quotas mCKE uses (§2.6).
 * Placement per cluster: its SMs round robin after the SM served last.
 *
 * Invariants: owner[s] is NONE or a kernel; res[s] counts the resident
 * CTAs of SM s (all of owner[s], which a draining SM still names); held[k]
 * counts the SMs k owns that are not draining plus the draining SMs
 * promised to it (heir). */
#include <stdlib.h>
#include <string.h>

#include "gpu/cta_policy.h"

#define NONE 0xffffffffu

typedef struct cta_cke {
    cta_policy_env_t env;
    unsigned nsms;
    unsigned *next;           /* per cluster: SM offset to try first */
    uint64_t *left;           /* per kernel: CTAs not yet placed */
    unsigned *cap;            /* per kernel: its cap, asked when ready */
    unsigned *held;           /* per kernel: SMs owned, not draining */
    unsigned *ready;          /* ready kernels with CTAs left, ascending */
    unsigned nready;
    unsigned *owner, *res;    /* per SM */
    unsigned *heir;           /* per SM: whom a draining SM goes to next,
                                 or NONE (decided when it empties) */
    uint8_t *draining;        /* per SM */
} cta_cke_t;

static void cke_free(void *state)
{
    cta_cke_t *c = state;
    if (!c)
        return;
    free(c->next);
    free(c->left);
    free(c->cap);
    free(c->held);
    free(c->ready);
    free(c->owner);
    free(c->res);
    free(c->draining);
    free(c->heir);
    free(c);
}

static int cke_init(void **state, const cta_policy_env_t *env)
{
    cta_cke_t *c = calloc(1, sizeof *c);
    *state = c;
    if (!c)
        return -1;
    c->env = *env;
    c->nsms = env->clusters * env->per_cluster;
    size_t nc = env->clusters ? env->clusters : 1;
    size_t nk = env->nkernels ? env->nkernels : 1;
    size_t ns = c->nsms ? c->nsms : 1;
    c->next = calloc(nc, sizeof *c->next);
    c->left = calloc(nk, sizeof *c->left);
    c->cap = calloc(nk, sizeof *c->cap);
    c->held = calloc(nk, sizeof *c->held);
    c->ready = calloc(nk, sizeof *c->ready);
    c->owner = malloc(ns * sizeof *c->owner);
    c->res = calloc(ns, sizeof *c->res);
    c->draining = calloc(ns, sizeof *c->draining);
    c->heir = malloc(ns * sizeof *c->heir);
    if (!c->next || !c->left || !c->cap || !c->held || !c->ready ||
        !c->owner || !c->res || !c->draining || !c->heir)
        return -1;
    for (unsigned s = 0; s < c->nsms; s++)
        c->owner[s] = NONE;
    return 0;
}

static void cke_kernel_ready(void *state, unsigned kernel, uint64_t ctas)
{
    cta_cke_t *c = state;
    const cta_policy_query_t *q = &c->env.query;
    unsigned i = c->nready;
    while (i > 0 && c->ready[i - 1] > kernel) {
        c->ready[i] = c->ready[i - 1];
        i--;
    }
    c->ready[i] = kernel;
    c->nready++;
    c->left[kernel] = ctas;
    c->cap[kernel] = q->cap(q->ctx, kernel);
}

static void cke_cta_done(void *state, unsigned sm, unsigned kernel,
                         uint64_t cta, uint64_t warp_insns)
{
    (void)cta;
    cta_cke_t *c = state;
    (void)kernel;
    (void)warp_insns;
    c->res[sm]--;
}

/* The ready kernel (with CTAs left) that owns the fewest SMs, the lowest
 * launch index on a tie; NONE when none is ready. */
static unsigned fewest(const cta_cke_t *c)
{
    unsigned k = NONE;
    for (unsigned j = 0; j < c->nready; j++)
        if (k == NONE || c->held[c->ready[j]] < c->held[k])
            k = c->ready[j];
    return k;
}

/* SM s's owner after the drain and hand-over rules; NONE when it takes no
 * CTA now (draining, or no kernel to give it to).  An SM that drains for
 * fairness is promised to the kernel it drains for (heir[s], counted in
 * its held at once, so that one newcomer does not make every SM drain). */
static unsigned settle(cta_cke_t *c, unsigned s)
{
    unsigned k = c->owner[s];
    if (k != NONE && !c->draining[s]) {
        unsigned j = fewest(c);
        if (!c->left[k]) {
            c->draining[s] = 1;
            c->held[k]--;
            c->heir[s] = NONE;
        } else if (j != NONE && c->held[j] + 1 < c->held[k]) {
            c->draining[s] = 1;
            c->held[k]--;
            c->heir[s] = j;
            c->held[j]++;
        }
    }
    if (k != NONE && c->draining[s] && c->res[s] == 0) {
        c->draining[s] = 0;
        c->owner[s] = k = c->heir[s];
        if (k != NONE && !c->left[k]) { /* its heir ran out meanwhile */
            c->held[k]--;
            c->owner[s] = k = NONE;
        }
    }
    if (k == NONE && c->nready) {
        k = fewest(c);
        c->owner[s] = k;
        c->held[k]++;
    }
    return c->draining[s] ? NONE : k;
}

static int cke_place(void *state, unsigned cluster, unsigned *sm,
                     unsigned *kernel)
{
    cta_cke_t *c = state;
    const cta_policy_query_t *q = &c->env.query;
    unsigned per = c->env.per_cluster;
    for (unsigned i = 0; i < per; i++) {
        unsigned off = (c->next[cluster] + i) % per;
        unsigned s = cluster * per + off;
        unsigned k = settle(c, s);
        if (k == NONE || c->res[s] >= c->cap[k] || !q->fits(q->ctx, s, k))
            continue;
        *sm = s;
        *kernel = k;
        c->res[s]++;
        c->next[cluster] = (off + 1) % per;
        if (--c->left[k] == 0) {
            unsigned j = 0;
            while (c->ready[j] != k)
                j++;
            c->nready--;
            memmove(&c->ready[j], &c->ready[j + 1],
                    (c->nready - j) * sizeof *c->ready);
        }
        return 1;
    }
    return 0;
}

const cta_policy_methods_t cta_cke_methods = {
    .init = cke_init,
    .free = cke_free,
    .kernel_ready = cke_kernel_ready,
    .cta_done = cke_cta_done,
    .kernel_done = NULL,
    .cycle = NULL,
    .place = cke_place,
};
