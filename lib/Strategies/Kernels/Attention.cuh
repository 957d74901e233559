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
// +inf. So a causal launch runs attentionCausalScan first (a block per 128
// keys of a batch index): it flags the keys of batch index bi where V holds
// a non-finite value, or (kCausalAdds) K an element of magnitude at least
// kCausalLimit (NaN and inf included). With kCausalAdds a thread block also
// checks its own Q tile against kCausalLimit. A block that finds a flag or
// such a Q element walks every key tile, masking element by element: the
// result is that of the exact formula on every input. The flags are
// rewritten by every scan, so nothing is carried from one run to the next.
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

// The scan of a causal launch reads kAttnScanRows keys a block: grid
// (attnScanChunks<C>(), kBatch), kAttnScanThreads threads, one flag a block.
constexpr int kAttnScanRows = 128, kAttnScanThreads = 256;
template <class C> __host__ __device__ constexpr long long attnScanChunks() {
  return ((long long)C::kSk + kAttnScanRows - 1) / kAttnScanRows;
}

// Whether batch index bi must walk every key tile as far as the scan knows
// (see Masking): only causal launches read its flags.
template <class C>
__device__ __forceinline__ bool attnFullKeys(const unsigned *full,
                                             long long bi) {
  bool any = false;
  if constexpr (C::kMask == 1) {
    constexpr long long chunks = attnScanChunks<C>();
    for (long long c = 0; c < chunks; ++c)
      any |= full[bi * chunks + c] != 0;
  }
  return any;
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

// Whether x is not below `limit` in magnitude (NaN included).
template <class In>
__device__ __forceinline__ bool attnOutside(In x, float limit) {
  return !(fabsf((float)stark_widen(x)) < limit);
}

// Whether an element of rows [r0, r1) of a COLS-wide matrix at base (strides
// RS, CS) is outside `limit`; the block's NT threads share the elements.
// 16-bit rows that are contiguous and 16-byte aligned (VEC) are read 8
// elements a load.
template <int NT, bool VEC, class Idx, Idx COLS, Idx RS, Idx CS, class In>
__device__ __forceinline__ bool attnScanRows(const In *base, Idx r0, Idx r1,
                                             float limit, int tid) {
  bool bad = false;
  if constexpr (VEC) {
    constexpr Idx CH = COLS / 8;
    for (Idx x = r0 * CH + tid; x < r1 * CH; x += NT) {
      const uint4 w =
          *reinterpret_cast<const uint4 *>(base + (x / CH) * RS + (x % CH) * 8);
      const In *e = reinterpret_cast<const In *>(&w);
#pragma unroll
      for (int i = 0; i < 8; ++i)
        bad |= attnOutside(e[i], limit);
    }
  } else {
    for (Idx x = r0 * COLS + tid; x < r1 * COLS; x += NT)
      bad |= attnOutside(base[(x / COLS) * RS + (x % COLS) * CS], limit);
  }
  return bad;
}

// Rows [r0, r1) of one operand of batch index bi (element strides {SB, SH,
// SR, SC}, COLS columns).
template <class C, int NT, class Idx, Idx COLS, Idx SB, Idx SH, Idx SR, Idx SC,
          class In>
__device__ __forceinline__ bool attnScanOperand(const In *x, Idx bi, Idx r0,
                                                Idx r1, float limit, int tid) {
  constexpr bool vec = sizeof(In) == 2 && SC == 1 && COLS % 8 == 0 &&
                       SB % 8 == 0 && SH % 8 == 0 && SR % 8 == 0;
  const In *base = x + (bi / C::kHeads) * SB + (bi % C::kHeads) * SH;
  return attnScanRows<NT, vec, Idx, COLS, SR, SC>(base, r0, r1, limit, tid);
}

// The scan of a causal launch (see Masking): block (c, bi) reads keys
// [c kAttnScanRows, (c + 1) kAttnScanRows) of V (and of K where the -inf is
// added) and sets full[bi * chunks + c]. Q is checked by the attention
// kernel itself, a query block at a time (attnQTileOutside).
template <class C>
__device__ __forceinline__ void attentionCausalScan(const typename C::In *k,
                                                    const typename C::In *v,
                                                    unsigned *full) {
  using Idx = typename C::Idx;
  constexpr int NT = kAttnScanThreads;
  static_assert(C::kMask == 1, "attentionCausalScan: causal launches only");
  const Idx c = blockIdx.x, bi = blockIdx.y;
  const Idx r0 = c * kAttnScanRows;
  const Idx r1 = r0 + kAttnScanRows < C::kSk ? r0 + kAttnScanRows : C::kSk;
  const int tid = threadIdx.x;
  bool bad = attnScanOperand<C, NT, Idx, C::kDv, C::kVStride[0], C::kVStride[1],
                             C::kVStride[2], C::kVStride[3]>(
      v, bi, r0, r1, -negativeInfinity<float>(), tid);
  if constexpr (C::kCausalAdds)
    bad |= attnScanOperand<C, NT, Idx, C::kD, C::kKStride[0], C::kKStride[1],
                           C::kKStride[2], C::kKStride[3]>(
        k, bi, r0, r1, C::kCausalLimit, tid);
  bad = __syncthreads_or(bad) != 0;
  if (tid == 0)
    full[bi * attnScanChunks<C>() + c] = bad ? 1u : 0u;
}

// Query block of this thread block: with causal masking the blocks of the
// last rows (the most key tiles) start first, which shortens the tail.
template <class C, class Idx> __device__ __forceinline__ Idx attnMBlock() {
  constexpr Idx blocks = (Idx)((C::kSq + C::kBlockM - 1) / C::kBlockM);
  return C::kMask == 1 ? blocks - 1 - (Idx)blockIdx.x : (Idx)blockIdx.x;
}

} // namespace stark_kernels
