// The SIMT fp32 GEMM kernel (GemmF32.cuh) compiles for sm_90a in every
// operand orientation, with and without the 16-byte fast path.
// RUN: %nvcc-compile %s -o %t.o

#include "GemmF32.cuh"

using namespace stark_kernels;

using Wide = SimtConfig<128, 128, 16, 32, 64, 8, 8, 3>;
using Small = SimtConfig<64, 64, 16, 32, 32, 8, 4, 4, 4>;
using Params = GemmParams<GemmStrides>;

template __global__ void
    stark_kernels::gemmF32Simt<Wide, false, false, true, GemmStrides>(Params);
template __global__ void
    stark_kernels::gemmF32Simt<Wide, true, false, true, GemmStrides>(Params);
template __global__ void
    stark_kernels::gemmF32Simt<Wide, false, true, true, GemmStrides>(Params);
template __global__ void
    stark_kernels::gemmF32Simt<Wide, true, true, true, GemmStrides>(Params);
template __global__ void
    stark_kernels::gemmF32Simt<Small, false, false, false, GemmStrides>(Params);
