/* mum driver: a seeded random reference sequence (bases 0..3), its suffix trie truncated at QL bases
 * (built on the CPU: node i holds four child indices, 0 for none, node 0 is the root) as a 1D int4
 * texture, and NT queries per CTA: QL-base substrings of the reference with about 1 base in 20 mutated,
 * plus 1 in 8 queries random throughout; every thread's match length and final node must equal the
 * CPU's walk of the same trie exactly. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/texture.h"
#include "simt/workload.h"

#define NT 256
#define QL 40 /* must match kernel.cu */

typedef struct mum_trie {
    int32_t (*child)[4];
    size_t n, cap;
} mum_trie_t;

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "mum: %s", msg);
    return SIMT_EINPUT;
}

/* Inserts ref[0..len) below the root; returns -1 when out of memory. */
static int trie_insert(mum_trie_t *t, const unsigned char *s, int len)
{
    size_t node = 0;
    for (int i = 0; i < len; i++) {
        int32_t next = t->child[node][s[i]];
        if (next == 0) {
            if (t->n == t->cap) {
                size_t cap = t->cap * 2;
                int32_t (*c)[4] = realloc(t->child, cap * sizeof *c);
                if (!c)
                    return -1;
                t->child = c, t->cap = cap;
            }
            memset(t->child[t->n], 0, sizeof t->child[0]);
            next = (int32_t)t->n++;
            t->child[node][s[i]] = next;
        }
        node = (size_t)next;
    }
    return 0;
}

static int run_mum(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                   simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 196, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int nctas, rlen;
    if (strcmp(size, "small") == 0)
        nctas = 4, rlen = 4096;
    else if (strcmp(size, "paper") == 0)
        nctas = 196, rlen = 16384; /* 196 CTAs = 50,176 queries (004 Table 2); about 540,000 nodes, within
                                    * the model's 2^20 texels of a 1D texture */
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    int nq = nctas * NT;
    unsigned char *ref = malloc((size_t)rlen), *qs = malloc((size_t)nq * QL);
    int *len = malloc((size_t)nq * sizeof(int)), *node = malloc((size_t)nq * sizeof(int));
    mum_trie_t t = { malloc(1024 * sizeof *t.child), 1, 1024 };
    simt_devptr_t dev[4] = { 0 };
    uint64_t tex = 0;
    int rc = SIMT_OK;
    if (!ref || !qs || !len || !node || !t.child) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    memset(t.child[0], 0, sizeof t.child[0]);
    for (int i = 0; i < rlen; i++)
        ref[i] = (unsigned char)(simt_wl_rand(&seed) >> 30);
    for (int p = 0; p < rlen; p++)
        if (trie_insert(&t, ref + p, rlen - p < QL ? rlen - p : QL) != 0) {
            rc = fail(err, "host out of memory");
            goto done;
        }
    for (int k = 0; k < nq; k++) {
        unsigned char *q = qs + (size_t)k * QL;
        int random = simt_wl_rand(&seed) % 8 == 0;
        int p = (int)(simt_wl_rand(&seed) % (uint32_t)(rlen - QL + 1));
        for (int i = 0; i < QL; i++) {
            uint32_t r = simt_wl_rand(&seed);
            q[i] = random ? (unsigned char)(r >> 30)
                 : r % 20 == 0 ? (unsigned char)((ref[p + i] + 1 + (r >> 30) % 3) & 3) : ref[p + i];
        }
    }
    simt_launch_t l = { .grid = { (uint32_t)nctas, 1, 1 }, .block = { NT, 1, 1 } };
    if ((rc = simt_wl_upload(gpu, t.child, t.n * sizeof t.child[0], &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, qs, (size_t)nq * QL, &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, (size_t)nq * sizeof(int), &dev[2], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, (size_t)nq * sizeof(int), &dev[3], err)) != SIMT_OK)
        goto done;
    simt_tex_resource_t r = { .data = dev[0], .geom = SIMT_TEX_1D, .format = SIMT_TEX_S32, .channels = 4,
                              .width = (uint32_t)t.n };
    simt_tex_desc_t d;
    memset(&d, 0, sizeof d);
    d.address[0] = SIMT_TEX_CLAMP;
    d.filter = SIMT_TEX_POINT;
    if ((rc = simt_tex_create(gpu, &r, &d, &tex, err)) != SIMT_OK)
        goto done;
    simt_arg_t args[] = { SIMT_ARG(tex), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(dev[3]) };
    if ((rc = simt_launch_kernel(gpu, mod, "mum_match", &l, args, 4, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, len, dev[2], (size_t)nq * sizeof(int), err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, node, dev[3], (size_t)nq * sizeof(int), err)) != SIMT_OK)
        goto done;
    int bad = 0;
    long total = 0;
    for (int k = 0; k < nq; k++) {
        const unsigned char *q = qs + (size_t)k * QL;
        int n = 0, m = 0;
        for (; m < QL && t.child[n][q[m]] != 0; m++)
            n = t.child[n][q[m]];
        bad += len[k] != m || node[k] != n;
        total += m;
    }
    res->passed = bad == 0;
    snprintf(res->detail, sizeof res->detail,
             "%d queries of %d bases in a %zu-node trie of %d bases, %d CTAs of 256: mean match %.1f, %d differ "
             "from the CPU's walk", nq, QL, t.n, rlen, nctas, (double)total / nq, bad);
done:
    if (tex) {
        simt_error_t e2;
        if (simt_tex_destroy(gpu, tex, &e2) != SIMT_OK && rc == SIMT_OK) {
            *err = e2;
            rc = e2.status;
        }
    }
    rc = simt_wl_release(gpu, dev, 4, rc, err);
    free(ref);
    free(qs);
    free(len);
    free(node);
    free(t.child);
    return rc;
}

SIMT_WORKLOAD(mum, "suffix-trie matching of 40-base queries, nodes fetched through the texture cache (004 MUM)",
              "workloads/mum/kernel.ptx", run_mum);
