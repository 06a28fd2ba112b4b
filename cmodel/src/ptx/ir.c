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

static const struct {
    const char *name;
    uint8_t bits, is_float, is_signed;
} type_info[PTX_T_COUNT] = {
    [PTX_T_NONE] = { "", 0, 0, 0 },     [PTX_T_PRED] = { ".pred", 1, 0, 0 },
    [PTX_T_B8] = { ".b8", 8, 0, 0 },    [PTX_T_B16] = { ".b16", 16, 0, 0 },
    [PTX_T_B32] = { ".b32", 32, 0, 0 }, [PTX_T_B64] = { ".b64", 64, 0, 0 },
    [PTX_T_U8] = { ".u8", 8, 0, 0 },    [PTX_T_U16] = { ".u16", 16, 0, 0 },
    [PTX_T_U32] = { ".u32", 32, 0, 0 }, [PTX_T_U64] = { ".u64", 64, 0, 0 },
    [PTX_T_S8] = { ".s8", 8, 0, 1 },    [PTX_T_S16] = { ".s16", 16, 0, 1 },
    [PTX_T_S32] = { ".s32", 32, 0, 1 }, [PTX_T_S64] = { ".s64", 64, 0, 1 },
    [PTX_T_F16] = { ".f16", 16, 1, 0 }, [PTX_T_F32] = { ".f32", 32, 1, 0 },
    [PTX_T_F64] = { ".f64", 64, 1, 0 },
};

unsigned ptx_type_bits(ptx_type_t t) { return t < PTX_T_COUNT ? type_info[t].bits : 0; }
int ptx_type_is_float(ptx_type_t t) { return t < PTX_T_COUNT && type_info[t].is_float; }
int ptx_type_is_signed(ptx_type_t t) { return t < PTX_T_COUNT && type_info[t].is_signed; }
const char *ptx_type_name(ptx_type_t t) { return t < PTX_T_COUNT ? type_info[t].name : "?"; }

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

uint64_t ptx_kernel_shared_bytes(const ptx_module_t *m, uint32_t func)
{
    return m->shared_bytes + m->funcs[func].shared_bytes;
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
    free(m->source);
    free(m->line_start);
    free(m->file);
    free(m);
}
