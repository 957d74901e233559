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

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

namespace {
/// The kernel's parameters: the tile width (128 x BN output tile), the
/// pipeline depth and the tile rows per L2 group.
struct WgmmaParams {
  int64_t bn = 256, stages = 4, groupM = 8;
};

ArrayRef<ParamField<WgmmaParams>> getWgmmaFields() {
  static const ParamField<WgmmaParams> fields[] = {
      {"bn", &WgmmaParams::bn},
      {"stages", &WgmmaParams::stages},
      {"group_m", &WgmmaParams::groupM}};
  return fields;
}

LogicalResult checkWgmmaApplies(const ProblemView &view, std::string &whyNot) {
  return checkWgmmaHalfApplies(view, "gemm_wgmma", whyNot);
}

LogicalResult validateWgmma(const WgmmaParams &p, std::string &whyNot) {
  return validateWgmmaHalfTile("gemm_wgmma", p.bn, p.stages, p.groupM, whyNot);
}

std::string emitWgmmaSource(const ProblemView &view, const WgmmaParams &p) {
  return emitWgmmaCandidateSource(
      view, makeWgmmaHalfSpec(*view.contraction, {"GemmWgmma.cuh"}, p.bn,
                              p.stages, p.groupM, "WgmmaArgs",
                              "stark_gemm_wgmma", "gemmWgmmaBlock"));
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
  std::vector<std::pair<WgmmaParams, double>> scored;
  for (auto &cfg : configs) {
    WgmmaParams p;
    p.bn = cfg[0], p.stages = cfg[1];
    if (std::optional<double> score =
            scoreWgmmaHalfTile(*view.contraction, p.bn, p.stages, profile))
      scored.push_back({p, *score});
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
                   getWgmmaSharedBytes(p.bn, p.stages), /*dynamicShared=*/true);
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
