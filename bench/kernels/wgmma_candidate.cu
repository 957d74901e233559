// wgmma_candidate.cu - runs a gemm_wgmma candidate's generated source on the
// GPU with its plan's launch (grid of 128 x BN tiles by batch, 384 threads,
// StarkConfig::kSmemBytes) and checks C0 + A * B against an f64 reference
// (||C - ref|| / ||ref||, two draws); times 20 launches when TIME is set.
//
//   stark-template --problem P.mlir --family gemm_wgmma --source > gen.cu
//   nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a \
//     -I . -DGEN='"gen.cu"' [-DTIME] bench/kernels/wgmma_candidate.cu -o check
//
// The operands are dense row-major (the generated strides must say so).
#include GEN
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));        \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)
template <class T> __device__ float toF(T x) { return (float)x; }
template <> __device__ float toF(__half x) { return __half2float(x); }
template <> __device__ float toF(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
template <class T> __device__ T fromF(float x) { return (T)x; }
template <> __device__ __half fromF(float x) { return __float2half_rn(x); }
template <> __device__ __nv_bfloat16 fromF(float x) {
  return __float2bfloat16_rn(x);
}
__device__ unsigned long long mix(unsigned long long x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
template <class T>
__global__ void fill(T *x, long long n, unsigned long long s) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    x[i] = fromF<T>((mix(s * 1000003ull + i) >> 40) * (2.f / 16777216.f) - 1.f);
}
template <class TI, class TO>
__global__ void ref(const TI *A, const TI *B, const TO *C0, double *R) {
  long long total = BATCH * M * N;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
       i < total; i += (long long)gridDim.x * blockDim.x) {
    long long n = i % N, m = (i / N) % M, b = i / (M * N);
    double s = toF(C0[i]);
    for (long long k = 0; k < K; ++k)
      s += (double)toF(A[(b * M + m) * K + k]) *
           (double)toF(B[(b * K + k) * N + n]);
    R[i] = s;
  }
}
template <class TO>
__global__ void diff(const TO *C, const double *R, long long n, double *acc) {
  double d = 0, r = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    double o = toF(C[i]);
    double e = o != o ? 1e30 : o - R[i];
    d += e * e;
    r += R[i] * R[i];
  }
  atomicAdd(&acc[0], d);
  atomicAdd(&acc[1], r);
}
template <class F> struct ArgT;
template <class I, class O> struct ArgT<void(const I *, const I *, O *)> {
  typedef I In;
  typedef O Out;
};
typedef ArgT<decltype(stark_gemm_wgmma)>::In TIn;
typedef ArgT<decltype(stark_gemm_wgmma)>::Out TOut;
int main() {
  long long na = BATCH * M * K, nb = BATCH * K * N, nc = BATCH * M * N;
  TIn *A, *B;
  TOut *C, *C0;
  double *R, *acc;
  CK(cudaMalloc(&A, na * sizeof(TIn)));
  CK(cudaMalloc(&B, nb * sizeof(TIn)));
  CK(cudaMalloc(&C, nc * sizeof(TOut)));
  CK(cudaMalloc(&C0, nc * sizeof(TOut)));
  CK(cudaMalloc(&R, nc * sizeof(double)));
  CK(cudaMalloc(&acc, 16));
  int smem = StarkConfig::kSmemBytes;
  CK(cudaFuncSetAttribute(stark_gemm_wgmma,
                          cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  dim3 grid(((M + 127) / 128) * ((N + StarkConfig::kBN - 1) / StarkConfig::kBN),
            BATCH);
  double worst = 0;
  for (int rep = 0; rep < 2; ++rep) {
    fill<<<1024, 256>>>(A, na, 10 * rep + 1);
    fill<<<1024, 256>>>(B, nb, 10 * rep + 2);
    fill<<<1024, 256>>>(C0, nc, 10 * rep + 3);
    ref<<<4096, 256>>>(A, B, C0, R);
    CK(cudaMemcpy(C, C0, nc * sizeof(TOut), cudaMemcpyDeviceToDevice));
    stark_gemm_wgmma<<<grid, 384, smem>>>(A, B, C);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemset(acc, 0, 16));
    diff<<<1024, 256>>>(C, R, nc, acc);
    double h[2];
    CK(cudaMemcpy(h, acc, 16, cudaMemcpyDeviceToHost));
    worst = std::max(worst, std::sqrt(h[0] / h[1]));
  }
  double tol = sizeof(TOut) == 4 ? 1e-5 : 1e-2;
  printf("%s %lldx%lldx%lldx%lld grid %dx%d smem %d: rel. error %.2e %s\n", GEN,
         BATCH, M, N, K, grid.x, grid.y, smem, worst,
         worst < tol ? "ok" : "FAIL");
#ifdef TIME
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<float> t;
  for (int i = 0; i < 23; ++i) {
    cudaEventRecord(e0);
    stark_gemm_wgmma<<<grid, 384, smem>>>(A, B, C);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    if (i >= 3)
      t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  double us = 1000 * 0.5 * (t[9] + t[10]);
  printf("  median %.1f us, %.1f TFLOP/s\n", us,
         2.0 * BATCH * M * N * K / us * 1e-6);
#endif
  return worst < tol ? 0 : 1;
}
