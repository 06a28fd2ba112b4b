/* texture.h: texture and surface objects of the host API (docs/textures.md).
 *
 * A texture or surface object describes texels that live in device memory
 * (simt_malloc'ed, filled with simt_memcpy_htod) and, for a texture, how
 * they are sampled.  Creating one returns a 64-bit handle, which a kernel
 * receives as a .u64 parameter (cudaTextureObject_t, cudaSurfaceObject_t)
 * and passes to tex, tld4, suld and sust.  The texels must stay allocated
 * while a kernel uses the object; a fetch from freed memory is a fault.
 *
 * Layout: texel (x, y, z) of layer l at
 *   data + ((l * depth + z) * height + y) * pitch + x * texel_bytes
 * with height = depth = 1 where the geometry has no such dimension, and a
 * cube map's six faces as six layers (face + 6 * layer for a layered one),
 * in CUDA's face order +x, -x, +y, -y, +z, -z.  pitch = 0 means packed rows
 * (width * texel_bytes).  This is CUDA's pitch-linear layout; CUDA arrays
 * (opaque, block-linear) are modelled as this layout.
 */
#ifndef SIMT_TEXTURE_H
#define SIMT_TEXTURE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct simt_gpu;
struct simt_error;

typedef enum simt_tex_geom {
    SIMT_TEX_1D, SIMT_TEX_2D, SIMT_TEX_3D, SIMT_TEX_1D_LAYERED,
    SIMT_TEX_2D_LAYERED, SIMT_TEX_CUBE, SIMT_TEX_CUBE_LAYERED,
} simt_tex_geom_t;

/* The type of one channel (cudaChannelFormatKind and its bit width). */
typedef enum simt_tex_format {
    SIMT_TEX_U8, SIMT_TEX_S8, SIMT_TEX_U16, SIMT_TEX_S16, SIMT_TEX_U32,
    SIMT_TEX_S32, SIMT_TEX_F16, SIMT_TEX_F32,
} simt_tex_format_t;

/* cudaTextureAddressMode, in its order. */
typedef enum simt_tex_address {
    SIMT_TEX_WRAP, SIMT_TEX_CLAMP, SIMT_TEX_MIRROR, SIMT_TEX_BORDER,
} simt_tex_address_t;

typedef enum simt_tex_filter { SIMT_TEX_POINT, SIMT_TEX_LINEAR } simt_tex_filter_t;

/* cudaTextureReadMode: integer texels as they are, or as [0,1] / [-1,1]
 * floats (8- and 16-bit formats only). */
typedef enum simt_tex_read {
    SIMT_TEX_ELEMENT, SIMT_TEX_NORMALIZED_FLOAT,
} simt_tex_read_t;

typedef struct simt_tex_resource {
    uint64_t data;              /* device address of texel (0,0,0) of layer 0 */
    simt_tex_geom_t geom;
    simt_tex_format_t format;
    unsigned channels;          /* 1, 2 or 4 */
    uint32_t width;             /* texels; for a cube map, width = height */
    uint32_t height;            /* 2D, 3D, 2D layered, cube; else ignored */
    uint32_t depth;             /* 3D only */
    uint32_t layers;            /* layered geometries only */
    uint64_t pitch;             /* bytes per row, 0: packed */
} simt_tex_resource_t;

typedef struct simt_tex_desc {
    simt_tex_address_t address[3];  /* per dimension x, y, z */
    simt_tex_filter_t filter;
    simt_tex_read_t read;
    int normalized_coords;          /* 1: coordinates in [0, 1) */
    float border[4];                /* SIMT_TEX_BORDER colour (r, g, b, a) */
} simt_tex_desc_t;

/* Creates a texture object over `res` sampled as `desc`; SIMT_EINPUT naming
 * the field when the description is inconsistent (texels outside one live
 * allocation, linear filtering of integer texels read as elements, ...). */
int simt_tex_create(struct simt_gpu *gpu, const simt_tex_resource_t *res,
                    const simt_tex_desc_t *desc, uint64_t *handle,
                    struct simt_error *err);
/* Creates a surface object (suld/sust: raw texels, byte x coordinate). */
int simt_surf_create(struct simt_gpu *gpu, const simt_tex_resource_t *res,
                     uint64_t *handle, struct simt_error *err);
/* Destroys a texture or surface object; a later use is a fault. */
int simt_tex_destroy(struct simt_gpu *gpu, uint64_t handle,
                     struct simt_error *err);

#ifdef __cplusplus
}
#endif

#endif
