// Softmax.cuh - linalg.softmax along rows in the online form: each lane keeps
// a running (max, sum of exp(x - max)) of its part of a row, the lanes merge
// theirs, and each writes exp(x - max) / sum for its part.
//
// The generated part gives the problem as a config struct C:
//   typedef ... Idx, Compute, In, Out;    // index, float or double, storage
//   static constexpr Idx kRows, kLen, kInner;  // rows of kLen, kInner apart
//   static constexpr int kLanes, kRowsPerBlock, kVec;
//   static constexpr int kCache;          // RowCache: where the row stays
// kVec > 1 needs kInner == 1 (contiguous rows).
//
// Expects Prelude.cuh before it.
#pragma once

#include "Lanes.cuh"
#include "Loops.cuh"

namespace stark_kernels {

// The running maximum m (v[0]) of a row part and the sum s (v[1]) of
// exp(x - m) over it.
template <class T> using OnlineSoftmax = LaneState<T, 2>;

// Adds x to the running pair.
template <class T>
__device__ __forceinline__ void softmaxAdd(OnlineSoftmax<T> &a, T x) {
  T &m = a.v[0], &s = a.v[1];
  if (x > m) {
    // exp(x - x) is 1, except for x = +inf, where it is NaN (and so is the
    // softmax of the whole row, as upstream computes it).
    s = s * expOf(m - x) + (x - x + (T)1);
    m = x;
  } else if (x != negativeInfinity<T>()) {
    s += expOf(x - m);
  }
}

// Merges the pair of another part into `a`.
template <class T>
__device__ __forceinline__ void softmaxMerge(OnlineSoftmax<T> &a,
                                             const OnlineSoftmax<T> &b) {
  const T none = negativeInfinity<T>();
  T &m = a.v[0], &s = a.v[1];
  const T m2 = b.v[0], s2 = b.v[1];
  const T mx = m > m2 ? m : m2;
  if (mx == none)
    return;
  s = (m == none ? (T)0 : s * expOf(m - mx)) +
      (m2 == none ? (T)0 : s2 * expOf(m2 - mx));
  m = mx;
}

// The kernel: row blockIdx.x * kRowsPerBlock + threadIdx.y, lane threadIdx.x.
template <class C>
__device__ __forceinline__ void
softmaxRows(const typename C::In *__restrict__ in,
            typename C::Out *__restrict__ out) {
  using Idx = typename C::Idx;
  using T = typename C::Compute;
  using In = typename C::In;
  using Out = typename C::Out;
  constexpr int Lanes = C::kLanes, Vec = C::kVec;
  constexpr Idx Len = C::kLen, Inner = C::kInner;
  using Vector = StarkVec<In, Vec>;
  const int lane = threadIdx.x;
  const Idx row = (Idx)blockIdx.x * C::kRowsPerBlock + threadIdx.y;
  const Idx base = (row / Inner) * (Len * Inner) + row % Inner;
  OnlineSoftmax<T> st = {negativeInfinity<T>(), (T)0};
  auto load = [&](Idx j) {
    if constexpr (Vec > 1) {
      return loadVec<Vec>(in + base + j);
    } else {
      Vector x;
      x.v[0] = in[base + j * Inner];
      return x;
    }
  };
  LaneRow<In, Len, Lanes, Vec, C::kCache> part;
  if constexpr (C::kCache == kRowCacheShared) {
    extern __shared__ __align__(128) unsigned char stark_smem[];
    part.shared =
        reinterpret_cast<Vector *>(stark_smem) + (Idx)threadIdx.y * (Len / Vec);
  }
  if (row < C::kRows)
    part.read(lane, load, [&](Idx, const Vector &x) {
#pragma unroll
      for (int v = 0; v < Vec; ++v)
        softmaxAdd(st, (T)stark_widen(x.v[v]));
    });
  // Merge the lanes of the row, then hand the result to all of them.
  __shared__ OnlineSoftmax<T> warps[C::kRowsPerBlock]
                                   [Lanes > 32 ? Lanes / 32 : 1];
  st = rowAllReduce<Lanes>(st, warps[threadIdx.y],
                           [](OnlineSoftmax<T> &a, const OnlineSoftmax<T> &b) {
                             softmaxMerge(a, b);
                           });
  if (row >= C::kRows)
    return;
  const T inv = (T)1 / st.v[1];
  part.reread(lane, load, [&](Idx j, const Vector &x) {
    StarkVec<Out, Vec> y;
#pragma unroll
    for (int v = 0; v < Vec; ++v)
      y.v[v] = stark_cast<Out>(expOf((T)stark_widen(x.v[v]) - st.v[0]) * inv);
    if constexpr (Vec > 1)
      storeVec<Vec>(out + base + j, y);
    else
      out[base + j * Inner] = y.v[0];
  });
}

} // namespace stark_kernels
