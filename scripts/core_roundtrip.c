/* core_roundtrip.c: how long a cache line takes to go from one host core
 * to another and back, for `make bench-suite SPEEDUP=N`
 * (scripts/bench_suite.py).  `--threads 2` hands a few lines between the
 * cores every simulated cycle, so its speed-up depends on this distance,
 * which on a virtual machine changes from minute to minute
 * (docs/timing-model.md, "When two threads lose"); a speed-up table
 * without it cannot tell a slow change from a bad stretch of the host.
 *
 *   core_roundtrip [CPU_A CPU_B]    (default 0 1)
 *
 * Two threads, pinned to the two CPUs, pass a counter back and forth on
 * two cache lines ROUNDS times; prints the mean round trip in ns.  Exit
 * status 0, or 1 when a thread cannot be started or pinned (one CPU). */
#define _GNU_SOURCE /* pthread_setaffinity_np */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { ROUNDS = 200000 };

typedef struct rt_lines {
    _Alignas(64) _Atomic long ping; /* written by the first thread */
    _Alignas(64) _Atomic long pong; /* written by the second */
    int cpu_b;
    int pinned_b;
} rt_lines_t;

static int rt_pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

static void *rt_answer(void *arg)
{
    rt_lines_t *l = arg;
    l->pinned_b = rt_pin(l->cpu_b);
    for (long i = 1; i <= ROUNDS; i++) {
        while (atomic_load(&l->ping) != i)
            ;
        atomic_store(&l->pong, i);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    static rt_lines_t l;
    int cpu_a = argc == 3 ? atoi(argv[1]) : 0;
    l.cpu_b = argc == 3 ? atoi(argv[2]) : 1;
    if (!rt_pin(cpu_a)) {
        fprintf(stderr, "core_roundtrip: cannot run on CPU %d\n", cpu_a);
        return 1;
    }
    pthread_t t;
    if (pthread_create(&t, NULL, rt_answer, &l)) {
        fprintf(stderr, "core_roundtrip: cannot start a thread\n");
        return 1;
    }
    struct timespec s, e;
    clock_gettime(CLOCK_MONOTONIC, &s);
    for (long i = 1; i <= ROUNDS; i++) {
        atomic_store(&l.ping, i);
        while (atomic_load(&l.pong) != i)
            ;
    }
    clock_gettime(CLOCK_MONOTONIC, &e);
    pthread_join(t, NULL);
    if (!l.pinned_b) {
        fprintf(stderr, "core_roundtrip: cannot run on CPU %d\n", l.cpu_b);
        return 1;
    }
    double ns = (double)(e.tv_sec - s.tv_sec) * 1e9 + (double)(e.tv_nsec - s.tv_nsec);
    printf("%.0f\n", ns / ROUNDS);
    return 0;
}
