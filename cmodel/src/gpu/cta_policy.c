/* cta_policy.c: CTA placement policies (cta_policy.h). */
#include <stdlib.h>

#include "gpu/cta_policy.h"

int cta_policy_init(cta_policy_t *p, cta_policy_kind_t kind, unsigned clusters,
                    unsigned per_cluster)
{
    *p = (cta_policy_t){ .kind = kind, .clusters = clusters,
                         .per_cluster = per_cluster };
    if ((unsigned)kind >= CTA_POLICY_NKINDS)
        return -1;
    p->rr = calloc(clusters ? clusters : 1, sizeof *p->rr);
    return p->rr ? 0 : -1;
}

void cta_policy_free(cta_policy_t *p)
{
    free(p->rr);
    p->rr = NULL;
}

static int place_rr(cta_policy_t *p, const sm_t *sms, const gpu_kernel_t *ks,
                    unsigned nk, unsigned cluster, unsigned *sm,
                    unsigned *kernel)
{
    for (unsigned i = 0; i < p->per_cluster; i++) {
        unsigned off = (p->rr[cluster] + i) % p->per_cluster;
        unsigned s = cluster * p->per_cluster + off;
        for (unsigned k = 0; k < nk; k++) {
            const gpu_kernel_t *g = &ks[k];
            if (!g->eligible || g->next_cta >= g->nctas ||
                !sm_can_take_cta(&sms[s], &g->k))
                continue;
            *sm = s;
            *kernel = k;
            p->rr[cluster] = (off + 1) % p->per_cluster;
            return 1;
        }
    }
    return 0;
}

int cta_policy_place(cta_policy_t *p, const sm_t *sms, const gpu_kernel_t *ks,
                     unsigned nk, unsigned cluster, unsigned *sm,
                     unsigned *kernel)
{
    switch (p->kind) {
    case CTA_POLICY_RR:
    default:
        return place_rr(p, sms, ks, nk, cluster, sm, kernel);
    }
}
