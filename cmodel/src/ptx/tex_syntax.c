/* tex_syntax.c: modifiers and operand checks of tex, tld4, suld and sust
 * (tex_syntax.h).  Forms follow the PTX ISA manual (texture and surface
 * instructions); what simtlab does not model is rejected with a reason. */
#include "ptx/tex_syntax.h"

#include <stdio.h>
#include <string.h>

#include "ptx/parser_tables.h"

static const struct { const char *name; uint8_t geom; } geoms[] = {
    { ".1d", PTX_GEOM_1D },     { ".2d", PTX_GEOM_2D },
    { ".3d", PTX_GEOM_3D },     { ".a1d", PTX_GEOM_A1D },
    { ".a2d", PTX_GEOM_A2D },   { ".cube", PTX_GEOM_CUBE },
    { ".acube", PTX_GEOM_ACUBE },
};

unsigned ptx_geom_coords(ptx_geom_t g)
{
    static const uint8_t n[] = { 0, 1, 2, 4, 2, 4, 4, 4 };
    return g < sizeof n ? n[g] : 0;
}

const char *ptx_geom_name(ptx_geom_t g)
{
    for (size_t i = 0; i < sizeof geoms / sizeof *geoms; i++)
        if (geoms[i].geom == g)
            return geoms[i].name;
    return "";
}

static const char *set_sub(ptx_insn_t *in, ptx_sub_t v)
{
    if (in->sub != PTX_SUB_NONE && in->sub != v)
        return "conflicting modifier";
    in->sub = (uint8_t)v;
    return NULL;
}

/* Cache operators of suld/sust: no functional effect. */
static int is_cache_op(const char *mod)
{
    static const char *const ops[] = { ".ca", ".cg", ".cs", ".cv", ".wb", ".wt" };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (strcmp(mod, ops[i]) == 0)
            return 1;
    return 0;
}

const char *ptx_tex_apply_modifier(ptx_insn_t *in, const char *mod)
{
    ptx_op_t op = (ptx_op_t)in->op;
    int surf = op == PTX_OP_SULD || op == PTX_OP_SUST;
    ptx_type_t t = ptx_type_from_name(mod, strlen(mod));
    if (t != PTX_T_NONE) {
        if (in->type == PTX_T_NONE)
            in->type = (uint8_t)t;
        else if (!surf && in->type2 == PTX_T_NONE)
            in->type2 = (uint8_t)t; /* tex/tld4: the coordinate type */
        else
            return "extra type";
        return NULL;
    }
    for (size_t i = 0; i < sizeof geoms / sizeof *geoms; i++)
        if (strcmp(mod, geoms[i].name) == 0) {
            if (in->geom)
                return "second geometry";
            in->geom = geoms[i].geom;
            return NULL;
        }
    if (strcmp(mod, ".v2") == 0 || strcmp(mod, ".v4") == 0) {
        in->vec = (uint8_t)(mod[2] - '0');
        return NULL;
    }
    if (strcmp(mod, ".2dms") == 0 || strcmp(mod, ".a2dms") == 0)
        return "multi-sample textures are not supported";
    if (surf) {
        if (strcmp(mod, ".b") == 0)
            return NULL; /* unformatted: the only form modelled */
        if (strcmp(mod, ".p") == 0)
            return "formatted surface access (.p) is not supported";
        if (strcmp(mod, ".trap") == 0) return set_sub(in, PTX_SUB_SURF_TRAP);
        if (strcmp(mod, ".clamp") == 0) return set_sub(in, PTX_SUB_SURF_CLAMP);
        if (strcmp(mod, ".zero") == 0) return set_sub(in, PTX_SUB_SURF_ZERO);
        if (is_cache_op(mod))
            return NULL;
        return "unknown modifier";
    }
    if (op == PTX_OP_TLD4) {
        static const char *const comp[] = { ".r", ".g", ".b", ".a" };
        for (unsigned c = 0; c < 4; c++)
            if (strcmp(mod, comp[c]) == 0)
                return set_sub(in, (ptx_sub_t)(PTX_SUB_TEX_R + c));
        return "unknown modifier";
    }
    if (strcmp(mod, ".base") == 0)
        return NULL; /* level 0, the default */
    if (strcmp(mod, ".level") == 0) return set_sub(in, PTX_SUB_TEX_LEVEL);
    if (strcmp(mod, ".grad") == 0) return set_sub(in, PTX_SUB_TEX_GRAD);
    return "unknown modifier";
}

const char *ptx_tex_check_modifiers(const ptx_insn_t *in)
{
    ptx_op_t op = (ptx_op_t)in->op;
    ptx_geom_t g = (ptx_geom_t)in->geom;
    ptx_type_t t = (ptx_type_t)in->type, c = (ptx_type_t)in->type2;
    if (g == PTX_GEOM_NONE)
        return "missing geometry (.1d, .2d, .3d, .a1d, .a2d, .cube or .acube)";
    if (op == PTX_OP_SULD || op == PTX_OP_SUST) {
        if (g == PTX_GEOM_CUBE || g == PTX_GEOM_ACUBE)
            return "surfaces have no cube geometry";
        if (t != PTX_T_B8 && t != PTX_T_B16 && t != PTX_T_B32 && t != PTX_T_B64)
            return "needs .b8, .b16, .b32 or .b64";
        if (in->vec == 4 && t == PTX_T_B64)
            return ".v4 of .b64 (32 bytes) is not supported";
        if (in->sub < PTX_SUB_SURF_TRAP || in->sub > PTX_SUB_SURF_ZERO)
            return "missing out-of-range mode (.trap, .clamp or .zero)";
        return NULL;
    }
    if (in->vec != 4)
        return "needs .v4 (the four-channel result)";
    if (t != PTX_T_F32 && t != PTX_T_S32 && t != PTX_T_U32)
        return "the result type must be .f32, .s32 or .u32";
    if (c != PTX_T_F32 && c != PTX_T_S32)
        return "the coordinate type must be .f32 or .s32";
    if (op == PTX_OP_TLD4) {
        if (g != PTX_GEOM_2D && g != PTX_GEOM_A2D)
            return "tld4 is modelled for .2d and .a2d textures";
        if (in->sub < PTX_SUB_TEX_R || in->sub > PTX_SUB_TEX_A)
            return "missing component (.r, .g, .b or .a)";
        if (c != PTX_T_F32)
            return "tld4 coordinates are .f32";
    }
    return NULL;
}

static int is_reg(const ptx_operand_t *o)
{
    return o->kind == PTX_OPND_REG && o->nvec == 0;
}

const char *ptx_tex_check_operands(const ptx_insn_t *in, char *why,
                                   size_t why_size)
{
    ptx_op_t op = (ptx_op_t)in->op;
    const ptx_operand_t *o = in->ops;
    unsigned h = op == PTX_OP_SUST ? 0 : 1;   /* the handle */
    unsigned want = op == PTX_OP_TEX && in->sub == PTX_SUB_TEX_LEVEL ? 4
                  : op == PTX_OP_TEX && in->sub == PTX_SUB_TEX_GRAD  ? 5
                                                                      : 3;
    if (in->nops != want) {
        snprintf(why, why_size, "expects %u operands (the handle and its "
                 "coordinates in [...] count as two), found %u", want, in->nops);
        return why;
    }
    if (!is_reg(&o[h]) || o[h].reg == PTX_REG_SINK)
        return "the texture or surface must be a .u64 register holding an "
               "object handle, as in [%rd1, {%f1, %f2}]";
    unsigned nc = ptx_geom_coords((ptx_geom_t)in->geom);
    if (o[h + 1].kind != PTX_OPND_VEC || o[h + 1].nvec != nc) {
        snprintf(why, why_size, "%s coordinates are a {...} vector of %u "
                 "register%s", ptx_geom_name((ptx_geom_t)in->geom), nc,
                 nc == 1 ? "" : "s");
        return why;
    }
    unsigned d = op == PTX_OP_SUST ? 2 : 0;  /* the data operand */
    unsigned n = in->vec;
    int vec_ok = o[d].kind == PTX_OPND_VEC && o[d].nvec == n; /* {%r1} too */
    if (!vec_ok && !(n == 1 && is_reg(&o[d]))) {
        snprintf(why, why_size, "the %s must be %s", d ? "source" : "destination",
                 n == 1 ? "a register" : n == 2 ? "a {...} vector of 2 registers"
                                                : "a {...} vector of 4 registers");
        return why;
    }
    if (op == PTX_OP_TEX && in->sub == PTX_SUB_TEX_LEVEL &&
        !is_reg(&o[3]) && o[3].kind != PTX_OPND_IMM)
        return "the level of detail must be a register or immediate";
    if (op == PTX_OP_TEX && in->sub == PTX_SUB_TEX_GRAD &&
        (o[3].kind != PTX_OPND_VEC || o[4].kind != PTX_OPND_VEC))
        return "the gradients must be {...} vectors";
    return NULL;
}
