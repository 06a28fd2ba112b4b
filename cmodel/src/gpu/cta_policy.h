/* cta_policy.h: where the next CTA goes.  CTA placement policies as method
 * tables, driven by events.
 *
 * The dispatcher (gpu/dispatch.h) owns the kernels and asks the SMs; a
 * policy owns only its own state, allocated by its init, and learns what
 * happens through events:
 *   kernel_ready(k, ctas)  kernel k may start: its stream's earlier launches
 *                          are done; it has `ctas` CTAs (at least 1);
 *   cta_done(sm, k, c, n)  CTA c (its linear id) of kernel k completed on
 *                          SM `sm`: what it held there is free again; its
 *                          warps issued n warp-instructions (LCS's measure);
 *   kernel_done(k)         every CTA of k completed;
 * and once per cycle and cluster, place(cluster) names at most one (SM,
 * kernel) pair and a count n (1 or 2, its return value; 0: none); the
 * dispatcher places that kernel's next n CTAs (in launch order: x fastest,
 * then y, then z) on that SM at once, and n = 2 makes them a pair on the SM
 * (sm_add_cta_pair: BCS's block, which the SCA warp scheduler sees).  The
 * questions a policy asks of the SMs are queries (cta_policy_query_t):
 * `fits` (one more CTA of kernel k fits on SM s now, sm_can_take_cta),
 * `fits_n` (n more, sm_can_take_ctas), `issued` (the warp-instructions of
 * kernel k's CTAs resident on SM s, sm_cta_issued), `kernel` (a kernel's
 * block shape, static kernel and T_max, cta_policy_kernel_t) and `now`
 * (the core cycle).  Policies never read sm_t, so a unit test drives one
 * with fake queries; a query a policy does not use may be NULL.
 *
 * What the dispatcher guarantees, and a policy may rely on:
 *  - kernels are numbered 0..nkernels-1 in launch (queue) order; SMs are
 *    numbered cluster-major, SM s belongs to cluster s / per_cluster;
 *  - kernel_ready comes once per kernel, kernel_done once after its last
 *    cta_done; events of one cycle come in increasing SM order, and for one
 *    SM in increasing kernel order;
 *  - what `fits` answers changes only when a CTA is placed (by this policy's
 *    place) or a cta_done arrives: a policy may remember that nothing fits
 *    in a cluster until then, which keeps a cycle's cost independent of the
 *    work queued (docs/timing-model.md, "Speed").
 * What a policy must keep: place names only a pair `fits` accepts (for
 * n = 2, `fits_n(.., 2)`), and never more CTAs of a kernel than
 * kernel_ready gave (the policy sees every placement it makes).
 *
 * Policies needing more (LCS's counts of the CTAs still resident, mCKE's
 * per-kernel quotas) get a new query or event here,
 * filled by an accessor of the module that owns the figure (an SM accessor
 * for issue counts): docs/timing-model.md, "CTA placement policy".  So far:
 *   cap(k)              the most CTAs of kernel k one SM may hold: its
 *                       occupancy limit T_max (resources alone, the CTA
 *                       slots included), lowered by its cke_quota;
 *   resident(sm, k)     CTAs of kernel k resident on SM sm now;
 *   counters(sm, &c)    the SM's idle and memory-wait cycles so far
 *                       (DYNCTA's C_idle and C_mem, core/sm.h);
 *   limit_active(sm, n) a request, not a question: only the n CTAs placed
 *                       longest ago on SM sm may issue, younger ones are
 *                       paused (not killed) until the limit rises or older
 *                       ones complete (DYNCTA's CTA pausing; UINT_MAX: none
 *                       paused, the state every SM starts in);
 *   fits_n(sm, k, n)    n CTAs of k fit at once (a BCS pair);
 *   issued(sm, k, ..)   the warp-instructions of each CTA of k resident on
 *                       the SM (LCS's counters);
 *   kernel(k)           its block shape, static kernel and T_max (cap);
 *   now()               the core cycle (LCS's window);
 * and the event cycle(now), once at the start of every core cycle before
 * its place calls, for policies that act on a clock (NULL otherwise, so the
 * others pay nothing).  place may name 2 CTAs (a BCS pair), cta_done
 * carries the CTA's linear id, and kernel_stats reports LCS's figures.
 * Tests' fake GPUs fill what their policy asks. */
#ifndef GPU_CTA_POLICY_H
#define GPU_CTA_POLICY_H

#include <stdint.h>

typedef enum cta_policy_kind {
#define X(id, name, methods, doc) CTA_POLICY_##id,
#include "gpu/cta_policies.def"
#undef X
    CTA_POLICY_NKINDS
} cta_policy_kind_t;

/* Each policy's gpgpu_cta_policy name, in value order, NULL-terminated. */
extern const char *const cta_policy_names[];

/* What a policy learns of a kernel (the `kernel` query). */
typedef struct cta_policy_kernel {
    uint32_t block[3];        /* CTA shape: y == 1 and z == 1 is a 1D CTA */
    uint32_t code;            /* its static kernel (the same code, the same
                                 number): LCS's lcs_scope=kernel */
    uint32_t tmax;            /* CTAs of it an empty SM holds (occupancy) */
} cta_policy_kernel_t;

/* An SM's cycle counts since the run began (cta_policy_query_t.counters). */
typedef struct cta_policy_counters {
    uint64_t idle;  /* cycles nothing issued and nothing could: no warp, or
                       none ready and none waiting on memory */
    uint64_t mem;   /* cycles nothing issued while warps waited on memory
                       (and no ready warp was held up by the pipeline) */
} cta_policy_counters_t;

/* What a policy may ask of the SMs. */
typedef struct cta_policy_query {
    /* 1 when one more CTA of `kernel` fits on SM `sm` now */
    int (*fits)(const void *ctx, unsigned sm, unsigned kernel);
    /* 1 when n more CTAs of `kernel` fit on SM `sm` now, all at once */
    int (*fits_n)(const void *ctx, unsigned sm, unsigned kernel, unsigned n);
    /* The warp-instructions issued so far by each CTA of `kernel` resident
     * on SM `sm`, into out[0..max): how many CTAs (at most max). */
    unsigned (*issued)(const void *ctx, unsigned sm, unsigned kernel,
                       uint64_t *out, unsigned max);
    void (*kernel)(const void *ctx, unsigned kernel, cta_policy_kernel_t *out);
    uint64_t (*now)(const void *ctx);  /* the core cycle */
    unsigned (*cap)(const void *ctx, unsigned kernel);
    unsigned (*resident)(const void *ctx, unsigned sm, unsigned kernel);
    void (*counters)(const void *ctx, unsigned sm, cta_policy_counters_t *out);
    void (*limit_active)(const void *ctx, unsigned sm, unsigned n);
    const void *ctx;
} cta_policy_query_t;

/* The policies' configuration keys (docs/configs.md). */
typedef enum { CTA_LCS_FLOOR, CTA_LCS_CEIL, CTA_LCS_ROUND } cta_lcs_round_t;
typedef enum { CTA_LCS_LAUNCH, CTA_LCS_KERNEL } cta_lcs_scope_t;
typedef enum { CTA_BCS_NONE, CTA_BCS_SINGLETON } cta_bcs_odd_fill_t;
typedef struct cta_policy_params {
    cta_lcs_round_t lcs_round;
    cta_lcs_scope_t lcs_scope;
    unsigned lcs_monitor_sm;
    cta_bcs_odd_fill_t bcs_odd_fill;
} cta_policy_params_t;

struct simt_config;

/* The GPU a policy places on. */
typedef struct cta_policy_env {
    unsigned clusters, per_cluster; /* SMs = clusters x per_cluster */
    unsigned nkernels;              /* launches in this run */
    unsigned slots;                 /* CTA slots per SM */
    cta_policy_params_t params;
    cta_policy_query_t query;
    /* the run's configuration, for a policy's own keys (dyncta_*); NULL
     * in tests: the keys' defaults */
    const struct simt_config *cfg;
} cta_policy_env_t;

/* What a policy reports per kernel launch (zero where it has nothing):
 * docs/stats.md, lcs_t_max, lcs_t_new, lcs_window_cycles. */
typedef struct cta_policy_kstats {
    uint32_t t_max, t_new;
    uint64_t window_cycles;
} cta_policy_kstats_t;

typedef struct cta_policy_methods {
    /* Allocates the policy's state into *state: 0, or -1 (host memory;
     * free is then called on what *state holds, possibly NULL). */
    int (*init)(void **state, const cta_policy_env_t *env);
    void (*free)(void *state);
    /* the events; NULL for those the policy does not need */
    void (*kernel_ready)(void *state, unsigned kernel, uint64_t ctas);
    void (*cta_done)(void *state, unsigned sm, unsigned kernel, uint64_t cta,
                     uint64_t warp_insns);
    void (*kernel_done)(void *state, unsigned kernel);
    void (*cycle)(void *state, uint64_t now);
    /* n CTAs (1 or 2) with *sm and *kernel set (they fit there), or 0: none
     * this cycle */
    int (*place)(void *state, unsigned cluster, unsigned *sm, unsigned *kernel);
    /* NULL, or what it measured of a kernel (after its end) */
    void (*kernel_stats)(const void *state, unsigned kernel,
                         cta_policy_kstats_t *out);
    /* 1: kernel_ready or cta_done may change an SM's active limit (the
     * query limit_active).  The one-thread loop tells the dispatcher of
     * SM i's completions before SM i+1 steps, so such a change reaches the
     * higher SMs in the same cycle; they then step on one thread
     * (gpu/smpar.h; docs/timing-model.md). */
    unsigned char limits_at_events;
    /* For the idle-cycle skip (gpu/timing.c): the first cycle >= now at
     * which cycle() or place() could place a CTA or change the policy's
     * state, if no event (kernel_ready, cta_done, kernel_done) comes
     * before; UINT64_MAX: never.  NULL: every cycle, so no cycle is ever
     * skipped under the policy (the safe default for a policy whose place
     * keeps state between failed calls, as cke's draining does). */
    uint64_t (*idle_until)(const void *state, uint64_t now);
} cta_policy_methods_t;

/* For idle_until: whether every cluster is blocked (place answers 0 at
 * once and changes nothing until an event), the rule of rr, mcke and
 * dyncta. */
static inline int cta_policy_all_blocked(const uint8_t *blocked,
                                         unsigned clusters)
{
    for (unsigned c = 0; c < clusters; c++)
        if (!blocked[c])
            return 0;
    return 1;
}

#define X(id, name, methods, doc) extern const cta_policy_methods_t methods;
#include "gpu/cta_policies.def"
#undef X

/* A configured policy: its methods and its state. */
typedef struct cta_policy {
    const cta_policy_methods_t *m;
    void *state;
} cta_policy_t;

/* The ready list the placement policies keep: kernels with CTAs left to
 * place, in increasing (launch) order, n of them.  Insert keeps the order;
 * remove takes out the entry at index `at`. */
void cta_ready_insert(unsigned *ready, unsigned *n, unsigned kernel);
void cta_ready_remove(unsigned *ready, unsigned *n, unsigned at);

/* 0, or -1 (an unknown kind, or host memory). */
int cta_policy_init(cta_policy_t *p, cta_policy_kind_t kind,
                    const cta_policy_env_t *env);
void cta_policy_free(cta_policy_t *p);

#endif
