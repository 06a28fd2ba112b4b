/* exec_tex.c: tex, tld4, suld and sust on texture and surface objects
 * (docs/textures.md).
 *
 * The handle operand names an object of the launch's table; an unknown,
 * destroyed or wrong-kind handle, a geometry that differs from the
 * object's, and a texel outside live device memory are faults.  tex and
 * tld4 record the texels they read for the texture cache (exec_access_t
 * taps); suld and sust record one global-memory access per lane, the way
 * the L1 sees surface traffic. */
#include "exec/dispatch.h"
#include "exec/lanes.h"
#include "exec/texture.h"
#include "ptx/tex_syntax.h"

/* Lane l's element i of vector operand o. */
static uint64_t vec_elem(const warp_t *w, const exec_opnd_t *o, unsigned i,
                         unsigned l)
{
    return o->vslot[i] == EXEC_NO_PC ? 0
                                     : w->regs[(size_t)o->vslot[i] * WARP_SIZE + l];
}

static void put_elem(warp_t *w, const exec_opnd_t *o, unsigned i, unsigned l,
                     uint64_t v)
{
    if (o->vslot[i] != EXEC_NO_PC)
        w->regs[(size_t)o->vslot[i] * WARP_SIZE + l] = zext(v, o->vbits[i]);
}

/* The object lane l's handle names, or NULL after the fault. */
static const tex_object_t *object(exec_ctx_t *x, warp_t *w,
                                  const exec_insn_t *ei, unsigned l, int surface)
{
    const ptx_insn_t *in = ei->ir;
    uint64_t h = SRC(surface && in->op == PTX_OP_SUST ? 0 : 1)[l];
    const tex_object_t *o = x->l->tex ? tex_table_get(x->l->tex, h) : NULL;
    const char *kind = surface ? "surface" : "texture";
    if (!o) {
        exec_fault(x, w, ei, 1u << l, "%s handle 0x%llx (lane %u) names no "
                   "live %s object", kind, (unsigned long long)h, l, kind);
        return NULL;
    }
    if (o->surface != surface) {
        exec_fault(x, w, ei, 1u << l, "handle 0x%llx (lane %u) is a %s object, "
                   "used as a %s", (unsigned long long)h, l,
                   o->surface ? "surface" : "texture", kind);
        return NULL;
    }
    if (o->res.geom != tex_geom_of((ptx_geom_t)in->geom)) {
        exec_fault(x, w, ei, 1u << l, "the %s object of handle 0x%llx (lane %u) "
                   "does not have the instruction's %s geometry", kind,
                   (unsigned long long)h, l, ptx_geom_name((ptx_geom_t)in->geom));
        return NULL;
    }
    return o;
}

/* Lane l's coordinates: the vector is ({layer,} x, y, z) as the geometry
 * lays it out (tex_syntax.h). */
static void coords(const warp_t *w, const exec_insn_t *ei, unsigned l,
                   tex_coords_t *c)
{
    const ptx_insn_t *in = ei->ir;
    const exec_opnd_t *v = &ei->o[in->op == PTX_OP_SUST ? 1 : 2];
    ptx_geom_t g = (ptx_geom_t)in->geom;
    int layered = g == PTX_GEOM_A1D || g == PTX_GEOM_A2D || g == PTX_GEOM_ACUBE;
    unsigned first = layered ? 1 : 0;
    unsigned dims = g == PTX_GEOM_1D || g == PTX_GEOM_A1D ? 1
                  : g == PTX_GEOM_2D || g == PTX_GEOM_A2D ? 2 : 3;
    *c = (tex_coords_t){ .int_coords = in->type2 != PTX_T_F32 };
    c->layer = layered ? (int32_t)vec_elem(w, v, 0, l) : 0;
    for (unsigned d = 0; d < dims; d++) {
        uint64_t e = vec_elem(w, v, first + d, l);
        c->ci[d] = (int32_t)e;
        c->cf[d] = f32_of(e);
    }
}

/* The fetched value in the destination type: float results as f32, or
 * truncated to integers; integer results as they are, or as floats. */
static uint64_t result(const tex_result_t *r, unsigned k, ptx_type_t t,
                       int signed_texels)
{
    if (t == PTX_T_F32)
        return r->is_float ? r->v[k]
             : bits_f32(signed_texels ? (float)(int32_t)r->v[k] : (float)r->v[k]);
    if (!r->is_float)
        return r->v[k];
    float f = f32_of(r->v[k]);
    if (f != f)
        return 0;
    if (t == PTX_T_S32)
        return (uint32_t)(f <= -2147483648.0f ? INT32_MIN
                          : f >= 2147483648.0f ? INT32_MAX : (int32_t)f);
    return f <= 0 ? 0 : f >= 4294967296.0f ? UINT32_MAX : (uint32_t)f;
}

static void h_tex(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const ptx_insn_t *in = ei->ir;
    exec_ordered(x); /* texels are device memory other SMs may write */
    FOR_LANES(m, l) {
        const tex_object_t *o = object(x, w, ei, l, 0);
        if (!o)
            return;
        tex_coords_t c;
        coords(w, ei, l, &c);
        tex_result_t r;
        int rc = in->op == PTX_OP_TLD4
                     ? tex_gather(o, x->l->gmem, &c, in->sub - PTX_SUB_TEX_R, &r)
                     : tex_sample(o, x->l->gmem, &c, &r);
        if (rc) {
            exec_fault(x, w, ei, 1u << l, "texel at 0x%llx (lane %u) is not in "
                       "live device memory (freed after the object was made?)",
                       (unsigned long long)r.fault_addr, l);
            return;
        }
        int sgn = o->res.format == SIMT_TEX_S8 || o->res.format == SIMT_TEX_S16 ||
                  o->res.format == SIMT_TEX_S32;
        for (unsigned k = 0; k < 4; k++)
            put_elem(w, &ei->o[0], k, l, result(&r, k, (ptx_type_t)in->type, sgn));
        exec_access_t *t = x->trace;
        if (t) {
            t->tex = 1;
            t->mask |= 1u << l;
            for (unsigned k = 0; k < r.ntaps; k++)
                t->taps[t->ntaps++] = r.addr[k];
        }
    }
}

/* suld/sust: lane l's byte address, or 0 when .zero drops the access;
 * UINT64_MAX after a fault. */
static uint64_t surface_addr(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                             const tex_object_t *o, unsigned l, unsigned size)
{
    const ptx_insn_t *in = ei->ir;
    tex_coords_t c;
    coords(w, ei, l, &c);
    const simt_tex_resource_t *r = &o->res;
    int64_t lim[4] = { (int64_t)r->width * o->texel_bytes - size, r->height - 1,
                       r->depth - 1, r->layers - 1 };
    int64_t v[4] = { c.ci[0], c.ci[1], c.ci[2], c.layer };
    if (c.ci[0] % (int64_t)size) {
        exec_fault(x, w, ei, 1u << l, "surface x coordinate %d (lane %u) is not "
                   "a multiple of the %u-byte access", c.ci[0], l, size);
        return UINT64_MAX;
    }
    for (int d = 0; d < 4; d++) {
        if (v[d] >= 0 && v[d] <= lim[d])
            continue;
        if (in->sub == PTX_SUB_SURF_ZERO)
            return 0;
        if (in->sub == PTX_SUB_SURF_TRAP) {
            static const char *const names[] = { "x (bytes)", "y", "z", "layer" };
            exec_fault(x, w, ei, 1u << l, "surface coordinate %s = %lld (lane %u) "
                       "outside [0, %lld]", names[d], (long long)v[d], l,
                       (long long)lim[d]);
            return UINT64_MAX;
        }
        v[d] = v[d] < 0 ? 0 : lim[d]; /* .clamp */
        if (d == 0)
            v[0] -= v[0] % (int64_t)size;
    }
    return r->data + (uint64_t)v[3] * o->layer_bytes +
           ((uint64_t)v[2] * r->height + (uint64_t)v[1]) * r->pitch + (uint64_t)v[0];
}

static void h_surf(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei, uint32_t m)
{
    const ptx_insn_t *in = ei->ir;
    exec_ordered(x); /* surfaces are device memory other SMs may access */
    int store = in->op == PTX_OP_SUST;
    unsigned es = ptx_type_bits((ptx_type_t)in->type) / 8, n = in->vec;
    const exec_opnd_t *d = &ei->o[store ? 2 : 0];
    const uint64_t *scalar = d->kind != EO_VEC && store ? SRC(2) : NULL;
    simt_stats_t *st = exec_stats(x);
    *(store ? &st->global_stores : &st->global_loads) += (uint64_t)__builtin_popcount(m);
    FOR_LANES(m, l) {
        const tex_object_t *o = object(x, w, ei, l, 1);
        if (!o)
            return;
        uint64_t a = surface_addr(x, w, ei, o, l, es * n);
        if (a == UINT64_MAX)
            return;
        uint8_t *p = a ? devmem_ptr(x->l->gmem, a, es * n) : NULL;
        if (a && !p) {
            exec_fault(x, w, ei, 1u << l, "surface address 0x%llx (lane %u) is "
                       "not in live device memory", (unsigned long long)a, l);
            return;
        }
        for (unsigned i = 0; i < n; i++) {
            uint64_t v = 0;
            if (store) {
                v = scalar ? scalar[l] : vec_elem(w, d, i, l);
                if (p)
                    memcpy(p + i * es, &v, es);
            } else {
                if (p)
                    memcpy(&v, p + i * es, es);
                if (d->kind != EO_VEC)
                    put(w, d, l, v);
                else
                    put_elem(w, d, i, l, v);
            }
        }
        exec_access_t *t = x->trace;
        if (t && p) {
            t->mask |= 1u << l;
            t->write = (uint8_t)store;
            t->bytes = (uint8_t)(es * n);
            t->space[l] = PTX_SPACE_GLOBAL;
            t->addr[l] = a;
        }
    }
}

exec_fn exec_select_tex(const ptx_insn_t *in)
{
    return in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4 ? h_tex : h_surf;
}
