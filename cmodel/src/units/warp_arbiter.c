/* warp_arbiter.c: the warp arbiter's C twin (docs/units/warp_arbiter.md). */
#include <string.h>

#include "units/warp_arbiter.h"

static uint64_t slot_mask(unsigned n)
{
    return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
}

warp_arbiter_cfg_t warp_arbiter_default_cfg(void)
{
    return (warp_arbiter_cfg_t){ .n = 24, .cnt_w = 32, .wopt_w = 6 };
}

int warp_arbiter_init(warp_arbiter_state_t *s, const warp_arbiter_cfg_t *cfg)
{
    memset(s, 0, sizeof *s);
    if (cfg->n < 1 || cfg->n > WARP_ARBITER_MAX_N || cfg->cnt_w < 1 ||
        cfg->cnt_w > 32 || cfg->wopt_w < 1 || cfg->wopt_w > 31 ||
        cfg->n > (1u << cfg->wopt_w) - 1)
        return -1;
    s->cfg = *cfg;
    warp_arbiter_reset(s);
    return 0;
}

void warp_arbiter_reset(warp_arbiter_state_t *s)
{
    unsigned n = s->cfg.n;
    s->last_valid = 0;
    s->last = 0;
    s->wopt_valid = 0;
    s->wopt = 0;
    for (unsigned i = 0; i < WARP_ARBITER_MAX_N; i++) {
        s->cnt[i] = 0;
        /* A lower index is older: row i has every j > i. */
        s->age[i] = i < n ? slot_mask(n) & ~slot_mask(i + 1) : 0;
    }
}

/* The oldest slot of a non-empty set: the one older than every other
 * member.  -1 for an empty set.  Only the members are visited (lowest
 * index first, as a scan of every slot would find them; the set holds no
 * slot at or above n): the issue stage asks this every cycle a scheduler
 * picks, and the set is usually a few of up to 64 slots. */
static int oldest(const warp_arbiter_state_t *s, uint64_t set)
{
    for (uint64_t m = set; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        if ((set & ~((uint64_t)1 << i) & ~s->age[i]) == 0)
            return (int)i;
    }
    return -1;
}

/* The first candidate at or after `from`, else the first from slot 0
 * (cand holds no slot at or above n). */
static int pick_lrr(const warp_arbiter_state_t *s, uint64_t cand)
{
    unsigned n = s->cfg.n;
    unsigned from = s->last_valid ? (s->last + 1) % n : 0;
    uint64_t after = cand & (~(uint64_t)0 << from);
    if (after)
        return __builtin_ctzll(after);
    return cand ? __builtin_ctzll(cand) : -1;
}

static int greedy(const warp_arbiter_state_t *s, uint64_t cand)
{
    return s->last_valid && (cand >> s->last & 1) ? (int)s->last : -1;
}

static int pick_gto(const warp_arbiter_state_t *s, uint64_t cand)
{
    int g = greedy(s, cand);
    return g >= 0 ? g : oldest(s, cand);
}

/* The OWF class bits of slots 0..n-1 from the cls_i bytes: bit l of *b0
 * and *b1 are bits 0 and 1 of cls[l] (the class is cls & 3).  Eight slots
 * at a time and without a branch: a byte's bit moved to the word's top
 * byte by one multiply (byte k of the masked word lands on bit 56 + k;
 * the partial products never overlap, so nothing carries).  The bytes are
 * read as a little-endian word, as the rest of the model does.  A slot
 * that is not a candidate gets its bits too (pick_owf masks them off): a
 * data-dependent loop over the candidates is one the host mispredicts. */
static void owf_class_bits(const uint8_t *cls, unsigned n, uint64_t *b0,
                           uint64_t *b1)
{
    const uint64_t ones = 0x0101010101010101u, gather = 0x0102040810204080u;
    uint64_t lo = 0, hi = 0;
    for (unsigned w = 0; w < (n + 7) / 8; w++) {
        uint64_t x;
        memcpy(&x, cls + 8 * w, sizeof x);
        lo |= ((x & ones) * gather) >> 56 << 8 * w;
        hi |= ((x >> 1 & ones) * gather) >> 56 << 8 * w;
    }
    *b0 = lo;
    *b1 = hi;
}

/* OWF: the greedy warp, else the smallest class present (0 owner .. 3),
 * then the oldest in it.  b0 / b1: bits 0 and 1 of every slot's class.
 * The class is chosen without a branch (which classes are present varies
 * from pick to pick: a branch per class is one the host mispredicts). */
static int pick_owf(const warp_arbiter_state_t *s, uint64_t cand, uint64_t b0,
                    uint64_t b1)
{
    int g = greedy(s, cand);
    if (g >= 0)
        return g;
    uint64_t c0 = cand & ~b0 & ~b1, c1 = cand & b0 & ~b1,
             c2 = cand & ~b0 & b1, c3 = cand & b0 & b1;
    uint64_t set = c0;
    set |= c1 & ((uint64_t)(set != 0) - 1);
    set |= c2 & ((uint64_t)(set != 0) - 1);
    set |= c3 & ((uint64_t)(set != 0) - 1);
    return oldest(s, set);
}

/* The wopt oldest valid slots. */
static uint64_t ltlws_eligible(const warp_arbiter_state_t *s, uint64_t valid)
{
    uint64_t elig = 0;
    for (unsigned i = 0; i < s->cfg.n; i++) {
        if (!(valid >> i & 1))
            continue;
        unsigned older_valid = 0;
        for (unsigned j = 0; j < s->cfg.n; j++)
            if (j != i && (valid >> j & 1) && (s->age[j] >> i & 1))
                older_valid++;
        if (older_valid < s->wopt)
            elig |= (uint64_t)1 << i;
    }
    return elig;
}

void warp_arbiter_eval(const warp_arbiter_state_t *s,
                       const warp_arbiter_in_t *in, warp_arbiter_out_t *out)
{
    uint64_t b0 = 0, b1 = 0;
    if ((in->policy & 3) == WARP_ARBITER_OWF)
        owf_class_bits(in->cls, s->cfg.n, &b0, &b1);
    warp_arbiter_eval_classes(s, in, b0, b1, out);
}

void warp_arbiter_eval_classes(const warp_arbiter_state_t *s,
                               const warp_arbiter_in_t *in, uint64_t cls_b0,
                               uint64_t cls_b1, warp_arbiter_out_t *out)
{
    uint64_t valid = in->valid & slot_mask(s->cfg.n);
    uint64_t cand = valid & in->ready;
    int g = -1;
    switch (in->policy & 3) {
    case WARP_ARBITER_LRR: g = pick_lrr(s, cand); break;
    case WARP_ARBITER_GTO: g = pick_gto(s, cand); break;
    case WARP_ARBITER_OWF: g = pick_owf(s, cand, cls_b0, cls_b1); break;
    default:
        if (s->wopt_valid)
            cand &= ltlws_eligible(s, valid);
        g = (in->ltlws_inner & 1) ? pick_lrr(s, cand) : pick_gto(s, cand);
        break;
    }
    out->grant_valid = g >= 0;
    out->grant_idx = g >= 0 ? (uint32_t)g : 0;
}

uint32_t warp_arbiter_wopt(uint64_t sum, uint32_t c, unsigned n)
{
    if (c == 0)
        return n;
    uint64_t w = sum / c;
    return w < 1 ? 1 : w > n ? n : (uint32_t)w;
}

void warp_arbiter_tick(warp_arbiter_state_t *s, const warp_arbiter_in_t *in)
{
    unsigned n = s->cfg.n;
    uint64_t mask = slot_mask(n);
    uint32_t cmax = (uint32_t)(((uint64_t)1 << s->cfg.cnt_w) - 1);

    /* 1. last issued; 2. its counter after this cycle's issue (saturating). */
    if (in->issued_valid && in->issued_idx < n) {
        s->last = in->issued_idx;
        s->last_valid = 1;
        if (s->cnt[in->issued_idx] < cmax)
            s->cnt[in->issued_idx]++;
    }

    /* 3. W_Opt once per reset, from the post-issue, pre-alloc counters. */
    uint64_t fin = in->finished & mask;
    if (!s->wopt_valid && fin) {
        uint64_t sum = 0;
        for (unsigned i = 0; i < n; i++)
            sum += s->cnt[i];
        unsigned f = 0;
        while (!(fin >> f & 1))
            f++;
        s->wopt = warp_arbiter_wopt(sum, s->cnt[f], n);
        s->wopt_valid = 1;
    }

    /* Alloc clears the counter; 4. alloc makes the slot youngest. */
    uint64_t alloc = in->alloc & mask;
    if (!alloc)
        return;
    for (unsigned i = 0; i < n; i++) {
        uint64_t bit = (uint64_t)1 << i;
        if (alloc & bit) {
            s->cnt[i] = 0;
            /* Older only than the slots allocated with it at a higher index. */
            s->age[i] = alloc & ~slot_mask(i + 1);
        } else {
            s->age[i] |= alloc; /* older than every new warp */
        }
    }
}

/* ------------------------------------------------------------------ */
/* The declaration (units/unit_desc.h)                                  */
/* ------------------------------------------------------------------ */

enum { P_N, P_CNT_W, P_WOPT_W };

static const char *const wa_params[] = { "N", "CntW", "WoptW" };

#define WA_IN(f, fl, w) UNIT_FIELD(warp_arbiter_in_t, f, "_i", UNIT_DIR_IN, fl, w)
#define WA_OUT(f, w) UNIT_FIELD(warp_arbiter_out_t, f, "_o", UNIT_DIR_OUT, 0, w)
#define WA_FLOP(f, w) UNIT_FIELD(warp_arbiter_state_t, f, "_q", UNIT_DIR_FLOP, 0, w)
#define SZ_N UNIT_SZ(UNIT_P, P_N)
#define SZ_IDX UNIT_SZ(UNIT_P_IDX, P_N)

static const unit_field_t wa_fields[] = {
    WA_IN(valid, 0, SZ_N),
    WA_IN(ready, 0, SZ_N),
    UNIT_ARRAY(warp_arbiter_in_t, cls, "_i", UNIT_DIR_IN, 0, UNIT_SZ(UNIT_K, 2), SZ_N),
    WA_IN(alloc, 0, SZ_N),
    WA_IN(finished, 0, SZ_N),
    WA_IN(issued_valid, UNIT_LATE, UNIT_ONE),
    WA_IN(issued_idx, UNIT_LATE, SZ_IDX),
    WA_IN(policy, 0, UNIT_SZ(UNIT_K, 2)),
    WA_IN(ltlws_inner, 0, UNIT_ONE),
    WA_OUT(grant_valid, UNIT_ONE),
    WA_OUT(grant_idx, SZ_IDX),
    WA_FLOP(last_valid, UNIT_ONE),
    WA_FLOP(last, SZ_IDX),
    UNIT_ARRAY(warp_arbiter_state_t, age, "_q", UNIT_DIR_FLOP, UNIT_ROWS, SZ_N, SZ_N),
    UNIT_ARRAY(warp_arbiter_state_t, cnt, "_q", UNIT_DIR_FLOP, UNIT_ROWS,
               UNIT_SZ(UNIT_P, P_CNT_W), SZ_N),
    WA_FLOP(wopt_valid, UNIT_ONE),
    WA_FLOP(wopt, UNIT_SZ(UNIT_P, P_WOPT_W)),
};

static void wa_param_values(const void *state, uint32_t *v)
{
    const warp_arbiter_state_t *s = state;
    v[P_N] = s->cfg.n;
    v[P_CNT_W] = s->cfg.cnt_w;
    v[P_WOPT_W] = s->cfg.wopt_w;
}

static int wa_init(void *state, const uint32_t *p)
{
    warp_arbiter_cfg_t cfg = { p[P_N], p[P_CNT_W], p[P_WOPT_W] };
    return warp_arbiter_init(state, &cfg);
}

static void wa_reset(void *state) { warp_arbiter_reset(state); }
static void wa_eval(const void *state, const void *in, void *out)
{
    warp_arbiter_eval(state, in, out);
}
static void wa_tick(void *state, const void *in) { warp_arbiter_tick(state, in); }

/* Co-simulation coverage: what a real workload must exercise for the
 * lockstep to mean something (docs/units/warp_arbiter.md, Verification).
 * The last bin is one per slot. */
enum {
    B_REUSE, B_WOPT_N, B_LRR_WRAP, B_GTO_GREEDY, B_GTO_AGE, B_OWF_AGE,
    B_LTLWS_CAP, B_LTLWS_GTO_AGE, B_LTLWS_LRR_WRAP, B_SLOT
};

static const unit_bin_t wa_bins[] = {
    { "slot reused after a finish", UNIT_ONE }, { "W_Opt = N", UNIT_ONE },
    { "LRR wrap-around", UNIT_ONE }, { "GTO greedy hit", UNIT_ONE },
    { "GTO tie broken by age", UNIT_ONE }, { "OWF tie broken by age in a class", UNIT_ONE },
    { "LTLWS cap excludes a candidate", UNIT_ONE },
    { "LTLWS-GTO tie broken by age", UNIT_ONE }, { "LTLWS-LRR wrap-around", UNIT_ONE },
    { "slot granted", SZ_N },
};

static unsigned popcount64(uint64_t v)
{
    unsigned n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* mem[0]: the slots whose warp finished since reset; mem[1]: W_Opt = N
 * counted. */
static void wa_cover(const void *state, const void *inp, const void *outp,
                     uint64_t *bins, uint64_t *mem)
{
    const warp_arbiter_state_t *s = state;
    const warp_arbiter_in_t *in = inp;
    const warp_arbiter_out_t *out = outp;
    uint64_t mask = slot_mask(s->cfg.n);
    if (!out) { /* the edge: s is the state after it */
        if (in->alloc & mem[0])
            bins[B_REUSE]++;
        mem[0] = (mem[0] & ~in->alloc) | (in->finished & mask);
        if (s->wopt_valid && s->wopt == s->cfg.n && !mem[1]) {
            bins[B_WOPT_N]++;
            mem[1] = 1;
        }
        return;
    }
    if (!out->grant_valid)
        return;
    unsigned g = out->grant_idx, pol = in->policy & 3;
    bins[B_SLOT + g]++;
    uint64_t cand = in->valid & in->ready & mask;
    int greedy = s->last_valid && s->last == g;
    int lrr = pol == WARP_ARBITER_LRR || (pol == WARP_ARBITER_LTLWS && (in->ltlws_inner & 1));
    if (lrr && s->last_valid && g <= s->last)
        bins[pol == WARP_ARBITER_LRR ? B_LRR_WRAP : B_LTLWS_LRR_WRAP]++;
    if (pol == WARP_ARBITER_GTO && greedy)
        bins[B_GTO_GREEDY]++;
    if (pol == WARP_ARBITER_GTO && !greedy && popcount64(cand) >= 2)
        bins[B_GTO_AGE]++;
    if (pol == WARP_ARBITER_OWF && !greedy) {
        uint64_t same = 0;
        for (unsigned i = 0; i < s->cfg.n; i++)
            if ((cand >> i & 1) && (in->cls[i] & 3) == (in->cls[g] & 3))
                same |= (uint64_t)1 << i;
        if (popcount64(same) >= 2)
            bins[B_OWF_AGE]++;
    }
    if (pol == WARP_ARBITER_LTLWS && s->wopt_valid) {
        uint64_t elig = ltlws_eligible(s, in->valid & mask);
        if (cand & ~elig)
            bins[B_LTLWS_CAP]++;
        if (!(in->ltlws_inner & 1) && !greedy && popcount64(cand & elig) >= 2)
            bins[B_LTLWS_GTO_AGE]++;
    }
}

const unit_desc_t warp_arbiter_desc = {
    .name = "warp_arbiter",
    .params = wa_params,
    .nparams = 3,
    .fields = wa_fields,
    .nfields = sizeof wa_fields / sizeof wa_fields[0],
    .in_size = sizeof(warp_arbiter_in_t),
    .out_size = sizeof(warp_arbiter_out_t),
    .state_size = sizeof(warp_arbiter_state_t),
    .param_values = wa_param_values,
    .init = wa_init,
    .reset = wa_reset,
    .eval = wa_eval,
    .tick = wa_tick,
    .bins = wa_bins,
    .nbins = B_SLOT + 1,
    .cover_mem = 2,
    .cover = wa_cover,
};
