/* config_gpgpusim.c: GPGPU-Sim option files mapped onto simtlab's keys
 * (contract in config_gpgpusim.h; docs/configs.md, "GPGPU-Sim
 * configuration files", lists every option and what it becomes).
 *
 * Options that only take part in a derived key (sub-partitions, DRAM bus
 * width, burst length, ...) are gathered first and turned into keys after
 * the last option, so their order in the file does not matter. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "gpu/config_gpgpusim.h"

typedef struct gs_tok {
    const char *s;
    size_t len;
    unsigned line, col;
} gs_tok_t;

/* What several options decide together, with the option that gave it. */
typedef struct gs_derived {
    long sub_parts;                   /* L2 slices per memory partition */
    long l2_sets, l2_mshrs;           /* per slice, from gpgpu_cache:dl2 */
    gs_tok_t l2_at;
    long bus_width, chips, burst_len, freq_ratio; /* DRAM data bus */
    int bus_seen;
    gs_tok_t bus_at;
} gs_derived_t;

typedef struct gs {
    simt_config_t *cfg;
    const char *path;
    FILE *notes;
    simt_error_t *err;
    gs_derived_t d;
} gs_t;

typedef struct gs_row gs_row_t;
typedef int (*gs_apply_fn)(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                           const char *value, const gs_tok_t *at);

struct gs_row {
    const char *option;   /* GPGPU-Sim's name, without the '-' */
    gs_apply_fn apply;
    const char *key;      /* the simtlab key (gs_key, gs_enum), or NULL */
    const char *why;      /* gs_ignore: the reason; gs_enum: names by value */
};

static int gs_note(gs_t *g, const gs_tok_t *at, const gs_tok_t *opt,
                   const char *what)
{
    if (g->notes)
        fprintf(g->notes, "%s:%u:%u: note: -%.*s %s\n", g->path, at->line, at->col,
                (int)opt->len - 1, opt->s + 1, what);
    return SIMT_OK;
}

static int gs_set(gs_t *g, const gs_tok_t *at, const char *key, const char *value)
{
    return config_assign_from_file(g->cfg, g->path, at->line, at->col, key, value,
                                   g->err);
}

static int gs_setl(gs_t *g, const gs_tok_t *at, const char *key, long value)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%ld", value);
    return gs_set(g, at, key, buf);
}

static int gs_bad(gs_t *g, const gs_tok_t *at, const gs_tok_t *opt,
                  const char *value, const char *why)
{
    return set_input_error(g->err, g->path, at->line, at->col,
                           "-%.*s '%s' is not valid: %s", (int)opt->len - 1,
                           opt->s + 1, value, why);
}

/* Splits `s` at `sep` into at most `max` fields of integers; the count, or
 * -1 when a field is not an integer. */
static int gs_ints(const char *s, char sep, long *out, int max)
{
    int n = 0;
    while (n < max) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s)
            return -1;
        out[n++] = v;
        if (*end == '\0')
            return n;
        if (*end != sep)
            return -1;
        s = end + 1;
    }
    return -1;
}

/* ---- rows that set one key, or none ---- */

static int gs_key(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                  const char *value, const gs_tok_t *at)
{
    (void)opt;
    return gs_set(g, at, r->key, value);
}

static int gs_ignore(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                     const char *value, const gs_tok_t *at)
{
    (void)value;
    char what[256];
    snprintf(what, sizeof what, "ignored: %s", r->why);
    return gs_note(g, at, opt, what);
}

/* An integer selecting one of the names in r->why ("a,b,c": 0, 1, 2). */
static int gs_enum(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                   const char *value, const gs_tok_t *at)
{
    long v;
    if (gs_ints(value, ',', &v, 1) != 1 || v < 0)
        return gs_bad(g, at, opt, value, "expected a small integer");
    const char *p = r->why;
    for (long i = 0; i < v && p; i++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    if (!p)
        return gs_bad(g, at, opt, value, "simtlab models only the choices "
                      "docs/configs.md lists for this option");
    char name[32];
    size_t n = strcspn(p, ",");
    snprintf(name, sizeof name, "%.*s", (int)n, p);
    return gs_set(g, at, r->key, name);
}

/* ---- rows with a string of their own ---- */

/* core:interconnect:L2:DRAM in MHz. */
static int gs_clocks(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                     const char *value, const gs_tok_t *at)
{
    (void)r;
    static const char *const keys[4] = { "gpgpu_core_clock_mhz", "gpgpu_icnt_clock_mhz",
                                         "gpgpu_l2_clock_mhz", "gpgpu_dram_clock_mhz" };
    const char *s = value;
    for (int i = 0; i < 4; i++) {
        char *end;
        double mhz = strtod(s, &end);
        if (end == s || (i < 3 ? *end != ':' : *end != '\0'))
            return gs_bad(g, at, opt, value, "expected four clocks in MHz, "
                          "core:interconnect:L2:DRAM");
        if (mhz != (double)(long)mhz)
            return gs_bad(g, at, opt, value, "simtlab's clocks are whole MHz");
        int rc = gs_setl(g, at, keys[i], (long)mhz);
        if (rc != SIMT_OK)
            return rc;
        s = end + 1;
    }
    return SIMT_OK;
}

/* threads per SM : warp size */
static int gs_pipeline(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                       const char *value, const gs_tok_t *at)
{
    (void)r;
    long f[2];
    if (gs_ints(value, ':', f, 2) != 2)
        return gs_bad(g, at, opt, value, "expected threads:warp_size");
    if (f[1] != 32)
        return gs_bad(g, at, opt, value, "simtlab's warps are 32 threads");
    return gs_setl(g, at, "gpgpu_shader_core_max_threads", f[0]);
}

/* GPGPU-Sim's scheduler names: lrr, gto, two_level_active:N:... */
static int gs_scheduler(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                        const char *value, const gs_tok_t *at)
{
    (void)r;
    if (!strncmp(value, "two_level_active:", 17)) {
        long f[3];
        if (gs_ints(value + 17, ':', f, 3) < 1)
            return gs_bad(g, at, opt, value, "expected two_level_active:N:...");
        int rc = gs_set(g, at, "gpgpu_scheduler", "two_level");
        if (rc == SIMT_OK)
            rc = gs_setl(g, at, "gpgpu_two_level_active", f[0]);
        if (rc == SIMT_OK)
            gs_note(g, at, opt, "partly ignored: the inner and outer policies of "
                                "two_level_active (ours: docs/configs.md)");
        return rc;
    }
    return gs_set(g, at, "gpgpu_scheduler", value);
}

/* A cache string: [T:]sets:line:ways,rep:write:alloc:write_alloc[:index],
 * M:mshrs:merge[,queues...]. */
typedef struct gs_cache {
    char type;                 /* N normal, S sectored */
    long sets, line, ways;
    char rep, write, alloc, wr_alloc, index;
    long mshrs, merge;
} gs_cache_t;

static int gs_cache_parse(gs_t *g, const gs_tok_t *opt, const char *value,
                          const gs_tok_t *at, gs_cache_t *c)
{
    static const char *const form = "expected [N|S:]sets:line:ways,"
        "replacement:write:alloc:write_alloc[:index],mshr_type:entries:merge[,...]";
    memset(c, 0, sizeof *c);
    const char *s = value;
    c->type = 'N';
    if (isalpha((unsigned char)s[0]) && s[1] == ':') {
        c->type = s[0];
        s += 2;
    }
    char geo[64], pol[64], mshr[64];
    size_t n = strcspn(s, ",");
    if (n >= sizeof geo || s[n] != ',')
        return gs_bad(g, at, opt, value, form);
    snprintf(geo, sizeof geo, "%.*s", (int)n, s);
    s += n + 1;
    n = strcspn(s, ",");
    if (n >= sizeof pol || s[n] != ',')
        return gs_bad(g, at, opt, value, form);
    snprintf(pol, sizeof pol, "%.*s", (int)n, s);
    s += n + 1;
    n = strcspn(s, ",");
    if (n >= sizeof mshr)
        return gs_bad(g, at, opt, value, form);
    snprintf(mshr, sizeof mshr, "%.*s", (int)n, s);
    long f[3];
    if (gs_ints(geo, ':', f, 3) != 3 || f[0] < 1 || f[1] < 1 || f[2] < 1)
        return gs_bad(g, at, opt, value, form);
    c->sets = f[0];
    c->line = f[1];
    c->ways = f[2];
    /* policy letters: rep:write:alloc:write_alloc[:index] */
    size_t pl = strlen(pol);
    if ((pl != 7 && pl != 9) || pol[1] != ':' || pol[3] != ':' || pol[5] != ':' ||
        (pl == 9 && pol[7] != ':'))
        return gs_bad(g, at, opt, value, form);
    c->rep = pol[0];
    c->write = pol[2];
    c->alloc = pol[4];
    c->wr_alloc = pol[6];
    c->index = pl == 9 ? pol[8] : 'L';
    if (!isalpha((unsigned char)mshr[0]) || mshr[1] != ':' ||
        gs_ints(mshr + 2, ':', f, 2) != 2 || f[0] < 1 || f[1] < 1)
        return gs_bad(g, at, opt, value, form);
    c->mshrs = f[0];
    c->merge = f[1];
    return SIMT_OK;
}

/* One line naming the parts of a cache string simtlab does not model
 * (LRU, allocate on miss, linear set index are what it models). */
static void gs_cache_unmodelled(gs_t *g, const gs_tok_t *opt, const gs_tok_t *at,
                                const gs_cache_t *c, int sectored_ok)
{
    char what[256] = "";
    size_t n = 0;
    if (c->type == 'S' && !sectored_ok)
        n += (size_t)snprintf(what + n, sizeof what - n, "; sectored (S): whole lines here");
    if (c->rep != 'L')
        n += (size_t)snprintf(what + n, sizeof what - n, "; replacement '%c': LRU here", c->rep);
    if (c->alloc != 'm')
        n += (size_t)snprintf(what + n, sizeof what - n, "; allocation '%c': on miss here", c->alloc);
    if (c->index != 'L')
        snprintf(what + n, sizeof what - n, "; set index '%c': linear here", c->index);
    if (what[0]) {
        char line[300];
        snprintf(line, sizeof line, "partly ignored: %s", what + 2);
        gs_note(g, at, opt, line);
    }
}

static int gs_dl1(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                  const char *value, const gs_tok_t *at)
{
    (void)r;
    gs_cache_t c;
    int rc = gs_cache_parse(g, opt, value, at, &c);
    static const char *const policies[][2] = {
        { "B", "write_back" }, { "T", "write_through" }, { "E", "write_evict" },
        { "L", "local_wb_global_wt" } };
    const char *policy = NULL;
    for (size_t i = 0; i < sizeof policies / sizeof *policies; i++)
        if (c.write == policies[i][0][0])
            policy = policies[i][1];
    if (rc == SIMT_OK && !policy)
        return gs_bad(g, at, opt, value, "the L1 write policy must be B, T, E or L");
    if (rc == SIMT_OK) rc = gs_setl(g, at, "gpgpu_l1d_sets", c.sets);
    if (rc == SIMT_OK) rc = gs_setl(g, at, "gpgpu_l1d_line", c.line);
    if (rc == SIMT_OK) rc = gs_setl(g, at, "gpgpu_l1d_ways", c.ways);
    if (rc == SIMT_OK) rc = gs_set(g, at, "gpgpu_l1d_write_policy", policy);
    if (rc == SIMT_OK) rc = gs_setl(g, at, "gpgpu_l1d_mshrs", c.mshrs);
    if (rc == SIMT_OK) rc = gs_setl(g, at, "gpgpu_l1d_mshr_merge", c.merge);
    if (rc == SIMT_OK)
        gs_cache_unmodelled(g, opt, at, &c, 0);
    return rc;
}

/* Read-only caches: the instruction cache (no merge key: a fetch miss
 * merges every warp) and the constant cache. */
static int gs_ro_cache(gs_t *g, const gs_tok_t *opt, const char *value,
                       const gs_tok_t *at, const char *prefix, int merge)
{
    gs_cache_t c;
    int rc = gs_cache_parse(g, opt, value, at, &c);
    char key[64];
    snprintf(key, sizeof key, "%s_sets", prefix);
    if (rc == SIMT_OK) rc = gs_setl(g, at, key, c.sets);
    snprintf(key, sizeof key, "%s_line", prefix);
    if (rc == SIMT_OK) rc = gs_setl(g, at, key, c.line);
    snprintf(key, sizeof key, "%s_ways", prefix);
    if (rc == SIMT_OK) rc = gs_setl(g, at, key, c.ways);
    snprintf(key, sizeof key, "%s_mshrs", prefix);
    if (rc == SIMT_OK) rc = gs_setl(g, at, key, c.mshrs);
    snprintf(key, sizeof key, "%s_mshr_merge", prefix);
    if (rc == SIMT_OK && merge) rc = gs_setl(g, at, key, c.merge);
    if (rc == SIMT_OK) {
        if (!merge)
            gs_note(g, at, opt, "partly ignored: the MSHR merge limit (a miss "
                                "here merges every warp's fetch)");
        gs_cache_unmodelled(g, opt, at, &c, 0);
    }
    return rc;
}

static int gs_il1(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                  const char *value, const gs_tok_t *at)
{
    (void)r;
    return gs_ro_cache(g, opt, value, at, "gpgpu_l1i", 0);
}

/* The texture cache: its fourth part (the fragment FIFO between the tag
 * lookup and the data array) is not modelled (docs/textures.md). */
static int gs_tex(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                  const char *value, const gs_tok_t *at)
{
    (void)r;
    int rc = gs_ro_cache(g, opt, value, at, "gpgpu_l1t", 1);
    if (rc == SIMT_OK)
        gs_note(g, at, opt, "partly ignored: the texture fragment FIFO (its "
                            "fourth part)");
    return rc;
}

static int gs_const(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                    const char *value, const gs_tok_t *at)
{
    (void)r;
    return gs_ro_cache(g, opt, value, at, "gpgpu_l1c", 1);
}

/* The L2 of one sub-partition: sets and MSHRs per partition follow once
 * the sub-partitions are known (gs_finish). */
static int gs_dl2(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                  const char *value, const gs_tok_t *at)
{
    (void)r;
    gs_cache_t c;
    int rc = gs_cache_parse(g, opt, value, at, &c);
    if (rc == SIMT_OK) rc = gs_setl(g, at, "gpgpu_l2_line", c.line);
    if (rc == SIMT_OK) rc = gs_setl(g, at, "gpgpu_l2_ways", c.ways);
    if (rc == SIMT_OK) rc = gs_setl(g, at, "gpgpu_l2_mshr_merge", c.merge);
    if (rc == SIMT_OK) rc = gs_set(g, at, "gpgpu_l2_sectored", c.type == 'S' ? "1" : "0");
    if (rc != SIMT_OK)
        return rc;
    g->d.l2_sets = c.sets;
    g->d.l2_mshrs = c.mshrs;
    g->d.l2_at = *at;
    if (c.write != 'B')
        gs_note(g, at, opt, "partly ignored: the L2 write policy (write-back here)");
    gs_cache_unmodelled(g, opt, at, &c, 1);
    return SIMT_OK;
}

/* "nbk=16:CCD=2:...": each timing parameter GPGPU-Sim names, by ours. */
static int gs_dram_timing(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                          const char *value, const gs_tok_t *at)
{
    (void)r;
    static const char *const map[][2] = {
        { "nbk", "gpgpu_dram_banks" }, { "CCD", "gpgpu_dram_tccd" },
        { "RRD", "gpgpu_dram_trrd" }, { "RCD", "gpgpu_dram_trcd" },
        { "RAS", "gpgpu_dram_tras" }, { "RP", "gpgpu_dram_trp" },
        { "RC", "gpgpu_dram_trc" }, { "CL", "gpgpu_dram_tcl" },
        { "WL", "gpgpu_dram_twl" }, { "CDLR", "gpgpu_dram_twtr" } };
    char ignored[256] = "";
    size_t ni = 0;
    const char *s = value;
    while (*s) {
        while (*s == ':' || isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        size_t n = strcspn(s, "=");
        char name[16];
        if (!s[n] || n >= sizeof name)
            return gs_bad(g, at, opt, value, "expected name=cycles:name=cycles...");
        snprintf(name, sizeof name, "%.*s", (int)n, s);
        char *end;
        long v = strtol(s + n + 1, &end, 10);
        if (end == s + n + 1 || (*end && *end != ':' && !isspace((unsigned char)*end)))
            return gs_bad(g, at, opt, value, "expected name=cycles:name=cycles...");
        const char *key = NULL;
        for (size_t i = 0; i < sizeof map / sizeof *map; i++)
            if (!strcmp(name, map[i][0]))
                key = map[i][1];
        if (key) {
            int rc = gs_setl(g, at, key, v);
            if (rc != SIMT_OK)
                return rc;
        } else {
            ni += (size_t)snprintf(ignored + ni, sizeof ignored - ni, "%s%s",
                                   ni ? ", " : "", name);
            if (ni >= sizeof ignored)
                ni = sizeof ignored - 1;
        }
        s = end;
    }
    if (ignored[0]) {
        char what[320];
        snprintf(what, sizeof what, "partly ignored: %s (no write recovery or "
                 "bank groups here)", ignored);
        gs_note(g, at, opt, what);
    }
    return SIMT_OK;
}

/* dramid@N;<bit layout>: the partition bits start at bit N, which is our
 * interleave; the bit layout of rows, banks and columns is not modelled. */
static int gs_addr_mapping(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                           const char *value, const gs_tok_t *at)
{
    (void)r;
    if (strncmp(value, "dramid@", 7))
        return gs_note(g, at, opt, "ignored: a bit layout without dramid@N "
                                   "(gpgpu_addr_mapping decides here)");
    char *end;
    long bit = strtol(value + 7, &end, 10);
    if (end == value + 7 || bit < 5 || bit > 20)
        return gs_bad(g, at, opt, value, "expected dramid@N with N in 5..20");
    int rc = gs_setl(g, at, "gpgpu_mem_interleave", 1L << bit);
    if (rc == SIMT_OK)
        gs_note(g, at, opt, "partly ignored: the row/bank/column bit layout "
                            "(gpgpu_addr_mapping decides here)");
    return rc;
}

/* ICNT->L2:L2->DRAM:DRAM->L2:L2->ICNT queues; the first is our L2 queue. */
static int gs_partition_queues(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                               const char *value, const gs_tok_t *at)
{
    (void)r;
    long f[4];
    if (gs_ints(value, ':', f, 4) != 4)
        return gs_bad(g, at, opt, value, "expected four queue sizes a:b:c:d");
    int rc = gs_setl(g, at, "gpgpu_l2_queue", f[0] ? f[0] : 4096);
    if (rc == SIMT_OK)
        gs_note(g, at, opt, "partly ignored: the L2-to-DRAM and return queues");
    return rc;
}

/* Ingredients of derived keys (gs_finish). */
static int gs_gather(gs_t *g, const gs_row_t *r, const gs_tok_t *opt,
                     const char *value, const gs_tok_t *at)
{
    long v;
    if (gs_ints(value, ',', &v, 1) != 1 || v < 1)
        return gs_bad(g, at, opt, value, "expected a positive integer");
    if (!strcmp(r->option, "gpgpu_n_sub_partition_per_mchannel")) {
        g->d.sub_parts = v;
        return SIMT_OK;
    }
    if (!strcmp(r->option, "gpgpu_dram_buswidth"))
        g->d.bus_width = v;
    else if (!strcmp(r->option, "gpgpu_n_mem_per_ctrlr"))
        g->d.chips = v;
    else if (!strcmp(r->option, "gpgpu_dram_burst_length"))
        g->d.burst_len = v;
    else
        g->d.freq_ratio = v;
    g->d.bus_seen = 1;
    g->d.bus_at = *at;
    return SIMT_OK;
}

/* Every option of GPGPU-Sim 4.2's GTX480 and Kepler Titan files, and the
 * common ones beyond them.  Kept in the order of docs/configs.md. */
static const gs_row_t rows[] = {
    /* the machine */
    { "gpgpu_n_clusters", gs_key, "gpgpu_n_clusters", NULL },
    { "gpgpu_n_cores_per_cluster", gs_key, "gpgpu_n_cores_per_cluster", NULL },
    { "gpgpu_shader_core_pipeline", gs_pipeline, NULL, NULL },
    { "gpgpu_shader_cta", gs_key, "gpgpu_shader_cta", NULL },
    { "gpgpu_shader_registers", gs_key, "gpgpu_shader_registers", NULL },
    { "gpgpu_shmem_size", gs_key, "gpgpu_shmem_size", NULL },
    { "gpgpu_clock_domains", gs_clocks, NULL, NULL },
    { "gpgpu_num_sched_per_core", gs_key, "gpgpu_num_sched_per_core", NULL },
    { "gpgpu_scheduler", gs_scheduler, NULL, NULL },
    { "gpgpu_num_reg_banks", gs_key, "gpgpu_num_reg_banks", NULL },
    { "gpgpu_reg_bank_use_warp_id", gs_key, "gpgpu_reg_bank_use_warp_id", NULL },
    { "gpgpu_operand_collector_num_units_sp", gs_key, "gpgpu_operand_collector_num_units_sp", NULL },
    { "gpgpu_operand_collector_num_units_dp", gs_key, "gpgpu_operand_collector_num_units_dp", NULL },
    { "gpgpu_operand_collector_num_units_sfu", gs_key, "gpgpu_operand_collector_num_units_sfu", NULL },
    { "gpgpu_operand_collector_num_units_mem", gs_key, "gpgpu_operand_collector_num_units_mem", NULL },
    { "gpgpu_shmem_num_banks", gs_key, "gpgpu_shmem_num_banks", NULL },
    { "gpgpu_smem_latency", gs_key, "gpgpu_smem_latency", NULL },
    { "smem_latency", gs_key, "gpgpu_smem_latency", NULL },
    /* caches */
    { "gpgpu_cache:dl1", gs_dl1, NULL, NULL },
    { "gpgpu_l1_latency", gs_key, "gpgpu_l1d_latency", NULL },
    { "gpgpu_cache:il1", gs_il1, NULL, NULL },
    { "gpgpu_const_cache:l1", gs_const, NULL, NULL },
    { "gpgpu_tex_cache:l1", gs_tex, NULL, NULL },
    { "gpgpu_cache:dl2", gs_dl2, NULL, NULL },
    { "gpgpu_l2_rop_latency", gs_key, "gpgpu_l2_latency", NULL },
    { "gpgpu_perf_sim_memcpy", gs_key, "gpgpu_perf_sim_memcpy", NULL },
    /* memory partitions and DRAM */
    { "gpgpu_n_mem", gs_key, "gpgpu_n_mem", NULL },
    { "gpgpu_n_sub_partition_per_mchannel", gs_gather, NULL, NULL },
    { "gpgpu_memory_partition_indexing", gs_enum, "gpgpu_addr_mapping", "linear,xor" },
    { "gpgpu_mem_addr_mapping", gs_addr_mapping, NULL, NULL },
    { "gpgpu_dram_partition_queues", gs_partition_queues, NULL, NULL },
    { "dram_latency", gs_key, "gpgpu_dram_latency", NULL },
    { "gpgpu_dram_scheduler", gs_enum, "gpgpu_dram_scheduler", "fifo,fr_fcfs" },
    { "gpgpu_frfcfs_dram_sched_queue_size", gs_key, "gpgpu_dram_queue", NULL },
    { "gpgpu_dram_timing_opt", gs_dram_timing, NULL, NULL },
    { "gpgpu_dram_buswidth", gs_gather, NULL, NULL },
    { "gpgpu_n_mem_per_ctrlr", gs_gather, NULL, NULL },
    { "gpgpu_dram_burst_length", gs_gather, NULL, NULL },
    { "dram_data_command_freq_ratio", gs_gather, NULL, NULL },
    /* interconnect */
    { "icnt_flit_size", gs_key, "gpgpu_icnt_flit_bytes", NULL },
    { "network_mode", gs_ignore, NULL, "the interconnect is simtlab's crossbar (gpgpu_icnt_*)" },
    { "inter_config_file", gs_ignore, NULL, "the interconnect is simtlab's crossbar (gpgpu_icnt_*)" },
    { "gpgpu_n_cluster_ejection_buffer_size", gs_ignore, NULL, "the crossbar's buffers are gpgpu_icnt_buffer_flits" },
    /* not modelled: what the pipeline does differently */
    { "gpgpu_simd_model", gs_ignore, NULL, "one SIMD model (gpgpu_simd_width sets its lanes)" },
    { "gpgpu_pipeline_widths", gs_ignore, NULL, "pipeline register widths are not modelled" },
    { "gpgpu_num_sp_units", gs_ignore, NULL, "one unit per pipeline kind (core/pipe.c)" },
    { "gpgpu_num_sfu_units", gs_ignore, NULL, "one unit per pipeline kind (core/pipe.c)" },
    { "gpgpu_num_dp_units", gs_ignore, NULL, "one unit per pipeline kind (core/pipe.c)" },
    { "ptx_opcode_latency_int", gs_ignore, NULL, "latencies are core/pipe.c's GPGPU-Sim 3.x GTX480 table" },
    { "ptx_opcode_initiation_int", gs_ignore, NULL, "intervals are core/pipe.c's GPGPU-Sim 3.x GTX480 table" },
    { "ptx_opcode_latency_fp", gs_ignore, NULL, "latencies are core/pipe.c's GPGPU-Sim 3.x GTX480 table" },
    { "ptx_opcode_initiation_fp", gs_ignore, NULL, "intervals are core/pipe.c's GPGPU-Sim 3.x GTX480 table" },
    { "ptx_opcode_latency_dp", gs_ignore, NULL, "latencies are core/pipe.c's GPGPU-Sim 3.x GTX480 table" },
    { "ptx_opcode_initiation_dp", gs_ignore, NULL, "intervals are core/pipe.c's GPGPU-Sim 3.x GTX480 table" },
    { "ptx_opcode_latency_sfu", gs_ignore, NULL, "latencies are core/pipe.c's GPGPU-Sim 3.x GTX480 table" },
    { "ptx_opcode_initiation_sfu", gs_ignore, NULL, "intervals are core/pipe.c's GPGPU-Sim 3.x GTX480 table" },
    { "gpgpu_operand_collector_num_in_ports_sp", gs_ignore, NULL, "collector ports are not modelled" },
    { "gpgpu_operand_collector_num_out_ports_sp", gs_ignore, NULL, "collector ports are not modelled" },
    { "gpgpu_operand_collector_num_in_ports_sfu", gs_ignore, NULL, "collector ports are not modelled" },
    { "gpgpu_operand_collector_num_out_ports_sfu", gs_ignore, NULL, "collector ports are not modelled" },
    { "gpgpu_operand_collector_num_in_ports_mem", gs_ignore, NULL, "collector ports are not modelled" },
    { "gpgpu_operand_collector_num_out_ports_mem", gs_ignore, NULL, "collector ports are not modelled" },
    { "gpgpu_operand_collector_num_in_ports_dp", gs_ignore, NULL, "collector ports are not modelled" },
    { "gpgpu_operand_collector_num_out_ports_dp", gs_ignore, NULL, "collector ports are not modelled" },
    { "gpgpu_reg_file_port_throughput", gs_ignore, NULL, "one access per bank per cycle here" },
    { "gpgpu_max_insn_issue_per_warp", gs_ignore, NULL, "one instruction per warp per cycle here" },
    { "gpgpu_dual_issue_diff_exec_units", gs_ignore, NULL, "one instruction per warp per cycle here" },
    { "gpgpu_inst_fetch_throughput", gs_ignore, NULL, "one fetch per SM per cycle here" },
    { "gpgpu_shmem_limited_broadcast", gs_ignore, NULL, "a bank broadcasts one word to every lane here" },
    { "gpgpu_shmem_warp_parts", gs_ignore, NULL, "a warp's scratchpad access is one request here" },
    { "gpgpu_coalesce_arch", gs_ignore, NULL, "coalescing is mem/coalescer.c's (per line)" },
    { "gpgpu_gmem_skip_L1D", gs_ignore, NULL, "global and local accesses share the L1 (gpgpu_l1d_enabled turns it off for both)" },
    { "gpgpu_flush_l1_cache", gs_ignore, NULL, "every timing run starts with empty caches" },
    { "gpgpu_cache:dl1PrefL1", gs_ignore, NULL, "one L1 organisation (gpgpu_cache:dl1)" },
    { "gpgpu_cache:dl1PrefShared", gs_ignore, NULL, "one L1 organisation (gpgpu_cache:dl1)" },
    { "gpgpu_shmem_sizeDefault", gs_ignore, NULL, "one scratchpad size (gpgpu_shmem_size)" },
    { "gpgpu_shmem_size_PrefL1", gs_ignore, NULL, "one scratchpad size (gpgpu_shmem_size)" },
    { "gpgpu_shmem_size_PrefShared", gs_ignore, NULL, "one scratchpad size (gpgpu_shmem_size)" },
    { "gpgpu_cache:dl2_texture_only", gs_ignore, NULL, "the L2 caches every access" },
    { "gpgpu_dram_return_queue_size", gs_ignore, NULL, "DRAM returns wait in the L2's fill path" },
    { "gpgpu_mem_address_mask", gs_ignore, NULL, "gpgpu_addr_mapping decides here" },
    { "dram_bnk_indexing_policy", gs_ignore, NULL, "gpgpu_addr_mapping decides the bank" },
    { "dram_bnkgrp_indexing_policy", gs_ignore, NULL, "no DRAM bank groups here" },
    { "gpgpu_occupancy_sm_number", gs_ignore, NULL, "occupancy follows the configured SM" },
    { "gpgpu_ignore_resources_limitation", gs_ignore, NULL, "resources always limit occupancy here" },
    /* not the timing model's business */
    { "gpgpu_ptx_sim_mode", gs_key, "functional", NULL }, /* 0 performance, 1 functional */
    { "gpgpu_ptx_instruction_classification", gs_ignore, NULL, "statistics option" },
    { "gpgpu_ptx_force_max_capability", gs_ignore, NULL, "the PTX from the workload is used as it is" },
    { "gpgpu_ptx_convert_to_ptxplus", gs_ignore, NULL, "no PTXPlus: PTX is run as it is" },
    { "gpgpu_ptx_save_converted_ptxplus", gs_ignore, NULL, "no PTXPlus: PTX is run as it is" },
    { "gpgpu_compute_capability_major", gs_ignore, NULL, "the PTX's .target decides" },
    { "gpgpu_compute_capability_minor", gs_ignore, NULL, "the PTX's .target decides" },
    { "gpgpu_stack_size_limit", gs_ignore, NULL, "local memory is sized per kernel" },
    { "gpgpu_heap_size_limit", gs_ignore, NULL, "no device heap" },
    { "gpgpu_runtime_sync_depth_limit", gs_ignore, NULL, "no dynamic parallelism" },
    { "gpgpu_runtime_pending_launch_count_limit", gs_ignore, NULL, "no dynamic parallelism" },
    { "gpgpu_memlatency_stat", gs_ignore, NULL, "statistics option (--stats all prints ours)" },
    { "gpgpu_runtime_stat", gs_ignore, NULL, "statistics option (a terminal shows a progress line)" },
    { "enable_ptx_file_line_stats", gs_ignore, NULL, "statistics option" },
    { "visualizer_enabled", gs_ignore, NULL, "no AerialVision output" },
    { "power_simulation_enabled", gs_ignore, NULL, "no power model" },
    { "gpuwattch_xml_file", gs_ignore, NULL, "no power model" },
};

static const gs_row_t *gs_find(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        if (strlen(rows[i].option) == len && !memcmp(rows[i].option, name, len))
            return &rows[i];
    return NULL;
}

/* The keys several options decide together. */
static int gs_finish(gs_t *g)
{
    int rc = SIMT_OK;
    long subs = g->d.sub_parts ? g->d.sub_parts : 1;
    if (g->d.l2_sets) {
        rc = gs_setl(g, &g->d.l2_at, "gpgpu_l2_sets", g->d.l2_sets * subs);
        if (rc == SIMT_OK)
            rc = gs_setl(g, &g->d.l2_at, "gpgpu_l2_mshrs", g->d.l2_mshrs * subs);
    }
    if (rc == SIMT_OK && g->d.bus_seen) {
        /* a line crosses the channel at width x chips x data-per-command
         * bytes per DRAM command cycle (GPGPU-Sim's defaults 4, 1, 2 for
         * what the file leaves out) */
        long width = g->d.bus_width ? g->d.bus_width : 4;
        long chips = g->d.chips ? g->d.chips : 1;
        long ratio = g->d.freq_ratio ? g->d.freq_ratio : 2;
        long per_cycle = width * chips * ratio;
        long line = (long)simt_config_get(g->cfg, SIMT_CFG_L2_LINE);
        if (line % per_cycle)
            return set_input_error(g->err, g->path, g->d.bus_at.line, g->d.bus_at.col,
                                   "a %ld-byte line is not a whole number of "
                                   "%ld-byte DRAM command cycles", line, per_cycle);
        rc = gs_setl(g, &g->d.bus_at, "gpgpu_dram_burst_cycles", line / per_cycle);
    }
    return rc;
}

/* The next token at *p: a quoted string (without its quotes, spanning
 * lines) or a run of non-space characters; comments are skipped.  0 at
 * the end of the text, -1 for an unterminated quote. */
static int gs_next(const char **p, unsigned *line, const char **line_start,
                   gs_tok_t *t)
{
    const char *s = *p;
    for (;;) {
        while (isspace((unsigned char)*s)) {
            if (*s == '\n') {
                (*line)++;
                *line_start = s + 1;
            }
            s++;
        }
        if (*s != '#')
            break;
        while (*s && *s != '\n')
            s++;
    }
    if (!*s)
        return 0;
    t->line = *line;
    t->col = (unsigned)(s - *line_start) + 1;
    if (*s == '"') {
        const char *e = s + 1;
        while (*e && *e != '"') {
            if (*e == '\n') {
                (*line)++;
                *line_start = e + 1;
            }
            e++;
        }
        if (!*e)
            return -1;
        t->s = s + 1;
        t->len = (size_t)(e - s - 1);
        *p = e + 1;
        t->col++;
        return 1;
    }
    const char *e = s;
    while (*e && !isspace((unsigned char)*e))
        e++;
    t->s = s;
    t->len = (size_t)(e - s);
    *p = e;
    return 1;
}

int config_gpgpusim_detect(const char *text)
{
    const char *p = text, *ls = text;
    unsigned line = 1;
    gs_tok_t t;
    return gs_next(&p, &line, &ls, &t) == 1 && t.len > 1 && t.s[0] == '-' &&
           isalpha((unsigned char)t.s[1]);
}

int config_gpgpusim_apply(simt_config_t *cfg, const char *path, const char *text,
                          FILE *notes, simt_error_t *err)
{
    simt_config_t next = *cfg;
    gs_t g = { .cfg = &next, .path = path, .notes = notes, .err = err };
    const char *p = text, *ls = text;
    unsigned line = 1;
    gs_tok_t opt, val;
    int rc = SIMT_OK, got;
    while (rc == SIMT_OK && (got = gs_next(&p, &line, &ls, &opt)) != 0) {
        if (got < 0 || opt.s[0] != '-' || opt.len < 2) {
            rc = set_input_error(err, path, opt.line, opt.col, got < 0
                                 ? "unterminated \"quoted value\""
                                 : "expected an option (-name value), found '%.*s'",
                                 (int)opt.len, opt.s);
            break;
        }
        got = gs_next(&p, &line, &ls, &val);
        if (got < 0) {
            rc = set_input_error(err, path, val.line, val.col,
                                 "unterminated \"quoted value\"");
            break;
        }
        if (!got || (val.s[0] == '-' && !isdigit((unsigned char)val.s[1]) &&
                     val.s[-1] != '"')) {
            rc = set_input_error(err, path, opt.line, opt.col, "option '%.*s' has "
                                 "no value", (int)opt.len, opt.s);
            break;
        }
        char value[512];
        if (val.len >= sizeof value) {
            rc = set_input_error(err, path, val.line, val.col, "value longer "
                                 "than %zu characters", sizeof value - 1);
            break;
        }
        snprintf(value, sizeof value, "%.*s", (int)val.len, val.s);
        const gs_row_t *r = gs_find(opt.s + 1, opt.len - 1);
        if (r)
            rc = r->apply(&g, r, &opt, value, &val);
        else
            gs_note(&g, &opt, &opt, "ignored: an option simtlab does not know "
                                    "(docs/configs.md lists the ones it maps)");
    }
    if (rc == SIMT_OK)
        rc = gs_finish(&g);
    if (rc == SIMT_OK)
        *cfg = next;
    return rc;
}
