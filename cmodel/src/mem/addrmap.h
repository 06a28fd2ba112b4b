/* addrmap.h: the address mapping: a global byte address to its memory
 * partition and, inside that partition's DRAM channel, its channel
 * address, bank, row and column.  The interconnect (which partition) and
 * the DRAM channel (which bank and row) both ask here, so the mapping
 * lives in one place.
 *
 * With P partitions, interleave I, B banks of R-byte rows, and
 *   chunk = addr / I,  r = chunk mod P,  s = chunk / P,
 * the channel address is the partition's chunks packed,
 *   chan = s * I + addr mod I,
 * and the row-major DRAM coordinates of it are
 *   column = chan mod R,  b = (chan / R) mod B,  row = chan / R / B.
 *
 * ADDRMAP_LINEAR: partition = r, bank = b (chunks round robin over the
 * partitions; consecutive rows of a channel in consecutive banks).
 *
 * ADDRMAP_XOR: with n = the bit length of P - 1 and f = the XOR of the
 * n-bit fields of s (s's bits 0..n-1, n..2n-1, ...; f = 0 when P = 1),
 *   partition = r XOR f          when P is a power of two (then f < P),
 *             = (r + f) mod P    otherwise;
 *   bank      = b XOR (row mod B) when B is a power of two,
 *             = (b + row) mod B   otherwise.
 * The partition hash is the classic XOR fold of the chunk number's
 * log2(P)-bit fields when P is a power of two, and the same fold added
 * mod P otherwise; the bank rule is permutation-based page interleaving
 * (Zhang, Zhu and Zhang, MICRO 2000).  Row and column are as in linear.
 *
 * Both schemes are bijections: for one s the P chunks r = 0..P-1 go to P
 * different partitions (a permutation of r that depends on s only), so
 * each partition receives exactly one chunk of every P and `chan` above
 * numbers its bytes without gaps or repeats; for one row the B values of
 * b go to B different banks.  Under xor a stride of I * P bytes (which
 * linear sends to one partition) and every power-of-two stride of at
 * least I bytes reach every partition (proved for P a power of two, checked
 * for every P from 1 to 256 and strides up to 2^30 chunks); a stride of
 * R * B bytes of channel address (one bank under linear) reaches every
 * bank. */
#ifndef MEM_ADDRMAP_H
#define MEM_ADDRMAP_H

#include <stdint.h>

typedef enum addrmap_scheme {
    ADDRMAP_LINEAR,            /* the gpgpu_addr_mapping names, in order */
    ADDRMAP_XOR
} addrmap_scheme_t;

typedef struct addrmap_cfg {
    addrmap_scheme_t scheme;
    unsigned partitions;
    unsigned interleave;       /* bytes per partition chunk */
    unsigned banks, row_bytes; /* per DRAM channel */
} addrmap_cfg_t;

typedef struct addrmap_loc {
    unsigned partition;
    uint64_t chan;             /* the address within the partition */
    uint32_t bank, row, col;
} addrmap_loc_t;

/* NULL, or why the configuration cannot map addresses. */
const char *addrmap_check(const addrmap_cfg_t *c);

/* The partition of `addr`. */
unsigned addrmap_partition(const addrmap_cfg_t *c, uint64_t addr);

/* The channel address of `addr` (within its partition). */
uint64_t addrmap_chan(const addrmap_cfg_t *c, uint64_t addr);

/* Bank, row and column of channel address `chan` (partition 0). */
addrmap_loc_t addrmap_channel(const addrmap_cfg_t *c, uint64_t chan);

/* Everything about `addr`. */
addrmap_loc_t addrmap_decode(const addrmap_cfg_t *c, uint64_t addr);

#endif
