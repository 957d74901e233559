//===- CudaTemplatesGemm.cpp - SIMT and tensor-core GEMM templates --------===//
//
// Both GEMM families work on the ContractionView of a problem, so the same
// kernels serve matmul, batch_matmul, transposed operands, matvec shapes and
// convolutions (implicit GEMM: the address of an operand element is a linear
// function of the decoded m / n / k coordinates, whatever the layout).
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

/// Largest vector width (up to `maxVec`, a power of two) for loads of
/// `access` that run along the innermost loop of `group`: that loop has unit
/// stride, its range is a multiple of the width and no other term breaks the
/// alignment.
static int64_t vectorWidthAlong(const LinearAccess &access,
                                ArrayRef<unsigned> group,
                                ArrayRef<int64_t> ranges, int64_t maxVec) {
  if (group.empty())
    return 1;
  unsigned inner = group.back();
  if (access.coefficients[inner] != 1)
    return 1;
  for (int64_t v = maxVec; v > 1; v /= 2)
    if (ranges[inner] % v == 0 && isAlignedExcept(access, {inner}, v))
      return v;
  return 1;
}

/// `const idx_t l<d> = ...;` for the loops of one group decoded from `var`.
static std::string decodeGroup(StringRef indexType, StringRef var,
                               ArrayRef<unsigned> loops,
                               ArrayRef<int64_t> ranges,
                               ArrayRef<std::string> names) {
  return emitDecode("  ", indexType, var, loops, ranges, names);
}

/// The three address functions of a contraction: a_off(b, m, k),
/// b_off(b, k, n), c_off(b, m, n).
static std::string emitContractionAddressing(const ProblemView &view,
                                             StringRef indexType) {
  const ContractionView &c = *view.contraction;
  SmallVector<std::string> names;
  for (int64_t d = 0; d < view.numLoops(); ++d)
    names.push_back("l" + std::to_string(d));
  std::string idx = indexType.str();
  auto function = [&](StringRef name, StringRef params,
                      ArrayRef<std::pair<StringRef, ArrayRef<unsigned>>> groups,
                      const LinearAccess &access) {
    std::string s = "__device__ __forceinline__ " + idx + " " + name.str() +
                    "(" + params.str() + ") {\n";
    SmallVector<unsigned> all;
    for (auto &[var, loops] : groups) {
      s += decodeGroup(idx, var, loops, view.loopRanges, names);
      all.append(loops.begin(), loops.end());
    }
    s += "  return " + emitLinearOffset(access, all, names, true) + ";\n}\n";
    return s;
  };
  std::string s;
  s += function("a_off", idx + " b, " + idx + " m, " + idx + " k",
                {{"b", c.batchLoops}, {"m", c.mLoops}, {"k", c.kLoops}},
                view.inputs[0].access);
  s += function("b_off", idx + " b, " + idx + " k, " + idx + " n",
                {{"b", c.batchLoops}, {"k", c.kLoops}, {"n", c.nLoops}},
                view.inputs[1].access);
  s += function("c_off", idx + " b, " + idx + " m, " + idx + " n",
                {{"b", c.batchLoops}, {"m", c.mLoops}, {"n", c.nLoops}},
                view.outputs[0].access);
  return s;
}

static std::string emitProblemConstants(const ContractionView &c) {
  return llvm::formatv("[[maybe_unused]] constexpr long long M = {0}, N = "
                       "{1}, K = {2}, BATCH = {3};\n",
                       c.m, c.n, c.k, c.batch)
      .str();
}

static bool isGemmStorageKind(ScalarKind k) {
  return k == ScalarKind::F32 || k == ScalarKind::F16 || k == ScalarKind::BF16;
}

static LogicalResult checkContraction(const ProblemView &view,
                                      std::string &whyNot) {
  if (!view.contraction) {
    whyNot = "the problem is not a contraction (out += a * b over linear "
             "maps)";
    return failure();
  }
  const ContractionView &c = *view.contraction;
  if (c.batch > 65535) {
    whyNot = "batch larger than the grid's y limit (65535)";
    return failure();
  }
  return success();
}

LogicalResult cudatpl::checkGemmApplies(const ProblemView &view,
                                        std::string &whyNot) {
  if (failed(checkContraction(view, whyNot)))
    return failure();
  const ContractionView &c = *view.contraction;
  if (!isGemmStorageKind(c.aKind) || !isGemmStorageKind(c.bKind) ||
      !isGemmStorageKind(c.cKind)) {
    whyNot = "gemm needs f32, f16 or bf16 operands";
    return failure();
  }
  return success();
}

LogicalResult cudatpl::checkGemmTcApplies(const ProblemView &view,
                                          bool allowTf32, std::string &whyNot) {
  if (failed(checkContraction(view, whyNot)))
    return failure();
  const ContractionView &c = *view.contraction;
  bool half = c.aKind == ScalarKind::F16 && c.bKind == ScalarKind::F16;
  bool bf16 = c.aKind == ScalarKind::BF16 && c.bKind == ScalarKind::BF16;
  bool f32 = c.aKind == ScalarKind::F32 && c.bKind == ScalarKind::F32;
  if (!half && !bf16 && !(f32 && allowTf32)) {
    whyNot = f32 ? "f32 inputs use tensor cores only as tf32, which needs "
                   "allow_tf32=1"
                 : "gemm_tc needs both inputs f16 or both bf16 (or f32 with "
                   "allow_tf32=1)";
    return failure();
  }
  if (!isGemmStorageKind(c.cKind)) {
    whyNot = "gemm_tc needs an f32, f16 or bf16 output";
    return failure();
  }
  return success();
}

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

  CudaKernelPlan plan;
  plan.source = std::move(s);
  plan.family = "gemm";
  CudaKernelPlan::Launch launch;
  launch.kernel = "stark_gemm";
  launch.grid = {ceilDiv(c.m, p.bm) * ceilDiv(c.n, p.bn), c.batch, 1};
  launch.block = {layout->threads, 1, 1};
  plan.launches.push_back(launch);
  plan.sharedBytesPerBlock = layout->sharedBytes;
  plan.threadsPerBlock = layout->threads;
  setParam(plan, "bm", p.bm);
  setParam(plan, "bn", p.bn);
  setParam(plan, "bk", p.bk);
  setParam(plan, "tm", p.tm);
  setParam(plan, "tn", p.tn);
  setParam(plan, "double_buffer", p.doubleBuffer);
  setParam(plan, "group_m", p.groupM);
  setParam(plan, "min_blocks", p.minBlocks);
  return plan;
}

/// Rough merit of a tiling: the fraction of computed outputs that are real,
/// the fraction of SMs the grid fills, and the data reuse of the tile and
/// of the register block.
static double tileScore(const ContractionView &c, int64_t bm, int64_t bn,
                        double reuse, const HardwareProfile &profile) {
  int64_t tilesM = ceilDiv(c.m, bm), tilesN = ceilDiv(c.n, bn);
  double useful =
      double(c.m) * double(c.n) / (double(tilesM * bm) * double(tilesN * bn));
  double blocks = double(tilesM * tilesN * c.batch);
  double sms = double(std::max<int64_t>(profile.numComputeUnits, 1));
  double fill = std::min(1.0, blocks / sms);
  double intensity = double(bm * bn) / double(bm + bn) / 64.0;
  return useful * fill * std::sqrt(intensity) * std::sqrt(reuse);
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
  struct Scored {
    GemmParams p;
    double score;
  };
  std::vector<Scored> scored;
  int64_t maxShared =
      profile.sharedMemoryPerBlock > 0
          ? std::min<int64_t>(profile.sharedMemoryPerBlock, 48 * 1024)
          : 48 * 1024;
  int64_t maxThreads =
      profile.maxThreadsPerBlock > 0 ? profile.maxThreadsPerBlock : 1024;
  int64_t regsPerSm =
      profile.registersPerUnit > 0 ? profile.registersPerUnit : 65536;
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
        if (failed(l) || l->sharedBytes > maxShared ||
            l->threads > maxThreads || l->registers > 255 ||
            l->registers * l->threads > regsPerSm)
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
  std::stable_sort(
      scored.begin(), scored.end(),
      [](const Scored &a, const Scored &b) { return a.score > b.score; });
  std::vector<GemmParams> out;
  for (const Scored &s : scored)
    out.push_back(s.p);
  return out;
}

//===----------------------------------------------------------------------===//
// Tensor-core GEMM (WMMA)
//===----------------------------------------------------------------------===//

namespace {
struct TcLayout {
  bool tf32 = false;
  int64_t elemBytes = 2, fk = 16, pad = 8;
  int64_t threads = 0, warps = 0;
  int aAxis = 0, va = 1; // 0: A tile stored [BM][BK] (k contiguous)
  int bAxis = 0, vb = 1; // 0: B tile stored [BK][BN] (n contiguous)
  int64_t pipeBytes = 0, sharedBytes = 0;
  int64_t registers = 0;
};
} // namespace

static FailureOr<TcLayout>
layoutTc(const ProblemView &view, const GemmTcParams &p, std::string &whyNot) {
  const ContractionView &c = *view.contraction;
  TcLayout l;
  l.tf32 = c.aKind == ScalarKind::F32;
  l.elemBytes = l.tf32 ? 4 : 2;
  l.fk = l.tf32 ? 8 : 16;
  l.pad = 16 / l.elemBytes;
  if (p.wm % 16 || p.wn % 16 || p.wm <= 0 || p.wn <= 0 || p.bm % p.wm ||
      p.bn % p.wn || p.bk % l.fk || p.bk <= 0 || p.stages < 2 || p.stages > 8 ||
      p.groupM < 1) {
    whyNot = llvm::formatv("wm and wn must be multiples of 16 dividing bm and "
                           "bn, bk a multiple of {0}, stages in [2, 8]",
                           l.fk);
    return failure();
  }
  l.warps = (p.bm / p.wm) * (p.bn / p.wn);
  l.threads = 32 * l.warps;
  if (l.threads > 1024) {
    whyNot = llvm::formatv("{0} threads per block (limit 1024)", l.threads);
    return failure();
  }
  // 16-byte cp.async units where the layout allows, else element copies.
  int64_t unit = 16 / l.elemBytes;
  const OperandView &a = view.inputs[0], &b = view.inputs[1];
  int64_t ak = vectorWidthAlong(a.access, c.kLoops, view.loopRanges, unit);
  int64_t am = vectorWidthAlong(a.access, c.mLoops, view.loopRanges, unit);
  if (ak == unit) {
    l.aAxis = 0;
    l.va = unit;
  } else if (am == unit) {
    l.aAxis = 1;
    l.va = unit;
  } else {
    l.aAxis = c.transposeA ? 1 : 0;
  }
  int64_t bn = vectorWidthAlong(b.access, c.nLoops, view.loopRanges, unit);
  int64_t bk = vectorWidthAlong(b.access, c.kLoops, view.loopRanges, unit);
  if (bn == unit) {
    l.bAxis = 0;
    l.vb = unit;
  } else if (bk == unit) {
    l.bAxis = 1;
    l.vb = unit;
  } else {
    l.bAxis = c.transposeB ? 1 : 0;
  }
  int64_t aStage = l.aAxis == 0 ? p.bm * (p.bk + l.pad) : p.bk * (p.bm + l.pad);
  int64_t bStage = l.bAxis == 0 ? p.bk * (p.bn + l.pad) : p.bn * (p.bk + l.pad);
  l.pipeBytes = p.stages * (aStage + bStage) * l.elemBytes;
  l.sharedBytes = l.pipeBytes + l.warps * 256 * 4;
  int64_t fm = p.wm / 16, fn = p.wn / 16;
  // Accumulator fragments (8 floats each), operand fragments, addressing.
  l.registers = fm * fn * 8 + (fm + fn) * (l.tf32 ? 4 : 8) + 40;
  return l;
}

FailureOr<CudaKernelPlan>
mlir::stark::generateGemmTcKernel(const ProblemView &view,
                                  const GemmTcParams &p, std::string &whyNot) {
  if (failed(checkGemmTcApplies(view, p.allowTf32, whyNot)))
    return failure();
  FailureOr<TcLayout> layout = layoutTc(view, p, whyNot);
  if (failed(layout))
    return failure();
  const ContractionView &c = *view.contraction;
  std::string idx = getIndexType(view);
  StringRef inType = getCudaStorageType(c.aKind);
  std::string fragType = layout->tf32 ? "wmma::precision::tf32" : inType.str();

  std::string s = getCudaPrelude(view);
  llvm::raw_string_ostream os(s);
  os << "#include <mma.h>\n\n";
  os << "// Tensor-core GEMM (WMMA " << (layout->tf32 ? "tf32" : inType)
     << " inputs, f32 accumulation): C[b, m, n] += sum_k A[b, m, k] * "
        "B[b, k, n].\n";
  os << emitProblemConstants(c);
  os << llvm::formatv("constexpr int BM = {0}, BN = {1}, BK = {2}, WM = {3}, "
                      "WN = {4}, STAGES = {5}, GROUP_M = {6};\n",
                      p.bm, p.bn, p.bk, p.wm, p.wn, p.stages, p.groupM);
  os << "constexpr int FK = " << layout->fk << ", PAD = " << layout->pad
     << ";\n";
  os << "// A tile stored " << (layout->aAxis == 0 ? "[BM][BK]" : "[BK][BM]")
     << ", copied " << layout->va << " elements at a time; B tile stored "
     << (layout->bAxis == 0 ? "[BK][BN]" : "[BN][BK]") << ", " << layout->vb
     << " at a time.\n";
  os << "constexpr int A_AXIS = " << layout->aAxis << ", VA = " << layout->va
     << ", B_AXIS = " << layout->bAxis << ", VB = " << layout->vb << ";\n";
  os << "constexpr bool TF32 = " << (layout->tf32 ? "true" : "false") << ";\n";
  os << "typedef " << inType << " TIn;\n";
  os << "typedef " << getCudaStorageType(c.cKind) << " TC;\n";
  os << "typedef " << idx << " idx_t;\n\n";
  os << emitContractionAddressing(view, "idx_t") << "\n";
  os << "using namespace nvcuda;\n";
  os << "typedef wmma::fragment<wmma::matrix_a, 16, 16, FK, " << fragType
     << ", " << (layout->aAxis == 0 ? "wmma::row_major" : "wmma::col_major")
     << "> FragA;\n";
  os << "typedef wmma::fragment<wmma::matrix_b, 16, 16, FK, " << fragType
     << ", " << (layout->bAxis == 0 ? "wmma::row_major" : "wmma::col_major")
     << "> FragB;\n";
  os << R"cuda(typedef wmma::fragment<wmma::accumulator, 16, 16, FK, float> FragC;

constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN;
constexpr int THREADS = 32 * WARPS_M * WARPS_N;
constexpr int FM = WM / 16, FN = WN / 16;
constexpr int A_COLS = (A_AXIS == 0 ? BK : BM) + PAD;
constexpr int B_COLS = (B_AXIS == 0 ? BN : BK) + PAD;
constexpr int A_STAGE = (A_AXIS == 0 ? BM : BK) * A_COLS;
constexpr int B_STAGE = (B_AXIS == 0 ? BK : BN) * B_COLS;
constexpr int PIPE_BYTES = STAGES * (A_STAGE + B_STAGE) * (int)sizeof(TIn);
constexpr int TILES_M = (int)((M + BM - 1) / BM), TILES_N = (int)((N + BN - 1) / BN);
constexpr int K_TILES = (int)((K + BK - 1) / BK);
constexpr int A_UNITS = BM * BK / VA, B_UNITS = BK * BN / VB;

// 16-byte asynchronous copy; a false predicate writes zeros instead.
__device__ __forceinline__ void stark_cp_async16(void* smem, const void* gmem, bool full) {
  const unsigned dst = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(gmem), "r"(full ? 16 : 0));
}
__device__ __forceinline__ void stark_cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void stark_cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

)cuda";
  // An explicit minimum of one block: without it ptxas was seen to cap the
  // registers of some instances low enough to spill.
  os << "extern \"C\" __global__ void __launch_bounds__(THREADS, 1) "
        "stark_gemm_tc("
     << getKernelParameters(view) << ") {\n";
  os << "  const TIn* __restrict__ A = " << argName(view.inputs[0].argNumber)
     << ";\n";
  os << "  const TIn* __restrict__ B = " << argName(view.inputs[1].argNumber)
     << ";\n";
  os << "  TC* __restrict__ C = " << argName(view.outputs[0].argNumber)
     << ";\n";
  os << R"cuda(  extern __shared__ __align__(128) unsigned char stark_smem[];
  TIn* const a_tiles = reinterpret_cast<TIn*>(stark_smem);
  TIn* const b_tiles = a_tiles + STAGES * A_STAGE;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int warp_m = warp / WARPS_N, warp_n = warp % WARPS_N;
  const int pid = blockIdx.x;
  const int group_width = GROUP_M * TILES_N;
  const int first_m = (pid / group_width) * GROUP_M;
  const int group_rows = min(TILES_M - first_m, GROUP_M);
  const int tile_m = first_m + (pid % group_width) % group_rows;
  const int tile_n = (pid % group_width) / group_rows;
  const idx_t m0 = (idx_t)tile_m * BM, n0 = (idx_t)tile_n * BN;
  const idx_t batch = blockIdx.y;

  auto load_tile = [&](int stage, int kt) {
    const idx_t k0 = (idx_t)kt * BK;
    TIn* as = a_tiles + stage * A_STAGE;
    TIn* bs = b_tiles + stage * B_STAGE;
#pragma unroll
    for (int u = tid; u < A_UNITS; u += THREADS) {
      int r, col;
      idx_t m, k;
      if constexpr (A_AXIS == 0) { r = u / (BK / VA); col = (u % (BK / VA)) * VA; m = m0 + r; k = k0 + col; }
      else { r = u / (BM / VA); col = (u % (BM / VA)) * VA; k = k0 + r; m = m0 + col; }
      const bool ok = m < M && k < K;
      TIn* dst = as + r * A_COLS + col;
      if constexpr (VA > 1) stark_cp_async16(dst, ok ? (const void*)(A + a_off(batch, m, k)) : (const void*)A, ok);
      else *dst = ok ? A[a_off(batch, m, k)] : stark_cast<TIn>(0.f);
    }
#pragma unroll
    for (int u = tid; u < B_UNITS; u += THREADS) {
      int r, col;
      idx_t k, n;
      if constexpr (B_AXIS == 0) { r = u / (BN / VB); col = (u % (BN / VB)) * VB; k = k0 + r; n = n0 + col; }
      else { r = u / (BK / VB); col = (u % (BK / VB)) * VB; n = n0 + r; k = k0 + col; }
      const bool ok = k < K && n < N;
      TIn* dst = bs + r * B_COLS + col;
      if constexpr (VB > 1) stark_cp_async16(dst, ok ? (const void*)(B + b_off(batch, k, n)) : (const void*)B, ok);
      else *dst = ok ? B[b_off(batch, k, n)] : stark_cast<TIn>(0.f);
    }
  };

  FragC acc[FM][FN];
#pragma unroll
  for (int i = 0; i < FM; ++i)
#pragma unroll
    for (int j = 0; j < FN; ++j) wmma::fill_fragment(acc[i][j], 0.f);

  // STAGES - 1 tiles in flight ahead of the one being multiplied.
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < K_TILES) load_tile(s, s);
    stark_cp_async_commit();
  }
  for (int kt = 0; kt < K_TILES; ++kt) {
    stark_cp_async_wait<STAGES - 2>();
    __syncthreads();
    const int next = kt + STAGES - 1;
    if (next < K_TILES) load_tile(next % STAGES, next);
    stark_cp_async_commit();
    const TIn* as = a_tiles + (kt % STAGES) * A_STAGE;
    const TIn* bs = b_tiles + (kt % STAGES) * B_STAGE;
#pragma unroll
    for (int kk = 0; kk < BK; kk += FK) {
      FragA af[FM];
      FragB bf[FN];
#pragma unroll
      for (int i = 0; i < FM; ++i) {
        const int row = warp_m * WM + i * 16;
        wmma::load_matrix_sync(af[i], A_AXIS == 0 ? as + row * A_COLS + kk : as + kk * A_COLS + row, A_COLS);
        if constexpr (TF32) {
#pragma unroll
          for (int t = 0; t < af[i].num_elements; ++t) af[i].x[t] = wmma::__float_to_tf32(af[i].x[t]);
        }
      }
#pragma unroll
      for (int j = 0; j < FN; ++j) {
        const int col = warp_n * WN + j * 16;
        wmma::load_matrix_sync(bf[j], B_AXIS == 0 ? bs + kk * B_COLS + col : bs + col * B_COLS + kk, B_COLS);
        if constexpr (TF32) {
#pragma unroll
          for (int t = 0; t < bf[j].num_elements; ++t) bf[j].x[t] = wmma::__float_to_tf32(bf[j].x[t]);
        }
      }
#pragma unroll
      for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j) wmma::mma_sync(acc[i][j], af[i], bf[j], acc[i][j]);
    }
  }
  stark_cp_async_wait<0>();

  // Each warp stages one 16x16 accumulator at a time through its own
  // scratch tile, then adds it to C with guarded, converted stores.
  float* scratch = reinterpret_cast<float*>(stark_smem + PIPE_BYTES) + warp * 256;
#pragma unroll
  for (int i = 0; i < FM; ++i) {
#pragma unroll
    for (int j = 0; j < FN; ++j) {
      wmma::store_matrix_sync(scratch, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < 256; e += 32) {
        const idx_t m = m0 + warp_m * WM + i * 16 + e / 16;
        const idx_t n = n0 + warp_n * WN + j * 16 + e % 16;
        if (m < M && n < N) {
          TC* p = C + c_off(batch, m, n);
          *p = stark_cast<TC>((float)stark_widen(*p) + scratch[e]);
        }
      }
      __syncwarp();
    }
  }
}
)cuda";

  CudaKernelPlan plan;
  plan.source = std::move(s);
  plan.family = "gemm_tc";
  CudaKernelPlan::Launch launch;
  launch.kernel = "stark_gemm_tc";
  launch.grid = {ceilDiv(c.m, p.bm) * ceilDiv(c.n, p.bn), c.batch, 1};
  launch.block = {layout->threads, 1, 1};
  launch.sharedBytes = layout->sharedBytes;
  plan.launches.push_back(launch);
  plan.sharedBytesPerBlock = layout->sharedBytes;
  plan.threadsPerBlock = layout->threads;
  setParam(plan, "bm", p.bm);
  setParam(plan, "bn", p.bn);
  setParam(plan, "bk", p.bk);
  setParam(plan, "wm", p.wm);
  setParam(plan, "wn", p.wn);
  setParam(plan, "stages", p.stages);
  setParam(plan, "group_m", p.groupM);
  setParam(plan, "allow_tf32", p.allowTf32);
  return plan;
}

std::vector<GemmTcParams>
cudatpl::enumerateGemmTc(const ProblemView &view,
                         const HardwareProfile &profile, bool allowTf32) {
  static const int64_t shapes[][5] = {
      // bm, bn, bk (for 16-bit inputs), wm, wn
      {128, 128, 32, 64, 32}, {128, 256, 32, 64, 64}, {256, 128, 32, 64, 64},
      {128, 128, 32, 64, 64}, {128, 128, 64, 64, 32}, {128, 64, 32, 64, 32},
      {64, 128, 32, 32, 64},  {64, 64, 32, 32, 32},   {64, 64, 64, 32, 32},
      {32, 64, 32, 16, 32},   {64, 32, 32, 32, 16},   {32, 32, 32, 16, 16}};
  const ContractionView &c = *view.contraction;
  bool tf32 = c.aKind == ScalarKind::F32;
  int64_t maxShared = profile.sharedMemoryPerBlock > 0
                          ? profile.sharedMemoryPerBlock
                          : 48 * 1024;
  int64_t maxThreads =
      profile.maxThreadsPerBlock > 0 ? profile.maxThreadsPerBlock : 1024;
  int64_t regsPerSm =
      profile.registersPerUnit > 0 ? profile.registersPerUnit : 65536;
  struct Scored {
    GemmTcParams p;
    double score;
  };
  std::vector<Scored> scored;
  for (int64_t stages : {3, 4, 2}) {
    for (auto &shape : shapes) {
      GemmTcParams p;
      p.bm = shape[0];
      p.bn = shape[1];
      // Same bytes per k-slice for tf32: half the elements.
      p.bk = tf32 ? shape[2] / 2 : shape[2];
      p.wm = shape[3];
      p.wn = shape[4];
      p.stages = stages;
      p.allowTf32 = allowTf32 && tf32;
      std::string ignored;
      FailureOr<TcLayout> l = layoutTc(view, p, ignored);
      if (failed(l) || l->sharedBytes > maxShared || l->threads > maxThreads ||
          l->registers > 255 || l->registers * l->threads > regsPerSm)
        continue;
      double reuse = double(p.wm * p.wn) / double(p.wm + p.wn) / 16.0;
      double score = tileScore(c, p.bm, p.bn, reuse, profile);
      if (stages != 3)
        score *= 0.9;
      scored.push_back({p, score});
    }
  }
  std::stable_sort(
      scored.begin(), scored.end(),
      [](const Scored &a, const Scored &b) { return a.score > b.score; });
  std::vector<GemmTcParams> out;
  for (const Scored &s : scored)
    out.push_back(s.p);
  return out;
}
