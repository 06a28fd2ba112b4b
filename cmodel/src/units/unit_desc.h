/* unit_desc.h: a unit's declaration, written once (DESIGN §4.1).
 *
 * A descriptor names the unit's SV parameters, every port and every flop,
 * each with its SV name, its width and element count (as expressions over
 * the parameters) and where it lives in the C twin's `_in_t`, `_out_t` or
 * `_state_t`.  It also points at the twin's functions and at the unit's
 * co-simulation coverage bins.  Everything generic is derived from it: the
 * hook (unit_hooks.h), the lockstep comparison, the mismatch report and
 * history, both sides' waveforms, the Verilator adapter, the build rules,
 * the testbench skeleton and the mutation runs (docs/cosim.md).
 *
 * Naming rule (checked by construction, see UNIT_FIELD): the C field of a
 * port or flop is its SV name without the `_i`, `_o` or `_q` suffix.
 *
 * Layout rule: a field is `count` elements of `width` bits.  In C it is one
 * integer (count 1) or an array of `count` integers of `csize` bytes; in SV
 * it is a packed vector with element k at [k*width +: width], or, with
 * UNIT_ROWS, an unpacked array `name [count]` of `width`-bit rows.  Every
 * element is at most 64 bits wide. */
#ifndef UNITS_UNIT_DESC_H
#define UNITS_UNIT_DESC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum unit_dir { UNIT_DIR_IN, UNIT_DIR_OUT, UNIT_DIR_FLOP } unit_dir_t;

enum {
    UNIT_ROWS = 1u << 0, /* SV unpacked array: one row per element */
    UNIT_LATE = 1u << 1  /* input known only after the outputs were used
                            (e.g. what issued): absent from the eval hook's
                            inputs, present at the tick */
};

/* A size as an expression over the parameters. */
typedef enum unit_size_kind {
    UNIT_K,     /* the constant `arg` */
    UNIT_P,     /* parameter number `arg` */
    UNIT_P_IDX  /* an index into parameter `arg` entries: max(1, clog2(p)) */
} unit_size_kind_t;

/* kind << 8 | arg (one integer, so that it passes through macros). */
typedef uint16_t unit_size_t;

typedef struct unit_field {
    const char *name;  /* SV name: port (_i/_o) or flop (_q) */
    uint8_t dir;       /* unit_dir_t */
    uint8_t flags;     /* UNIT_ROWS, UNIT_LATE */
    uint8_t csize;     /* bytes of one C element: 1, 2, 4 or 8 */
    size_t offset;     /* in the _in_t, _out_t or _state_t */
    unit_size_t width; /* bits of one element */
    unit_size_t count; /* elements */
} unit_field_t;

enum { UNIT_MAX_PARAMS = 8 };

/* A coverage bin, or a family of `count` bins (one per slot, say). */
typedef struct unit_bin {
    const char *name;
    unit_size_t count;
} unit_bin_t;

typedef struct unit_desc {
    const char *name; /* the SV module, rtl/<name>.sv */
    const char *const *params; /* SV parameter names */
    unsigned nparams;
    const unit_field_t *fields;
    unsigned nfields;
    size_t in_size, out_size, state_size;
    /* The parameters of a twin instance, in `params` order. */
    void (*param_values)(const void *state, uint32_t *v);
    /* The twin (DESIGN §4.1): init from parameter values (0, or -1 when out
     * of range), reset, eval (combinational, no state change), tick. */
    int (*init)(void *state, const uint32_t *params);
    void (*reset)(void *state);
    void (*eval)(const void *state, const void *in, void *out);
    void (*tick)(void *state, const void *in);
    /* Coverage: `nbins` bin families, flattened in order into one counter
     * array.  cover() is called twice per clocked cycle: after eval with
     * the state, the inputs (no UNIT_LATE ones) and the outputs, and after
     * the edge with the state after it, the full inputs and out == NULL.
     * `mem` is cover_mem words of per-instance memory, zeroed at reset
     * (e.g. which slots have been freed).  A run prints the counts; a
     * bin at 0 over the runs that `make test` makes is a failure. */
    const unit_bin_t *bins;
    unsigned nbins, cover_mem;
    void (*cover)(const void *state, const void *in, const void *out,
                  uint64_t *bins, uint64_t *mem);
} unit_desc_t;

#define UNIT_SZ(kind, arg) ((unit_size_t)((kind) << 8 | (arg)))
#define UNIT_ONE UNIT_SZ(UNIT_K, 1)

/* A scalar field (count 1) and an array field; `sfx` is "_i", "_o" or "_q",
 * so the SV name is always the C name plus its suffix. */
#define UNIT_FIELD(T, f, sfx, dir, flags, w)                                \
    { #f sfx, (uint8_t)(dir), (uint8_t)(flags),                             \
      (uint8_t)sizeof(((T *)0)->f), offsetof(T, f), w, UNIT_ONE }
#define UNIT_ARRAY(T, f, sfx, dir, flags, w, n)                             \
    { #f sfx, (uint8_t)(dir), (uint8_t)(flags),                             \
      (uint8_t)sizeof(((T *)0)->f[0]), offsetof(T, f), w, n }

/* The value of a size for these parameter values. */
unsigned unit_size(unit_size_t s, const uint32_t *params);

/* Element k of field f in the struct at `base` (its _in_t, _out_t or
 * _state_t), masked to `width` bits. */
static inline uint64_t unit_get(const unit_field_t *f, const void *base,
                                unsigned k, unsigned width)
{
    const unsigned char *p = (const unsigned char *)base + f->offset +
                             (size_t)k * f->csize;
    uint64_t v;
    switch (f->csize) {
    case 1: v = *(const uint8_t *)p; break;
    case 2: v = *(const uint16_t *)p; break;
    case 4: v = *(const uint32_t *)p; break;
    default: v = *(const uint64_t *)p; break;
    }
    return width >= 64 ? v : v & (((uint64_t)1 << width) - 1);
}

#ifdef __cplusplus
}
#endif

#endif
