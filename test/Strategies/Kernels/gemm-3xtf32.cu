// The 3xTF32 tensor-core GEMM kernel (Gemm3xTf32.cuh) compiles for sm_90a:
// ldmatrix and plain fragment loads, chunked and whole splits, rounded and
// truncated, transposed operands and the element-wise path.
// RUN: %nvcc-compile %s -o %t.o

#include "Gemm3xTf32.cuh"

using namespace stark_kernels;

using Ldsm = Tf32Config<128, 128, 32, 64, 32, 3>;
using Plain = Tf32Config<128, 128, 32, 64, 32, 3, 1, true, false, false>;
using WholeRna = Tf32Config<128, 256, 32, 64, 64, 3, 1, false, true, true>;
using Params = GemmParams<GemmStrides>;

template __global__ void
    stark_kernels::gemm3xTf32<Ldsm, false, true, true, GemmStrides>(Params);
template __global__ void
    stark_kernels::gemm3xTf32<Plain, true, false, false, GemmStrides>(Params);
template __global__ void
    stark_kernels::gemm3xTf32<WholeRna, false, false, true, GemmStrides>(
        Params);
