/* readfile.c: whole-file input with the checks of readfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/readfile.h"

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a pipe (FIFO)"
         : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

int read_input_file(const char *path, const char *what, size_t max_bytes,
                    char **buf, size_t *len, simt_error_t *err)
{
    char shown[512];
    printable(path, (size_t)-1, shown, sizeof shown);
    *buf = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return set_error(err, SIMT_EINPUT, "%s: error: cannot open the %s: %s",
                         shown, what, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return set_error(err, SIMT_EINPUT, "%s: error: the %s must be a regular "
                         "file, and this is %s", shown, what, kind_of(st.st_mode));
    }
    if ((unsigned long long)st.st_size > max_bytes) {
        close(fd);
        return set_error(err, SIMT_EINPUT, "%s: error: the %s has %llu bytes, "
                         "more than the %zu bytes allowed", shown, what,
                         (unsigned long long)st.st_size, max_bytes);
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *b = malloc(cap + 1);
    if (!b) {
        close(fd);
        return set_error(err, SIMT_EINPUT, "%s: error: out of memory reading "
                         "the %s", shown, what);
    }
    for (;;) {
        ssize_t r = read(fd, b + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(b);
            close(fd);
            return set_error(err, SIMT_EINPUT, "%s: error: reading the %s: %s",
                             shown, what, strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (n == cap) { /* it grew while we read */
            if (cap > max_bytes) {
                free(b);
                close(fd);
                return set_error(err, SIMT_EINPUT, "%s: error: the %s has "
                                 "more than the %zu bytes allowed", shown, what,
                                 max_bytes);
            }
            size_t nc = cap * 2 > max_bytes + 1 ? max_bytes + 1 : cap * 2;
            char *nb = realloc(b, nc + 1);
            if (!nb) {
                free(b);
                close(fd);
                return set_error(err, SIMT_EINPUT, "%s: error: out of memory "
                                 "reading the %s", shown, what);
            }
            b = nb;
            cap = nc;
        }
    }
    close(fd);
    b[n] = '\0';
    *buf = b;
    *len = n;
    return SIMT_OK;
}
