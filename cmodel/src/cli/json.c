/* json.c: the statistics as JSON, written atomically.
 *
 * The file is written to a temporary file in the destination's directory
 * (mkstemp: a short name of its own, so any destination name the OS
 * allows works) and renamed over the destination, which must be absent or
 * a regular file: a directory, device, FIFO or symbolic link is never
 * replaced.  SIGINT and SIGTERM while the temporary file exists remove it
 * before the signal takes its default effect. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "cli/cli.h"

/* The temporary file a signal handler removes.  A handler can reach only
 * static storage: this is the one process-wide variable of the tool, set
 * only around the write. */
static char *volatile json_tmp;

static void json_on_signal(int sig)
{
    char *t = json_tmp;
    if (t)
        unlink(t);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* The per-kernel records as a JSON array. */
static void json_kernels(FILE *f, const simt_kernel_stats_t *k, size_t n)
{
    fprintf(f, "  \"kernels\": [");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_string(f, k[i].name);
        fprintf(f, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], "
                "\"regs_per_thread\": %u, \"smem_per_cta\": %u, "
                "\"ctas_per_sm\": %u, \"limiter\": ", k[i].grid[0],
                k[i].grid[1], k[i].grid[2], k[i].block[0], k[i].block[1],
                k[i].block[2], k[i].regs_per_thread, k[i].smem_per_cta,
                k[i].ctas_per_sm);
        json_string(f, k[i].limiter);
        fprintf(f, ", \"ctas\": %llu, \"warp_insns\": %llu, \"thread_insns\": %llu, "
                "\"start_cycle\": %llu, \"end_cycle\": %llu, "
                "\"achieved_occupancy\": %.6f, \"lcs_t_max\": %u, "
                "\"lcs_t_new\": %u, \"lcs_window_cycles\": %llu}",
                (unsigned long long)k[i].ctas, (unsigned long long)k[i].warp_insns,
                (unsigned long long)k[i].thread_insns,
                (unsigned long long)k[i].start_cycle,
                (unsigned long long)k[i].end_cycle, k[i].achieved_occupancy,
                k[i].lcs_t_max, k[i].lcs_t_new,
                (unsigned long long)k[i].lcs_window_cycles);
    }
    fprintf(f, "%s],\n", n ? "\n  " : "");
}

/* The per-SM records as a JSON array. */
static void json_sms(FILE *f, const simt_sm_stats_t *s, size_t n)
{
    fprintf(f, "  \"sms\": [");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\n    {\"sm\": %u, \"active_cycles\": %llu, "
                "\"resident_warp_cycles\": %llu, \"ctas_completed\": %llu, "
                "\"warp_insns\": %llu, \"thread_insns\": %llu, "
                "\"core_cycles_active\": %llu, \"core_cycles_core_stall\": %llu, "
                "\"core_cycles_mem_stall\": %llu, \"core_cycles_idle\": %llu, "
                "\"achieved_occupancy\": %.6f}",
                i ? "," : "", s[i].sm, (unsigned long long)s[i].active_cycles,
                (unsigned long long)s[i].resident_warp_cycles,
                (unsigned long long)s[i].ctas_completed,
                (unsigned long long)s[i].warp_insns,
                (unsigned long long)s[i].thread_insns,
                (unsigned long long)s[i].core_cycles_active,
                (unsigned long long)s[i].core_cycles_core_stall,
                (unsigned long long)s[i].core_cycles_mem_stall,
                (unsigned long long)s[i].core_cycles_idle, s[i].achieved_occupancy);
    fprintf(f, "%s],\n", n ? "\n  " : "");
}

int cli_write_json(const char *path, const char *workload,
                   const simt_wl_result_t *res, const char *stopped_by,
                   const simt_gpu_t *gpu, simt_error_t *err)
{
    const simt_stats_t *s = simt_gpu_stats(gpu);
    const simt_config_t *cfg = simt_gpu_config(gpu);
    const simt_kernel_stats_t *ks;
    size_t nks = simt_gpu_kernels(gpu, &ks);
    const simt_sm_stats_t *sms;
    size_t nsms = simt_gpu_sms(gpu, &sms);
    char shown[512];
    printable(path, (size_t)-1, shown, sizeof shown);
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return set_error(err, SIMT_EINPUT, "%s: error: --json replaces only a "
                         "regular file, and this is %s", shown,
                         S_ISDIR(st.st_mode) ? "a directory"
                         : S_ISLNK(st.st_mode) ? "a symbolic link"
                                               : "a device, FIFO or socket");
    /* the temporary file: DIR/.simt-json-XXXXXX beside the destination */
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
    char *tmp = malloc(dlen + sizeof ".simt-json-XXXXXX");
    if (!tmp)
        return set_error(err, SIMT_EINPUT, "%s: error: out of memory", shown);
    memcpy(tmp, path, dlen);
    memcpy(tmp + dlen, ".simt-json-XXXXXX", sizeof ".simt-json-XXXXXX");
    struct sigaction sa = { .sa_handler = json_on_signal }, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    int fd = mkstemp(tmp);
    FILE *f = NULL;
    if (fd >= 0) {
        json_tmp = tmp;
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask); /* mkstemp made it 0600 */
        f = fdopen(fd, "w");
        if (!f)
            close(fd);
    }
    if (!f) {
        int e = errno;
        if (fd >= 0)
            unlink(tmp);
        json_tmp = NULL;
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        free(tmp);
        return set_error(err, SIMT_EINPUT, "%s: error: cannot write: %s", shown,
                         strerror(e));
    }
    fprintf(f, "{\n  \"workload\": ");
    json_string(f, workload);
    fprintf(f, ",\n  \"passed\": %s,\n  \"detail\": ", res->passed ? "true" : "false");
    json_string(f, res->detail);
    /* a run limit: the statistics cover the run up to the stop */
    fprintf(f, ",\n  \"partial\": %s,\n  \"stopped_by\": ", stopped_by ? "true" : "false");
    if (stopped_by)
        json_string(f, stopped_by);
    else
        fprintf(f, "null");
    fprintf(f, ",\n  \"stats\": {\n");
    for (size_t i = 0; i < simt_stats_count; i++)
        fprintf(f, "    \"%s\": %llu,\n", simt_stats_names[i],
                (unsigned long long)simt_stats_field(s, i));
    fprintf(f, "    \"ipc\": %.6f\n",
            s->gpu_sim_cycle ? (double)s->thread_insns / (double)s->gpu_sim_cycle : 0.0);
    fprintf(f, "  },\n");
    json_kernels(f, ks, nks);
    json_sms(f, sms, nsms);
    fprintf(f, "  \"config\": {\n");
    for (int k = 0; k < SIMT_CFG_NKEYS; k++) {
        const char *name = simt_config_value_name(cfg, (simt_cfg_key_t)k);
        fprintf(f, "    \"%s\": ", simt_config_key_name((simt_cfg_key_t)k));
        if (name)
            json_string(f, name);
        else
            fprintf(f, "%lld", (long long)cfg->value[k]);
        fprintf(f, "%s\n", k + 1 < SIMT_CFG_NKEYS ? "," : "");
    }
    fprintf(f, "  }\n}\n");
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    int e = errno;
    if (!bad && rename(tmp, path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad)
        unlink(tmp);
    json_tmp = NULL;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    free(tmp);
    if (bad)
        return set_error(err, SIMT_EINPUT, "%s: error: write failed: %s", shown,
                         strerror(e));
    return SIMT_OK;
}
