/* textures driver: texture and surface objects end to end (kernel.cu).
 *
 * The CPU reference samples the way the CUDA programming guide's texture
 * appendix describes, written out per case here; sample positions are
 * chosen on multiples of 1/256 texel so that the hardware's 9-bit filter
 * weights are exact and the reference needs no fixed-point model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define IW 16  /* source image */
#define IH 8
#define OW 64  /* resampled and gathered images */
#define OH 16
#define NF 256 /* tex1Dfetch elements */
#define NV 128 /* volume samples */
#define LW 7   /* layered / 3-D texture: 7 x 5, 4 layers or 3 slices */
#define LH 5

static float img_at(const float *img, int x, int y, int wrap)
{
    if (wrap) {
        x = ((x % IW) + IW) % IW;
        y = ((y % IH) + IH) % IH;
    } else {
        x = x < 0 ? 0 : x >= IW ? IW - 1 : x;
        y = y < 0 ? 0 : y >= IH ? IH - 1 : y;
    }
    return img[y * IW + x];
}

static int check(const float *got, const float *want, int n, const char *what,
                 simt_wl_result_t *res)
{
    for (int i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= 1e-4f * (1.0f + fabsf(want[i])))) {
            snprintf(res->detail, sizeof res->detail, "%s[%d] = %.9g, expected %.9g",
                     what, i, (double)got[i], (double)want[i]);
            return 0;
        }
    return 1;
}

static simt_tex_desc_t desc(simt_tex_address_t a, simt_tex_filter_t f, int norm)
{
    simt_tex_desc_t d;
    memset(&d, 0, sizeof d);
    d.address[0] = d.address[1] = d.address[2] = a;
    d.filter = f;
    d.normalized_coords = norm;
    return d;
}

static int run_textures(simt_gpu_t *gpu, simt_module_t *mod,
                        const simt_wl_params_t *params, simt_wl_result_t *res,
                        simt_error_t *err)
{
    (void)params;
    uint32_t seed = 777;
    static float img[IW * IH], out[OW * OH * 4], want[OW * OH * 4];
    static uint8_t bytes[NF * 4];
    static float lay[4 * LH * LW], vol[3 * LH * LW], surf[OW * OH];
    for (int i = 0; i < IW * IH; i++)
        img[i] = (float)(simt_wl_rand(&seed) % 1000) / 8.0f;
    for (int i = 0; i < NF * 4; i++)
        bytes[i] = (uint8_t)simt_wl_rand(&seed);
    for (int i = 0; i < 4 * LH * LW; i++)
        lay[i] = (float)i;
    for (int i = 0; i < 3 * LH * LW; i++)
        vol[i] = (float)(1000 + i);
    for (int i = 0; i < OW * OH; i++)
        surf[i] = (float)(simt_wl_rand(&seed) % 512);

    enum { D_IMG, D_OUT, D_BYTES, D_LAY, D_VOL, D_SIN, D_SOUT, ND };
    simt_devptr_t dev[ND] = { 0 };
    int rc;
    if ((rc = simt_wl_upload(gpu, img, sizeof img, &dev[D_IMG], err)) ||
        (rc = simt_malloc(gpu, sizeof out, &dev[D_OUT], err)) ||
        (rc = simt_wl_upload(gpu, bytes, sizeof bytes, &dev[D_BYTES], err)) ||
        (rc = simt_wl_upload(gpu, lay, sizeof lay, &dev[D_LAY], err)) ||
        (rc = simt_wl_upload(gpu, vol, sizeof vol, &dev[D_VOL], err)) ||
        (rc = simt_wl_upload(gpu, surf, sizeof surf, &dev[D_SIN], err)) ||
        (rc = simt_malloc(gpu, sizeof surf, &dev[D_SOUT], err)))
        goto done;

    uint64_t t_wrap, t_clamp, t_bytes, t_lay, t_vol, s_in, s_out;
    simt_tex_resource_t r2 = { .data = dev[D_IMG], .geom = SIMT_TEX_2D,
                               .format = SIMT_TEX_F32, .channels = 1,
                               .width = IW, .height = IH };
    simt_tex_desc_t dw = desc(SIMT_TEX_WRAP, SIMT_TEX_LINEAR, 1);
    simt_tex_desc_t dc = desc(SIMT_TEX_CLAMP, SIMT_TEX_POINT, 0);
    simt_tex_resource_t r1 = { .data = dev[D_BYTES], .geom = SIMT_TEX_1D,
                               .format = SIMT_TEX_U8, .channels = 4, .width = NF };
    simt_tex_desc_t dn = dc;
    dn.read = SIMT_TEX_NORMALIZED_FLOAT;
    simt_tex_resource_t rl = { .data = dev[D_LAY], .geom = SIMT_TEX_2D_LAYERED,
                               .format = SIMT_TEX_F32, .channels = 1,
                               .width = LW, .height = LH, .layers = 4 };
    simt_tex_resource_t rv = { .data = dev[D_VOL], .geom = SIMT_TEX_3D,
                               .format = SIMT_TEX_F32, .channels = 1,
                               .width = LW, .height = LH, .depth = 3 };
    simt_tex_resource_t rs = { .data = dev[D_SIN], .geom = SIMT_TEX_2D,
                               .format = SIMT_TEX_F32, .channels = 1,
                               .width = OW, .height = OH };
    if ((rc = simt_tex_create(gpu, &r2, &dw, &t_wrap, err)) ||
        (rc = simt_tex_create(gpu, &r2, &dc, &t_clamp, err)) ||
        (rc = simt_tex_create(gpu, &r1, &dn, &t_bytes, err)) ||
        (rc = simt_tex_create(gpu, &rl, &dc, &t_lay, err)) ||
        (rc = simt_tex_create(gpu, &rv, &dc, &t_vol, err)) ||
        (rc = simt_surf_create(gpu, &rs, &s_in, err)))
        goto done;
    rs.data = dev[D_SOUT];
    if ((rc = simt_surf_create(gpu, &rs, &s_out, err)))
        goto done;

    simt_launch_t l2 = { .grid = { OW / 16, OH / 8, 1 }, .block = { 16, 8, 1 } };
    simt_launch_t l1 = { .grid = { NF / 128, 1, 1 }, .block = { 128, 1, 1 } };
    simt_launch_t lv = { .grid = { 1, 1, 1 }, .block = { NV, 1, 1 } };
    int ow = OW, oh = OH, nf = NF, nv = NV;
    float ox = -3.25f, oy = 2.5f, dx = 0.75f, dy = -0.25f;
    simt_arg_t a_res[] = { SIMT_ARG(t_wrap), SIMT_ARG(dev[D_OUT]), SIMT_ARG(ow),
                           SIMT_ARG(oh), SIMT_ARG(ox), SIMT_ARG(oy) };
    if ((rc = simt_launch_kernel(gpu, mod, "resample", &l2, a_res, 6, err)) ||
        (rc = simt_synchronize(gpu, err)) ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[D_OUT], OW * OH * 4, err)))
        goto done;
    /* resample: u = (x + ox) / OW scaled by IW is (x + ox) / 4 texels */
    for (int y = 0; y < OH; y++)
        for (int x = 0; x < OW; x++) {
            float xb = (x + ox) * IW / OW - 0.5f, yb = (y + oy) * IH / OH - 0.5f;
            int i = (int)floorf(xb), j = (int)floorf(yb);
            float a = xb - i, b = yb - j;
            want[y * OW + x] = (1 - a) * (1 - b) * img_at(img, i, j, 1) +
                               a * (1 - b) * img_at(img, i + 1, j, 1) +
                               (1 - a) * b * img_at(img, i, j + 1, 1) +
                               a * b * img_at(img, i + 1, j + 1, 1);
        }
    if (!check(out, want, OW * OH, "resample", res))
        goto done;

    simt_arg_t a_gat[] = { SIMT_ARG(t_clamp), SIMT_ARG(dev[D_OUT]), SIMT_ARG(ow),
                           SIMT_ARG(oh), SIMT_ARG(dx), SIMT_ARG(dy) };
    if ((rc = simt_launch_kernel(gpu, mod, "gather", &l2, a_gat, 6, err)) ||
        (rc = simt_synchronize(gpu, err)) ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[D_OUT], OW * OH * 16, err)))
        goto done;
    /* gather: lower left, lower right, upper right, upper left of the
     * bilinear footprint (rows grow downwards) */
    for (int y = 0; y < OH; y++)
        for (int x = 0; x < OW; x++) {
            int i = (int)floorf(x + dx), j = (int)floorf(y + dy);
            float *w = &want[(y * OW + x) * 4];
            w[0] = img_at(img, i, j + 1, 0);
            w[1] = img_at(img, i + 1, j + 1, 0);
            w[2] = img_at(img, i + 1, j, 0);
            w[3] = img_at(img, i, j, 0);
        }
    if (!check(out, want, OW * OH * 4, "gather", res))
        goto done;

    simt_arg_t a_fet[] = { SIMT_ARG(t_bytes), SIMT_ARG(dev[D_OUT]), SIMT_ARG(nf) };
    if ((rc = simt_launch_kernel(gpu, mod, "fetch", &l1, a_fet, 3, err)) ||
        (rc = simt_synchronize(gpu, err)) ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[D_OUT], NF * 4, err)))
        goto done;
    for (int i = 0; i < NF; i++)
        want[i] = (bytes[4 * i] + bytes[4 * i + 1] + bytes[4 * i + 2] +
                   bytes[4 * i + 3]) / 255.0f;
    if (!check(out, want, NF, "fetch", res))
        goto done;

    simt_arg_t a_vol[] = { SIMT_ARG(t_lay), SIMT_ARG(t_vol), SIMT_ARG(dev[D_OUT]),
                           SIMT_ARG(nv) };
    if ((rc = simt_launch_kernel(gpu, mod, "volume", &lv, a_vol, 4, err)) ||
        (rc = simt_synchronize(gpu, err)) ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[D_OUT], NV * 8, err)))
        goto done;
    for (int i = 0; i < NV; i++) {
        int x = i % 7, y = i / 7 % 5, z = i % 3, l = i % 4;
        want[2 * i] = lay[(l * LH + y) * LW + x];
        want[2 * i + 1] = vol[(z * LH + y) * LW + x];
    }
    if (!check(out, want, 2 * NV, "volume", res))
        goto done;

    simt_arg_t a_blur[] = { SIMT_ARG(s_in), SIMT_ARG(s_out), SIMT_ARG(ow),
                            SIMT_ARG(oh) };
    if ((rc = simt_launch_kernel(gpu, mod, "blur", &l2, a_blur, 4, err)) ||
        (rc = simt_synchronize(gpu, err)) ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[D_SOUT], OW * OH * 4, err)))
        goto done;
    for (int y = 0; y < OH; y++)
        for (int x = 0; x < OW; x++) {
            int xl = x > 0 ? x - 1 : 0, xr = x < OW - 1 ? x + 1 : OW - 1;
            want[y * OW + x] = (surf[y * OW + xl] + surf[y * OW + x] +
                                surf[y * OW + xr]) / 3.0f;
        }
    if (!check(out, want, OW * OH, "blur", res))
        goto done;
    res->passed = 1;
    snprintf(res->detail, sizeof res->detail, "5 kernels: bilinear wrap "
             "resample %dx%d, tld4 gather, uchar4 fetch, layered + 3-D, "
             "surface blur", OW, OH);
done:
    return simt_wl_release(gpu, dev, ND, rc, err);
}

SIMT_WORKLOAD(textures, "texture and surface objects (tex, tld4, suld, sust)",
              "tests/kernels/textures/kernel.ptx", run_textures);
