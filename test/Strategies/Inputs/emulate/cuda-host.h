// cuda-host.h - runs a generated CUDA kernel on the host, for tests without
// a GPU. The blocks of a launch run one after another; the threads of a
// block run as std::threads, and __syncthreads is a barrier among them, so
// shared memory (a function-local static) is shared by exactly one block at
// a time. Only what block-level kernels use is here: no warp intrinsics,
// no atomics, one grid dimension. Element types are float.
#include <algorithm>
#include <barrier>
#include <cmath>
#include <thread>
#include <vector>

struct StarkHostIndex {
  int x = 0, y = 0, z = 0;
};
inline thread_local StarkHostIndex threadIdx, blockIdx;
inline std::barrier<> *starkHostBarrier = nullptr;
inline void __syncthreads() { starkHostBarrier->arrive_and_wait(); }

#define __global__
#define __device__
#define __forceinline__ inline
#define __constant__ static
#define __shared__ static
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))

struct alignas(16) float4 {
  float x, y, z, w;
};
template <class T> T __ldg(const T *p) { return *p; }
template <class T> T stark_widen(T x) { return x; }
template <class To, class From> To stark_cast(From x) {
  return static_cast<To>(x);
}
inline float stark_maximumf(float a, float b) {
  return (a != a || b != b) ? a + b : std::fmax(a, b);
}
inline float stark_minimumf(float a, float b) {
  return (a != a || b != b) ? a + b : std::fmin(a, b);
}

/// Runs `kernel` over `grid` blocks of `block` threads.
template <class Kernel>
void starkHostLaunch(int grid, int block, Kernel kernel) {
  for (int b = 0; b < grid; ++b) {
    std::barrier<> barrier(block);
    starkHostBarrier = &barrier;
    std::vector<std::thread> threads;
    for (int t = 0; t < block; ++t)
      threads.emplace_back([&, t, b] {
        threadIdx.x = t;
        blockIdx.x = b;
        kernel();
      });
    for (std::thread &thread : threads)
      thread.join();
  }
}
