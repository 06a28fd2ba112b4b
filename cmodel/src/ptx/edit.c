/* edit.c: clone a module and insert code into it (edit.h). */
#include "ptx/edit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *dup_mem(const void *p, size_t n)
{
    void *q = malloc(n ? n : 1);
    if (q && n)
        memcpy(q, p, n);
    return q;
}

static char *dup_str(const char *s)
{
    return s ? dup_mem(s, strlen(s) + 1) : NULL;
}

ptx_module_t *ptx_module_clone(const ptx_module_t *m)
{
    ptx_module_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = *m;
    c->file = NULL;
    c->insns = NULL;
    c->funcs = NULL;
    c->syms = NULL;
    c->call_lists = NULL;
    c->source = NULL;
    c->line_start = NULL;
    c->relocs = NULL;
    c->protos = NULL;
    c->nfuncs = c->nsyms = c->nprotos = 0;
    int ok = 1;
    c->file = dup_str(m->file);
    c->insns = dup_mem(m->insns, m->ninsns * sizeof *m->insns);
    c->call_lists = dup_mem(m->call_lists, m->ncall_lists * sizeof *m->call_lists);
    c->line_start = dup_mem(m->line_start, m->nlines * sizeof *m->line_start);
    if (m->source)
        c->source = dup_str(m->source);
    c->funcs = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *c->funcs);
    c->syms = calloc(m->nsyms ? m->nsyms : 1, sizeof *c->syms);
    ok = c->file && c->insns && c->call_lists && c->line_start &&
         (c->source || !m->source) && c->funcs && c->syms;
    for (uint32_t i = 0; ok && i < m->nfuncs; i++) {
        const ptx_function_t *f = &m->funcs[i];
        ptx_function_t *g = &c->funcs[i];
        *g = *f;
        g->name = NULL;
        g->regs = NULL;
        g->params = g->rets = NULL;
        g->nregs = 0;
        c->nfuncs = i + 1;
        g->name = dup_str(f->name);
        g->regs = calloc(f->nregs ? f->nregs : 1, sizeof *g->regs);
        g->params = dup_mem(f->params, f->nparams * sizeof *f->params);
        g->rets = dup_mem(f->rets, f->nrets * sizeof *f->rets);
        ok = g->name && g->regs && g->params && g->rets;
        for (uint32_t r = 0; ok && r < f->nregs; r++) {
            g->regs[r] = f->regs[r];
            g->regs[r].name = dup_str(f->regs[r].name);
            g->nregs = r + 1;
            ok = g->regs[r].name != NULL;
        }
    }
    for (uint32_t i = 0; ok && i < m->nsyms; i++) {
        c->syms[i] = m->syms[i];
        c->syms[i].name = dup_str(m->syms[i].name);
        c->syms[i].init = m->syms[i].init
                              ? dup_mem(m->syms[i].init, m->syms[i].size) : NULL;
        c->nsyms = i + 1;
        ok = c->syms[i].name && (c->syms[i].init || !m->syms[i].init);
    }
    c->relocs = dup_mem(m->relocs, m->nrelocs * sizeof *m->relocs);
    c->protos = calloc(m->nprotos ? m->nprotos : 1, sizeof *c->protos);
    ok = ok && c->relocs && c->protos;
    for (uint32_t i = 0; ok && i < m->nprotos; i++) {
        c->protos[i] = m->protos[i];
        c->protos[i].name = dup_str(m->protos[i].name);
        c->protos[i].text = dup_str(m->protos[i].text);
        c->nprotos = i + 1;
        ok = c->protos[i].name && c->protos[i].text;
    }
    if (!ok) {
        ptx_module_free(c);
        return NULL;
    }
    return c;
}

/* Where an old label target lands after n instructions went in at `at`. */
static uint32_t moved(uint32_t t, uint32_t at, uint32_t n, int labels_follow)
{
    if (t < at || (t == at && labels_follow))
        return t;
    return t + n;
}

int ptx_insert(ptx_module_t *m, uint32_t f, uint32_t at, const ptx_insn_t *ins,
               uint32_t n, int labels_follow)
{
    if (!n)
        return 0;
    ptx_insn_t *a = realloc(m->insns, (m->ninsns + n) * sizeof *a);
    if (!a)
        return -1;
    m->insns = a;
    memmove(&a[at + n], &a[at], (m->ninsns - at) * sizeof *a);
    ptx_function_t *fn = &m->funcs[f];
    const ptx_insn_t *src = fn->count ? &a[at < fn->first + fn->count ? at + n
                                                   : fn->first + fn->count - 1]
                                      : NULL;
    for (uint32_t i = 0; i < n; i++) {
        a[at + i] = ins[i];
        a[at + i].func = f;
        if (src) {
            a[at + i].line = src->line;
            a[at + i].col = src->col;
        }
    }
    m->ninsns += n;
    for (uint32_t i = 0; i < m->ninsns; i++)
        for (unsigned k = 0; k < a[i].nops; k++)
            if (a[i].ops[k].kind == PTX_OPND_LABEL)
                a[i].ops[k].imm = moved((uint32_t)a[i].ops[k].imm, at, n,
                                        labels_follow);
    fn->count += n;
    for (uint32_t g = 0; g < m->nfuncs; g++)
        if (g != f && m->funcs[g].count && m->funcs[g].first >= at)
            m->funcs[g].first += n;
    return 0;
}

int ptx_add_reg(ptx_module_t *m, uint32_t f, ptx_type_t type,
                const char *prefix, uint16_t *reg)
{
    ptx_function_t *fn = &m->funcs[f];
    if (fn->nregs >= PTX_REG_SINK - 1)
        return -1;
    char name[64];
    snprintf(name, sizeof name, "%%%s%u", prefix, fn->nregs);
    char *s = dup_str(name);
    ptx_reg_t *r = s ? realloc(fn->regs, (fn->nregs + 1) * sizeof *r) : NULL;
    if (!r) {
        free(s);
        return -1;
    }
    fn->regs = r;
    r[fn->nregs] = (ptx_reg_t){ .name = s, .type = (uint8_t)type };
    *reg = (uint16_t)fn->nregs++;
    return 0;
}

int ptx_grow_local(ptx_module_t *m, uint32_t f, const char *name,
                   uint32_t bytes, uint32_t *sym, uint64_t *offset)
{
    ptx_function_t *fn = &m->funcs[f];
    for (uint32_t i = 0; i < m->nsyms; i++) {
        ptx_symbol_t *s = &m->syms[i];
        if (s->kind == PTX_SYM_VAR && s->space == PTX_SPACE_LOCAL &&
            s->func == f && !strcmp(s->name, name)) {
            *sym = i;
            *offset = s->size;
            s->size += bytes;
            fn->frame_bytes = s->offset + s->size;
            return 0;
        }
    }
    char *nm = dup_str(name);
    ptx_symbol_t *syms = nm ? realloc(m->syms, (m->nsyms + 1) * sizeof *syms)
                            : NULL;
    if (!syms) {
        free(nm);
        return -1;
    }
    m->syms = syms;
    ptx_symbol_t *s = &syms[m->nsyms];
    memset(s, 0, sizeof *s);
    s->name = nm;
    s->kind = PTX_SYM_VAR;
    s->space = PTX_SPACE_LOCAL;
    s->type = PTX_T_B8;
    s->align = 8;
    s->offset = (fn->frame_bytes + 7) / 8 * 8;
    s->size = bytes;
    s->func = f;
    s->line = fn->line;
    s->col = fn->col;
    fn->frame_bytes = s->offset + s->size;
    *sym = m->nsyms++;
    *offset = 0;
    return 0;
}

ptx_insn_t ptx_make_ret(uint32_t func)
{
    ptx_insn_t r;
    memset(&r, 0, sizeof r);
    r.op = PTX_OP_RET;
    r.vec = 1;
    r.guard = PTX_REG_SINK;
    r.func = func;
    return r;
}

ptx_insn_t ptx_make_relssp(uint32_t func)
{
    ptx_insn_t r;
    memset(&r, 0, sizeof r);
    r.op = PTX_OP_RELSSP;
    r.vec = 1;
    r.guard = PTX_REG_SINK;
    r.func = func;
    return r;
}

ptx_insn_t ptx_make_bra(uint32_t target, uint32_t func)
{
    ptx_insn_t b;
    memset(&b, 0, sizeof b);
    b.op = PTX_OP_BRA;
    b.vec = 1; /* as the parser leaves every instruction */
    b.flags = PTX_F_UNI;
    b.guard = PTX_REG_SINK;
    b.func = func;
    b.nops = 1;
    b.ops[0].kind = PTX_OPND_LABEL;
    b.ops[0].sym = PTX_NO_SYM;
    b.ops[0].imm = target;
    return b;
}
