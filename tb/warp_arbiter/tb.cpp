// tb.cpp: the warp arbiter's part of the kit testbench (tb/kit/kit_tb.h):
// the directed cases of tests/unit/warp_arbiter_cases.h (default
// parameters only; the unit test runs them on the twin alone), then
// constrained-random segments per policy, and the testbench's coverage
// bins.  The skeleton does the lockstep: grant compared every cycle, every
// flop (last, W_Opt, each counter, each age row) after every edge.
#include <cstring>

#include "kit_tb.h"
#include "units/warp_arbiter.h"
#include "unit/warp_arbiter_cases.h"

namespace {


const warp_arbiter_state_t &twin(const KitTb &tb)
{
    return *static_cast<const warp_arbiter_state_t *>(tb.state());
}
unsigned n_of(const KitTb &tb) { return tb.param(0); }
uint64_t mask_of(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }
uint64_t mask_p(KitRng &rng, unsigned n, unsigned num, unsigned den)
{ // each of n bits with p = num/den
    uint64_t m = 0;
    for (unsigned i = 0; i < n; i++)
        if (rng.chance(num, den)) m |= 1ull << i;
    return m;
}

enum Cov {
    C_GRANT_LRR, C_GRANT_GTO, C_GRANT_OWF, C_GRANT_LTLWS_GTO, C_GRANT_LTLWS_LRR,
    C_NO_GRANT,
    C_OWF_CLS1, C_OWF_CLS2, C_OWF_CLS3, C_OWF_CLS4, C_OWF_CLS5, C_OWF_CLS6, C_OWF_CLS7,
    C_OWF_RESERVED_CLASS,
    C_GREEDY_GTO, C_GREEDY_OWF, C_GREEDY_LTLWS,
    C_TIE_AGE_GTO, C_TIE_AGE_OWF, C_OWF_CLASS_OVER_AGE,
    C_LRR_WRAP, C_LTLWS_LRR_WRAP,
    C_WOPT_COMPUTED, C_WOPT_1, C_WOPT_N, C_WOPT_MID, C_WOPT_ZERO_COUNT,
    C_LTLWS_CAP_EXCLUDES, C_LTLWS_CAP_BLOCKS_ALL,
    C_ALLOC_ISSUE_SAME_SLOT, C_MULTI_ALLOC, C_FINISH_ISSUE_AT_WOPT,
    C_MULTI_FINISH_AT_WOPT, C_ALLOC_FINISH_AT_WOPT, C_ISSUE_OUT_OF_RANGE,
    C_ISSUE_NOT_GRANT, C_COUNTER_SATURATED, C_RESETS,
    C_NCOV
};

const char *const kCovName[C_NCOV] = {
    "grant LRR", "grant GTO", "grant OWF", "grant LTLWS-GTO", "grant LTLWS-LRR",
    "no grant",
    "OWF candidates classes {O}", "OWF candidates classes {U}",
    "OWF candidates classes {O,U}", "OWF candidates classes {N}",
    "OWF candidates classes {O,N}", "OWF candidates classes {U,N}",
    "OWF candidates classes {O,U,N}", "OWF reserved class 3 candidate",
    "greedy hit GTO", "greedy hit OWF", "greedy hit LTLWS-GTO",
    "GTO tie broken by age", "OWF tie broken by age in class",
    "OWF class beats an older candidate",
    "LRR wrap-around", "LTLWS-LRR wrap-around",
    "W_Opt computed", "W_Opt = 1", "W_Opt = N", "1 < W_Opt < N",
    "W_Opt from a zero count", "LTLWS cap excludes a candidate",
    "LTLWS cap leaves no grant",
    "alloc and issue on one slot", "several allocs in a cycle",
    "finish and issue on one slot at W_Opt", "several finishes at W_Opt",
    "alloc and finish on one slot at W_Opt", "issue index out of range",
    "issue differs from grant", "issue counter saturated", "resets",
};

bool pending_wopt = false; // a W_Opt computed this cycle: bin its value after the edge

// Coverage from the twin's view (state before the edge).
void cover(KitTb &tb, const void *inp, const void *outp) {
const warp_arbiter_in_t &in = *static_cast<const warp_arbiter_in_t *>(inp);
const warp_arbiter_out_t &out = *static_cast<const warp_arbiter_out_t *>(outp);
const warp_arbiter_state_t &s = twin(tb);
const unsigned kN = n_of(tb);
const uint64_t kMask = mask_of(kN);
std::vector<uint64_t> &cov = tb.bins;
    uint64_t valid = in.valid & kMask, cand = valid & in.ready;
    unsigned pol = in.policy & 3;
    bool inner_lrr = in.ltlws_inner & 1;
    bool greedy = s.last_valid && (out.grant_valid && out.grant_idx == s.last);
    if (!out.grant_valid) cov[(size_t)C_NO_GRANT]++;
    uint64_t lt_cand = cand;
    if (pol == 3 && s.wopt_valid) {
        uint64_t elig = 0;
        for (unsigned i = 0; i < kN; i++) {
            if (!(valid >> i & 1)) continue;
            unsigned older = 0;
            for (unsigned j = 0; j < kN; j++)
                if (j != i && (valid >> j & 1) && (s.age[j] >> i & 1)) older++;
            if (older < s.wopt) elig |= 1ull << i;
        }
        lt_cand = cand & elig;
        if (cand & ~elig) cov[(size_t)C_LTLWS_CAP_EXCLUDES]++;
        if (cand && !lt_cand) cov[(size_t)C_LTLWS_CAP_BLOCKS_ALL]++;
    }
    auto popc = [](uint64_t v) { return (unsigned)__builtin_popcountll(v); };
    if (out.grant_valid) {
        static const Cov by_pol[4] = { C_GRANT_LRR, C_GRANT_GTO, C_GRANT_OWF, C_GRANT_LTLWS_GTO };
        cov[pol == 3 && inner_lrr ? C_GRANT_LTLWS_LRR : by_pol[pol]]++;
        bool lrr = pol == 0 || (pol == 3 && inner_lrr);
        if (lrr && s.last_valid && out.grant_idx <= s.last)
            cov[pol == 0 ? C_LRR_WRAP : C_LTLWS_LRR_WRAP]++;
        if (pol == 1 && greedy) cov[(size_t)C_GREEDY_GTO]++;
        if (pol == 2 && greedy) cov[(size_t)C_GREEDY_OWF]++;
        if (pol == 3 && !inner_lrr && greedy) cov[(size_t)C_GREEDY_LTLWS]++;
        if (pol == 1 && !greedy && popc(cand) >= 2) cov[(size_t)C_TIE_AGE_GTO]++;
        if (pol == 2 && !greedy) {
            unsigned wc = in.cls[out.grant_idx] & 3;
            uint64_t same = 0;
            bool beat_older = false;
            for (unsigned i = 0; i < kN; i++) {
                if (!(cand >> i & 1)) continue;
                if ((in.cls[i] & 3) == wc) same |= 1ull << i;
                else if (s.age[i] >> out.grant_idx & 1) beat_older = true;
            }
            if (popc(same) >= 2) cov[(size_t)C_TIE_AGE_OWF]++;
            if (beat_older) cov[(size_t)C_OWF_CLASS_OVER_AGE]++;
        }
    }
    if (pol == 2 && cand) {
        unsigned present = 0;
        bool reserved = false;
        for (unsigned i = 0; i < kN; i++)
            if (cand >> i & 1) {
                unsigned c = in.cls[i] & 3;
                if (c == 3) reserved = true; else present |= 1u << c;
            }
        if (present) cov[(size_t)C_OWF_CLS1 + present - 1]++;
        if (reserved) cov[(size_t)C_OWF_RESERVED_CLASS]++;
    }
    bool inc_ok = in.issued_valid && in.issued_idx < kN;
    if (in.issued_valid && in.issued_idx >= kN) cov[(size_t)C_ISSUE_OUT_OF_RANGE]++;
    if (in.issued_valid && (!out.grant_valid || in.issued_idx != out.grant_idx))
        cov[(size_t)C_ISSUE_NOT_GRANT]++;
    if (inc_ok && (in.alloc >> in.issued_idx & 1)) cov[(size_t)C_ALLOC_ISSUE_SAME_SLOT]++;
    if (popc(in.alloc & kMask) >= 2) cov[(size_t)C_MULTI_ALLOC]++;
    if (inc_ok && s.cnt[in.issued_idx] == (uint32_t)((1ull << tb.param(1)) - 1))
        cov[(size_t)C_COUNTER_SATURATED]++;
    uint64_t fin = in.finished & kMask;
    if (!s.wopt_valid && fin) {
        unsigned f = (unsigned)__builtin_ctzll(fin);
        uint32_t c = s.cnt[f] + (inc_ok && in.issued_idx == f ? 1 : 0);
        cov[(size_t)C_WOPT_COMPUTED]++;
        if (c == 0) cov[(size_t)C_WOPT_ZERO_COUNT]++;
        if (inc_ok && in.issued_idx == f) cov[(size_t)C_FINISH_ISSUE_AT_WOPT]++;
        if (popc(fin) >= 2) cov[(size_t)C_MULTI_FINISH_AT_WOPT]++;
        if (in.alloc >> f & 1) cov[(size_t)C_ALLOC_FINISH_AT_WOPT]++;
        pending_wopt = true;
    }
}

void after_tick_cover(KitTb &tb) {
    const warp_arbiter_state_t &s = twin(tb);
    std::vector<uint64_t> &cov = tb.bins;
    const unsigned kN = n_of(tb);
    if (!pending_wopt) return;
    pending_wopt = false;
    if (s.wopt == 1) cov[(size_t)C_WOPT_1]++;
    else if (s.wopt == kN) cov[(size_t)C_WOPT_N]++;
    else cov[(size_t)C_WOPT_MID]++;
}


// One cycle on both sides; issue(grant, in) sets issued_* from the twin's
// grant.  Returns the twin's grant (WA_NONE for none).
template <class IssueFn>
int step(KitTb &tb, warp_arbiter_in_t in, IssueFn issue) {
    in.issued_valid = 0;
    in.issued_idx = 0;
    int g = WA_NONE;
    tb.step(&in, [&](const void *outp, void *inp) {
        const warp_arbiter_out_t &out = *static_cast<const warp_arbiter_out_t *>(outp);
        g = out.grant_valid ? (int)out.grant_idx : WA_NONE;
        issue(g, *static_cast<warp_arbiter_in_t *>(inp));
    });
    after_tick_cover(tb);
    return g;
}

warp_arbiter_in_t case_in(const wa_case_t &c, const wa_step_t &st) {
    warp_arbiter_in_t in;
    std::memset(&in, 0, sizeof in);
    in.valid = st.valid;
    in.ready = st.ready;
    in.alloc = st.alloc;
    in.finished = st.finished;
    for (unsigned i = 0; i < 24; i++) in.cls[i] = (uint8_t)wa_step_cls(&st, i);
    in.policy = (uint8_t)c.policy;
    in.ltlws_inner = (uint8_t)c.ltlws_inner;
    return in;
}

// A directed case on both sides: lockstep plus the hand-derived grants.
bool run_case(KitTb &tb, const wa_case_t &c) {
    tb.reset();
    tb.where = c.name;
    unsigned before = tb.failures();
    bool ok = true;
    for (unsigned k = 0; k < c.nsteps; k++) {
        const wa_step_t &st = c.steps[k];
        for (unsigned r = 0; r < st.repeat; r++) {
            int g = step(tb, case_in(c, st), [&](int grant, warp_arbiter_in_t &in) {
                if (st.issue == WA_GRANT && grant >= 0) {
                    in.issued_valid = 1;
                    in.issued_idx = (uint32_t)grant;
                } else if (st.issue >= 0) {
                    in.issued_valid = 1;
                    in.issued_idx = (uint32_t)st.issue;
                }
            });
            if (st.expect != WA_ANY && g != st.expect) {
                std::printf("  %s: step %u: grant %d, want %d\n", c.name, k, g, st.expect);
                ok = false;
            }
        }
        int w = twin(tb).wopt_valid ? (int)twin(tb).wopt : 0;
        if (st.wopt != WA_ANY && w != st.wopt) {
            std::printf("  %s: after step %u: W_Opt %d, want %d\n", c.name, k, w, st.wopt);
            ok = false;
        }
    }
    return ok && tb.failures() == before;
}

// Constrained-random stimulus: segments from reset, each with its own
// resident-warp count, ready density, finish and alloc rates; one segment in
// ten drives unconstrained random masks.
struct Gen {
    KitRng &rng;
    unsigned n;
    uint64_t mask;
    uint64_t resident = 0;  // slots holding a warp (drives valid)
    unsigned p_ready = 128, p_fin = 0, p_alloc = 0;
    bool chaos = false;
    uint8_t cls[WARP_ARBITER_MAX_N] = {};

    void new_segment() {
        unsigned k = 1 + rng.below(n);
        resident = mask_p(rng, n, k, n);
        static const unsigned ready_p[] = { 16, 96, 192, 250 };
        static const unsigned fin_p[] = { 0, 1, 4, 32 };  // per 4096 cycles-slot
        p_ready = ready_p[rng.below(4)];
        p_fin = fin_p[rng.below(4)];
        p_alloc = fin_p[rng.below(4)] * 4;
        chaos = rng.chance(1, 10);
        for (unsigned i = 0; i < n; i++) cls[i] = rand_cls();
    }
    uint8_t rand_cls() { return rng.chance(1, 32) ? 3 : (uint8_t)rng.below(3); }

    warp_arbiter_in_t next(unsigned policy, unsigned inner) {
        warp_arbiter_in_t in;
        std::memset(&in, 0, sizeof in);
        in.policy = (uint8_t)policy;
        in.ltlws_inner = (uint8_t)inner;
        for (unsigned i = 0; i < n; i++)
            if (rng.chance(1, 64)) cls[i] = rand_cls();
        std::memcpy(in.cls, cls, sizeof in.cls);
        if (chaos) {
            in.valid = rng.next() & mask;
            in.ready = rng.next() & mask;
            in.alloc = rng.next() & rng.next() & rng.next() & mask;
            in.finished = rng.next() & rng.next() & rng.next() & rng.next() & mask;
            return in;
        }
        in.valid = resident;
        in.ready = resident & mask_p(rng, n, p_ready, 256);
        in.finished = resident & mask_p(rng, n, p_fin, 4096);
        in.alloc = ~resident & mask & mask_p(rng, n, p_alloc, 4096);
        // A finishing warp's slot is sometimes refilled in the same cycle.
        in.alloc |= in.finished & mask_p(rng, n, 1, 4);
        resident = (resident & ~in.finished) | in.alloc;
        return in;
    }

    void issue(int grant, warp_arbiter_in_t &in) {
        unsigned r = rng.below(100);
        unsigned idx_w = 0;
        while ((1u << idx_w) < n) idx_w++;
        if (r < 85) {
            if (grant >= 0) { in.issued_valid = 1; in.issued_idx = (uint32_t)grant; }
        } else if (r < 92) {
            // nothing issues (the grant was lost to a hazard)
        } else {
            in.issued_valid = 1;
            in.issued_idx = (uint32_t)rng.below(1u << (idx_w ? idx_w : 1));
        }
    }
};

void run(KitTb &tb, const std::function<void(const char *, bool)> &report) {
    // Directed cases assume the default parameters.
    if (tb.param(0) == 24 && tb.param(1) == 32 && tb.param(2) == 6)
        for (int k = 0; k < WA_NCASES; k++) report(wa_cases[k].name, run_case(tb, wa_cases[k]));

    struct { unsigned pol, inner; const char *name; } runs[] = {
        { 0, 0, "random LRR" }, { 1, 0, "random GTO" }, { 2, 0, "random OWF" },
        { 3, 0, "random LTLWS-GTO" }, { 3, 1, "random LTLWS-LRR" },
    };
    Gen g{ tb.rng, n_of(tb), mask_of(n_of(tb)) };
    for (auto &r : runs) {
        unsigned before = tb.failures();
        tb.where = r.name;
        uint64_t done = 0;
        while (done < tb.cycles) {
            tb.reset();
            tb.bins[C_RESETS]++;
            g.new_segment();
            uint64_t len = 50 + tb.rng.below(4000);
            for (uint64_t c = 0; c < len && done < tb.cycles; c++, done++) {
                step(tb, g.next(r.pol, r.inner),
                     [&](int grant, warp_arbiter_in_t &in) { g.issue(grant, in); });
                if (tb.failures() - before >= 10) break;
            }
            if (tb.failures() - before >= 10) break;
        }
        std::printf("  %s: %llu cycles, %u mismatches\n", r.name, (unsigned long long)done,
                    tb.failures() - before);
        report(r.name, tb.failures() == before);
    }
}

// Counter saturation needs a narrow counter; an out-of-range issue index
// needs N below a power of two.
bool applies(const KitTb &tb, unsigned k) {
    if (k == C_COUNTER_SATURATED) return tb.param(1) <= 8;
    if (k == C_ISSUE_OUT_OF_RANGE) return (n_of(tb) & (n_of(tb) - 1)) != 0;
    return true;
}

// A million cycles per policy at the preset size (N 24), 200,000 otherwise.
uint64_t cycles(const uint32_t *p) { return p[0] == 24 ? 1000000 : 200000; }

}  // namespace

const KitTbUnit kit_tb_unit = {
    &warp_arbiter_desc, cycles, kCovName, C_NCOV, applies, run, cover,
};
