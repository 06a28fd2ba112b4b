/* fuzz_cli.c: libFuzzer target for the configuration reader and the simt
 * command line (scripts/fuzz.sh).
 *
 * The first input byte picks what the rest is:
 *   even: a configuration file: simt_config_load_text, then each line
 *         again as a --set override, then simt_config_validate.  Either it
 *         is accepted, or it fails with SIMT_EINPUT and a message that
 *         holds no raw control byte.
 *   odd:  a command line: the rest split at NUL bytes and newlines into at
 *         most 24 arguments, the first naming the subcommand (run, info,
 *         opt, list; anything else is skipped).  Arguments that would
 *         reach outside the fuzzer (--json FILE, -o FILE, --cosim...) are
 *         pointed at a scratch folder or dropped, and a run is bounded by
 *         gpgpu_max_insn and --timeout appended last (the last value wins).
 *         The statuses must be the documented ones (0..5).
 * A crash, a sanitizer report, a leak or an abort() below is a bug.
 *
 * Built and run by scripts/fuzz.sh with the whole model, the CLI (less
 * main.c) and the workload drivers; `build/fuzz/fuzz_cli FILE` replays one
 * input. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "simt/simt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_cli: %s: %s\n", what, detail);
    abort();
}

static void check_message(const char *msg)
{
    for (const char *p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 && *p != '\n')
            fail("raw control byte in a message", msg);
}

static void fuzz_config(const uint8_t *data, size_t size)
{
    simt_config_t cfg;
    simt_error_t err = { 0 };
    simt_config_defaults(&cfg);
    int rc = simt_config_load_text(&cfg, "fuzz.cfg", (const char *)data, size, &err);
    if (rc != SIMT_OK && rc != SIMT_EINPUT)
        fail("unexpected status", err.msg);
    check_message(err.msg);
    if (rc == SIMT_OK) {
        rc = simt_config_validate(&cfg, &err);
        check_message(err.msg);
    }
    /* every line again as an override */
    char line[256];
    size_t at = 0;
    while (at < size) {
        size_t n = 0;
        while (at < size && data[at] != '\n' && data[at] != '\0' && n < sizeof line - 1)
            line[n++] = (char)data[at++];
        at++;
        line[n] = '\0';
        simt_error_t e2 = { 0 };
        if (simt_config_set(&cfg, line, "--set", &e2) != SIMT_OK)
            check_message(e2.msg);
    }
    simt_error_t e3 = { 0 };
    simt_config_validate(&cfg, &e3);
    check_message(e3.msg);
}

static void fuzz_cmdline(const uint8_t *data, size_t size)
{
    enum { MAXARGS = 24 };
    char *copy = malloc(size + 1);
    if (!copy)
        return;
    memcpy(copy, data, size);
    copy[size] = '\0';
    char *argv[MAXARGS + 8];
    int argc = 0;
    char *start = copy;
    for (size_t i = 0; i <= size && argc < MAXARGS; i++)
        if (i == size || copy[i] == '\0' || copy[i] == '\n') {
            copy[i] = '\0';
            argv[argc++] = start;
            start = copy + i + 1;
        }
    /* keep the run inside the fuzzer: outputs to scratch, no plugin */
    static char scratch_json[] = "build/fuzz/scratch/out.json";
    static char scratch_ptx[] = "build/fuzz/scratch/out.ptx";
    static char functional[] = "--functional";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc)
            argv[++i] = scratch_json;
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            argv[++i] = scratch_ptx;
        else if (!strncmp(argv[i], "--cosim", 7))
            argv[i] = functional;
    }
    static char set[] = "--set", cap[] = "gpgpu_max_insn=2000000";
    static char to[] = "--timeout", secs[] = "2";
    int rc = -1;
    if (argc && !strcmp(argv[0], "run")) {
        argv[argc++] = set;
        argv[argc++] = cap;
        argv[argc++] = to;
        argv[argc++] = secs;
        rc = cli_run(argc - 1, argv + 1);
    } else if (argc && !strcmp(argv[0], "info")) {
        rc = cli_info(argc - 1, argv + 1);
    } else if (argc && !strcmp(argv[0], "opt")) {
        rc = cli_opt(argc - 1, argv + 1);
    } else if (argc && !strcmp(argv[0], "list")) {
        rc = cli_list(argc - 1, argv + 1);
    }
    free(copy);
    if (rc < -1 || rc > 5) {
        char s[16];
        snprintf(s, sizeof s, "%d", rc);
        fail("undocumented exit status", s);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int once;
    if (!once) { /* the statistics are long: keep the fuzzer's log short */
        once = 1;
        if (!freopen("/dev/null", "w", stdout))
            abort();
    }
    if (size == 0)
        return 0;
    if (data[0] & 1)
        fuzz_cmdline(data + 1, size - 1);
    else
        fuzz_config(data + 1, size - 1);
    return 0;
}
