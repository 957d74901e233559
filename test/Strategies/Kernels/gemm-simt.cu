// The SIMT GEMM of family gemm (GemmSimt.cuh) compiles for sm_90a: f32 and
// bf16 storage, vector and element loads along either axis, double and single
// buffering, 32- and 64-bit indices, C accumulated into or written from a
// fill value.
// RUN: %nvcc-compile %s -o %t.o

#include "Prelude.cuh"

#include "GemmSimt.cuh"

using namespace stark_kernels;

// Row-major A (M x K), B (K x N), C (M x N), batched; C accumulated into,
// or (InitOut) written as Init + A * B.
template <class T, class Index, long long M_, long long N_, long long K_,
          bool InitOut = false>
struct RowMajor {
  typedef T TA;
  typedef T TB;
  typedef T TC;
  typedef Index idx_t;
  static constexpr long long M = M_, N = N_, K = K_;
  static constexpr bool kInitOut = InitOut;
  static constexpr float kInit = 0.5f;
  static __device__ __forceinline__ idx_t a_off(idx_t b, idx_t m, idx_t k) {
    return (b * M + m) * K + k;
  }
  static __device__ __forceinline__ idx_t b_off(idx_t b, idx_t k, idx_t n) {
    return (b * K + k) * N + n;
  }
  static __device__ __forceinline__ idx_t c_off(idx_t b, idx_t m, idx_t n) {
    return (b * M + m) * N + n;
  }
};

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::MIN_BLOCKS)
    gemmSimt(const typename Cfg::Problem::TA *__restrict__ a,
             const typename Cfg::Problem::TB *__restrict__ b,
             typename Cfg::Problem::TC *__restrict__ c) {
  gemmSimtBlock<Cfg>(a, b, c);
}

typedef RowMajor<float, int, 4096, 4096, 4096> Square;
typedef RowMajor<__nv_bfloat16, long long, 37, 45, 29> Odd;
typedef RowMajor<float, int, 4096, 4096, 4096, true> SquareInit;
typedef RowMajor<__nv_bfloat16, long long, 37, 45, 29, true> OddInit;

// 128 x 128 tiles, vectors of four along k (A) and n (B, C).
template __global__ void
gemmSimt<SimtGemmConfig<Square, 128, 128, 8, 8, 8, 8, true, 1, 0, 4, 0, 4, 4>>(
    const float *, const float *, float *);
// A along m, B along k, single-buffered, two blocks per SM.
template __global__ void
gemmSimt<SimtGemmConfig<Square, 64, 64, 16, 4, 4, 8, false, 2, 1, 4, 1, 4, 1>>(
    const float *, const float *, float *);
// Element loads and stores, thread tiles narrower than a vector.
template __global__ void
gemmSimt<SimtGemmConfig<Odd, 32, 32, 16, 2, 2, 8, true, 1, 0, 1, 0, 1, 1>>(
    const __nv_bfloat16 *, const __nv_bfloat16 *, __nv_bfloat16 *);
// C written from the fill value: vector and element stores.
template __global__ void gemmSimt<
    SimtGemmConfig<SquareInit, 128, 128, 8, 8, 8, 8, true, 1, 0, 4, 0, 4, 4>>(
    const float *, const float *, float *);
template __global__ void
gemmSimt<SimtGemmConfig<OddInit, 32, 32, 16, 2, 2, 8, true, 1, 0, 1, 0, 1, 1>>(
    const __nv_bfloat16 *, const __nv_bfloat16 *, __nv_bfloat16 *);
