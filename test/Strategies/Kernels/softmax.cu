// The online softmax (Softmax.cuh) compiles for sm_90a: f32 rows in
// registers with vectors of 4, f16 rows strided in memory, bf16 rows over
// 256 lanes (merged through shared memory), double, and f32 rows kept in
// shared memory between the passes.
// RUN: %nvcc-compile %s -o %t.o

#include "Prelude.cuh"

#include "Softmax.cuh"

using namespace stark_kernels;

template <class I, class C, class TIn, class TOut, I Rows, I Len, I Inner,
          int Lanes, int RowsPerBlock, int Vec, int Cache>
struct Config {
  typedef I Idx;
  typedef C Compute;
  typedef TIn In;
  typedef TOut Out;
  static constexpr Idx kRows = Rows, kLen = Len, kInner = Inner;
  static constexpr int kLanes = Lanes, kRowsPerBlock = RowsPerBlock, kVec = Vec;
  static constexpr int kCache = Cache;
};

template <class C>
__global__ void softmax(const typename C::In *__restrict__ in,
                        typename C::Out *__restrict__ out) {
  softmaxRows<C>(in, out);
}

using F32Cached =
    Config<int, float, float, float, 512, 128, 1, 32, 8, 4, kRowCacheRegisters>;
using F16Strided =
    Config<int, float, __half, __half, 4096, 64, 64, 1, 128, 1, kRowCacheNone>;
using Bf16Wide = Config<long long, float, __nv_bfloat16, float, 64, 32768, 1,
                        256, 1, 8, kRowCacheNone>;
using F64 = Config<int, double, double, double, 100, 1000, 1, 64, 4, 2,
                   kRowCacheRegisters>;
using F32Shared =
    Config<int, float, float, float, 256, 24576, 1, 512, 1, 4, kRowCacheShared>;

template __global__ void softmax<F32Cached>(const float *, float *);
template __global__ void softmax<F16Strided>(const __half *, __half *);
template __global__ void softmax<Bf16Wide>(const __nv_bfloat16 *, float *);
template __global__ void softmax<F64>(const double *, double *);
template __global__ void softmax<F32Shared>(const float *, float *);
