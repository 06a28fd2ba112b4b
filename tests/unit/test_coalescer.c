/* test_coalescer.c: warp addresses -> transactions, and scratchpad bank
 * conflicts, on hand-computed patterns. */
#include "../harness.h"
#include "core/smem_banks.h"
#include "mem/coalescer.h"

static void lanes_linear(uint64_t a[32], uint64_t base, uint64_t stride)
{
    for (unsigned l = 0; l < 32; l++)
        a[l] = base + l * stride;
}

/* 32 x 4 B from a segment boundary: exactly one 128-byte line. */
TEST(coalesce_unit_stride_one_line)
{
    uint64_t a[32];
    coalesce_txn_t t[COALESCE_MAX_TXN];
    lanes_linear(a, 0x1000, 4);
    CHECK_EQ(coalesce_warp(a, 0xffffffffu, 4, t), 1);
    CHECK_EQ(t[0].addr, 0x1000);
    CHECK_EQ(t[0].size, 128);
    CHECK_EQ(t[0].sectors, 0xf);
    CHECK_EQ(t[0].lanes, 0xffffffffu);
}

/* From 0x1010: bytes 0x1010..0x108f.  Lanes 0..27 in segment 0x1000
 * (sectors 0-3), lanes 28..31 in 0x1080..0x108f: one 32-byte sector. */
TEST(coalesce_misaligned_spills_into_a_sector)
{
    uint64_t a[32];
    coalesce_txn_t t[COALESCE_MAX_TXN];
    lanes_linear(a, 0x1010, 4);
    CHECK_EQ(coalesce_warp(a, 0xffffffffu, 4, t), 2);
    CHECK_EQ(t[0].addr, 0x1000);
    CHECK_EQ(t[0].size, 128);
    CHECK_EQ(t[0].lanes, 0x0fffffffu);
    CHECK_EQ(t[1].addr, 0x1080);
    CHECK_EQ(t[1].size, 32);
    CHECK_EQ(t[1].sectors, 0x1);
    CHECK_EQ(t[1].lanes, 0xf0000000u);
}

/* Every lane at 0x2004: one 32-byte sector at 0x2000. */
TEST(coalesce_same_address_one_sector)
{
    uint64_t a[32];
    coalesce_txn_t t[COALESCE_MAX_TXN];
    lanes_linear(a, 0x2004, 0);
    CHECK_EQ(coalesce_warp(a, 0xffffffffu, 4, t), 1);
    CHECK_EQ(t[0].addr, 0x2000);
    CHECK_EQ(t[0].size, 32);
}

/* Lane l at l*128: 32 segments, each one sector, in lane order. */
TEST(coalesce_segment_stride_fully_diverged)
{
    uint64_t a[32];
    coalesce_txn_t t[COALESCE_MAX_TXN];
    lanes_linear(a, 0, 128);
    CHECK_EQ(coalesce_warp(a, 0xffffffffu, 4, t), 32);
    for (unsigned l = 0; l < 32; l++) {
        CHECK_EQ(t[l].addr, l * 128u);
        CHECK_EQ(t[l].size, 32);
        CHECK_EQ(t[l].lanes, 1u << l);
    }
}

/* 32 x 8 B (double) = 256 B: two lines, half a warp each; 32 x 16 B
 * (v4) = 512 B: four lines of 8 lanes. */
TEST(coalesce_wide_accesses)
{
    uint64_t a[32];
    coalesce_txn_t t[COALESCE_MAX_TXN];
    lanes_linear(a, 0, 8);
    CHECK_EQ(coalesce_warp(a, 0xffffffffu, 8, t), 2);
    CHECK_EQ(t[0].lanes, 0x0000ffffu);
    CHECK_EQ(t[1].addr, 128);
    CHECK_EQ(t[1].lanes, 0xffff0000u);
    lanes_linear(a, 0, 16);
    CHECK_EQ(coalesce_warp(a, 0xffffffffu, 16, t), 4);
    CHECK_EQ(t[3].addr, 384);
    CHECK_EQ(t[3].lanes, 0xff000000u);
    CHECK_EQ(t[3].size, 128);
}

/* Two sectors of one segment (0x00 and 0x60) need the whole line; only
 * active lanes count; no active lane, no transaction. */
TEST(coalesce_sectors_and_mask)
{
    uint64_t a[32];
    coalesce_txn_t t[COALESCE_MAX_TXN];
    lanes_linear(a, 0x5000, 0);
    a[0] = 0x0;
    a[1] = 0x60;
    CHECK_EQ(coalesce_warp(a, 0x3u, 4, t), 1);
    CHECK_EQ(t[0].size, 128);
    CHECK_EQ(t[0].sectors, 0x9);
    CHECK_EQ(coalesce_warp(a, 0x2u, 4, t), 1);
    CHECK_EQ(t[0].addr, 0x60);
    CHECK_EQ(t[0].size, 32);
    CHECK_EQ(coalesce_warp(a, 0, 4, t), 0);
}

/* The rule of coalescer.h, written plainly: for each active lane in order,
 * each segment its bytes touch, a search of the transactions so far. */
static unsigned reference_coalesce(const uint64_t a[32], uint32_t active,
                                   unsigned bytes, coalesce_txn_t out[COALESCE_MAX_TXN])
{
    unsigned n = 0;
    for (unsigned l = 0; l < 32; l++) {
        if (!(active >> l & 1))
            continue;
        for (uint64_t b = a[l]; b < a[l] + (bytes ? bytes : 1); b++) {
            uint64_t seg = b - b % COALESCE_SEGMENT;
            unsigned i = 0;
            while (i < n && out[i].addr != seg)
                i++;
            if (i == n)
                out[n++] = (coalesce_txn_t){ .addr = seg };
            out[i].lanes |= 1u << l;
            out[i].sectors |= (uint8_t)(1u << (b % COALESCE_SEGMENT / COALESCE_SECTOR));
        }
    }
    for (unsigned i = 0; i < n; i++) {
        unsigned k = (unsigned)__builtin_popcount(out[i].sectors);
        out[i].size = k == 1 ? COALESCE_SECTOR : COALESCE_SEGMENT;
        if (k == 1)
            out[i].addr += (uint64_t)__builtin_ctz(out[i].sectors) * COALESCE_SECTOR;
    }
    return n;
}

/* Random warps against the plain rule: strides, scatters over a few or
 * many segments (more than fit a small table without collisions),
 * repeated addresses, straddling lanes, partial masks. */
TEST(coalesce_matches_the_plain_rule)
{
    uint64_t x = 0x2545f4914f6cdd1dull;
    static const unsigned sizes[] = { 1, 2, 4, 8, 16 };
    for (unsigned trial = 0; trial < 20000; trial++) {
        uint64_t a[32];
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        unsigned bytes = sizes[x % 5];
        uint64_t base = (x >> 8) % (1u << 20);
        unsigned kind = (unsigned)(x >> 40) % 4;
        for (unsigned l = 0; l < 32; l++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            switch (kind) {
            case 0: a[l] = base + l * ((x >> 50) % 3 ? bytes : 2 * bytes + 128); break;
            case 1: a[l] = base + x % 4096; break;            /* a few segments */
            case 2: a[l] = x % (UINT64_C(1) << 40); break;    /* 32 segments */
            default: a[l] = base + (x % 8) * 128 + 120; break; /* repeats, straddles */
            }
        }
        uint32_t active = trial % 3 ? 0xffffffffu : (uint32_t)(x >> 3);
        coalesce_txn_t got[COALESCE_MAX_TXN] = { 0 }, want[COALESCE_MAX_TXN] = { 0 };
        unsigned n = coalesce_warp(a, active, bytes, got);
        CHECK_EQ(n, reference_coalesce(a, active, bytes, want));
        for (unsigned i = 0; i < n; i++) {
            CHECK_EQ(got[i].addr, want[i].addr);
            CHECK_EQ(got[i].size, want[i].size);
            CHECK_EQ(got[i].lanes, want[i].lanes);
            CHECK_EQ(got[i].sectors, want[i].sectors);
        }
    }
}

TEST(smem_banks_conflict_degrees)
{
    uint64_t a[32];
    lanes_linear(a, 0, 4);           /* one word per bank */
    CHECK_EQ(smem_bank_cycles(a, 0xffffffffu, 4, 32), 1);
    lanes_linear(a, 0, 8);           /* words 0,2,..,62: 2 per even bank */
    CHECK_EQ(smem_bank_cycles(a, 0xffffffffu, 4, 32), 2);
    lanes_linear(a, 0, 128);         /* every word in bank 0 */
    CHECK_EQ(smem_bank_cycles(a, 0xffffffffu, 4, 32), 32);
    lanes_linear(a, 0, 132);         /* stride 33 words: all banks differ */
    CHECK_EQ(smem_bank_cycles(a, 0xffffffffu, 4, 32), 1);
    lanes_linear(a, 64, 0);          /* one word: broadcast */
    CHECK_EQ(smem_bank_cycles(a, 0xffffffffu, 4, 32), 1);
    lanes_linear(a, 0, 8);           /* 8-byte lanes: words 0..63, 2 per bank */
    CHECK_EQ(smem_bank_cycles(a, 0xffffffffu, 8, 32), 2);
    lanes_linear(a, 0, 128);         /* half the lanes active: 16 words in bank 0 */
    CHECK_EQ(smem_bank_cycles(a, 0x0000ffffu, 4, 32), 16);
    CHECK_EQ(smem_bank_cycles(a, 0, 4, 32), 0);
}

/* Broadcasts inside a conflicting bank: with 16 banks, lane l reads byte
 * (l mod 4) * 64, words 0, 16, 32 and 48, all in bank 0, each wanted by
 * eight lanes: four distinct words, four cycles.  Lane l reading 8 bytes
 * at (l mod 2) * 4: words 0, 1 and 2, one each in banks 0..2, one cycle. */
TEST(smem_banks_broadcast_within_a_conflict)
{
    uint64_t a[32];
    for (unsigned l = 0; l < 32; l++)
        a[l] = (l % 4) * 64;
    CHECK_EQ(smem_bank_cycles(a, 0xffffffffu, 4, 16), 4);
    for (unsigned l = 0; l < 32; l++)
        a[l] = (l % 2) * 4;
    CHECK_EQ(smem_bank_cycles(a, 0xffffffffu, 8, 16), 1);
}

/* Distinct words per bank counted pair by pair, the rule of smem_banks.h
 * read literally: the independent reference for random accesses. */
static unsigned reference_bank_cycles(const uint64_t a[32], uint32_t active,
                                      unsigned bytes, unsigned banks)
{
    uint64_t w[128];
    unsigned n = 0, worst = 0;
    unsigned per = bytes > 4 ? (bytes + 3) / 4 : 1;
    for (unsigned l = 0; l < 32; l++)
        for (unsigned k = 0; (active >> l & 1) && k < per; k++)
            w[n++] = a[l] / 4 + k;
    for (unsigned i = 0; i < n; i++) {
        unsigned same = 0, first = 1;
        for (unsigned j = 0; j < n; j++) {
            if (w[j] == w[i] && j < i)
                first = 0; /* counted at its first occurrence */
            if (w[j] % banks == w[i] % banks) {
                unsigned dup = 0;
                for (unsigned q = 0; q < j; q++)
                    dup |= w[q] == w[j];
                same += !dup;
            }
        }
        if (first && same > worst)
            worst = same;
    }
    return worst;
}

/* Random accesses (few words, whole columns, broadcasts, 1-16 bytes, 16 to
 * 64 banks, partial masks) against the pairwise count. */
TEST(smem_banks_match_the_pairwise_count)
{
    uint64_t x = 12345;
    static const unsigned widths[] = { 1, 2, 4, 8, 12, 16 };
    static const unsigned nbanks[] = { 16, 32, 64 };
    for (unsigned trial = 0; trial < 3000; trial++) {
        uint64_t a[32];
        unsigned bytes = widths[trial % 6], banks = nbanks[trial / 6 % 3];
        for (unsigned l = 0; l < 32; l++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            uint64_t r = x >> 33;
            switch (trial / 18 % 4) {
            case 0: a[l] = r % 49152 / bytes * bytes; break;        /* anywhere */
            case 1: a[l] = (r % 8) * 4 * banks; break;               /* one bank, 8 words */
            case 2: a[l] = l * 4 * banks + (r % 2) * 4; break;       /* a column */
            default: a[l] = (r % 64) * bytes; break;                 /* repeats */
            }
        }
        uint32_t active = trial % 5 ? 0xffffffffu : (uint32_t)(x >> 7);
        CHECK_EQ(smem_bank_cycles(a, active, bytes, banks),
                 reference_bank_cycles(a, active, bytes, banks));
    }
}
