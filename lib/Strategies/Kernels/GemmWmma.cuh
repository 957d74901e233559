// GemmWmma.cuh - the tensor-core GEMM of family `gemm_tc`: C[b, m, n] +=
// sum_k A[b, m, k] * B[b, k, n] on WMMA fragments (f16 or bf16 inputs, or
// f32 inputs rounded to tf32), accumulated in f32.
//
// BM x BN block tile of warps with WM x WN tiles each, BK-deep k tiles
// through STAGES shared-memory buffers filled with cp.async (16 bytes at a
// time where VA / VB > 1), tiles rasterised in groups of GROUP_M rows, the
// batch in grid.y. A's tile is stored [BM][BK] (A_AXIS 0) or [BK][BM] (1),
// B's [BK][BN] (B_AXIS 0) or [BN][BK] (1), rows padded by PAD elements.
// Everything comes from the config C:
//   typedef TIn, idx_t; typedef FragA, FragB (the WMMA fragments of A and B
//   in the tiles' layouts, FK deep)
//   static constexpr int BM, BN, BK, WM, WN, STAGES, GROUP_M, FK, PAD,
//       A_AXIS, VA, B_AXIS, VB;  static constexpr bool TF32;
//   static constexpr idx_t M, N, K;
//   static a_off(b, m, k), b_off(b, k, n) -> idx_t
// and the finished sums go to a store functor, store(b, m, n, sum) (C +=
// sum, C = init + sum, or the element-wise chain after the contraction).
// The block has 32 * (BM / WM) * (BN / WN) threads and takes the dynamic
// shared memory gemmWmmaSharedBytes<C>() says.
//
// Needs Prelude.cuh (stark_cast) and <mma.h> before it.
#pragma once

#include <mma.h>

namespace stark_kernels {

template <class C> struct WmmaShape {
  static constexpr int kWarpsM = C::BM / C::WM, kWarpsN = C::BN / C::WN;
  static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
  static constexpr int kFragsM = C::WM / 16, kFragsN = C::WN / 16;
  static constexpr int kACols = (C::A_AXIS == 0 ? C::BK : C::BM) + C::PAD;
  static constexpr int kBCols = (C::B_AXIS == 0 ? C::BN : C::BK) + C::PAD;
  static constexpr int kAStage = (C::A_AXIS == 0 ? C::BM : C::BK) * kACols;
  static constexpr int kBStage = (C::B_AXIS == 0 ? C::BK : C::BN) * kBCols;
  static constexpr int kPipeBytes =
      C::STAGES * (kAStage + kBStage) * (int)sizeof(typename C::TIn);
  static constexpr int kTilesM = (int)((C::M + C::BM - 1) / C::BM);
  static constexpr int kTilesN = (int)((C::N + C::BN - 1) / C::BN);
  static constexpr int kKTiles = (int)((C::K + C::BK - 1) / C::BK);
  static constexpr int kAUnits = C::BM * C::BK / C::VA;
  static constexpr int kBUnits = C::BK * C::BN / C::VB;
};

// Host-side helpers; NVRTC (__CUDACC_RTC__) compiles device code only.
#ifndef __CUDACC_RTC__
// The pipeline's buffers, then one 16x16 f32 scratch tile per warp.
template <class C> constexpr int gemmWmmaSharedBytes() {
  return WmmaShape<C>::kPipeBytes +
         WmmaShape<C>::kWarpsM * WmmaShape<C>::kWarpsN * 256 * 4;
}
#endif

// 16-byte asynchronous copy; a false predicate writes zeros instead.
__device__ __forceinline__ void wmmaCpAsync16(void *smem, const void *gmem,
                                              bool full) {
  const unsigned dst = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst),
               "l"(gmem), "r"(full ? 16 : 0));
}
__device__ __forceinline__ void wmmaCpAsyncCommit() {
  asm volatile("cp.async.commit_group;\n" ::);
}
template <int N> __device__ __forceinline__ void wmmaCpAsyncWait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

// A fragment from shared memory; with TF32 its values cut to tf32, as the
// tf32 mma expects.
template <bool TF32, class Frag, class T>
__device__ __forceinline__ void wmmaLoadFragment(Frag &f, const T *p,
                                                 unsigned ld) {
  nvcuda::wmma::load_matrix_sync(f, p, ld);
  if constexpr (TF32) {
#pragma unroll
    for (int t = 0; t < f.num_elements; ++t)
      f.x[t] = nvcuda::wmma::__float_to_tf32(f.x[t]);
  }
}

// Copies one operand's k tile into shared memory: UNITS copies of V
// elements, ROW_LEN elements a shared-memory row (LD apart). Rows run along
// x (m for A, n for B) when ROWS_ARE_X, else along k; off(x, k) is the
// element's offset in src. Past X or K the copy writes zeros.
template <int UNITS, int ROW_LEN, int LD, int V, bool ROWS_ARE_X, int THREADS,
          class TIn, class Idx, class Off>
__device__ __forceinline__ void
wmmaLoadOperand(TIn *dst, const TIn *__restrict__ src, Idx x0, Idx k0,
                long long X, long long K, Off off) {
#pragma unroll
  for (int u = threadIdx.x; u < UNITS; u += THREADS) {
    const int r = u / (ROW_LEN / V), col = (u % (ROW_LEN / V)) * V;
    const Idx x = x0 + (ROWS_ARE_X ? r : col), k = k0 + (ROWS_ARE_X ? col : r);
    const bool ok = x < X && k < K;
    TIn *d = dst + r * LD + col;
    if constexpr (V > 1)
      wmmaCpAsync16(d, ok ? (const void *)(src + off(x, k)) : (const void *)src,
                    ok);
    else
      *d = ok ? src[off(x, k)] : stark_cast<TIn>(0.f);
  }
}

// Copies k tile `kt` of A and B into pipeline stage `stage`.
template <class C>
__device__ __forceinline__ void
wmmaLoadTile(const typename C::TIn *__restrict__ A,
             const typename C::TIn *__restrict__ B, typename C::TIn *aTiles,
             typename C::TIn *bTiles, typename C::idx_t batch,
             typename C::idx_t m0, typename C::idx_t n0, int stage, int kt) {
  typedef typename C::idx_t idx_t;
  typedef WmmaShape<C> S;
  const idx_t k0 = (idx_t)kt * C::BK;
  wmmaLoadOperand<S::kAUnits, C::A_AXIS == 0 ? C::BK : C::BM, S::kACols, C::VA,
                  C::A_AXIS == 0, S::kThreads>(
      aTiles + stage * S::kAStage, A, m0, k0, C::M, C::K,
      [&](idx_t m, idx_t k) { return C::a_off(batch, m, k); });
  wmmaLoadOperand<S::kBUnits, C::B_AXIS == 0 ? C::BN : C::BK, S::kBCols, C::VB,
                  C::B_AXIS == 1, S::kThreads>(
      bTiles + stage * S::kBStage, B, n0, k0, C::N, C::K,
      [&](idx_t n, idx_t k) { return C::b_off(batch, k, n); });
}

// One block of the GEMM; the entry that runs it is generated.
template <class C, class Store>
__device__ __forceinline__ void
gemmWmmaBlock(const typename C::TIn *__restrict__ A,
              const typename C::TIn *__restrict__ B, const Store &store) {
  namespace wmma = nvcuda::wmma;
  typedef typename C::TIn TIn;
  typedef typename C::idx_t idx_t;
  typedef WmmaShape<C> S;
  typedef wmma::fragment<wmma::accumulator, 16, 16, C::FK, float> FragC;
  extern __shared__ __align__(128) unsigned char stark_smem[];
  TIn *const aTiles = reinterpret_cast<TIn *>(stark_smem);
  TIn *const bTiles = aTiles + C::STAGES * S::kAStage;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int warpM = warp / S::kWarpsN, warpN = warp % S::kWarpsN;
  const int pid = blockIdx.x;
  const int groupWidth = C::GROUP_M * S::kTilesN;
  const int firstM = (pid / groupWidth) * C::GROUP_M;
  const int groupRows = min(S::kTilesM - firstM, C::GROUP_M);
  const int tileM = firstM + (pid % groupWidth) % groupRows;
  const int tileN = (pid % groupWidth) / groupRows;
  const idx_t m0 = (idx_t)tileM * C::BM, n0 = (idx_t)tileN * C::BN;
  const idx_t batch = blockIdx.y;

  FragC acc[S::kFragsM][S::kFragsN];
#pragma unroll
  for (int i = 0; i < S::kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < S::kFragsN; ++j)
      wmma::fill_fragment(acc[i][j], 0.f);

      // STAGES - 1 tiles in flight ahead of the one being multiplied.
#pragma unroll
  for (int s = 0; s < C::STAGES - 1; ++s) {
    if (s < S::kKTiles)
      wmmaLoadTile<C>(A, B, aTiles, bTiles, batch, m0, n0, s, s);
    wmmaCpAsyncCommit();
  }
  for (int kt = 0; kt < S::kKTiles; ++kt) {
    wmmaCpAsyncWait<C::STAGES - 2>();
    __syncthreads();
    const int next = kt + C::STAGES - 1;
    if (next < S::kKTiles)
      wmmaLoadTile<C>(A, B, aTiles, bTiles, batch, m0, n0, next % C::STAGES,
                      next);
    wmmaCpAsyncCommit();
    const TIn *as = aTiles + (kt % C::STAGES) * S::kAStage;
    const TIn *bs = bTiles + (kt % C::STAGES) * S::kBStage;
#pragma unroll
    for (int kk = 0; kk < C::BK; kk += C::FK) {
      typename C::FragA af[S::kFragsM];
      typename C::FragB bf[S::kFragsN];
#pragma unroll
      for (int i = 0; i < S::kFragsM; ++i) {
        const int row = warpM * C::WM + i * 16;
        wmmaLoadFragment<C::TF32>(af[i],
                                  C::A_AXIS == 0 ? as + row * S::kACols + kk
                                                 : as + kk * S::kACols + row,
                                  S::kACols);
      }
#pragma unroll
      for (int j = 0; j < S::kFragsN; ++j) {
        const int col = warpN * C::WN + j * 16;
        wmmaLoadFragment<C::TF32>(bf[j],
                                  C::B_AXIS == 0 ? bs + kk * S::kBCols + col
                                                 : bs + col * S::kBCols + kk,
                                  S::kBCols);
      }
#pragma unroll
      for (int i = 0; i < S::kFragsM; ++i)
#pragma unroll
        for (int j = 0; j < S::kFragsN; ++j)
          wmma::mma_sync(acc[i][j], af[i], bf[j], acc[i][j]);
    }
  }
  wmmaCpAsyncWait<0>();

  // Each warp stages one 16x16 accumulator at a time through its own
  // scratch tile, then hands each sum to the store, guarded.
  float *scratch =
      reinterpret_cast<float *>(stark_smem + S::kPipeBytes) + warp * 256;
#pragma unroll
  for (int i = 0; i < S::kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < S::kFragsN; ++j) {
      wmma::store_matrix_sync(scratch, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < 256; e += 32) {
        const idx_t m = m0 + warpM * C::WM + i * 16 + e / 16;
        const idx_t n = n0 + warpN * C::WN + j * 16 + e % 16;
        if (m < C::M && n < C::N)
          store.store(batch, m, n, scratch[e]);
      }
      __syncwarp();
    }
  }
}

} // namespace stark_kernels
