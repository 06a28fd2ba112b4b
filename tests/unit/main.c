/* main.c: runs every registered test (or those whose name contains argv[1]). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

typedef struct {
    const char *name;
    harness_fn fn;
} test_t;

static test_t *tests;
static int ntests, cap;
static int current_failed;

void harness_register(const char *name, harness_fn fn)
{
    if (ntests == cap) {
        cap = cap ? cap * 2 : 256;
        tests = realloc(tests, (size_t)cap * sizeof *tests);
        if (!tests)
            abort();
    }
    tests[ntests++] = (test_t){ name, fn };
}

void harness_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("  %s:%d: ", file, line);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    current_failed = 1;
}

int harness_failed(void) { return current_failed; }

static int by_name(const void *a, const void *b)
{
    return strcmp(((const test_t *)a)->name, ((const test_t *)b)->name);
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int verbose = getenv("TEST_VERBOSE") != NULL;
    qsort(tests, (size_t)ntests, sizeof *tests, by_name);
    int passed = 0, failed = 0;
    for (int i = 0; i < ntests; i++) {
        if (filter && !strstr(tests[i].name, filter))
            continue;
        current_failed = 0;
        fflush(stdout);
        tests[i].fn();
        if (current_failed) {
            printf("FAIL %s\n", tests[i].name);
            failed++;
        } else {
            if (verbose)
                printf("ok   %s\n", tests[i].name);
            passed++;
        }
    }
    free(tests);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
