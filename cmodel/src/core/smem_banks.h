/* smem_banks.h: scratchpad bank conflicts for one warp access.
 *
 * The scratchpad has `banks` banks of 4-byte words (gpgpu_shmem_num_banks,
 * 32 on every preset);
 * word w lives in bank w mod banks.  In one cycle each bank delivers one
 * word, to any number of lanes (a broadcast).  A warp access therefore
 * takes as many cycles as the largest number of distinct words any one
 * bank must deliver; 1 means conflict-free. */
#ifndef CORE_SMEM_BANKS_H
#define CORE_SMEM_BANKS_H

#include <stdint.h>

/* `addr[l]` (byte offsets in the scratchpad) for each lane l in `active`,
 * each accessing `bytes` (1..16).  Returns the cycles the access takes
 * (0 when no lane is active). */
unsigned smem_bank_cycles(const uint64_t addr[32], uint32_t active,
                          unsigned bytes, unsigned banks);

#endif
