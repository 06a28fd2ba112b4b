/* share_lock_table.h: Scratchpad Sharing's lock table, C twin of
 * rtl/share_lock_table.sv.
 *
 * One SM's resource access unit (reference 000 §2.5, §2.6, §2.11): the ShSM
 * bit, the partner table (ShTB), one lock per pair of CTA slots, FCFS
 * arbitration between the SM's schedulers within a cycle, ownership
 * transfer at block completion, the release input and the OWF class of
 * every CTA slot.  The exact rules, the order in which one cycle's events
 * apply and every decision are in docs/units/share_lock_table.md; this file
 * and the RTL both follow that page.
 *
 * Contract (DESIGN §4.1): share_lock_table_eval() is the combinational
 * output (SV always_comb) and never changes the state; _tick() is the clock
 * edge; _reset() is rst_ni.  The outputs are computed from the next state,
 * so a grant and the classes it changes are visible in the same cycle (the
 * acquisition takes effect at once, §2.11).  Per-slot one-bit ports are bit
 * masks (bit x: CTA slot x), per-scheduler ones too (bit k: scheduler k).
 *
 * Instances: one per SM, instance = SM index (core/sm_share.c drives it).
 * The C fields are the SV names without `_i`, `_o`, `_q`. */
#ifndef UNITS_SHARE_LOCK_TABLE_H
#define UNITS_SHARE_LOCK_TABLE_H

#include <stdint.h>

#include "units/unit_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { SHARE_LOCK_TABLE_MAX_T = 64, SHARE_LOCK_TABLE_MAX_S = 8 };

/* The SV parameters. */
typedef struct share_lock_table_cfg {
    unsigned t;      /* T: CTA slots, 2..64 */
    unsigned s;      /* S: schedulers per SM, 1..8 */
    unsigned part_w; /* PartW: partner entry width, T <= 2^PartW - 1 */
    unsigned pairs;  /* Pairs: pair locks, 1..T/2 */
} share_lock_table_cfg_t;

/* Every input port for one cycle. */
typedef struct share_lock_table_in {
    uint8_t launch;   /* launch_i: a sharing kernel's first block on the SM */
    uint32_t base;    /* base_i: m, the first extra slot (with launch_i) */
    uint32_t pairs;   /* pairs_i: n - m pairs (with launch_i) */
    uint64_t live;    /* live_i: slots holding a block, before done_i */
    uint64_t place;   /* place_i: a new block placed in the slot */
    uint64_t release; /* release_i: the slot's block released (relssp, drained) */
    uint64_t done;    /* done_i: the slot's block completed */
    uint32_t req_valid;                        /* req_valid_i: bit k, scheduler k */
    uint32_t req_slot[SHARE_LOCK_TABLE_MAX_S]; /* req_slot_i: requesting CTA slot */
} share_lock_table_in_t;

/* Every output port. */
typedef struct share_lock_table_out {
    uint32_t grant;                        /* grant_o: bit k; wait = req & ~grant */
    uint8_t cls[SHARE_LOCK_TABLE_MAX_T];   /* cls_o: simt_pkg::owf_class_e per slot */
} share_lock_table_out_t;

/* The flops. */
typedef struct share_lock_table_state {
    share_lock_table_cfg_t cfg;
    uint8_t shsm;                               /* shsm_q */
    uint8_t partner[SHARE_LOCK_TABLE_MAX_T];    /* partner_q: all ones = unshared */
    uint64_t lock_valid;                        /* lock_valid_q: bit j, pair j held */
    uint8_t lock[SHARE_LOCK_TABLE_MAX_T / 2];   /* lock_q: pair j's holder, 0 when free */
    uint64_t rel_done;                          /* rel_done_q */
} share_lock_table_state_t;

extern const unit_desc_t share_lock_table_desc;

/* The parameters for an SM with t CTA slots and s schedulers: PartW =
 * ceil(log2(t+1)), Pairs = t/2. */
share_lock_table_cfg_t share_lock_table_cfg_for(unsigned t, unsigned s);

/* 0, or -1 when cfg is out of range (*st zeroed).  Resets. */
int share_lock_table_init(share_lock_table_state_t *st,
                          const share_lock_table_cfg_t *cfg);
void share_lock_table_reset(share_lock_table_state_t *st);
void share_lock_table_eval(const share_lock_table_state_t *st,
                           const share_lock_table_in_t *in,
                           share_lock_table_out_t *out);
void share_lock_table_tick(share_lock_table_state_t *st,
                           const share_lock_table_in_t *in);

#ifdef __cplusplus
}
#endif

#endif
