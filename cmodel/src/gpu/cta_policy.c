/* cta_policy.c: the table of CTA placement policies (cta_policy.h). */
#include <stddef.h>
#include <string.h>

#include "gpu/cta_policy.h"

const char *const cta_policy_names[] = {
#define X(id, name, methods, doc) name,
#include "gpu/cta_policies.def"
#undef X
    NULL
};

static const cta_policy_methods_t *const methods_of[CTA_POLICY_NKINDS] = {
#define X(id, name, methods, doc) &methods,
#include "gpu/cta_policies.def"
#undef X
};

int cta_policy_init(cta_policy_t *p, cta_policy_kind_t kind,
                    const cta_policy_env_t *env)
{
    *p = (cta_policy_t){ 0 };
    if ((unsigned)kind >= CTA_POLICY_NKINDS)
        return -1;
    if (methods_of[kind]->init(&p->state, env) != 0) {
        methods_of[kind]->free(p->state); /* what init had allocated */
        p->state = NULL;
        return -1;
    }
    p->m = methods_of[kind];
    return 0;
}

void cta_policy_free(cta_policy_t *p)
{
    if (p->m)
        p->m->free(p->state);
    *p = (cta_policy_t){ 0 };
}

void cta_ready_insert(unsigned *ready, unsigned *n, unsigned kernel)
{
    unsigned i = *n;
    while (i > 0 && ready[i - 1] > kernel) {
        ready[i] = ready[i - 1];
        i--;
    }
    ready[i] = kernel;
    (*n)++;
}

void cta_ready_remove(unsigned *ready, unsigned *n, unsigned at)
{
    (*n)--;
    memmove(&ready[at], &ready[at + 1], (*n - at) * sizeof *ready);
}
