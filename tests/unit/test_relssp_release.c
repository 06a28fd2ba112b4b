/* test_relssp_release.c: the relssp release unit's C twin alone, on the
 * directed cases of relssp_release_cases.h (hand-derived from
 * docs/units/relssp_release.md, reference 000 §9 tests 9-11) and on the
 * rules for out-of-range events and parameters. */
#include <string.h>

#include "../harness.h"
#include "relssp_release_cases.h"
#include "simt/simt.h"
#include "units/relssp_release.h"

/* One event: eval (checked against `expect` when it is not ~0u) then tick. */
static uint64_t step(relssp_release_state_t *s, unsigned op, unsigned slot,
                     unsigned cta, uint32_t lanes)
{
    relssp_release_in_t in = { .op = (uint8_t)op, .slot = slot, .cta = cta, .lanes = lanes };
    relssp_release_out_t out;
    relssp_release_eval(s, &in, &out);
    relssp_release_tick(s, &in);
    return out.all_released;
}

static uint64_t all_t(unsigned t)
{
    return t >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << t) - 1;
}

TEST(relssp_release_directed_cases)
{
    static const relssp_release_cfg_t cfgs[] = { { 96, 16 }, { 4, 3 }, { 128, 64 } };
    for (unsigned p = 0; p < sizeof cfgs / sizeof cfgs[0]; p++)
        for (unsigned c = 0; c < RR_NCASES; c++) {
            relssp_release_state_t s;
            CHECK(relssp_release_init(&s, &cfgs[p]) == 0);
            const rr_case_t *k = &rr_cases[c];
            for (unsigned i = 0; i < k->nsteps; i++) {
                const rr_step_t *st = &k->steps[i];
                uint64_t got = step(&s, st->op, st->slot, st->cta, st->lanes);
                uint64_t want = (all_t(cfgs[p].t) & ~(uint64_t)7) | st->expect;
                CHECK_MSG(got == want, "W %u T %u, %s, step %u: all_released 0x%llx, "
                          "expected 0x%llx", cfgs[p].w, cfgs[p].t, k->name, i,
                          (unsigned long long)got, (unsigned long long)want);
                /* the Mealy output is the reduction of the state after the edge */
                CHECK_EQ(relssp_release_reduce(&s), got);
                for (unsigned w = 0; w < cfgs[p].w; w++) /* R within A */
                    CHECK_MSG(!(s.rel[w] & ~s.live[w]), "%s, step %u: row %u rel 0x%x "
                              "live 0x%x", k->name, i, w, s.rel[w], s.live[w]);
            }
        }
}

TEST(relssp_release_parameters)
{
    relssp_release_state_t s;
    relssp_release_cfg_t bad[] = { { 0, 4 }, { 129, 4 }, { 8, 0 }, { 8, 65 } };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(relssp_release_init(&s, &bad[i]) != 0);
    relssp_release_cfg_t one = { 1, 1 };
    CHECK(relssp_release_init(&s, &one) == 0);
    CHECK_EQ(step(&s, RR_ALLOC, 0, 0, 1), 0);
    CHECK_EQ(step(&s, RR_RELSSP, 0, 0, 1), 1);
}

/* D3: an event naming a warp slot >= W or (alloc, clear) a CTA slot >= T,
 * and an op code 5-7, change nothing.  W 5, T 3: warp slot 0 of CTA slot
 * 1 pending (0b101) throughout. */
TEST(relssp_release_out_of_range)
{
    relssp_release_state_t s, before;
    relssp_release_cfg_t cfg = { 5, 3 };
    CHECK(relssp_release_init(&s, &cfg) == 0);
    CHECK_EQ(step(&s, RR_ALLOC, 0, 1, 0xF), 0x5);
    before = s;
    CHECK_EQ(step(&s, RR_ALLOC, 5, 0, 0xF), 0x5);   /* slot 5 >= W */
    CHECK_EQ(step(&s, RR_ALLOC, 1, 3, 0xF), 0x5);   /* CTA slot 3 >= T */
    CHECK_EQ(step(&s, RR_RELSSP, 7, 0, 0xF), 0x5);
    CHECK_EQ(step(&s, RR_EXIT, 6, 0, 0xF), 0x5);
    CHECK_EQ(step(&s, RR_CLEAR, 0, 3, 0), 0x5);
    for (unsigned op = 5; op < 8; op++)
        CHECK_EQ(step(&s, op, 0, 1, 0xF), 0x5);
    CHECK(memcmp(&s, &before, sizeof s) == 0);
    /* and reset empties every row */
    relssp_release_reset(&s);
    CHECK_EQ(relssp_release_reduce(&s), 0x7);
}

/* config.c keeps a sharing SM within the unit's range: 4096 threads (128
 * warps) and 64 CTA slots pass, 4128 threads (129 warps) and 65 CTA slots
 * are refused naming ssp_sharing; without sharing, or functional, no limit. */
TEST(relssp_release_config_range)
{
    static const struct { const char *a, *b; int ok; } cases[] = {
        { "gpgpu_shader_core_max_threads=4096", "gpgpu_shader_cta=64", 1 },
        { "gpgpu_shader_core_max_threads=4128", "gpgpu_shader_cta=16", 0 },
        { "gpgpu_shader_core_max_threads=3072", "gpgpu_shader_cta=65", 0 },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (unsigned sharing = 0; sharing < 2; sharing++) {
            simt_config_t cfg;
            simt_error_t err = { 0 };
            simt_config_defaults(&cfg);
            CHECK(simt_config_set(&cfg, "functional=0", "t", &err) == SIMT_OK);
            CHECK(simt_config_set(&cfg, "gpgpu_num_sched_per_core=4", "t", &err) == SIMT_OK);
            CHECK(simt_config_set(&cfg, cases[i].a, "t", &err) == SIMT_OK);
            CHECK(simt_config_set(&cfg, cases[i].b, "t", &err) == SIMT_OK);
            CHECK(simt_config_set(&cfg, sharing ? "ssp_sharing=1" : "ssp_sharing=0", "t",
                                  &err) == SIMT_OK);
            int rc = simt_config_validate(&cfg, &err);
            CHECK_MSG((rc == SIMT_OK) == (cases[i].ok || !sharing), "%s %s sharing %u: %d %s",
                      cases[i].a, cases[i].b, sharing, rc, err.msg);
            if (rc != SIMT_OK)
                CHECK(strstr(err.msg, "ssp_sharing") != NULL);
        }
}
