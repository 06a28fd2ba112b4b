/* mix.h: several workload drivers on one GPU at once (simt_mix_run,
 * simt/workload.h), each on streams of its own; the internal side between
 * the mix and the host API (gpu.c).
 *
 * How: each driver runs on a host thread of its own, but only one at a
 * time holds the baton and runs host code; the others wait.  A driver
 * keeps the baton until it calls simt_synchronize or returns, and the
 * baton then goes to the next member in member order that can run.  When
 * none can (every unfinished member is blocked in simt_synchronize), the
 * holder runs the GPU on everything queued -- each member's launches, on
 * its own streams, so members' kernels run concurrently while each member's
 * run in its own stream order -- and every blocked member is released, the
 * baton going to the lowest-numbered.  The host code of all members thus
 * runs in one fixed order (allocations, copies and launches included), so
 * a mix's statistics are bit-identical run to run, whatever the OS does.
 *
 * Consequence: members move in rounds.  A member that synchronizes again
 * waits for the others' next synchronize (or end) before the GPU runs its
 * next launches: a round's timing run holds one batch from each member
 * still running, and a short batch does not refill while a long one runs.
 * docs/workloads.md ("Mixes") says what that means for measurements. */
#ifndef GPU_MIX_H
#define GPU_MIX_H

#include "simt/simt.h"

typedef struct gpu_mix gpu_mix_t;

/* gpu.c's side, called by the mix: */
/* The GPU runs what is queued (simt_synchronize without a mix). */
int gpu_synchronize_queue(simt_gpu_t *g, simt_error_t *err);
/* Installs (or with NULL removes) the mix the host API defers to. */
void gpu_set_mix(simt_gpu_t *g, gpu_mix_t *m);

/* The mix's side, called by gpu.c while a mix is installed: */
/* simt_synchronize from the member holding the baton. */
int gpu_mix_synchronize(gpu_mix_t *m, simt_error_t *err);
/* The GPU stream a member's `stream` becomes: stream x members + member
 * (distinct for every member).  0, or -1 when it is out of range. */
int gpu_mix_stream(const gpu_mix_t *m, int stream, int *out);

#endif
