/* parser_tables.c: opcode, type, special-register and modifier tables, and
 * the per-opcode checks that turn malformed instructions into clear errors. */
#include "ptx/parser_tables.h"

#include "ptx/tex_syntax.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------- names ---------- */

ptx_type_t ptx_type_from_name(const char *s, size_t len)
{
    for (int t = PTX_T_PRED; t < PTX_T_COUNT; t++) {
        const char *n = ptx_type_name((ptx_type_t)t);
        if (strlen(n) == len && memcmp(n, s, len) == 0)
            return (ptx_type_t)t;
    }
    return PTX_T_NONE;
}

int ptx_op_from_name(const char *name)
{
    for (int op = 0; op < PTX_OP_COUNT; op++)
        if (strcmp(ptx_op_name((ptx_op_t)op), name) == 0)
            return op;
    return -1;
}

/* PTX instructions the model knows it lacks, with the reason. */
static const struct { const char *name, *why; } unsupported[] = {
    { "wmma", "warp matrix (tensor core) operations are not modelled" },
    { "mma", "warp matrix (tensor core) operations are not modelled" },
    { "wgmma", "warpgroup matrix (tensor core) operations are not modelled" },
    { "ldmatrix", "matrix fragment loads for tensor cores are not modelled" },
    { "stmatrix", "matrix fragment stores for tensor cores are not modelled" },
    { "movmatrix", "matrix fragment moves for tensor cores are not modelled" },
    { "cp", "asynchronous copies (cp.async, cp.async.bulk) are not modelled" },
    { "mbarrier", "asynchronous transaction barriers are not modelled" },
    { "griddepcontrol", "programmatic dependent launch is not modelled" },
    { "applypriority", "L2 eviction priorities are not modelled" },
    { "discard", "L2 line discards are not modelled" },
    { "createpolicy", "L2 cache policies are not modelled" },
    { "brkpt", "breakpoints need a debugger, which the model has not" },
    { "pmevent", "performance monitor events are not modelled" },
    { "istypep", "texture, sampler and surface handles are not modelled here" },
    { "setmaxnreg", "dynamic register reallocation is not modelled" },
    { "tcgen05", "tensor memory operations are not modelled" },
    { "vadd", "scalar video instructions are not modelled (the SIMD vadd4/"
              "vadd2 forms are)" },
    { "vsub", "scalar video instructions are not modelled" },
    { "vabsdiff", "scalar video instructions are not modelled" },
    { "vmin", "scalar video instructions are not modelled" },
    { "vmax", "scalar video instructions are not modelled" },
    { "vshl", "scalar video instructions are not modelled" },
    { "vshr", "scalar video instructions are not modelled" },
    { "vmad", "scalar video instructions are not modelled" },
    { "vset", "scalar video instructions are not modelled" },
};

const char *ptx_unsupported_reason(const char *name)
{
    for (size_t i = 0; i < sizeof unsupported / sizeof *unsupported; i++)
        if (strcmp(unsupported[i].name, name) == 0)
            return unsupported[i].why;
    return NULL;
}

static const char *const sreg_names[PTX_SREG_COUNT] = {
    "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
    "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
    "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid",
    "%clock", "%clock_hi", "%clock64", "%globaltimer",
    "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge",
    "%lanemask_gt", "%dynamic_smem_size", "%total_smem_size",
    "%clusterid.x", "%clusterid.y", "%clusterid.z", "%nclusterid.x",
    "%nclusterid.y", "%nclusterid.z", "%cluster_ctaid.x", "%cluster_ctaid.y",
    "%cluster_ctaid.z", "%cluster_nctaid.x", "%cluster_nctaid.y",
    "%cluster_nctaid.z", "%cluster_ctarank", "%cluster_nctarank",
    "%is_explicit_cluster",
    "%envreg0", "%envreg1", "%envreg2", "%envreg3", "%envreg4", "%envreg5",
    "%envreg6", "%envreg7", "%envreg8", "%envreg9", "%envreg10", "%envreg11",
    "%envreg12", "%envreg13", "%envreg14", "%envreg15", "%envreg16", "%envreg17",
    "%envreg18", "%envreg19", "%envreg20", "%envreg21", "%envreg22", "%envreg23",
    "%envreg24", "%envreg25", "%envreg26", "%envreg27", "%envreg28", "%envreg29",
    "%envreg30", "%envreg31",
};

int ptx_sreg_from_name(const char *name)
{
    for (int i = 0; i < PTX_SREG_COUNT; i++)
        if (strcmp(sreg_names[i], name) == 0)
            return i;
    return -1;
}

const char *ptx_sreg_name(ptx_sreg_t s)
{
    return s < PTX_SREG_COUNT ? sreg_names[s] : "?";
}

/* ---------- float literals ---------- */

static uint64_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* IEEE binary16 from a double, round to nearest even. */
static uint64_t f16_bits(double d)
{
    float f = (float)d;
    uint32_t x = (uint32_t)f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff)
        return sign | 0x7c00u | (mant ? 0x200u : 0);
    if (exp >= 31)
        return sign | 0x7c00u;
    if (exp <= 0) {
        if (exp < -10)
            return sign;
        mant |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - exp);
        uint32_t h = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1);
        uint32_t half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return sign | h;
    }
    uint32_t h = (uint32_t)exp << 10 | mant >> 13;
    uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++;
    return sign | h;
}

/* bfloat16 (the upper half of a binary32) nearest to the f32 of d. */
static uint64_t bf16_bits(double d)
{
    uint32_t x = (uint32_t)f32_bits((float)d);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return x >> 16 | 0x40u; /* NaN stays NaN */
    return (x + 0x7fffu + (x >> 16 & 1)) >> 16;
}

uint64_t ptx_float_bits(double d, ptx_type_t t)
{
    switch (t) {
    case PTX_T_F16: return f16_bits(d);
    case PTX_T_F16X2: return f16_bits(d) * 0x10001u; /* in both halves */
    case PTX_T_BF16: return bf16_bits(d);
    case PTX_T_BF16X2: return bf16_bits(d) * 0x10001u;
    case PTX_T_F32: return f32_bits((float)d);
    default: return f64_bits(d);
    }
}

double ptx_float_token_value(const ptx_token_t *t)
{
    if (t->float_form == FLT_HEX32) {
        float f;
        uint32_t u = (uint32_t)t->ival;
        memcpy(&f, &u, 4);
        return f;
    }
    if (t->float_form == FLT_HEX64) {
        double d;
        memcpy(&d, &t->ival, 8);
        return d;
    }
    return t->dval;
}

/* ---------- modifiers ---------- */

static const struct { const char *name; uint8_t v; } cmp_names[] = {
    { ".eq", PTX_CMP_EQ },   { ".ne", PTX_CMP_NE },   { ".lt", PTX_CMP_LT },
    { ".le", PTX_CMP_LE },   { ".gt", PTX_CMP_GT },   { ".ge", PTX_CMP_GE },
    { ".lo", PTX_CMP_LO },   { ".ls", PTX_CMP_LS },   { ".hi", PTX_CMP_HI },
    { ".hs", PTX_CMP_HS },   { ".equ", PTX_CMP_EQU }, { ".neu", PTX_CMP_NEU },
    { ".ltu", PTX_CMP_LTU }, { ".leu", PTX_CMP_LEU }, { ".gtu", PTX_CMP_GTU },
    { ".geu", PTX_CMP_GEU }, { ".num", PTX_CMP_NUM }, { ".nan", PTX_CMP_NAN },
};

static const struct { const char *name; uint8_t v; } rnd_names[] = {
    { ".rn", PTX_RND_RN },   { ".rz", PTX_RND_RZ },   { ".rm", PTX_RND_RM },
    { ".rp", PTX_RND_RP },   { ".rni", PTX_RND_RNI }, { ".rzi", PTX_RND_RZI },
    { ".rmi", PTX_RND_RMI }, { ".rpi", PTX_RND_RPI },
};

static const struct { const char *name; uint8_t v; } space_names[] = {
    { ".global", PTX_SPACE_GLOBAL }, { ".shared", PTX_SPACE_SHARED },
    { ".shared::cta", PTX_SPACE_SHARED }, { ".local", PTX_SPACE_LOCAL },
    { ".const", PTX_SPACE_CONST },   { ".param", PTX_SPACE_PARAM },
};

/* Cache, eviction, memory-order and scope qualifiers: accepted, no
 * functional effect. */
static const char *const memory_order[] = {
    ".relaxed", ".acquire", ".release", ".acq_rel", ".sc", ".cta", ".gpu",
    ".sys",
};

static const char *const ignored[] = {
    ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt", ".nc", ".weak", ".gl", ".L1::evict_normal", ".L1::evict_unchanged",
    ".L1::evict_first", ".L1::evict_last", ".L1::no_allocate",
    ".L2::evict_normal", ".L2::evict_first", ".L2::evict_last",
    ".L2::64B", ".L2::128B", ".L2::256B", ".noftz", ".aligned_unused",
};

static int in_list(const char *mod, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(mod, list[i]) == 0)
            return 1;
    return 0;
}

static const char *set_sub(ptx_insn_t *in, ptx_sub_t v)
{
    if (in->sub != PTX_SUB_NONE && in->sub != v)
        return "conflicting modifier";
    in->sub = (uint8_t)v;
    return NULL;
}

const char *ptx_apply_modifier(ptx_insn_t *in, const char *mod)
{
    ptx_op_t op = (ptx_op_t)in->op;
    if (ptx_is_tex_op(op))
        return ptx_tex_apply_modifier(in, mod);
    ptx_type_t t = ptx_type_from_name(mod, strlen(mod));
    if (t != PTX_T_NONE) {
        if (in->type == PTX_T_NONE) {
            in->type = (uint8_t)t;
            return NULL;
        }
        if (in->type2 == PTX_T_NONE &&
            (op == PTX_OP_CVT || op == PTX_OP_SET || op == PTX_OP_SLCT ||
             op == PTX_OP_DP4A || op == PTX_OP_DP2A || ptx_op_is_video(op))) {
            in->type2 = (uint8_t)t;
            return NULL;
        }
        if (in->type3 == PTX_T_NONE && ptx_op_is_video(op)) {
            in->type3 = (uint8_t)t;
            return NULL;
        }
        return "extra type";
    }
    for (size_t i = 0; i < sizeof space_names / sizeof *space_names; i++)
        if (strcmp(mod, space_names[i].name) == 0) {
            if (op != PTX_OP_LD && op != PTX_OP_LDU && op != PTX_OP_ST &&
                op != PTX_OP_ATOM && op != PTX_OP_RED && op != PTX_OP_CVTA &&
                op != PTX_OP_ISSPACEP && op != PTX_OP_PREF &&
                op != PTX_OP_PREFETCH)
                return "state space not allowed";
            if (in->space != PTX_SPACE_NONE)
                return "second state space";
            in->space = space_names[i].v;
            return NULL;
        }
    if (op == PTX_OP_SETP || op == PTX_OP_SET || op == PTX_OP_SLCT ||
        op == PTX_OP_VSET4 || op == PTX_OP_VSET2) {
        for (size_t i = 0; i < sizeof cmp_names / sizeof *cmp_names; i++)
            if (strcmp(mod, cmp_names[i].name) == 0) {
                if (in->cmp)
                    return "second comparison";
                if ((op == PTX_OP_VSET4 || op == PTX_OP_VSET2) &&
                    cmp_names[i].v > PTX_CMP_GE)
                    return "vset compares with .eq .ne .lt .le .gt .ge, not";
                in->cmp = cmp_names[i].v;
                return NULL;
            }
        if (op != PTX_OP_SLCT) {
            ptx_sub_t c = strcmp(mod, ".and") == 0 ? PTX_SUB_AND
                        : strcmp(mod, ".or") == 0  ? PTX_SUB_OR
                        : strcmp(mod, ".xor") == 0 ? PTX_SUB_XOR
                                                   : PTX_SUB_NONE;
            if (c != PTX_SUB_NONE) {
                in->combine = (uint8_t)c;
                return NULL;
            }
        }
    }
    for (size_t i = 0; i < sizeof rnd_names / sizeof *rnd_names; i++)
        if (strcmp(mod, rnd_names[i].name) == 0) {
            if (in->rnd)
                return "second rounding mode";
            in->rnd = rnd_names[i].v;
            return NULL;
        }
    if (strcmp(mod, ".v2") == 0 || strcmp(mod, ".v4") == 0) {
        if (op != PTX_OP_LD && op != PTX_OP_LDU && op != PTX_OP_ST &&
            op != PTX_OP_MOV)
            return "vector width not allowed";
        in->vec = (uint8_t)(mod[2] - '0');
        return NULL;
    }
    struct { const char *name; uint16_t flag; } flags[] = {
        { ".ftz", PTX_F_FTZ },     { ".sat", PTX_F_SAT },
        { ".approx", PTX_F_APPROX }, { ".full", PTX_F_FULL },
        { ".cc", PTX_F_CC },       { ".to", PTX_F_TO },
        { ".aligned", PTX_F_ALIGNED }, { ".volatile", PTX_F_VOLATILE },
        { ".shiftamt", PTX_F_SHIFTAMT },
    };
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
        if (strcmp(mod, flags[i].name) == 0) {
            in->flags |= flags[i].flag;
            return NULL;
        }
    if (strcmp(mod, ".uni") == 0) {
        if (op == PTX_OP_VOTE)
            return set_sub(in, PTX_SUB_UNI);
        if (op != PTX_OP_BRA && op != PTX_OP_CALL && op != PTX_OP_RET)
            return "'.uni' not allowed";
        in->flags |= PTX_F_UNI;
        return NULL;
    }
    if (strcmp(mod, ".sync") == 0) {
        if (op == PTX_OP_BAR || op == PTX_OP_BARRIER) {
            if (in->sub == PTX_SUB_RED)
                return NULL; /* bar.red.sync is not PTX, but harmless */
            if (in->sub == PTX_SUB_WARP) {
                in->sub = PTX_SUB_WARP_SYNC;
                return NULL;
            }
            return set_sub(in, PTX_SUB_SYNC);
        }
        if (op == PTX_OP_VOTE || op == PTX_OP_SHFL || op == PTX_OP_MATCH ||
            op == PTX_OP_REDUX || op == PTX_OP_ELECT) {
            in->flags |= PTX_F_SYNC;
            return NULL;
        }
        return "'.sync' not allowed";
    }
    if (op == PTX_OP_BAR || op == PTX_OP_BARRIER) {
        if (strcmp(mod, ".arrive") == 0)
            return set_sub(in, PTX_SUB_ARRIVE);
        if (strcmp(mod, ".red") == 0)
            return set_sub(in, PTX_SUB_RED);
        if (strcmp(mod, ".warp") == 0 && op == PTX_OP_BAR)
            return set_sub(in, PTX_SUB_WARP);
        if (strcmp(mod, ".popc") == 0 || strcmp(mod, ".and") == 0 ||
            strcmp(mod, ".or") == 0) {
            in->combine = (uint8_t)(mod[1] == 'p' ? PTX_SUB_POPC
                                  : mod[1] == 'a' ? PTX_SUB_AND
                                                  : PTX_SUB_OR);
            return NULL;
        }
    }
    if (op == PTX_OP_MUL || op == PTX_OP_MAD || op == PTX_OP_MUL24 ||
        op == PTX_OP_MAD24 || op == PTX_OP_MADC) {
        if (strcmp(mod, ".lo") == 0) return set_sub(in, PTX_SUB_LO);
        if (strcmp(mod, ".hi") == 0) return set_sub(in, PTX_SUB_HI);
        if (strcmp(mod, ".wide") == 0) return set_sub(in, PTX_SUB_WIDE);
    }
    if (op == PTX_OP_ATOM || op == PTX_OP_RED) {
        static const struct { const char *n; uint8_t v; } aops[] = {
            { ".and", PTX_SUB_AND }, { ".or", PTX_SUB_OR },
            { ".xor", PTX_SUB_XOR }, { ".add", PTX_SUB_ADD },
            { ".min", PTX_SUB_MIN }, { ".max", PTX_SUB_MAX },
            { ".inc", PTX_SUB_INC }, { ".dec", PTX_SUB_DEC },
            { ".cas", PTX_SUB_CAS }, { ".exch", PTX_SUB_EXCH },
        };
        for (size_t i = 0; i < sizeof aops / sizeof *aops; i++)
            if (strcmp(mod, aops[i].n) == 0)
                return set_sub(in, (ptx_sub_t)aops[i].v);
    }
    if (op == PTX_OP_MATCH) {
        if (strcmp(mod, ".all") == 0) return set_sub(in, PTX_SUB_ALL);
        if (strcmp(mod, ".any") == 0) return set_sub(in, PTX_SUB_ANY);
    }
    if (op == PTX_OP_REDUX) {
        static const struct { const char *n; uint8_t v; } rops[] = {
            { ".add", PTX_SUB_ADD }, { ".min", PTX_SUB_MIN },
            { ".max", PTX_SUB_MAX }, { ".and", PTX_SUB_AND },
            { ".or", PTX_SUB_OR },   { ".xor", PTX_SUB_XOR },
        };
        for (size_t i = 0; i < sizeof rops / sizeof *rops; i++)
            if (strcmp(mod, rops[i].n) == 0)
                return set_sub(in, (ptx_sub_t)rops[i].v);
    }
    if ((op == PTX_OP_PREFETCH || op == PTX_OP_PREFETCHU) &&
        (strcmp(mod, ".L1") == 0 || strcmp(mod, ".L2") == 0))
        return NULL; /* the cache level: a hint, no functional effect */
    if (op == PTX_OP_DP2A) {
        if (strcmp(mod, ".lo") == 0) return set_sub(in, PTX_SUB_LO);
        if (strcmp(mod, ".hi") == 0) return set_sub(in, PTX_SUB_HI);
    }
    if (op == PTX_OP_BMSK || op == PTX_OP_SZEXT) {
        if (strcmp(mod, ".wrap") == 0) return set_sub(in, PTX_SUB_WRAP);
        if (strcmp(mod, ".clamp") == 0) return set_sub(in, PTX_SUB_CLAMP);
    }
    if (ptx_op_is_video(op) && strcmp(mod, ".add") == 0)
        return set_sub(in, PTX_SUB_ADD); /* the secondary accumulate */
    if (op == PTX_OP_VOTE) {
        if (strcmp(mod, ".all") == 0) return set_sub(in, PTX_SUB_ALL);
        if (strcmp(mod, ".any") == 0) return set_sub(in, PTX_SUB_ANY);
        if (strcmp(mod, ".ballot") == 0) return set_sub(in, PTX_SUB_BALLOT);
    }
    if (op == PTX_OP_SHFL) {
        if (strcmp(mod, ".up") == 0) return set_sub(in, PTX_SUB_UP);
        if (strcmp(mod, ".down") == 0) return set_sub(in, PTX_SUB_DOWN);
        if (strcmp(mod, ".bfly") == 0) return set_sub(in, PTX_SUB_BFLY);
        if (strcmp(mod, ".idx") == 0) return set_sub(in, PTX_SUB_IDX);
    }
    if (op == PTX_OP_SHF) {
        int left = in->sub == PTX_SUB_L_WRAP || in->sub == PTX_SUB_L_CLAMP;
        if (strcmp(mod, ".l") == 0) { in->sub = PTX_SUB_L_WRAP; return NULL; }
        if (strcmp(mod, ".r") == 0) { in->sub = PTX_SUB_R_WRAP; return NULL; }
        if (strcmp(mod, ".wrap") == 0 || strcmp(mod, ".clamp") == 0) {
            if (in->sub == PTX_SUB_NONE)
                return "shf needs .l or .r before";
            int clamp = mod[1] == 'c';
            in->sub = (uint8_t)(left ? (clamp ? PTX_SUB_L_CLAMP : PTX_SUB_L_WRAP)
                                     : (clamp ? PTX_SUB_R_CLAMP : PTX_SUB_R_WRAP));
            return NULL;
        }
    }
    if (op == PTX_OP_TESTP) {
        static const struct { const char *n; uint8_t v; } cls[] = {
            { ".finite", PTX_SUB_FINITE }, { ".infinite", PTX_SUB_INFINITE },
            { ".number", PTX_SUB_NUMBER }, { ".notanumber", PTX_SUB_NOTANUMBER },
            { ".normal", PTX_SUB_NORMAL }, { ".subnormal", PTX_SUB_SUBNORMAL },
        };
        for (size_t i = 0; i < sizeof cls / sizeof *cls; i++)
            if (strcmp(mod, cls[i].n) == 0)
                return set_sub(in, (ptx_sub_t)cls[i].v);
    }
    if (op == PTX_OP_PRMT) {
        static const struct { const char *n; uint8_t v; } modes[] = {
            { ".f4e", PTX_SUB_F4E }, { ".b4e", PTX_SUB_B4E },
            { ".rc8", PTX_SUB_RC8 }, { ".ecl", PTX_SUB_ECL },
            { ".ecr", PTX_SUB_ECR }, { ".rc16", PTX_SUB_RC16 },
        };
        for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
            if (strcmp(mod, modes[i].n) == 0)
                return set_sub(in, (ptx_sub_t)modes[i].v);
    }
    if (in_list(mod, memory_order, sizeof memory_order / sizeof *memory_order)) {
        in->flags |= PTX_F_RELAXED_SCOPE; /* kept for the timing model */
        return NULL;
    }
    if (in_list(mod, ignored, sizeof ignored / sizeof *ignored))
        return NULL;
    return "unknown modifier";
}

/* Opcodes that need a type suffix. */
static int needs_type(ptx_op_t op)
{
    switch (op) {
    case PTX_OP_BRA: case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT:
    case PTX_OP_BAR: case PTX_OP_BARRIER: case PTX_OP_MEMBAR:
    case PTX_OP_FENCE: case PTX_OP_TRAP: case PTX_OP_NANOSLEEP:
    case PTX_OP_RELSSP: case PTX_OP_PREF: case PTX_OP_ISSPACEP:
    case PTX_OP_ELECT: case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
        return 0;
    default:
        return 1;
    }
}

const char *ptx_check_modifiers(const ptx_insn_t *in)
{
    ptx_op_t op = (ptx_op_t)in->op;
    if (needs_type(op) && in->type == PTX_T_NONE)
        return "missing type suffix (such as .u32 or .f32)";
    if (ptx_is_tex_op(op))
        return ptx_tex_check_modifiers(in);
    if ((op == PTX_OP_CVT || op == PTX_OP_SET || op == PTX_OP_SLCT) &&
        in->type2 == PTX_T_NONE)
        return "needs a destination and a source type (e.g. cvt.f32.s32)";
    if ((op == PTX_OP_SETP || op == PTX_OP_SET || op == PTX_OP_SLCT) &&
        in->cmp == PTX_CMP_NONE && op != PTX_OP_SLCT)
        return "missing comparison (such as .lt or .eq)";
    if ((op == PTX_OP_ATOM || op == PTX_OP_RED) && in->sub == PTX_SUB_NONE)
        return "missing operation (such as .add or .cas)";
    if (op == PTX_OP_RED && (in->sub == PTX_SUB_CAS || in->sub == PTX_SUB_EXCH))
        return "red does not support .cas or .exch (use atom)";
    if (op == PTX_OP_VOTE && in->sub == PTX_SUB_NONE)
        return "missing mode (.all, .any, .uni or .ballot)";
    if (op == PTX_OP_SHFL && in->sub == PTX_SUB_NONE)
        return "missing mode (.up, .down, .bfly or .idx)";
    if ((op == PTX_OP_MATCH || op == PTX_OP_REDUX || op == PTX_OP_ELECT) &&
        !(in->flags & PTX_F_SYNC))
        return "needs .sync";
    if (op == PTX_OP_MATCH && in->sub == PTX_SUB_NONE)
        return "missing mode (.any or .all)";
    if (op == PTX_OP_MATCH && in->type != PTX_T_B32 && in->type != PTX_T_B64)
        return "match is .b32 or .b64";
    if (op == PTX_OP_REDUX && in->sub == PTX_SUB_NONE)
        return "missing operation (.add, .min, .max, .and, .or or .xor)";
    if (op == PTX_OP_REDUX &&
        (in->sub == PTX_SUB_ADD || in->sub == PTX_SUB_MIN ||
         in->sub == PTX_SUB_MAX) && in->type != PTX_T_U32 &&
        in->type != PTX_T_S32)
        return "redux.add/min/max is .u32 or .s32";
    if (op == PTX_OP_REDUX &&
        (in->sub == PTX_SUB_AND || in->sub == PTX_SUB_OR ||
         in->sub == PTX_SUB_XOR) && in->type != PTX_T_B32)
        return "redux.and/or/xor is .b32";
    if ((op == PTX_OP_BMSK || op == PTX_OP_SZEXT) && in->sub == PTX_SUB_NONE)
        return "missing mode (.wrap or .clamp)";
    if (op == PTX_OP_BMSK && in->type != PTX_T_B32)
        return "bmsk is .b32";
    if (op == PTX_OP_SZEXT && in->type != PTX_T_U32 && in->type != PTX_T_S32)
        return "szext is .u32 or .s32";
    if (op == PTX_OP_FNS && in->type != PTX_T_B32)
        return "fns is .b32";
    if ((op == PTX_OP_ALLOCA || op == PTX_OP_STACKSAVE ||
         op == PTX_OP_STACKRESTORE) &&
        in->type != PTX_T_U32 && in->type != PTX_T_U64)
        return "is .u32 or .u64";
    if ((op == PTX_OP_DP4A || op == PTX_OP_DP2A) &&
        ((in->type != PTX_T_U32 && in->type != PTX_T_S32) ||
         (in->type2 != PTX_T_U32 && in->type2 != PTX_T_S32)))
        return "needs an a and a b type, each .u32 or .s32 (dp4a.u32.s32)";
    if (op == PTX_OP_DP2A && in->sub == PTX_SUB_NONE)
        return "missing .lo or .hi (the bytes of b used)";
    if (ptx_op_is_video(op)) {
        int set = op == PTX_OP_VSET4 || op == PTX_OP_VSET2;
        ptx_type_t t[3] = { (ptx_type_t)in->type, (ptx_type_t)in->type2,
                            (ptx_type_t)in->type3 };
        if (set && t[2] != PTX_T_NONE)
            return "vset has an a and a b type only (vset4.u32.u32.lt)";
        for (int i = 0; i < (set ? 2 : 3); i++)
            if (t[i] != PTX_T_U32 && t[i] != PTX_T_S32)
                return set ? "needs an a and a b type, each .u32 or .s32 "
                             "(vset4.u32.u32.lt)"
                           : "needs a d, an a and a b type, each .u32 or .s32 "
                             "(vadd4.u32.u32.u32)";
        if (set && in->cmp == PTX_CMP_NONE)
            return "missing comparison (.eq .ne .lt .le .gt .ge)";
        if ((in->flags & PTX_F_SAT) && (set || in->sub == PTX_SUB_ADD))
            return ".sat cannot go with vset or the .add accumulate";
    }
    if (op == PTX_OP_SHF && in->sub == PTX_SUB_NONE)
        return "missing direction (.l or .r)";
    if (op == PTX_OP_TESTP && in->sub == PTX_SUB_NONE)
        return "missing class (such as .finite or .notanumber)";
    if (op == PTX_OP_BAR && in->sub == PTX_SUB_NONE)
        return "missing .sync, .arrive or .red";
    if (op == PTX_OP_BAR && in->sub == PTX_SUB_WARP)
        return "bar.warp needs .sync";
    if (op == PTX_OP_BARRIER && in->sub == PTX_SUB_NONE)
        return "missing .sync, .arrive or .red";
    if ((op == PTX_OP_MUL || op == PTX_OP_MAD) && in->sub == PTX_SUB_NONE &&
        !ptx_type_is_float((ptx_type_t)in->type))
        return "integer mul/mad needs .lo, .hi or .wide";
    if (op == PTX_OP_CVTA && in->space == PTX_SPACE_NONE)
        return "missing state space (e.g. cvta.to.global)";
    if (op == PTX_OP_ISSPACEP && in->space == PTX_SPACE_NONE)
        return "missing state space";
    if ((op == PTX_OP_SIN || op == PTX_OP_COS || op == PTX_OP_EX2 ||
         op == PTX_OP_LG2 || op == PTX_OP_TANH) &&
        in->type == PTX_T_F32 && !(in->flags & PTX_F_APPROX))
        return "needs .approx";
    if (op == PTX_OP_ST && in->space == PTX_SPACE_CONST)
        return "cannot store to the .const space";
    if (op == PTX_OP_CVT && in->rnd == PTX_RND_NONE &&
        ptx_type_is_float((ptx_type_t)in->type) &&
        ptx_type_is_float((ptx_type_t)in->type2) &&
        ptx_type_bits((ptx_type_t)in->type) < ptx_type_bits((ptx_type_t)in->type2))
        return "a narrowing float conversion needs a rounding mode such as .rn";
    return NULL;
}

/* ---------- operands ---------- */

typedef struct { uint8_t lo, hi; } arity_t;

static arity_t arity(ptx_op_t op)
{
    switch (op) {
    case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_MEMBAR: case PTX_OP_FENCE:
    case PTX_OP_TRAP:
        return (arity_t){ 0, 0 };
    case PTX_OP_RELSSP: return (arity_t){ 0, 1 };
    case PTX_OP_ACTIVEMASK: case PTX_OP_BRA: case PTX_OP_NANOSLEEP:
    case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU: case PTX_OP_STACKSAVE:
    case PTX_OP_STACKRESTORE:
        return (arity_t){ 1, 1 };
    case PTX_OP_ALLOCA: return (arity_t){ 2, 3 };
    case PTX_OP_PREF: return (arity_t){ 1, 4 };
    case PTX_OP_CALL: return (arity_t){ 1, 4 };
    case PTX_OP_BAR: case PTX_OP_BARRIER: return (arity_t){ 1, 4 };
    case PTX_OP_MOV: case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST:
    case PTX_OP_CVTA: case PTX_OP_ABS: case PTX_OP_NEG:
    case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_EX2:
    case PTX_OP_LG2: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_TANH:
    case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_BREV: case PTX_OP_POPC:
    case PTX_OP_CLZ: case PTX_OP_BFIND: case PTX_OP_TESTP:
    case PTX_OP_ISSPACEP: case PTX_OP_RED:
        return (arity_t){ 2, 2 };
    case PTX_OP_CVT: return (arity_t){ 2, 3 }; /* 3: packing f16x2 */
    case PTX_OP_VOTE: return (arity_t){ 2, 3 };
    case PTX_OP_SETP: case PTX_OP_SET: return (arity_t){ 3, 4 };
    case PTX_OP_ATOM: return (arity_t){ 3, 4 };
    case PTX_OP_MAD: case PTX_OP_MAD24: case PTX_OP_MADC: case PTX_OP_FMA:
    case PTX_OP_SELP: case PTX_OP_SLCT: case PTX_OP_BFE: case PTX_OP_PRMT:
    case PTX_OP_SAD: case PTX_OP_SHF: case PTX_OP_FNS: case PTX_OP_DP4A:
    case PTX_OP_DP2A:
        return (arity_t){ 4, 4 };
    case PTX_OP_ELECT: return (arity_t){ 2, 2 };
    case PTX_OP_SHFL: return (arity_t){ 4, 5 };
    case PTX_OP_BFI: case PTX_OP_LOP3: return (arity_t){ 5, 5 };
    default:
        if (ptx_op_is_video(op))
            return (arity_t){ 4, 4 };
        return (arity_t){ 3, 3 };
    }
}

static int is_reg(const ptx_operand_t *o) { return o->kind == PTX_OPND_REG; }

static int is_pred_reg(const ptx_operand_t *o, const ptx_function_t *f)
{
    return o->kind == PTX_OPND_REG &&
           (o->reg == PTX_REG_SINK || f->regs[o->reg].type == PTX_T_PRED);
}

/* a plain value source: register, immediate, special register or symbol */
static int is_value(const ptx_operand_t *o)
{
    return o->kind == PTX_OPND_REG || o->kind == PTX_OPND_IMM ||
           o->kind == PTX_OPND_SREG || o->kind == PTX_OPND_SYM;
}

const char *ptx_check_operands(ptx_insn_t *in, const ptx_function_t *f,
                               char *why, size_t why_size)
{
    ptx_op_t op = (ptx_op_t)in->op;
    if (ptx_is_tex_op(op))
        return ptx_tex_check_operands(in, why, why_size);
    arity_t a = arity(op);
    if (in->nops < a.lo || in->nops > a.hi) {
        if (a.lo == a.hi)
            snprintf(why, why_size, "expects %u operand%s, found %u", a.lo,
                     a.lo == 1 ? "" : "s", in->nops);
        else
            snprintf(why, why_size, "expects %u to %u operands, found %u",
                     a.lo, a.hi, in->nops);
        return why;
    }
    const ptx_operand_t *o = in->ops;
    switch (op) {
    case PTX_OP_LD: case PTX_OP_LDU:
        if (o[1].kind != PTX_OPND_ADDR)
            return "the source must be an address such as [%rd1]";
        if (in->vec > 1 && (o[0].kind != PTX_OPND_VEC || o[0].nvec != in->vec))
            return "a .v2/.v4 load needs a {...} destination of that width";
        if (in->vec == 1 && !is_reg(&o[0]))
            return "the destination must be a register";
        return NULL;
    case PTX_OP_ST:
        if (o[0].kind != PTX_OPND_ADDR)
            return "the destination must be an address such as [%rd1]";
        if (in->vec > 1 && (o[1].kind != PTX_OPND_VEC || o[1].nvec != in->vec))
            return "a .v2/.v4 store needs a {...} source of that width";
        if (in->vec == 1 && !is_value(&o[1]))
            return "the source must be a register or immediate";
        return NULL;
    case PTX_OP_ATOM:
        if (!is_reg(&o[0]))
            return "the destination must be a register";
        if (o[1].kind != PTX_OPND_ADDR)
            return "the second operand must be an address";
        if ((in->sub == PTX_SUB_CAS) != (in->nops == 4))
            return in->sub == PTX_SUB_CAS ? "atom.cas needs compare and swap values"
                                          : "too many operands";
        return NULL;
    case PTX_OP_RED:
        if (o[0].kind != PTX_OPND_ADDR)
            return "the first operand must be an address";
        return NULL;
    case PTX_OP_BRA:
        if (o[0].kind != PTX_OPND_LABEL)
            return "the target must be a label";
        return NULL;
    case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
        if (o[0].kind != PTX_OPND_ADDR)
            return "the operand must be an address such as [%rd1]";
        return NULL;
    case PTX_OP_STACKRESTORE:
        if (!is_reg(&o[0]))
            return "the operand must be a register from stacksave";
        return NULL;
    case PTX_OP_ALLOCA:
        if (in->nops == 3 && (o[2].kind != PTX_OPND_IMM || o[2].imm <= 0 ||
                              (o[2].imm & (o[2].imm - 1)) || o[2].imm > 4096))
            return "the alignment must be a power of two up to 4096";
        break;
    case PTX_OP_CALL: {
        unsigned fi = o[0].kind == PTX_OPND_LIST ? 1 : 0;
        unsigned end = in->nops;
        if (fi >= in->nops ||
            (o[fi].kind != PTX_OPND_FUNC && o[fi].kind != PTX_OPND_LABEL &&
             o[fi].kind != PTX_OPND_REG))
            return "expects call (ret), function, (args)";
        if (o[fi].kind == PTX_OPND_REG) {
            if (o[fi].reg == PTX_REG_SINK ||
                f->regs[o[fi].reg].type == PTX_T_PRED)
                return "an indirect call's target must be a register holding "
                       "a function address";
            if (o[end - 1].kind != PTX_OPND_PROTO)
                return "an indirect call (through a register) needs a "
                       ".callprototype as its last operand";
            end--;
        }
        for (unsigned i = fi + 1; i < end; i++)
            if (o[i].kind != PTX_OPND_LIST)
                return "call arguments must be a (...) list of .param names";
        return NULL;
    }
    case PTX_OP_CVT:
        if (in->nops == 3 && in->type != PTX_T_F16X2 &&
            in->type != PTX_T_BF16X2)
            return "a third operand packs two values: cvt.rn.f16x2.f32 d, a, b";
        break;
    case PTX_OP_SETP:
        if (!is_pred_reg(&o[0], f))
            return "the destination must be a .pred register";
        if (in->nops == 4 && !in->combine)
            return "a fourth operand needs .and, .or or .xor";
        if (in->nops == 3 && in->combine)
            return "a .and/.or/.xor combiner needs a predicate operand";
        if (in->nops == 4 && !is_pred_reg(&o[3], f))
            return "the combined operand must be a .pred register";
        return NULL;
    case PTX_OP_SELP:
        if (!is_pred_reg(&o[3], f))
            return "the selector must be a .pred register";
        break;
    case PTX_OP_VOTE:
        if (!is_pred_reg(&o[1], f))
            return "the source must be a .pred register";
        if (in->sub == PTX_SUB_BALLOT ? in->type != PTX_T_B32
                                      : in->type != PTX_T_PRED)
            return "vote.ballot is .b32; vote.all/any/uni are .pred";
        if (in->sub != PTX_SUB_BALLOT && !is_pred_reg(&o[0], f))
            return "the destination must be a .pred register";
        if ((in->flags & PTX_F_SYNC) && in->nops != 3)
            return "vote.sync needs a member mask";
        return NULL;
    case PTX_OP_TESTP: case PTX_OP_ISSPACEP:
        if (!is_pred_reg(&o[0], f))
            return "the destination must be a .pred register";
        return NULL;
    case PTX_OP_SHFL:
        if ((in->flags & PTX_F_SYNC) && in->nops != 5)
            return "shfl.sync needs d, a, b, c, membermask";
        if (!(in->flags & PTX_F_SYNC) && in->nops != 4)
            return "shfl needs d, a, b, c";
        break;
    case PTX_OP_MOV:
        if (o[0].kind == PTX_OPND_VEC && !is_reg(&o[1]))
            return "unpacking mov needs a register source";
        if (o[0].kind != PTX_OPND_VEC && !is_reg(&o[0]))
            return "the destination must be a register";
        return NULL;
    case PTX_OP_ELECT:
        if (!is_reg(&o[0]) || o[0].nvec != 1 ||
            !is_pred_reg(&(ptx_operand_t){ .kind = PTX_OPND_REG,
                                           .reg = o[0].vec[0] }, f))
            return "elect.sync needs d|p (a register or '_', and a .pred)";
        if (!is_value(&o[1]))
            return "the member mask must be a register or immediate";
        return NULL;
    case PTX_OP_MATCH:
        if (in->sub == PTX_SUB_ANY && o[0].nvec)
            return "match.any has no predicate destination";
        break;
    case PTX_OP_BAR:
        if (in->sub == PTX_SUB_WARP_SYNC && in->nops != 1)
            return "bar.warp.sync takes one operand, the member mask";
        return NULL;
    case PTX_OP_BARRIER: case PTX_OP_RELSSP:
    case PTX_OP_PREF: case PTX_OP_NANOSLEEP: case PTX_OP_RET:
    case PTX_OP_EXIT: case PTX_OP_MEMBAR: case PTX_OP_FENCE:
    case PTX_OP_TRAP:
        return NULL;
    default:
        break;
    }
    if (!is_reg(&o[0]))
        return "the destination must be a register";
    for (unsigned i = 1; i < in->nops; i++) {
        if (!is_value(&o[i]) && o[i].kind != PTX_OPND_VEC) {
            snprintf(why, why_size, "operand %u must be a register or immediate",
                     i + 1);
            return why;
        }
    }
    return NULL;
}
