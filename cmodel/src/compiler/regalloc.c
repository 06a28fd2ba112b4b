/* regalloc.c: interference-graph register allocation without spilling.
 *
 * 1. Liveness (ptx/liveness.h) gives the set live after every instruction.
 * 2. Interference: every register an instruction defines interferes with
 *    every register live after it and with its other definitions (a dead
 *    definition still needs a register at that moment).  Registers live
 *    into the entry block, or into a block no path reaches, have no
 *    definition to hang the edge on, so those sets are made cliques too.
 *    With that, two registers interfere exactly when they are live at the
 *    same point (walk back from the point to the nearest definition of
 *    either: the other is live there).
 * 3. Colouring, per register file, Chaitin-Briggs style: simplify removes
 *    a node that is sure to find a colour among K (a 32-bit node whose
 *    neighbours cover fewer than K registers; a 64-bit node with fewer
 *    than K/2 neighbours, since each neighbour can block at most one
 *    aligned pair), or optimistically the most constrained node when none
 *    is; select pops them back, giving each the lowest free register (the
 *    lowest free even-aligned pair for 64-bit).  K starts at the register
 *    pressure, the least any allocation can use, and grows by one until
 *    select succeeds: there is no register limit to spill against, the
 *    goal is the smallest count.
 * Registers no instruction names get no physical register. */
#include "compiler/regalloc.h"

#include <stdlib.h>
#include <string.h>

#include "ptx/cfg.h"
#include "ptx/liveness.h"

enum { CLS_NONE, CLS_GPR, CLS_PRED };

/* Simplify orders tried per register budget before raising it. */
#define RA_TRIES 8
/* Placements the backtracking search may make per budget. */
#define RA_SEARCH_STEPS 20000

typedef struct {
    uint32_t a, b;
} edge_t;

typedef struct {
    uint32_t insn;
    uint32_t callee;
    /* registers live across: 32-bit (a pair counts 2), predicates */
    uint32_t gpr_live, pred_live;
} call_site_t;

/* Everything one function's allocation works on. */
typedef struct {
    const ptx_module_t *m;
    const ptx_function_t *f;
    ptx_cfg_t *cfg;
    ptx_liveness_t *lv;
    uint32_t n;            /* virtual registers */
    uint8_t *cls;          /* CLS_* per register */
    uint8_t *width;        /* 32-bit registers a value takes: 1 or 2 */
    edge_t *edges;
    size_t nedges, cap;
    uint32_t *adj_start;   /* CSR adjacency: n + 1 offsets */
    uint32_t *adj;
    uint32_t pressure[3];  /* per class */
    call_site_t *sites;
    uint32_t nsites, site_cap;
} ra_t;

static int add_edge(ra_t *r, uint32_t a, uint32_t b)
{
    if (a == b || r->cls[a] != r->cls[b])
        return 0; /* the two register files do not compete */
    if (r->nedges == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 256;
        edge_t *e = realloc(r->edges, cap * sizeof *e);
        if (!e)
            return -1;
        r->edges = e;
        r->cap = cap;
    }
    r->edges[r->nedges++] = a < b ? (edge_t){ a, b } : (edge_t){ b, a };
    return 0;
}

/* The first register >= from in a set, or REGALLOC_NONE. */
static uint32_t next_reg(const uint64_t *set, uint32_t words, uint32_t from)
{
    for (uint32_t w = from >> 6; w < words; w++) {
        uint64_t bits = set[w];
        if (w == from >> 6)
            bits &= ~0ull << (from & 63);
        if (bits)
            return w * 64 + (uint32_t)__builtin_ctzll(bits);
    }
    return REGALLOC_NONE;
}

#define FOR_EACH_REG(r, set, v)                                             \
    for (uint32_t v = next_reg(set, (r)->lv->words, 0); v != REGALLOC_NONE;  \
         v = next_reg(set, (r)->lv->words, v + 1))

/* Counts the pressure of a set plus extra registers (not in the set). */
static void note_pressure(ra_t *r, const uint64_t *set, const uint16_t *extra,
                          int nextra)
{
    uint32_t p[3] = { 0, 0, 0 };
    FOR_EACH_REG(r, set, v)
        p[r->cls[v]] += r->width[v];
    for (int i = 0; i < nextra; i++)
        if (!ptx_live_has(set, extra[i]))
            p[r->cls[extra[i]]] += r->width[extra[i]];
    for (int c = CLS_GPR; c <= CLS_PRED; c++)
        if (p[c] > r->pressure[c])
            r->pressure[c] = p[c];
}

static int clique(ra_t *r, const uint64_t *set)
{
    note_pressure(r, set, NULL, 0);
    FOR_EACH_REG(r, set, a)
        for (uint32_t b = next_reg(set, r->lv->words, a + 1);
             b != REGALLOC_NONE; b = next_reg(set, r->lv->words, b + 1))
            if (add_edge(r, a, b) < 0)
                return -1;
    return 0;
}

/* Notes a call site and the registers live across it (a call reads and
 * writes no registers, so live after it is live across it). */
static int record_call(ra_t *r, uint32_t insn, const uint64_t *live)
{
    const ptx_insn_t *in = &r->m->insns[insn];
    for (unsigned k = 0; k < in->nops; k++) {
        if (in->ops[k].kind != PTX_OPND_FUNC ||
            r->m->funcs[in->ops[k].imm].builtin)
            continue; /* a builtin (vprintf) uses no registers of ours */
        if (r->nsites == r->site_cap) {
            uint32_t cap = r->site_cap ? r->site_cap * 2 : 8;
            call_site_t *s = realloc(r->sites, cap * sizeof *s);
            if (!s)
                return -1;
            r->sites = s;
            r->site_cap = cap;
        }
        call_site_t *cs = &r->sites[r->nsites++];
        cs->insn = insn;
        cs->callee = (uint32_t)in->ops[k].imm;
        cs->gpr_live = cs->pred_live = 0;
        FOR_EACH_REG(r, live, v) {
            if (r->cls[v] == CLS_PRED)
                cs->pred_live++;
            else
                cs->gpr_live += r->width[v];
        }
    }
    return 0;
}

static int interfere_at(void *ctx, uint32_t insn, const uint64_t *live)
{
    ra_t *r = ctx;
    uint16_t defs[PTX_INSN_MAX_DEFS];
    int nd = ptx_insn_defs(&r->m->insns[insn], defs, PTX_INSN_MAX_DEFS);
    note_pressure(r, live, defs, nd);
    if (r->m->insns[insn].op == PTX_OP_CALL && record_call(r, insn, live) < 0)
        return -1;
    for (int i = 0; i < nd; i++) {
        for (int j = i + 1; j < nd; j++)
            if (add_edge(r, defs[i], defs[j]) < 0)
                return -1;
        FOR_EACH_REG(r, live, l)
            if (add_edge(r, defs[i], l) < 0)
                return -1;
    }
    return 0;
}

static int by_edge(const void *x, const void *y)
{
    const edge_t *a = x, *b = y;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

/* Sorts and de-duplicates the edge list into CSR adjacency. */
static int build_adjacency(ra_t *r)
{
    if (r->nedges)
        qsort(r->edges, r->nedges, sizeof *r->edges, by_edge);
    size_t u = 0;
    for (size_t i = 0; i < r->nedges; i++)
        if (u == 0 || by_edge(&r->edges[u - 1], &r->edges[i]) != 0)
            r->edges[u++] = r->edges[i];
    r->nedges = u;
    r->adj_start = calloc(r->n + 1, sizeof *r->adj_start);
    r->adj = malloc((2 * u + 1) * sizeof *r->adj);
    uint32_t *fill = calloc(r->n + 1, sizeof *fill);
    if (!r->adj_start || !r->adj || !fill) {
        free(fill);
        return -1;
    }
    for (size_t i = 0; i < u; i++) {
        r->adj_start[r->edges[i].a + 1]++;
        r->adj_start[r->edges[i].b + 1]++;
    }
    for (uint32_t v = 0; v < r->n; v++)
        r->adj_start[v + 1] += r->adj_start[v];
    for (size_t i = 0; i < u; i++) {
        uint32_t a = r->edges[i].a, b = r->edges[i].b;
        r->adj[r->adj_start[a] + fill[a]++] = b;
        r->adj[r->adj_start[b] + fill[b]++] = a;
    }
    free(fill);
    return 0;
}

/* Scratch arrays for colouring one class, reused across budgets. */
typedef struct {
    uint32_t *stack, *queue, *queue2;
    uint32_t *deg_w, *deg_n;  /* neighbours still in the graph: width, count */
    uint8_t *state;           /* 0 in graph, 1 queued, 2 removed */
    uint8_t *busy;            /* per physical register while selecting */
    uint64_t *order;          /* search: sort keys */
} scratch_t;

static int trivial(const ra_t *r, const scratch_t *s, uint32_t v, uint32_t k)
{
    return r->width[v] == 1 ? s->deg_w[v] < k : s->deg_n[v] < k / 2;
}

/* The lowest aligned pair free in busy[0..k), or REGALLOC_NONE. */
static uint32_t free_pair(const uint8_t *busy, uint32_t k)
{
    for (uint32_t c = 0; c + 2 <= k; c += 2)
        if (!busy[c] && !busy[c + 1])
            return c;
    return REGALLOC_NONE;
}

/* A free register for a 32-bit value, preferring one whose pair partner
 * is taken (or beyond k): filling half-used pairs first keeps whole pairs
 * for the 64-bit values still to come. */
static uint32_t free_single(const uint8_t *busy, uint32_t k)
{
    uint32_t first = REGALLOC_NONE;
    for (uint32_t c = 0; c < k; c++) {
        if (busy[c])
            continue;
        if ((c ^ 1) >= k || busy[c ^ 1])
            return c;
        if (first == REGALLOC_NONE)
            first = c;
    }
    return first;
}

/* Takes the next node of a worklist; with a seed, a reproducible random
 * one instead of the oldest, for a different simplify order. */
static uint32_t take(uint32_t *q, uint32_t *head, uint32_t tail, uint32_t seed,
                     uint64_t *rng)
{
    if (seed) {
        *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t j = *head + (uint32_t)((*rng >> 33) % (tail - *head));
        uint32_t x = q[j];
        q[j] = q[*head];
        q[*head] = x;
    }
    return q[(*head)++];
}

/* One simplify/select attempt with budget k; 1 when every node got a
 * register (phys filled), 0 when select ran out.  Among the nodes sure to
 * find a register, 32-bit ones are removed first, so that select (which
 * works in reverse) places the 64-bit pairs before the singles that could
 * fragment them; any order among such nodes keeps Briggs's guarantee,
 * since removing nodes only lowers the others' degrees. */
static int colour(const ra_t *r, int cls, uint32_t k, uint32_t seed,
                  scratch_t *s, uint32_t *phys)
{
    uint32_t left = 0, sp = 0;
    uint32_t h1 = 0, t1 = 0, h2 = 0, t2 = 0; /* singles, pairs worklists */
    uint64_t rng = seed * 0x9e3779b97f4a7c15ull;
    for (uint32_t v = 0; v < r->n; v++) {
        s->state[v] = 2;
        if (r->cls[v] != cls)
            continue;
        s->state[v] = 0;
        s->deg_w[v] = s->deg_n[v] = 0;
        for (uint32_t e = r->adj_start[v]; e < r->adj_start[v + 1]; e++) {
            s->deg_w[v] += r->width[r->adj[e]];
            s->deg_n[v]++;
        }
        left++;
    }
    for (uint32_t v = 0; v < r->n; v++)
        if (s->state[v] == 0 && trivial(r, s, v, k)) {
            s->state[v] = 1;
            if (r->width[v] == 1)
                s->queue[t1++] = v;
            else
                s->queue2[t2++] = v;
        }
    while (left) {
        uint32_t v;
        if (h1 < t1) {
            v = take(s->queue, &h1, t1, seed, &rng);
        } else if (h2 < t2) {
            v = take(s->queue2, &h2, t2, seed, &rng);
        } else {
            /* blocked: push the most constrained node and hope select
             * still finds it a register (Briggs) */
            v = REGALLOC_NONE;
            for (uint32_t x = 0; x < r->n; x++)
                if (s->state[x] == 0 &&
                    (v == REGALLOC_NONE || s->deg_w[x] > s->deg_w[v]))
                    v = x;
        }
        s->state[v] = 2;
        s->stack[sp++] = v;
        left--;
        for (uint32_t e = r->adj_start[v]; e < r->adj_start[v + 1]; e++) {
            uint32_t x = r->adj[e];
            if (s->state[x] == 2)
                continue;
            s->deg_w[x] -= r->width[v];
            s->deg_n[x]--;
            if (s->state[x] == 0 && trivial(r, s, x, k)) {
                s->state[x] = 1;
                if (r->width[x] == 1)
                    s->queue[t1++] = x;
                else
                    s->queue2[t2++] = x;
            }
        }
    }
    for (uint32_t i = 0; i < sp; i++)
        phys[s->stack[i]] = REGALLOC_NONE;
    while (sp) {
        uint32_t v = s->stack[--sp];
        memset(s->busy, 0, k);
        for (uint32_t e = r->adj_start[v]; e < r->adj_start[v + 1]; e++) {
            uint32_t x = r->adj[e], p = phys[x];
            if (p == REGALLOC_NONE)
                continue;
            for (uint32_t j = 0; j < r->width[x] && p + j < k; j++)
                s->busy[p + j] = 1;
        }
        uint32_t c = r->width[v] == 2 ? free_pair(s->busy, k)
                                      : free_single(s->busy, k);
        if (c == REGALLOC_NONE)
            return 0;
        phys[v] = c;
    }
    return 1;
}

static int by_key_desc(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? 1 : a > b ? -1 : 0;
}

/* Backtracking search for a colouring with budget k, for when simplify/
 * select gets stuck: 64-bit nodes first (they are the hard ones to fit),
 * then by falling degree, each trying its free registers in turn.  It
 * gives up after RA_SEARCH_STEPS placements, so it is exact on small
 * functions and a bounded extra effort on large ones. */
static int search(const ra_t *r, int cls, uint32_t k, scratch_t *s,
                  uint32_t *phys)
{
    uint32_t n = 0;
    for (uint32_t v = 0; v < r->n; v++) {
        if (r->cls[v] != cls)
            continue;
        uint64_t deg = r->adj_start[v + 1] - r->adj_start[v];
        s->order[n++] = (uint64_t)r->width[v] << 62 | deg << 32 |
                        (UINT32_MAX - v);
        phys[v] = REGALLOC_NONE;
    }
    qsort(s->order, n, sizeof *s->order, by_key_desc);
    uint32_t i = 0, steps = 0;
    while (i < n) {
        uint32_t v = UINT32_MAX - (uint32_t)s->order[i], w = r->width[v];
        uint32_t c = phys[v] == REGALLOC_NONE ? 0 : phys[v] + w;
        phys[v] = REGALLOC_NONE;
        memset(s->busy, 0, k);
        for (uint32_t e = r->adj_start[v]; e < r->adj_start[v + 1]; e++) {
            uint32_t x = r->adj[e], p = phys[x];
            for (uint32_t j = 0; p != REGALLOC_NONE && j < r->width[x] &&
                                 p + j < k; j++)
                s->busy[p + j] = 1;
        }
        while (c + w <= k && (s->busy[c] || (w == 2 && s->busy[c + 1])))
            c += w;
        if (c + w <= k) {
            phys[v] = c;
            i++;
            if (++steps > RA_SEARCH_STEPS)
                return 0;
        } else if (i-- == 0) {
            return 0; /* every choice tried: k is too small */
        }
    }
    return 1;
}

/* Colours class `cls`; returns the registers used (highest + 1), or
 * REGALLOC_NONE when out of memory. */
static uint32_t colour_class(const ra_t *r, int cls, uint32_t *phys)
{
    uint32_t nodes = 0, units = 0;
    for (uint32_t v = 0; v < r->n; v++)
        if (r->cls[v] == cls) {
            nodes++;
            units += 2;
        }
    if (!nodes)
        return 0;
    scratch_t s;
    s.stack = malloc(r->n * sizeof *s.stack);
    s.queue = malloc(r->n * sizeof *s.queue);
    s.queue2 = malloc(r->n * sizeof *s.queue2);
    s.deg_w = malloc(r->n * sizeof *s.deg_w);
    s.deg_n = malloc(r->n * sizeof *s.deg_n);
    s.state = malloc(r->n);
    s.busy = malloc(units + 2);
    s.order = malloc(r->n * sizeof *s.order);
    uint32_t used = REGALLOC_NONE;
    if (s.stack && s.queue && s.queue2 && s.deg_w && s.deg_n && s.state &&
        s.busy && s.order) {
        /* 2 * nodes always suffices: a node's neighbours block at most
         * nodes - 1 pairs out of nodes */
        uint32_t k = r->pressure[cls] ? r->pressure[cls] : 1;
        for (; k < units; k++) {
            uint32_t seed = 0;
            while (seed < RA_TRIES && !colour(r, cls, k, seed, &s, phys))
                seed++;
            if (seed < RA_TRIES || search(r, cls, k, &s, phys))
                break;
        }
        if (k >= units)
            colour(r, cls, units, 0, &s, phys);
        used = 0;
        for (uint32_t v = 0; v < r->n; v++)
            if (r->cls[v] == cls && phys[v] + r->width[v] > used)
                used = phys[v] + r->width[v];
    }
    free(s.stack);
    free(s.queue);
    free(s.queue2);
    free(s.deg_w);
    free(s.deg_n);
    free(s.state);
    free(s.busy);
    free(s.order);
    return used;
}

/* Classifies the registers the body names; others stay CLS_NONE. */
static void classify(ra_t *r)
{
    uint16_t regs[PTX_INSN_MAX_USES];
    for (uint32_t i = r->f->first; i < r->f->first + r->f->count; i++) {
        const ptx_insn_t *in = &r->m->insns[i];
        int nd = ptx_insn_defs(in, regs, PTX_INSN_MAX_DEFS);
        int nu = ptx_insn_uses(in, regs + nd, PTX_INSN_MAX_USES - nd);
        for (int k = 0; k < nd + nu && k < PTX_INSN_MAX_USES; k++) {
            uint16_t v = regs[k];
            if (v >= r->n)
                continue;
            ptx_type_t t = (ptx_type_t)r->f->regs[v].type;
            r->cls[v] = t == PTX_T_PRED ? CLS_PRED : CLS_GPR;
            r->width[v] = ptx_type_bits(t) == 64 ? 2 : 1;
        }
    }
}

static void ra_free(ra_t *r)
{
    free(r->cls);
    free(r->width);
    free(r->edges);
    free(r->adj_start);
    free(r->adj);
    free(r->sites);
    ptx_liveness_free(r->lv);
    ptx_cfg_free(r->cfg);
}

/* Allocates one function; fills out and, when sites is given, the call
 * sites with what is live across them. */
static int alloc_one(const ptx_module_t *m, uint32_t func,
                     regalloc_result_t *out, call_site_t **sites,
                     uint32_t *nsites)
{
    memset(out, 0, sizeof *out);
    if (func >= m->nfuncs)
        return REGALLOC_EBADFUNC;
    ra_t r;
    memset(&r, 0, sizeof r);
    r.m = m;
    r.f = &m->funcs[func];
    r.n = r.f->nregs;
    int rc = REGALLOC_ENOMEM;
    ptx_cfg_t *cfg = r.cfg = ptx_cfg_build(m, func);
    if (!cfg)
        goto done;
    r.lv = ptx_liveness_build(m, cfg);
    r.cls = calloc(r.n + 1, 1);
    r.width = calloc(r.n + 1, 1);
    out->phys = malloc((r.n + 1) * sizeof *out->phys);
    if (!r.lv || !r.cls || !r.width || !out->phys)
        goto done;
    out->nvregs = r.n;
    for (uint32_t v = 0; v < r.n; v++)
        out->phys[v] = REGALLOC_NONE;
    classify(&r);
    for (uint32_t b = 0; b < cfg->nblocks; b++) {
        if ((b == 0 || !cfg->blocks[b].reachable) &&
            clique(&r, ptx_live_in(r.lv, b)) < 0)
            goto done;
        if (ptx_liveness_walk(r.lv, m, cfg, b, interfere_at, &r) != 0)
            goto done;
    }
    if (build_adjacency(&r) < 0)
        goto done;
    out->own_regs = colour_class(&r, CLS_GPR, out->phys);
    out->own_preds = colour_class(&r, CLS_PRED, out->phys);
    if (out->own_regs == REGALLOC_NONE || out->own_preds == REGALLOC_NONE)
        goto done;
    out->regs = out->own_regs;
    out->preds = out->own_preds;
    out->pressure = r.pressure[CLS_GPR];
    for (uint32_t v = 0; v < r.n; v++)
        if (r.cls[v] == CLS_GPR && r.width[v] == 2)
            out->pairs = 1;
    if (sites) {
        *sites = r.sites;
        *nsites = r.nsites;
        r.sites = NULL;
    }
    rc = 0;
done:
    ra_free(&r);
    if (rc) {
        free(out->phys);
        memset(out, 0, sizeof *out);
    }
    return rc;
}

int regalloc_function(const ptx_module_t *m, uint32_t func,
                      regalloc_result_t *out)
{
    return alloc_one(m, func, out, NULL, NULL);
}

/* Per function while computing totals: 0 not seen, 1 on the call path,
 * 2 done (regs/preds/pairs hold its total). */
typedef struct {
    uint8_t *state;
    uint32_t *regs, *preds;
    uint8_t *pairs;
} totals_t;

static int total_of(const ptx_module_t *m, uint32_t func, totals_t *t,
                    regalloc_result_t *out)
{
    call_site_t *sites = NULL;
    uint32_t nsites = 0;
    t->state[func] = 1;
    int rc = alloc_one(m, func, out, &sites, &nsites);
    for (uint32_t i = 0; rc == 0 && i < nsites; i++) {
        uint32_t g = sites[i].callee;
        if (g >= m->nfuncs) {
            rc = REGALLOC_EBADFUNC;
            break;
        }
        if (t->state[g] == 1)
            continue; /* recursion: a new activation's registers go to the
                         thread's stack (docs/semantics.md), not on top */
        if (t->state[g] == 0) {
            regalloc_result_t sub;
            rc = total_of(m, g, t, &sub);
            regalloc_result_free(&sub);
            if (rc)
                break;
        }
        uint32_t base = sites[i].gpr_live;
        if (t->pairs[g] && (base & 1))
            base++; /* keep the callee's pairs aligned */
        if (base + t->regs[g] > out->regs)
            out->regs = base + t->regs[g];
        if (sites[i].pred_live + t->preds[g] > out->preds)
            out->preds = sites[i].pred_live + t->preds[g];
        if (t->pairs[g])
            out->pairs = 1;
    }
    free(sites);
    if (rc) {
        regalloc_result_free(out);
        memset(out, 0, sizeof *out);
        return rc;
    }
    t->state[func] = 2;
    t->regs[func] = out->regs;
    t->preds[func] = out->preds;
    t->pairs[func] = out->pairs;
    return 0;
}

int regalloc_kernel(const ptx_module_t *m, uint32_t func,
                    regalloc_result_t *out)
{
    memset(out, 0, sizeof *out);
    if (func >= m->nfuncs)
        return REGALLOC_EBADFUNC;
    totals_t t;
    t.state = calloc(m->nfuncs, 1);
    t.regs = calloc(m->nfuncs, sizeof *t.regs);
    t.preds = calloc(m->nfuncs, sizeof *t.preds);
    t.pairs = calloc(m->nfuncs, 1);
    int rc = REGALLOC_ENOMEM;
    if (t.state && t.regs && t.preds && t.pairs)
        rc = total_of(m, func, &t, out);
    free(t.state);
    free(t.regs);
    free(t.preds);
    free(t.pairs);
    return rc;
}

void regalloc_result_free(regalloc_result_t *r)
{
    if (!r)
        return;
    free(r->phys);
    r->phys = NULL;
}
