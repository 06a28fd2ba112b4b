/* ptx_kernel_helpers.c: see ptx_kernel_helpers.h. */
#include "ptx_kernel_helpers.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/printer.h"

/* ---- GPUs still alive (freed at exit if a test stopped early) ---- */

#define PK_MAX_LIVE 64
static simt_gpu_t *pk_live[PK_MAX_LIVE];
static int pk_atexit_done;

static void pk_cleanup(void)
{
    for (int i = 0; i < PK_MAX_LIVE; i++) {
        simt_gpu_destroy(pk_live[i]);
        pk_live[i] = NULL;
    }
}

static void pk_remember(simt_gpu_t *g)
{
    if (!pk_atexit_done) {
        atexit(pk_cleanup);
        pk_atexit_done = 1;
    }
    for (int i = 0; i < PK_MAX_LIVE; i++)
        if (!pk_live[i]) {
            pk_live[i] = g;
            return;
        }
    /* table full: leftovers of many failed tests; free the oldest */
    simt_gpu_destroy(pk_live[0]);
    pk_live[0] = g;
}

simt_gpu_t *pk_gpu(const char *const *sets, simt_error_t *err)
{
    memset(err, 0, sizeof *err);
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    for (size_t i = 0; sets && sets[i]; i++)
        if (simt_config_set(&cfg, sets[i], "test", err) != SIMT_OK)
            return NULL;
    simt_gpu_t *g = simt_gpu_create(&cfg, err);
    if (g)
        pk_remember(g);
    return g;
}

void pk_gpu_free(simt_gpu_t *g)
{
    if (!g)
        return;
    for (int i = 0; i < PK_MAX_LIVE; i++)
        if (pk_live[i] == g)
            pk_live[i] = NULL;
    simt_gpu_destroy(g);
}

simt_module_t *pk_load(simt_gpu_t *g, const char *file, const char *text,
                       simt_error_t *err)
{
    memset(err, 0, sizeof *err);
    simt_module_t *m = NULL;
    if (simt_module_load_text(g, file, text, strlen(text), &m, err) != SIMT_OK)
        return NULL;
    return m;
}

int pk_launch(simt_gpu_t *g, simt_module_t *mod, const char *kernel,
              simt_dim3_t grid, simt_dim3_t block, uint32_t dyn_shared,
              const simt_arg_t *args, size_t nargs, simt_error_t *err)
{
    memset(err, 0, sizeof *err);
    simt_launch_t l;
    memset(&l, 0, sizeof l);
    l.grid = grid;
    l.block = block;
    l.dynamic_shared_bytes = dyn_shared;
    return simt_launch_kernel(g, mod, kernel, &l, args, nargs, err);
}

int pk_run(simt_gpu_t *g, simt_module_t *mod, const char *kernel,
           simt_dim3_t grid, simt_dim3_t block, uint32_t dyn_shared,
           const simt_arg_t *args, size_t nargs, simt_error_t *err)
{
    int rc = pk_launch(g, mod, kernel, grid, block, dyn_shared, args, nargs,
                       err);
    if (rc != SIMT_OK)
        return rc;
    return simt_synchronize(g, err);
}

simt_devptr_t pk_alloc_u32(simt_gpu_t *g, size_t count, uint32_t fill)
{
    simt_error_t err;
    memset(&err, 0, sizeof err);
    simt_devptr_t p = 0;
    if (simt_malloc(g, count * 4, &p, &err) != SIMT_OK)
        return 0;
    uint32_t *h = malloc(count * 4 + 4);
    if (!h)
        return 0;
    for (size_t i = 0; i < count; i++)
        h[i] = fill;
    int rc = simt_memcpy_htod(g, p, h, count * 4, &err);
    free(h);
    return rc == SIMT_OK ? p : 0;
}

int pk_read_u32(simt_gpu_t *g, simt_devptr_t src, uint32_t *out, size_t count)
{
    simt_error_t err;
    memset(&err, 0, sizeof err);
    return simt_memcpy_dtoh(g, out, src, count * 4, &err);
}

unsigned pk_line_of(const char *text, const char *needle)
{
    const char *hit = strstr(text, needle);
    if (!hit)
        return 0;
    unsigned line = 1;
    for (const char *s = text; s < hit; s++)
        line += *s == '\n';
    return line;
}

void pk_line_text(const char *text, unsigned line, char *buf, size_t size)
{
    if (!size)
        return;
    buf[0] = '\0';
    const char *s = text;
    for (unsigned l = 1; l < line && *s; s++)
        if (*s == '\n')
            l++;
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = 0;
    while (s[n] && s[n] != '\n' && s[n] != '\r' && n + 1 < size) {
        buf[n] = s[n];
        n++;
    }
    buf[n] = '\0';
}

/* `needle` occurs in msg not followed by a digit or identifier character
 * (so that "warp 1" does not match "warp 12", nor "kernel k" "kernel k2"). */
static int has_field(const char *msg, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *s = strstr(msg, needle); s; s = strstr(s + 1, needle))
        if (!isalnum((unsigned char)s[n]) && s[n] != '_' && s[n] != '$')
            return 1;
    return 0;
}

int pk_fault_ok(const char *msg, const char *file, const char *text,
                unsigned line, const char *kernel, uint32_t cx, uint32_t cy,
                uint32_t cz, int64_t warp, int64_t lanes, int64_t pc,
                const char *what, char *why, size_t why_size)
{
    char want[512], src[256];
    snprintf(want, sizeof want, "%s:%u:", file, line);
    if (!strstr(msg, want))
        goto missing;
    if (!strstr(msg, "fault")) {
        snprintf(want, sizeof want, "fault");
        goto missing;
    }
    if (what && !strstr(msg, what)) {
        snprintf(want, sizeof want, "%s", what);
        goto missing;
    }
    snprintf(want, sizeof want, "kernel %s", kernel);
    if (!has_field(msg, want))
        goto missing;
    snprintf(want, sizeof want, "CTA (%u,%u,%u)", cx, cy, cz);
    if (!strstr(msg, want))
        goto missing;
    if (warp >= 0) {
        snprintf(want, sizeof want, "warp %lld", (long long)warp);
        if (!has_field(msg, want))
            goto missing;
    }
    if (lanes >= 0) {
        snprintf(want, sizeof want, "lanes 0x%08llx", (unsigned long long)lanes);
        if (!strstr(msg, want))
            goto missing;
    } else if (!strstr(msg, "lanes 0x")) {
        snprintf(want, sizeof want, "lanes 0x");
        goto missing;
    }
    if (pc >= 0) {
        snprintf(want, sizeof want, "PC %lld", (long long)pc);
        if (!has_field(msg, want))
            goto missing;
    } else if (!strstr(msg, "PC ")) {
        snprintf(want, sizeof want, "PC ");
        goto missing;
    }
    pk_line_text(text, line, src, sizeof src);
    snprintf(want, sizeof want, "%u | %s", line, src);
    if (!strstr(msg, want))
        goto missing;
    return 1;
missing:
    snprintf(why, why_size, "fault report lacks \"%s\"; report was:\n%s",
             want, msg);
    return 0;
}

char *pk_print_module(const struct ptx_module *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int rc = ptx_print_module(m, f);
    fclose(f);
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}
