// Prelude.cuh - what every generated CUDA template source starts with:
// vector access structs, element widening and narrowing, NaN-propagating
// min/max, zeroed partial sums.
//
// No include guard: a test compiles many generated sources in one
// translation unit, each in a namespace of its own, and each needs its own
// copy of these definitions.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// Vector access of N elements of T as one load or store.
template <class T, int N> struct alignas(sizeof(T) * N) StarkVec { T v[N]; };

// Elements widen to their compute type (f16 and bf16 compute in float).
__device__ __forceinline__ float stark_widen(__half x) {
  return __half2float(x);
}
__device__ __forceinline__ float stark_widen(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
template <class T> __device__ __forceinline__ T stark_widen(T x) { return x; }

// Compute values narrow to their storage type, rounding to nearest.
template <class To> struct StarkCast {
  template <class From> static __device__ __forceinline__ To from(From x) {
    return static_cast<To>(x);
  }
};
template <> struct StarkCast<__half> {
  template <class From> static __device__ __forceinline__ __half from(From x) {
    return __float2half_rn(static_cast<float>(x));
  }
};
template <> struct StarkCast<__nv_bfloat16> {
  template <class From>
  static __device__ __forceinline__ __nv_bfloat16 from(From x) {
    return __float2bfloat16_rn(static_cast<float>(x));
  }
};
template <class To, class From>
__device__ __forceinline__ To stark_cast(From x) {
  return StarkCast<To>::from(x);
}

// arith.maximumf / minimumf propagate NaN.
__device__ __forceinline__ float stark_maximumf(float a, float b) {
  return (a != a || b != b) ? a + b : fmaxf(a, b);
}
__device__ __forceinline__ float stark_minimumf(float a, float b) {
  return (a != a || b != b) ? a + b : fminf(a, b);
}
__device__ __forceinline__ double stark_maximumf(double a, double b) {
  return (a != a || b != b) ? a + b : fmax(a, b);
}
__device__ __forceinline__ double stark_minimumf(double a, double b) {
  return (a != a || b != b) ? a + b : fmin(a, b);
}

// Zeroes a thread's array of partial sums, every element unrolled.
template <int M, int N>
__device__ __forceinline__ void stark_zero(float (&a)[M][N]) {
#pragma unroll
  for (int i = 0; i < M; ++i)
#pragma unroll
    for (int j = 0; j < N; ++j)
      a[i][j] = 0.f;
}
