/* exec_builtin.c: the functions the CUDA runtime provides to device code
 * and nvcc only declares (.extern .func): vprintf, behind printf, and
 * __assertfail, behind assert (ptx_builtin_t).
 *
 * A call to one runs in the calling instruction: no frame is pushed.  The
 * program builder (program.c) gives the call one copy record per argument
 * whose `from` is the argument's .param offset in the caller's frame, and
 * one per return value whose `to` is where the result goes.
 *
 * vprintf(format, args): `format` is a generic pointer to the format string
 * (nvcc puts it in .global); `args` a generic pointer to a buffer (on the
 * thread's local stack) holding the arguments one after the other, each at
 * its natural alignment: 4 bytes for int and narrower (promoted), 8 for
 * long, long long, double (float is promoted), pointers and %s strings.
 * Each lane's text is appended to the launch's printf FIFO (exec.h), lanes
 * in ascending order; the GPU writes the FIFO out when the kernels
 * complete.  The result is the number of arguments consumed, as CUDA's
 * printf returns.
 *
 * __assertfail(message, file, line, function, charSize): a fault report
 * (exit status 3) naming the CUDA source file, line and function, the
 * assertion's text and the first failing thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/dispatch.h"
#include "exec/lanes.h"

/* Longest string read from device memory for %s or an assert's text. */
#define BUILTIN_MAX_STRING 65536u

static void out_append(exec_printf_buf_t *b, const char *s, size_t n)
{
    if (b->len + n > b->limit) {
        b->dropped += n;
        return;
    }
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        char *t = realloc(b->text, cap);
        if (!t) {
            b->dropped += n;
            return;
        }
        b->text = t;
        b->cap = cap;
    }
    memcpy(b->text + b->len, s, n);
    b->len += n;
}

/* The 4- or 8-byte argument `from` of lane l's frame. */
static uint64_t frame_arg(const warp_t *w, const exec_copy_t *cp, unsigned l)
{
    uint64_t v = 0;
    memcpy(&v, exec_thread_local(w->cta, w->thread[l]) + cp->from,
           cp->bytes < 8 ? cp->bytes : 8);
    return v;
}

/* Reads the NUL-terminated device string at generic address `a` into
 * buf (size bytes, always terminated).  0, or -1 after a fault. */
static int read_string(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                       uint64_t a, unsigned l, char *buf, size_t size)
{
    size_t n = 0;
    for (; n + 1 < size; n++) {
        const uint8_t *p = exec_mem_generic(x, w, ei, a + n, 1, l);
        if (!p)
            return -1;
        if (!*p)
            break;
        buf[n] = (char)*p;
    }
    buf[n] = '\0';
    return 0;
}

/* The next argument of `size` bytes from the buffer at generic address
 * args (*off advances past it, aligned).  0, or -1 after a fault. */
static int next_arg(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                    uint64_t args, uint64_t *off, unsigned size, unsigned l,
                    uint64_t *v)
{
    *off = (*off + size - 1) / size * size;
    const uint8_t *p = exec_mem_generic(x, w, ei, args + *off, size, l);
    if (!p)
        return -1;
    *v = 0;
    memcpy(v, p, size);
    *off += size;
    return 0;
}

/* Formats lane l's printf into the FIFO, using fmt and str (each
 * BUILTIN_MAX_STRING bytes) as scratch; returns the arguments consumed, or
 * -1 after a fault. */
static int format_lane(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                       unsigned l, uint64_t fmt_addr, uint64_t args,
                       char *fmt, char *str)
{
    exec_printf_buf_t *out = x->l->printf_out;
    if (read_string(x, w, ei, fmt_addr, l, fmt, BUILTIN_MAX_STRING))
        return -1;
    uint64_t off = 0;
    int nargs = 0;
    const char *s = fmt;
    while (*s) {
        const char *pct = strchr(s, '%');
        if (!pct) {
            out_append(out, s, strlen(s));
            break;
        }
        out_append(out, s, (size_t)(pct - s));
        /* one conversion: %[flags][width][.precision][length]conv */
        char spec[96]; /* flags, width and precision are kept short */
        size_t n = 0;
        const char *q = pct + 1;
        spec[n++] = '%';
        while (*q && strchr("-+ #0", *q) && n < 40)
            spec[n++] = *q++;
        for (int part = 0; part < 2; part++) {
            if (part == 1) {
                if (*q != '.')
                    break;
                spec[n++] = *q++;
            }
            if (*q == '*') { /* width or precision from the arguments */
                uint64_t v;
                if (next_arg(x, w, ei, args, &off, 4, l, &v))
                    return -1;
                nargs++;
                n += (size_t)snprintf(spec + n, sizeof spec - n, "%d", (int32_t)v);
                q++;
            } else {
                while (*q >= '0' && *q <= '9' && n < 40)
                    spec[n++] = *q++;
            }
        }
        unsigned longs = 0, shorts = 0;
        while (*q && strchr("hlLjzt", *q)) {
            if (*q == 'h')
                shorts++;
            else
                longs++;
            q++;
        }
        char conv = *q;
        if (!conv) { /* a lone '%' at the end */
            out_append(out, pct, strlen(pct));
            break;
        }
        q++;
        char text[512];
        int len = -1;
        uint64_t v;
        if (conv == '%') {
            out_append(out, "%", 1);
            s = q;
            continue;
        }
        if (strchr("diouxXc", conv)) {
            if (next_arg(x, w, ei, args, &off, longs ? 8 : 4, l, &v))
                return -1;
            int sgn = conv == 'd' || conv == 'i';
            if (!longs)
                v = sgn ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
            if (shorts == 1)
                v = sgn ? (uint64_t)(int64_t)(int16_t)v : (uint16_t)v;
            else if (shorts >= 2 || conv == 'c')
                v = sgn ? (uint64_t)(int64_t)(int8_t)v : (uint8_t)v;
            if (conv != 'c') {
                spec[n++] = 'l';
                spec[n++] = 'l';
            }
            spec[n++] = conv;
            spec[n] = '\0';
            if (conv == 'c')
                len = snprintf(text, sizeof text, spec, (int)v);
            else if (sgn)
                len = snprintf(text, sizeof text, spec, (long long)v);
            else
                len = snprintf(text, sizeof text, spec, (unsigned long long)v);
        } else if (strchr("fFeEgGaA", conv)) {
            if (next_arg(x, w, ei, args, &off, 8, l, &v))
                return -1;
            spec[n++] = conv;
            spec[n] = '\0';
            len = snprintf(text, sizeof text, spec, f64_of(v));
        } else if (conv == 'p') {
            if (next_arg(x, w, ei, args, &off, 8, l, &v))
                return -1;
            len = snprintf(text, sizeof text, "0x%llx", (unsigned long long)v);
        } else if (conv == 's') {
            if (next_arg(x, w, ei, args, &off, 8, l, &v))
                return -1;
            if (v == 0)
                snprintf(str, BUILTIN_MAX_STRING, "(null)");
            else if (read_string(x, w, ei, v, l, str, BUILTIN_MAX_STRING))
                return -1;
            spec[n++] = 's';
            spec[n] = '\0';
            int need = snprintf(NULL, 0, spec, str);
            char *big = need >= 0 ? malloc((size_t)need + 1) : NULL;
            if (big) {
                snprintf(big, (size_t)need + 1, spec, str);
                out_append(out, big, (size_t)need);
                free(big);
            }
            nargs++;
            s = q;
            continue;
        } else { /* unknown conversion (or %n): printed as written */
            out_append(out, pct, (size_t)(q - pct));
            s = q;
            continue;
        }
        nargs++;
        if (len > 0)
            out_append(out, text, (size_t)len < sizeof text ? (size_t)len
                                                            : sizeof text - 1);
        s = q;
    }
    return nargs;
}

static void h_vprintf(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                      uint32_t m)
{
    const exec_program_t *p = x->l->prog;
    const exec_copy_t *a = &p->copies[ei->call_first];
    if (!m || exec_ordered(x)) /* none, or a lower SM stopped the run */
        return;
    char *scratch = malloc(2 * BUILTIN_MAX_STRING);
    if (!scratch) {
        exec_fault(x, w, ei, m, "out of host memory formatting printf");
        return;
    }
    FOR_LANES(m, l) {
        int n = format_lane(x, w, ei, l, frame_arg(w, &a[0], l),
                            frame_arg(w, &a[1], l), scratch,
                            scratch + BUILTIN_MAX_STRING);
        if (n < 0)
            break;
        for (uint32_t r = 0; r < ei->ret_count; r++) {
            const exec_copy_t *cp = &p->copies[ei->ret_first + r];
            uint32_t v = (uint32_t)n;
            memcpy(exec_thread_local(w->cta, w->thread[l]) + cp->to, &v,
                   cp->bytes < 4 ? cp->bytes : 4);
        }
    }
    free(scratch);
}

static void h_assertfail(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                         uint32_t m)
{
    if (!m)
        return;
    char msg[1024], file[1024], func[1024];
    const exec_copy_t *a = &x->l->prog->copies[ei->call_first];
    unsigned l = (unsigned)__builtin_ctz(m);
    if (read_string(x, w, ei, frame_arg(w, &a[0], l), l, msg, sizeof msg) ||
        read_string(x, w, ei, frame_arg(w, &a[1], l), l, file, sizeof file) ||
        read_string(x, w, ei, frame_arg(w, &a[3], l), l, func, sizeof func))
        return;
    uint32_t line = (uint32_t)frame_arg(w, &a[2], l);
    const exec_launch_t *L = x->l;
    const cta_t *c = w->cta;
    uint32_t t = w->thread[l];
    exec_fault(x, w, ei, m, "device assertion failed: %s:%u: %s: block "
               "[%u,%u,%u], thread [%u,%u,%u]: Assertion `%s` failed.",
               file, line, func, c->ctaid[0], c->ctaid[1], c->ctaid[2],
               t % L->block.x, t / L->block.x % L->block.y,
               t / (L->block.x * L->block.y), msg);
}

exec_fn exec_select_builtin(ptx_builtin_t b)
{
    switch (b) {
    case PTX_BUILTIN_VPRINTF: return h_vprintf;
    case PTX_BUILTIN_ASSERTFAIL: return h_assertfail;
    default: return NULL;
    }
}
