// ray kernel: a small Whitted-style ray tracer, one primary ray per pixel, 16x8 threads per CTA, in the
// manner of GPGPU-Sim's RAY benchmark: spheres and a checkered ground plane lit by one point light, with
// shadow rays and up to MAXDEPTH mirror bounces.  The control flow is data-dependent at every level: which
// object is nearest (a miss ends the path early), the checker's colour, whether the shadow ray is blocked
// (its loop exits at the first occluder), and whether the surface reflects (the bounce loop exits on a
// matte hit), so neighbouring lanes of a warp diverge along silhouettes, shadow edges and mirrors.
//
// Scene in global memory: nsph spheres of 8 floats each (centre x, y, z, radius, colour r, g, b,
// reflectivity), read by every thread at the same addresses (broadcast).  The plane is y = 0, its checker
// 1 unit wide, reflectivity PLANE_REFL.  Output: one float4 (r, g, b, 1) per pixel.
//
// Every expression is written so that nvcc cannot fuse a multiply and an add (fmaf where a fused multiply
// -add is meant, __fmul_rn / __fadd_rn elsewhere): the CPU reference (driver.c) runs the same operations in
// the same order and gets bit-identical hits and colours.
#define MAXDEPTH 3
#define PLANE_REFL 0.3f
#define EPS 1e-3f
#define FAR 1e30f

struct vec {
    float x, y, z;
};

__device__ __forceinline__ vec mk(float x, float y, float z)
{
    vec v = { x, y, z };
    return v;
}
__device__ __forceinline__ vec sub(vec a, vec b)
{
    return mk(__fsub_rn(a.x, b.x), __fsub_rn(a.y, b.y), __fsub_rn(a.z, b.z));
}
__device__ __forceinline__ vec madd(vec a, float s, vec b) // a * s + b
{
    return mk(fmaf(a.x, s, b.x), fmaf(a.y, s, b.y), fmaf(a.z, s, b.z));
}
__device__ __forceinline__ float dot(vec a, vec b)
{
    return fmaf(a.z, b.z, fmaf(a.y, b.y, __fmul_rn(a.x, b.x)));
}
__device__ __forceinline__ vec norm(vec a)
{
    float inv = __fdiv_rn(1.0f, __fsqrt_rn(dot(a, a)));
    return mk(__fmul_rn(a.x, inv), __fmul_rn(a.y, inv), __fmul_rn(a.z, inv));
}

// Distance along the unit ray (o, d) to sphere s, or FAR when it misses or lies behind.
__device__ __forceinline__ float hit_sphere(const float *s, vec o, vec d)
{
    vec oc = sub(o, mk(s[0], s[1], s[2]));
    float b = dot(oc, d);
    float c = __fsub_rn(dot(oc, oc), __fmul_rn(s[3], s[3]));
    float disc = __fsub_rn(__fmul_rn(b, b), c);
    if (disc < 0.0f)
        return FAR;
    float q = __fsqrt_rn(disc);
    float t = __fsub_rn(-b, q);
    if (t > EPS)
        return t;
    t = __fadd_rn(-b, q);
    return t > EPS ? t : FAR;
}

extern "C" __global__ void ray_trace(const float *sph, int nsph, float4 *img, int w, int h, float lx, float ly,
                                     float lz)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    // camera at (0, 1.5, -5) looking along +z, a 2-unit-tall image plane at z = -3
    float aspect = __fdiv_rn((float)w, (float)h);
    float u = __fmul_rn(__fsub_rn(__fdiv_rn(__fadd_rn((float)px, 0.5f), (float)w), 0.5f), __fmul_rn(2.0f, aspect));
    float v = __fmul_rn(__fsub_rn(0.5f, __fdiv_rn(__fadd_rn((float)py, 0.5f), (float)h)), 2.0f);
    vec o = mk(0.0f, 1.5f, -5.0f);
    vec d = norm(mk(u, v, 2.0f));
    vec light = mk(lx, ly, lz);
    float r = 0.0f, g = 0.0f, b = 0.0f, wgt = 1.0f;
    for (int depth = 0; depth < MAXDEPTH; depth++) {
        float t = FAR;
        int hit = -1; // sphere index, nsph for the plane
        for (int i = 0; i < nsph; i++) {
            float ti = hit_sphere(sph + 8 * i, o, d);
            if (ti < t) {
                t = ti;
                hit = i;
            }
        }
        if (d.y < 0.0f) {
            float tp = __fdiv_rn(-o.y, d.y);
            if (tp > EPS && tp < t) {
                t = tp;
                hit = nsph;
            }
        }
        if (hit < 0) { // sky: a vertical gradient
            float sky = fmaf(d.y, 0.5f, 0.5f);
            r = fmaf(wgt, __fmul_rn(0.5f, sky), r);
            g = fmaf(wgt, __fmul_rn(0.7f, sky), g);
            b = fmaf(wgt, sky, b);
            break;
        }
        vec p = madd(d, t, o);
        vec n;
        float cr, cg, cb, refl;
        if (hit == nsph) {
            n = mk(0.0f, 1.0f, 0.0f);
            int check = ((int)floorf(p.x) + (int)floorf(p.z)) & 1;
            if (check) {
                cr = 0.9f, cg = 0.9f, cb = 0.9f;
            } else {
                cr = 0.2f, cg = 0.2f, cb = 0.25f;
            }
            refl = PLANE_REFL;
        } else {
            const float *s = sph + 8 * hit;
            n = norm(sub(p, mk(s[0], s[1], s[2])));
            cr = s[4], cg = s[5], cb = s[6], refl = s[7];
        }
        vec tl = sub(light, p);
        float dist2 = dot(tl, tl);
        vec l = norm(tl);
        float diff = dot(n, l);
        float shade = 0.1f; // ambient
        if (diff > 0.0f) {
            vec so = madd(n, EPS, p); // shadow ray, from just off the surface
            int lit = 1;
            for (int i = 0; i < nsph; i++) {
                float ts = hit_sphere(sph + 8 * i, so, l);
                if (__fmul_rn(ts, ts) < dist2) {
                    lit = 0;
                    break;
                }
            }
            if (lit)
                shade = fmaf(diff, 0.9f, shade);
        }
        float k = __fmul_rn(wgt, __fsub_rn(1.0f, refl));
        r = fmaf(k, __fmul_rn(cr, shade), r);
        g = fmaf(k, __fmul_rn(cg, shade), g);
        b = fmaf(k, __fmul_rn(cb, shade), b);
        if (refl <= 0.0f)
            break;
        wgt = __fmul_rn(wgt, refl);
        d = madd(n, __fmul_rn(-2.0f, dot(d, n)), d); // reflect
        o = madd(n, EPS, p);
    }
    img[(size_t)py * w + px] = make_float4(r, g, b, 1.0f);
}
