// C++ virtual calls on the device: vtables in .global initializers, calls
// through a register with a .callprototype, lanes of a warp calling
// different overrides.
// Compiled with: nvcc -ptx -arch=sm_75 virtual.cu -o virtual.ptx
// Tests: tests/ptx/test_nvcc13.c.
#include <new>

struct Shape {
    __device__ virtual float area() const = 0;
};
struct Square : Shape {
    float s;
    __device__ Square(float x) : s(x) {}
    __device__ float area() const override { return s * s; }
};
struct Tri : Shape {
    float r;
    __device__ Tri(float x) : r(x) {}
    __device__ float area() const override { return 3.0f * r * r; }
};

extern "C" __global__ void virtual_k(char *buf, float *out)
{
    int t = threadIdx.x;
    Shape *s = (t & 1) ? (Shape *)new (buf + 16 * t) Square((float)t)
                       : (Shape *)new (buf + 16 * t) Tri((float)t);
    out[t] = s->area();
}
