// The wgmma GEMM with TMA loads and a persistent schedule
// (GemmWgmmaTma.cuh) compiles for sm_90a: both tile widths, bf16 and f16
// inputs, f32 and 16-bit outputs, and the bulk tensor copies and
// transaction-count barrier it is built on are in its PTX.
// RUN: %nvcc-compile %s -o %t.o
// RUN: %nvcc-compile %s -ptx -o - | FileCheck %s
// CHECK-DAG: cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier
// CHECK-DAG: mbarrier.arrive.expect_tx.shared::cta.b64
// CHECK-DAG: prefetch.tensormap

#include "GemmWgmmaTma.cuh"

using namespace stark_kernels;

template __global__ void
stark_kernels::gemmWgmmaTma<WgmmaConfig<256, 4>, __nv_bfloat16, float>(
    const WgmmaTmaArgs<__nv_bfloat16, float>);
template __global__ void
stark_kernels::gemmWgmmaTma<WgmmaConfig<128, 5>, __half, __half>(
    const WgmmaTmaArgs<__half, __half>);
template __global__ void
stark_kernels::gemmWgmmaTma<WgmmaConfig<256, 3>, __nv_bfloat16, __nv_bfloat16>(
    const WgmmaTmaArgs<__nv_bfloat16, __nv_bfloat16>);
