// The direct convolution (Conv.cuh) compiles for sm_90a: f32 and bf16
// images, 1 to 16 channels per thread (float4 filter reads from 4 on), 1 to
// 4 points per lane, warps along channels and rows, slices of k shorter and
// longer than k, stores that accumulate and stores that overwrite.
// RUN: %nvcc-compile %s -o %t.o

#include "Prelude.cuh"

#include "Conv.cuh"

using namespace stark_kernels;

template <int Ft, int Pw, int Wf, int Wr, int Kch> struct Config {
  typedef int Idx;
  static constexpr int kFt = Ft, kPw = Pw, kWf = Wf, kWr = Wr, kKch = Kch;
  static constexpr Idx kX = 30, kRows = 40, kChannels = 20, kK = 27;
  static constexpr int kTilesX = (30 + 32 * Pw - 1) / (32 * Pw);
  static constexpr int kTilesF = (20 + Wf * Ft - 1) / (Wf * Ft);
};

__constant__ int offsets[27];

// A 3x3 filter over 3 channels of 32x42 images (unit stride): row r, point
// x reads from r * 32 + x, reduction point k adds offsets[k].
template <class C, class T, bool Accumulate>
__global__ void convolve(const T *__restrict__ image,
                         const T *__restrict__ filter,
                         float *__restrict__ out) {
  auto aBase = [](int row, int x) { return row * 32 + x; };
  auto aOffset = [](int k) { return offsets[k]; };
  auto loadA = [&](int o) -> float { return stark_widen(__ldg(&image[o])); };
  auto loadB = [&](int f, int k) -> float {
    return stark_widen(__ldg(&filter[f * C::kK + k]));
  };
  auto store = [&](int m, int n, float sum) {
    if constexpr (Accumulate)
      out[n * C::kRows * C::kX + m] += sum;
    else
      out[n * C::kRows * C::kX + m] = sum;
  };
  convBlock<C>(aBase, aOffset, loadA, loadB, store);
}

template __global__ void
convolve<Config<4, 2, 2, 2, 16>, float, true>(const float *, const float *,
                                              float *);
template __global__ void
convolve<Config<1, 1, 1, 8, 5>, float, false>(const float *, const float *,
                                              float *);
template __global__ void
convolve<Config<16, 4, 1, 1, 32>, float, true>(const float *, const float *,
                                               float *);
template __global__ void convolve<Config<8, 1, 4, 2, 8>, __nv_bfloat16, false>(
    const __nv_bfloat16 *, const __nv_bfloat16 *, float *);
