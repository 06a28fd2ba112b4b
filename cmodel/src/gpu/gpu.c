/* gpu.c: the host API (simt.h): GPU objects, modules, device memory,
 * launches.  Functional mode runs each queued launch CTA by CTA. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/readfile.h"
#include "exec/exec.h"
#include "exec/texture.h"
#include "gpu/compiled.h"
#include "gpu/mix.h"
#include "gpu/occupancy.h"
#include "gpu/smpar.h"
#include "gpu/timing.h"
#include "simt/simt.h"

struct simt_module {
    simt_gpu_t *gpu;
    ptx_module_t *ptx;
    uint64_t global_base;      /* device address of .global variables */
    uint8_t *const_bank;
    gpu_kernel_codes_t *kernels; /* per function, compiled at its first
                                  launch (gpu/compiled.h: with and
                                  without the sharing passes) */
    long *ptxas_regs;          /* per function: ptxas -v figure, or -1 */
    struct simt_module *next;
};

typedef struct pending {
    simt_module_t *mod;
    uint32_t kernel;
    const gpu_compiled_t *code; /* what this launch runs (gpu_kernel_code) */
    simt_launch_t launch;
    uint8_t *params;
} pending_t;

struct simt_gpu {
    simt_config_t cfg;
    devmem_t mem;
    tex_table_t tex;           /* texture and surface objects */
    simt_stats_t stats;
    simt_module_t *modules;
    pending_t *queue;
    uint32_t nqueue, qcap;
    uint8_t *smem;             /* one SM's scratchpad (functional mode) */
    simt_kernel_stats_t *kstats; /* one per launch run */
    size_t nkstats, kstats_cap;
    simt_sm_stats_t *sms;        /* one per SM (timing mode) */
    size_t nsms;
    const unit_hooks_t *hooks;   /* co-simulation, or NULL */
    timing_copy_t *copies;       /* host-to-device copies since the last
                                    timing run (gpgpu_perf_sim_memcpy) */
    unsigned ncopies, copies_cap;
    simt_progress_fn progress;
    void *progress_ctx;
    uint64_t progress_every;
    simt_cta_trace_fn cta_trace; /* resident CTAs per SM over time */
    void *cta_trace_ctx;
    exec_printf_buf_t printf_buf; /* device printf since the last flush */
    FILE *device_out;            /* where it goes (stdout by default) */
    limits_t limits;             /* gpgpu_max_cycle, gpgpu_max_insn, timeout */
    unsigned threads;            /* host threads for the SMs (0 or 1: one) */
    smpar_way_t par_way;         /* their measured way, run to run */
    gpu_mix_t *mix;              /* drivers running as a mix (gpu/mix.h), or
                                    NULL */
};

void gpu_set_mix(simt_gpu_t *g, gpu_mix_t *m)
{
    g->mix = m;
}

/* CUDA's default printf FIFO size (cudaLimitPrintfFifoSize). */
#define GPU_PRINTF_FIFO_BYTES (1u << 20)

void simt_gpu_set_device_output(simt_gpu_t *g, FILE *out)
{
    g->device_out = out;
}

/* Writes the device printf output gathered by the launches just run, then
 * empties the FIFO.  SIMT_OK, or SIMT_EINPUT when the output cannot be
 * written. */
static int flush_printf(simt_gpu_t *g, simt_error_t *err)
{
    exec_printf_buf_t *b = &g->printf_buf;
    int rc = SIMT_OK;
    if (b->len && (fwrite(b->text, 1, b->len, g->device_out) != b->len ||
                   fflush(g->device_out) != 0))
        rc = set_error(err, SIMT_EINPUT, "error: cannot write the device "
                       "printf output: %s", strerror(errno));
    if (b->dropped)
        fprintf(stderr, "warning: %llu bytes of device printf output were "
                "dropped: the %u-byte printf FIFO was full\n",
                (unsigned long long)b->dropped, GPU_PRINTF_FIFO_BYTES);
    b->len = 0;
    b->dropped = 0;
    return rc;
}

void simt_gpu_set_unit_hooks(simt_gpu_t *g, const struct unit_hooks *hooks)
{
    g->hooks = hooks;
}

void simt_gpu_set_cta_trace(simt_gpu_t *g, simt_cta_trace_fn fn, void *ctx)
{
    g->cta_trace = fn;
    g->cta_trace_ctx = ctx;
}

void simt_gpu_set_progress(simt_gpu_t *g, simt_progress_fn fn, void *ctx,
                           uint64_t every_cycles)
{
    g->progress = fn;
    g->progress_ctx = ctx;
    g->progress_every = every_cycles ? every_cycles : 1;
}

void simt_gpu_set_timeout(simt_gpu_t *g, double seconds)
{
    limits_set_timeout(&g->limits, seconds);
}

int simt_gpu_set_threads(simt_gpu_t *g, unsigned n)
{
    if (n < 1 || n > SIMT_MAX_THREADS)
        return SIMT_EINPUT;
    g->threads = n;
    return SIMT_OK;
}

const char *simt_gpu_stopped_by(const simt_gpu_t *g)
{
    return limits_name(g->limits.hit);
}

simt_gpu_t *simt_gpu_create(const simt_config_t *cfg, simt_error_t *err)
{
    simt_config_t c;
    if (cfg)
        c = *cfg;
    else
        simt_config_defaults(&c);
    if (simt_config_validate(&c, err) != SIMT_OK)
        return NULL;
    simt_gpu_t *g = calloc(1, sizeof *g);
    if (g)
        g->smem = calloc(1, (size_t)simt_config_get(&c, SIMT_CFG_SHMEM_SM) + 16);
    if (!g || !g->smem) {
        if (g)
            free(g);
        set_error(err, SIMT_EINPUT, "out of host memory creating the GPU");
        return NULL;
    }
    g->cfg = c;
    g->device_out = stdout;
    g->printf_buf.limit = GPU_PRINTF_FIFO_BYTES;
    limits_init(&g->limits, (uint64_t)simt_config_get(&c, SIMT_CFG_MAX_CYCLE),
                (uint64_t)simt_config_get(&c, SIMT_CFG_MAX_INSN));
    if (!simt_config_get(&c, SIMT_CFG_FUNCTIONAL)) {
        g->nsms = (size_t)(simt_config_get(&c, SIMT_CFG_N_CLUSTERS) *
                           simt_config_get(&c, SIMT_CFG_CORES_PER_CLUSTER));
        g->sms = calloc(g->nsms, sizeof *g->sms);
        if (!g->sms) {
            free(g->smem);
            free(g);
            set_error(err, SIMT_EINPUT, "out of host memory creating the GPU");
            return NULL;
        }
        for (size_t i = 0; i < g->nsms; i++)
            g->sms[i].sm = (uint32_t)i;
    }
    devmem_init(&g->mem);
    tex_table_init(&g->tex);
    return g;
}

static void module_free(simt_module_t *m)
{
    if (m->kernels)
        for (uint32_t i = 0; i < m->ptx->nfuncs; i++)
            gpu_kernel_codes_free(&m->kernels[i]);
    free(m->kernels);
    free(m->ptxas_regs);
    free(m->const_bank);
    ptx_module_free(m->ptx);
    free(m);
}

void simt_gpu_destroy(simt_gpu_t *g)
{
    if (!g)
        return;
    for (uint32_t i = 0; i < g->nqueue; i++)
        free(g->queue[i].params);
    free(g->queue);
    while (g->modules) {
        simt_module_t *n = g->modules->next;
        module_free(g->modules);
        g->modules = n;
    }
    devmem_release(&g->mem);
    tex_table_release(&g->tex);
    free(g->smem);
    free(g->printf_buf.text);
    for (size_t i = 0; i < g->nkstats; i++)
        free(g->kstats[i].name);
    free(g->kstats);
    free(g->sms);
    free(g->copies);
    free(g);
}

const simt_config_t *simt_gpu_config(const simt_gpu_t *g) { return &g->cfg; }
const simt_stats_t *simt_gpu_stats(const simt_gpu_t *g) { return &g->stats; }

size_t simt_gpu_kernels(const simt_gpu_t *g, const simt_kernel_stats_t **out)
{
    *out = g->kstats;
    return g->nkstats;
}

size_t simt_gpu_sms(const simt_gpu_t *g, const simt_sm_stats_t **out)
{
    *out = g->sms;
    return g->nsms;
}

/* Room for n more kernel records, each started from its launch; NULL when
 * out of memory. */
static simt_kernel_stats_t *new_kernel_stats(simt_gpu_t *g, const pending_t *pl,
                                             size_t n)
{
    if (g->nkstats + n > g->kstats_cap) {
        size_t cap = g->kstats_cap ? g->kstats_cap * 2 : 16;
        while (cap < g->nkstats + n)
            cap *= 2;
        simt_kernel_stats_t *k = realloc(g->kstats, cap * sizeof *k);
        if (!k)
            return NULL;
        g->kstats = k;
        g->kstats_cap = cap;
    }
    simt_kernel_stats_t *first = &g->kstats[g->nkstats];
    for (size_t i = 0; i < n; i++) {
        const pending_t *p = &pl[i];
        simt_kernel_stats_t *k = &first[i];
        *k = (simt_kernel_stats_t){ 0 };
        k->name = strdup(p->mod->ptx->funcs[p->kernel].name);
        if (!k->name) {
            for (size_t j = 0; j < i; j++)
                free(first[j].name);
            return NULL;
        }
        k->grid[0] = p->launch.grid.x;
        k->grid[1] = p->launch.grid.y;
        k->grid[2] = p->launch.grid.z;
        k->block[0] = p->launch.block.x;
        k->block[1] = p->launch.block.y;
        k->block[2] = p->launch.block.z;
        k->regs_per_thread = p->code->regs;
        k->ctas = (uint64_t)p->launch.grid.x * p->launch.grid.y * p->launch.grid.z;
        const exec_program_t *prog = p->code->prog;
        k->smem_per_cta = exec_cta_smem(prog->static_shared,
                                        p->launch.dynamic_shared_bytes);
        occupancy_t o = occupancy_of(&g->cfg, k->block[0] * k->block[1] * k->block[2],
                                     k->regs_per_thread, k->smem_per_cta);
        k->ctas_per_sm = o.ctas;
        snprintf(k->limiter, sizeof k->limiter, "%s",
                 occupancy_resource_name(o.limiter));
    }
    g->nkstats += n;
    return first;
}

/* ---------- modules ---------- */

/* Writes the address an initializer takes (ir.h, ptx_reloc_t) into the
 * loaded variable: functions at their code address (exec.h), .global
 * variables at their device address, .shared ones at their offset or, with
 * generic(), in the generic shared window; .const at their bank offset. */
static void apply_reloc(simt_module_t *m, const ptx_reloc_t *r)
{
    const ptx_module_t *p = m->ptx;
    const ptx_symbol_t *v = &p->syms[r->var], *t = &p->syms[r->target];
    uint64_t a;
    if (t->kind == PTX_SYM_FUNC)
        a = EXEC_FUNC_BASE + t->offset * EXEC_FUNC_STRIDE;
    else if (t->space == PTX_SPACE_GLOBAL)
        a = m->global_base + t->offset;
    else if (t->space == PTX_SPACE_SHARED)
        a = t->offset + (r->generic ? GEN_SHARED_BASE : 0);
    else
        a = t->offset;
    a = ((a + (uint64_t)r->addend) & r->mask) >> __builtin_ctzll(r->mask);
    uint8_t *dst = v->space == PTX_SPACE_CONST
                       ? m->const_bank + v->offset
                       : devmem_ptr(&m->gpu->mem, m->global_base + v->offset,
                                    v->size);
    for (unsigned i = 0; i < r->bytes; i++)
        dst[r->offset + i] = (uint8_t)(a >> (8 * i));
}

/* The module's .const variables fit the configured constant memory, or
 * SIMT_EINPUT at the first that ends beyond it. */
static int check_const(const ptx_module_t *p, const simt_config_t *cfg,
                       simt_error_t *err)
{
    uint64_t cap = (uint64_t)simt_config_get(cfg, SIMT_CFG_CONST_MEM);
    if (p->const_bytes <= cap)
        return SIMT_OK;
    for (uint32_t i = 0; i < p->nsyms; i++) {
        const ptx_symbol_t *s = &p->syms[i];
        if (s->kind == PTX_SYM_VAR && s->space == PTX_SPACE_CONST &&
            s->offset + s->size > cap)
            return set_input_error(err, p->file, s->line, s->col, ".const '%s' "
                                   "ends at byte %llu of the constant bank, "
                                   "beyond gpgpu_const_mem_size = %llu bytes",
                                   s->name, (unsigned long long)(s->offset + s->size),
                                   (unsigned long long)cap);
    }
    return set_error(err, SIMT_EINPUT, "%s: error: .const variables take %llu "
                     "bytes, more than gpgpu_const_mem_size = %llu", p->file,
                     (unsigned long long)p->const_bytes, (unsigned long long)cap);
}

int simt_module_load_text(simt_gpu_t *g, const char *name, const char *text,
                          size_t len, simt_module_t **out, simt_error_t *err)
{
    if (len > SIMT_PTX_MAX_BYTES)
        return set_error(err, SIMT_EINPUT, "%s: error: %zu bytes of PTX, more "
                         "than the %u allowed", name, len, SIMT_PTX_MAX_BYTES);
    ptx_module_t *p = ptx_parse(name, text, len, err);
    if (!p)
        return SIMT_EINPUT;
    if (check_const(p, &g->cfg, err) != SIMT_OK) {
        ptx_module_free(p);
        return SIMT_EINPUT;
    }
    simt_module_t *m = calloc(1, sizeof *m);
    if (!m) {
        ptx_module_free(p);
        return set_error(err, SIMT_EINPUT, "out of host memory");
    }
    m->gpu = g;
    m->ptx = p;
    m->kernels = calloc(p->nfuncs ? p->nfuncs : 1, sizeof *m->kernels);
    m->ptxas_regs = malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *m->ptxas_regs);
    m->const_bank = calloc(1, p->const_bytes ? p->const_bytes : 1);
    if (!m->kernels || !m->ptxas_regs || !m->const_bank) {
        module_free(m);
        return set_error(err, SIMT_EINPUT, "out of host memory");
    }
    for (uint32_t i = 0; i < p->nfuncs; i++)
        m->ptxas_regs[i] = -1;
    if (p->global_bytes &&
        devmem_alloc(&g->mem, p->global_bytes, &m->global_base) != 0) {
        module_free(m);
        return set_error(err, SIMT_EINPUT, "%s: error: cannot allocate %llu "
                         "bytes for the module's .global variables", name,
                         (unsigned long long)p->global_bytes);
    }
    for (uint32_t i = 0; i < p->nsyms; i++) {
        const ptx_symbol_t *s = &p->syms[i];
        if (s->kind != PTX_SYM_VAR || s->func != ~0u || !s->init)
            continue;
        if (s->space == PTX_SPACE_CONST)
            memcpy(m->const_bank + s->offset, s->init, s->size);
        else if (s->space == PTX_SPACE_GLOBAL)
            memcpy(devmem_ptr(&g->mem, m->global_base + s->offset, s->size),
                   s->init, s->size);
    }
    for (uint32_t i = 0; i < p->nrelocs; i++)
        apply_reloc(m, &p->relocs[i]);
    m->next = g->modules;
    g->modules = m;
    *out = m;
    return SIMT_OK;
}

int simt_module_set_ptxas_regs(simt_module_t *mod, const char *kernel,
                               unsigned regs, simt_error_t *err)
{
    int fi = ptx_find_function(mod->ptx, kernel);
    if (fi < 0 || !mod->ptx->funcs[fi].is_entry)
        return set_error(err, SIMT_EINPUT, "%s has no kernel '%s' to give a "
                         "ptxas register count", mod->ptx->file, kernel);
    mod->ptxas_regs[fi] = (long)regs;
    return SIMT_OK;
}

int simt_module_load_file(simt_gpu_t *g, const char *path, simt_module_t **out,
                          simt_error_t *err)
{
    char *buf;
    size_t len;
    int rc = read_input_file(path, "PTX file", SIMT_PTX_MAX_BYTES, &buf, &len, err);
    if (rc != SIMT_OK)
        return rc;
    rc = simt_module_load_text(g, path, buf, len, out, err);
    free(buf);
    return rc;
}

/* ---------- memory ---------- */

int simt_malloc(simt_gpu_t *g, size_t bytes, simt_devptr_t *out,
                simt_error_t *err)
{
    if (devmem_alloc(&g->mem, bytes, out) != 0)
        return set_error(err, SIMT_EINPUT, "simt_malloc: cannot allocate %zu "
                         "bytes of device memory", bytes);
    return SIMT_OK;
}

int simt_free(simt_gpu_t *g, simt_devptr_t ptr, simt_error_t *err)
{
    if (devmem_free(&g->mem, ptr) != 0)
        return set_error(err, SIMT_EINPUT, "simt_free: 0x%llx is not a live "
                         "allocation", (unsigned long long)ptr);
    return SIMT_OK;
}

static uint8_t *host_range(simt_gpu_t *g, simt_devptr_t p, size_t n,
                           const char *fn, simt_error_t *err)
{
    uint8_t *h = devmem_ptr(&g->mem, p, n ? n : 1);
    if (!h)
        set_error(err, SIMT_EINPUT, "%s: [0x%llx, +%zu) is not inside one live "
                  "device allocation", fn, (unsigned long long)p, n);
    return h;
}

int simt_memcpy_htod(simt_gpu_t *g, simt_devptr_t dst, const void *src,
                     size_t n, simt_error_t *err)
{
    uint8_t *h = host_range(g, dst, n, "simt_memcpy_htod", err);
    if (!h)
        return SIMT_EINPUT;
    memcpy(h, src, n);
    if (simt_config_get(&g->cfg, SIMT_CFG_PERF_SIM_MEMCPY) &&
        !simt_config_get(&g->cfg, SIMT_CFG_FUNCTIONAL) && n) {
        if (g->ncopies == g->copies_cap) {
            unsigned cap = g->copies_cap ? 2 * g->copies_cap : 16;
            timing_copy_t *c = realloc(g->copies, cap * sizeof *c);
            if (!c)
                return set_error(err, SIMT_EINPUT, "out of host memory");
            g->copies = c;
            g->copies_cap = cap;
        }
        g->copies[g->ncopies++] = (timing_copy_t){ dst, n };
    }
    return SIMT_OK;
}

int simt_memcpy_dtoh(simt_gpu_t *g, void *dst, simt_devptr_t src, size_t n,
                     simt_error_t *err)
{
    uint8_t *h = host_range(g, src, n, "simt_memcpy_dtoh", err);
    if (!h)
        return SIMT_EINPUT;
    memcpy(dst, h, n);
    return SIMT_OK;
}

int simt_memset(simt_gpu_t *g, simt_devptr_t dst, int v, size_t n,
                simt_error_t *err)
{
    uint8_t *h = host_range(g, dst, n, "simt_memset", err);
    if (!h)
        return SIMT_EINPUT;
    memset(h, v, n);
    return SIMT_OK;
}

/* ---------- texture and surface objects ---------- */

static int object_create(simt_gpu_t *g, const simt_tex_resource_t *res,
                         const simt_tex_desc_t *desc, uint64_t *handle,
                         simt_error_t *err)
{
    const char *fn = desc ? "simt_tex_create" : "simt_surf_create";
    if (!res || !handle)
        return set_error(err, SIMT_EINPUT, "%s: NULL argument", fn);
    tex_object_t o;
    char why[256];
    const char *bad = tex_object_make(&o, res, desc, &g->mem, why, sizeof why);
    if (bad)
        return set_error(err, SIMT_EINPUT, "%s: %s", fn, bad);
    if (tex_table_add(&g->tex, &o, handle) != 0)
        return set_error(err, SIMT_EINPUT, "%s: out of host memory", fn);
    return SIMT_OK;
}

int simt_tex_create(simt_gpu_t *g, const simt_tex_resource_t *res,
                    const simt_tex_desc_t *desc, uint64_t *handle,
                    simt_error_t *err)
{
    if (!desc)
        return set_error(err, SIMT_EINPUT, "simt_tex_create: NULL descriptor");
    return object_create(g, res, desc, handle, err);
}

int simt_surf_create(simt_gpu_t *g, const simt_tex_resource_t *res,
                     uint64_t *handle, simt_error_t *err)
{
    return object_create(g, res, NULL, handle, err);
}

int simt_tex_destroy(simt_gpu_t *g, uint64_t handle, simt_error_t *err)
{
    if (tex_table_remove(&g->tex, handle) != 0)
        return set_error(err, SIMT_EINPUT, "simt_tex_destroy: 0x%llx is not a "
                         "live texture or surface object", (unsigned long long)handle);
    return SIMT_OK;
}

/* ---------- launches ---------- */

/* CUDA's limits on grid dimensions (compute capability 3.0 and later);
 * a block's x and y are at most max_threads_per_cta (CUDA: 1024) and its
 * z at most 64.  They keep every product of dimensions (threads per CTA,
 * CTAs, linear ids) far from overflowing 64 bits. */
static const uint32_t grid_max[3] = { 0x7fffffffu, 65535, 65535 };

static int check_dims(const simt_dim3_t *d, const char *what,
                      const uint32_t max[3], const char *why, simt_error_t *err)
{
    if (!d->x || !d->y || !d->z)
        return set_error(err, SIMT_EINPUT, "launch: %s dimensions (%u,%u,%u) "
                         "must all be at least 1", what, d->x, d->y, d->z);
    if (d->x > max[0] || d->y > max[1] || d->z > max[2])
        return set_error(err, SIMT_EINPUT, "launch: %s dimensions (%u,%u,%u) "
                         "exceed the limits (%u,%u,%u): %s", what, d->x,
                         d->y, d->z, max[0], max[1], max[2], why);
    return SIMT_OK;
}

int simt_launch_kernel(simt_gpu_t *g, simt_module_t *mod, const char *kernel,
                       const simt_launch_t *launch, const simt_arg_t *args,
                       size_t nargs, simt_error_t *err)
{
    const ptx_module_t *p = mod->ptx;
    int fi = ptx_find_function(p, kernel);
    if (fi < 0 || !p->funcs[fi].is_entry) {
        char list[512] = "";
        size_t n = 0;
        for (uint32_t i = 0; i < p->nfuncs && n < sizeof list - 64; i++)
            if (p->funcs[i].is_entry && p->funcs[i].count)
                n += (size_t)snprintf(list + n, sizeof list - n, "%s%s",
                                      n ? ", " : "", p->funcs[i].name);
        return set_error(err, SIMT_EINPUT, "launch: %s has no kernel '%s' "
                         "(kernels: %s)", p->file, kernel, n ? list : "none");
    }
    const ptx_function_t *f = &p->funcs[fi];
    uint32_t bmax = (uint32_t)simt_config_get(&g->cfg, SIMT_CFG_MAX_THREADS_CTA);
    const uint32_t block_max[3] = { bmax, bmax, 64 };
    if (check_dims(&launch->grid, "grid", grid_max, "CUDA's", err) ||
        check_dims(&launch->block, "block", block_max,
                   "x and y at most max_threads_per_cta, z at most 64", err))
        return SIMT_EINPUT;
    uint64_t threads = (uint64_t)launch->block.x * launch->block.y * launch->block.z;
    int64_t maxt = simt_config_get(&g->cfg, SIMT_CFG_MAX_THREADS_CTA);
    if (threads > (uint64_t)maxt)
        return set_error(err, SIMT_EINPUT, "launch of '%s': %llu threads per "
                         "CTA exceeds max_threads_per_cta = %lld", kernel,
                         (unsigned long long)threads, (long long)maxt);
    if (f->maxntid[0] &&
        threads > (uint64_t)f->maxntid[0] * f->maxntid[1] * f->maxntid[2])
        return set_error(err, SIMT_EINPUT, "launch of '%s': %llu threads per "
                         "CTA exceeds the kernel's .maxntid %u,%u,%u", kernel,
                         (unsigned long long)threads, f->maxntid[0],
                         f->maxntid[1], f->maxntid[2]);
    if (f->reqntid[0] && (launch->block.x != f->reqntid[0] ||
                          launch->block.y != f->reqntid[1] ||
                          launch->block.z != f->reqntid[2]))
        return set_error(err, SIMT_EINPUT, "launch of '%s': block (%u,%u,%u) "
                         "differs from the kernel's .reqntid %u,%u,%u", kernel,
                         launch->block.x, launch->block.y, launch->block.z,
                         f->reqntid[0], f->reqntid[1], f->reqntid[2]);
    uint64_t shared = ptx_kernel_shared_bytes(p, (uint32_t)fi);
    shared = exec_cta_smem(shared, launch->dynamic_shared_bytes);
    int64_t smax = simt_config_get(&g->cfg, SIMT_CFG_SHMEM_SM);
    if (shared > (uint64_t)smax)
        return set_error(err, SIMT_EINPUT, "launch of '%s': %llu bytes of shared "
                         "memory per CTA (static + dynamic) exceed "
                         "gpgpu_shmem_size = %lld", kernel,
                         (unsigned long long)shared, (long long)smax);
    if (nargs != f->nparams)
        return set_error(err, SIMT_EINPUT, "launch of '%s': %zu arguments given, "
                         "the kernel takes %u", kernel, nargs, f->nparams);
    /* compile the kernel now, so that unsupported code is reported by the
     * launch that introduces it */
    const gpu_compiled_t *ck;
    int crc = gpu_kernel_code(&mod->kernels[fi], p, (uint32_t)fi, &g->cfg,
                              mod->global_base, mod->ptxas_regs[fi],
                              (uint32_t)threads, launch->dynamic_shared_bytes,
                              &ck, err);
    if (crc != SIMT_OK)
        return crc;
    occupancy_t occ = occupancy_of(&g->cfg, (uint32_t)threads, ck->regs,
                                   shared);
    if (occ.ctas == 0)
        return set_error(err, SIMT_EINPUT, "launch of '%s': a CTA of %llu "
                         "threads x %u registers does not fit on an SM: %s "
                         "(%s = %lld) allow none", kernel,
                         (unsigned long long)threads, ck->regs,
                         occupancy_resource_name(occ.limiter),
                         simt_config_key_name(occupancy_resource_key(occ.limiter)),
                         (long long)simt_config_get(&g->cfg,
                             occupancy_resource_key(occ.limiter)));
    uint8_t *params = calloc(1, f->param_bytes ? f->param_bytes : 1);
    if (!params)
        return set_error(err, SIMT_EINPUT, "out of host memory");
    for (uint32_t i = 0; i < f->nparams; i++) {
        const ptx_symbol_t *s = &p->syms[f->params[i]];
        if (args[i].size != s->size) {
            free(params);
            return set_error(err, SIMT_EINPUT, "launch of '%s': argument %u "
                             "('%s') has %zu bytes, the parameter is %llu "
                             "bytes (%s)", kernel, i, s->name, args[i].size,
                             (unsigned long long)s->size,
                             ptx_type_name((ptx_type_t)s->type));
        }
        memcpy(params + s->offset, args[i].data, args[i].size);
    }
    if (g->nqueue == g->qcap) {
        uint32_t nc = g->qcap ? g->qcap * 2 : 8;
        pending_t *q = realloc(g->queue, nc * sizeof *q);
        if (!q) {
            free(params);
            return set_error(err, SIMT_EINPUT, "out of host memory");
        }
        g->queue = q;
        g->qcap = nc;
    }
    g->queue[g->nqueue++] = (pending_t){ mod, (uint32_t)fi, ck, *launch, params };
    /* a mix member's streams are its own (gpu/mix.h) */
    if (g->mix && gpu_mix_stream(g->mix, launch->stream,
                                 &g->queue[g->nqueue - 1].launch.stream) != 0) {
        free(g->queue[--g->nqueue].params);
        return set_error(err, SIMT_EINPUT, "launch of '%s': stream %d is out "
                         "of range for a mix", kernel, launch->stream);
    }
    return SIMT_OK;
}

/* The executor's view of a queued launch. */
static exec_launch_t launch_of(simt_gpu_t *g, const pending_t *pl,
                               simt_error_t *err)
{
    simt_module_t *mod = pl->mod;
    exec_launch_t L = {
        .prog = pl->code->prog,
        .kernel_name = mod->ptx->funcs[pl->kernel].name,
        .gmem = &g->mem,
        .tex = &g->tex,
        .params = pl->params,
        .const_bank = mod->const_bank,
        .const_bytes = mod->ptx->const_bytes,
        .grid = pl->launch.grid,
        .block = pl->launch.block,
        .dyn_shared = pl->launch.dynamic_shared_bytes,
        .smid_count = (uint32_t)(simt_config_get(&g->cfg, SIMT_CFG_N_CLUSTERS) *
                                 simt_config_get(&g->cfg, SIMT_CFG_CORES_PER_CLUSTER)),
        .stats = &g->stats,
        .cfg = &g->cfg,
        .err = err,
        .printf_out = &g->printf_buf,
        .limits = &g->limits,
    };
    return L;
}

/* Scratchpad bytes one CTA of the launch takes (static + dynamic). */
static uint32_t cta_smem(const exec_launch_t *L)
{
    return (uint32_t)exec_cta_smem(L->prog->static_shared, L->dyn_shared);
}

/* Runs every queued launch on the timing model: concurrently across
 * streams, in order within a stream. */
static int run_timing(simt_gpu_t *g, simt_error_t *err)
{
    timing_launch_t *ls = calloc(g->nqueue ? g->nqueue : 1, sizeof *ls);
    simt_kernel_stats_t *ks = new_kernel_stats(g, g->queue, g->nqueue);
    if (!ls || !ks) {
        free(ls);
        return set_error(err, SIMT_EINPUT, "out of host memory");
    }
    for (uint32_t i = 0; i < g->nqueue; i++) {
        const pending_t *pl = &g->queue[i];
        ls[i].l = launch_of(g, pl, err);
        ls[i].regs = pl->code->regs;
        ls[i].slot_phys = pl->code->slot_phys;
        ls[i].smem = cta_smem(&ls[i].l);
        ls[i].stream = (uint32_t)pl->launch.stream;
    }
    g->stats.kernels_launched += g->nqueue;
    timing_extras_t x = { .copies = g->copies, .ncopies = g->ncopies,
                          .progress = g->progress, .progress_ctx = g->progress_ctx,
                          .progress_every = g->progress_every,
                          .cta_trace = g->cta_trace,
                          .cta_trace_ctx = g->cta_trace_ctx,
                          .threads = g->threads, .way = &g->par_way };
    int rc = timing_run(ls, g->nqueue, &g->cfg, g->hooks, &x, &g->stats, ks, g->sms);
    g->ncopies = 0; /* the L2 of the next run starts from the copies after */
    free(ls);
    return rc;
}

static int run_functional(simt_gpu_t *g, pending_t *pl, simt_error_t *err)
{
    exec_launch_t L = launch_of(g, pl, err);
    uint32_t smem = cta_smem(&L);
    simt_kernel_stats_t *ks = new_kernel_stats(g, pl, 1);
    if (!ks)
        return set_error(err, SIMT_EINPUT, "out of host memory");
    uint64_t warp0 = g->stats.warp_insns, thread0 = g->stats.thread_insns;
    g->stats.kernels_launched++;
    const simt_dim3_t *gr = &pl->launch.grid;
    uint64_t nctas = (uint64_t)gr->x * gr->y * gr->z;
    int rc = SIMT_OK;
    for (uint64_t i = 0; i < nctas; i++) {
        uint32_t id[3] = { (uint32_t)(i % gr->x), (uint32_t)(i / gr->x % gr->y),
                           (uint32_t)(i / ((uint64_t)gr->x * gr->y)) };
        memset(g->smem, 0, smem);
        cta_t c;
        rc = cta_init(&c, &L, id, (uint32_t)(i % L.smid_count), g->smem, smem);
        if (rc == SIMT_OK)
            rc = cta_run_functional(&c);
        cta_release(&c);
        if (rc != SIMT_OK)
            break;
    }
    /* a run limit keeps the counts so far */
    ks->warp_insns = g->stats.warp_insns - warp0;
    ks->thread_insns = g->stats.thread_insns - thread0;
    return rc;
}

/* In a mix, a driver's synchronize waits for its round (gpu/mix.h), whose
 * last member runs gpu_synchronize_queue for all. */
int simt_synchronize(simt_gpu_t *g, simt_error_t *err)
{
    if (g->mix)
        return gpu_mix_synchronize(g->mix, err);
    return gpu_synchronize_queue(g, err);
}

int gpu_synchronize_queue(simt_gpu_t *g, simt_error_t *err)
{
    int rc = SIMT_OK;
    uint32_t i = 0;
    char what[96];
    if (g->limits.hit) /* the run is over: a driver that goes on learns it */
        rc = set_error(err, SIMT_ELIMIT, "stopped: %s reached earlier in the "
                       "run", limits_describe(&g->limits, what, sizeof what));
    else if (!simt_config_get(&g->cfg, SIMT_CFG_FUNCTIONAL))
        rc = run_timing(g, err);
    else
        for (; i < g->nqueue && rc == SIMT_OK; i++)
            rc = run_functional(g, &g->queue[i], err);
    for (uint32_t k = 0; k < g->nqueue; k++)
        free(g->queue[k].params);
    g->nqueue = 0;
    /* after a fault too: what the kernels printed before it */
    int wrc = flush_printf(g, rc == SIMT_OK ? err : &(simt_error_t){ 0 });
    return rc == SIMT_OK ? wrc : rc;
}
