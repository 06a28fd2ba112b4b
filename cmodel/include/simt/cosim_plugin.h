/* cosim_plugin.h: what a co-simulation plugin offers the simt tool.
 *
 * The lockstep harness (sim/, DESIGN §4.2) is built apart from the model,
 * with Verilator, as a shared library ($(BUILD)/lib/libsimt_cosim.so, `make
 * cosim`).  `simt run --cosim UNITS` loads it and asks it for the unit
 * hooks (cmodel/src/units/unit_hooks.h) to install on the GPU; the model
 * itself never sees Verilator.  The library exports one symbol,
 * simt_cosim_plugin(), returning the table below.
 *
 * On the first mismatch the plugin prints the report (cycle, unit,
 * instance, field, expected and actual, the last cycles of the unit's
 * ports) and stops the run (SIMT_ECOSIM).  The waveform window around it
 * comes from a replay: the tool runs the same workload again with
 * `replay` set, deterministically reaching the same mismatch, and the
 * plugin traces that one instance over the window and writes the files. */
#ifndef SIMT_COSIM_PLUGIN_H
#define SIMT_COSIM_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SIMT_COSIM_ABI 2

struct unit_hooks;

typedef struct simt_cosim_opts {
    const char *units;       /* "all" or a comma list ("warp_arbiter") */
    int rtl_drives;          /* 1: the RTL's outputs drive the model */
    unsigned history;        /* port cycles kept per instance for the report */
    uint32_t seed;           /* Verilator's random seed (x-initial unique) */
    /* replay (the waveform pass): */
    int replay;
    const char *out_dir;     /* where the waveform files go */
    unsigned window;         /* cycles traced up to the mismatch */
    const char *replay_unit; /* the mismatching unit */
    unsigned instance;       /* and instance */
    uint64_t cycle;          /* the mismatch cycle */
} simt_cosim_opts_t;

typedef struct simt_cosim_result {
    uint64_t unit_cycles;    /* instance-cycles compared */
    uint64_t mismatches;     /* 0, or 1: the run stops at the first */
    char unit[32];           /* the mismatching unit */
    unsigned instance;       /* and instance */
    uint64_t cycle;          /* and cycle */
    char files[1024];        /* replay: the files written, one per line */
    int error;               /* 1: the session failed (not a mismatch); the
                                plugin printed why */
} simt_cosim_result_t;

typedef struct simt_cosim_plugin {
    int abi;                 /* SIMT_COSIM_ABI */
    /* A session, with the hooks to install filled in; NULL with err
     * filled (an unknown unit, a parameter set not built). */
    void *(*open)(const simt_cosim_opts_t *o, struct unit_hooks *hooks,
                  char *err, size_t errlen);
    void (*result)(void *session, simt_cosim_result_t *r);
    void (*close)(void *session);
} simt_cosim_plugin_t;

const simt_cosim_plugin_t *simt_cosim_plugin(void);

#ifdef __cplusplus
}
#endif

#endif
