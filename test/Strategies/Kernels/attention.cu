// The fused attention kernels (AttentionMma16.cuh, AttentionF32.cuh)
// compile for sm_90a:
// mma.sync f16/bf16 at head dims 64 and 128 with 16 and 32 rows a warp (Q in
// registers and Q in shared memory), no mask, causal (bottom-right, top-left,
// more queries than keys; selected and added masks) and an additive mask
// broadcast over heads, the scans of causal launches, f16 and
// f32 outputs, int and long long indices; the f32 SIMT kernel with odd sizes,
// K stored transposed, V and O strided and an f16 mask. The tensor-core
// instructions and the ldmatrix loads are in the PTX.
// RUN: %nvcc-compile %s -o %t.o
// RUN: %nvcc-compile %s -ptx -o - | FileCheck %s
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-DAG: cp.async.cg.shared.global
// CHECK-DAG: max.NaN.f32

#include "Prelude.cuh"

#include "AttentionF32.cuh"
#include "AttentionMma16.cuh"

using namespace stark_kernels;

template <class I, class TIn, class TOut, class TMask, I Batch, I Heads, I Sq,
          I Sk, I D, I Dv, int Mask, I CausalOffset, int BM, int BN, int W,
          int TM = 4, int TN = 4, bool Adds = false>
struct Config {
  typedef I Idx;
  typedef TIn In;
  typedef TOut Out;
  typedef TMask MaskT;
  static constexpr Idx kBatch = Batch * Heads, kHeads = Heads, kSq = Sq,
                       kSk = Sk, kD = D, kDv = Dv;
  static constexpr Idx kQStride[4] = {Heads * Sq * D, (Sq * D), D, 1};
  static constexpr Idx kKStride[4] = {Heads * Sk * D, (Sk * D), D, 1};
  static constexpr Idx kVStride[4] = {Heads * Sk * Dv, (Sk * Dv), Dv, 1};
  static constexpr Idx kOStride[4] = {Heads * Sq * Dv, (Sq * Dv), Dv, 1};
  // [batch, 1, Sq, Sk]: one mask for all heads.
  static constexpr Idx kMaskStride[4] = {(Sq * Sk), 0, Sk, 1};
  static constexpr float kScale = 0.125f;
  static constexpr int kMask = Mask;
  static constexpr Idx kCausalOffset = CausalOffset;
  static constexpr bool kCausalAdds = Adds;
  static constexpr float kCausalLimit = 1e18f;
  static constexpr int kBlockM = BM, kBlockN = BN, kWarps = W;
  static constexpr int kThreadM = TM, kThreadN = TN;
};

// f32 with K stored [b, h, d, j] (transposed), V [b, j, h, e] (heads
// interleaved), O [b, i, h, e], and a [b, h, i, j] f16 mask.
struct F32Transposed {
  typedef long long Idx;
  typedef float In;
  typedef float Out;
  typedef __half MaskT;
  static constexpr Idx B = 3, H = 2, Sq = 77, Sk = 131, D = 77, Dv = 50;
  static constexpr Idx kBatch = B * H, kHeads = H, kSq = Sq, kSk = Sk, kD = D,
                       kDv = Dv;
  static constexpr Idx kQStride[4] = {H * Sq * D, (Sq * D), D, 1};
  static constexpr Idx kKStride[4] = {H * D * Sk, (D * Sk), 1, Sk};
  static constexpr Idx kVStride[4] = {Sk * H * Dv, Dv, (H * Dv), 1};
  static constexpr Idx kOStride[4] = {Sq * H * Dv, Dv, (H * Dv), 1};
  static constexpr Idx kMaskStride[4] = {H * Sq * Sk, (Sq * Sk), Sk, 1};
  static constexpr float kScale = 0.11396058f;
  static constexpr int kMask = 2;
  static constexpr Idx kCausalOffset = 0;
  static constexpr bool kCausalAdds = false;
  static constexpr float kCausalLimit = 1e18f;
  static constexpr int kBlockM = 64, kBlockN = 32, kWarps = 4;
  static constexpr int kThreadM = 4, kThreadN = 4;
};

template <class C>
__global__ void __launch_bounds__(attentionThreads<C>())
    attnMma16(const typename C::In *q, const typename C::In *k,
              const typename C::In *v, const typename C::MaskT *mask,
              typename C::Out *o, const unsigned *full) {
  attentionMma16<C>(q, k, v, mask, o, full);
}
template <class C>
__global__ void __launch_bounds__(attentionThreads<C>())
    attnF32(const typename C::In *q, const typename C::In *k,
            const typename C::In *v, const typename C::MaskT *mask,
            typename C::Out *o, const unsigned *full) {
  attentionF32<C>(q, k, v, mask, o, full);
}
template <class C>
__global__ void __launch_bounds__(kAttnScanThreads)
    attnScan(const typename C::In *k, const typename C::In *v, unsigned *full) {
  attentionCausalScan<C>(k, v, full);
}

typedef __nv_bfloat16 bf16;
// bf16, D 128, 16 rows a warp (Q in registers): none, causal, mask.
using Bf128 = Config<int, bf16, bf16, float, 8, 16, 2048, 2048, 128, 128, 0, 0,
                     64, 64, 4>;
using Bf128Causal = Config<int, bf16, bf16, float, 8, 16, 2048, 2048, 128, 128,
                           1, 0, 64, 64, 4, 4, 4, /*Adds=*/true>;
using Bf128Mask =
    Config<int, bf16, float, float, 3, 2, 77, 131, 128, 128, 2, 0, 64, 64, 4>;
// 32 rows a warp at D 128: Q fragments from shared memory.
using Bf128Wide = Config<long long, bf16, bf16, void, 2, 4, 1000, 999, 128, 128,
                         0, 0, 128, 64, 4>;
// bf16 / f16, D 64, 32 rows a warp (Q in registers, not aliased: BN 32).
using Bf64 =
    Config<int, bf16, bf16, void, 4, 8, 1024, 1024, 64, 64, 1, 0, 128, 32, 4>;
using H64 = Config<int, __half, __half, __half, 3, 2, 77, 131, 64, 64, 2, 0,
                   128, 64, 4>;
// f16, D 128 / Dv 64, bottom-right causal with more queries than keys (the
// first rows are fully masked).
using H128Causal = Config<int, __half, float, void, 3, 2, 131, 77, 128, 64, 1,
                          77 - 131, 64, 64, 4>;
using H128x8 = Config<int, __half, __half, void, 1, 1, 4096, 4096, 128, 128, 1,
                      0, 128, 64, 8>;
// f32: dense, causal with odd sizes, transposed K.
using F32 = Config<int, float, float, void, 8, 16, 2048, 2048, 128, 128, 0, 0,
                   64, 32, 4, 4, 4>;
using F32Causal = Config<int, float, float, void, 3, 2, 77, 131, 40, 24, 1,
                         131 - 77, 64, 64, 8, 4, 4, /*Adds=*/true>;
using F32Wide = Config<int, float, bf16, void, 2, 3, 300, 257, 64, 64, 0, 0,
                       128, 64, 8, 8, 4>;

template __global__ void attnMma16<Bf128>(const bf16 *, const bf16 *,
                                          const bf16 *, const float *, bf16 *,
                                          const unsigned *);
template __global__ void attnMma16<Bf128Causal>(const bf16 *, const bf16 *,
                                                const bf16 *, const float *,
                                                bf16 *, const unsigned *);
template __global__ void attnMma16<Bf128Mask>(const bf16 *, const bf16 *,
                                              const bf16 *, const float *,
                                              float *, const unsigned *);
template __global__ void attnMma16<Bf128Wide>(const bf16 *, const bf16 *,
                                              const bf16 *, const void *,
                                              bf16 *, const unsigned *);
template __global__ void attnMma16<Bf64>(const bf16 *, const bf16 *,
                                         const bf16 *, const void *, bf16 *,
                                         const unsigned *);
template __global__ void attnMma16<H64>(const __half *, const __half *,
                                        const __half *, const __half *,
                                        __half *, const unsigned *);
template __global__ void attnMma16<H128Causal>(const __half *, const __half *,
                                               const __half *, const void *,
                                               float *, const unsigned *);
template __global__ void attnMma16<H128x8>(const __half *, const __half *,
                                           const __half *, const void *,
                                           __half *, const unsigned *);
template __global__ void attnF32<F32>(const float *, const float *,
                                      const float *, const void *, float *,
                                      const unsigned *);
template __global__ void attnF32<F32Causal>(const float *, const float *,
                                            const float *, const void *,
                                            float *, const unsigned *);
template __global__ void attnF32<F32Wide>(const float *, const float *,
                                          const float *, const void *, bf16 *,
                                          const unsigned *);
template __global__ void attnF32<F32Transposed>(const float *, const float *,
                                                const float *, const __half *,
                                                float *, const unsigned *);

// The scans of causal launches: 16-bit contiguous rows (8 elements a
// load), select and added masks, and f32 with odd sizes.
template __global__ void attnScan<Bf128Causal>(const bf16 *, const bf16 *,
                                               unsigned *);
template __global__ void attnScan<H128Causal>(const __half *, const __half *,
                                              unsigned *);
template __global__ void attnScan<F32Causal>(const float *, const float *,
                                             unsigned *);

static_assert(attentionMma16SharedBytes<Bf128>() == 64 * 1024, "");
static_assert(attentionMma16SharedBytes<Bf128Wide>() == 96 * 1024, "");
static_assert(attentionMma16SharedBytes<Bf64>() == 16 * 1024 + 16 * 1024, "");
