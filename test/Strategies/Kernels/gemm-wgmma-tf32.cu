// The Hopper 3xTF32 wgmma GEMM kernel (GemmWgmmaTf32.cuh) compiles for
// sm_90a in three and four stages, with the default add-to-C store.
// RUN: %nvcc-compile %s -o %t.o

#include "GemmWgmmaTf32.cuh"

using namespace stark_kernels;

template __global__ void
stark_kernels::gemmWgmmaTf32<WgmmaTf32Config<3>>(const WgmmaArgs<float, float>);
template __global__ void stark_kernels::gemmWgmmaTf32<WgmmaTf32Config<4, 16>>(
    const WgmmaArgs<float, float>);
