/* sm_share.h: Scratchpad Sharing on one SM (reference 000 §2; the
 * mechanism and every decision: docs/scratchpad-sharing.md).
 *
 * State, per SM, written when a CTA of a sharing kernel (sm_kernel_t.ssp_n
 * > ssp_m, from occupancy_sharing) arrives at an empty SM and kept until
 * the SM is empty again (one kernel at a time; a CTA of another kernel
 * does not fit meanwhile):
 *   partner[slot]   CTA slot paired with `slot`, -1 unshared; static for
 *                   the launch: baseline slot j < pairs with extra slot
 *                   m + j (a CTA placed into a slot inherits its status);
 *   holder[j]       pair j's lock: the CTA slot holding it, -1 free;
 *   rel bits        per CTA slot, one per thread: executed relssp;
 *   rel_done        every live thread of the CTA executed relssp;
 *   inflight        the CTA's shared-memory instructions not written back
 *                   (relssp's fence).
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

struct sm;
struct sm_kernel;
struct sm_inst;
struct exec_insn;

typedef struct sm_share {
    const struct sm_kernel *k; /* the sharing kernel; NULL: ShSM = 0 */
    unsigned words;            /* release-bit words per CTA slot */
    int16_t *partner;          /* per CTA slot */
    int16_t *holder;           /* per pair (its baseline slot j) */
    uint64_t *held_since;      /* per pair: cycle its lock was taken */
    uint8_t *rel_done, *rel_pending, *rel_started; /* per CTA slot */
    uint32_t *inflight;        /* per CTA slot */
    uint32_t *rel_bits;        /* per CTA slot, `words` each */
    uint32_t lanes;            /* the lanes of the relssp being issued */
    /* statistics (simt_stats_t ssp_*) */
    uint64_t acquisitions, wait_cycles, transfers, releases, held_cycles;
} sm_share_t;

/* 0, or -1 (host memory).  Allocates only when cfg.ssp_sharing is set. */
int sm_share_init(struct sm *s);
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
void sm_share_placed(struct sm *s, unsigned ci);

/* The issue gate: 1 when warp slot i's next instruction needs its pair's
 * shared region and the partner holds the lock. */
int sm_share_gate_closed(const struct sm *s, unsigned i);

/* The OWF class of CTA slot ci's warps (WARP_ARBITER_OWNER ...). */
uint8_t sm_share_class(const struct sm *s, unsigned ci);

/* Issue of warp slot i's instruction ei: before executing it (takes a
 * free lock; SIMT_OK or SIMT_EFAULT for a shared-region access after the
 * CTA's relssp), and after (relssp bits, the fence count in `in`, exits). */
int sm_share_before_issue(struct sm *s, unsigned i, const struct exec_insn *ei,
                          uint64_t now);
void sm_share_after_issue(struct sm *s, unsigned i, const struct exec_insn *ei,
                          struct sm_inst *in, uint64_t now);
/* An instruction record of a shared access written back. */
void sm_share_retired(struct sm *s, const struct sm_inst *in, uint64_t now);
/* CTA slot ci completed (its tables are cleared; the lock transferred). */
void sm_share_cta_done(struct sm *s, unsigned ci, uint64_t now);

#endif
