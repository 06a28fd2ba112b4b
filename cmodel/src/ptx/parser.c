/* parser.c: recursive-descent PTX parser producing the decoded IR (ir.h).
 *
 * Errors stop the parse at the first problem with "file:line:col: error:
 * what, why"; parse functions longjmp back to ptx_parse, which frees the
 * partial module, so no half-built module ever escapes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "ptx/ir.h"
#include "ptx/lexer.h"
#include "ptx/parser_tables.h"
#include "ptx/tex_syntax.h"

#define NBUCKETS 16384u

typedef enum { BIND_REG, BIND_SYM, BIND_PROTO } bind_kind_t;

typedef struct binding {
    const char *name;
    uint32_t bucket;
    int32_t next;     /* next binding in the bucket chain */
    uint32_t depth;
    uint8_t kind;     /* bind_kind_t */
    uint32_t idx;     /* register or symbol index */
} binding_t;

typedef struct fixup {
    uint32_t insn;
    uint8_t opnd;
    const char *name;      /* in the parser's name arena */
    uint32_t line, col;
} fixup_t;

typedef struct label {
    const char *name;      /* in the parser's name arena */
    uint32_t insn;
    uint32_t line, col;
} label_t;

/* Identifiers have no length limit (ptxas has none in practice: Thrust and
 * cooperative-groups names run to thousands of characters), so the parser
 * copies each name it keeps into an arena of chunks freed with the parser. */
typedef struct name_chunk {
    struct name_chunk *next;
    size_t used, cap;
    char data[];
} name_chunk_t;

typedef struct parser {
    const char *file;
    ptx_lexer_t lx;
    ptx_token_t tok;     /* current token */
    ptx_token_t next;    /* lookahead */
    simt_error_t *err;
    jmp_buf fail;
    ptx_module_t *m;
    uint32_t insn_cap, func_cap, sym_cap, list_cap, reloc_cap, proto_cap;
    binding_t *b;
    uint32_t nb, bcap;
    int32_t bucket[NBUCKETS];
    uint32_t depth;
    label_t *labels;
    uint32_t nlabels, label_cap;
    fixup_t *fix;          /* label references in the current function */
    uint32_t nfix, fix_cap;
    fixup_t *calls;        /* call targets, resolved at module end */
    uint32_t ncalls, call_cap;
    fixup_t *init_fix;     /* initializer addresses of functions declared
                              later (insn: the relocation), at module end */
    uint32_t ninit_fix, init_fix_cap;
    int32_t cur;           /* current function or -1 */
    name_chunk_t *names;   /* the name arena, newest chunk first */
} parser_t;

/* ---------- errors ---------- */

static _Noreturn void fail_at(parser_t *p, uint32_t line, uint32_t col,
                              const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static _Noreturn void fail_at(parser_t *p, uint32_t line, uint32_t col,
                              const char *fmt, ...)
{
    char what[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    /* the message may quote the input: never raw control bytes */
    char shown[2048];
    set_input_error(p->err, p->file, line, col, "%s",
                    printable(what, (size_t)-1, shown, sizeof shown));
    longjmp(p->fail, 1);
}

#define FAIL_TOK(p, t, ...) fail_at((p), (t)->line, (t)->col, __VA_ARGS__)

static void tok_text(const ptx_token_t *t, char *buf, size_t size)
{
    if (t->kind == TOK_EOF) {
        snprintf(buf, size, "end of file");
        return;
    }
    size_t n = t->len < size - 3 ? t->len : size - 3;
    buf[0] = '\'';
    memcpy(buf + 1, t->text, n);
    buf[n + 1] = '\'';
    buf[n + 2] = '\0';
}

/* ---------- memory ---------- */

static void *grow(parser_t *p, void *ptr, uint32_t *cap, uint32_t need,
                  size_t elem)
{
    if (need <= *cap)
        return ptr;
    uint32_t nc = *cap ? *cap : 16;
    while (nc < need)
        nc *= 2;
    void *q = realloc(ptr, (size_t)nc * elem);
    if (!q)
        fail_at(p, 0, 0, "out of memory");
    memset((char *)q + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
    *cap = nc;
    return q;
}

static char *dup_n(parser_t *p, const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        fail_at(p, 0, 0, "out of memory");
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* ---------- tokens ---------- */

static void advance(parser_t *p)
{
    p->tok = p->next;
    ptx_lex(&p->lx, &p->next);
    if (p->tok.kind == TOK_ERROR) {
        char t[64];
        tok_text(&p->tok, t, sizeof t);
        FAIL_TOK(p, &p->tok, "%s near %s", p->tok.error, t);
    }
}

static int is_punct(const ptx_token_t *t, char c)
{
    return t->kind == TOK_PUNCT && t->punct == c;
}

static int tok_is(const ptx_token_t *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->text, s, n) == 0;
}

static void expect_punct(parser_t *p, char c, const char *context)
{
    if (!is_punct(&p->tok, c)) {
        char t[64];
        tok_text(&p->tok, t, sizeof t);
        FAIL_TOK(p, &p->tok, "expected '%c' %s, found %s", c, context, t);
    }
    advance(p);
}

/* Room for n bytes and a NUL in the name arena. */
static char *arena_alloc(parser_t *p, size_t n)
{
    name_chunk_t *c = p->names;
    if (!c || c->cap - c->used < n + 1) {
        size_t cap = n + 1 > 65536 ? n + 1 : 65536;
        c = malloc(sizeof *c + cap);
        if (!c)
            fail_at(p, 0, 0, "out of memory");
        c->next = p->names;
        c->used = 0;
        c->cap = cap;
        p->names = c;
    }
    char *d = c->data + c->used;
    d[n] = '\0';
    c->used += n + 1;
    return d;
}

/* A NUL-terminated copy of n bytes of s in the name arena. */
static const char *arena_dup(parser_t *p, const char *s, size_t n)
{
    return memcpy(arena_alloc(p, n), s, n);
}

/* name followed by the n bytes of suffix, in the name arena. */
static const char *arena_cat(parser_t *p, const char *name, const char *suffix,
                             size_t n)
{
    size_t nl = strlen(name);
    char *d = arena_alloc(p, nl + n);
    memcpy(d, name, nl);
    memcpy(d + nl, suffix, n);
    return d;
}

/* The current identifier, copied into the name arena. */
static const char *expect_ident(parser_t *p, const char *what)
{
    if (p->tok.kind != TOK_IDENT) {
        char t[64];
        tok_text(&p->tok, t, sizeof t);
        FAIL_TOK(p, &p->tok, "expected %s, found %s", what, t);
    }
    const char *name = arena_dup(p, p->tok.text, p->tok.len);
    advance(p);
    return name;
}

static uint64_t expect_uint(parser_t *p, const char *what)
{
    if (p->tok.kind != TOK_INT) {
        char t[64];
        tok_text(&p->tok, t, sizeof t);
        FAIL_TOK(p, &p->tok, "expected %s (an integer), found %s", what, t);
    }
    uint64_t v = p->tok.ival;
    advance(p);
    return v;
}

/* ---------- name bindings (scoped) ---------- */

static uint32_t hash_name(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s)
        h = (h ^ (uint8_t)*s++) * 16777619u;
    return h & (NBUCKETS - 1);
}

static binding_t *lookup(parser_t *p, const char *name)
{
    for (int32_t i = p->bucket[hash_name(name)]; i >= 0; i = p->b[i].next)
        if (strcmp(p->b[i].name, name) == 0)
            return &p->b[i];
    return NULL;
}

static void bind(parser_t *p, const char *name, bind_kind_t kind, uint32_t idx,
                 uint32_t line, uint32_t col)
{
    binding_t *old = lookup(p, name);
    if (old && old->depth == p->depth)
        fail_at(p, line, col, "'%s' is already declared in this scope", name);
    p->b = grow(p, p->b, &p->bcap, p->nb + 1, sizeof *p->b);
    uint32_t h = hash_name(name);
    binding_t *b = &p->b[p->nb];
    b->name = name;
    b->bucket = h;
    b->next = p->bucket[h];
    b->depth = p->depth;
    b->kind = (uint8_t)kind;
    b->idx = idx;
    p->bucket[h] = (int32_t)p->nb++;
}

static void push_scope(parser_t *p) { p->depth++; }

static void pop_scope(parser_t *p)
{
    while (p->nb && p->b[p->nb - 1].depth == p->depth) {
        binding_t *b = &p->b[--p->nb];
        p->bucket[b->bucket] = b->next;
    }
    p->depth--;
}

/* ---------- module records ---------- */

static uint32_t add_symbol(parser_t *p, const char *name, ptx_sym_kind_t kind,
                           ptx_space_t space, uint32_t line, uint32_t col)
{
    ptx_module_t *m = p->m;
    m->syms = grow(p, m->syms, &p->sym_cap, m->nsyms + 1, sizeof *m->syms);
    ptx_symbol_t *s = &m->syms[m->nsyms];
    s->name = dup_n(p, name, strlen(name));
    s->kind = (uint8_t)kind;
    s->space = (uint8_t)space;
    s->func = p->cur >= 0 ? (uint32_t)p->cur : ~0u;
    s->line = line;
    s->col = col;
    s->align = 1;
    uint32_t si = m->nsyms++; /* counted before bind() so a failure frees it */
    bind(p, s->name, BIND_SYM, si, line, col);
    return si;
}

static uint32_t add_reg(parser_t *p, ptx_function_t *f, uint32_t *cap,
                        const char *name, ptx_type_t type, uint32_t line,
                        uint32_t col)
{
    if (f->nregs >= PTX_REG_SINK)
        fail_at(p, line, col, "too many registers in function '%s' (limit %u)",
                f->name, PTX_REG_SINK);
    f->regs = grow(p, f->regs, cap, f->nregs + 1, sizeof *f->regs);
    f->regs[f->nregs].name = dup_n(p, name, strlen(name));
    f->regs[f->nregs].type = (uint8_t)type;
    uint32_t ri = f->nregs++; /* counted before bind() so a failure frees it */
    bind(p, f->regs[ri].name, BIND_REG, ri, line, col);
    return ri;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* ---------- declarations ---------- */

static ptx_type_t parse_type_directive(parser_t *p, int required)
{
    if (p->tok.kind == TOK_DIRECTIVE) {
        ptx_type_t t = ptx_type_from_name(p->tok.text, p->tok.len);
        if (t != PTX_T_NONE) {
            advance(p);
            return t;
        }
    }
    if (required) {
        char t[64];
        tok_text(&p->tok, t, sizeof t);
        FAIL_TOK(p, &p->tok, "expected a type such as .u32 or .f32, found %s", t);
    }
    return PTX_T_NONE;
}

/* Initializer values: `= v` or `= {v, v, {v, ...}}`, stored little-endian
 * as elements of `type`. */
/* Nesting limits keep the recursion's stack use bounded on any input. */
#define MAX_BLOCK_NESTING 1024
#define MAX_INIT_NESTING 64
/* Initialised variables are materialised in the module: keep them bounded. */
#define MAX_INIT_BYTES (64u << 20)

static void add_fixup(parser_t *p, fixup_t **arr, uint32_t *n, uint32_t *cap,
                      uint32_t insn, unsigned opnd, const char *name,
                      const ptx_token_t *at);

/* The symbol an address initializer takes (r->target) is a variable or a
 * function whose address the model can give. */
static void check_address_target(parser_t *p, const ptx_reloc_t *r,
                                 const char *var, const char *name,
                                 uint32_t line, uint32_t col)
{
    const ptx_symbol_t *ts = &p->m->syms[r->target];
    if (ts->kind == PTX_SYM_VAR && ts->space == PTX_SPACE_CONST && r->generic)
        fail_at(p, line, col, "generic(%s): the model has no generic address "
                "for .const variables", name);
    if (ts->kind != PTX_SYM_FUNC && ts->kind != PTX_SYM_VAR)
        fail_at(p, line, col, "'%s' is a parameter: its address cannot "
                "initialise '%s'", name, var);
}

/* One address initializer element: `sym`, `generic(sym)`, either with
 * `+ n`, or a byte-array piece `0xFF00(...)` of one.  Recorded as a
 * relocation (ir.h) with zero bytes in place. */
static void parse_init_address(parser_t *p, ptx_symbol_t *s, unsigned esize,
                               uint64_t *pos)
{
    ptx_reloc_t r = { .var = (uint32_t)(s - p->m->syms), .offset = *pos,
                      .mask = ~0ull, .bytes = (uint8_t)esize,
                      .line = p->tok.line, .col = p->tok.col };
    unsigned closing = 0;
    if (p->tok.kind == TOK_INT) { /* mask(...) */
        ptx_token_t mt = p->tok;
        r.mask = p->tok.ival;
        unsigned lo = r.mask ? (unsigned)__builtin_ctzll(r.mask) : 0;
        uint64_t run = r.mask >> lo;
        if (!r.mask || (run & (run + 1)) ||
            (lo % 8) || 64 - (unsigned)__builtin_clzll(r.mask) - lo > 8 * esize)
            FAIL_TOK(p, &mt, "initializer mask 0x%llx of '%s' is not a run of "
                     "whole bytes that fits its %u-byte element",
                     (unsigned long long)r.mask, s->name, esize);
        advance(p);
        expect_punct(p, '(', "after the initializer mask");
        closing++;
    }
    if (p->tok.kind == TOK_IDENT && tok_is(&p->tok, "generic") &&
        is_punct(&p->next, '(')) {
        r.generic = 1;
        advance(p);
        advance(p);
        closing++;
    }
    ptx_token_t nt = p->tok;
    const char *name = expect_ident(p, "a variable or function name");
    binding_t *b = lookup(p, name);
    if (b && b->kind == BIND_SYM) {
        r.target = b->idx;
        check_address_target(p, &r, s->name, name, nt.line, nt.col);
    } else { /* a function declared further on: resolved at the end */
        r.target = PTX_NO_SYM;
        add_fixup(p, &p->init_fix, &p->ninit_fix, &p->init_fix_cap,
                  p->m->nrelocs, 0, name, &nt);
    }
    if (r.mask == ~0ull && esize != 8)
        FAIL_TOK(p, &nt, "'%s' stores the address of '%s' in %u-byte "
                 "elements: addresses are 64-bit (use .u64 or a mask such as "
                 "0xFF(%s))", s->name, name, esize, name);
    for (;;) {
        if (is_punct(&p->tok, '+') || is_punct(&p->tok, '-')) {
            int neg = p->tok.punct == '-';
            advance(p);
            ptx_token_t it = p->tok;
            uint64_t v = expect_uint(p, "an address offset");
            if (v > (1ull << 62))
                FAIL_TOK(p, &it, "address offset out of range");
            r.addend += neg ? -(int64_t)v : (int64_t)v;
            continue;
        }
        if (closing && is_punct(&p->tok, ')')) {
            advance(p);
            closing--;
            continue;
        }
        break;
    }
    if (closing)
        expect_punct(p, ')', "to close the initializer");
    if (*pos + esize > s->size)
        fail_at(p, r.line, r.col, "too many initializer values for '%s' "
                "(%llu bytes)", s->name, (unsigned long long)s->size);
    p->m->relocs = grow(p, p->m->relocs, &p->reloc_cap, p->m->nrelocs + 1,
                        sizeof *p->m->relocs);
    p->m->relocs[p->m->nrelocs++] = r;
    *pos += esize;
}

static void parse_init_value(parser_t *p, ptx_symbol_t *s, unsigned esize,
                             uint64_t *pos, unsigned depth)
{
    if (is_punct(&p->tok, '{')) {
        if (depth >= MAX_INIT_NESTING)
            FAIL_TOK(p, &p->tok, "initializer braces nested deeper than %u",
                     MAX_INIT_NESTING);
        advance(p);
        if (!is_punct(&p->tok, '}')) {
            for (;;) {
                parse_init_value(p, s, esize, pos, depth + 1);
                if (!is_punct(&p->tok, ','))
                    break;
                advance(p);
            }
        }
        expect_punct(p, '}', "to close the initializer");
        return;
    }
    if (p->tok.kind == TOK_IDENT ||
        (p->tok.kind == TOK_INT && is_punct(&p->next, '('))) {
        parse_init_address(p, s, esize, pos);
        return;
    }
    int neg = 0;
    if (is_punct(&p->tok, '-')) {
        neg = 1;
        advance(p);
    }
    uint64_t bits;
    ptx_token_t t = p->tok;
    if (t.kind == TOK_INT) {
        bits = neg ? 0 - t.ival : t.ival;
        if (ptx_type_is_float(s->type)) {
            double d = neg ? -(double)t.ival : (double)t.ival;
            bits = ptx_float_bits(d, s->type);
        }
    } else if (t.kind == TOK_FLOAT) {
        double d = ptx_float_token_value(&t);
        if (neg)
            d = -d;
        if (!ptx_type_is_float(s->type) && t.float_form == FLT_DEC)
            FAIL_TOK(p, &t, "floating-point initializer for integer variable '%s'",
                     s->name);
        if (ptx_type_is_float(s->type))
            bits = ptx_float_bits(d, s->type);
        else
            bits = t.ival; /* hex float bits into a .b type */
    } else {
        char tt[64];
        tok_text(&t, tt, sizeof tt);
        FAIL_TOK(p, &t, "unsupported initializer %s for '%s': only numeric "
                 "constants are supported", tt, s->name);
    }
    advance(p);
    if (*pos + esize > s->size)
        FAIL_TOK(p, &t, "too many initializer values for '%s' (%llu bytes)",
                 s->name, (unsigned long long)s->size);
    for (unsigned i = 0; i < esize; i++)
        s->init[*pos + i] = (uint8_t)(bits >> (8 * i));
    *pos += esize;
}

/* One variable after the state-space directive has been read:
 *   [.align N] [.vN] .type name[dims] [= init] (, name...)* ;
 * Returns with the terminating ';' consumed unless `in_list` (parameter
 * lists), in which case a single declaration is parsed. */
static uint32_t parse_var_decl(parser_t *p, ptx_space_t space,
                               ptx_sym_kind_t kind, int is_extern, int in_list)
{
    uint32_t align = 0;
    unsigned vec = 1;
    uint32_t first = ~0u;
    for (;;) {
        if (p->tok.kind == TOK_DIRECTIVE && tok_is(&p->tok, ".align")) {
            advance(p);
            ptx_token_t at = p->tok;
            uint64_t a = expect_uint(p, "alignment");
            if (a == 0 || (a & (a - 1)) || a > 4096)
                FAIL_TOK(p, &at, "alignment %llu is not a power of two in [1, 4096]",
                         (unsigned long long)a);
            align = (uint32_t)a;
        } else if (p->tok.kind == TOK_DIRECTIVE &&
                   (tok_is(&p->tok, ".v2") || tok_is(&p->tok, ".v4"))) {
            vec = p->tok.text[2] - '0';
            advance(p);
        } else if (p->tok.kind == TOK_DIRECTIVE && tok_is(&p->tok, ".ptr")) {
            advance(p); /* .ptr.space.align attributes on kernel params */
            while (p->tok.kind == TOK_DIRECTIVE && !p->tok.space_before) {
                if (tok_is(&p->tok, ".align")) {
                    advance(p);
                    expect_uint(p, "alignment");
                } else {
                    advance(p);
                }
            }
        } else {
            break;
        }
    }
    ptx_token_t type_tok = p->tok;
    ptx_type_t type = parse_type_directive(p, 1);
    if (type == PTX_T_PRED)
        FAIL_TOK(p, &type_tok, ".pred is only allowed in .reg declarations");
    /* pointer attributes after the type: .ptr[.space][.align N] */
    if (p->tok.kind == TOK_DIRECTIVE && tok_is(&p->tok, ".ptr")) {
        advance(p);
        while (p->tok.kind == TOK_DIRECTIVE) {
            int is_align = tok_is(&p->tok, ".align");
            if (!is_align && !tok_is(&p->tok, ".global") &&
                !tok_is(&p->tok, ".shared") && !tok_is(&p->tok, ".const") &&
                !tok_is(&p->tok, ".local"))
                break;
            advance(p);
            if (is_align)
                expect_uint(p, "alignment");
        }
    }
    unsigned esize = ptx_type_bits(type) / 8 * vec;
    for (;;) {
        const char *name;
        ptx_token_t nt = p->tok;
        name = expect_ident(p, "a variable name");
        uint64_t count = 1;
        int unsized = 0;
        while (is_punct(&p->tok, '[')) {
            advance(p);
            if (is_punct(&p->tok, ']')) {
                unsized = 1;
                advance(p);
                continue;
            }
            ptx_token_t dt = p->tok;
            uint64_t n = expect_uint(p, "array size");
            if (n == 0 || n > (1ull << 32))
                FAIL_TOK(p, &dt, "array size %llu of '%s' out of range",
                         (unsigned long long)n, name);
            count *= n;
            if (count > (1ull << 34))
                FAIL_TOK(p, &dt, "array '%s' is too large", name);
            expect_punct(p, ']', "after the array size");
        }
        uint32_t si = add_symbol(p, name, kind, space, nt.line, nt.col);
        ptx_symbol_t *s = &p->m->syms[si];
        s->type = (uint8_t)type;
        s->align = align ? align : esize;
        s->size = unsized ? 0 : count * esize;
        s->is_extern = (uint8_t)(is_extern || unsized);
        if (unsized && space != PTX_SPACE_SHARED && kind == PTX_SYM_VAR)
            fail_at(p, nt.line, nt.col,
                    "'%s' has no size: only extern .shared arrays may be unsized",
                    name);
        if (first == ~0u)
            first = si;
        if (is_punct(&p->tok, '=')) {
            if (space != PTX_SPACE_GLOBAL && space != PTX_SPACE_CONST)
                FAIL_TOK(p, &p->tok, "only .global and .const variables may "
                         "have initializers");
            advance(p);
            if (s->size > MAX_INIT_BYTES)
                FAIL_TOK(p, &nt, "'%s' is %llu bytes: initialised variables "
                         "are limited to %u MiB", name,
                         (unsigned long long)s->size, MAX_INIT_BYTES >> 20);
            s->init = calloc(1, s->size ? s->size : 1);
            if (!s->init)
                fail_at(p, 0, 0, "out of memory");
            uint64_t pos = 0;
            parse_init_value(p, s, esize / vec, &pos, 0);
        }
        if (in_list)
            return first;
        if (is_punct(&p->tok, ',')) {
            advance(p);
            continue;
        }
        expect_punct(p, ';', "after the declaration");
        return first;
    }
}

static void parse_reg_decl(parser_t *p, ptx_function_t *f, uint32_t *regcap)
{
    if (p->tok.kind == TOK_DIRECTIVE &&
        (tok_is(&p->tok, ".v2") || tok_is(&p->tok, ".v4")))
        FAIL_TOK(p, &p->tok, "vector registers (.reg .v2/.v4) are not supported");
    ptx_type_t type = parse_type_directive(p, 1);
    for (;;) {
        const char *name;
        ptx_token_t nt = p->tok;
        name = expect_ident(p, "a register name");
        if (is_punct(&p->tok, '<')) {
            advance(p);
            ptx_token_t ct = p->tok;
            uint64_t n = expect_uint(p, "register count");
            if (n > 65535)
                FAIL_TOK(p, &ct, "register range %s<%llu> is too large", name,
                         (unsigned long long)n);
            expect_punct(p, '>', "after the register count");
            for (uint64_t i = 0; i < n; i++) {
                char num[24];
                int k = snprintf(num, sizeof num, "%llu", (unsigned long long)i);
                add_reg(p, f, regcap, arena_cat(p, name, num, (size_t)k), type,
                        nt.line, nt.col);
            }
        } else {
            add_reg(p, f, regcap, name, type, nt.line, nt.col);
        }
        if (is_punct(&p->tok, ',')) {
            advance(p);
            continue;
        }
        expect_punct(p, ';', "after the register declaration");
        return;
    }
}

/* Skips a directive whose arguments sit on the same line (.loc, .file). */
static void skip_line_directive(parser_t *p)
{
    uint32_t line = p->tok.line;
    advance(p);
    while (p->tok.kind != TOK_EOF && p->tok.line == line &&
           !is_punct(&p->tok, ';') && !is_punct(&p->tok, '}'))
        advance(p);
    if (is_punct(&p->tok, ';') && p->tok.line == line)
        advance(p);
}

static void skip_pragma(parser_t *p)
{
    advance(p);
    while (p->tok.kind == TOK_STRING || is_punct(&p->tok, ','))
        advance(p);
    expect_punct(p, ';', "after .pragma");
}

/* ---------- instructions ---------- */

static ptx_insn_t *new_insn(parser_t *p)
{
    ptx_module_t *m = p->m;
    m->insns = grow(p, m->insns, &p->insn_cap, m->ninsns + 1, sizeof *m->insns);
    ptx_insn_t *in = &m->insns[m->ninsns];
    memset(in, 0, sizeof *in);
    in->guard = PTX_REG_SINK;
    in->vec = 1;
    return in;
}

/* Modifier text of the current token, including `::x` suffixes. */
static void read_modifier(parser_t *p, char *buf, size_t size)
{
    size_t n = 0;
    for (;;) {
        size_t k = p->tok.len;
        if (n + k >= size)
            FAIL_TOK(p, &p->tok, "instruction modifier too long");
        memcpy(buf + n, p->tok.text, k);
        n += k;
        advance(p);
        if (is_punct(&p->tok, ':') && !p->tok.space_before &&
            is_punct(&p->next, ':') && !p->next.space_before) {
            advance(p);
            advance(p);
            if (n + 2 >= size)
                FAIL_TOK(p, &p->tok, "instruction modifier too long");
            buf[n++] = ':';
            buf[n++] = ':';
            if ((p->tok.kind == TOK_IDENT || p->tok.kind == TOK_INT) &&
                !p->tok.space_before)
                continue;
            FAIL_TOK(p, &p->tok, "expected a name after '::'");
        }
        break;
    }
    buf[n] = '\0';
}

static uint64_t imm_for_type(parser_t *p, const ptx_token_t *t, int neg,
                             ptx_type_t type, uint8_t *is_float)
{
    *is_float = 0;
    if (t->kind == TOK_INT) {
        if (ptx_type_is_float(type)) {
            *is_float = 1;
            double d = (double)t->ival;
            return ptx_float_bits(neg ? -d : d, type);
        }
        return neg ? 0 - t->ival : t->ival;
    }
    double d = ptx_float_token_value(t);
    if (neg)
        d = -d;
    if (ptx_type_is_float(type)) {
        *is_float = 1;
        return ptx_float_bits(d, type);
    }
    if (t->float_form == FLT_DEC)
        FAIL_TOK(p, t, "floating-point literal used where the instruction "
                 "expects an integer (%s)", ptx_type_name(type));
    if (neg)
        FAIL_TOK(p, t, "negated hexadecimal float literal for an integer type");
    return t->ival;
}

static const char *parse_reg_name(parser_t *p)
{
    return expect_ident(p, "a register");
}

static uint16_t lookup_reg(parser_t *p, const char *name,
                           const ptx_token_t *at)
{
    if (strcmp(name, "_") == 0)
        return PTX_REG_SINK;
    binding_t *b = lookup(p, name);
    if (!b)
        FAIL_TOK(p, at, "undeclared register '%s'", name);
    if (b->kind != BIND_REG)
        FAIL_TOK(p, at, "'%s' is not a register", name);
    return (uint16_t)b->idx;
}

static void add_fixup(parser_t *p, fixup_t **arr, uint32_t *n, uint32_t *cap,
                      uint32_t insn, unsigned opnd, const char *name,
                      const ptx_token_t *at)
{
    *arr = grow(p, *arr, cap, *n + 1, sizeof **arr);
    fixup_t *f = &(*arr)[(*n)++];
    f->insn = insn;
    f->opnd = (uint8_t)opnd;
    f->name = name;
    f->line = at->line;
    f->col = at->col;
}

static void parse_operand(parser_t *p, ptx_insn_t *in, unsigned idx,
                          ptx_type_t type)
{
    ptx_operand_t *o = &in->ops[idx];
    o->sym = PTX_NO_SYM;
    ptx_token_t t = p->tok;
    const char *name;
    if (is_punct(&t, '[')) {
        advance(p);
        o->kind = PTX_OPND_ADDR;
        ptx_token_t bt = p->tok;
        if (p->tok.kind == TOK_IDENT) {
            name = expect_ident(p, "an address base");
            binding_t *b = lookup(p, name);
            if (!b)
                FAIL_TOK(p, &bt, "undeclared identifier '%s' in address", name);
            if (b->kind == BIND_REG) {
                o->has_reg = 1;
                o->reg = (uint16_t)b->idx;
            } else {
                o->sym = b->idx;
            }
        } else if (p->tok.kind == TOK_INT) {
            o->imm = (int64_t)p->tok.ival;
            advance(p);
        } else {
            char tt[64];
            tok_text(&p->tok, tt, sizeof tt);
            FAIL_TOK(p, &p->tok, "expected a register, variable or address in "
                     "[...], found %s", tt);
        }
        if (is_punct(&p->tok, '+') || is_punct(&p->tok, '-')) {
            int neg = p->tok.punct == '-';
            advance(p);
            if (is_punct(&p->tok, '-')) {
                neg = !neg;
                advance(p);
            }
            ptx_token_t it = p->tok;
            uint64_t v = expect_uint(p, "address offset");
            int64_t sum;
            if (v > (1ull << 62) ||
                __builtin_add_overflow(o->imm, neg ? -(int64_t)v : (int64_t)v, &sum))
                FAIL_TOK(p, &it, "address offset out of range");
            o->imm = sum;
        }
        expect_punct(p, ']', "to close the address");
        return;
    }
    if (is_punct(&t, '{')) {
        advance(p);
        o->kind = PTX_OPND_VEC;
        for (;;) {
            ptx_token_t rt = p->tok;
            if (o->nvec == 4)
                FAIL_TOK(p, &rt, "a vector operand has at most 4 elements");
            if (rt.kind == TOK_INT && rt.ival == 0) {
                /* {0, %rs} (nvcc's bf16 to f32): a zero element packs as
                 * the '_' element does */
                advance(p);
                o->vec[o->nvec++] = PTX_REG_SINK;
                if (!is_punct(&p->tok, ','))
                    break;
                advance(p);
                continue;
            }
            if (rt.kind != TOK_IDENT)
                FAIL_TOK(p, &rt, "vector operands must be registers (or 0)");
            name = parse_reg_name(p);
            o->vec[o->nvec++] = lookup_reg(p, name, &rt);
            if (!is_punct(&p->tok, ','))
                break;
            advance(p);
        }
        expect_punct(p, '}', "to close the vector operand");
        return;
    }
    if (is_punct(&t, '(')) {
        advance(p);
        o->kind = PTX_OPND_LIST;
        o->imm = p->m->ncall_lists;
        while (!is_punct(&p->tok, ')')) {
            ptx_token_t st = p->tok;
            name = expect_ident(p, "a parameter name");
            binding_t *b = lookup(p, name);
            if (!b || b->kind != BIND_SYM)
                FAIL_TOK(p, &st, "'%s' is not a declared .param", name);
            if (o->nvec == 255)
                FAIL_TOK(p, &st, "too many call arguments");
            p->m->call_lists = grow(p, p->m->call_lists, &p->list_cap,
                                    p->m->ncall_lists + 1, sizeof(uint32_t));
            p->m->call_lists[p->m->ncall_lists++] = b->idx;
            o->nvec++;
            if (!is_punct(&p->tok, ','))
                break;
            advance(p);
        }
        expect_punct(p, ')', "to close the call argument list");
        return;
    }
    if (is_punct(&t, '!')) {
        advance(p);
        ptx_token_t rt = p->tok;
        name = parse_reg_name(p);
        o->kind = PTX_OPND_REG;
        o->neg = 1;
        o->reg = lookup_reg(p, name, &rt);
        return;
    }
    if (is_punct(&t, '-') || t.kind == TOK_INT || t.kind == TOK_FLOAT) {
        int neg = 0;
        if (is_punct(&t, '-')) {
            neg = 1;
            advance(p);
            t = p->tok;
            if (t.kind != TOK_INT && t.kind != TOK_FLOAT)
                FAIL_TOK(p, &t, "expected a number after '-'");
        }
        o->kind = PTX_OPND_IMM;
        o->imm = (int64_t)imm_for_type(p, &t, neg, type, &o->is_float);
        advance(p);
        return;
    }
    if (t.kind != TOK_IDENT) {
        char tt[64];
        tok_text(&t, tt, sizeof tt);
        FAIL_TOK(p, &t, "expected an operand, found %s", tt);
    }
    name = expect_ident(p, "an operand");
    if (name[0] == '%') {
        binding_t *b = lookup(p, name);
        if (!b) {
            /* special register, possibly with a .x/.y/.z suffix */
            char full[48];
            if (strlen(name) >= 32)
                FAIL_TOK(p, &t, "undeclared register '%s'", name);
            snprintf(full, sizeof full, "%s", name);
            if (p->tok.kind == TOK_DIRECTIVE && !p->tok.space_before &&
                p->tok.len < 8) {
                size_t n = strlen(full);
                memcpy(full + n, p->tok.text, p->tok.len);
                full[n + p->tok.len] = '\0';
                if (ptx_sreg_from_name(full) >= 0)
                    advance(p);
                else
                    full[n] = '\0';
            }
            int sr = ptx_sreg_from_name(full);
            if (sr < 0)
                FAIL_TOK(p, &t, "undeclared register '%s'", full);
            o->kind = PTX_OPND_SREG;
            o->reg = (uint16_t)sr;
            return;
        }
    }
    binding_t *b = lookup(p, name);
    if (!b && strcmp(name, "WARP_SZ") == 0) {
        /* the predefined constant: the warp size, an immediate of any type */
        o->kind = PTX_OPND_IMM;
        ptx_token_t wt = t;
        wt.kind = TOK_INT;
        wt.ival = PTX_WARP_SZ;
        o->imm = (int64_t)imm_for_type(p, &wt, 0, type, &o->is_float);
        return;
    }
    if (strcmp(name, "_") == 0) {
        o->kind = PTX_OPND_REG;
        o->reg = PTX_REG_SINK;
    } else if (b && b->kind == BIND_REG) {
        o->kind = PTX_OPND_REG;
        o->reg = (uint16_t)b->idx;
        if (ptx_op_is_video(in->op) && p->tok.kind == TOK_DIRECTIVE &&
            !p->tok.space_before)
            FAIL_TOK(p, &p->tok, "operand selector '%.*s' of a SIMD video "
                     "instruction is not supported (only the default "
                     "selectors, which nvcc emits)", (int)p->tok.len,
                     p->tok.text);
    } else if (b && b->kind == BIND_PROTO) {
        if (in->op != PTX_OP_CALL)
            FAIL_TOK(p, &t, "'%s' is a .callprototype: only call may name it",
                     name);
        o->kind = PTX_OPND_PROTO;
        o->imm = b->idx;
        return;
    } else if (b && b->kind == BIND_SYM) {
        ptx_symbol_t *s = &p->m->syms[b->idx];
        o->kind = s->kind == PTX_SYM_FUNC ? PTX_OPND_FUNC : PTX_OPND_SYM;
        o->sym = b->idx;
        if (o->kind == PTX_OPND_SYM && is_punct(&p->tok, '+')) {
            advance(p);
            o->imm = (int64_t)expect_uint(p, "symbol offset");
        }
        return;
    } else {
        /* a label or a function declared later: resolved afterwards */
        o->kind = PTX_OPND_LABEL;
        if (in->op == PTX_OP_CALL)
            add_fixup(p, &p->calls, &p->ncalls, &p->call_cap, p->m->ninsns,
                      idx, name, &t);
        else
            add_fixup(p, &p->fix, &p->nfix, &p->fix_cap, p->m->ninsns, idx,
                      name, &t);
        return;
    }
    if (is_punct(&p->tok, '|')) {
        if (idx != 0 || (in->op != PTX_OP_SETP && in->op != PTX_OP_SHFL &&
                         in->op != PTX_OP_MATCH && in->op != PTX_OP_ELECT))
            FAIL_TOK(p, &p->tok, "'|' pairs destinations only on the first "
                     "operand of setp, shfl, match and elect");
        advance(p);
        ptx_token_t rt = p->tok;
        name = parse_reg_name(p);
        uint16_t q = lookup_reg(p, name, &rt);
        if (q != PTX_REG_SINK &&
            p->m->funcs[p->cur].regs[q].type != PTX_T_PRED)
            FAIL_TOK(p, &rt, "second destination '%s' is not a .pred register",
                     name);
        o->vec[0] = q;
        o->nvec = 1;
    }
}

/* Type the immediate of operand `idx` is converted to. */
static ptx_type_t operand_type(const ptx_insn_t *in, unsigned idx)
{
    switch (in->op) {
    case PTX_OP_CVT:
    case PTX_OP_SET:
        return idx >= 1 ? (ptx_type_t)in->type2 : (ptx_type_t)in->type;
    case PTX_OP_SLCT:
        return idx == 3 ? (ptx_type_t)in->type2 : (ptx_type_t)in->type;
    case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_SHF: case PTX_OP_BFE:
    case PTX_OP_BFI: case PTX_OP_SHFL: case PTX_OP_PRMT: case PTX_OP_LOP3:
        return idx >= 2 ? PTX_T_U32 : (ptx_type_t)in->type;
    case PTX_OP_MATCH: case PTX_OP_REDUX:
        return idx >= 2 ? PTX_T_U32 : (ptx_type_t)in->type;
    case PTX_OP_FNS: case PTX_OP_ELECT: case PTX_OP_BMSK: case PTX_OP_DP4A:
    case PTX_OP_DP2A:
        return PTX_T_U32;
    case PTX_OP_VADD4: case PTX_OP_VSUB4: case PTX_OP_VAVRG4:
    case PTX_OP_VABSDIFF4: case PTX_OP_VMIN4: case PTX_OP_VMAX4:
    case PTX_OP_VSET4: case PTX_OP_VADD2: case PTX_OP_VSUB2:
    case PTX_OP_VAVRG2: case PTX_OP_VABSDIFF2: case PTX_OP_VMIN2:
    case PTX_OP_VMAX2: case PTX_OP_VSET2:
        return PTX_T_U32;
    case PTX_OP_MUL: case PTX_OP_MAD:
        /* .wide: sources have the instruction type, destination is wider */
        return (ptx_type_t)in->type;
    case PTX_OP_BAR: case PTX_OP_BARRIER: case PTX_OP_VOTE:
    case PTX_OP_NANOSLEEP:
        return PTX_T_U32;
    default:
        return (ptx_type_t)in->type;
    }
}

/* "[handle, {coords}]" of tex/tld4/suld/sust: two operands, the handle
 * register at n and the coordinate vector at n + 1 (ptx/tex_syntax.h);
 * returns the next operand index. */
static unsigned parse_tex_address(parser_t *p, ptx_insn_t *in, unsigned n)
{
    if (n + 2 > PTX_MAX_OPERANDS)
        FAIL_TOK(p, &p->tok, "too many operands for '%s'", ptx_op_name((ptx_op_t)in->op));
    advance(p); /* '[' */
    if (p->tok.kind != TOK_IDENT)
        FAIL_TOK(p, &p->tok, "expected the texture or surface handle register");
    ptx_token_t ht = p->tok;
    parse_operand(p, in, n, PTX_T_U64);
    const ptx_operand_t *h = &in->ops[n];
    if (h->kind != PTX_OPND_REG || h->reg == PTX_REG_SINK ||
        ptx_type_bits((ptx_type_t)p->m->funcs[p->cur].regs[h->reg].type) != 64)
        FAIL_TOK(p, &ht, "the texture or surface must be a .u64 register "
                 "holding an object handle, as in [%%rd1, {%%f1, %%f2}]");
    expect_punct(p, ',', "after the texture or surface handle");
    if (!is_punct(&p->tok, '{'))
        FAIL_TOK(p, &p->tok, "expected the {...} coordinate vector (a separate "
                 "sampler operand is not supported: use texture objects)");
    parse_operand(p, in, n + 1, PTX_T_NONE);
    expect_punct(p, ']', "to close the texture or surface address");
    return n + 2;
}

static void parse_instruction(parser_t *p, uint16_t guard, int guard_neg)
{
    ptx_token_t nt = p->tok;
    char name[32];
    if (nt.len >= sizeof name)
        FAIL_TOK(p, &nt, "unknown instruction '%.*s'", (int)nt.len, nt.text);
    memcpy(name, nt.text, nt.len);
    name[nt.len] = '\0';
    int op = ptx_op_from_name(name);
    const char *lacks = op < 0 ? ptx_unsupported_reason(name) : NULL;
    if (lacks)
        FAIL_TOK(p, &nt, "'%s' is not supported by simtlab: %s", name, lacks);
    if (op < 0)
        FAIL_TOK(p, &nt, "unknown instruction '%s': simtlab does not support it",
                 name);
    advance(p);
    ptx_insn_t *in = new_insn(p);
    in->op = (uint8_t)op;
    in->line = nt.line;
    in->col = nt.col;
    in->func = (uint32_t)p->cur;
    in->guard = guard;
    in->guard_neg = (uint8_t)guard_neg;
    while (p->tok.kind == TOK_DIRECTIVE && !p->tok.space_before) {
        ptx_token_t mt = p->tok;
        char mod[64];
        read_modifier(p, mod, sizeof mod);
        const char *why = ptx_apply_modifier(in, mod);
        if (why)
            FAIL_TOK(p, &mt, "%s '%s' on '%s'", why, mod, name);
    }
    const char *why = ptx_check_modifiers(in);
    if (why)
        FAIL_TOK(p, &nt, "'%s': %s", name, why);
    unsigned n = 0;
    if (!is_punct(&p->tok, ';')) {
        for (;;) {
            if (n == PTX_MAX_OPERANDS)
                FAIL_TOK(p, &p->tok, "too many operands for '%s'", name);
            if (ptx_is_tex_op((ptx_op_t)in->op) && is_punct(&p->tok, '[')) {
                n = parse_tex_address(p, in, n);
            } else {
                parse_operand(p, in, n, operand_type(in, n));
                n++;
            }
            in = &p->m->insns[p->m->ninsns]; /* parse may not move it, but be safe */
            if (!is_punct(&p->tok, ','))
                break;
            advance(p);
        }
    }
    in->nops = (uint8_t)n;
    if (!is_punct(&p->tok, ';')) {
        char tt[64];
        tok_text(&p->tok, tt, sizeof tt);
        FAIL_TOK(p, &p->tok, "expected ';' or ',' after operand of '%s', found %s",
                 name, tt);
    }
    advance(p);
    const ptx_function_t *f = &p->m->funcs[p->cur];
    char buf[160];
    why = ptx_check_operands(in, f, buf, sizeof buf);
    if (why)
        FAIL_TOK(p, &nt, "'%s': %s", name, why);
    p->m->ninsns++;
}

/* ---------- functions ---------- */

static void parse_param_list(parser_t *p, ptx_function_t *f, int is_entry,
                             uint32_t **list, uint32_t *n)
{
    expect_punct(p, '(', "to open the parameter list");
    while (!is_punct(&p->tok, ')')) {
        if (!(p->tok.kind == TOK_DIRECTIVE && (tok_is(&p->tok, ".param") ||
                                               tok_is(&p->tok, ".reg")))) {
            char tt[64];
            tok_text(&p->tok, tt, sizeof tt);
            FAIL_TOK(p, &p->tok, "expected .param in the parameter list, found %s",
                     tt);
        }
        if (tok_is(&p->tok, ".reg"))
            FAIL_TOK(p, &p->tok, ".reg parameters are not supported; use .param");
        advance(p);
        uint32_t si = parse_var_decl(p, PTX_SPACE_PARAM,
                                     is_entry ? PTX_SYM_KPARAM : PTX_SYM_FPARAM,
                                     0, 1);
        ptx_symbol_t *s = &p->m->syms[si];
        if (s->size == 0)
            fail_at(p, s->line, s->col, "parameter '%s' has no size", s->name);
        uint64_t *bytes = is_entry ? &f->param_bytes : &f->frame_bytes;
        s->offset = align_up(*bytes, s->align);
        *bytes = s->offset + s->size;
        uint32_t *grown = realloc(*list, (*n + 1) * sizeof **list);
        if (!grown)
            fail_at(p, 0, 0, "out of memory");
        *list = grown;
        (*list)[(*n)++] = si;
        if (!is_punct(&p->tok, ','))
            break;
        advance(p);
    }
    expect_punct(p, ')', "to close the parameter list");
}

static void parse_dims(parser_t *p, uint32_t d[3], const char *what)
{
    d[0] = d[1] = d[2] = 1;
    for (int i = 0; i < 3; i++) {
        ptx_token_t t = p->tok;
        uint64_t v = expect_uint(p, what);
        if (v == 0 || v > 65536)
            FAIL_TOK(p, &t, "%s value %llu out of range", what,
                     (unsigned long long)v);
        d[i] = (uint32_t)v;
        if (!is_punct(&p->tok, ','))
            break;
        advance(p);
    }
}

static void resolve_labels(parser_t *p, ptx_function_t *f)
{
    for (uint32_t i = 0; i < p->nfix; i++) {
        fixup_t *fx = &p->fix[i];
        uint32_t target = ~0u;
        for (uint32_t l = 0; l < p->nlabels; l++)
            if (strcmp(p->labels[l].name, fx->name) == 0)
                target = p->labels[l].insn;
        if (target == ~0u)
            fail_at(p, fx->line, fx->col, "undefined label or identifier '%s' in "
                    "function '%s'", fx->name, f->name);
        p->m->insns[fx->insn].ops[fx->opnd].imm = target;
    }
    p->nfix = 0;
    p->nlabels = 0;
}

/* The parameters of one list of a .callprototype: `( .param ... , ... )`;
 * returns their number. */
static uint32_t proto_params(parser_t *p)
{
    expect_punct(p, '(', "to open the prototype's parameter list");
    uint32_t n = 0;
    while (!is_punct(&p->tok, ')')) {
        if (p->tok.kind == TOK_EOF)
            FAIL_TOK(p, &p->tok, "unterminated .callprototype parameter list");
        if (p->tok.kind == TOK_DIRECTIVE && tok_is(&p->tok, ".param"))
            n++;
        advance(p);
    }
    advance(p);
    return n;
}

/* name: .callprototype [(ret)] _ [(args)] ; -- recorded in the module and
 * bound in the current scope. */
static void parse_callprototype(parser_t *p, const char *name,
                                const ptx_token_t *at)
{
    const char *start = p->tok.text;
    advance(p); /* .callprototype */
    ptx_proto_t pr = { .func = (uint32_t)p->cur };
    if (is_punct(&p->tok, '('))
        pr.nrets = proto_params(p);
    if (!(p->tok.kind == TOK_IDENT && tok_is(&p->tok, "_"))) {
        char tt[64];
        tok_text(&p->tok, tt, sizeof tt);
        FAIL_TOK(p, &p->tok, "expected '_' (the function) in the "
                 ".callprototype, found %s", tt);
    }
    advance(p);
    if (is_punct(&p->tok, '('))
        pr.nargs = proto_params(p);
    if (!is_punct(&p->tok, ';'))
        expect_punct(p, ';', "after the .callprototype");
    const char *end = p->tok.text;
    advance(p);
    ptx_module_t *m = p->m;
    m->protos = grow(p, m->protos, &p->proto_cap, m->nprotos + 1,
                     sizeof *m->protos);
    pr.name = dup_n(p, name, strlen(name));
    m->protos[m->nprotos] = pr;
    m->protos[m->nprotos].text = NULL;
    uint32_t pi = m->nprotos++; /* counted so that a failure frees it */
    /* the declaration's text on one line, for simt opt's output */
    char *text = dup_n(p, start, (size_t)(end - start));
    for (char *c = text; *c; c++)
        if (*c == '\n' || *c == '\r' || *c == '\t')
            *c = ' ';
    m->protos[pi].text = text;
    bind(p, m->protos[pi].name, BIND_PROTO, pi, at->line, at->col);
}

/* A label just before the closing brace (nvcc emits one after a call to a
 * .noreturn function, and branches to it): control that reaches the end of
 * a function leaves it, so the label gets an implicit ret to stand on, at
 * the label's position. */
static void end_label_ret(parser_t *p, ptx_function_t *f)
{
    for (uint32_t l = 0; l < p->nlabels; l++) {
        if (p->labels[l].insn != p->m->ninsns)
            continue;
        ptx_insn_t *in = new_insn(p);
        in->op = PTX_OP_RET;
        in->line = p->labels[l].line;
        in->col = p->labels[l].col;
        in->func = (uint32_t)p->cur;
        p->m->ninsns++;
        f->count++;
        return;
    }
}

static void parse_body(parser_t *p, ptx_function_t **fp, uint32_t *regcap)
{
    for (;;) {
        ptx_function_t *f = &p->m->funcs[p->cur];
        *fp = f;
        ptx_token_t t = p->tok;
        if (t.kind == TOK_EOF)
            FAIL_TOK(p, &t, "unexpected end of file inside function '%s': "
                     "missing '}'", f->name);
        if (is_punct(&t, '}')) {
            advance(p);
            return;
        }
        if (is_punct(&t, '{')) {
            if (p->depth >= MAX_BLOCK_NESTING)
                FAIL_TOK(p, &t, "blocks nested deeper than %u", MAX_BLOCK_NESTING);
            advance(p);
            push_scope(p);
            parse_body(p, fp, regcap);
            pop_scope(p);
            continue;
        }
        if (t.kind == TOK_DIRECTIVE) {
            if (tok_is(&t, ".reg")) {
                advance(p);
                parse_reg_decl(p, f, regcap);
            } else if (tok_is(&t, ".local") || tok_is(&t, ".param") ||
                       tok_is(&t, ".shared")) {
                advance(p);
                ptx_space_t sp = tok_is(&t, ".local") ? PTX_SPACE_LOCAL
                               : tok_is(&t, ".param") ? PTX_SPACE_PARAM
                                                      : PTX_SPACE_SHARED;
                uint32_t before = p->m->nsyms;
                parse_var_decl(p, sp, sp == PTX_SPACE_PARAM ? PTX_SYM_CPARAM
                                                            : PTX_SYM_VAR,
                               0, 0);
                f = &p->m->funcs[p->cur];
                for (uint32_t i = before; i < p->m->nsyms; i++) {
                    ptx_symbol_t *s = &p->m->syms[i];
                    if (sp == PTX_SPACE_SHARED && f->is_entry) {
                        /* offset within the kernel's own region */
                        s->offset = align_up(f->shared_bytes, s->align);
                        f->shared_bytes = s->offset + s->size;
                        if (s->align > f->shared_align)
                            f->shared_align = s->align;
                        s->func = (uint32_t)p->cur;
                    } else if (sp == PTX_SPACE_SHARED) {
                        s->func = ~0u; /* shared in a .func: module region */
                        s->offset = align_up(p->m->shared_bytes, s->align);
                        p->m->shared_bytes = s->offset + s->size;
                    } else {
                        s->offset = align_up(f->frame_bytes, s->align);
                        f->frame_bytes = s->offset + s->size;
                    }
                }
            } else if (tok_is(&t, ".pragma")) {
                skip_pragma(p);
            } else if (tok_is(&t, ".loc") || tok_is(&t, ".file")) {
                skip_line_directive(p);
            } else {
                FAIL_TOK(p, &t, "unexpected directive '%.*s' inside function '%s'",
                         (int)t.len, t.text, f->name);
            }
            continue;
        }
        if (t.kind == TOK_IDENT && is_punct(&p->next, ':')) {
            const char *name;
            name = expect_ident(p, "a label");
            advance(p); /* ':' */
            if (p->tok.kind == TOK_DIRECTIVE &&
                tok_is(&p->tok, ".callprototype")) {
                parse_callprototype(p, name, &t);
                continue;
            }
            if (p->tok.kind == TOK_DIRECTIVE && tok_is(&p->tok, ".calltargets"))
                FAIL_TOK(p, &p->tok, ".calltargets is not supported: simtlab "
                         "calls through a register with a .callprototype");
            for (uint32_t l = 0; l < p->nlabels; l++)
                if (strcmp(p->labels[l].name, name) == 0)
                    FAIL_TOK(p, &t, "label '%s' is defined twice (first at line %u)",
                             name, p->labels[l].line);
            p->labels = grow(p, p->labels, &p->label_cap, p->nlabels + 1,
                             sizeof *p->labels);
            label_t *lb = &p->labels[p->nlabels++];
            lb->name = name;
            lb->insn = p->m->ninsns;
            lb->line = t.line;
            lb->col = t.col;
            continue;
        }
        uint16_t guard = PTX_REG_SINK;
        int gneg = 0;
        if (is_punct(&t, '@')) {
            advance(p);
            if (is_punct(&p->tok, '!')) {
                gneg = 1;
                advance(p);
            }
            ptx_token_t rt = p->tok;
            const char *name;
            name = expect_ident(p, "a predicate register after '@'");
            guard = lookup_reg(p, name, &rt);
            if (guard == PTX_REG_SINK || f->regs[guard].type != PTX_T_PRED)
                FAIL_TOK(p, &rt, "guard '%s' is not a .pred register", name);
        }
        if (p->tok.kind != TOK_IDENT) {
            char tt[64];
            tok_text(&p->tok, tt, sizeof tt);
            FAIL_TOK(p, &p->tok, "expected an instruction, label or declaration, "
                     "found %s", tt);
        }
        parse_instruction(p, guard, gneg);
        p->m->funcs[p->cur].count++;
    }
}

static void parse_function(parser_t *p, int is_entry, int is_extern)
{
    ptx_token_t kw = p->tok;
    advance(p); /* .entry / .func */
    ptx_module_t *m = p->m;
    /* the function record first, so that parameters know their owner */
    m->funcs = grow(p, m->funcs, &p->func_cap, m->nfuncs + 1, sizeof *m->funcs);
    uint32_t fi = m->nfuncs;
    ptx_function_t *f = &m->funcs[fi];
    memset(f, 0, sizeof *f);
    m->nfuncs++; /* counted at once so that a failed parse frees its parts */
    f->is_entry = is_entry;
    f->line = kw.line;
    f->col = kw.col;
    p->cur = (int32_t)fi;
    push_scope(p); /* parameters */
    if (!is_entry && is_punct(&p->tok, '('))
        parse_param_list(p, f, 0, &f->rets, &f->nrets);
    const char *name;
    ptx_token_t nt = p->tok;
    name = expect_ident(p, is_entry ? "a kernel name" : "a function name");
    f = &m->funcs[fi];
    f->name = dup_n(p, name, strlen(name));
    if (is_punct(&p->tok, '('))
        parse_param_list(p, &m->funcs[fi], is_entry, &m->funcs[fi].params,
                         &m->funcs[fi].nparams);
    f = &m->funcs[fi];
    for (;;) {
        ptx_token_t t = p->tok;
        if (t.kind != TOK_DIRECTIVE)
            break;
        advance(p);
        if (tok_is(&t, ".maxntid"))
            parse_dims(p, f->maxntid, ".maxntid");
        else if (tok_is(&t, ".reqntid"))
            parse_dims(p, f->reqntid, ".reqntid");
        else if (tok_is(&t, ".maxnreg"))
            f->maxnreg = (uint32_t)expect_uint(p, ".maxnreg");
        else if (tok_is(&t, ".minnctapersm"))
            f->minnctapersm = (uint32_t)expect_uint(p, ".minnctapersm");
        else if (tok_is(&t, ".maxnctapersm"))
            expect_uint(p, ".maxnctapersm");
        else if (tok_is(&t, ".noreturn"))
            ;
        else if (tok_is(&t, ".pragma")) {
            while (p->tok.kind == TOK_STRING || is_punct(&p->tok, ','))
                advance(p);
            expect_punct(p, ';', "after .pragma");
        } else
            FAIL_TOK(p, &t, "unexpected directive '%.*s' in the header of '%s'",
                     (int)t.len, t.text, name);
    }
    /* a function symbol in module scope (outside the parameter scope) */
    pop_scope(p);
    binding_t *prev = lookup(p, name);
    int32_t proto = -1;
    if (prev && prev->kind == BIND_SYM &&
        m->syms[prev->idx].kind == PTX_SYM_FUNC)
        proto = (int32_t)m->syms[prev->idx].offset;
    else if (prev)
        fail_at(p, nt.line, nt.col, "'%s' is already declared", name);
    if (is_punct(&p->tok, ';')) {
        advance(p);
        if (proto < 0) {
            p->cur = -1;
            uint32_t si = add_symbol(p, name, PTX_SYM_FUNC, PTX_SPACE_NONE,
                                     nt.line, nt.col);
            m->syms[si].offset = fi;
        } else {
            /* a repeated prototype: drop it */
        }
        f->first = m->ninsns;
        f->count = 0;
        f->is_entry = is_entry;
        (void)is_extern;
        p->cur = -1;
        return;
    }
    if (proto >= 0 && m->funcs[proto].count > 0)
        fail_at(p, nt.line, nt.col, "function '%s' is defined twice", name);
    if (proto < 0) {
        p->cur = -1;
        uint32_t si = add_symbol(p, name, PTX_SYM_FUNC, PTX_SPACE_NONE, nt.line,
                                 nt.col);
        m->syms[si].offset = fi;
    } else {
        /* the definition replaces the prototype's record: point the symbol
         * at the new record and leave the prototype empty */
        m->syms[prev->idx].offset = fi;
        m->funcs[proto].count = 0;
    }
    p->cur = (int32_t)fi;
    expect_punct(p, '{', "to open the function body");
    f = &m->funcs[fi];
    f->first = m->ninsns;
    /* the body's scope holds parameters again, then local declarations */
    push_scope(p);
    for (uint32_t i = 0; i < f->nrets; i++)
        bind(p, m->syms[f->rets[i]].name, BIND_SYM, f->rets[i], nt.line, nt.col);
    for (uint32_t i = 0; i < f->nparams; i++)
        bind(p, m->syms[f->params[i]].name, BIND_SYM, f->params[i], nt.line,
             nt.col);
    uint32_t regcap = 0;
    parse_body(p, &f, &regcap);
    f = &m->funcs[fi];
    end_label_ret(p, f);
    if (f->count == 0)
        fail_at(p, nt.line, nt.col, "function '%s' has an empty body", name);
    resolve_labels(p, f);
    pop_scope(p);
    p->cur = -1;
}

/* ---------- module ---------- */

static void parse_version(parser_t *p)
{
    ptx_token_t t = p->tok;
    unsigned maj = 0, mnr = 0;
    char vb[32] = "";
    if (t.len < sizeof vb)
        memcpy(vb, t.text, t.len);
    if (t.kind == TOK_FLOAT && t.float_form == FLT_DEC && t.len < sizeof vb &&
        sscanf(vb, "%u.%u", &maj, &mnr) == 2) {
        advance(p);
    } else {
        char tt[64];
        tok_text(&t, tt, sizeof tt);
        FAIL_TOK(p, &t, "expected a version such as 9.0 after .version, found %s",
                 tt);
    }
    if (maj < 6 || maj > 9)
        FAIL_TOK(p, &t, "PTX ISA version %u.%u is not supported (simtlab reads "
                 "6.x to 9.x)", maj, mnr);
    p->m->version_major = maj;
    p->m->version_minor = mnr;
}

/* A call to a function the module declares but does not define: one the
 * model provides (ptx_builtin_t), or a located error saying why not. */
static void check_external_call(parser_t *p, const ptx_insn_t *in,
                                ptx_function_t *callee)
{
    static const struct { const char *name; uint8_t builtin; } provided[] = {
        { "vprintf", PTX_BUILTIN_VPRINTF },
        { "__assertfail", PTX_BUILTIN_ASSERTFAIL },
    };
    for (size_t i = 0; i < sizeof provided / sizeof *provided; i++)
        if (strcmp(callee->name, provided[i].name) == 0) {
            callee->builtin = provided[i].builtin;
            return;
        }
    /* the CUDA device runtime (dynamic parallelism, device-side graph
     * launch) and the device heap: not modelled */
    static const char *const device_runtime[] = {
        "cudaLaunchDevice", "cudaLaunchDeviceV2", "cudaGetParameterBuffer",
        "cudaGetParameterBufferV2", "cudaDeviceSynchronize",
        "cudaStreamCreateWithFlags", "cudaGetLastError",
        "cudaPeekAtLastError", "cudaGetDevice", "cudaDeviceGetAttribute",
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
        "cudaCGGetIntrinsicHandle", "cudaCGSynchronize",
        "cudaCGSynchronizeGrid", "cudaGraphLaunch",
        "cudaGetCurrentGraphExec",
    };
    for (size_t i = 0; i < sizeof device_runtime / sizeof *device_runtime; i++)
        if (strcmp(callee->name, device_runtime[i]) == 0)
            fail_at(p, in->line, in->col, "call to '%s': the CUDA device "
                    "runtime (dynamic parallelism, grid synchronisation, "
                    "device graph launch) is not supported by simtlab",
                    callee->name);
    if (strcmp(callee->name, "malloc") == 0 ||
        strcmp(callee->name, "free") == 0 ||
        strcmp(callee->name, "__nv_aligned_device_malloc") == 0)
        fail_at(p, in->line, in->col, "call to '%s': the device heap "
                "(in-kernel malloc/free) is not supported by simtlab",
                callee->name);
}

static void finish_module(parser_t *p)
{
    ptx_module_t *m = p->m;
    for (uint32_t i = 0; i < p->ninit_fix; i++) {
        fixup_t *fx = &p->init_fix[i];
        ptx_reloc_t *r = &m->relocs[fx->insn];
        binding_t *b = lookup(p, fx->name);
        if (!b || b->kind != BIND_SYM)
            fail_at(p, fx->line, fx->col, "initializer of '%s' takes the "
                    "address of '%s', which is not a declared variable or "
                    "function", m->syms[r->var].name, fx->name);
        r->target = b->idx;
        check_address_target(p, r, m->syms[r->var].name, fx->name, fx->line,
                             fx->col);
    }
    for (uint32_t i = 0; i < p->ncalls; i++) {
        fixup_t *fx = &p->calls[i];
        binding_t *b = lookup(p, fx->name);
        if (!b || b->kind != BIND_SYM || m->syms[b->idx].kind != PTX_SYM_FUNC)
            fail_at(p, fx->line, fx->col, "call to undeclared function '%s'",
                    fx->name);
        ptx_operand_t *o = &m->insns[fx->insn].ops[fx->opnd];
        o->kind = PTX_OPND_FUNC;
        o->sym = b->idx;
    }
    for (uint32_t i = 0; i < m->ninsns; i++) {
        ptx_insn_t *in = &m->insns[i];
        for (unsigned k = 0; k < in->nops; k++) {
            ptx_operand_t *o = &in->ops[k];
            if (o->kind == PTX_OPND_FUNC) {
                o->imm = (int64_t)m->syms[o->sym].offset; /* function index */
                ptx_function_t *callee = &m->funcs[o->imm];
                if (callee->count == 0 && in->op == PTX_OP_CALL)
                    check_external_call(p, in, callee);
                else if (callee->count == 0)
                    fail_at(p, in->line, in->col, "'%s' is declared but never "
                            "defined in this module: it has no address",
                            callee->name);
                if (callee->count == 0 && !callee->builtin)
                    fail_at(p, in->line, in->col, "call to '%s', which is "
                            "declared but never defined in this module",
                            callee->name);
                if (callee->is_entry)
                    fail_at(p, in->line, in->col, "'%s' is a kernel (.entry) "
                            "and cannot be called", callee->name);
            }
        }
    }
    /* module-scope .global sizes and .const bank layout */
    for (uint32_t i = 0; i < m->nsyms; i++) {
        ptx_symbol_t *s = &m->syms[i];
        if (s->kind != PTX_SYM_VAR || s->func != ~0u)
            continue;
        if (s->space == PTX_SPACE_CONST) {
            s->offset = align_up(m->const_bytes, s->align);
            m->const_bytes = s->offset + s->size;
        } else if (s->space == PTX_SPACE_GLOBAL) {
            s->offset = align_up(m->global_bytes, s->align);
            m->global_bytes = s->offset + s->size;
        }
    }
}

/* `.section name { ... }`: DWARF data nvcc adds with -lineinfo or -G
 * (.debug_str, .debug_info, ...).  simtlab keeps no debug information:
 * the block is skipped, braces balanced. */
static void skip_section(parser_t *p)
{
    ptx_token_t st = p->tok;
    advance(p); /* .section */
    while (p->tok.kind != TOK_EOF && !is_punct(&p->tok, '{'))
        advance(p);
    unsigned depth = 0;
    do {
        if (p->tok.kind == TOK_EOF)
            FAIL_TOK(p, &st, "unterminated .section: missing '}'");
        if (is_punct(&p->tok, '{'))
            depth++;
        else if (is_punct(&p->tok, '}'))
            depth--;
        advance(p);
    } while (depth > 0);
}

static void parse_module(parser_t *p)
{
    int seen_version = 0;
    while (p->tok.kind != TOK_EOF) {
        ptx_token_t t = p->tok;
        if (t.kind != TOK_DIRECTIVE) {
            char tt[64];
            tok_text(&t, tt, sizeof tt);
            FAIL_TOK(p, &t, "expected a directive (.version, .entry, .func, a "
                     "variable) at module scope, found %s", tt);
        }
        if (tok_is(&t, ".version")) {
            advance(p);
            parse_version(p);
            seen_version = 1;
            continue;
        }
        if (!seen_version)
            FAIL_TOK(p, &t, "the module must start with .version");
        if (tok_is(&t, ".target")) {
            advance(p);
            for (;;) {
                const char *name;
                ptx_token_t nt = p->tok;
                name = expect_ident(p, "a target such as sm_75");
                if (strncmp(name, "sm_", 3) == 0) {
                    int sm = atoi(name + 3);
                    if (sm < 30)
                        FAIL_TOK(p, &nt, "target %s is too old (sm_30 or newer)",
                                 name);
                    snprintf(p->m->target, sizeof p->m->target, "%s", name);
                }
                if (!is_punct(&p->tok, ','))
                    break;
                advance(p);
            }
            continue;
        }
        if (tok_is(&t, ".address_size")) {
            advance(p);
            ptx_token_t at = p->tok;
            uint64_t a = expect_uint(p, "address size");
            if (a != 64)
                FAIL_TOK(p, &at, ".address_size %llu is not supported (64 only)",
                         (unsigned long long)a);
            p->m->address_size = 64;
            continue;
        }
        if (tok_is(&t, ".file") || tok_is(&t, ".loc")) {
            skip_line_directive(p);
            continue;
        }
        if (tok_is(&t, ".pragma")) {
            skip_pragma(p);
            continue;
        }
        if (tok_is(&t, ".section")) {
            skip_section(p);
            continue;
        }
        int is_extern = 0;
        while (p->tok.kind == TOK_DIRECTIVE &&
               (tok_is(&p->tok, ".visible") || tok_is(&p->tok, ".extern") ||
                tok_is(&p->tok, ".weak") || tok_is(&p->tok, ".common"))) {
            if (tok_is(&p->tok, ".extern"))
                is_extern = 1;
            advance(p);
        }
        t = p->tok;
        if (t.kind == TOK_DIRECTIVE && tok_is(&t, ".entry")) {
            parse_function(p, 1, is_extern);
        } else if (t.kind == TOK_DIRECTIVE && tok_is(&t, ".func")) {
            parse_function(p, 0, is_extern);
        } else if (t.kind == TOK_DIRECTIVE &&
                   (tok_is(&t, ".global") || tok_is(&t, ".const") ||
                    tok_is(&t, ".shared"))) {
            advance(p);
            ptx_space_t sp = tok_is(&t, ".global") ? PTX_SPACE_GLOBAL
                           : tok_is(&t, ".const")  ? PTX_SPACE_CONST
                                                   : PTX_SPACE_SHARED;
            uint32_t before = p->m->nsyms;
            parse_var_decl(p, sp, PTX_SYM_VAR, is_extern, 0);
            for (uint32_t i = before; i < p->m->nsyms; i++) {
                ptx_symbol_t *s = &p->m->syms[i];
                if (sp == PTX_SPACE_SHARED && !s->is_extern) {
                    s->offset = align_up(p->m->shared_bytes, s->align);
                    p->m->shared_bytes = s->offset + s->size;
                }
                if (sp != PTX_SPACE_SHARED && s->size == 0)
                    fail_at(p, s->line, s->col, "variable '%s' has no size",
                            s->name);
            }
        } else {
            char tt[64];
            tok_text(&t, tt, sizeof tt);
            FAIL_TOK(p, &t, "unexpected %s at module scope", tt);
        }
    }
    if (!seen_version)
        fail_at(p, 1, 1, "empty module: expected .version");
}

static void record_lines(parser_t *p, const char *text, size_t len)
{
    ptx_module_t *m = p->m;
    m->source = dup_n(p, text, len);
    uint32_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    m->line_start = malloc(n * sizeof *m->line_start);
    if (!m->line_start)
        fail_at(p, 0, 0, "out of memory");
    m->nlines = 0;
    m->line_start[m->nlines++] = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' && m->nlines < n)
            m->line_start[m->nlines++] = (uint32_t)(i + 1);
}

ptx_module_t *ptx_parse(const char *file, const char *text, size_t len,
                        simt_error_t *err)
{
    parser_t *p = calloc(1, sizeof *p);
    ptx_module_t *m = calloc(1, sizeof *m);
    if (!p || !m) {
        free(p);
        free(m);
        set_error(err, SIMT_EINPUT, "%s: error: out of memory", file);
        return NULL;
    }
    p->file = file;
    p->err = err;
    p->m = m;
    p->cur = -1;
    for (uint32_t i = 0; i < NBUCKETS; i++)
        p->bucket[i] = -1;
    ptx_module_t *volatile result = NULL;
    if (setjmp(p->fail) == 0) {
        if (len > 0xfffffff0u)
            fail_at(p, 0, 0, "input larger than 4 GiB");
        uint32_t nl = 1, nc = 1;
        for (size_t i = 0; i < len; i++) {
            if (text[i] == '\0')
                fail_at(p, nl, nc, "input contains a NUL byte: not a PTX text file");
            if (text[i] == '\n') {
                nl++;
                nc = 1;
            } else {
                nc++;
            }
        }
        m->file = dup_n(p, file, strlen(file));
        record_lines(p, text, len);
        ptx_lexer_init(&p->lx, text, len);
        ptx_lex(&p->lx, &p->next);
        advance(p);
        parse_module(p);
        finish_module(p);
        result = m;
    } else {
        ptx_module_free(m);
    }
    free(p->b);
    free(p->labels);
    free(p->fix);
    free(p->calls);
    free(p->init_fix);
    while (p->names) {
        name_chunk_t *c = p->names;
        p->names = c->next;
        free(c);
    }
    free(p);
    return result;
}
