/* lexer.h: PTX tokens. */
#ifndef PTX_LEXER_H
#define PTX_LEXER_H

#include <stddef.h>
#include <stdint.h>

typedef enum ptx_tok_kind {
    TOK_EOF = 0,
    TOK_IDENT,     /* foo, %r1, $L__BB0_2, _ */
    TOK_DIRECTIVE, /* .reg, .u32 (text includes the dot) */
    TOK_INT,       /* 123, 0x1F, 0b101, 017; ival */
    TOK_FLOAT,     /* 0f3F800000 (fbits32), 0d... (fbits64), 1.5 (dval) */
    TOK_STRING,    /* "..." */
    TOK_PUNCT,     /* one of , ; : { } [ ] ( ) + - ! @ < > | = */
    TOK_ERROR,
} ptx_tok_kind_t;

typedef enum ptx_float_form {
    FLT_HEX32, /* 0fXXXXXXXX */
    FLT_HEX64, /* 0dXXXXXXXXXXXXXXXX */
    FLT_DEC,   /* decimal literal */
} ptx_float_form_t;

typedef struct ptx_token {
    uint8_t kind;
    uint8_t float_form;
    uint8_t space_before; /* whitespace precedes this token */
    char punct;
    const char *text;
    uint32_t len;
    uint32_t line, col;
    uint64_t ival;      /* TOK_INT; TOK_FLOAT hex forms: the bits */
    double dval;        /* TOK_FLOAT decimal form */
    const char *error;  /* TOK_ERROR: why */
} ptx_token_t;

typedef struct ptx_lexer {
    const char *src, *end, *p;
    uint32_t line;
    const char *line_start;
} ptx_lexer_t;

void ptx_lexer_init(ptx_lexer_t *lx, const char *src, size_t len);
void ptx_lex(ptx_lexer_t *lx, ptx_token_t *t);

#endif
