/* lbm driver: a D3Q19 lattice-Boltzmann channel of nx x ny x nz cells (obstacle border, seeded interior
 * obstacles, an inflow plane at z = 1) stepped `steps` times by the kernel, ping-ponging two
 * distribution arrays; every distribution of the final state is compared with a CPU double-precision run
 * of the same steps (absolute tolerance, reported in the detail).  Two workloads: lbm (128-cell rows) and
 * lbm004 (Parboil's 100-cell rows, workloads/lbm004/kernel.ptx: the same kernel source built with NX 100). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

/* must match kernel.cu; the row length nx (the kernel's NX) is a property of each workload */
#define Q 19
#define FLUID 0
#define OBSTACLE 1
#define INFLOW 2

#define TAU0 0.6         /* molecular relaxation time (omega 1.67) */
#define CSMAG2 0.03      /* Smagorinsky constant squared */
#define OBST_PER_256 24  /* interior obstacle density: about 9% */
#define TOL 1e-5         /* on max |f - ref|; distributions lie in about [0.02, 0.4] */

static const int EX[Q] = { 0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0 };
static const int EY[Q] = { 0, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 0, 0, 1, -1, 1, -1 };
static const int EZ[Q] = { 0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, -1, 1, 1, -1, -1, 1 };

static int fail(simt_error_t *err, const char *name, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "%s: %s", name, msg);
    return SIMT_EINPUT;
}

static double weight(int q)
{
    return q == 0 ? 1.0 / 3.0 : q < 7 ? 1.0 / 18.0 : 1.0 / 36.0;
}

/* Index of direction q of cell (x, row r) in the row-blocked layout. */
static size_t fidx(int nx, size_t r, int q, int x)
{
    return (r * Q + (size_t)q) * (size_t)nx + (size_t)x;
}

/* One step of the kernel's model on the CPU in double precision. */
static void ref_step(const double *src, double *dst, const unsigned char *flag, int nx, int ny, int nz)
{
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                size_t r = (size_t)y + (size_t)ny * z;
                unsigned char kind = flag[r * nx + x];
                double f[Q];
                if (kind == OBSTACLE) {
                    for (int q = 0; q < Q; q++)
                        dst[fidx(nx, r, q, x)] = src[fidx(nx, r, q == 0 ? 0 : (q & 1) ? q + 1 : q - 1, x)];
                    continue;
                }
                double rho = 0, mx = 0, my = 0, mz = 0;
                for (int q = 0; q < Q; q++) {
                    size_t rn = (size_t)(y - EY[q]) + (size_t)ny * (size_t)(z - EZ[q]);
                    f[q] = src[fidx(nx, rn, q, x - EX[q])];
                    rho += f[q];
                    mx += EX[q] * f[q];
                    my += EY[q] * f[q];
                    mz += EZ[q] * f[q];
                }
                double ux = mx / rho, uy = my / rho, uz = mz / rho;
                if (kind == INFLOW)
                    ux = uy = 0.0, uz = 0.01;
                double u[3] = { ux, uy, uz }, pi[3][3] = { { 0 } };
                for (int q = 0; q < Q; q++) {
                    int e[3] = { EX[q], EY[q], EZ[q] };
                    for (int a = 0; a < 3; a++)
                        for (int b = 0; b < 3; b++)
                            pi[a][b] += e[a] * e[b] * f[q];
                }
                double qq = 0;
                for (int a = 0; a < 3; a++)
                    for (int b = 0; b < 3; b++) {
                        double n = pi[a][b] - rho * u[a] * u[b] - (a == b ? rho / 3.0 : 0.0);
                        qq += n * n;
                    }
                double omega = 2.0 / (TAU0 + sqrt(TAU0 * TAU0 + 18.0 * CSMAG2 * sqrt(2.0 * qq) / rho));
                double usq = 1.5 * (ux * ux + uy * uy + uz * uz);
                for (int q = 0; q < Q; q++) {
                    double eu = EX[q] * ux + EY[q] * uy + EZ[q] * uz;
                    double feq = weight(q) * rho * (1.0 + 3.0 * eu + 4.5 * eu * eu - usq);
                    dst[fidx(nx, r, q, x)] = f[q] + omega * (feq - f[q]);
                }
            }
}

/* One workload on the kernel: its name in the PTX, the row length (threads per CTA), the default step
 * count, and the grid (ny x nz) per size; a size with ny == 0 does not exist for that workload. */
typedef struct lbm_size {
    const char *name;
    int ny, nz;
} lbm_size_t;

typedef struct lbm_shape {
    const char *name; /* the workload's, for error messages */
    const char *kernel;
    int nx;
    long steps;
    lbm_size_t size[3];
    const char *sizes_msg; /* the error for another size */
} lbm_shape_t;

static const lbm_shape_t LBM = {
    "lbm", "lbm_stream_collide", 128, 2,
    { { "small", 16, 16 },   /* 256 CTAs, 32,768 threads */
      { "dwf", 12, 8 },      /* 96 CTAs = 12,288 threads (DWF: 768 per core x 16 cores) */
      { "paper", 120, 150 } }, /* Parboil lbm's 120 x 120 x 150 channel, rows padded to 128: 18,000 CTAs */
    "param size must be small, dwf or paper",
};

static const lbm_shape_t LBM004 = {
    "lbm004", "lbm004_stream_collide", 100, 1,
    { { "small", 8, 8 },     /* 64 CTAs of 100 threads */
      { "paper", 100, 130 }, /* Parboil lbm's 100 x 100 x 130 lattice: 13,000 CTAs (004 Table 2) */
      { NULL, 0, 0 } },
    "param size must be small or paper",
};

static int launch_steps(simt_gpu_t *gpu, simt_module_t *mod, const lbm_shape_t *sh, int ny, int nz, int steps,
                        simt_devptr_t *dev, simt_error_t *err)
{
    const int nx = sh->nx;
    float tau0 = (float)TAU0, csmag2 = (float)CSMAG2;
    simt_launch_t l = {
        .grid = { (uint32_t)ny, (uint32_t)nz, 1 },
        .block = { (uint32_t)nx, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    for (int s = 0; s < steps; s++) {
        simt_devptr_t a = dev[s & 1], b = dev[(s + 1) & 1];
        simt_arg_t args[] = { SIMT_ARG(a), SIMT_ARG(b), SIMT_ARG(dev[2]), SIMT_ARG(ny), SIMT_ARG(tau0),
                              SIMT_ARG(csmag2) };
        int rc = simt_launch_kernel(gpu, mod, sh->kernel, &l, args, 6, err);
        if (rc != SIMT_OK)
            return rc;
    }
    return simt_synchronize(gpu, err);
}

static int run_shape(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                     simt_error_t *err, const lbm_shape_t *sh)
{
    long seed_l, steps_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 470, 1, 0x7fffffffL, &seed_l, err) != 0 ||
        simt_wl_param_int(params, "steps", sh->steps, 1, 1000, &steps_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    const int nx = sh->nx;
    const size_t rowf = (size_t)Q * nx;
    int ny = 0, nz = 0, steps = (int)steps_l;
    for (int i = 0; i < 3 && sh->size[i].name; i++)
        if (strcmp(size, sh->size[i].name) == 0)
            ny = sh->size[i].ny, nz = sh->size[i].nz;
    if (ny == 0)
        return fail(err, sh->name, sh->sizes_msg);
    uint32_t seed = (uint32_t)seed_l;
    size_t rows = (size_t)ny * nz, cells = rows * nx, nf = rows * rowf;
    unsigned char *flag = malloc(cells);
    float *f = malloc(nf * sizeof(float));
    double *ra = malloc(nf * sizeof(double)), *rb = malloc(nf * sizeof(double));
    simt_devptr_t dev[3] = { 0 };
    int rc = SIMT_OK;
    if (!flag || !f || !ra || !rb) {
        rc = fail(err, sh->name, "host out of memory");
        goto done;
    }
    size_t n_obst = 0, n_in = 0;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                size_t c = ((size_t)z * ny + y) * nx + x;
                int border = x == 0 || x == nx - 1 || y == 0 || y == ny - 1 || z == 0 || z == nz - 1;
                uint32_t h = simt_wl_rand(&seed) >> 24;
                flag[c] = border || h < OBST_PER_256 ? OBSTACLE : z == 1 ? INFLOW : FLUID;
                n_obst += flag[c] == OBSTACLE;
                n_in += flag[c] == INFLOW;
            }
    for (size_t r = 0; r < rows; r++)
        for (int q = 0; q < Q; q++)
            for (int x = 0; x < nx; x++) {
                /* equilibrium at rest with a +-10% seeded perturbation */
                double p = (double)(simt_wl_rand(&seed) >> 8) / 16777216.0 * 0.2 - 0.1;
                f[fidx(nx, r, q, x)] = (float)(weight(q) * (1.0 + p));
                ra[fidx(nx, r, q, x)] = f[fidx(nx, r, q, x)];
            }
    if ((rc = simt_wl_upload(gpu, f, nf * sizeof(float), &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, nf * sizeof(float), &dev[1], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, flag, cells, &dev[2], err)) != SIMT_OK ||
        (rc = launch_steps(gpu, mod, sh, ny, nz, steps, dev, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, f, dev[steps & 1], nf * sizeof(float), err)) != SIMT_OK)
        goto done;
    for (int s = 0; s < steps; s++) {
        ref_step(ra, rb, flag, nx, ny, nz);
        double *t = ra;
        ra = rb;
        rb = t;
    }
    double worst = 0.0;
    for (size_t i = 0; i < nf; i++) {
        double e = fabs(f[i] - ra[i]);
        worst = e > worst || isnan(e) ? e : worst;
    }
    res->passed = worst <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "%dx%dx%d cells (%zu obstacle, %zu inflow), %d steps, grid %dx%d of %d: max abs err %.2e (tol %.0e)",
             nx, ny, nz, n_obst, n_in, steps, ny, nz, nx, worst, TOL);
done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(flag);
    free(f);
    free(ra);
    free(rb);
    return rc;
}

static int run_lbm(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                   simt_error_t *err)
{
    return run_shape(gpu, mod, params, res, err, &LBM);
}

static int run_lbm004(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                      simt_error_t *err)
{
    return run_shape(gpu, mod, params, res, err, &LBM004);
}

SIMT_WORKLOAD(lbm, "D3Q19 lattice-Boltzmann stream+collide (pull, Smagorinsky BGK), obstacle branch, 128 thr",
              "workloads/lbm/kernel.ptx", run_lbm);
/* lbm004's kernel is this folder's kernel.cu built with NX 100 (workloads/lbm004/kernel.cu) */
SIMT_WORKLOAD(lbm004, "D3Q19 lattice-Boltzmann as 004's LBM: 100-thread CTAs (Parboil's 100-cell rows), one step",
              "workloads/lbm004/kernel.ptx", run_lbm004);
