/* run.c: `simt run <workload>`. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "cli/cli.h"
#include "cli/cosim.h"
#include "cli/cta_trace.h"
#include "cli/progress.h"
#include "cli/summary.h"

enum { COSIM_HISTORY = 12, COSIM_WINDOW = 200 };

static const char run_usage[] =
    "usage: simt run <workload>|<A>+<B> [--config FILE] [--set key=value]... "
    "[--functional] [--param key=value]... [--json FILE] [--ptx FILE]\n"
    "       [--stats all] [--show-config] [--config-out FILE] [--quiet]\n"
    "       [--timeout SECONDS] [--threads N] [--check uninit] [--trace-ctas FILE]\n"
    "       [--cosim UNITS [--cosim-rtl-drives] [--cosim-dir DIR] [--cosim-seed N]]\n";

static void run_help(void)
{
    printf("%s\n"
           "Runs a workload (simt list shows them), checks its result against the CPU\n"
           "reference and prints statistics.  A+B runs two workloads at once on one GPU,\n"
           "each on streams of its own, each checked (a mix: docs/workloads.md; with\n"
           "gpgpu_cta_policy = cke or mcke and cke_quota, docs/cta-scheduling.md).\n"
           "\n"
           "  --config FILE        a configuration (configs/*.cfg; docs/configs.md)\n"
           "  --set key=value      override one key (after --config, in order)\n"
           "  --functional         no timing model (same as --set functional=1)\n"
           "  --param key=value    a knob of the workload (size=small|paper, n=...)\n"
           "  --ptx FILE           the workload's kernels from FILE (e.g. from simt opt)\n"
           "  --json FILE          the statistics as JSON as well (replaces only a\n"
           "                       regular file; written whole or not at all)\n"
           "  --stats all          every statistic (default: a short summary)\n"
           "  --show-config        print the resolved configuration\n"
           "  --config-out FILE    write it as a file --config reads back\n"
           "  --quiet              no progress line on a terminal, no closing hint\n"
           "  --timeout SECONDS    stop the simulation after this much wall-clock time\n"
           "                       (run limits: also gpgpu_max_cycle, gpgpu_max_insn)\n"
           "  --threads N          step the SMs of each cycle on N host threads (default\n"
           "                       1; 1..64); the results are bit-identical for every N\n"
           "                       (docs/timing-model.md); not with --cosim\n"
           "  --check uninit       report a read of a register no path has written\n"
           "  --trace-ctas FILE    every SM's resident CTA count over time, as TSV\n"
           "                       (cycle, sm, ctas; scripts/plot_cta_trace.py)\n"
           "  --cosim UNITS        lockstep co-simulation of RTL units (docs/cosim.md)\n"
           "\n"
           "exit status: 0 ok; 1 the result check failed; 2 bad input (command line,\n"
           "configuration, PTX, workload parameters) or output that cannot be written;\n"
           "3 a fault inside a simulated kernel (or --check uninit found a read);\n"
           "4 co-simulation mismatch; 5 a run limit stopped the run (gpgpu_max_cycle,\n"
           "gpgpu_max_insn, --timeout): the report names it, the kernel and where every\n"
           "warp is, and the statistics printed (and --json, with \"partial\": true)\n"
           "cover the run up to the stop (docs/limits.md)\n", run_usage);
}

static int usage_error(const char *fmt, const char *arg)
{
    char shown[256];
    fprintf(stderr, "simt run: error: ");
    fprintf(stderr, fmt, printable(arg, (size_t)-1, shown, sizeof shown));
    fprintf(stderr, "\n%s", run_usage);
    return 2;
}

static const simt_workload_t *find_workload(const char *name)
{
    for (int i = 0; simt_workloads[i]; i++)
        if (!strcmp(simt_workloads[i]->name, name))
            return simt_workloads[i];
    return NULL;
}

/* A new GPU for a run: the progress line, the timeout and the CTA trace
 * (to trace_path, or none) set up; *gpu_out is the GPU, to destroy (also on
 * an error after it was made). */
static int open_gpu(const simt_config_t *cfg, cli_progress_t *progress,
                    double timeout, unsigned threads, cli_cta_trace_t *trace, const char *trace_path,
                    simt_gpu_t **gpu_out, simt_error_t *err)
{
    *gpu_out = NULL;
    simt_gpu_t *gpu = simt_gpu_create(cfg, err);
    if (!gpu)
        return err->status;
    *gpu_out = gpu;
    if (trace && trace_path && cli_cta_trace_open(trace, trace_path, gpu, err) != SIMT_OK)
        return err->status;
    if (progress)
        cli_progress_start(progress, gpu, stderr);
    if (timeout > 0)
        simt_gpu_set_timeout(gpu, timeout);
    if (simt_gpu_set_threads(gpu, threads ? threads : 1) != SIMT_OK)
        return set_error(err, SIMT_EINPUT, "--threads %u: at most %d", threads,
                         SIMT_MAX_THREADS);
    return SIMT_OK;
}

/* One run of workload `wl` on a new GPU (with `hooks` installed, or none),
 * its kernels loaded from `ptx` (NULL: the workload's own kernel.ptx) and
 * their ptxas -v figures from the workload's meta; *gpu_out is the GPU, to
 * destroy.  The workload's status. */
static int run_once(const simt_config_t *cfg, const simt_workload_t *wl,
                    const char *ptx, const simt_wl_params_t *params,
                    const unit_hooks_t *hooks, cli_progress_t *progress,
                    double timeout, unsigned threads, cli_cta_trace_t *trace,
                    const char *trace_path, simt_gpu_t **gpu_out, simt_wl_result_t *res,
                    simt_error_t *err)
{
    int rc = open_gpu(cfg, progress, timeout, threads, trace, trace_path, gpu_out, err);
    if (rc != SIMT_OK)
        return rc;
    simt_gpu_t *gpu = *gpu_out;
    simt_gpu_set_unit_hooks(gpu, hooks);
    char root[4096], path[8192];
    snprintf(path, sizeof path, "%s/%s", cli_root(root, sizeof root), wl->ptx_path);
    simt_module_t *mod;
    rc = simt_module_load_file(gpu, ptx ? ptx : path, &mod, err);
    if (rc == SIMT_OK)
        rc = cli_meta_apply(mod, path, err);
    if (rc == SIMT_OK)
        rc = wl->run(gpu, mod, params, res, err);
    return rc;
}

enum { MIX_MAX = 2 };

/* A mix A+B: both workloads' kernels loaded on one new GPU, their drivers
 * run together (simt_mix_run); res gets both details and passes when both
 * pass.  The first failing status in member order. */
static int run_mix(const simt_config_t *cfg, const simt_workload_t *const *wls,
                   unsigned n, const simt_wl_params_t *params,
                   cli_progress_t *progress, double timeout, unsigned threads,
                   cli_cta_trace_t *trace, const char *trace_path,
                   simt_gpu_t **gpu_out, simt_wl_result_t *res, simt_error_t *err)
{
    int orc = open_gpu(cfg, progress, timeout, threads, trace, trace_path, gpu_out, err);
    if (orc != SIMT_OK)
        return orc;
    simt_gpu_t *gpu = *gpu_out;
    char root[4096], path[8192];
    simt_mix_member_t m[MIX_MAX];
    simt_wl_result_t r[MIX_MAX];
    simt_error_t e[MIX_MAX];
    memset(r, 0, sizeof r);
    memset(e, 0, sizeof e);
    for (unsigned i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", cli_root(root, sizeof root),
                 wls[i]->ptx_path);
        m[i] = (simt_mix_member_t){ .run = wls[i]->run, .params = params,
                                    .res = &r[i], .err = &e[i] };
        int rc = simt_module_load_file(gpu, path, &m[i].mod, err);
        if (rc == SIMT_OK)
            rc = cli_meta_apply(m[i].mod, path, err);
        if (rc != SIMT_OK)
            return rc;
    }
    int rc = simt_mix_run(gpu, m, n, err);
    if (rc != SIMT_OK)
        return rc;
    res->passed = 1;
    size_t at = 0;
    for (unsigned i = 0; i < n; i++) {
        if (m[i].rc != SIMT_OK && rc == SIMT_OK) {
            rc = m[i].rc;
            *err = e[i];
        }
        res->passed &= r[i].passed;
        int w = snprintf(res->detail + at, sizeof res->detail - at, "%s%s %s: %s",
                         i ? "; " : "", wls[i]->name, r[i].passed ? "PASS" : "FAIL",
                         r[i].detail);
        at = w < 0 ? at : at + (size_t)w;
        if (at >= sizeof res->detail)
            at = sizeof res->detail - 1;
    }
    return rc;
}

/* The resolved configuration as a preset file that --config reads back,
 * written atomically (temp file + rename). */
static int write_config(const char *path, const simt_config_t *cfg, simt_error_t *err)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return set_error(err, SIMT_EINPUT, "%s: error: cannot write: %s", path,
                         strerror(errno));
    fprintf(f, "# the resolved configuration of a simt run (simt run --config this file)\n");
    simt_config_print(cfg, f, "");
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        remove(tmp);
        return set_error(err, SIMT_EINPUT, "%s: error: write failed", path);
    }
    return SIMT_OK;
}

/* After a mismatch: the same run again, tracing the mismatching instance
 * over the window before it, and the files written. */
static void cosim_replay(const simt_config_t *cfg, const simt_workload_t *wl,
                         const char *ptx, const simt_wl_params_t *params, simt_cosim_opts_t o,
                         const simt_cosim_result_t *first, const char *dir)
{
    char abs[PATH_MAX];
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", dir);
    for (char *p = parent + 1; *p; p++) { /* mkdir -p */
        if (*p != '/')
            continue;
        *p = '\0';
        mkdir(parent, 0777);
        *p = '/';
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "cosim: error: cannot create %s: %s\n", dir, strerror(errno));
        return;
    }
    if (!realpath(dir, abs)) {
        fprintf(stderr, "cosim: error: %s: %s\n", dir, strerror(errno));
        return;
    }
    o.replay = 1;
    o.out_dir = abs;
    o.window = COSIM_WINDOW;
    o.replay_unit = first->unit;
    o.instance = first->instance;
    o.cycle = first->cycle;
    cli_cosim_t c;
    simt_error_t err = { 0 };
    if (cli_cosim_open(&c, &o, &err) != SIMT_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    simt_gpu_t *gpu;
    simt_wl_result_t res = { 0 };
    run_once(cfg, wl, ptx, params, &c.hooks, NULL, 0, 1, NULL, NULL, &gpu, &res, &err);
    simt_gpu_destroy(gpu);
    simt_cosim_result_t r;
    cli_cosim_result(&c, &r);
    cli_cosim_close(&c);
    if (!r.mismatches || r.cycle != first->cycle || r.instance != first->instance ||
        !r.files[0]) {
        fprintf(stderr, "cosim: the replay did not reach the same mismatch: no waveform "
                        "window written\n");
        return;
    }
    fprintf(stderr, "cosim: waveform window, cycles %llu..%llu of %s instance %u:\n%s"
                    "cosim: view it with: gtkwave %s/side_by_side.vcd %s/side_by_side.gtkw\n",
            (unsigned long long)(first->cycle > COSIM_WINDOW ? first->cycle - COSIM_WINDOW : 0),
            (unsigned long long)first->cycle, first->unit, first->instance, r.files, abs, abs);
}

int cli_run(int argc, char **argv)
{
    const char *name = NULL, *json = NULL, *ptx = NULL;
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    simt_wl_param_log_t plog = { 0 };
    simt_wl_params_t params = { .log = &plog };
    simt_error_t err = { 0 };
    const char *sets[64];
    int nsets = 0;
    const char *config_file = NULL;
    int functional = 0;
    double timeout = 0;
    unsigned threads = 1;
    int check_uninit = 0;
    simt_cosim_opts_t co = { .history = COSIM_HISTORY, .seed = 1 };
    const char *cosim_dir = NULL;
    int stats_all = 0, show_config = 0, quiet = 0;
    const char *config_out = NULL, *trace_ctas = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has_next = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            run_help();
            return 0;
        } else if (!strcmp(a, "--config")) {
            if (!has_next)
                return usage_error("%s needs a file", a);
            config_file = argv[++i];
        } else if (!strcmp(a, "--set")) {
            if (!has_next)
                return usage_error("%s needs key=value", a);
            if (nsets == 64)
                return usage_error("too many %s options", a);
            sets[nsets++] = argv[++i];
        } else if (!strcmp(a, "--ptx")) {
            if (!has_next)
                return usage_error("%s needs a PTX file (e.g. from simt opt)", a);
            ptx = argv[++i];
        } else if (!strcmp(a, "--timeout")) {
            if (!has_next)
                return usage_error("%s needs a number of seconds", a);
            if (!cli_parse_seconds(argv[++i], &timeout))
                return usage_error("--timeout '%s' is not a number of seconds "
                                   "(decimal, > 0, at most 1e9)", argv[i]);
        } else if (!strcmp(a, "--threads")) {
            if (!has_next)
                return usage_error("%s needs a number of host threads", a);
            const char *d = argv[++i];
            unsigned long v = 0;
            while (*d >= '0' && *d <= '9' && v <= SIMT_MAX_THREADS)
                v = v * 10 + (unsigned long)(*d++ - '0');
            if (*d || !argv[i][0] || v < 1 || v > SIMT_MAX_THREADS)
                return usage_error("--threads '%s' is not a number of host threads "
                                   "(1.." SIMT_MAX_THREADS_STR ")", argv[i]);
            threads = (unsigned)v;
        } else if (!strcmp(a, "--check")) {
            if (!has_next)
                return usage_error("%s needs a check (uninit)", a);
            if (strcmp(argv[++i], "uninit"))
                return usage_error("--check '%s' is not a known check (uninit)", argv[i]);
            check_uninit = 1;
        } else if (!strcmp(a, "--functional")) {
            functional = 1;
        } else if (!strcmp(a, "--stats")) {
            if (!has_next || (strcmp(argv[i + 1], "all") && strcmp(argv[i + 1], "summary")))
                return usage_error("%s needs 'all' (every statistic) or 'summary'", a);
            stats_all = !strcmp(argv[++i], "all");
        } else if (!strcmp(a, "--show-config")) {
            show_config = 1;
        } else if (!strcmp(a, "--config-out")) {
            if (!has_next)
                return usage_error("%s needs a file", a);
            config_out = argv[++i];
        } else if (!strcmp(a, "--quiet")) {
            quiet = 1;
        } else if (!strcmp(a, "--trace-ctas")) {
            if (!has_next)
                return usage_error("%s needs a file", a);
            trace_ctas = argv[++i];
        } else if (!strcmp(a, "--json")) {
            if (!has_next)
                return usage_error("%s needs a file", a);
            json = argv[++i];
        } else if (!strcmp(a, "--cosim")) {
            if (!has_next)
                return usage_error("%s needs a unit list (all, warp_arbiter)", a);
            co.units = argv[++i];
        } else if (!strcmp(a, "--cosim-rtl-drives")) {
            co.rtl_drives = 1;
        } else if (!strcmp(a, "--cosim-dir")) {
            if (!has_next)
                return usage_error("%s needs a folder", a);
            cosim_dir = argv[++i];
        } else if (!strcmp(a, "--cosim-seed")) {
            char *end;
            if (!has_next)
                return usage_error("%s needs a number", a);
            const char *d = argv[++i];
            while (*d >= '0' && *d <= '9')
                d++;
            unsigned long v = strtoul(argv[i], &end, 10); /* decimal only */
            if (*d || *end || !argv[i][0] || v > 0x7fffffffUL)
                return usage_error("--cosim-seed '%s' is not a number in 0..2^31-1", argv[i]);
            co.seed = (uint32_t)v;
        } else if (!strcmp(a, "--param")) {
            if (!has_next)
                return usage_error("%s needs key=value", a);
            char *kv = argv[++i], *eq = strchr(kv, '=');
            if (!eq || eq == kv)
                return usage_error("--param '%s' is not key=value", kv);
            if (params.count == 32)
                return usage_error("too many %s options", a);
            *eq = '\0';
            params.key[params.count] = kv;
            params.value[params.count++] = eq + 1;
        } else if (a[0] == '-') {
            return usage_error("unknown option '%s'", a);
        } else if (!name) {
            name = a;
        } else {
            return usage_error("unexpected argument '%s'", a);
        }
    }
    if (!name)
        return usage_error("%s", "missing workload name (simt list shows them)");
    if (!co.units && (co.rtl_drives || cosim_dir))
        return usage_error("%s", "--cosim-rtl-drives and --cosim-dir need --cosim");
    if (co.units && threads > 1)
        return usage_error("%s", "--cosim steps the SMs on one host thread: "
                                 "--threads must be 1");
    /* A+B: a mix of two workloads */
    const simt_workload_t *mix[MIX_MAX];
    unsigned nmix = 0;
    char names[256];
    if (strchr(name, '+')) {
        if (strlen(name) >= sizeof names)
            return usage_error("mix '%s' is too long", name);
        strcpy(names, name);
        for (char *tok = names, *plus; tok; tok = plus) {
            plus = strchr(tok, '+');
            if (plus)
                *plus++ = '\0';
            if (nmix == MIX_MAX)
                return usage_error("mix '%s': two workloads at most (A+B)", name);
            mix[nmix++] = find_workload(tok);
            if (!*tok || !mix[nmix - 1])
                return usage_error("mix '%s' names an unknown workload (simt list "
                                   "shows them; a mix is A+B)", name);
        }
        if (ptx || co.units)
            return usage_error("%s", "--ptx and --cosim run one workload, not a mix");
    }
    const simt_workload_t *wl = nmix ? mix[0] : find_workload(name);
    if (!wl) {
        char shown[256];
        fprintf(stderr, "simt run: error: unknown workload '%s'; known:",
                printable(name, (size_t)-1, shown, sizeof shown));
        for (int i = 0; simt_workloads[i]; i++)
            fprintf(stderr, " %s", simt_workloads[i]->name);
        fprintf(stderr, "\n");
        return 2;
    }
    const char *wl_name = nmix ? name : wl->name;
    if (config_file && simt_config_load_file(&cfg, config_file, &err) != SIMT_OK)
        goto fail;
    for (int i = 0; i < nsets; i++)
        if (simt_config_set(&cfg, sets[i], "--set", &err) != SIMT_OK)
            goto fail;
    if (functional && simt_config_set(&cfg, "functional=1", "--functional", &err))
        goto fail;
    if (check_uninit && simt_config_set(&cfg, "check_uninit=1", "--check", &err))
        goto fail;
    if (co.units && simt_config_get(&cfg, SIMT_CFG_FUNCTIONAL)) {
        fprintf(stderr, "simt run: error: --cosim needs the timing model: give a preset "
                        "(e.g. --config configs/fermi-gtx480.cfg) or --set functional=0\n");
        return 2;
    }
    cli_cosim_t cosim = { 0 };
    if (co.units && cli_cosim_open(&cosim, &co, &err) != SIMT_OK)
        goto fail;
    simt_gpu_t *gpu;
    simt_wl_result_t res = { 0 };
    cli_progress_t progress;
    int show_progress = !quiet && isatty(STDERR_FILENO);
    cli_cta_trace_t trace = { 0 };
    int rc = nmix ? run_mix(&cfg, mix, nmix, &params,
                            show_progress ? &progress : NULL, timeout, threads, &trace,
                            trace_ctas, &gpu, &res, &err)
                  : run_once(&cfg, wl, ptx, &params, co.units ? &cosim.hooks : NULL,
                             show_progress ? &progress : NULL, timeout, threads, &trace,
                             trace_ctas, &gpu, &res, &err);
    /* the trace of a run that ran (to the end, or to a limit) */
    int keep = rc == SIMT_OK || rc == SIMT_ELIMIT;
    if (cli_cta_trace_close(&trace, keep, keep ? &err : NULL) != SIMT_OK)
        rc = SIMT_EINPUT;
    if (show_progress)
        cli_progress_end(&progress);
    simt_cosim_result_t cr = { 0 };
    if (co.units) {
        cli_cosim_result(&cosim, &cr);
        cli_cosim_close(&cosim);
    }
    if (co.units && cr.error) {
        simt_gpu_destroy(gpu);
        return 2; /* the plugin said why */
    }
    if (co.units && cr.mismatches) { /* at a hook, or at the last edge */
        simt_gpu_destroy(gpu);
        fprintf(stderr, "cosim: %llu unit-cycles compared, %llu mismatches\n",
                (unsigned long long)cr.unit_cycles, (unsigned long long)cr.mismatches);
        char dflt[256];
        snprintf(dflt, sizeof dflt, "build/cosim-%s", wl->name); /* git ignores build/ */
        cosim_replay(&cfg, wl, ptx, &params, co, &cr, cosim_dir ? cosim_dir : dflt);
        if (rc != SIMT_ECOSIM)
            set_error(&err, SIMT_ECOSIM, "co-simulation: a unit's RTL disagreed with its C "
                                          "twin at the end of the run (report above)");
        goto fail;
    }
    /* a --param the workload never read is a mistake (a misspelt knob) */
    for (int i = 0; rc == SIMT_OK && i < params.count; i++)
        if (!(plog.read >> i & 1)) {
            char shown[160], known[512] = "";
            for (int j = 0, n = 0; j < plog.nasked && n < (int)sizeof known - 40; j++)
                n += snprintf(known + n, sizeof known - (size_t)n, "%s%s", j ? ", " : "",
                              plog.asked[j]);
            set_error(&err, SIMT_EINPUT, "--param %s: error: workload '%s' has no "
                      "such knob (it reads: %s)",
                      printable(params.key[i], 100, shown, sizeof shown), wl_name,
                      plog.nasked ? known : "none");
            rc = SIMT_EINPUT;
        }
    /* a run limit: the report, then the statistics so far, marked partial */
    const char *stopped = rc == SIMT_OK || rc == SIMT_ELIMIT ? simt_gpu_stopped_by(gpu) : NULL;
    if (rc != SIMT_OK && !stopped) {
        simt_gpu_destroy(gpu);
        goto fail;
    }
    const simt_stats_t *st = simt_gpu_stats(gpu);
    if (stopped) {
        if (err.msg[0]) /* a driver that went on after the stop kept it */
            fprintf(stderr, "%s\n", err.msg);
        printf("workload %s: STOPPED (%s reached: no result check; partial "
               "statistics)\n", wl_name, stopped);
    } else {
        printf("workload %s: %s (%s)\n", wl_name, res.passed ? "PASS" : "FAIL",
               res.detail);
    }
    const simt_kernel_stats_t *ks;
    size_t nks = simt_gpu_kernels(gpu, &ks);
    if (stats_all || stopped) { /* a stopped run: every statistic, marked partial */
        if (stopped)
            printf("\n---- statistics (partial: stopped by %s) ----\n", stopped);
        else
            printf("\n---- statistics ----\n");
        simt_stats_print(st, stdout);
        printf("\n---- kernels ----\n");
        simt_kernel_stats_print(ks, nks, stdout);
        const simt_sm_stats_t *sms;
        size_t nsms = simt_gpu_sms(gpu, &sms);
        if (nsms) {
            printf("\n---- SMs ----\n");
            simt_sm_stats_print(sms, nsms, stdout);
        }
    } else {
        cli_summary_print(stdout, st, &cfg, ks, nks);
    }
    if (stats_all || show_config) {
        printf("\n---- configuration ----\n");
        simt_config_print(&cfg, stdout, "");
    }
    if (config_out && write_config(config_out, &cfg, &err) != SIMT_OK) {
        simt_gpu_destroy(gpu);
        goto fail;
    }
    if (!stats_all && !quiet)
        printf("%-14s every statistic: --stats all; the configuration: --show-config\n",
               "more");
    if (json && cli_write_json(json, wl_name, &res, stopped, gpu, &err) != SIMT_OK) {
        simt_gpu_destroy(gpu);
        goto fail;
    }
    simt_gpu_destroy(gpu);
    if (stopped)
        return SIMT_ELIMIT;
    if (co.units)
        printf("%scosim: %llu unit-cycles compared, %llu mismatches%s\n",
               stats_all ? "\n" : "", (unsigned long long)cr.unit_cycles, (unsigned long long)cr.mismatches,
               co.rtl_drives ? " (the RTL drove the model)" : "");
    return res.passed ? 0 : 1;
fail:
    fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "simt run: error");
    return err.status ? err.status : 2;
}
