/* tex_table.c: texture and surface objects: checking a description, and
 * the GPU's table of them (exec/texture.h). */
#include <stdio.h>
#include <stdlib.h>

#include "exec/texture.h"

void tex_table_init(tex_table_t *t)
{
    *t = (tex_table_t){ 0 };
}

void tex_table_release(tex_table_t *t)
{
    free(t->objs);
    *t = (tex_table_t){ 0 };
}

static unsigned format_bytes(simt_tex_format_t f)
{
    switch (f) {
    case SIMT_TEX_U8: case SIMT_TEX_S8: return 1;
    case SIMT_TEX_U16: case SIMT_TEX_S16: case SIMT_TEX_F16: return 2;
    case SIMT_TEX_U32: case SIMT_TEX_S32: case SIMT_TEX_F32: return 4;
    default: return 0;
    }
}

static int is_layered(simt_tex_geom_t g)
{
    return g == SIMT_TEX_1D_LAYERED || g == SIMT_TEX_2D_LAYERED ||
           g == SIMT_TEX_CUBE_LAYERED;
}

static int has_height(simt_tex_geom_t g)
{
    return g != SIMT_TEX_1D && g != SIMT_TEX_1D_LAYERED;
}

static const char *fail(char *why, size_t size, const char *fmt, const char *a)
{
    snprintf(why, size, fmt, a);
    return why;
}

const char *tex_object_make(tex_object_t *o, const simt_tex_resource_t *res,
                            const simt_tex_desc_t *desc, devmem_t *mem,
                            char *why, size_t why_size)
{
    const char *what = desc ? "texture" : "surface";
    *o = (tex_object_t){ .live = 1, .surface = !desc, .res = *res };
    simt_tex_resource_t *r = &o->res;
    if ((unsigned)r->geom > SIMT_TEX_CUBE_LAYERED)
        return fail(why, why_size, "%s resource: geom is not a simt_tex_geom_t", what);
    if (!desc && (r->geom == SIMT_TEX_CUBE || r->geom == SIMT_TEX_CUBE_LAYERED))
        return "surface resource: geom: surfaces have no cube geometry";
    o->elem_bytes = format_bytes(r->format);
    if (!o->elem_bytes)
        return fail(why, why_size, "%s resource: format is not a simt_tex_format_t", what);
    if (r->channels != 1 && r->channels != 2 && r->channels != 4)
        return fail(why, why_size, "%s resource: channels must be 1, 2 or 4", what);
    o->texel_bytes = r->channels * o->elem_bytes;
    if (!has_height(r->geom))
        r->height = 1;
    if (r->geom != SIMT_TEX_3D)
        r->depth = 1;
    if (!is_layered(r->geom))
        r->layers = 1;
    if (r->geom == SIMT_TEX_CUBE || r->geom == SIMT_TEX_CUBE_LAYERED) {
        if (r->width != r->height)
            return "texture resource: a cube map needs width == height";
        r->layers *= 6; /* the faces */
    }
    if (!r->width || !r->height || !r->depth || !r->layers)
        return fail(why, why_size, "%s resource: width, height, depth and "
                    "layers must be at least 1 where the geometry has them", what);
    if (r->width > (1u << 20) || r->height > (1u << 20) || r->depth > (1u << 20) ||
        r->layers > 6u * (1u << 16))
        return fail(why, why_size, "%s resource: a dimension is larger than "
                    "2^20 texels (or 65536 layers)", what);
    uint64_t row = (uint64_t)r->width * o->texel_bytes;
    if (!r->pitch)
        r->pitch = row;
    if (r->pitch < row)
        return fail(why, why_size, "%s resource: pitch is smaller than a row "
                    "(width * channels * bytes per channel)", what);
    o->layer_bytes = r->pitch * r->height * r->depth;
    uint64_t total = o->layer_bytes * r->layers;
    if (total / r->layers != o->layer_bytes || total > DEVMEM_LIMIT)
        return fail(why, why_size, "%s resource: the texels do not fit in "
                    "device memory", what);
    if (r->data % o->elem_bytes)
        return fail(why, why_size, "%s resource: data is not aligned to a "
                    "channel", what);
    if (!devmem_ptr(mem, r->data, total - (r->pitch - row)))
        return fail(why, why_size, "%s resource: data does not hold the "
                    "texels in one live device allocation", what);
    if (!desc)
        return NULL;
    o->desc = *desc;
    for (int d = 0; d < 3; d++)
        if ((unsigned)desc->address[d] > SIMT_TEX_BORDER)
            return "texture descriptor: address[] must be simt_tex_address_t values";
    if ((unsigned)desc->filter > SIMT_TEX_LINEAR)
        return "texture descriptor: filter must be SIMT_TEX_POINT or SIMT_TEX_LINEAR";
    if ((unsigned)desc->read > SIMT_TEX_NORMALIZED_FLOAT)
        return "texture descriptor: read must be SIMT_TEX_ELEMENT or "
               "SIMT_TEX_NORMALIZED_FLOAT";
    int float_fmt = r->format == SIMT_TEX_F16 || r->format == SIMT_TEX_F32;
    if (desc->read == SIMT_TEX_NORMALIZED_FLOAT && !float_fmt && o->elem_bytes == 4)
        return "texture descriptor: read: normalized-float reads need 8- or "
               "16-bit integer texels";
    o->is_float = float_fmt || desc->read == SIMT_TEX_NORMALIZED_FLOAT;
    if (desc->filter == SIMT_TEX_LINEAR && !o->is_float)
        return "texture descriptor: filter: linear filtering needs float "
               "results (a float format, or read = SIMT_TEX_NORMALIZED_FLOAT)";
    return NULL;
}

int tex_table_add(tex_table_t *t, const tex_object_t *o, uint64_t *handle)
{
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 16;
        tex_object_t *n = realloc(t->objs, cap * sizeof *n);
        if (!n)
            return -1;
        t->objs = n;
        t->cap = cap;
    }
    t->objs[t->n++] = *o;
    *handle = t->n; /* index + 1 */
    return 0;
}

const tex_object_t *tex_table_get(const tex_table_t *t, uint64_t handle)
{
    if (handle == 0 || handle > t->n || !t->objs[handle - 1].live)
        return NULL;
    return &t->objs[handle - 1];
}

int tex_table_remove(tex_table_t *t, uint64_t handle)
{
    if (!tex_table_get(t, handle))
        return -1;
    t->objs[handle - 1].live = 0;
    return 0;
}

simt_tex_geom_t tex_geom_of(ptx_geom_t g)
{
    switch (g) {
    case PTX_GEOM_2D: return SIMT_TEX_2D;
    case PTX_GEOM_3D: return SIMT_TEX_3D;
    case PTX_GEOM_A1D: return SIMT_TEX_1D_LAYERED;
    case PTX_GEOM_A2D: return SIMT_TEX_2D_LAYERED;
    case PTX_GEOM_CUBE: return SIMT_TEX_CUBE;
    case PTX_GEOM_ACUBE: return SIMT_TEX_CUBE_LAYERED;
    default: return SIMT_TEX_1D;
    }
}
