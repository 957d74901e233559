// wgmma_bench.cu - checks and times the Hopper wgmma GEMM kernel of
// lib/Strategies/Kernels/GemmWgmma.cuh against cuBLAS (f16/bf16 inputs, f32
// accumulation, C += A * B with row-major A, B and C as linalg.matmul has
// them).
//
// Every check draws fresh random inputs and a random C, and compares the
// kernel's C with an f64 reference of C0 + A * B by ||out - ref|| / ||ref||
// (an element the kernel never wrote keeps C0 and fails). Timings are
// CUDA-event medians of 20 runs, each after writing a 256 MB buffer to flush
// L2. Build and run: bench/kernels/run_wgmma.sh.
#include "../../lib/Strategies/Kernels/GemmWgmmaTma.cuh"

#include <cublas_v2.h>
#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace stark_kernels;

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x,                \
              cudaGetErrorString(e_));                                         \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)
#define CB(x)                                                                  \
  do {                                                                         \
    cublasStatus_t s_ = (x);                                                   \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                         \
      fprintf(stderr, "%s:%d cublas %d\n", __FILE__, __LINE__, (int)s_);       \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

typedef __nv_bfloat16 bf16;

__device__ __forceinline__ unsigned long long mix64(unsigned long long x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
__device__ __forceinline__ float uniform(unsigned long long seed, long long i) {
  return (mix64(seed * 0x100000001B3ull + i) >> 40) * (2.0f / 16777216.0f) -
         1.0f;
}
template <class T> __device__ __forceinline__ float toF(T x) {
  return (float)x;
}
template <> __device__ __forceinline__ float toF(bf16 x) {
  return __bfloat162float(x);
}
template <> __device__ __forceinline__ float toF(__half x) {
  return __half2float(x);
}
template <class T> __device__ __forceinline__ T fromF(float x) { return x; }
template <> __device__ __forceinline__ bf16 fromF(float x) {
  return __float2bfloat16_rn(x);
}
template <> __device__ __forceinline__ __half fromF(float x) {
  return __float2half_rn(x);
}
template <class T>
__global__ void fillUniform(T *x, long long n, unsigned long long seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    x[i] = fromF<T>(uniform(seed, i));
}
// f64 reference of C0 + A * B, one output per thread.
template <class TIn, class TC>
__global__ void refGemm(const TIn *A, const TIn *B, const TC *C0, double *R,
                        int batch, int M, int N, int K) {
  long long total = (long long)batch * M * N;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
       i < total; i += (long long)gridDim.x * blockDim.x) {
    int n = i % N, m = (i / N) % M, b = i / ((long long)M * N);
    const TIn *a = A + ((long long)b * M + m) * K;
    const TIn *bb = B + (long long)b * K * N + n;
    double s = toF(C0[i]);
    for (int k = 0; k < K; ++k)
      s += (double)toF(a[k]) * (double)toF(bb[(long long)k * N]);
    R[i] = s;
  }
}
template <class TC>
__global__ void diffNorms(const TC *C, const double *R, long long n,
                          double *acc) {
  double d = 0, r = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    double o = toF(C[i]);
    double e = o - R[i];
    if (o != o)
      e = 1e30; // NaN never passes
    d += e * e;
    r += R[i] * R[i];
  }
  atomicAdd(&acc[0], d);
  atomicAdd(&acc[1], r);
}

struct Problem {
  int batch, M, N, K;
};

template <class TIn, class TC> struct Buffers {
  Problem pr;
  TIn *A, *B;
  TC *C, *C0;
  double *R, *acc;
  Buffers(Problem p) : pr(p) {
    long long a = (long long)p.batch * p.M * p.K,
              b = (long long)p.batch * p.K * p.N,
              c = (long long)p.batch * p.M * p.N;
    CK(cudaMalloc(&A, a * sizeof(TIn)));
    CK(cudaMalloc(&B, b * sizeof(TIn)));
    CK(cudaMalloc(&C, c * sizeof(TC)));
    CK(cudaMalloc(&C0, c * sizeof(TC)));
    CK(cudaMalloc(&R, c * sizeof(double)));
    CK(cudaMalloc(&acc, 2 * sizeof(double)));
  }
  ~Buffers() {
    cudaFree(A), cudaFree(B), cudaFree(C), cudaFree(C0), cudaFree(R),
        cudaFree(acc);
  }
  long long cElems() const { return (long long)pr.batch * pr.M * pr.N; }
  void fresh(unsigned long long seed) {
    fillUniform<<<1024, 256>>>(A, (long long)pr.batch * pr.M * pr.K, seed);
    fillUniform<<<1024, 256>>>(B, (long long)pr.batch * pr.K * pr.N, seed + 1);
    fillUniform<<<1024, 256>>>(C0, cElems(), seed + 2);
    CK(cudaGetLastError());
    refGemm<<<4096, 256>>>(A, B, C0, R, pr.batch, pr.M, pr.N, pr.K);
    CK(cudaGetLastError());
  }
  void resetC() {
    CK(cudaMemcpy(C, C0, cElems() * sizeof(TC), cudaMemcpyDeviceToDevice));
  }
  double relErr() {
    CK(cudaMemset(acc, 0, 2 * sizeof(double)));
    diffNorms<<<1024, 256>>>(C, R, cElems(), acc);
    CK(cudaGetLastError());
    double h[2];
    CK(cudaMemcpy(h, acc, sizeof(h), cudaMemcpyDeviceToHost));
    return std::sqrt(h[0] / h[1]);
  }
  WgmmaArgs<TIn, TC> args() const {
    WgmmaArgs<TIn, TC> a;
    a.A = A, a.B = B, a.C = C;
    a.M = pr.M, a.N = pr.N, a.K = pr.K;
    a.lda = pr.K, a.ldb = pr.N, a.ldc = pr.N;
    a.batchA = (long long)pr.M * pr.K, a.batchB = (long long)pr.K * pr.N;
    a.batchC = (long long)pr.M * pr.N;
    return a;
  }
};

template <class Cfg, class TIn, class TC>
static void launch(const WgmmaArgs<TIn, TC> &a, int batch, cudaStream_t s) {
  auto k = gemmWgmma<Cfg, TIn, TC>;
  static bool init = false;
  if (!init) {
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                            Cfg::kSmemBytes));
    init = true;
  }
  int tiles =
      ((a.M + Cfg::kBM - 1) / Cfg::kBM) * ((a.N + Cfg::kBN - 1) / Cfg::kBN);
  k<<<dim3(tiles, batch), Cfg::kThreads, Cfg::kSmemBytes, s>>>(a);
}

// The TMA kernel's tensor maps (GemmWgmmaTma.cuh): (k, m, batch) for A,
// (n, k, batch) for B, 128-byte swizzle, boxes of 64 x 128 and 64 x 64,
// copied to device memory.
static PFN_cuTensorMapEncodeTiled_v12000 encodeTiled() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
  if (!fn) {
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&fn,
                                        12000, cudaEnableDefault, &q));
    if (!fn) {
      fprintf(stderr, "no cuTensorMapEncodeTiled\n");
      exit(2);
    }
  }
  return fn;
}
template <class TIn>
static void encodeMap(CUtensorMap *map, const TIn *base, long long inner,
                      long long outer, long long batches, long long rowStride,
                      long long batchStride, unsigned boxInner,
                      unsigned boxOuter) {
  CUtensorMapDataType ty = std::is_same<TIn, bf16>::value
                               ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                               : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  cuuint64_t dims[3] = {(cuuint64_t)inner, (cuuint64_t)outer,
                        (cuuint64_t)(batchStride ? batches : 1)};
  cuuint64_t strides[2] = {
      (cuuint64_t)(rowStride * sizeof(TIn)),
      (cuuint64_t)((batchStride ? batchStride : rowStride * outer) *
                   sizeof(TIn))};
  cuuint32_t box[3] = {boxInner, boxOuter, 1}, elem[3] = {1, 1, 1};
  CUresult r = encodeTiled()(
      map, ty, 3, (void *)base, dims, strides, box, elem,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", (int)r);
    exit(2);
  }
}
static CUtensorMap *deviceMaps;
template <class TIn, class TC>
static WgmmaTmaArgs<TIn, TC> tmaArgs(const WgmmaArgs<TIn, TC> &a, int batch,
                                     unsigned bm) {
  CUtensorMap maps[2];
  encodeMap(&maps[0], a.A, a.K, a.M, batch, a.lda, a.batchA, 64, bm);
  encodeMap(&maps[1], a.B, a.N, a.K, batch, a.ldb, a.batchB, 64, 64);
  if (!deviceMaps)
    CK(cudaMalloc(&deviceMaps, sizeof(maps)));
  CK(cudaMemcpy(deviceMaps, maps, sizeof(maps), cudaMemcpyHostToDevice));
  WgmmaTmaArgs<TIn, TC> t;
  static_cast<WgmmaArgs<TIn, TC> &>(t) = a;
  t.mapA = &deviceMaps[0], t.mapB = &deviceMaps[1];
  t.batches = batch, t.aBroadcast = a.batchA == 0, t.bBroadcast = a.batchB == 0;
  return t;
}
static int numSMs;
// Cfg::kPersistent (TmaConfig) picks the grid.
template <class Cfg, class TIn, class TC>
static void launchTma(const WgmmaTmaArgs<TIn, TC> &a, cudaStream_t s) {
  auto k = gemmWgmmaTma<Cfg, TIn, TC>;
  static bool init = false;
  if (!init) {
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                            Cfg::kSmemBytes));
    init = true;
  }
  int tiles = ((a.M + Cfg::kBM - 1) / Cfg::kBM) *
              ((a.N + Cfg::kBN - 1) / Cfg::kBN) * a.batches;
  int grid = Cfg::kPersistent ? std::min(tiles, numSMs) : tiles;
  k<<<grid, Cfg::kThreads, Cfg::kSmemBytes, s>>>(a);
}
template <class Base, bool PERSISTENT> struct TmaConfig : Base {
  static constexpr bool kPersistent = PERSISTENT;
};

static void *flushBuf;
static const size_t flushBytes = 256u << 20;
static cudaEvent_t e0, e1;

template <class F> static double timeUs(F &&f) {
  for (int i = 0; i < 3; ++i)
    f();
  CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < 20; ++r) {
    CK(cudaMemsetAsync(flushBuf, r & 0xFF, flushBytes));
    CK(cudaEventRecord(e0));
    f();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    t.push_back(ms * 1000.f);
  }
  CK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  return 0.5 * (t[9] + t[10]);
}

struct Row {
  std::string shape, what;
  double us, tflops, err;
  bool ok;
};
static std::vector<Row> rows;
static int failures = 0;

template <class TC> static double tolOf() {
  return sizeof(TC) == 4 ? 1e-5 : 1e-2;
}

// A probe skips part of the work (GemmWgmma.cuh, WgmmaProbe): timed only,
// its result is not checked.
template <class Cfg, class TIn, class TC>
static void probe(Buffers<TIn, TC> &buf, const char *name) {
  const Problem &p = buf.pr;
  double us = timeUs([&] { launch<Cfg>(buf.args(), p.batch, 0); });
  double tf = 2.0 * p.batch * p.M * p.N * (double)p.K / us * 1e-6;
  char shape[64];
  snprintf(shape, sizeof(shape), "%dx%dx%dx%d", p.batch, p.M, p.N, p.K);
  rows.push_back({shape, name, us, tf, -1, true});
  printf("%-22s %-34s %9.1f us %7.1f TFLOP/s  (probe)\n", shape, name, us, tf);
  fflush(stdout);
}

template <class Cfg, class TIn, class TC>
static void variant(Buffers<TIn, TC> &buf, const char *name, bool time,
                    unsigned long long seed) {
  const Problem &p = buf.pr;
  double worst = 0;
  for (int rep = 0; rep < 2; ++rep) {
    buf.fresh(seed + 10 * rep);
    buf.resetC();
    launch<Cfg>(buf.args(), p.batch, 0);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    worst = std::max(worst, buf.relErr());
  }
  bool ok = worst < tolOf<TC>();
  if (!ok)
    ++failures;
  double us = 0, tf = 0;
  if (time) {
    us = timeUs([&] { launch<Cfg>(buf.args(), p.batch, 0); });
    tf = 2.0 * p.batch * p.M * p.N * (double)p.K / us * 1e-6;
  }
  char shape[64];
  snprintf(shape, sizeof(shape), "%dx%dx%dx%d", p.batch, p.M, p.N, p.K);
  rows.push_back({shape, name, us, tf, worst, ok});
  printf("%-22s %-34s %9.1f us %7.1f TFLOP/s  relerr %.2e %s\n", shape, name,
         us, tf, worst, ok ? "ok" : "FAIL");
  fflush(stdout);
}

template <class Cfg, class TIn, class TC>
static void variantTma(Buffers<TIn, TC> &buf, const char *name, bool time,
                       unsigned long long seed) {
  const Problem &p = buf.pr;
  WgmmaTmaArgs<TIn, TC> a = tmaArgs(buf.args(), p.batch, Cfg::kBM);
  double worst = 0;
  for (int rep = 0; rep < 2; ++rep) {
    buf.fresh(seed + 10 * rep);
    buf.resetC();
    launchTma<Cfg>(a, 0);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    worst = std::max(worst, buf.relErr());
  }
  bool ok = worst < tolOf<TC>();
  if (!ok)
    ++failures;
  double us = 0, tf = 0;
  if (time) {
    us = timeUs([&] { launchTma<Cfg>(a, 0); });
    tf = 2.0 * p.batch * p.M * p.N * (double)p.K / us * 1e-6;
  }
  char shape[64];
  snprintf(shape, sizeof(shape), "%dx%dx%dx%d", p.batch, p.M, p.N, p.K);
  rows.push_back({shape, name, us, tf, worst, ok});
  printf("%-22s %-34s %9.1f us %7.1f TFLOP/s  relerr %.2e %s\n", shape, name,
         us, tf, worst, ok ? "ok" : "FAIL");
  fflush(stdout);
}

template <class TIn, class TC>
static void cublasRow(cublasHandle_t h, Buffers<TIn, TC> &buf, float beta,
                      const char *name, unsigned long long seed) {
  const Problem &p = buf.pr;
  cudaDataType tin = std::is_same<TIn, bf16>::value ? CUDA_R_16BF : CUDA_R_16F;
  cudaDataType tc =
      sizeof(TC) == 4
          ? CUDA_R_32F
          : (std::is_same<TC, bf16>::value ? CUDA_R_16BF : CUDA_R_16F);
  float alpha = 1.f;
  // Row-major C = A B is column-major C^T = B^T A^T.
  auto run = [&] {
    CB(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K,
                                  &alpha, buf.B, tin, p.N, (long long)p.K * p.N,
                                  buf.A, tin, p.K, (long long)p.M * p.K, &beta,
                                  buf.C, tc, p.N, (long long)p.M * p.N, p.batch,
                                  CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  };
  buf.fresh(seed);
  buf.resetC();
  run();
  CK(cudaDeviceSynchronize());
  double err = beta == 1.f ? buf.relErr() : -1;
  double us = timeUs(run);
  double tf = 2.0 * p.batch * p.M * p.N * (double)p.K / us * 1e-6;
  char shape[64];
  snprintf(shape, sizeof(shape), "%dx%dx%dx%d", p.batch, p.M, p.N, p.K);
  rows.push_back({shape, name, us, tf, err, true});
  printf("%-22s %-34s %9.1f us %7.1f TFLOP/s  relerr %.2e\n", shape, name, us,
         tf, err);
  fflush(stdout);
}

using S256x4 = WgmmaConfig<256, 4>;
using S256x3 = WgmmaConfig<256, 3>;
using S128x5 = WgmmaConfig<128, 5>;
using S256x4g16 = WgmmaConfig<256, 4, 16>;
using S256x4swap = WgmmaConfig<256, 4, 8, kProbeSwapB>;
using S256x4nomath = WgmmaConfig<256, 4, 8, kProbeNoMath>;
using S256x4nocopy = WgmmaConfig<256, 4, 8, kProbeNoCopy>;
using S256x4nofence = WgmmaConfig<256, 4, 8, kProbeNoFence>;
using S256x4wait0 = WgmmaConfig<256, 4, 8, kProbeWait0>;
using S256x4nocopyfence = WgmmaConfig<256, 4, 8, kProbeNoCopy | kProbeNoFence>;
using T256x4 = TmaConfig<WgmmaConfig<256, 4>, false>;
using T256x4p = TmaConfig<WgmmaConfig<256, 4>, true>;
using T256x3p = TmaConfig<WgmmaConfig<256, 3>, true>;
using T256x4g16p = TmaConfig<WgmmaConfig<256, 4, 16>, true>;
using T128x5p = TmaConfig<WgmmaConfig<128, 5>, true>;
using T128x6p = TmaConfig<WgmmaConfig<128, 6>, true>;
using T64x8p = TmaConfig<WgmmaConfig<64, 8>, true>;
using T192x4p = TmaConfig<WgmmaConfig<192, 4>, true>;
using T64x128x8p = TmaConfig<WgmmaConfig<128, 8, 8, 0, 64>, true>;

int main(int argc, char **argv) {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  numSMs = prop.multiProcessorCount;
  printf("device %s, %d SMs, smem/block optin %zu\n", prop.name,
         prop.multiProcessorCount, prop.sharedMemPerBlockOptin);
  CK(cudaMalloc(&flushBuf, flushBytes));
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  cublasHandle_t h;
  CB(cublasCreate(&h));
  bool quick = argc > 1 && std::string(argv[1]) == "quick";
  {
    // Odd but supported: M not a tile multiple, N and K multiples of 8 only,
    // two batches.
    Buffers<bf16, float> b({2, 1000, 1032, 520});
    variant<S256x4>(b, "wgmma bf16>f32 128x256 s4", false, 1);
    variant<S128x5>(b, "wgmma bf16>f32 128x128 s5", false, 3);
    variant<S256x4swap>(b, "wgmma bf16>f32 128x256 s4 swapB", false, 5);
    failures -= rows.back().ok ? 0 : 1; // the wrong descriptor must fail
    if (rows.back().ok) {
      printf("swapped B descriptor passed: the check cannot fail\n");
      ++failures;
    }
    variantTma<T256x4>(b, "tma bf16>f32 128x256 s4", false, 41);
    variantTma<T256x4p>(b, "tma bf16>f32 128x256 s4 persistent", false, 43);
    variantTma<T128x5p>(b, "tma bf16>f32 128x128 s5 persistent", false, 45);
    variantTma<T64x8p>(b, "tma bf16>f32 128x64 s8 persistent", false, 91);
    variantTma<T192x4p>(b, "tma bf16>f32 128x192 s4 persistent", false, 93);
    variantTma<T64x128x8p>(b, "tma bf16>f32 64x128 s8 persistent", false, 111);
    Buffers<__half, __half> hb({1, 520, 264, 136});
    variant<S256x4>(hb, "wgmma f16>f16 128x256 s4", false, 7);
    variant<S128x5>(hb, "wgmma f16>f16 128x128 s5", false, 9);
    variantTma<T256x4p>(hb, "tma f16>f16 128x256 s4 persistent", false, 47);
    variantTma<T128x5p>(hb, "tma f16>f16 128x128 s5 persistent", false, 49);
    variantTma<T64x8p>(hb, "tma f16>f16 128x64 s8 persistent", false, 95);
    variantTma<T192x4p>(hb, "tma f16>f16 128x192 s4 persistent", false, 97);
    variantTma<T64x128x8p>(hb, "tma f16>f16 64x128 s8 persistent", false, 113);
    // Many tiles per block: the ring's phases carry across tiles.
    Buffers<bf16, float> many({3, 1024, 2048, 192});
    variantTma<T256x4p>(many, "tma bf16>f32 128x256 s4 persistent", false, 51);
    variantTma<T128x5p>(many, "tma bf16>f32 128x128 s5 persistent", false, 53);
    variantTma<T64x8p>(many, "tma bf16>f32 128x64 s8 persistent", false, 99);
    variantTma<T192x4p>(many, "tma bf16>f32 128x192 s4 persistent", false, 101);
    variantTma<T64x128x8p>(many, "tma bf16>f32 64x128 s8 persistent", false,
                           115);
  }
  if (argc > 1 && std::string(argv[1]) == "tma") {
    Buffers<bf16, float> b({1, 4096, 4096, 4096});
    variant<S256x4>(b, "wgmma bf16>f32 128x256 s4", true, 11);
    variantTma<T256x4>(b, "tma bf16>f32 128x256 s4", true, 61);
    variantTma<T256x4p>(b, "tma bf16>f32 128x256 s4 persistent", true, 63);
    variantTma<T256x3p>(b, "tma bf16>f32 128x256 s3 persistent", true, 65);
    variantTma<T256x4g16p>(b, "tma bf16>f32 128x256 s4 g16 pers.", true, 67);
    variantTma<T128x5p>(b, "tma bf16>f32 128x128 s5 persistent", true, 69);
    variantTma<T128x6p>(b, "tma bf16>f32 128x128 s6 persistent", true, 71);
    cublasRow(h, b, 1.f, "cublas bf16>f32 C+=AB", 21);
    Buffers<bf16, bf16> c({1, 4096, 4096, 4096});
    variantTma<T256x4p>(c, "tma bf16>bf16 128x256 s4 persistent", true, 73);
    cublasRow(h, c, 1.f, "cublas bf16>bf16 C+=AB", 27);
    // The suite's matmul_rect_bf16 (reduced) and a LLaMA projection.
    Buffers<bf16, bf16> r({1, 512, 1024, 2048});
    variant<S128x5>(r, "wgmma bf16>bf16 128x128 s5", true, 75);
    variantTma<T128x5p>(r, "tma bf16>bf16 128x128 s5 persistent", true, 77);
    variantTma<T256x4p>(r, "tma bf16>bf16 128x256 s4 persistent", true, 79);
    cublasRow(h, r, 1.f, "cublas bf16>bf16 C+=AB", 81);
    Buffers<bf16, bf16> l({1, 512, 5632, 2048});
    variant<S256x4>(l, "wgmma bf16>bf16 128x256 s4", true, 83);
    variantTma<T128x5p>(l, "tma bf16>bf16 128x128 s5 persistent", true, 85);
    variantTma<T256x4p>(l, "tma bf16>bf16 128x256 s4 persistent", true, 87);
    variantTma<T192x4p>(l, "tma bf16>bf16 128x192 s4 persistent", true, 103);
    cublasRow(h, l, 1.f, "cublas bf16>bf16 C+=AB", 89);
    // The LLaMA block's q/k/v/o projections and its down projection: 64
    // tiles of 128 x 128 for 132 SMs, 128 of 128 x 64.
    for (int k : {2048, 5632}) {
      Buffers<bf16, bf16> q({1, 512, 2048, k});
      variantTma<T128x5p>(q, "tma bf16>bf16 128x128 s5 persistent", true, 105);
      variantTma<T64x8p>(q, "tma bf16>bf16 128x64 s8 persistent", true, 107);
      variantTma<T64x128x8p>(q, "tma bf16>bf16 64x128 s8 persistent", true,
                             117);
      cublasRow(h, q, 1.f, "cublas bf16>bf16 C+=AB", 109);
    }
    quick = true;
  }
  if (!quick) {
    Buffers<bf16, float> b({1, 4096, 4096, 4096});
    variant<S256x4>(b, "wgmma bf16>f32 128x256 s4", true, 11);
    variant<S256x3>(b, "wgmma bf16>f32 128x256 s3", true, 13);
    variant<S256x4g16>(b, "wgmma bf16>f32 128x256 s4 g16", true, 15);
    variant<S128x5>(b, "wgmma bf16>f32 128x128 s5", true, 17);
    variant<S256x4nofence>(b, "wgmma bf16>f32 128x256 s4 nofence", true, 19);
    variant<S256x4wait0>(b, "wgmma bf16>f32 128x256 s4 wait0", true, 31);
    probe<S256x4nomath>(b, "probe: no wgmma (copies only)");
    probe<S256x4nocopy>(b, "probe: no copies (wgmma only)");
    probe<S256x4nocopyfence>(b, "probe: no copies, no fence");
    cublasRow(h, b, 1.f, "cublas bf16>f32 C+=AB", 21);
    Buffers<bf16, bf16> c({1, 4096, 4096, 4096});
    variant<S256x4>(c, "wgmma bf16>bf16 128x256 s4", true, 23);
    variant<S128x5>(c, "wgmma bf16>bf16 128x128 s5", true, 25);
    cublasRow(h, c, 1.f, "cublas bf16>bf16 C+=AB", 27);
    cublasRow(h, c, 0.f, "cublas bf16>bf16 C=AB", 29);
  }
  printf("\n| shape (b x m x n x k) | kernel | us | TFLOP/s | rel. error |\n");
  printf("|---|---|---|---|---|\n");
  for (auto &r : rows)
    printf("| %s | %s | %.1f | %.1f | %.1e%s |\n", r.shape.c_str(),
           r.what.c_str(), r.us, r.tflops, r.err, r.ok ? "" : " FAIL");
  printf("%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
