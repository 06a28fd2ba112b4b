/* sm_share.h: Scratchpad Sharing on one SM (reference 000 §2; the
 * mechanism and every decision: docs/scratchpad-sharing.md).
 *
 * State, per SM, written when a CTA of a sharing kernel (sm_kernel_t.ssp_n
 * > ssp_m, from occupancy_sharing) arrives at an empty SM and kept until
 * the SM is empty again (one kernel at a time; a CTA of another kernel
 * does not fit meanwhile):
 *   lock table      the unit share_lock_table (units/share_lock_table.h,
 *                   instance = SM index): ShSM, the partner table, each
 *                   pair's lock, FCFS arbitration between the schedulers,
 *                   transfer at completion and the OWF class of every CTA
 *                   slot live in its state and are decided by its eval and
 *                   tick.  Partners are static for the launch: baseline
 *                   slot j < pairs with extra slot m + j (a CTA placed
 *                   into a slot inherits its status); sm_share_partner
 *                   gives the same rule to placement and aliasing.  It is
 *                   clocked in the cycles with an event (a placement, a
 *                   request, a release, a completion): evaluated after
 *                   each event with the cycle's inputs so far (its outputs
 *                   come from the next state, so a later scheduler sees an
 *                   earlier one's acquisition), ticked at the end of
 *                   sm_cycle (sm_share_clock);
 *   held_since[j]   statistics: the cycle pair j's lock was taken;
 *   rel             the relssp release unit's twin (units/relssp_release.h,
 *                   instance = SM index): per warp slot the live and the
 *                   released lanes and the CTA slot; its all_released_o
 *                   says, per CTA slot, that every live thread executed
 *                   relssp.  Fed one event per clock: a warp placed, a
 *                   relssp, lanes exiting, a CTA slot cleared for a new
 *                   block (docs/units/relssp_release.md, "In the SM");
 *   rel_done        every live thread of the CTA executed relssp (latched
 *                   from all_released_o after the CTA's first relssp);
 *   inflight        the CTA's shared-memory instructions not written back
 *                   (relssp's fence);
 *   prog            per CTA slot, the progress of a paired CTA (Fig. 19,
 *                   below): its start, first shared-region access and
 *                   release cycles.
 * Scratchpad layout (fixed per launch): baseline slot k owns
 * [k*R_tb, (k+1)*R_tb); extra slot m+j owns the private slice
 * [m*R_tb + j*priv, +priv) and its offsets >= limit alias slot j's bytes.
 *
 * Invariants: a lock is held only by a live CTA of its pair; a CTA's warps
 * see class owner iff it holds the lock, non-owner iff its partner does,
 * unshared otherwise (a free pair's CTAs included, reference §8.4); every
 * change of a lock touches both CTAs' warp slots (the readiness cache,
 * core/sm_ready.h: the smem_lock gate and the OWF class). */
#ifndef CORE_SM_SHARE_H
#define CORE_SM_SHARE_H

#include <stdint.h>

#include "units/relssp_release.h"
#include "units/share_lock_table.h"

struct sm;
struct sm_kernel;
struct sm_inst;
struct exec_insn;

/* Fig. 19's progress breakdown of one paired CTA (a CTA placed in a CTA
 * slot that has a partner slot for the launch, owner or not;
 * docs/scratchpad-sharing.md, "Progress of paired CTAs").  Three cycles
 * split its life [start, end) into
 *   pre-acquire  [start, acquire): before its first shared-region access
 *                issued (waiting for the partner's lock counts here, and
 *                so does a lock it was handed at the partner's completion
 *                but has not used yet);
 *   shared       [acquire, release): from that access until its relssp
 *                release took effect (every live thread executed relssp
 *                and its shared accesses drained), or until its end;
 *   post-release [release, end).
 * A CTA that never touches the region is pre-acquire all its life, or
 * until its release, then post-release (shared = 0).  An access after the
 * release is a fault, so acquire <= release whenever both are set.
 * SM_SHARE_NEVER: the event has not happened. */
#define SM_SHARE_NEVER UINT64_MAX
typedef struct sm_share_progress {
    uint64_t start, acquire, release;
    uint8_t paired;            /* counted: the CTA's slot has a partner */
} sm_share_progress_t;

/* The progress record of a CTA placed at cycle now (paired or not). */
void sm_share_progress_begin(sm_share_progress_t *p, int paired, uint64_t now);
/* A shared-region access issued at now (the first one sets acquire). */
void sm_share_progress_access(sm_share_progress_t *p, uint64_t now);
/* The CTA's relssp release took effect at now (the first one counts). */
void sm_share_progress_release(sm_share_progress_t *p, uint64_t now);
/* The CTA completed at now: adds its pre-acquire, shared and post-release
 * cycles to cyc[0..2] and returns 1 when it is paired; 0 and nothing
 * added otherwise. */
int sm_share_progress_end(const sm_share_progress_t *p, uint64_t now, uint64_t cyc[3]);

typedef struct sm_share {
    const struct sm_kernel *k; /* the sharing kernel; NULL: ShSM = 0 */
    share_lock_table_state_t lt;  /* the lock table (twin) */
    share_lock_table_in_t lin;    /* its inputs of the open cycle */
    share_lock_table_out_t lout;  /* its outputs after the last eval */
    uint8_t launch;            /* the next placement launches the kernel */
    uint8_t lt_open;           /* an event in cycle lt_cycle: tick pending */
    uint8_t lt_stop;           /* a hook stopped the run (co-simulation) */
    const char *lt_why;        /* why, when the model itself stops it */
    uint64_t lt_cycle;
    /* Per CTA slot, for the sharing kernel k (written with k, read only
     * while k is set): its partner slot and its pair (the lower slot of
     * the two), -1 when unshared: sm_share_partner's rule as a table, so
     * that the issue of every instruction looks its pair up without the
     * rule's data-dependent branches. */
    int8_t partner[SHARE_LOCK_TABLE_MAX_T], pair[SHARE_LOCK_TABLE_MAX_T];
    /* Per PC of k's program (written with k): relssp, or a ld/st/atom/red
     * that may reach shared memory (sm_share.c, insn_flags), so that the
     * issue hooks skip every other instruction without reading its IR.
     * pcf_n 0: no table (host memory), each instruction is looked at. */
    const struct exec_insn *pcf_code;
    uint8_t *pcf;
    uint32_t pcf_n, pcf_cap;
    uint64_t *held_since;      /* per pair: cycle its lock was taken */
    uint8_t *rel_done, *rel_pending, *rel_started; /* per CTA slot */
    uint32_t *inflight;        /* per CTA slot */
    relssp_release_state_t *rel; /* the release unit's twin */
    uint32_t lanes;            /* the lanes of the relssp being issued */
    sm_share_progress_t *prog; /* per CTA slot */
    /* statistics (simt_stats_t ssp_*) */
    uint64_t acquisitions, wait_cycles, transfers, releases, held_cycles;
    uint64_t paired_ctas;      /* paired CTAs completed */
    uint64_t progress[3];      /* their pre-acquire, shared, post-release cycles */
    /* The warp slots whose first closed gate is the lock: the bits of
     * every scheduler's blocked[SM_GATE_SMEM_LOCK], kept by
     * sm_ready_refresh (the only place those masks change), so that each
     * cycle adds it to wait_cycles without counting the masks' bits. */
    uint32_t lock_blocked;
} sm_share_t;

/* NULL, or why not (host memory, too many CTA slots or schedulers for the
 * lock table, a co-simulation stop at its reset).  Allocates only when
 * cfg.ssp_sharing is set. */
const char *sm_share_init(struct sm *s);
void sm_share_free(struct sm *s);

/* Placement.  sm_share_fits: -1 when k is placed as without sharing, else
 * whether one more CTA of k fits (a free slot below n, warps, threads and
 * registers).  sm_share_slot: the CTA slot and scratchpad base for the
 * next CTA of k (lowest free slot below n), setting the tables up when
 * the SM is empty; -1 when not sharing.  sm_share_placed: the CTA in
 * slot ci was initialised: aliasing and fresh relssp state. */
int sm_share_fits(const struct sm *s, const struct sm_kernel *k);
/* The same for n CTAs at once (BCS's pairs, sm_can_take_ctas). */
int sm_share_fits_n(const struct sm *s, const struct sm_kernel *k, unsigned n);
int sm_share_slot(struct sm *s, const struct sm_kernel *k, unsigned *ci,
                  uint32_t *base);
void sm_share_placed(struct sm *s, unsigned ci, uint64_t now);
/* CTA slot ci's warps are in their warp slots: the release unit clears ci's
 * rows and takes each warp (reset first when the CTA is the kernel's first
 * on this SM).  SIMT_OK, or SIMT_ECOSIM when a unit hook stopped the run. */
int sm_share_warps_placed(struct sm *s, unsigned ci, uint64_t now);
/* The CTA slot paired with slot ci for the sharing kernel, -1 unshared. */
int sm_share_partner(const struct sm *s, unsigned ci);

/* The issue gate: 1 when warp slot i's next instruction needs its pair's
 * shared region and the partner holds the lock. */
int sm_share_gate_closed(const struct sm *s, unsigned i);

/* The OWF class of CTA slot ci's warps (WARP_ARBITER_OWNER ...). */
uint8_t sm_share_class(const struct sm *s, unsigned ci);

/* Issue of warp slot i's instruction ei: before executing it (requests
 * the lock; SIMT_OK, SIMT_EFAULT for a shared-region access after the
 * CTA's relssp, SIMT_ECOSIM when the co-simulation stops or the lock
 * table refuses a request whose gate was open: sm_share_t.lt_why), and
 * after (the release unit's relssp and exit events, the fence count in `in`;
 * SIMT_OK, or SIMT_ECOSIM when a unit hook stopped the run). */
int sm_share_before_issue(struct sm *s, unsigned i, const struct exec_insn *ei,
                          uint64_t now);
int sm_share_after_issue(struct sm *s, unsigned i, const struct exec_insn *ei,
                         struct sm_inst *in, uint64_t now);
/* An instruction record of a shared access written back. */
void sm_share_retired(struct sm *s, const struct sm_inst *in, uint64_t now);
/* CTA slot ci completed (its tables are cleared; the lock transferred). */
void sm_share_cta_done(struct sm *s, unsigned ci, uint64_t now);
/* The end of cycle `now`: ticks the lock table if it was evaluated.
 * SIMT_OK, or SIMT_ECOSIM when a hook of this cycle stopped the run. */
int sm_share_clock(struct sm *s, uint64_t now);

#endif
