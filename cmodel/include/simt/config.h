/* config.h: GPU configuration as `key = value` lines (configs/NAME.cfg),
 * overridable with simt_config_set("key=value").  Unknown keys, bad values
 * and impossible combinations are SIMT_EINPUT errors naming the key and
 * where it was set (file:line:col, or --set).  Input rules: a
 * configuration file is a regular file of at most SIMT_CONFIG_MAX_BYTES
 * whose lines end in LF or CR LF; any other control byte (tab aside) is
 * an error; integers are decimal (`010` is ten; `0x10` is an error).
 *
 * A line `include = PATH` reads another configuration file at that point,
 * PATH relative to the including file's folder: a variant is its preset
 * plus its own lines (configs/004/lcs.cfg includes ../fermi-cta.cfg), and
 * a later line overrides an earlier one, included or not.  Includes nest
 * at most SIMT_CONFIG_MAX_FILES - 1 deep (a cycle is that error). */
#ifndef SIMT_CONFIG_H
#define SIMT_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum simt_cfg_key {
#define X(id, name, kind, def, lo, hi, doc) SIMT_CFG_##id,
#include "simt/config_keys.def"
#undef X
    SIMT_CFG_NKEYS
} simt_cfg_key_t;

/* Bytes of text all text keys' assignments of one configuration hold. */
#define SIMT_CONFIG_TEXT_BYTES 2048

/* Most configuration files one configuration reads (itself and what it
 * includes). */
#define SIMT_CONFIG_MAX_FILES 8

typedef struct simt_config {
    int64_t value[SIMT_CFG_NKEYS];
    /* where each value came from: 0 default, 1 file, 2 --set; for a file,
     * the line and column of its key (validation errors name them) */
    uint8_t origin[SIMT_CFG_NKEYS];
    uint32_t line[SIMT_CFG_NKEYS];
    uint16_t col[SIMT_CFG_NKEYS];
    uint8_t file[SIMT_CFG_NKEYS];  /* for a file: its index in files[] */
    char files[SIMT_CONFIG_MAX_FILES][256]; /* every file read, in order */
    unsigned nfiles;
    char preset[256]; /* the file loaded, or "" for defaults */
    /* the values of text keys (CFG_TEXT in config_keys.def): value[k] is 0
     * for the empty string, else 1 + the offset of k's NUL-terminated text
     * here.  An assignment appends; ntext bytes are in use. */
    char text[SIMT_CONFIG_TEXT_BYTES];
    uint32_t ntext;
} simt_config_t;

struct simt_error;

#define SIMT_CONFIG_MAX_BYTES (1u << 20)

void simt_config_defaults(simt_config_t *cfg);
int simt_config_load_file(simt_config_t *cfg, const char *path,
                          struct simt_error *err);
/* The same from text[0..size) (need not end in NUL), `path` naming it in
 * messages; the file rules above apply except that it is a file. */
int simt_config_load_text(simt_config_t *cfg, const char *path,
                          const char *text, size_t size, struct simt_error *err);
/* "key=value"; `where` names the origin in messages (e.g. "--set"). */
int simt_config_set(simt_config_t *cfg, const char *assignment,
                    const char *where, struct simt_error *err);
/* Cross-key checks (impossible combinations). */
int simt_config_validate(const simt_config_t *cfg, struct simt_error *err);
static inline int64_t simt_config_get(const simt_config_t *cfg,
                                      simt_cfg_key_t k)
{
    return cfg->value[k];
}
const char *simt_config_key_name(simt_cfg_key_t k);
/* The name of an enumerated key's value (e.g. "gto"), a text key's text
 * (e.g. cke_quota's, "" when unset), or NULL for keys that hold plain
 * integers. */
const char *simt_config_value_name(const simt_config_t *cfg, simt_cfg_key_t k);
/* Print the resolved configuration as `key = value` lines. */
void simt_config_print(const simt_config_t *cfg, FILE *out,
                       const char *line_prefix);

#ifdef __cplusplus
}
#endif

#endif
