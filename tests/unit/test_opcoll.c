/* test_opcoll.c: collector units and register-bank arbitration, cycle by
 * cycle on hand-worked cases (16 banks unless stated). */
#include <stddef.h>

#include "../harness.h"
#include "core/opcoll.h"

static opc_cfg_t cfg16(int skew)
{
    opc_cfg_t c = { .banks = 16, .warp_skew = skew };
    for (int i = 0; i < OPC_NCLASSES; i++)
        c.cus[i] = 2;
    return c;
}

/* Cycles of opc_read_cycle until a CU of `cls` dispatches (max 10). */
static int cycles_to_dispatch(opc_t *o, opc_class_t cls, uint64_t *tag)
{
    for (int c = 1; c <= 10; c++) {
        opc_read_cycle(o);
        if (opc_dispatch(o, cls, tag))
            return c;
    }
    return -1;
}

/* r1 and r2 of warp 0: banks 1 and 2, one cycle.  r1 and r17: both bank 1:
 * two cycles and one conflict. */
TEST(opcoll_bank_conflict_costs_a_cycle)
{
    opc_t o;
    opc_cfg_t c = cfg16(1);
    CHECK(opc_init(&o, &c) == NULL);
    uint64_t tag;
    CHECK_EQ(opc_alloc(&o, OPC_SP, 0, (uint32_t[]){ 1, 2 }, 2, 7), 0);
    CHECK_EQ(cycles_to_dispatch(&o, OPC_SP, &tag), 1);
    CHECK_EQ(tag, 7);
    CHECK_EQ(o.stats.bank_conflicts, 0);
    CHECK_EQ(opc_alloc(&o, OPC_SP, 0, (uint32_t[]){ 1, 17 }, 2, 8), 0);
    CHECK_EQ(cycles_to_dispatch(&o, OPC_SP, &tag), 2);
    CHECK_EQ(o.stats.bank_conflicts, 1);
    CHECK_EQ(o.stats.reads, 4);
    opc_free(&o);
}

/* Warp 1's r0 and warp 0's r1: with skew both in bank 1 (conflict), without
 * skew banks 0 and 1 (none).  The older CU (warp 1's) reads first. */
TEST(opcoll_warp_skew)
{
    opc_t o;
    uint64_t tag;
    opc_cfg_t c = cfg16(1);
    CHECK(opc_init(&o, &c) == NULL);
    CHECK_EQ(opc_bank(&o, 1, 0), 1);
    CHECK_EQ(opc_alloc(&o, OPC_SP, 1, (uint32_t[]){ 0 }, 1, 100), 0);
    CHECK_EQ(opc_alloc(&o, OPC_SP, 0, (uint32_t[]){ 1 }, 1, 200), 0);
    opc_read_cycle(&o);
    CHECK_EQ(opc_dispatch(&o, OPC_SP, &tag), 1);
    CHECK_EQ(tag, 100);
    CHECK_EQ(opc_dispatch(&o, OPC_SP, &tag), 0);
    opc_read_cycle(&o);
    CHECK_EQ(opc_dispatch(&o, OPC_SP, &tag), 1);
    CHECK_EQ(tag, 200);
    CHECK_EQ(o.stats.bank_conflicts, 1);
    opc_free(&o);
    c = cfg16(0);
    CHECK(opc_init(&o, &c) == NULL);
    CHECK_EQ(opc_alloc(&o, OPC_SP, 1, (uint32_t[]){ 0 }, 1, 100), 0);
    CHECK_EQ(opc_alloc(&o, OPC_SP, 0, (uint32_t[]){ 1 }, 1, 200), 0);
    opc_read_cycle(&o);
    CHECK_EQ(opc_dispatch(&o, OPC_SP, &tag), 1);
    CHECK_EQ(opc_dispatch(&o, OPC_SP, &tag), 1);
    CHECK_EQ(o.stats.bank_conflicts, 0);
    opc_free(&o);
}

/* Two CUs per class: a third allocation waits; classes are separate;
 * duplicate sources are read once; no sources: ready at once. */
TEST(opcoll_units_and_sources)
{
    opc_t o;
    uint64_t tag;
    opc_cfg_t c = cfg16(1);
    CHECK(opc_init(&o, &c) == NULL);
    CHECK_EQ(opc_alloc(&o, OPC_SFU, 0, (uint32_t[]){ 3, 3 }, 2, 1), 0);
    CHECK_EQ(opc_alloc(&o, OPC_SFU, 0, NULL, 0, 2), 0);
    CHECK_EQ(opc_free_cus(&o, OPC_SFU), 0);
    CHECK_EQ(opc_alloc(&o, OPC_SFU, 0, NULL, 0, 3), -1);
    CHECK_EQ(opc_free_cus(&o, OPC_SP), 2);
    CHECK_EQ(opc_dispatch(&o, OPC_SFU, &tag), 1); /* the source-less one */
    CHECK_EQ(tag, 2);
    opc_read_cycle(&o);
    CHECK_EQ(opc_dispatch(&o, OPC_SFU, &tag), 1);
    CHECK_EQ(tag, 1);
    CHECK_EQ(o.stats.reads, 1);
    opc_free(&o);
}

/* Three sources in one bank (r0, r4, r8 with 4 banks): three cycles, and
 * 2 + 1 conflicts. */
TEST(opcoll_three_way_conflict)
{
    opc_t o;
    uint64_t tag;
    opc_cfg_t c = cfg16(0);
    c.banks = 4;
    CHECK(opc_init(&o, &c) == NULL);
    CHECK_EQ(opc_alloc(&o, OPC_INT, 5, (uint32_t[]){ 0, 4, 8 }, 3, 9), 0);
    CHECK_EQ(cycles_to_dispatch(&o, OPC_INT, &tag), 3);
    CHECK_EQ(o.stats.bank_conflicts, 3);
    opc_free(&o);
}

TEST(opcoll_bad_config)
{
    opc_t o;
    opc_cfg_t c = cfg16(0);
    c.banks = 0;
    CHECK(opc_init(&o, &c) != NULL);
    c = cfg16(0);
    c.cus[OPC_MEM] = 0;
    CHECK(opc_init(&o, &c) != NULL);
}
