/* cta_place.c: the shared placement engine of lcs, bcs and lcs_bcs
 * (cta_place.h). */
#include <stdlib.h>
#include <string.h>

#include "gpu/cta_place.h"

void cta_place_free(cta_place_t *e)
{
    free(e->next);
    free(e->blocked);
    free(e->left);
    free(e->placed);
    free(e->cap);
    free(e->paired);
    free(e->ready);
    free(e->units);
    free(e->nunits);
    memset(e, 0, sizeof *e);
}

int cta_place_init(cta_place_t *e, const cta_policy_env_t *env, int pairs)
{
    memset(e, 0, sizeof *e);
    e->env = *env;
    e->pairs = pairs;
    size_t nc = env->clusters ? env->clusters : 1;
    size_t nk = env->nkernels ? env->nkernels : 1;
    size_t ns = (size_t)env->clusters * env->per_cluster;
    size_t slots = env->slots ? env->slots : 1;
    ns = ns ? ns : 1;
    e->next = calloc(nc, sizeof *e->next);
    e->blocked = calloc(nc, sizeof *e->blocked);
    e->left = calloc(nk, sizeof *e->left);
    e->placed = calloc(nk, sizeof *e->placed);
    e->cap = calloc(nk, sizeof *e->cap);
    e->paired = calloc(nk, sizeof *e->paired);
    e->ready = calloc(nk, sizeof *e->ready);
    e->units = calloc(ns * slots, sizeof *e->units);
    e->nunits = calloc(ns, sizeof *e->nunits);
    return e->next && e->blocked && e->left && e->placed && e->cap &&
           e->paired && e->ready && e->units && e->nunits ? 0 : -1;
}

void cta_place_kernel_ready(cta_place_t *e, unsigned kernel, uint64_t ctas)
{
    unsigned i = e->nready;
    while (i > 0 && e->ready[i - 1] > kernel) {
        e->ready[i] = e->ready[i - 1];
        i--;
    }
    e->ready[i] = kernel;
    e->nready++;
    e->left[kernel] = ctas;
    e->placed[kernel] = 0;
    if (e->pairs && e->env.query.kernel) {
        cta_policy_kernel_t info;
        e->env.query.kernel(e->env.query.ctx, kernel, &info);
        /* an SM that can never hold two of its CTAs gets them alone */
        e->paired[kernel] = !(info.block[1] == 1 && info.block[2] == 1) &&
                            info.tmax >= 2;
    }
    memset(e->blocked, 0, e->env.clusters * sizeof *e->blocked);
}

void cta_place_cta_done(cta_place_t *e, unsigned sm, unsigned kernel,
                        uint64_t cta)
{
    e->blocked[sm / e->env.per_cluster] = 0;
    cta_unit_t *u = &e->units[(size_t)sm * e->env.slots];
    unsigned n = e->nunits[sm];
    for (unsigned i = 0; i < n; i++) {
        if (u[i].kernel != kernel || cta < u[i].first ||
            cta >= u[i].first + u[i].n)
            continue;
        if (++u[i].done == u[i].n) {
            u[i] = u[n - 1];
            e->nunits[sm]--;
        }
        return;
    }
}

unsigned cta_place_resident(const cta_place_t *e, unsigned sm, unsigned kernel)
{
    const cta_unit_t *u = &e->units[(size_t)sm * e->env.slots];
    unsigned r = 0;
    for (unsigned i = 0; i < e->nunits[sm]; i++)
        if (u[i].kernel == kernel)
            r += (unsigned)(u[i].n - u[i].done);
    return r;
}

/* Pairs of `kernel` on SM `sm` with one member finished, the other not:
 * the finisher's slot is held empty until its partner finishes. */
static unsigned half_done(const cta_place_t *e, unsigned sm, unsigned kernel)
{
    const cta_unit_t *u = &e->units[(size_t)sm * e->env.slots];
    unsigned h = 0;
    for (unsigned i = 0; i < e->nunits[sm]; i++)
        if (u[i].kernel == kernel && u[i].done)
            h++;
    return h;
}

void cta_place_set_cap(cta_place_t *e, unsigned kernel, uint32_t cap)
{
    e->cap[kernel] = cap;
}

/* How many CTAs of kernel k go to SM s now: 0, 1 or 2.  A paired
 * kernel's half-finished pairs hold their empty slots (delayed refill):
 * they count as resident against the cap and as taken against the SM's
 * room (fits_n asks for them too). */
static unsigned unit_for(const cta_place_t *e, unsigned s, unsigned k)
{
    const cta_policy_query_t *q = &e->env.query;
    if (e->nunits[s] >= e->env.slots)
        return 0;
    unsigned held = e->paired[k] ? half_done(e, s, k) : 0;
    unsigned room = ~0u;
    if (e->cap[k]) {
        unsigned r = cta_place_resident(e, s, k) + held;
        if (r >= e->cap[k])
            return 0;
        room = e->cap[k] - r;
    }
    if (!e->paired[k])
        return q->fits(q->ctx, s, k) ? 1 : 0;
    if (e->left[k] >= 2 && room >= 2 && q->fits_n(q->ctx, s, k, 2 + held))
        return 2;
    /* a cap of 1 leaves no room for pairs: CTAs go alone */
    if ((e->left[k] < 2 || e->cap[k] == 1 ||
         e->env.params.bcs_odd_fill == CTA_BCS_SINGLETON) &&
        (held ? q->fits_n(q->ctx, s, k, 1 + held) : q->fits(q->ctx, s, k)))
        return 1;
    return 0;
}

int cta_place_place(cta_place_t *e, unsigned cluster, unsigned *sm,
                    unsigned *kernel)
{
    if (e->blocked[cluster])
        return 0;
    unsigned per = e->env.per_cluster;
    for (unsigned i = 0; i < per; i++) {
        unsigned off = (e->next[cluster] + i) % per;
        unsigned s = cluster * per + off;
        for (unsigned j = 0; j < e->nready; j++) {
            unsigned k = e->ready[j];
            unsigned n = unit_for(e, s, k);
            if (!n)
                continue;
            *sm = s;
            *kernel = k;
            e->next[cluster] = (off + 1) % per;
            cta_unit_t *u = &e->units[(size_t)s * e->env.slots + e->nunits[s]++];
            *u = (cta_unit_t){ .kernel = k, .first = e->placed[k], .n = (uint8_t)n };
            e->placed[k] += n;
            e->left[k] -= n;
            if (e->left[k] == 0) {
                e->nready--;
                memmove(&e->ready[j], &e->ready[j + 1],
                        (e->nready - j) * sizeof *e->ready);
            }
            return (int)n;
        }
    }
    e->blocked[cluster] = 1;
    return 0;
}
