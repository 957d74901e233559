// Layer norm and RMS norm (Norm.cuh) compile for sm_90a: rows in registers
// and streamed (Welford), f32, f16 and bf16 storage with float compute and
// double, with and without gamma and beta, lanes within a warp and across
// warps.
// RUN: %nvcc-compile %s -o %t.o

#include "Prelude.cuh"

#include "Norm.cuh"

using namespace stark_kernels;

template <class C, class TIn, class TOut, class TG, class TB, int Rows, int Len,
          int Lanes, int RowsPerBlock, int Vec, bool Cache, bool Rms,
          bool Affine, bool Divide>
struct Config {
  typedef int Idx;
  typedef C Compute;
  typedef TIn In;
  typedef TOut Out;
  typedef TG Gamma;
  typedef TB Beta;
  static constexpr Idx kRows = Rows, kLen = Len;
  static constexpr int kLanes = Lanes, kRowsPerBlock = RowsPerBlock, kVec = Vec;
  static constexpr bool kCache = Cache, kRms = Rms, kHasGamma = Affine,
                        kHasBeta = Affine && !Rms, kDivide = Divide;
  static __device__ __forceinline__ C eps() { return (C)1e-5; }
  static __device__ __forceinline__ C mean(C s) { return s / (C)kLen; }
  static __device__ __forceinline__ C variance(C s) {
    return s * ((C)1 / (C)kLen);
  }
};

template <class C>
__global__ void norm(const typename C::In *__restrict__ x,
                     typename C::Out *__restrict__ y,
                     const typename C::Gamma *__restrict__ gamma,
                     const typename C::Beta *__restrict__ beta) {
  normRows<C>(x, y, gamma, beta);
}

using LayerCached = Config<float, float, float, float, float, 1024, 1000, 64, 4,
                           4, true, false, true, false>;
using LayerStreamed = Config<float, __nv_bfloat16, __nv_bfloat16, float, float,
                             64, 16384, 256, 1, 8, false, false, true, true>;
using RmsCached = Config<float, __half, __half, __half, float, 4096, 128, 32, 8,
                         4, true, true, true, false>;
using RmsStreamed = Config<double, double, double, double, double, 10, 50000,
                           1024, 1, 2, false, true, false, false>;
using LayerSmall = Config<float, float, float, float, float, 100, 30, 16, 2, 2,
                          true, false, false, false>;

template __global__ void norm<LayerCached>(const float *, float *,
                                           const float *, const float *);
template __global__ void norm<LayerStreamed>(const __nv_bfloat16 *,
                                             __nv_bfloat16 *, const float *,
                                             const float *);
template __global__ void norm<RmsCached>(const __half *, __half *,
                                         const __half *, const float *);
template __global__ void norm<RmsStreamed>(const double *, double *,
                                           const double *, const double *);
template __global__ void norm<LayerSmall>(const float *, float *, const float *,
                                          const float *);
