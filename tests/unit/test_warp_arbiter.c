/* test_warp_arbiter.c: the warp arbiter's C twin alone, on the directed
 * cases of warp_arbiter_cases.h (hand-derived from
 * docs/units/warp_arbiter.md) and on the state rules of its clock edge. */
#include <string.h>

#include "../harness.h"
#include "units/warp_arbiter.h"
#include "warp_arbiter_cases.h"

static void build_in(const wa_case_t *c, const wa_step_t *st,
                     warp_arbiter_in_t *in)
{
    memset(in, 0, sizeof *in);
    in->valid = st->valid;
    in->ready = st->ready;
    in->alloc = st->alloc;
    in->finished = st->finished;
    for (unsigned i = 0; i < WARP_ARBITER_MAX_N; i++)
        in->cls[i] = (uint8_t)wa_step_cls(st, i);
    in->policy = (uint8_t)c->policy;
    in->ltlws_inner = (uint8_t)c->ltlws_inner;
}

/* Runs one directed case; returns 0, or reports and returns -1. */
static int run_case(const wa_case_t *c)
{
    warp_arbiter_state_t s;
    warp_arbiter_cfg_t cfg = warp_arbiter_default_cfg();
    if (warp_arbiter_init(&s, &cfg))
        return -1;
    unsigned cycle = 0;
    for (unsigned k = 0; k < c->nsteps; k++) {
        const wa_step_t *st = &c->steps[k];
        for (unsigned r = 0; r < st->repeat; r++, cycle++) {
            warp_arbiter_in_t in;
            warp_arbiter_out_t out;
            build_in(c, st, &in);
            warp_arbiter_eval(&s, &in, &out);
            int got = out.grant_valid ? (int)out.grant_idx : WA_NONE;
            if (!out.grant_valid && out.grant_idx != 0) {
                harness_fail(__FILE__, __LINE__, "%s: cycle %u: grant_idx %u without grant",
                             c->name, cycle, out.grant_idx);
                return -1;
            }
            if (st->expect != WA_ANY && got != st->expect) {
                harness_fail(__FILE__, __LINE__, "%s: step %u cycle %u: grant %d, want %d",
                             c->name, k, cycle, got, st->expect);
                return -1;
            }
            if (st->issue == WA_GRANT) {
                in.issued_valid = out.grant_valid;
                in.issued_idx = out.grant_idx;
            } else if (st->issue >= 0) {
                in.issued_valid = 1;
                in.issued_idx = (uint32_t)st->issue;
            }
            warp_arbiter_tick(&s, &in);
        }
        int wopt = s.wopt_valid ? (int)s.wopt : 0;
        if (st->wopt != WA_ANY && wopt != st->wopt) {
            harness_fail(__FILE__, __LINE__, "%s: after step %u: W_Opt %d, want %d",
                         c->name, k, wopt, st->wopt);
            return -1;
        }
    }
    return 0;
}

TEST(warp_arbiter_directed_cases)
{
    for (int k = 0; k < WA_NCASES; k++)
        CHECK(run_case(&wa_cases[k]) == 0);
}

/* Eq. 14 with the unit's clamps (doc D12): 280/100 -> 2; 15/10 -> 1;
 * 47/1 -> 47 clamped to 24; c == 0 -> N; sum == c -> 1; 24 warps even -> 24. */
TEST(warp_arbiter_wopt_arithmetic)
{
    CHECK_EQ(warp_arbiter_wopt(280, 100, 24), 2);
    CHECK_EQ(warp_arbiter_wopt(15, 10, 24), 1);
    CHECK_EQ(warp_arbiter_wopt(47, 1, 24), 24);
    CHECK_EQ(warp_arbiter_wopt(0, 0, 24), 24);
    CHECK_EQ(warp_arbiter_wopt(7, 7, 24), 1);
    CHECK_EQ(warp_arbiter_wopt(24 * 50, 50, 24), 24);
    CHECK_EQ(warp_arbiter_wopt(23 * 50 + 49, 50, 24), 23);
}

TEST(warp_arbiter_cfg_checks)
{
    warp_arbiter_state_t s;
    warp_arbiter_cfg_t c = warp_arbiter_default_cfg();
    CHECK_EQ(c.n, 24);
    CHECK_EQ(c.cnt_w, 32);
    CHECK_EQ(c.wopt_w, 6);
    CHECK_EQ(warp_arbiter_init(&s, &c), 0);
    c.n = 0;
    CHECK_EQ(warp_arbiter_init(&s, &c), -1);
    c.n = 65;
    CHECK_EQ(warp_arbiter_init(&s, &c), -1);
    c = (warp_arbiter_cfg_t){ .n = 8, .cnt_w = 32, .wopt_w = 3 }; /* 8 > 7 */
    CHECK_EQ(warp_arbiter_init(&s, &c), -1);
    c.n = 7;
    CHECK_EQ(warp_arbiter_init(&s, &c), 0);
    c.cnt_w = 33;
    CHECK_EQ(warp_arbiter_init(&s, &c), -1);
}

/* Reset order (D2): row i holds every j > i. */
TEST(warp_arbiter_reset_state)
{
    warp_arbiter_state_t s;
    warp_arbiter_cfg_t c = { .n = 4, .cnt_w = 8, .wopt_w = 3 };
    CHECK_EQ(warp_arbiter_init(&s, &c), 0);
    CHECK_EQ(s.age[0], 0xE);
    CHECK_EQ(s.age[1], 0xC);
    CHECK_EQ(s.age[2], 0x8);
    CHECK_EQ(s.age[3], 0x0);
    CHECK_EQ(s.last_valid, 0);
    CHECK_EQ(s.wopt_valid, 0);
}

/* Counters: an issue counts, alloc in the same cycle wins (0), an
 * out-of-range index is ignored, and a 3-bit counter saturates at 7. */
TEST(warp_arbiter_counters)
{
    warp_arbiter_state_t s;
    warp_arbiter_cfg_t c = { .n = 5, .cnt_w = 3, .wopt_w = 3 };
    CHECK_EQ(warp_arbiter_init(&s, &c), 0);
    warp_arbiter_in_t in;
    memset(&in, 0, sizeof in);
    in.issued_valid = 1;
    in.issued_idx = 2;
    for (int k = 0; k < 10; k++)
        warp_arbiter_tick(&s, &in);
    CHECK_EQ(s.cnt[2], 7);
    CHECK_EQ(s.last, 2);
    in.issued_idx = 6; /* out of range: nothing changes */
    warp_arbiter_tick(&s, &in);
    CHECK_EQ(s.last, 2);
    CHECK_EQ(s.cnt[2], 7);
    in.issued_idx = 2;
    in.alloc = 1u << 2;
    warp_arbiter_tick(&s, &in);
    CHECK_EQ(s.cnt[2], 0);
    CHECK_EQ(s.last, 2); /* D8: alloc keeps last */
    /* Slot 2 is now the youngest. */
    CHECK_EQ(s.age[2], 0);
    CHECK_EQ(s.age[0] & 0x4, 0x4);
    CHECK_EQ(s.age[4] & 0x4, 0x4);
}

/* W_Opt uses the lowest finished slot (D10) and the counters before this
 * cycle's alloc clear (D11): counts {0: 3, 1: 6, 2: 3}; slots 1 and 2
 * finish together while 1 is reallocated: c = 6, sum = 12 -> 2.  Then it is
 * never recomputed until reset, and reset clears it. */
TEST(warp_arbiter_wopt_same_cycle_rules)
{
    warp_arbiter_state_t s;
    warp_arbiter_cfg_t c = warp_arbiter_default_cfg();
    CHECK_EQ(warp_arbiter_init(&s, &c), 0);
    warp_arbiter_in_t in;
    memset(&in, 0, sizeof in);
    in.issued_valid = 1;
    static const unsigned counts[3] = { 3, 6, 3 };
    for (unsigned i = 0; i < 3; i++)
        for (unsigned k = 0; k < counts[i]; k++) {
            in.issued_idx = i;
            warp_arbiter_tick(&s, &in);
        }
    in.issued_valid = 0;
    in.finished = 0x6;
    in.alloc = 0x2;
    warp_arbiter_tick(&s, &in);
    CHECK_EQ(s.wopt_valid, 1);
    CHECK_EQ(s.wopt, 2);
    CHECK_EQ(s.cnt[1], 0);
    in.alloc = 0;
    in.finished = 0x10; /* slot 4 never issued: a recomputation would give N */
    warp_arbiter_tick(&s, &in);
    CHECK_EQ(s.wopt, 2);
    warp_arbiter_reset(&s);
    CHECK_EQ(s.wopt_valid, 0);
    CHECK_EQ(s.cnt[0], 0);
}

/* A finished slot that never issued: c = 0 gives N (D12). */
TEST(warp_arbiter_wopt_zero_count)
{
    warp_arbiter_state_t s;
    warp_arbiter_cfg_t c = warp_arbiter_default_cfg();
    CHECK_EQ(warp_arbiter_init(&s, &c), 0);
    warp_arbiter_in_t in;
    memset(&in, 0, sizeof in);
    in.issued_valid = 1;
    in.issued_idx = 0;
    warp_arbiter_tick(&s, &in);
    in.issued_valid = 0;
    in.finished = 0x2;
    warp_arbiter_tick(&s, &in);
    CHECK_EQ(s.wopt_valid, 1);
    CHECK_EQ(s.wopt, 24);
}

/* The GTO and OWF grant read slot by slot from docs/units/warp_arbiter.md
 * (greedy: the last issued slot while it is a candidate; else, for OWF, the
 * lowest class present among the candidates; then the oldest: the member
 * older than every other member, age row i bit j meaning i older than j),
 * as the reference for the twin's bit-scan eval. */
static int ref_pick(const warp_arbiter_state_t *s, const warp_arbiter_in_t *in)
{
    unsigned n = s->cfg.n;
    uint64_t mask = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    uint64_t cand = in->valid & in->ready & mask;
    if (s->last_valid && (cand >> s->last & 1))
        return (int)s->last;
    for (unsigned c = 0; c < 4; c++) {
        if (in->policy == WARP_ARBITER_GTO && c > 0)
            break;
        int any = 0;
        for (unsigned i = 0; i < n; i++) {
            if (!(cand >> i & 1) ||
                (in->policy == WARP_ARBITER_OWF && (in->cls[i] & 3) != c))
                continue;
            any = 1;
            int older_than_all = 1;
            for (unsigned j = 0; j < n; j++)
                if (j != i && (cand >> j & 1) &&
                    (in->policy != WARP_ARBITER_OWF || (in->cls[j] & 3) == c) &&
                    !(s->age[i] >> j & 1))
                    older_than_all = 0;
            if (older_than_all)
                return (int)i;
        }
        if (any)
            return -2; /* no oldest: the age matrix lost its order */
    }
    return -1;
}

/* xorshift64: the test's seeded random source. */
static uint64_t wa_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Seeded random stimulus (allocations in any order reshuffle the ages,
 * issues move the greedy slot, classes 0..3 with the unused fourth):
 * 20,000 cycles each of GTO and OWF at N = 24, 48 and 64, every grant equal
 * to ref_pick's. */
TEST(warp_arbiter_gto_owf_random_against_reference)
{
    static const unsigned ns[] = { 24, 48, 64 };
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (unsigned p = 0; p < 2; p++)
        for (unsigned k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            warp_arbiter_state_t s;
            warp_arbiter_cfg_t cfg = warp_arbiter_default_cfg();
            cfg.n = ns[k];
            cfg.wopt_w = 7; /* W_Opt holds N = 64 */
            CHECK_EQ(warp_arbiter_init(&s, &cfg), 0);
            for (unsigned cyc = 0; cyc < 20000; cyc++) {
                warp_arbiter_in_t in;
                memset(&in, 0, sizeof in);
                in.policy = p ? WARP_ARBITER_OWF : WARP_ARBITER_GTO;
                in.valid = wa_rand(&x);
                in.ready = wa_rand(&x);
                in.ready |= wa_rand(&x);
                for (unsigned i = 0; i < WARP_ARBITER_MAX_N; i++)
                    in.cls[i] = (uint8_t)(wa_rand(&x) % 4);
                warp_arbiter_out_t out;
                warp_arbiter_eval(&s, &in, &out);
                int want = ref_pick(&s, &in);
                int got = out.grant_valid ? (int)out.grant_idx : -1;
                CHECK_MSG(got == want, "policy %u N %u cycle %u: granted %d, reference %d",
                          in.policy, ns[k], cyc, got, want);
                if (out.grant_valid) {
                    in.issued_valid = 1;
                    in.issued_idx = out.grant_idx;
                }
                if (wa_rand(&x) % 4 == 0) /* one to three warps arrive */
                    for (unsigned a = 0; a < 3; a++)
                        in.alloc |= (uint64_t)1 << wa_rand(&x) % ns[k];
                warp_arbiter_tick(&s, &in);
            }
        }
}

/* The two forms of cls_i against ref_pick: the port's bytes (eval, classes
 * gathered eight slots at a time) and the issue stage's two bit planes
 * (eval_classes, core/sched_arbiter.c without hooks).  Whole random bytes
 * (the class is cls & 3, so bits 2..7 must not matter) at N = 13 (a last
 * word of five slots), 24 and 64; 20,000 OWF cycles each. */
TEST(warp_arbiter_owf_class_planes_against_reference)
{
    static const unsigned ns[] = { 13, 24, 64 };
    uint64_t x = 0x2545f4914f6cdd1dull;
    for (unsigned k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        warp_arbiter_state_t s;
        warp_arbiter_cfg_t cfg = warp_arbiter_default_cfg();
        cfg.n = ns[k];
        cfg.wopt_w = 7;
        CHECK_EQ(warp_arbiter_init(&s, &cfg), 0);
        for (unsigned cyc = 0; cyc < 20000; cyc++) {
            warp_arbiter_in_t in;
            memset(&in, 0, sizeof in);
            in.policy = WARP_ARBITER_OWF;
            in.valid = wa_rand(&x);
            in.ready = wa_rand(&x) | wa_rand(&x);
            uint64_t b0 = 0, b1 = 0;
            for (unsigned i = 0; i < WARP_ARBITER_MAX_N; i++) {
                in.cls[i] = (uint8_t)wa_rand(&x);
                b0 |= (uint64_t)(in.cls[i] & 1) << i;
                b1 |= (uint64_t)(in.cls[i] >> 1 & 1) << i;
            }
            int want = ref_pick(&s, &in);
            warp_arbiter_out_t out, out2;
            warp_arbiter_eval(&s, &in, &out);
            int got = out.grant_valid ? (int)out.grant_idx : -1;
            CHECK_MSG(got == want, "N %u cycle %u: eval granted %d, reference %d",
                      ns[k], cyc, got, want);
            warp_arbiter_in_t blank = in; /* eval_classes does not read cls */
            memset(blank.cls, 0xff, sizeof blank.cls);
            warp_arbiter_eval_classes(&s, &blank, b0, b1, &out2);
            got = out2.grant_valid ? (int)out2.grant_idx : -1;
            CHECK_MSG(got == want, "N %u cycle %u: eval_classes granted %d, reference %d",
                      ns[k], cyc, got, want);
            if (out.grant_valid) {
                in.issued_valid = 1;
                in.issued_idx = out.grant_idx;
            }
            if (wa_rand(&x) % 4 == 0)
                for (unsigned a = 0; a < 3; a++)
                    in.alloc |= (uint64_t)1 << wa_rand(&x) % ns[k];
            warp_arbiter_tick(&s, &in);
        }
    }
}
