/* test_addrmap.c: the address decoder (mem/addrmap.h), on small
 * configurations worked out by hand.  Most tests use 4 partitions,
 * interleave 256, 4 banks of 1 KB rows: chunk = a / 256, r = chunk mod 4,
 * s = chunk / 4, chan = s * 256 + a mod 256, column = chan mod 1024,
 * b = (chan / 1024) mod 4, row = chan / 4096; under xor n = 2 (the bit
 * length of 3) and f is the XOR of s's 2-bit fields. */
#include <stdlib.h>

#include "../harness.h"
#include "mem/addrmap.h"

static addrmap_cfg_t small(addrmap_scheme_t scheme)
{
    return (addrmap_cfg_t){ .scheme = scheme, .partitions = 4,
                            .interleave = 256, .banks = 4, .row_bytes = 1024 };
}

#define LOC(C, A, P, CH, B, R, COL)                                          \
    do {                                                                     \
        addrmap_loc_t l_ = addrmap_decode((C), (A));                         \
        CHECK_MSG(l_.partition == (P) && l_.chan == (CH) && l_.bank == (B) && \
                  l_.row == (R) && l_.col == (COL),                          \
                  "addr %llu: partition %u chan %llu bank %u row %u col %u", \
                  (unsigned long long)(A), l_.partition,                     \
                  (unsigned long long)l_.chan, l_.bank, l_.row, l_.col);     \
        CHECK_EQ(addrmap_partition((C), (A)), (P));                          \
    } while (0)

/* Linear is the mapping memsys.c and partition.c/dram.c used before:
 *   0:      chunk 0, partition 0, chan 0: bank 0 row 0 col 0.
 *   4660:   chunk 18 (4608 + 52), partition 2, s 4, chan 4*256+52 = 1076:
 *           col 52, b = 1076/1024 = 1, row 0.
 *   123456: chunk 482 (123392 + 64), partition 2, s 120,
 *           chan 120*256+64 = 30784 = 30*1024 + 64: col 64, b 30 mod 4 = 2,
 *           row 30/4 = 7.
 *   32767:  chunk 127 (32512 + 255), partition 3, s 31,
 *           chan 31*256+255 = 8191 = 7*1024 + 1023: col 1023, b 3, row 1. */
TEST(addrmap_linear_is_todays_mapping)
{
    addrmap_cfg_t c = small(ADDRMAP_LINEAR);
    CHECK(addrmap_check(&c) == NULL);
    LOC(&c, 0, 0, 0, 0, 0, 0);
    LOC(&c, 4660, 2, 1076, 1, 0, 52);
    LOC(&c, 123456, 2, 30784, 2, 7, 64);
    LOC(&c, 32767, 3, 8191, 3, 1, 1023);
}

/* Xor on the same addresses (P = 4 and B = 4 are powers of two: XOR);
 * chan, row and column are linear's:
 *   0:      all 0.
 *   4660:   r 2, s 4 = 01|00: f = 1, partition 2^1 = 3; b 1, row 0: bank 1.
 *   123456: r 2, s 120 = 01|11|10|00: f = 1^3^2^0 = 0, partition 2;
 *           b 2, row 7: bank 2 ^ (7 mod 4 = 3) = 1.
 *   32767:  r 3, s 31 = 01|11|11: f = 1^3^3 = 1, partition 3^1 = 2;
 *           b 3, row 1: bank 3^1 = 2.
 * With 6 partitions and 6 banks (neither a power of two: addition mod 6;
 * n = 3, the bit length of 5):
 *   40000:  chunk 156 (39936 + 64), r 0, s 26 = 011|010: f = 3^2 = 1,
 *           partition 1; chan 26*256+64 = 6720 = 6*1024 + 576: col 576,
 *           b 6 mod 6 = 0, row 6/6 = 1: bank (0+1) mod 6 = 1.
 *   12042:  chunk 47 (12032 + 10), r 5, s 7 = 111: f = 7, partition
 *           (5+7) mod 6 = 0; chan 7*256+10 = 1802 = 1024 + 778: col 778,
 *           b 1, row 0: bank 1. */
TEST(addrmap_xor_decode)
{
    addrmap_cfg_t c = small(ADDRMAP_XOR);
    CHECK(addrmap_check(&c) == NULL);
    LOC(&c, 0, 0, 0, 0, 0, 0);
    LOC(&c, 4660, 3, 1076, 1, 0, 52);
    LOC(&c, 123456, 2, 30784, 1, 7, 64);
    LOC(&c, 32767, 2, 8191, 2, 1, 1023);
    c.partitions = 6;
    c.banks = 6;
    LOC(&c, 40000, 1, 6720, 1, 1, 576);
    LOC(&c, 12042, 0, 1802, 1, 0, 778);
}

/* Every byte of [0, P * 16 rows of every bank) lands on a distinct
 * (partition, bank, row, column) inside that box, which has exactly as
 * many places as there are bytes: a bijection per channel.  Interleave 32,
 * 64-byte rows; once with P = 4, B = 4 (XOR rules), once with P = 6,
 * B = 3 (addition rules). */
static void check_bijection(unsigned parts, unsigned banks)
{
    addrmap_cfg_t c = { .scheme = ADDRMAP_XOR, .partitions = parts,
                        .interleave = 32, .banks = banks, .row_bytes = 64 };
    const unsigned rows = 16, per_chan = rows * banks * c.row_bytes;
    const unsigned n = parts * per_chan;
    unsigned char *seen = calloc(n, 1);
    CHECK(seen != NULL);
    for (unsigned a = 0; a < n; a++) {
        addrmap_loc_t l = addrmap_decode(&c, a);
        CHECK_MSG(l.partition < parts && l.bank < banks && l.row < rows &&
                  l.col < c.row_bytes && l.chan < per_chan,
                  "addr %u out of the box", a);
        unsigned k = l.partition * per_chan +
                     (l.row * banks + l.bank) * c.row_bytes + l.col;
        CHECK_MSG(!seen[k], "addr %u: partition %u bank %u row %u col %u "
                  "taken twice", a, l.partition, l.bank, l.row, l.col);
        seen[k] = 1;
    }
    free(seen);
}

TEST(addrmap_xor_bijection_per_channel)
{
    check_bijection(4, 4);
    if (harness_failed())
        return;
    check_bijection(6, 3);
}

/* A stride of I * P bytes: chunk = j * P, so r = 0 and s = j; linear sends
 * every access to partition 0.  Under xor f = j for j < 8 (one 3-bit
 * field, n = 3 for both P = 6 and P = 8), so the partition is 0 ^ j = j
 * (P = 8) or (0 + j) mod 6 = j (P = 6): accesses 0..P-1 reach every
 * partition once.  Power-of-two strides too:
 *   P = 6, stride 512 (2 chunks): chunks 0, 2, 4 (s 0, f 0) go to 0, 2, 4
 *     under both; chunks 6, 8, 10 (s 1, f 1) to 0, 2, 4 under linear and
 *     1, 3, 5 under xor.
 *   P = 8, stride 8192 (32 chunks = 4 * P): r 0, s = 4j = 0, 4, 8, 12, 16,
 *     20, 24, 28 = 000|000, 000|100, 001|000, 001|100, 010|000, 010|100,
 *     011|000, 011|100: f = 0, 4, 1, 5, 2, 6, 3, 7 under xor; 0 always
 *     under linear. */
TEST(addrmap_xor_spreads_partition_strides)
{
    static const unsigned ps[2] = { 6, 8 };
    for (unsigned i = 0; i < 2; i++) {
        addrmap_cfg_t lin = { ADDRMAP_LINEAR, ps[i], 256, 16, 2048 };
        addrmap_cfg_t x = lin;
        x.scheme = ADDRMAP_XOR;
        for (unsigned j = 0; j < ps[i]; j++) {
            uint64_t a = (uint64_t)j * 256 * ps[i];
            CHECK_EQ(addrmap_partition(&lin, a), 0);
            CHECK_EQ(addrmap_partition(&x, a), j);
        }
    }
    addrmap_cfg_t lin6 = { ADDRMAP_LINEAR, 6, 256, 16, 2048 }, x6 = lin6;
    x6.scheme = ADDRMAP_XOR;
    static const unsigned want6_lin[6] = { 0, 2, 4, 0, 2, 4 };
    static const unsigned want6_xor[6] = { 0, 2, 4, 1, 3, 5 };
    for (unsigned j = 0; j < 6; j++) {
        CHECK_EQ(addrmap_partition(&lin6, j * 512u), want6_lin[j]);
        CHECK_EQ(addrmap_partition(&x6, j * 512u), want6_xor[j]);
    }
    addrmap_cfg_t lin8 = { ADDRMAP_LINEAR, 8, 256, 16, 2048 }, x8 = lin8;
    x8.scheme = ADDRMAP_XOR;
    static const unsigned want8_xor[8] = { 0, 4, 1, 5, 2, 6, 3, 7 };
    for (unsigned j = 0; j < 8; j++) {
        CHECK_EQ(addrmap_partition(&lin8, j * 8192u), 0);
        CHECK_EQ(addrmap_partition(&x8, j * 8192u), want8_xor[j]);
    }
}

/* A stride of R * B bytes of channel address (one partition, so the
 * channel address is the address): b = 0 and row = j for every access;
 * linear keeps them all in bank 0, xor puts access j in bank 0 ^ j = j
 * (B = 4) or (0 + j) mod 3 = j (B = 3). */
TEST(addrmap_xor_spreads_bank_strides)
{
    static const unsigned bs[2] = { 4, 3 };
    for (unsigned i = 0; i < 2; i++) {
        addrmap_cfg_t lin = { ADDRMAP_LINEAR, 1, 256, bs[i], 1024 };
        addrmap_cfg_t x = lin;
        x.scheme = ADDRMAP_XOR;
        for (unsigned j = 0; j < bs[i]; j++) {
            uint64_t a = (uint64_t)j * 1024 * bs[i];
            LOC(&lin, a, 0, a, 0, j, 0);
            LOC(&x, a, 0, a, j, j, 0);
        }
    }
}

TEST(addrmap_check_rejects_zero_sizes)
{
    addrmap_cfg_t c = small(ADDRMAP_LINEAR);
    c.partitions = 0;
    CHECK(addrmap_check(&c) != NULL);
    c = small(ADDRMAP_XOR);
    c.row_bytes = 0;
    CHECK(addrmap_check(&c) != NULL);
}
