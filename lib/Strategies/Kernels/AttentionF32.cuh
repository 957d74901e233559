// AttentionF32.cuh - attention (Attention.cuh's contract) in f32 on CUDA
// cores.
//
// ---- attentionF32: f32 SIMT, any strides ----
//
// Exact f32 arithmetic (fmaf, expf, IEEE division; no TF32). kWarps * 32
// threads form a (kBlockM / kThreadM) x (kBlockN / kThreadN) grid; a thread
// owns kThreadM rows (in groups of 4, spaced 4 kBlockM / kThreadM apart) of
// both the score tile and the output, kThreadN key columns of the score tile
// and kDv' / (kBlockN / kThreadN) columns of O (kDv' = kDv rounded up to
// 4 kBlockN / kThreadN). Q, K (transposed: [d][row]), V ([j][e]) and P
// ([j][i]) live in shared memory so that every inner-loop read is a 16-byte
// vector; copies are 4-byte cp.async with the thread index running along the
// operand's unit-stride dimension (any strides work). K of the next tile is
// copied under the P V product, V of the next tile under the next Q K^T.
// Requirements: kThreadM and kThreadN multiples of 4 dividing kBlockM and
// kBlockN; (kBlockM / kThreadM) (kBlockN / kThreadN) == kWarps * 32;
// kBlockN / kThreadN a power of two <= 32 (the lanes of a row share a warp).
// Any kD, kDv. Shared memory: 4 (kD (kBlockM + 4) + kD (kBlockN + 4) +
// kBlockN (kDv' + 4) + kBlockN (kBlockM + 4)) bytes. Tiles: kBlockM 128,
// kBlockN 64, kWarps 8, kThreadM 8, kThreadN 4 ran at 33 TFLOP/s on an H100
// (B 8, H 16, S 2048, D 128; 170 KB of shared memory, one block an SM);
// kBlockM 64, kBlockN 32, kWarps 4, 4 x 4 (79 KB) at 27.
//
// Expects Prelude.cuh before it.
#pragma once

#include "Attention.cuh"

namespace stark_kernels {

// ---- attentionF32 ----

template <class C> struct AttnF32Shape {
  static constexpr int kThreads = C::kWarps * 32;
  static constexpr int kBM = C::kBlockM, kBN = C::kBlockN;
  static constexpr int kTM = C::kThreadM, kTN = C::kThreadN;
  static constexpr int kRG = kBM / kTM; // row groups
  static constexpr int kCG = kBN / kTN; // column groups (lanes of a row)
  static constexpr int kD = (int)C::kD, kDv = (int)C::kDv;
  static constexpr int kDvp = (kDv + kCG * 4 - 1) / (kCG * 4) * (kCG * 4);
  static constexpr int kTDv = kDvp / kCG; // O columns a thread
  // Row lengths in floats; + 4 keeps 16-byte alignment and staggers the
  // banks of the transposing copies.
  static constexpr int kLdQ = kBM + 4, kLdK = kBN + 4, kLdV = kDvp + 4,
                       kLdP = kBM + 4;
  static constexpr int kQFloats = kD * kLdQ, kKFloats = kD * kLdK,
                       kVFloats = kBN * kLdV, kPFloats = kBN * kLdP;
  static constexpr int kSmemBytes =
      4 * (kQFloats + kKFloats + kVFloats + kPFloats);

  static_assert(AttnSame<typename C::In, float>::value,
                "attentionF32 takes f32 Q, K, V");
  static_assert(kTM % 4 == 0 && kTN % 4 == 0 && kBM % kTM == 0 &&
                    kBN % kTN == 0,
                "attentionF32: thread tiles of 4 x 4 sub-tiles");
  static_assert(kRG * kCG == kThreads,
                "attentionF32: (kBlockM / kThreadM) (kBlockN / kThreadN) "
                "== kWarps * 32");
  static_assert(kCG <= 32 && (kCG & (kCG - 1)) == 0,
                "attentionF32: the lanes of a row are a power of two <= 32");
  static_assert(kD > 0 && kDv > 0, "attentionF32: kD, kDv > 0");
  static_assert(C::kMask >= 0 && C::kMask <= 2, "kMask is 0, 1 or 2");
  static_assert(C::kBatch <= 65535, "kBatch is gridDim.y");
};

template <class C> __host__ __device__ constexpr int attentionF32SharedBytes() {
  return AttnF32Shape<C>::kSmemBytes;
}

// dst[r * LR + c * LC] = src[(r0 + r) * RS + c * CS] for r < ROWS, c < COLS,
// zero where r0 + r >= rows or c >= cols; 4-byte cp.async, consecutive threads
// along the dimension with the smaller global stride (coalesced reads).
template <int ROWS, int COLS, int LR, int LC, int NT, class Idx, Idx RS, Idx CS>
__device__ __forceinline__ void attnCopyTile4(float *dst, const float *src,
                                              Idx r0, Idx rows, Idx cols,
                                              int tid) {
  constexpr Idx ars = RS < 0 ? -RS : RS, acs = CS < 0 ? -CS : CS;
  constexpr bool colFast = acs <= ars;
  constexpr int N = ROWS * COLS, PER = (N + NT - 1) / NT;
  const unsigned base = attnSmemAddr(dst);
#pragma unroll 4
  for (int i = 0; i < PER; ++i) {
    const int x = tid + i * NT;
    if (N % NT != 0 && x >= N)
      break;
    const int r = colFast ? x / COLS : x % ROWS;
    const int c = colFast ? x % COLS : x / ROWS;
    const bool ok = r0 + r < rows && c < cols;
    const float *s = ok ? src + (r0 + r) * RS + (Idx)c * CS : src;
    attnCopy4(base + 4 * (r * LR + c * LC), s, ok);
  }
}

// A thread's rows and columns of the score tile and of O: row(i) =
// (i / 4) 4 RG + 4 ty + i % 4, and columns likewise with 4 CG and tx.
template <class C> struct AttnF32Thread {
  using Sh = AttnF32Shape<C>;
  int ty, tx;
  __device__ __forceinline__ explicit AttnF32Thread(int tid)
      : ty(tid / Sh::kCG), tx(tid % Sh::kCG) {}
  __device__ __forceinline__ int rowOf(int i) const {
    return (i / 4) * (4 * Sh::kRG) + 4 * ty + i % 4;
  }
  __device__ __forceinline__ int colOf(int j) const {
    return (j / 4) * (4 * Sh::kCG) + 4 * tx + j % 4;
  }
};

// acc[i][j] += sum_{x < X} a[x][rowOf(i)] b[x][colOf(j)], with a's rows LDA
// and b's rows LDB floats apart (Q K^T over d, P V over the keys): 16-byte
// reads of four rows or columns at a time.
template <int X, int LDA, int LDB, int TM, int TN, class Thread>
__device__ __forceinline__ void attnF32Product(float (&acc)[TM][TN],
                                               const float *a, const float *b,
                                               const Thread &th) {
#pragma unroll 4
  for (int x = 0; x < X; ++x) {
    float ra[TM], rb[TN];
#pragma unroll
    for (int i = 0; i < TM; i += 4) {
      const float4 r =
          *reinterpret_cast<const float4 *>(a + x * LDA + th.rowOf(i));
      ra[i] = r.x, ra[i + 1] = r.y, ra[i + 2] = r.z, ra[i + 3] = r.w;
    }
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      const float4 r =
          *reinterpret_cast<const float4 *>(b + x * LDB + th.colOf(j));
      rb[j] = r.x, rb[j + 1] = r.y, rb[j + 2] = r.z, rb[j + 3] = r.w;
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TN; ++j)
        acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
  }
}

// The scores of key tile n0: scaled, plus the mask, masked keys -inf (or
// s + -inf).
template <class C>
__device__ __forceinline__ void
attnF32MaskScores(float (&sc)[C::kThreadM][C::kThreadN],
                  const typename C::MaskT *mask, typename C::Idx bo,
                  typename C::Idx hi, typename C::Idx m0, typename C::Idx n0,
                  const AttnF32Thread<C> &th) {
  using Idx = typename C::Idx;
  constexpr int TM = C::kThreadM, TN = C::kThreadN, BN = C::kBlockN;
  constexpr Idx Sq = C::kSq, Sk = C::kSk;
  bool edge = Sk % BN != 0 && n0 + BN > Sk;
  if constexpr (C::kMask == 1)
    edge = edge || n0 + (BN - 1) > m0 + (Idx)C::kCausalOffset;
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const Idx row = m0 + th.rowOf(i);
    Idx lim = Sk - 1; // the last key row `row` sees
    if constexpr (C::kMask == 1) {
      const Idx diag = row + (Idx)C::kCausalOffset;
      lim = diag < lim ? diag : lim;
    }
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const Idx key = n0 + th.colOf(j);
      float x = sc[i][j] * C::kScale;
      if constexpr (C::kMask == 2) {
        constexpr Idx msB = C::kMaskStride[0], msH = C::kMaskStride[1],
                      msR = C::kMaskStride[2], msC = C::kMaskStride[3];
        if (row < Sq && key < Sk)
          x += (float)stark_widen(
              mask[bo * msB + hi * msH + row * msR + key * msC]);
      }
      if (edge && key > lim)
        x = attnMaskScore<C>(x, key < Sk);
      sc[i][j] = x;
    }
  }
}

// Online softmax; the CG lanes of a row are consecutive in the warp. Turns
// sc into the tile's p = exp(s - m) and rescales the accumulator.
template <class C>
__device__ __forceinline__ void
attnF32Softmax(float (&sc)[C::kThreadM][C::kThreadN],
               float (&acc)[C::kThreadM][AttnF32Shape<C>::kTDv],
               float (&mRow)[C::kThreadM], float (&lRow)[C::kThreadM]) {
  constexpr int TM = C::kThreadM, TN = C::kThreadN;
  constexpr int CG = AttnF32Shape<C>::kCG, TDV = AttnF32Shape<C>::kTDv;
  const float kNegInf = negativeInfinity<float>();
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    float mx = kNegInf;
#pragma unroll
    for (int j = 0; j < TN; ++j)
      mx = attnMax(mx, sc[i][j]);
#pragma unroll
    for (int off = CG / 2; off > 0; off /= 2)
      mx = attnMax(mx, __shfl_xor_sync(0xffffffffu, mx, off));
    const float mNew = attnMax(mRow[i], mx);
    // See attentionMma16: an all-masked prefix rescales by 0, not NaN.
    const float mUse = mNew == kNegInf ? 0.f : mNew;
    const float alpha = expf(mRow[i] - mUse);
    mRow[i] = mNew;
    float sum = 0.f;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      sc[i][j] = expf(sc[i][j] - mUse);
      sum += sc[i][j];
    }
    lRow[i] = lRow[i] * alpha + sum;
#pragma unroll
    for (int j = 0; j < TDV; ++j)
      acc[i][j] *= alpha;
  }
}

// O = acc / l (NaN for a row that saw no unmasked key, as the formula).
template <class C>
__device__ __forceinline__ void
attnF32Store(typename C::Out *oB,
             const float (&acc)[C::kThreadM][AttnF32Shape<C>::kTDv],
             const float (&lRow)[C::kThreadM], typename C::Idx m0,
             const AttnF32Thread<C> &th) {
  using Idx = typename C::Idx;
  using Sh = AttnF32Shape<C>;
  constexpr Idx osR = C::kOStride[2], osC = C::kOStride[3];
#pragma unroll
  for (int i = 0; i < C::kThreadM; ++i) {
    float l = lRow[i];
#pragma unroll
    for (int off = Sh::kCG / 2; off > 0; off /= 2)
      l += __shfl_xor_sync(0xffffffffu, l, off);
    const Idx row = m0 + th.rowOf(i);
    if (row >= C::kSq)
      continue;
#pragma unroll
    for (int e = 0; e < Sh::kTDv; ++e) {
      const int col = th.colOf(e);
      if (Sh::kDvp == Sh::kDv || col < Sh::kDv)
        oB[row * osR + (Idx)col * osC] =
            stark_cast<typename C::Out>(acc[i][e] / l);
    }
  }
}

// The kernel body: query block blockIdx.x, batch index blockIdx.y.
template <class C>
__device__ __forceinline__ void
attentionF32(const typename C::In *q, const typename C::In *k,
             const typename C::In *v, const typename C::MaskT *mask,
             typename C::Out *o, const unsigned *full) {
  using Sh = AttnF32Shape<C>;
  using Idx = typename C::Idx;
  constexpr int BM = Sh::kBM, BN = Sh::kBN, NT = Sh::kThreads;
  constexpr int TM = Sh::kTM, TN = Sh::kTN, TDV = Sh::kTDv;
  constexpr int D = Sh::kD, DV = Sh::kDv, DVP = Sh::kDvp;
  constexpr int LDQ = Sh::kLdQ, LDK = Sh::kLdK, LDV = Sh::kLdV, LDP = Sh::kLdP;
  constexpr Idx Sq = C::kSq, Sk = C::kSk;

  extern __shared__ __align__(128) unsigned char stark_smem[];
  float *Qs = reinterpret_cast<float *>(stark_smem); // [d][i]
  float *Ks = Qs + Sh::kQFloats;                     // [d][j]
  float *Vs = Ks + Sh::kKFloats;                     // [j][e]
  float *Ps = Vs + Sh::kVFloats;                     // [j][i]

  const int tid = threadIdx.x;
  const AttnF32Thread<C> th(tid);
  const Idx m0 = attnMBlock<C, Idx>() * BM;
  const Idx bi = blockIdx.y, bo = bi / C::kHeads, hi = bi % C::kHeads;
  constexpr Idx qsB = C::kQStride[0], qsH = C::kQStride[1],
                qsR = C::kQStride[2], qsC = C::kQStride[3];
  constexpr Idx ksB = C::kKStride[0], ksH = C::kKStride[1],
                ksR = C::kKStride[2], ksC = C::kKStride[3];
  constexpr Idx vsB = C::kVStride[0], vsH = C::kVStride[1],
                vsR = C::kVStride[2], vsC = C::kVStride[3];
  constexpr Idx osB = C::kOStride[0], osH = C::kOStride[1];
  const float *kB = k + bo * ksB + hi * ksH;
  const float *vB = v + bo * vsB + hi * vsH;

  auto loadK = [&](Idx n0) {
    attnCopyTile4<BN, D, 1, LDK, NT, Idx, ksR, ksC>(Ks, kB, n0, Sk, (Idx)D,
                                                    tid);
  };
  auto loadV = [&](Idx n0) {
    attnCopyTile4<BN, DVP, LDV, 1, NT, Idx, vsR, vsC>(Vs, vB, n0, Sk, (Idx)DV,
                                                      tid);
  };
  // Groups: {Q, K0}, {V0}, then {K(n + 1)}, {V(n + 1)} per tile. The first
  // key tile is copied before the block knows how many it walks.
  attnCopyTile4<BM, D, 1, LDQ, NT, Idx, qsR, qsC>(Qs, q + bo * qsB + hi * qsH,
                                                  m0, Sq, (Idx)D, tid);
  loadK(0);
  attnCommit();
  loadV(0);
  attnCommit();

  // Whether the block walks every key tile (see Masking in Attention.cuh):
  // the scan's flags, and where the -inf is added this block's Q tile.
  bool fullKeys = attnFullKeys<C>(full, bi);
  if constexpr (C::kMask == 1 && C::kCausalAdds) {
    attnWait<1>();
    __syncthreads();
    // Qs is [d][i]: D rows of BM queries, LDQ apart.
    const bool big = attnScanRows<NT, false, int, BM, LDQ, 1>(
        Qs, 0, D, C::kCausalLimit, tid);
    fullKeys = __syncthreads_or(fullKeys || big) != 0;
  }
  const Idx nEnd = attnKeyEnd<C, Idx>(m0, BM, fullKeys);
  const int nTiles = nEnd > 0 ? (int)((nEnd + BN - 1) / BN) : 0;

  float acc[TM][TDV];
  float mRow[TM], lRow[TM];
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    mRow[i] = negativeInfinity<float>(), lRow[i] = 0.f;
#pragma unroll
    for (int j = 0; j < TDV; ++j)
      acc[i][j] = 0.f;
  }

  for (int it = 0; it < nTiles; ++it) {
    const Idx n0 = (Idx)it * BN;
    attnWait<1>(); // K(it) (and Q) landed; V(it) may still be in flight
    __syncthreads();

    float sc[TM][TN];
    stark_zero(sc);
    attnF32Product<D, LDQ, LDK>(sc, Qs, Ks, th);
    attnF32MaskScores<C>(sc, mask, bo, hi, m0, n0, th);
    attnF32Softmax<C>(sc, acc, mRow, lRow);
    // P transposed, four rows a vector.
#pragma unroll
    for (int i = 0; i < TM; i += 4)
#pragma unroll
      for (int j = 0; j < TN; ++j)
        *reinterpret_cast<float4 *>(Ps + th.colOf(j) * LDP + th.rowOf(i)) =
            make_float4(sc[i][j], sc[i + 1][j], sc[i + 2][j], sc[i + 3][j]);

    attnWait<0>();   // V(it) landed
    __syncthreads(); // P and V(it) visible; every thread is done with K(it)
    if (it + 1 < nTiles) {
      loadK(n0 + BN);
      attnCommit();
    }
    attnF32Product<BN, LDP, LDV>(acc, Ps, Vs, th);
    __syncthreads(); // every thread is done with P and V(it)
    if (it + 1 < nTiles) {
      loadV(n0 + BN);
      attnCommit();
    }
  }
  attnWait<0>();
  attnF32Store<C>(o + bo * osB + hi * osH, acc, lRow, m0, th);
}

} // namespace stark_kernels
