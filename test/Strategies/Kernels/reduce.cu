// The row and column reductions (Reduce.cuh) compile for sm_90a: add over
// f32 and f16 inputs, max over bf16, an integer xor; lanes of 4 to 1024,
// vectors of 1 to 8, rows split over blocks, columns split over threads.
// RUN: %nvcc-compile %s -o %t.o

#include "Prelude.cuh"

#include "Reduce.cuh"

using namespace stark_kernels;

struct AddF32 {
  typedef float Acc;
  __device__ __forceinline__ Acc operator()(Acc a, Acc b) const {
    return a + b;
  }
  static __device__ __forceinline__ Acc identity() { return 0.0f; }
};
struct MaxF32 {
  typedef float Acc;
  __device__ __forceinline__ Acc operator()(Acc a, Acc b) const {
    return stark_maximumf(a, b);
  }
  static __device__ __forceinline__ Acc identity() {
    return __int_as_float(0xff800000);
  }
};
struct XorI32 {
  typedef int Acc;
  __device__ __forceinline__ Acc operator()(Acc a, Acc b) const {
    return a ^ b;
  }
  static __device__ __forceinline__ Acc identity() { return 0; }
};

__device__ float partials[1024 * 4];

// Rows of Len elements of T; Split > 1 leaves partial results in `partials`.
template <class Op, class T, int Lanes, int RowsPerBlock, int Vec, int Split,
          int Len>
__global__ void reduceRows(const T *__restrict__ in, T *__restrict__ out) {
  using Acc = typename Op::Acc;
  constexpr int Chunk = ((Len + Split - 1) / Split + Vec - 1) / Vec * Vec;
  const int lane = threadIdx.x;
  const int row = blockIdx.x * RowsPerBlock + threadIdx.y;
  const int part = blockIdx.y;
  Acc acc = Op::identity();
  if (row < 1024)
    forRowPart<Lanes, Vec, Chunk, Len>(part, lane, [&](int e) {
      const StarkVec<T, Vec> y = loadVec<Vec>(in + row * Len + e);
#pragma unroll
      for (int j = 0; j < Vec; ++j)
        acc = Op()(acc, (Acc)stark_widen(y.v[j]));
    });
  acc = reduceRowLanes<Op, Lanes, RowsPerBlock>(acc);
  if (lane == 0 && row < 1024) {
    if constexpr (Split > 1)
      partials[row * Split + part] = acc;
    else
      accumulateInto<Op>(out + row, acc);
  }
}

template __global__ void
reduceRows<AddF32, float, 256, 1, 4, 1, 4096>(const float *, float *);
template __global__ void
reduceRows<AddF32, __half, 32, 8, 8, 1, 64>(const __half *, __half *);
template __global__ void
reduceRows<MaxF32, __nv_bfloat16, 1024, 1, 2, 4, 100000>(const __nv_bfloat16 *,
                                                         __nv_bfloat16 *);
template __global__ void reduceRows<XorI32, int, 4, 64, 1, 1, 7>(const int *,
                                                                 int *);

__global__ void finishRows(float *__restrict__ out) {
  const int row = blockIdx.x * 256 + threadIdx.x;
  if (row >= 1024)
    return;
  accumulateInto<AddF32>(out + row,
                         combineParts<AddF32, 4>(partials + row * 4));
}

// Column sums: each thread of a column takes every SplitY-th row.
template <class Op, class T, int BlockX, int SplitY>
__global__ void reduceColumns(const T *__restrict__ in, T *__restrict__ out) {
  using Acc = typename Op::Acc;
  const int p = blockIdx.x * BlockX + threadIdx.x;
  Acc acc = Op::identity();
  if (p < 1000)
    forLaneVectors<SplitY, 1>(0, 300, threadIdx.y, [&](int r) {
      acc = Op()(acc, (Acc)stark_widen(in[r * 1000 + p]));
    });
  acc = reduceColumnThreads<Op, BlockX, SplitY>(acc);
  if (threadIdx.y == 0 && p < 1000)
    accumulateInto<Op>(out + p, acc);
}

template __global__ void reduceColumns<MaxF32, __half, 32, 8>(const __half *,
                                                              __half *);
template __global__ void reduceColumns<AddF32, float, 256, 1>(const float *,
                                                              float *);
