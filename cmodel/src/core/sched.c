/* sched.c: the policy table and what every policy shares (sched.h). */
#include <stdlib.h>

#include "core/sched.h"

static const struct {
    const char *name;
    const sched_ops_t *ops;
} sched_policies[SCHED_NKINDS] = {
#define SCHED_POLICY(id, name, ops) [SCHED_##id] = { #name, &ops },
#include "core/sched_policies.def"
#undef SCHED_POLICY
};

const char *sched_init(sched_t *s, const sched_params_t *p, uint64_t now)
{
    *s = (sched_t){ .p = *p };
    if ((unsigned)p->kind >= SCHED_NKINDS || p->nslots == 0)
        return "bad scheduler kind or no warp slots";
    if (p->nslots > SCHED_MAX_SLOTS)
        return "a warp scheduler holds at most 64 warp slots "
               "(raise gpgpu_num_sched_per_core)";
    s->ops = sched_policies[p->kind].ops;
    const char *why = s->ops->init(s, now);
    if (why)
        sched_free(s);
    return why;
}

void sched_free(sched_t *s)
{
    if (s->ops && s->ops->free)
        s->ops->free(s);
    free(s->state);
    *s = (sched_t){ 0 };
}

const char *sched_kind_name(sched_kind_t k)
{
    return (unsigned)k < SCHED_NKINDS ? sched_policies[k].name : "?";
}
