/* relssp_release_cases.h: directed cases for the relssp release unit,
 * shared by the C unit test (tests/unit/test_relssp_release.c, the twin
 * alone) and the RTL testbench (tb/relssp_release/, RTL and twin in
 * lockstep).  They are reference 000 §9 tests 9-11 and slot reuse.
 *
 * Every expectation is derived by hand from docs/units/relssp_release.md
 * (all_released_o describes the state after the step's event; a CTA slot
 * with no live, unreleased lane reads 1), in the comment above the case;
 * none is copied from a run.  A case starts from reset and uses warp slots
 * 0..3 and CTA slots 0..2, so it holds for any W >= 4, T >= 3; `expect` is
 * all_released_o bits 0..2 (bit t: CTA slot t), and every higher bit must
 * read 1 (those CTA slots have no rows). */
#ifndef TESTS_UNIT_RELSSP_RELEASE_CASES_H
#define TESTS_UNIT_RELSSP_RELEASE_CASES_H

#include <stdint.h>

typedef struct rr_step {
    unsigned op, slot, cta; /* relssp_release_op_t, warp slot, CTA slot */
    uint32_t lanes;
    unsigned expect; /* all_released_o bits 0..2 */
} rr_step_t;

typedef struct rr_case {
    const char *name;
    const rr_step_t *steps;
    unsigned nsteps;
} rr_case_t;

enum { RR_NONE = 0, RR_ALLOC = 1, RR_RELSSP = 2, RR_EXIT = 3, RR_CLEAR = 4 };

/* §9 test 9, divergent lanes reaching relssp at different times: a block
 * of 48 threads in CTA slot 0, warp slot 0 (32 lanes) and warp slot 1
 * (lanes 0-15).  Half of warp 0 executes relssp, then warp 1, then the
 * other half of warp 0: only the last makes every live lane released.
 * CTA slots 1 and 2 have no rows: 1 throughout (0b110 = slot 0 pending). */
static const rr_step_t rr_divergent_steps[] = {
    { RR_ALLOC, 0, 0, 0xFFFFFFFFu, 0x6 },
    { RR_ALLOC, 1, 0, 0x0000FFFFu, 0x6 },
    { RR_RELSSP, 0, 0, 0x0000FFFFu, 0x6 },
    { RR_RELSSP, 1, 0, 0x0000FFFFu, 0x6 }, /* warp 1 done, lanes 16-31 of 0 not */
    { RR_RELSSP, 0, 0, 0xFFFF0000u, 0x7 },
};

/* §9 test 10, exited lanes do not block: CTA slot 1 with warp slots 2 and
 * 3 (8 lanes each).  Warp 2 releases all its lanes; warp 3's lanes 0-3
 * exit without relssp (still pending: lanes 4-7), then lanes 4-7 execute
 * relssp: released (0b101 = slot 1 pending).  A second exit of lanes that
 * already exited changes nothing. */
static const rr_step_t rr_exit_steps[] = {
    { RR_ALLOC, 2, 1, 0xFFu, 0x5 },
    { RR_ALLOC, 3, 1, 0xFFu, 0x5 },
    { RR_RELSSP, 2, 0, 0xFFu, 0x5 },
    { RR_EXIT, 3, 0, 0x0Fu, 0x5 },
    { RR_RELSSP, 3, 0, 0xF0u, 0x7 },
    { RR_EXIT, 3, 0, 0x0Fu, 0x7 },
};

/* §9 test 11, a second relssp is idempotent: CTA slot 2, warp slot 0 with
 * lanes 0-1.  relssp by lane 0 twice: lane 1 still pending (0b011); by
 * lanes 0-1: released; again: still released.  An exit of every lane after
 * release: released (no live lane). */
static const rr_step_t rr_again_steps[] = {
    { RR_ALLOC, 0, 2, 0x3u, 0x3 },
    { RR_RELSSP, 0, 0, 0x1u, 0x3 },
    { RR_RELSSP, 0, 0, 0x1u, 0x3 },
    { RR_RELSSP, 0, 0, 0x3u, 0x7 },
    { RR_RELSSP, 0, 0, 0x3u, 0x7 },
    { RR_EXIT, 0, 0, 0x3u, 0x7 },
};

/* Slot reuse: a block in CTA slot 0 (warp slot 0, lane 0) releases; the
 * CTA slot is cleared for a new block (still released: no live lane), and
 * the new block's warp in the same warp slot starts unreleased (0b110):
 * release bits never carry over.  A stale row: warp slot 1 joins CTA slot
 * 0 with lane 0 (pending), the clear empties it (released), and warp slot
 * 1 is allocated to CTA slot 1 (0b101) and exits (0b111).  A relssp
 * on lanes that are not live marks nothing: warp slot 2 in CTA slot 2 with
 * lane 0, relssp by lane 1 only: still pending (0b011). */
static const rr_step_t rr_reuse_steps[] = {
    { RR_ALLOC, 0, 0, 0x1u, 0x6 },
    { RR_RELSSP, 0, 0, 0x1u, 0x7 },
    { RR_CLEAR, 0, 0, 0, 0x7 },
    { RR_ALLOC, 0, 0, 0x1u, 0x6 },
    { RR_ALLOC, 1, 0, 0x1u, 0x6 },
    { RR_CLEAR, 0, 0, 0, 0x7 },
    { RR_ALLOC, 1, 1, 0x1u, 0x5 },
    { RR_EXIT, 1, 0, 0x1u, 0x7 },
    { RR_ALLOC, 2, 2, 0x1u, 0x3 },
    { RR_RELSSP, 2, 0, 0x2u, 0x3 },
    { RR_NONE, 0, 0, 0xFFFFFFFFu, 0x3 },
};

#define RR_CASE(n, s) { n, s, sizeof s / sizeof s[0] }
static const rr_case_t rr_cases[] = {
    RR_CASE("divergent lanes reach relssp at different times (§9 test 9)", rr_divergent_steps),
    RR_CASE("exited lanes do not block (§9 test 10)", rr_exit_steps),
    RR_CASE("a second relssp is idempotent (§9 test 11)", rr_again_steps),
    RR_CASE("slot reuse: fresh bits, stale rows cleared", rr_reuse_steps),
};
enum { RR_NCASES = sizeof rr_cases / sizeof rr_cases[0] };

#endif
