/* cta_quota.c: the `cke_quota` value (cta_quota.h).  One walk over the
 * text serves both the check and the look-up, so that what the check
 * accepts is exactly what the look-up reads. */
#include <string.h>

#include "gpu/cta_quota.h"

static int is_first(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '$' || c == '%';
}

static int is_next(char c)
{
    return is_first(c) || (c >= '0' && c <= '9');
}

static const char *skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Walks `text` item by item: NULL, or why the text is malformed.  With
 * `want`, stops at the item of that name and sets *found to its quota. */
static const char *walk(const char *text, const char *want, unsigned *found)
{
    const char *p = skip_blanks(text);
    if (!*p)
        return NULL;
    for (;;) {
        const char *name = p;
        if (!is_first(*p))
            return "expected `name:N[,name:N]...`, a kernel name first";
        while (is_next(*p))
            p++;
        size_t nlen = (size_t)(p - name);
        p = skip_blanks(p);
        if (*p != ':')
            return "expected ':' and a CTA count after a kernel name";
        p = skip_blanks(p + 1);
        if (*p < '0' || *p > '9')
            return "a quota must be a decimal integer";
        unsigned long n = 0;
        while (*p >= '0' && *p <= '9') {
            n = n * 10 + (unsigned long)(*p - '0');
            if (n > CTA_QUOTA_MAX)
                return "a quota must be at most 1024 CTAs per SM";
            p++;
        }
        if (n == 0)
            return "a quota must be at least 1 CTA per SM";
        if (want && strlen(want) == nlen && memcmp(want, name, nlen) == 0) {
            *found = (unsigned)n;
            return NULL;
        }
        /* a name given twice: look for it in what follows */
        for (const char *q = p; (q = strstr(q, ",")) != NULL;) {
            q = skip_blanks(q + 1);
            if (!strncmp(q, name, nlen) && !is_next(q[nlen]))
                return "a kernel is named twice";
        }
        p = skip_blanks(p);
        if (!*p)
            return NULL;
        if (*p != ',')
            return "expected ',' between items";
        p = skip_blanks(p + 1);
    }
}

const char *config_quota_check(const char *text)
{
    return walk(text, NULL, NULL);
}

unsigned cta_quota_of(const char *text, const char *name)
{
    unsigned q = 0;
    walk(text, name, &q);
    return q;
}
