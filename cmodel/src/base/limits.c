/* limits.c: run limits (limits.h). */
#include <stdio.h>
#include <time.h>

#include "base/limits.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void limits_init(limits_t *l, uint64_t max_cycle, uint64_t max_insn)
{
    *l = (limits_t){ .max_cycle = max_cycle ? max_cycle : UINT64_MAX,
                     .max_insn = max_insn ? max_insn : UINT64_MAX,
                     .countdown = LIMITS_POLL };
}

void limits_set_timeout(limits_t *l, double seconds)
{
    l->timeout = seconds;
    l->deadline = now_s() + seconds;
    l->countdown = LIMITS_POLL;
}

limits_kind_t limits_poll_clock(limits_t *l)
{
    l->countdown = LIMITS_POLL;
    if (now_s() >= l->deadline)
        l->hit = LIMITS_TIME;
    return l->hit;
}

const char *limits_name(limits_kind_t k)
{
    switch (k) {
    case LIMITS_CYCLE: return "gpgpu_max_cycle";
    case LIMITS_INSN: return "gpgpu_max_insn";
    case LIMITS_TIME: return "timeout";
    default: return NULL;
    }
}

const char *limits_describe(const limits_t *l, char *buf, unsigned size)
{
    switch (l->hit) {
    case LIMITS_CYCLE:
        snprintf(buf, size, "gpgpu_max_cycle = %llu core cycles",
                 (unsigned long long)l->max_cycle);
        break;
    case LIMITS_INSN:
        snprintf(buf, size, "gpgpu_max_insn = %llu thread instructions",
                 (unsigned long long)l->max_insn);
        break;
    case LIMITS_TIME:
        snprintf(buf, size, "--timeout %g s of wall-clock time", l->timeout);
        break;
    default:
        snprintf(buf, size, "no limit");
        break;
    }
    return buf;
}
