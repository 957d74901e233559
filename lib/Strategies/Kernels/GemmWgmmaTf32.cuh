// GemmWgmmaTf32.cuh - f32-accurate GEMM on Hopper tensor cores: 3xTF32 with
// wgmma (sm_90a).
//
// C[b,m,n] += sum_k A[b,m,k] * B[b,k,n] for f32 A, B and C, with A and B both
// contiguous along k (A row-major M x K, B given as its transpose, N x K: the
// weight of a linear layer) and C contiguous along n. TF32 wgmma reads both
// operands k-major from shared memory, so this is the one orientation it
// takes without a transpose.
//
// A block owns a 128 x 128 tile of C and has three or four warpgroups: one
// or two produce (as warpgroup 0 of GemmWgmma.cuh), the last two each
// multiply 64 rows of the tile. A stage holds three 128 x 32 f32 tiles in
// the 128-byte swizzle (128-byte rows of 32 floats, the 16-byte chunk c of
// row r at c ^ (r % 8)): A, B big and B small. The producers copy A and B
// with 16-byte cp.async, kStages - 2 tiles ahead; each thread waits for its
// own copies of the next tile, splits every B value it copied
// (Tf32Split.cuh: big in place, small beside it), fences for the async
// proxy and arrives on the stage's "full" mbarrier; no thread touches
// another's copies, so no block-wide barrier is needed. A consumer warp
// reads its 16 rows of A with ldmatrix and splits them in registers, then
// issues per k step of 8 the three products small*big, big*small, big*big
// as wgmma.m64n128k8.f32.tf32.tf32 with A from registers and B from shared
// memory.
//
// Accumulation: the tensor cores' own f32 accumulation truncates, which
// biases long sums (Gemm3xTf32.cuh, CHUNKED; without it every LLaMA-sized
// product fails the f32 rule). Each stage's 32 k therefore accumulate from
// zero and are added to the f32 accumulators with ordinary adds once they
// retire; the consumer then releases the stage.
//
// Requirements, checked by the generator: K a multiple of 4 and every row
// of A and B 16-byte aligned (a copy is 4 floats), C rows aligned to two
// floats; M, N and K need not be multiples of the tile (copies past the edges
// read zeros, the epilogue guards its stores).
#pragma once

#include "GemmWgmma.cuh"
#include "Tf32Split.cuh"

namespace stark_kernels {

// B_ROWS_ALONG_K: B is row-major K x N (contiguous along n) instead of
// N x K. The producer then copies its 32 x 128 slice into a fourth tile of
// the stage, row by row, and writes the split transposed.
//
// PRODUCERS_: producer warpgroups (1 or 2). The split of B is the
// producer's longest step: on the H200 a block's 32-deep stage took 2.2 us
// with it and 1.5 us without (bench/results/2026-12-07g-h200/call-1), so a
// second producer warpgroup halves each producer thread's copies and
// splits.
template <int STAGES_, int GROUP_M_ = 8, bool B_ROWS_ALONG_K_ = false,
          int PRODUCERS_ = 1>
struct WgmmaTf32Config {
  static constexpr int kBM = 128, kBN = 128, kBK = 32;
  static constexpr int kStages = STAGES_, kGroupM = GROUP_M_;
  static constexpr bool kBRowsAlongK = B_ROWS_ALONG_K_;
  static_assert(PRODUCERS_ == 1 || PRODUCERS_ == 2,
                "one or two producer warpgroups");
  static constexpr int kProducers = PRODUCERS_, kConsumers = 2;
  static constexpr int kProducerThreads = 128 * kProducers;
  static constexpr int kThreads = kProducerThreads + 128 * kConsumers;
  // One 128 x 32 f32 operand tile; a stage holds A, B big and B small, and
  // B as copied when it is K x N.
  static constexpr int kTileBytes = 128 * 32 * 4;
  static constexpr int kStageBytes = (kBRowsAlongK ? 4 : 3) * kTileBytes;
  // One extra KB to align the ring to the 1024-byte swizzle atom.
  static constexpr int kSmemBytes = kStages * kStageBytes + 1024;
  static_assert(kSmemBytes + 1024 <= 227 * 1024, "the ring fits a block");
  static constexpr int kLookahead = kStages - 2;
  static_assert(kStages >= 3, "the ring needs three stages");
  // Registers after setmaxnreg: the block keeps the 65536 it was launched
  // with (a warpgroup that asks for more than the others gave back waits
  // forever); with 80 (one producer warpgroup) or 56 (two, each with half
  // the copies) neither orientation's producer spills.
  static constexpr bool kMoveRegs = true;
  static constexpr int kProducerRegs = kProducers == 1 ? 80 : 56;
  static constexpr int kConsumerRegs = 200;
  static_assert(kProducerThreads * kProducerRegs + 256 * kConsumerRegs <=
                    65536 / kThreads / 8 * 8 * kThreads,
                "setmaxnreg within the launch's registers");
};

// clang-format off
#define STARK_WGMMA_TF32_D8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
// d (+)= A * B for 64 rows and 128 columns over 8 k, A from registers (the
// warp's 16 rows as in mma.m16n8k8), B from shared memory; d is overwritten
// when `accumulate` is 0.
__device__ __forceinline__ void wgmmaTf32(float (&d)[64], const unsigned (&a)[4],
                                          unsigned long long db,
                                          int accumulate) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
               "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
               "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
               "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63},"
               " {%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
               : STARK_WGMMA_TF32_D8(0), STARK_WGMMA_TF32_D8(8), STARK_WGMMA_TF32_D8(16), STARK_WGMMA_TF32_D8(24),
                 STARK_WGMMA_TF32_D8(32), STARK_WGMMA_TF32_D8(40), STARK_WGMMA_TF32_D8(48), STARK_WGMMA_TF32_D8(56)
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(accumulate));
}
#undef STARK_WGMMA_TF32_D8
// clang-format on

// The producer thread t's share (of NT) of one operand tile: the 16-byte
// chunk t % 8 of rows t / 8 + (NT / 8) i (i < 1024 / NT), from rows of `ld`
// floats starting at row r0 and column k0 of `src`; rows at or past
// `rowEnd` and chunks at or past `kEnd` read zeros.
template <int NT>
__device__ __forceinline__ void
wgmmaTf32CopyTile(unsigned dst, const float *src, long long ld, int r0,
                  int rowEnd, int k0, int kEnd, int t) {
  const int chunk = t % 8, row = t / 8;
  const unsigned at = row * 128 + ((chunk ^ (row % 8)) << 4);
  const bool colOk = k0 + chunk * 4 < kEnd;
#pragma unroll
  for (int i = 0; i < 1024 / NT; ++i) {
    const int r = r0 + row + (NT / 8) * i;
    const bool ok = colOk && r < rowEnd;
    wgmmaCopy16(dst + at + i * (NT / 8) * 128,
                ok ? (const void *)(src + (long long)r * ld + k0 + chunk * 4)
                   : (const void *)src,
                ok);
  }
}

// Splits the chunks wgmmaTf32CopyTile copied for thread t: big in place,
// small kTileBytes after it.
template <class Cfg>
__device__ __forceinline__ void wgmmaTf32SplitTile(unsigned char *tile, int t) {
  constexpr int NT = Cfg::kProducerThreads;
  const int chunk = t % 8, row = t / 8;
  const unsigned at = row * 128 + ((chunk ^ (row % 8)) << 4);
#pragma unroll
  for (int i = 0; i < 1024 / NT; ++i) {
    unsigned char *big = tile + at + i * (NT / 8) * 128;
    float4 v = *reinterpret_cast<float4 *>(big);
    uint4 hi, lo;
    splitTf32<false>(v.x, hi.x, lo.x);
    splitTf32<false>(v.y, hi.y, lo.y);
    splitTf32<false>(v.z, hi.z, lo.z);
    splitTf32<false>(v.w, hi.w, lo.w);
    *reinterpret_cast<uint4 *>(big) = hi;
    *reinterpret_cast<uint4 *>(big + Cfg::kTileBytes) = lo;
  }
}

// The producer thread t's share (of NT) of a K x N slice of B (32 rows of
// k, 128 columns of n from n0): the 16-byte chunk t % 32 of rows t / 32 +
// (NT / 32) i (i < 1024 / NT), a warp a whole 512-byte row, into `dst` with
// the chunks of row k permuted by k % 32 (so that wgmmaTf32SplitRows reads
// without bank conflicts). Rows at or past kEnd and chunks at or past nEnd
// read zeros.
template <int NT>
__device__ __forceinline__ void
wgmmaTf32CopyRows(unsigned dst, const float *src, long long ld, int k0,
                  int kEnd, int n0, int nEnd, int t) {
  const int chunk = t % 32, row = t / 32;
  const bool colOk = n0 + chunk * 4 < nEnd;
#pragma unroll
  for (int i = 0; i < 1024 / NT; ++i) {
    const int k = row + (NT / 32) * i;
    const bool ok = colOk && k0 + k < kEnd;
    wgmmaCopy16(
        dst + k * 512 + ((chunk ^ k) << 4),
        ok ? (const void *)(src + (long long)(k0 + k) * ld + n0 + chunk * 4)
           : (const void *)src,
        ok);
  }
}

// Splits the K x N slice wgmmaTf32CopyRows copied (every producer thread's
// copies have landed) into the big and small tiles, k-major in the 128-byte
// swizzle: thread t takes k = t % 32 and the chunks (1024 / NT) (t / 32) + i,
// so that a warp's reads and its four stores per chunk each hit 32 banks.
template <class Cfg>
__device__ __forceinline__ void wgmmaTf32SplitRows(const unsigned char *rows,
                                                   unsigned char *big, int t) {
  constexpr int PER = 1024 / Cfg::kProducerThreads;
  const int k = t % 32;
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    const int chunk = (t / 32) * PER + i;
    float4 v =
        *reinterpret_cast<const float4 *>(rows + k * 512 + ((chunk ^ k) << 4));
    const float x[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int n = chunk * 4 + j;
      unsigned hi, lo;
      splitTf32<false>(x[j], hi, lo);
      const unsigned at = n * 128 + (((k / 4) ^ (n % 8)) << 4) + (k % 4) * 4;
      *reinterpret_cast<unsigned *>(big + at) = hi;
      *reinterpret_cast<unsigned *>(big + at + Cfg::kTileBytes) = lo;
    }
  }
}

// Warpgroup 0: copies the A and B slices of every k tile and splits B,
// waiting for each stage to be released before refilling it.
template <class Cfg>
__device__ __forceinline__ void
wgmmaTf32Produce(const WgmmaArgs<float, float> &p, const WgmmaTile &tile,
                 unsigned char *ring, int t) {
  constexpr int ST = Cfg::kStages, BK = Cfg::kBK, D = Cfg::kLookahead;
  constexpr int TB = Cfg::kTileBytes;
  const float *a = p.A + tile.batch * p.batchA;
  const float *b = p.B + tile.batch * p.batchB;
  const unsigned ringAddr = wgmmaSmemAddr(ring);
  auto issue = [&](int kt) {
    const int s = kt % ST;
    if (kt >= ST)
      wgmmaBarWait(wgmmaSmemAddr(&tile.emptyBar[s]), ((kt / ST) - 1) & 1);
    const unsigned stage = ringAddr + s * Cfg::kStageBytes;
    const int k0 = tile.k0 + kt * BK;
    constexpr int NT = Cfg::kProducerThreads;
    wgmmaTf32CopyTile<NT>(stage, a, p.lda, tile.m0, p.M, k0, p.K, t);
    if constexpr (Cfg::kBRowsAlongK)
      wgmmaTf32CopyRows<NT>(stage + 3 * TB, b, p.ldb, k0, p.K, tile.n0, p.N, t);
    else
      wgmmaTf32CopyTile<NT>(stage + TB, b, p.ldb, tile.n0, p.N, k0, p.K, t);
    asm volatile("cp.async.commit_group;\n" ::: "memory");
  };
  for (int kt = 0; kt < D && kt < tile.kTiles; ++kt)
    issue(kt);
  for (int kt = 0; kt < tile.kTiles; ++kt) {
    if (kt + D < tile.kTiles) {
      issue(kt + D);
      asm volatile("cp.async.wait_group %0;\n" ::"n"(D) : "memory");
    } else {
      asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    }
    unsigned char *stage = ring + (kt % ST) * Cfg::kStageBytes;
    if constexpr (Cfg::kBRowsAlongK) {
      // Every producer thread's copies of the slice have landed. Threads
      // are at most one slice apart after this barrier, and the next copy
      // goes D < ST - 1 stages ahead: none lands where a thread still reads.
      asm volatile("bar.sync 1, %0;\n" ::"n"(Cfg::kProducerThreads) : "memory");
      wgmmaTf32SplitRows<Cfg>(stage + 3 * TB, stage + TB, t);
    } else {
      wgmmaTf32SplitTile<Cfg>(stage + TB, t);
    }
    // The split wrote through the generic proxy, the copies of A landed
    // through cp.async; wgmma reads through the async proxy.
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    wgmmaBarArrive(wgmmaSmemAddr(&tile.fullBar[kt % ST]));
  }
}

// The big and small parts of a consumer warp's A fragments for the four k
// steps of a stage, read with ldmatrix from the swizzled A tile: matrices
// (rows 0-7, k 0-3), (8-15, 0-3), (0-7, 4-7), (8-15, 4-7) of the warp's 16
// rows give the fragment of mma.m16n8k8 (lane 4 g + t: rows g and g + 8,
// k t and t + 4).
__device__ __forceinline__ void wgmmaTf32LoadA(unsigned aTile, int row0,
                                               int lane, unsigned (&big)[4][4],
                                               unsigned (&small)[4][4]) {
  const int q = lane >> 3;
  const int row = row0 + (q & 1) * 8 + (lane & 7);
#pragma unroll
  for (int ks = 0; ks < 4; ++ks) {
    const int chunk = 2 * ks + (q >> 1);
    unsigned r[4];
    asm volatile(
        "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
        : "r"(aTile + row * 128 + ((chunk ^ (row % 8)) << 4)));
#pragma unroll
    for (int j = 0; j < 4; ++j)
      splitTf32<false>(__uint_as_float(r[j]), big[ks][j], small[ks][j]);
  }
}

// The A fragments of stage kt, ready before any wgmma reads them: a
// register that changes between the wgmmas reading it would make ptxas fence
// each one.
template <class Cfg>
__device__ __forceinline__ void
wgmmaTf32StageA(const WgmmaTile &tile, unsigned ringAddr, int row0, int lane,
                int kt, unsigned (&big)[4][4], unsigned (&small)[4][4]) {
  constexpr int ST = Cfg::kStages;
  const int s = kt % ST;
  wgmmaBarWait(wgmmaSmemAddr(&tile.fullBar[s]), (kt / ST) & 1);
  wgmmaTf32LoadA(ringAddr + s * Cfg::kStageBytes, row0, lane, big, small);
#pragma unroll
  for (int ks = 0; ks < 4; ++ks)
#pragma unroll
    for (int j = 0; j < 4; ++j)
      asm volatile("" : "+r"(big[ks][j]), "+r"(small[ks][j])::"memory");
}

// One consumer stage: its 12 wgmmas from zero into `part` with the A
// fragments `big` and `small`, retired. Measured on the H100 and dropped:
// reading the next stage's fragments while these wgmmas run (slower, 303
// against 288 us at 512 x 5632 x 2048), and the two consumer warpgroups
// taking turns to issue their wgmmas through named barriers (within 3%
// either way).
template <class Cfg>
__device__ __forceinline__ void
wgmmaTf32Stage(unsigned stage, const unsigned (&big)[4][4],
               const unsigned (&small)[4][4], float (&part)[64]) {
  constexpr int TB = Cfg::kTileBytes;
  wgmmaKeep(part);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int ks = 0; ks < Cfg::kBK / 8; ++ks) {
    const unsigned bBig = stage + TB + ks * 32;
    const unsigned long long bB = wgmmaDesc(bBig, 16, 1024),
                             bS = wgmmaDesc(bBig + TB, 16, 1024);
    // The small terms first, while the sum is small.
    wgmmaTf32(part, small[ks], bB, ks == 0 ? 0 : 1);
    wgmmaTf32(part, big[ks], bS, 1);
    wgmmaTf32(part, big[ks], bB, 1);
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  wgmmaKeep(part);
}

// Warpgroups 1 and 2: acc = the sums of their 64 rows of the tile. Each
// stage's 32 k accumulate from zero in `part` (the tensor cores' truncating
// accumulation runs over 32 products only) and are added to acc with f32
// adds once they retire.
template <class Cfg>
__device__ __forceinline__ void wgmmaTf32Consume(const WgmmaTile &tile,
                                                 unsigned ringAddr, int wg,
                                                 int t, float (&acc)[64]) {
  constexpr int ST = Cfg::kStages;
  const int row0 = (wg - 1) * 64 + (t / 32) * 16, lane = t % 32;
  float part[64];
#pragma unroll
  for (int i = 0; i < 64; ++i)
    acc[i] = part[i] = 0.f;
  for (int kt = 0; kt < tile.kTiles; ++kt) {
    unsigned big[4][4], small[4][4];
    wgmmaTf32StageA<Cfg>(tile, ringAddr, row0, lane, kt, big, small);
    wgmmaTf32Stage<Cfg>(ringAddr + (kt % ST) * Cfg::kStageBytes, big, small,
                        part);
    wgmmaBarArrive(wgmmaSmemAddr(&tile.emptyBar[kt % ST]));
#pragma unroll
    for (int i = 0; i < 64; ++i)
      acc[i] += part[i];
  }
}

// The block's work; the caller launches Cfg::kThreads threads with
// Cfg::kSmemBytes of dynamic shared memory, grid (tiles, splits * batch),
// under __launch_bounds__(Cfg::kThreads, 1). p.ldb and p.batchB are B's
// strides as N x K (a row per column of C). With p.splits > 1 the block
// writes its slice's partial sums to p.ws, and wgmmaSplitKReduce stores
// them.
template <class Cfg, class Store = WgmmaAddToC>
__device__ __forceinline__ void
gemmWgmmaTf32Block(const WgmmaArgs<float, float> &p,
                   const Store &out = Store()) {
  constexpr int ST = Cfg::kStages;
  extern __shared__ __align__(1024) unsigned char wgmma_smem[];
  __shared__ __align__(8) unsigned long long fullBar[ST], emptyBar[ST];

  unsigned char *ring =
      wgmma_smem + ((1024 - wgmmaSmemAddr(wgmma_smem) % 1024) % 1024);
  WgmmaTile tile;
  tile.aRing = tile.bRing = wgmmaSmemAddr(ring);
  wgmmaPlaceTile<Cfg, Cfg::kProducerThreads>(p, tile, fullBar, emptyBar);
  wgmmaTakeSplit<Cfg>(p, tile);

  if (threadIdx.x < Cfg::kProducerThreads) {
    wgmmaProducerRegs<Cfg>();
    wgmmaTf32Produce<Cfg>(p, tile, ring, threadIdx.x);
  } else {
    wgmmaConsumerRegs<Cfg>();
    // Consumer warpgroups are numbered 1 and 2 after the producers.
    const int wg = (threadIdx.x - Cfg::kProducerThreads) / 128 + 1,
              t = threadIdx.x % 128;
    float acc[64];
    wgmmaTf32Consume<Cfg>(tile, tile.aRing, wg, t, acc);
    if (p.splits > 1)
      wgmmaStoreSums<Cfg>(p, tile, wg, t, acc, wgmmaWorkspaceOf(p));
    else
      wgmmaStoreSums<Cfg>(p, tile, wg, t, acc, out);
  }
}

#ifndef __CUDACC_RTC__
template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemmWgmmaTf32(const WgmmaArgs<float, float> p) {
  gemmWgmmaTf32Block<Cfg>(p);
}
#endif

} // namespace stark_kernels
