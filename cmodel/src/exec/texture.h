/* texture.h: texture and surface objects as the executor sees them, and the
 * sampling that tex and tld4 perform (docs/textures.md).
 *
 * The GPU owns a tex_table_t; a handle is an object's index + 1, so 0 (an
 * unset cudaTextureObject_t) is never valid.  A destroyed object stays in
 * the table, marked dead, so that a stale handle is reported rather than
 * aliased by a later object.
 *
 * Sampling follows the CUDA programming guide's texture-fetching appendix:
 * normalized coordinates are scaled by the size; wrap and mirror apply to
 * normalized coordinates (unnormalized ones clamp); point sampling takes
 * texel floor(x); linear filtering takes texels floor(x - 0.5) and the next
 * one with weight frac(x - 0.5), quantised like the hardware to 8
 * fractional bits (9-bit fixed point, so 1.0 is exact).  Texel indices
 * outside the texture are wrapped, mirrored or clamped by the address mode,
 * or, in border mode, read the border colour.
 *
 * tex_sample and tex_gather are pure over device memory: they read texels
 * through devmem_ptr and report every texel address they touched, which
 * the timing model looks up in the texture cache. */
#ifndef EXEC_TEXTURE_H
#define EXEC_TEXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "exec/devmem.h"
#include "ptx/ir.h"
#include "simt/texture.h"

typedef struct tex_object {
    uint8_t live;
    uint8_t surface;             /* a surface object (suld/sust) */
    uint8_t is_float;            /* texels read as floats (float format, or
                                    normalized-float read mode) */
    simt_tex_resource_t res;     /* pitch resolved; unused sizes 1 */
    simt_tex_desc_t desc;        /* zero for a surface */
    unsigned elem_bytes;         /* one channel */
    unsigned texel_bytes;        /* channels * elem_bytes */
    uint64_t layer_bytes;        /* depth * height * pitch */
} tex_object_t;

typedef struct tex_table {
    tex_object_t *objs;
    uint32_t n, cap;
} tex_table_t;

void tex_table_init(tex_table_t *t);
void tex_table_release(tex_table_t *t);

/* Checks `res` (and, for a texture, `desc`; NULL for a surface) against
 * device memory and fills *o.  NULL, or why the description is rejected,
 * naming the field. */
const char *tex_object_make(tex_object_t *o, const simt_tex_resource_t *res,
                            const simt_tex_desc_t *desc, devmem_t *mem,
                            char *why, size_t why_size);

/* Adds o; 0 and its handle, or -1 when out of host memory. */
int tex_table_add(tex_table_t *t, const tex_object_t *o, uint64_t *handle);
/* The live object of `handle`, or NULL. */
const tex_object_t *tex_table_get(const tex_table_t *t, uint64_t handle);
/* 0, or -1 when `handle` names no live object. */
int tex_table_remove(tex_table_t *t, uint64_t handle);

/* The geometry an object must have for instructions of geometry g. */
simt_tex_geom_t tex_geom_of(ptx_geom_t g);

/* Where a fetch lands: coordinates as the instruction gives them. */
typedef struct tex_coords {
    int int_coords;              /* .s32 coordinates: ci, else cf */
    float cf[3];                 /* x, y, z (cube: the direction) */
    int32_t ci[3];
    int32_t layer;               /* layered geometries */
} tex_coords_t;

#define TEX_MAX_TAPS 8

typedef struct tex_result {
    uint32_t v[4];               /* f32 bits when is_float, else integers */
    uint8_t is_float;
    unsigned ntaps;              /* texels read from memory */
    uint64_t addr[TEX_MAX_TAPS]; /* their device addresses */
    uint64_t fault_addr;         /* a texel outside live memory, or 0 */
} tex_result_t;

/* tex: the filtered four-channel value at c.  0, or -1 with
 * r->fault_addr set when a texel is not in live device memory. */
int tex_sample(const tex_object_t *o, devmem_t *mem, const tex_coords_t *c,
               tex_result_t *r);
/* tld4: channel `comp` of the four texels linear filtering would weigh, in
 * the PTX ISA's order (counter-clockwise from the lower left: (i, j+1),
 * (i+1, j+1), (i+1, j), (i, j)).  Returns as tex_sample. */
int tex_gather(const tex_object_t *o, devmem_t *mem, const tex_coords_t *c,
               unsigned comp, tex_result_t *r);

#endif
