// Attention.cuh - fused attention forward, O = softmax(Q K^T * scale + mask) V,
// with the online softmax of FlashAttention-2: a block owns kBlockM query
// rows, walks the keys in tiles of kBlockN, keeps per row a running maximum m
// and sum l of exp(s - m), rescales its f32 accumulator by exp(m_old - m_new)
// when m grows, and divides by l once at the end. The score matrix never
// leaves the chip.
//
// Per batch index bi in [0, kBatch) and query row i in [0, kSq):
//   s[j]   = (sum_d Q[bi,i,d] K[bi,j,d]) * kScale (+ mask term), j < kSk
//   p[j]   = exp(s[j] - max s) / sum_j exp(s[j] - max s)
//   O[bi,i,e] = sum_j p[j] V[bi,j,e],                           e < kDv
//
// The generated part gives the problem as a config struct C:
//   typedef ... Idx;    // int or long long: global index arithmetic
//   typedef ... In;     // Q, K, V: __half or __nv_bfloat16 (attentionMma16),
//                       // float (attentionF32)
//   typedef ... Out;    // O: float, __half or __nv_bfloat16
//   typedef ... MaskT;  // the additive mask's element (float, __half,
//                       // __nv_bfloat16, double); unused (may be void) unless
//                       // kMask == 2
//   static constexpr Idx kBatch, kHeads, kSq, kSk, kD, kDv;
//   static constexpr Idx kQStride[4], kKStride[4], kVStride[4], kOStride[4],
//                        kMaskStride[4];   // {sB, sH, sR, sC}, elements
//   static constexpr float kScale;
//   static constexpr int kMask;            // 0 none, 1 causal, 2 additive
//   static constexpr Idx kCausalOffset;    // kMask == 1: key j is masked for
//                                          // query i when j > i + offset
//                                          // (kSk - kSq: bottom-right; 0:
//                                          // top-left)
//   static constexpr bool kCausalAdds;     // kMask == 1: a masked score is
//                                          // s + -inf (NaN where s is NaN or
//                                          // +inf), not -inf (a select)
//   static constexpr float kCausalLimit;   // kMask == 1 and kCausalAdds: a
//                                          // Q or K element at least this
//                                          // large may make a score +inf
//   static constexpr int kBlockM, kBlockN, kWarps;
//   static constexpr int kThreadM, kThreadN; // attentionF32 only
// Element (row, col) of operand X in batch index bi lives at
//   (bi / kHeads) * sB + (bi % kHeads) * sH + row * sR + col * sC
// with X's strides: Q (i, d), K (j, d), V (j, e), O (i, e), mask (i, j). Any
// stride may be 0 (broadcast). kMaskStride is read only when kMask == 2 and
// kCausalOffset only when kMask == 1.
//
// Launch (both variants): grid (attentionGridX<C>(), attentionGridY<C>()) =
// (ceil(kSq / kBlockM), kBatch), block attentionThreads<C>() = kWarps * 32
// threads, attentionMma16SharedBytes<C>() or attentionF32SharedBytes<C>()
// bytes of dynamic shared memory; above 48 KB the launcher must raise
// cudaFuncAttributeMaxDynamicSharedMemorySize first. gridDim.y is kBatch, so
// kBatch <= 65535.
//
// Masking: causal masking makes a masked score -inf (kCausalAdds false: the
// select j > i ? -inf : s) or s + -inf (kCausalAdds: the addition of a -inf
// mask, NaN where s is NaN or +inf). The additive mask is added to the scaled
// score (a -inf entry masks the key, and +inf + -inf or NaN + -inf is NaN, as
// IEEE has it). A masked key's p is exactly 0, so its V row adds 0 * V, which
// is NaN where V is inf or NaN.
//
// The keys a causal condition hides: where they cannot reach the output, key
// tiles masked for every row of a block are never loaded, and a warp skips
// the tiles masked for all its rows. They reach it when V holds an inf or a
// NaN (0 * V is NaN), or, with kCausalAdds, when a hidden score is NaN or
// +inf. So a causal launch runs attentionCausalScan first (grid kBatch, 256
// threads): it sets full[bi] when V of batch index bi holds a non-finite
// value, or (kCausalAdds) Q or K an element of magnitude at least
// kCausalLimit (NaN and inf included), and the attention kernel then walks
// every key tile of that batch index, masking element by element: the result
// is that of the exact formula on every input. The flags are rewritten by
// every scan, so nothing is carried from one run to the next.
//
// Numerics follow the exact formula under IEEE rules: the row maximum
// propagates NaN (max.NaN, as arith.maximumf), a +inf score makes its row
// NaN (exp(inf - inf)), and a row whose scores are all -inf (fully masked)
// ends as 0 / 0 = NaN. While a row's running maximum is still -inf, the
// rescale factor of an (empty) accumulator is taken as 0 rather than
// exp(-inf - -inf) = NaN, as softmaxMerge (Softmax.cuh) does, so later finite
// tiles are not poisoned.
//
// The kernels: attentionMma16 (AttentionMma16.cuh, f16 / bf16 on tensor
// cores) and attentionF32 (AttentionF32.cuh, f32 on CUDA cores); this file
// holds the contract above and what both use.
//
// Expects Prelude.cuh before it.
#pragma once

#include "Lanes.cuh"

namespace stark_kernels {

// ---- launch geometry ----

template <class C> __host__ __device__ constexpr int attentionThreads() {
  return C::kWarps * 32;
}
template <class C> __host__ __device__ constexpr long long attentionGridX() {
  return ((long long)C::kSq + C::kBlockM - 1) / C::kBlockM;
}
template <class C> __host__ __device__ constexpr long long attentionGridY() {
  return (long long)C::kBatch;
}

// ---- small helpers ----

// std::is_same without <type_traits> (the header also builds under NVRTC).
template <class A, class B> struct AttnSame {
  static constexpr bool value = false;
};
template <class A> struct AttnSame<A, A> {
  static constexpr bool value = true;
};

__device__ __forceinline__ unsigned attnSmemAddr(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}
// NaN-propagating maximum in one instruction (sm_80+): fmaxf would drop a NaN
// score and hide it from the row.
__device__ __forceinline__ float attnMax(float a, float b) {
  float r;
  asm("max.NaN.f32 %0, %1, %2;\n" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
// cp.async of 16 or 4 bytes; `full` false writes zeros and reads nothing.
__device__ __forceinline__ void attnCopy16(unsigned dst, const void *src,
                                           bool full) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst),
               "l"(src), "r"(full ? 16 : 0)
               : "memory");
}
__device__ __forceinline__ void attnCopy4(unsigned dst, const void *src,
                                          bool full) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst),
               "l"(src), "r"(full ? 4 : 0)
               : "memory");
}
__device__ __forceinline__ void attnCommit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
// Waits until at most N of this thread's committed copy groups are pending.
template <int N> __device__ __forceinline__ void attnWait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// The keys [0, end) that some row of the query rows [m0, m0 + rows) may see:
// all of them (or `full`: see Masking), or with causal masking those up to
// the last row's limit. A block whose rows are all past kSq or fully masked
// gets end <= 0.
template <class C, class Idx>
__device__ __forceinline__ Idx attnKeyEnd(Idx m0, int rows, bool full) {
  Idx end = C::kSk;
  if constexpr (C::kMask == 1) {
    if (full)
      return end;
    const Idx rowEnd = m0 + rows < C::kSq ? m0 + rows : (Idx)C::kSq;
    const Idx last = rowEnd + (Idx)C::kCausalOffset;
    end = last < end ? last : end;
  }
  return end;
}

// Whether batch index bi must walk every key tile (see Masking): only causal
// launches read the scan's flags.
template <class C>
__device__ __forceinline__ bool attnFullKeys(const unsigned *full,
                                             long long bi) {
  if constexpr (C::kMask == 1)
    return full[bi] != 0;
  return false;
}

// A masked score: -inf, or with kCausalAdds and a key inside kSk (a key past
// kSk is padding, not part of the formula) s + -inf.
template <class C>
__device__ __forceinline__ float attnMaskScore(float s, bool inKeys) {
  const float ninf = negativeInfinity<float>();
  if constexpr (C::kMask == 1 && C::kCausalAdds)
    return inKeys ? s + ninf : ninf;
  return ninf;
}

// Whether some element of the ROWS x COLS matrix at base (strides RS, CS) is
// not below `limit` in magnitude (NaN included); the block's NT threads
// share the elements. 16-bit rows that are contiguous and 16-byte aligned
// are read 8 elements a load.
template <int NT, bool VEC, class Idx, Idx ROWS, Idx COLS, Idx RS, Idx CS,
          class In>
__device__ __forceinline__ bool attnScanMatrix(const In *base, float limit,
                                               int tid) {
  bool bad = false;
  if constexpr (VEC) {
    constexpr Idx CH = COLS / 8;
    for (Idx x = tid; x < ROWS * CH; x += NT) {
      const uint4 w =
          *reinterpret_cast<const uint4 *>(base + (x / CH) * RS + (x % CH) * 8);
      const In *e = reinterpret_cast<const In *>(&w);
#pragma unroll
      for (int i = 0; i < 8; ++i)
        bad |= !(fabsf((float)stark_widen(e[i])) < limit);
    }
  } else {
    for (Idx x = tid; x < ROWS * COLS; x += NT)
      bad |=
          !(fabsf((float)stark_widen(base[(x / COLS) * RS + (x % COLS) * CS])) <
            limit);
  }
  return bad;
}

// One operand's matrix of batch index bi (element strides {SB, SH, SR, SC}).
template <class C, int NT, class Idx, Idx ROWS, Idx COLS, Idx SB, Idx SH,
          Idx SR, Idx SC, class In>
__device__ __forceinline__ bool attnScanOperand(const In *x, Idx bi,
                                                float limit, int tid) {
  constexpr bool vec = sizeof(In) == 2 && SC == 1 && COLS % 8 == 0 &&
                       SB % 8 == 0 && SH % 8 == 0 && SR % 8 == 0;
  const In *base = x + (bi / C::kHeads) * SB + (bi % C::kHeads) * SH;
  return attnScanMatrix<NT, vec, Idx, ROWS, COLS, SR, SC>(base, limit, tid);
}

constexpr int kAttnScanThreads = 256;

// The scan of a causal launch (see Masking): block bi sets full[bi].
template <class C>
__device__ __forceinline__ void
attentionCausalScan(const typename C::In *q, const typename C::In *k,
                    const typename C::In *v, unsigned *full) {
  using Idx = typename C::Idx;
  constexpr int NT = kAttnScanThreads;
  static_assert(C::kMask == 1, "attentionCausalScan: causal launches only");
  const Idx bi = blockIdx.x;
  const int tid = threadIdx.x;
  bool bad = attnScanOperand<C, NT, Idx, C::kSk, C::kDv, C::kVStride[0],
                             C::kVStride[1], C::kVStride[2], C::kVStride[3]>(
      v, bi, -negativeInfinity<float>(), tid);
  if constexpr (C::kCausalAdds) {
    bad |= attnScanOperand<C, NT, Idx, C::kSq, C::kD, C::kQStride[0],
                           C::kQStride[1], C::kQStride[2], C::kQStride[3]>(
        q, bi, C::kCausalLimit, tid);
    bad |= attnScanOperand<C, NT, Idx, C::kSk, C::kD, C::kKStride[0],
                           C::kKStride[1], C::kKStride[2], C::kKStride[3]>(
        k, bi, C::kCausalLimit, tid);
  }
  bad = __syncthreads_or(bad) != 0;
  if (tid == 0)
    full[bi] = bad ? 1u : 0u;
}

// Query block of this thread block: with causal masking the blocks of the
// last rows (the most key tiles) start first, which shortens the tail.
template <class C, class Idx> __device__ __forceinline__ Idx attnMBlock() {
  constexpr Idx blocks = (Idx)((C::kSq + C::kBlockM - 1) / C::kBlockM);
  return C::kMask == 1 ? blocks - 1 - (Idx)blockIdx.x : (Idx)blockIdx.x;
}

} // namespace stark_kernels
