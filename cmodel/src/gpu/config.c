/* config.c: `key = value` configuration files and --set overrides. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/readfile.h"
#include "core/sched.h"
#include "gpu/config_gpgpusim.h"
#include "gpu/cta_policy.h"
#include "gpu/cta_quota.h"
#include "compiler/relssp.h"
#include "simt/config.h"
#include "exec/recon.h"

typedef enum { CFG_INT, CFG_BOOL, CFG_ENUM, CFG_TEXT } cfg_kind_t;

/* The names of each CFG_ENUM key's values, in value order. */
static const char *const *enum_names(int key)
{
    static const char *const scheduler[] = {
#define SCHED_POLICY(id, name, ops) #name,
#include "core/sched_policies.def"
#undef SCHED_POLICY
        NULL };
    static const char *const ltlws_inner[] = { "gto", "lrr", NULL };
    static const char *const regs_source[] = { "alloc", "ptxas", NULL };
    static const char *const write_policy[] = { "write_back", "write_through",
                                                "write_evict",
                                                "local_wb_global_wt", NULL };
    static const char *const dram_sched[] = { "fr_fcfs", "fifo", NULL };
    static const char *const addr_mapping[] = { "linear", "xor", NULL };
    static const char *const ssp_layout[] = { "decl", "min", NULL };
    static const char *const lcs_round[] = { "floor", "ceil", "round", NULL };
    static const char *const lcs_scope[] = { "launch", "kernel", NULL };
    static const char *const bcs_odd_fill[] = { "none", "singleton", NULL };
    static const char *const sca_stall_rule[] = { "relaxed", "strict", NULL };
    switch (key) {
    case SIMT_CFG_L1D_POLICY: return write_policy;
    case SIMT_CFG_DRAM_SCHED: return dram_sched;
    case SIMT_CFG_ADDR_MAPPING: return addr_mapping;
    case SIMT_CFG_SCHEDULER: return scheduler;
    case SIMT_CFG_LTLWS_INNER: return ltlws_inner;
    case SIMT_CFG_CTA_POLICY: return cta_policy_names;
    case SIMT_CFG_RECONVERGENCE: return recon_model_names;
    case SIMT_CFG_REGS_SOURCE: return regs_source;
    case SIMT_CFG_SSP_LAYOUT: return ssp_layout;
    case SIMT_CFG_SSP_RELSSP: return relssp_placement_names;
    case SIMT_CFG_LCS_ROUND: return lcs_round;
    case SIMT_CFG_LCS_SCOPE: return lcs_scope;
    case SIMT_CFG_BCS_ODD_FILL: return bcs_odd_fill;
    case SIMT_CFG_SCA_STALL_RULE: return sca_stall_rule;
    default: return NULL;
    }
}

static const struct key_info {
    const char *name;
    cfg_kind_t kind;
    int64_t def, lo, hi;
    const char *doc;
} keys[SIMT_CFG_NKEYS] = {
#define X(id, name, kind, def, lo, hi, doc) { name, kind, def, lo, hi, doc },
#include "simt/config_keys.def"
#undef X
};

void simt_config_defaults(simt_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    for (int k = 0; k < SIMT_CFG_NKEYS; k++)
        cfg->value[k] = keys[k].def;
}

const char *simt_config_key_name(simt_cfg_key_t k)
{
    return k < SIMT_CFG_NKEYS ? keys[k].name : "?";
}

static int find_key(const char *name, size_t len)
{
    for (int k = 0; k < SIMT_CFG_NKEYS; k++)
        if (strlen(keys[k].name) == len && memcmp(keys[k].name, name, len) == 0)
            return k;
    return -1;
}

/* Edit distance, for "did you mean" suggestions. */
static size_t distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b), row[128];
    if (la >= 127 || lb >= 127)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t prev = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t cur = row[j];
            size_t sub = prev + (a[i - 1] != b[j - 1]);
            size_t best = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            prev = cur;
        }
    }
    return row[lb];
}

/* A decimal integer, optionally negative: digits only (a leading 0 does
 * not make it octal, 0x is not hex).  0 when `s` is not one. */
static int parse_decimal(const char *s, long long *out)
{
    const char *d = s + (*s == '-');
    if (!*d)
        return 0;
    for (const char *p = d; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    errno = 0;
    *out = strtoll(s, NULL, 10);
    return errno == 0;
}

/* The first control byte of text[0..n) other than tab (a blank here), or
 * NULL.  (A file's line ends are cut off before: LF, or CR LF.) */
static const char *control_byte(const char *text, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return text + i;
    }
    return NULL;
}

/* NULL when `v` is a valid value of text key k, else why not. */
static const char *text_check(int k, const char *v)
{
    if (k == SIMT_CFG_CKE_QUOTA)
        return config_quota_check(v);
    return NULL;
}

/* The index of `file` in cfg->files, added if new; -1 when the table is
 * full.  Keys set from a file keep the index, so that a validation error
 * names the file that set the key, included or not. */
static int intern_file(simt_config_t *cfg, const char *file)
{
    for (unsigned i = 0; i < cfg->nfiles; i++)
        if (!strcmp(cfg->files[i], file))
            return (int)i;
    if (cfg->nfiles >= SIMT_CONFIG_MAX_FILES)
        return -1;
    snprintf(cfg->files[cfg->nfiles], sizeof cfg->files[0], "%s", file);
    return (int)cfg->nfiles++;
}

/* Parses one assignment `key = value` (text without comment), reporting
 * positions as file:line:col (col is col0 plus the 1-based column in
 * `text`: a caller that builds the text names where it came from). */
static int assign_at(simt_config_t *cfg, const char *file, unsigned line,
                     unsigned col0, const char *text, uint8_t origin,
                     simt_error_t *err)
{
    const char *bad = control_byte(text, strlen(text));
    if (bad)
        return set_input_error(err, file, line, (unsigned)(bad - text) + 1,
                               "control byte 0x%02x: a configuration is text",
                               (unsigned char)*bad);
    char shown[160];
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    const char *k = p;
    while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '.'))
        p++;
    size_t klen = (size_t)(p - k);
    unsigned kcol = col0 + (unsigned)(k - text) + 1;
    if (klen == 0)
        return set_input_error(err, file, line, kcol,
                               "expected `key = value`, found '%s'",
                               printable(k, 60, shown, sizeof shown));
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '=')
        return set_input_error(err, file, line, col0 + (unsigned)(p - text) + 1,
                               "expected '=' after key '%.*s'", (int)klen, k);
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    const char *v = p;
    unsigned vcol = col0 + (unsigned)(v - text) + 1;
    size_t vlen = strlen(v);
    while (vlen && isspace((unsigned char)v[vlen - 1]))
        vlen--;
    int ki = find_key(k, klen);
    if (ki < 0) {
        const char *best = NULL;
        size_t bd = 4;
        for (int j = 0; j < SIMT_CFG_NKEYS; j++) {
            size_t d = distance(k, klen, keys[j].name);
            if (d < bd) {
                bd = d;
                best = keys[j].name;
            }
        }
        if (best)
            return set_input_error(err, file, line, kcol,
                                   "unknown configuration key '%.*s' (did you "
                                   "mean '%s'?)", (int)klen, k, best);
        return set_input_error(err, file, line, kcol,
                               "unknown configuration key '%.*s' (docs/configs.md "
                               "lists the keys)", (int)klen, k);
    }
    if (vlen == 0 && keys[ki].kind != CFG_TEXT)
        return set_input_error(err, file, line, vcol, "missing value for '%s'",
                               keys[ki].name);
    char buf[256];
    if (vlen >= (keys[ki].kind == CFG_TEXT ? sizeof buf : 64))
        return set_input_error(err, file, line, vcol, "value for '%s' is too "
                               "long", keys[ki].name);
    memcpy(buf, v, vlen);
    buf[vlen] = '\0';
    int64_t val;
    if (keys[ki].kind == CFG_TEXT) {
        const char *why = text_check(ki, buf);
        if (why)
            return set_input_error(err, file, line, vcol, "'%s': %s",
                                   keys[ki].name, why);
        if (cfg->ntext + vlen + 1 > sizeof cfg->text)
            return set_input_error(err, file, line, vcol, "value for '%s': "
                                   "the text keys' values take more than %u "
                                   "bytes in all", keys[ki].name,
                                   SIMT_CONFIG_TEXT_BYTES);
        val = 0; /* the empty string */
        if (vlen) {
            memcpy(cfg->text + cfg->ntext, buf, vlen + 1);
            val = 1 + (int64_t)cfg->ntext;
            cfg->ntext += (uint32_t)vlen + 1;
        }
    } else if (keys[ki].kind == CFG_ENUM) {
        const char *const *names = enum_names(ki);
        val = -1;
        for (int i = 0; names[i]; i++)
            if (!strcmp(buf, names[i]))
                val = i;
        if (val < 0) {
            char allowed[256] = "";
            for (int i = 0; names[i]; i++)
                snprintf(allowed + strlen(allowed), sizeof allowed - strlen(allowed),
                         "%s%s", i ? ", " : "", names[i]);
            return set_input_error(err, file, line, vcol, "'%s' must be one of "
                                   "%s, not '%s'", keys[ki].name, allowed,
                                   printable(buf, (size_t)-1, shown, sizeof shown));
        }
    } else if (keys[ki].kind == CFG_BOOL) {
        if (!strcmp(buf, "1") || !strcmp(buf, "true") || !strcmp(buf, "yes"))
            val = 1;
        else if (!strcmp(buf, "0") || !strcmp(buf, "false") || !strcmp(buf, "no"))
            val = 0;
        else
            return set_input_error(err, file, line, vcol, "'%s' must be 0 or 1 "
                                   "(or true/false), not '%s'", keys[ki].name,
                                   printable(buf, (size_t)-1, shown, sizeof shown));
    } else {
        long long ll;
        if (!parse_decimal(buf, &ll))
            return set_input_error(err, file, line, vcol, "'%s' must be an "
                                   "integer, not '%s' (decimal digits only)", keys[ki].name,
                                   printable(buf, (size_t)-1, shown, sizeof shown));
        if (ll < keys[ki].lo || ll > keys[ki].hi)
            return set_input_error(err, file, line, vcol, "'%s' = %lld is out of "
                                   "range [%lld, %lld]", keys[ki].name, ll,
                                   (long long)keys[ki].lo, (long long)keys[ki].hi);
        val = ll;
    }
    if (origin == 1) {
        int fi = intern_file(cfg, file);
        if (fi < 0)
            return set_input_error(err, file, line, kcol, "more than %d "
                                   "configuration files in one configuration",
                                   SIMT_CONFIG_MAX_FILES);
        cfg->file[ki] = (uint8_t)fi;
    }
    cfg->value[ki] = val;
    cfg->origin[ki] = origin;
    cfg->line[ki] = line;
    cfg->col[ki] = (uint16_t)(kcol < 65535 ? kcol : 65535);
    return SIMT_OK;
}

static int assign(simt_config_t *cfg, const char *file, unsigned line,
                  const char *text, uint8_t origin, simt_error_t *err)
{
    return assign_at(cfg, file, line, 0, text, origin, err);
}

int config_assign_from_file(simt_config_t *cfg, const char *file, unsigned line,
                            unsigned value_col, const char *key,
                            const char *value, simt_error_t *err)
{
    char text[256];
    int klen = snprintf(text, sizeof text, "%s=%s", key, value);
    if (klen < 0 || (size_t)klen >= sizeof text)
        return set_input_error(err, file, line, value_col, "value for '%s' is "
                               "too long", key);
    unsigned col0 = value_col > strlen(key) + 2 ? value_col - (unsigned)strlen(key) - 2 : 0;
    return assign_at(cfg, file, line, col0, text, 1, err);
}

int simt_config_set(simt_config_t *cfg, const char *assignment,
                    const char *where, simt_error_t *err)
{
    return assign(cfg, where, 1, assignment, 2, err);
}

static int load_text(simt_config_t *cfg, const char *path, const char *text,
                     size_t size, unsigned depth, simt_error_t *err);

/* Loads `path` into cfg, `depth` files deep in includes. */
static int load_file(simt_config_t *cfg, const char *path, unsigned depth,
                     simt_error_t *err)
{
    char *text;
    size_t size;
    int rc = read_input_file(path, "configuration file", SIMT_CONFIG_MAX_BYTES,
                             &text, &size, err);
    if (rc != SIMT_OK)
        return rc;
    /* GPGPU-Sim's `-option value` files are read as they are, whole; a
     * control byte anywhere is left to the line reader below to locate */
    int gpgpusim = config_gpgpusim_detect(text);
    for (size_t at = 0; gpgpusim && at < size;) {
        const char *nl = memchr(text + at, '\n', size - at);
        size_t len = nl ? (size_t)(nl - (text + at)) : size - at;
        if (len && text[at + len - 1] == '\r')
            len--;
        gpgpusim = !control_byte(text + at, len);
        at += (nl ? (size_t)(nl - (text + at)) : size - at) + 1;
    }
    if (gpgpusim) {
        simt_config_t next = *cfg;
        rc = config_gpgpusim_apply(&next, path, text, stderr, err);
        free(text);
        if (rc == SIMT_OK) {
            *cfg = next;
            snprintf(cfg->preset, sizeof cfg->preset, "%s", path);
        }
        return rc;
    }
    rc = load_text(cfg, path, text, size, depth, err);
    free(text);
    return rc;
}

int simt_config_load_file(simt_config_t *cfg, const char *path,
                          simt_error_t *err)
{
    return load_file(cfg, path, 0, err);
}

int simt_config_load_text(simt_config_t *cfg, const char *path,
                          const char *text, size_t size, simt_error_t *err)
{
    return load_text(cfg, path, text, size, 0, err);
}

/* When `line` (comment cut off) is `include = PATH`: reads PATH, relative
 * to the folder of `from`, into cfg and returns its status; -1 for any other
 * line. */
static int include_line(simt_config_t *cfg, const char *from, unsigned n,
                        const char *line, unsigned depth, simt_error_t *err)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (strncmp(p, "include", 7) != 0)
        return -1;
    char shown[256];
    printable(from, (size_t)-1, shown, sizeof shown);
    const char *q = p + 7;
    while (*q == ' ' || *q == '\t')
        q++;
    if (*q != '=')
        return -1;
    q++;
    while (*q == ' ' || *q == '\t')
        q++;
    unsigned vcol = (unsigned)(q - line) + 1;
    size_t len = strlen(q);
    while (len && isspace((unsigned char)q[len - 1]))
        len--;
    if (len == 0)
        return set_input_error(err, shown, n, vcol, "include needs a file name");
    if (depth + 1 >= SIMT_CONFIG_MAX_FILES)
        return set_input_error(err, shown, n, vcol, "includes nested more than "
                               "%d deep (does a file include itself?)",
                               SIMT_CONFIG_MAX_FILES - 1);
    char path[512];
    const char *slash = strrchr(from, '/');
    int dir = q[0] == '/' || !slash ? 0 : (int)(slash - from) + 1;
    int w = snprintf(path, sizeof path, "%.*s%.*s", dir, from, (int)len, q);
    if (w < 0 || (size_t)w >= sizeof path)
        return set_input_error(err, shown, n, vcol, "included file name too long");
    simt_error_t inner = { 0 };
    int rc = load_file(cfg, path, depth + 1, &inner);
    if (rc == SIMT_OK)
        return SIMT_OK;
    return set_error(err, rc, "%s\n%s:%u:%u: note: included from here",
                     inner.msg, shown, n, vcol);
}

static int load_text(simt_config_t *cfg, const char *path, const char *text,
                     size_t size, unsigned depth, simt_error_t *err)
{
    int rc = SIMT_OK;
    char shown[256];
    printable(path, (size_t)-1, shown, sizeof shown);
    char line[1024];
    unsigned n = 0;
    simt_config_t next = *cfg;
    for (size_t at = 0; rc == SIMT_OK && at < size;) {
        n++;
        const char *nl = memchr(text + at, '\n', size - at);
        size_t len = nl ? (size_t)(nl - (text + at)) : size - at;
        size_t after = at + len + 1;
        if (len && text[at + len - 1] == '\r')
            len--; /* a CR LF line end */
        const char *bad = control_byte(text + at, len);
        if (bad) { /* a NUL included: the line is not cut there */
            rc = set_input_error(err, shown, n, (unsigned)(bad - (text + at)) + 1,
                                 "control byte 0x%02x: a configuration is text",
                                 (unsigned char)*bad);
            break;
        }
        if (len > sizeof line - 2) {
            rc = set_input_error(err, shown, n, 1, "line longer than %zu "
                                 "characters", sizeof line - 2);
            break;
        }
        memcpy(line, text + at, len);
        line[len] = '\0';
        at = after;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        const char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            continue;
        rc = include_line(&next, path, n, line, depth, err);
        if (rc < 0)
            rc = assign(&next, shown, n, line, 1, err);
    }
    if (rc == SIMT_OK) {
        *cfg = next;
        snprintf(cfg->preset, sizeof cfg->preset, "%s", path);
    }
    return rc;
}

/* A validation error about key k, located where k was set: "FILE:LINE:COL:
 * error: ..." for a file, "--set KEY=VALUE: error: ..." for an override,
 * "configuration: error: (default KEY = VALUE) ..." for a default. */
static int key_error(const simt_config_t *cfg, simt_cfg_key_t k, simt_error_t *err,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int key_error(const simt_config_t *cfg, simt_cfg_key_t k, simt_error_t *err,
                     const char *fmt, ...)
{
    char what[1024], shown[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    long long v = (long long)cfg->value[k];
    if (cfg->origin[k] == 1)
        return set_error(err, SIMT_EINPUT, "%s:%u:%u: error: %s",
                         printable(cfg->files[cfg->file[k]], (size_t)-1, shown,
                                   sizeof shown),
                         cfg->line[k], cfg->col[k], what);
    if (cfg->origin[k] == 2)
        return set_error(err, SIMT_EINPUT, "--set %s=%lld: error: %s",
                         keys[k].name, v, what);
    return set_error(err, SIMT_EINPUT, "configuration: error: (default %s = "
                     "%lld) %s", keys[k].name, v, what);
}

/* Of two keys in conflict, the one to locate the error at: the one the
 * user set last-most (--set over a file over a default), else a. */
static simt_cfg_key_t blame(const simt_config_t *cfg, simt_cfg_key_t a,
                            simt_cfg_key_t b)
{
    return cfg->origin[b] > cfg->origin[a] ? b : a;
}

int simt_config_validate(const simt_config_t *cfg, simt_error_t *err)
{
#define V(k) ((long long)simt_config_get(cfg, SIMT_CFG_##k))
    if (V(MAX_THREADS_CTA) > V(MAX_THREADS_SM))
        return key_error(cfg, blame(cfg, SIMT_CFG_MAX_THREADS_CTA, SIMT_CFG_MAX_THREADS_SM),
                         err, "max_threads_per_cta (%lld) exceeds "
                         "gpgpu_shader_core_max_threads (%lld): no CTA of "
                         "that size could ever run", V(MAX_THREADS_CTA),
                         V(MAX_THREADS_SM));
    if (V(MAX_THREADS_SM) % 32)
        return key_error(cfg, SIMT_CFG_MAX_THREADS_SM, err,
                         "gpgpu_shader_core_max_threads must be a multiple of "
                         "the warp size (32)");
    static const simt_cfg_key_t lines[] = { SIMT_CFG_L1D_LINE, SIMT_CFG_L2_LINE,
                                            SIMT_CFG_L1I_LINE, SIMT_CFG_L1C_LINE };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        int64_t v = simt_config_get(cfg, lines[i]);
        if (v & (v - 1))
            return key_error(cfg, lines[i], err, "%s (%lld) must be a power of "
                             "two", keys[lines[i]].name, (long long)v);
    }
    /* every line an SM fetches over the interconnect (data, instruction,
     * constant), as one packet with its 8-byte header, must fit in the
     * interconnect's buffers, or it waits there for ever */
    if (!V(IDEAL_MEMORY)) {
        simt_cfg_key_t big = SIMT_CFG_L1D_LINE;
        for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
            if (lines[i] != SIMT_CFG_L2_LINE &&
                simt_config_get(cfg, lines[i]) > simt_config_get(cfg, big))
                big = lines[i];
        long long packet = (long long)simt_config_get(cfg, big) + 8, flit = V(ICNT_FLIT);
        long long need = (packet + flit - 1) / flit;
        if (need > V(ICNT_BUFFER))
            return key_error(cfg, blame(cfg, big, SIMT_CFG_ICNT_BUFFER), err,
                             "gpgpu_icnt_buffer_flits (%lld) cannot hold a "
                             "%lld-byte packet (a %s = %lld line and its 8-byte "
                             "header) of %lld-byte flits: it needs %lld flits",
                             V(ICNT_BUFFER), packet, keys[big].name,
                             (long long)simt_config_get(cfg, big), flit, need);
    }
    if (32 % V(SIMD_WIDTH))
        return key_error(cfg, SIMT_CFG_SIMD_WIDTH, err, "gpgpu_simd_width (%lld) "
                         "must divide the warp size (32)", V(SIMD_WIDTH));
    if (V(NUM_SCHED) > V(MAX_THREADS_SM) / 32)
        return key_error(cfg, blame(cfg, SIMT_CFG_NUM_SCHED, SIMT_CFG_MAX_THREADS_SM),
                         err, "gpgpu_num_sched_per_core (%lld) exceeds the warps "
                         "per SM (%lld)", V(NUM_SCHED), V(MAX_THREADS_SM) / 32);
    /* the deadlock window must outlast one miss below the L1 with every
     * fixed latency on its path (each in its own domain's cycles, as the
     * window counts the slowest domain's: gpu/timing.c); else a legal run
     * is reported as a deadlock */
    long long trip = V(IDEAL_MEMORY)
        ? (V(MEM_LATENCY) > V(L1I_MISS_LATENCY) ? V(MEM_LATENCY) : V(L1I_MISS_LATENCY))
        : 2 * V(ICNT_LATENCY) + V(L2_LATENCY) +
          (V(DRAM_MODEL) ? V(DRAM_TRP) + V(DRAM_TRCD) + V(DRAM_TCL) + V(DRAM_BURST)
                         : V(DRAM_LATENCY));
    simt_cfg_key_t lat = V(IDEAL_MEMORY) ? SIMT_CFG_MEM_LATENCY : SIMT_CFG_L2_LATENCY;
    if (!V(FUNCTIONAL) && V(DEADLOCK_CYCLES) <= trip)
        return key_error(cfg, blame(cfg, SIMT_CFG_DEADLOCK_CYCLES, lat), err,
                         "gpgpu_deadlock_detect_cycles (%lld) is not longer than "
                         "one memory access's fixed latencies (%lld cycles: %s): "
                         "every such access would be reported as a deadlock",
                         V(DEADLOCK_CYCLES), trip, V(IDEAL_MEMORY)
                         ? "the larger of gpgpu_ideal_mem_latency and gpgpu_l1i_miss_latency"
                         : "2 x gpgpu_icnt_latency + gpgpu_l2_latency + the DRAM's "
                           "tRP + tRCD + tCL + burst, or gpgpu_dram_latency");
    /* the timing model's schedulers hold at most SCHED_MAX_SLOTS warps each
     * (refused here, where the keys are known, rather than at the run) */
    long long per = (V(MAX_THREADS_SM) / 32 + V(NUM_SCHED) - 1) / V(NUM_SCHED);
    if (!V(FUNCTIONAL) && per > SCHED_MAX_SLOTS)
        return key_error(cfg, blame(cfg, SIMT_CFG_NUM_SCHED, SIMT_CFG_MAX_THREADS_SM),
                         err, "%lld warps per SM over gpgpu_num_sched_per_core = "
                         "%lld schedulers give %lld warp slots each, more than "
                         "the %d a scheduler holds: raise gpgpu_num_sched_per_core",
                         V(MAX_THREADS_SM) / 32, V(NUM_SCHED), per, SCHED_MAX_SLOTS);
    if (V(DYNCTA_T_MEM_L) > V(DYNCTA_T_MEM_H))
        return key_error(cfg, blame(cfg, SIMT_CFG_DYNCTA_T_MEM_L, SIMT_CFG_DYNCTA_T_MEM_H),
                         err, "dyncta_t_mem_l (%lld) exceeds dyncta_t_mem_h "
                         "(%lld): the low memory-wait threshold must not be "
                         "above the high one", V(DYNCTA_T_MEM_L), V(DYNCTA_T_MEM_H));
    if (V(LCS_MONITOR_SM) >= V(N_CLUSTERS) * V(CORES_PER_CLUSTER))
        return key_error(cfg, SIMT_CFG_LCS_MONITOR_SM, err, "lcs_monitor_sm "
                         "(%lld) names no SM: there are %lld (gpgpu_n_clusters "
                         "x gpgpu_n_cores_per_cluster)", V(LCS_MONITOR_SM),
                         V(N_CLUSTERS) * V(CORES_PER_CLUSTER));
#undef V
    return SIMT_OK;
}

const char *simt_config_value_name(const simt_config_t *cfg, simt_cfg_key_t k)
{
    if (k < SIMT_CFG_NKEYS && keys[k].kind == CFG_TEXT)
        return cfg->value[k] ? cfg->text + cfg->value[k] - 1 : "";
    if (k >= SIMT_CFG_NKEYS || keys[k].kind != CFG_ENUM)
        return NULL;
    return enum_names(k)[cfg->value[k]];
}

void simt_config_print(const simt_config_t *cfg, FILE *out,
                       const char *prefix)
{
    for (int k = 0; k < SIMT_CFG_NKEYS; k++) {
        const char *name = simt_config_value_name(cfg, (simt_cfg_key_t)k);
        const char *origin = cfg->origin[k] == 2 ? "  # --set"
                           : cfg->origin[k] == 1 ? "" : "  # default";
        if (name)
            fprintf(out, "%s%s = %s%s\n", prefix, keys[k].name, name, origin);
        else
            fprintf(out, "%s%s = %lld%s\n", prefix, keys[k].name,
                    (long long)cfg->value[k], origin);
    }
}
