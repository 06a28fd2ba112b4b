/* dram.c: an FR-FCFS DRAM channel with bank and bus timing (dram.h). */
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

void dram_push(dram_t *d, uint32_t tag, uint32_t bank, uint32_t row, int write)
{
    d->q[d->nq++] = (dram_req_t){ .tag = tag, .write = (uint8_t)write,
                                  .bank = bank, .row = row };
    if (d->bank[bank].open_row == (int64_t)row) {
        d->bank[bank].hits++;
        d->hits++;
    }
    /* a new request makes no other earlier (its row hit can only hold a
     * precharge back): the wake-up is its own time if that comes first;
     * under FIFO it matters only at the head */
    if (!d->cfg.fifo || d->nq == 1) {
        uint64_t at = d->cfg.fifo ? 0 : earliest_for(d, &d->q[d->nq - 1]);
        d->wake = at < d->wake ? at : d->wake;
    }
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
    uint64_t end = start + c->burst_cycles;
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
    d->hits--;
    d->stats.bus_busy += c->burst_cycles;
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
        b->hits = 0;
        b->act_ok = max64(b->act_ok, now + c->tRP);
        r->opened = 1;
        d->stats.pres++;
        record(d, now, DRAM_PRE, r->bank, r->row);
        return 1;
    }
    if (now < b->act_ok || now < d->act_ok)
        return 0;
    b->open_row = r->row; /* the bank was closed: it held no hits */
    for (unsigned i = 0; i < d->nq; i++)
        b->hits += d->q[i].bank == r->bank && d->q[i].row == r->row;
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

/* The first cycle at which one of the requests the scheduler looks at
 * could issue a command (dram_cycle skips the cycles before). */
static uint64_t earliest_command(const dram_t *d)
{
    unsigned n = d->cfg.fifo ? (d->nq > 0) : d->nq;
    uint64_t t = UINT64_MAX;
    for (unsigned i = 0; i < n; i++) {
        uint64_t at = earliest_for(d, &d->q[i]);
        t = at < t ? at : t;
    }
    return t;
}

void dram_cycle(dram_t *d, uint64_t now)
{
    if (!d->nq || now < d->wake)
        return;
    unsigned n = d->cfg.fifo ? 1 : d->nq;
    /* first ready: the oldest row hit whose column command can go now;
     * the channel-wide constraints of col_ready first, so that a cycle in
     * which no column command can go does not look at each request */
    unsigned lat = d->cfg.tWL > d->cfg.tCL ? d->cfg.tWL : d->cfg.tCL;
    int col_possible = d->hits && now >= d->col_ok && now + lat >= d->bus_free &&
                       (now >= d->rd_ok || now >= d->wr_ok);
    int issued = 0;
    for (unsigned i = 0; col_possible && !issued && i < n; i++)
        if (col_ready(d, &d->q[i], now)) {
            issue_col(d, i, now);
            issued = 1;
        }
    /* else the oldest request whose bank can make progress (FR-FCFS
     * keeps a row open while a queued request still hits it) */
    for (unsigned i = 0; !issued && i < n; i++)
        issued = open_row_for(d, &d->q[i], now);
    /* after a command, look again next cycle (at most one a cycle);
     * after none, sleep until one can go */
    d->wake = issued ? now + 1 : earliest_command(d);
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
