/* pass.h: what a compiler pass is, and what it works on.
 *
 * A pass is one method-table entry (compiler_pass_t) in the ordered list of
 * compiler/pipeline.c.  The pipeline hands every selected pass, in list
 * order, the same compiler_unit_t: one kernel of one module, the
 * configuration, and the resources found so far.  A pass that rewrites code
 * calls compiler_writable() first (the parsed module is shared and never
 * edited; the first writer gets a private clone) and edits it through
 * ptx/edit.h.  A pass that counts (register allocation) fills unit->res.
 *
 * Adding a pass: its own file defining a compiler_pass_t, one line in the
 * list of pipeline.c, and, when the configuration selects it, one key in
 * simt/config_keys.def that its `selected` reads (docs/compiler.md). */
#ifndef COMPILER_PASS_H
#define COMPILER_PASS_H

#include <stdint.h>

#include "ptx/ir.h"
#include "simt/config.h"
#include "simt/simt.h"

/* What a compiled kernel takes from an SM, per thread or per CTA. */
typedef struct compiler_resources {
    uint32_t regs;         /* 32-bit registers per thread (the count that
                              decides occupancy; see docs/regalloc.md) */
    uint32_t alloc_regs;   /* the colouring's own count, before the ptxas
                              reservations are added */
    uint32_t preds;        /* predicate registers */
    uint32_t spilled;      /* values moved to local memory by the cap */
    uint32_t cap;          /* registers per thread allowed (maxrregcount,
                              .maxntid), 0 when unlimited */
    uint64_t local_bytes;  /* per-thread local frame of the kernel body */
    uint64_t shared_bytes; /* static scratchpad bytes per CTA */
} compiler_resources_t;

/* Registers SASS reserves beyond the values: R1, the ABI stack pointer
 * (docs/regalloc.md, "Modelling ptxas"). */
#define COMPILER_RESERVED_REGS 1

typedef struct compiler_unit {
    const ptx_module_t *src;  /* as parsed: never edited */
    ptx_module_t *mod;        /* the current code: src until a pass edits */
    ptx_module_t *owned;      /* == mod once a pass has cloned it */
    uint32_t kernel;
    const simt_config_t *cfg;
    compiler_resources_t res;
    /* Per function of mod (NULL when not reachable from the kernel): the
     * physical register of each virtual register from that function's own
     * colouring, REGALLOC_NONE for unnamed ones; the register-bank mapping
     * of the timing model reads it. */
    uint32_t **phys;
    uint32_t nphys;           /* entries of phys */
    simt_error_t *err;
} compiler_unit_t;

typedef struct compiler_pass {
    const char *name;     /* as `simt opt --passes=` names it */
    const char *summary;  /* one line, for `simt opt --list` */
    /* Whether the configuration turns the pass on (NULL: always). */
    int (*selected)(const simt_config_t *cfg);
    /* SIMT_OK, or an error status with unit->err filled. */
    int (*run)(compiler_unit_t *unit);
} compiler_pass_t;

/* The module to edit: clones src on the first call. NULL when out of host
 * memory (unit->err filled). */
ptx_module_t *compiler_writable(compiler_unit_t *unit);

#endif
