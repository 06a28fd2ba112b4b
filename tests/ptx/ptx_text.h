/* ptx_text.h: shared helpers for the PTX front-end tests
 * (tests/ptx/test_parser.c and tests/ptx/test_parser_errors.c).
 *
 * K(body) wraps instructions in a kernel `k` whose registers are declared
 * up front; the body starts on line K_BODY_LINE, column 1, so error
 * positions inside it are easy to compute by hand:
 *
 *   line  1  .version 9.0
 *   line  2  .target sm_75
 *   line  3  .address_size 64
 *   line  4  .visible .entry k(
 *   line  5  .param .u64 k_p0,
 *   line  6  .param .u32 k_p1
 *   line  7  )
 *   line  8  {
 *   lines 9-14  the .reg declarations below
 *   line 15  the first line of `body`
 *
 * Register indices in k: %p0-7 -> 0-7, %h0-7 -> 8-15, %r0-15 -> 16-31,
 * %rd0-15 -> 32-47, %f0-15 -> 48-63, %fd0-15 -> 64-79 (see RP() etc.).
 */
#ifndef TESTS_PTX_TEXT_H
#define TESTS_PTX_TEXT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../harness.h"
#include "ptx/ir.h"
#include "simt/simt.h"

#define PTX_HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

#define K_REGS                                                            \
    ".reg .pred %p<8>;\n"                                                 \
    ".reg .b16 %h<8>;\n"                                                  \
    ".reg .b32 %r<16>;\n"                                                 \
    ".reg .b64 %rd<16>;\n"                                                \
    ".reg .f32 %f<16>;\n"                                                 \
    ".reg .f64 %fd<16>;\n"

#define K_OPEN                                                            \
    ".visible .entry k(\n.param .u64 k_p0,\n.param .u32 k_p1\n)\n{\n" K_REGS

/* a kernel `k`: registers, body, then `ret;` and `}` */
#define K(body) PTX_HDR K_OPEN body "\nret;\n}\n"
/* the same after module-scope text `pre` (which shifts the lines) */
#define KP(pre, body) PTX_HDR pre K_OPEN body "\nret;\n}\n"

#define K_BODY_LINE 15u

#define RP(i) (0u + (i))
#define RH(i) (8u + (i))
#define RR(i) (16u + (i))
#define RRD(i) (32u + (i))
#define RF(i) (48u + (i))
#define RFD(i) (64u + (i))

/* The module of the last successful ptx_text_parse() of this translation
 * unit.  It stays reachable (no leak report when a CHECK returns early) and
 * is freed by the next parse. */
static ptx_module_t *ptx_text_last;

static inline ptx_module_t *ptx_text_parse_n(const char *src, size_t len,
                                             simt_error_t *err)
{
    ptx_module_free(ptx_text_last);
    ptx_text_last = NULL;
    memset(err, 0, sizeof *err);
    ptx_text_last = ptx_parse("t.ptx", src, len, err);
    return ptx_text_last;
}

static inline ptx_module_t *ptx_text_parse(const char *src, simt_error_t *err)
{
    return ptx_text_parse_n(src, strlen(src), err);
}

/* Instruction `i` of function `fn` (a defined one), or NULL. */
static inline const ptx_insn_t *ptx_text_insn(const ptx_module_t *m,
                                              const char *fn, uint32_t i)
{
    int f = ptx_find_function(m, fn);
    if (f < 0 || i >= m->funcs[f].count)
        return NULL;
    return &m->insns[m->funcs[f].first + i];
}

/* Index of the symbol called `name` (the last one declared), or -1. */
static inline int ptx_text_sym(const ptx_module_t *m, const char *name)
{
    for (uint32_t i = m->nsyms; i-- > 0;)
        if (strcmp(m->syms[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* Reads a whole file; NULL if it cannot be read.  Caller frees. */
static inline char *ptx_text_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        if (k == 0)
            break;
        n += k;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Parses `src`, which must fail with SIMT_EINPUT, a message that starts with
 * "t.ptx:LINE:COL: error: " and contains `want`.  LINE 0 means the message
 * has no position ("t.ptx: error: "). */
static inline void ptx_text_expect_error(const char *src, size_t len,
                                         unsigned line, unsigned col,
                                         const char *want)
{
    simt_error_t err;
    ptx_module_t *m = ptx_text_parse_n(src, len, &err);
    CHECK_MSG(m == NULL, "parsed without error; expected %u:%u '%s'", line,
              col, want);
    CHECK_MSG(err.status == SIMT_EINPUT, "status %d, expected SIMT_EINPUT; "
              "msg '%s'", err.status, err.msg);
    char prefix[64];
    if (line)
        snprintf(prefix, sizeof prefix, "t.ptx:%u:%u: error: ", line, col);
    else
        snprintf(prefix, sizeof prefix, "t.ptx: error: ");
    CHECK_MSG(strncmp(err.msg, prefix, strlen(prefix)) == 0,
              "expected the message to start with '%s', got '%s'", prefix,
              err.msg);
    CHECK_MSG(strstr(err.msg, want) != NULL,
              "expected '%s' in the message, got '%s'", want, err.msg);
}

/* Runs fn() in a child process, so that a crash, a stack overflow or a
 * sanitizer abort inside the parser fails only the calling test instead of
 * ending the whole test binary.  CHECKs inside fn report as usual (the
 * child's output is flushed).  Returns NULL when the child passed, else why
 * not. */
static inline const char *ptx_text_isolated(void (*fn)(void))
{
    static char why[96];
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return "fork failed";
    if (pid == 0) {
        fn();
        fflush(stdout);
        fflush(stderr);
        _exit(harness_failed() ? 1 : 0);
    }
    int st = 0;
    if (waitpid(pid, &st, 0) < 0)
        return "waitpid failed";
    if (WIFSIGNALED(st)) {
        snprintf(why, sizeof why, "the child crashed with signal %d",
                 WTERMSIG(st));
        return why;
    }
    if (WEXITSTATUS(st) != 0) {
        snprintf(why, sizeof why, "the child failed (exit status %d; a "
                 "sanitizer report or a CHECK above)", WEXITSTATUS(st));
        return why;
    }
    return NULL;
}

/* TEST body helper: run `fn` isolated and fail with the reason. */
#define ISOLATED(fn)                                                      \
    do {                                                                  \
        const char *iso_why_ = ptx_text_isolated(fn);                     \
        CHECK_MSG(iso_why_ == NULL, "%s", iso_why_);                      \
    } while (0)

#endif
