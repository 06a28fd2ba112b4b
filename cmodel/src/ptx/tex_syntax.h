/* tex_syntax.h: the texture and surface instructions' syntax (tex, tld4,
 * suld, sust on texture and surface objects; docs/textures.md).
 *
 * Operand layout in the IR (the parser splits "[handle, {coords}]" into
 * two operands so that every register is a plain REG or VEC operand that
 * liveness and register allocation already understand):
 *   tex   d{4}, handle, {coords} [, lod]          (.level)
 *         d{4}, handle, {coords}, {dPdx}, {dPdy}  (.grad)
 *   tld4  d{4}, handle, {coords}
 *   suld  d or {d..}, handle, {coords}
 *   sust  handle, {coords}, a or {a..}
 * Geometry lives in ptx_insn_t.geom; the tld4 component, the tex level or
 * gradient form and the surface out-of-range mode in ptx_insn_t.sub;
 * tex's destination type in .type and coordinate type in .type2. */
#ifndef PTX_TEX_SYNTAX_H
#define PTX_TEX_SYNTAX_H

#include <stddef.h>

#include "ptx/ir.h"

static inline int ptx_is_tex_op(ptx_op_t op)
{
    return op == PTX_OP_TEX || op == PTX_OP_TLD4 || op == PTX_OP_SULD ||
           op == PTX_OP_SUST;
}

/* Coordinate registers the geometry takes ({layer,} x, y, z, padded as
 * nvcc pads them: 3d, a2d, cube and acube take 4). */
unsigned ptx_geom_coords(ptx_geom_t g);
const char *ptx_geom_name(ptx_geom_t g); /* ".2d" */

/* As ptx_apply_modifier / ptx_check_modifiers / ptx_check_operands
 * (parser_tables.h), for the four instructions. */
const char *ptx_tex_apply_modifier(ptx_insn_t *in, const char *mod);
const char *ptx_tex_check_modifiers(const ptx_insn_t *in);
const char *ptx_tex_check_operands(const ptx_insn_t *in, char *why,
                                   size_t why_size);

#endif
