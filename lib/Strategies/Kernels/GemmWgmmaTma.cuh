// GemmWgmmaTma.cuh - the bf16/f16 wgmma GEMM of GemmWgmma.cuh with its
// operands loaded by the tensor memory accelerator (TMA, sm_90a), and an
// optional persistent schedule.
//
// The ring, its swizzle, the consumers and the store are GemmWgmma.cuh's.
// What differs is the producer: one thread of warpgroup 0 issues, per k tile,
// one bulk tensor copy of A's BM x 64 slice and BN / 64 copies of B's
// 64 x 64 panels, and announces their bytes on the stage's "full" mbarrier
// (mbarrier.arrive.expect_tx); the copy engine computes the addresses, writes
// the 128-byte swizzle and fills zeros past the edges of M, N and K. Nothing
// else of the warpgroup runs.
//
// The tensor maps are encoded on the host (cuTensorMapEncodeTiled, see
// wgmmaTmaMapShape) and live in global memory, 64-byte aligned; the kernel
// gets their addresses. Per operand the map is three-dimensional: A is
// (k, m, batch), B is (n, k, batch), innermost first, in elements, with the
// byte strides of a row and of a batch; a broadcast operand (batch stride 0)
// has a batch extent of 1 and is read at batch 0.
//
// Persistent: a grid of fewer blocks than tiles runs tile blockIdx.x, then
// every gridDim.x-th after it; the ring, its barriers and their phases carry
// over from tile to tile, so the producer loads the next tile while the
// consumers store the last.
#pragma once

#include "GemmWgmma.cuh"

namespace stark_kernels {

template <class TIn, class TC> struct WgmmaTmaArgs : WgmmaArgs<TIn, TC> {
  const void *mapA, *mapB; // 128-byte tensor maps in global memory
  bool aBroadcast, bBroadcast;
};

// Copies one box of `map` at (c0, c1, c2) into shared memory at `dst`,
// completing its bytes on the mbarrier `bar`.
__device__ __forceinline__ void wgmmaTmaLoad(unsigned dst, const void *map,
                                             int c0, int c1, int c2,
                                             unsigned bar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
      "complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(dst),
      "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(bar)
      : "memory");
}
__device__ __forceinline__ void wgmmaBarExpectBytes(unsigned bar,
                                                    unsigned bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar),
      "r"(bytes)
      : "memory");
}

// The tiles of every batch, one after the other.
template <class Cfg, class TIn, class TC>
__device__ __forceinline__ int wgmmaTmaTiles(const WgmmaTmaArgs<TIn, TC> &p) {
  return ((p.M + Cfg::kBM - 1) / Cfg::kBM) * ((p.N + Cfg::kBN - 1) / Cfg::kBN) *
         p.batches;
}
template <class Cfg, class TIn, class TC>
__device__ __forceinline__ void wgmmaTmaTile(const WgmmaTmaArgs<TIn, TC> &p,
                                             WgmmaTile &tile, int index) {
  const int perBatch = wgmmaTmaTiles<Cfg>(p) / p.batches;
  wgmmaTileAt<Cfg>(p, tile, index % perBatch, index / perBatch);
}

// One thread of warpgroup 0: every k tile of every tile of the block.
template <class Cfg, class TIn, class TC>
__device__ __forceinline__ void wgmmaTmaProduce(const WgmmaTmaArgs<TIn, TC> &p,
                                                WgmmaTile tile) {
  constexpr int BN = Cfg::kBN, BK = Cfg::kBK, ST = Cfg::kStages;
  constexpr unsigned kBytes = Cfg::kAStageBytes + Cfg::kBStageBytes;
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(p.mapA) : "memory");
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(p.mapB) : "memory");
  int it = 0;
  for (int index = blockIdx.x; index < wgmmaTmaTiles<Cfg>(p);
       index += gridDim.x) {
    wgmmaTmaTile<Cfg>(p, tile, index);
    const int ba = p.aBroadcast ? 0 : tile.batch;
    const int bb = p.bBroadcast ? 0 : tile.batch;
    for (int kt = 0; kt < tile.kTiles; ++kt, ++it) {
      const int s = it % ST;
      if (it >= ST)
        wgmmaBarWait(wgmmaSmemAddr(&tile.emptyBar[s]), ((it / ST) - 1) & 1);
      const unsigned full = wgmmaSmemAddr(&tile.fullBar[s]);
      wgmmaBarExpectBytes(full, kBytes);
      const int k0 = kt * BK;
      wgmmaTmaLoad(tile.aRing + s * Cfg::kAStageBytes, p.mapA, k0, tile.m0, ba,
                   full);
      const unsigned bStage = tile.bRing + s * Cfg::kBStageBytes;
#pragma unroll
      for (int panel = 0; panel < BN / 64; ++panel)
        wgmmaTmaLoad(bStage + panel * 64 * 128, p.mapB, tile.n0 + panel * 64,
                     k0, bb, full);
    }
  }
}

// The block's work; the caller launches Cfg::kThreads threads with
// Cfg::kSmemBytes of dynamic shared memory and a grid of
// min(tiles, resident blocks) (persistent) or of every tile, under
// __launch_bounds__(Cfg::kThreads, 1).
template <class Cfg, class TIn, class TC, class Store = WgmmaAddToC>
__device__ __forceinline__ void
gemmWgmmaTmaBlock(const WgmmaTmaArgs<TIn, TC> &p, const Store &out = Store()) {
  constexpr int BN = Cfg::kBN, ST = Cfg::kStages;
  extern __shared__ __align__(1024) unsigned char wgmma_smem[];
  __shared__ __align__(8) unsigned long long fullBar[ST], emptyBar[ST];

  WgmmaTile tile;
  tile.aRing = (wgmmaSmemAddr(wgmma_smem) + 1023) & ~1023u;
  tile.bRing = tile.aRing + ST * Cfg::kAStageBytes;
  wgmmaPlaceTile<Cfg, 1>(p, tile, fullBar, emptyBar);
  const int wg = threadIdx.x / 128, t = threadIdx.x % 128;

  if (wg == 0) {
    wgmmaProducerRegs<Cfg>();
    if (t == 0)
      wgmmaTmaProduce<Cfg>(p, tile);
    return;
  }
  wgmmaConsumerRegs<Cfg>();
  float d[BN / 2];
  int it = 0;
  const int tiles = wgmmaTmaTiles<Cfg>(p);
  for (int index = blockIdx.x; index < tiles; index += gridDim.x) {
    wgmmaTmaTile<Cfg>(p, tile, index);
    wgmmaConsume<Cfg, TIn>(tile, wg, d, it, index + (int)gridDim.x < tiles);
    it += tile.kTiles;
    wgmmaStoreSums<Cfg>(p, tile, wg, t, d, out);
  }
}

#ifndef __CUDACC_RTC__
template <class Cfg, class TIn, class TC>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemmWgmmaTma(const WgmmaTmaArgs<TIn, TC> p) {
  gemmWgmmaTmaBlock<Cfg>(p);
}
#endif

} // namespace stark_kernels
