/* unit_desc.c: sizes of a unit's fields (unit_desc.h). */
#include "units/unit_desc.h"

unsigned unit_size(unit_size_t s, const uint32_t *params)
{
    unsigned arg = s & 0xFF;
    switch (s >> 8) {
    case UNIT_P:
        return params[arg];
    case UNIT_P_IDX: {
        unsigned w = 0;
        while (w < 32 && ((uint64_t)1 << w) < params[arg])
            w++;
        return w ? w : 1;
    }
    default:
        return arg;
    }
}
