// The tensor-core GEMM of family gemm_tc (GemmWmma.cuh) compiles for
// sm_90a: f16 and bf16 inputs and f32 inputs rounded to tf32, A and B tiles
// stored along either axis, 16-byte cp.async and element copies, 32- and
// 64-bit indices, two to four stages.
// RUN: %nvcc-compile %s -o %t.o

#include "Prelude.cuh"

#include "GemmWmma.cuh"

using namespace stark_kernels;
namespace wmma = nvcuda::wmma;

// Row-major A (M x K) read along k (A_AXIS 0) or stored K x M (1); B
// (K x N) read along n (B_AXIS 0) or stored N x K (1).
template <class T, class Frag, class Index, int AAxis, int BAxis, int V, int Fk,
          int Stages, int Bm = 64, int Bn = 64, int Bk = 32>
struct Config {
  typedef T TIn;
  typedef Index idx_t;
  static constexpr int BM = Bm, BN = Bn, BK = Bk, WM = 32, WN = 32,
                       STAGES = Stages, GROUP_M = 8, FK = Fk, PAD = 8;
  static constexpr int A_AXIS = AAxis, VA = V, B_AXIS = BAxis, VB = V;
  static constexpr bool TF32 = Fk == 8;
  static constexpr idx_t M = 255, N = 191, K = 129;
  typedef wmma::fragment<wmma::matrix_a, 16, 16, Fk, Frag,
                         typename std::conditional<AAxis == 0, wmma::row_major,
                                                   wmma::col_major>::type>
      FragA;
  typedef wmma::fragment<wmma::matrix_b, 16, 16, Fk, Frag,
                         typename std::conditional<BAxis == 0, wmma::row_major,
                                                   wmma::col_major>::type>
      FragB;
  static __device__ __forceinline__ idx_t a_off(idx_t b, idx_t m, idx_t k) {
    return AAxis == 0 ? (b * M + m) * K + k : (b * K + k) * M + m;
  }
  static __device__ __forceinline__ idx_t b_off(idx_t b, idx_t k, idx_t n) {
    return BAxis == 0 ? (b * K + k) * N + n : (b * N + n) * K + k;
  }
};

// C[b, m, n] += sum, in f32.
template <class Index> struct Accumulate {
  float *C;
  __device__ __forceinline__ void store(Index b, Index m, Index n,
                                        float sum) const {
    C[(b * 255 + m) * 191 + n] += sum;
  }
};

template <class C>
__global__ void __launch_bounds__(WmmaShape<C>::kThreads, 1)
    gemm(const typename C::TIn *A, const typename C::TIn *B, float *out) {
  gemmWmmaBlock<C>(A, B, Accumulate<typename C::idx_t>{out});
}

typedef Config<__half, __half, int, 0, 0, 8, 16, 3> F16RowRow;
typedef Config<__half, __half, int, 0, 1, 8, 16, 4> F16RowCol;
typedef Config<__nv_bfloat16, __nv_bfloat16, long long, 1, 0, 1, 16, 2>
    Bf16ColRowElements;
typedef Config<float, wmma::precision::tf32, int, 0, 0, 4, 8, 3, 64, 64, 16>
    Tf32;

template __global__ void gemm<F16RowRow>(const __half *, const __half *,
                                         float *);
template __global__ void gemm<F16RowCol>(const __half *, const __half *,
                                         float *);
template __global__ void
gemm<Bf16ColRowElements>(const __nv_bfloat16 *, const __nv_bfloat16 *, float *);
template __global__ void gemm<Tf32>(const float *, const float *, float *);

static_assert(gemmWmmaSharedBytes<F16RowRow>() ==
                  3 * (64 * 40 + 32 * 72) * 2 + 4 * 256 * 4,
              "three stages of A and B tiles, a scratch tile per warp");
