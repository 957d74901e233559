// Norm.cuh - layer norm and RMS norm along contiguous rows. Each row has a
// group of lanes: two passes over the row kept in registers (the sum, then
// the centred squares), or one streaming pass (a Welford triple per lane for
// a layer norm) and a second read for the output.
//
// The generated part gives the problem as a config struct C:
//   typedef ... Idx, Compute, In, Out, Gamma, Beta;
//   static constexpr Idx kRows, kLen;
//   static constexpr int kLanes, kRowsPerBlock, kVec;
//   static constexpr bool kCache, kRms, kHasGamma, kHasBeta;
//   static constexpr bool kDivide;   // (x - mean) / sqrt(var + eps), else
//                                    // (x - mean) * rsqrt(var + eps)
//   static __device__ Compute eps();
//   static __device__ Compute mean(Compute sum);     // as the payload has it
//   static __device__ Compute variance(Compute sum);
// kLanes * kRowsPerBlock is a multiple of 32: rows past the end still take
// part in the block's barriers.
//
// Expects Prelude.cuh before it.
#pragma once

#include "Lanes.cuh"
#include "Loops.cuh"

namespace stark_kernels {

// The running count n (v[0]), mean m (v[1]) and sum of squared deviations
// m2 (v[2]) of a row part.
template <class T> using Welford = LaneState<T, 3>;

// Adds x to the triple.
template <class T>
__device__ __forceinline__ void welfordAdd(Welford<T> &a, T x) {
  T &n = a.v[0], &m = a.v[1], &m2 = a.v[2];
  n += (T)1;
  const T d = x - m;
  m += d / n;
  m2 += d * (x - m);
}

// Merges the triple of a disjoint part into `a`.
template <class T>
__device__ __forceinline__ void welfordMerge(Welford<T> &a,
                                             const Welford<T> &b) {
  T &n = a.v[0], &m = a.v[1], &m2 = a.v[2];
  const T nb = b.v[0], mb = b.v[1], m2b = b.v[2];
  if (nb == (T)0)
    return;
  const T nn = n + nb, d = mb - m;
  m += d * (nb / nn);
  m2 += m2b + d * d * (n * nb / nn);
  n = nn;
}

// The kernel: row blockIdx.x * kRowsPerBlock + threadIdx.y, lane threadIdx.x;
// gamma and beta are read only when the config has them.
template <class C>
__device__ __forceinline__ void
normRows(const typename C::In *__restrict__ x, typename C::Out *__restrict__ y,
         const typename C::Gamma *__restrict__ gamma,
         const typename C::Beta *__restrict__ beta) {
  using Idx = typename C::Idx;
  using T = typename C::Compute;
  using In = typename C::In;
  constexpr int Lanes = C::kLanes, Vec = C::kVec;
  constexpr int Warps = Lanes > 32 ? Lanes / 32 : 1;
  constexpr Idx Len = C::kLen;
  using Vector = StarkVec<In, Vec>;
  // Three sets of slots: two sums, or one Welford triple per warp.
  __shared__ T slots[3][C::kRowsPerBlock][Warps];
  const int lane = threadIdx.x;
  const Idx row = (Idx)blockIdx.x * C::kRowsPerBlock + threadIdx.y;
  // Rows past the end still take part in the block's barriers.
  const bool active = row < C::kRows;
  const Idx base = active ? row * Len : 0;
  auto load = [&](Idx j) { return loadVec<Vec>(x + base + j); };
  auto add = [](T &a, T b) { a += b; };
  T mean = 0, stat = 0;
  LaneRow<In, Len, Lanes, Vec, C::kCache> part;
  if constexpr (C::kCache || C::kRms) {
    // The sum of the row (of its squares for RMS), then for a layer norm a
    // second pass over the registers for the centred squares.
    T s = 0;
    if (active)
      part.read(lane, load, [&](Idx, const Vector &xv) {
#pragma unroll
        for (int v = 0; v < Vec; ++v) {
          const T e = (T)stark_widen(xv.v[v]);
          s += C::kRms ? e * e : e;
        }
      });
    s = rowAllReduce<Lanes>(s, slots[0][threadIdx.y], add);
    if constexpr (C::kRms) {
      stat = C::variance(s);
    } else {
      mean = C::mean(s);
      T q = 0;
      if (active)
        part.reread(lane, load, [&](Idx, const Vector &xv) {
#pragma unroll
          for (int v = 0; v < Vec; ++v) {
            const T d = (T)stark_widen(xv.v[v]) - mean;
            q += d * d;
          }
        });
      q = rowAllReduce<Lanes>(q, slots[1][threadIdx.y], add);
      stat = C::variance(q);
    }
  } else {
    // One streaming pass: each lane's Welford triple, merged.
    Welford<T> w = {0, 0, 0};
    if (active)
      part.read(lane, load, [&](Idx, const Vector &xv) {
#pragma unroll
        for (int v = 0; v < Vec; ++v)
          welfordAdd(w, (T)stark_widen(xv.v[v]));
      });
    w = rowAllReduce<Lanes>(
        w,
        reinterpret_cast<Welford<T> *>(&slots[0][0][0]) + threadIdx.y * Warps,
        [](Welford<T> &a, const Welford<T> &b) { welfordMerge(a, b); });
    mean = w.v[1];
    stat = C::variance(w.v[2]);
  }
  if (!active)
    return;
  const T scale =
      C::kDivide ? sqrtOf(stat + C::eps()) : rsqrtOf(stat + C::eps());
  part.reread(lane, load, [&](Idx j, const Vector &xv) {
    StarkVec<typename C::Out, Vec> o;
    StarkVec<typename C::Gamma, Vec> g;
    StarkVec<typename C::Beta, Vec> b;
    if constexpr (C::kHasGamma)
      g = loadVec<Vec>(gamma + j);
    if constexpr (C::kHasBeta)
      b = loadVec<Vec>(beta + j);
#pragma unroll
    for (int v = 0; v < Vec; ++v) {
      const T c =
          C::kRms ? (T)stark_widen(xv.v[v]) : (T)stark_widen(xv.v[v]) - mean;
      T t = C::kDivide ? c / scale : c * scale;
      if constexpr (C::kHasGamma)
        t = t * (T)stark_widen(g.v[v]);
      if constexpr (C::kHasBeta)
        t = t + (T)stark_widen(b.v[v]);
      o.v[v] = stark_cast<typename C::Out>(t);
    }
    storeVec<Vec>(y + base + j, o);
  });
}

} // namespace stark_kernels
