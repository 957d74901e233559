// The prelude of every generated template source (Prelude.cuh) compiles for
// sm_90a: vector access, widening and narrowing of f32, f16, bf16 and f64,
// NaN-propagating min/max in float and double.
// RUN: %nvcc-compile %s -o %t.o

#include "Prelude.cuh"

template <class T>
__global__ void minMaxRoundTrip(const T *__restrict__ in, T *__restrict__ out) {
  using V = StarkVec<T, 4>;
  V v = *reinterpret_cast<const V *>(in);
  const float a = static_cast<float>(stark_widen(v.v[0]));
  const float b = static_cast<float>(stark_widen(v.v[1]));
  v.v[0] = stark_cast<T>(stark_maximumf(a, b));
  v.v[1] = stark_cast<T>(stark_minimumf(a, b));
  *reinterpret_cast<V *>(out) = v;
}

template __global__ void minMaxRoundTrip<float>(const float *, float *);
template __global__ void minMaxRoundTrip<__half>(const __half *, __half *);
template __global__ void minMaxRoundTrip<__nv_bfloat16>(const __nv_bfloat16 *,
                                                        __nv_bfloat16 *);

__global__ void minMaxDouble(const double *__restrict__ in,
                             double *__restrict__ out) {
  out[0] = stark_maximumf(stark_widen(in[0]), in[1]);
  out[1] = stark_minimumf(stark_widen(in[0]), in[1]);
}
