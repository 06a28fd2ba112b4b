/* cosim.h: the simt tool's side of co-simulation: it loads the plugin
 * (simt/cosim_plugin.h, built by `make cosim`) and holds one session. */
#ifndef CLI_COSIM_H
#define CLI_COSIM_H

#include "simt/cosim_plugin.h"
#include "simt/simt.h"
#include "units/unit_hooks.h"

typedef struct cli_cosim {
    void *dl;
    const simt_cosim_plugin_t *p;
    void *session;
    unit_hooks_t hooks;       /* install with simt_gpu_set_unit_hooks */
} cli_cosim_t;

/* Loads the plugin and opens a session.  SIMT_EINPUT (err filled) when the
 * plugin is missing or refuses the options. */
int cli_cosim_open(cli_cosim_t *c, const simt_cosim_opts_t *o, simt_error_t *err);
void cli_cosim_result(const cli_cosim_t *c, simt_cosim_result_t *r);
void cli_cosim_close(cli_cosim_t *c);

#endif
