/* ptx_kernel_helpers.h: small helpers shared by the hand-written-PTX unit
 * tests (test_reconvergence.c, test_faults.c, test_hostapi.c).
 *
 * Every GPU made with pk_gpu() is remembered until pk_gpu_free(); a test
 * that stops early at a failed CHECK leaves its GPU to the clean-up at exit,
 * so sanitizer runs see no leaks from failing tests. */
#ifndef TESTS_UNIT_PTX_KERNEL_HELPERS_H
#define TESTS_UNIT_PTX_KERNEL_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "simt/simt.h"

/* The PTX header every test kernel starts with (3 lines + a blank line). */
#define PK_HEADER ".version 9.0\n.target sm_75\n.address_size 64\n\n"

/* A GPU with the default configuration plus the "key=value" settings in
 * `sets` (NULL-terminated, or NULL for none).  NULL on failure, with the
 * reason in *err. */
simt_gpu_t *pk_gpu(const char *const *sets, simt_error_t *err);
void pk_gpu_free(simt_gpu_t *gpu);

/* Loads PTX text; NULL on failure (reason in *err). */
simt_module_t *pk_load(simt_gpu_t *gpu, const char *file, const char *text,
                       simt_error_t *err);

static inline simt_dim3_t pk_dim(uint32_t x, uint32_t y, uint32_t z)
{
    return (simt_dim3_t){ x, y, z };
}

/* Queues one launch (err is cleared first). */
int pk_launch(simt_gpu_t *gpu, simt_module_t *mod, const char *kernel,
              simt_dim3_t grid, simt_dim3_t block, uint32_t dyn_shared,
              const simt_arg_t *args, size_t nargs, simt_error_t *err);

/* pk_launch, then simt_synchronize; returns the first failing status. */
int pk_run(simt_gpu_t *gpu, simt_module_t *mod, const char *kernel,
           simt_dim3_t grid, simt_dim3_t block, uint32_t dyn_shared,
           const simt_arg_t *args, size_t nargs, simt_error_t *err);

/* A module printed as PTX text (ptx/printer.h), malloc'd; NULL on failure. */
struct ptx_module;
char *pk_print_module(const struct ptx_module *m);

/* Allocates `count` 32-bit words, each set to `fill`; 0 on failure. */
simt_devptr_t pk_alloc_u32(simt_gpu_t *gpu, size_t count, uint32_t fill);
/* Copies `count` words back into `out`; SIMT_OK or the error status. */
int pk_read_u32(simt_gpu_t *gpu, simt_devptr_t src, uint32_t *out,
                size_t count);

/* 1-based number of the first line of `text` containing `needle`, 0 if
 * none. */
unsigned pk_line_of(const char *text, const char *needle);
/* That line's text without leading blanks and without the newline. */
void pk_line_text(const char *text, unsigned line, char *buf, size_t size);

/* Checks that `msg` is a complete fault report:
 *   FILE:LINE: fault: ...WHAT...
 *     kernel KERNEL, CTA (x,y,z), warp W, lanes 0xLANES, PC P
 *     LINE | SOURCE-LINE-TEXT
 * Negative values for warp, lanes or pc skip those fields (lanes is a
 * 32-bit mask, passed as int64_t so that -1 can mean "any").  `what` may be
 * NULL.  Returns 1 when everything matches; otherwise 0 with a description
 * in why. */
int pk_fault_ok(const char *msg, const char *file, const char *text,
                unsigned line, const char *kernel, uint32_t cx, uint32_t cy,
                uint32_t cz, int64_t warp, int64_t lanes, int64_t pc,
                const char *what, char *why, size_t why_size);

#endif
