/* test_unit_desc.c: the unit kit's descriptors (units/unit_desc.h): size
 * expressions, element access, the naming rule, the warp arbiter's fields
 * at its default parameters (hand-derived from docs/units/warp_arbiter.md's
 * port and state tables) and its co-simulation coverage bins. */
#include <string.h>

#include "../harness.h"
#include "units/warp_arbiter.h"

TEST(unit_desc_sizes)
{
    const uint32_t p[] = { 24, 1, 64, 5, 2 };
    CHECK_EQ(unit_size(UNIT_SZ(UNIT_K, 7), p), 7);
    CHECK_EQ(unit_size(UNIT_SZ(UNIT_P, 0), p), 24);
    CHECK_EQ(unit_size(UNIT_SZ(UNIT_P_IDX, 0), p), 5); /* clog2(24) */
    CHECK_EQ(unit_size(UNIT_SZ(UNIT_P_IDX, 1), p), 1); /* one entry: 1 bit */
    CHECK_EQ(unit_size(UNIT_SZ(UNIT_P_IDX, 2), p), 6); /* 64 */
    CHECK_EQ(unit_size(UNIT_SZ(UNIT_P_IDX, 3), p), 3); /* 5 */
    CHECK_EQ(unit_size(UNIT_SZ(UNIT_P_IDX, 4), p), 1); /* 2 */
}

TEST(unit_desc_get_masks)
{
    warp_arbiter_in_t in;
    memset(&in, 0, sizeof in);
    in.valid = 0xFFFFFFFFFFull;
    in.cls[5] = 0xFF;
    const unit_field_t *valid = &warp_arbiter_desc.fields[0];
    const unit_field_t *cls = &warp_arbiter_desc.fields[2];
    CHECK(strcmp(valid->name, "valid_i") == 0 && strcmp(cls->name, "cls_i") == 0);
    CHECK_EQ(unit_get(valid, &in, 0, 24), 0xFFFFFF);
    CHECK_EQ(unit_get(cls, &in, 5, 2), 3);
    CHECK_EQ(unit_get(cls, &in, 4, 2), 0);
}

/* Every field: SV name = C name + the suffix of its direction; inside its
 * struct. */
TEST(unit_desc_warp_arbiter_naming)
{
    const unit_desc_t *u = &warp_arbiter_desc;
    CHECK(strcmp(u->name, "warp_arbiter") == 0);
    for (unsigned i = 0; i < u->nfields; i++) {
        const unit_field_t *f = &u->fields[i];
        const char *sfx = f->dir == UNIT_DIR_IN ? "_i" : f->dir == UNIT_DIR_OUT ? "_o" : "_q";
        size_t n = strlen(f->name);
        CHECK_MSG(n > 2 && strcmp(f->name + n - 2, sfx) == 0, "%s: suffix", f->name);
        size_t size = f->dir == UNIT_DIR_IN ? u->in_size
                      : f->dir == UNIT_DIR_OUT ? u->out_size : u->state_size;
        CHECK_MSG(f->offset + f->csize <= size, "%s: outside its struct", f->name);
    }
}

/* Widths and counts at N 24, CntW 32, WoptW 6 (the port and state tables). */
TEST(unit_desc_warp_arbiter_shapes)
{
    static const struct { const char *name; unsigned width, count, rows; } want[] = {
        { "valid_i", 24, 1, 0 }, { "ready_i", 24, 1, 0 }, { "cls_i", 2, 24, 0 },
        { "alloc_i", 24, 1, 0 }, { "finished_i", 24, 1, 0 }, { "issued_valid_i", 1, 1, 0 },
        { "issued_idx_i", 5, 1, 0 }, { "policy_i", 2, 1, 0 }, { "ltlws_inner_i", 1, 1, 0 },
        { "grant_valid_o", 1, 1, 0 }, { "grant_idx_o", 5, 1, 0 }, { "last_valid_q", 1, 1, 0 },
        { "last_q", 5, 1, 0 }, { "age_q", 24, 24, 1 }, { "cnt_q", 32, 24, 1 },
        { "wopt_valid_q", 1, 1, 0 }, { "wopt_q", 6, 1, 0 },
    };
    const unit_desc_t *u = &warp_arbiter_desc;
    warp_arbiter_state_t s;
    warp_arbiter_cfg_t cfg = warp_arbiter_default_cfg();
    CHECK_EQ(warp_arbiter_init(&s, &cfg), 0);
    uint32_t p[UNIT_MAX_PARAMS];
    u->param_values(&s, p);
    CHECK_EQ(u->nfields, sizeof want / sizeof want[0]);
    for (unsigned i = 0; i < u->nfields; i++) {
        const unit_field_t *f = &u->fields[i];
        CHECK_MSG(strcmp(f->name, want[i].name) == 0, "field %u: %s", i, f->name);
        CHECK_MSG(unit_size(f->width, p) == want[i].width, "%s: width", f->name);
        CHECK_MSG(unit_size(f->count, p) == want[i].count, "%s: count", f->name);
        CHECK_MSG(!!(f->flags & UNIT_ROWS) == want[i].rows, "%s: rows", f->name);
    }
    /* the UNIT_LATE inputs: what issued */
    CHECK(u->fields[5].flags & UNIT_LATE);
    CHECK(u->fields[6].flags & UNIT_LATE);
}

/* Coverage: a warp finishes in slot 3 and a new one is allocated there:
 * one reuse; the first finish with count 1 out of a sum of 30 gives
 * W_Opt = min(24, 30) = N: counted once; a grant counts its slot. */
TEST(unit_desc_warp_arbiter_cover)
{
    const unit_desc_t *u = &warp_arbiter_desc;
    warp_arbiter_state_t s;
    uint32_t p[] = { 24, 32, 6 };
    CHECK_EQ(u->init(&s, p), 0);
    uint64_t bins[9 + 24] = { 0 }, mem[2] = { 0, 0 };
    CHECK_EQ(u->nbins, 10);
    s.cnt[0] = 29; /* another slot's issues */
    warp_arbiter_in_t in;
    memset(&in, 0, sizeof in);
    in.valid = 0x9;
    in.ready = 0x8;
    in.issued_valid = 1;
    in.issued_idx = 3;
    in.finished = 0x8;
    in.policy = WARP_ARBITER_GTO;
    warp_arbiter_out_t out;
    u->eval(&s, &in, &out);
    CHECK_EQ(out.grant_idx, 3);
    u->cover(&s, &in, &out, bins, mem);
    CHECK_EQ(bins[9 + 3], 1); /* slot granted[3] */
    u->tick(&s, &in);
    u->cover(&s, &in, NULL, bins, mem);
    CHECK_EQ(s.wopt, 24);
    CHECK_EQ(bins[1], 1); /* W_Opt = N */
    CHECK_EQ(bins[0], 0);
    memset(&in, 0, sizeof in);
    in.alloc = 0x8;
    u->tick(&s, &in);
    u->cover(&s, &in, NULL, bins, mem);
    CHECK_EQ(bins[0], 1); /* slot 3 reused */
    CHECK_EQ(bins[1], 1); /* W_Opt = N once per reset */
}
