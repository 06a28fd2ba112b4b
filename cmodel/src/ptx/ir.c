/* ir.c: names and properties of IR enumerations; module helpers. */
#include "ptx/ir.h"

#include <stdlib.h>
#include <string.h>

static const char *const op_names[PTX_OP_COUNT] = {
#define X(id, s) s,
    PTX_OPCODES(X)
#undef X
};

const char *ptx_op_name(ptx_op_t op)
{
    return op < PTX_OP_COUNT ? op_names[op] : "?";
}

static const char *const type_names[PTX_T_COUNT] = {
    "", ".pred", ".b8", ".b16", ".b32", ".b64", ".u8", ".u16", ".u32", ".u64",
    ".s8", ".s16", ".s32", ".s64", ".f16", ".f32", ".f64", ".f16x2",
    ".bf16", ".bf16x2",
};

const char *ptx_type_name(ptx_type_t t) { return t < PTX_T_COUNT ? type_names[t] : "?"; }

const char *ptx_space_name(ptx_space_t s)
{
    switch (s) {
    case PTX_SPACE_NONE: return "generic";
    case PTX_SPACE_REG: return "reg";
    case PTX_SPACE_GLOBAL: return "global";
    case PTX_SPACE_SHARED: return "shared";
    case PTX_SPACE_LOCAL: return "local";
    case PTX_SPACE_CONST: return "const";
    case PTX_SPACE_PARAM: return "param";
    }
    return "?";
}

int ptx_find_function(const ptx_module_t *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].count && strcmp(m->funcs[i].name, name) == 0)
            return (int)i;
    return -1;
}

uint64_t ptx_kernel_shared_base(const ptx_module_t *m, uint32_t func)
{
    uint64_t a = m->funcs[func].shared_align ? m->funcs[func].shared_align : 1;
    return (m->shared_bytes + a - 1) / a * a;
}

uint64_t ptx_kernel_shared_bytes(const ptx_module_t *m, uint32_t func)
{
    return ptx_kernel_shared_base(m, func) + m->funcs[func].shared_bytes;
}

const char *ptx_source_line(const ptx_module_t *m, uint32_t line, char *buf,
                            size_t size)
{
    if (!size)
        return buf;
    buf[0] = '\0';
    if (!m->source || line == 0 || line > m->nlines)
        return buf;
    const char *s = m->source + m->line_start[line - 1];
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = 0;
    while (s[n] && s[n] != '\n' && s[n] != '\r' && n + 1 < size) {
        buf[n] = s[n];
        n++;
    }
    buf[n] = '\0';
    return buf;
}

void ptx_module_free(ptx_module_t *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ptx_function_t *f = &m->funcs[i];
        free(f->name);
        for (uint32_t r = 0; r < f->nregs; r++)
            free(f->regs[r].name);
        free(f->regs);
        free(f->params);
        free(f->rets);
    }
    for (uint32_t i = 0; i < m->nsyms; i++) {
        free(m->syms[i].name);
        free(m->syms[i].init);
    }
    free(m->funcs);
    free(m->syms);
    free(m->insns);
    free(m->call_lists);
    free(m->relocs);
    for (uint32_t i = 0; i < m->nprotos; i++) {
        free(m->protos[i].name);
        free(m->protos[i].text);
    }
    free(m->protos);
    free(m->source);
    free(m->line_start);
    free(m->file);
    free(m);
}
