/* test_sem_mem.c: semantics of mov (special registers, immediates,
 * vector pack/unpack) and of the memory instructions: ld/st of 8- and
 * 16-bit types with sign/zero extension, partial-width stores, .v2/.v4,
 * .shared, .local, initialised .const and .global data, generic addressing
 * through cvta/cvta.to and isspacep. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "sem_helpers.h"

/* ------------------------------------------------------------------ */
/* mov: special registers                                              */
/* ------------------------------------------------------------------ */

/* Two CTAs of 256 threads: %tid.x, %ntid.x, %laneid, %ctaid.x,
 * %nctaid.x, %tid.y, %ntid.y and the five lane masks. */
TEST(sem_mov_special_registers_1d)
{
    enum { N = 512 };
    static sem_lane_t L[N];
    memset(L, 0, sizeof L);
    CHECK(sem_run("d.b64 e.b64",
                  ".reg .u32 %x0, %x1, %x2, %x3;\n"
                  "mov.u32 %x0, %tid.x;\nmov.u32 %x1, %ntid.x;\n"
                  "mov.u32 %x2, %laneid;\nmov.u32 %x3, %ctaid.x;\n"
                  "mov.b64 %d, {%x0, %x1};\nmov.b64 %e, {%x2, %x3};", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        SEM_EQ(L, i, L[i].d, 256ull << 32 | (i % 256));
        SEM_EQ(L, i, L[i].e, (uint64_t)(i / 256) << 32 | (i % 32));
    }
    memset(L, 0, sizeof L);
    CHECK(sem_run("d.b64 e.b64",
                  ".reg .u32 %x0, %x1, %x2, %x3;\n"
                  "mov.u32 %x0, %lanemask_eq;\nmov.u32 %x1, %lanemask_lt;\n"
                  "mov.u32 %x2, %lanemask_le;\nmov.u32 %x3, %lanemask_gt;\n"
                  "mov.b64 %d, {%x0, %x1};\nmov.b64 %e, {%x2, %x3};", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        unsigned l = i % 32;
        uint32_t eq = 1u << l, lt = eq - 1, le = lt | eq, gt = ~le;
        SEM_EQ(L, i, L[i].d, (uint64_t)lt << 32 | eq);
        SEM_EQ(L, i, L[i].e, (uint64_t)gt << 32 | le);
    }
    memset(L, 0, sizeof L);
    CHECK(sem_run("d.b64 e.b64",
                  ".reg .u32 %x0, %x1, %x2, %x3;\n"
                  "mov.u32 %x0, %lanemask_ge;\nmov.u32 %x1, %nctaid.x;\n"
                  "mov.u32 %x2, %tid.y;\nmov.u32 %x3, %ntid.y;\n"
                  "mov.b64 %d, {%x0, %x1};\nmov.b64 %e, {%x2, %x3};", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        uint32_t ge = ~((1u << (i % 32)) - 1);
        SEM_EQ(L, i, L[i].d, 2ull << 32 | ge);
        SEM_EQ(L, i, L[i].e, 1ull << 32 | 0);
    }
}

/* 3-D blocks (4, 3, 2) in a (2, 3, 1) grid: every index register; warps
 * take threads in x, then y, then z order, so %laneid is the linear index
 * modulo 32. */
TEST(sem_mov_special_registers_3d)
{
    static const char ptx[] = SEM_HEADER
        ".visible .entry k(.param .u64 pout)\n"
        "{\n"
        "    .reg .u32 %r<16>;\n"
        "    .reg .u64 %out, %off;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %r0, %tid.x;\n    mov.u32 %r1, %tid.y;\n"
        "    mov.u32 %r2, %tid.z;\n    mov.u32 %r3, %ntid.x;\n"
        "    mov.u32 %r4, %ntid.y;\n   mov.u32 %r5, %ntid.z;\n"
        "    mov.u32 %r6, %ctaid.x;\n  mov.u32 %r7, %ctaid.y;\n"
        "    mov.u32 %r8, %ctaid.z;\n  mov.u32 %r9, %nctaid.x;\n"
        "    mov.u32 %r10, %nctaid.y;\n mov.u32 %r11, %laneid;\n"
        /* linear thread = x + 4 * (y + 3 * z); cta = cx + 2 * cy */
        "    mad.lo.u32 %r12, %r2, 3, %r1;\n"
        "    mad.lo.u32 %r12, %r12, 4, %r0;\n"
        "    mad.lo.u32 %r13, %r7, 2, %r6;\n"
        "    mad.lo.u32 %r12, %r13, 24, %r12;\n"
        "    mul.wide.u32 %off, %r12, 48;\n"
        "    add.u64 %out, %out, %off;\n"
        "    st.global.v4.u32 [%out], {%r0, %r1, %r2, %r3};\n"
        "    st.global.v4.u32 [%out+16], {%r4, %r5, %r6, %r7};\n"
        "    st.global.v4.u32 [%out+32], {%r8, %r9, %r10, %r11};\n"
        "    ret;\n"
        "}\n";
    enum { T = 24 * 6 };
    static uint32_t out[T * 12];
    memset(out, 0xee, sizeof out);
    void *bufs[1] = { out };
    size_t sizes[1] = { sizeof out };
    CHECK(sem_exec_dims(ptx, (simt_dim3_t){ 2, 3, 1 }, (simt_dim3_t){ 4, 3, 2 },
                        bufs, sizes, 1) == 0);
    for (unsigned cy = 0; cy < 3; cy++)
        for (unsigned cx = 0; cx < 2; cx++)
            for (unsigned z = 0; z < 2; z++)
                for (unsigned y = 0; y < 3; y++)
                    for (unsigned x = 0; x < 4; x++) {
                        unsigned lin = x + 4 * (y + 3 * z);
                        unsigned g = (cx + 2 * cy) * 24 + lin;
                        const uint32_t want[12] = { x, y, z, 4, 3, 2, cx, cy,
                                                    0, 2, 3, lin % 32 };
                        for (unsigned k = 0; k < 12; k++)
                            CHECK_MSG(out[g * 12 + k] == want[k],
                                      "cta (%u,%u) thread (%u,%u,%u): register %u "
                                      "= %u, want %u", cx, cy, x, y, z, k,
                                      out[g * 12 + k], want[k]);
                    }
}

/* ------------------------------------------------------------------ */
/* mov: immediates, pack/unpack                                        */
/* ------------------------------------------------------------------ */

TEST(sem_mov_pack_unpack_b64_b32_b16)
{
    static sem_lane_t L[SEM_NV64];
    unsigned n = sem_cross(L, sem_v64, SEM_NV64, NULL, 1, NULL, 0);
    CHECK(sem_run("d.b64 e.b64 a.b64",
                  ".reg .b32 %lo, %hi;\n.reg .b16 %h0, %h1, %h2, %h3;\n"
                  "mov.b64 {%lo, %hi}, %a;\n"
                  "mov.b32 {%h0, %h1}, %lo;\n"
                  "mov.b32 {%h2, %h3}, %hi;\n"
                  "mov.b32 %lo, {%h1, %h0};\n"
                  "mov.b32 %hi, {%h3, %h2};\n"
                  "mov.b64 %d, {%hi, %lo};\n"
                  "mov.b64 {%lo, %hi}, %a;\n"
                  "mov.b64 %e, {%lo, %hi};", L, n) == 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = L[i].a;
        uint64_t w0 = a & 0xffff, w1 = (a >> 16) & 0xffff, w2 = (a >> 32) & 0xffff,
                 w3 = a >> 48;
        /* 16-bit halves in reverse order */
        SEM_EQ(L, i, L[i].d, w0 << 48 | w1 << 32 | w2 << 16 | w3);
        SEM_EQ(L, i, L[i].e, a);
    }
}

TEST(sem_mov_immediates)
{
    sem_lane_t L[1];
    memset(L, 0, sizeof L);
    CHECK(sem_run("d.b64 e.b64",
                  ".reg .f32 %f;\n.reg .b32 %x;\n.reg .s32 %s;\n"
                  "mov.f32 %f, 0f40490FDB;\n"
                  "mov.b32 %x, %f;\n"
                  "mov.s32 %s, -5;\n"
                  "mov.b64 %d, {%x, %s};\n"
                  "mov.f64 %e, 0dC00921FB54442D18;", L, 1) == 0);
    SEM_EQ(L, 0, L[0].d, 0xfffffffbull << 32 | 0x40490fdbu);
    SEM_EQ(L, 0, L[0].e, 0xc00921fb54442d18ull);
    CHECK(sem_run("d.u64 e.u64",
                  ".reg .u16 %h;\n"
                  "mov.u64 %d, 0xfedcba9876543210;\n"
                  "mov.u16 %h, 0xbeef;\n"
                  "cvt.u64.u16 %e, %h;", L, 1) == 0);
    SEM_EQ(L, 0, L[0].d, 0xfedcba9876543210ull);
    SEM_EQ(L, 0, L[0].e, 0xbeef);
}

/* ------------------------------------------------------------------ */
/* ld/st widths                                                        */
/* ------------------------------------------------------------------ */

/* ld.u8/.s8/.u16/.s16 into 32-bit registers zero- or sign-extend (and
 * ld.s8 into a 16-bit register sign-extends to 16 bits). */
TEST(sem_ld_narrow_types_extend)
{
    static const char ptx[] = SEM_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n"
        "{\n"
        "    .reg .u32 %tx, %u8, %u16, %w;\n"
        "    .reg .s32 %s8, %s16;\n"
        "    .reg .s16 %h8;\n"
        "    .reg .u64 %in, %out, %off, %a;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %tx, %tid.x;\n"
        "    cvt.u64.u32 %off, %tx;\n"
        "    add.u64 %a, %in, %off;\n"
        "    ld.global.u8 %u8, [%a];\n"
        "    ld.global.s8 %s8, [%a];\n"
        "    ld.global.s8 %h8, [%a];\n"
        "    mul.wide.u32 %off, %tx, 2;\n"
        "    add.u64 %a, %in, %off;\n"
        "    ld.global.u16 %u16, [%a];\n"
        "    ld.global.s16 %s16, [%a];\n"
        "    cvt.u32.u16 %w, %h8;\n"
        "    mul.wide.u32 %off, %tx, 20;\n"
        "    add.u64 %a, %out, %off;\n"
        "    st.global.u32 [%a], %u8;\n"
        "    st.global.u32 [%a+4], %s8;\n"
        "    st.global.u32 [%a+8], %u16;\n"
        "    st.global.u32 [%a+12], %s16;\n"
        "    st.global.u32 [%a+16], %w;\n"
        "    ret;\n"
        "}\n";
    enum { T = 256 };
    static uint8_t in[2 * T];
    static uint32_t out[5 * T];
    for (unsigned i = 0; i < 2 * T; i++)
        in[i] = (uint8_t)(i * 37 + 0x5b);
    memset(out, 0xee, sizeof out);
    void *bufs[2] = { in, out };
    size_t sizes[2] = { sizeof in, sizeof out };
    CHECK(sem_exec(ptx, 1, T, bufs, sizes, 2) == 0);
    for (unsigned i = 0; i < T; i++) {
        uint8_t b = in[i];
        uint16_t h = (uint16_t)(in[2 * i] | in[2 * i + 1] << 8);
        CHECK_EQ(out[5 * i], b);
        CHECK_EQ(out[5 * i + 1], (uint32_t)(int32_t)(int8_t)b);
        CHECK_EQ(out[5 * i + 2], h);
        CHECK_EQ(out[5 * i + 3], (uint32_t)(int32_t)(int16_t)h);
        CHECK_EQ(out[5 * i + 4], (uint16_t)(int16_t)(int8_t)b);
    }
}

/* st.u8 / st.u16 write only their bytes (the register's low bits). */
TEST(sem_st_narrow_types_write_only_their_bytes)
{
    static const char ptx[] = SEM_HEADER
        ".visible .entry k(.param .u64 pout)\n"
        "{\n"
        "    .reg .u32 %tx, %v;\n"
        "    .reg .u16 %h;\n"
        "    .reg .u64 %out, %off, %a;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %tx, %tid.x;\n"
        "    mul.wide.u32 %off, %tx, 8;\n"
        "    add.u64 %a, %out, %off;\n"
        "    mad.lo.u32 %v, %tx, 0x01010101, 0x12345680;\n"
        "    st.global.u8 [%a+1], %v;\n"
        "    cvt.u16.u32 %h, %v;\n"
        "    xor.b16 %h, %h, 0xffff;\n"
        "    st.global.u16 [%a+4], %h;\n"
        "    st.global.b8 [%a+7], %tx;\n"
        "    ret;\n"
        "}\n";
    enum { T = 100 };
    static uint8_t out[8 * T];
    memset(out, 0xaa, sizeof out);
    void *bufs[1] = { out };
    size_t sizes[1] = { sizeof out };
    CHECK(sem_exec(ptx, 1, T, bufs, sizes, 1) == 0);
    for (unsigned i = 0; i < T; i++) {
        uint32_t v = i * 0x01010101u + 0x12345680u;
        uint16_t h = (uint16_t)~v;
        const uint8_t want[8] = { 0xaa, (uint8_t)v, 0xaa, 0xaa, (uint8_t)h,
                                  (uint8_t)(h >> 8), 0xaa, (uint8_t)i };
        for (unsigned k = 0; k < 8; k++)
            CHECK_MSG(out[8 * i + k] == want[k], "thread %u byte %u: 0x%02x, want 0x%02x",
                      i, k, out[8 * i + k], want[k]);
    }
}

/* .v2/.v4 loads and stores, element order {x, y, z, w} = increasing
 * addresses. */
TEST(sem_ld_st_vectors)
{
    static const char ptx[] = SEM_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n"
        "{\n"
        "    .reg .u32 %tx, %a<4>;\n"
        "    .reg .u64 %in, %out, %off, %p, %q, %x, %y;\n"
        "    .reg .u16 %h<4>;\n"
        "    .reg .f32 %f<2>;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %tx, %tid.x;\n"
        "    mul.wide.u32 %off, %tx, 48;\n"
        "    add.u64 %p, %in, %off;\n"
        "    add.u64 %q, %out, %off;\n"
        "    ld.global.v4.u32 {%a0, %a1, %a2, %a3}, [%p];\n"
        "    st.global.v4.u32 [%q], {%a3, %a2, %a1, %a0};\n"
        "    ld.global.v2.u64 {%x, %y}, [%p+16];\n"
        "    st.global.v2.u64 [%q+16], {%y, %x};\n"
        "    ld.global.v4.u16 {%h0, %h1, %h2, %h3}, [%p+32];\n"
        "    st.global.v4.u16 [%q+32], {%h1, %h0, %h3, %h2};\n"
        "    ld.global.v2.f32 {%f0, %f1}, [%p+40];\n"
        "    st.global.v2.f32 [%q+40], {%f1, %f0};\n"
        "    ret;\n"
        "}\n";
    enum { T = 64 };
    static uint8_t in[48 * T], out[48 * T];
    for (unsigned i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)(i * 13 + 7);
    memset(out, 0, sizeof out);
    void *bufs[2] = { in, out };
    size_t sizes[2] = { sizeof in, sizeof out };
    CHECK(sem_exec(ptx, 1, T, bufs, sizes, 2) == 0);
    for (unsigned i = 0; i < T; i++) {
        const uint8_t *s = in + 48 * i, *d = out + 48 * i;
        /* u32 x4 reversed */
        for (unsigned k = 0; k < 4; k++)
            CHECK(memcmp(d + 4 * k, s + 4 * (3 - k), 4) == 0);
        /* u64 x2 swapped */
        CHECK(memcmp(d + 16, s + 24, 8) == 0 && memcmp(d + 24, s + 16, 8) == 0);
        /* u16 x4: 1 0 3 2 */
        static const unsigned hp[4] = { 1, 0, 3, 2 };
        for (unsigned k = 0; k < 4; k++)
            CHECK(memcmp(d + 32 + 2 * k, s + 32 + 2 * hp[k], 2) == 0);
        /* f32 x2 swapped */
        CHECK(memcmp(d + 40, s + 44, 4) == 0 && memcmp(d + 44, s + 40, 4) == 0);
    }
}

/* ------------------------------------------------------------------ */
/* shared, local, const, global data                                   */
/* ------------------------------------------------------------------ */

/* st.shared then bar.sync then ld.shared of another thread's word, and
 * byte-sized shared accesses with sign extension. */
TEST(sem_ld_st_shared)
{
    static const char ptx[] = SEM_HEADER
        ".visible .entry k(.param .u64 pout)\n"
        "{\n"
        "    .shared .align 4 .u32 sw[256];\n"
        "    .shared .align 1 .u8 sb[256];\n"
        "    .reg .u32 %tx, %v, %j, %w, %sa, %sj, %ba, %bj;\n"
        "    .reg .s32 %sbv;\n"
        "    .reg .u64 %out, %off;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %tx, %tid.x;\n"
        "    mov.u32 %sa, sw;\n"
        "    mad.lo.u32 %sa, %tx, 4, %sa;\n"
        "    mad.lo.u32 %v, %tx, 2654435761, 12345;\n"
        "    st.shared.u32 [%sa], %v;\n"
        "    mov.u32 %ba, sb;\n"
        "    add.u32 %ba, %ba, %tx;\n"
        "    st.shared.u8 [%ba], %v;\n"
        "    bar.sync 0;\n"
        /* read the word and the byte of thread 255 - tid */
        "    sub.u32 %j, 255, %tx;\n"
        "    mov.u32 %sj, sw;\n"
        "    mad.lo.u32 %sj, %j, 4, %sj;\n"
        "    ld.shared.u32 %w, [%sj];\n"
        "    mov.u32 %bj, sb;\n"
        "    add.u32 %bj, %bj, %j;\n"
        "    ld.shared.s8 %sbv, [%bj];\n"
        "    mul.wide.u32 %off, %tx, 8;\n"
        "    add.u64 %out, %out, %off;\n"
        "    st.global.u32 [%out], %w;\n"
        "    st.global.u32 [%out+4], %sbv;\n"
        "    ret;\n"
        "}\n";
    enum { T = 256 };
    static uint32_t out[2 * T];
    memset(out, 0, sizeof out);
    void *bufs[1] = { out };
    size_t sizes[1] = { sizeof out };
    CHECK(sem_exec(ptx, 1, T, bufs, sizes, 1) == 0);
    for (unsigned i = 0; i < T; i++) {
        uint32_t v = (255 - i) * 2654435761u + 12345u;
        CHECK_MSG(out[2 * i] == v, "thread %u: 0x%08x, want 0x%08x", i, out[2 * i], v);
        CHECK_EQ(out[2 * i + 1], (uint32_t)(int32_t)(int8_t)(uint8_t)v);
    }
}

/* .local arrays are private to each thread. */
TEST(sem_ld_st_local)
{
    char ptx[4096];
    size_t o = (size_t)snprintf(ptx, sizeof ptx, "%s",
        SEM_HEADER
        ".visible .entry k(.param .u64 pout)\n"
        "{\n"
        "    .local .align 8 .b8 lb[64];\n"
        "    .reg .u32 %tx, %v, %s, %x, %y;\n"
        "    .reg .u64 %out, %off, %la;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %tx, %tid.x;\n"
        "    mov.u64 %la, lb;\n");
    for (unsigned k = 0; k < 16; k++)
        o += (size_t)snprintf(ptx + o, sizeof ptx - o,
                              "    mad.lo.u32 %%v, %%tx, 16, %u;\n"
                              "    st.local.u32 [%%la+%u], %%v;\n", k * k, 4 * k);
    o += (size_t)snprintf(ptx + o, sizeof ptx - o, "    mov.u32 %%s, 0;\n");
    for (unsigned k = 0; k < 16; k += 2)
        o += (size_t)snprintf(ptx + o, sizeof ptx - o,
                              "    ld.local.v2.u32 {%%x, %%y}, [%%la+%u];\n"
                              "    mad.lo.u32 %%s, %%s, 3, %%x;\n"
                              "    xor.b32 %%s, %%s, %%y;\n", 4 * k);
    snprintf(ptx + o, sizeof ptx - o,
             "    ld.local.u32 %%x, [lb+60];\n"
             "    mul.wide.u32 %%off, %%tx, 8;\n"
             "    add.u64 %%out, %%out, %%off;\n"
             "    st.global.v2.u32 [%%out], {%%s, %%x};\n"
             "    ret;\n"
             "}\n");
    enum { T = 96 };
    static uint32_t out[2 * T];
    memset(out, 0, sizeof out);
    void *bufs[1] = { out };
    size_t sizes[1] = { sizeof out };
    CHECK(sem_exec(ptx, 1, T, bufs, sizes, 1) == 0);
    for (unsigned i = 0; i < T; i++) {
        uint32_t s = 0;
        for (unsigned k = 0; k < 16; k += 2) {
            s = s * 3 + (i * 16 + k * k);
            s ^= i * 16 + (k + 1) * (k + 1);
        }
        CHECK_MSG(out[2 * i] == s, "thread %u: 0x%08x, want 0x%08x", i, out[2 * i], s);
        CHECK_EQ(out[2 * i + 1], i * 16 + 225);
    }
}

/* Initialised .const and .global arrays, read through their addresses. */
TEST(sem_ld_const_and_global_initialised_data)
{
    static const char ptx[] = SEM_HEADER
        ".const .align 4 .u32 ctab[8] = { 1, 2, 3, 0xdeadbeef, 0x80000000, 7, 8, 9 };\n"
        ".const .align 8 .f64 cd[2] = { 0d3FF8000000000000, 0dC002000000000000 };\n"
        ".global .align 4 .s32 gtab[4] = { 10, -20, 30, -40 };\n"
        ".visible .entry k(.param .u64 pout)\n"
        "{\n"
        "    .reg .u32 %tx, %i, %c;\n"
        "    .reg .s32 %g;\n"
        "    .reg .f64 %f;\n"
        "    .reg .u64 %out, %off, %ca, %ga, %da;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %tx, %tid.x;\n"
        "    and.b32 %i, %tx, 7;\n"
        "    mov.u64 %ca, ctab;\n"
        "    mul.wide.u32 %off, %i, 4;\n"
        "    add.u64 %ca, %ca, %off;\n"
        "    ld.const.u32 %c, [%ca];\n"
        "    and.b32 %i, %tx, 3;\n"
        "    mov.u64 %ga, gtab;\n"
        "    mul.wide.u32 %off, %i, 4;\n"
        "    add.u64 %ga, %ga, %off;\n"
        "    ld.global.s32 %g, [%ga];\n"
        "    and.b32 %i, %tx, 1;\n"
        "    mov.u64 %da, cd;\n"
        "    mul.wide.u32 %off, %i, 8;\n"
        "    add.u64 %da, %da, %off;\n"
        "    ld.const.f64 %f, [%da];\n"
        "    mul.wide.u32 %off, %tx, 16;\n"
        "    add.u64 %out, %out, %off;\n"
        "    st.global.u32 [%out], %c;\n"
        "    st.global.s32 [%out+4], %g;\n"
        "    st.global.f64 [%out+8], %f;\n"
        "    ret;\n"
        "}\n";
    enum { T = 40 };
    static uint32_t out[4 * T];
    memset(out, 0, sizeof out);
    void *bufs[1] = { out };
    size_t sizes[1] = { sizeof out };
    CHECK(sem_exec(ptx, 1, T, bufs, sizes, 1) == 0);
    static const uint32_t ctab[8] = { 1, 2, 3, 0xdeadbeefu, 0x80000000u, 7, 8, 9 };
    static const int32_t gtab[4] = { 10, -20, 30, -40 };
    static const double cd[2] = { 1.5, -2.25 };
    for (unsigned i = 0; i < T; i++) {
        CHECK_EQ(out[4 * i], ctab[i & 7]);
        CHECK_EQ(out[4 * i + 1], (uint32_t)gtab[i & 3]);
        uint64_t f;
        memcpy(&f, &out[4 * i + 2], 8);
        CHECK_EQ(f, sem_d2u(cd[i & 1]));
    }
}

/* ------------------------------------------------------------------ */
/* generic addressing                                                  */
/* ------------------------------------------------------------------ */

/* cvta.shared turns a shared address into a generic one that plain ld/st
 * use; cvta.to.shared turns it back; cvta.local likewise; a kernel
 * pointer parameter is a generic address of global memory; isspacep
 * tells the windows apart. */
TEST(sem_generic_addressing_cvta_isspacep)
{
    static const char ptx[] = SEM_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n"
        "{\n"
        "    .shared .align 8 .u32 sh[128];\n"
        "    .local .align 4 .u32 lv[2];\n"
        "    .reg .u32 %tx, %v, %w, %x, %y, %z, %f;\n"
        "    .reg .u64 %in, %out, %off, %g, %s, %s2, %gl, %la, %gi, %ga;\n"
        "    .reg .pred %p<6>;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %tx, %tid.x;\n"
        "    mul.wide.u32 %off, %tx, 4;\n"
        /* generic store into shared, read back with ld.shared */
        "    cvta.shared.u64 %g, sh;\n"
        "    add.u64 %g, %g, %off;\n"
        "    mad.lo.u32 %v, %tx, 5, 1;\n"
        "    st.u32 [%g], %v;\n"
        "    bar.sync 0;\n"
        "    mov.u64 %s, sh;\n"
        "    add.u64 %s, %s, %off;\n"
        "    ld.shared.u32 %w, [%s];\n"
        "    cvta.to.shared.u64 %s2, %g;\n"
        "    ld.shared.u32 %x, [%s2];\n"
        /* generic local */
        "    mov.u64 %la, lv;\n"
        "    cvta.local.u64 %gl, %la;\n"
        "    add.u32 %v, %v, 1000;\n"
        "    st.u32 [%gl+4], %v;\n"
        "    ld.local.u32 %y, [lv+4];\n"
        /* the parameter pointer is generic global: plain ld, and
         * cvta.to.global + ld.global give the same word */
        "    add.u64 %gi, %in, %off;\n"
        "    ld.u32 %z, [%gi];\n"
        "    cvta.to.global.u64 %ga, %gi;\n"
        "    ld.global.u32 %f, [%ga];\n"
        "    xor.b32 %z, %z, %f;\n"
        "    ld.u32 %f, [%gi];\n"
        "    add.u32 %z, %z, %f;\n"
        /* isspacep: bits 0..5 */
        "    isspacep.shared %p0, %g;\n"
        "    isspacep.global %p1, %g;\n"
        "    isspacep.local %p2, %gl;\n"
        "    isspacep.global %p3, %gi;\n"
        "    isspacep.shared %p4, %gi;\n"
        "    isspacep.local %p5, %g;\n"
        "    selp.u32 %f, 1, 0, %p0;\n"
        "    selp.u32 %v, 2, 0, %p1;\n    or.b32 %f, %f, %v;\n"
        "    selp.u32 %v, 4, 0, %p2;\n    or.b32 %f, %f, %v;\n"
        "    selp.u32 %v, 8, 0, %p3;\n    or.b32 %f, %f, %v;\n"
        "    selp.u32 %v, 16, 0, %p4;\n   or.b32 %f, %f, %v;\n"
        "    selp.u32 %v, 32, 0, %p5;\n   or.b32 %f, %f, %v;\n"
        "    mul.wide.u32 %off, %tx, 20;\n"
        "    add.u64 %out, %out, %off;\n"
        "    st.global.u32 [%out], %w;\n"
        "    st.global.u32 [%out+4], %x;\n"
        "    st.global.u32 [%out+8], %y;\n"
        "    st.global.u32 [%out+12], %z;\n"
        "    st.global.u32 [%out+16], %f;\n"
        "    ret;\n"
        "}\n";
    enum { T = 128 };
    static uint32_t in[T], out[5 * T];
    for (unsigned i = 0; i < T; i++)
        in[i] = i * 0x9e3779b9u;
    memset(out, 0, sizeof out);
    void *bufs[2] = { in, out };
    size_t sizes[2] = { sizeof in, sizeof out };
    CHECK(sem_exec(ptx, 1, T, bufs, sizes, 2) == 0);
    for (unsigned i = 0; i < T; i++) {
        CHECK_EQ(out[5 * i], i * 5 + 1);
        CHECK_EQ(out[5 * i + 1], i * 5 + 1);
        CHECK_EQ(out[5 * i + 2], i * 5 + 1001);
        CHECK_EQ(out[5 * i + 3], in[i]); /* (x ^ x) + x */
        CHECK_MSG(out[5 * i + 4] == (1 | 4 | 8),
                  "thread %u: isspacep bits 0x%x, want 0xd", i, out[5 * i + 4]);
    }
}

/* stacksave/alloca/stackrestore: the stack pointer goes back, so the next
 * alloca reuses the room; allocations honour their alignment and are
 * usable .local memory. */
TEST(sem_alloca_stacksave_restore)
{
    enum { N = 64 };
    sem_lane_t L[N];
    memset(L, 0, sizeof L);
    for (unsigned i = 0; i < N; i++)
        L[i].a = 1 + i % 7;
    CHECK(sem_run("d.u64 e.u64 a.u64",
                  ".reg .b64 %sp, %p1, %p2, %p3;\n.reg .b32 %v;\n"
                  "stacksave.u64 %sp;\n"
                  "alloca.u64 %p1, %a, 8;\n"
                  "alloca.u64 %p2, 4, 64;\n"
                  "st.local.u32 [%p2], 77;\nld.local.u32 %v, [%p2];\n"
                  "stackrestore.u64 %sp;\n"
                  "alloca.u64 %p3, %a, 8;\n"
                  "sub.u64 %d, %p3, %p1;\n"   /* 0: the room was reused */
                  "and.b64 %e, %p2, 63;\n"    /* 0: 64-aligned */
                  "cvt.u64.u32 %p3, %v;\nshl.b64 %p3, %p3, 8;\n"
                  "or.b64 %e, %e, %p3;", L, N) == 0);
    for (unsigned i = 0; i < N; i++) {
        SEM_EQ(L, i, L[i].d, 0);
        SEM_EQ(L, i, L[i].e, 77u << 8);
    }
}
