// tb.cpp: the lock table's part of the kit testbench (tb/kit/kit_tb.h):
// the directed cases of tests/unit/share_lock_table_cases.h (T 16, S 4;
// the unit test runs them on the twin alone), then seeded random stimulus
// shaped like an SM (a launch, blocks placed into free slots, requests,
// releases and completions) with occasional unconstrained inputs, and the
// testbench's coverage bins.  The skeleton does the lockstep: every output
// compared every cycle, every flop (ShSM, each partner row, each lock row,
// lock valid bits, released flags) after every edge.
#include <cstdio>
#include <cstring>

#include "kit_tb.h"
#include "units/share_lock_table.h"
#include "unit/share_lock_table_cases.h"

namespace {

enum Cov {
    C_LAUNCH, C_ACQUIRE, C_HOLDER, C_WAIT, C_SAME_CYCLE_PAIR, C_UNPAIRED_REQ,
    C_RELEASE_FREES, C_RELEASE_NO_LOCK, C_RELEASE_THEN_GRANT, C_TRANSFER,
    C_DONE_FREES_DEAD, C_DONE_FREES_RELEASED, C_BOTH_DONE, C_INHERIT, C_SHSM_ENDS,
    C_ALL_REQ, C_NCOV
};

const char *const kCovName[C_NCOV] = {
    "launch", "acquire a free lock", "request by the holder", "request waits",
    "two requests for one pair in a cycle", "request from an unpaired slot",
    "release frees the lock", "release holding no lock",
    "release and the partner's grant in one cycle", "transfer at completion",
    "completion frees: partner not live", "completion frees: partner released",
    "both blocks of a pair complete in one cycle", "block placed into a freed slot",
    "ShSM ends", "every scheduler requests in one cycle",
};

const share_lock_table_state_t &twin(const KitTb &tb)
{
    return *static_cast<const share_lock_table_state_t *>(tb.state());
}

uint64_t mask_of(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

int pair_of(const share_lock_table_state_t &s, unsigned x)
{ // the twin's state before the edge (tables written by a launch)
    unsigned none = (1u << s.cfg.part_w) - 1;
    for (unsigned j = 0; j < s.cfg.pairs; j++) {
        unsigned p = s.partner[j];
        if (s.shsm && p != none && p < s.cfg.t && p > j && (x == j || x == p))
            return (int)j;
    }
    return -1;
}

// ShSM survives the cycle: a block of the kernel lives after it.
bool launch_keeps(const share_lock_table_in_t &in, unsigned t)
{
    return (in.live & ~in.done & mask_of(t)) != 0;
}

uint64_t freed = 0; // slots whose block completed since the launch

void cover(KitTb &tb, const void *inp, const void *outp)
{
    const share_lock_table_in_t &in = *static_cast<const share_lock_table_in_t *>(inp);
    const share_lock_table_out_t &out = *static_cast<const share_lock_table_out_t *>(outp);
    const share_lock_table_state_t &s = twin(tb);
    std::vector<uint64_t> &cov = tb.bins;
    unsigned t = s.cfg.t, ns = s.cfg.s;
    if (in.launch) { cov[C_LAUNCH]++; freed = 0; }
    if (in.place & freed) cov[C_INHERIT]++;
    freed = (freed & ~in.place) | (in.done & mask_of(t));
    if (s.shsm && !launch_keeps(in, t)) cov[C_SHSM_ENDS]++;
    unsigned seen[64] = {};
    unsigned nreq = 0;
    for (unsigned k = 0; k < ns; k++) {
        if (!(in.req_valid >> k & 1)) continue;
        nreq++;
        unsigned x = in.req_slot[k];
        int j = x < t ? pair_of(s, x) : -1;
        if (j < 0) { cov[C_UNPAIRED_REQ]++; continue; }
        if (seen[j]++) cov[C_SAME_CYCLE_PAIR]++;
        bool held = s.lock_valid >> j & 1;
        if (!(out.grant >> k & 1)) cov[C_WAIT]++;
        else if (held && s.lock[j] == x) cov[C_HOLDER]++;
        else if (held && (in.release >> s.lock[j] & 1)) cov[C_RELEASE_THEN_GRANT]++;
        else cov[C_ACQUIRE]++;
    }
    if (nreq == ns) cov[C_ALL_REQ]++;
    for (unsigned x = 0; x < t; x++) {
        if (!(in.release >> x & 1)) continue;
        int j = pair_of(s, x);
        if (j >= 0 && (s.lock_valid >> j & 1) && s.lock[j] == x) cov[C_RELEASE_FREES]++;
        else cov[C_RELEASE_NO_LOCK]++;
    }
    for (unsigned j = 0; j < s.cfg.pairs; j++) {
        if (!(s.lock_valid >> j & 1) || in.launch) continue;
        unsigned h = s.lock[j], p = s.partner[j];
        if (pair_of(s, j) != (int)j || (in.release >> h & 1)) continue;
        unsigned o = h == j ? p : j;
        if (!(in.done >> h & 1)) continue;
        if (in.done >> o & 1) cov[C_BOTH_DONE]++;
        else if (!(in.live >> o & 1)) cov[C_DONE_FREES_DEAD]++;
        else if ((s.rel_done | in.release) >> o & 1) cov[C_DONE_FREES_RELEASED]++;
        else cov[C_TRANSFER]++;
    }
}

bool run_case(KitTb &tb, const slt_case_t &c)
{
    tb.reset();
    tb.where = c.name;
    unsigned before = tb.failures();
    bool ok = true;
    for (unsigned k = 0; k < c.nsteps; k++) {
        share_lock_table_in_t in;
        slt_step_in(&c.steps[k], &in);
        const share_lock_table_out_t &out =
            *static_cast<const share_lock_table_out_t *>(tb.step(&in, nullptr));
        if (out.grant != c.steps[k].grant) {
            std::printf("  %s: step %u: grant %#x, want %#x\n", c.name, k, out.grant,
                        c.steps[k].grant);
            ok = false;
        }
        for (unsigned x = 0; x < SLT_T; x++)
            if (out.cls[x] != slt_step_cls(&c.steps[k], x)) {
                std::printf("  %s: step %u: slot %u class %u, want %u\n", c.name, k, x,
                            out.cls[x], slt_step_cls(&c.steps[k], x));
                ok = false;
            }
    }
    return ok && tb.failures() == before;
}

// An SM-shaped stream: a launch with random m and pairs, blocks placed
// into free slots below n, requests mostly from live paired slots,
// releases (at most once per block), completions; every 50th cycle the
// inputs are random bits instead (the RTL must agree on any input).
struct Sm {
    unsigned t, ns, m = 0, n = 0;
    uint64_t live = 0, released = 0;
    share_lock_table_in_t next(KitRng &r)
    {
        share_lock_table_in_t in{};
        if (r.chance(1, 50)) {
            in.launch = r.chance(1, 8); // legal tables only (the page's input rule)
            in.base = 1 + r.below(t / 2);
            in.pairs = r.below(1 + (t - in.base < in.base ? t - in.base : in.base));
            in.live = r.next() & mask_of(t);
            in.place = r.next() & mask_of(t) & r.next();
            in.release = r.next() & mask_of(t) & r.next();
            in.done = r.next() & mask_of(t) & r.next();
            in.req_valid = (uint32_t)r.next() & (uint32_t)mask_of(ns);
            for (unsigned k = 0; k < ns; k++) in.req_slot[k] = r.below(64);
            live = in.live & ~in.done;
            return in;
        }
        if (!live) { // the kernel arrives at the empty SM
            m = 1 + r.below(t / 2);
            unsigned maxp = t - m < m ? t - m : m;
            n = m + 1 + r.below(maxp);
            in.launch = 1;
            in.base = m;
            in.pairs = n - m;
            released = 0;
        }
        for (unsigned x = 0; x < n; x++)
            if (!(live >> x & 1) && r.chance(in.launch ? 3 : 1, 4)) {
                in.place |= 1ull << x;
                live |= 1ull << x;
                released &= ~(1ull << x);
            }
        in.live = live;
        for (unsigned k = 0; k < ns; k++) {
            if (!r.chance(2, 3)) continue;
            in.req_valid |= 1u << k;
            unsigned x = r.below(n);
            if (r.chance(1, 2)) { // the other slot of a random pair: contention
                unsigned j = r.below(n - m);
                x = r.chance(1, 2) ? j : m + j;
            }
            in.req_slot[k] = x;
        }
        for (unsigned x = 0; x < n; x++) {
            if ((live >> x & 1) && !(released >> x & 1) && r.chance(1, 12)) {
                in.release |= 1ull << x;
                released |= 1ull << x;
            }
            if ((live >> x & 1) && !(in.place >> x & 1) && r.chance(1, 10))
                in.done |= 1ull << x;
        }
        live &= ~in.done;
        return in;
    }
};

void run(KitTb &tb, const std::function<void(const char *, bool)> &report)
{
    if (tb.param(0) == SLT_T && tb.param(1) == SLT_S)
        for (int k = 0; k < SLT_NCASES; k++) report(slt_cases[k].name, run_case(tb, slt_cases[k]));
    unsigned before = tb.failures();
    tb.where = "random";
    Sm sm{ tb.param(0), tb.param(1) };
    for (uint64_t c = 0; c < tb.cycles; c++) {
        if (c % 5000 == 0) {
            tb.reset();
            sm.live = 0;
        }
        share_lock_table_in_t in = sm.next(tb.rng);
        tb.step(&in, nullptr);
    }
    report("random", tb.failures() == before);
}

uint64_t cycles(const uint32_t *) { return 200000; }

} // namespace

const KitTbUnit kit_tb_unit = {
    &share_lock_table_desc, cycles, kCovName, C_NCOV, nullptr, run, cover,
};
