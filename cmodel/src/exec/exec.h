/* exec.h: functional SIMT execution of decoded PTX.
 *
 * A kernel is prepared once into an exec_program_t: the kernel and every
 * function it calls, laid out in one PC space, with register operands turned
 * into slots of a thread's register file, symbols into addresses,
 * immediates into 32-lane broadcast rows and branches annotated with their
 * reconvergence PC (immediate post-dominator).  exec_step() executes one
 * instruction of an issue group; the functional runner (cta.c) and the
 * timing model's issue stage (core/sm.c) both call it.
 *
 * Threads and issue groups.  Registers, predicates, the carry flag and the
 * local frame belong to threads, stored per CTA (exec_threads_t): thread t
 * (its linear index in the block) has home warp t / 32 and home lane
 * t % 32.  A warp_t is an issue group: 32 lanes, each referencing a thread
 * of its CTA through the lane map (warp_t.thread), or none.  The
 * reconvergence model (exec/recon.h) forms the groups and decides which PC
 * each runs; the timing model issues, scoreboards and collects operands
 * per group (its warp slot).
 *
 * Handlers see a group's registers as one [slot][lane] block: value
 * registers 64-bit per lane at regs[slot * 32 + lane], predicates one
 * 32-bit lane mask per predicate register, the carry one lane mask.  When
 * every mapped lane l holds thread home * 32 + l of one home warp (always,
 * with pdom) the block is that home warp's storage itself; otherwise
 * (a permuted or mixed lane map) exec_step copies the operands of each
 * instruction in from the threads and back out (exec/group.c).
 */
#ifndef EXEC_EXEC_H
#define EXEC_EXEC_H

#include <stdint.h>

#include "base/limits.h"
#include "exec/devmem.h"
#include "ptx/ir.h"
#include "simt/simt.h"

#define WARP_SIZE 32
#define EXEC_NO_PC 0xffffffffu
#define EXEC_TEX_TAPS 8        /* texels one lane's fetch may read */

/* Generic address windows (cvta): shared and local live above global. */
#define GEN_SHARED_BASE (1ull << 44)
#define GEN_LOCAL_BASE (2ull << 44)
#define GEN_WINDOW_SIZE (1ull << 32)

/* Function addresses (`mov.u64 %rd, f;`, initializers, indirect calls):
 * module function i is at EXEC_FUNC_BASE + i * EXEC_FUNC_STRIDE, a window
 * no data access resolves to. */
#define EXEC_FUNC_BASE (3ull << 44)
#define EXEC_FUNC_STRIDE 16u

/* A CTA's scratchpad: its static .shared variables, then the dynamic
 * (extern) array, which starts at the static size rounded up to 16 bytes
 * (the largest scalar or vector access). */
#define EXEC_SMEM_ALIGN 16u

/* Scratchpad bytes a CTA takes: `static_bytes` of static variables and
 * `dyn_bytes` of the dynamic array. */
static inline uint64_t exec_cta_smem(uint64_t static_bytes, uint64_t dyn_bytes)
{
    return (static_bytes + EXEC_SMEM_ALIGN - 1) / EXEC_SMEM_ALIGN * EXEC_SMEM_ALIGN +
           dyn_bytes;
}

typedef enum exec_opnd_kind {
    EO_NONE = 0,
    EO_REG,     /* value register: slot */
    EO_PRED,    /* predicate register: slot; neg */
    EO_IMM,     /* broadcast row: slot indexes program->imm */
    EO_SREG,    /* special register: slot = ptx_sreg_t */
    EO_ADDR,    /* [reg + imm] (has_reg) or [imm]: imm already includes the
                   symbol's address */
    EO_VEC,     /* vslot[0..n-1]; EXEC_NO_PC for '_' */
    EO_SINK,    /* '_' destination */
} exec_opnd_kind_t;

typedef struct exec_opnd {
    uint8_t kind;
    uint8_t neg;
    uint8_t has_reg;
    uint8_t n;            /* VEC width */
    uint8_t bits;         /* declared width of a REG (8..64) */
    uint32_t slot;
    uint32_t vslot[4];
    uint8_t vbits[4];
    uint32_t pipe;        /* second destination slot (p|q, d|p) or EXEC_NO_PC */
    int64_t imm;
} exec_opnd_t;

struct exec_ctx;
struct warp;
struct exec_insn;

typedef void (*exec_fn)(struct exec_ctx *x, struct warp *w,
                        const struct exec_insn *ei, uint32_t m);

typedef struct exec_insn {
    exec_fn fn;
    const ptx_insn_t *ir;
    uint32_t target;      /* branch target / callee entry PC */
    uint32_t reconv;      /* reconvergence PC or EXEC_NO_PC */
    uint8_t space;        /* resolved state space for memory ops */
    uint8_t nops;
    uint32_t guard;       /* predicate slot or EXEC_NO_PC */
    uint8_t guard_neg;
    uint32_t func;        /* owning function (module index) */
    /* call: argument copies (caller frame offset -> callee frame offset) */
    uint32_t call_first, call_count;   /* into program->copies */
    uint32_t ret_first, ret_count;
    uint32_t icall_first, icall_count; /* indirect call: program->icalls */
    /* the registers it reads, then those it writes (program->refs) */
    uint32_t ref_first;
    uint8_t nuses, ndefs;
    exec_opnd_t o[PTX_MAX_OPERANDS];
} exec_insn_t;

/* A register an instruction reads or writes (exec/uninit.h). */
typedef struct exec_regref {
    uint32_t slot;        /* value slot, or predicate slot when pred */
    uint16_t reg;         /* the register of the instruction's function */
    uint8_t pred;
} exec_regref_t;

typedef struct exec_copy {
    uint32_t from, to, bytes;  /* local (per-thread frame) offsets */
} exec_copy_t;

/* One function an indirect call may reach, with its frame copies. */
typedef struct exec_icall {
    uint32_t func;             /* module function index */
    uint32_t entry;            /* its first PC */
    uint32_t call_first, call_count, ret_first, ret_count;
} exec_icall_t;

/* What a function's activation owns, kept on the thread's stack across a
 * nested activation when the function is recursive (exec_stack.c): its
 * value slots [vfirst, vfirst + vcount), predicates [pfirst, pfirst +
 * pcount) and local frame [frame, frame + frame_bytes). */
typedef struct exec_fsave {
    uint32_t vfirst, vcount, pfirst, pcount;
    uint32_t frame, frame_bytes;
    uint8_t recursive;       /* direct calls can lead back to it */
} exec_fsave_t;

/* Bytes of a thread's stack for recursive activations (CUDA's stack is
 * 1 KiB by default and grows on request; the model's records are larger,
 * 64-bit per register): past it, a "stack overflow" fault. */
#define EXEC_STACK_LIMIT (256u << 10)

/* The dynamic stack of alloca, per thread, at the end of the local frame
 * of a program that uses it (program.alloca_base): an 8-byte top offset,
 * then EXEC_ALLOCA_BYTES of room (exec_stack.c). */
#define EXEC_ALLOCA_BYTES (16u << 10)
#define EXEC_ALLOCA_HEADER 16u

typedef struct exec_program {
    const ptx_module_t *mod;
    uint32_t kernel;           /* module function index */
    exec_insn_t *code;
    uint32_t ncode;
    uint32_t *pc_of_insn;      /* module insn index -> PC, or EXEC_NO_PC */
    uint64_t *imm;             /* broadcast rows, 32 per immediate */
    uint32_t nimm;
    exec_copy_t *copies;
    uint32_t ncopies;
    exec_icall_t *icalls;
    uint32_t nicalls;
    uint32_t nslots;           /* value registers per lane */
    uint32_t npreds;           /* predicate registers */
    uint32_t frame_bytes;      /* per-thread local memory */
    uint32_t static_shared;    /* bytes of static .shared */
    uint32_t param_bytes;
    uint32_t *func_frame;      /* per module function: frame base or ~0 */
    exec_fsave_t *fsave;       /* per module function (reached ones set) */
    uint32_t alloca_base;      /* local offset of the alloca stack, or
                                  EXEC_NO_PC when no alloca is used */
    uint32_t *slot_func;       /* per value slot: owning module function */
    uint32_t *slot_reg;        /* per value slot: its virtual register */
    exec_regref_t *refs;       /* every instruction's uses and defs */
    uint32_t nrefs;
} exec_program_t;

/* Builds the program of `kernel`; `global_base` is the device address of
 * the module's .global variables.  SIMT_EINPUT on unsupported input (an
 * instruction form no handler executes, a call whose arguments do not fit
 * the callee, ...). */
int exec_program_build(const ptx_module_t *m, uint32_t kernel,
                       uint64_t global_base, exec_program_t **out,
                       simt_error_t *err);
void exec_program_free(exec_program_t *p);

/* ---- threads, issue groups and CTAs ---- */

#define EXEC_NO_THREAD 0xffffffffu

/* One entry of a group's control state: its PC, where it reconverges, its
 * lanes and, for a call frame, the call's PC.  Every reconvergence model
 * keeps the group's current PC and lanes in the top entry (warp_pc,
 * warp_active read it on every issue); the model's methods are its only
 * writers, apart from exec_step moving the top entry past the instruction
 * it executes and a uniform branch redirecting it. */
typedef struct simt_entry {
    uint32_t pc;
    uint32_t rpc;         /* reconvergence PC or EXEC_NO_PC */
    uint32_t mask;
    uint32_t call_pc;     /* a call frame: the call's PC; else EXEC_NO_PC */
} simt_entry_t;

typedef enum warp_state {
    WARP_READY = 0,
    WARP_AT_BARRIER,
    WARP_DONE,
} warp_state_t;

/* The per-thread state of a CTA's threads, indexed by thread (see above):
 * value registers regs[(t / 32 * nslots + slot) * 32 + t % 32], predicate
 * and carry bits at bit t % 32 of preds[t / 32 * npreds + p] and
 * cc[t / 32], the local frame at local + t * frame_bytes.  Laid out per
 * home warp so that a group of one home warp's threads in their home lanes
 * uses its block directly. */
/* A thread's stack of saved activations of recursive functions. */
typedef struct exec_tstack {
    uint8_t *data;
    uint32_t len, cap;
} exec_tstack_t;

typedef struct exec_threads {
    uint64_t *regs;
    uint32_t *preds;
    uint32_t *cc;
    uint8_t *local;
    exec_tstack_t *stacks; /* per thread; allocated at the first recursive
                              call */
} exec_threads_t;

struct cta;
struct recon_ops;

typedef struct warp {
    struct cta *cta;
    uint32_t wid;          /* issue group index in the CTA */
    uint32_t valid;        /* lanes that hold a thread */
    uint32_t exited;       /* lanes that executed exit */
    uint8_t state;
    uint8_t bar_id;
    uint32_t bar_count;    /* expected threads of the pending barrier (0: all) */
    uint32_t bar_pc;       /* PC of the pending barrier instruction */
    /* the lane map: lane -> thread of the CTA, or EXEC_NO_THREAD */
    uint32_t thread[WARP_SIZE];
    uint32_t home;         /* the home warp whose block regs/preds/cc are,
                              or EXEC_NO_THREAD: a mixed map, whose
                              instructions run on the group's own copy */
    /* the lanes' state as handlers see it (see above) */
    uint64_t *regs;        /* nslots * 32 */
    uint32_t *preds;       /* npreds */
    uint32_t *cc;          /* carry flag per lane (.cc) */
    uint64_t *copy_regs;   /* a mixed map's copy (allocated on first use) */
    uint32_t *copy_preds;
    uint32_t copy_cc;
    simt_entry_t *stack;
    uint32_t depth, cap;
    uint64_t scratch[PTX_MAX_OPERANDS][WARP_SIZE]; /* special registers */
} warp_t;

struct tex_table;
/* Device printf output (exec_builtin.c): like a GPU's printf FIFO, the
 * text of every printf call in the order the warps executed them (within
 * one call, lanes in ascending order), written to the host's output when
 * the kernels complete (simt_synchronize).  Bytes past `limit` are dropped,
 * as a full FIFO drops them, and counted. */
typedef struct exec_printf_buf {
    char *text;
    size_t len, cap;
    size_t limit;
    uint64_t dropped;
} exec_printf_buf_t;

typedef struct exec_launch {
    const exec_program_t *prog;
    const char *kernel_name;
    devmem_t *gmem;
    const struct tex_table *tex;   /* texture and surface objects */
    const uint8_t *params;
    const uint8_t *const_bank;
    uint64_t const_bytes;
    simt_dim3_t grid, block;
    uint32_t dyn_shared;
    uint32_t smid_count;
    simt_stats_t *stats;
    const simt_config_t *cfg;
    simt_error_t *err;
    exec_printf_buf_t *printf_out; /* device printf's FIFO */
    limits_t *limits;      /* the GPU's run limits (base/limits.h) */
} exec_launch_t;

#define EXEC_NBARRIERS 16

typedef struct cta {
    const exec_launch_t *launch;
    uint32_t ctaid[3];
    uint32_t smid;
    uint8_t *smem;         /* this CTA's slice of the SM's scratchpad */
    uint32_t smem_size;
    /* Scratchpad Sharing's aliasing (docs/scratchpad-sharing.md): offsets
     * at or above smem_split map to smem_hi + offset (the partner's bytes)
     * instead of smem + offset.  cta_init sets smem_split = smem_size
     * (no aliasing); an access straddling the split is a fault. */
    uint8_t *smem_hi;
    uint32_t smem_split;
    const struct recon_ops *recon; /* its reconvergence model */
    exec_threads_t threads;
    warp_t *warps;         /* the issue groups */
    uint32_t nwarps;       /* issue groups (with pdom: home warps) */
    uint32_t nthreads;
    /* check_uninit: per home warp, a lane mask per value slot then per
     * predicate of the threads that have written it; NULL when off */
    uint32_t *written;
    uint32_t bar_arrived[EXEC_NBARRIERS]; /* threads arrived (32 per warp) */
    uint32_t bar_red[EXEC_NBARRIERS];     /* bar.red accumulators */
    uint8_t bar_red_any[EXEC_NBARRIERS];
} cta_t;

/* The memory accesses of one warp-instruction, recorded for the timing
 * model when exec_ctx_t.trace is set (functional runs leave it NULL). */
typedef struct exec_access {
    uint32_t mask;                 /* lanes that accessed memory */
    uint8_t write;                 /* a store, or an atomic's write */
    uint8_t atomic;
    uint8_t bytes;                 /* bytes per lane */
    uint8_t space[WARP_SIZE];      /* ptx_space_t, generic resolved */
    uint64_t addr[WARP_SIZE];      /* space-relative address per lane */
    /* tex/tld4: the device addresses of the texels the lanes read, in
     * lane order (at most 8 per lane: a trilinear fetch), for the
     * texture cache; space[], addr[] and bytes are unused */
    uint8_t tex;
    uint16_t ntaps;
    uint64_t taps[WARP_SIZE * EXEC_TEX_TAPS];
} exec_access_t;

/* The order of the effects that other SMs can see (gpu/smpar.h).  When
 * SMs step in parallel, an effect whose order matters across SMs (a
 * global or surface access, a texture fetch, device printf, a fault
 * report) waits until every SM of lower index has made its last such
 * effect of the cycle (pass, or the end of its cycle), so that such
 * effects happen in SM order, as they do when one thread steps the SMs
 * one after the other.  wait returns nonzero when a lower SM
 * stopped the run in this cycle (its fault is the one reported). */
typedef struct exec_order {
    int (*wait)(struct exec_order *o);
    /* the SM will make no other ordered effect this cycle (its issue stage
     * is over): the SMs above need not wait for the rest of its cycle */
    void (*pass)(struct exec_order *o);
    int open;      /* every lower SM has passed this cycle: wait would
                      return at once (execution's fast paths look here) */
} exec_order_t;

typedef struct exec_ctx {
    const exec_launch_t *l;
    cta_t *cta;
    uint64_t clock;        /* %clock source */
    int faulted;
    exec_access_t *trace;  /* NULL, or filled by each exec_step */
    /* the counters execution adds to (warp_insns, loads, atomics, ...):
     * NULL: the launch's; the timing model's SMs keep their own and add
     * them to the launch's after each cycle (core/sm.h sm_commit) */
    simt_stats_t *stats;
    exec_order_t *order;   /* NULL: effects are in order already */
    uint32_t gmem_hint;    /* devmem_ptr_at's, for this SM's accesses */
} exec_ctx_t;

static inline simt_stats_t *exec_stats(const exec_ctx_t *x)
{
    return x->stats ? x->stats : x->l->stats;
}

/* Adds the counters execution keeps (every field exec_stats(x) is given:
 * instructions, loads and stores per space, atomics, barriers, divergent
 * branches, completed CTAs) from `from` to `to` and zeroes them in
 * `from`.  A new counter that execution adds to belongs here too. */
void exec_stats_move(simt_stats_t *to, simt_stats_t *from);

/* Called before an effect whose order across SMs matters (exec_order_t);
 * nonzero: a lower SM stopped the run this cycle. */
static inline int exec_ordered(exec_ctx_t *x)
{
    return x->order ? x->order->wait(x->order) : 0;
}

/* Recursive function `func` (fsave.recursive) is entered (push) or left
 * (pop) by the lanes m of w: its registers, predicates and frame are
 * saved to, or restored from, each thread's stack.  push returns 0, or -1
 * after a fault report (stack overflow, host memory) (exec_stack.c). */
int exec_stack_push(exec_ctx_t *x, warp_t *w, const struct exec_insn *ei,
                    uint32_t func, uint32_t m);
void exec_stack_pop(exec_ctx_t *x, warp_t *w, uint32_t func, uint32_t m);

/* Sets up the CTA's threads (zeroed state) and its issue groups, formed by
 * the configured reconvergence model.  smem must hold smem_size bytes,
 * zeroed by the caller.  SIMT_OK or SIMT_EINPUT (memory). */
int cta_init(cta_t *c, const exec_launch_t *l, const uint32_t ctaid[3],
             uint32_t smid, uint8_t *smem, uint32_t smem_size);
void cta_release(cta_t *c);

/* Scratchpad Sharing's gate (core/sm_share.h): whether the warp's next
 * instruction ei (the one at its PC), a ld/st/atom/red, touches for some
 * active lane that passes its guard a shared-space byte at or above
 * `limit` (generic addresses resolved).  A regrouped warp (dynamic warp
 * formation), whose registers live in its threads' home warps, answers 1
 * for any instruction that may reach shared memory. */
int exec_smem_reaches(const warp_t *w, const exec_insn_t *ei, uint64_t limit);

/* Whether ei may reach shared memory at all (a ld/st/atom/red in the
 * shared or generic space): exec_smem_reaches is 0 for any other. */
int exec_smem_may_reach(const exec_insn_t *ei);

/* Executes one warp-instruction of w.  Returns SIMT_OK, or SIMT_EFAULT
 * after filling the launch's error with a fault report. */
int exec_step(exec_ctx_t *x, warp_t *w);

/* Runs a CTA functionally to completion (barriers, deadlock detection):
 * SIMT_OK, SIMT_EFAULT, or SIMT_ELIMIT when a run limit (launch->limits,
 * checked before every warp instruction) stopped it. */
int cta_run_functional(cta_t *c);

/* Releases every barrier of the CTA that enough warps have reached;
 * returns the number released. */
unsigned cta_release_barriers(cta_t *c);

/* The deadlock fault: a report listing every warp's state; SIMT_EFAULT. */
int cta_deadlock(cta_t *c, exec_ctx_t *x);

/* Fault report: kernel, CTA, warp, lane mask, PC, PTX line; SIMT_EFAULT. */
int exec_fault(exec_ctx_t *x, const warp_t *w, const exec_insn_t *ei,
               uint32_t lanes, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Sets group w's lane map to thread[0..31] (EXEC_NO_THREAD: no thread) and
 * its valid lanes; chooses its register view (exec.h).  -1 when the copy
 * of a mixed map cannot be allocated. */
int exec_group_map(warp_t *w, const uint32_t thread[WARP_SIZE]);

/* A mixed group's view: copy_in fills the copy with the lanes' threads'
 * values of every register `ei` names, and the carry; copy_out writes
 * them back to the threads. */
void exec_group_copy_in(warp_t *w, const struct exec_insn *ei);
void exec_group_copy_out(warp_t *w, const struct exec_insn *ei);

/* Thread t's value register `slot` and its local frame. */
static inline uint64_t *exec_thread_reg(const cta_t *c, uint32_t t,
                                        uint32_t slot)
{
    size_t hw = t / WARP_SIZE;
    return &c->threads.regs[(hw * c->launch->prog->nslots + slot) * WARP_SIZE +
                            t % WARP_SIZE];
}

static inline uint8_t *exec_thread_local(const cta_t *c, uint32_t t)
{
    return c->threads.local + (size_t)t * c->launch->prog->frame_bytes;
}

/* Sets (v != 0) or clears thread t's predicate p. */
static inline void exec_thread_set_pred(const cta_t *c, uint32_t t,
                                        uint32_t p, int v)
{
    uint32_t *word = &c->threads.preds[(size_t)t / WARP_SIZE *
                                       c->launch->prog->npreds + p];
    uint32_t bit = 1u << (t % WARP_SIZE);
    *word = v ? *word | bit : *word & ~bit;
}

/* Active lanes of the group's current entry. */
static inline uint32_t warp_active(const warp_t *w)
{
    return w->depth ? w->stack[w->depth - 1].mask & ~w->exited : 0;
}

static inline uint32_t warp_pc(const warp_t *w)
{
    return w->depth ? w->stack[w->depth - 1].pc : EXEC_NO_PC;
}

#endif
