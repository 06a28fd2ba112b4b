/* dram.c: an FR-FCFS DRAM channel with bank and bus timing (dram.h). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/ring.h"
#include "mem/dram.h"

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Entry b of a time array is now v; the minimum stays a lower bound, and
 * exact unless an entry that held it moved later (with ties, any such
 * entry: the rescan finds whether another still holds it). */
static inline void times_set(dram_times_t *t, unsigned b, uint64_t v)
{
    uint64_t old = t->at[b];
    t->at[b] = v;
    if (v <= t->min) {
        t->min = v;
        t->stale = 0;
    } else if (old == t->min) {
        t->stale = 1;
    }
}

static inline uint64_t times_min(dram_times_t *t, unsigned banks)
{
    if (t->stale) {
        uint64_t m = UINT64_MAX;
        for (unsigned b = 0; b < banks; b++)
            m = t->at[b] < m ? t->at[b] : m;
        t->min = m;
        t->stale = 0;
    }
    return t->min;
}

/* Bank b's entries of the time arrays (dram.h), after its state changed:
 * its counts, its open row or its timing. */
static void bank_note(dram_t *d, unsigned b)
{
    const dram_bank_t *k = &d->bank[b];
    int misses = k->queued > k->hits; /* requests for another row */
    times_set(&d->pre, b, misses && k->open_row >= 0 && !k->hits ? k->pre_ok : UINT64_MAX);
    times_set(&d->act, b, misses && k->open_row < 0 ? k->act_ok : UINT64_MAX);
    times_set(&d->rd, b, k->hits > k->hits_wr ? k->col_ok : UINT64_MAX);
    times_set(&d->wr, b, k->hits_wr ? k->col_ok : UINT64_MAX);
}

const char *dram_init(dram_t *d, const dram_cfg_t *cfg)
{
    *d = (dram_t){ .cfg = *cfg };
    if (!cfg->banks || !cfg->burst_cycles || !cfg->queue)
        return "DRAM banks, burst and queue must be at least 1";
    d->q = calloc(cfg->queue, sizeof *d->q);
    d->bank = calloc(cfg->banks, sizeof *d->bank);
    d->done = calloc(cfg->queue, sizeof *d->done);
    d->pre.at = calloc(4 * (size_t)cfg->banks, sizeof *d->pre.at);
    if (!d->q || !d->bank || !d->done || !d->pre.at) {
        dram_free(d);
        return "out of memory";
    }
    d->act.at = d->pre.at + cfg->banks;
    d->rd.at = d->act.at + cfg->banks;
    d->wr.at = d->rd.at + cfg->banks;
    d->pre.min = d->act.min = d->rd.min = d->wr.min = UINT64_MAX;
    for (unsigned b = 0; b < cfg->banks; b++) {
        d->bank[b].open_row = -1;
        bank_note(d, b);
    }
    return NULL;
}

void dram_free(dram_t *d)
{
    free(d->q);
    free(d->bank);
    free(d->done);
    free(d->pre.at); /* the four arrays' one block */
    *d = (dram_t){ 0 };
}

/* The channel's own column constraints for a read (write) at `lat` =
 * tCL (tWL): tCCD, tWTR (tRTW) and a free data bus for its burst. */
static inline uint64_t channel_col_at(const dram_t *d, uint64_t dir_ok, unsigned lat)
{
    return max64(max64(d->col_ok, dir_ok), d->bus_free > lat ? d->bus_free - lat : 0);
}

/* The first cycle at which request r could issue a command, the state
 * staying as it is (it changes only by issuing or by a new request), or
 * UINT64_MAX while it waits for another request's command.  Each
 * constraint of a column command and of open_row_for is a "not before"
 * time. */
static inline uint64_t earliest_for(const dram_t *d, const dram_req_t *r)
{
    const dram_bank_t *b = &d->bank[r->bank];
    if (b->open_row == (int64_t)r->row)
        return max64(b->col_ok, r->write ? channel_col_at(d, d->wr_ok, d->cfg.tWL)
                                         : channel_col_at(d, d->rd_ok, d->cfg.tCL));
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
    bank_note(d, bank);
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
    bank_note(d, r->bank);
    d->stats.bus_busy += r->burst;
    record(d, now, r->write ? DRAM_WR : DRAM_RD, r->bank, r->row);
    *(r->opened ? &d->stats.row_misses : &d->stats.row_hits) += 1;
    d->done[ring_slot(d->done_head, d->done_count++, c->queue)] =
        (dram_done_t){ r->tag, end };
    memmove(&d->q[i], &d->q[i + 1], (d->nq - i - 1) * sizeof *d->q); /* arrival order */
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
        bank_note(d, r->bank);
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
    bank_note(d, r->bank);
    d->stats.acts++;
    record(d, now, DRAM_ACT, r->bank, r->row);
    return 1;
}

/* The first cycles at which one of the requests the scheduler looks at
 * could issue a column command, and a PRE or ACT, the state staying as it
 * is (dram_cycle skips the cycles before), but not before `from`: exact
 * lower bounds, so that a wake-up finds a command to issue. */
static void earliest_commands(dram_t *d, uint64_t from)
{
    uint64_t col = UINT64_MAX, open = UINT64_MAX;
    if (!d->cfg.fifo) {
        /* FR-FCFS: a request that misses the open row waits for its bank
         * alone (earliest_for) and, for an ACT, tRRD; a row hit's column
         * command for its bank, the channel and its direction */
        unsigned n = d->cfg.banks;
        uint64_t pre = times_min(&d->pre, n), act = times_min(&d->act, n);
        uint64_t rd = times_min(&d->rd, n), wr = times_min(&d->wr, n);
        act = max64(act, d->act_ok);
        open = pre < act ? pre : act;
        rd = max64(rd, channel_col_at(d, d->rd_ok, d->cfg.tCL));
        wr = max64(wr, channel_col_at(d, d->wr_ok, d->cfg.tWL));
        col = rd < wr ? rd : wr;
    } else if (d->nq) {
        const dram_req_t *r = &d->q[0]; /* FIFO: only the oldest */
        uint64_t at = earliest_for(d, r);
        if (d->bank[r->bank].open_row == (int64_t)r->row)
            col = at;
        else
            open = at;
    }
    d->col_wake = max64(col, from);
    d->open_wake = max64(open, from);
}

/* FIFO: only the oldest request, its column command or the PRE or ACT
 * for its row. */
static void fifo_cycle(dram_t *d, uint64_t now)
{
    const dram_req_t *r = &d->q[0];
    if (d->bank[r->bank].open_row == (int64_t)r->row && now >= earliest_for(d, r))
        issue_col(d, 0, now); /* its column command */
    else if (!open_row_for(d, &d->q[0], now)) {
        earliest_commands(d, now + 1); /* nothing could go: sleep */
        return;
    }
    d->col_wake = d->open_wake = now + 1; /* the head changed or moved on */
}

/* FR-FCFS: the oldest row hit whose column command can go now; else the
 * oldest request whose bank can make progress (a PRE or an ACT; a row
 * stays open while a queued request hits it).  A request's bank times say
 * whether it can go, and the wake-ups (exact after every command) keep
 * the cycles in which nothing can from looking at the queue at all. */
static void frfcfs_cycle(dram_t *d, uint64_t now)
{
    const dram_cfg_t *c = &d->cfg;
    int col = d->hits && now >= d->col_wake;
    int rd_ok = col && now >= channel_col_at(d, d->rd_ok, c->tCL);
    int wr_ok = col && now >= channel_col_at(d, d->wr_ok, c->tWL);
    for (unsigned i = 0; (rd_ok || wr_ok) && i < d->nq; i++) {
        const dram_req_t *r = &d->q[i];
        int ok = r->write ? wr_ok && d->wr.at[r->bank] <= now
                          : rd_ok && d->rd.at[r->bank] <= now;
        if (ok && d->bank[r->bank].open_row == (int64_t)r->row) {
            issue_col(d, i, now);
            earliest_commands(d, now + 1);
            return;
        }
    }
    /* a bank with a PRE or ACT time holds only requests for other rows */
    int act_ok = now >= d->act_ok;
    for (unsigned i = 0; now >= d->open_wake && i < d->nq; i++) {
        dram_req_t *r = &d->q[i];
        if (d->pre.at[r->bank] <= now || (act_ok && d->act.at[r->bank] <= now)) {
            int issued = open_row_for(d, r, now);
            assert(issued); /* the bank could go */
            (void)issued;
            break;
        }
    }
    earliest_commands(d, now + 1); /* after a command, or to sleep */
}

void dram_cycle(dram_t *d, uint64_t now)
{
    if (!d->nq || (now < d->col_wake && now < d->open_wake))
        return;
    if (d->cfg.fifo)
        fifo_cycle(d, now);
    else
        frfcfs_cycle(d, now);
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
    d->done_head = ring_next(d->done_head, d->cfg.queue);
    d->done_count--;
    return 1;
}
