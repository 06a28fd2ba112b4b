/* cli.h: the simt command-line tool's subcommands.
 *
 * Exit statuses: 0 success; 1 a workload's result check failed; 2 bad input
 * (command line, configuration, PTX); 3 a fault inside a simulated kernel;
 * 4 co-simulation: an RTL unit disagreed with its C twin; 5 a run limit
 * (gpgpu_max_cycle, gpgpu_max_insn, --timeout) stopped the run: partial
 * statistics were written. */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include "simt/workload.h"

extern const simt_workload_t *const simt_workloads[]; /* generated */

int cli_run(int argc, char **argv);
int cli_info(int argc, char **argv);
int cli_list(int argc, char **argv);
int cli_opt(int argc, char **argv);
int cli_config(int argc, char **argv);
/* Execs the study runner, scripts/study.py (returns only on failure). */
int cli_study(int argc, char **argv);

/* Repository root (where tests/ and workloads/ live): $SIMT_ROOT, else the
 * nearest directory above the executable holding cmodel/include/simt/simt.h,
 * else ".". */
const char *cli_root(char *buf, size_t size);

/* The ptxas -v register count of `kernel` from the workload `meta` file
 * beside the PTX file (kernels = a, b / ptxas_regs = 12, 20), or -1. */
long cli_meta_ptxas_regs(const char *ptx_path, const char *kernel);
/* Gives every kernel the meta beside ptx_path lists its ptxas -v count
 * (simt_module_set_ptxas_regs).  No meta file is not an error. */
int cli_meta_apply(simt_module_t *mod, const char *ptx_path,
                   simt_error_t *err);

/* Writes the JSON statistics file atomically (temp file + rename): the
 * workload's result and the GPU's statistics, kernel and SM records and
 * configuration. */
int cli_write_json(const char *path, const char *workload,
                   const simt_wl_result_t *res, const char *stopped_by,
                   const simt_gpu_t *gpu, simt_error_t *err);

/* Parses a decimal number of seconds ("2", "0.5"; no sign, exponent, hex,
 * inf or nan) in (0, 1e9] into *out; 0 when `s` is not one. */
int cli_parse_seconds(const char *s, double *out);

#endif
