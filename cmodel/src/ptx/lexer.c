/* lexer.c: hand-written PTX lexer.  Identifiers follow the PTX ISA:
 * [a-zA-Z][a-zA-Z0-9_$]* or [_$%][a-zA-Z0-9_$]+ ; a dot followed by an
 * identifier is a directive or modifier token. */
#include "ptx/lexer.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void ptx_lexer_init(ptx_lexer_t *lx, const char *src, size_t len)
{
    lx->src = src;
    lx->p = src;
    lx->end = src + len;
    lx->line = 1;
    lx->line_start = src;
}

static int is_ident_start(int c)
{
    return isalpha(c) || c == '_' || c == '$' || c == '%';
}

static int is_ident_char(int c)
{
    return isalnum(c) || c == '_' || c == '$';
}

/* Skips whitespace and comments; returns 0, or 1 for an unterminated block
 * comment, whose start is then left in *open_line / *open_col. */
static int skip_space(ptx_lexer_t *lx, uint32_t *open_line, uint32_t *open_col)
{
    for (;;) {
        if (lx->p >= lx->end)
            return 0;
        char c = *lx->p;
        if (c == '\n') {
            lx->p++;
            lx->line++;
            lx->line_start = lx->p;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
                   c == '\v') {
            lx->p++;
        } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
            while (lx->p < lx->end && *lx->p != '\n')
                lx->p++;
        } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
            *open_line = lx->line;
            *open_col = (uint32_t)(lx->p - lx->line_start) + 1;
            lx->p += 2;
            for (;;) {
                if (lx->p + 1 >= lx->end) {
                    lx->p = lx->end;
                    return 1;
                }
                if (lx->p[0] == '*' && lx->p[1] == '/') {
                    lx->p += 2;
                    break;
                }
                if (*lx->p == '\n') {
                    lx->line++;
                    lx->line_start = lx->p + 1;
                }
                lx->p++;
            }
        } else {
            return 0;
        }
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void lex_number(ptx_lexer_t *lx, ptx_token_t *t)
{
    const char *s = lx->p;
    /* hex float literals: 0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX */
    if (s[0] == '0' && s + 1 < lx->end && (s[1] == 'f' || s[1] == 'F' ||
                                          s[1] == 'd' || s[1] == 'D')) {
        int digits = (s[1] == 'f' || s[1] == 'F') ? 8 : 16;
        const char *q = s + 2;
        uint64_t bits = 0;
        int n = 0;
        while (q < lx->end && hexval(*q) >= 0) {
            bits = bits << 4 | (uint64_t)hexval(*q);
            q++;
            n++;
        }
        lx->p = q;
        t->len = (uint32_t)(q - s);
        if (n != digits || (q < lx->end && is_ident_char(*q))) {
            t->kind = TOK_ERROR;
            t->error = digits == 8 ? "a 0f float literal needs exactly 8 hex digits"
                                   : "a 0d double literal needs exactly 16 hex digits";
            return;
        }
        t->kind = TOK_FLOAT;
        t->float_form = digits == 8 ? FLT_HEX32 : FLT_HEX64;
        t->ival = bits;
        return;
    }
    const char *q = s;
    int is_float = 0;
    int radix_digits = -1; /* digits after 0x/0b; -1 for decimal */
    if (s[0] == '0' && s + 1 < lx->end && (s[1] == 'x' || s[1] == 'X')) {
        q = s + 2;
        while (q < lx->end && hexval(*q) >= 0)
            q++;
        radix_digits = (int)(q - s - 2);
    } else if (s[0] == '0' && s + 1 < lx->end && (s[1] == 'b' || s[1] == 'B')) {
        q = s + 2;
        while (q < lx->end && (*q == '0' || *q == '1'))
            q++;
        radix_digits = (int)(q - s - 2);
    } else {
        while (q < lx->end && isdigit((unsigned char)*q))
            q++;
        if (q < lx->end && *q == '.' && q + 1 < lx->end &&
            isdigit((unsigned char)q[1])) {
            is_float = 1;
            q++;
            while (q < lx->end && isdigit((unsigned char)*q))
                q++;
        }
        if (q < lx->end && (*q == 'e' || *q == 'E')) {
            const char *e = q + 1;
            if (e < lx->end && (*e == '+' || *e == '-'))
                e++;
            if (e < lx->end && isdigit((unsigned char)*e)) {
                is_float = 1;
                q = e;
                while (q < lx->end && isdigit((unsigned char)*q))
                    q++;
            }
        }
    }
    if (q < lx->end && (*q == 'U' || *q == 'u') && !is_float)
        q++; /* unsigned suffix */
    lx->p = q;
    t->len = (uint32_t)(q - s);
    int bad_octal = 0;
    if (radix_digits < 0 && !is_float && s[0] == '0')
        for (const char *d = s; d < q; d++)
            bad_octal |= *d == '8' || *d == '9';
    if ((q < lx->end && is_ident_char(*q)) || radix_digits == 0 || bad_octal) {
        t->kind = TOK_ERROR;
        t->error = "malformed number";
        while (lx->p < lx->end && is_ident_char(*lx->p))
            lx->p++;
        t->len = (uint32_t)(lx->p - s);
        return;
    }
    char buf[80];
    size_t n = t->len < sizeof buf - 1 ? t->len : sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (n && (buf[n - 1] == 'U' || buf[n - 1] == 'u'))
        buf[n - 1] = '\0';
    errno = 0;
    if (is_float) {
        t->kind = TOK_FLOAT;
        t->float_form = FLT_DEC;
        t->dval = strtod(buf, NULL);
        return;
    }
    t->kind = TOK_INT;
    if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
        t->ival = strtoull(buf + 2, NULL, 2);
    else if (buf[0] == '0' && buf[1] >= '0' && buf[1] <= '7')
        t->ival = strtoull(buf, NULL, 8);
    else
        t->ival = strtoull(buf, NULL, 0);
    if (errno == ERANGE || t->len > 64) {
        t->kind = TOK_ERROR;
        t->error = "integer literal does not fit in 64 bits";
    }
}

void ptx_lex(ptx_lexer_t *lx, ptx_token_t *t)
{
    memset(t, 0, sizeof *t);
    const char *before = lx->p;
    uint32_t open_line = 0, open_col = 0;
    int unterminated = skip_space(lx, &open_line, &open_col);
    t->space_before = lx->p != before || lx->p == lx->src;
    t->line = lx->line;
    t->col = (uint32_t)(lx->p - lx->line_start) + 1;
    t->text = lx->p;
    if (unterminated) {
        t->kind = TOK_ERROR;
        t->error = "unterminated /* comment";
        t->line = open_line;
        t->col = open_col;
        t->text = "/*";
        t->len = 2;
        return;
    }
    if (lx->p >= lx->end) {
        t->kind = TOK_EOF;
        return;
    }
    unsigned char c = (unsigned char)*lx->p;
    /* ".1d", ".2d", ".3d", ".2dms": texture geometries, not numbers */
    int geom = c == '.' && lx->p + 2 < lx->end && lx->p[1] >= '1' &&
               lx->p[1] <= '3' && lx->p[2] == 'd';
    if (c == '.' && lx->p + 1 < lx->end &&
        (isalpha((unsigned char)lx->p[1]) || lx->p[1] == '_' || geom)) {
        const char *q = lx->p + 1;
        while (q < lx->end && is_ident_char(*q))
            q++;
        t->kind = TOK_DIRECTIVE;
        t->len = (uint32_t)(q - lx->p);
        lx->p = q;
        return;
    }
    if (isdigit(c) && !(lx->p - lx->src >= 2 && lx->p[-1] == ':' &&
                        lx->p[-2] == ':')) {
        lex_number(lx, t);
        return;
    }
    if (isdigit(c)) { /* modifier suffix after '::', e.g. .L2::128B */
        const char *q = lx->p;
        while (q < lx->end && is_ident_char(*q))
            q++;
        t->kind = TOK_IDENT;
        t->len = (uint32_t)(q - lx->p);
        lx->p = q;
        return;
    }
    if (is_ident_start(c)) {
        const char *q = lx->p + 1;
        while (q < lx->end && is_ident_char(*q))
            q++;
        t->kind = TOK_IDENT;
        t->len = (uint32_t)(q - lx->p);
        lx->p = q;
        return;
    }
    if (c == '"') {
        const char *q = lx->p + 1;
        while (q < lx->end && *q != '"' && *q != '\n')
            q++;
        if (q >= lx->end || *q != '"') {
            t->kind = TOK_ERROR;
            t->error = "unterminated string literal";
            t->len = (uint32_t)(q - lx->p);
            lx->p = q;
            return;
        }
        t->kind = TOK_STRING;
        t->len = (uint32_t)(q + 1 - lx->p);
        lx->p = q + 1;
        return;
    }
    if (strchr(",;:{}[]()+-!@<>|=", c)) {
        t->kind = TOK_PUNCT;
        t->punct = (char)c;
        t->len = 1;
        lx->p++;
        return;
    }
    t->kind = TOK_ERROR;
    t->error = "unexpected character";
    t->len = 1;
    lx->p++;
}
