//===- GemmFamily.cpp - The SIMT GEMM family (gemm) -----------------------===//

#include "GemmCommon.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

//===----------------------------------------------------------------------===//
// SIMT GEMM
//===----------------------------------------------------------------------===//

namespace {
/// Derived layout of one SIMT GEMM instance.
struct SimtLayout {
  int64_t threads = 0;
  int aAxis = 0, va = 1; // 0: A units run along k, 1: along m
  int bAxis = 0, vb = 1; // 0: B units run along n, 1: along k
  int64_t vc = 1;
  int64_t sharedBytes = 0;
  int64_t registers = 0;
};
} // namespace

static bool isPow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

static FailureOr<SimtLayout>
layoutSimt(const ProblemView &view, const GemmParams &p, std::string &whyNot) {
  const ContractionView &c = *view.contraction;
  const OperandView &a = view.inputs[0], &b = view.inputs[1],
                    &out = view.outputs[0];
  SimtLayout l;
  if (!isPow2(p.tm) || !isPow2(p.tn) || p.tm > 16 || p.tn > 16 || p.bm % p.tm ||
      p.bn % p.tn || p.bk < 1 || p.groupM < 1 || p.minBlocks < 1 ||
      p.minBlocks > 32) {
    whyNot = "tm and tn must be powers of two up to 16 dividing bm and bn, "
             "bk, group_m and min_blocks positive";
    return failure();
  }
  l.threads = (p.bm / p.tm) * (p.bn / p.tn);
  if (l.threads < 32 || l.threads > 1024 || l.threads % 32) {
    whyNot = llvm::formatv("(bm/tm)*(bn/tn) = {0} threads; must be a "
                           "multiple of 32 in [32, 1024]",
                           l.threads);
    return failure();
  }
  int64_t vm = std::min<int64_t>(p.tm, 4), vn = std::min<int64_t>(p.tn, 4);
  // A: vector units along k (A row-major) or along m (A transposed).
  int64_t ak = vectorWidthAlong(a.access, c.kLoops, view.loopRanges, 4);
  int64_t am = vectorWidthAlong(a.access, c.mLoops, view.loopRanges, 4);
  while (ak > 1 && p.bk % ak)
    ak /= 2;
  while (am > 1 && p.bm % am)
    am /= 2;
  if (ak >= am && ak > 1) {
    l.aAxis = 0;
    l.va = ak;
  } else if (am > 1) {
    l.aAxis = 1;
    l.va = am;
  } else {
    l.aAxis = c.transposeA ? 1 : 0;
  }
  int64_t bn = vectorWidthAlong(b.access, c.nLoops, view.loopRanges, 4);
  int64_t bk = vectorWidthAlong(b.access, c.kLoops, view.loopRanges, 4);
  while (bn > 1 && p.bn % bn)
    bn /= 2;
  while (bk > 1 && p.bk % bk)
    bk /= 2;
  if (bn >= bk && bn > 1) {
    l.bAxis = 0;
    l.vb = bn;
  } else if (bk > 1) {
    l.bAxis = 1;
    l.vb = bk;
  } else {
    l.bAxis = c.transposeB ? 1 : 0;
  }
  l.vc = vectorWidthAlong(out.access, c.nLoops, view.loopRanges, vn);
  if (l.vc != vn)
    l.vc = 1;
  int64_t lda = p.bm + (l.aAxis == 0 ? 4 : 0);
  int64_t ldb = p.bn + (l.bAxis == 1 ? 4 : 0);
  int64_t stages = p.doubleBuffer ? 2 : 1;
  l.sharedBytes = stages * p.bk * (lda + ldb) * 4;
  if (l.sharedBytes > 48 * 1024) {
    whyNot = llvm::formatv("{0} bytes of static shared memory (limit 49152)",
                           l.sharedBytes);
    return failure();
  }
  int64_t aLoads = ceilDiv(p.bm * p.bk / l.va, l.threads) * l.va;
  int64_t bLoads = ceilDiv(p.bn * p.bk / l.vb, l.threads) * l.vb;
  // Accumulators, one k-slice of fragments, staged loads, addressing.
  l.registers = p.tm * p.tn + p.tm + p.tn + aLoads + bLoads + 32;
  (void)vm;
  return l;
}

/// The family's parameters.
static ArrayRef<ParamField<GemmParams>> getGemmFields() {
  static const ParamField<GemmParams> fields[] = {
      {"bm", &GemmParams::bm},
      {"bn", &GemmParams::bn},
      {"bk", &GemmParams::bk},
      {"tm", &GemmParams::tm},
      {"tn", &GemmParams::tn},
      {"double_buffer", &GemmParams::doubleBuffer},
      {"group_m", &GemmParams::groupM},
      {"min_blocks", &GemmParams::minBlocks}};
  return fields;
}

FailureOr<CudaKernelPlan>
mlir::stark::generateGemmKernel(const ProblemView &view, const GemmParams &p,
                                std::string &whyNot) {
  if (failed(checkGemmApplies(view, whyNot)))
    return failure();
  FailureOr<SimtLayout> layout = layoutSimt(view, p, whyNot);
  if (failed(layout))
    return failure();
  const ContractionView &c = *view.contraction;
  std::string idx = getIndexType(view);

  std::string s = getCudaPrelude(view);
  llvm::raw_string_ostream os(s);
  os << "// SIMT GEMM: C[b, m, n] += sum_k A[b, m, k] * B[b, k, n], f32 "
        "accumulation.\n";
  os << emitProblemConstants(c);
  os << llvm::formatv(
      "constexpr int BM = {0}, BN = {1}, BK = {2}, TM = {3}, TN = {4}, "
      "GROUP_M = {5};\n",
      p.bm, p.bn, p.bk, p.tm, p.tn, p.groupM);
  os << "constexpr bool DOUBLE_BUFFER = " << (p.doubleBuffer ? "true" : "false")
     << ";\n";
  os << "constexpr int MIN_BLOCKS = " << p.minBlocks << ";\n";
  os << "// A units run along " << (layout->aAxis == 0 ? "k" : "m") << ", "
     << layout->va << " elements each; B units along "
     << (layout->bAxis == 0 ? "n" : "k") << ", " << layout->vb
     << " each; C is written " << layout->vc << " at a time.\n";
  os << "constexpr int A_AXIS = " << layout->aAxis << ", VA = " << layout->va
     << ", B_AXIS = " << layout->bAxis << ", VB = " << layout->vb
     << ", VC = " << layout->vc << ";\n";
  os << "typedef " << getCudaStorageType(c.aKind) << " TA;\n";
  os << "typedef " << getCudaStorageType(c.bKind) << " TB;\n";
  os << "typedef " << getCudaStorageType(c.cKind) << " TC;\n";
  os << "typedef " << idx << " idx_t;\n\n";
  os << emitContractionAddressing(view, "idx_t") << "\n";
  os << R"cuda(constexpr int THREADS = (BM / TM) * (BN / TN);
constexpr int TX = BN / TN;
// Each thread owns CM chunks of VM rows spaced BM / CM apart (and likewise
// for columns) so that a warp's shared-memory fragment reads are 16-byte
// vectors without bank conflicts.
constexpr int VM = TM < 4 ? TM : 4, CM = TM / VM;
constexpr int VN = TN < 4 ? TN : 4, CN = TN / VN;
// Units stored transposed into shared memory get a 4-float row pad.
constexpr int LDA = BM + (A_AXIS == 0 ? 4 : 0);
constexpr int LDB = BN + (B_AXIS == 1 ? 4 : 0);
constexpr int A_UNITS = BM * BK / VA, B_UNITS = BK * BN / VB;
constexpr int A_LOADS = (A_UNITS + THREADS - 1) / THREADS;
constexpr int B_LOADS = (B_UNITS + THREADS - 1) / THREADS;
constexpr int STAGES = DOUBLE_BUFFER ? 2 : 1;
constexpr int TILES_M = (int)((M + BM - 1) / BM), TILES_N = (int)((N + BN - 1) / BN);
constexpr int K_TILES = (int)((K + BK - 1) / BK);

template <int V, class T>
__device__ __forceinline__ void stark_load_vec(const T* p, float (&r)[V]) {
  const StarkVec<T, V> v = *reinterpret_cast<const StarkVec<T, V>*>(p);
#pragma unroll
  for (int i = 0; i < V; ++i) r[i] = (float)stark_widen(v.v[i]);
}

)cuda";
  os << "extern \"C\" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) "
        "stark_gemm("
     << getKernelParameters(view) << ") {\n";
  os << "  const TA* __restrict__ A = " << argName(view.inputs[0].argNumber)
     << ";\n";
  os << "  const TB* __restrict__ B = " << argName(view.inputs[1].argNumber)
     << ";\n";
  os << "  TC* __restrict__ C = " << argName(view.outputs[0].argNumber)
     << ";\n";
  os << R"cuda(  __shared__ __align__(16) float As[STAGES][BK][LDA];
  __shared__ __align__(16) float Bs[STAGES][BK][LDB];
  const int tid = threadIdx.x;
  const int tx = tid % TX, ty = tid / TX;
  // Grouped tile order: GROUP_M consecutive tile rows reuse B tiles in L2.
  const int pid = blockIdx.x;
  const int group_width = GROUP_M * TILES_N;
  const int first_m = (pid / group_width) * GROUP_M;
  const int group_rows = min(TILES_M - first_m, GROUP_M);
  const int tile_m = first_m + (pid % group_width) % group_rows;
  const int tile_n = (pid % group_width) / group_rows;
  const idx_t m0 = (idx_t)tile_m * BM, n0 = (idx_t)tile_n * BN;
  const idx_t batch = blockIdx.y;

  float ra[A_LOADS][VA], rb[B_LOADS][VB];
  // Global -> registers; out-of-range elements read as zero.
  auto load_tiles = [&](int kt) {
    const idx_t k0 = (idx_t)kt * BK;
#pragma unroll
    for (int i = 0; i < A_LOADS; ++i) {
      const int u = tid + i * THREADS;
      int mm, kk;
      if constexpr (A_AXIS == 0) { mm = u / (BK / VA); kk = (u % (BK / VA)) * VA; }
      else { kk = u / (BM / VA); mm = (u % (BM / VA)) * VA; }
      const idx_t m = m0 + mm, k = k0 + kk;
      if ((A_UNITS % THREADS == 0 || u < A_UNITS) && m < M && k < K) {
        stark_load_vec<VA>(A + a_off(batch, m, k), ra[i]);
      } else {
#pragma unroll
        for (int v = 0; v < VA; ++v) ra[i][v] = 0.f;
      }
    }
#pragma unroll
    for (int i = 0; i < B_LOADS; ++i) {
      const int u = tid + i * THREADS;
      int kk, nn;
      if constexpr (B_AXIS == 0) { kk = u / (BN / VB); nn = (u % (BN / VB)) * VB; }
      else { nn = u / (BK / VB); kk = (u % (BK / VB)) * VB; }
      const idx_t k = k0 + kk, n = n0 + nn;
      if ((B_UNITS % THREADS == 0 || u < B_UNITS) && k < K && n < N) {
        stark_load_vec<VB>(B + b_off(batch, k, n), rb[i]);
      } else {
#pragma unroll
        for (int v = 0; v < VB; ++v) rb[i][v] = 0.f;
      }
    }
  };
  // Registers -> shared memory, k-major for both tiles.
  auto store_tiles = [&](int s) {
#pragma unroll
    for (int i = 0; i < A_LOADS; ++i) {
      const int u = tid + i * THREADS;
      if (A_UNITS % THREADS != 0 && u >= A_UNITS) break;
      if constexpr (A_AXIS == 0) {
        const int mm = u / (BK / VA), kk = (u % (BK / VA)) * VA;
#pragma unroll
        for (int v = 0; v < VA; ++v) As[s][kk + v][mm] = ra[i][v];
      } else {
        const int kk = u / (BM / VA), mm = (u % (BM / VA)) * VA;
        if constexpr (VA == 4) {
          *reinterpret_cast<float4*>(&As[s][kk][mm]) = make_float4(ra[i][0], ra[i][1], ra[i][2], ra[i][3]);
        } else {
#pragma unroll
          for (int v = 0; v < VA; ++v) As[s][kk][mm + v] = ra[i][v];
        }
      }
    }
#pragma unroll
    for (int i = 0; i < B_LOADS; ++i) {
      const int u = tid + i * THREADS;
      if (B_UNITS % THREADS != 0 && u >= B_UNITS) break;
      if constexpr (B_AXIS == 0) {
        const int kk = u / (BN / VB), nn = (u % (BN / VB)) * VB;
        if constexpr (VB == 4) {
          *reinterpret_cast<float4*>(&Bs[s][kk][nn]) = make_float4(rb[i][0], rb[i][1], rb[i][2], rb[i][3]);
        } else {
#pragma unroll
          for (int v = 0; v < VB; ++v) Bs[s][kk][nn + v] = rb[i][v];
        }
      } else {
        const int nn = u / (BK / VB), kk = (u % (BK / VB)) * VB;
#pragma unroll
        for (int v = 0; v < VB; ++v) Bs[s][kk + v][nn] = rb[i][v];
      }
    }
  };

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

  auto compute = [&](int s) {
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], b[TN];
#pragma unroll
      for (int c = 0; c < CM; ++c) {
        const float* p = &As[s][kk][c * (BM / CM) + ty * VM];
        if constexpr (VM == 4) {
          const float4 t = *reinterpret_cast<const float4*>(p);
          a[c * 4 + 0] = t.x; a[c * 4 + 1] = t.y; a[c * 4 + 2] = t.z; a[c * 4 + 3] = t.w;
        } else if constexpr (VM == 2) {
          const float2 t = *reinterpret_cast<const float2*>(p);
          a[c * 2 + 0] = t.x; a[c * 2 + 1] = t.y;
        } else {
          a[c] = p[0];
        }
      }
#pragma unroll
      for (int c = 0; c < CN; ++c) {
        const float* p = &Bs[s][kk][c * (BN / CN) + tx * VN];
        if constexpr (VN == 4) {
          const float4 t = *reinterpret_cast<const float4*>(p);
          b[c * 4 + 0] = t.x; b[c * 4 + 1] = t.y; b[c * 4 + 2] = t.z; b[c * 4 + 3] = t.w;
        } else if constexpr (VN == 2) {
          const float2 t = *reinterpret_cast<const float2*>(p);
          b[c * 2 + 0] = t.x; b[c * 2 + 1] = t.y;
        } else {
          b[c] = p[0];
        }
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
  };

  load_tiles(0);
  store_tiles(0);
  __syncthreads();
  for (int kt = 0; kt < K_TILES; ++kt) {
    if constexpr (DOUBLE_BUFFER) {
      // The next tile's global loads are in flight while this one computes.
      const int cur = kt & 1;
      if (kt + 1 < K_TILES) load_tiles(kt + 1);
      compute(cur);
      if (kt + 1 < K_TILES) store_tiles(cur ^ 1);
      __syncthreads();
    } else {
      compute(0);
      __syncthreads();
      if (kt + 1 < K_TILES) {
        load_tiles(kt + 1);
        store_tiles(0);
      }
      __syncthreads();
    }
  }

  // C += acc (linalg contractions accumulate into their output).
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const idx_t m = m0 + (i / VM) * (BM / CM) + ty * VM + (i % VM);
    if (m >= M) continue;
#pragma unroll
    for (int c = 0; c < CN; ++c) {
      const idx_t n = n0 + c * (BN / CN) + tx * VN;
      if constexpr (VC == VN && VC > 1) {
        if (n < N) {
          TC* p = C + c_off(batch, m, n);
          StarkVec<TC, VC> v = *reinterpret_cast<StarkVec<TC, VC>*>(p);
#pragma unroll
          for (int j = 0; j < VC; ++j)
            v.v[j] = stark_cast<TC>((float)stark_widen(v.v[j]) + acc[i][c * VN + j]);
          *reinterpret_cast<StarkVec<TC, VC>*>(p) = v;
        }
      } else {
#pragma unroll
        for (int j = 0; j < VN; ++j) {
          if (n + j < N) {
            TC* p = C + c_off(batch, m, n + j);
            *p = stark_cast<TC>((float)stark_widen(*p) + acc[i][c * VN + j]);
          }
        }
      }
    }
  }
}
)cuda";

  CudaKernelPlan plan = makeGemmPlan(
      c, "gemm", "stark_gemm", std::move(s), p.bm, p.bn, layout->threads,
      layout->sharedBytes, /*dynamicShared=*/false);
  setParams(plan, p, getGemmFields());
  return plan;
}

std::vector<GemmParams> cudatpl::enumerateGemm(const ProblemView &view,
                                               const HardwareProfile &profile) {
  static const int64_t shapes[][5] = {
      // bm, bn, bk, tm, tn
      {128, 128, 8, 8, 8}, {128, 128, 16, 8, 8}, {128, 64, 8, 8, 8},
      {64, 128, 8, 8, 8},  {128, 64, 16, 8, 4},  {64, 128, 16, 4, 8},
      {64, 64, 8, 4, 4},   {64, 64, 16, 8, 8},   {64, 64, 16, 4, 4},
      {128, 32, 8, 4, 4},  {32, 128, 8, 4, 4},   {32, 64, 8, 4, 4},
      {64, 32, 8, 4, 4},   {32, 32, 8, 4, 4},    {32, 32, 16, 2, 2},
      {16, 64, 8, 2, 4},   {64, 16, 8, 4, 2},    {16, 16, 16, 1, 1}};
  const ContractionView &c = *view.contraction;
  // Static shared memory: the layout keeps within 48 KiB.
  BlockLimits limits(profile);
  std::vector<std::pair<GemmParams, double>> scored;
  for (bool db : {true, false}) {
    for (auto &shape : shapes) {
      for (int64_t minBlocks : {1, 2}) {
        GemmParams p;
        p.minBlocks = minBlocks;
        p.bm = shape[0];
        p.bn = shape[1];
        p.bk = shape[2];
        p.tm = shape[3];
        p.tn = shape[4];
        p.doubleBuffer = db;
        std::string ignored;
        FailureOr<SimtLayout> l = layoutSimt(view, p, ignored);
        if (failed(l) || !limits.fits(l->sharedBytes, l->threads, l->registers))
          continue;
        double reuse = double(p.tm * p.tn) / double(p.tm + p.tn) / 4.0;
        double score = tileScore(c, p.bm, p.bn, reuse, profile);
        // Single buffering only as a fallback (fewer registers). Two blocks
        // per SM hide latency better when their registers fit, so that cap
        // goes right before its uncapped twin.
        if (!db)
          score *= 0.5;
        if (minBlocks > 1) {
          if (2 * l->threads > 2048 || l->registers > 65536 / (2 * l->threads))
            continue;
          score *= 1.01;
        }
        scored.push_back({p, score});
      }
    }
  }
  return sortByScore(std::move(scored));
}

//===----------------------------------------------------------------------===//

namespace {
class GemmFamily : public StructParamFamily<GemmParams> {
public:
  GemmFamily() : StructParamFamily("gemm", getGemmFields()) {}

  LogicalResult check(const ProblemView &view, bool allowTf32,
                      std::string &whyNot) const override {
    return checkGemmApplies(view, whyNot);
  }

private:
  std::vector<GemmParams> enumerateStructs(const ProblemView &view,
                                           const HardwareProfile &profile,
                                           bool allowTf32) const override {
    return enumerateGemm(view, profile);
  }

  FailureOr<CudaKernelPlan> generateStruct(const ProblemView &view,
                                           const GemmParams &p,
                                           std::string &whyNot) const override {
    return generateGemmKernel(view, p, whyNot);
  }
};
} // namespace

std::unique_ptr<StrategyFamily> mlir::stark::createGemmFamily() {
  return std::make_unique<GemmFamily>();
}
