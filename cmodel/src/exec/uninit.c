/* uninit.c: the uninitialised-register check (uninit.h). */
#include "exec/uninit.h"

/* The shadow word of home warp hw for ref r. */
static uint32_t *shadow(const cta_t *c, uint32_t hw, const exec_regref_t *r)
{
    const exec_program_t *p = c->launch->prog;
    return &c->written[(size_t)hw * (p->nslots + p->npreds) +
                       (r->pred ? p->nslots + r->slot : r->slot)];
}

/* The lanes of `lanes` whose threads have not written r. */
static uint32_t unwritten(const warp_t *w, const exec_regref_t *r, uint32_t lanes)
{
    if (w->home != EXEC_NO_THREAD) /* lane l is thread home * 32 + l */
        return lanes & ~*shadow(w->cta, w->home, r);
    uint32_t bad = 0;
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        uint32_t t = w->thread[l];
        if (lanes >> l & 1 && !(*shadow(w->cta, t / WARP_SIZE, r) >> (t % WARP_SIZE) & 1))
            bad |= 1u << l;
    }
    return bad;
}

int uninit_check(exec_ctx_t *x, const warp_t *w, const exec_insn_t *ei,
                 uint32_t active, uint32_t m)
{
    const exec_program_t *p = x->l->prog;
    for (uint32_t i = 0; i < ei->nuses; i++) {
        const exec_regref_t *r = &p->refs[ei->ref_first + i];
        int guard = r->pred && r->slot == ei->guard;
        uint32_t bad = unwritten(w, r, guard ? active : m);
        if (!bad)
            continue;
        unsigned lane = (unsigned)__builtin_ctz(bad);
        uint32_t t = w->thread[lane];
        const simt_dim3_t *b = &x->l->block;
        const ptx_function_t *fn = &p->mod->funcs[ei->func];
        return exec_fault(x, w, ei, bad, "uninitialised register: thread (%u,%u,%u) "
                          "(lane %u%s) reads %s, which no path it took has written "
                          "(in function %s)", t % b->x, t / b->x % b->y,
                          t / (b->x * b->y), lane,
                          __builtin_popcount(bad) > 1 ? ", and the other lanes shown" : "",
                          fn->regs[r->reg].name, fn->name);
    }
    return SIMT_OK;
}

void uninit_mark(const warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const exec_program_t *p = w->cta->launch->prog;
    for (uint32_t i = 0; i < ei->ndefs; i++) {
        const exec_regref_t *r = &p->refs[ei->ref_first + ei->nuses + i];
        if (w->home != EXEC_NO_THREAD) {
            *shadow(w->cta, w->home, r) |= m;
            continue;
        }
        for (uint32_t l = 0; l < WARP_SIZE; l++) {
            uint32_t t = w->thread[l];
            if (m >> l & 1)
                *shadow(w->cta, t / WARP_SIZE, r) |= 1u << (t % WARP_SIZE);
        }
    }
}
