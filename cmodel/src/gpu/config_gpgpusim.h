/* config_gpgpusim.h: GPGPU-Sim's gpgpusim.config files, read as they are.
 *
 * A GPGPU-Sim configuration is a list of `-option value` pairs separated
 * by white space, `#` starting a comment and "double quotes" around a
 * value that holds spaces or line breaks (gpgpu_dram_timing_opt).  Every
 * option is one row of config_gpgpusim.c's table: it either sets simtlab
 * keys (directly, or through a parser of its colon/comma string: caches,
 * clock domains, DRAM timing) or is ignored with the reason, written to
 * `notes` as one line "file:line:col: note: -option ignored: why".  Parts
 * of a mapped option that simtlab does not model get such a line too, and
 * so does an option the table does not know.  A malformed value is an
 * input error at its file:line:col; the configuration is then unchanged.
 *
 * Invariant: loading never leaves a key half-set; the keys it sets are
 * marked as coming from the file (origin 1). */
#ifndef GPU_CONFIG_GPGPUSIM_H
#define GPU_CONFIG_GPGPUSIM_H

#include <stdio.h>

#include "simt/config.h"

struct simt_error;

/* 1 when the text's first option-or-assignment starts with '-' (GPGPU-Sim
 * syntax), 0 for simtlab's `key = value`. */
int config_gpgpusim_detect(const char *text);

/* Applies the GPGPU-Sim configuration `text` (read from `path`) to cfg;
 * `notes` receives the ignored options (NULL: not written). */
int config_gpgpusim_apply(simt_config_t *cfg, const char *path, const char *text,
                          FILE *notes, struct simt_error *err);

/* config.c's one assignment, as if `key = value` stood in `file` at `line`
 * with the value at `value_col` (errors point there). */
int config_assign_from_file(simt_config_t *cfg, const char *file, unsigned line,
                            unsigned value_col, const char *key,
                            const char *value, struct simt_error *err);

#endif
