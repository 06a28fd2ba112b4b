/* fuzz_ptx.c: libFuzzer target for the PTX parser (scripts/fuzz.sh).
 *
 * Any input must either parse into a self-consistent module, or fail with
 * SIMT_EINPUT and a NUL-terminated "fuzz.ptx:..." message.  A crash, a
 * sanitizer report, a leak or an abort() below (an IR invariant broken) is
 * a parser bug.
 *
 * Built and run by scripts/fuzz.sh (clang -fsanitize=fuzzer,address,undefined
 * with the parser sources); `build/fuzz/fuzz_ptx FILE` replays one input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ir.h"
#include "simt/simt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink; /* keeps the reads below */

static void fail(const char *what, uint32_t a, uint32_t b)
{
    fprintf(stderr, "fuzz_ptx: IR invariant broken: %s (%u, %u)\n", what, a, b);
    abort();
}

#define REQUIRE(cond, a, b)                                                 \
    do {                                                                    \
        if (!(cond))                                                        \
            fail(#cond, (uint32_t)(a), (uint32_t)(b));                      \
    } while (0)

static void check_reg(const ptx_function_t *f, unsigned r, uint32_t insn)
{
    REQUIRE(r == PTX_REG_SINK || r < f->nregs, insn, r);
    if (r != PTX_REG_SINK)
        sink += f->regs[r].type + (uint8_t)f->regs[r].name[0];
}

static void check_sym(const ptx_module_t *m, uint32_t s, uint32_t insn)
{
    REQUIRE(s < m->nsyms, insn, s);
    sink += m->syms[s].kind + (uint8_t)m->syms[s].name[0];
}

static void walk_insn(const ptx_module_t *m, uint32_t i)
{
    const ptx_insn_t *in = &m->insns[i];
    REQUIRE(in->op < PTX_OP_COUNT, i, in->op);
    REQUIRE(in->type < PTX_T_COUNT && in->type2 < PTX_T_COUNT, i, in->type);
    REQUIRE(in->space <= PTX_SPACE_PARAM, i, in->space);
    REQUIRE(in->nops <= PTX_MAX_OPERANDS, i, in->nops);
    REQUIRE(in->vec == 1 || in->vec == 2 || in->vec == 4, i, in->vec);
    REQUIRE(in->geom <= PTX_GEOM_ACUBE, i, in->geom);
    REQUIRE(in->func < m->nfuncs, i, in->func);
    const ptx_function_t *f = &m->funcs[in->func];
    REQUIRE(i >= f->first && i < f->first + f->count, i, in->func);
    REQUIRE(in->line >= 1 && in->line <= m->nlines, i, in->line);
    if (in->guard != PTX_REG_SINK) {
        REQUIRE(in->guard < f->nregs, i, in->guard);
        REQUIRE(f->regs[in->guard].type == PTX_T_PRED, i, in->guard);
    }
    sink += (uint64_t)strlen(ptx_op_name((ptx_op_t)in->op));
    for (unsigned k = 0; k < in->nops; k++) {
        const ptx_operand_t *o = &in->ops[k];
        switch (o->kind) {
        case PTX_OPND_REG:
            check_reg(f, o->reg, i);
            REQUIRE(o->nvec <= 1, i, o->nvec);
            if (o->nvec)
                check_reg(f, o->vec[0], i);
            break;
        case PTX_OPND_IMM:
            sink += (uint64_t)o->imm;
            break;
        case PTX_OPND_SREG:
            REQUIRE(o->reg < PTX_SREG_COUNT, i, o->reg);
            break;
        case PTX_OPND_ADDR:
            if (o->has_reg)
                check_reg(f, o->reg, i);
            if (o->sym != PTX_NO_SYM)
                check_sym(m, o->sym, i);
            sink += (uint64_t)o->imm;
            break;
        case PTX_OPND_VEC:
            REQUIRE(o->nvec >= 1 && o->nvec <= 4, i, o->nvec);
            for (unsigned v = 0; v < o->nvec; v++)
                check_reg(f, o->vec[v], i);
            break;
        case PTX_OPND_SYM:
            check_sym(m, o->sym, i);
            break;
        case PTX_OPND_LABEL:
            REQUIRE((uint64_t)o->imm >= f->first &&
                    (uint64_t)o->imm < (uint64_t)f->first + f->count, i, o->imm);
            break;
        case PTX_OPND_FUNC:
            check_sym(m, o->sym, i);
            REQUIRE(m->syms[o->sym].kind == PTX_SYM_FUNC, i, o->sym);
            REQUIRE((uint64_t)o->imm < m->nfuncs, i, o->imm);
            REQUIRE(m->funcs[o->imm].count > 0 || m->funcs[o->imm].builtin,
                    i, o->imm);
            break;
        case PTX_OPND_PROTO:
            REQUIRE((uint64_t)o->imm < m->nprotos, i, o->imm);
            break;
        case PTX_OPND_LIST:
            REQUIRE((uint64_t)o->imm + o->nvec <= m->ncall_lists, i, o->imm);
            for (unsigned v = 0; v < o->nvec; v++)
                check_sym(m, m->call_lists[o->imm + v], i);
            break;
        default:
            fail("operand kind", i, o->kind);
        }
    }
    char line[128];
    sink += strlen(ptx_source_line(m, in->line, line, sizeof line));
}

static void walk(const ptx_module_t *m)
{
    REQUIRE(m->address_size == 0 || m->address_size == 64, m->address_size, 0);
    REQUIRE(m->ninsns == 0 || m->insns != NULL, m->ninsns, 0);
    for (uint32_t r = 0; r < m->nrelocs; r++) {
        const ptx_reloc_t *x = &m->relocs[r];
        check_sym(m, x->var, r);
        check_sym(m, x->target, r);
        REQUIRE(x->offset + x->bytes <= m->syms[x->var].size, r, x->offset);
    }
    for (uint32_t s = 0; s < m->nsyms; s++) {
        const ptx_symbol_t *sy = &m->syms[s];
        REQUIRE(sy->name != NULL, s, 0);
        REQUIRE(sy->kind <= PTX_SYM_FUNC, s, sy->kind);
        REQUIRE(sy->type < PTX_T_COUNT, s, sy->type);
        REQUIRE(sy->func == ~0u || sy->func < m->nfuncs, s, sy->func);
        if (sy->init && sy->size) {
            /* touch the initializer without walking gigabytes */
            uint64_t n = sy->size < 4096 ? sy->size : 4096;
            for (uint64_t b = 0; b < n; b++)
                sink += sy->init[b];
            sink += sy->init[sy->size - 1];
        }
    }
    uint32_t covered = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_function_t *f = &m->funcs[fi];
        REQUIRE(f->name != NULL, fi, 0);
        REQUIRE((uint64_t)f->first + f->count <= m->ninsns, fi, f->count);
        for (uint32_t r = 0; r < f->nregs; r++)
            REQUIRE(f->regs[r].name != NULL && f->regs[r].type < PTX_T_COUNT,
                    fi, r);
        for (uint32_t k = 0; k < f->nparams; k++)
            check_sym(m, f->params[k], fi);
        for (uint32_t k = 0; k < f->nrets; k++)
            check_sym(m, f->rets[k], fi);
        covered += f->count;
        if (f->count) {
            int found = ptx_find_function(m, f->name);
            REQUIRE(found >= 0 && m->funcs[found].count > 0, fi, 0);
            if (f->is_entry)
                sink += ptx_kernel_shared_bytes(m, fi);
        }
    }
    REQUIRE(covered == m->ninsns, covered, m->ninsns);
    for (uint32_t i = 0; i < m->ninsns; i++)
        walk_insn(m, i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    simt_error_t err;
    memset(&err, 0, sizeof err);
    ptx_module_t *m = ptx_parse("fuzz.ptx", (const char *)data, size, &err);
    if (!m) {
        if (err.status != SIMT_EINPUT)
            fail("a failed parse must set SIMT_EINPUT", (uint32_t)err.status, 0);
        if (memchr(err.msg, '\0', sizeof err.msg) == NULL)
            fail("the message must be NUL-terminated", 0, 0);
        if (err.msg[0] == '\0')
            fail("the message must not be empty", 0, 0);
        if (strncmp(err.msg, "fuzz.ptx:", 9) != 0)
            fail("the message must start with the file name", 0, 0);
        if (strstr(err.msg, "error: ") == NULL)
            fail("the message must say 'error: '", 0, 0);
        return 0;
    }
    if (err.status != SIMT_OK)
        fail("a successful parse must leave err untouched", (uint32_t)err.status, 0);
    walk(m);
    ptx_module_free(m);
    return 0;
}
