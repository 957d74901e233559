// attention_bench.cu - checks and times the fused attention kernels of
// lib/Strategies/Kernels/Attention*.cuh (attentionMma16: f16/bf16 on
// mma.sync; attentionF32: f32 SIMT).
//
// (a) Every variant runs on small odd shapes (3 batches x 2 heads, 77 queries,
// 131 keys, head dims 64 / 128 and odd ones for f32) without a mask, causal
// and with an additive mask (some -inf entries, one fully masked row, shared
// by the heads), in several layouts (BHSD, BSHD, K stored transposed), with
// special values planted: NaN in one Q element (its row must be all NaN),
// +inf in one K element (rows whose product is +inf or NaN are NaN, the
// others finite), and fully masked rows (NaN). The output is compared with a
// CPU f64 evaluation of the exact formula on the same inputs: NaN and inf
// must be where the reference has them, and the largest finite error over
// the largest |O| must be under the input type's tolerance (bf16 2e-2, f16
// 5e-3, f32 1e-5: P is rounded to In for the P V product, as
// FlashAttention does).
// (b) B=8 H=16 S=2048 D=128 (bf16, f16, f32; causal and not; plus D=64) is
// timed with CUDA events (3 warm-up runs, median of 20) and reported in
// TFLOP/s counting 4 B H S S D flops (half for causal); 64 sampled rows of
// each timed output are checked against the f64 reference too.
//
// Build and run: bench/kernels/run_attention.sh [build-dir] [quick]
// ("quick": checks only).
#include "../../lib/Strategies/Kernels/Prelude.cuh"

#include "../../lib/Strategies/Kernels/AttentionF32.cuh"
#include "../../lib/Strategies/Kernels/AttentionMma16.cuh"

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

typedef __nv_bfloat16 bf16;

// ---- host element conversions ----
static double toD(float x) { return x; }
static double toD(bf16 x) { return __bfloat162float(x); }
static double toD(__half x) { return __half2float(x); }
template <class T> static T fromF(float x) { return (T)x; }
template <> bf16 fromF<bf16>(float x) { return __float2bfloat16(x); }
template <> __half fromF<__half>(float x) { return __float2half(x); }

static unsigned long long mix64(unsigned long long x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
// Uniform in [-1, 1).
static float uniform(unsigned long long seed, long long i) {
  return (mix64(seed * 0x100000001B3ull + (unsigned long long)i) >> 40) *
             (2.0f / 16777216.0f) -
         1.0f;
}

static constexpr double invSqrt(double x) {
  double y = 1.0 / x; // Newton on y = 1 / sqrt(x) from below
  for (int i = 0; i < 200; ++i)
    y = y * (1.5 - 0.5 * x * y * y);
  return y;
}

// ---- configurations ----
// LAYOUT 0: Q, K, V, O [b, h, s, d]; mask [b, 1, sq, sk] (shared by heads).
// LAYOUT 1: Q, V, O [b, s, h, d], K [b, h, d, sk] (stored transposed), mask
//           [b, h, sq, sk] (f32 kernel only: K is not d-contiguous).
// LAYOUT 2: Q, K, V, O [b, s, h, d]; mask [b, 1, sq, sk].
template <class I, class TIn, class TOut, class TMask, I B, I H, I SQ, I SK,
          I D, I DV, int MASK, I OFF, int BM, int BN, int W, int LAYOUT = 0,
          int TM = 4, int TN = 4>
struct Cfg {
  typedef I Idx;
  typedef TIn In;
  typedef TOut Out;
  typedef TMask MaskT;
  static constexpr Idx kBatch = B * H, kHeads = H, kSq = SQ, kSk = SK, kD = D,
                       kDv = DV;
  // {batch, head, row, column} strides of each layout.
  static constexpr Idx qB = H * SQ * D, qH = LAYOUT == 0 ? SQ * D : D,
                       qR = LAYOUT == 0 ? D : H * D;
  static constexpr Idx kB = H * SK * D,
                       kH = LAYOUT == 0   ? SK * D
                            : LAYOUT == 1 ? D * SK
                                          : D,
                       kR = LAYOUT == 0   ? D
                            : LAYOUT == 1 ? 1
                                          : H * D,
                       kC = LAYOUT == 1 ? SK : 1;
  static constexpr Idx vB = H * SK * DV, vH = LAYOUT == 0 ? SK * DV : DV,
                       vR = LAYOUT == 0 ? DV : H * DV;
  static constexpr Idx oB = H * SQ * DV, oH = LAYOUT == 0 ? SQ * DV : DV,
                       oR = LAYOUT == 0 ? DV : H * DV;
  static constexpr Idx mB = LAYOUT == 1 ? H * SQ * SK : SQ * SK,
                       mH = LAYOUT == 1 ? SQ * SK : 0;
  static constexpr Idx kQStride[4] = {qB, qH, qR, 1};
  static constexpr Idx kKStride[4] = {kB, kH, kR, kC};
  static constexpr Idx kVStride[4] = {vB, vH, vR, 1};
  static constexpr Idx kOStride[4] = {oB, oH, oR, 1};
  static constexpr Idx kMaskStride[4] = {mB, mH, SK, 1};
  static constexpr float kScale = (float)invSqrt((double)D);
  // MASK 3: causal, the -inf added to the score rather than selected.
  static constexpr int kMask = MASK == 3 ? 1 : MASK;
  static constexpr Idx kCausalOffset = OFF;
  static constexpr bool kCausalAdds = MASK == 3;
  static constexpr float kCausalLimit = 1e18f;
  static constexpr int kBlockM = BM, kBlockN = BN, kWarps = W;
  static constexpr int kThreadM = TM, kThreadN = TN;
};

template <class C, int MINB>
__global__ void __launch_bounds__(attentionThreads<C>(), MINB)
    kMma16(const typename C::In *q, const typename C::In *k,
           const typename C::In *v, const typename C::MaskT *mask,
           typename C::Out *o, const unsigned *full) {
  attentionMma16<C>(q, k, v, mask, o, full);
}
template <class C, int MINB>
__global__ void __launch_bounds__(attentionThreads<C>(), MINB)
    kF32(const typename C::In *q, const typename C::In *k,
         const typename C::In *v, const typename C::MaskT *mask,
         typename C::Out *o, const unsigned *full) {
  attentionF32<C>(q, k, v, mask, o, full);
}
template <class C>
__global__ void __launch_bounds__(kAttnScanThreads)
    kScan(const typename C::In *k, const typename C::In *v, unsigned *full) {
  attentionCausalScan<C>(k, v, full);
}

// Elements an operand spans: 1 + sum (extent - 1) * stride.
template <class I>
static long long span(const I (&s)[4], long long b, long long h, long long r,
                      long long c) {
  return 1 + (b - 1) * s[0] + (h - 1) * s[1] + (r - 1) * s[2] + (c - 1) * s[3];
}
template <class I>
static long long at(const I (&s)[4], long long bi, long long heads, long long r,
                    long long c) {
  return (bi / heads) * s[0] + (bi % heads) * s[1] + r * s[2] + c * s[3];
}

template <class T> struct MaskOf { typedef T type; };
template <> struct MaskOf<void> { typedef float type; }; // placeholder

enum Special {
  kNone = 0,
  kQNaN = 1,    // Q[bi 0, row 3, d 7] = NaN
  kKInf = 2,    // K[bi 2, key 10, d 5] = +inf
  kMaskRow = 4, // mask row 5 of batch 1 all -inf (kMask == 2)
  kVInf = 8, // V[bi 1, key SK - 3, e 4] = +inf (hidden from most causal rows)
};

struct Row {
  std::string name;
  double us, tflops, err;
  bool ok;
};
static std::vector<Row> rows;
static int failures = 0;
static cudaEvent_t e0, e1;

template <class C> struct Problem {
  using In = typename C::In;
  using Out = typename C::Out;
  using M = typename MaskOf<typename C::MaskT>::type;
  static constexpr long long B = C::kBatch / C::kHeads, H = C::kHeads,
                             SQ = C::kSq, SK = C::kSk, D = C::kD, DV = C::kDv;
  long long nq, nk, nv, no, nm;
  std::vector<In> q, k, v;
  std::vector<M> m;
  std::vector<Out> out;
  In *dq, *dk, *dv;
  M *dm = nullptr;
  Out *dout;
  Problem(unsigned long long seed, int specials) {
    nq = span(C::kQStride, B, H, SQ, D);
    nk = span(C::kKStride, B, H, SK, D);
    nv = span(C::kVStride, B, H, SK, DV);
    no = span(C::kOStride, B, H, SQ, DV);
    q.resize(nq), k.resize(nk), v.resize(nv), out.resize(no);
    // Q, K in [-2, 2): scaled scores of a few units; V in [-1, 1).
    for (long long i = 0; i < nq; ++i)
      q[i] = fromF<In>(2 * uniform(seed, i));
    for (long long i = 0; i < nk; ++i)
      k[i] = fromF<In>(2 * uniform(seed + 1, i));
    for (long long i = 0; i < nv; ++i)
      v[i] = fromF<In>(uniform(seed + 2, i));
    if (specials & kQNaN)
      q[at(C::kQStride, 0, H, 3, 7)] = fromF<In>(NAN);
    if (specials & kKInf)
      k[at(C::kKStride, 2 % C::kBatch, H, 10, 5)] = fromF<In>(INFINITY);
    if (specials & kVInf)
      v[at(C::kVStride, 1 % C::kBatch, H, SK - 3, 4)] = fromF<In>(INFINITY);
    if constexpr (C::kMask == 2) {
      nm = span(C::kMaskStride, B, H, SQ, SK);
      m.resize(nm);
      for (long long i = 0; i < nm; ++i) {
        float u = uniform(seed + 3, i);
        // About one entry in 8 masked.
        m[i] = fromF<M>(u < -0.75f ? -INFINITY : 2 * u);
      }
      if (specials & kMaskRow)
        for (long long j = 0; j < SK; ++j)
          for (long long hh = 0; hh < H; ++hh)
            m[at(C::kMaskStride, 1 * H + hh, H, 5, j)] = fromF<M>(-INFINITY);
    }
    CK(cudaMalloc(&dq, nq * sizeof(In)));
    CK(cudaMalloc(&dk, nk * sizeof(In)));
    CK(cudaMalloc(&dv, nv * sizeof(In)));
    CK(cudaMalloc(&dout, no * sizeof(Out)));
    CK(cudaMemcpy(dq, q.data(), nq * sizeof(In), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dk, k.data(), nk * sizeof(In), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dv, v.data(), nv * sizeof(In), cudaMemcpyHostToDevice));
    if constexpr (C::kMask == 2) {
      CK(cudaMalloc(&dm, nm * sizeof(M)));
      CK(cudaMemcpy(dm, m.data(), nm * sizeof(M), cudaMemcpyHostToDevice));
    }
  }
  ~Problem() {
    cudaFree(dq), cudaFree(dk), cudaFree(dv), cudaFree(dout);
    if (dm)
      cudaFree(dm);
  }
  // f64 reference of output row (bi, i) into r[0, DV).
  void reference(long long bi, long long i, double *r) const {
    std::vector<double> s(SK);
    const double scale = (double)C::kScale;
    double mx = -INFINITY;
    bool nan = false;
    for (long long j = 0; j < SK; ++j) {
      double dot = 0;
      for (long long d = 0; d < D; ++d)
        dot += toD(q[at(C::kQStride, bi, H, i, d)]) *
               toD(k[at(C::kKStride, bi, H, j, d)]);
      double x = dot * scale;
      if constexpr (C::kMask == 2)
        x += toD(m[at(C::kMaskStride, bi, H, i, j)]);
      // Hidden keys: selected -inf, or -inf added (NaN for a NaN or +inf x).
      if (C::kMask == 1 && j > i + (long long)C::kCausalOffset)
        x = C::kCausalAdds ? x + -INFINITY : -INFINITY;
      s[j] = x;
      if (x != x)
        nan = true;
      else if (x > mx)
        mx = x;
    }
    if (nan)
      mx = NAN;
    double l = 0;
    for (long long e = 0; e < DV; ++e)
      r[e] = 0;
    for (long long j = 0; j < SK; ++j) {
      const double p = std::exp(s[j] - mx);
      l += p;
      for (long long e = 0; e < DV; ++e)
        r[e] += p * toD(v[at(C::kVStride, bi, H, j, e)]);
    }
    for (long long e = 0; e < DV; ++e)
      r[e] /= l;
  }
};

template <class C, bool F32, int MINB> struct Launcher {
  using In = typename C::In;
  static int smem() {
    if constexpr (F32)
      return attentionF32SharedBytes<C>();
    else
      return attentionMma16SharedBytes<C>();
  }
  static void run(const In *q, const In *k, const In *v,
                  const typename C::MaskT *m, typename C::Out *o) {
    auto kern = [] {
      if constexpr (F32)
        return kF32<C, MINB>;
      else
        return kMma16<C, MINB>;
    }();
    static bool init = false;
    if (!init) {
      CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              smem()));
      init = true;
    }
    // A causal launch scans first (Masking in Attention.cuh).
    static unsigned *full = nullptr;
    if constexpr (C::kMask == 1) {
      constexpr long long chunks = attnScanChunks<C>();
      if (!full)
        CK(cudaMalloc(&full, C::kBatch * chunks * sizeof(unsigned)));
      kScan<C>
          <<<dim3((unsigned)chunks, (unsigned)C::kBatch), kAttnScanThreads>>>(
              k, v, full);
    }
    dim3 grid((unsigned)attentionGridX<C>(), (unsigned)attentionGridY<C>());
    kern<<<grid, attentionThreads<C>(), smem()>>>(q, k, v, m, o, full);
  }
};

template <class In> static double tolOf() {
  return sizeof(In) == 4 ? 1e-5 : AttnSame<In, bf16>::value ? 2e-2 : 5e-3;
}

// Compares output rows `which` (pairs bi, i) with the reference: NaN and
// +-inf exactly where the reference has them, the largest finite error over
// the largest finite |reference| within tol.
template <class C>
static bool compare(Problem<C> &p, const std::vector<long long> &which,
                    double &rel, long long &nanRows, long long &badSpecial) {
  const long long H = p.H, DV = p.DV;
  std::vector<double> r(DV);
  double maxErr = 0, maxRef = 0;
  nanRows = 0, badSpecial = 0;
  for (size_t w = 0; w < which.size(); w += 2) {
    const long long bi = which[w], i = which[w + 1];
    p.reference(bi, i, r.data());
    bool rowNan = true;
    for (long long e = 0; e < DV; ++e) {
      const double o = toD(p.out[at(C::kOStride, bi, H, i, e)]);
      const double x = r[e];
      if (x != x || std::isinf(x) || o != o || std::isinf(o)) {
        const bool same = (x != x && o != o) || (x == o);
        if (!same && ++badSpecial <= 5)
          printf("    bi %lld row %lld col %lld: out %g, reference %g\n", bi, i,
                 e, o, x);
      } else {
        maxErr = std::max(maxErr, std::fabs(o - x));
        maxRef = std::max(maxRef, std::fabs(x));
      }
      rowNan = rowNan && x != x;
    }
    nanRows += rowNan;
  }
  rel = maxRef > 0 ? maxErr / maxRef : maxErr;
  return badSpecial == 0 && rel <= tolOf<typename C::In>();
}

// Runs the kernel once on fresh inputs and checks every output row.
template <class C, bool F32, int MINB = 1>
static void check(const char *name, int specials, unsigned long long seed) {
  Problem<C> p(seed, specials);
  // NaN bytes: an output never written shows up as NaN where the reference
  // is finite.
  CK(cudaMemset(p.dout, 0xFF, p.no * sizeof(typename C::Out)));
  Launcher<C, F32, MINB>::run(p.dq, p.dk, p.dv, p.dm, p.dout);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(p.out.data(), p.dout, p.no * sizeof(typename C::Out),
                cudaMemcpyDeviceToHost));
  std::vector<long long> which;
  for (long long bi = 0; bi < C::kBatch; ++bi)
    for (long long i = 0; i < C::kSq; ++i)
      which.push_back(bi), which.push_back(i);
  double rel;
  long long nanRows, bad;
  const bool ok = compare(p, which, rel, nanRows, bad);
  failures += !ok;
  rows.push_back({name, 0, 0, rel, ok});
  printf("%-58s err/max|O| %.2e  NaN rows %lld  special mismatches %lld  %s\n",
         name, rel, nanRows, bad, ok ? "ok" : "FAIL");
  fflush(stdout);
}

// Times the kernel (median of 20) and checks 64 sampled rows.
template <class C, bool F32, int MINB = 1>
static void timed(const char *name, unsigned long long seed) {
  Problem<C> p(seed, kNone);
  CK(cudaMemset(p.dout, 0xFF, p.no * sizeof(typename C::Out)));
  auto run = [&] {
    Launcher<C, F32, MINB>::run(p.dq, p.dk, p.dv, p.dm, p.dout);
  };
  for (int i = 0; i < 3; ++i)
    run();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < 20; ++r) {
    CK(cudaEventRecord(e0));
    run();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    t.push_back(ms * 1000.f);
  }
  CK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  const double us = 0.5 * (t[9] + t[10]);
  double flops = 4.0 * C::kBatch * C::kSq * (double)C::kSk * C::kD;
  if (C::kMask == 1)
    flops *= 0.5;
  const double tf = flops / us * 1e-6;
  CK(cudaMemcpy(p.out.data(), p.dout, p.no * sizeof(typename C::Out),
                cudaMemcpyDeviceToHost));
  std::vector<long long> which;
  for (int s = 0; s < 64; ++s) {
    long long bi = (long long)(mix64(seed * 77 + s) % C::kBatch);
    long long i = s == 0   ? 0
                  : s == 1 ? C::kSq - 1
                           : (long long)(mix64(seed * 91 + s) % C::kSq);
    which.push_back(bi), which.push_back(i);
  }
  double rel;
  long long nanRows, bad;
  const bool ok = compare(p, which, rel, nanRows, bad) && nanRows == 0;
  failures += !ok;
  rows.push_back({name, us, tf, rel, ok});
  printf("%-58s %9.1f us %7.1f TFLOP/s  err/max|O| %.2e %s\n", name, us, tf,
         rel, ok ? "ok" : "FAIL");
  fflush(stdout);
}

// Small odd shapes: 3 batches x 2 heads, 77 queries, 131 keys.
template <class TIn, class TOut, long long D, int MASK, int BM, int BN, int W,
          int LAYOUT = 0, long long OFF = 131 - 77>
using Small = Cfg<int, TIn, TOut, float, 3, 2, 77, 131, D, D, MASK, OFF, BM, BN,
                  W, LAYOUT>;
// More queries than keys with bottom-right causal alignment: rows 0..53
// see no key.
template <class TIn, class TOut, long long D, int BM, int BN, int W>
using Tall =
    Cfg<int, TIn, TOut, float, 3, 2, 131, 77, D, D, 1, 77 - 131, BM, BN, W>;
// f32 kernel configurations (thread tiles 4 x 4).
template <long long D, long long DV, int MASK, int BM, int BN, int W,
          int LAYOUT = 0, class TMask = float, int TM = 4, int TN = 4>
using SmallF32 = Cfg<long long, float, float, TMask, 3, 2, 77, 131, D, DV, MASK,
                     131 - 77, BM, BN, W, LAYOUT, TM, TN>;
template <class TIn, class TOut, long long D, int MASK, int BM, int BN, int W,
          int TM = 4, int TN = 4>
using Big = Cfg<int, TIn, TOut, void, 8, 16, 2048, 2048, D, D, MASK, 0, BM, BN,
                W, 0, TM, TN>;

template <class T> static void checksMma16(const char *ty) {
  char n[128];
  auto name = [&](const char *what) {
    snprintf(n, sizeof(n), "mma16 %s %s", ty, what);
    return n;
  };
  const int all = kQNaN | kKInf | kMaskRow | kVInf;
  // D 128, 16 rows a warp (Q in registers).
  check<Small<T, T, 128, 0, 64, 64, 4>, false>(name("D128 M64 none"), all, 1);
  check<Small<T, T, 128, 1, 64, 64, 4>, false>(name("D128 M64 causal"), all, 2);
  check<Small<T, float, 128, 2, 64, 64, 4>, false>(name("D128 M64 mask >f32"),
                                                   all, 3);
  check<Small<T, T, 128, 0, 64, 64, 4>, false>(name("D128 M64 none clean"),
                                               kNone, 4);
  // Causal with the -inf added, and causal on finite inputs (hidden tiles
  // skipped).
  check<Small<T, T, 128, 3, 64, 64, 4>, false>(name("D128 M64 causal added"),
                                               all, 18);
  check<Small<T, T, 128, 3, 128, 64, 4>, false>(
      name("D128 M128 causal added clean"), kNone, 19);
  check<Small<T, T, 64, 1, 128, 64, 4>, false>(name("D64 M128 causal clean"),
                                               kNone, 20);
  // 32 rows a warp at D 128: Q fragments from shared memory.
  check<Small<T, T, 128, 0, 128, 64, 4>, false>(name("D128 M128 none"), all, 5);
  check<Small<T, T, 128, 1, 128, 64, 4>, false>(name("D128 M128 causal"), all,
                                                6);
  check<Small<T, T, 128, 2, 128, 64, 4>, false>(name("D128 M128 mask"), all, 7);
  // 8 warps, key tiles of 32 and 128.
  check<Small<T, T, 128, 1, 128, 32, 8>, false>(name("D128 M128 N32 W8 causal"),
                                                all, 8);
  check<Small<T, T, 128, 2, 64, 128, 4>, false>(name("D128 M64 N128 mask"), all,
                                                9);
  // D 64.
  check<Small<T, T, 64, 0, 128, 64, 4>, false>(name("D64 M128 none"), all, 10);
  check<Small<T, T, 64, 1, 128, 64, 4>, false>(name("D64 M128 causal"), all,
                                               11);
  check<Small<T, T, 64, 2, 64, 64, 4>, false>(name("D64 M64 mask"), all, 12);
  check<Small<T, T, 64, 2, 128, 32, 4>, false>(name("D64 M128 N32 mask"), all,
                                               13);
  // BSHD layout, top-left causal.
  check<Small<T, T, 128, 1, 64, 64, 4, 2, 0>, false>(
      name("D128 M64 BSHD causal top-left"), all, 14);
  check<Small<T, T, 64, 2, 128, 64, 4, 2>, false>(name("D64 M128 BSHD mask"),
                                                  all, 15);
  // Fully masked leading rows.
  check<Tall<T, T, 128, 64, 64, 4>, false>(name("D128 M64 Sq>Sk causal"), all,
                                           16);
  check<Tall<T, T, 64, 128, 64, 4>, false>(name("D64 M128 Sq>Sk causal"), all,
                                           17);
}

static void checksF32() {
  const int all = kQNaN | kKInf | kMaskRow | kVInf;
  check<SmallF32<64, 64, 0, 64, 64, 8>, true>("f32 D64 M64 N64 W8 none", all,
                                              21);
  check<SmallF32<128, 128, 1, 64, 32, 4>, true>("f32 D128 M64 N32 W4 causal",
                                                all, 22);
  check<SmallF32<128, 128, 2, 64, 64, 8>, true>("f32 D128 M64 N64 W8 mask", all,
                                                23);
  check<SmallF32<64, 64, 0, 64, 64, 8>, true>("f32 D64 none clean", kNone, 24);
  // Odd head dims, K transposed, BSHD Q/V/O, f16 mask per head.
  check<SmallF32<77, 50, 2, 64, 32, 4, 1, __half>, true>(
      "f32 D77 Dv50 Kt mask(f16)", all, 25);
  check<SmallF32<77, 50, 1, 64, 32, 4, 1>, true>("f32 D77 Dv50 Kt causal", all,
                                                 26);
  check<SmallF32<40, 24, 0, 128, 64, 8, 1, float, 8, 4>, true>(
      "f32 D40 Dv24 Kt M128 T8x4 none", all, 27);
  check<Tall<float, float, 64, 64, 64, 8>, true>("f32 D64 Sq>Sk causal", all,
                                                 28);
  check<SmallF32<77, 50, 3, 64, 32, 4, 1>, true>("f32 D77 Dv50 Kt causal added",
                                                 all, 29);
  check<SmallF32<64, 64, 3, 64, 64, 8>, true>("f32 D64 causal added clean",
                                              kNone, 30);
}

int main(int argc, char **argv) {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, %d SMs, smem/block optin %zu\n", prop.name,
         prop.multiProcessorCount, prop.sharedMemPerBlockOptin);
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const bool quick = argc > 1 && std::string(argv[1]) == "quick";

  checksMma16<bf16>("bf16");
  checksMma16<__half>("f16");
  checksF32();

  if (!quick) {
    timed<Big<bf16, bf16, 128, 0, 64, 64, 4>, false>(
        "bf16 B8 H16 S2048 D128 M64 N64 W4", 101);
    timed<Big<bf16, bf16, 128, 0, 64, 64, 4>, false, 3>(
        "bf16 B8 H16 S2048 D128 M64 N64 W4 minb3", 101);
    timed<Big<bf16, bf16, 128, 0, 128, 64, 4>, false>(
        "bf16 B8 H16 S2048 D128 M128 N64 W4", 102);
    timed<Big<bf16, bf16, 128, 0, 128, 64, 8>, false>(
        "bf16 B8 H16 S2048 D128 M128 N64 W8", 103);
    timed<Big<bf16, bf16, 128, 0, 128, 32, 8>, false>(
        "bf16 B8 H16 S2048 D128 M128 N32 W8", 104);
    timed<Big<bf16, bf16, 128, 1, 64, 64, 4>, false>(
        "bf16 B8 H16 S2048 D128 M64 N64 W4 causal", 105);
    timed<Big<bf16, bf16, 128, 1, 128, 64, 4>, false>(
        "bf16 B8 H16 S2048 D128 M128 N64 W4 causal", 106);
    timed<Big<bf16, bf16, 128, 1, 128, 64, 8>, false>(
        "bf16 B8 H16 S2048 D128 M128 N64 W8 causal", 107);
    timed<Big<__half, __half, 128, 0, 64, 64, 4>, false>(
        "f16 B8 H16 S2048 D128 M64 N64 W4", 108);
    timed<Big<__half, __half, 128, 0, 128, 64, 8>, false>(
        "f16 B8 H16 S2048 D128 M128 N64 W8", 109);
    timed<Big<__half, __half, 128, 1, 64, 64, 4>, false>(
        "f16 B8 H16 S2048 D128 M64 N64 W4 causal", 110);
    timed<Big<__half, __half, 128, 1, 128, 64, 8>, false>(
        "f16 B8 H16 S2048 D128 M128 N64 W8 causal", 111);
    timed<Big<bf16, bf16, 64, 0, 128, 64, 4>, false>(
        "bf16 B8 H16 S2048 D64 M128 N64 W4", 112);
    timed<Big<bf16, bf16, 64, 0, 64, 64, 4>, false>(
        "bf16 B8 H16 S2048 D64 M64 N64 W4", 113);
    timed<Big<bf16, bf16, 64, 1, 128, 64, 4>, false>(
        "bf16 B8 H16 S2048 D64 M128 N64 W4 causal", 114);
    timed<Big<float, float, 128, 0, 64, 32, 4>, true>(
        "f32 B8 H16 S2048 D128 M64 N32 W4 T4x4", 115);
    timed<Big<float, float, 128, 0, 64, 64, 8>, true>(
        "f32 B8 H16 S2048 D128 M64 N64 W8 T4x4", 116);
    timed<Big<float, float, 128, 0, 128, 64, 8, 8, 4>, true>(
        "f32 B8 H16 S2048 D128 M128 N64 W8 T8x4", 117);
    timed<Big<float, float, 128, 1, 64, 32, 4>, true>(
        "f32 B8 H16 S2048 D128 M64 N32 W4 T4x4 causal", 118);
    timed<Big<bf16, bf16, 128, 3, 128, 64, 4>, false>(
        "bf16 B8 H16 S2048 D128 M128 N64 W4 causal added", 119);
    timed<Big<float, float, 128, 3, 128, 64, 8, 8, 4>, true>(
        "f32 B8 H16 S2048 D128 M128 N64 W8 T8x4 causal added", 120);
  }

  printf("\n| kernel | us | TFLOP/s | err / max abs O |\n|---|---|---|---|\n");
  for (auto &r : rows)
    printf("| %s | %.1f | %.1f | %.1e%s |\n", r.name.c_str(), r.us, r.tflops,
           r.err, r.ok ? "" : " FAIL");
  printf("%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
