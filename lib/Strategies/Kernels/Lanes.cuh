// Lanes.cuh - the lanes of a row working together: shuffle trees within a
// warp, a row's combined state handed back to all of its lanes, and the float
// or double math of the row kernels.
//
// A state of several numbers (softmax's running pair, norm's Welford triple)
// is a LaneState and shuffles number by number.
#pragma once

namespace stark_kernels {

template <class T, int N> struct LaneState { T v[N]; };

template <class T, int N, class Shuffle>
__device__ __forceinline__ LaneState<T, N> shuffleEach(const LaneState<T, N> &a,
                                                       Shuffle shuffle) {
  LaneState<T, N> r;
#pragma unroll
  for (int i = 0; i < N; ++i)
    r.v[i] = shuffle(a.v[i]);
  return r;
}

template <class T>
__device__ __forceinline__ T laneShflDown(T v, int offset, int width) {
  return __shfl_down_sync(0xffffffffu, v, offset, width);
}
template <class T>
__device__ __forceinline__ T laneShfl(T v, int source, int width) {
  return __shfl_sync(0xffffffffu, v, source, width);
}
template <class T, int N>
__device__ __forceinline__ LaneState<T, N>
laneShflDown(const LaneState<T, N> &a, int offset, int width) {
  return shuffleEach(a, [&](T x) { return laneShflDown(x, offset, width); });
}
template <class T, int N>
__device__ __forceinline__ LaneState<T, N> laneShfl(const LaneState<T, N> &a,
                                                    int source, int width) {
  return shuffleEach(a, [&](T x) { return laneShfl(x, source, width); });
}

// The state of an argmax or argmin over a row: the extreme value found and
// its position. Of two states the more extreme value wins, and of equal
// values the earlier position, so the tree's order does not matter; a NaN
// never compares beyond a value and is never found.
template <class T> struct ArgState {
  T v;
  long long i;
};
template <class T>
__device__ __forceinline__ ArgState<T> argMax(ArgState<T> a, ArgState<T> b) {
  return (b.v > a.v || (b.v == a.v && b.i < a.i)) ? b : a;
}
template <class T>
__device__ __forceinline__ ArgState<T> argMin(ArgState<T> a, ArgState<T> b) {
  return (b.v < a.v || (b.v == a.v && b.i < a.i)) ? b : a;
}
template <class T>
__device__ __forceinline__ ArgState<T> laneShflDown(const ArgState<T> &a,
                                                    int offset, int width) {
  return {laneShflDown(a.v, offset, width), laneShflDown(a.i, offset, width)};
}
template <class T>
__device__ __forceinline__ ArgState<T> laneShfl(const ArgState<T> &a,
                                                int source, int width) {
  return {laneShfl(a.v, source, width), laneShfl(a.i, source, width)};
}

// Calls step(offset) for offset = Width / 2, Width / 4, ..., 1: the levels of
// a shuffle-down tree over Width lanes.
template <int Width, class Step>
__device__ __forceinline__ void laneTree(Step step) {
#pragma unroll
  for (int offset = Width / 2; offset > 0; offset /= 2)
    step(offset);
}

// Combines the values of Width consecutive lanes into the first of them:
// v = combine(v, v of the lane `offset` further) at each level.
template <int Width, class T, class Combine>
__device__ __forceinline__ T laneReduce(T v, Combine combine) {
  laneTree<Width>(
      [&](int offset) { v = combine(v, laneShflDown(v, offset, Width)); });
  return v;
}

// Merges the states of the Lanes lanes of a row (threadIdx.x, one row per
// threadIdx.y) with merge(into, other) and returns the result to all of them:
// a shuffle tree within each warp, then the warps in order through `part`
// (Lanes / 32 slots of shared memory, one set per row and per call).
template <int Lanes, class S, class Merge>
__device__ __forceinline__ S rowAllReduce(S s, S *part, Merge merge) {
  constexpr int W = Lanes < 32 ? Lanes : 32;
  laneTree<W>([&](int offset) { merge(s, laneShflDown(s, offset, W)); });
  if constexpr (Lanes > 32) {
    if (threadIdx.x % 32 == 0)
      part[threadIdx.x / 32] = s;
    __syncthreads();
    s = part[0];
    for (int w = 1; w < Lanes / 32; ++w)
      merge(s, part[w]);
  } else {
    s = laneShfl(s, 0, W);
  }
  return s;
}

// The math of the row kernels, which compute in float or double.
__device__ __forceinline__ float expOf(float x) { return expf(x); }
__device__ __forceinline__ double expOf(double x) { return exp(x); }
__device__ __forceinline__ float sqrtOf(float x) { return sqrtf(x); }
__device__ __forceinline__ double sqrtOf(double x) { return sqrt(x); }
__device__ __forceinline__ float rsqrtOf(float x) { return rsqrtf(x); }
__device__ __forceinline__ double rsqrtOf(double x) { return rsqrt(x); }
template <class T> __device__ __forceinline__ T negativeInfinity();
template <> __device__ __forceinline__ float negativeInfinity<float>() {
  return __int_as_float(0xff800000);
}
template <> __device__ __forceinline__ double negativeInfinity<double>() {
  return __longlong_as_double(0xfff0000000000000LL);
}

} // namespace stark_kernels
