// GemmCommon.cuh - addressing, cp.async helpers and split-K reduction shared by
// the GEMM kernels.
//
// The kernels compute C[b,m,n] = alpha * sum_k A[b,m,k] * B[b,k,n] + beta *
// C[b,m,n] + init (beta = 0 writes C without reading it, starting from the
// constant init: a problem that fills C first; beta = 1 accumulates). Every
// global address goes through a layout object with a_off(b,m,k), b_off(b,k,n)
// and c_off(b,m,n), so generated code can substitute its own indexing. The
// kernels' fast path (template flag Vec) additionally assumes that the
// operand's contiguous dimension has stride 1 and that vectors of four starting
// at multiples of four are 16-byte aligned; gemmStridesVectorisable() checks
// that for the strided layout below.
#pragma once

#include <cstdint>
#include <type_traits>

namespace stark_kernels {

// Plain strided addressing (element units). Row-major A is (a_m = K, a_k = 1);
// A read transposed in place (stored K x M) is (a_m = 1, a_k = M); a
// batch-broadcast operand has stride 0.
struct GemmStrides {
  // Offsets are affine in (b, m, k): the kernels may precompute each thread's
  // copy offsets within a tile once and step one base pointer per k tile. That
  // path keeps in-tile offsets in 32 bits (see gemmTileOffsetsFit).
  static constexpr bool kAffine = true;
  long long a_b, a_m, a_k;
  long long b_b, b_k, b_n;
  long long c_b, c_m, c_n;
  __device__ __forceinline__ long long a_off(int b, int m, int k) const {
    return b * a_b + m * a_m + k * a_k;
  }
  __device__ __forceinline__ long long b_off(int b, int k, int n) const {
    return b * b_b + k * b_k + n * b_n;
  }
  __device__ __forceinline__ long long c_off(int b, int m, int n) const {
    return b * c_b + m * c_m + n * c_n;
  }
};

// Host-side helpers; NVRTC (__CUDACC_RTC__) compiles device code only.
#ifndef __CUDACC_RTC__
// Row-major strides for A (M x K, or K x M when ta), B (K x N, or N x K when
// tb), C (M x N).
inline GemmStrides gemmRowMajorStrides(int M, int N, int K, bool ta, bool tb,
                                       bool broadcastB = false) {
  GemmStrides s;
  s.a_b = (long long)M * K;
  s.a_m = ta ? 1 : K;
  s.a_k = ta ? M : 1;
  s.b_b = broadcastB ? 0 : (long long)K * N;
  s.b_k = tb ? 1 : N;
  s.b_n = tb ? K : 1;
  s.c_b = (long long)M * N;
  s.c_m = N;
  s.c_n = 1;
  return s;
}

// True when the 16-byte fast path is valid: the contiguous dimension of each
// operand has stride 1, every other stride is a multiple of 4 elements and the
// base pointers are 16-byte aligned. An operand a kernel never reads with
// vectors (needA / needB false) is not checked.
inline bool gemmStridesVectorisable(const GemmStrides &s, bool ta, bool tb,
                                    const void *A, const void *B, const void *C,
                                    bool needA = true, bool needB = true) {
  auto al = [](const void *p) {
    return (reinterpret_cast<uintptr_t>(p) & 15) == 0;
  };
  auto m4 = [](long long v) { return v % 4 == 0; };
  bool a = ta ? (s.a_m == 1 && m4(s.a_k)) : (s.a_k == 1 && m4(s.a_m));
  bool b = tb ? (s.b_k == 1 && m4(s.b_n)) : (s.b_n == 1 && m4(s.b_k));
  bool c = s.c_n == 1 && m4(s.c_m) && m4(s.c_b);
  a = !needA || (a && m4(s.a_b) && al(A));
  b = !needB || (b && m4(s.b_b) && al(B));
  return a && b && c && al(C);
}

// True when every in-tile offset of a BM x BN x BK tile fits in 32 bits (the
// affine copy path's precondition).
inline bool gemmTileOffsetsFit(const GemmStrides &s, int BM, int BN, int BK) {
  auto a = [](long long v) { return v < 0 ? -v : v; };
  const long long lim = (1ll << 31) - 1;
  return a(s.a_m) * BM + a(s.a_k) * BK < lim &&
         a(s.b_k) * BK + a(s.b_n) * BN < lim;
}

#endif // __CUDACC_RTC__

// Layouts that declare kAffine = true take the precomputed-offset copy path.
template <class L, class = void> struct IsAffineLayout : std::false_type {};
template <class L>
struct IsAffineLayout<L, std::void_t<decltype(L::kAffine)>>
    : std::bool_constant<L::kAffine> {};

// Layouts that declare kEpilogue = true store the outputs themselves:
// epilogue(b, m, n, acc) gets the finished value alpha * sum + init of
// output (b, m, n) and computes and writes the problem's output there (the
// element-wise ops after a contraction, generated per problem); C is then
// neither read nor written.
template <class L, class = void> struct HasEpilogue : std::false_type {};
template <class L>
struct HasEpilogue<L, std::void_t<decltype(L::kEpilogue)>>
    : std::bool_constant<L::kEpilogue> {};

template <class Layout> struct GemmParams {
  const float *A;
  const float *B;
  float *C;
  float *ws; // split-K partial sums: [splits][batch][M][ldws], used when splits
             // > 1
  int batch, M, N, K;
  int splits, kPerSplit, ldws;
  int groupM; // tiles of M rasterised together (L2 reuse of B tiles)
  float alpha, beta;
  float init = 0.f; // added to every output (with beta = 0: C's fill value)
  Layout lay;
};

namespace detail {

__device__ __forceinline__ unsigned smemAddr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
// 16-byte asynchronous copy; bytes < 16 zero-fills the rest (bytes = 0: nothing
// is read).
__device__ __forceinline__ void cpAsync16(void *dst, const void *src,
                                          int bytes) {
  asm volatile(
      "cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smemAddr(dst)),
      "l"(src), "r"(bytes)
      : "memory");
}
__device__ __forceinline__ void cpAsync4(void *dst, const void *src,
                                         bool valid) {
  asm volatile(
      "cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smemAddr(dst)),
      "l"(src), "r"(valid ? 4 : 0)
      : "memory");
}
__device__ __forceinline__ void cpAsyncCommit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N> __device__ __forceinline__ void cpAsyncWait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// Copies an OUTER x INNER tile into shared memory (row stride LDS floats).
// src(o, i, avail) returns the global address of element (o, i) and sets avail
// to the number of valid elements from there along INNER (0 when out of bounds,
// then the address is only a placeholder). Vec: 16-byte copies along INNER.
// Otherwise 4-byte copies; FastOuter makes consecutive threads walk OUTER
// (coalesced when OUTER is the operand's contiguous dimension: a transposing
// copy).
template <int OUTER, int INNER, int LDS, int NT, bool Vec, bool FastOuter,
          class Src>
__device__ __forceinline__ void loadTile(float *dst, int tid, const Src &src) {
  if constexpr (Vec) {
    constexpr int IV = INNER / 4, TOTAL = OUTER * IV;
    static_assert(INNER % 4 == 0, "vector tile needs INNER % 4 == 0");
#pragma unroll
    for (int it = 0; it < (TOTAL + NT - 1) / NT; ++it) {
      int v = it * NT + tid;
      if (TOTAL % NT == 0 || v < TOTAL) {
        int o = v / IV, i = (v % IV) * 4, avail;
        const float *g = src(o, i, avail);
        cpAsync16(dst + o * LDS + i, g, avail * 4);
      }
    }
  } else {
    constexpr int TOTAL = OUTER * INNER;
#pragma unroll
    for (int it = 0; it < (TOTAL + NT - 1) / NT; ++it) {
      int e = it * NT + tid;
      if (TOTAL % NT == 0 || e < TOTAL) {
        int o = FastOuter ? e % OUTER : e / INNER;
        int i = FastOuter ? e / OUTER : e % INNER;
        int avail;
        const float *g = src(o, i, avail);
        cpAsync4(dst + o * LDS + i, g, avail > 0);
      }
    }
  }
}

// The same copy as loadTile for affine layouts: each thread's offsets from the
// tile base and its bounds along the non-k dimension are computed once (init);
// copy() then needs one base pointer per k tile. KOuter: k is the OUTER index.
template <int OUTER, int INNER, int LDS, int NT, bool Vec, bool FastOuter,
          bool KOuter>
struct TileCopy {
  static constexpr int kIV = Vec ? INNER / 4 : INNER;
  static constexpr int kTotal = OUTER * kIV;
  static constexpr int kIters = (kTotal + NT - 1) / NT;
  static_assert(kIters <= 21, "3 availability bits per copy in 64 bits");
  int off[kIters];
  unsigned long long avail; // per copy: elements in bounds ignoring k (0..4)

  __device__ __forceinline__ static bool exists(int it, int tid) {
    return kTotal % NT == 0 || it * NT + tid < kTotal;
  }
  __device__ __forceinline__ static void coords(int it, int tid, int &o,
                                                int &i) {
    int e = it * NT + tid;
    if constexpr (Vec) {
      o = e / kIV, i = (e % kIV) * 4;
    } else if constexpr (FastOuter) {
      o = e % OUTER, i = e / OUTER;
    } else {
      o = e / INNER, i = e % INNER;
    }
  }
  // at(o, i, n) returns the offset of element (o, i) from the tile base and
  // sets n to the elements available from there along INNER, k bounds ignored.
  template <class At>
  __device__ __forceinline__ void init(int tid, const At &at) {
    avail = 0;
#pragma unroll
    for (int it = 0; it < kIters; ++it) {
      int o, i, n = 0;
      coords(it, tid, o, i);
      off[it] = exists(it, tid) ? at(o, i, n) : 0;
      avail |= (unsigned long long)n << (3 * it);
    }
  }
  // Copies the tile based at base; kLeft: the k indices valid from there.
  __device__ __forceinline__ void copy(float *dst, const float *base, int tid,
                                       int kLeft) const {
#pragma unroll
    for (int it = 0; it < kIters; ++it) {
      if (!exists(it, tid))
        continue;
      int o, i;
      coords(it, tid, o, i);
      int k = KOuter ? o : i;
      int n = int((avail >> (3 * it)) & 7);
      if constexpr (Vec && !KOuter)
        n = min(n, kLeft - k);
      bool ok = n > 0 && k < kLeft;
      const float *g = ok ? base + off[it] : base;
      if constexpr (Vec)
        cpAsync16(dst + o * LDS + i, g, ok ? n * 4 : 0);
      else
        cpAsync4(dst + o * LDS + i, g, ok);
    }
  }
};

// Group-M rasterisation: consecutive blocks sweep groupM tile rows before
// moving along N.
__device__ __forceinline__ void swizzleTile(int pid, int tilesM, int tilesN,
                                            int groupM, int &tm, int &tn) {
  int width = groupM * tilesN;
  int first = (pid / width) * groupM;
  int size = min(tilesM - first, groupM);
  tm = first + (pid % width) % size;
  tn = (pid % width) / size;
}

// The block's output tile (m0, n0), batch b, split and k range [kBeg, kEnd)
// of kTiles BK-deep tiles: grid x holds the output tiles, grid y the batch
// times the splits.
template <int BM, int BN, int BK, class Layout>
__device__ __forceinline__ void blockTile(const GemmParams<Layout> &p, int &m0,
                                          int &n0, int &b, int &split,
                                          int &kBeg, int &kEnd, int &kTiles) {
  const int tilesM = (p.M + BM - 1) / BM, tilesN = (p.N + BN - 1) / BN;
  int tm, tn;
  swizzleTile(blockIdx.x, tilesM, tilesN, p.groupM, tm, tn);
  m0 = tm * BM, n0 = tn * BN;
  b = blockIdx.y / p.splits, split = blockIdx.y % p.splits;
  kBeg = split * p.kPerSplit, kEnd = min(p.K, kBeg + p.kPerSplit);
  kTiles = kEnd > kBeg ? (kEnd - kBeg + BK - 1) / BK : 0;
}

// For affine layouts: the offsets of the block's A and B tiles at its first
// k, and how far they move per BK-deep k tile.
struct AffineTiles {
  long long aBase = 0, bBase = 0, aStep = 0, bStep = 0;
  template <int BK, class Layout>
  __device__ __forceinline__ void init(const Layout &lay, int b, int m0, int n0,
                                       int kBeg) {
    aBase = lay.a_off(b, m0, kBeg), bBase = lay.b_off(b, kBeg, n0);
    aStep = lay.a_off(b, m0, kBeg + BK) - aBase;
    bStep = lay.b_off(b, kBeg + BK, n0) - bBase;
  }
};

// loadTile for one operand of any layout: the tile holds elements (x, k) for
// x in [x0, x0 + BX) (m of A, n of B) and k in [k0, k0 + BK), stored [BK][BX]
// when XInner, else [BX][BK]; off(x, k) is the element's offset from base.
// Elements at or past xEnd or kEnd read as zero.
template <int BX, int BK, int LDS, int NT, bool Vec, bool FastOuter,
          bool XInner, class Off>
__device__ __forceinline__ void
loadOperandTile(float *dst, int tid, const float *base, int x0, int xEnd,
                int k0, int kEnd, const Off &off) {
  auto at = [&](int x, int k, int &avail, int left) {
    int gk = k0 + k, gx = x0 + x;
    bool ok = gk < kEnd && gx < xEnd;
    avail = ok ? min(4, left) : 0;
    return ok ? base + off(gx, gk) : base;
  };
  if constexpr (XInner)
    loadTile<BK, BX, LDS, NT, Vec, FastOuter>(
        dst, tid, [&](int k, int x, int &avail) {
          return at(x, k, avail, xEnd - (x0 + x));
        });
  else
    loadTile<BX, BK, LDS, NT, Vec, FastOuter>(
        dst, tid, [&](int x, int k, int &avail) {
          return at(x, k, avail, kEnd - (k0 + k));
        });
}

// The multistage cp.async main loop: the first STAGES - 1 k tiles are put in
// flight, then each k tile waits for its stage, puts the tile STAGES - 1
// ahead in flight into the stage freed last and runs compute(stage).
// load(stage, kt) issues the copies of k tile kt.
template <int STAGES, class Load, class Compute>
__device__ __forceinline__ void runPipeline(int kTiles, const Load &load,
                                            const Compute &compute) {
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < kTiles)
      load(s, s);
    cpAsyncCommit();
  }
  for (int kt = 0; kt < kTiles; ++kt) {
    cpAsyncWait<STAGES - 2>();
    __syncthreads();
    {
      int next = kt + STAGES - 1;
      if (next < kTiles)
        load(next % STAGES, next);
      cpAsyncCommit();
    }
    compute(kt % STAGES);
  }
  cpAsyncWait<0>();
}

// Sets every element of a (multi-dimensional) register array to zero.
template <int N> __device__ __forceinline__ void zero(float (&a)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i)
    a[i] = 0.f;
}
template <class T, int N> __device__ __forceinline__ void zero(T (&a)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i)
    zero(a[i]);
}

// Writes V consecutive outputs (b, m, n..n+V-1): into the split-K workspace
// when splits > 1, else through the layout's epilogue when it has one, else
// into C through the layout (16/8-byte stores when Vec and all V are in
// bounds).
template <int V, bool Vec, class Layout>
__device__ __forceinline__ void storeOut(const GemmParams<Layout> &p, int b,
                                         int split, int m, int n,
                                         const float *v) {
  if (m >= p.M)
    return;
  if (p.splits > 1) {
    float *w = p.ws + (((long long)split * p.batch + b) * p.M + m) * p.ldws + n;
#pragma unroll
    for (int c = 0; c < V; ++c)
      if (n + c < p.N)
        w[c] = v[c];
    return;
  }
  if constexpr (HasEpilogue<Layout>::value) {
#pragma unroll
    for (int i = 0; i < V; ++i)
      if (n + i < p.N)
        p.lay.epilogue(b, m, n + i, p.alpha * v[i] + p.init);
  } else {
    if constexpr (Vec) {
      if (n + V <= p.N) {
        float *c = p.C + p.lay.c_off(b, m, n);
        float o[V];
        if (p.beta != 0.f) {
          if constexpr (V == 4) {
            float4 x = *reinterpret_cast<float4 *>(c);
            o[0] = x.x, o[1] = x.y, o[2] = x.z, o[3] = x.w;
          } else {
            float2 x = *reinterpret_cast<float2 *>(c);
            o[0] = x.x, o[1] = x.y;
          }
#pragma unroll
          for (int i = 0; i < V; ++i)
            o[i] = p.alpha * v[i] + p.beta * o[i] + p.init;
        } else {
#pragma unroll
          for (int i = 0; i < V; ++i)
            o[i] = p.alpha * v[i] + p.init;
        }
        if constexpr (V == 4)
          *reinterpret_cast<float4 *>(c) = make_float4(o[0], o[1], o[2], o[3]);
        else
          *reinterpret_cast<float2 *>(c) = make_float2(o[0], o[1]);
        return;
      }
    }
#pragma unroll
    for (int i = 0; i < V; ++i)
      if (n + i < p.N) {
        float *c = p.C + p.lay.c_off(b, m, n + i);
        *c = (p.beta != 0.f ? p.alpha * v[i] + p.beta * *c : p.alpha * v[i]) +
             p.init;
      }
  }
}

} // namespace detail

namespace detail {

// Second pass of split-K: C = alpha * sum over splits of ws + beta * C + init
// (or the layout's epilogue of alpha * sum + init),
// the slices summed in order (the result does not depend on timing), one
// element per thread of a grid-stride loop over the whole grid.
template <class Layout>
__device__ __forceinline__ void splitKReduce(const GemmParams<Layout> &p) {
  long long total = (long long)p.batch * p.M * p.N;
  long long plane = (long long)p.batch * p.M * p.ldws;
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x;
       e < total; e += (long long)gridDim.x * blockDim.x) {
    int n = e % p.N;
    long long r = e / p.N;
    int m = r % p.M;
    int b = r / p.M;
    const float *w = p.ws + ((long long)b * p.M + m) * p.ldws + n;
    float s = 0.f;
    for (int z = 0; z < p.splits; ++z)
      s += w[z * plane];
    if constexpr (HasEpilogue<Layout>::value) {
      p.lay.epilogue(b, m, n, p.alpha * s + p.init);
    } else {
      float *c = p.C + p.lay.c_off(b, m, n);
      *c = (p.beta != 0.f ? p.alpha * s + p.beta * *c : p.alpha * s) + p.init;
    }
  }
}

} // namespace detail

template <class Layout> __global__ void gemmSplitKReduce(GemmParams<Layout> p) {
  detail::splitKReduce(p);
}

} // namespace stark_kernels
