/* split_edges.h: splitting one CFG edge, for the passes that split
 * (split_edges.c splits every critical edge; relssp's ssp_split only
 * those where a relssp goes).
 *
 * The edge from block b to its successor t gets a block of its own
 * holding `bra.uni t`: the branch edge's block goes at the end of the
 * function (the branch retargeted to it), the fall-through edge's between
 * b and t (other branches to t still go to t).  Every thread runs the
 * same instructions as before plus that branch when it takes the edge. */
#ifndef COMPILER_SPLIT_EDGES_H
#define COMPILER_SPLIT_EDGES_H

#include <stdint.h>

#include "ptx/cfg.h"
#include "ptx/ir.h"

/* The edge b->t of cfg as split_edge takes it: *from the last instruction
 * of b, *to the first of t, *taken whether it is b's branch edge. */
void split_edge_ends(const ptx_module_t *m, const ptx_cfg_t *cfg, uint32_t b,
                     uint32_t t, uint32_t *from, uint32_t *to, int *taken);

/* Splits that edge in function f of m (cfg's indices before the edit).
 * 0, or -1 when out of memory. */
int split_edge(ptx_module_t *m, uint32_t f, uint32_t from, uint32_t to,
               int taken);

#endif
