/* dram.c: an FR-FCFS DRAM channel with bank and bus timing (dram.h). */
#include <assert.h>
#include <stdlib.h>

#include "mem/dram.h"

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

const char *dram_init(dram_t *d, const dram_cfg_t *cfg)
{
    *d = (dram_t){ .cfg = *cfg };
    if (!cfg->banks || !cfg->burst_cycles || !cfg->queue)
        return "DRAM banks, burst and queue must be at least 1";
    d->q = calloc(cfg->queue, sizeof *d->q);
    d->bank = calloc(cfg->banks, sizeof *d->bank);
    d->done = calloc(cfg->queue, sizeof *d->done);
    if (!d->q || !d->bank || !d->done) {
        dram_free(d);
        return "out of memory";
    }
    for (unsigned b = 0; b < cfg->banks; b++)
        d->bank[b].open_row = -1;
    return NULL;
}

void dram_free(dram_t *d)
{
    free(d->q);
    free(d->bank);
    free(d->done);
    *d = (dram_t){ 0 };
}

/* The first cycle at which request r could issue a command, the state
 * staying as it is (it changes only by issuing or by a new request), or
 * UINT64_MAX while it waits for another request's command.  Each
 * constraint of col_ready and open_row_for is a "not before" time. */
static inline uint64_t earliest_for(const dram_t *d, const dram_req_t *r)
{
    const dram_bank_t *b = &d->bank[r->bank];
    if (b->open_row == (int64_t)r->row) {
        unsigned lat = r->write ? d->cfg.tWL : d->cfg.tCL;
        uint64_t at = max64(max64(b->col_ok, d->col_ok), r->write ? d->wr_ok : d->rd_ok);
        return max64(at, d->bus_free > lat ? d->bus_free - lat : 0);
    }
    if (b->open_row >= 0) {
        if (!d->cfg.fifo && b->hits)
            return UINT64_MAX; /* waits for the row hits, which are counted */
        return b->pre_ok;
    }
    return max64(b->act_ok, d->act_ok);
}

int dram_can_accept(const dram_t *d)
{
    return d->nq + d->done_count < d->cfg.queue;
}

void dram_push_sized(dram_t *d, uint32_t tag, uint32_t bank, uint32_t row, int write,
                     unsigned burst)
{
    d->q[d->nq++] = (dram_req_t){ .tag = tag, .write = (uint8_t)write,
                                  .bank = bank, .row = row, .burst = (uint16_t)burst };
    d->bank[bank].queued++;
    if (d->bank[bank].open_row == (int64_t)row) {
        d->bank[bank].hits++;
        d->bank[bank].hits_wr += write != 0;
        d->hits++;
    }
    /* a new request makes no other earlier (its row hit can only hold a
     * precharge back): a wake-up comes forward to its own time; under
     * FIFO it matters only at the head */
    if (d->cfg.fifo) {
        if (d->nq == 1)
            d->col_wake = d->open_wake = 0;
        return;
    }
    uint64_t at = earliest_for(d, &d->q[d->nq - 1]);
    uint64_t *wake = d->bank[bank].open_row == (int64_t)row ? &d->col_wake
                                                           : &d->open_wake;
    *wake = at < *wake ? at : *wake;
}

void dram_push(dram_t *d, uint32_t tag, uint32_t bank, uint32_t row, int write)
{
    dram_push_sized(d, tag, bank, row, write, d->cfg.burst_cycles);
}

static void record(dram_t *d, uint64_t now, dram_cmd_t c, uint32_t bank,
                   uint32_t row)
{
    if (d->trace && d->trace_len < d->trace_cap)
        d->trace[d->trace_len++] = (dram_trace_t){ now, (uint8_t)c, bank, row };
}

/* Whether request r's column command may issue at `now`. */
static int col_ready(const dram_t *d, const dram_req_t *r, uint64_t now)
{
    const dram_bank_t *b = &d->bank[r->bank];
    if (b->open_row != (int64_t)r->row || now < b->col_ok || now < d->col_ok)
        return 0;
    if (now < (r->write ? d->wr_ok : d->rd_ok))
        return 0;
    uint64_t data = now + (r->write ? d->cfg.tWL : d->cfg.tCL);
    return data >= d->bus_free;
}

static void issue_col(dram_t *d, unsigned i, uint64_t now)
{
    dram_req_t *r = &d->q[i];
    dram_bank_t *b = &d->bank[r->bank];
    const dram_cfg_t *c = &d->cfg;
    uint64_t start = now + (r->write ? c->tWL : c->tCL);
    uint64_t end = start + r->burst;
    d->bus_free = end;
    d->col_ok = now + c->tCCD;
    if (r->write) {
        d->rd_ok = max64(d->rd_ok, end + c->tWTR);
        d->stats.writes++;
    } else {
        d->wr_ok = max64(d->wr_ok, now + c->tRTW);
        d->stats.reads++;
    }
    b->pre_ok = max64(b->pre_ok, end);
    b->hits--; /* r hit the open row */
    b->hits_wr -= r->write;
    b->queued--;
    d->hits--;
    d->stats.bus_busy += r->burst;
    record(d, now, r->write ? DRAM_WR : DRAM_RD, r->bank, r->row);
    *(r->opened ? &d->stats.row_misses : &d->stats.row_hits) += 1;
    d->done[(d->done_head + d->done_count++) % c->queue] =
        (dram_done_t){ r->tag, end };
    for (unsigned k = i + 1; k < d->nq; k++) /* keep arrival order */
        d->q[k - 1] = d->q[k];
    d->nq--;
}


/* Works for request r's row: PRE or ACT if allowed now; 1 if issued. */
static int open_row_for(dram_t *d, dram_req_t *r, uint64_t now)
{
    dram_bank_t *b = &d->bank[r->bank];
    const dram_cfg_t *c = &d->cfg;
    if (b->open_row == (int64_t)r->row)
        return 0;
    if (b->open_row >= 0) {
        if (now < b->pre_ok || (!c->fifo && b->hits))
            return 0;
        b->open_row = -1;
        d->hits -= b->hits;
        b->hits = b->hits_wr = 0;
        b->act_ok = max64(b->act_ok, now + c->tRP);
        r->opened = 1;
        d->stats.pres++;
        record(d, now, DRAM_PRE, r->bank, r->row);
        return 1;
    }
    if (now < b->act_ok || now < d->act_ok)
        return 0;
    b->open_row = r->row; /* the bank was closed: it held no hits */
    for (unsigned i = 0; i < d->nq; i++) {
        unsigned hit = d->q[i].bank == r->bank && d->q[i].row == r->row;
        b->hits += hit;
        b->hits_wr += hit && d->q[i].write;
    }
    d->hits += b->hits;
    b->act_at = now;
    r->opened = 1;
    b->col_ok = now + c->tRCD;
    b->pre_ok = now + c->tRAS;
    b->act_ok = now + c->tRC;
    d->act_ok = now + c->tRRD;
    d->stats.acts++;
    record(d, now, DRAM_ACT, r->bank, r->row);
    return 1;
}

/* The first cycles at which one of the requests the scheduler looks at
 * could issue a column command, and a PRE or ACT (dram_cycle skips the
 * cycles before). */
static void earliest_commands(dram_t *d)
{
    unsigned n = d->cfg.fifo ? (d->nq > 0) : d->nq;
    uint64_t col = UINT64_MAX, open = UINT64_MAX;
    if (!d->cfg.fifo) {
        /* FR-FCFS: a request that misses the open row waits for its
         * bank alone (earliest_for), so the PRE/ACT side is one figure per
         * bank with such a request; the column side only looks at hits */
        for (unsigned b = 0; b < d->cfg.banks; b++) {
            const dram_bank_t *k = &d->bank[b];
            if (k->queued == k->hits || (k->open_row >= 0 && k->hits))
                continue; /* no request wants its row opened, or it waits */
            uint64_t at = k->open_row >= 0 ? k->pre_ok : max64(k->act_ok, d->act_ok);
            open = at < open ? at : open;
        }
        /* and a row hit's column command waits for its bank, the channel
         * and whether it reads or writes (earliest_for): per bank, the
         * earliest of its reads and of its writes */
        for (unsigned b = 0; d->hits && b < d->cfg.banks; b++) {
            const dram_bank_t *k = &d->bank[b];
            if (!k->hits)
                continue;
            uint64_t base = max64(k->col_ok, d->col_ok);
            if (k->hits > k->hits_wr) {
                uint64_t at = max64(max64(base, d->rd_ok),
                                    d->bus_free > d->cfg.tCL ? d->bus_free - d->cfg.tCL : 0);
                col = at < col ? at : col;
            }
            if (k->hits_wr) {
                uint64_t at = max64(max64(base, d->wr_ok),
                                    d->bus_free > d->cfg.tWL ? d->bus_free - d->cfg.tWL : 0);
                col = at < col ? at : col;
            }
        }
        d->col_wake = col;
        d->open_wake = open;
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        const dram_req_t *r = &d->q[i];
        uint64_t at = earliest_for(d, r);
        if (d->bank[r->bank].open_row == (int64_t)r->row)
            col = at < col ? at : col;
        else
            open = at < open ? at : open;
    }
    d->col_wake = col;
    d->open_wake = open;
}

/* After command `cmd` on bank b at `now`, lower bounds that stay true
 * (FR-FCFS; under FIFO the head changes, so both look next cycle).  A
 * column command moves the channel-wide column constraints (every column
 * command waits for them) and, leaving the bank without row hits, may let
 * its precharge go; a PRE or ACT may be followed by another next cycle,
 * and an ACT's row hits can go tRCD later. */
static void after_command(dram_t *d, dram_cmd_t cmd, const dram_bank_t *b,
                          uint64_t now)
{
    if (d->cfg.fifo) {
        d->col_wake = d->open_wake = now + 1;
        return;
    }
    if (cmd == DRAM_RD || cmd == DRAM_WR) {
        unsigned lat = d->cfg.tWL > d->cfg.tCL ? d->cfg.tWL : d->cfg.tCL;
        uint64_t at = max64(max64(d->col_ok, d->rd_ok < d->wr_ok ? d->rd_ok : d->wr_ok),
                            d->bus_free > lat ? d->bus_free - lat : 0);
        d->col_wake = max64(at, now + 1);
        if (!b->hits && b->pre_ok < d->open_wake)
            d->open_wake = max64(b->pre_ok, now + 1);
        return;
    }
    d->open_wake = now + 1;
    if (cmd == DRAM_ACT && b->col_ok < d->col_wake)
        d->col_wake = b->col_ok;
}

void dram_cycle(dram_t *d, uint64_t now)
{
    if (!d->nq || (now < d->col_wake && now < d->open_wake))
        return;
    unsigned n = d->cfg.fifo ? 1 : d->nq;
    /* first ready: the oldest row hit whose column command can go now;
     * the channel-wide constraints of col_ready first, so that a cycle in
     * which no column command can go does not look at each request */
    unsigned lat = d->cfg.tWL > d->cfg.tCL ? d->cfg.tWL : d->cfg.tCL;
    int col_possible = d->hits && now >= d->col_wake && now >= d->col_ok &&
                       now + lat >= d->bus_free &&
                       (now >= d->rd_ok || now >= d->wr_ok);
    for (unsigned i = 0; col_possible && i < n; i++)
        if (col_ready(d, &d->q[i], now)) {
            const dram_bank_t *b = &d->bank[d->q[i].bank];
            dram_cmd_t cmd = d->q[i].write ? DRAM_WR : DRAM_RD;
            issue_col(d, i, now);
            after_command(d, cmd, b, now);
            return;
        }
    /* else the oldest request whose bank can make progress (FR-FCFS
     * keeps a row open while a queued request still hits it) */
    if (!d->cfg.fifo && d->cfg.banks <= 64) {
        /* FR-FCFS: whether a PRE or ACT can go for a request depends on
         * its bank alone (a bank left without row hits holds only
         * requests for other rows), so the scan looks for the oldest
         * request of a bank that can go now */
        uint64_t ready = 0;
        for (unsigned b = 0; now >= d->open_wake && b < d->cfg.banks; b++) {
            const dram_bank_t *k = &d->bank[b];
            int ok = k->queued > k->hits &&
                     (k->open_row >= 0 ? !k->hits && now >= k->pre_ok
                                       : now >= k->act_ok && now >= d->act_ok);
            ready |= (uint64_t)ok << b;
        }
        for (unsigned i = 0; ready && i < n; i++) {
            if (!(ready >> d->q[i].bank & 1))
                continue;
            const dram_bank_t *b = &d->bank[d->q[i].bank];
            int was_open = b->open_row >= 0;
            int issued = open_row_for(d, &d->q[i], now);
            assert(issued); /* the bank could go */
            (void)issued;
            after_command(d, was_open ? DRAM_PRE : DRAM_ACT, b, now);
            return;
        }
        earliest_commands(d);
        return;
    }
    for (unsigned i = 0; now >= d->open_wake && i < n; i++) {
        const dram_bank_t *b = &d->bank[d->q[i].bank];
        int was_open = b->open_row >= 0;
        if (open_row_for(d, &d->q[i], now)) {
            after_command(d, was_open ? DRAM_PRE : DRAM_ACT, b, now);
            return;
        }
    }
    /* nothing could go: sleep until something can */
    earliest_commands(d);
}

uint64_t dram_next_event(const dram_t *d)
{
    uint64_t t = UINT64_MAX;
    if (d->nq)
        t = d->col_wake < d->open_wake ? d->col_wake : d->open_wake;
    if (d->done_count && d->done[d->done_head].at < t)
        t = d->done[d->done_head].at;
    return t;
}

int dram_pop_done(dram_t *d, uint64_t now, uint32_t *tag)
{
    if (!d->done_count || d->done[d->done_head].at > now)
        return 0;
    *tag = d->done[d->done_head].tag;
    d->done_head = (d->done_head + 1) % d->cfg.queue;
    d->done_count--;
    return 1;
}
