// The loops and accesses of the generated pointwise and row kernels
// (Loops.cuh) compile for sm_90a over f32, f16 and bf16 and vector widths 1
// to 8: grid-stride loops, a lane's part of a row kept in registers or read
// twice, vector and strided loads and stores.
// RUN: %nvcc-compile %s -o %t.o

#include "Prelude.cuh"

#include "Loops.cuh"

using namespace stark_kernels;

template <class T, int Vec, int PerThread>
__global__ void copyScaled(const T *__restrict__ in, T *__restrict__ out,
                           int stride) {
  gridStride<4096 / Vec, 128, PerThread>([&](long long chunk) {
    const int p = (int)(chunk * Vec);
    const StarkVec<T, Vec> a = loadVec<Vec>(in + p);
    const StarkVec<T, Vec> b = loadStrided<Vec>(in + p, stride);
    StarkVec<T, Vec> r;
#pragma unroll
    for (int j = 0; j < Vec; ++j)
      r.v[j] = stark_cast<T>(stark_widen(a.v[j]) * stark_widen(b.v[j]));
    storeVec<Vec>(out + p, r);
    storeStrided<Vec>(out + 4096 + p, stride, r);
  });
}

template __global__ void copyScaled<float, 4, 1>(const float *, float *, int);
template __global__ void copyScaled<__half, 8, 2>(const __half *, __half *,
                                                  int);
template __global__ void copyScaled<__nv_bfloat16, 1, 4>(const __nv_bfloat16 *,
                                                         __nv_bfloat16 *, int);

// Each lane's part of a row: summed on the first read, scaled on the second.
template <class T, long long Len, int Lanes, int Vec, bool Cache>
__global__ void rowTwice(const T *__restrict__ in, T *__restrict__ out) {
  const long long base = (long long)blockIdx.x * Len;
  auto load = [&](long long j) { return loadVec<Vec>(in + base + j); };
  LaneRow<T, Len, Lanes, Vec, Cache> part;
  float sum = 0;
  part.read(threadIdx.x, load, [&](long long, const StarkVec<T, Vec> &x) {
#pragma unroll
    for (int v = 0; v < Vec; ++v)
      sum += stark_widen(x.v[v]);
  });
  part.reread(threadIdx.x, load, [&](long long j, const StarkVec<T, Vec> &x) {
    StarkVec<T, Vec> y;
#pragma unroll
    for (int v = 0; v < Vec; ++v)
      y.v[v] = stark_cast<T>(stark_widen(x.v[v]) * sum);
    storeVec<Vec>(out + base + j, y);
  });
}

template __global__ void rowTwice<float, 1000LL, 64, 4, true>(const float *,
                                                              float *);
template __global__ void rowTwice<__half, 4096LL, 128, 8, false>(const __half *,
                                                                 __half *);
template __global__ void
rowTwice<__nv_bfloat16, 30LL, 32, 2, true>(const __nv_bfloat16 *,
                                           __nv_bfloat16 *);
