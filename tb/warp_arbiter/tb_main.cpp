// tb_main.cpp: lockstep testbench for rtl/warp_arbiter.sv against the C twin
// (cmodel/src/units/warp_arbiter.c).  Built once per parameter set: WA_MODEL
// names the verilated class, WA_N / WA_CNT_W / WA_WOPT_W its parameters.
//
// Every cycle both sides get the same inputs; grant_valid/grant_idx are
// compared, and after each clock edge every flop of the RTL (W_Opt, last
// issued, the issue counters, the age matrix) is compared with the twin's
// (read through the verilated root).
// Parts: the directed cases of tests/unit/warp_arbiter_cases.h (default
// parameters only), then constrained-random segments per policy, then the
// coverage counters.  Ends with "N passed, N failed"; non-zero exit on any
// failure or any coverage counter at 0.
//
// Environment: WA_SEED (default 0x5eed2026), WA_CYCLES (cycles per policy,
// default 1000000 for the default parameters).
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "verilated.h"

#define WA_STR2(x) #x
#define WA_STR(x) WA_STR2(x)
#define WA_HDR(x) WA_STR(x.h)
#define WA_ROOT_HDR(x) WA_STR(x##___024root.h)
#define WA_ROOT_HDR2(x) WA_ROOT_HDR(x)
#include WA_HDR(WA_MODEL)
#include WA_ROOT_HDR2(WA_MODEL)

#include "units/warp_arbiter.h"
#include "unit/warp_arbiter_cases.h"

namespace {

typedef WA_MODEL Model;

const unsigned kN = WA_N;
const unsigned kIdxW = kN > 1 ? 64 - __builtin_clzll((uint64_t)kN - 1) : 1;
const uint64_t kMask = kN >= 64 ? ~0ull : (1ull << kN) - 1;

struct Rng {  // xorshift64*: the stimulus stream, replayable from the seed
    uint64_t s;
    uint64_t next() {
        s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
    unsigned below(unsigned n) { return (unsigned)(next() % n); }
    bool chance(unsigned num, unsigned den) { return below(den) < num; }
    uint64_t mask_p(unsigned num, unsigned den) {  // each bit with p = num/den
        uint64_t m = 0;
        for (unsigned i = 0; i < kN; i++)
            if (chance(num, den)) m |= 1ull << i;
        return m;
    }
};

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

struct Bench {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Model> m;
    warp_arbiter_state_t s;
    uint64_t cov[C_NCOV] = {};
    uint64_t cycle = 0;
    unsigned failures = 0;
    const char *where = "";

    Bench() : ctx(new VerilatedContext) {
        m.reset(new Model(ctx.get()));
        warp_arbiter_cfg_t c = { WA_N, WA_CNT_W, WA_WOPT_W };
        if (warp_arbiter_init(&s, &c)) {
            std::fprintf(stderr, "bad twin configuration\n");
            std::exit(2);
        }
        reset();
    }

    void reset() {
        m->clk_i = 0;
        m->rst_ni = 1;
        m->eval();
        m->rst_ni = 0;
        m->eval();
        m->rst_ni = 1;
        m->eval();
        warp_arbiter_reset(&s);
    }

    void drive(const warp_arbiter_in_t &in) {
        m->valid_i = in.valid & kMask;
        m->ready_i = in.ready & kMask;
        m->alloc_i = in.alloc & kMask;
        m->finished_i = in.finished & kMask;
        uint64_t cls = 0;
        for (unsigned i = 0; i < kN; i++) cls |= (uint64_t)(in.cls[i] & 3) << (2 * i);
        m->cls_i = cls;
        m->issued_valid_i = in.issued_valid;
        m->issued_idx_i = in.issued_idx;
        m->policy_i = in.policy;
        m->ltlws_inner_i = in.ltlws_inner;
        m->eval();
    }

    bool fail(const char *fmt, uint64_t a, uint64_t b) {
        if (failures < 10) {
            std::printf("  MISMATCH [%s] cycle %" PRIu64 ": ", where, cycle);
            std::printf(fmt, a, b);
            std::printf("\n");
        }
        failures++;
        return false;
    }

    // One cycle: both sides evaluate `in` (issued_* taken from `issue`, a
    // function of the twin's grant), outputs compared, then both clock.
    // Returns the twin's grant (WA_NONE for none).
    template <class IssueFn>
    int step(warp_arbiter_in_t in, IssueFn issue) {
        in.issued_valid = 0;
        in.issued_idx = 0;
        drive(in);
        warp_arbiter_out_t out;
        warp_arbiter_eval(&s, &in, &out);
        compare(out);
        int g = out.grant_valid ? (int)out.grant_idx : WA_NONE;
        issue(g, in);
        // issued_* feed only the next state: set them without an extra
        // evaluation; the rising-edge eval settles inputs before the edge.
        m->issued_valid_i = in.issued_valid;
        m->issued_idx_i = in.issued_idx;
        cover(in, out);
        warp_arbiter_tick(&s, &in);
        m->clk_i = 1;
        m->eval();
        m->clk_i = 0;  // evaluated with the next cycle's inputs
        compare_state();
        cycle++;
        return g;
    }

    void compare(const warp_arbiter_out_t &out) {
        if (m->grant_valid_o != out.grant_valid)
            fail("grant_valid rtl %" PRIu64 " twin %" PRIu64, m->grant_valid_o, out.grant_valid);
        else if (m->grant_idx_o != out.grant_idx)
            fail("grant_idx rtl %" PRIu64 " twin %" PRIu64, m->grant_idx_o, out.grant_idx);
    }

    void compare_state() {
        auto *r = m->rootp;
        if (r->warp_arbiter__DOT__wopt_valid_q != s.wopt_valid)
            fail("wopt_valid_q rtl %" PRIu64 " twin %" PRIu64, r->warp_arbiter__DOT__wopt_valid_q, s.wopt_valid);
        else if (s.wopt_valid && r->warp_arbiter__DOT__wopt_q != s.wopt)
            fail("wopt_q rtl %" PRIu64 " twin %" PRIu64, r->warp_arbiter__DOT__wopt_q, s.wopt);
        if (r->warp_arbiter__DOT__last_valid_q != s.last_valid)
            fail("last_valid_q rtl %" PRIu64 " twin %" PRIu64, r->warp_arbiter__DOT__last_valid_q, s.last_valid);
        else if (s.last_valid && r->warp_arbiter__DOT__last_q != s.last)
            fail("last_q rtl %" PRIu64 " twin %" PRIu64, r->warp_arbiter__DOT__last_q, s.last);
        for (unsigned i = 0; i < kN; i++) {
            if (r->warp_arbiter__DOT__cnt_q[i] != s.cnt[i]) {
                fail("cnt_q[slot] rtl %" PRIu64 " twin %" PRIu64, r->warp_arbiter__DOT__cnt_q[i], s.cnt[i]);
                break;
            }
            if (r->warp_arbiter__DOT__age_q[i] != (s.older[i] & kMask)) {
                fail("age_q[slot] rtl %" PRIx64 " twin %" PRIx64, r->warp_arbiter__DOT__age_q[i], s.older[i]);
                break;
            }
        }
    }

    // Coverage from the twin's view (state before the edge).
    void cover(const warp_arbiter_in_t &in, const warp_arbiter_out_t &out) {
        uint64_t valid = in.valid & kMask, cand = valid & in.ready;
        unsigned pol = in.policy & 3;
        bool inner_lrr = in.ltlws_inner & 1;
        bool greedy = s.last_valid && (out.grant_valid && out.grant_idx == s.last);
        if (!out.grant_valid) cov[C_NO_GRANT]++;
        uint64_t lt_cand = cand;
        if (pol == 3 && s.wopt_valid) {
            uint64_t elig = 0;
            for (unsigned i = 0; i < kN; i++) {
                if (!(valid >> i & 1)) continue;
                unsigned older = 0;
                for (unsigned j = 0; j < kN; j++)
                    if (j != i && (valid >> j & 1) && (s.older[j] >> i & 1)) older++;
                if (older < s.wopt) elig |= 1ull << i;
            }
            lt_cand = cand & elig;
            if (cand & ~elig) cov[C_LTLWS_CAP_EXCLUDES]++;
            if (cand && !lt_cand) cov[C_LTLWS_CAP_BLOCKS_ALL]++;
        }
        auto popc = [](uint64_t v) { return (unsigned)__builtin_popcountll(v); };
        if (out.grant_valid) {
            static const Cov by_pol[4] = { C_GRANT_LRR, C_GRANT_GTO, C_GRANT_OWF, C_GRANT_LTLWS_GTO };
            cov[pol == 3 && inner_lrr ? C_GRANT_LTLWS_LRR : by_pol[pol]]++;
            bool lrr = pol == 0 || (pol == 3 && inner_lrr);
            if (lrr && s.last_valid && out.grant_idx <= s.last)
                cov[pol == 0 ? C_LRR_WRAP : C_LTLWS_LRR_WRAP]++;
            if (pol == 1 && greedy) cov[C_GREEDY_GTO]++;
            if (pol == 2 && greedy) cov[C_GREEDY_OWF]++;
            if (pol == 3 && !inner_lrr && greedy) cov[C_GREEDY_LTLWS]++;
            if (pol == 1 && !greedy && popc(cand) >= 2) cov[C_TIE_AGE_GTO]++;
            if (pol == 2 && !greedy) {
                unsigned wc = in.cls[out.grant_idx] & 3;
                uint64_t same = 0;
                bool beat_older = false;
                for (unsigned i = 0; i < kN; i++) {
                    if (!(cand >> i & 1)) continue;
                    if ((in.cls[i] & 3) == wc) same |= 1ull << i;
                    else if (s.older[i] >> out.grant_idx & 1) beat_older = true;
                }
                if (popc(same) >= 2) cov[C_TIE_AGE_OWF]++;
                if (beat_older) cov[C_OWF_CLASS_OVER_AGE]++;
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
            if (present) cov[C_OWF_CLS1 + present - 1]++;
            if (reserved) cov[C_OWF_RESERVED_CLASS]++;
        }
        bool inc_ok = in.issued_valid && in.issued_idx < kN;
        if (in.issued_valid && in.issued_idx >= kN) cov[C_ISSUE_OUT_OF_RANGE]++;
        if (in.issued_valid && (!out.grant_valid || in.issued_idx != out.grant_idx))
            cov[C_ISSUE_NOT_GRANT]++;
        if (inc_ok && (in.alloc >> in.issued_idx & 1)) cov[C_ALLOC_ISSUE_SAME_SLOT]++;
        if (popc(in.alloc & kMask) >= 2) cov[C_MULTI_ALLOC]++;
        if (inc_ok && s.cnt[in.issued_idx] == (uint32_t)((1ull << WA_CNT_W) - 1))
            cov[C_COUNTER_SATURATED]++;
        uint64_t fin = in.finished & kMask;
        if (!s.wopt_valid && fin) {
            unsigned f = (unsigned)__builtin_ctzll(fin);
            uint32_t c = s.cnt[f] + (inc_ok && in.issued_idx == f ? 1 : 0);
            cov[C_WOPT_COMPUTED]++;
            if (c == 0) cov[C_WOPT_ZERO_COUNT]++;
            if (inc_ok && in.issued_idx == f) cov[C_FINISH_ISSUE_AT_WOPT]++;
            if (popc(fin) >= 2) cov[C_MULTI_FINISH_AT_WOPT]++;
            if (in.alloc >> f & 1) cov[C_ALLOC_FINISH_AT_WOPT]++;
            pending_wopt = true;
        }
    }
    bool pending_wopt = false;

    void after_tick_cover() {
        if (!pending_wopt) return;
        pending_wopt = false;
        if (s.wopt == 1) cov[C_WOPT_1]++;
        else if (s.wopt == kN) cov[C_WOPT_N]++;
        else cov[C_WOPT_MID]++;
    }
};

warp_arbiter_in_t case_in(const wa_case_t &c, const wa_step_t &st) {
    warp_arbiter_in_t in;
    std::memset(&in, 0, sizeof in);
    in.valid = st.valid;
    in.ready = st.ready;
    in.alloc = st.alloc;
    in.finished = st.finished;
    for (unsigned i = 0; i < kN; i++) in.cls[i] = (uint8_t)wa_step_cls(&st, i);
    in.policy = (uint8_t)c.policy;
    in.ltlws_inner = (uint8_t)c.ltlws_inner;
    return in;
}

// A directed case on both sides: lockstep plus the hand-derived grants.
bool run_case(Bench &b, const wa_case_t &c) {
    b.reset();
    b.where = c.name;
    unsigned before = b.failures;
    bool ok = true;
    for (unsigned k = 0; k < c.nsteps; k++) {
        const wa_step_t &st = c.steps[k];
        for (unsigned r = 0; r < st.repeat; r++) {
            int g = b.step(case_in(c, st), [&](int grant, warp_arbiter_in_t &in) {
                if (st.issue == WA_GRANT && grant >= 0) {
                    in.issued_valid = 1;
                    in.issued_idx = (uint32_t)grant;
                } else if (st.issue >= 0) {
                    in.issued_valid = 1;
                    in.issued_idx = (uint32_t)st.issue;
                }
            });
            b.after_tick_cover();
            if (st.expect != WA_ANY && g != st.expect) {
                std::printf("  %s: step %u: grant %d, want %d\n", c.name, k, g, st.expect);
                ok = false;
            }
        }
        int w = b.s.wopt_valid ? (int)b.s.wopt : 0;
        if (st.wopt != WA_ANY && w != st.wopt) {
            std::printf("  %s: after step %u: W_Opt %d, want %d\n", c.name, k, w, st.wopt);
            ok = false;
        }
    }
    return ok && b.failures == before;
}

// Constrained-random stimulus: segments from reset, each with its own
// resident-warp count, ready density, finish and alloc rates; one segment in
// ten drives unconstrained random masks.
struct Gen {
    Rng rng;
    uint64_t resident = 0;  // slots holding a warp (drives valid)
    unsigned p_ready = 128, p_fin = 0, p_alloc = 0;
    bool chaos = false;
    uint8_t cls[WARP_ARBITER_MAX_N] = {};

    void new_segment() {
        unsigned k = 1 + rng.below(kN);
        resident = rng.mask_p(k, kN);
        static const unsigned ready_p[] = { 16, 96, 192, 250 };
        static const unsigned fin_p[] = { 0, 1, 4, 32 };  // per 4096 cycles-slot
        p_ready = ready_p[rng.below(4)];
        p_fin = fin_p[rng.below(4)];
        p_alloc = fin_p[rng.below(4)] * 4;
        chaos = rng.chance(1, 10);
        for (unsigned i = 0; i < kN; i++) cls[i] = rand_cls();
    }
    uint8_t rand_cls() { return rng.chance(1, 32) ? 3 : (uint8_t)rng.below(3); }

    warp_arbiter_in_t next(unsigned policy, unsigned inner) {
        warp_arbiter_in_t in;
        std::memset(&in, 0, sizeof in);
        in.policy = (uint8_t)policy;
        in.ltlws_inner = (uint8_t)inner;
        for (unsigned i = 0; i < kN; i++)
            if (rng.chance(1, 64)) cls[i] = rand_cls();
        std::memcpy(in.cls, cls, sizeof in.cls);
        if (chaos) {
            in.valid = rng.next() & kMask;
            in.ready = rng.next() & kMask;
            in.alloc = rng.next() & rng.next() & rng.next() & kMask;
            in.finished = rng.next() & rng.next() & rng.next() & rng.next() & kMask;
            return in;
        }
        in.valid = resident;
        in.ready = resident & rng.mask_p(p_ready, 256);
        in.finished = resident & rng.mask_p(p_fin, 4096);
        in.alloc = ~resident & kMask & rng.mask_p(p_alloc, 4096);
        // A finishing warp's slot is sometimes refilled in the same cycle.
        in.alloc |= in.finished & rng.mask_p(1, 4);
        resident = (resident & ~in.finished) | in.alloc;
        return in;
    }

    void issue(int grant, warp_arbiter_in_t &in) {
        unsigned r = rng.below(100);
        if (r < 85) {
            if (grant >= 0) { in.issued_valid = 1; in.issued_idx = (uint32_t)grant; }
        } else if (r < 92) {
            // nothing issues (the grant was lost to a hazard)
        } else {
            in.issued_valid = 1;
            in.issued_idx = (uint32_t)rng.below(1u << kIdxW);
        }
    }
};

}  // namespace

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    const char *seed_env = std::getenv("WA_SEED");
    const char *cyc_env = std::getenv("WA_CYCLES");
    uint64_t seed = seed_env ? std::strtoull(seed_env, nullptr, 0) : 0x5eed2026ull;
    uint64_t per_policy = cyc_env ? std::strtoull(cyc_env, nullptr, 0) : (uint64_t)WA_DEFAULT_CYCLES;
    std::printf("warp_arbiter tb: N=%u CNT_W=%u WOPT_W=%u seed=0x%" PRIx64
                " (WA_SEED), %" PRIu64 " random cycles per policy (WA_CYCLES)\n",
                kN, (unsigned)WA_CNT_W, (unsigned)WA_WOPT_W, seed, per_policy);
    Bench b;
    unsigned passed = 0, failed = 0;
    auto report = [&](bool ok, const char *name) {
        std::printf("%s %s\n", ok ? "ok" : "FAIL", name);
        (ok ? passed : failed)++;
    };

    // Directed cases assume the default parameters.
    if (kN == 24 && WA_CNT_W == 32 && WA_WOPT_W == 6)
        for (int k = 0; k < WA_NCASES; k++) report(run_case(b, wa_cases[k]), wa_cases[k].name);

    struct { unsigned pol, inner; const char *name; } runs[] = {
        { 0, 0, "random LRR" }, { 1, 0, "random GTO" }, { 2, 0, "random OWF" },
        { 3, 0, "random LTLWS-GTO" }, { 3, 1, "random LTLWS-LRR" },
    };
    Gen g;
    g.rng.s = seed ? seed : 1;
    for (auto &r : runs) {
        unsigned before = b.failures;
        b.where = r.name;
        uint64_t done = 0;
        while (done < per_policy) {
            b.reset();
            b.cov[C_RESETS]++;
            g.new_segment();
            uint64_t len = 50 + g.rng.below(4000);
            for (uint64_t c = 0; c < len && done < per_policy; c++, done++) {
                b.step(g.next(r.pol, r.inner),
                       [&](int grant, warp_arbiter_in_t &in) { g.issue(grant, in); });
                b.after_tick_cover();
                if (b.failures - before >= 10) break;
            }
            if (b.failures - before >= 10) break;
        }
        std::printf("  %s: %" PRIu64 " cycles, %u mismatches\n", r.name, done, b.failures - before);
        report(b.failures == before, r.name);
    }

    // Coverage: bins a configuration cannot reach are not applicable.
    bool cov_ok = true;
    std::printf("coverage:\n");
    for (int k = 0; k < C_NCOV; k++) {
        bool na = k == C_COUNTER_SATURATED && WA_CNT_W > 8;
        std::printf("  %-42s %12" PRIu64 "%s\n", kCovName[k], b.cov[k], na ? " (n/a: CNT_W > 8)" : "");
        if (!na && b.cov[k] == 0) {
            std::printf("  FAIL coverage: %s never hit\n", kCovName[k]);
            cov_ok = false;
        }
    }
    report(cov_ok, "coverage");
    std::printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
