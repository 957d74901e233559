// Gemm3xTf32.cuh - fp32-accurate tensor-core GEMM: 3xTF32 on mma.sync.m16n8k8
// (sm_80+).
//
// Each operand element x is split into big (x cut to tf32) and small = x - big
// (exact in fp32); acc += a_small*b_big + a_big*b_small + a_big*b_big recovers
// fp32 accuracy (the dropped a_small*b_small term is below 2^-20 relative, and
// measured errors stay below cuBLAS sgemm's). Shared memory keeps each operand
// in its global orientation, so every tile copy is a 16-byte cp.async: A as
// [BM][BK+4] (or [BK][BM+8] when read transposed), B as [BK][BN+8] (or
// [BN][BK+4]); with those pads the fragment loads of a warp (lane = 4 g + t
// reads row g, column t) hit 32 distinct banks. STAGES tiles in flight; grid as
// in GemmF32.cuh. On the H200 at 4096^3 this runs at 1.27x cuBLAS sgemm.
#pragma once

#include "GemmCommon.cuh"
#include "Tf32Split.cuh"

namespace stark_kernels {

// CHUNKED: the tensor cores accumulate one BK slice from zero and the slice is
// added to the fp32 accumulators with an ordinary (round-to-nearest) add. The
// mma's own fp32 accumulation truncates, which biases long sums (relative error
// growing with K, about 25x cuBLAS's at K = 4096); chunking bounds the
// truncated run to BK products at the price of a second set of accumulators.
// RNA: the big part is tf32(x) rounded to nearest (cvt.rna, emulated in 4 SASS
// instructions on sm_90) instead of x truncated to tf32 (one AND). Truncation
// keeps the split exact (small = x - big) with |small| < 2^-10 |x|; the error
// left is the tensor core's truncation of small, below 2^-20 |x| per product.
// LDSM: ldmatrix for the fragments of an operand stored k-contiguous in shared
// memory (A read in place, B transposed): one instruction per four 32-bit
// loads.
template <int BM, int BN, int BK, int WM, int WN, int STAGES, int MINBLOCKS = 1,
          bool CHUNKED = true, bool RNA = false, bool LDSM = true>
struct Tf32Config {
  static constexpr bool kChunked = CHUNKED, kRna = RNA, kLdsm = LDSM;
  static constexpr int kWarpsM = BM / WM, kWarpsN = BN / WN;
  static constexpr int kThreads = kWarpsM * kWarpsN * 32;
  static constexpr int kMI = WM / 16, kNI = WN / 8;
  static constexpr int kBM = BM, kBN = BN, kBK = BK, kStages = STAGES,
                       kMinBlocks = MINBLOCKS;
  static_assert(WM % 16 == 0 && WN % 8 == 0 && BK % 8 == 0, "m16n8k8 tiles");
  static_assert(BM % WM == 0 && BN % WN == 0, "warps tile the block");
  // Shared-memory footprint of one stage for the given orientation.
  template <bool TA, bool TB>
  __host__ __device__ static constexpr int stageFloats() {
    return (TA ? BK * (BM + 8) : BM * (BK + 4)) +
           (TB ? BN * (BK + 4) : BK * (BN + 8));
  }
  template <bool TA, bool TB>
  __host__ __device__ static constexpr int smemBytes() {
    return STAGES * stageFloats<TA, TB>() * 4;
  }
};

namespace detail {
__device__ __forceinline__ void ldmatrixX4(uint32_t *r, const float *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smemAddr(p)));
}
__device__ __forceinline__ void mmaTf32(float *c, const uint32_t *a,
                                        const uint32_t *b) {
  // Not volatile: the compiler may interleave independent accumulators.
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
      "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
// The big and small parts of B's fragments for k step ks: NI blocks of 8
// columns from wn0 (lane = 4 g + t holds column g, k t and t + 4).
template <class Cfg, bool TB, int LDB>
__device__ __forceinline__ void
loadBFragments(const float *bs, int ks, int wn0, int lane,
               uint32_t (&bBig)[Cfg::kNI][2], uint32_t (&bSmall)[Cfg::kNI][2]) {
  constexpr int NI = Cfg::kNI;
  const int g = lane >> 2, t = lane & 3;
  if constexpr (TB && Cfg::kLdsm && NI % 2 == 0) {
    // Matrices (n block j, k 0-3), (j, k 4-7), (j+1, k 0-3), (j+1, k 4-7).
#pragma unroll
    for (int j = 0; j < NI; j += 2) {
      uint32_t r[4];
      int n = wn0 + (j + (lane >> 4)) * 8 + (lane & 7);
      ldmatrixX4(r, bs + n * LDB + ks + ((lane >> 3) & 1) * 4);
#pragma unroll
      for (int q = 0; q < 4; ++q)
        splitTf32<Cfg::kRna>(__uint_as_float(r[q]), bBig[j + q / 2][q % 2],
                             bSmall[j + q / 2][q % 2]);
    }
  } else {
#pragma unroll
    for (int j = 0; j < NI; ++j) {
      int n = wn0 + j * 8 + g;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        int k = ks + t + 4 * h;
        float x = TB ? bs[n * LDB + k] : bs[k * LDB + n];
        splitTf32<Cfg::kRna>(x, bBig[j][h], bSmall[j][h]);
      }
    }
  }
}

// The big and small parts of A's fragment for k step ks: the 16 rows from
// m16 (lane = 4 g + t holds rows g and g + 8, k t and t + 4).
template <class Cfg, bool TA, int LDA>
__device__ __forceinline__ void loadAFragment(const float *as, int ks, int m16,
                                              int lane, uint32_t (&aBig)[4],
                                              uint32_t (&aSmall)[4]) {
  const int g = lane >> 2, t = lane & 3;
  if constexpr (!TA && Cfg::kLdsm) {
    // Matrices (rows 0-7, k 0-3), (8-15, 0-3), (0-7, 4-7), (8-15, 4-7).
    uint32_t r[4];
    int m = m16 + ((lane >> 3) & 1) * 8 + (lane & 7);
    ldmatrixX4(r, as + m * LDA + ks + (lane >> 4) * 4);
#pragma unroll
    for (int q = 0; q < 4; ++q)
      splitTf32<Cfg::kRna>(__uint_as_float(r[q]), aBig[q], aSmall[q]);
  } else {
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      int m = m16 + g + 8 * (r & 1), k = ks + t + 4 * (r >> 1);
      float x = TA ? as[k * LDA + m] : as[m * LDA + k];
      splitTf32<Cfg::kRna>(x, aBig[r], aSmall[r]);
    }
  }
}

// acc += the products of one shared-memory stage (as, bs), three mma per
// fragment pair; with kChunked the stage is summed apart first.
template <class Cfg, bool TA, bool TB, int LDA, int LDB>
__device__ __forceinline__ void
mmaStage3xTf32(const float *as, const float *bs, int wm0, int wn0, int lane,
               float (&acc)[Cfg::kMI][Cfg::kNI][4]) {
  constexpr int MI = Cfg::kMI, NI = Cfg::kNI, BK = Cfg::kBK;
  float part[Cfg::kChunked ? MI : 1][Cfg::kChunked ? NI : 1][4];
  if constexpr (Cfg::kChunked)
    zero(part);
#pragma unroll
  for (int ks = 0; ks < BK; ks += 8) {
    uint32_t bBig[NI][2], bSmall[NI][2];
    loadBFragments<Cfg, TB, LDB>(bs, ks, wn0, lane, bBig, bSmall);
#pragma unroll
    for (int i = 0; i < MI; ++i) {
      uint32_t aBig[4], aSmall[4];
      loadAFragment<Cfg, TA, LDA>(as, ks, wm0 + i * 16, lane, aBig, aSmall);
      // Term-major order: NI independent accumulators between dependent mmas;
      // the small terms first, so that they are added while the sum is still
      // small.
#pragma unroll
      for (int term = 0; term < 3; ++term)
#pragma unroll
        for (int j = 0; j < NI; ++j) {
          float *d = Cfg::kChunked
                         ? part[Cfg::kChunked ? i : 0][Cfg::kChunked ? j : 0]
                         : acc[i][j];
          mmaTf32(d, term == 2 ? aBig : (term == 0 ? aSmall : aBig),
                  term == 1 ? bSmall[j] : bBig[j]);
        }
    }
  }
  if constexpr (Cfg::kChunked) {
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
      for (int j = 0; j < NI; ++j)
#pragma unroll
        for (int c = 0; c < 4; ++c)
          acc[i][j][c] += part[i][j][c];
  }
}
} // namespace detail

// The block's work as a device function, so that a generated kernel with
// another signature (stark's candidates take the problem's pointers) can run
// it; gemm3xTf32 below is the kernel the harness launches.
template <class Cfg, bool TA, bool TB, bool Vec, class Layout>
__device__ __forceinline__ void gemm3xTf32Block(GemmParams<Layout> p) {
  constexpr int BM = Cfg::kBM, BN = Cfg::kBN, BK = Cfg::kBK,
                STAGES = Cfg::kStages;
  constexpr int NT = Cfg::kThreads, MI = Cfg::kMI, NI = Cfg::kNI;
  constexpr int WM = BM / Cfg::kWarpsM, WN = BN / Cfg::kWarpsN;
  constexpr int LDA =
      TA ? BM + 8 : BK + 4; // row length of the A tile in shared memory
  constexpr int LDB = TB ? BK + 4 : BN + 8;
  constexpr int A_FLOATS = TA ? BK * LDA : BM * LDA;
  constexpr int STAGE = Cfg::template stageFloats<TA, TB>();
  extern __shared__ float4 smem4[];
  float *smem = reinterpret_cast<float *>(smem4);

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  int m0, n0, b, split, kBeg, kEnd, kTiles;
  detail::blockTile<BM, BN, BK>(p, m0, n0, b, split, kBeg, kEnd, kTiles);
  const float *A = p.A, *B = p.B;
  const Layout lay = p.lay;
  const int M = p.M, N = p.N;

  constexpr bool kAffine = IsAffineLayout<Layout>::value;
  // Shared memory follows the global orientation: A [m][k] or (TA) [k][m],
  // B [k][n] or (TB) [n][k]; the copy's INNER index is the contiguous one.
  detail::TileCopy<TA ? BK : BM, TA ? BM : BK, LDA, NT, Vec, false, TA> copyA;
  detail::TileCopy<TB ? BN : BK, TB ? BK : BN, LDB, NT, Vec, false, !TB> copyB;
  detail::AffineTiles at;
  if constexpr (kAffine) {
    at.init<BK>(lay, b, m0, n0, kBeg);
    copyA.init(tid, [&](int o, int i, int &n) {
      int m = TA ? i : o, k = TA ? o : i, gm = m0 + m;
      n = gm < M ? (TA ? min(4, M - gm) : 4) : 0;
      return int(lay.a_off(b, gm, kBeg + k) - at.aBase);
    });
    copyB.init(tid, [&](int o, int i, int &n) {
      int nn = TB ? o : i, k = TB ? i : o, gn = n0 + nn;
      n = gn < N ? (TB ? 4 : min(4, N - gn)) : 0;
      return int(lay.b_off(b, kBeg + k, gn) - at.bBase);
    });
  }
  auto loadStage = [&](int stage, int kt) {
    float *as = smem + stage * STAGE;
    float *bs = as + A_FLOATS;
    const int k0 = kBeg + kt * BK;
    if constexpr (kAffine) {
      copyA.copy(as, A + at.aBase + kt * at.aStep, tid, kEnd - k0);
      copyB.copy(bs, B + at.bBase + kt * at.bStep, tid, kEnd - k0);
      return;
    }
    detail::loadOperandTile<BM, BK, LDA, NT, Vec, false, TA>(
        as, tid, A, m0, M, k0, kEnd,
        [&](int m, int k) { return lay.a_off(b, m, k); });
    detail::loadOperandTile<BN, BK, LDB, NT, Vec, false, !TB>(
        bs, tid, B, n0, N, k0, kEnd,
        [&](int n, int k) { return lay.b_off(b, k, n); });
  };

  const int wm0 = (warp / Cfg::kWarpsN) * WM, wn0 = (warp % Cfg::kWarpsN) * WN;
  const int g = lane >> 2, t = lane & 3;

  float acc[MI][NI][4];
  detail::zero(acc);

  detail::runPipeline<STAGES>(kTiles, loadStage, [&](int stage) {
    const float *as = smem + stage * STAGE;
    detail::mmaStage3xTf32<Cfg, TA, TB, LDA, LDB>(as, as + A_FLOATS, wm0, wn0,
                                                  lane, acc);
  });

#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NI; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h)
        detail::storeOut<2, Vec>(p, b, split, m0 + wm0 + i * 16 + g + 8 * h,
                                 n0 + wn0 + j * 8 + 2 * t, &acc[i][j][2 * h]);
}

template <class Cfg, bool TA, bool TB, bool Vec, class Layout>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocks)
    gemm3xTf32(GemmParams<Layout> p) {
  gemm3xTf32Block<Cfg, TA, TB, Vec, Layout>(p);
}

} // namespace stark_kernels
