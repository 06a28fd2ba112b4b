/* smpar.h: the SMs of a core cycle stepped on several host threads
 * (`simt run --threads N`), with results bit-identical to one thread.
 *
 * Contract.  smpar_create starts N-1 worker threads (the timing loop never
 * creates one for N = 1: it calls sm_cycle itself).  smpar_cycle(p, now)
 * runs sm_step(now) for every SM and returns when all have run;
 * smpar_result then gives SM i's status and completed CTAs.  The caller
 * commits the SMs in SM order afterwards (core/sm.h sm_commit) and tells
 * the dispatcher of their completions in that order, as the one-thread
 * loop does after each SM.
 *
 * Who steps which SM changes no result, so it is chosen for speed: thread
 * t owns SMs t, t + N, t + 2N, ... (interleaved, so that the SM a gate
 * waits for is one below, on the other thread) and steps them in
 * increasing order, each claimed from its list; a thread that has run
 * out steals the next unclaimed SMs of the others' lists.  An SM thus
 * stays on one host core from cycle to cycle unless stolen.  A worker
 * asleep when a phase starts has its whole list taken by the caller,
 * which then steps its own SMs and the taken ones in SM order.  With
 * fewer than two SMs awake (core/sm.h "Quiescent SMs asleep") the caller
 * steps the cycle alone, without a handshake; so it does for a stretch
 * of cycles when timing the two ways has just found the parallel one
 * slower (the host's cores far apart: smpar.c, EPOCH).
 *
 * Why the result is the one-thread result (docs/timing-model.md, "Several
 * host threads"): during its cycle an SM writes only its own state; what
 * it adds to shared counters waits in the SM until sm_commit; the crossbar
 * reads the SMs' outboxes in the memory phase, not in the SM phase.  The
 * effects whose order across SMs matters (device memory, textures and
 * surfaces, device printf, the fault report) call exec_order_t.wait first,
 * which returns once every SM of lower index has made its last such
 * effect of the cycle (at the end of its issue stage, exec_order_t.pass,
 * or of its cycle), and SMs of higher index wait in turn for this one:
 * those effects happen in SM order, exactly the order one thread gives.
 * (Each SM keeps its own devmem lookup hint, exec_ctx_t.gmem_hint, which
 * changes no answer.)  An SM that faults
 * still finishes its cycle; the SMs above it see the fault through wait (a
 * printf is then dropped, and their own fault reports lose to the lower
 * SM's, as the first report wins).
 *
 * Waiting: a spin of at most 50 us (longer than the serial part of a
 * cycle, so a running worker does not sleep between phases), then a futex
 * sleep, so that a thread never spins for long on a loaded machine (its
 * partner may be descheduled); a thread that publishes something wakes
 * sleepers only when there are. */
#ifndef GPU_SMPAR_H
#define GPU_SMPAR_H

#include "core/sm.h"

enum { SMPAR_MAX_THREADS = 64 };

typedef struct smpar smpar_t;

/* The measured choice between stepping a cycle's SMs in parallel and on
 * the caller's thread alone (smpar.c, EPOCH), kept by the caller from run
 * to run: a GPU's launches are often each shorter than an epoch.  All
 * zero: a fresh start, in parallel.  It changes no result. */
typedef struct smpar_way {
    unsigned epoch_at;         /* cycles of this epoch so far */
    uint64_t probe_ns[2];      /* the probes' time, [0] parallel, [1] alone */
    uint64_t probe_steps[2];   /* and SMs stepped in them */
    int alone;                 /* how the rest of the epoch runs */
    int timed;                 /* the last cycle was timed: 1 + its way */
    uint64_t t0;               /* and started then (ns) */
} smpar_way_t;

/* nthreads in 2..SMPAR_MAX_THREADS; `way` lives at least as long as the
 * result: *out, or NULL when host memory or a thread could not be had
 * (what is wrong). */
const char *smpar_create(smpar_t **out, sm_t *sms, unsigned nsms,
                         unsigned nthreads, smpar_way_t *way);
void smpar_destroy(smpar_t *p);

/* Every SM's cycle `now`; returns when all have run. */
void smpar_cycle(smpar_t *p, uint64_t now);

/* SM i's status in the last smpar_cycle; *done gets its completed CTAs. */
int smpar_result(const smpar_t *p, unsigned i, unsigned *done);

#endif
