/* dram.h: one DRAM channel: a request queue, an FR-FCFS (or FIFO)
 * scheduler, banks with open rows and GDDR timing.
 *
 * A request reads or writes one burst of `burst_cycles` data-bus cycles
 * (a cache line) in one bank and row (mem/addrmap.h decodes them from the
 * address).
 * Each cycle at most one command issues.  FR-FCFS picks the oldest request
 * whose row is open in its bank and whose column command may issue now
 * (a row hit); otherwise it works for the oldest request whose bank can
 * make progress: PRE when another row is open (unless a queued request
 * still hits that row), ACT when the bank is closed.  FIFO serves only the oldest request.  Rows stay open after
 * use (open-page policy).  The commands obey (in DRAM cycles)
 *   ACT->RD/WR tRCD, ACT->PRE tRAS, PRE->ACT tRP, ACT->ACT same bank tRC,
 *   ACT->ACT any bank tRRD, RD/WR->RD/WR tCCD, end of write data->RD tWTR,
 *   RD->WR tRTW,
 * and a column command needs the data bus free for its burst.  Read data
 * occupies the bus from RD + tCL; write data from WR + tWL; a request
 * completes when its burst ends. */
#ifndef MEM_DRAM_H
#define MEM_DRAM_H

#include <stdint.h>

typedef struct dram_cfg {
    unsigned banks;
    unsigned burst_cycles;     /* data-bus cycles per request */
    unsigned tCL, tWL, tRCD, tRAS, tRP, tRC, tRRD, tCCD, tWTR, tRTW;
    unsigned queue;            /* requests waiting */
    int fifo;                  /* 1: FIFO, 0: FR-FCFS */
} dram_cfg_t;

typedef enum dram_cmd { DRAM_ACT, DRAM_PRE, DRAM_RD, DRAM_WR } dram_cmd_t;

/* One issued command, for tests and traces. */
typedef struct dram_trace {
    uint64_t cycle;
    uint8_t cmd;               /* dram_cmd_t */
    uint32_t bank, row;
} dram_trace_t;

typedef struct dram_stats {
    uint64_t reads, writes, row_hits, row_misses;
    uint64_t acts, pres;
    uint64_t bus_busy;         /* data-bus cycles moving data */
} dram_stats_t;

typedef struct dram_req {
    uint32_t tag;
    uint8_t write;
    uint8_t opened;            /* its row was opened for it: a row miss */
    uint16_t burst;            /* data-bus cycles */
    uint32_t bank, row;
} dram_req_t;

typedef struct dram_bank {
    int64_t open_row;          /* -1: closed */
    uint64_t act_at, pre_ok, act_ok, col_ok;
    unsigned hits;             /* queued requests that hit the open row
                                  (kept as requests come, go and rows
                                  open, not recounted each cycle) */
    unsigned hits_wr;          /* of the hits, writes */
    unsigned queued;           /* queued requests for the bank: those
                                  beyond `hits` want a PRE or an ACT */
} dram_bank_t;

typedef struct dram_done {
    uint32_t tag;
    uint64_t at;
} dram_done_t;

/* One per-bank time array and its least entry, kept as entries change:
 * `min` is at most every entry and, unless `stale`, equals one of them;
 * an entry that held the minimum moving later makes it stale, and the
 * next read of the minimum looks at every bank again (dram.c, times_set
 * and times_min). */
typedef struct dram_times {
    uint64_t *at;
    uint64_t min;
    int stale;
} dram_times_t;

typedef struct dram {
    dram_cfg_t cfg;
    dram_req_t *q;             /* waiting requests, oldest first */
    unsigned nq;
    dram_bank_t *bank;
    uint64_t act_ok;           /* tRRD */
    uint64_t col_ok;           /* tCCD */
    uint64_t rd_ok, wr_ok;     /* tWTR, tRTW */
    uint64_t bus_free;         /* first cycle the data bus is free */
    uint64_t col_wake;         /* no column command can go before */
    uint64_t open_wake;        /* no PRE or ACT can go before (0: look);
                                  each a lower bound kept as commands
                                  issue and requests arrive, so a cycle
                                  skips the scan it cannot need */
    unsigned hits;             /* the banks' hits together: 0, no column
                                  command can go */
    /* Per bank, the first cycle at which a command of each kind could go
     * for it as far as the bank alone is concerned (UINT64_MAX: none can),
     * kept by bank_note() whenever the bank's state changes, so that a
     * cycle reads a bank's four times instead of its record, and finds
     * the next wake-up from four minima instead of every bank:
     *   pre  a PRE: open, without row hits (FR-FCFS holds a row open while
     *        a queued request hits it), requests for other rows;
     *   act  an ACT: closed, requests queued (the channel's tRRD, act_ok,
     *        applies on top);
     *   rd   a read's column command: queued reads hit the open row (the
     *        channel's column constraints apply on top);
     *   wr   a write's, the same. */
    dram_times_t pre, act, rd, wr;
    dram_done_t *done;         /* completions, in time order */
    unsigned done_head, done_count;
    dram_trace_t *trace;       /* optional: the caller's buffer */
    unsigned trace_cap, trace_len;
    dram_stats_t stats;
} dram_t;

const char *dram_init(dram_t *d, const dram_cfg_t *cfg);
void dram_free(dram_t *d);

int dram_can_accept(const dram_t *d);
/* Queues a request for row `row` of bank `bank` under the caller's `tag`:
 * a burst of `burst_cycles`, or of `burst` cycles (a part of a line: a
 * sectored L2's sectors). */
void dram_push(dram_t *d, uint32_t tag, uint32_t bank, uint32_t row, int write);
void dram_push_sized(dram_t *d, uint32_t tag, uint32_t bank, uint32_t row, int write,
                     unsigned burst);

/* One DRAM cycle: at most one command. */
void dram_cycle(dram_t *d, uint64_t now);

/* A request completed by `now`: 1 and its tag, or 0. */
int dram_pop_done(dram_t *d, uint64_t now, uint32_t *tag);

/* For the idle-cycle skip (gpu/timing.c): the first cycle at which
 * dram_cycle or dram_pop_done can do anything (UINT64_MAX: never without
 * a new request): the channel's wake-ups while requests are queued (no
 * command goes before them, and a cycle before both returns at once) and
 * the first completion. */
uint64_t dram_next_event(const dram_t *d);

#endif
