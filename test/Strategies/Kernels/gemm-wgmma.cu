// The Hopper wgmma GEMM kernel (GemmWgmma.cuh) compiles for sm_90a: both
// tile widths, bf16 and f16 inputs, f32 and 16-bit outputs.
// RUN: %nvcc-compile %s -o %t.o

#include "GemmWgmma.cuh"

using namespace stark_kernels;

template __global__ void
stark_kernels::gemmWgmma<WgmmaConfig<256, 4>, __nv_bfloat16, float>(
    const WgmmaArgs<__nv_bfloat16, float>);
template __global__ void
stark_kernels::gemmWgmma<WgmmaConfig<128, 5>, __half, __half>(
    const WgmmaArgs<__half, __half>);
template __global__ void
stark_kernels::gemmWgmma<WgmmaConfig<256, 3>, __nv_bfloat16, __nv_bfloat16>(
    const WgmmaArgs<__nv_bfloat16, __nv_bfloat16>);
