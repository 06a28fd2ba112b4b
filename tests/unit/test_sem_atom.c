/* test_sem_atom.c: semantics of atom and red on .global and .shared
 * memory with many threads hitting the same address.
 *
 * The ISA promises atomicity, not an order.  Where the result does not
 * depend on the order (add of exact values, and/or/xor, min/max, the final
 * value of inc/dec with one bound) the final value is compared with the
 * sequential reference; the values returned to the threads are checked
 * for serializability: there must be an order of the threads in which
 * each one read what the previous ones left (for add: sorted by returned
 * value, each is the previous plus that thread's operand).  exch returns a
 * permutation, inc/dec a known multiset, and a cas where every thread
 * expects the initial value has exactly one winner.  One test relies on
 * the model's documented order (docs/semantics.md: the lanes of one
 * warp-instruction apply in lane order). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "sem_helpers.h"

enum { NSLOT = 8 };

/* Runs one atom (or red when `red` is set) per thread.  Thread g (global
 * index) uses operand v[g] (and w[g] for cas) on slot (g & slot_mask) of
 * an 8-slot array of 64-bit words `mem` (32-bit types use the slot's low
 * half); the value returned goes to old[g].  space: "global" or "shared"
 * (shared: one CTA; thread 0 copies mem in and out around bar.sync). */
static int atom_run(const char *space, const char *op, const char *type,
                    int red, unsigned grid, unsigned block, unsigned slot_mask,
                    const uint64_t *v, const uint64_t *w, uint64_t *old,
                    uint64_t *mem)
{
    int shared = strcmp(space, "shared") == 0;
    int cas = strcmp(op, "cas") == 0;
    char ptx[6144];
    size_t o = 0;
#define P(...) o += (size_t)snprintf(ptx + o, sizeof ptx - o, __VA_ARGS__)
    P("%s", SEM_HEADER);
    P(".visible .entry k(.param .u64 pv, .param .u64 pw, .param .u64 pold,\n"
      "    .param .u64 pmem)\n{\n");
    if (shared)
        P("    .shared .align 8 .b8 smem[%u];\n", NSLOT * 8);
    P("    .reg .u32 %%tx, %%ct, %%nt, %%gid, %%slot;\n"
      "    .reg .u64 %%off, %%p, %%m, %%soff, %%t;\n"
      "    .reg .pred %%first;\n"
      "    .reg .%s %%vv, %%ww, %%oo;\n", type);
    P("    mov.u32 %%tx, %%tid.x;\n    mov.u32 %%ct, %%ctaid.x;\n"
      "    mov.u32 %%nt, %%ntid.x;\n"
      "    mad.lo.u32 %%gid, %%ct, %%nt, %%tx;\n"
      "    mul.wide.u32 %%off, %%gid, 8;\n"
      "    and.b32 %%slot, %%gid, %u;\n"
      "    mul.wide.u32 %%soff, %%slot, 8;\n"
      "    ld.param.u64 %%p, [pv];\n    add.u64 %%p, %%p, %%off;\n"
      "    ld.global.%s %%vv, [%%p];\n"
      "    ld.param.u64 %%p, [pw];\n    add.u64 %%p, %%p, %%off;\n"
      "    ld.global.%s %%ww, [%%p];\n"
      "    ld.param.u64 %%m, [pmem];\n", slot_mask, type, type);
    if (shared) {
        P("    setp.eq.u32 %%first, %%tx, 0;\n");
        for (unsigned s = 0; s < NSLOT; s++)
            P("    @%%first ld.global.u64 %%t, [%%m+%u];\n"
              "    @%%first st.shared.u64 [smem+%u], %%t;\n", 8 * s, 8 * s);
        P("    bar.sync 0;\n"
          "    mov.u64 %%m, smem;\n");
    }
    P("    add.u64 %%m, %%m, %%soff;\n");
    if (red)
        P("    red.%s.%s.%s [%%m], %%vv;\n    mov.b%s %%oo, 0;\n", space, op, type,
          type + 1);
    else if (cas)
        P("    atom.%s.cas.%s %%oo, [%%m], %%vv, %%ww;\n", space, type);
    else
        P("    atom.%s.%s.%s %%oo, [%%m], %%vv;\n", space, op, type);
    P("    ld.param.u64 %%p, [pold];\n    add.u64 %%p, %%p, %%off;\n"
      "    st.global.%s [%%p], %%oo;\n", type);
    if (shared) {
        P("    bar.sync 0;\n    ld.param.u64 %%m, [pmem];\n");
        for (unsigned s = 0; s < NSLOT; s++)
            P("    @%%first ld.shared.u64 %%t, [smem+%u];\n"
              "    @%%first st.global.u64 [%%m+%u], %%t;\n", 8 * s, 8 * s);
    }
    P("    ret;\n}\n");
#undef P
    unsigned n = grid * block;
    size_t bytes = (size_t)n * 8;
    uint64_t *vb = calloc(n, 8), *wb = calloc(n, 8), *ob = calloc(n, 8);
    int rc = -1;
    if (vb && wb && ob) {
        memcpy(vb, v, bytes);
        if (w)
            memcpy(wb, w, bytes);
        void *bufs[4] = { vb, wb, ob, mem };
        size_t sizes[4] = { bytes, bytes, bytes, NSLOT * 8 };
        rc = sem_exec(ptx, grid, block, bufs, sizes, 4);
        if (rc == 0 && old)
            memcpy(old, ob, bytes);
    }
    free(vb);
    free(wb);
    free(ob);
    return rc;
}

/* ---- serializability of add ---- */

typedef struct {
    double key;
    unsigned idx;
} ord_t;

static int by_key(const void *a, const void *b)
{
    double x = ((const ord_t *)a)->key, y = ((const ord_t *)b)->key;
    return x < y ? -1 : x > y;
}

/* The returned values, sorted, must form the chain init, init + v[i0],
 * ... ending at final (integers, no wraparound in these tests). */
static int add_chain_u64(const uint64_t *old, const uint64_t *v, unsigned n,
                         uint64_t init, uint64_t final, uint64_t mask,
                         char *why, size_t wsz)
{
    ord_t *o = malloc(n * sizeof *o);
    if (!o)
        return 0;
    for (unsigned i = 0; i < n; i++)
        o[i] = (ord_t){ (double)old[i], i };
    qsort(o, n, sizeof *o, by_key);
    uint64_t cur = init;
    int ok = 1;
    for (unsigned k = 0; k < n && ok; k++) {
        if (old[o[k].idx] != cur) {
            snprintf(why, wsz, "step %u: thread %u read 0x%llx, expected 0x%llx",
                     k, o[k].idx, (unsigned long long)old[o[k].idx],
                     (unsigned long long)cur);
            ok = 0;
        }
        cur = (cur + v[o[k].idx]) & mask;
    }
    if (ok && cur != final) {
        snprintf(why, wsz, "chain ends at 0x%llx, memory holds 0x%llx",
                 (unsigned long long)cur, (unsigned long long)final);
        ok = 0;
    }
    free(o);
    return ok;
}

static int add_chain_f64(const double *old, const double *v, unsigned n,
                         double init, double final, char *why, size_t wsz)
{
    ord_t *o = malloc(n * sizeof *o);
    if (!o)
        return 0;
    for (unsigned i = 0; i < n; i++)
        o[i] = (ord_t){ old[i], i };
    qsort(o, n, sizeof *o, by_key);
    double cur = init;
    int ok = 1;
    for (unsigned k = 0; k < n && ok; k++) {
        if (old[o[k].idx] != cur) {
            snprintf(why, wsz, "step %u: thread %u read %a, expected %a", k,
                     o[k].idx, old[o[k].idx], cur);
            ok = 0;
        }
        cur += v[o[k].idx];
    }
    if (ok && cur != final) {
        snprintf(why, wsz, "chain ends at %a, memory holds %a", cur, final);
        ok = 0;
    }
    free(o);
    return ok;
}

enum { NT = 256 };

/* ------------------------------------------------------------------ */
/* add                                                                 */
/* ------------------------------------------------------------------ */

static void check_add_u32(const char *space, unsigned grid, unsigned block)
{
    static uint64_t v[NT], old[NT];
    uint64_t mem[NSLOT] = { 0x1000, 0x77, 0, 0, 0, 0, 0, 0xfeed };
    unsigned n = grid * block;
    uint64_t sum = 0x1000;
    for (unsigned i = 0; i < n; i++) {
        v[i] = i * 3 + 1;
        sum += v[i];
    }
    CHECK(atom_run(space, "add", "u32", 0, grid, block, 0, v, NULL, old, mem) == 0);
    CHECK_EQ(mem[0], sum);
    CHECK_EQ(mem[1], 0x77);     /* other slots untouched */
    CHECK_EQ(mem[7], 0xfeed);
    char why[256] = "";
    CHECK_MSG(add_chain_u64(old, v, n, 0x1000, mem[0], 0xffffffffu, why, sizeof why),
              "atom.%s.add.u32: returned values are not a serial order: %s",
              space, why);
}

TEST(sem_atom_global_add_u32_contended)
{
    check_add_u32("global", 2, 128);
}

TEST(sem_atom_shared_add_u32_contended)
{
    check_add_u32("shared", 1, 256);
}

TEST(sem_atom_add_u64_carries_past_32_bits)
{
    static uint64_t v[NT], old[NT];
    for (const char *sp = "global"; sp; sp = strcmp(sp, "global") == 0 ? "shared" : NULL) {
        uint64_t mem[NSLOT] = { 0xfffffff0ull };
        uint64_t sum = mem[0];
        for (unsigned i = 0; i < NT; i++) {
            v[i] = (uint64_t)(i + 1) * 0x100000001ull;
            sum += v[i];
        }
        CHECK(atom_run(sp, "add", "u64", 0, 1, NT, 0, v, NULL, old, mem) == 0);
        CHECK_EQ(mem[0], sum);
        char why[256] = "";
        CHECK_MSG(add_chain_u64(old, v, NT, 0xfffffff0ull, mem[0], UINT64_MAX, why,
                                sizeof why),
                  "atom.%s.add.u64: %s", sp, why);
    }
}

/* Exact float values, so the sum does not depend on the order. */
TEST(sem_atom_add_f32_f64)
{
    static uint64_t v[NT], old[NT];
    static double dv[NT], dold[NT];
    for (const char *sp = "global"; sp; sp = strcmp(sp, "global") == 0 ? "shared" : NULL) {
        uint64_t mem[NSLOT] = { sem_f2u(0.5f) };
        double sum = 0.5;
        for (unsigned i = 0; i < NT; i++) {
            v[i] = sem_f2u((float)(i + 1));
            dv[i] = i + 1;
            sum += dv[i];
        }
        CHECK(atom_run(sp, "add", "f32", 0, 1, NT, 0, v, NULL, old, mem) == 0);
        CHECK_MSG(mem[0] == sem_f2u((float)sum), "atom.%s.add.f32: 0x%llx, want %a",
                  sp, (unsigned long long)mem[0], sum);
        for (unsigned i = 0; i < NT; i++)
            dold[i] = sem_u2f((uint32_t)old[i]);
        char why[256] = "";
        CHECK_MSG(add_chain_f64(dold, dv, NT, 0.5, sum, why, sizeof why),
                  "atom.%s.add.f32: %s", sp, why);

        uint64_t mem2[NSLOT] = { sem_d2u(-1000.25) };
        sum = -1000.25;
        for (unsigned i = 0; i < NT; i++) {
            dv[i] = i * 0.5 + 0.125;
            v[i] = sem_d2u(dv[i]);
            sum += dv[i];
        }
        CHECK(atom_run(sp, "add", "f64", 0, 1, NT, 0, v, NULL, old, mem2) == 0);
        CHECK_MSG(mem2[0] == sem_d2u(sum), "atom.%s.add.f64: %a, want %a", sp,
                  sem_u2d(mem2[0]), sum);
        for (unsigned i = 0; i < NT; i++)
            dold[i] = sem_u2d(old[i]);
        CHECK_MSG(add_chain_f64(dold, dv, NT, -1000.25, sum, why, sizeof why),
                  "atom.%s.add.f64: %s", sp, why);
    }
}

/* Eight counters, each hit by every eighth thread. */
TEST(sem_atom_global_add_spread_over_slots)
{
    static uint64_t v[NT], old[NT];
    uint64_t mem[NSLOT];
    uint64_t want[NSLOT];
    for (unsigned s = 0; s < NSLOT; s++)
        want[s] = mem[s] = 100 * s;
    for (unsigned i = 0; i < NT; i++) {
        v[i] = i;
        want[i & 7] += i;
    }
    CHECK(atom_run("global", "add", "u32", 0, 4, 64, 7, v, NULL, old, mem) == 0);
    for (unsigned s = 0; s < NSLOT; s++)
        CHECK_EQ(mem[s], want[s]);
}

/* ------------------------------------------------------------------ */
/* min / max                                                           */
/* ------------------------------------------------------------------ */

static void check_minmax(const char *space, const char *op, const char *type)
{
    static uint64_t v[NT], old[NT];
    int sgn = type[0] == 's', mx = strcmp(op, "max") == 0;
    uint64_t init = 0x00001234u;
    uint64_t mem[NSLOT] = { init };
    int64_t best = sgn ? (int32_t)(uint32_t)init : (int64_t)init;
    for (unsigned i = 0; i < NT; i++) {
        uint32_t x = (uint32_t)(i * 2654435761u) ^ (i & 1 ? 0x80000000u : 0);
        v[i] = x;
        int64_t xv = sgn ? (int32_t)x : (int64_t)x;
        if (mx ? xv > best : xv < best)
            best = xv;
    }
    CHECK(atom_run(space, op, type, 0, 1, NT, 0, v, NULL, old, mem) == 0);
    CHECK_MSG(mem[0] == (uint32_t)best, "atom.%s.%s.%s: 0x%llx, want 0x%x", space,
              op, type, (unsigned long long)mem[0], (uint32_t)best);
    /* every returned value is the initial value or some operand, and lies
     * on the right side of the final value; someone saw the initial value */
    unsigned saw_init = 0;
    for (unsigned i = 0; i < NT; i++) {
        int64_t ov = sgn ? (int32_t)(uint32_t)old[i] : (int64_t)old[i];
        int found = old[i] == init;
        saw_init += found;
        for (unsigned j = 0; j < NT && !found; j++)
            found = old[i] == v[j];
        CHECK_MSG(found, "atom.%s.%s.%s: thread %u read 0x%llx, never stored",
                  space, op, type, i, (unsigned long long)old[i]);
        CHECK_MSG(mx ? ov <= best : ov >= best,
                  "atom.%s.%s.%s: thread %u read 0x%llx beyond the final value",
                  space, op, type, i, (unsigned long long)old[i]);
    }
    CHECK_MSG(saw_init >= 1, "atom.%s.%s.%s: no thread read the initial value",
              space, op, type);
}

TEST(sem_atom_min_max_s32_u32)
{
    check_minmax("global", "min", "s32");
    check_minmax("global", "max", "s32");
    check_minmax("global", "min", "u32");
    check_minmax("global", "max", "u32");
    check_minmax("shared", "min", "s32");
    check_minmax("shared", "max", "u32");
}

/* ------------------------------------------------------------------ */
/* inc / dec                                                           */
/* ------------------------------------------------------------------ */

/* inc: old >= b ? 0 : old + 1.  With the same b everywhere the memory
 * walks 5, 6, ..., 9, 0, 1, ... whatever the order, so the returned values
 * form a known multiset. */
static void check_inc_dec(const char *space, int dec)
{
    static uint64_t v[NT], old[NT];
    const uint32_t b = 9, init = 5;
    uint64_t mem[NSLOT] = { init };
    for (unsigned i = 0; i < NT; i++)
        v[i] = b;
    CHECK(atom_run(space, dec ? "dec" : "inc", "u32", 0, 1, NT, 0, v, NULL, old,
                   mem) == 0);
    unsigned want[10] = { 0 }, got[10] = { 0 };
    uint32_t cur = init;
    for (unsigned i = 0; i < NT; i++) {
        want[cur]++;
        cur = dec ? ((cur == 0 || cur > b) ? b : cur - 1)
                  : (cur >= b ? 0 : cur + 1);
    }
    CHECK_MSG(mem[0] == cur, "atom.%s.%s.u32: final %llu, want %u", space,
              dec ? "dec" : "inc", (unsigned long long)mem[0], cur);
    for (unsigned i = 0; i < NT; i++) {
        CHECK_MSG(old[i] <= 9, "atom.%s.%s.u32: thread %u read %llu", space,
                  dec ? "dec" : "inc", i, (unsigned long long)old[i]);
        got[old[i]]++;
    }
    for (unsigned k = 0; k < 10; k++)
        CHECK_MSG(got[k] == want[k], "atom.%s.%s.u32: %u threads read %u, want %u",
                  space, dec ? "dec" : "inc", got[k], k, want[k]);
}

TEST(sem_atom_inc_dec_wrap)
{
    check_inc_dec("global", 0);
    check_inc_dec("global", 1);
    check_inc_dec("shared", 0);
    check_inc_dec("shared", 1);
}

/* Single-thread spot values of inc/dec at the edges: inc of a value above
 * the bound gives 0; dec of 0 or of a value above the bound gives b. */
TEST(sem_atom_inc_dec_edges)
{
    /* slots 0..7 = { 7, 12, 0, 12, 3, 3, 0xffffffff, 0 }; thread s hits
     * slot s with b = 7 except slot 7 (b = 0, inc: 0 >= 0 -> 0) */
    uint64_t v[NSLOT] = { 7, 7, 7, 7, 7, 7, 0xffffffffu, 0 };
    uint64_t old[NSLOT];
    uint64_t mem[NSLOT] = { 7, 12, 0, 12, 3, 3, 0xffffffffu, 0 };
    uint64_t mem2[NSLOT];
    memcpy(mem2, mem, sizeof mem);
    CHECK(atom_run("global", "inc", "u32", 0, 1, NSLOT, 7, v, NULL, old, mem) == 0);
    static const uint64_t inc_want[NSLOT] = { 0, 0, 1, 0, 4, 4, 0, 0 };
    for (unsigned s = 0; s < NSLOT; s++)
        CHECK_MSG(mem[s] == inc_want[s], "inc slot %u: %llu, want %llu", s,
                  (unsigned long long)mem[s], (unsigned long long)inc_want[s]);
    CHECK(atom_run("global", "dec", "u32", 0, 1, NSLOT, 7, v, NULL, old, mem2) == 0);
    /* dec: (old == 0 || old > b) ? b : old - 1 */
    static const uint64_t dec_want[NSLOT] = { 6, 7, 7, 7, 2, 2, 0xfffffffeu, 0 };
    for (unsigned s = 0; s < NSLOT; s++)
        CHECK_MSG(mem2[s] == dec_want[s], "dec slot %u: %llu, want %llu", s,
                  (unsigned long long)mem2[s], (unsigned long long)dec_want[s]);
    CHECK_EQ(old[1], 12);
}

/* ------------------------------------------------------------------ */
/* cas / exch                                                          */
/* ------------------------------------------------------------------ */

/* Every thread compares with the initial value: exactly one wins, and
 * every other thread reads the winner's value. */
static void check_cas_one_winner(const char *space, const char *type)
{
    static uint64_t v[NT], w[NT], old[NT];
    int is64 = strcmp(type, "b64") == 0;
    uint64_t init = is64 ? 0x5555aaaa00000055ull : 0x55;
    uint64_t mem[NSLOT] = { init };
    for (unsigned i = 0; i < NT; i++) {
        v[i] = init;
        w[i] = (is64 ? 0x100000000ull : 0) + i + 1000;
    }
    CHECK(atom_run(space, "cas", type, 0, 1, NT, 0, v, w, old, mem) == 0);
    unsigned winners = 0, winner = 0;
    for (unsigned i = 0; i < NT; i++)
        if (old[i] == init) {
            winners++;
            winner = i;
        }
    CHECK_MSG(winners == 1, "atom.%s.cas.%s: %u threads saw the initial value",
              space, type, winners);
    CHECK_EQ(mem[0], w[winner]);
    for (unsigned i = 0; i < NT; i++)
        if (i != winner)
            CHECK_MSG(old[i] == w[winner], "atom.%s.cas.%s: thread %u read 0x%llx",
                      space, type, i, (unsigned long long)old[i]);
}

TEST(sem_atom_cas_single_winner)
{
    check_cas_one_winner("global", "b32");
    check_cas_one_winner("shared", "b32");
    check_cas_one_winner("global", "b64");
}

/* A cas chain within one warp: thread i expects i and writes i + 1.  With
 * the model's documented order (lanes of one warp-instruction in lane
 * order) every thread succeeds; the ISA itself would allow fewer. */
TEST(sem_atom_cas_chain_lane_order)
{
    uint64_t v[32], w[32], old[32];
    uint64_t mem[NSLOT] = { 0 };
    for (unsigned i = 0; i < 32; i++) {
        v[i] = i;
        w[i] = i + 1;
    }
    CHECK(atom_run("global", "cas", "b32", 0, 1, 32, 0, v, w, old, mem) == 0);
    CHECK_EQ(mem[0], 32);
    for (unsigned i = 0; i < 32; i++)
        CHECK_EQ(old[i], i);
}

/* exch: the returned values plus the final value are a permutation of
 * the initial value plus the operands. */
static void check_exch(const char *space, const char *type)
{
    static uint64_t v[NT], old[NT];
    int is64 = strcmp(type, "b64") == 0;
    uint64_t init = is64 ? 0xabcdef0123456789ull : 0xabcdef01u;
    uint64_t mem[NSLOT] = { init };
    for (unsigned i = 0; i < NT; i++)
        v[i] = (is64 ? (uint64_t)i << 40 : 0) + i * 7 + 3;
    CHECK(atom_run(space, "exch", type, 0, 1, NT, 0, v, NULL, old, mem) == 0);
    /* the values seen (returned or final) must be init and each v once */
    static unsigned char used[NT + 1];
    memset(used, 0, sizeof used);
    for (unsigned k = 0; k <= NT; k++) {
        uint64_t x = k < NT ? old[k] : mem[0];
        int found = 0;
        if (x == init && !used[NT]) {
            used[NT] = 1;
            found = 1;
        }
        for (unsigned j = 0; j < NT && !found; j++)
            if (!used[j] && v[j] == x) {
                used[j] = 1;
                found = 1;
            }
        CHECK_MSG(found, "atom.%s.exch.%s: value 0x%llx appears out of nowhere or twice",
                  space, type, (unsigned long long)x);
    }
}

TEST(sem_atom_exch_permutation)
{
    check_exch("global", "b32");
    check_exch("shared", "b32");
    check_exch("global", "b64");
}

/* ------------------------------------------------------------------ */
/* and / or / xor                                                      */
/* ------------------------------------------------------------------ */

static void check_bitop(const char *space, const char *op, const char *type)
{
    static uint64_t v[NT], old[NT];
    int is64 = strcmp(type, "b64") == 0;
    uint64_t init = is64 ? 0xf0f0f0f0ffffffffull : 0xffffffffu;
    if (strcmp(op, "or") == 0)
        init = 0x100;
    uint64_t mem[NSLOT] = { init };
    uint64_t want = init;
    for (unsigned i = 0; i < NT; i++) {
        uint64_t x = (1ull << (i % (is64 ? 64 : 32))) ^ (uint64_t)i * 0x0101010101010101ull;
        if (strcmp(op, "and") == 0)
            x = ~(1ull << (i % (is64 ? 64 : 32)));
        if (!is64)
            x &= 0xffffffffu;
        v[i] = x;
        want = op[0] == 'a' ? want & x : op[0] == 'o' ? want | x : want ^ x;
    }
    CHECK(atom_run(space, op, type, 0, 1, NT, 0, v, NULL, old, mem) == 0);
    CHECK_MSG(mem[0] == want, "atom.%s.%s.%s: 0x%llx, want 0x%llx", space, op,
              type, (unsigned long long)mem[0], (unsigned long long)want);
}

TEST(sem_atom_and_or_xor)
{
    static const char *const ops[3] = { "and", "or", "xor" };
    for (unsigned k = 0; k < 3; k++) {
        check_bitop("global", ops[k], "b32");
        check_bitop("shared", ops[k], "b32");
        check_bitop("global", ops[k], "b64");
    }
}

/* ------------------------------------------------------------------ */
/* red                                                                 */
/* ------------------------------------------------------------------ */

TEST(sem_red_add_min_global_shared)
{
    static uint64_t v[NT];
    for (const char *sp = "global"; sp; sp = strcmp(sp, "global") == 0 ? "shared" : NULL) {
        uint64_t mem[NSLOT] = { 7 };
        uint64_t want[NSLOT];
        for (unsigned s = 0; s < NSLOT; s++)
            want[s] = mem[s];
        for (unsigned i = 0; i < NT; i++) {
            v[i] = i * i;
            want[i & 3] += v[i];
        }
        CHECK(atom_run(sp, "add", "u32", 1, 1, NT, 3, v, NULL, NULL, mem) == 0);
        for (unsigned s = 0; s < NSLOT; s++)
            CHECK_MSG(mem[s] == want[s], "red.%s.add.u32 slot %u: %llu, want %llu",
                      sp, s, (unsigned long long)mem[s], (unsigned long long)want[s]);

        uint64_t mem2[NSLOT] = { 0 };
        int32_t mn = 0;
        for (unsigned i = 0; i < NT; i++) {
            int32_t x = (int32_t)(i * 37) - 5000;
            v[i] = (uint32_t)x;
            if (x < mn)
                mn = x;
        }
        CHECK(atom_run(sp, "min", "s32", 1, 1, NT, 0, v, NULL, NULL, mem2) == 0);
        CHECK_EQ(mem2[0], (uint32_t)mn);

        uint64_t mem3[NSLOT] = { sem_f2u(1.0f) };
        for (unsigned i = 0; i < NT; i++)
            v[i] = sem_f2u(0.25f);
        CHECK(atom_run(sp, "add", "f32", 1, 1, NT, 0, v, NULL, NULL, mem3) == 0);
        CHECK_EQ(mem3[0], sem_f2u(1.0f + 0.25f * NT));
    }
}
