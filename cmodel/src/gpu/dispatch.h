/* dispatch.h: the kernel queue of a timing run and CTA dispatch.
 *
 * Launches run in queue order within a stream and concurrently across
 * streams: a launch becomes ready when the launch before it in its stream
 * has completed (the first of each stream is ready at once).  Each cycle
 * the CTA placement policy (gpu/cta_policy.h) may place one CTA per
 * cluster.  Everything here is driven by events, so a cycle's cost does not
 * grow with the launches queued: a launch becomes ready when its
 * predecessor's last CTA completes (not by rescanning the queue), the
 * completions an SM reports are turned into the policy's cta_done and
 * kernel_done events, and only the kernels that have started and not ended
 * are visited per cycle for their occupancy figures.
 *
 * Per cycle the timing loop calls dispatch_place, then each SM's cycle
 * followed (when it completed CTAs) by dispatch_sm_completed, then
 * dispatch_account. */
#ifndef GPU_DISPATCH_H
#define GPU_DISPATCH_H

#include "core/sm.h"
#include "gpu/cta_policy.h"
#include "gpu/timing.h"

/* A kernel as the dispatcher tracks it. */
typedef struct gpu_kernel {
    sm_kernel_t k;            /* what the SMs see */
    uint64_t nctas, next_cta; /* CTAs in the grid (at least 1), next to
                                 place */
    uint64_t done_seen;       /* k.ctas_done already told to the policy */
    uint64_t done_insns;      /* their warp-instructions, as cta_done told
                                 them: k.warp_insns once all are done */
    uint64_t start, end;      /* cycles of its first placement and one after
                                 its last completion */
    uint64_t warp_cycles;     /* sum over cycles of its resident warps */
    uint64_t sm_cycles;       /* sum over cycles of the SMs hosting it */
} gpu_kernel_t;

typedef struct dispatch {
    gpu_kernel_t *ks;         /* the run's kernels, in queue order */
    unsigned nk;
    sm_t *sms;
    unsigned clusters, per_cluster, nsms;
    cta_policy_t policy;
    uint64_t now;             /* the cycle of the last dispatch_place (the
                                 policy's `now` query) */
    uint64_t wake;            /* dispatch_place before this cycle is a
                                 no-op: the policy's idle_until after the
                                 last pass, 0 again at every event */
    unsigned *next_in_stream; /* per kernel: the next launch of its stream,
                                 or nk */
    unsigned *quota;          /* per kernel: its cke_quota, 0 for none */
    unsigned *active;         /* started and not ended, ascending */
    unsigned nactive;
    unsigned ndone;           /* kernels whose every CTA completed */
} dispatch_t;

/* Over kernels ks[0..nk) (launched as ls[0..nk), each with k and nctas
 * set) on sms[0..clusters x per_cluster); the policy (gpgpu_cta_policy)
 * and the kernels' quotas (cke_quota) come from cfg, which must outlive d;
 * tells the policy which kernels are ready.  0, or -1 (host memory). */
int dispatch_init(dispatch_t *d, gpu_kernel_t *ks, const timing_launch_t *ls,
                  unsigned nk, sm_t *sms, unsigned clusters,
                  unsigned per_cluster, const simt_config_t *cfg);
void dispatch_free(dispatch_t *d);

/* Places this cycle's CTAs: SIMT_OK, sm_add_cta's error, or SIMT_EINPUT
 * ("internal") when the policy broke its contract.  After a pass it asks
 * the policy's idle_until for the next cycle and, until that cycle or an
 * event (a kernel ready, a CTA completed), returns at once: the calls it
 * leaves out would have placed nothing and changed nothing (the
 * idle_until contract, gpu/cta_policy.h), so a policy whose clusters are
 * all blocked costs nothing per cycle. */
int dispatch_place(dispatch_t *d, uint64_t now);

/* After SM `sm`'s cycle completed CTAs: the policy's events, and the next
 * launch of a completed kernel's stream becomes ready. */
void dispatch_sm_completed(dispatch_t *d, unsigned sm);

/* Whether dispatch_sm_completed may change another SM's state (the
 * policy's limits_at_events, gpu/cta_policy.h). */
static inline int dispatch_events_touch_sms(const dispatch_t *d)
{
    return d->policy.m->limits_at_events;
}

/* The end of a cycle: per-kernel occupancy accounting; a kernel whose last
 * CTA completed ends (end = now + 1). */
void dispatch_account(dispatch_t *d, uint64_t now);

/* The idle-cycle skip (gpu/timing.c).  dispatch_idle_until: the first
 * cycle >= now at which dispatch_place could place a CTA or change the
 * policy's state, if no CTA completes before (the policy's idle_until;
 * `now` when it has none).  dispatch_idle_cycles: the accounting of n
 * cycles in which nothing was placed and no CTA completed, as n calls of
 * dispatch_account would do it (no kernel ends in them: a kernel's last
 * CTA completing is an event). */
uint64_t dispatch_idle_until(const dispatch_t *d, uint64_t now);
void dispatch_idle_cycles(dispatch_t *d, uint64_t n);

/* The timing fields of the kernel records ks[0..nk) (gpu.c fills the
 * rest): counts, first and last cycles counted from `base`, and achieved
 * occupancy over SMs of `max_warps` warp slots. */
void dispatch_export_stats(const dispatch_t *d, unsigned max_warps,
                           uint64_t base, simt_kernel_stats_t *ks);

/* Every CTA of every kernel has completed. */
static inline int dispatch_finished(const dispatch_t *d)
{
    return d->ndone == d->nk;
}

#endif
