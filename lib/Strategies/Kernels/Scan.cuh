// Scan.cuh - prefix scans (inclusive or exclusive) along rows: a block per
// row walks it in chunks of kThreads * kItems positions; each thread scans
// its own items, each warp the threads' totals with shuffles, warp 0 the
// warps' totals, and the carry of the chunks before is added.
//
// The generated part gives the problem as a config struct C:
//   typedef ... Idx, Acc;
//   static constexpr Idx kLen;            // positions in a row
//   static constexpr int kThreads, kItems; // kThreads a multiple of 32
//   static constexpr bool kExclusive;
//   static __device__ Acc op(Acc a, Acc b);
//   static __device__ Acc identity();
// and the row as two functors: load(q), the value at scan position q
// (q < kLen), and store(q, prefix), which writes the output at q.
//
// Expects Prelude.cuh before it.
#pragma once

namespace stark_kernels {

// The inclusive scan of x over the lanes of a warp.
template <class C>
__device__ __forceinline__ typename C::Acc scanWarp(typename C::Acc x) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const typename C::Acc y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o)
      x = C::op(y, x);
  }
  return x;
}

// The block's row: every thread of the block takes part (the barriers).
template <class C, class Load, class Store>
__device__ __forceinline__ void scanRow(Load load, Store store) {
  using Idx = typename C::Idx;
  using Acc = typename C::Acc;
  constexpr int Items = C::kItems, Warps = C::kThreads / 32;
  __shared__ Acc warpTotal[Warps];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  Acc carry = C::identity();
  for (Idx chunk = 0; chunk < C::kLen; chunk += (Idx)C::kThreads * Items) {
    Acc v[Items];
#pragma unroll
    for (int t = 0; t < Items; ++t) {
      const Idx q = chunk + (Idx)threadIdx.x * Items + t;
      v[t] = q < C::kLen ? load(q) : C::identity();
    }
    // The thread's own items, then the threads' totals.
#pragma unroll
    for (int t = 1; t < Items; ++t)
      v[t] = C::op(v[t - 1], v[t]);
    const Acc incl = scanWarp<C>(v[Items - 1]);
    if (lane == 31)
      warpTotal[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      Acc w = lane < Warps ? warpTotal[lane] : C::identity();
      w = scanWarp<C>(w);
      if (lane < Warps)
        warpTotal[lane] = w;
    }
    __syncthreads();
    Acc before = __shfl_up_sync(0xffffffffu, incl, 1);
    if (lane == 0)
      before = C::identity();
    if (warp > 0)
      before = C::op(warpTotal[warp - 1], before);
    const Acc start = C::op(carry, before);
    const Acc chunkTotal = warpTotal[Warps - 1];
    __syncthreads();
#pragma unroll
    for (int t = 0; t < Items; ++t) {
      const Idx q = chunk + (Idx)threadIdx.x * Items + t;
      if (q >= C::kLen)
        break;
      if constexpr (C::kExclusive)
        store(q, t == 0 ? start : C::op(start, v[t - 1]));
      else
        store(q, C::op(start, v[t]));
    }
    carry = C::op(carry, chunkTotal);
  }
}

} // namespace stark_kernels
