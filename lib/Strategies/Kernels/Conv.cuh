// Conv.cuh - a convolution computed directly: a block per tile of output
// rows x points along x x channels; a warp computes kFt channels at kPw
// points of one row for each of its lanes, reading the filter for a slice
// of kKch reduction points from shared memory and the image from global
// memory through the generated offsets of each reduction point.
//
// The generated part gives the problem as a config struct C:
//   typedef ... Idx;
//   static constexpr int kFt, kPw, kWf, kWr, kKch; // channels per thread,
//       points per lane, warps along channels and rows, reduction points
//       per slice
//   static constexpr Idx kX, kRows, kChannels, kK; // points per row, rows,
//       channels, reduction points
//   static constexpr int kTilesX, kTilesF;
// and the operands as functors:
//   aBase(row, x) -> Idx    the image's offset at (row, x) for k = 0
//   aOffset(k) -> Idx       what reduction point k adds to it
//   loadA(offset) -> float  the image at an offset
//   loadB(channel, k) -> float  the filter of a channel at point k
//   store(m, n, sum)        writes output m = row * kX + x, channel n
// The block has 32 * kWf * kWr threads.
//
// Expects Prelude.cuh before it.
#pragma once

namespace stark_kernels {

template <class C, class ABase, class AOffset, class LoadA, class LoadB,
          class Store>
__device__ __forceinline__ void convBlock(ABase aBaseOf, AOffset aOffset,
                                          LoadA loadA, LoadB loadB,
                                          Store store) {
  using Idx = typename C::Idx;
  constexpr int FT = C::kFt, PW = C::kPw, WF = C::kWf, KCH = C::kKch;
  constexpr int TF = WF * FT, XB = 32 * PW, THREADS = 32 * WF * C::kWr;
  __shared__ __align__(16) float wS[KCH * TF];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int fg = warp % WF, rw = warp / WF;
  // Channel tiles fastest: the blocks of one image tile run together and
  // share its lines in L2.
  int t = blockIdx.x;
  const int ftile = t % C::kTilesF;
  t /= C::kTilesF;
  const int xtile = t % C::kTilesX;
  const int rtile = t / C::kTilesX;
  const Idx row = (Idx)rtile * C::kWr + rw;
  const bool rowOk = row < C::kRows;
  // Threads past the edges compute the last valid point (their loads stay
  // in bounds) and store nothing.
  const Idx rowc = rowOk ? row : C::kRows - 1;
  const Idx f0 = (Idx)ftile * TF;
  Idx aBase[PW];
#pragma unroll
  for (int j = 0; j < PW; ++j) {
    const Idx x = (Idx)xtile * XB + lane + 32 * j;
    aBase[j] = aBaseOf(rowc, x < C::kX ? x : C::kX - 1);
  }
  float acc[FT][PW];
  stark_zero(acc);
  for (Idx k0 = 0; k0 < C::kK; k0 += KCH) {
    const int kn = C::kK - k0 < KCH ? (int)(C::kK - k0) : KCH;
    __syncthreads();
    // The block's filter values for k0 .. k0 + kn, as [k][channel]; zero
    // past the last channel.
    for (int i = tid; i < kn * TF; i += THREADS) {
      const int kk = i / TF, f = i % TF;
      float w = 0.f;
      if (f0 + f < C::kChannels)
        w = loadB(f0 + f, k0 + kk);
      wS[i] = w;
    }
    __syncthreads();
#pragma unroll 4
    for (int kk = 0; kk < kn; ++kk) {
      const Idx oa = aOffset(k0 + kk);
      float w[FT];
      if constexpr (FT % 4 == 0) {
        const float4 *w4 =
            reinterpret_cast<const float4 *>(&wS[kk * TF + fg * FT]);
#pragma unroll
        for (int q = 0; q < FT / 4; ++q) {
          const float4 v = w4[q];
          w[4 * q] = v.x, w[4 * q + 1] = v.y, w[4 * q + 2] = v.z,
                w[4 * q + 3] = v.w;
        }
      } else {
#pragma unroll
        for (int f = 0; f < FT; ++f)
          w[f] = wS[kk * TF + fg * FT + f];
      }
      float xv[PW];
#pragma unroll
      for (int j = 0; j < PW; ++j)
        xv[j] = loadA(aBase[j] + oa);
#pragma unroll
      for (int f = 0; f < FT; ++f)
#pragma unroll
        for (int j = 0; j < PW; ++j)
          acc[f][j] = fmaf(w[f], xv[j], acc[f][j]);
    }
  }
  if (!rowOk)
    return;
#pragma unroll
  for (int j = 0; j < PW; ++j) {
    const Idx x = (Idx)xtile * XB + lane + 32 * j;
    if (x >= C::kX)
      continue;
    const Idx m = rowc * C::kX + x;
#pragma unroll
    for (int f = 0; f < FT; ++f) {
      const Idx n = f0 + fg * FT + f;
      if (n >= C::kChannels)
        continue;
      store(m, n, acc[f][j]);
    }
  }
}

} // namespace stark_kernels
