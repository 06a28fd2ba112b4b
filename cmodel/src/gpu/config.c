/* config.c: `key = value` configuration files and --set overrides. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "gpu/config_gpgpusim.h"
#include "gpu/cta_policy.h"
#include "simt/config.h"
#include "exec/recon.h"

typedef enum { CFG_INT, CFG_BOOL, CFG_ENUM } cfg_kind_t;

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
    switch (key) {
    case SIMT_CFG_L1D_POLICY: return write_policy;
    case SIMT_CFG_DRAM_SCHED: return dram_sched;
    case SIMT_CFG_ADDR_MAPPING: return addr_mapping;
    case SIMT_CFG_SCHEDULER: return scheduler;
    case SIMT_CFG_LTLWS_INNER: return ltlws_inner;
    case SIMT_CFG_CTA_POLICY: return cta_policy_names;
    case SIMT_CFG_RECONVERGENCE: return recon_model_names;
    case SIMT_CFG_REGS_SOURCE: return regs_source;
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

/* Parses one assignment `key = value` (text without comment), reporting
 * positions as file:line:col (col is col0 plus the 1-based column in
 * `text`: a caller that builds the text names where it came from). */
static int assign_at(simt_config_t *cfg, const char *file, unsigned line,
                     unsigned col0, const char *text, uint8_t origin,
                     simt_error_t *err)
{
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
                               "expected `key = value`, found '%s'", k);
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
    if (vlen == 0)
        return set_input_error(err, file, line, vcol, "missing value for '%s'",
                               keys[ki].name);
    char buf[64];
    if (vlen >= sizeof buf)
        return set_input_error(err, file, line, vcol, "value for '%s' is too "
                               "long", keys[ki].name);
    memcpy(buf, v, vlen);
    buf[vlen] = '\0';
    int64_t val;
    if (keys[ki].kind == CFG_ENUM) {
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
                                   "%s, not '%s'", keys[ki].name, allowed, buf);
        }
    } else if (keys[ki].kind == CFG_BOOL) {
        if (!strcmp(buf, "1") || !strcmp(buf, "true") || !strcmp(buf, "yes"))
            val = 1;
        else if (!strcmp(buf, "0") || !strcmp(buf, "false") || !strcmp(buf, "no"))
            val = 0;
        else
            return set_input_error(err, file, line, vcol, "'%s' must be 0 or 1 "
                                   "(or true/false), not '%s'", keys[ki].name, buf);
    } else {
        char *end;
        errno = 0;
        long long ll = strtoll(buf, &end, 0);
        if (errno || *end || end == buf)
            return set_input_error(err, file, line, vcol, "'%s' must be an "
                                   "integer, not '%s'", keys[ki].name, buf);
        if (ll < keys[ki].lo || ll > keys[ki].hi)
            return set_input_error(err, file, line, vcol, "'%s' = %lld is out of "
                                   "range [%lld, %lld]", keys[ki].name, ll,
                                   (long long)keys[ki].lo, (long long)keys[ki].hi);
        val = ll;
    }
    cfg->value[ki] = val;
    cfg->origin[ki] = origin;
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

int simt_config_load_file(simt_config_t *cfg, const char *path,
                          simt_error_t *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return set_error(err, SIMT_EINPUT, "%s: error: cannot open the "
                         "configuration file: %s", path, strerror(errno));
    /* GPGPU-Sim's `-option value` files are read as they are, whole */
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    int c;
    while (mem && (c = getc(f)) != EOF)
        putc(c, mem);
    if (mem)
        fclose(mem);
    if (!text) {
        fclose(f);
        return set_error(err, SIMT_EINPUT, "%s: error: out of memory reading "
                         "the configuration file", path);
    }
    if (config_gpgpusim_detect(text)) {
        fclose(f);
        simt_config_t next = *cfg;
        int grc = config_gpgpusim_apply(&next, path, text, stderr, err);
        free(text);
        if (grc == SIMT_OK) {
            *cfg = next;
            snprintf(cfg->preset, sizeof cfg->preset, "%s", path);
        }
        return grc;
    }
    free(text);
    rewind(f);
    char line[1024];
    unsigned n = 0;
    int rc = SIMT_OK;
    simt_config_t next = *cfg;
    while (rc == SIMT_OK && fgets(line, sizeof line, f)) {
        n++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            rc = set_input_error(err, path, n, 1, "line longer than %zu "
                                 "characters", sizeof line - 2);
            break;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        const char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            continue;
        rc = assign(&next, path, n, line, 1, err);
    }
    fclose(f);
    if (rc == SIMT_OK) {
        *cfg = next;
        snprintf(cfg->preset, sizeof cfg->preset, "%s", path);
    }
    return rc;
}

int simt_config_validate(const simt_config_t *cfg, simt_error_t *err)
{
    if (simt_config_get(cfg, SIMT_CFG_MAX_THREADS_CTA) >
        simt_config_get(cfg, SIMT_CFG_MAX_THREADS_SM))
        return set_error(err, SIMT_EINPUT, "configuration: error: "
                         "max_threads_per_cta (%lld) exceeds "
                         "gpgpu_shader_core_max_threads (%lld): no CTA of "
                         "that size could ever run",
                         (long long)simt_config_get(cfg, SIMT_CFG_MAX_THREADS_CTA),
                         (long long)simt_config_get(cfg, SIMT_CFG_MAX_THREADS_SM));
    if (simt_config_get(cfg, SIMT_CFG_MAX_THREADS_SM) % 32)
        return set_error(err, SIMT_EINPUT, "configuration: error: "
                         "gpgpu_shader_core_max_threads must be a multiple of "
                         "the warp size (32)");
    static const simt_cfg_key_t pow2[] = { SIMT_CFG_L1D_LINE, SIMT_CFG_L2_LINE,
                                           SIMT_CFG_L1I_LINE };
    for (size_t i = 0; i < sizeof pow2 / sizeof *pow2; i++) {
        int64_t v = simt_config_get(cfg, pow2[i]);
        if (v & (v - 1))
            return set_error(err, SIMT_EINPUT, "configuration: error: %s "
                             "(%lld) must be a power of two",
                             simt_config_key_name(pow2[i]), (long long)v);
    }
    /* the largest packet (a line plus its 8-byte header) must fit */
    int64_t biggest = simt_config_get(cfg, SIMT_CFG_L1D_LINE) + 8;
    int64_t flit = simt_config_get(cfg, SIMT_CFG_ICNT_FLIT);
    if ((biggest + flit - 1) / flit > simt_config_get(cfg, SIMT_CFG_ICNT_BUFFER))
        return set_error(err, SIMT_EINPUT, "configuration: error: "
                         "gpgpu_icnt_buffer_flits (%lld) cannot hold a %lld-byte "
                         "packet of %lld-byte flits",
                         (long long)simt_config_get(cfg, SIMT_CFG_ICNT_BUFFER),
                         (long long)biggest, (long long)flit);
    if (32 % simt_config_get(cfg, SIMT_CFG_SIMD_WIDTH))
        return set_error(err, SIMT_EINPUT, "configuration: error: "
                         "gpgpu_simd_width (%lld) must divide the warp size (32)",
                         (long long)simt_config_get(cfg, SIMT_CFG_SIMD_WIDTH));
    if (simt_config_get(cfg, SIMT_CFG_NUM_SCHED) >
        simt_config_get(cfg, SIMT_CFG_MAX_THREADS_SM) / 32)
        return set_error(err, SIMT_EINPUT, "configuration: error: "
                         "gpgpu_num_sched_per_core (%lld) exceeds the warps "
                         "per SM (%lld)",
                         (long long)simt_config_get(cfg, SIMT_CFG_NUM_SCHED),
                         (long long)simt_config_get(cfg, SIMT_CFG_MAX_THREADS_SM) / 32);
    return SIMT_OK;
}

const char *simt_config_value_name(const simt_config_t *cfg, simt_cfg_key_t k)
{
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
