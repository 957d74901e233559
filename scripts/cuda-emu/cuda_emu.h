//===- cuda_emu.h - Runs stark's generated CUDA kernels on the CPU --------===//
//
// Just enough of CUDA to execute the template library's kernels on a host
// without a GPU, as a functional check: blocks run one after another, the
// threads of a block as std::threads (so __syncthreads is a barrier and
// __shared__ arrays are function statics), warp shuffles go through a
// per-warp exchange, f16/bf16 are bit-exact software types, WMMA keeps a
// whole tile per thread, cp.async is a synchronous copy (the generated
// source's helpers are swapped by check_templates.py). It checks indexing,
// tails, layouts and combining; not timing, not memory ordering on real
// hardware, not the hardware fragment layouts.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>
#include <vector>
#define __CUDA_FP16_H__
#define __CUDA_BF16_H__
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__ __restrict
#define __shared__ static
#define __constant__ static
#define __align__(n) __attribute__((aligned(n)))
using std::max;
using std::min;
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};
inline thread_local dim3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;
inline std::barrier<> *g_bar;
inline std::vector<std::unique_ptr<std::barrier<>>> g_warp_bars;
inline unsigned long long g_slots[1024];
inline thread_local int t_linear;
inline void __syncthreads() { g_bar->arrive_and_wait(); }
// Whether any thread of the block passed a nonzero predicate: thread 0 clears
// the flag before the first barrier, every thread reads it after the second,
// and the third keeps the next call's clear after every read.
inline int g_sync_or;
inline int __syncthreads_or(int predicate) {
  if (t_linear == 0)
    g_sync_or = 0;
  g_bar->arrive_and_wait();
  if (predicate)
    __atomic_store_n(&g_sync_or, 1, __ATOMIC_RELAXED);
  g_bar->arrive_and_wait();
  int any = __atomic_load_n(&g_sync_or, __ATOMIC_RELAXED);
  g_bar->arrive_and_wait();
  return any;
}
inline void __syncwarp(unsigned = 0xffffffffu) {
  g_warp_bars[t_linear / 32]->arrive_and_wait();
}
template <class T> T shfl_impl(T v, int src) {
  unsigned long long bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  int warp = t_linear / 32;
  g_slots[t_linear] = bits;
  g_warp_bars[warp]->arrive_and_wait();
  unsigned long long got = g_slots[warp * 32 + src];
  g_warp_bars[warp]->arrive_and_wait();
  T out;
  std::memcpy(&out, &got, sizeof(T));
  return out;
}
template <class T>
T __shfl_down_sync(unsigned, T v, unsigned delta, int width = 32) {
  int lane = t_linear % 32;
  int seg = lane % width;
  int src = seg + (int)delta < width ? lane + (int)delta : lane;
  return shfl_impl(v, src);
}
template <class T>
T __shfl_up_sync(unsigned, T v, unsigned delta, int width = 32) {
  int lane = t_linear % 32;
  int seg = lane % width;
  int src = seg >= (int)delta ? lane - (int)delta : lane;
  return shfl_impl(v, src);
}
template <class T> T __shfl_sync(unsigned, T v, int srcLane, int width = 32) {
  int lane = t_linear % 32;
  int src = (lane / width) * width + srcLane;
  return shfl_impl(v, src);
}
// Lane ^ laneMask; a lane whose source lies in a later group of `width`
// lanes reads its own value (CUDA's rule).
template <class T>
T __shfl_xor_sync(unsigned, T v, int laneMask, int width = 32) {
  int lane = t_linear % 32;
  int src = lane ^ laneMask;
  if (src >= (lane / width + 1) * width)
    src = lane;
  return shfl_impl(v, src);
}
template <class T> T __ldg(const T *p) { return *p; }
struct alignas(16) float4 {
  float x, y, z, w;
};
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};
struct alignas(8) float2 {
  float x, y;
};
inline float4 make_float4(float a, float b, float c, float d) {
  return {a, b, c, d};
}
inline float2 make_float2(float a, float b) { return {a, b}; }
inline float __int_as_float(int i) {
  float f;
  std::memcpy(&f, &i, 4);
  return f;
}
inline float __int_as_float(unsigned i) {
  float f;
  std::memcpy(&f, &i, 4);
  return f;
}
inline double __longlong_as_double(long long i) {
  double f;
  std::memcpy(&f, &i, 8);
  return f;
}
inline double __longlong_as_double(unsigned long long i) {
  double f;
  std::memcpy(&f, &i, 8);
  return f;
}
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
// 16-bit floats, rounding to nearest even.
struct __half {
  uint16_t bits;
  __half() = default;
  __half(float f);
  operator float() const;
  static __half from_bits(uint16_t b) {
    __half h;
    h.bits = b;
    return h;
  }
};
struct __nv_bfloat16 {
  uint16_t bits;
  __nv_bfloat16() = default;
  __nv_bfloat16(float f);
  operator float() const;
  static __nv_bfloat16 from_bits(uint16_t b) {
    __nv_bfloat16 h;
    h.bits = b;
    return h;
  }
};
inline float __half2float(__half h) {
  uint32_t s = (h.bits >> 15) & 1, e = (h.bits >> 10) & 31, m = h.bits & 1023;
  float v;
  if (e == 0)
    v = std::ldexp((float)m, -24);
  else if (e == 31)
    v = m ? NAN : INFINITY;
  else
    v = std::ldexp((float)(m | 1024), (int)e - 25);
  return s ? -v : v;
}
inline __half __float2half_rn(float f) {
  // Search by rounding through double: exact for all finite halves.
  if (std::isnan(f))
    return __half::from_bits(0x7e00);
  uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  double a = std::fabs((double)f);
  if (a >= 65520.0)
    return __half::from_bits((uint16_t)(sign | 0x7c00));
  int e;
  std::frexp(a, &e);                              // a = m * 2^e, m in [0.5,1)
  int exp = std::max(e - 11, -24);                // ulp exponent
  double q = std::nearbyint(std::ldexp(a, -exp)); // round half even
  double r = std::ldexp(q, exp);
  // Encode r.
  if (r == 0)
    return __half::from_bits(sign);
  int re;
  double rm = std::frexp(r, &re);
  if (re - 1 < -14) {
    uint16_t m = (uint16_t)std::ldexp(r, 24);
    return __half::from_bits((uint16_t)(sign | m));
  }
  uint16_t be = (uint16_t)(re - 1 + 15);
  uint16_t m = (uint16_t)(std::ldexp(rm, 11) - 1024);
  return __half::from_bits((uint16_t)(sign | (be << 10) | m));
}
inline float __bfloat162float(__nv_bfloat16 b) {
  uint32_t u = (uint32_t)b.bits << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline __nv_bfloat16 __float2bfloat16_rn(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f))
    return __nv_bfloat16::from_bits(0x7fc0);
  uint32_t lsb = (u >> 16) & 1;
  u += 0x7fff + lsb;
  return __nv_bfloat16::from_bits((uint16_t)(u >> 16));
}
inline __half::operator float() const { return __half2float(*this); }
inline __half::__half(float f) { bits = __float2half_rn(f).bits; }
inline __nv_bfloat16::__nv_bfloat16(float f) {
  bits = __float2bfloat16_rn(f).bits;
}
inline __nv_bfloat16::operator float() const { return __bfloat162float(*this); }
// Launch: each block's threads as std::threads.
template <class F, class... A>
void emu_launch(F f, dim3 grid, dim3 block, A... args) {
  gridDim = grid;
  blockDim = block;
  int n = block.x * block.y * block.z;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        std::barrier<> bar(n);
        g_bar = &bar;
        g_warp_bars.clear();
        for (int w = 0; w < (n + 31) / 32; ++w)
          g_warp_bars.push_back(
              std::make_unique<std::barrier<>>(std::min(32, n - w * 32)));
        std::vector<std::thread> threads;
        for (int t = 0; t < n; ++t)
          threads.emplace_back([&, t] {
            t_linear = t;
            threadIdx = {(unsigned)(t % block.x),
                         (unsigned)((t / block.x) % block.y),
                         (unsigned)(t / (block.x * block.y))};
            blockIdx = {bx, by, bz};
            f(args...);
          });
        for (auto &th : threads)
          th.join();
      }
}
// WMMA: every thread keeps the whole tile; lane 0 stores.
#include <type_traits>
inline float emu_f(float x) { return x; }
inline float emu_f(__half h) { return __half2float(h); }
inline float emu_f(__nv_bfloat16 h) { return __bfloat162float(h); }
alignas(128) inline unsigned char g_dyn_smem[256 * 1024];
namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
namespace precision {
struct tf32 {};
} // namespace precision
enum layout_t { mem_row_major, mem_col_major };
template <class T> struct elem { using type = T; };
template <> struct elem<precision::tf32> { using type = float; };
template <class Use, int M, int N, int K, class T, class Layout = void>
struct fragment {
  static constexpr int rows = std::is_same_v<Use, matrix_b> ? K : M;
  static constexpr int cols = std::is_same_v<Use, matrix_a> ? K : N;
  static constexpr int num_elements = rows * cols;
  typename elem<T>::type x[rows * cols];
};
template <class Use, int M, int N, int K, class T, class L, class P>
void load_matrix_sync(fragment<Use, M, N, K, T, L> &f, const P *p,
                      unsigned ldm) {
  using F = fragment<Use, M, N, K, T, L>;
  for (int r = 0; r < F::rows; ++r)
    for (int c = 0; c < F::cols; ++c)
      f.x[r * F::cols + c] =
          std::is_same_v<L, row_major> ? p[r * ldm + c] : p[c * ldm + r];
}
template <int M, int N, int K, class T>
void fill_fragment(fragment<accumulator, M, N, K, T> &f, float v) {
  for (auto &e : f.x)
    e = v;
}
template <int M, int N, int K, class TA, class LA, class TB, class LB>
void mma_sync(fragment<accumulator, M, N, K, float> &d,
              const fragment<matrix_a, M, N, K, TA, LA> &a,
              const fragment<matrix_b, M, N, K, TB, LB> &b,
              const fragment<accumulator, M, N, K, float> &c) {
  float out[M * N];
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float s = c.x[m * N + n];
      for (int k = 0; k < K; ++k)
        s += emu_f(a.x[m * K + k]) * emu_f(b.x[k * N + n]);
      out[m * N + n] = s;
    }
  std::memcpy(d.x, out, sizeof(out));
}
template <int M, int N, int K>
void store_matrix_sync(float *p, const fragment<accumulator, M, N, K, float> &f,
                       unsigned ldm, layout_t) {
  if (t_linear % 32 != 0)
    return;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c)
      p[r * ldm + c] = f.x[r * N + c];
}
inline float __float_to_tf32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u += 0xfff + ((u >> 13) & 1);
  u &= ~0x1fffu;
  float y;
  std::memcpy(&y, &u, 4);
  return y;
}
} // namespace wmma
} // namespace nvcuda
