/* smpar.c: the SMs of a core cycle on several host threads (smpar.h). */
#define _GNU_SOURCE /* syscall */
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/error.h"
#include "gpu/smpar.h"

/* How long a waiting thread spins before it sleeps: long enough to cover
 * the serial part of a core cycle (the memory phase, the commits: a few
 * us) so that a worker that runs never sleeps between phases, short
 * enough that a thread whose partner was descheduled gives the core back
 * soon.  A sleeping worker is woken at the first phase it sleeps
 * through, then after 2, 4, ... and at most every WAKE_EVERY phases;
 * meanwhile the caller's thread steps its SMs. */
enum { SPIN_NS = 50000, WAKE_EVERY = 64 };

/* Whether a parallel phase pays is measured, not assumed: how long a
 * cycle takes on two threads depends on how far apart the host's cores
 * are (on a virtual machine, from minute to minute: docs/timing-model.md,
 * "When two threads lose").  Of every EPOCH cycles that could run in
 * parallel, the last 2 PROBE are probes, PROBE in parallel then PROBE
 * alone, each timed after WARM cycles (a sleeping worker wakes, SMs'
 * state moves between the cores) from a cycle's start to the next's, so
 * that the serial part counts too; the next epoch runs alone when that
 * took less than 1/MARGIN of the parallel time per SM stepped, else in
 * parallel, as the first epoch does (the probes then see warm caches, not
 * a launch's start).  The cost: at most PROBE / EPOCH of the run in the
 * slower way. */
enum { EPOCH = 131072, PROBE = 1024, WARM = 256 };
#define MARGIN 1.1

#define LINE 64

/* One SM's cell, a cache line of its own: written by the thread that steps
 * it, read by the SMs above it at the gate. */
typedef struct smpar_cell {
    _Atomic uint64_t passed;   /* the last phase whose ordered effects
                                  (exec_order_t) it has all made */
    int rc;                    /* for the gates: its status then */
    int result;                /* for smpar_result: the cycle's status */
    unsigned done;             /* and completed CTAs */
    char pad[LINE - sizeof(uint64_t) - 3 * sizeof(int)];
} smpar_cell_t;

/* Thread t's SMs (t, t + n, t + 2n, ...), claimed in that order: by t
 * itself first, then by any thread that has run out of its own (a steal).
 * `next` is phase << IDX_BITS | the index of the next unclaimed SM; a
 * list whose phase is older than a claim's is whole for it, so nobody
 * resets the lists when a phase starts, and phases only grow (64 bits
 * less the index never wrap), so a claim of a past phase always fails.
 * A line of its own: only its owner writes it as long as nobody steals. */
typedef struct smpar_list {
    _Atomic uint64_t next;
    unsigned len;
    char pad[LINE - sizeof(uint64_t) - sizeof(int)];
} smpar_list_t;

/* What thread t tells the caller, a line of its own, written about once
 * per phase: `done` is phase << IDX_BITS | the SMs it stepped in that
 * phase, stored when it has no SM left to claim; `asleep`: it sleeps
 * waiting for a phase (workers). */
typedef struct smpar_report {
    _Atomic uint64_t done;
    _Atomic int asleep;
    char pad[LINE - sizeof(uint64_t) - sizeof(int)];
} smpar_report_t;

enum { IDX_BITS = 24 };
#define IDX_MASK ((UINT64_C(1) << IDX_BITS) - 1)

/* SM i's exec_order_t: the lower SMs it has seen pass this phase.  A
 * line of its own: the thread stepping the SM writes it all phase long,
 * and SM i + 1 is usually stepped on another core. */
typedef struct smpar_order {
    _Alignas(LINE) exec_order_t base; /* first: the SM's exec_ctx_t points here */
    smpar_t *p;
    unsigned sm;
    unsigned known;            /* SMs 0..known-1 passed this phase */
    int failed;                /* one of them stopped the run */
    uint64_t phase;            /* 0: a cycle the caller steps alone */
} smpar_order_t;

/* A futex word that moves when sleepers must look again, and the count of
 * sleepers; a line of its own. */
typedef struct smpar_event {
    _Atomic uint32_t ev;
    _Atomic unsigned sleepers;
    char pad[LINE - 2 * sizeof(int)];
} smpar_event_t;

typedef struct smpar_worker {
    smpar_t *p;
    unsigned t;
    pthread_t tid;
} smpar_worker_t;

struct smpar {
    /* the caller's line: what a phase is, written once per phase and
     * watched by the workers waiting for one */
    _Alignas(LINE) _Atomic uint64_t pub; /* the phase published */
    uint64_t now;              /* its cycle, set before pub */
    _Atomic int quit;
    /* read-only after creation */
    _Alignas(LINE) sm_t *sms;
    unsigned nsms, n;
    smpar_cell_t *cells;
    smpar_list_t *lists;       /* one per thread */
    smpar_report_t *reports;   /* one per thread */
    smpar_order_t *orders;
    smpar_worker_t *workers;   /* threads 1..n-1 */
    unsigned nstarted;
    uint64_t phase;            /* the caller's: the current phase */
    uint64_t sleeping_run;     /* phases in a row with a worker asleep */
    uint64_t taken;            /* the lists the caller took whole (bit u) */
    smpar_way_t *way;          /* the measured choice (EPOCH above) */
    smpar_event_t progress;    /* an SM finished (the gate, the phase's end) */
    smpar_event_t start;       /* a phase started (sleeping workers) */
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static uint64_t clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
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

/* Spins until cond holds or SPIN_NS pass; nonzero: it holds.  The clock is
 * read every 64 looks, the pause between looks keeps the spin off the
 * lines it watches. */
static int spin(smpar_t *p, smpar_cond_fn cond, void *arg)
{
    uint64_t until = 0;
    for (unsigned i = 1;; i++) {
        if (cond(p, arg))
            return 1;
        cpu_relax();
        if (!(i & 63)) {
            uint64_t t = clock_ns();
            if (!until)
                until = t + SPIN_NS;
            else if (t >= until)
                return 0;
        }
    }
}

/* Returns when cond holds: spins, then sleeps until event e moves.
 * `asleep`, when given, says so while the thread sleeps. */
static void await(smpar_t *p, smpar_event_t *e, smpar_cond_fn cond, void *arg,
                  _Atomic int *asleep)
{
    if (spin(p, cond, arg))
        return;
    for (;;) {
        uint32_t v = atomic_load(&e->ev);
        atomic_fetch_add(&e->sleepers, 1);
        if (asleep)
            atomic_store(asleep, 1);
        if (cond(p, arg)) {
            if (asleep)
                atomic_store(asleep, 0);
            atomic_fetch_sub(&e->sleepers, 1);
            return;
        }
        syscall(SYS_futex, (uint32_t *)&e->ev, FUTEX_WAIT_PRIVATE, v, NULL,
                NULL, 0);
        if (asleep)
            atomic_store(asleep, 0);
        atomic_fetch_sub(&e->sleepers, 1);
    }
}

/* The lower SMs of o have all made their ordered effects this phase. */
static int lower_done(smpar_t *p, void *arg)
{
    smpar_order_t *o = arg;
    while (o->known < o->sm &&
           atomic_load(&p->cells[o->known].passed) == o->phase) {
        o->failed |= p->cells[o->known].rc != SIMT_OK;
        o->known++;
    }
    return o->base.open = o->known == o->sm;
}

/* SM o->sm has made its last ordered effect of the cycle (exec_order_t
 * pass): the SMs above it need not wait for the rest of its cycle. */
static void order_pass(exec_order_t *base)
{
    smpar_order_t *o = (smpar_order_t *)base;
    smpar_cell_t *cell = &o->p->cells[o->sm];
    if (!o->phase)
        return; /* run_alone: nobody waits */
    cell->rc = SIMT_OK;
    atomic_store(&cell->passed, o->phase); /* seq_cst: before notify's look */
    notify(&o->p->progress);
}

static int order_wait(exec_order_t *base)
{
    smpar_order_t *o = (smpar_order_t *)base;
    if (o->known < o->sm)
        await(o->p, &o->p->progress, lower_done, o, NULL);
    return o->failed;
}

/* Steps SM i in `phase` and publishes that it passed (for the gates of
 * the SMs above it), unless it did at the end of its issue stage. */
static void step(smpar_t *p, unsigned i, uint64_t phase)
{
    smpar_order_t *o = &p->orders[i];
    smpar_cell_t *cell = &p->cells[i];
    o->known = 0;
    o->failed = 0;
    o->phase = phase;
    o->base.open = i == 0;
    cell->done = 0;
    int rc = sm_step(&p->sms[i], p->now, &cell->done);
    cell->result = rc;
    if (atomic_load_explicit(&cell->passed, memory_order_relaxed) != phase) {
        cell->rc = rc;
        atomic_store(&cell->passed, phase); /* seq_cst: before notify's look */
        notify(&p->progress);
    }
}

/* Claims the k-th SM of list l in `phase` if it is still the next one:
 * 1, or 0 when another thread took it. */
static int claim_kth(smpar_list_t *l, uint64_t phase, unsigned k)
{
    uint64_t c = atomic_load_explicit(&l->next, memory_order_relaxed);
    for (;;) {
        uint64_t at = c >> IDX_BITS == phase ? c & IDX_MASK : 0;
        if (c >> IDX_BITS > phase || at != k)
            return 0;
        if (atomic_compare_exchange_weak(&l->next, &c, phase << IDX_BITS | (k + 1)))
            return 1;
    }
}

/* Claims the next unclaimed SM of list l in `phase`: its index in the
 * list, or -1 when none is left (or the phase is over). */
static int claim_next(smpar_list_t *l, uint64_t phase)
{
    uint64_t c = atomic_load(&l->next);
    for (;;) {
        uint64_t at = c >> IDX_BITS == phase ? c & IDX_MASK : 0;
        if (c >> IDX_BITS > phase || at >= l->len)
            return -1;
        if (atomic_compare_exchange_weak(&l->next, &c, phase << IDX_BITS | (at + 1)))
            return (int)at;
    }
}

/* Thread t's part of `phase`: its own SMs in index order (with the lists
 * the caller took whole, merged into that order), then whatever other
 * lists have left unclaimed.  Every SM a thread holds is stepped in index
 * order, so the SM a gate waits for is either finished, being stepped, or
 * the next claim of a thread that runs (docs/timing-model.md, "Several
 * host threads"). */
static void run_phase(smpar_t *p, unsigned t, uint64_t phase)
{
    unsigned n = p->n, stepped = 0;
    for (unsigned i = 0; i < p->nsms; i++) {
        unsigned u = i % n;
        if (u == t ? claim_kth(&p->lists[t], phase, i / n)
                   : t == 0 && (p->taken >> u & 1)) {
            step(p, i, phase);
            stepped++;
        }
    }
    for (unsigned d = 1; d < n; d++) {
        unsigned u = (t + d) % n;
        int k;
        /* (a thread that has reported the phase has claimed its whole
         * list: no look at the list's line, which its owner writes) */
        if (atomic_load(&p->reports[u].done) >> IDX_BITS == phase)
            continue;
        while ((k = claim_next(&p->lists[u], phase)) >= 0) {
            step(p, (unsigned)k * n + u, phase);
            stepped++;
        }
    }
    atomic_store(&p->reports[t].done, phase << IDX_BITS | stepped);
    notify(&p->progress);
}

static int phase_moved(smpar_t *p, void *arg)
{
    return atomic_load(&p->pub) != *(uint64_t *)arg || atomic_load(&p->quit);
}

static void *worker(void *arg)
{
    smpar_worker_t *w = arg;
    smpar_t *p = w->p;
    uint64_t seen = 0;
    for (;;) {
        await(p, &p->start, phase_moved, &seen, &p->reports[w->t].asleep);
        if (atomic_load(&p->quit))
            return NULL;
        seen = atomic_load(&p->pub);
        run_phase(p, w->t, seen);
    }
}

/* Every SM stepped: the threads' reports of this phase add up to all (a
 * thread that took no part reports an older phase). */
static int all_done(smpar_t *p, void *arg)
{
    (void)arg;
    unsigned sum = 0;
    for (unsigned u = 0; u < p->n; u++) {
        uint64_t d = atomic_load(&p->reports[u].done);
        if (d >> IDX_BITS == p->phase)
            sum += (unsigned)(d & IDX_MASK);
    }
    return sum == p->nsms;
}

/* The cycle on the caller's thread alone, in SM order, as the one-thread
 * loop steps it: the gate has nothing to wait for, and after a fault the
 * SMs above are not stepped (the timing loop stops at the fault). */
static void run_alone(smpar_t *p, uint64_t now)
{
    for (unsigned i = 0; i < p->nsms; i++) {
        smpar_order_t *o = &p->orders[i];
        smpar_cell_t *cell = &p->cells[i];
        o->known = o->sm;
        o->failed = 0;
        o->phase = 0;
        o->base.open = 1;
        cell->done = 0;
        cell->result = sm_step(&p->sms[i], now, &cell->done);
        if (cell->result != SIMT_OK)
            return;
    }
}

/* The cycle as a phase on every thread. */
static void run_parallel(smpar_t *p, uint64_t now)
{
    uint64_t phase = ++p->phase;
    p->now = now;
    atomic_store(&p->pub, phase);
    /* A sleeping worker's SMs are the caller's for this phase, taken
     * whole before it steps any SM (unless the worker woke and claimed
     * one first): it must not wait at a gate for an SM nobody will
     * claim.  The worker is woken now and then, and joins when it runs
     * and is awake at a phase's start. */
    p->taken = 0;
    for (unsigned u = 1; u < p->n; u++) {
        smpar_list_t *l = &p->lists[u];
        if (!atomic_load(&p->reports[u].asleep))
            continue;
        uint64_t c = atomic_load(&l->next);
        if (c >> IDX_BITS < phase &&
            atomic_compare_exchange_strong(&l->next, &c, phase << IDX_BITS | l->len)) {
            p->taken |= UINT64_C(1) << u;
        }
    }
    /* Woken at once after a stretch without phases (run_alone: the
     * worker slept because there was nothing to do), then less and less
     * often while it stays asleep (a loaded machine: it gets no core). */
    p->sleeping_run = p->taken ? p->sleeping_run + 1 : 0;
    if (p->taken && (p->sleeping_run % WAKE_EVERY == 0 ||
                     !(p->sleeping_run & (p->sleeping_run - 1)))) {
        wake(&p->start);
    }
    run_phase(p, 0, phase);
    await(p, &p->progress, all_done, NULL, NULL);
}

/* Which way this cycle runs (1: alone), and whether it is timed for its
 * probe. */
static int choose(smpar_way_t *w, int *timed)
{
    unsigned at = w->epoch_at;
    w->epoch_at = at + 1 == EPOCH ? 0 : at + 1;
    if (at < EPOCH - 2 * PROBE) {
        *timed = 0;
        return w->alone;
    }
    at -= EPOCH - 2 * PROBE;
    int alone = at >= PROBE;
    *timed = at - (unsigned)alone * PROBE >= WARM;
    return alone;
}

/* The probes are over: the next epoch's way, from the ns per SM step of
 * each (cross-multiplied; in double, since the products may pass 64
 * bits). */
static void decide(smpar_way_t *w)
{
    w->alone = MARGIN * (double)w->probe_ns[1] * (double)w->probe_steps[0] <
               (double)w->probe_ns[0] * (double)w->probe_steps[1];
    w->probe_ns[0] = w->probe_ns[1] = w->probe_steps[0] = w->probe_steps[1] = 0;
}

/* The timed cycle pending in w took `ns`; the probes are over when it
 * was the alone probe's last. */
static void end_timed(smpar_way_t *w, uint64_t ns)
{
    w->probe_ns[w->timed - 1] += ns;
    w->timed = 0;
    if (w->epoch_at == 0)
        decide(w);
}

void smpar_cycle(smpar_t *p, uint64_t now)
{
    smpar_way_t *w = p->way;
    /* a timed cycle lasts until the next one starts: its serial part (the
     * commits, the memory phase touching the worker's SMs) differs between
     * the two ways too */
    if (w->timed)
        end_timed(w, clock_ns() - w->t0);
    /* With fewer than two SMs awake (the rest asleep: sm_step returns at
     * once) a phase's handshake would cost more than the cycle. */
    unsigned awake = 0, i = 0;
    for (; i < p->nsms && awake < 2; i++)
        awake += now >= p->sms[i].wake_at;
    if (awake < 2) {
        run_alone(p, now);
        return;
    }
    int timed, alone = choose(w, &timed);
    if (timed) {
        for (; i < p->nsms; i++) /* the probe counts every SM awake */
            awake += now >= p->sms[i].wake_at;
        w->probe_steps[alone] += awake;
        w->timed = alone + 1;
        w->t0 = clock_ns();
    }
    if (alone)
        run_alone(p, now);
    else
        run_parallel(p, now);
}

int smpar_result(const smpar_t *p, unsigned i, unsigned *done)
{
    *done = p->cells[i].done;
    return p->cells[i].result;
}

const char *smpar_create(smpar_t **out, sm_t *sms, unsigned nsms,
                         unsigned nthreads, smpar_way_t *way)
{
    *out = NULL;
    if (nthreads < 2 || nthreads > SMPAR_MAX_THREADS)
        return "the number of threads is out of range";
    smpar_t *p = aligned_alloc(LINE, sizeof *p);
    if (!p)
        return "out of host memory";
    memset(p, 0, sizeof *p);
    p->sms = sms;
    p->nsms = nsms;
    p->way = way;
    if (way->timed) /* the last run ended in a timed cycle: its time is lost */
        end_timed(way, 0);
    p->n = nthreads;
    p->cells = aligned_alloc(LINE, (nsms ? nsms : 1) * sizeof *p->cells);
    p->lists = aligned_alloc(LINE, nthreads * sizeof *p->lists);
    p->reports = aligned_alloc(LINE, nthreads * sizeof *p->reports);
    p->orders = aligned_alloc(LINE, (nsms ? nsms : 1) * sizeof *p->orders);
    p->workers = calloc(nthreads, sizeof *p->workers);
    if (!p->cells || !p->lists || !p->reports || !p->orders || !p->workers) {
        smpar_destroy(p);
        return "out of host memory";
    }
    memset(p->cells, 0, nsms * sizeof *p->cells);
    memset(p->lists, 0, nthreads * sizeof *p->lists);
    memset(p->reports, 0, nthreads * sizeof *p->reports);
    for (unsigned u = 0; u < nthreads; u++)
        p->lists[u].len = nsms / nthreads + (u < nsms % nthreads);
    for (unsigned i = 0; i < nsms; i++) {
        p->orders[i] = (smpar_order_t){ .base = { .wait = order_wait,
                                                  .pass = order_pass }, .p = p,
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
    free(p->lists);
    free(p->reports);
    free(p->orders);
    free(p->workers);
    free(p);
}
