// tb.cpp: the relssp release unit's part of the kit testbench
// (tb/kit/kit_tb.h): the directed cases of tests/unit/relssp_release_cases.h
// (reference 000 §9 tests 9-11 and slot reuse; the unit test runs them on
// the twin alone), then constrained-random block lifecycles, and the
// testbench's coverage bins.  The skeleton does the lockstep: all_released_o
// compared every cycle, every row of live_q, rel_q and cta_q after every edge.
#include <cstdio>
#include <cstring>

#include "kit_tb.h"
#include "units/relssp_release.h"
#include "unit/relssp_release_cases.h"

namespace {

const relssp_release_state_t &twin(const KitTb &tb)
{
    return *static_cast<const relssp_release_state_t *>(tb.state());
}
unsigned w_of(const KitTb &tb) { return tb.param(0); }
unsigned t_of(const KitTb &tb) { return tb.param(1); }
unsigned idx_bits(unsigned n)
{
    unsigned b = 0;
    while ((1u << b) < n) b++;
    return b ? b : 1;
}
uint64_t t_mask(unsigned t) { return t >= 64 ? ~0ull : (1ull << t) - 1; }

enum Cov {
    C_ALLOC, C_RELSSP, C_EXIT, C_CLEAR, C_NONE, C_BAD_OP,
    C_SLOT_OUT, C_CTA_OUT, C_ALLOC_OVER_LIVE, C_ALLOC_PARTIAL, C_RELSSP_NOT_LIVE,
    C_EXIT_NOT_LIVE, C_CLEAR_EMPTY, C_CLEAR_PENDING, C_RISE_BY_EXIT_ALL,
    C_TWO_PENDING, C_ALL_RELEASED, C_LAST_SLOT, C_LAST_CTA, C_RESETS,
    C_NCOV
};

const char *const kCovName[C_NCOV] = {
    "alloc", "relssp", "exit", "clear", "no event", "op code 5-7 (ignored)",
    "warp slot >= W (ignored)", "CTA slot >= T (ignored)",
    "alloc over a row with live lanes", "alloc of a partial warp",
    "relssp on lanes that are not live", "exit of lanes that are not live",
    "clear of a CTA slot with no rows", "clear of a CTA slot with pending lanes",
    "a block's last live lanes exit (released, no relssp left)",
    "two blocks pending at once", "every CTA slot released with rows live",
    "event on warp slot W-1", "alloc into CTA slot T-1", "resets",
};

bool applies(const KitTb &tb, unsigned k)
{
    if (k == C_SLOT_OUT) return (w_of(tb) & (w_of(tb) - 1)) != 0;
    if (k == C_CTA_OUT) return (t_of(tb) & (t_of(tb) - 1)) != 0;
    return true;
}

// Coverage from the twin's view (state before the edge).
void cover(KitTb &tb, const void *inp, const void *outp)
{
    const relssp_release_in_t &in = *static_cast<const relssp_release_in_t *>(inp);
    const relssp_release_out_t &out = *static_cast<const relssp_release_out_t *>(outp);
    const relssp_release_state_t &s = twin(tb);
    std::vector<uint64_t> &cov = tb.bins;
    unsigned w = w_of(tb), t = t_of(tb);
    bool slot_ok = in.slot < w, cta_ok = in.cta < t;
    switch (in.op) {
    case RELSSP_OP_ALLOC: cov[C_ALLOC]++; break;
    case RELSSP_OP_RELSSP: cov[C_RELSSP]++; break;
    case RELSSP_OP_EXIT: cov[C_EXIT]++; break;
    case RELSSP_OP_CLEAR: cov[C_CLEAR]++; break;
    case RELSSP_OP_NONE: cov[C_NONE]++; break;
    default: cov[C_BAD_OP]++; break;
    }
    bool row_op = in.op >= RELSSP_OP_ALLOC && in.op <= RELSSP_OP_EXIT;
    if (row_op && !slot_ok) cov[C_SLOT_OUT]++;
    if ((in.op == RELSSP_OP_ALLOC || in.op == RELSSP_OP_CLEAR) && !cta_ok) cov[C_CTA_OUT]++;
    if (row_op && in.slot == w - 1) cov[C_LAST_SLOT]++;
    if (in.op == RELSSP_OP_ALLOC && cta_ok && in.cta == t - 1 && slot_ok) cov[C_LAST_CTA]++;
    if (slot_ok && cta_ok && in.op == RELSSP_OP_ALLOC) {
        if (s.live[in.slot]) cov[C_ALLOC_OVER_LIVE]++;
        if (in.lanes != ~0u && in.lanes) cov[C_ALLOC_PARTIAL]++;
    }
    if (slot_ok && in.op == RELSSP_OP_RELSSP && (in.lanes & ~s.live[in.slot])) cov[C_RELSSP_NOT_LIVE]++;
    if (slot_ok && in.op == RELSSP_OP_EXIT && (in.lanes & ~s.live[in.slot])) cov[C_EXIT_NOT_LIVE]++;
    if (in.op == RELSSP_OP_CLEAR && cta_ok) {
        bool rows = false, pending = false;
        for (unsigned i = 0; i < w; i++)
            if (s.cta[i] == in.cta) {
                rows = rows || s.live[i];
                pending = pending || (s.live[i] & ~s.rel[i]);
            }
        if (!rows) cov[C_CLEAR_EMPTY]++;
        if (pending) cov[C_CLEAR_PENDING]++;
    }
    uint64_t before = relssp_release_reduce(&s);
    if (slot_ok && in.op == RELSSP_OP_EXIT) {
        uint64_t bit = 1ull << s.cta[in.slot];
        bool none_left = true; // no live lane left in the block after the exit
        for (unsigned i = 0; i < w; i++)
            if (s.cta[i] == s.cta[in.slot] && (i == in.slot ? (s.live[i] & ~in.lanes) : s.live[i]))
                none_left = false;
        if (!(before & bit) && (out.all_released & bit) && none_left) cov[C_RISE_BY_EXIT_ALL]++;
    }
    if (__builtin_popcountll(~out.all_released & t_mask(t)) >= 2) cov[C_TWO_PENDING]++;
    bool any_live = false;
    for (unsigned i = 0; i < w; i++) any_live = any_live || s.live[i];
    if (any_live && out.all_released == t_mask(t) && before == t_mask(t)) cov[C_ALL_RELEASED]++;
}

// One event on both sides; returns the twin's all_released_o.
uint64_t step(KitTb &tb, unsigned op, unsigned slot, unsigned cta, uint32_t lanes)
{
    relssp_release_in_t in{};
    in.op = (uint8_t)op;
    in.slot = slot;
    in.cta = cta;
    in.lanes = lanes;
    return static_cast<const relssp_release_out_t *>(tb.step(&in, nullptr))->all_released;
}

// A directed case on both sides: lockstep plus the hand-derived outputs.
bool run_case(KitTb &tb, const rr_case_t &c)
{
    tb.reset();
    tb.bins[C_RESETS]++;
    tb.where = c.name;
    unsigned before = tb.failures();
    bool ok = true;
    uint64_t high = t_mask(t_of(tb)) & ~7ull;
    for (unsigned k = 0; k < c.nsteps; k++) {
        const rr_step_t &st = c.steps[k];
        uint64_t got = step(tb, st.op, st.slot, st.cta, st.lanes);
        if (got != (high | st.expect)) {
            std::printf("  %s: step %u: all_released 0x%llx, want 0x%llx\n", c.name, k,
                        (unsigned long long)got, (unsigned long long)(high | st.expect));
            ok = false;
        }
    }
    return ok && tb.failures() == before;
}

// Constrained-random block lifecycles: each segment, from reset, works on a
// window of a few warp slots and CTA slots (so that blocks do get fully
// released), places blocks (clear, then allocs of full or partial warps),
// and issues relssp (part of a warp's unreleased lanes or all of them) and
// exits; a few events are out of range or junk.  One segment in ten is
// unconstrained.
struct Gen {
    KitRng &rng;
    unsigned w, t, idx_w, cta_w;
    unsigned slot0 = 0, nslots = 1, cta0 = 0, nctas = 1;
    bool chaos = false;

    void new_segment()
    {
        nslots = 1 + rng.below(w < 8 ? w : 8);
        slot0 = rng.below(w - nslots + 1);
        nctas = 1 + rng.below(t < 3 ? t : 3);
        cta0 = rng.below(t - nctas + 1);
        chaos = rng.chance(1, 10);
    }
    uint32_t subset(uint32_t m)
    {
        return m & (uint32_t)rng.next();
    }
    relssp_release_in_t next(const relssp_release_state_t &s)
    {
        relssp_release_in_t in{};
        if (chaos) {
            in.op = (uint8_t)rng.below(8);
            in.slot = rng.below(1u << idx_w);
            in.cta = rng.below(1u << cta_w);
            in.lanes = (uint32_t)rng.next();
            return in;
        }
        unsigned r = rng.below(100);
        in.slot = slot0 + rng.below(nslots);
        in.cta = cta0 + rng.below(nctas);
        uint32_t live = s.live[in.slot], open = live & ~s.rel[in.slot];
        if (r < 14) {
            in.op = RELSSP_OP_ALLOC;
            unsigned k = rng.below(4);
            in.lanes = k == 0 ? ~0u : k == 1 ? (uint32_t)((1ull << (1 + rng.below(32))) - 1)
                     : k == 2 ? (uint32_t)rng.next() : (uint32_t)(1u << rng.below(32));
        } else if (r < 60) {
            in.op = RELSSP_OP_RELSSP;
            in.lanes = rng.chance(1, 2) ? open : rng.chance(1, 2) ? subset(open) : subset(~0u);
        } else if (r < 78) {
            in.op = RELSSP_OP_EXIT;
            in.lanes = rng.chance(1, 3) ? live : rng.chance(1, 2) ? subset(live) : subset(~0u);
        } else if (r < 86) {
            in.op = RELSSP_OP_CLEAR;
        } else if (r < 94) {
            in.op = RELSSP_OP_NONE;
            in.lanes = (uint32_t)rng.next();
        } else if (r < 96) {
            in.op = (uint8_t)(5 + rng.below(3));
        } else if (r < 98) {
            in.op = (uint8_t)(1 + rng.below(3));
            in.slot = w + rng.below((1u << idx_w) - w + 1); // may be in range if W = 2^k
            in.slot &= (1u << idx_w) - 1;
            in.lanes = (uint32_t)rng.next();
        } else {
            in.op = rng.chance(1, 2) ? RELSSP_OP_ALLOC : RELSSP_OP_CLEAR;
            in.cta = (t + rng.below((1u << cta_w) - t + 1)) & ((1u << cta_w) - 1);
            in.lanes = ~0u;
        }
        return in;
    }
};

void run(KitTb &tb, const std::function<void(const char *, bool)> &report)
{
    if (w_of(tb) >= 4 && t_of(tb) >= 3)
        for (unsigned k = 0; k < RR_NCASES; k++) report(rr_cases[k].name, run_case(tb, rr_cases[k]));

    Gen g{ tb.rng, w_of(tb), t_of(tb), idx_bits(w_of(tb)), idx_bits(t_of(tb)) };
    unsigned before = tb.failures();
    tb.where = "random";
    uint64_t done = 0;
    while (done < tb.cycles) {
        tb.reset();
        tb.bins[C_RESETS]++;
        g.new_segment();
        uint64_t len = 50 + tb.rng.below(2000);
        for (uint64_t c = 0; c < len && done < tb.cycles; c++, done++) {
            relssp_release_in_t in = g.next(twin(tb));
            tb.step(&in, nullptr);
            if (tb.failures() - before >= 10) break;
        }
        if (tb.failures() - before >= 10) break;
    }
    std::printf("  random: %llu cycles, %u mismatches\n", (unsigned long long)done,
                tb.failures() - before);
    report("random", tb.failures() == before);
}

uint64_t cycles(const uint32_t *) { return 200000; }

} // namespace

const KitTbUnit kit_tb_unit = {
    &relssp_release_desc, cycles, kCovName, C_NCOV, applies, run, cover,
};
