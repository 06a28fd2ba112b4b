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
        s->older[i] = i < n ? slot_mask(n) & ~slot_mask(i + 1) : 0;
    }
}

/* The oldest slot of a non-empty set: the one older than every other
 * member.  -1 for an empty set. */
static int oldest(const warp_arbiter_state_t *s, uint64_t set)
{
    for (unsigned i = 0; i < s->cfg.n; i++) {
        uint64_t bit = (uint64_t)1 << i;
        if ((set & bit) && (set & ~bit & ~s->older[i]) == 0)
            return (int)i;
    }
    return -1;
}

static int pick_lrr(const warp_arbiter_state_t *s, uint64_t cand)
{
    unsigned n = s->cfg.n;
    unsigned from = s->last_valid ? (s->last + 1) % n : 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned i = (from + k) % n;
        if (cand >> i & 1)
            return (int)i;
    }
    return -1;
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

static int pick_owf(const warp_arbiter_state_t *s, const warp_arbiter_in_t *in,
                    uint64_t cand)
{
    int g = greedy(s, cand);
    if (g >= 0)
        return g;
    /* The smallest class present, then the oldest in it. */
    for (unsigned c = 0; c < 4; c++) {
        uint64_t in_class = 0;
        for (unsigned i = 0; i < s->cfg.n; i++)
            if ((cand >> i & 1) && (in->cls[i] & 3) == c)
                in_class |= (uint64_t)1 << i;
        if (in_class)
            return oldest(s, in_class);
    }
    return -1;
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
            if (j != i && (valid >> j & 1) && (s->older[j] >> i & 1))
                older_valid++;
        if (older_valid < s->wopt)
            elig |= (uint64_t)1 << i;
    }
    return elig;
}

void warp_arbiter_eval(const warp_arbiter_state_t *s,
                       const warp_arbiter_in_t *in, warp_arbiter_out_t *out)
{
    uint64_t valid = in->valid & slot_mask(s->cfg.n);
    uint64_t cand = valid & in->ready;
    int g = -1;
    switch (in->policy & 3) {
    case WARP_ARBITER_LRR: g = pick_lrr(s, cand); break;
    case WARP_ARBITER_GTO: g = pick_gto(s, cand); break;
    case WARP_ARBITER_OWF: g = pick_owf(s, in, cand); break;
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
            s->older[i] = alloc & ~slot_mask(i + 1);
        } else {
            s->older[i] |= alloc; /* older than every new warp */
        }
    }
}
