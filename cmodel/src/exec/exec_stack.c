/* exec_stack.c: recursion.  The model gives every function one layout of
 * registers and local frame per thread (program.c), so a function that
 * can call itself, directly or through others (fsave.recursive), saves
 * what its activation owns on the thread's stack when it is entered and
 * restores it when it returns: the slots then hold the outer activation's
 * values again, as they were at its call.  Records are pushed and popped
 * per thread, so lanes that recurse to different depths keep their own.
 *
 * A record: the value slots (8 bytes each), the predicates (one byte
 * each) and the frame bytes.  Past EXEC_STACK_LIMIT bytes a thread's
 * stack overflows: a fault naming the function and the depth. */
#include <stdlib.h>
#include <string.h>

#include "exec/dispatch.h"
#include "exec/lanes.h"

static uint32_t record_bytes(const exec_fsave_t *s)
{
    return s->vcount * 8u + s->pcount + s->frame_bytes;
}

int exec_stack_push(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                    uint32_t func, uint32_t m)
{
    cta_t *c = w->cta;
    const exec_program_t *p = x->l->prog;
    const exec_fsave_t *s = &p->fsave[func];
    uint32_t rec = record_bytes(s);
    if (!c->threads.stacks) {
        c->threads.stacks = calloc(c->nthreads, sizeof *c->threads.stacks);
        if (!c->threads.stacks) {
            exec_fault(x, w, ei, m, "out of host memory for thread stacks");
            return -1;
        }
    }
    FOR_LANES(m, l) {
        uint32_t t = w->thread[l];
        exec_tstack_t *st = &c->threads.stacks[t];
        if (st->len + rec > EXEC_STACK_LIMIT) {
            exec_fault(x, w, ei, 1u << l, "stack overflow: entering '%s' "
                       "again needs %u more bytes, past the %u-byte stack of "
                       "thread %u (%u activations deep): runaway recursion?",
                       p->mod->funcs[func].name, rec, EXEC_STACK_LIMIT, t,
                       st->len / (rec ? rec : 1));
            return -1;
        }
        if (st->len + rec > st->cap) {
            uint32_t cap = st->cap ? st->cap : 1024;
            while (cap < st->len + rec)
                cap *= 2;
            uint8_t *d = realloc(st->data, cap);
            if (!d) {
                exec_fault(x, w, ei, 1u << l, "out of host memory for the "
                           "stack of thread %u", t);
                return -1;
            }
            st->data = d;
            st->cap = cap;
        }
        uint8_t *r = st->data + st->len;
        for (uint32_t v = 0; v < s->vcount; v++, r += 8)
            memcpy(r, exec_thread_reg(c, t, s->vfirst + v), 8);
        for (uint32_t q = 0; q < s->pcount; q++)
            *r++ = (uint8_t)(c->threads.preds[(size_t)t / WARP_SIZE *
                                              p->npreds + s->pfirst + q] >>
                             (t % WARP_SIZE) & 1);
        memcpy(r, exec_thread_local(c, t) + s->frame, s->frame_bytes);
        st->len += rec;
    }
    return 0;
}

void exec_stack_pop(exec_ctx_t *x, warp_t *w, uint32_t func, uint32_t m)
{
    cta_t *c = w->cta;
    const exec_program_t *p = x->l->prog;
    const exec_fsave_t *s = &p->fsave[func];
    uint32_t rec = record_bytes(s);
    FOR_LANES(m, l) {
        uint32_t t = w->thread[l];
        exec_tstack_t *st = &c->threads.stacks[t];
        st->len -= rec;
        const uint8_t *r = st->data + st->len;
        for (uint32_t v = 0; v < s->vcount; v++, r += 8)
            memcpy(exec_thread_reg(c, t, s->vfirst + v), r, 8);
        for (uint32_t q = 0; q < s->pcount; q++)
            exec_thread_set_pred(c, t, s->pfirst + q, *r++);
        memcpy(exec_thread_local(c, t) + s->frame, r, s->frame_bytes);
    }
}
