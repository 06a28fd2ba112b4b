/* exec_mem.c: loads, stores, atomics and address-space conversion.
 *
 * Every access is checked: an address outside its space's bounds, or not
 * aligned to the access size, is a fault naming the lane and address.
 * Atomics of one warp-instruction are applied in lane order. */
#include "exec/dispatch.h"
#include "exec/lanes.h"

#define TYPE(ei) ((ptx_type_t)(ei)->ir->type)

/* [rel, rel+size) lies within [0, limit), without overflow. */
static int within(uint64_t rel, unsigned size, uint64_t limit)
{
    return rel < limit && size <= limit - rel;
}

static uint64_t lane_addr(const warp_t *w, const exec_opnd_t *o, unsigned l)
{
    uint64_t base = o->has_reg ? w->regs[(size_t)o->slot * WARP_SIZE + l] : 0;
    return base + (uint64_t)o->imm;
}

/* Resolves a generic address to its space; returns the space-relative
 * address. */
static ptx_space_t generic_space(uint64_t addr, uint64_t *rel)
{
    if (addr >= GEN_SHARED_BASE && addr < GEN_SHARED_BASE + GEN_WINDOW_SIZE) {
        *rel = addr - GEN_SHARED_BASE;
        return PTX_SPACE_SHARED;
    }
    if (addr >= GEN_LOCAL_BASE && addr < GEN_LOCAL_BASE + GEN_WINDOW_SIZE) {
        *rel = addr - GEN_LOCAL_BASE;
        return PTX_SPACE_LOCAL;
    }
    *rel = addr;
    return PTX_SPACE_GLOBAL;
}

/* The host bytes of an aligned shared access of the CTA, or NULL when it
 * lies outside the CTA's scratchpad or straddles the Scratchpad Sharing
 * unshared limit (above it: the pair's shared region). */
static inline uint8_t *shared_ptr(const cta_t *c, uint64_t rel, unsigned size)
{
    if (!within(rel, size, c->smem_size))
        return NULL;
    if (rel + size <= c->smem_split)
        return c->smem + rel;
    return rel >= c->smem_split ? c->smem_hi + rel : NULL;
}

/* access() for every case: each check in order, a fault reported. */
static uint8_t *access_checked(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                               ptx_space_t space, uint64_t addr, uint64_t rel,
                               unsigned size, unsigned l, int write)
{
    const char *what = write ? "store to" : "load from";
    if (rel & (size - 1)) { /* a power of two: elements x .v2/.v4 */
        exec_fault(x, w, ei, 1u << l, "misaligned %u-byte %s .%s address "
                   "0x%llx (lane %u)", size, what, ptx_space_name(space),
                   (unsigned long long)addr, l);
        return NULL;
    }
    const exec_launch_t *L = x->l;
    switch (space) {
    case PTX_SPACE_GLOBAL: {
        exec_ordered(x); /* other SMs' accesses of the cycle first */
        uint8_t *p = rel < DEVMEM_LIMIT ? devmem_ptr_at(L->gmem, &x->gmem_hint, rel, size)
                                        : NULL;
        if (p)
            return p;
        const devmem_alloc_t *a = devmem_nearest(L->gmem, rel);
        if (a && rel >= a->base && rel < a->base + a->size && !a->data)
            exec_fault(x, w, ei, 1u << l, "%s freed global memory at 0x%llx "
                       "(lane %u)", what, (unsigned long long)rel, l);
        else if (a)
            exec_fault(x, w, ei, 1u << l, "out-of-bounds %s global address "
                       "0x%llx (lane %u): nearest allocation below is "
                       "[0x%llx, 0x%llx)", what, (unsigned long long)rel, l,
                       (unsigned long long)a->base,
                       (unsigned long long)(a->base + a->size));
        else
            exec_fault(x, w, ei, 1u << l, "out-of-bounds %s global address "
                       "0x%llx (lane %u): no allocation there", what,
                       (unsigned long long)rel, l);
        return NULL;
    }
    case PTX_SPACE_SHARED: {
        cta_t *c = w->cta;
        uint8_t *p = shared_ptr(c, rel, size);
        if (p)
            return p;
        if (within(rel, size, c->smem_size)) {
            exec_fault(x, w, ei, 1u << l, "%u-byte %s shared address 0x%llx "
                       "(lane %u) straddles the Scratchpad Sharing unshared "
                       "limit %u", size, what, (unsigned long long)rel, l,
                       c->smem_split);
            return NULL;
        }
        exec_fault(x, w, ei, 1u << l, "out-of-bounds %s shared address 0x%llx "
                   "(lane %u): the CTA has %u bytes of shared memory", what,
                   (unsigned long long)rel, l, c->smem_size);
        return NULL;
    }
    case PTX_SPACE_LOCAL: {
        uint32_t fb = L->prog->frame_bytes;
        if (within(rel, size, fb))
            return exec_thread_local(w->cta, w->thread[l]) + rel;
        exec_fault(x, w, ei, 1u << l, "out-of-bounds %s local address 0x%llx "
                   "(lane %u): the thread has %u bytes of local memory", what,
                   (unsigned long long)rel, l, fb);
        return NULL;
    }
    case PTX_SPACE_PARAM:
        if (!write && within(rel, size, L->prog->param_bytes))
            return (uint8_t *)L->params + rel;
        exec_fault(x, w, ei, 1u << l, "%s kernel parameter offset 0x%llx "
                   "(lane %u) outside the %u-byte parameter buffer%s", what,
                   (unsigned long long)rel, l, L->prog->param_bytes,
                   write ? " (kernel parameters are read-only)" : "");
        return NULL;
    case PTX_SPACE_CONST:
        if (!write && within(rel, size, L->const_bytes))
            return (uint8_t *)L->const_bank + rel;
        exec_fault(x, w, ei, 1u << l, "%s constant address 0x%llx (lane %u) "
                   "outside the %llu-byte constant bank", what,
                   (unsigned long long)rel, l,
                   (unsigned long long)L->const_bytes);
        return NULL;
    default:
        exec_fault(x, w, ei, 1u << l, "access to unsupported space");
        return NULL;
    }
}

/* Host pointer for `size` bytes at `addr` in `space` for lane l, or NULL
 * after reporting the fault.  Inline, the three cases of almost every
 * lane (an aligned global address inside an allocation, when there is no
 * ordering left to wait for: one host thread, or the lower SMs have made
 * their ordered effects of the cycle (exec_order_t.open); an aligned
 * shared address inside the CTA's scratchpad; an aligned load of a kernel
 * parameter, which every thread of a short CTA makes at its start), with
 * the lookups access_checked makes too; everything else goes there (an
 * access that faults is looked up twice).  Always inlined: out of line,
 * the call and its saved registers were 40% of a lane's access. */
static inline __attribute__((always_inline)) uint8_t *
access(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, ptx_space_t space,
       uint64_t addr, unsigned size, unsigned l, int write)
{
    uint64_t rel = addr;
    if (space == PTX_SPACE_NONE)
        space = generic_space(addr, &rel);
    if (x->trace) {
        exec_access_t *t = x->trace;
        t->mask |= 1u << l;
        t->write |= (uint8_t)write;
        t->bytes = (uint8_t)size;
        t->space[l] = (uint8_t)space;
        t->addr[l] = rel;
    }
    if (!(rel & (size - 1))) {
        if (space == PTX_SPACE_GLOBAL && (!x->order || x->order->open) &&
            rel < DEVMEM_LIMIT) {
            uint8_t *p = devmem_ptr_at(x->l->gmem, &x->gmem_hint, rel, size);
            if (p)
                return p;
        } else if (space == PTX_SPACE_SHARED) {
            uint8_t *p = shared_ptr(w->cta, rel, size);
            if (p)
                return p;
        } else if (space == PTX_SPACE_PARAM && !write &&
                   within(rel, size, x->l->prog->param_bytes)) {
            return (uint8_t *)x->l->params + rel;
        }
    }
    return access_checked(x, w, ei, space, addr, rel, size, l, write);
}

int exec_smem_may_reach(const exec_insn_t *ei)
{
    int op = ei->ir->op;
    return (op == PTX_OP_LD || op == PTX_OP_ST || op == PTX_OP_ATOM ||
            op == PTX_OP_RED) &&
           (ei->space == PTX_SPACE_SHARED || ei->space == PTX_SPACE_NONE);
}

int exec_smem_reaches(const warp_t *w, const exec_insn_t *ei, uint64_t limit)
{
    if (!exec_smem_may_reach(ei))
        return 0;
    int op = ei->ir->op;
    ptx_space_t sp = (ptx_space_t)ei->space;
    if (w->home == EXEC_NO_THREAD) /* registers not in w->regs */
        return 1;
    uint32_t m = warp_active(w);
    if (ei->guard != EXEC_NO_PC) {
        uint32_t g = w->preds[ei->guard];
        m &= ei->guard_neg ? ~g : g;
    }
    int addr_op = op == PTX_OP_ST || op == PTX_OP_RED ? 0 : 1;
    unsigned size = ptx_type_bits(TYPE(ei)) / 8;
    if (op == PTX_OP_LD || op == PTX_OP_ST)
        size *= ei->ir->vec ? ei->ir->vec : 1;
    FOR_LANES(m, l) {
        uint64_t addr = lane_addr(w, &ei->o[addr_op], l), rel = addr;
        if (sp == PTX_SPACE_NONE && generic_space(addr, &rel) != PTX_SPACE_SHARED)
            continue;
        if (rel + size > limit)
            return 1;
    }
    return 0;
}

uint8_t *exec_mem_generic(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                          uint64_t addr, unsigned size, unsigned l)
{
    exec_access_t *trace = x->trace; /* not a memory instruction's access */
    x->trace = NULL;
    uint8_t *p = access(x, w, ei, PTX_SPACE_NONE, addr, size, l, 0);
    x->trace = trace;
    return p;
}

/* Little-endian host.  Each width loads at its own size: a partial copy
 * into a zeroed 8-byte word, read back whole, stalls the load on the
 * store that wrote part of it (store forwarding fails), which cost more
 * than the rest of a lane's load. */
static inline uint64_t load_le(const uint8_t *p, unsigned size)
{
    uint8_t b;
    uint16_t h;
    uint32_t s;
    uint64_t d;
    switch (size) {
    case 1:
        memcpy(&b, p, 1);
        return b;
    case 2:
        memcpy(&h, p, 2);
        return h;
    case 4:
        memcpy(&s, p, 4);
        return s;
    case 8:
        memcpy(&d, p, 8);
        return d;
    default: { /* not an element size (sizes come from ptx_type_bits) */
        uint64_t v = 0;
        memcpy(&v, p, size < 8 ? size : 8);
        return v;
    }
    }
}

static void store_le(uint8_t *p, uint64_t v, unsigned size)
{
    memcpy(p, &v, size);
}

static void count(exec_ctx_t *x, ptx_space_t space, int write, uint32_t m)
{
    simt_stats_t *s = exec_stats(x);
    uint64_t n = (uint64_t)__builtin_popcount(m);
    switch (space) {
    case PTX_SPACE_SHARED:
        *(write ? &s->shared_stores : &s->shared_loads) += n;
        break;
    case PTX_SPACE_LOCAL:
        *(write ? &s->local_stores : &s->local_loads) += n;
        break;
    case PTX_SPACE_GLOBAL: case PTX_SPACE_NONE:
        *(write ? &s->global_stores : &s->global_loads) += n;
        break;
    default:
        break;
    }
}

static void h_ld(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    ptx_type_t t = TYPE(ei);
    unsigned es = ptx_type_bits(t) / 8, n = ei->ir->vec;
    const exec_opnd_t *d = &ei->o[0], *a = &ei->o[1];
    ptx_space_t sp = (ptx_space_t)ei->space;
    count(x, sp, 0, m);
    if (!a->has_reg && n == 1 && m &&
        (sp == PTX_SPACE_PARAM || sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_SHARED ||
         sp == PTX_SPACE_CONST)) {
        /* one location for every lane (a kernel parameter, a scalar; not
         * local memory, which is each thread's own, nor a generic address,
         * which may be): what the first lane's access finds, or the fault
         * it reports, holds for all; the trace still names every lane */
        unsigned first = (unsigned)__builtin_ctz(m);
        uint8_t *p = access(x, w, ei, sp, (uint64_t)a->imm, es, first, 0);
        if (!p)
            return;
        uint64_t v = as_type(load_le(p, es), t);
        exec_access_t *tr = x->trace;
        if (tr) {
            tr->mask |= m;
            FOR_LANES(m, l) {
                tr->space[l] = tr->space[first];
                tr->addr[l] = tr->addr[first];
            }
        }
        FOR_LANES(m, l)
            put(w, d, l, v);
        return;
    }
    FOR_LANES(m, l) {
        uint64_t addr = lane_addr(w, a, l);
        uint8_t *p = access(x, w, ei, sp, addr, es * n, l, 0);
        if (!p)
            return;
        if (n == 1) {
            put(w, d, l, as_type(load_le(p, es), t));
            continue;
        }
        for (unsigned i = 0; i < n; i++)
            if (d->vslot[i] != EXEC_NO_PC)
                w->regs[(size_t)d->vslot[i] * WARP_SIZE + l] =
                    zext(as_type(load_le(p + i * es, es), t), d->vbits[i]);
    }
}

static void h_st(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    ptx_type_t t = TYPE(ei);
    unsigned es = ptx_type_bits(t) / 8, n = ei->ir->vec;
    const exec_opnd_t *a = &ei->o[0], *s = &ei->o[1];
    ptx_space_t sp = (ptx_space_t)ei->space;
    const uint64_t *v = n == 1 ? SRC(1) : NULL;
    count(x, sp, 1, m);
    FOR_LANES(m, l) {
        uint64_t addr = lane_addr(w, a, l);
        uint8_t *p = access(x, w, ei, sp, addr, es * n, l, 1);
        if (!p)
            return;
        if (n == 1) {
            store_le(p, v[l], es);
            continue;
        }
        for (unsigned i = 0; i < n; i++) {
            uint64_t e = s->vslot[i] == EXEC_NO_PC
                             ? 0 : w->regs[(size_t)s->vslot[i] * WARP_SIZE + l];
            store_le(p + i * es, e, es);
        }
    }
}

/* One atomic read-modify-write; returns the old value. */
static uint64_t atomic_apply(uint8_t *p, int op, ptx_type_t t, uint64_t b,
                             uint64_t c)
{
    unsigned size = ptx_type_bits(t) / 8, bits = size * 8;
    uint64_t old = load_le(p, size), r;
    switch (op) {
    case PTX_SUB_ADD:
        if (t == PTX_T_F16 || t == PTX_T_F16X2) {
            /* each half, rounded once; a NaN is the canonical 0x7fff as
             * in add.f16 (exec_half.c) */
            r = 0;
            for (unsigned i = 0; i < size / 2; i++) {
                double v = (double)exec_f16_to_f32((uint32_t)(old >> 16 * i) & 0xffffu) +
                           (double)exec_f16_to_f32((uint32_t)(b >> 16 * i) & 0xffffu);
                r |= (uint64_t)(v != v ? 0x7fffu
                                       : exec_f16_from_double(v, PTX_RND_RN)) << 16 * i;
            }
        } else if (t == PTX_T_F32)
            r = bits_f32(f32_of(old) + f32_of(b));
        else if (t == PTX_T_F64)
            r = bits_f64(f64_of(old) + f64_of(b));
        else
            r = old + b;
        break;
    case PTX_SUB_MIN: case PTX_SUB_MAX: {
        int mx = op == PTX_SUB_MAX;
        int less;
        if (t == PTX_T_F32)
            less = f32_of(old) < f32_of(b);
        else if (t == PTX_T_F64)
            less = f64_of(old) < f64_of(b);
        else if (ptx_type_is_signed(t))
            less = (int64_t)sext(old, bits) < (int64_t)sext(b, bits);
        else
            less = zext(old, bits) < zext(b, bits);
        r = (less != mx) ? old : b;
        break;
    }
    case PTX_SUB_INC:
        r = zext(old, bits) >= zext(b, bits) ? 0 : old + 1;
        break;
    case PTX_SUB_DEC:
        r = (zext(old, bits) == 0 || zext(old, bits) > zext(b, bits)) ? b : old - 1;
        break;
    case PTX_SUB_CAS:
        r = zext(old, bits) == zext(b, bits) ? c : old;
        break;
    case PTX_SUB_EXCH: r = b; break;
    case PTX_SUB_AND: r = old & b; break;
    case PTX_SUB_OR: r = old | b; break;
    default: r = old ^ b; break;
    }
    store_le(p, r, size);
    return old;
}

static void h_atom(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                   uint32_t m)
{
    ptx_type_t t = TYPE(ei);
    unsigned es = ptx_type_bits(t) / 8;
    int is_red = ei->ir->op == PTX_OP_RED;
    const exec_opnd_t *a = &ei->o[is_red ? 0 : 1];
    const uint64_t *b = SRC(is_red ? 1 : 2);
    const uint64_t *c = ei->ir->sub == PTX_SUB_CAS ? SRC(3) : NULL;
    ptx_space_t sp = (ptx_space_t)ei->space;
    exec_stats(x)->atomics += (uint64_t)__builtin_popcount(m);
    FOR_LANES(m, l) {
        uint64_t addr = lane_addr(w, a, l), rel;
        ptx_space_t real = sp == PTX_SPACE_NONE ? generic_space(addr, &rel) : sp;
        if (real != PTX_SPACE_GLOBAL && real != PTX_SPACE_SHARED) {
            exec_fault(x, w, ei, 1u << l, "atomic on the .%s space (lane %u): "
                       "only global and shared memory support atomics",
                       ptx_space_name(real), l);
            return;
        }
        uint8_t *p = access(x, w, ei, sp, addr, es, l, 1);
        if (!p)
            return;
        uint64_t old = atomic_apply(p, ei->ir->sub, t, b[l], c ? c[l] : 0);
        if (!is_red)
            put(w, &ei->o[0], l, old);
    }
}

static void h_cvta(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                   uint32_t m)
{
    const uint64_t *a = SRC(1);
    uint64_t base = ei->space == PTX_SPACE_SHARED ? GEN_SHARED_BASE
                  : ei->space == PTX_SPACE_LOCAL  ? GEN_LOCAL_BASE
                                                  : 0;
    int to = (ei->ir->flags & PTX_F_TO) != 0;
    FOR_LANES(m, l)
        put(w, &ei->o[0], l, to ? a[l] - base : a[l] + base);
}

static void h_isspacep(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                       uint32_t m)
{
    const uint64_t *a = SRC(1);
    uint32_t res = 0;
    FOR_LANES(m, l) {
        uint64_t rel;
        ptx_space_t s = generic_space(a[l], &rel);
        res |= (uint32_t)(s == (ptx_space_t)ei->space) << l;
    }
    put_pred_mask(w, ei->o[0].slot, m, res);
}

exec_fn exec_select_mem(const ptx_insn_t *in)
{
    switch (in->op) {
    case PTX_OP_LD: case PTX_OP_LDU:
        return in->type == PTX_T_PRED ? NULL : h_ld;
    case PTX_OP_ST:
        return in->type == PTX_T_PRED ? NULL : h_st;
    case PTX_OP_ATOM: case PTX_OP_RED:
        /* half precision: add only (atom.add.noftz.f16/.f16x2) */
        return (in->type == PTX_T_F16 || in->type == PTX_T_F16X2) &&
                       in->sub != PTX_SUB_ADD ? NULL : h_atom;
    case PTX_OP_CVTA: return h_cvta;
    case PTX_OP_ISSPACEP: return h_isspacep;
    default: return NULL;
    }
}
