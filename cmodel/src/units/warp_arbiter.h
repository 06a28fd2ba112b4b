/* warp_arbiter.h: the warp arbiter unit, C twin of rtl/warp_arbiter.sv.
 *
 * One warp scheduler's issue arbiter over N slots with four policies (LRR,
 * GTO, OWF, LTLWS).  The exact rules, every decision the references leave
 * open, and the reset and same-cycle behaviour are in
 * docs/units/warp_arbiter.md; this file and the RTL both follow that page.
 *
 * Contract (DESIGN §4.1): warp_arbiter_eval() is the combinational output
 * (SV always_comb) and never changes the state; warp_arbiter_tick() is the
 * clock edge (SV always_ff); warp_arbiter_reset() is rst_ni asserted.
 * Per-slot one-bit ports are bit masks (bit i: slot i).  Every port and
 * flop is declared once in warp_arbiter_desc (units/unit_desc.h); the C
 * fields are the SV names without `_i`, `_o`, `_q`. */
#ifndef UNITS_WARP_ARBITER_H
#define UNITS_WARP_ARBITER_H

#include <stdint.h>

#include "units/unit_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { WARP_ARBITER_MAX_N = 64 };

typedef enum warp_arbiter_policy {
    WARP_ARBITER_LRR = 0,
    WARP_ARBITER_GTO = 1,
    WARP_ARBITER_OWF = 2,
    WARP_ARBITER_LTLWS = 3
} warp_arbiter_policy_t;

/* OWF classes (cls port). */
enum { WARP_ARBITER_OWNER = 0, WARP_ARBITER_UNSHARED = 1,
       WARP_ARBITER_NONOWNER = 2 };

/* The SV parameters. */
typedef struct warp_arbiter_cfg {
    unsigned n;      /* N: slots, 1..64 (default 24) */
    unsigned cnt_w;  /* CntW: issue-counter width, 1..32 (default 32) */
    unsigned wopt_w; /* WoptW: W_Opt register width, N < 2^WoptW (6) */
} warp_arbiter_cfg_t;

/* Every input port for one cycle. */
typedef struct warp_arbiter_in {
    uint64_t valid;     /* valid_i */
    uint64_t ready;     /* ready_i */
    uint64_t alloc;     /* alloc_i: a new warp enters the slot (youngest) */
    uint64_t finished;  /* finished_i: the slot's warp finished */
    uint8_t cls[WARP_ARBITER_MAX_N]; /* cls_i: 0 owner, 1 unshared, 2 non-owner */
    uint8_t issued_valid; /* issued_valid_i */
    uint32_t issued_idx;  /* issued_idx_i */
    uint8_t policy;       /* policy_i: warp_arbiter_policy_t */
    uint8_t ltlws_inner;  /* ltlws_inner_i: 0 GTO, 1 LRR */
} warp_arbiter_in_t;

/* Every output port. */
typedef struct warp_arbiter_out {
    uint8_t grant_valid; /* grant_valid_o */
    uint32_t grant_idx;  /* grant_idx_o: 0 when grant_valid is 0 */
} warp_arbiter_out_t;

/* The flops. */
typedef struct warp_arbiter_state {
    warp_arbiter_cfg_t cfg;
    uint8_t last_valid;                 /* last_valid_q */
    uint32_t last;                      /* last_q */
    uint64_t age[WARP_ARBITER_MAX_N];   /* age_q: row i bit j, i older than j */
    uint32_t cnt[WARP_ARBITER_MAX_N];   /* cnt_q */
    uint8_t wopt_valid;                 /* wopt_valid_q */
    uint32_t wopt;                      /* wopt_q */
} warp_arbiter_state_t;

/* The unit's declaration: parameters, ports, flops, twin, coverage. */
extern const unit_desc_t warp_arbiter_desc;

/* The defaults: N 24, CntW 32, WoptW 6. */
warp_arbiter_cfg_t warp_arbiter_default_cfg(void);

/* 0, or -1 when cfg is out of range (then *s is left zeroed).  Resets. */
int warp_arbiter_init(warp_arbiter_state_t *s, const warp_arbiter_cfg_t *cfg);

/* rst_ni asserted: every flop to its reset value (keeps cfg). */
void warp_arbiter_reset(warp_arbiter_state_t *s);

/* The combinational outputs for this cycle's inputs. */
void warp_arbiter_eval(const warp_arbiter_state_t *s,
                       const warp_arbiter_in_t *in, warp_arbiter_out_t *out);

/* The same with cls_i given as two bit masks instead of in->cls (which is
 * not read): bit i of cls_b0 and cls_b1 are bits 0 and 1 of slot i's
 * class.  For a caller that keeps the classes as masks and has no hook
 * watching the ports (core/sched_arbiter.c), so that the per-slot bytes
 * are neither copied nor read at every pick. */
void warp_arbiter_eval_classes(const warp_arbiter_state_t *s,
                               const warp_arbiter_in_t *in, uint64_t cls_b0,
                               uint64_t cls_b1, warp_arbiter_out_t *out);

/* The clock edge at the end of the cycle whose inputs are `in`. */
void warp_arbiter_tick(warp_arbiter_state_t *s, const warp_arbiter_in_t *in);

/* W_Opt from Eq. 14 with the unit's clamps: c == 0 ? n : clamp(sum/c, 1, n). */
uint32_t warp_arbiter_wopt(uint64_t sum, uint32_t c, unsigned n);

#ifdef __cplusplus
}
#endif

#endif
