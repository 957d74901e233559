//===- GemmWgmmaFamily.cpp - f16/bf16 GEMM with Hopper wgmma (gemm_wgmma) -===//
//
// The kernel of lib/Strategies/Kernels/GemmWgmma.cuh: a producer warpgroup
// fills a ring of 128-byte-swizzled shared-memory stages with cp.async, two
// consumer warpgroups multiply them with wgmma (sm_90a only). It takes the
// contractions whose operands the kernel's copies and descriptors read as
// they are: both inputs f16 or both bf16, A contiguous along k, B and C
// along n, every row 16-byte aligned, k and n multiples of 8 (a copy is 8
// elements). m, n and k need not be multiples of the tile: copies past the
// edges read zeros and the epilogue guards its stores. The store stage adds
// the sums to C, or, for a problem that fills C first, writes C_INIT + sum
// (StarkStore), or evaluates the element-wise ops after the contraction
// there and stores their output (a bf16 matmul's truncation, a bias, an
// activation: GemmEpilogue.cpp).
//
//===----------------------------------------------------------------------===//

#include "GemmCommon.h"

#include "stark/Strategies/KernelSources.h"

#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

namespace {
/// The kernel's parameters: the tile width (128 x BN output tile), the
/// pipeline depth and the tile rows per L2 group.
struct WgmmaParams {
  int64_t bn = 256, stages = 4, groupM = 8;
};

constexpr int64_t kWgmmaBM = 128, kWgmmaBK = 64, kWgmmaThreads = 384;
/// The register cap of __launch_bounds__(384, 1).
constexpr int64_t kWgmmaRegisters = 168;

/// Dynamic shared memory of a block: the stages and one KB to align them to
/// the swizzle atom (WgmmaConfig::kSmemBytes).
int64_t wgmmaSharedBytes(const WgmmaParams &p) {
  return p.stages * (kWgmmaBM * kWgmmaBK + kWgmmaBK * p.bn) * 2 + 1024;
}

/// Static shared memory besides it: the alignment of the dynamic array and
/// the mbarriers (ptxas reports 1 KB).
constexpr int64_t kWgmmaStaticShared = 1024;

ArrayRef<ParamField<WgmmaParams>> getWgmmaFields() {
  static const ParamField<WgmmaParams> fields[] = {
      {"bn", &WgmmaParams::bn},
      {"stages", &WgmmaParams::stages},
      {"group_m", &WgmmaParams::groupM}};
  return fields;
}

LogicalResult checkWgmmaApplies(const ProblemView &view, std::string &whyNot) {
  auto decline = [&](const Twine &why) {
    whyNot = ("gemm_wgmma " + why).str();
    return failure();
  };
  if (!view.contraction) {
    whyNot = "the problem is not a contraction (out += a * b over linear maps)";
    return failure();
  }
  const ContractionView &c = *view.contraction;
  bool half = c.aKind == ElementKind::F16 && c.bKind == ElementKind::F16;
  bool bf16 = c.aKind == ElementKind::BF16 && c.bKind == ElementKind::BF16;
  if (!half && !bf16)
    return decline("needs both inputs f16 or both bf16");
  if (c.cKind != ElementKind::F32 && c.cKind != ElementKind::F16 &&
      c.cKind != ElementKind::BF16)
    return decline("needs an f32, f16 or bf16 output");
  if (view.inputs.size() < 2 || view.outputs.empty() ||
      view.inputs[0].argNumber < 0 || view.inputs[1].argNumber < 0 ||
      view.outputs[0].argNumber < 0)
    return decline("needs both operands and the output in memory");
  if (c.batch > 65535)
    return decline("needs a batch of at most 65535 (the grid's y limit)");
  const int64_t limit = std::numeric_limits<int32_t>::max();
  if (c.m > limit || c.n > limit || c.k > limit)
    return decline("keeps m, n and k in 32 bits");
  GemmKernelAddressing addr = getGemmKernelAddressing(view);
  if (!addr.strided)
    return decline("needs each operand strided in (batch, m, k), (batch, k, "
                   "n) and (batch, m, n)");
  if (addr.a[2] != 1)
    return decline("needs A contiguous along k (row-major A)");
  if (addr.b[2] != 1)
    return decline("needs B contiguous along n (row-major B)");
  if (addr.c[2] != 1)
    return decline("needs C contiguous along n");
  // 16-byte copies of 8 elements: rows, batches and offsets aligned, and no
  // copy straddling the end of k or n.
  auto m8 = [](int64_t v) { return v % 8 == 0; };
  if (!m8(c.k) || !m8(c.n))
    return decline("needs k and n multiples of 8");
  if (!m8(addr.a[1]) || !m8(addr.a[0]) || !m8(addr.aOffset) || !m8(addr.b[1]) ||
      !m8(addr.b[0]) || !m8(addr.bOffset))
    return decline("needs the rows of A and B 16-byte aligned");
  // The epilogue accesses two adjacent elements of C at a time.
  auto m2 = [](int64_t v) { return v % 2 == 0; };
  if (!m2(addr.c[1]) || !m2(addr.c[0]) || !m2(addr.cOffset))
    return decline("needs the rows of C aligned to two elements");
  return success();
}

LogicalResult validateWgmma(const WgmmaParams &p, std::string &whyNot) {
  if (p.bn != 128 && p.bn != 256) {
    whyNot = "gemm_wgmma: bn must be 128 or 256";
    return failure();
  }
  if (p.stages < 2 || p.stages > 8 || p.groupM < 1) {
    whyNot = "gemm_wgmma: stages in [2, 8], group_m >= 1";
    return failure();
  }
  // The most a block may hold on the H200 (and any sm_90a part).
  int64_t bytes = wgmmaSharedBytes(p) + kWgmmaStaticShared;
  if (bytes > 227 * 1024) {
    whyNot = llvm::formatv("gemm_wgmma: {0} stages of 128x{1} need {2} bytes "
                           "of shared memory (limit {3})",
                           p.stages, p.bn, bytes, 227 * 1024);
    return failure();
  }
  return success();
}

std::string emitWgmmaSource(const ProblemView &view, const WgmmaParams &p) {
  const ContractionView &c = *view.contraction;
  GemmKernelAddressing addr = getGemmKernelAddressing(view);
  std::string s = getCudaPrelude(view);
  appendKernelText(s, *getKernelSource("GemmWgmma.cuh"));
  llvm::raw_string_ostream os(s);
  os << "\n// The problem: " << describeGemmProblem(view) << ".\n";
  os << emitProblemConstants(c);
  StringRef in = getCudaStorageType(c.aKind);
  StringRef out = getCudaStorageType(c.cKind);
  os << "typedef stark_kernels::WgmmaConfig<" << p.bn << ", " << p.stages
     << ", " << p.groupM << "> StarkConfig;\n\n";
  // A problem that fills C first writes C = C_INIT + sum and never reads
  // C; one with an epilogue stores the chain's output instead of C.
  bool store = c.initValue.has_value();
  if (store)
    os << emitStoreStruct(view, llvm::formatv("{0}LL * b + {1}LL * m + {2}LL "
                                              "* n + {3}LL",
                                              addr.c[0], addr.c[1], addr.c[2],
                                              addr.cOffset)
                                    .str())
       << "\n";
  os << "extern \"C\" __global__ void "
        "__launch_bounds__(StarkConfig::kThreads, 1) stark_gemm_wgmma("
     << getKernelParameters(view) << ") {\n";
  os << "  stark_kernels::WgmmaArgs<" << in << ", " << out << "> p;\n";
  os << llvm::formatv("  p.A = {0} + {1}LL;\n  p.B = {2} + {3}LL;\n"
                      "  p.C = {4} + {5}LL;\n",
                      argName(view.inputs[0].argNumber), addr.aOffset,
                      argName(view.inputs[1].argNumber), addr.bOffset,
                      argName(view.outputs[0].argNumber), addr.cOffset);
  os << "  p.M = (int)M, p.N = (int)N, p.K = (int)K;\n";
  os << llvm::formatv("  p.lda = {0}LL, p.ldb = {1}LL, p.ldc = {2}LL;\n"
                      "  p.batchA = {3}LL, p.batchB = {4}LL, p.batchC = "
                      "{5}LL;\n",
                      addr.a[1], addr.b[1], addr.c[1], addr.a[0], addr.b[0],
                      addr.c[0]);
  if (store)
    os << "  StarkStore st;\n" << emitStoreBinding(view, "st");
  os << "  stark_kernels::gemmWgmmaBlock<StarkConfig>(p"
     << (store ? ", st" : "") << ");\n}\n";
  return s;
}

/// wgmma and setmaxnreg exist only on sm_90a; elsewhere gemm_tc serves
/// these problems.
std::vector<WgmmaParams> enumerateWgmma(const ProblemView &view,
                                        const HardwareProfile &profile) {
  if (profile.chip != "sm_90a")
    return {};
  // Measured on the H200 at 4096^3 (bench/results/wgmma-2026-12-01-h200.md):
  // 128x256 in 4 or 3 stages, then 128x128, which fills more SMs on
  // smaller problems.
  static const int64_t configs[][2] = {{256, 4}, {256, 3}, {128, 5}, {128, 4}};
  const ContractionView &c = *view.contraction;
  BlockLimits limits(profile);
  std::vector<std::pair<WgmmaParams, double>> scored;
  for (auto &cfg : configs) {
    WgmmaParams p;
    p.bn = cfg[0], p.stages = cfg[1];
    std::string ignored;
    if (failed(validateWgmma(p, ignored)) ||
        !limits.fits(wgmmaSharedBytes(p) + kWgmmaStaticShared, kWgmmaThreads,
                     kWgmmaRegisters))
      continue;
    // A consumer warpgroup's 64 x BN accumulator reuses each A element BN
    // times and each B element 64 times.
    double reuse = double(64 * p.bn) / double(64 + p.bn) / 16.0;
    scored.push_back(
        {p, gemmKernelTileScore(c, kWgmmaBM, p.bn, kWgmmaBK, reuse, profile)});
  }
  return sortByScore(std::move(scored));
}

FailureOr<CudaKernelPlan> generateWgmmaKernel(const ProblemView &view,
                                              const WgmmaParams &p,
                                              std::string &whyNot) {
  if (failed(checkWgmmaApplies(view, whyNot)) ||
      failed(validateWgmma(p, whyNot)))
    return failure();
  CudaKernelPlan plan =
      makeGemmPlan(*view.contraction, "gemm_wgmma", "stark_gemm_wgmma",
                   emitWgmmaSource(view, p), kWgmmaBM, p.bn, kWgmmaThreads,
                   wgmmaSharedBytes(p), /*dynamicShared=*/true);
  return plan;
}
} // namespace

std::unique_ptr<StrategyFamily> mlir::stark::createGemmWgmmaFamily() {
  // The store stage writes C_INIT + sum (a fill + matmul problem) or the
  // epilogue's output.
  return makeFunctionFamily<WgmmaParams>(
      "gemm_wgmma", getWgmmaFields(), {/*initValue=*/true, /*epilogue=*/true},
      rankContractionsIn(kWgmma), checkWgmmaApplies, enumerateWgmma,
      generateWgmmaKernel);
}
