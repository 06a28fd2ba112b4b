/* exec_stack.c: recursion, and the dynamic stack of alloca (at the end).
 *
 * Recursion.  The model gives every function one layout of
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
    if (!rec)
        return 0; /* nothing of the function's lives across the call */
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
        if (s->frame_bytes) /* no local frame: no local memory either */
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
    if (!rec)
        return;
    FOR_LANES(m, l) {
        uint32_t t = w->thread[l];
        exec_tstack_t *st = &c->threads.stacks[t];
        st->len -= rec;
        const uint8_t *r = st->data + st->len;
        for (uint32_t v = 0; v < s->vcount; v++, r += 8)
            memcpy(exec_thread_reg(c, t, s->vfirst + v), r, 8);
        for (uint32_t q = 0; q < s->pcount; q++)
            exec_thread_set_pred(c, t, s->pfirst + q, *r++);
        if (s->frame_bytes)
            memcpy(exec_thread_local(c, t) + s->frame, r, s->frame_bytes);
    }
}

/* ---- alloca, stacksave, stackrestore ----
 * A thread's dynamic stack lives at program.alloca_base in its local
 * frame: the top (bytes in use) in the first 8 bytes, the room after the
 * 16-byte header.  Addresses are in the .local space, as PTX's alloca
 * returns them (nvcc converts them with cvta.local). */

static uint64_t *alloca_top(const warp_t *w, const exec_program_t *p,
                            unsigned l)
{
    return (uint64_t *)(exec_thread_local(w->cta, w->thread[l]) +
                        p->alloca_base);
}

/* alloca.type d, size[, align]: align-ed room for size bytes. */
static void h_alloca(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                     uint32_t m)
{
    const exec_program_t *p = x->l->prog;
    const uint64_t *size = SRC(1);
    uint64_t align = ei->nops > 2 ? (uint64_t)ei->ir->ops[2].imm : 8;
    uint64_t room = p->alloca_base + EXEC_ALLOCA_HEADER;
    FOR_LANES(m, l) {
        uint64_t *top = alloca_top(w, p, l);
        uint64_t at = (room + *top + align - 1) / align * align;
        if (size[l] > EXEC_ALLOCA_BYTES ||
            at - room + size[l] > EXEC_ALLOCA_BYTES) {
            exec_fault(x, w, ei, 1u << l, "alloca of %llu bytes overflows "
                       "the %u-byte dynamic stack of thread %u",
                       (unsigned long long)size[l], EXEC_ALLOCA_BYTES,
                       w->thread[l]);
            return;
        }
        *top = at - room + size[l];
        put(w, &ei->o[0], l, at);
    }
}

/* stacksave d: the current top as an address; stackrestore a: back to
 * an address stacksave gave. */
static void h_stacksave(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                        uint32_t m)
{
    const exec_program_t *p = x->l->prog;
    FOR_LANES(m, l)
        put(w, &ei->o[0], l, p->alloca_base + EXEC_ALLOCA_HEADER +
                                 *alloca_top(w, p, l));
}

static void h_stackrestore(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                           uint32_t m)
{
    const exec_program_t *p = x->l->prog;
    const uint64_t *a = SRC(0);
    uint64_t room = (uint64_t)p->alloca_base + EXEC_ALLOCA_HEADER;
    FOR_LANES(m, l) {
        if (p->alloca_base == EXEC_NO_PC || a[l] < room ||
            a[l] - room > EXEC_ALLOCA_BYTES) {
            exec_fault(x, w, ei, 1u << l, "stackrestore to 0x%llx, which "
                       "no stacksave of this thread gave",
                       (unsigned long long)a[l]);
            return;
        }
        *alloca_top(w, p, l) = a[l] - room;
    }
}

exec_fn exec_select_stack(const ptx_insn_t *in)
{
    switch (in->op) {
    case PTX_OP_ALLOCA: return h_alloca;
    case PTX_OP_STACKSAVE: return h_stacksave;
    case PTX_OP_STACKRESTORE: return h_stackrestore;
    default: return NULL;
    }
}
