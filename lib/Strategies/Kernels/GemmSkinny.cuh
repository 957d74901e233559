// GemmSkinny.cuh - f32 GEMM with a few rows of output (matrix-vector shapes).
//
// C[b,m,n] = sum_k A[b,m,k] * B[b,k,n] with M at most BM (16): a classifier
// at batch 1 to 16, a decoder's projection of one token. Each element of B
// is used BM times at most, so the product is bound by reading B once; a
// GEMM tile of 64 or more rows would be mostly padding, and its blocks too
// few to keep the memory system busy. The block keeps all BM rows and a
// strip of columns; k is cut into slices (grid.y = batch * splits, as in
// GemmF32.cuh) whose partial sums the split-K pass of GemmCommon.cuh adds in
// slice order and stores (with the fill, C += or the epilogue).
//
// Two walks, by B's layout:
// - B along n (K x N, TB false): each thread owns V consecutive columns
//   (V = 4 with 16-byte loads), walks k BK at a time with BK loads of B in
//   flight, and reads A's elements for that k as every thread of the block
//   does (one broadcast load).
// - B along k (N x K, TB true: a linear layer's weight): a warp owns CW
//   columns, its lanes walk k V elements apart (16-byte loads of A and B
//   where both are contiguous along k) and a shuffle tree adds the lanes.
// Sums are plain f32 FMAs in k order within a lane; nothing is rounded
// below f32.
//
// With SWAP (a few columns and many rows: a matrix times a vector, a 1x1
// convolution of one pixel) the block computes C^T = B^T A^T: the walks
// see A' = B^T and B' = A^T through SwappedLayout, and every sum is stored
// through the problem's own parameters at (n, m), so the split-K pass and
// the epilogue are those of the unswapped problem.
#pragma once

#include "GemmCommon.cuh"

namespace stark_kernels {

// BM: output rows per block (at least M); BN: columns per block; BK: k per
// step of a thread (TB false) or k elements per lane and step times 32 (TB
// true: BK = 32 V); THREADS: threads per block.
template <int BM, int BN, int BK, int THREADS, bool SWAP = false>
struct SkinnyConfig {
  static constexpr int kBM = BM, kBN = BN, kBK = BK, kThreads = THREADS;
  static constexpr bool kSwap = SWAP;
  static constexpr int kWarps = THREADS / 32;
  static_assert(THREADS % 32 == 0, "whole warps");
  static_assert(BM >= 1 && BM <= 16, "a few rows");
};

// A layout read with A and B exchanged: the product C^T[n][m] = sum_k
// B^T[n][k] A^T[k][m].
template <class L> struct SwappedLayout {
  L l;
  __device__ __forceinline__ long long a_off(int b, int m, int k) const {
    return l.b_off(b, k, m);
  }
  __device__ __forceinline__ long long b_off(int b, int k, int n) const {
    return l.a_off(b, n, k);
  }
};

namespace detail {

// Stores V sums of (b, m, n..n + V - 1) through the parameters' own path
// (the split-K workspace, the epilogue or C).
template <class Layout> struct SkinnyStore {
  const GemmParams<Layout> &p;
  template <int V, bool Vec>
  __device__ __forceinline__ void put(int b, int split, int m, int n,
                                      const float *v) const {
    storeOut<V, Vec>(p, b, split, m, n, v);
  }
};
// The same for sums of the swapped product: (b, m, n + i) of C^T is
// (b, n + i, m) of C.
template <class Layout> struct SkinnySwappedStore {
  const GemmParams<Layout> &p;
  template <int V, bool Vec>
  __device__ __forceinline__ void put(int b, int split, int m, int n,
                                      const float *v) const {
#pragma unroll
    for (int i = 0; i < V; ++i)
      storeOut<1, false>(p, b, split, n + i, m, v + i);
  }
};

// B along n: thread t owns columns n0 + V t .. + V - 1.
template <class Cfg, bool Vec, class Layout, class Store>
__device__ __forceinline__ void
skinnyAlongN(const GemmParams<Layout> &p, const Store &store, int b, int split,
             int n0, int kBeg, int kEnd) {
  constexpr int BM = Cfg::kBM, BK = Cfg::kBK, V = Vec ? 4 : 1;
  static_assert(Cfg::kBN == Cfg::kThreads * V, "a thread per V columns");
  const Layout lay = p.lay;
  const int n = n0 + threadIdx.x * V;
  const bool inside = n < p.N;
  float acc[BM][V];
  zero(acc);
  auto step = [&](int k) {
    float bv[V];
    if constexpr (Vec) {
      // Vec: N is a multiple of 4 within the row, so the vector is inside.
      float4 x =
          __ldg(reinterpret_cast<const float4 *>(p.B + lay.b_off(b, k, n)));
      bv[0] = x.x, bv[1] = x.y, bv[2] = x.z, bv[3] = x.w;
    } else {
      bv[0] = __ldg(p.B + lay.b_off(b, k, n));
    }
#pragma unroll
    for (int m = 0; m < BM; ++m) {
      const float a = m < p.M ? __ldg(p.A + lay.a_off(b, m, k)) : 0.f;
#pragma unroll
      for (int v = 0; v < V; ++v)
        acc[m][v] = fmaf(a, bv[v], acc[m][v]);
    }
  };
  if (inside) {
    int k = kBeg;
    // BK steps with their loads issued together, then the tail.
    for (; k + BK <= kEnd; k += BK) {
#pragma unroll
      for (int u = 0; u < BK; ++u)
        step(k + u);
    }
    for (; k < kEnd; ++k)
      step(k);
  }
  if (!inside)
    return;
#pragma unroll
  for (int m = 0; m < BM; ++m)
    if (m < p.M)
      store.template put<V, Vec>(b, split, m, n, acc[m]);
}

// B along k: warp w owns columns n0 + CW w .. + CW - 1; lane l reads the V
// elements of k at kBeg + V (l + 32 j).
template <class Cfg, bool TA, bool Vec, class Layout, class Store>
__device__ __forceinline__ void
skinnyAlongK(const GemmParams<Layout> &p, const Store &store, int b, int split,
             int n0, int kBeg, int kEnd) {
  constexpr int BM = Cfg::kBM, V = Vec && !TA ? 4 : 1;
  constexpr int CW = Cfg::kBN / Cfg::kWarps;
  static_assert(Cfg::kBN % Cfg::kWarps == 0, "columns per warp");
  static_assert(Cfg::kBK == 32 * V, "a step is 32 lanes of V elements");
  const Layout lay = p.lay;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int nw = n0 + warp * CW;
  float acc[BM][CW];
  zero(acc);
  auto load = [&](const float *g, float(&x)[V]) {
    if constexpr (V == 4) {
      float4 v = __ldg(reinterpret_cast<const float4 *>(g));
      x[0] = v.x, x[1] = v.y, x[2] = v.z, x[3] = v.w;
    } else {
      x[0] = __ldg(g);
    }
  };
  // Whole vectors first; a slice ends on a step's boundary but the last
  // one ends at K, which need not be a multiple of V.
  const int kVec = kBeg + (kEnd - kBeg) / V * V;
  for (int k = kBeg + lane * V; k < kVec; k += 32 * V) {
    float bv[CW][V];
#pragma unroll
    for (int c = 0; c < CW; ++c) {
      if (nw + c < p.N)
        load(p.B + lay.b_off(b, k, nw + c), bv[c]);
      else
#pragma unroll
        for (int v = 0; v < V; ++v)
          bv[c][v] = 0.f;
    }
#pragma unroll
    for (int m = 0; m < BM; ++m) {
      float av[V];
      if (m < p.M)
        load(p.A + lay.a_off(b, m, k), av);
      else
#pragma unroll
        for (int v = 0; v < V; ++v)
          av[v] = 0.f;
#pragma unroll
      for (int c = 0; c < CW; ++c)
#pragma unroll
        for (int v = 0; v < V; ++v)
          acc[m][c] = fmaf(av[v], bv[c][v], acc[m][c]);
    }
  }
  if constexpr (V > 1) {
    for (int k = kVec + lane; k < kEnd; k += 32)
#pragma unroll
      for (int m = 0; m < BM; ++m)
#pragma unroll
        for (int c = 0; c < CW; ++c)
          if (m < p.M && nw + c < p.N)
            acc[m][c] = fmaf(__ldg(p.A + lay.a_off(b, m, k)),
                             __ldg(p.B + lay.b_off(b, k, nw + c)), acc[m][c]);
  }
#pragma unroll
  for (int m = 0; m < BM; ++m)
#pragma unroll
    for (int c = 0; c < CW; ++c) {
      float s = acc[m][c];
#pragma unroll
      for (int d = 16; d > 0; d /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, d);
      if (lane == 0 && m < p.M && nw + c < p.N)
        store.template put<1, false>(b, split, m, nw + c, &s);
    }
}

// One block's walk of `p`, its sums stored by `store`.
template <class Cfg, bool TA, bool TB, bool Vec, class Layout, class Store>
__device__ __forceinline__ void skinnyWalk(const GemmParams<Layout> &p,
                                           const Store &store) {
  const int b = blockIdx.y / p.splits, split = blockIdx.y % p.splits;
  const int n0 = blockIdx.x * Cfg::kBN;
  const int kBeg = split * p.kPerSplit, kEnd = min(p.K, kBeg + p.kPerSplit);
  if constexpr (TB)
    skinnyAlongK<Cfg, TA, Vec>(p, store, b, split, n0, kBeg, kEnd);
  else
    skinnyAlongN<Cfg, Vec>(p, store, b, split, n0, kBeg, kEnd);
}

} // namespace detail

// The block's work; the caller launches Cfg::kThreads threads, grid
// (column strips of BN, batch * splits), with M <= BM (with Cfg::kSwap:
// N <= BM, strips of M). TA, TB and Vec describe the walked product: with
// kSwap, TA says that B (A' = B^T) is contiguous along n, TB that A
// (B' = A^T) is contiguous along k, Vec that A' and B' take 16-byte loads.
template <class Cfg, bool TA, bool TB, bool Vec, class Layout>
__device__ __forceinline__ void gemmSkinnyBlock(GemmParams<Layout> p) {
  if constexpr (Cfg::kSwap) {
    GemmParams<SwappedLayout<Layout>> q;
    q.A = p.B, q.B = p.A, q.C = nullptr, q.ws = nullptr;
    q.batch = p.batch, q.M = p.N, q.N = p.M, q.K = p.K;
    q.splits = p.splits, q.kPerSplit = p.kPerSplit, q.ldws = 0;
    q.groupM = 1, q.alpha = p.alpha, q.beta = p.beta, q.init = p.init;
    q.lay.l = p.lay;
    detail::skinnyWalk<Cfg, TA, TB, Vec>(q,
                                         detail::SkinnySwappedStore<Layout>{p});
  } else {
    detail::skinnyWalk<Cfg, TA, TB, Vec>(p, detail::SkinnyStore<Layout>{p});
  }
}

} // namespace stark_kernels
