/* printer.c: PTX text from the IR (printer.h). */
#include "ptx/printer.h"
#include "ptx/tex_syntax.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/parser_tables.h"

typedef struct printer {
    const ptx_module_t *m;
    FILE *out;
    uint8_t *is_target; /* per instruction: some branch goes there */
    uint8_t *dup_reg;   /* per register of the function being printed: its
                           name repeats an earlier one (nested scopes) */
} printer_t;

/* Does symbol s share its name with an earlier symbol of its function? */
static int repeated(const ptx_module_t *m, uint32_t s)
{
    const ptx_symbol_t *y = &m->syms[s];
    if (y->func == ~0u || y->kind == PTX_SYM_FUNC || y->kind == PTX_SYM_KPARAM ||
        y->kind == PTX_SYM_FPARAM)
        return 0;
    for (uint32_t i = 0; i < s; i++)
        if (m->syms[i].func == y->func && m->syms[i].kind != PTX_SYM_FUNC &&
            !strcmp(m->syms[i].name, y->name))
            return 1;
    return 0;
}

static void sym_name(const printer_t *p, uint32_t s)
{
    if (repeated(p->m, s))
        fprintf(p->out, "%s_%" PRIu32, p->m->syms[s].name, s);
    else
        fputs(p->m->syms[s].name, p->out);
}

static void reg_name(const printer_t *p, uint32_t f, uint16_t r)
{
    fputs(r == PTX_REG_SINK ? "_" : p->m->funcs[f].regs[r].name, p->out);
    if (r != PTX_REG_SINK && p->dup_reg[r])
        fprintf(p->out, "_%u", r);
}

static void label_name(const printer_t *p, uint32_t insn)
{
    uint32_t f = p->m->insns[insn].func;
    fprintf(p->out, "$L_%" PRIu32 "_%" PRIu32, f, insn - p->m->funcs[f].first);
}

/* A declaration's type, alignment and name: `.b8 x[n]` unless the symbol
 * is one scalar of its element type. */
static void declare(const printer_t *p, uint32_t s)
{
    const ptx_symbol_t *y = &p->m->syms[s];
    unsigned bytes = ptx_type_bits((ptx_type_t)y->type) / 8;
    if (y->align)
        fprintf(p->out, " .align %" PRIu32, y->align);
    if (!y->is_extern && bytes && y->size == bytes && y->type != PTX_T_PRED) {
        fprintf(p->out, " %s ", ptx_type_name((ptx_type_t)y->type));
        sym_name(p, s);
        return;
    }
    fputs(" .b8 ", p->out);
    sym_name(p, s);
    if (y->is_extern)
        fputs("[]", p->out);
    else
        fprintf(p->out, "[%" PRIu64 "]", y->size);
}

/* The relocation (ir.h) of variable s that writes byte `at`, or NULL. */
static const ptx_reloc_t *reloc_at(const ptx_module_t *m, uint32_t s,
                                   uint64_t at)
{
    for (uint32_t i = 0; i < m->nrelocs; i++)
        if (m->relocs[i].var == s && at >= m->relocs[i].offset &&
            at < m->relocs[i].offset + m->relocs[i].bytes)
            return &m->relocs[i];
    return NULL;
}

/* An address initializer: [0xMASK(]generic(name)+addend[)], where byte
 * `byte` of the relocation is printed alone when byte >= 0. */
static void address(const printer_t *p, const ptx_reloc_t *r, int byte)
{
    uint64_t mask = r->mask;
    if (byte >= 0)
        mask = 0xffull << (__builtin_ctzll(r->mask) + 8 * byte);
    if (mask != ~0ull)
        fprintf(p->out, "0x%" PRIx64 "(", mask);
    fputs(r->generic ? "generic(" : "", p->out);
    sym_name(p, r->target);
    fputs(r->generic ? ")" : "", p->out);
    if (r->addend)
        fprintf(p->out, "%+" PRId64, r->addend);
    fputs(mask != ~0ull ? ")" : "", p->out);
}

static void variable(const printer_t *p, uint32_t s, const char *indent)
{
    const ptx_symbol_t *y = &p->m->syms[s];
    fprintf(p->out, "%s%s.%s", indent, y->is_extern ? ".extern " : "",
            y->kind == PTX_SYM_CPARAM ? "param" : ptx_space_name((ptx_space_t)y->space));
    declare(p, s);
    if (y->init) {
        int scalar = y->size == ptx_type_bits((ptx_type_t)y->type) / 8;
        const ptx_reloc_t *r0 = reloc_at(p->m, s, 0);
        fputs(scalar ? " = " : " = {", p->out);
        if (scalar && r0 && r0->bytes == y->size) {
            address(p, r0, -1);
        } else if (scalar) {
            uint64_t v = 0;
            memcpy(&v, y->init, y->size);
            fprintf(p->out, "%" PRIu64, v);
        }
        for (uint64_t i = 0; !scalar && i < y->size; i++) {
            const ptx_reloc_t *r = reloc_at(p->m, s, i);
            fputs(i ? ", " : "", p->out);
            if (r) /* declared as bytes: one masked byte of the address */
                address(p, r, (int)(i - r->offset));
            else
                fprintf(p->out, "%u", y->init[i]);
        }
        fputs(scalar ? "" : "}", p->out);
    }
    fputs(";\n", p->out);
}

static void params(const printer_t *p, const uint32_t *list, uint32_t n)
{
    fputs("(", p->out);
    for (uint32_t i = 0; i < n; i++) {
        fprintf(p->out, "%s\n\t.param", i ? "," : "");
        declare(p, list[i]);
    }
    fputs(n ? "\n)" : ")", p->out);
}

static void header(const printer_t *p, uint32_t f)
{
    const ptx_function_t *fn = &p->m->funcs[f];
    if (fn->is_entry) {
        fprintf(p->out, ".visible .entry %s", fn->name);
    } else {
        /* a prototype of a function defined later is a plain .func */
        fputs(fn->count ? ".visible .func "
              : ptx_find_function(p->m, fn->name) >= 0 ? ".func "
                                                       : ".extern .func ", p->out);
        if (fn->nrets) {
            params(p, fn->rets, fn->nrets);
            fputs(" ", p->out);
        }
        fputs(fn->name, p->out);
    }
    params(p, fn->params, fn->nparams);
    if (fn->maxntid[0])
        fprintf(p->out, "\n.maxntid %u, %u, %u", fn->maxntid[0], fn->maxntid[1],
                fn->maxntid[2]);
    if (fn->reqntid[0])
        fprintf(p->out, "\n.reqntid %u, %u, %u", fn->reqntid[0], fn->reqntid[1],
                fn->reqntid[2]);
    if (fn->maxnreg)
        fprintf(p->out, "\n.maxnreg %u", fn->maxnreg);
    if (fn->minnctapersm)
        fprintf(p->out, "\n.minnctapersm %u", fn->minnctapersm);
}

/* ---------- instructions ---------- */

static const char *sub_name(const ptx_insn_t *in)
{
    static const char *const names[] = {
        [PTX_SUB_LO] = ".lo", [PTX_SUB_HI] = ".hi", [PTX_SUB_WIDE] = ".wide",
        [PTX_SUB_AND] = ".and", [PTX_SUB_OR] = ".or", [PTX_SUB_XOR] = ".xor",
        [PTX_SUB_ADD] = ".add", [PTX_SUB_MIN] = ".min", [PTX_SUB_MAX] = ".max",
        [PTX_SUB_INC] = ".inc", [PTX_SUB_DEC] = ".dec", [PTX_SUB_CAS] = ".cas",
        [PTX_SUB_EXCH] = ".exch", [PTX_SUB_POPC] = ".popc",
        [PTX_SUB_ALL] = ".all", [PTX_SUB_ANY] = ".any", [PTX_SUB_UNI] = ".uni",
        [PTX_SUB_BALLOT] = ".ballot", [PTX_SUB_UP] = ".up",
        [PTX_SUB_DOWN] = ".down", [PTX_SUB_BFLY] = ".bfly", [PTX_SUB_IDX] = ".idx",
        [PTX_SUB_SYNC] = ".sync", [PTX_SUB_ARRIVE] = ".arrive",
        [PTX_SUB_RED] = ".red", [PTX_SUB_WARP] = ".warp",
        [PTX_SUB_WARP_SYNC] = ".warp.sync", [PTX_SUB_L_WRAP] = ".l.wrap",
        [PTX_SUB_L_CLAMP] = ".l.clamp", [PTX_SUB_R_WRAP] = ".r.wrap",
        [PTX_SUB_R_CLAMP] = ".r.clamp", [PTX_SUB_FINITE] = ".finite",
        [PTX_SUB_INFINITE] = ".infinite", [PTX_SUB_NUMBER] = ".number",
        [PTX_SUB_NOTANUMBER] = ".notanumber", [PTX_SUB_NORMAL] = ".normal",
        [PTX_SUB_SUBNORMAL] = ".subnormal", [PTX_SUB_F4E] = ".f4e",
        [PTX_SUB_B4E] = ".b4e", [PTX_SUB_RC8] = ".rc8", [PTX_SUB_ECL] = ".ecl",
        [PTX_SUB_ECR] = ".ecr", [PTX_SUB_RC16] = ".rc16",
        [PTX_SUB_WRAP] = ".wrap", [PTX_SUB_CLAMP] = ".clamp",
    };
    if (in->sub == PTX_SUB_NONE || in->sub >= sizeof names / sizeof *names)
        return "";
    return names[in->sub] ? names[in->sub] : "";
}

static const char *cmp_name(ptx_cmp_t c)
{
    static const char *const names[] = {
        "", ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi",
        ".hs", ".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan",
    };
    return c < sizeof names / sizeof *names ? names[c] : "";
}

static const char *rnd_name(ptx_rnd_t r)
{
    static const char *const names[] = {
        "", ".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi",
    };
    return r < sizeof names / sizeof *names ? names[r] : "";
}

/* The modifier that sets PTX_F_RELAXED_SCOPE, in a form the op takes. */
static const char *scope_name(ptx_op_t op)
{
    return op == PTX_OP_FENCE ? ".acq_rel.gpu" : op == PTX_OP_MEMBAR ? ".sys"
                                                                     : ".relaxed.gpu";
}

/* tex/tld4/suld/sust in the PTX ISA's modifier order. */
static void tex_opcode(FILE *o, const ptx_insn_t *in)
{
    static const char *const subs[] = {
        [PTX_SUB_TEX_R] = ".r", [PTX_SUB_TEX_G] = ".g", [PTX_SUB_TEX_B] = ".b",
        [PTX_SUB_TEX_A] = ".a", [PTX_SUB_TEX_LEVEL] = ".level",
        [PTX_SUB_TEX_GRAD] = ".grad", [PTX_SUB_SURF_TRAP] = ".trap",
        [PTX_SUB_SURF_CLAMP] = ".clamp", [PTX_SUB_SURF_ZERO] = ".zero",
    };
    ptx_op_t op = (ptx_op_t)in->op;
    const char *sub = in->sub < sizeof subs / sizeof *subs && subs[in->sub]
                          ? subs[in->sub] : "";
    int surf = op == PTX_OP_SULD || op == PTX_OP_SUST;
    fprintf(o, "%s%s%s%s", ptx_op_name(op), surf ? ".b" : sub,
            ptx_geom_name((ptx_geom_t)in->geom),
            in->vec > 1 ? (in->vec == 2 ? ".v2" : ".v4") : "");
    fputs(ptx_type_name((ptx_type_t)in->type), o);
    if (in->type2 != PTX_T_NONE)
        fputs(ptx_type_name((ptx_type_t)in->type2), o);
    if (surf)
        fputs(sub, o);
}

static void opcode(const printer_t *p, const ptx_insn_t *in)
{
    FILE *o = p->out;
    ptx_op_t op = (ptx_op_t)in->op;
    fputs(ptx_op_name(op), o);
    if (in->flags & PTX_F_SYNC)
        fputs(".sync", o);
    fputs(sub_name(in), o);
    fputs(cmp_name((ptx_cmp_t)in->cmp), o);
    if (in->combine) {
        ptx_insn_t c = *in;
        c.sub = in->combine;
        fputs(sub_name(&c), o);
    }
    fputs(rnd_name((ptx_rnd_t)in->rnd), o);
    static const struct { uint16_t flag; const char *name; } flags[] = {
        { PTX_F_FTZ, ".ftz" }, { PTX_F_SAT, ".sat" }, { PTX_F_APPROX, ".approx" },
        { PTX_F_FULL, ".full" }, { PTX_F_CC, ".cc" }, { PTX_F_UNI, ".uni" },
        { PTX_F_TO, ".to" }, { PTX_F_ALIGNED, ".aligned" },
        { PTX_F_VOLATILE, ".volatile" }, { PTX_F_SHIFTAMT, ".shiftamt" },
    };
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
        if (in->flags & flags[i].flag)
            fputs(flags[i].name, o);
    if (in->flags & PTX_F_RELAXED_SCOPE)
        fputs(scope_name(op), o);
    else if (op == PTX_OP_MEMBAR)
        fputs(".gl", o);
    if (in->space != PTX_SPACE_NONE)
        fprintf(o, ".%s", ptx_space_name((ptx_space_t)in->space));
    if (in->vec > 1)
        fprintf(o, ".v%u", in->vec);
    if (in->type != PTX_T_NONE)
        fputs(ptx_type_name((ptx_type_t)in->type), o);
    if (in->type2 != PTX_T_NONE)
        fputs(ptx_type_name((ptx_type_t)in->type2), o);
    if (in->type3 != PTX_T_NONE)
        fputs(ptx_type_name((ptx_type_t)in->type3), o);
}

/* The type a float literal operand was converted to. */
static ptx_type_t literal_type(const ptx_insn_t *in)
{
    if ((in->op == PTX_OP_CVT || in->op == PTX_OP_SET) && in->type2 != PTX_T_NONE)
        return (ptx_type_t)in->type2;
    return (ptx_type_t)in->type;
}

static void operand(const printer_t *p, const ptx_insn_t *in, unsigned k)
{
    const ptx_operand_t *o = &in->ops[k];
    FILE *out = p->out;
    uint32_t f = in->func;
    switch ((ptx_opnd_kind_t)o->kind) {
    case PTX_OPND_REG:
        if (o->neg)
            fputs("!", out);
        reg_name(p, f, o->reg);
        if (o->nvec == 1) {
            fputs("|", out);
            reg_name(p, f, o->vec[0]);
        }
        return;
    case PTX_OPND_IMM:
        if (o->is_float && literal_type(in) == PTX_T_F64)
            fprintf(out, "0d%016" PRIX64, (uint64_t)o->imm);
        else if (o->is_float && literal_type(in) == PTX_T_F32)
            fprintf(out, "0f%08" PRIX32, (uint32_t)o->imm);
        else
            fprintf(out, "%" PRId64, o->imm);
        return;
    case PTX_OPND_SREG:
        fputs(ptx_sreg_name((ptx_sreg_t)o->reg), out);
        return;
    case PTX_OPND_ADDR:
        fputs("[", out);
        if (o->has_reg)
            reg_name(p, f, o->reg);
        else if (o->sym != PTX_NO_SYM)
            sym_name(p, o->sym);
        if (!o->has_reg && o->sym == PTX_NO_SYM)
            fprintf(out, "%" PRId64, o->imm);
        else if (o->imm)
            fprintf(out, "+%" PRId64, o->imm); /* ptxas takes +-4, not -4 */
        fputs("]", out);
        return;
    case PTX_OPND_VEC:
        fputs("{", out);
        for (unsigned i = 0; i < o->nvec; i++) {
            fputs(i ? ", " : "", out);
            reg_name(p, f, o->vec[i]);
        }
        fputs("}", out);
        return;
    case PTX_OPND_SYM:
        sym_name(p, o->sym);
        if (o->imm)
            fprintf(out, "+%" PRId64, o->imm);
        return;
    case PTX_OPND_LABEL:
        label_name(p, (uint32_t)o->imm);
        return;
    case PTX_OPND_FUNC:
        fputs(p->m->funcs[o->imm].name, out);
        return;
    case PTX_OPND_LIST:
        fputs("(", out);
        for (unsigned i = 0; i < o->nvec; i++) {
            fputs(i ? ", " : "", out);
            sym_name(p, p->m->call_lists[o->imm + i]);
        }
        fputs(")", out);
        return;
    case PTX_OPND_PROTO:
        fputs(p->m->protos[o->imm].name, out);
        return;
    case PTX_OPND_NONE:
        return;
    }
}

static void instruction(const printer_t *p, uint32_t i)
{
    const ptx_insn_t *in = &p->m->insns[i];
    if (p->is_target[i]) {
        label_name(p, i);
        fputs(":\n", p->out);
    }
    fputs("\t", p->out);
    if (in->guard != PTX_REG_SINK) {
        fputs(in->guard_neg ? "@!" : "@", p->out);
        reg_name(p, in->func, in->guard);
        fputs(" ", p->out);
    }
    int tex = ptx_is_tex_op((ptx_op_t)in->op);
    if (tex)
        tex_opcode(p->out, in);
    else
        opcode(p, in);
    /* tex/tld4/suld/sust: the handle and coordinates go in one [...] */
    unsigned handle = in->op == PTX_OP_SUST ? 0 : 1;
    for (unsigned k = 0; k < in->nops; k++) {
        fputs(k ? ", " : " ", p->out);
        if (tex && k == handle)
            fputs("[", p->out);
        operand(p, in, k);
        if (tex && k == handle + 1)
            fputs("]", p->out);
    }
    fputs(";\n", p->out);
}

static int body(printer_t *p, uint32_t f)
{
    const ptx_function_t *fn = &p->m->funcs[f];
    free(p->dup_reg);
    p->dup_reg = calloc(fn->nregs ? fn->nregs : 1, 1);
    if (!p->dup_reg)
        return -1;
    for (uint32_t r = 0; r < fn->nregs; r++)
        for (uint32_t q = 0; q < r && !p->dup_reg[r]; q++)
            p->dup_reg[r] = !strcmp(fn->regs[q].name, fn->regs[r].name);
    fputs("\n{\n", p->out);
    for (uint32_t r = 0; r < fn->nregs; r++) {
        fprintf(p->out, "\t.reg %s ", ptx_type_name((ptx_type_t)fn->regs[r].type));
        reg_name(p, f, (uint16_t)r);
        fputs(";\n", p->out);
    }
    for (uint32_t s = 0; s < p->m->nsyms; s++) {
        const ptx_symbol_t *y = &p->m->syms[s];
        if (y->func == f && (y->kind == PTX_SYM_VAR || y->kind == PTX_SYM_CPARAM))
            variable(p, s, "\t");
    }
    for (uint32_t i = 0; i < p->m->nprotos; i++)
        if (p->m->protos[i].func == f)
            fprintf(p->out, "\t%s: %s;\n", p->m->protos[i].name,
                    p->m->protos[i].text);
    for (uint32_t i = fn->first; i < fn->first + fn->count; i++)
        instruction(p, i);
    fputs("}\n", p->out);
    return 0;
}

int ptx_print_module(const ptx_module_t *m, FILE *out)
{
    printer_t p = { .m = m, .out = out };
    p.is_target = calloc(m->ninsns ? m->ninsns : 1, 1);
    if (!p.is_target)
        return -1;
    for (uint32_t i = 0; i < m->ninsns; i++)
        for (unsigned k = 0; k < m->insns[i].nops; k++)
            if (m->insns[i].ops[k].kind == PTX_OPND_LABEL)
                p.is_target[m->insns[i].ops[k].imm] = 1;
    fprintf(out, "//\n// Written by simt opt from %s\n//\n\n", m->file);
    fprintf(out, ".version %u.%u\n.target %s\n.address_size %u\n\n",
            m->version_major, m->version_minor, m->target, m->address_size);
    for (uint32_t s = 0; s < m->nsyms; s++)
        if (m->syms[s].kind == PTX_SYM_VAR && m->syms[s].func == ~0u)
            variable(&p, s, "");
    /* in module order, prototypes as prototypes: the order the parser saw,
     * where every call follows its callee's declaration */
    int rc = 0;
    for (uint32_t f = 0; f < m->nfuncs && rc == 0; f++) {
        fputs("\n", out);
        header(&p, f);
        if (m->funcs[f].count)
            rc = body(&p, f);
        else
            fputs(";\n", out);
    }
    free(p.is_target);
    free(p.dup_reg);
    return rc || ferror(out) ? -1 : 0;
}
