// lbm004: the lbm kernel (workloads/lbm/kernel.cu, D3Q19 lattice-Boltzmann stream + collide) built for
// Parboil's 100-cell rows, the shape the CTA-scheduling paper runs (LBM: 1D CTAs of 100 threads, one per
// cell of an x-row, 4 warps with the last one 4 threads wide).  Only the row length and the kernel's name
// differ; the code is the same file.
#define NX 100
#define LBM_KERNEL lbm004_stream_collide
#include "../lbm/kernel.cu"
