/* mix.c: several workload drivers on one GPU at once (mix.h,
 * simt_mix_run in simt/workload.h).
 *
 * Invariants (under `lock`): `baton` is the member whose host code runs,
 * or -1 once every member finished; state[i] is RUNNABLE, BLOCKED (in
 * simt_synchronize, waiting for the GPU run of its round) or DONE; only
 * the baton holder changes state.  A BLOCKED member resumes only after a
 * GPU run, with that run's status and message. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "gpu/mix.h"
#include "simt/workload.h"

enum { RUNNABLE, BLOCKED, DONE };

struct gpu_mix {
    simt_gpu_t *gpu;
    simt_mix_member_t *m;
    unsigned n;
    pthread_mutex_t lock;
    pthread_cond_t turn;       /* the baton moved */
    int baton;
    uint8_t *state;
    int *round_rc;             /* per member: the status its wait ends with */
    simt_error_t round_err;    /* the last GPU run's message */
};

typedef struct member_arg {
    gpu_mix_t *mix;
    unsigned i;
} member_arg_t;

/* Passes the baton on from member `me` (its state already set): to the
 * next RUNNABLE member after it; when none, runs the GPU for the BLOCKED
 * ones and gives the baton to the first of them.  Called by the holder,
 * lock held. */
static void pass_on(gpu_mix_t *x, unsigned me)
{
    for (unsigned j = me + 1; j < x->n; j++)
        if (x->state[j] == RUNNABLE) {
            x->baton = (int)j;
            return;
        }
    for (unsigned j = 0; j < me; j++) /* members before it: not yet in the round */
        if (x->state[j] == RUNNABLE) {
            x->baton = (int)j;
            return;
        }
    int any = 0;
    for (unsigned j = 0; j < x->n; j++)
        any |= x->state[j] == BLOCKED;
    if (!any) {
        x->baton = -1;
        return;
    }
    /* every unfinished member waits: the GPU runs their launches (the
     * holder's thread does it; the others sleep) */
    memset(&x->round_err, 0, sizeof x->round_err);
    int rc = gpu_synchronize_queue(x->gpu, &x->round_err);
    x->baton = -1;
    for (unsigned j = 0; j < x->n; j++)
        if (x->state[j] == BLOCKED) {
            x->state[j] = RUNNABLE;
            x->round_rc[j] = rc;
            if (x->baton < 0)
                x->baton = (int)j;
        }
}

static void wait_turn(gpu_mix_t *x, unsigned me)
{
    while (x->baton != (int)me)
        pthread_cond_wait(&x->turn, &x->lock);
}

int gpu_mix_synchronize(gpu_mix_t *x, simt_error_t *err)
{
    pthread_mutex_lock(&x->lock);
    unsigned me = (unsigned)x->baton;
    x->state[me] = BLOCKED;
    pass_on(x, me);
    pthread_cond_broadcast(&x->turn);
    wait_turn(x, me);
    int rc = x->round_rc[me];
    if (rc != SIMT_OK && err)
        *err = x->round_err;
    pthread_mutex_unlock(&x->lock);
    return rc;
}

int gpu_mix_stream(const gpu_mix_t *x, int stream, int *out)
{
    long long s = (long long)stream * x->n + x->baton;
    if (s < -0x7fffffffLL || s > 0x7fffffffLL)
        return -1;
    *out = (int)s;
    return 0;
}

static void *member_main(void *p)
{
    member_arg_t *a = p;
    gpu_mix_t *x = a->mix;
    simt_mix_member_t *m = &x->m[a->i];
    pthread_mutex_lock(&x->lock);
    wait_turn(x, a->i);
    pthread_mutex_unlock(&x->lock);
    /* holding the baton: this member's host code runs alone */
    m->rc = m->run(x->gpu, m->mod, m->params, m->res, m->err);
    pthread_mutex_lock(&x->lock);
    x->state[a->i] = DONE;
    pass_on(x, a->i);
    pthread_cond_broadcast(&x->turn);
    pthread_mutex_unlock(&x->lock);
    return NULL;
}

int simt_mix_run(simt_gpu_t *gpu, simt_mix_member_t *m, unsigned n,
                 simt_error_t *err)
{
    if (n == 0)
        return SIMT_OK;
    gpu_mix_t x = { .gpu = gpu, .m = m, .n = n, .baton = 0 };
    x.state = calloc(n, sizeof *x.state);
    x.round_rc = calloc(n, sizeof *x.round_rc);
    pthread_t *t = calloc(n, sizeof *t);
    member_arg_t *args = calloc(n, sizeof *args);
    if (!x.state || !x.round_rc || !t || !args) {
        free(x.state);
        free(x.round_rc);
        free(t);
        free(args);
        return set_error(err, SIMT_EINPUT, "out of host memory for a mix");
    }
    pthread_mutex_init(&x.lock, NULL);
    pthread_cond_init(&x.turn, NULL);
    gpu_set_mix(gpu, &x);
    unsigned started = 0;
    int rc = SIMT_OK;
    /* the threads wait for the lock until all are started; member 0 holds
     * the first turn, and one that cannot start counts as done */
    pthread_mutex_lock(&x.lock);
    for (; started < n; started++) {
        args[started] = (member_arg_t){ &x, started };
        if (pthread_create(&t[started], NULL, member_main, &args[started]) != 0) {
            rc = set_error(err, SIMT_EINPUT, "cannot start a host thread for "
                           "member %u of the mix", started);
            break;
        }
    }
    for (unsigned j = started; j < n; j++)
        x.state[j] = DONE;
    pthread_mutex_unlock(&x.lock);
    for (unsigned j = 0; j < started; j++)
        pthread_join(t[j], NULL);
    gpu_set_mix(gpu, NULL);
    pthread_cond_destroy(&x.turn);
    pthread_mutex_destroy(&x.lock);
    free(x.state);
    free(x.round_rc);
    free(t);
    free(args);
    return rc;
}
