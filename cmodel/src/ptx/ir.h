/* ir.h: the decoded form of a PTX module.
 *
 * The parser produces this directly: every instruction is decoded once into
 * a ptx_insn_t (opcode, types, modifiers, operand descriptors); labels and
 * symbols are resolved at the end of parsing, so nothing later reads text.
 * All instructions of a module live in one array; a function owns the range
 * [first, first + count).  Registers are numbered per function.
 */
#ifndef PTX_IR_H
#define PTX_IR_H

#include <stddef.h>
#include <stdint.h>

/* ---- opcodes ---- */
#define PTX_OPCODES(X)                                                        \
    X(MOV, "mov") X(LD, "ld") X(LDU, "ldu") X(ST, "st") X(CVTA, "cvta")     \
    X(CVT, "cvt") X(ADD, "add") X(SUB, "sub") X(MUL, "mul") X(MAD, "mad")   \
    X(MUL24, "mul24") X(MAD24, "mad24") X(ADDC, "addc") X(SUBC, "subc")     \
    X(MADC, "madc") X(DIV, "div") X(REM, "rem") X(ABS, "abs") X(NEG, "neg") \
    X(MIN, "min") X(MAX, "max") X(FMA, "fma") X(RCP, "rcp") X(SQRT, "sqrt") \
    X(RSQRT, "rsqrt") X(EX2, "ex2") X(LG2, "lg2") X(SIN, "sin")             \
    X(COS, "cos") X(TANH, "tanh") X(AND, "and") X(OR, "or") X(XOR, "xor")   \
    X(NOT, "not") X(CNOT, "cnot") X(SHL, "shl") X(SHR, "shr") X(SHF, "shf") \
    X(BFE, "bfe") X(BFI, "bfi") X(BREV, "brev") X(POPC, "popc")             \
    X(CLZ, "clz") X(BFIND, "bfind") X(PRMT, "prmt") X(LOP3, "lop3")         \
    X(SAD, "sad") X(COPYSIGN, "copysign") X(TESTP, "testp")                 \
    X(SETP, "setp") X(SELP, "selp") X(SET, "set") X(SLCT, "slct")           \
    X(BRA, "bra") X(CALL, "call") X(RET, "ret") X(EXIT, "exit")             \
    X(BAR, "bar") X(BARRIER, "barrier") X(MEMBAR, "membar")                 \
    X(FENCE, "fence") X(ATOM, "atom") X(RED, "red") X(VOTE, "vote")         \
    X(ACTIVEMASK, "activemask") X(SHFL, "shfl") X(ISSPACEP, "isspacep")     \
    X(TRAP, "trap") X(NANOSLEEP, "nanosleep") X(RELSSP, "relssp")           \
    X(PREF, "pref")                                                          \
    X(TEX, "tex") X(TLD4, "tld4") X(SULD, "suld") X(SUST, "sust")                \
    X(BMSK, "bmsk") X(SZEXT, "szext") X(FNS, "fns") X(MATCH, "match")       \
    X(REDUX, "redux") X(ELECT, "elect")                                      \
    X(VADD4, "vadd4") X(VSUB4, "vsub4") X(VAVRG4, "vavrg4")                 \
    X(VABSDIFF4, "vabsdiff4") X(VMIN4, "vmin4") X(VMAX4, "vmax4")           \
    X(VSET4, "vset4") X(VADD2, "vadd2") X(VSUB2, "vsub2")                   \
    X(VAVRG2, "vavrg2") X(VABSDIFF2, "vabsdiff2") X(VMIN2, "vmin2")         \
    X(VMAX2, "vmax2") X(VSET2, "vset2") X(DP4A, "dp4a") X(DP2A, "dp2a")  \
    X(PREFETCH, "prefetch") X(PREFETCHU, "prefetchu") X(ALLOCA, "alloca")   \
    X(STACKSAVE, "stacksave") X(STACKRESTORE, "stackrestore")

typedef enum ptx_op {
#define X(id, s) PTX_OP_##id,
    PTX_OPCODES(X)
#undef X
    PTX_OP_COUNT
} ptx_op_t;

const char *ptx_op_name(ptx_op_t op);

/* ---- types ---- */
typedef enum ptx_type {
    PTX_T_NONE = 0,
    PTX_T_PRED,
    PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64,
    PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
    PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
    PTX_T_F16, PTX_T_F32, PTX_T_F64,
    PTX_T_F16X2,           /* two binary16 in 32 bits, element 0 low */
    PTX_T_BF16, PTX_T_BF16X2, /* bfloat16: the upper half of a binary32 */
    PTX_T_COUNT
} ptx_type_t;

const char *ptx_type_name(ptx_type_t t);  /* ".s32" */

/* Width in bits (1 for pred); inline: the interpreter asks per lane. */
static inline unsigned ptx_type_bits(ptx_type_t t)
{
    static const uint8_t bits[PTX_T_COUNT] = {
        0, 1, 8, 16, 32, 64, 8, 16, 32, 64, 8, 16, 32, 64, 16, 32, 64, 32,
        16, 32,
    };
    return t < PTX_T_COUNT ? bits[t] : 0;
}

static inline int ptx_type_is_float(ptx_type_t t)
{
    return t == PTX_T_F16 || t == PTX_T_F32 || t == PTX_T_F64 ||
           t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2;
}

/* The 16-bit float formats, scalar and paired (exec_half.c). */
static inline int ptx_type_is_half(ptx_type_t t)
{
    return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 ||
           t == PTX_T_BF16X2;
}

/* The SIMD video instructions (vadd4 ... vset2): a in-register vector of
 * 4 bytes or 2 half-words. */
static inline int ptx_op_is_video(unsigned op)
{
    return op >= PTX_OP_VADD4 && op <= PTX_OP_VSET2;
}

static inline int ptx_type_is_signed(ptx_type_t t)
{
    return t >= PTX_T_S8 && t <= PTX_T_S64;
}

/* ---- state spaces ---- */
typedef enum ptx_space {
    PTX_SPACE_NONE = 0, /* generic addressing */
    PTX_SPACE_REG,
    PTX_SPACE_GLOBAL,
    PTX_SPACE_SHARED,
    PTX_SPACE_LOCAL,
    PTX_SPACE_CONST,
    PTX_SPACE_PARAM,
} ptx_space_t;

const char *ptx_space_name(ptx_space_t s);

/* ---- modifiers ---- */
typedef enum ptx_cmp {
    PTX_CMP_NONE = 0,
    PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
    PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,
    PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU,
    PTX_CMP_GEU, PTX_CMP_NUM, PTX_CMP_NAN,
} ptx_cmp_t;

typedef enum ptx_rnd {
    PTX_RND_NONE = 0,
    PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP,     /* float result */
    PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI, /* integer rounding */
} ptx_rnd_t;

/* sub-operation, meaning depends on the opcode */
typedef enum ptx_sub {
    PTX_SUB_NONE = 0,
    /* mul/mad */
    PTX_SUB_LO, PTX_SUB_HI, PTX_SUB_WIDE,
    /* setp/set combiner, atom/red/bar.red op, lop */
    PTX_SUB_AND, PTX_SUB_OR, PTX_SUB_XOR,
    PTX_SUB_ADD, PTX_SUB_MIN, PTX_SUB_MAX, PTX_SUB_INC, PTX_SUB_DEC,
    PTX_SUB_CAS, PTX_SUB_EXCH, PTX_SUB_POPC,
    /* vote */
    PTX_SUB_ALL, PTX_SUB_ANY, PTX_SUB_UNI, PTX_SUB_BALLOT,
    /* shfl */
    PTX_SUB_UP, PTX_SUB_DOWN, PTX_SUB_BFLY, PTX_SUB_IDX,
    /* bar/barrier */
    PTX_SUB_SYNC, PTX_SUB_ARRIVE, PTX_SUB_RED,
    PTX_SUB_WARP, PTX_SUB_WARP_SYNC, /* bar.warp (until .sync), bar.warp.sync */
    /* shf */
    PTX_SUB_L_WRAP, PTX_SUB_L_CLAMP, PTX_SUB_R_WRAP, PTX_SUB_R_CLAMP,
    /* testp */
    PTX_SUB_FINITE, PTX_SUB_INFINITE, PTX_SUB_NUMBER, PTX_SUB_NOTANUMBER,
    PTX_SUB_NORMAL, PTX_SUB_SUBNORMAL,
    /* prmt modes */
    PTX_SUB_F4E, PTX_SUB_B4E, PTX_SUB_RC8, PTX_SUB_ECL, PTX_SUB_ECR,
    PTX_SUB_RC16,
    /* tex/tld4/suld/sust (ptx/tex_syntax.c): tld4 component, tex with an
     * explicit level or gradients, surface out-of-range mode */
    PTX_SUB_TEX_R, PTX_SUB_TEX_G, PTX_SUB_TEX_B, PTX_SUB_TEX_A,
    PTX_SUB_TEX_LEVEL, PTX_SUB_TEX_GRAD,
    PTX_SUB_SURF_TRAP, PTX_SUB_SURF_CLAMP, PTX_SUB_SURF_ZERO,
    /* bmsk, szext */
    PTX_SUB_WRAP, PTX_SUB_CLAMP,
} ptx_sub_t;

/* texture and surface geometry (tex, tld4, suld, sust) */
typedef enum ptx_geom {
    PTX_GEOM_NONE = 0,
    PTX_GEOM_1D, PTX_GEOM_2D, PTX_GEOM_3D, PTX_GEOM_A1D, PTX_GEOM_A2D,
    PTX_GEOM_CUBE, PTX_GEOM_ACUBE,
} ptx_geom_t;

enum ptx_flag {
    PTX_F_FTZ = 1u << 0,
    PTX_F_SAT = 1u << 1,
    PTX_F_APPROX = 1u << 2,
    PTX_F_FULL = 1u << 3,
    PTX_F_CC = 1u << 4,     /* .cc: writes the carry flag */
    PTX_F_UNI = 1u << 5,    /* bra.uni / call.uni */
    PTX_F_TO = 1u << 6,     /* cvta.to */
    PTX_F_SYNC = 1u << 7,   /* vote.sync / shfl.sync */
    PTX_F_ALIGNED = 1u << 8,
    PTX_F_VOLATILE = 1u << 9,
    PTX_F_SHIFTAMT = 1u << 10, /* bfind.shiftamt */
    PTX_F_RELAXED_SCOPE = 1u << 11, /* a memory-order or scope qualifier */
};

/* ---- special registers ---- */
typedef enum ptx_sreg {
    PTX_SREG_TID_X, PTX_SREG_TID_Y, PTX_SREG_TID_Z,
    PTX_SREG_NTID_X, PTX_SREG_NTID_Y, PTX_SREG_NTID_Z,
    PTX_SREG_CTAID_X, PTX_SREG_CTAID_Y, PTX_SREG_CTAID_Z,
    PTX_SREG_NCTAID_X, PTX_SREG_NCTAID_Y, PTX_SREG_NCTAID_Z,
    PTX_SREG_LANEID, PTX_SREG_WARPID, PTX_SREG_NWARPID, PTX_SREG_SMID,
    PTX_SREG_NSMID, PTX_SREG_GRIDID,
    PTX_SREG_CLOCK, PTX_SREG_CLOCK_HI, PTX_SREG_CLOCK64,
    PTX_SREG_GLOBALTIMER,
    PTX_SREG_LANEMASK_EQ, PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_LT,
    PTX_SREG_LANEMASK_GE, PTX_SREG_LANEMASK_GT,
    PTX_SREG_DYN_SMEM_SIZE, PTX_SREG_TOTAL_SMEM_SIZE,
    /* clusters (sm_90): the model runs clusters of one CTA */
    PTX_SREG_CLUSTERID_X, PTX_SREG_CLUSTERID_Y, PTX_SREG_CLUSTERID_Z,
    PTX_SREG_NCLUSTERID_X, PTX_SREG_NCLUSTERID_Y, PTX_SREG_NCLUSTERID_Z,
    PTX_SREG_CLUSTER_CTAID_X, PTX_SREG_CLUSTER_CTAID_Y,
    PTX_SREG_CLUSTER_CTAID_Z, PTX_SREG_CLUSTER_NCTAID_X,
    PTX_SREG_CLUSTER_NCTAID_Y, PTX_SREG_CLUSTER_NCTAID_Z,
    PTX_SREG_CLUSTER_CTARANK, PTX_SREG_CLUSTER_NCTARANK,
    PTX_SREG_IS_EXPLICIT_CLUSTER,
    PTX_SREG_ENVREG0, /* %envreg0..%envreg31: PTX_SREG_ENVREG0 + n */
    PTX_SREG_COUNT = PTX_SREG_ENVREG0 + 32
} ptx_sreg_t;

/* The predefined constant WARP_SZ (an immediate wherever one may stand). */
#define PTX_WARP_SZ 32

/* ---- operands ---- */
typedef enum ptx_opnd_kind {
    PTX_OPND_NONE = 0,
    PTX_OPND_REG,   /* reg: function register index */
    PTX_OPND_IMM,   /* imm: value bits; is_float says the literal was a float */
    PTX_OPND_SREG,  /* reg: ptx_sreg_t */
    PTX_OPND_ADDR,  /* [base + imm]; base is reg (has_reg) and/or sym */
    PTX_OPND_VEC,   /* {vec[0..nvec-1]}; PTX_REG_SINK for '_' */
    PTX_OPND_SYM,   /* sym used as a value (its address) */
    PTX_OPND_LABEL, /* imm: instruction index after resolution */
    PTX_OPND_FUNC,  /* sym: function index */
    PTX_OPND_LIST,  /* (a, b, ...) of a call: nvec symbols starting at
                       module->call_lists[imm] */
    PTX_OPND_PROTO, /* an indirect call's .callprototype: module->protos[imm] */
} ptx_opnd_kind_t;

#define PTX_REG_SINK 0xffffu
#define PTX_NO_SYM 0xffffffffu

typedef struct ptx_operand {
    uint8_t kind;      /* ptx_opnd_kind_t */
    uint8_t neg;       /* !p for predicate sources */
    uint8_t nvec;
    uint8_t is_float;  /* IMM from a floating literal (value already in type) */
    uint8_t has_reg;   /* ADDR with a register base */
    uint16_t reg;
    uint16_t vec[4];
    uint32_t sym;      /* symbol index, or PTX_NO_SYM */
    int64_t imm;
} ptx_operand_t;

#define PTX_MAX_OPERANDS 6

typedef struct ptx_insn {
    uint8_t op;        /* ptx_op_t */
    uint8_t type;      /* instruction type (destination type for cvt) */
    uint8_t type2;     /* cvt source type; set's source type; the video
                          instructions' a type */
    uint8_t type3;     /* the video instructions' b type */
    uint8_t space;     /* ptx_space_t for ld/st/atom/red/cvta/isspacep */
    uint8_t cmp;       /* ptx_cmp_t */
    uint8_t combine;   /* setp/set .and/.or/.xor (PTX_SUB_AND...) */
    uint8_t rnd;       /* ptx_rnd_t */
    uint8_t vec;       /* 1, 2 or 4 */
    uint8_t sub;       /* ptx_sub_t */
    uint8_t nops;
    uint8_t guard_neg;
    uint8_t geom;      /* ptx_geom_t of tex/tld4/suld/sust */
    uint16_t flags;    /* enum ptx_flag */
    uint16_t guard;    /* predicate register or PTX_REG_SINK (none) */
    uint32_t line, col;
    uint32_t func;     /* owning function index */
    ptx_operand_t ops[PTX_MAX_OPERANDS];
} ptx_insn_t;

/* ---- registers ---- */
typedef struct ptx_reg {
    char *name;
    uint8_t type;       /* declared type */
} ptx_reg_t;

/* ---- symbols (variables, parameters, functions) ---- */
typedef enum ptx_sym_kind {
    PTX_SYM_VAR,         /* .global/.shared/.const/.local variable */
    PTX_SYM_KPARAM,      /* .entry parameter */
    PTX_SYM_FPARAM,      /* .func parameter or return value */
    PTX_SYM_CPARAM,      /* .param declared inside a body (call sequences) */
    PTX_SYM_FUNC,
} ptx_sym_kind_t;

typedef struct ptx_symbol {
    char *name;
    uint8_t kind;       /* ptx_sym_kind_t */
    uint8_t space;      /* ptx_space_t */
    uint8_t type;       /* element type */
    uint8_t is_extern;  /* extern .shared (dynamic) */
    uint32_t align;
    uint64_t size;      /* bytes (0 for dynamic shared) */
    uint64_t offset;    /* in its space: param buffer, per-function frame,
                           shared layout, const bank; global: assigned at
                           load */
    uint32_t func;      /* owning function for locals/params, or ~0 */
    uint8_t *init;      /* initial bytes (size bytes) or NULL */
    uint32_t line, col;
} ptx_symbol_t;

/* An address stored by an initializer (`= fn`, `= generic(v)+8`,
 * `= {0xFF(v), 0xFF00(v)}`), written when the module is loaded, once the
 * addresses are known: the bits `mask` selects of the target's address plus
 * addend, shifted down by the mask's trailing zeros, as `bytes` little-endian
 * bytes at `offset` in variable `var`. */
typedef struct ptx_reloc {
    uint32_t var;        /* symbol initialised */
    uint32_t target;     /* symbol whose address is stored (a variable or a
                            function) */
    uint64_t offset;     /* byte offset in var */
    int64_t addend;
    uint64_t mask;
    uint8_t bytes;
    uint8_t generic;     /* generic(v): the generic address of v */
    uint32_t line, col;
} ptx_reloc_t;

/* Functions the CUDA runtime provides and nvcc only declares (.extern
 * .func): the model implements them itself (exec/exec_builtin.c). */
typedef enum ptx_builtin {
    PTX_BUILTIN_NONE = 0,
    PTX_BUILTIN_VPRINTF,     /* vprintf(format, argument buffer): printf */
    PTX_BUILTIN_ASSERTFAIL,  /* __assertfail(message, file, line, function,
                                char size): a failed assert */
} ptx_builtin_t;

typedef struct ptx_function {
    char *name;
    int is_entry;
    uint8_t builtin;             /* ptx_builtin_t: declared, never defined */
    uint32_t first, count;       /* instruction range */
    ptx_reg_t *regs;
    uint32_t nregs;
    uint32_t *params;            /* symbol indices, in order */
    uint32_t nparams;
    uint32_t *rets;              /* .func return symbols */
    uint32_t nrets;
    uint64_t param_bytes;        /* .entry: parameter buffer size */
    uint64_t frame_bytes;        /* per-thread .local + .param frame */
    uint64_t shared_bytes;       /* static .shared declared in the body */
    uint32_t shared_align;       /* largest alignment among those */
    uint32_t maxntid[3], reqntid[3];
    uint32_t maxnreg, minnctapersm;
    uint32_t line, col;
} ptx_function_t;

/* A `name: .callprototype (rets) _ (args);` declaration: the shape of the
 * functions an indirect call (through a register) may reach. */
typedef struct ptx_proto {
    char *name;
    char *text;                  /* the declaration after the name, as written */
    uint32_t func;               /* the function declaring it */
    uint32_t nargs, nrets;
} ptx_proto_t;

typedef struct ptx_module {
    char *file;                  /* name used in diagnostics */
    unsigned version_major, version_minor;
    char target[32];
    unsigned address_size;
    ptx_insn_t *insns;
    uint32_t ninsns;
    ptx_function_t *funcs;
    uint32_t nfuncs;
    ptx_symbol_t *syms;
    uint32_t nsyms;
    uint64_t shared_bytes;       /* module-scope static .shared */
    uint64_t const_bytes;        /* const bank size */
    uint64_t global_bytes;       /* module-scope .global variables */
    uint32_t *call_lists;        /* LIST operands: symbol indices */
    uint32_t ncall_lists;
    ptx_reloc_t *relocs;         /* addresses in initializers */
    uint32_t nrelocs;
    ptx_proto_t *protos;         /* call prototypes, in source order */
    uint32_t nprotos;
    char *source;                /* copy of the text, for reports */
    uint32_t *line_start;        /* offset of each line in source (1-based) */
    uint32_t nlines;
} ptx_module_t;

struct simt_error;

/* Parses PTX text; `file` names it in diagnostics.  On error returns NULL
 * and fills err with "file:line:col: error: ...". */
ptx_module_t *ptx_parse(const char *file, const char *text, size_t len,
                        struct simt_error *err);
void ptx_module_free(ptx_module_t *m);

/* The text of source line `line` (without newline) into buf. */
const char *ptx_source_line(const ptx_module_t *m, uint32_t line, char *buf,
                            size_t size);

/* Looks up a function by name; returns its index or -1. */
int ptx_find_function(const ptx_module_t *m, const char *name);

/* Shared-memory layout of a kernel: module-scope .shared variables at
 * [0, m->shared_bytes), then the kernel's own, starting at
 * ptx_kernel_shared_base (aligned for them).  ptx_kernel_shared_bytes is the
 * static total. */
uint64_t ptx_kernel_shared_base(const ptx_module_t *m, uint32_t func);
uint64_t ptx_kernel_shared_bytes(const ptx_module_t *m, uint32_t func);

#endif
