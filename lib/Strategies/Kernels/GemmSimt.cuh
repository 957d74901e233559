// GemmSimt.cuh - the SIMT GEMM of family `gemm`: C[b, m, n] += sum_k
// A[b, m, k] * B[b, k, n] in f32 for f32, f16 and bf16 storage.
//
// BM x BN block tile, TM x TN thread tile, BK-deep k tiles through shared
// memory (double-buffered in registers or single), tiles rasterised in groups
// of GROUP_M rows, the batch in grid.y. A's loads run VA elements at a time
// along k (A_AXIS 0) or m (1), B's VB along n (B_AXIS 0) or k (1); C is
// written VC at a time. Everything about the problem comes from P: the sizes
// M, N, K, the index type idx_t, the storage types TA, TB, TC, the
// addresses a_off(b, m, k), b_off(b, k, n), c_off(b, m, n) and how C starts:
// kInitOut (C = kInit + sum, written without being read: the problem fills C
// first) or not (C += sum). A generated Store (kStore = true) takes each
// finished sum instead, store(b, m, n, sum), and writes what the problem
// outputs there (the element-wise ops after the contraction); C is then
// neither read nor written. Its prologue_a(b, m, k, x) / prologue_b(b, k, n,
// x) (with kPrologueA / kPrologueB) turn each loaded element of A / B into
// the operand (element-wise ops before the contraction); padding stays zero.
// Needs Prelude.cuh (StarkVec, stark_widen, stark_cast) before it.
#pragma once

namespace stark_kernels {

template <class P, int BM_, int BN_, int BK_, int TM_, int TN_, int GROUP_M_,
          bool DOUBLE_BUFFER_, int MIN_BLOCKS_, int A_AXIS_, int VA_,
          int B_AXIS_, int VB_, int VC_>
struct SimtGemmConfig {
  typedef P Problem;
  static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_,
                       GROUP_M = GROUP_M_;
  static constexpr bool DOUBLE_BUFFER = DOUBLE_BUFFER_;
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;
  static constexpr int A_AXIS = A_AXIS_, VA = VA_, B_AXIS = B_AXIS_, VB = VB_,
                       VC = VC_;
  static constexpr int kThreads = (BM / TM) * (BN / TN);
};

// The default store: C += sum or C = kInit + sum, as the problem says.
struct SimtStoreToC {
  static constexpr bool kStore = false;
  static constexpr bool kPrologueA = false, kPrologueB = false;
};

template <int V, class T>
__device__ __forceinline__ void simtLoadVec(const T *p, float (&r)[V]) {
  const StarkVec<T, V> v = *reinterpret_cast<const StarkVec<T, V> *>(p);
#pragma unroll
  for (int i = 0; i < V; ++i)
    r[i] = (float)stark_widen(v.v[i]);
}

// A store's prologues as functions of the element's indices (the identity
// for a store without them).
template <bool ON> struct SimtPrologue {
  template <class St, class I>
  static __device__ __forceinline__ float a(const St &, I, I, I, float x) {
    return x;
  }
  template <class St, class I>
  static __device__ __forceinline__ float b(const St &, I, I, I, float x) {
    return x;
  }
};
template <> struct SimtPrologue<true> {
  template <class St, class I>
  static __device__ __forceinline__ float a(const St &o, I b, I m, I k,
                                            float x) {
    return o.prologue_a((int)b, (int)m, (int)k, x);
  }
  template <class St, class I>
  static __device__ __forceinline__ float b(const St &o, I b, I k, I n,
                                            float x) {
    return o.prologue_b((int)b, (int)k, (int)n, x);
  }
};

// The shapes of one block's work, derived from the configuration.
template <class Cfg> struct SimtShape {
  typedef typename Cfg::Problem P;
  static constexpr long long M = P::M, N = P::N, K = P::K;
  static constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, TM = Cfg::TM,
                       TN = Cfg::TN;
  static constexpr int A_AXIS = Cfg::A_AXIS, VA = Cfg::VA, B_AXIS = Cfg::B_AXIS,
                       VB = Cfg::VB, VC = Cfg::VC;
  static constexpr int THREADS = (BM / TM) * (BN / TN);
  static constexpr int TX = BN / TN;
  // Each thread owns CM chunks of VM rows spaced BM / CM apart (and likewise
  // for columns) so that a warp's shared-memory fragment reads are 16-byte
  // vectors without bank conflicts.
  static constexpr int VM = TM < 4 ? TM : 4, CM = TM / VM;
  static constexpr int VN = TN < 4 ? TN : 4, CN = TN / VN;
  // Units stored transposed into shared memory get a 4-float row pad.
  static constexpr int LDA = BM + (A_AXIS == 0 ? 4 : 0);
  static constexpr int LDB = BN + (B_AXIS == 1 ? 4 : 0);
  static constexpr int A_UNITS = BM * BK / VA, B_UNITS = BK * BN / VB;
  static constexpr int A_LOADS = (A_UNITS + THREADS - 1) / THREADS;
  static constexpr int B_LOADS = (B_UNITS + THREADS - 1) / THREADS;
  static constexpr int STAGES = Cfg::DOUBLE_BUFFER ? 2 : 1;
  static constexpr int TILES_M = (int)((M + BM - 1) / BM),
                       TILES_N = (int)((N + BN - 1) / BN);
  static constexpr int K_TILES = (int)((K + BK - 1) / BK);
};

// A vector of V floats from shared memory into r[0..V).
template <int V>
__device__ __forceinline__ void simtReadShared(const float *p, float *r) {
  if constexpr (V == 4) {
    const float4 t = *reinterpret_cast<const float4 *>(p);
    r[0] = t.x;
    r[1] = t.y;
    r[2] = t.z;
    r[3] = t.w;
  } else if constexpr (V == 2) {
    const float2 t = *reinterpret_cast<const float2 *>(p);
    r[0] = t.x;
    r[1] = t.y;
  } else {
    r[0] = p[0];
  }
}

// One thread's part of a block: the tile loads it holds in registers, its
// accumulators, and the steps of the k loop over them.
template <class Cfg, class Store> struct SimtThread {
  typedef SimtShape<Cfg> S;
  typedef typename Cfg::Problem P;
  typedef typename P::idx_t idx_t;
  typedef typename P::TC TC;
  typedef float ATile[S::STAGES][S::BK][S::LDA];
  typedef float BTile[S::STAGES][S::BK][S::LDB];

  const Store &out;
  int tid, tx, ty;
  idx_t m0, n0, batch;
  float ra[S::A_LOADS][S::VA], rb[S::B_LOADS][S::VB];
  float acc[S::TM][S::TN];

  __device__ __forceinline__ SimtThread(const Store &out) : out(out) {
    tid = threadIdx.x;
    tx = tid % S::TX;
    ty = tid / S::TX;
    // Grouped tile order: GROUP_M consecutive tile rows reuse B tiles in L2.
    constexpr int GROUP_M = Cfg::GROUP_M;
    const int pid = blockIdx.x;
    const int group_width = GROUP_M * S::TILES_N;
    const int first_m = (pid / group_width) * GROUP_M;
    const int group_rows = min(S::TILES_M - first_m, GROUP_M);
    const int tile_m = first_m + (pid % group_width) % group_rows;
    const int tile_n = (pid % group_width) / group_rows;
    m0 = (idx_t)tile_m * S::BM;
    n0 = (idx_t)tile_n * S::BN;
    batch = blockIdx.y;
#pragma unroll
    for (int i = 0; i < S::TM; ++i)
#pragma unroll
      for (int j = 0; j < S::TN; ++j)
        acc[i][j] = 0.f;
  }

  // Global -> registers; out-of-range elements read as zero.
  __device__ __forceinline__ void
  loadTiles(const typename P::TA *__restrict__ A,
            const typename P::TB *__restrict__ B, int kt) {
    const idx_t k0 = (idx_t)kt * S::BK;
    const idx_t b = batch;
    const Store &o = out;
    loadOperand<S::A_UNITS, S::A_AXIS == 0 ? S::BK : S::BM, S::A_AXIS == 0,
                Store::kPrologueA>(
        ra, A, m0, k0, S::M,
        [&](idx_t m, idx_t k) { return P::a_off(b, m, k); },
        [&](idx_t m, idx_t k, float x) {
          return SimtPrologue<Store::kPrologueA>::a(o, b, m, k, x);
        });
    loadOperand<S::B_UNITS, S::B_AXIS == 0 ? S::BN : S::BK, S::B_AXIS == 1,
                Store::kPrologueB>(
        rb, B, n0, k0, S::N,
        [&](idx_t n, idx_t k) { return P::b_off(b, k, n); },
        [&](idx_t n, idx_t k, float x) {
          return SimtPrologue<Store::kPrologueB>::b(o, b, k, n, x);
        });
  }

  // One operand's k tile into r: UNITS loads of V elements, ROW_LEN a row;
  // rows run along x (m for A, n for B) when ROWS_ARE_X, else along k, and a
  // load's V elements along the other axis. off(x, k) is an element's offset
  // in src; pro(x, k, value) the operand's prologue (with PROLOGUE).
  template <int UNITS, int ROW_LEN, bool ROWS_ARE_X, bool PROLOGUE, int LOADS,
            int V, class T, class Off, class Pro>
  __device__ __forceinline__ void
  loadOperand(float (&r)[LOADS][V], const T *__restrict__ src, idx_t x0,
              idx_t k0, long long X, Off off, Pro pro) {
#pragma unroll
    for (int i = 0; i < LOADS; ++i) {
      const int u = tid + i * S::THREADS;
      const int row = u / (ROW_LEN / V), col = (u % (ROW_LEN / V)) * V;
      const idx_t x = x0 + (ROWS_ARE_X ? row : col),
                  k = k0 + (ROWS_ARE_X ? col : row);
      if ((UNITS % S::THREADS == 0 || u < UNITS) && x < X && k < S::K) {
        simtLoadVec<V>(src + off(x, k), r[i]);
        if constexpr (PROLOGUE) {
#pragma unroll
          for (int v = 0; v < V; ++v)
            r[i][v] = pro(x + (ROWS_ARE_X ? 0 : v), k + (ROWS_ARE_X ? v : 0),
                          r[i][v]);
        }
      } else {
#pragma unroll
        for (int v = 0; v < V; ++v)
          r[i][v] = 0.f;
      }
    }
  }

  // Registers -> shared memory, k-major for both tiles.
  __device__ __forceinline__ void storeTiles(ATile &As, BTile &Bs, int s) {
    storeOperand<S::A_UNITS, S::A_AXIS == 0 ? S::BK : S::BM, S::A_AXIS == 0>(
        As[s], ra);
    storeOperand<S::B_UNITS, S::B_AXIS == 0 ? S::BN : S::BK, S::B_AXIS == 1>(
        Bs[s], rb);
  }

  // The loads of loadOperand (same UNITS, ROW_LEN, ROWS_ARE_X) into a
  // k-major stage tile[k][x].
  template <int UNITS, int ROW_LEN, bool ROWS_ARE_X, int LOADS, int V, int LD>
  __device__ __forceinline__ void storeOperand(float (&tile)[S::BK][LD],
                                               const float (&r)[LOADS][V]) {
#pragma unroll
    for (int i = 0; i < LOADS; ++i) {
      const int u = tid + i * S::THREADS;
      if (UNITS % S::THREADS != 0 && u >= UNITS)
        break;
      const int row = u / (ROW_LEN / V), col = (u % (ROW_LEN / V)) * V;
      if constexpr (ROWS_ARE_X) {
#pragma unroll
        for (int v = 0; v < V; ++v)
          tile[col + v][row] = r[i][v];
      } else if constexpr (V == 4) {
        *reinterpret_cast<float4 *>(&tile[row][col]) =
            make_float4(r[i][0], r[i][1], r[i][2], r[i][3]);
      } else {
#pragma unroll
        for (int v = 0; v < V; ++v)
          tile[row][col + v] = r[i][v];
      }
    }
  }

  // acc += the products of stage s.
  __device__ __forceinline__ void compute(const ATile &As, const BTile &Bs,
                                          int s) {
#pragma unroll
    for (int kk = 0; kk < S::BK; ++kk) {
      float a[S::TM], b[S::TN];
#pragma unroll
      for (int c = 0; c < S::CM; ++c)
        simtReadShared<S::VM>(&As[s][kk][c * (S::BM / S::CM) + ty * S::VM],
                              a + c * S::VM);
#pragma unroll
      for (int c = 0; c < S::CN; ++c)
        simtReadShared<S::VN>(&Bs[s][kk][c * (S::BN / S::CN) + tx * S::VN],
                              b + c * S::VN);
#pragma unroll
      for (int i = 0; i < S::TM; ++i)
#pragma unroll
        for (int j = 0; j < S::TN; ++j)
          acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
  }

  // C += acc (linalg contractions accumulate into their output), or C =
  // kInit + acc when the problem's fill of C is part of the kernel.
  __device__ __forceinline__ void finish(TC *__restrict__ C) {
    constexpr int VM = S::VM, VN = S::VN, VC = S::VC;
#pragma unroll
    for (int i = 0; i < S::TM; ++i) {
      const idx_t m = m0 + (i / VM) * (S::BM / S::CM) + ty * VM + (i % VM);
      if (m >= S::M)
        continue;
#pragma unroll
      for (int c = 0; c < S::CN; ++c) {
        const idx_t n = n0 + c * (S::BN / S::CN) + tx * VN;
        if constexpr (Store::kStore) {
#pragma unroll
          for (int j = 0; j < VN; ++j)
            if (n + j < S::N)
              out.store((int)batch, (int)m, (int)(n + j), acc[i][c * VN + j]);
        } else if constexpr (VC == VN && VC > 1) {
          if (n < S::N) {
            TC *p = C + P::c_off(batch, m, n);
            StarkVec<TC, VC> v;
            if constexpr (!P::kInitOut)
              v = *reinterpret_cast<StarkVec<TC, VC> *>(p);
#pragma unroll
            for (int j = 0; j < VC; ++j)
              v.v[j] = stark_cast<TC>(
                  (P::kInitOut ? P::kInit : (float)stark_widen(v.v[j])) +
                  acc[i][c * VN + j]);
            *reinterpret_cast<StarkVec<TC, VC> *>(p) = v;
          }
        } else {
#pragma unroll
          for (int j = 0; j < VN; ++j) {
            if (n + j < S::N) {
              TC *p = C + P::c_off(batch, m, n + j);
              *p = stark_cast<TC>(
                  (P::kInitOut ? P::kInit : (float)stark_widen(*p)) +
                  acc[i][c * VN + j]);
            }
          }
        }
      }
    }
  }
};

// One block of the GEMM; the entry that runs it is generated.
template <class Cfg, class Store = SimtStoreToC>
__device__ __forceinline__ void
gemmSimtBlock(const typename Cfg::Problem::TA *__restrict__ A,
              const typename Cfg::Problem::TB *__restrict__ B,
              typename Cfg::Problem::TC *__restrict__ C,
              const Store &out = Store()) {
  typedef SimtThread<Cfg, Store> T;
  __shared__ __align__(16) typename T::ATile As;
  __shared__ __align__(16) typename T::BTile Bs;
  T th(out);
  th.loadTiles(A, B, 0);
  th.storeTiles(As, Bs, 0);
  __syncthreads();
  for (int kt = 0; kt < T::S::K_TILES; ++kt) {
    if constexpr (Cfg::DOUBLE_BUFFER) {
      // The next tile's global loads are in flight while this one computes.
      const int cur = kt & 1;
      if (kt + 1 < T::S::K_TILES)
        th.loadTiles(A, B, kt + 1);
      th.compute(As, Bs, cur);
      if (kt + 1 < T::S::K_TILES)
        th.storeTiles(As, Bs, cur ^ 1);
      __syncthreads();
    } else {
      th.compute(As, Bs, 0);
      __syncthreads();
      if (kt + 1 < T::S::K_TILES) {
        th.loadTiles(A, B, kt + 1);
        th.storeTiles(As, Bs, 0);
      }
      __syncthreads();
    }
  }
  th.finish(C);
}

} // namespace stark_kernels
