// The block scan (Scan.cuh) compiles for sm_90a: an inclusive sum over f32,
// an exclusive product over f64 and an exclusive xor over i32, with blocks
// of 32 to 1024 threads and 1 to 16 items each.
// RUN: %nvcc-compile %s -o %t.o

#include "Prelude.cuh"

#include "Scan.cuh"

using namespace stark_kernels;

template <class T, int Threads, int Items, bool Exclusive, int Op>
struct Config {
  typedef int Idx;
  typedef T Acc;
  static constexpr Idx kLen = 5000;
  static constexpr int kThreads = Threads, kItems = Items;
  static constexpr bool kExclusive = Exclusive;
  static __device__ __forceinline__ Acc op(Acc a, Acc b) {
    if constexpr (Op == 0)
      return a + b;
    else if constexpr (Op == 1)
      return a * b;
    else
      return a ^ b;
  }
  static __device__ __forceinline__ Acc identity() {
    return Op == 1 ? (Acc)1 : (Acc)0;
  }
};

// Row blockIdx.x of `in` scanned into `out`, from the end when Reverse.
template <class C, bool Reverse>
__global__ void scanRows(const typename C::Acc *__restrict__ in,
                         typename C::Acc *__restrict__ out) {
  const int row = blockIdx.x;
  auto position = [](int q) { return Reverse ? C::kLen - 1 - q : q; };
  auto load = [&](int q) { return in[row * C::kLen + position(q)]; };
  auto store = [&](int q, typename C::Acc prefix) {
    out[row * C::kLen + position(q)] = prefix;
  };
  scanRow<C>(load, store);
}

template __global__ void
scanRows<Config<float, 256, 4, false, 0>, false>(const float *, float *);
template __global__ void
scanRows<Config<float, 32, 16, false, 0>, true>(const float *, float *);
template __global__ void
scanRows<Config<double, 1024, 1, true, 1>, false>(const double *, double *);
template __global__ void
scanRows<Config<int, 64, 8, true, 2>, true>(const int *, int *);
