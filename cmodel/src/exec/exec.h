/* exec.h: functional SIMT execution of decoded PTX.
 *
 * A kernel is prepared once into an exec_program_t: the kernel and every
 * function it calls, laid out in one PC space, with register operands turned
 * into slots of the warp's register file, symbols into addresses,
 * immediates into 32-lane broadcast rows and branches annotated with their
 * reconvergence PC (immediate post-dominator).  exec_step() executes one
 * warp-instruction; the functional runner (cta_run.c) and, later, the timing
 * model's issue stage both call it.
 *
 * Register file: value registers are 64-bit per lane, stored
 * regs[slot * 32 + lane] so that one instruction touches contiguous lanes;
 * predicates are one 32-bit lane mask per predicate register.
 */
#ifndef EXEC_EXEC_H
#define EXEC_EXEC_H

#include <stdint.h>

#include "exec/devmem.h"
#include "ptx/ir.h"
#include "simt/simt.h"

#define WARP_SIZE 32
#define EXEC_NO_PC 0xffffffffu

/* Generic address windows (cvta): shared and local live above global. */
#define GEN_SHARED_BASE (1ull << 44)
#define GEN_LOCAL_BASE (2ull << 44)
#define GEN_WINDOW_SIZE (1ull << 32)

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
    exec_opnd_t o[PTX_MAX_OPERANDS];
} exec_insn_t;

typedef struct exec_copy {
    uint32_t from, to, bytes;  /* local (per-thread frame) offsets */
} exec_copy_t;

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
    uint32_t nslots;           /* value registers per lane */
    uint32_t npreds;           /* predicate registers */
    uint32_t frame_bytes;      /* per-thread local memory */
    uint32_t static_shared;    /* bytes of static .shared */
    uint32_t param_bytes;
    uint32_t *func_frame;      /* per module function: frame base or ~0 */
    uint32_t *slot_func;       /* per value slot: owning module function */
    uint32_t *slot_reg;        /* per value slot: its virtual register */
} exec_program_t;

/* Builds the program of `kernel`; `global_base` is the device address of
 * the module's .global variables.  SIMT_EINPUT on unsupported input
 * (recursion, ...). */
int exec_program_build(const ptx_module_t *m, uint32_t kernel,
                       uint64_t global_base, exec_program_t **out,
                       simt_error_t *err);
void exec_program_free(exec_program_t *p);

/* ---- warps and CTAs ---- */

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

struct cta;

typedef struct warp {
    struct cta *cta;
    uint32_t wid;          /* warp index in the CTA */
    uint32_t valid;        /* lanes that hold a thread */
    uint32_t exited;       /* lanes that executed exit */
    uint8_t state;
    uint8_t bar_id;
    uint32_t bar_count;    /* expected threads of the pending barrier (0: all) */
    uint32_t bar_pc;       /* PC of the pending barrier instruction */
    uint64_t *regs;        /* nslots * 32 */
    uint32_t *preds;       /* npreds */
    uint32_t cc;           /* carry flag per lane (.cc) */
    uint8_t *local;        /* 32 * frame_bytes */
    simt_entry_t *stack;
    uint32_t depth, cap;
    uint32_t tid[3][WARP_SIZE];
    uint64_t scratch[PTX_MAX_OPERANDS][WARP_SIZE]; /* special registers */
    uint32_t red_value;    /* bar.red: this warp's contribution */
    uint64_t steps;
} warp_t;

typedef struct exec_launch {
    const exec_program_t *prog;
    const char *kernel_name;
    devmem_t *gmem;
    const uint8_t *params;
    const uint8_t *const_bank;
    uint64_t const_bytes;
    simt_dim3_t grid, block;
    uint32_t dyn_shared;
    uint32_t smid_count;
    simt_stats_t *stats;
    const simt_config_t *cfg;
    simt_error_t *err;
} exec_launch_t;

#define EXEC_NBARRIERS 16

typedef struct cta {
    const exec_launch_t *launch;
    uint32_t ctaid[3];
    uint32_t smid;
    uint8_t *smem;         /* this CTA's slice of the SM's scratchpad */
    uint32_t smem_size;
    warp_t *warps;
    uint32_t nwarps;
    uint32_t nthreads;
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
} exec_access_t;

typedef struct exec_ctx {
    const exec_launch_t *l;
    cta_t *cta;
    uint64_t clock;        /* %clock source */
    int faulted;
    exec_access_t *trace;  /* NULL, or filled by each exec_step */
} exec_ctx_t;

/* Sets up the CTA's warps (registers, stacks, thread ids).  smem must hold
 * smem_size bytes, zeroed by the caller.  SIMT_OK or SIMT_EINPUT (memory). */
int cta_init(cta_t *c, const exec_launch_t *l, const uint32_t ctaid[3],
             uint32_t smid, uint8_t *smem, uint32_t smem_size);
void cta_release(cta_t *c);

/* Executes one warp-instruction of w.  Returns SIMT_OK, or SIMT_EFAULT
 * after filling the launch's error with a fault report. */
int exec_step(exec_ctx_t *x, warp_t *w);

/* Runs a CTA functionally to completion (barriers, deadlock detection). */
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

/* Pushes a reconvergence-stack entry; SIMT_EFAULT on overflow. */
int exec_push(exec_ctx_t *x, warp_t *w, const struct exec_insn *ei,
              uint32_t pc, uint32_t rpc, uint32_t mask, uint32_t call_pc);

/* Active lanes of the warp's current stack entry. */
static inline uint32_t warp_active(const warp_t *w)
{
    return w->depth ? w->stack[w->depth - 1].mask & ~w->exited : 0;
}

static inline uint32_t warp_pc(const warp_t *w)
{
    return w->depth ? w->stack[w->depth - 1].pc : EXEC_NO_PC;
}

#endif
