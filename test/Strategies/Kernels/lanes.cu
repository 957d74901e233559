// The lane helpers of the row kernels (Lanes.cuh) compile for sm_90a: shuffle
// trees over 8 to 32 lanes, a row's sum and a row's state of two numbers
// handed to all of its lanes with and without shared memory, float and double
// math.
// RUN: %nvcc-compile %s -o %t.o

#include "Prelude.cuh"

#include "Lanes.cuh"

using namespace stark_kernels;

template <class T, int Lanes, int RowsPerBlock>
__global__ void rowSums(const T *__restrict__ in, T *__restrict__ out) {
  __shared__ T part[RowsPerBlock][Lanes > 32 ? Lanes / 32 : 1];
  const int i =
      blockIdx.x * Lanes * RowsPerBlock + threadIdx.y * Lanes + threadIdx.x;
  const T v = in[i];
  const T first =
      laneReduce<(Lanes < 32 ? Lanes : 32)>(v, [](T a, T b) { return a + b; });
  const T all = rowAllReduce<Lanes>(v, part[threadIdx.y],
                                    [](T &a, const T &b) { a += b; });
  out[i] = expOf(first) + sqrtOf(all) * rsqrtOf(all) + negativeInfinity<T>();
}

template __global__ void rowSums<float, 8, 32>(const float *, float *);
template __global__ void rowSums<float, 32, 8>(const float *, float *);
template __global__ void rowSums<float, 256, 1>(const float *, float *);
template __global__ void rowSums<double, 64, 4>(const double *, double *);

// The smallest and largest value of a row, as one state.
template <class T, int Lanes>
__global__ void rowRange(const T *__restrict__ in, T *__restrict__ out) {
  __shared__ LaneState<T, 2> part[Lanes > 32 ? Lanes / 32 : 1];
  const T v = in[blockIdx.x * Lanes + threadIdx.x];
  LaneState<T, 2> range = {v, v};
  range = rowAllReduce<Lanes>(range, part,
                              [](LaneState<T, 2> &a, const LaneState<T, 2> &b) {
                                a.v[0] = a.v[0] < b.v[0] ? a.v[0] : b.v[0];
                                a.v[1] = a.v[1] > b.v[1] ? a.v[1] : b.v[1];
                              });
  out[blockIdx.x * 2] = range.v[0];
  out[blockIdx.x * 2 + 1] = range.v[1];
}

template __global__ void rowRange<float, 16>(const float *, float *);
template __global__ void rowRange<double, 512>(const double *, double *);
