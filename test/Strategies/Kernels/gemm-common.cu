// The helpers the GEMM kernels share (GemmCommon.cuh) compile on their own
// for sm_90a, with the split-K reduction instantiated.
// RUN: %nvcc-compile %s -o %t.o

#include "GemmCommon.cuh"

using namespace stark_kernels;

template __global__ void
    stark_kernels::gemmSplitKReduce<GemmStrides>(GemmParams<GemmStrides>);
