/* relssp.c: the relssp placement pass (relssp.h has the placements'
 * contract).  Each placement is a method that lists insertion points over
 * the kernel's CFG; the pass inserts a `relssp` at each, last point
 * first so the earlier indices stay valid.  A point is an instruction
 * index and whether branches to that instruction should run the relssp
 * (the start of a block: they should) or not (after an access, in the
 * middle or at the end of a block: only the fall-through does).
 *
 * The kernel function only: a shared access inside a called function
 * counts at its call (ssp_access.h), and relssp goes in the kernel. */
#include "compiler/relssp.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/pass.h"
#include "compiler/split_edges.h"
#include "compiler/ssp_access.h"
#include "ptx/edit.h"

const char *const relssp_placement_names[] = {
#define X(id, name) #name,
    RELSSP_PLACEMENTS(X)
#undef X
    NULL
};

typedef struct relssp_point {
    uint32_t at;     /* module instruction index the relssp goes before */
    uint8_t follow;  /* branches to `at` run it (ptx_insert's labels_follow) */
} relssp_point_t;

/* What a placement works on: the analysis, the shared-region variables,
 * and the points it adds (at most two per block: eq. 1 and eq. 2). */
typedef struct relssp_ctx {
    const ssp_access_t *a;
    ssp_set_t region;
    relssp_point_t *pts;
    uint32_t npts;
    simt_error_t *err;
} relssp_ctx_t;

typedef struct relssp_method {
    /* SIMT_OK, or an error status with ctx->err filled. */
    int (*place)(relssp_ctx_t *ctx);
} relssp_method_t;

/* Module index of block b's last shared-region access, or PTX_CFG_NONE. */
static uint32_t last_access(const relssp_ctx_t *x, uint32_t b)
{
    const ptx_block_t *bl = &x->a->cfg->blocks[b];
    uint32_t base = bl->first - x->a->m->funcs[x->a->kernel].first;
    for (uint32_t i = bl->count; i-- > 0;)
        if (x->a->acc[base + i] & x->region)
            return bl->first + i;
    return PTX_CFG_NONE;
}

static void add_point(relssp_ctx_t *x, uint32_t at, int follow)
{
    x->pts[x->npts++] = (relssp_point_t){ at, (uint8_t)follow };
}

static int place_none(relssp_ctx_t *x)
{
    (void)x;
    return SIMT_OK;
}

/* The Safe analysis over the greatest fixed point (Safe* start true):
 *   SafeIN(B)  = false if B makes a shared-region access, else SafeOUT(B)
 *   SafeOUT(B) = true for Exit, else AND over successors of SafeIN
 * in[] and out[] have nblocks + 1 entries (the virtual exit is safe).
 * SafeIN(B) is "no shared-region access is reachable from B's start". */
static void safe(const ssp_access_t *a, ssp_set_t region, uint8_t *in, uint8_t *out)
{
    const ptx_cfg_t *c = a->cfg;
    uint32_t nb = c->nblocks;
    memset(in, 1, nb + 1);
    memset(out, 1, nb + 1);
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = nb; b-- > 0;) {
            uint8_t o = 1;
            for (uint32_t e = 0; e < c->blocks[b].nsucc; e++)
                o &= in[c->blocks[b].succ[e]];
            uint8_t i = (a->blk_acc[b] & region) ? 0 : o;
            changed |= o != out[b] || i != in[b];
            out[b] = o;
            in[b] = i;
        }
    }
}

/* Eqs. 1-2 of the paper:
 *   INS_OUT(B) = SafeOUT(B) and not SafeIN(B): after B's last access
 *   INS_IN(B)  = not (AND over predecessors of SafeOUT) and SafeIN(B):
 *                at B's start. */
static int place_opt(relssp_ctx_t *x)
{
    const ptx_cfg_t *c = x->a->cfg;
    uint32_t nb = c->nblocks;
    uint8_t *in = malloc(nb + 1), *out = malloc(nb + 1);
    if (!in || !out) {
        free(in);
        free(out);
        return set_error(x->err, SIMT_EINPUT, "out of host memory in pass relssp");
    }
    safe(x->a, x->region, in, out);
    for (uint32_t b = 0; b < nb; b++) {
        if (!c->blocks[b].reachable)
            continue;
        if (out[b] && !in[b]) /* eq. 1, hoisted to the last access */
            add_point(x, last_access(x, b) + 1, 0);
        uint8_t all = 1;
        for (uint32_t e = 0; e < c->blocks[b].npreds; e++)
            all &= out[c->blocks[b].preds[e]];
        if (!all && in[b]) /* eq. 2 */
            add_point(x, c->blocks[b].first, 1);
    }
    free(in);
    free(out);
    return SIMT_OK;
}

/* Nearest common post-dominator of blocks p and q (the exit at worst). */
static uint32_t common_postdom(const ptx_cfg_t *c, uint8_t *mark, uint32_t p,
                               uint32_t q)
{
    memset(mark, 0, c->nblocks + 1);
    for (uint32_t y = p; y != PTX_CFG_NONE; y = c->blocks[y].ipdom) {
        mark[y] = 1;
        if (y == c->exit)
            break;
    }
    for (uint32_t y = q; y != PTX_CFG_NONE; y = c->blocks[y].ipdom)
        if (mark[y] || y == c->exit)
            return y;
    return c->exit;
}

/* One relssp in the nearest block on every path (it post-dominates the
 * entry) that post-dominates every block making a shared-region access
 * and is in no loop (so every thread runs it once, after its last
 * access: a later access would put the block in a loop). */
static int place_postdom(relssp_ctx_t *x)
{
    const ptx_cfg_t *c = x->a->cfg;
    uint8_t *mark = malloc(c->nblocks + 1);
    if (!mark)
        return set_error(x->err, SIMT_EINPUT, "out of host memory in pass relssp");
    uint32_t p = 0;
    int any = 0;
    for (uint32_t b = 0; b < c->nblocks; b++)
        if (c->blocks[b].reachable && (x->a->blk_acc[b] & x->region)) {
            p = common_postdom(c, mark, p, b);
            any = 1;
        }
    free(mark);
    if (!any)
        return SIMT_OK;
    while (p != c->exit && x->a->depth[p] > 0)
        p = c->blocks[p].ipdom;
    if (p == c->exit)
        return set_error(x->err, SIMT_EINPUT, "relssp placement postdom: no "
                         "block of kernel '%s' outside loops lies on every "
                         "path after its scratchpad accesses (run unique_exit "
                         "first)", x->a->m->funcs[x->a->kernel].name);
    uint32_t last = last_access(x, p);
    if (last != PTX_CFG_NONE)
        add_point(x, last + 1, 0);
    else
        add_point(x, c->blocks[p].first, 1);
    return SIMT_OK;
}

static const relssp_method_t methods[RELSSP_NPLACEMENTS] = {
    [RELSSP_NONE] = { place_none },
    [RELSSP_OPT] = { place_opt },
    [RELSSP_POSTDOM] = { place_postdom },
};

static int by_index_desc(const void *pa, const void *pb)
{
    const relssp_point_t *a = pa, *b = pb;
    if (a->at != b->at)
        return a->at < b->at ? 1 : -1;
    return (int)b->follow - (int)a->follow;
}

/* The region's first byte under the current layout. */
static ssp_set_t region_of(const compiler_unit_t *u, const ssp_access_t *a)
{
    uint64_t limit = ssp_unshared_limit(
        a->rtb, (uint32_t)simt_config_get(u->cfg, SIMT_CFG_SSP_THRESHOLD));
    return ssp_region_vars(a, limit);
}

static int run(compiler_unit_t *u)
{
    int64_t kind = simt_config_get(u->cfg, SIMT_CFG_SSP_RELSSP);
    if (kind <= RELSSP_NONE || kind >= RELSSP_NPLACEMENTS)
        return SIMT_OK;
    ssp_access_t a;
    if (ssp_access_build(&a, u->mod, u->kernel, u->err) != SIMT_OK)
        return SIMT_EINPUT;
    relssp_ctx_t x = {
        .a = &a, .region = region_of(u, &a),
        .pts = malloc(2 * ((size_t)a.cfg->nblocks + 1) * sizeof *x.pts),
        .err = u->err,
    };
    int rc = x.pts ? methods[kind].place(&x)
                   : set_error(u->err, SIMT_EINPUT, "out of host memory in pass relssp");
    uint32_t f = u->kernel;
    ssp_access_free(&a);
    qsort(x.pts, x.npts, sizeof *x.pts, by_index_desc);
    ptx_module_t *m = rc == SIMT_OK && x.npts ? compiler_writable(u) : NULL;
    for (uint32_t i = 0; m && i < x.npts && rc == SIMT_OK; i++) {
        ptx_insn_t r = ptx_make_relssp(f);
        if (ptx_insert(m, f, x.pts[i].at, &r, 1, x.pts[i].follow) != 0)
            rc = set_error(u->err, SIMT_EINPUT, "out of host memory in pass relssp");
    }
    if (rc == SIMT_OK && x.npts && !m)
        rc = SIMT_EINPUT; /* compiler_writable filled err */
    free(x.pts);
    return rc;
}

static int selected(const simt_config_t *cfg)
{
    return simt_config_get(cfg, SIMT_CFG_SSP_RELSSP) != RELSSP_NONE;
}

const compiler_pass_t compiler_pass_relssp = {
    .name = "relssp",
    .summary = "Scratchpad Sharing: relssp after the last shared-region access "
               "(ssp_relssp = opt | postdom)",
    .selected = selected,
    .run = run,
};

/* ---- ssp_split: the critical edges a relssp goes on ----
 *
 * Eq. 2 puts a relssp at the start of a safe block entered from an unsafe
 * predecessor; when that edge is critical, the relssp would also run on
 * the target's other incoming paths (twice on some).  The paper splits
 * every critical edge first.  Splitting an edge adds an empty block whose
 * Safe values are its target's, so only the edges from an unsafe block
 * into a safe block with other predecessors ever receive a relssp; this
 * pass splits exactly those, and relssp (opt) then places the same
 * relssps as after split_edges, without the GOTOs on edges that receive
 * none (split_edges, selected by compiler_split_critical_edges, still
 * splits them all).  It finds one edge per CFG, splits it, and looks
 * again, until none is left. */

/* Finds an unsafe->safe critical edge of the kernel: 1 (and *from, *to,
 * *taken as split_edge takes them), 0 when none, -1 on error. */
static int find_release_edge(compiler_unit_t *u, uint32_t *from, uint32_t *to,
                             int *taken)
{
    ssp_access_t a;
    if (ssp_access_build(&a, u->mod, u->kernel, u->err) != SIMT_OK)
        return -1;
    const ptx_cfg_t *c = a.cfg;
    uint8_t *in = malloc(c->nblocks + 1), *out = malloc(c->nblocks + 1);
    int found = in && out ? 0 : -1;
    if (found == 0)
        safe(&a, region_of(u, &a), in, out);
    for (uint32_t b = 0; found == 0 && b < c->nblocks; b++) {
        if (!c->blocks[b].reachable || out[b])
            continue;
        for (uint32_t e = 0; e < c->blocks[b].nsucc && !found; e++) {
            uint32_t t = c->blocks[b].succ[e];
            if (t != c->exit && in[t] && c->blocks[t].npreds > 1) {
                split_edge_ends(u->mod, c, b, t, from, to, taken);
                found = 1;
            }
        }
    }
    if (found < 0)
        set_error(u->err, SIMT_EINPUT, "out of host memory in pass ssp_split");
    free(in);
    free(out);
    ssp_access_free(&a);
    return found;
}

static int split_run(compiler_unit_t *u)
{
    uint32_t from, to;
    int taken, r;
    while ((r = find_release_edge(u, &from, &to, &taken)) == 1) {
        ptx_module_t *m = compiler_writable(u);
        if (!m)
            return SIMT_EINPUT;
        if (split_edge(m, u->kernel, from, to, taken) != 0)
            return set_error(u->err, SIMT_EINPUT, "out of host memory in pass "
                             "ssp_split");
    }
    return r < 0 ? SIMT_EINPUT : SIMT_OK;
}

static int split_selected(const simt_config_t *cfg)
{
    return simt_config_get(cfg, SIMT_CFG_SSP_RELSSP) == RELSSP_OPT;
}

const compiler_pass_t compiler_pass_ssp_split = {
    .name = "ssp_split",
    .summary = "Scratchpad Sharing: split the critical edges where relssp (opt) "
               "releases (ssp_relssp = opt)",
    .selected = split_selected,
    .run = split_run,
};
