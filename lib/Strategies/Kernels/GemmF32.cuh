// GemmF32.cuh - SIMT full-fp32 GEMM: warp-tiled, cp.async multistage, split-K,
// batched.
//
// Block tile BM x BN x BK, warp tile WM x WN, thread tile TM x TN (TM, TN
// multiples of 4). A warp's 32 lanes form an (WM/TM) x (WN/TN) grid; each lane
// owns TM/4 x TN/4 sub-tiles of 4 x 4 spaced one lane-grid apart, so every
// shared-memory read of a k step is a 16-byte vector and the lanes of a warp
// read 64 or 128 contiguous bytes (no bank conflicts). Both operands are kept
// k-major in shared memory ([BK][BM+4] and [BK][BN+4]; the pad keeps 16-byte
// alignment and spreads the transposing copies over banks). An operand whose
// contiguous dimension is the shared-memory row (A read transposed, B plain) is
// copied with 16-byte cp.async; the other one with 4-byte cp.async that
// transposes on the fly (the copy engine writes shared memory, no register
// round trip). STAGES tiles are in flight. Grid: x = output tiles (group-M
// rasterised), y = batch * splits. For layouts that declare kAffine, each
// thread's copy offsets are computed once and one base pointer advances per k
// tile; other layouts compute every address through a_off / b_off.
#pragma once

#include "GemmCommon.cuh"

namespace stark_kernels {

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES,
          int MINBLOCKS = 1>
struct SimtConfig {
  static constexpr int kWarpsM = BM / WM, kWarpsN = BN / WN;
  static constexpr int kThreads = kWarpsM * kWarpsN * 32;
  static constexpr int kLanesM = WM / TM, kLanesN = WN / TN;
  static constexpr int kMI = TM / 4, kNI = TN / 4;
  static constexpr int kLdA = BM + 4, kLdB = BN + 4;
  static constexpr int kStageFloats = BK * (kLdA + kLdB);
  static constexpr int kSmemBytes = STAGES * kStageFloats * 4;
  static constexpr int kBM = BM, kBN = BN, kBK = BK, kStages = STAGES,
                       kMinBlocks = MINBLOCKS;
  static_assert(kLanesM * kLanesN == 32, "a warp is 32 lanes");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tile in 4x4 sub-tiles");
  static_assert(BM % WM == 0 && BN % WN == 0, "warps tile the block");
  static_assert(STAGES >= 2, "at least double buffering");
};

// N 16-byte vectors from src, src + STRIDE, ... into r[0, 4 N).
template <int N, int STRIDE>
__device__ __forceinline__ void loadVectors(float *r, const float *src) {
#pragma unroll
  for (int i = 0; i < N; ++i) {
    float4 v = *reinterpret_cast<const float4 *>(src + i * STRIDE);
    r[i * 4 + 0] = v.x, r[i * 4 + 1] = v.y, r[i * 4 + 2] = v.z,
              r[i * 4 + 3] = v.w;
  }
}

// TA: A stored K x M (read transposed in place); TB: B stored N x K. Vec:
// 16-byte fast path (see gemmStridesVectorisable); otherwise every element goes
// through the layout with 4-byte copies.
// The block's work as a device function, so that a generated kernel with
// another signature (stark's candidates take the problem's pointers) can run
// it; gemmF32Simt below is the kernel the harness launches.
template <class Cfg, bool TA, bool TB, bool Vec, class Layout>
__device__ __forceinline__ void gemmF32SimtBlock(GemmParams<Layout> p) {
  constexpr int BM = Cfg::kBM, BN = Cfg::kBN, BK = Cfg::kBK,
                STAGES = Cfg::kStages;
  constexpr int NT = Cfg::kThreads, LDA = Cfg::kLdA, LDB = Cfg::kLdB;
  constexpr int MI = Cfg::kMI, NI = Cfg::kNI, LM = Cfg::kLanesM,
                LN = Cfg::kLanesN;
  constexpr int WM = BM / Cfg::kWarpsM, WN = BN / Cfg::kWarpsN;
  extern __shared__ float4 smem4[];
  float *smem = reinterpret_cast<float *>(smem4);

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  int m0, n0, b, split, kBeg, kEnd, kTiles;
  detail::blockTile<BM, BN, BK>(p, m0, n0, b, split, kBeg, kEnd, kTiles);
  const float *A = p.A, *B = p.B;
  const Layout lay = p.lay;
  const int M = p.M, N = p.N;

  // As[k][m], Bs[k][n] per stage.
  constexpr bool kAffine = IsAffineLayout<Layout>::value;
  detail::TileCopy<BK, BM, LDA, NT, Vec && TA, !TA, true> copyA;
  detail::TileCopy<BK, BN, LDB, NT, Vec && !TB, TB, true> copyB;
  detail::AffineTiles at;
  if constexpr (kAffine) {
    at.init<BK>(lay, b, m0, n0, kBeg);
    copyA.init(tid, [&](int k, int m, int &n) {
      int gm = m0 + m;
      n = gm < M ? min(4, M - gm) : 0;
      return int(lay.a_off(b, gm, kBeg + k) - at.aBase);
    });
    copyB.init(tid, [&](int k, int nn, int &n) {
      int gn = n0 + nn;
      n = gn < N ? min(4, N - gn) : 0;
      return int(lay.b_off(b, kBeg + k, gn) - at.bBase);
    });
  }
  auto loadStage = [&](int stage, int kt) {
    float *as = smem + stage * Cfg::kStageFloats;
    float *bs = as + BK * LDA;
    const int k0 = kBeg + kt * BK;
    if constexpr (kAffine) {
      copyA.copy(as, A + at.aBase + kt * at.aStep, tid, kEnd - k0);
      copyB.copy(bs, B + at.bBase + kt * at.bStep, tid, kEnd - k0);
      return;
    }
    detail::loadOperandTile<BM, BK, LDA, NT, Vec && TA, !TA, true>(
        as, tid, A, m0, M, k0, kEnd,
        [&](int m, int k) { return lay.a_off(b, m, k); });
    detail::loadOperandTile<BN, BK, LDB, NT, Vec && !TB, TB, true>(
        bs, tid, B, n0, N, k0, kEnd,
        [&](int n, int k) { return lay.b_off(b, k, n); });
  };

  const int wm0 = (warp / Cfg::kWarpsN) * WM, wn0 = (warp % Cfg::kWarpsN) * WN;
  const int lm = lane / LN, ln = lane % LN;
  const int aCol = wm0 + lm * 4, bCol = wn0 + ln * 4;

  float acc[MI * 4][NI * 4];
  detail::zero(acc);

  detail::runPipeline<STAGES>(kTiles, loadStage, [&](int stage) {
    const float *as = smem + stage * Cfg::kStageFloats;
    const float *bs = as + BK * LDA;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[MI * 4], bv[NI * 4];
      loadVectors<MI, LM * 4>(a, as + kk * LDA + aCol);
      loadVectors<NI, LN * 4>(bv, bs + kk * LDB + bCol);
#pragma unroll
      for (int i = 0; i < MI * 4; ++i)
#pragma unroll
        for (int j = 0; j < NI * 4; ++j)
          acc[i][j] = fmaf(a[i], bv[j], acc[i][j]);
    }
  });

#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int j = 0; j < NI; ++j)
        detail::storeOut<4, Vec>(p, b, split, m0 + aCol + i * LM * 4 + r,
                                 n0 + bCol + j * LN * 4,
                                 &acc[i * 4 + r][j * 4]);
}

template <class Cfg, bool TA, bool TB, bool Vec, class Layout>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocks)
    gemmF32Simt(GemmParams<Layout> p) {
  gemmF32SimtBlock<Cfg, TA, TB, Vec, Layout>(p);
}

} // namespace stark_kernels
