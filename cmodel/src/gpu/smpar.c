/* smpar.c: the SMs of a core cycle on several host threads (smpar.h). */
#define _GNU_SOURCE /* syscall */
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/error.h"
#include "gpu/smpar.h"

/* Pauses of the spin before a thread sleeps (about 10 us: a few SMs'
 * cycles), so that a partner that runs answers within the spin and one
 * that was descheduled costs a sleep, not a time slice of spinning.  A
 * sleeping worker is woken for a new phase at most every WAKE_EVERY
 * phases: on a loaded machine the caller's thread steps the SMs alone
 * rather than pay a wake-up per cycle. */
enum { SPIN = 128, WAKE_EVERY = 64 };

/* One SM's cell, a cache line of its own: written by the thread that steps
 * it, read by the others. */
typedef struct smpar_cell {
    _Atomic uint64_t passed;   /* the last phase whose cycle it finished */
    int rc;                    /* that cycle's status */
    unsigned done;             /* and completed CTAs */
    char pad[64 - sizeof(uint64_t) - 2 * sizeof(int)];
} smpar_cell_t;

/* SM i's exec_order_t: the lower SMs it has seen finish this phase. */
typedef struct smpar_order {
    exec_order_t base;         /* first: the SM's exec_ctx_t points here */
    smpar_t *p;
    unsigned sm;
    unsigned known;            /* SMs 0..known-1 finished this phase */
    int failed;                /* one of them stopped the run */
    uint64_t phase;
} smpar_order_t;

/* A futex word that moves when sleepers must look again, and the count of
 * sleepers. */
typedef struct smpar_event {
    _Atomic uint32_t ev;
    _Atomic unsigned sleepers;
} smpar_event_t;

typedef struct smpar_worker {
    smpar_t *p;
    unsigned t;
    pthread_t tid;
} smpar_worker_t;

struct smpar {
    sm_t *sms;
    unsigned nsms, n;
    unsigned nchunks;          /* claimed units: runs of adjacent SMs */
    smpar_cell_t *cells;
    smpar_order_t *orders;
    smpar_worker_t *workers;   /* threads 1..n-1 */
    unsigned nstarted;
    uint64_t now;              /* the phase's cycle, set before it starts */
    uint64_t phase;            /* the caller's: the current phase */
    uint64_t woken;            /* the phase of the last wake-up */
    /* the phase (high 32 bits) and the next chunk to step in it: a
     * thread claims chunks in index order, whichever thread runs */
    _Atomic uint64_t claim;
    _Atomic unsigned ndone;    /* SMs done in the phase */
    _Atomic int quit;
    smpar_event_t progress;    /* an SM finished (the gate, the phase's end) */
    smpar_event_t start;       /* a phase started (idle workers) */
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* After publishing a change (a seq_cst store or RMW): wakes e's sleepers,
 * if any.  A sleeper counts itself before its last look at the condition,
 * and the publisher looks at the count after its store, so either the
 * sleeper sees the change or the publisher sees the sleeper. */
static void wake(smpar_event_t *e)
{
    atomic_fetch_add(&e->ev, 1);
    syscall(SYS_futex, (uint32_t *)&e->ev, FUTEX_WAKE_PRIVATE, INT32_MAX,
            NULL, NULL, 0);
}

static void notify(smpar_event_t *e)
{
    if (atomic_load(&e->sleepers))
        wake(e);
}

typedef int (*smpar_cond_fn)(smpar_t *p, void *arg);

/* Returns when cond holds: spins a little, then sleeps until event e
 * moves. */
static void await(smpar_t *p, smpar_event_t *e, smpar_cond_fn cond, void *arg)
{
    for (unsigned i = 0; i < SPIN; i++) {
        if (cond(p, arg))
            return;
        cpu_relax();
    }
    for (;;) {
        uint32_t v = atomic_load(&e->ev);
        atomic_fetch_add(&e->sleepers, 1);
        if (cond(p, arg)) {
            atomic_fetch_sub(&e->sleepers, 1);
            return;
        }
        syscall(SYS_futex, (uint32_t *)&e->ev, FUTEX_WAIT_PRIVATE, v, NULL,
                NULL, 0);
        atomic_fetch_sub(&e->sleepers, 1);
    }
}

/* The lower SMs of o have all finished this phase. */
static int lower_done(smpar_t *p, void *arg)
{
    smpar_order_t *o = arg;
    while (o->known < o->sm &&
           atomic_load(&p->cells[o->known].passed) == o->phase) {
        o->failed |= p->cells[o->known].rc != SIMT_OK;
        o->known++;
    }
    return o->known == o->sm;
}

static int order_wait(exec_order_t *base)
{
    smpar_order_t *o = (smpar_order_t *)base;
    if (o->known < o->sm)
        await(o->p, &o->p->progress, lower_done, o);
    return o->failed;
}

/* Steps chunks of `phase` as long as some are unclaimed.  Which thread
 * steps which SM does not change a result (smpar.h), so the threads that
 * happen to run take the chunks in index order, and a descheduled thread
 * holds up the others only while it holds one.  A chunk is a run of
 * adjacent SMs (2 per thread in all), so that claiming, a write to a line
 * every thread reads, is rare next to an SM's cycle (a few hundred ns). */
static void run_claims(smpar_t *p, uint64_t phase)
{
    uint64_t c = atomic_load(&p->claim);
    for (;;) {
        if (c >> 32 != (phase & 0xffffffffu) || (c & 0xffffffffu) >= p->nchunks)
            return; /* another phase, or none left */
        if (!atomic_compare_exchange_weak(&p->claim, &c, c + 1))
            continue; /* c reloaded */
        unsigned k = (unsigned)(c & 0xffffffffu);
        unsigned lo = k * p->nsms / p->nchunks, hi = (k + 1) * p->nsms / p->nchunks;
        for (unsigned i = lo; i < hi; i++) {
            smpar_order_t *o = &p->orders[i];
            smpar_cell_t *cell = &p->cells[i];
            o->known = 0;
            o->failed = 0;
            o->phase = phase;
            cell->done = 0;
            cell->rc = sm_step(&p->sms[i], p->now, &cell->done);
            atomic_store(&cell->passed, phase);
            notify(&p->progress);
        }
        atomic_fetch_add(&p->ndone, hi - lo);
        notify(&p->progress);
        c = atomic_load(&p->claim);
    }
}

static int phase_moved(smpar_t *p, void *arg)
{
    return atomic_load(&p->claim) >> 32 != *(uint64_t *)arg ||
           atomic_load(&p->quit);
}

static void *worker(void *arg)
{
    smpar_worker_t *w = arg;
    smpar_t *p = w->p;
    uint64_t seen = 0;
    for (;;) {
        await(p, &p->start, phase_moved, &seen);
        if (atomic_load(&p->quit))
            return NULL;
        seen = atomic_load(&p->claim) >> 32;
        run_claims(p, seen);
    }
}

static int all_done(smpar_t *p, void *arg)
{
    (void)arg;
    return atomic_load(&p->ndone) == p->nsms;
}

void smpar_cycle(smpar_t *p, uint64_t now)
{
    p->now = now;
    p->phase = (p->phase + 1) & 0xffffffffu;
    atomic_store(&p->ndone, 0);
    atomic_store(&p->claim, p->phase << 32);
    if (atomic_load(&p->start.sleepers) && p->phase - p->woken >= WAKE_EVERY) {
        p->woken = p->phase;
        wake(&p->start);
    }
    run_claims(p, p->phase);
    await(p, &p->progress, all_done, NULL);
}

int smpar_result(const smpar_t *p, unsigned i, unsigned *done)
{
    *done = p->cells[i].done;
    return p->cells[i].rc;
}

const char *smpar_create(smpar_t **out, sm_t *sms, unsigned nsms,
                         unsigned nthreads)
{
    *out = NULL;
    if (nthreads < 2 || nthreads > SMPAR_MAX_THREADS)
        return "the number of threads is out of range";
    smpar_t *p = calloc(1, sizeof *p);
    if (!p)
        return "out of host memory";
    p->sms = sms;
    p->nsms = nsms;
    p->n = nthreads;
    p->nchunks = 2 * nthreads < nsms ? 2 * nthreads : nsms;
    p->cells = aligned_alloc(64, (nsms ? nsms : 1) * sizeof *p->cells);
    p->orders = calloc(nsms ? nsms : 1, sizeof *p->orders);
    p->workers = calloc(nthreads, sizeof *p->workers);
    if (!p->cells || !p->orders || !p->workers) {
        smpar_destroy(p);
        return "out of host memory";
    }
    memset(p->cells, 0, nsms * sizeof *p->cells);
    for (unsigned i = 0; i < nsms; i++) {
        p->orders[i] = (smpar_order_t){ .base = { .wait = order_wait }, .p = p,
                                        .sm = i };
        sms[i].x.order = &p->orders[i].base;
    }
    for (unsigned t = 1; t < nthreads; t++) {
        p->workers[t] = (smpar_worker_t){ .p = p, .t = t };
        if (pthread_create(&p->workers[t].tid, NULL, worker, &p->workers[t])) {
            smpar_destroy(p);
            return "a host thread could not be started";
        }
        p->nstarted = t;
    }
    *out = p;
    return NULL;
}

void smpar_destroy(smpar_t *p)
{
    if (!p)
        return;
    atomic_store(&p->quit, 1);
    wake(&p->start);
    for (unsigned t = 1; t <= p->nstarted; t++)
        pthread_join(p->workers[t].tid, NULL);
    for (unsigned i = 0; p->orders && i < p->nsms; i++)
        if (p->sms[i].x.order == &p->orders[i].base)
            p->sms[i].x.order = NULL;
    free(p->cells);
    free(p->orders);
    free(p->workers);
    free(p);
}
