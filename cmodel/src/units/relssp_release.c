/* relssp_release.c: the relssp release unit's C twin and its declaration
 * (relssp_release.h; the rules: docs/units/relssp_release.md). */
#include <string.h>

#include "units/relssp_release.h"

int relssp_release_init(relssp_release_state_t *s, const relssp_release_cfg_t *cfg)
{
    memset(s, 0, sizeof *s);
    if (cfg->w < 1 || cfg->w > RELSSP_RELEASE_MAX_W || cfg->t < 1 ||
        cfg->t > RELSSP_RELEASE_MAX_T)
        return -1;
    s->cfg = *cfg;
    return 0;
}

void relssp_release_reset(relssp_release_state_t *s)
{
    memset(s->live, 0, sizeof s->live);
    memset(s->rel, 0, sizeof s->rel);
    memset(s->cta, 0, sizeof s->cta);
}

/* Whether the event writes row `slot` (an in-range slot, and for an alloc
 * an in-range CTA slot); out-of-range events change nothing (D3). */
static int row_event(const relssp_release_state_t *s, const relssp_release_in_t *in)
{
    switch (in->op) {
    case RELSSP_OP_ALLOC:
        return in->slot < s->cfg.w && in->cta < s->cfg.t;
    case RELSSP_OP_RELSSP:
    case RELSSP_OP_EXIT:
        return in->slot < s->cfg.w;
    default:
        return 0;
    }
}

/* Row i after the event `in` (the SV's live_d, rel_d, cta_d). */
static void row_next(const relssp_release_state_t *s, const relssp_release_in_t *in,
                     unsigned i, uint32_t *live, uint32_t *rel, uint8_t *cta)
{
    *live = s->live[i];
    *rel = s->rel[i];
    *cta = s->cta[i];
    if (in->op == RELSSP_OP_CLEAR) {
        if (in->cta < s->cfg.t && s->cta[i] == in->cta)
            *live = *rel = 0;
        return;
    }
    if (i != in->slot || !row_event(s, in))
        return;
    switch (in->op) {
    case RELSSP_OP_ALLOC:
        *live = in->lanes;
        *rel = 0;
        *cta = (uint8_t)in->cta;
        break;
    case RELSSP_OP_RELSSP:
        *rel |= in->lanes & *live; /* idempotent; exited lanes stay clear */
        break;
    case RELSSP_OP_EXIT:
        *live &= ~in->lanes;
        *rel &= ~in->lanes;
        break;
    default:
        break;
    }
}

static uint64_t t_mask(unsigned t)
{
    return t >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << t) - 1;
}

uint64_t relssp_release_reduce(const relssp_release_state_t *s)
{
    uint64_t pending = 0; /* bit t: CTA slot t has a live, unreleased lane */
    for (unsigned i = 0; i < s->cfg.w; i++)
        if (s->live[i] & ~s->rel[i])
            pending |= (uint64_t)1 << (s->cta[i] & 63);
    return ~pending & t_mask(s->cfg.t);
}

void relssp_release_eval(const relssp_release_state_t *s,
                         const relssp_release_in_t *in, relssp_release_out_t *out)
{
    uint64_t pending = 0;
    for (unsigned i = 0; i < s->cfg.w; i++) {
        uint32_t live, rel;
        uint8_t cta;
        row_next(s, in, i, &live, &rel, &cta);
        if (live & ~rel)
            pending |= (uint64_t)1 << (cta & 63);
    }
    out->all_released = ~pending & t_mask(s->cfg.t);
}

void relssp_release_tick(relssp_release_state_t *s, const relssp_release_in_t *in)
{
    if (in->op == RELSSP_OP_CLEAR) {
        for (unsigned i = 0; i < s->cfg.w; i++)
            row_next(s, in, i, &s->live[i], &s->rel[i], &s->cta[i]);
        return;
    }
    if (!row_event(s, in))
        return;
    unsigned i = in->slot;
    uint32_t live, rel;
    uint8_t cta;
    row_next(s, in, i, &live, &rel, &cta);
    s->live[i] = live;
    s->rel[i] = rel;
    s->cta[i] = cta;
}

/* ---------- the declaration (unit kit) ---------- */

static int rr_init(void *state, const uint32_t *p)
{
    relssp_release_cfg_t cfg = { .w = p[0], .t = p[1] };
    return relssp_release_init(state, &cfg);
}

static void rr_param_values(const void *state, uint32_t *v)
{
    const relssp_release_state_t *s = state;
    v[0] = s->cfg.w;
    v[1] = s->cfg.t;
}

static void rr_reset(void *state) { relssp_release_reset(state); }
static void rr_eval(const void *state, const void *in, void *out)
{
    relssp_release_eval(state, in, out);
}
static void rr_tick(void *state, const void *in) { relssp_release_tick(state, in); }

static const char *const rr_params[] = { "W", "T" };

#define SZ_W UNIT_SZ(UNIT_P, 0)
#define SZ_T UNIT_SZ(UNIT_P, 1)

static const unit_field_t rr_fields[] = {
    UNIT_FIELD(relssp_release_in_t, op, "_i", UNIT_DIR_IN, 0, UNIT_SZ(UNIT_K, 3)),
    UNIT_FIELD(relssp_release_in_t, slot, "_i", UNIT_DIR_IN, 0, UNIT_SZ(UNIT_P_IDX, 0)),
    UNIT_FIELD(relssp_release_in_t, cta, "_i", UNIT_DIR_IN, 0, UNIT_SZ(UNIT_P_IDX, 1)),
    UNIT_FIELD(relssp_release_in_t, lanes, "_i", UNIT_DIR_IN, 0, UNIT_SZ(UNIT_K, 32)),
    UNIT_FIELD(relssp_release_out_t, all_released, "_o", UNIT_DIR_OUT, 0, SZ_T),
    UNIT_ARRAY(relssp_release_state_t, live, "_q", UNIT_DIR_FLOP, UNIT_ROWS,
               UNIT_SZ(UNIT_K, 32), SZ_W),
    UNIT_ARRAY(relssp_release_state_t, rel, "_q", UNIT_DIR_FLOP, UNIT_ROWS,
               UNIT_SZ(UNIT_K, 32), SZ_W),
    UNIT_ARRAY(relssp_release_state_t, cta, "_q", UNIT_DIR_FLOP, UNIT_ROWS,
               UNIT_SZ(UNIT_P_IDX, 1), SZ_W),
};

/* Co-simulation coverage: what a real workload must exercise for the
 * lockstep to mean something (docs/units/relssp_release.md, Verification). */
enum { B_PARTIAL, B_COMPLETES, B_EXIT_COMPLETES, B_AGAIN, B_CLEAR_REUSE, B_NBINS };

static const unit_bin_t rr_bins[] = {
    { "relssp by part of a warp's unreleased lanes", UNIT_ONE },
    { "relssp releases its block", UNIT_ONE },
    { "an exit releases its block", UNIT_ONE },
    { "relssp on lanes already released", UNIT_ONE },
    { "CTA slot reused (cleared with rows)", UNIT_ONE },
};

static void rr_cover(const void *state, const void *inp, const void *outp,
                     uint64_t *bins, uint64_t *mem)
{
    const relssp_release_state_t *s = state;
    const relssp_release_in_t *in = inp;
    const relssp_release_out_t *out = outp;
    (void)mem;
    if (!out || !(in->op == RELSSP_OP_CLEAR || row_event(s, in)))
        return;
    if (in->op == RELSSP_OP_CLEAR) {
        if (in->cta < s->cfg.t)
            for (unsigned i = 0; i < s->cfg.w; i++)
                if (s->cta[i] == in->cta) {
                    bins[B_CLEAR_REUSE]++;
                    break;
                }
        return;
    }
    uint32_t live = s->live[in->slot], rel = s->rel[in->slot];
    uint64_t bit = (uint64_t)1 << s->cta[in->slot];
    int rises = !(relssp_release_reduce(s) & bit) && (out->all_released & bit);
    if (in->op == RELSSP_OP_RELSSP) {
        uint32_t open = live & ~rel;
        if (in->lanes & open && open & ~in->lanes)
            bins[B_PARTIAL]++;
        if (in->lanes & rel)
            bins[B_AGAIN]++;
        if (rises)
            bins[B_COMPLETES]++;
    } else if (in->op == RELSSP_OP_EXIT && rises) {
        bins[B_EXIT_COMPLETES]++;
    }
}

const unit_desc_t relssp_release_desc = {
    .name = "relssp_release",
    .params = rr_params,
    .nparams = 2,
    .fields = rr_fields,
    .nfields = sizeof rr_fields / sizeof rr_fields[0],
    .in_size = sizeof(relssp_release_in_t),
    .out_size = sizeof(relssp_release_out_t),
    .state_size = sizeof(relssp_release_state_t),
    .param_values = rr_param_values,
    .init = rr_init,
    .reset = rr_reset,
    .eval = rr_eval,
    .tick = rr_tick,
    .bins = rr_bins,
    .nbins = B_NBINS,
    .cover_mem = 0,
    .cover = rr_cover,
};
