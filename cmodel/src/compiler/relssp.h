/* relssp.h: the placements of Scratchpad Sharing's `relssp` (seed 000,
 * Sec. 6.3; reference notes §3.4), one method-table entry each, selected
 * by the configuration key ssp_relssp (the names below, in value order):
 *   none     no relssp (the block keeps the shared region until it ends);
 *   opt      the Safe analysis (eqs. 1-2, greatest fixed point): a relssp
 *            right after the last shared-region access of a block where
 *            the kernel becomes safe (eq. 1), or at the start of a block
 *            entered from an unsafe predecessor (eq. 2).  Run after
 *            unique_exit and split_edges, every Entry->Exit path runs
 *            exactly one relssp, after its last shared-region access,
 *            when any such access is reachable from Entry (a path that
 *            makes none gets it where it leaves the unsafe part: the
 *            paper's OPT2), and none when no access is;
 *   postdom  one relssp in the nearest block that post-dominates the
 *            entry and every block with a shared-region access and lies
 *            in no loop: after its last access, or at its start.
 * relssp.c also defines the pass ssp_split, selected with opt, which
 * splits the critical edges on which opt's eq. 2 releases (and only
 * those), so that run after it opt places one relssp per path.
 * "Shared-region access" is ssp_access.h's: an instruction that may touch
 * a variable with a byte at or above ssp_unshared_limit(R_tb, t) under
 * the current layout (run ssp_layout first to choose it). */
#ifndef COMPILER_RELSSP_H
#define COMPILER_RELSSP_H

#define RELSSP_PLACEMENTS(X) X(NONE, none) X(OPT, opt) X(POSTDOM, postdom)

typedef enum relssp_placement {
#define X(id, name) RELSSP_##id,
    RELSSP_PLACEMENTS(X)
#undef X
    RELSSP_NPLACEMENTS
} relssp_placement_t;

/* The names of the placements in value order, NULL-terminated (the
 * values of the configuration key ssp_relssp). */
extern const char *const relssp_placement_names[];

#endif
