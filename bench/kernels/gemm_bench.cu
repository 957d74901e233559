// gemm_bench.cu - checks and times the fp32 GEMM kernels of
// lib/Strategies/Kernels against cuBLAS.
//
// Built once per part (run.sh): -DPART_MAIN gives main(); -DPART_SIMT /
// -DPART_TF32 with -DPTA, -DPTB instantiate one kernel family for one operand
// orientation, so the parts compile in parallel. Every check draws fresh random
// inputs on the device, poisons C with NaN and compares with an f64 reference
// by max |out - ref| / (atol + rtol |ref|) (atol = rtol = 1e-4); timings are
// CUDA-event medians of 20 runs, each after writing a 256 MB buffer to flush
// L2.
#include "../../lib/Strategies/Kernels/Gemm3xTf32.cuh"
#include "../../lib/Strategies/Kernels/GemmF32.cuh"
#ifdef PART_WGTF32
#include "../../lib/Strategies/Kernels/GemmWgmmaTf32.cuh"
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

using Params = GemmParams<GemmStrides>;
using LaunchFn = void (*)(const Params &, cudaStream_t);

struct Runner {
  std::string family, name;
  bool ta, tb, vec;
  int bm, bn, bk;
  LaunchFn launch;
};

#if defined(PART_SIMT) || defined(PART_TF32) || defined(PART_WGTF32)
template <class K> static void setSmem(K kernel, int bytes) {
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          bytes));
}
// The same strides without the affine promise: exercises the kernels' generic
// path (every address through the layout), as a generated non-affine layout
// would.
struct GenericStrides : GemmStrides {
  static constexpr bool kAffine = false;
};
template <class L> static GemmParams<L> withLayout(const Params &p) {
  GemmParams<L> q;
  q.A = p.A, q.B = p.B, q.C = p.C, q.ws = p.ws;
  q.batch = p.batch, q.M = p.M, q.N = p.N, q.K = p.K;
  q.splits = p.splits, q.kPerSplit = p.kPerSplit, q.ldws = p.ldws;
  q.groupM = p.groupM, q.alpha = p.alpha, q.beta = p.beta;
  static_cast<GemmStrides &>(q.lay) = p.lay;
  return q;
}
static dim3 gridOf(const Params &p, int bm, int bn) {
  return dim3(((p.M + bm - 1) / bm) * ((p.N + bn - 1) / bn),
              p.batch * p.splits);
}
#endif

#ifdef PART_SIMT
template <class Cfg, bool TA, bool TB, bool Vec, class L = GemmStrides>
static void launchSimt(const Params &p, cudaStream_t s) {
  auto k = gemmF32Simt<Cfg, TA, TB, Vec, L>;
  static bool init = (setSmem(k, Cfg::kSmemBytes), true);
  (void)init;
  k<<<gridOf(p, Cfg::kBM, Cfg::kBN), Cfg::kThreads, Cfg::kSmemBytes, s>>>(
      withLayout<L>(p));
}
#define SIMT(BM, BN, BK, WM, WN, TM, TN, ST, MINB, VEC)                        \
  v.push_back({"simt",                                                         \
               std::string(#BM "x" #BN "x" #BK " w" #WM "x" #WN " t" #TM       \
                               "x" #TN " s" #ST " b" #MINB) +                  \
                   (VEC ? "" : " novec"),                                      \
               PTA, PTB, VEC, BM, BN, BK,                                      \
               launchSimt<SimtConfig<BM, BN, BK, WM, WN, TM, TN, ST, MINB>,    \
                          PTA, PTB, VEC>});
#define CAT2(a, b, c) a##b##c
#define CAT(a, b, c) CAT2(a, b, c)
void CAT(registerSimt, PTA, PTB)(std::vector<Runner> &v) {
  SIMT(128, 128, 16, 32, 64, 8, 8, 3, 1, true)
  SIMT(128, 256, 8, 32, 128, 8, 16, 3, 1, true)
  SIMT(128, 256, 8, 32, 128, 8, 16, 4, 1, true)
  SIMT(128, 256, 16, 32, 128, 8, 16, 3, 1, true)
  SIMT(256, 128, 8, 64, 64, 16, 8, 4, 1, true)
  SIMT(64, 64, 16, 32, 32, 8, 4, 4, 4, true)
#if PTA == 0 && PTB == 0
  SIMT(64, 64, 16, 32, 32, 8, 4, 4, 4, false)
  v.push_back({"simt", "128x256x8 w32x128 t8x16 s3 b1 generic", PTA, PTB, true,
               128, 256, 8,
               launchSimt<SimtConfig<128, 256, 8, 32, 128, 8, 16, 3, 1>, PTA,
                          PTB, true, GenericStrides>});
#endif
}
#endif

#ifdef PART_TF32
template <class Cfg, bool TA, bool TB, bool Vec, class L = GemmStrides>
static void launchTf32(const Params &p, cudaStream_t s) {
  auto k = gemm3xTf32<Cfg, TA, TB, Vec, L>;
  constexpr int smem = Cfg::template smemBytes<TA, TB>();
  static bool init = (setSmem(k, smem), true);
  (void)init;
  k<<<gridOf(p, Cfg::kBM, Cfg::kBN), Cfg::kThreads, smem, s>>>(
      withLayout<L>(p));
}
#define TF32(BM, BN, BK, WM, WN, ST, MINB, CH, RNA, LDSM, VEC)                 \
  v.push_back(                                                                 \
      {"3xtf32",                                                               \
       std::string(#BM "x" #BN "x" #BK " w" #WM "x" #WN " s" #ST " b" #MINB) + \
           (CH ? "" : " rz") + (RNA ? " rna" : "") + (LDSM ? "" : " lds") +    \
           (VEC ? "" : " novec"),                                              \
       PTA, PTB, VEC, BM, BN, BK,                                              \
       launchTf32<Tf32Config<BM, BN, BK, WM, WN, ST, MINB, CH, RNA, LDSM>,     \
                  PTA, PTB, VEC>});
#define CAT2(a, b, c) a##b##c
#define CAT(a, b, c) CAT2(a, b, c)
void CAT(registerTf32, PTA, PTB)(std::vector<Runner> &v) {
  TF32(128, 128, 32, 64, 32, 3, 1, true, false, true, true)
  TF32(128, 128, 32, 64, 32, 4, 1, true, false, true, true)
  TF32(128, 128, 32, 64, 32, 3, 1, true, false, false, true)
  TF32(128, 128, 32, 64, 32, 3, 1, true, true, true, true)
  TF32(128, 128, 32, 32, 64, 3, 1, true, false, true, true)
  TF32(128, 256, 32, 64, 64, 3, 1, false, false, true, true)
  TF32(64, 64, 32, 32, 32, 4, 1, true, false, true, true)
  TF32(128, 64, 32, 64, 32, 3, 1, true, false, true, true)
#if PTA == 0 && PTB == 0
  TF32(64, 64, 32, 32, 32, 4, 1, true, false, true, false)
  v.push_back({"3xtf32", "128x128x32 w64x32 s3 b1 generic", PTA, PTB, true, 128,
               128, 32,
               launchTf32<Tf32Config<128, 128, 32, 64, 32, 3>, PTA, PTB, true,
                          GenericStrides>});
#endif
}
#endif

#ifdef PART_WGTF32
// The wgmma 3xTF32 kernel writes C (beta 0) or adds to it (beta 1) through
// its store stage; it takes A k-contiguous and B as N x K (PTA 0, PTB 1).
struct BetaStore {
  static constexpr bool kStore = true;
  float *C;
  long long ldc, batchC;
  float beta;
  __device__ void store(int b, int row, int col, float x) const {
    float *c = C + b * batchC + row * ldc + col;
    *c = beta == 0.f ? x : beta * *c + x;
  }
};
template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    wgTf32Kernel(const WgmmaArgs<float, float> p, const BetaStore st) {
  gemmWgmmaTf32Block<Cfg>(p, st);
}
template <class Cfg> static void launchWgTf32(const Params &p, cudaStream_t s) {
  auto k = wgTf32Kernel<Cfg>;
  static bool init = (setSmem(k, Cfg::kSmemBytes), true);
  (void)init;
  WgmmaArgs<float, float> a;
  a.A = p.A, a.B = p.B, a.C = p.C;
  a.M = p.M, a.N = p.N, a.K = p.K;
  // B as N x K (rows along n) or K x N (rows along k).
  a.lda = p.lay.a_m, a.ldb = Cfg::kBRowsAlongK ? p.lay.b_k : p.lay.b_n,
  a.ldc = p.lay.c_m;
  a.batchA = p.lay.a_b, a.batchB = p.lay.b_b, a.batchC = p.lay.c_b;
  BetaStore st{p.C, p.lay.c_m, p.lay.c_b, p.beta};
  k<<<gridOf(p, Cfg::kBM, Cfg::kBN), Cfg::kThreads, Cfg::kSmemBytes, s>>>(a,
                                                                          st);
}
#define WGTF32(ST, G, ROWS, P)                                                 \
  v.push_back({"wgtf32", "128x128x32 s" #ST " g" #G " p" #P, false, !ROWS,     \
               true, 128, 128, 32,                                             \
               launchWgTf32<WgmmaTf32Config<ST, G, ROWS, P>>});
void registerWgTf32(std::vector<Runner> &v) {
  WGTF32(3, 8, false, 1)
  WGTF32(4, 8, false, 1)
  WGTF32(3, 16, false, 1)
  WGTF32(3, 8, false, 2)
  WGTF32(4, 8, false, 2)
  WGTF32(3, 8, true, 1)
  WGTF32(3, 16, true, 1)
  WGTF32(3, 8, true, 2)
}
#endif

#ifdef PART_MAIN
#include <cublas_v2.h>

void registerSimt00(std::vector<Runner> &);
void registerSimt01(std::vector<Runner> &);
void registerSimt10(std::vector<Runner> &);
void registerSimt11(std::vector<Runner> &);
void registerTf3200(std::vector<Runner> &);
void registerTf3201(std::vector<Runner> &);
void registerTf3210(std::vector<Runner> &);
void registerTf3211(std::vector<Runner> &);
void registerWgTf32(std::vector<Runner> &);

#define CB(x)                                                                  \
  do {                                                                         \
    cublasStatus_t s_ = (x);                                                   \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                         \
      fprintf(stderr, "%s:%d cublas %d\n", __FILE__, __LINE__, (int)s_);       \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

struct Shape {
  const char *name;
  int batch, M, N, K;
  bool ta, tb, bcastB;
  bool odd; // pad the leading dimensions to break the 16-byte path (tests the
            // generic path)
};

__device__ __forceinline__ unsigned long long mix64(unsigned long long x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
// dist 0: uniform [0, 1) (torch.rand); dist 1: standard normal.
__global__ void fillRandom(float *x, long long n, unsigned long long seed,
                           int dist) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    unsigned long long r = mix64(seed * 0x100000001B3ull + i);
    float u1 = ((r >> 40) + 0.5f) * (1.0f / 16777216.0f);
    if (dist == 0) {
      x[i] = (r >> 40) * (1.0f / 16777216.0f);
    } else {
      float u2 = (((r >> 16) & 0xFFFFFF) + 0.5f) * (1.0f / 16777216.0f);
      x[i] = sqrtf(-2.f * logf(u1)) * cospif(2.f * u2);
    }
  }
}

// f64 reference: 32x32 output tile per 256 threads, 2x2 outputs per thread.
__global__ void refGemm(const float *A, const float *B, double *R, int batch,
                        int M, int N, int K, GemmStrides s) {
  __shared__ float As[16][33], Bs[16][33];
  int b = blockIdx.z, tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  int m0 = blockIdx.y * 32, n0 = blockIdx.x * 32;
  double acc[2][2] = {{0, 0}, {0, 0}};
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int e = threadIdx.x; e < 512; e += 256) {
      int kk = e % 16, mm = e / 16;
      int gm = m0 + mm, gk = k0 + kk;
      As[kk][mm] = (gm < M && gk < K) ? A[s.a_off(b, gm, gk)] : 0.f;
      int nn = e % 32, kb = e / 32, gn = n0 + nn, gk2 = k0 + kb;
      Bs[kb][nn] = (gn < N && gk2 < K) ? B[s.b_off(b, gk2, gn)] : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 16; ++kk)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          acc[i][j] +=
              (double)As[kk][ty + 16 * i] * (double)Bs[kk][tx + 16 * j];
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      int m = m0 + ty + 16 * i, n = n0 + tx + 16 * j;
      if (m < M && n < N)
        R[((long long)b * M + m) * N + n] = acc[i][j];
    }
}

// out[0]: max |c - r| / (max(atol, floor) + rtol |r|) with r = scale * ref
// (stark's rule: floor is twice the baseline's own max error against f64);
// out[1]: max |c - r|; out[2]: the ratio with no floor. NaN counts as 1e30.
__global__ void errRatio(const float *C, const double *R, long long n, int N,
                         int ldc, double scale, double floor, unsigned *out) {
  float worst = 0.f, worstAbs = 0.f, worstRaw = 0.f;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    long long row = i / N;
    int col = i % N;
    double c = C[row * ldc + col], r = scale * R[i];
    double d = fabs(c - r);
    double e = d / (fmax(1e-4, floor) + 1e-4 * fabs(r));
    double raw = d / (1e-4 + 1e-4 * fabs(r));
    bool nan = !(d == d);
    worst = fmaxf(worst, nan ? 1e30f : (float)e);
    worstAbs = fmaxf(worstAbs, nan ? 1e30f : (float)d);
    worstRaw = fmaxf(worstRaw, nan ? 1e30f : (float)raw);
  }
  atomicMax(out, __float_as_uint(worst));
  atomicMax(out + 1, __float_as_uint(worstAbs));
  atomicMax(out + 2, __float_as_uint(worstRaw));
}

struct Err {
  double ratio = 0, abs = 0, raw = 0;
  void merge(const Err &o) {
    ratio = std::max(ratio, o.ratio), abs = std::max(abs, o.abs),
    raw = std::max(raw, o.raw);
  }
};

static unsigned long long gSeed = 12345;

struct Bufs {
  float *A = nullptr, *B = nullptr, *C = nullptr, *ws = nullptr;
  double *R = nullptr;
  size_t nA = 0, nB = 0, nC = 0, nWs = 0;
};

static double medianOf(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  // argv[1]: run only shapes whose name contains it; argv[2]: only configs
  // containing it.
  const char *only = argc > 1 ? argv[1] : nullptr;
  const char *onlyCfg = argc > 2 ? argv[2] : nullptr;
  std::vector<Runner> runners;
  registerSimt00(runners), registerSimt01(runners), registerSimt10(runners),
      registerSimt11(runners);
  registerTf3200(runners), registerTf3201(runners), registerTf3210(runners),
      registerTf3211(runners);
  registerWgTf32(runners);

  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s, %d SMs, L2 %d MB\n", prop.name, sms,
         prop.l2CacheSize >> 20);

  std::vector<Shape> shapes = {
      {"square_4096 (KB 1)", 1, 4096, 4096, 4096, false, false, false, false},
      {"matmul_square 1024", 1, 1024, 1024, 1024, false, false, false, false},
      {"matmul_rect", 1, 512, 1024, 2048, false, false, false, false},
      {"matmul_batched", 32, 128, 512, 256, false, false, false, false},
      {"matmul_3d_tensor", 4, 256, 192, 512, false, false, true, false},
      {"matmul_irregular", 1, 1025, 740, 368, false, false, false, false},
      {"matmul_large_k", 1, 64, 64, 131072, false, false, false, false},
      {"matmul_small_k", 1, 2048, 2048, 4, false, false, false, false},
      {"matmul_tall_skinny", 1, 2048, 2048, 2, false, false, false, false},
      {"matmul_transposed_a", 1, 512, 1024, 2048, true, false, false, false},
      {"matmul_transposed_b", 1, 512, 1024, 2048, false, true, false, false},
      {"matmul_transposed_both", 1, 512, 1024, 2048, true, true, false, false},
      {"rect_full (KB 2)", 1, 2048, 4096, 8192, false, false, false, false},
      {"large_k_full (KB 6)", 1, 256, 256, 524288, false, false, false, false},
      {"odd_ld 257x131x99", 1, 257, 131, 99, false, false, false, true},
      // Linear layers (B is the N x K weight): LLaMA-style block, 512
      // tokens; BERT-base FFN, 128 tokens; a square one; ragged edges.
      {"llama gate/up 512x5632x2048", 1, 512, 5632, 2048, false, true, false,
       false},
      {"llama down 512x2048x5632", 1, 512, 2048, 5632, false, true, false,
       false},
      {"llama proj 512x2048x2048", 1, 512, 2048, 2048, false, true, false,
       false},
      {"bert ffn1 128x3072x768", 1, 128, 3072, 768, false, true, false, false},
      {"bert ffn2 128x768x3072", 1, 128, 768, 3072, false, true, false, false},
      {"linear_4096 4096x4096x4096", 1, 4096, 4096, 4096, false, true, false,
       false},
      {"linear_ragged 2x1000x1032x520", 2, 1000, 1032, 520, false, true, false,
       false},
      // The same with B row-major (K x N), as the LLaMA export has them.
      {"kn llama gate/up 512x5632x2048", 1, 512, 5632, 2048, false, false,
       false, false},
      {"kn llama down 512x2048x5632", 1, 512, 2048, 5632, false, false, false,
       false},
      {"kn llama proj 512x2048x2048", 1, 512, 2048, 2048, false, false, false,
       false},
      {"kn 4096x4096x4096", 1, 4096, 4096, 4096, false, false, false, false},
      {"kn ragged 2x1000x1036x520", 2, 1000, 1036, 520, false, false, false,
       false},
  };

  cublasHandle_t h;
  CB(cublasCreate(&h));
  CB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  CB(cublasSetStream(h, st));
  const size_t flushBytes = 256u << 20;
  void *flush;
  CK(cudaMalloc(&flush, flushBytes));
  unsigned *dErr;
  CK(cudaMalloc(&dErr, 3 * sizeof(unsigned)));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const int reps = 20;

  struct Row {
    std::string shape, family, config;
    double us, tflops, pct, err;
  };
  std::vector<Row> best;

  for (const Shape &sh : shapes) {
    if (only && !strstr(sh.name, only))
      continue;
    int batch = sh.batch, M = sh.M, N = sh.N, K = sh.K;
    // Leading dimensions (odd adds 1 so the 16-byte path is invalid).
    int pad = sh.odd ? 1 : 0;
    long long lda = (sh.ta ? M : K) + pad, ldb = (sh.tb ? K : N) + pad,
              ldc = N + pad;
    GemmStrides s;
    s.a_m = sh.ta ? 1 : lda;
    s.a_k = sh.ta ? lda : 1;
    s.a_b = (long long)(sh.ta ? K : M) * lda;
    s.b_k = sh.tb ? 1 : ldb;
    s.b_n = sh.tb ? ldb : 1;
    s.b_b = sh.bcastB ? 0 : (long long)(sh.tb ? N : K) * ldb;
    s.c_m = ldc;
    s.c_n = 1;
    s.c_b = (long long)M * ldc;
    Bufs bf;
    bf.nA = (size_t)batch * (sh.ta ? K : M) * lda;
    bf.nB = (size_t)(sh.bcastB ? 1 : batch) * (sh.tb ? N : K) * ldb;
    bf.nC = (size_t)batch * M * ldc;
    CK(cudaMalloc(&bf.A, bf.nA * 4));
    CK(cudaMalloc(&bf.B, bf.nB * 4));
    CK(cudaMalloc(&bf.C, bf.nC * 4));
    CK(cudaMalloc(&bf.R, (size_t)batch * M * N * 8));
    double flops = 2.0 * batch * M * N * (double)K;

    auto fill = [&](int dist) {
      fillRandom<<<1024, 256, 0, st>>>(bf.A, bf.nA, ++gSeed, dist);
      fillRandom<<<1024, 256, 0, st>>>(bf.B, bf.nB, ++gSeed, dist);
      CK(cudaGetLastError());
    };
    auto reference = [&]() {
      refGemm<<<dim3((N + 31) / 32, (M + 31) / 32, batch), 256, 0, st>>>(
          bf.A, bf.B, bf.R, batch, M, N, K, s);
      CK(cudaGetLastError());
    };
    auto check = [&](double scale, double floor) -> Err {
      CK(cudaMemsetAsync(dErr, 0, 12, st));
      for (int b = 0; b < batch; ++b)
        errRatio<<<512, 256, 0, st>>>(
            bf.C + (size_t)b * M * ldc, bf.R + (size_t)b * M * N,
            (long long)M * N, N, ldc, scale, floor, dErr);
      CK(cudaGetLastError());
      unsigned u[3];
      CK(cudaMemcpyAsync(u, dErr, 12, cudaMemcpyDeviceToHost, st));
      CK(cudaStreamSynchronize(st));
      float f[3];
      memcpy(f, u, 12);
      Err e;
      e.ratio = f[0], e.abs = f[1], e.raw = f[2];
      return e;
    };
    auto poison = [&]() { CK(cudaMemsetAsync(bf.C, 0xFF, bf.nC * 4, st)); };
    auto timeIt = [&](auto &&fn) -> double {
      fn(); // warm-up
      CK(cudaStreamSynchronize(st));
      std::vector<float> t;
      for (int r = 0; r < reps; ++r) {
        CK(cudaMemsetAsync(flush, r & 0xFF, flushBytes, st));
        CK(cudaEventRecord(e0, st));
        fn();
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms * 1000.f);
      }
      CK(cudaGetLastError());
      return medianOf(t);
    };

    // cuBLAS fp32 (column-major view: C^T = B^T A^T).
    float one = 1.f, zero = 0.f;
    auto cublas = [&]() {
      CB(cublasSgemmStridedBatched(h, sh.tb ? CUBLAS_OP_T : CUBLAS_OP_N,
                                   sh.ta ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K,
                                   &one, bf.B, ldb, s.b_b, bf.A, lda, s.a_b,
                                   &zero, bf.C, ldc, s.c_b, batch));
    };
    // Fresh inputs of distribution dist, their f64 reference and cuBLAS's own
    // error on them: returns the absolute floor of stark's rule (twice cuBLAS's
    // max error).
    Err cublasErr[2];
    auto prepare = [&](int dist) -> double {
      fill(dist);
      reference();
      poison();
      cublas();
      Err e = check(1.0, 0.0);
      cublasErr[dist].merge(e);
      return 2 * e.abs;
    };
    for (int dist = 0; dist < 2; ++dist)
      prepare(dist);
    fill(0);
    double cublasUs = timeIt(cublas);
    printf("\n== %s: batch %d M %d N %d K %d%s%s%s | cuBLAS fp32 %.1f us %.1f "
           "TFLOP/s | cuBLAS vs "
           "f64: uniform max abs %.3g (ratio %.3g), normal max abs %.3g (ratio "
           "%.3g)\n",
           sh.name, batch, M, N, K, sh.ta ? " ta" : "", sh.tb ? " tb" : "",
           sh.bcastB ? " bcastB" : "", cublasUs, flops / cublasUs * 1e-6,
           cublasErr[0].abs, cublasErr[0].raw, cublasErr[1].abs,
           cublasErr[1].raw);
    best.push_back({sh.name, "cublas", "sgemm default math", cublasUs,
                    flops / cublasUs * 1e-6, 100.0,
                    std::max(cublasErr[0].raw, cublasErr[1].raw)});

    for (const char *fam : {"simt", "3xtf32", "wgtf32"}) {
      bool simt = !strcmp(fam, "simt");
      bool wg = !strcmp(fam, "wgtf32");
      bool vecOk =
          gemmStridesVectorisable(s, sh.ta, sh.tb, bf.A, bf.B, bf.C,
                                  simt ? sh.ta : true, simt ? !sh.tb : true);
      Row bestRow{sh.name, fam, "-", 1e30, 0, 0, 0};
      for (const Runner &r : runners) {
        if (r.family != fam || r.ta != sh.ta || r.tb != sh.tb ||
            (!wg && r.vec != vecOk))
          continue;
        if (onlyCfg &&
            (r.family + " " + r.name).find(onlyCfg) == std::string::npos)
          continue;
        int tiles = ((M + r.bm - 1) / r.bm) * ((N + r.bn - 1) / r.bn) * batch;
        std::vector<int> splitsList = {1};
        int want = (2 * sms + tiles - 1) / tiles;
        int maxSplits = std::max(1, K / (8 * r.bk));
        want = std::min(want, maxSplits);
        if (wg) {
          // 16-byte rows only (and n a multiple of 4 for K x N B), no
          // split-k.
          if (lda % 4 || ldb % 4 || ldc % 2 || K % 4 || (!sh.tb && N % 4))
            continue;
          want = 1;
        }
        if (want / 2 > 1)
          splitsList.push_back(want / 2);
        if (want > 1)
          splitsList.push_back(want);
        for (int splits : splitsList) {
          Params p;
          p.A = bf.A, p.B = bf.B, p.C = bf.C;
          p.batch = batch, p.M = M, p.N = N, p.K = K;
          int kper = (K + splits - 1) / splits;
          kper = (kper + r.bk - 1) / r.bk * r.bk;
          p.kPerSplit = kper;
          p.splits = (K + kper - 1) / kper;
          p.ldws = (N + 3) / 4 * 4;
          p.groupM = 8;
          p.alpha = 1.f, p.beta = 0.f;
          p.lay = s;
          p.ws = nullptr;
          if (p.splits > 1) {
            size_t need = (size_t)p.splits * batch * M * p.ldws;
            if (need > bf.nWs) {
              if (bf.ws)
                CK(cudaFree(bf.ws));
              CK(cudaMalloc(&bf.ws, need * 4));
              bf.nWs = need;
            }
            p.ws = bf.ws;
          }
          auto run = [&]() {
            r.launch(p, st);
            if (p.splits > 1) {
              long long total = (long long)batch * M * N;
              int blocks =
                  (int)std::min<long long>((total + 255) / 256, 8 * sms);
              gemmSplitKReduce<GemmStrides><<<blocks, 256, 0, st>>>(p);
            }
          };
          Err err;
          double floor = 0;
          for (int dist = 0; dist < 2; ++dist) {
            floor = prepare(dist);
            poison();
            run();
            CK(cudaGetLastError());
            err.merge(check(1.0, floor));
          }
          // Accumulating mode (beta = 1) on the last inputs: C = ref + ref.
          p.beta = 1.f;
          run();
          CK(cudaGetLastError());
          err.merge(check(2.0, 2 * floor));
          p.beta = 0.f;
          fill(0);
          double us = timeIt(run);
          char cfg[160];
          snprintf(cfg, sizeof cfg, "%s splitk %d", r.name.c_str(), p.splits);
          double tf = flops / us * 1e-6;
          bool ok = err.ratio <= 1.0;
          printf("  %-7s %-44s %10.1f us %7.2f TFLOP/s %6.1f%% cuBLAS  err "
                 "%.3g (raw %.3g)%s\n",
                 fam, cfg, us, tf, 100.0 * cublasUs / us, err.ratio, err.raw,
                 ok ? "" : "  FAIL");
          fflush(stdout);
          if (ok && us < bestRow.us)
            bestRow = {sh.name,  fam, cfg, us, tf, 100.0 * cublasUs / us,
                       err.ratio};
        }
      }
      best.push_back(bestRow);
    }
    CK(cudaFree(bf.A));
    CK(cudaFree(bf.B));
    CK(cudaFree(bf.C));
    CK(cudaFree(bf.R));
    if (bf.ws)
      CK(cudaFree(bf.ws));
  }

  printf("\n| shape | kernel | best config | time us | TFLOP/s | %% of cuBLAS "
         "fp32 | max err "
         "ratio |\n|---|---|---|---|---|---|---|\n");
  for (const Row &r : best)
    printf("| %s | %s | %s | %.1f | %.2f | %.1f%% | %.3g |\n", r.shape.c_str(),
           r.family.c_str(), r.config.c_str(), r.us, r.tflops, r.pct, r.err);
  // Geomean of % of cuBLAS over the suite's matmul shapes.
  for (const char *fam : {"simt", "3xtf32", "wgtf32"}) {
    double lg = 0;
    int n = 0;
    for (const Row &r : best)
      if (r.family == fam && r.shape.rfind("matmul_", 0) == 0 && r.pct > 0)
        lg += std::log(r.pct / 100.0), ++n;
    if (n)
      printf("geomean %s over %d suite matmul shapes: %.1f%% of cuBLAS fp32\n",
             fam, n, 100.0 * std::exp(lg / n));
  }
  // The search would pick the faster verified kernel of the two per shape.
  {
    double lg = 0;
    int n = 0;
    for (const Row &r : best)
      if (r.family == "cublas" && r.shape.rfind("matmul_", 0) == 0) {
        double pct = 0;
        for (const Row &q : best)
          if (q.shape == r.shape && q.family != "cublas")
            pct = std::max(pct, q.pct);
        if (pct > 0)
          lg += std::log(pct / 100.0), ++n;
      }
    if (n)
      printf("geomean best of both over %d suite matmul shapes: %.1f%% of "
             "cuBLAS fp32\n",
             n, 100.0 * std::exp(lg / n));
  }
  return 0;
}
#endif
