/* test_inputs.c: inputs that cannot hurt the host, at the API: launch
 * dimensions that would overflow, .const beyond the configured constant
 * memory, PTX text beyond the size limit, configuration text rules
 * (decimal numbers, control bytes) and validation errors located at the
 * key that caused them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../harness.h"
#include "ptx_kernel_helpers.h"

static const char empty_ptx[] =
    PK_HEADER
    ".visible .entry nothing()\n"
    "{\n"
    "\tret;\n"
    "}\n";

TEST(inputs_launch_dimensions_that_overflow_are_refused)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "empty.ptx", empty_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    /* 2^32-1 in every block dimension: the product wraps 64 bits */
    CHECK_EQ(pk_launch(g, m, "nothing", pk_dim(1, 1, 1),
                       pk_dim(0xffffffffu, 0xffffffffu, 0xffffffffu), 0, NULL, 0, &err),
             SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "block dimensions (4294967295,4294967295,4294967295) "
                              "exceed"), "%s", err.msg);
    /* a block of 1024 x 1024 x 64 passes the per-dimension limits but
     * exceeds max_threads_per_cta */
    CHECK_EQ(pk_launch(g, m, "nothing", pk_dim(1, 1, 1), pk_dim(1024, 1024, 64), 0, NULL, 0,
                       &err), SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "67108864 threads per CTA exceeds max_threads_per_cta"), "%s",
              err.msg);
    CHECK_EQ(pk_launch(g, m, "nothing", pk_dim(1, 65536, 1), pk_dim(32, 1, 1), 0, NULL, 0,
                       &err), SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "grid dimensions (1,65536,1) exceed the limits "
                              "(2147483647,65535,65535): CUDA's"), "%s", err.msg);
    CHECK_EQ(pk_launch(g, m, "nothing", pk_dim(0x80000000u, 1, 1), pk_dim(32, 1, 1), 0, NULL,
                       0, &err), SIMT_EINPUT);
    /* the largest legal values are accepted */
    CHECK_MSG(pk_launch(g, m, "nothing", pk_dim(0x7fffffffu, 65535, 65535), pk_dim(1024, 1, 1),
                        0, NULL, 0, &err) == SIMT_OK, "%s", err.msg);
    pk_gpu_free(g); /* destroyed with the launch still queued */
}

TEST(inputs_const_beyond_constant_memory_is_refused)
{
    static const char big_ptx[] =
        PK_HEADER                                        /* 1-4 */
        ".const .align 4 .b8 small[1024];\n"             /* 5 */
        ".const .align 4 .b8 big[65536];\n"              /* 6: ends at 66560 */
        ".visible .entry nothing()\n"
        "{\n"
        "\tret;\n"
        "}\n";
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m;
    CHECK_EQ(simt_module_load_text(g, "big.ptx", big_ptx, sizeof big_ptx - 1, &m, &err),
             SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "big.ptx:6:") && strstr(err.msg, "'big' ends at byte 66560") &&
              strstr(err.msg, "gpgpu_const_mem_size = 65536"), "%s", err.msg);
    pk_gpu_free(g);
    /* with 128 KiB of constant memory it loads */
    static const char *const sets[] = { "gpgpu_const_mem_size=131072", NULL };
    g = pk_gpu(sets, &err);
    CHECK_MSG(g, "%s", err.msg);
    CHECK_MSG(simt_module_load_text(g, "big.ptx", big_ptx, sizeof big_ptx - 1, &m, &err) ==
              SIMT_OK, "%s", err.msg);
    pk_gpu_free(g);
}

TEST(inputs_ptx_text_beyond_the_size_limit_is_refused)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m;
    /* the length is checked before the text is looked at */
    CHECK_EQ(simt_module_load_text(g, "huge.ptx", empty_ptx, (size_t)SIMT_PTX_MAX_BYTES + 1, &m,
                                   &err), SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "huge.ptx: error: 268435457 bytes of PTX, more than the "
                              "268435456 allowed"), "%s", err.msg);
    pk_gpu_free(g);
}

TEST(inputs_config_integers_are_decimal)
{
    simt_config_t c;
    simt_error_t err = { 0 };
    simt_config_defaults(&c);
    CHECK(simt_config_set(&c, "gpgpu_n_clusters=010", "--set", &err) == SIMT_OK);
    CHECK_EQ(simt_config_get(&c, SIMT_CFG_N_CLUSTERS), 10);
    CHECK(simt_config_set(&c, "gpgpu_n_clusters=0x10", "--set", &err) == SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "must be an integer, not '0x10'"), "%s", err.msg);
    memset(&err, 0, sizeof err);
    CHECK(simt_config_set(&c, "gpgpu_n_clusters=1e3", "--set", &err) == SIMT_EINPUT);
    memset(&err, 0, sizeof err);
    CHECK(simt_config_set(&c, "gpgpu_n_clusters=+3", "--set", &err) == SIMT_EINPUT);
}

TEST(inputs_config_control_bytes_are_errors_never_echoed)
{
    simt_config_t c;
    simt_error_t err = { 0 };
    simt_config_defaults(&c);
    CHECK(simt_config_set(&c, "gpgpu_n_clusters=1\x1b[2J", "--set", &err) == SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "--set:1:19: error: control byte 0x1b"), "%s", err.msg);
    for (const char *p = err.msg; *p; p++)
        CHECK_MSG((unsigned char)*p >= 0x20 || *p == '\n', "raw byte 0x%02x in '%s'",
                  (unsigned char)*p, err.msg);
}

/* A configuration file with a NUL byte in its second line, and one whose
 * cross-key check fails: each error names file, line and column. */
TEST(inputs_config_file_errors_are_located)
{
    char dir[] = "/tmp/simt-inputs-XXXXXX";
    CHECK(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/a.cfg", dir);
    FILE *f = fopen(path, "wb");
    CHECK(f);
    fwrite("gpgpu_n_clusters = 2\ngpgpu_shader_cta = 4\0 # x\n", 1, 46, f);
    fclose(f);
    simt_config_t c;
    simt_error_t err = { 0 };
    simt_config_defaults(&c);
    int rc = simt_config_load_file(&c, path, &err);
    char want[128];
    snprintf(want, sizeof want, "%s:2:21: error: control byte 0x00", path);
    int located = strstr(err.msg, want) != NULL;
    f = fopen(path, "w");
    CHECK(f);
    fputs("# comment\nfunctional = 0\n  gpgpu_simd_width = 12\n", f);
    fclose(f);
    memset(&err, 0, sizeof err);
    simt_config_defaults(&c);
    int rc2 = simt_config_load_file(&c, path, &err);
    int rc3 = rc2 == SIMT_OK ? simt_config_validate(&c, &err) : rc2;
    char want2[128];
    snprintf(want2, sizeof want2, "%s:3:3: error: gpgpu_simd_width (12) must divide", path);
    int located2 = strstr(err.msg, want2) != NULL;
    remove(path);
    rmdir(dir);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_MSG(located, "%s", err.msg);
    CHECK_EQ(rc3, SIMT_EINPUT);
    CHECK_MSG(located2, "%s", err.msg);
}

/* Writes text to dir/name; the path into out[size]. */
static void write_cfg(const char *dir, const char *name, const char *text, char *out,
                      size_t size)
{
    snprintf(out, size, "%s/%s", dir, name);
    FILE *f = fopen(out, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* include = PATH reads PATH (relative to the including file's folder) at
 * that line: lines after it override it, lines before it are overridden;
 * a validation error names the file and line that set the key, included
 * or not; a file that includes itself and a missing include are located
 * errors. */
TEST(inputs_config_include_order_and_located_errors)
{
    char dir[] = "/tmp/simt-include-XXXXXX";
    CHECK(mkdtemp(dir));
    char sub[64], base[96], top[96], loop[96], gone[96];
    snprintf(sub, sizeof sub, "%s/v", dir);
    CHECK(mkdir(sub, 0700) == 0);
    write_cfg(dir, "base.cfg", "gpgpu_n_clusters = 3\ngpgpu_shader_cta = 4\n"
              "gpgpu_simd_width = 12\n", base, sizeof base);
    write_cfg(sub, "top.cfg", "gpgpu_shader_cta = 2\ninclude = ../base.cfg\n"
              "gpgpu_n_clusters = 5\n", top, sizeof top);
    write_cfg(sub, "loop.cfg", "include = loop.cfg\n", loop, sizeof loop);
    write_cfg(sub, "gone.cfg", "\n  include =  nothere.cfg  # none\n", gone, sizeof gone);
    simt_config_t c;
    simt_error_t err = { 0 };
    simt_config_defaults(&c);
    int rc = simt_config_load_file(&c, top, &err);
    int64_t clusters = simt_config_get(&c, SIMT_CFG_N_CLUSTERS);
    int64_t ctas = simt_config_get(&c, SIMT_CFG_CTAS_SM);
    int rcv = simt_config_validate(&c, &err);
    char want[160];
    snprintf(want, sizeof want, "%s/v/../base.cfg:3:1: error: gpgpu_simd_width (12)", dir);
    int named_base = strstr(err.msg, want) != NULL;
    int preset_top = strcmp(c.preset, top) == 0;
    simt_error_t e2 = { 0 }, e3 = { 0 };
    simt_config_defaults(&c);
    int rc2 = simt_config_load_file(&c, loop, &e2);
    simt_config_defaults(&c);
    int rc3 = simt_config_load_file(&c, gone, &e3);
    char want3[160];
    snprintf(want3, sizeof want3, "%s:2:14: note: included from here", gone);
    remove(base);
    remove(top);
    remove(loop);
    remove(gone);
    rmdir(sub);
    rmdir(dir);
    CHECK_EQ(rc, SIMT_OK);
    CHECK_EQ(clusters, 5); /* set after the include */
    CHECK_EQ(ctas, 4);     /* the include overrides the line before it */
    CHECK_EQ(rcv, SIMT_EINPUT);
    CHECK_MSG(named_base, "%s", err.msg);
    CHECK(preset_top);
    CHECK_EQ(rc2, SIMT_EINPUT);
    CHECK_MSG(strstr(e2.msg, "nested more than 7 deep"), "%s", e2.msg);
    CHECK_EQ(rc3, SIMT_EINPUT);
    CHECK_MSG(strstr(e3.msg, "nothere.cfg") && strstr(e3.msg, want3), "%s", e3.msg);
}
