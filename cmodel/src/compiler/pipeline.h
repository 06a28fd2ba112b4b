/* pipeline.h: one kernel from parsed PTX through the compiler passes to
 * the code that runs and the resources it takes.
 *
 * The passes run in the fixed order of the list in pipeline.c (structural
 * ones first, register allocation last).  Which of them run is decided by
 * the configuration (each pass's `selected`) or, for `simt opt`, by an
 * explicit comma-separated list of names, run in the order given.
 * Register allocation always ends a configuration-driven pipeline, since
 * every launch needs its register count.
 *
 * The result is a compiler_unit_t (compiler/pass.h): unit->mod is the code
 * to execute (the parsed module itself when no pass edited it), unit->res
 * the resources.  The caller caches it per (module, kernel, configuration):
 * gpu.c keeps one per kernel of a module, and a module belongs to one GPU
 * whose configuration does not change. */
#ifndef COMPILER_PIPELINE_H
#define COMPILER_PIPELINE_H

#include <stdio.h>

#include "compiler/pass.h"

/* Runs the passes over `kernel` of m.  `passes` is NULL (the configuration
 * selects) or a list such as "unique_exit,regalloc".  SIMT_OK, or
 * SIMT_EINPUT with err filled (an unknown pass name, unsupported code,
 * out of memory); on error *unit holds nothing to free. */
int compiler_compile(const ptx_module_t *m, uint32_t kernel,
                     const simt_config_t *cfg, const char *passes,
                     compiler_unit_t *unit, simt_error_t *err);

/* Scratchpad Sharing's passes (ssp_layout, ssp_split, relssp, and
 * unique_exit when only ssp_relssp selects it) serve launches that pair
 * blocks; a launch that does not pair runs the kernel without them
 * (gpu/compiled.h).  compiler_selects_ssp: whether cfg selects any of them
 * (ssp_layout != decl or ssp_relssp != none).  compiler_config_without_ssp:
 * *out = cfg with ssp_layout = decl and ssp_relssp = none, the
 * configuration whose pipeline is the one sharing-off runs, byte for byte
 * (every other key, the register cap and unique_exit's own key included,
 * is kept). */
int compiler_selects_ssp(const simt_config_t *cfg);
void compiler_config_without_ssp(const simt_config_t *cfg, simt_config_t *out);

/* Gives the edited module to the caller (NULL when no pass edited it):
 * after this, compiler_unit_free leaves it alone. */
ptx_module_t *compiler_take_module(compiler_unit_t *unit);

void compiler_unit_free(compiler_unit_t *unit);

/* Prints every pass's name and summary, one per line. */
void compiler_list_passes(FILE *out);

#endif
