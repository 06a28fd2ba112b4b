/* share_lock_table.c: the lock table's C twin (docs/units/share_lock_table.md).
 * The numbered steps are the page's "One cycle" steps, in its order. */
#include <string.h>

#include "units/share_lock_table.h"
#include "units/warp_arbiter.h"

static uint64_t slot_mask(unsigned n)
{
    return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
}

share_lock_table_cfg_t share_lock_table_cfg_for(unsigned t, unsigned s)
{
    unsigned w = 1;
    while ((1u << w) - 1 < t)
        w++;
    return (share_lock_table_cfg_t){ .t = t, .s = s, .part_w = w, .pairs = t / 2 };
}

int share_lock_table_init(share_lock_table_state_t *st,
                          const share_lock_table_cfg_t *c)
{
    memset(st, 0, sizeof *st);
    if (c->t < 2 || c->t > SHARE_LOCK_TABLE_MAX_T || c->s < 1 ||
        c->s > SHARE_LOCK_TABLE_MAX_S || c->part_w < 1 || c->part_w > 7 ||
        c->t > (1u << c->part_w) - 1 || c->pairs < 1 || c->pairs > c->t / 2)
        return -1;
    st->cfg = *c;
    share_lock_table_reset(st);
    return 0;
}

void share_lock_table_reset(share_lock_table_state_t *st)
{
    uint8_t none = (uint8_t)((1u << st->cfg.part_w) - 1);
    st->shsm = 0;
    for (unsigned x = 0; x < SHARE_LOCK_TABLE_MAX_T; x++)
        st->partner[x] = x < st->cfg.t ? none : 0;
    st->lock_valid = 0;
    memset(st->lock, 0, sizeof st->lock);
    st->rel_done = 0;
}

/* The width of a slot index (UNIT_P_IDX): max(1, ceil(log2 t)). */
static unsigned idx_w(unsigned t)
{
    unsigned w = 1;
    while ((1u << w) < t)
        w++;
    return w;
}

/* Pair j's second slot (its partner, above j), or -1 when pair j is not
 * in use: ShSM off, or slot j unshared or paired below itself. */
static int pair_hi(const share_lock_table_state_t *n, unsigned j)
{
    unsigned none = (1u << n->cfg.part_w) - 1, p = n->partner[j];
    if (!n->shsm || p == none || p >= n->cfg.t || p <= j)
        return -1;
    return (int)p;
}

/* The pair that slot x belongs to, or -1: pair j with x == j or x == its
 * second slot.  The table is symmetric (a launch writes both entries of
 * every pair; reset leaves every slot unshared), so that pair is
 * min(x, partner[x]) when it is in use: one lookup, not a scan. */
static int pair_of(const share_lock_table_state_t *n, unsigned x)
{
    unsigned none = (1u << n->cfg.part_w) - 1, p = n->partner[x];
    if (!n->shsm || p == none || p >= n->cfg.t)
        return -1;
    unsigned j = x < p ? x : p;
    return j < n->cfg.pairs && pair_hi(n, j) >= 0 ? (int)j : -1;
}

static void set_lock(share_lock_table_state_t *n, unsigned j, int holder)
{
    if (holder < 0) {
        n->lock_valid &= ~((uint64_t)1 << j);
        n->lock[j] = 0;
    } else {
        n->lock_valid |= (uint64_t)1 << j;
        n->lock[j] = (uint8_t)holder;
    }
}

/* The next state and the outputs of one cycle. */
static void next(const share_lock_table_state_t *s,
                 const share_lock_table_in_t *in, share_lock_table_state_t *n,
                 share_lock_table_out_t *out)
{
    unsigned t = s->cfg.t, pw = s->cfg.part_w;
    uint64_t tm = slot_mask(t);
    uint32_t pmask = (1u << pw) - 1;
    /* every flop, whole arrays included: a fixed-size copy is cheaper than
     * two calls copying t and pairs entries (this runs at every lock
     * request), and the entries past them are never read */
    *n = *s;

    /* 1. launch: the tables (§2.6 row 1) */
    if (in->launch & 1) {
        uint32_t base = in->base & pmask, pairs = in->pairs & pmask;
        n->shsm = 1;
        for (unsigned x = 0; x < t; x++) {
            if (x < pairs)
                n->partner[x] = (uint8_t)((x + base) & pmask);
            else if (x >= base && x - base < pairs)
                n->partner[x] = (uint8_t)(x - base);
            else
                n->partner[x] = (uint8_t)pmask;
        }
        n->lock_valid = 0;
        memset(n->lock, 0, s->cfg.pairs);
        n->rel_done = 0;
    }
    /* 2. placement clears, a release sets the released flag */
    n->rel_done = ((n->rel_done & ~in->place) | in->release) & tm;
    /* 3. a release frees the lock its block holds (no release, no change:
     * most evaluations are a request's, so the pass is skipped) */
    for (unsigned j = 0; in->release && j < s->cfg.pairs; j++)
        if ((n->lock_valid >> j & 1) && (in->release >> n->lock[j] & 1))
            set_lock(n, j, -1);
    /* 4. requests, lowest scheduler first: FCFS within the cycle */
    uint32_t grant = 0;
    uint32_t reqs = in->req_valid & (uint32_t)slot_mask(s->cfg.s);
    for (; reqs; reqs &= reqs - 1) { /* the requests alone, k ascending */
        unsigned k = (unsigned)__builtin_ctz(reqs);
        unsigned x = in->req_slot[k] & (unsigned)slot_mask(idx_w(t));
        int j = x < t ? pair_of(n, x) : -1;
        if (j < 0) { /* unshared: no lock to take */
            grant |= 1u << k;
        } else if (!(n->lock_valid >> j & 1)) {
            set_lock(n, (unsigned)j, (int)x);
            grant |= 1u << k;
        } else if (n->lock[j] == x) {
            grant |= 1u << k;
        }
    }
    /* 5. completions, per pair its lower slot first (§2.6); each hand-on
     * needs a done bit of the pair, so none without one */
    for (unsigned j = 0; in->done && j < s->cfg.pairs; j++) {
        if (!(n->lock_valid >> j & 1)) /* a free lock: nothing to hand on */
            continue;
        int hi = pair_hi(n, j);
        if (hi < 0)
            continue;
        if (n->lock[j] == j && (in->done >> j & 1))
            set_lock(n, j, (in->live >> hi & 1) && !(n->rel_done >> hi & 1) ? hi : -1);
        if ((n->lock_valid >> j & 1) && n->lock[j] == (unsigned)hi &&
            (in->done >> hi & 1))
            set_lock(n, j, (in->live >> j & 1) && !(in->done >> j & 1) &&
                                   !(n->rel_done >> j & 1)
                               ? (int)j : -1);
    }
    /* 6. ShSM lasts while a block of the kernel lives */
    if (!(in->live & ~in->done & tm))
        n->shsm = 0;
    if (!out)
        return;
    /* outputs from the next state */
    out->grant = grant;
    if (!n->lock_valid) { /* no lock held: every slot unshared */
        memset(out->cls, WARP_ARBITER_UNSHARED, t);
        return;
    }
    for (unsigned x = 0; x < t; x++) {
        /* x's pair, when it has one, is x or partner[x]: a slot neither of
         * whose locks is held is unshared without the lookup */
        unsigned p = n->partner[x];
        if (!(n->lock_valid & ((uint64_t)1 << x | (p < 64 ? (uint64_t)1 << p : 0)))) {
            out->cls[x] = WARP_ARBITER_UNSHARED;
            continue;
        }
        int j = pair_of(n, x);
        if (j < 0 || !(n->lock_valid >> j & 1))
            out->cls[x] = WARP_ARBITER_UNSHARED;
        else
            out->cls[x] = n->lock[j] == x ? WARP_ARBITER_OWNER : WARP_ARBITER_NONOWNER;
    }
}

void share_lock_table_eval(const share_lock_table_state_t *st,
                           const share_lock_table_in_t *in,
                           share_lock_table_out_t *out)
{
    share_lock_table_state_t n;
    next(st, in, &n, out);
}

void share_lock_table_tick(share_lock_table_state_t *st,
                           const share_lock_table_in_t *in)
{
    share_lock_table_state_t n;
    next(st, in, &n, NULL);
    *st = n; /* next() copied every flop and changed only in-range ones */
}

/* ------------------------------------------------------------------ */
/* The declaration (units/unit_desc.h)                                  */
/* ------------------------------------------------------------------ */

enum { P_T, P_S, P_PART_W, P_PAIRS };

static const char *const lt_params[] = { "T", "S", "PartW", "Pairs" };

#define LT_IN(f, w) UNIT_FIELD(share_lock_table_in_t, f, "_i", UNIT_DIR_IN, 0, w)
#define LT_FLOP(f, w) UNIT_FIELD(share_lock_table_state_t, f, "_q", UNIT_DIR_FLOP, 0, w)
#define SZ_T UNIT_SZ(UNIT_P, P_T)
#define SZ_S UNIT_SZ(UNIT_P, P_S)
#define SZ_PW UNIT_SZ(UNIT_P, P_PART_W)
#define SZ_PAIRS UNIT_SZ(UNIT_P, P_PAIRS)
#define SZ_IDX UNIT_SZ(UNIT_P_IDX, P_T)

static const unit_field_t lt_fields[] = {
    LT_IN(launch, UNIT_ONE),
    LT_IN(base, SZ_PW),
    LT_IN(pairs, SZ_PW),
    LT_IN(live, SZ_T),
    LT_IN(place, SZ_T),
    LT_IN(release, SZ_T),
    LT_IN(done, SZ_T),
    LT_IN(req_valid, SZ_S),
    UNIT_ARRAY(share_lock_table_in_t, req_slot, "_i", UNIT_DIR_IN, 0, SZ_IDX, SZ_S),
    UNIT_FIELD(share_lock_table_out_t, grant, "_o", UNIT_DIR_OUT, 0, SZ_S),
    UNIT_ARRAY(share_lock_table_out_t, cls, "_o", UNIT_DIR_OUT, 0, UNIT_SZ(UNIT_K, 2), SZ_T),
    LT_FLOP(shsm, UNIT_ONE),
    UNIT_ARRAY(share_lock_table_state_t, partner, "_q", UNIT_DIR_FLOP, UNIT_ROWS, SZ_PW, SZ_T),
    LT_FLOP(lock_valid, SZ_PAIRS),
    UNIT_ARRAY(share_lock_table_state_t, lock, "_q", UNIT_DIR_FLOP, UNIT_ROWS, SZ_IDX, SZ_PAIRS),
    LT_FLOP(rel_done, SZ_T),
};

static void lt_param_values(const void *state, uint32_t *v)
{
    const share_lock_table_state_t *s = state;
    v[P_T] = s->cfg.t;
    v[P_S] = s->cfg.s;
    v[P_PART_W] = s->cfg.part_w;
    v[P_PAIRS] = s->cfg.pairs;
}

static int lt_init(void *state, const uint32_t *p)
{
    share_lock_table_cfg_t c = { p[P_T], p[P_S], p[P_PART_W], p[P_PAIRS] };
    return share_lock_table_init(state, &c);
}

static void lt_reset(void *state) { share_lock_table_reset(state); }
static void lt_eval(const void *state, const void *in, void *out)
{
    share_lock_table_eval(state, in, out);
}
static void lt_tick(void *state, const void *in) { share_lock_table_tick(state, in); }

/* Co-simulation coverage: what a real workload exercises (the page's
 * Verification section).  Waits and same-cycle contention never reach the
 * unit in the model (the SM's gate holds such warps back), and no seed-000
 * workload releases a block that holds no lock (every block that executes
 * relssp accessed the region before it); the testbench covers those. */
enum {
    B_LAUNCH, B_ACQUIRE, B_HOLDER_REQ, B_RELEASE_FREES, B_TRANSFER, B_DONE_FREES, B_INHERIT, B_SHSM_ENDS, B_NBINS
};

static const unit_bin_t lt_bins[] = {
    { "launch", UNIT_ONE }, { "acquire a free lock", UNIT_ONE },
    { "request by the holder", UNIT_ONE }, { "release frees the lock", UNIT_ONE },
    { "transfer at completion", UNIT_ONE },
    { "completion frees the lock", UNIT_ONE },
    { "block placed into a freed slot", UNIT_ONE }, { "ShSM ends", UNIT_ONE },
};

/* mem[0]: the slots whose block completed since the launch. */
static void lt_cover(const void *state, const void *inp, const void *outp,
                     uint64_t *bins, uint64_t *mem)
{
    const share_lock_table_state_t *s = state;
    const share_lock_table_in_t *in = inp;
    if (outp) { /* before the edge: s is the state before it */
        share_lock_table_state_t n;
        share_lock_table_out_t o;
        next(s, in, &n, &o);
        if (in->launch & 1) {
            bins[B_LAUNCH]++;
            mem[0] = 0;
        }
        if (in->place & mem[0])
            bins[B_INHERIT]++;
        mem[0] = (mem[0] & ~in->place) | (in->done & slot_mask(s->cfg.t));
        for (unsigned j = 0; j < s->cfg.pairs; j++) {
            int was = s->lock_valid >> j & 1;
            if (was && (in->release >> s->lock[j] & 1))
                bins[B_RELEASE_FREES]++;
            if (was && (in->done >> s->lock[j] & 1)) {
                int hi = pair_hi(s, j);
                unsigned other = s->lock[j] == j ? (unsigned)hi : j;
                if ((n.lock_valid >> j & 1) && n.lock[j] == other)
                    bins[B_TRANSFER]++;
                else if (!(n.lock_valid >> j & 1))
                    bins[B_DONE_FREES]++;
            }
        }
        for (unsigned k = 0; k < s->cfg.s; k++) {
            if (!(in->req_valid >> k & 1) || !(o.grant >> k & 1))
                continue;
            unsigned x = in->req_slot[k];
            int j = x < s->cfg.t ? pair_of(s, x) : -1;
            if (j >= 0 && (s->lock_valid >> j & 1) && s->lock[j] == x)
                bins[B_HOLDER_REQ]++;
            else if (j >= 0)
                bins[B_ACQUIRE]++;
        }
        if (s->shsm && !n.shsm)
            bins[B_SHSM_ENDS]++;
    }
}

const unit_desc_t share_lock_table_desc = {
    .name = "share_lock_table",
    .params = lt_params,
    .nparams = 4,
    .fields = lt_fields,
    .nfields = sizeof lt_fields / sizeof lt_fields[0],
    .in_size = sizeof(share_lock_table_in_t),
    .out_size = sizeof(share_lock_table_out_t),
    .state_size = sizeof(share_lock_table_state_t),
    .param_values = lt_param_values,
    .init = lt_init,
    .reset = lt_reset,
    .eval = lt_eval,
    .tick = lt_tick,
    .bins = lt_bins,
    .nbins = B_NBINS,
    .cover_mem = 1,
    .cover = lt_cover,
};
