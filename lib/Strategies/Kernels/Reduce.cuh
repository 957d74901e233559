// Reduce.cuh - the fixed structure of the row and column reductions.
//
// A reduction combines pre(inputs) over the reduced loops into the output with
// a combiner, given by the generated part as a struct Op:
//   struct Op {
//     typedef ... Acc;                                  // accumulator type
//     __device__ Acc operator()(Acc a, Acc b) const;    // the combiner
//     static __device__ Acc identity();
//   };
// The generated part also decodes indices and evaluates pre(inputs); the
// helpers here combine in a fixed order, so results do not depend on timing.
//
// Expects Prelude.cuh (stark_widen, stark_cast) before it.
#pragma once

#include "Lanes.cuh"
#include "Loops.cuh"

namespace stark_kernels {

// reduce_row: the Lanes lanes of a row (threadIdx.x; RowsPerBlock rows per
// block along threadIdx.y) walk part `part` (blockIdx.y) of the row, Chunk
// elements of Len, calling f(e) for their vectors of Vec elements starting at
// e.
template <int Lanes, int Vec, auto Chunk, auto Len, class F>
__device__ __forceinline__ void forRowPart(int part, int lane, F f) {
  using Idx = decltype(Len);
  const Idx begin = (Idx)part * Chunk;
  const Idx end = begin + Chunk < Len ? begin + Chunk : Len;
  forLaneVectors<Lanes, Vec>(begin, end, lane, f);
}

// Combines the lanes' accumulators of each row into its lane 0: shuffles
// within a warp, then the warps' results through shared memory and one more
// shuffle tree in the first warp.
template <class Op, int Lanes, int RowsPerBlock>
__device__ __forceinline__ typename Op::Acc
reduceRowLanes(typename Op::Acc acc) {
  using Acc = typename Op::Acc;
  acc = laneReduce<(Lanes < 32 ? Lanes : 32)>(acc, Op());
  if constexpr (Lanes > 32) {
    __shared__ Acc warpPartials[RowsPerBlock][Lanes / 32];
    const int lane = threadIdx.x;
    if (lane % 32 == 0)
      warpPartials[threadIdx.y][lane / 32] = acc;
    __syncthreads();
    if (lane < 32) {
      acc =
          lane < Lanes / 32 ? warpPartials[threadIdx.y][lane] : Op::identity();
      acc = laneReduce<32>(acc, Op());
    }
  }
  return acc;
}

// The Split partial results of one row (split rows), in order.
template <class Op, int Split>
__device__ __forceinline__ typename Op::Acc
combineParts(const typename Op::Acc *partials) {
  typename Op::Acc acc = Op::identity();
  for (int q = 0; q < Split; ++q)
    acc = Op()(acc, partials[q]);
  return acc;
}

// reduce_col: combines the SplitY accumulators of each column (threadIdx.y)
// into threadIdx.y == 0 by a tree through shared memory.
template <class Op, int BlockX, int SplitY>
__device__ __forceinline__ typename Op::Acc
reduceColumnThreads(typename Op::Acc acc) {
  if constexpr (SplitY > 1) {
    __shared__ typename Op::Acc partial[SplitY][BlockX];
    partial[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
#pragma unroll
    for (int half = SplitY / 2; half > 0; half /= 2) {
      if (threadIdx.y < half)
        partial[threadIdx.y][threadIdx.x] =
            Op()(partial[threadIdx.y][threadIdx.x],
                 partial[threadIdx.y + half][threadIdx.x]);
      __syncthreads();
    }
    acc = partial[0][threadIdx.x];
  }
  return acc;
}

// The output element at `out` combined with the reduction's result.
template <class Op, class T>
__device__ __forceinline__ void accumulateInto(T *out, typename Op::Acc acc) {
  *out = stark_cast<T>(Op()((typename Op::Acc)stark_widen(*out), acc));
}

// The output element at `out` written as the reduction's result combined
// with `init`, the constant its fill held (a fill + reduction problem): the
// output is never read.
template <class Op, class T>
__device__ __forceinline__ void storeFromInit(T *out, typename Op::Acc init,
                                              typename Op::Acc acc) {
  *out = stark_cast<T>(Op()(init, acc));
}

} // namespace stark_kernels
