// Loops.cuh - the loops and memory accesses of the generated elementwise,
// direct, reduction, softmax and norm kernels: grid-stride loops over points,
// the vectors of a row that each of its lanes handles, vector loads and
// stores.
//
// Expects Prelude.cuh (StarkVec) before it. The generated part of a kernel
// supplies what is particular to the problem (index decoding, payload) as a
// lambda that these loops call.
#pragma once

namespace stark_kernels {

// Calls f(i) for every i in [0, Count), each thread taking PerThread points
// Block apart per step of a grid-stride loop.
template <long long Count, int Block, int PerThread, class F>
__device__ __forceinline__ void gridStride(F f) {
  for (long long base =
           (long long)blockIdx.x * (Block * PerThread) + threadIdx.x;
       base < Count; base += (long long)gridDim.x * (Block * PerThread)) {
#pragma unroll
    for (int u = 0; u < PerThread; ++u) {
      const long long i = base + (long long)u * Block;
      if (i >= Count)
        break;
      f(i);
    }
  }
}

// Calls f(j) for the vectors of Vec elements of [begin, end) that lane `lane`
// of Lanes takes: j = begin + (lane + i * Lanes) * Vec. Unrolled so that
// several loads are in flight before the first use.
template <int Lanes, int Vec, class Idx, class F>
__device__ __forceinline__ void forLaneVectors(Idx begin, Idx end, int lane,
                                               F f) {
#pragma unroll 4
  for (Idx j = begin + (Idx)lane * Vec; j < end; j += Lanes * Vec)
    f(j);
}

// Where a LaneRow keeps a lane's part of the row between its two reads.
enum RowCache : int {
  kRowCacheNone = 0, // loaded again
  kRowCacheRegisters = 1,
  kRowCacheShared = 2, // the block's shared memory (`shared`, Len elements)
};

// One lane's part of a row of Len elements of T, in vectors of Vec at
// offsets ((i * Lanes) + lane) * Vec, read twice: the part stays in registers
// or in shared memory between the reads (Cache), else it is loaded again.
// In shared memory each lane reads back only what it wrote: no barrier.
template <class T, auto Len, int Lanes, int Vec, int Cache> struct LaneRow {
  using Idx = decltype(Len);
  using Vector = StarkVec<T, Vec>;
  static constexpr int kPerLane =
      (int)((Len + Lanes * Vec - 1) / (Lanes * Vec));
  Vector cached[Cache == kRowCacheRegisters ? kPerLane : 1];
  // With kRowCacheShared: the row's Len / Vec vectors.
  Vector *shared = nullptr;

  // Calls f(j, x) for each vector x (at offset j) of the lane, loaded by
  // load(j).
  template <class Load, class F>
  __device__ __forceinline__ void read(int lane, Load load, F f) {
    if constexpr (Cache == kRowCacheShared) {
      // Stored as the first pass reads them (on the H200 a softmax of rows
      // of 24576 took 25.3 us this way, 27.6 us with all loads first).
      forLaneVectors<Lanes, Vec>((Idx)0, Len, lane, [&](Idx j) {
        const Vector x = load(j);
        shared[j / Vec] = x;
        f(j, x);
      });
    } else if constexpr (Cache == kRowCacheRegisters) {
      forCached(lane, [&](int i, Idx j) {
        cached[i] = load(j);
        f(j, cached[i]);
      });
    } else {
      forLaneVectors<Lanes, Vec>((Idx)0, Len, lane, [&](Idx j) {
        const Vector x = load(j);
        f(j, x);
      });
    }
  }

  // Calls f(j, x) again for the vectors of read(), in the same order.
  template <class Load, class F>
  __device__ __forceinline__ void reread(int lane, Load load, F f) {
    if constexpr (Cache == kRowCacheShared)
      forLaneVectors<Lanes, Vec>((Idx)0, Len, lane,
                                 [&](Idx j) { f(j, shared[j / Vec]); });
    else if constexpr (Cache == kRowCacheRegisters)
      forCached(lane, [&](int i, Idx j) { f(j, cached[i]); });
    else
      forLaneVectors<Lanes, Vec>((Idx)0, Len, lane,
                                 [&](Idx j) { f(j, load(j)); });
  }

private:
  // g(i, j) for the lane's i-th vector, at offset j, while inside the row.
  template <class G> __device__ __forceinline__ void forCached(int lane, G g) {
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) {
      const Idx j = ((Idx)i * Lanes + lane) * Vec;
      if (j < Len)
        g(i, j);
    }
  }
};

// N consecutive elements at p as one access (p aligned to N elements).
template <int N, class T>
__device__ __forceinline__ StarkVec<T, N> loadVec(const T *p) {
  return *reinterpret_cast<const StarkVec<T, N> *>(p);
}
template <int N, class T>
__device__ __forceinline__ void storeVec(T *p, const StarkVec<T, N> &x) {
  *reinterpret_cast<StarkVec<T, N> *>(p) = x;
}

// N elements `stride` apart, one access each.
template <int N, class T, class Idx>
__device__ __forceinline__ StarkVec<T, N> loadStrided(const T *p, Idx stride) {
  StarkVec<T, N> x;
#pragma unroll
  for (int j = 0; j < N; ++j)
    x.v[j] = p[stride * j];
  return x;
}
template <int N, class T, class Idx>
__device__ __forceinline__ void storeStrided(T *p, Idx stride,
                                             const StarkVec<T, N> &x) {
#pragma unroll
  for (int j = 0; j < N; ++j)
    p[stride * j] = x.v[j];
}

} // namespace stark_kernels
