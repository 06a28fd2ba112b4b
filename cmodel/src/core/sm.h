/* sm.h: one streaming multiprocessor of the timing model.
 *
 * Each cycle, stages are evaluated in reverse pipeline order:
 *   writeback   results of the execution pipelines and the LD/ST unit
 *               release their scoreboard reservations;
 *   dispatch    per unit class, the oldest collector unit whose operands
 *               are read enters its pipeline if the pipeline is free;
 *   operands    one register-bank read per bank (core/opcoll.h);
 *   issue       each scheduler picks one ready warp of its own (slot i
 *               belongs to scheduler i mod N); the instruction executes
 *               functionally now (exec_step), reserves its destinations in
 *               the scoreboard and takes a collector unit;
 *   fetch       one warp with an empty instruction buffer fetches per
 *               cycle; the buffer (2 entries) is valid the next cycle.
 * A warp is ready when every issue gate is open (core/sm_ready.h): it is
 * not waiting at a barrier, its buffer holds the instruction at its PC,
 * none of the registers the instruction reads or writes is reserved, and
 * a collector unit of its class, an instruction record and (for memory
 * instructions) LD/ST room are free.  A taken or divergent branch empties
 * the buffer (control hazard).  Every scheduler-cycle without an issue
 * counts one stall reason (sm_stall_t). */
#ifndef CORE_SM_H
#define CORE_SM_H

#include <stddef.h>
#include <stdint.h>

#include "core/ldst.h"
#include "core/opcoll.h"
#include "core/pipe.h"
#include "core/sched.h"
#include "core/scoreboard.h"
#include "core/sm_ready.h"
#include "core/sm_share.h"
#include "mem/fill_queue.h"
#include "exec/exec.h"

typedef struct sm_cfg {
    unsigned max_warps;        /* warp slots (threads per SM / 32) */
    unsigned max_threads;      /* resident threads */
    unsigned max_ctas;         /* CTA slots */
    unsigned regs;             /* 32-bit registers */
    unsigned smem;             /* scratchpad bytes */
    unsigned nsched;           /* warp schedulers */
    unsigned issue_interval;   /* cycles a warp takes to issue (32 / SIMD
                                  width): a scheduler issues at most once
                                  per interval */
    sched_kind_t sched;
    unsigned two_level_active;
    unsigned ltlws_inner;      /* LTLWS's inner policy: 0 GTO, 1 LRR */
    unsigned tlv_group;        /* TLV: warps per fetch group */
    unsigned ccws_vta_entries, ccws_base_score, ccws_kthrottle,
             ccws_decay_cycles; /* CCWS (core/sched.h) */
    unsigned ssp_sharing;      /* Scratchpad Sharing (core/sm_share.h) */
    unsigned sca_strict;       /* SCA's stall rule: 0 relaxed, 1 strict */
    const unit_hooks_t *hooks; /* the units' hooks (co-simulation), or NULL */
    uint64_t cycle_base;       /* added to the cycle the hooks see */
    opc_cfg_t opc;
    pipe_cfg_t pipe;
    ldst_cfg_t ldst;
    int icache;                /* 0: a perfect instruction cache */
    cache_cfg_t icache_cfg;    /* read-only */
    unsigned icache_miss_latency; /* ideal memory (cfg.ldst.hierarchy 0);
                                  with the hierarchy a miss goes out
                                  through the LD/ST unit's outbox */
    int sleep;                 /* 1: a quiescent SM is not stepped
                                  (sm_step; skip_idle_cycles) */
} sm_cfg_t;

/* The class of one SM-cycle (reference 004 §6; docs/stats.md gives the
 * exact rule): the first that applies, in this order. */
typedef enum sm_cycle_class {
    SM_CYCLE_ACTIVE,           /* some warp issued */
    SM_CYCLE_CORE_STALL,       /* a warp with its operands ready was
                                  structurally blocked (or held back) */
    SM_CYCLE_MEM_STALL,        /* a warp waits on a long-latency load */
    SM_CYCLE_IDLE,             /* no warp has an instruction to issue */
    SM_NCYCLE_CLASSES
} sm_cycle_class_t;

typedef struct sm_stats {
    uint64_t cycles_active;    /* cycles with at least one resident CTA */
    uint64_t cycle_class[SM_NCYCLE_CLASSES]; /* every cycle, one class */
    uint64_t warp_insns_issued;
    uint64_t thread_insns_issued; /* active threads of the issued warps */
    uint64_t ctas_completed;
    uint64_t stall[SM_NSTALLS];/* scheduler-cycles without an issue */
    uint64_t resident_warp_cycles; /* sum over cycles of resident warps */
    uint64_t mixed_cycles;     /* cycles with CTAs of 2+ kernels resident */
    uint64_t reg_alloc_cycles; /* sum over cycles of used_regs */
    uint64_t smem_alloc_cycles; /* sum over cycles of used_smem */
    /* for CTA policies (cta_policy_counters_t; not exported as statistics):
     * cycles nothing issued, split by why.  A cycle whose schedulers all
     * failed to issue counts mem when some warp waits on a long-latency
     * operation and no ready warp was held up by the pipeline, idle when
     * neither (no warp, paused warps, barriers, empty buffers, short
     * dependences); a cycle with no resident CTA counts idle. */
    uint64_t idle_cycles, mem_wait_cycles;
} sm_stats_t;

/* Registers one instruction can read or write: every operand a vector of
 * four, plus the guard predicate and a second destination (p|q).  A bound
 * no instruction can exceed, so decoding never drops one. */
#define SM_MAX_REGS (PTX_MAX_OPERANDS * 4 + 2)
_Static_assert(SM_MAX_REGS <= OPC_MAX_SRC, "a collector unit reads every source");

/* Instruction records per warp slot: what one warp can have in flight,
 * issued and not written back, before the issue stage stalls for one. */
#define SM_INSTS_PER_WARP 8

/* One in-flight instruction, from issue to writeback. */
typedef struct sm_inst {
    uint8_t used;
    uint8_t cls;               /* opc_class_t */
    uint8_t ndst;
    uint8_t shared;            /* a shared-memory access (relssp's fence) */
    uint32_t slot;             /* warp slot */
    pipe_lat_t lat;
    uint32_t mem_op;           /* memory instructions: the LD/ST handle */
    uint32_t dst[SM_MAX_REGS]; /* scoreboard registers reserved */
} sm_inst_t;

/* What an instruction reads and writes, in scoreboard numbering (value
 * slots, then predicates at nslots + p), and the value registers it reads
 * from the banked register file (as physical registers).  Decoded when the
 * instruction enters the instruction buffer. */
typedef struct sm_regs {
    uint32_t rd[SM_MAX_REGS], wr[SM_MAX_REGS], bank[SM_MAX_REGS];
    uint8_t nrd, nwr, nbank;
} sm_regs_t;

typedef struct sm_slot {
    /* read every cycle by the issue stage: kept together */
    warp_t *w;                 /* NULL: free slot */
    uint8_t live;              /* holds a warp that has not finished */
    uint8_t at_bar;            /* the warp waits at a barrier */
    uint8_t ibuf;              /* instructions buffered at ibuf_pc */
    uint8_t ifetch_wait;       /* its fetch missed in the instruction cache */
    uint8_t l1d;               /* the instruction at ibuf_pc may reach the
                                  L1 data cache (decoded with `timing`) */
    uint64_t ibuf_ready;       /* cycle the buffer becomes usable */
    uint64_t age;              /* dynamic warp id */
    pipe_timing_t timing;      /* of the instruction at ibuf_pc */
    uint32_t cta;              /* CTA slot it belongs to */
    uint32_t ibuf_pc;
    uint32_t inflight;         /* instructions issued, not written back */
    uint32_t mem_inflight;     /* of those, memory instructions (the
                                  core-cycle breakdown's MEM_STALL) */
} sm_slot_t;

/* A kernel as the SM needs it: its launch, register mapping and what one
 * of its CTAs takes from the SM. */
typedef struct sm_kernel {
    const exec_launch_t *l;
    const uint32_t *slot_phys; /* value slot -> physical register */
    uint32_t threads;          /* per CTA */
    uint32_t warps;
    uint32_t regs;             /* registers per CTA, allocation-rounded */
    uint32_t smem;             /* scratchpad bytes per CTA */
    /* Scratchpad Sharing (gpu/occupancy.h occupancy_sharing): baseline
     * and shared CTAs per SM, the private slice and the unshared limit;
     * ssp_n == ssp_m (0 when ssp_sharing is off): no sharing */
    uint32_t ssp_m, ssp_n, ssp_priv, ssp_limit;
    uint32_t *ctas_on_sm;      /* per SM id: its resident CTAs */
    uint32_t launch;           /* its launch index on the GPU */
    uint32_t code_id;          /* its code's place in instruction memory */
    uint64_t const_window;     /* its constant bank and parameters in the
                                  device address space (mem/mem_regions.h) */
    /* kept by the SMs (sm_commit, every cycle an SM issues), a cache line
     * away from what the SMs read while they step on other host threads
     * (gpu/smpar.h) */
    char apart[64];
    uint64_t ctas_done;        /* CTAs completed */
    uint64_t warp_insns, thread_insns;
    uint32_t live_warps;       /* resident unfinished warps, all SMs */
    uint32_t hosting_sms;      /* SMs with a resident CTA of it */
    char apart_end[64];
} sm_kernel_t;

typedef struct sm_cta {
    uint8_t used;
    uint8_t paused;            /* its warps may not issue (sm_set_active_limit) */
    uint64_t seq;              /* placement order on this SM */
    sm_kernel_t *k;
    cta_t cta;
    uint32_t smem_base;        /* its slice of the scratchpad */
    uint32_t smem_held;        /* bytes it holds: k->smem, or an extra
                                  Scratchpad Sharing CTA's private slice */
    uint64_t warp_insns;       /* warp-instructions its warps issued */
    uint64_t id;               /* its linear CTA id in the grid */
    uint64_t base_age;         /* the dynamic warp id of its warp 0 */
    uint64_t block_age;        /* its block's: the lower CTA's base_age
                                  (its own when it was placed alone) */
    int32_t partner;           /* the CTA slot of its pair partner (BCS's
                                  block, placed together) at placement, or
                                  -1; not kept up to date afterwards */
    uint8_t hi;                /* the pair's second (higher id) member */
    uint32_t busy_warps;       /* its warps still live or with an
                                  instruction in flight: 0 completes it */
} sm_cta_t;

/* A CTA that completed, as the SM reports it (sm_pop_completed). */
typedef struct sm_cta_done {
    uint32_t launch;           /* its kernel's launch index */
    uint64_t cta;              /* its linear CTA id */
    uint64_t warp_insns;       /* warp-instructions its warps issued */
} sm_cta_done_t;

/* What the SM's cycle adds to the counters its kernel shares with the
 * other SMs (sm_kernel_t), kept here until sm_commit adds it: during a
 * cycle an SM writes only its own state, so SMs may step in parallel
 * (gpu/smpar.h). */
typedef struct sm_kdelta {
    sm_kernel_t *k;
    uint64_t warp_insns, thread_insns;
    uint32_t warps_done;       /* warps that finished (live_warps) */
    uint32_t ctas_done;
    uint32_t sms_left;         /* its last CTA here completed (hosting_sms) */
} sm_kdelta_t;

typedef struct sm {
    unsigned id;
    sm_cfg_t cfg;
    exec_ctx_t x;
    exec_access_t access;
    sm_slot_t *slots;
    sm_regs_t *regs;           /* per slot: of the instruction at its
                                  ibuf_pc (apart: the issue stage's scan of
                                  the slots stays small) */
    sm_cta_t *ctas;
    unsigned nctas;            /* resident */
    unsigned nkernels;         /* kernels with a resident CTA */
    unsigned used_warps, used_threads, used_regs;
    uint64_t used_smem;        /* scratchpad bytes of the resident CTAs */
    uint8_t *smem;             /* the scratchpad, cfg.smem bytes */
    sm_cta_done_t *completed;  /* CTAs completed, not yet popped */
    unsigned ncompleted;
    sm_sched_t *scheds;        /* per scheduler: its policy and its
                                  cached view (core/sm_ready.h) */
    scoreboard_t sb;
    opc_t opc;
    pipes_t pipes;
    ldst_t ldst;
    sm_inst_t *insts;
    unsigned ninsts;
    uint32_t *free_insts;      /* stack of free instruction records */
    unsigned nfree_insts;
    unsigned live_warps;       /* resident warps not yet finished */
    unsigned need_fetch;       /* live warps with an empty buffer */
    uint64_t *fetch_mask;      /* bit i: slot i is one of them (live, empty
                                  buffer, no fetch outstanding), so the
                                  fetch stage finds the next by bit scan */
    uint8_t check_ctas;        /* a warp finished: look for done CTAs */
    /* The issue stage's last cycle: every scheduler skipped (clean, past
     * free_at, no event awaiting its clock) and issued nothing; until a
     * touch, an event or an arrival (sm_ready_touch, sm_ready_event,
     * which clear it) each cycle repeats it exactly, so it only adds its
     * counts: the cycle's class, held/waiting for idle_cycles and
     * mem_wait_cycles, and under Scratchpad Sharing the lock's waiters
     * (sm_share_t.lock_blocked: no refresh, so no change).  Never set in
     * the check build (which looks at every scheduler every cycle). */
    uint8_t issue_same, same_cls, same_held, same_waiting;
    unsigned fetch_rr;
    cache_t icache;
    fill_queue_t ifills;       /* instruction-cache lines coming back */
    uint64_t next_age;
    const void *last_kernel;   /* the kernel whose CTA came last (the
                                  schedulers reset when a different one
                                  arrives at an empty SM) */
    uint64_t last_progress;    /* last cycle something issued or retired */
    unsigned active_limit;     /* CTAs that may issue, oldest placed first
                                  (UINT_MAX: all); the younger are paused */
    unsigned npaused;          /* resident CTAs paused */
    uint64_t next_cta_seq;
    sm_share_t share;          /* Scratchpad Sharing (core/sm_share.h) */
    sm_stats_t stats;
    /* a cycle's effects on the kernels' shared counters, until sm_commit
     * (at most one entry per CTA slot); kd_at: the last cycle sm_cycle
     * ran, plus one (0: none), whose entries kd holds.  The SM resets
     * them when its next cycle starts: sm_commit, on the timing loop's
     * thread, only reads, so the lines an SM writes while it steps do
     * not move to that thread's core and back every cycle. */
    sm_kdelta_t *kd;
    unsigned nkd;
    uint64_t kd_at;
    /* execution's counters (exec_ctx_t.stats; the fields exec_stats_move
     * names): xstats the last cycle's (kd_at), xrun the earlier cycles'
     * of this run, folded in by the SM itself when a cycle starts; they
     * reach the launches' statistics when the run ends (sm_take_xstats) */
    simt_stats_t xstats, xrun;
    /* asleep (sm_doze): wake_at > 0, the first cycle it must step again
     * (UINT64_MAX: only when woken); the cycles from asleep_from on are
     * not stepped and not yet credited (sm_settle).  past: the cycles
     * before it have had their sm_step (a change at cycle past - 1 comes
     * after that cycle's step, so it is first seen at past) */
    uint64_t wake_at, asleep_from, past;
} sm_t;

/* NULL, or what is wrong. */
const char *sm_init(sm_t *s, unsigned id, const sm_cfg_t *cfg);
void sm_free(sm_t *s);

/* Whether one more CTA of `k` fits in what its resident CTAs (of any
 * kernel) leave: a CTA slot, warp slots, threads, registers and a
 * contiguous range of scratchpad.  For CTAs of one kernel this is the
 * occupancy limit of gpu/occupancy.h. */
int sm_can_take_cta(const sm_t *s, const sm_kernel_t *k);

/* Whether n more CTAs of `k` fit at once (n = 1: sm_can_take_cta). */
int sm_can_take_ctas(const sm_t *s, const sm_kernel_t *k, unsigned n);

/* CTAs of `k` an empty SM of configuration `c` holds (its T_max). */
unsigned sm_max_ctas_of(const sm_cfg_t *c, const sm_kernel_t *k);

/* The warp-instructions issued so far by each resident CTA of `k`, into
 * out[0..max): how many CTAs. */
unsigned sm_cta_issued(const sm_t *s, const sm_kernel_t *k, uint64_t *out,
                       unsigned max);

/* Places CTA `ctaid` of `k` (sm_can_take_cta must hold); SIMT_OK or an
 * error status. */
int sm_add_cta(sm_t *s, sm_kernel_t *k, const uint32_t ctaid[3],
               uint64_t now);

/* Lets only the n CTAs placed longest ago issue; the warps of younger
 * resident CTAs are paused (the paused issue gate, core/sm_ready.h) until
 * the limit rises or older CTAs complete (DYNCTA's CTA pausing: the most
 * recently assigned CTA is paused first).  UINT_MAX pauses none. */
void sm_set_active_limit(sm_t *s, unsigned n, uint64_t now);

/* The SM's idle and memory-wait cycles before cycle `now` (sm_stats_t),
 * for CTA policies (gpu/cta_policy.h, the query counters). */
void sm_wait_cycles(sm_t *s, uint64_t now, uint64_t *idle, uint64_t *mem);

/* Places CTAs `lo` and `hi` of `k` as a pair (sm_can_take_ctas(.., 2)
 * must hold): each knows the other (the SCA scheduler's block), and warp i
 * of `hi` goes to a warp slot of the same scheduler as warp i of `lo`
 * where one is free (slot i belongs to scheduler i mod N), so that an SCA
 * group never spans two schedulers (docs/cta-scheduling.md). */
int sm_add_cta_pair(sm_t *s, sm_kernel_t *k, const uint32_t lo[3],
                    const uint32_t hi[3], uint64_t now);

/* One core cycle.  SIMT_OK, or SIMT_EFAULT after a kernel fault.  Adds the
 * CTAs it completed to *done.  It writes only the SM's own state (and,
 * through exec_order_t, device memory and the launch's printf buffer and
 * error); sm_commit publishes the rest. */
int sm_cycle(sm_t *s, uint64_t now, unsigned *done);

/* Adds what cycle `now` did to its kernels' shared counters
 * (sm_kernel_t), if sm_cycle ran in it.  The timing loop calls it for
 * every SM after its cycle, in SM order, before the dispatcher hears of
 * the SM's completed CTAs; until then nothing outside the SM changed
 * (exec_order_t aside).  It writes nothing of the SM. */
void sm_commit(const sm_t *s, uint64_t now);

/* Execution's counters of this run so far (xrun and xstats), for a
 * reader between cycles: the statistics are theirs plus `st`'s. */
uint64_t sm_run_thread_insns(const sm_t *s);
uint64_t sm_run_warp_insns(const sm_t *s);

/* At the end of the run: moves execution's counters into `st` (the
 * launches' statistics), those of the SM's last cycle only if `last`.
 * The timing loop leaves out the last cycle of an SM above one that
 * faulted in that cycle: it stepped beside it on another host thread,
 * and with one thread it would not have stepped. */
void sm_take_xstats(sm_t *s, simt_stats_t *st, int last);

/* The idle-cycle skip (gpu/timing.c, docs/timing-model.md "Skipping idle
 * cycles").  An SM is quiescent at `now` when sm_cycle(now) would change
 * nothing but its per-cycle counters: no CTA resident, or no CTA to check
 * for completion, no collector unit in use except memory instructions
 * with their operands read waiting for room in a full LD/ST queue,
 * nothing queued in the LD/ST unit or its queue parked on an L1 refusal
 * or on a full outbox (ldst_parked: each cycle only counts the retry),
 * no warp to fetch for, no lock-table cycle open (Scratchpad Sharing),
 * and every scheduler
 * clean (nothing its warps depend on changed since it last found no
 * warp), with no policy event pending and past its issue interval, so
 * that it takes the path of issue() that only counts its cached stall
 * reason and clocks no unit.  Then nothing changes until the first timed
 * event: a pipeline result, an LD/ST completion, a line arriving from a
 * fill queue (or from the hierarchy: the memory system's events).
 *
 * sm_idle_until: `now` when the SM is not quiescent, else the first cycle
 * (> now, UINT64_MAX: none) an event of its own can end that; a lower
 * bound (waking early only steps a quiescent cycle).
 * sm_idle_cycles: counts n quiescent cycles exactly as n calls of
 * sm_cycle would (sm_idle_until(now) > now + n - 1 must hold). */
uint64_t sm_idle_until(const sm_t *s, uint64_t now);
void sm_idle_cycles(sm_t *s, uint64_t n);

/* A quiescent SM asleep (docs/timing-model.md, "Quiescent SMs asleep").
 * With cfg.sleep, an SM found quiescent at the start of a cycle is not
 * stepped until its own next event (sm_idle_until) or until something
 * outside it changes it; its per-cycle counters are credited in bulk
 * when it wakes or is settled.  Every change from outside the SM wakes it
 * first, with the core cycle the change happens in: an instruction line
 * from the hierarchy (memsys deliver; the LD/ST unit's replies go through
 * sm_ldst_reply_begin, below), a request leaving its outbox (memsys
 * send_requests), a CTA placed (sm_add_cta, sm_add_cta_pair) and a new
 * active-CTA limit (sm_set_active_limit) wake it themselves; whoever
 * reads its statistics during the run settles it first
 * (sm_wait_cycles; the run's end).
 *
 * sm_doze: at the start of cycle `now`, 1 when the SM is asleep through
 * `now` (it falls asleep here when quiescent), 0 when it must step.
 * sm_step: cycle `now` of the timing loop: sm_cycle unless sm_doze.
 * sm_settle: credits the cycles it slept that are over by a change at
 * `now` (before `now`, or through `now` when its step at `now` has
 * passed); it stays asleep.
 * sm_wake: sm_settle, and it steps at the first cycle that sees the
 * change. */
int sm_doze(sm_t *s, uint64_t now);
int sm_step_awake(sm_t *s, uint64_t now, unsigned *done);
static inline int sm_step(sm_t *s, uint64_t now, unsigned *done)
{
    if (now < s->wake_at) { /* asleep through now (inline: most calls) */
        s->past = now + 1;
        return SIMT_OK;
    }
    return sm_step_awake(s, now, done);
}
void sm_settle(sm_t *s, uint64_t now);
static inline void sm_wake(sm_t *s, uint64_t now)
{
    if (s->wake_at) {
        sm_settle(s, now);
        if (s->asleep_from < s->wake_at)
            s->wake_at = s->asleep_from;
    }
}

/* A reply from the hierarchy for the LD/ST unit at core cycle `now` (a
 * data, constant or texture line, or a write's acknowledgement; l1_line:
 * it is L1 data line `line`): sm_ldst_reply_begin before the unit takes
 * it, sm_ldst_reply_end with its result after.  An SM asleep stays asleep
 * when the reply can change neither what its slept cycles count
 * (sm_idle_cycles) nor its being quiescent (sm_idle_until): unless it is
 * an L1 line that ends the refusal of its LD/ST queue's head
 * (ldst_fill_unblocks; the parked cycles count the refusal), a reply only
 * brings an instruction's completion forward, so the wake-up
 * moves to that (ldst_next_event) and the slept cycles are credited when
 * it wakes, as if it had been woken and had fallen asleep again at once.
 * Otherwise the SM is woken (sm_wake).  Cheaper than a wake: a
 * saturated memory side replies to an SM about every cycle. */
int sm_ldst_reply_begin(sm_t *s, uint64_t now, int l1_line, uint64_t line);
void sm_ldst_reply_end(sm_t *s, int asleep);

/* The oldest CTA completion not yet taken (1 and *out), or 0.  Every
 * completion sm_cycle counted in *done is reported once. */
int sm_pop_completed(sm_t *s, sm_cta_done_t *out);

/* An instruction-cache line arriving from the hierarchy at core cycle
 * `now`: the fetch stage of that cycle fills it and the warps waiting for
 * it fetch. */
void sm_icache_line_arrived(sm_t *s, uint64_t line, uint64_t now);

/* Adds the SM's figures to the GPU's statistics (its own, its collector's,
 * its LD/ST unit's and its instruction cache's) and to its own record
 * `rec` (whose id it sets). */
void sm_export_stats(const sm_t *s, simt_stats_t *st, simt_sm_stats_t *rec);

/* One line about the warp in `slot` for a deadlock report: its CTA, warp,
 * PC, PTX line, lanes and what it waits for.  0 when the slot holds no
 * unfinished warp. */
int sm_describe_warp(const sm_t *s, unsigned slot, char *buf, size_t size);

#endif
