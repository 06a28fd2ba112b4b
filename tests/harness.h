/* harness.h: the minimal test harness every C test file uses.
 *
 *   TEST(name) { CHECK(cond); CHECK_EQ(a, b); ... }
 *
 * Tests register themselves at start-up; tests/unit/main.c runs them (all,
 * or those whose name contains argv[1]) and ends with "N passed, N failed". */
#ifndef TESTS_HARNESS_H
#define TESTS_HARNESS_H

#include <stdint.h>

typedef void (*harness_fn)(void);

void harness_register(const char *name, harness_fn fn);
void harness_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int harness_failed(void); /* the current test has failed */

#define TEST(name)                                                        \
    static void name(void);                                               \
    __attribute__((constructor)) static void harness_reg_##name(void)     \
    {                                                                     \
        harness_register(#name, name);                                    \
    }                                                                     \
    static void name(void)

#define CHECK(cond)                                                       \
    do {                                                                  \
        if (!(cond)) {                                                    \
            harness_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);         \
            return;                                                       \
        }                                                                 \
    } while (0)

#define CHECK_MSG(cond, ...)                                              \
    do {                                                                  \
        if (!(cond)) {                                                    \
            harness_fail(__FILE__, __LINE__, __VA_ARGS__);                \
            return;                                                       \
        }                                                                 \
    } while (0)

#define CHECK_EQ(a, b)                                                    \
    do {                                                                  \
        uint64_t ha_ = (uint64_t)(a), hb_ = (uint64_t)(b);                \
        if (ha_ != hb_) {                                                 \
            harness_fail(__FILE__, __LINE__, "%s == %s: 0x%llx != 0x%llx", \
                         #a, #b, (unsigned long long)ha_,                 \
                         (unsigned long long)hb_);                        \
            return;                                                       \
        }                                                                 \
    } while (0)

#endif
