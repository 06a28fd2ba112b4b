/* relssp_release.h: the relssp release unit, C twin of rtl/relssp_release.sv.
 *
 * Scratchpad Sharing's per-thread release bits (reference 000 §2.5-§2.7,
 * Fig. 11): per warp slot the live lanes (A_i: the thread exists and has
 * not exited) and the released lanes (R_i: the thread executed relssp),
 * and the CTA slot the warp belongs to; per CTA slot the reduction
 * all_released = AND over its threads of (not A_i or R_i).  The rules, the
 * decisions and the reset are in docs/units/relssp_release.md; this file
 * and the RTL both follow that page.
 *
 * One event per clock (op_i): a warp allocated into a slot, relssp
 * executed by some lanes of a warp, lanes exiting, or a CTA slot cleared.
 * all_released_o is the reduction over the state *after* this clock's
 * event (a Mealy output: the SM acts on it in the event's cycle).
 *
 * Contract (DESIGN §4.1): relssp_release_eval() is the combinational
 * output and never changes the state; relssp_release_tick() is the clock
 * edge; relssp_release_reset() is rst_ni asserted.  Every port and flop is
 * declared once in relssp_release_desc (units/unit_desc.h); the C fields
 * are the SV names without `_i`, `_o`, `_q`.
 *
 * Instances: one per SM that runs a sharing kernel; instance = SM index;
 * W = the SM's warp slots, T = its CTA slots (core/sm_share.c).
 *
 * Invariants: rel[i] is a subset of live[i] (relssp marks live lanes
 * only; an exit clears both); a row whose cta names a CTA slot that was
 * cleared has no live lane. */
#ifndef UNITS_RELSSP_RELEASE_H
#define UNITS_RELSSP_RELEASE_H

#include <stdint.h>

#include "units/unit_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { RELSSP_RELEASE_MAX_W = 128, RELSSP_RELEASE_MAX_T = 64 };

/* op_i (simt_pkg::relssp_op_e). */
typedef enum relssp_release_op {
    RELSSP_OP_NONE = 0,   /* nothing: the state stays */
    RELSSP_OP_ALLOC = 1,  /* warp slot `slot` now holds a warp of CTA slot
                             `cta` whose live lanes are `lanes` */
    RELSSP_OP_RELSSP = 2, /* lanes `lanes` of slot `slot` executed relssp */
    RELSSP_OP_EXIT = 3,   /* lanes `lanes` of slot `slot` exited */
    RELSSP_OP_CLEAR = 4   /* CTA slot `cta` gets a new block: its rows empty */
} relssp_release_op_t;

/* The SV parameters. */
typedef struct relssp_release_cfg {
    unsigned w; /* W: warp slots, 1..128 */
    unsigned t; /* T: CTA slots, 1..64 */
} relssp_release_cfg_t;

/* Every input port (one event). */
typedef struct relssp_release_in {
    uint8_t op;     /* op_i: relssp_release_op_t (3 bits) */
    uint32_t slot;  /* slot_i: warp slot (IdxW bits) */
    uint32_t cta;   /* cta_i: CTA slot (CtaW bits) */
    uint32_t lanes; /* lanes_i: a lane mask, bit l: lane l */
} relssp_release_in_t;

/* Every output port. */
typedef struct relssp_release_out {
    uint64_t all_released; /* all_released_o, bit t: CTA slot t */
} relssp_release_out_t;

/* The flops. */
typedef struct relssp_release_state {
    relssp_release_cfg_t cfg;
    uint32_t live[RELSSP_RELEASE_MAX_W]; /* live_q: A_i per lane */
    uint32_t rel[RELSSP_RELEASE_MAX_W];  /* rel_q: R_i per lane */
    uint8_t cta[RELSSP_RELEASE_MAX_W];   /* cta_q: the row's CTA slot */
} relssp_release_state_t;

/* The unit's declaration: parameters, ports, flops, twin, coverage. */
extern const unit_desc_t relssp_release_desc;

/* 0, or -1 when cfg is out of range (then *s is left zeroed).  Resets. */
int relssp_release_init(relssp_release_state_t *s, const relssp_release_cfg_t *cfg);

/* rst_ni asserted: every flop to 0 (keeps cfg). */
void relssp_release_reset(relssp_release_state_t *s);

/* all_released_o for this clock's event (the state after it). */
void relssp_release_eval(const relssp_release_state_t *s,
                         const relssp_release_in_t *in, relssp_release_out_t *out);

/* The clock edge of the event `in`. */
void relssp_release_tick(relssp_release_state_t *s, const relssp_release_in_t *in);

/* The reduction over a state alone (no event): bit t set iff no row of
 * CTA slot t has a live lane that has not released. */
uint64_t relssp_release_reduce(const relssp_release_state_t *s);

#ifdef __cplusplus
}
#endif

#endif
