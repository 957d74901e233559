// GemmWgmma.cuh - f16/bf16 GEMM on Hopper tensor cores (wgmma, sm_90a).
//
// C[b,m,n] += sum_k A[b,m,k] * B[b,k,n] with A k-contiguous (row-major M x K),
// B n-contiguous (row-major K x N), C n-contiguous, f32 accumulation. A block
// owns a BM x BN tile of C (BM 128, or 64 with TMA loads) and has a
// producer warpgroup and BM / 64 consumers: warpgroup 0 copies BM x 64
// slices of A and 64 x BN slices of B into a STAGES-deep ring of
// shared-memory stages, warpgroups 1 (and 2) each multiply 64 rows of the
// tile with wgmma.m64nBNk16 straight out of shared memory.
//
// The copies are 16-byte cp.async (zero-filled past the edges of M, N and K)
// rather than the bulk tensor copy engine: a tensor map has to be encoded on
// the host per operand, and the candidate calling convention passes only the
// operands' pointers. Each producer thread hands its copies of a stage to the
// stage's "full" mbarrier (cp.async.mbarrier.arrive.noinc), so no thread
// waits for its own copies; the consumers release a stage on its "empty"
// mbarrier once the wgmma that read it has retired.
//
// Shared-memory layout is the 128-byte swizzle wgmma reads: A as 128 rows of
// 64 k (128 bytes a row, the 16-byte chunk c of row r stored at c ^ (r % 8)),
// B as BN / 64 panels of 64 k rows x 64 n (same swizzle per k row), read as an
// MN-major operand (wgmma's transpose bit for B). Requirements, checked by
// the generator: K and N multiples of 8 and every row of A, B and C 16-byte
// aligned; M, N, K need not be multiples of the tile.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace stark_kernels {

// Measurement switches (bench/kernels/wgmma_bench.cu), 0 in generated code.
enum WgmmaProbe {
  kProbeSwapB = 1,   // swap the two strides of B's descriptor (must fail)
  kProbeNoMath = 2,  // consumers skip the wgmma: copy throughput
  kProbeNoCopy = 4,  // the producer skips the copies: math throughput
  kProbeNoFence = 8, // no proxy fence before the wgmma
  kProbeWait0 = 16,  // retire each stage's wgmma before the next one
};

// BM_ 64 (one consumer warpgroup, 256 threads) for the TMA producer only:
// at few tiles a 64 x 128 tile keeps m64n128 instructions where a 128 x 64
// one needs m64n64, which read more shared memory per product.
template <int BN_, int STAGES_, int GROUP_M_ = 8, int PROBE_ = 0, int BM_ = 128>
struct WgmmaConfig {
  // 64 and 192 for the TMA producer (GemmWgmmaTma.cuh) only: the cp.async
  // producer below spreads a k row of B over 128 / (BN / 8) threads.
  static_assert(BN_ == 64 || BN_ == 128 || BN_ == 192 || BN_ == 256,
                "wgmma tile width is 64, 128, 192 or 256");
  static_assert(BM_ == 64 || BM_ == 128, "wgmma tile height is 64 or 128");
  static constexpr int kBM = BM_, kBN = BN_, kBK = 64;
  static constexpr int kStages = STAGES_, kGroupM = GROUP_M_;
  static constexpr int kConsumers = BM_ / 64; // warpgroups of 64 rows
  static constexpr int kThreads = 128 * (1 + kConsumers);
  static constexpr int kAStageBytes = kBM * kBK * 2;
  static constexpr int kBStageBytes = kBK * kBN * 2;
  // One extra KB to align the ring to the 1024-byte swizzle atom.
  static constexpr int kSmemBytes =
      kStages * (kAStageBytes + kBStageBytes) + 1024;
  // Registers after setmaxnreg: producers give theirs to the consumers.
  // With one consumer warpgroup every thread has 255 to begin with, and
  // nothing is moved.
  static constexpr bool kMoveRegs = kConsumers == 2;
  static constexpr int kProducerRegs = 56;
  static constexpr int kConsumerRegs = 224;
  static constexpr int kProbe = PROBE_;
  static constexpr bool kSwapB = PROBE_ & kProbeSwapB;
};

// The producer warpgroup gives up registers, the consumers take them.
template <class Cfg> __device__ __forceinline__ void wgmmaProducerRegs() {
  if constexpr (Cfg::kMoveRegs)
    asm volatile(
        "setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Cfg::kProducerRegs));
}
template <class Cfg> __device__ __forceinline__ void wgmmaConsumerRegs() {
  if constexpr (Cfg::kMoveRegs)
    asm volatile(
        "setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Cfg::kConsumerRegs));
}

template <class TIn, class TC> struct WgmmaArgs {
  const TIn *A;
  const TIn *B;
  TC *C;
  int M, N, K;
  long long lda, ldb, ldc;          // row strides (elements)
  long long batchA, batchB, batchC; // batch strides (elements)
  // The batches of C (read by split-K and by the TMA kernels' tile order).
  int batches = 1;
  // Split-K (kernels that take it): grid.y is splits * batches, block y
  // sums the kTilesPerSplit k tiles of slice y / batches of batch
  // y % batches into ws ([slice][batch][m][n]), and a second launch adds
  // the slices in order (wgmmaSplitKReduce).
  float *ws = nullptr;
  int splits = 1, kTilesPerSplit = 0;
};

// What the consumers do with each pair of finished sums (columns col and
// col + 1 of row `row` in batch b): by default add them to C in place.
// A generated store (a fill's value, an epilogue of element-wise ops) is
// a struct with `static constexpr bool kStore = true` and
// `store(b, row, col, x)`, called once per element within M and N.
struct WgmmaAddToC {
  static constexpr bool kStore = false;
};

template <class T> struct WgmmaIsBf16 { static constexpr bool value = false; };
template <> struct WgmmaIsBf16<__nv_bfloat16> {
  static constexpr bool value = true;
};

// Two adjacent C elements, read and written as one access.
__device__ __forceinline__ void wgmmaAddPair(float *p, float x, float y) {
  float2 v = *reinterpret_cast<float2 *>(p);
  v.x += x;
  v.y += y;
  *reinterpret_cast<float2 *>(p) = v;
}
__device__ __forceinline__ void wgmmaAddPair(__nv_bfloat16 *p, float x,
                                             float y) {
  __nv_bfloat162 v = *reinterpret_cast<__nv_bfloat162 *>(p);
  float2 f = __bfloat1622float2(v);
  *reinterpret_cast<__nv_bfloat162 *>(p) =
      __floats2bfloat162_rn(f.x + x, f.y + y);
}
__device__ __forceinline__ void wgmmaAddPair(__half *p, float x, float y) {
  __half2 v = *reinterpret_cast<__half2 *>(p);
  float2 f = __half22float2(v);
  *reinterpret_cast<__half2 *>(p) = __floats2half2_rn(f.x + x, f.y + y);
}

__device__ __forceinline__ unsigned wgmmaSmemAddr(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}

// Shared-memory matrix descriptor with the 128-byte swizzle.
__device__ __forceinline__ unsigned long long
wgmmaDesc(unsigned addr, unsigned leadBytes, unsigned strideBytes) {
  return (unsigned long long)((addr & 0x3FFFF) >> 4) |
         ((unsigned long long)((leadBytes & 0x3FFFF) >> 4) << 16) |
         ((unsigned long long)((strideBytes & 0x3FFFF) >> 4) << 32) |
         (1ull << 62);
}

__device__ __forceinline__ void wgmmaBarInit(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar),
               "r"(count));
}
__device__ __forceinline__ void wgmmaBarWait(unsigned bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile("{\n.reg .pred p;\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
  } while (!done);
}
__device__ __forceinline__ void wgmmaBarArrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar)
               : "memory");
}
// The barrier counts this thread's arrival once all its earlier cp.async
// copies have landed.
__device__ __forceinline__ void wgmmaBarArriveCopies(unsigned bar) {
  asm volatile(
      "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(bar)
      : "memory");
}
__device__ __forceinline__ void wgmmaCopy16(unsigned dst, const void *src,
                                            bool full) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst),
               "l"(src), "r"(full ? 16 : 0)
               : "memory");
}

template <int N> __device__ __forceinline__ void wgmmaKeep(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i)
    asm volatile("" : "+f"(d[i])::"memory");
}

// clang-format off
// The two element types differ only in the instruction's name.
#define STARK_WGMMA_D8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define STARK_WGMMA_REGS_0_63 \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15," \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31," \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47," \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define STARK_WGMMA_D32(i) STARK_WGMMA_D8(i), STARK_WGMMA_D8(i + 8), STARK_WGMMA_D8(i + 16), STARK_WGMMA_D8(i + 24)
#define STARK_WGMMA_REGS_64_95 \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79," \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define STARK_WGMMA_REGS_96_127 \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111," \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
// The instruction of width N with its accumulator registers REGS, followed
// by the operand numbers of the two descriptors.
#define STARK_WGMMA_ASM(TY, N, REGS, DA, DB) \
  "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n" \
  "wgmma.mma_async.sync.aligned.m64n" #N "k16.f32." TY "." TY " " \
  "{" REGS "}, " DA ", " DB ", p, 1, 1, 0, 1;\n}\n"
#define STARK_WGMMA_M64N64K16(TY) \
  asm volatile(STARK_WGMMA_ASM(TY, 64, \
               "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15," \
               "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31", "%32", "%33") \
               : STARK_WGMMA_D32(0) : "l"(da), "l"(db))
#define STARK_WGMMA_M64N128K16(TY) \
  asm volatile(STARK_WGMMA_ASM(TY, 128, STARK_WGMMA_REGS_0_63, "%64", "%65") \
               : STARK_WGMMA_D32(0), STARK_WGMMA_D32(32) : "l"(da), "l"(db))
#define STARK_WGMMA_M64N192K16(TY) \
  asm volatile(STARK_WGMMA_ASM(TY, 192, STARK_WGMMA_REGS_0_63 "," STARK_WGMMA_REGS_64_95, "%96", "%97") \
               : STARK_WGMMA_D32(0), STARK_WGMMA_D32(32), STARK_WGMMA_D32(64) : "l"(da), "l"(db))
#define STARK_WGMMA_M64N256K16(TY) \
  asm volatile(STARK_WGMMA_ASM(TY, 256, STARK_WGMMA_REGS_0_63 "," STARK_WGMMA_REGS_64_95 "," STARK_WGMMA_REGS_96_127, "%128", "%129") \
               : STARK_WGMMA_D32(0), STARK_WGMMA_D32(32), STARK_WGMMA_D32(64), STARK_WGMMA_D32(96) : "l"(da), "l"(db))

// One m64nBNk16 wgmma of the element type TIn.
template <class TIn, int BN>
__device__ __forceinline__ void wgmmaIssue(float (&d)[BN / 2], unsigned long long da, unsigned long long db) {
  constexpr bool bf16 = WgmmaIsBf16<TIn>::value;
  if constexpr (BN == 64 && bf16)
    STARK_WGMMA_M64N64K16("bf16");
  else if constexpr (BN == 64)
    STARK_WGMMA_M64N64K16("f16");
  else if constexpr (BN == 128 && bf16)
    STARK_WGMMA_M64N128K16("bf16");
  else if constexpr (BN == 128)
    STARK_WGMMA_M64N128K16("f16");
  else if constexpr (BN == 192 && bf16)
    STARK_WGMMA_M64N192K16("bf16");
  else if constexpr (BN == 192)
    STARK_WGMMA_M64N192K16("f16");
  else if constexpr (bf16)
    STARK_WGMMA_M64N256K16("bf16");
  else
    STARK_WGMMA_M64N256K16("f16");
}
#undef STARK_WGMMA_M64N64K16
#undef STARK_WGMMA_M64N128K16
#undef STARK_WGMMA_M64N192K16
#undef STARK_WGMMA_M64N256K16
#undef STARK_WGMMA_ASM
#undef STARK_WGMMA_D32
#undef STARK_WGMMA_D8
#undef STARK_WGMMA_REGS_0_63
#undef STARK_WGMMA_REGS_64_95
#undef STARK_WGMMA_REGS_96_127
// clang-format on

// Where a block's tile lies and where its shared-memory ring is.
struct WgmmaTile {
  int m0, n0, kTiles, batch;
  int k0 = 0;            // the first k of the block's slice
  unsigned aRing, bRing; // shared-memory addresses of the two rings
  unsigned long long *fullBar, *emptyBar;
};

// Warpgroup 0: copies the A and B slices of every k tile into the ring,
// waiting for each stage to be released before refilling it.
template <class Cfg, class TIn, class TC>
__device__ __forceinline__ void wgmmaProduce(const WgmmaArgs<TIn, TC> &p,
                                             const WgmmaTile &tile, int t) {
  constexpr int BM = Cfg::kBM, BN = Cfg::kBN, BK = Cfg::kBK;
  constexpr int ST = Cfg::kStages;
  const int m0 = tile.m0, n0 = tile.n0;
  // A: 8 chunks of 16 bytes per 64-k row, 16 rows per pass of 128
  // threads; the swizzle phase (row % 8) is the same on every pass.
  const int aChunk = t % 8, aRow = t / 8;
  const TIn *aSrc =
      p.A + tile.batch * p.batchA + (long long)(m0 + aRow) * p.lda + aChunk * 8;
  const unsigned aDst = aRow * 128 + ((aChunk ^ (aRow % 8)) << 4);
  // B: BN / 8 chunks per k row, 128 * 8 / BN rows per pass.
  constexpr int bChunks = BN / 8, bRowsPerPass = 128 / bChunks;
  static_assert(128 % bChunks == 0 && BK % bRowsPerPass == 0,
                "the cp.async producer takes BN 64, 128 or 256");
  const int bc = t % bChunks, bRow = t / bChunks;
  const TIn *bSrc =
      p.B + tile.batch * p.batchB + (long long)bRow * p.ldb + n0 + bc * 8;
  const unsigned bDst = (bc / 8) * (64 * 128) + bRow * 128;
  const bool bColOk = n0 + bc * 8 < p.N;
  for (int kt = 0; kt < tile.kTiles; ++kt) {
    const int s = kt % ST;
    if (kt >= ST)
      wgmmaBarWait(wgmmaSmemAddr(&tile.emptyBar[s]), ((kt / ST) - 1) & 1);
    if constexpr ((Cfg::kProbe & kProbeNoCopy) != 0) {
      wgmmaBarArrive(wgmmaSmemAddr(&tile.fullBar[s]));
      continue;
    }
    const int k0 = kt * BK;
    const bool aColOk = k0 + aChunk * 8 < p.K;
    const unsigned aStage = tile.aRing + s * Cfg::kAStageBytes;
#pragma unroll
    for (int i = 0; i < BM / 16; ++i) {
      const bool ok = aColOk && m0 + aRow + 16 * i < p.M;
      wgmmaCopy16(aStage + aDst + i * 16 * 128,
                  ok ? (const void *)(aSrc + (long long)16 * i * p.lda + k0)
                     : (const void *)p.A,
                  ok);
    }
    const unsigned bStage = tile.bRing + s * Cfg::kBStageBytes;
#pragma unroll
    for (int i = 0; i < BK / bRowsPerPass; ++i) {
      const int k = bRow + bRowsPerPass * i;
      const bool ok = bColOk && k0 + k < p.K;
      wgmmaCopy16(
          bStage + bDst + i * bRowsPerPass * 128 + (((bc % 8) ^ (k % 8)) << 4),
          ok ? (const void *)(bSrc + (long long)(k0 + bRowsPerPass * i) * p.ldb)
             : (const void *)p.B,
          ok);
    }
    wgmmaBarArriveCopies(wgmmaSmemAddr(&tile.fullBar[s]));
  }
  asm volatile("cp.async.wait_all;\n" ::: "memory");
}

// Warpgroups 1 and 2: d = the sums of their 64 rows of the tile over every
// k tile, releasing each stage once the wgmma that read it has retired.
// `it0` counts the k tiles the block's ring has held before this tile (a
// persistent block runs several tiles through one ring); the last stage is
// released only when another tile follows (`releaseLast`).
template <class Cfg, class TIn>
__device__ __forceinline__ void
wgmmaConsume(const WgmmaTile &tile, int wg, float (&d)[Cfg::kBN / 2],
             int it0 = 0, bool releaseLast = false) {
  constexpr int BN = Cfg::kBN, BK = Cfg::kBK, ST = Cfg::kStages;
#pragma unroll
  for (int i = 0; i < BN / 2; ++i)
    d[i] = 0.f;
  const unsigned aOff = (wg - 1) * 64 * 128;
  constexpr unsigned bLead = Cfg::kSwapB ? 1024 : 64 * 128;
  constexpr unsigned bStride = Cfg::kSwapB ? 64 * 128 : 1024;
  for (int kt = 0; kt < tile.kTiles; ++kt) {
    const int it = it0 + kt, s = it % ST;
    wgmmaBarWait(wgmmaSmemAddr(&tile.fullBar[s]), (it / ST) & 1);
    // cp.async wrote the stage through the generic proxy; wgmma reads it
    // through the async proxy.
    if constexpr ((Cfg::kProbe & kProbeNoFence) == 0)
      asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    if constexpr ((Cfg::kProbe & kProbeNoMath) != 0) {
      wgmmaBarArrive(wgmmaSmemAddr(&tile.emptyBar[s]));
      continue;
    }
    wgmmaKeep(d);
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    const unsigned aStage = tile.aRing + s * Cfg::kAStageBytes + aOff;
    const unsigned bStage = tile.bRing + s * Cfg::kBStageBytes;
#pragma unroll
    for (int ks = 0; ks < BK / 16; ++ks)
      wgmmaIssue<TIn, BN>(d, wgmmaDesc(aStage + ks * 32, 16, 1024),
                          wgmmaDesc(bStage + ks * 2048, bLead, bStride));
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    if constexpr ((Cfg::kProbe & kProbeWait0) != 0) {
      asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
      wgmmaKeep(d);
      wgmmaBarArrive(wgmmaSmemAddr(&tile.emptyBar[s]));
      continue;
    }
    // Keep one group in flight; the one before it has read its stage.
    asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
    wgmmaKeep(d);
    if (kt > 0)
      wgmmaBarArrive(wgmmaSmemAddr(&tile.emptyBar[(it - 1) % ST]));
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  wgmmaKeep(d);
  if (releaseLast && tile.kTiles > 0)
    wgmmaBarArrive(wgmmaSmemAddr(&tile.emptyBar[(it0 + tile.kTiles - 1) % ST]));
}

// A consumer warpgroup's sums to C (added, or through the generated store).
template <class Cfg, class TIn, class TC, class Store>
__device__ __forceinline__ void
wgmmaStoreSums(const WgmmaArgs<TIn, TC> &p, const WgmmaTile &tile, int wg,
               int t, const float (&d)[Cfg::kBN / 2], const Store &out) {
  // Accumulator layout of m64nBNk16: warp w holds rows 16w..16w+15, lane l
  // rows l/4 and l/4 + 8, columns 8j + 2(l%4) and the one after.
  const int warp = t / 32, lane = t % 32;
  const int row0 = tile.m0 + (wg - 1) * 64 + warp * 16 + lane / 4;
  [[maybe_unused]] TC *c = p.C + tile.batch * p.batchC;
#pragma unroll
  for (int j = 0; j < Cfg::kBN / 8; ++j) {
    const int col = tile.n0 + j * 8 + (lane % 4) * 2;
    if (col >= p.N)
      continue;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int row = row0 + 8 * h;
      if (row >= p.M)
        continue;
      // col is even; n may be odd (the 3xTF32 kernel's B is N x K).
      const bool pair = col + 1 < p.N;
      if constexpr (Store::kStore) {
        out.store(tile.batch, row, col, d[4 * j + 2 * h]);
        if (pair)
          out.store(tile.batch, row, col + 1, d[4 * j + 2 * h + 1]);
      } else if (pair) {
        wgmmaAddPair(c + (long long)row * p.ldc + col, d[4 * j + 2 * h],
                     d[4 * j + 2 * h + 1]);
      } else {
        TC *e = c + (long long)row * p.ldc + col;
        *e = TC(float(*e) + d[4 * j + 2 * h]);
      }
    }
  }
}

// Tile `pid` of batch `batch` of C: tiles in groups of Cfg::kGroupM rows, so
// that neighbouring blocks share their slices of A and B in L2.
template <class Cfg, class Args>
__device__ __forceinline__ void wgmmaTileAt(const Args &p, WgmmaTile &tile,
                                            int pid, int batch) {
  constexpr int BM = Cfg::kBM, BN = Cfg::kBN, BK = Cfg::kBK;
  const int tilesM = (p.M + BM - 1) / BM, tilesN = (p.N + BN - 1) / BN;
  const int groupWidth = Cfg::kGroupM * tilesN;
  const int firstM = (pid / groupWidth) * Cfg::kGroupM;
  const int groupRows = min(tilesM - firstM, Cfg::kGroupM);
  tile.m0 = (firstM + (pid % groupWidth) % groupRows) * BM;
  tile.n0 = ((pid % groupWidth) / groupRows) * BN;
  tile.kTiles = (p.K + BK - 1) / BK;
  tile.batch = batch;
}

// The block's tile of C (wgmmaTileAt of blockIdx.x, blockIdx.y) and its ring's
// mbarriers: a stage is full once FULL_ARRIVALS producer threads have
// arrived (the producer warpgroup's 128 with cp.async, one with TMA), empty
// once every consumer warpgroup's 128 threads have. Ends with __syncthreads.
template <class Cfg, unsigned FULL_ARRIVALS = 128, class Args>
__device__ __forceinline__ void wgmmaPlaceTile(const Args &p, WgmmaTile &tile,
                                               unsigned long long *fullBar,
                                               unsigned long long *emptyBar) {
  tile.fullBar = fullBar;
  tile.emptyBar = emptyBar;
  wgmmaTileAt<Cfg>(p, tile, blockIdx.x, blockIdx.y);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < Cfg::kStages; ++s) {
      wgmmaBarInit(wgmmaSmemAddr(&fullBar[s]), FULL_ARRIVALS);
      wgmmaBarInit(wgmmaSmemAddr(&emptyBar[s]), Cfg::kConsumers * 128);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
}

// Narrows the tile to its block's slice of k when p splits k (blockIdx.y
// is slice * batches + batch); every slice has at least one k tile.
template <class Cfg, class Args>
__device__ __forceinline__ void wgmmaTakeSplit(const Args &p, WgmmaTile &tile) {
  if (p.splits <= 1)
    return;
  const int first = (blockIdx.y / p.batches) * p.kTilesPerSplit;
  tile.batch = blockIdx.y % p.batches;
  tile.k0 = first * Cfg::kBK;
  tile.kTiles = min(p.kTilesPerSplit, tile.kTiles - first);
}

// The store of a slice's partial sums into the split-K workspace.
struct WgmmaToWorkspace {
  static constexpr bool kStore = true;
  float *ws;
  int M, N;
  __device__ __forceinline__ void store(int b, int m, int n, float x) const {
    ws[((long long)b * M + m) * N + n] = x;
  }
};

template <class Args>
__device__ __forceinline__ WgmmaToWorkspace wgmmaWorkspaceOf(const Args &p) {
  // Slice s of batch b is "batch" s * batches + b of the workspace.
  const int slice = blockIdx.y / p.batches;
  return {p.ws + (long long)slice * p.batches * p.M * p.N, p.M, p.N};
}

// The second launch of split-K: each output is the sum of its slices' partial
// sums, added in slice order (the result does not depend on which block
// finished first), then stored as the kernel would have (the generated store,
// or added to C). A grid-stride loop, one element per thread.
template <class TIn, class TC, class Store = WgmmaAddToC>
__device__ __forceinline__ void wgmmaSplitKReduce(const WgmmaArgs<TIn, TC> &p,
                                                  const Store &out = Store()) {
  const long long plane = (long long)p.batches * p.M * p.N;
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x;
       e < plane; e += (long long)gridDim.x * blockDim.x) {
    const int n = e % p.N;
    const long long r = e / p.N;
    const int m = r % p.M, b = r / p.M;
    float s = 0.f;
    for (int z = 0; z < p.splits; ++z)
      s += p.ws[z * plane + e];
    if constexpr (Store::kStore) {
      out.store(b, m, n, s);
    } else {
      TC *c = p.C + b * p.batchC + (long long)m * p.ldc + n;
      *c = TC(float(*c) + s);
    }
  }
}

// The block's work; the caller launches Cfg::kThreads threads with
// Cfg::kSmemBytes of dynamic shared memory, grid (tiles, batch), under
// __launch_bounds__(Cfg::kThreads, 1) (setmaxnreg needs the register cap).
template <class Cfg, class TIn, class TC, class Store = WgmmaAddToC>
__device__ __forceinline__ void gemmWgmmaBlock(const WgmmaArgs<TIn, TC> &p,
                                               const Store &out = Store()) {
  constexpr int BN = Cfg::kBN, ST = Cfg::kStages;
  extern __shared__ __align__(1024) unsigned char wgmma_smem[];
  __shared__ __align__(8) unsigned long long fullBar[ST], emptyBar[ST];

  WgmmaTile tile;
  tile.aRing = (wgmmaSmemAddr(wgmma_smem) + 1023) & ~1023u;
  tile.bRing = tile.aRing + ST * Cfg::kAStageBytes;
  wgmmaPlaceTile<Cfg>(p, tile, fullBar, emptyBar);
  const int wg = threadIdx.x / 128, t = threadIdx.x % 128;

  if (wg == 0) {
    wgmmaProducerRegs<Cfg>();
    wgmmaProduce<Cfg>(p, tile, t);
  } else {
    wgmmaConsumerRegs<Cfg>();
    float d[BN / 2];
    wgmmaConsume<Cfg, TIn>(tile, wg, d);
    wgmmaStoreSums<Cfg>(p, tile, wg, t, d, out);
  }
}

#ifndef __CUDACC_RTC__
template <class Cfg, class TIn, class TC>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemmWgmma(const WgmmaArgs<TIn, TC> p) {
  gemmWgmmaBlock<Cfg>(p);
}
#endif

} // namespace stark_kernels
