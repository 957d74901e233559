//===- GemmWgmmaTmaFamily.cpp - wgmma GEMM with TMA loads (gemm_wgmma_tma) ===//
//
// The kernel of lib/Strategies/Kernels/GemmWgmmaTma.cuh: gemm_wgmma's ring,
// consumers and store stage, with one producer thread that loads each
// stage by bulk tensor copies (TMA) and, with `blocks` set, a persistent
// grid (one block per SM) that runs every tile through the same ring. The
// copies read through tensor maps the launch asks for (#stark.tensor_map): A as
// the row-major tensor (batch, m, k) with boxes of 1 x 128 x 64, B as (batch,
// k, n) with boxes of 1 x 64 x 64, 128-byte swizzle, zeros past the edges.
// So it takes what gemm_wgmma takes, where each operand is a whole
// argument laid out exactly so (no offset, no padding between rows or
// batches; a batch stride of 0 makes a one-batch map read by every batch).
//
//===----------------------------------------------------------------------===//

#include "GemmCommon.h"

#include "stark/Strategies/KernelSources.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

namespace {
/// gemm_wgmma's parameters, the tile's height (128: two consumer
/// warpgroups; 64: one) and the schedule: `blocks` persistent blocks, each
/// taking every blocks-th tile (enumerated as one per SM), or 0 for one
/// block per tile.
struct WgmmaTmaParams {
  int64_t bm = 128, bn = 256, stages = 4, groupM = 8, blocks = 0;
};

ArrayRef<ParamField<WgmmaTmaParams>> getFields() {
  static const ParamField<WgmmaTmaParams> fields[] = {
      {"bm", &WgmmaTmaParams::bm},
      {"bn", &WgmmaTmaParams::bn},
      {"stages", &WgmmaTmaParams::stages},
      {"group_m", &WgmmaTmaParams::groupM},
      {"blocks", &WgmmaTmaParams::blocks}};
  return fields;
}

/// An operand's tensor map: the whole argument `arg` as (batches, rows,
/// cols), or nullopt (with `whyNot`) when its layout is anything else.
std::optional<CudaKernelPlan::TensorMap>
getOperandMap(const ProblemView &view, int arg, const int64_t (&strides)[3],
              int64_t offset, int64_t rows, int64_t cols, StringRef what,
              std::string &whyNot) {
  const ContractionView &c = *view.contraction;
  int64_t batches = strides[0] == 0 ? 1 : c.batch;
  int64_t elements = 1;
  for (int64_t extent : view.argShapes[arg])
    elements *= extent;
  bool dense = strides[2] == 1 && strides[1] == cols &&
               (batches == 1 || strides[0] == rows * cols);
  if (offset != 0 || !dense || elements != batches * rows * cols) {
    whyNot = ("gemm_wgmma_tma needs " + what +
              " to be a whole argument, row-major without padding")
                 .str();
    return std::nullopt;
  }
  return CudaKernelPlan::TensorMap{arg, {batches, rows, cols}, {}};
}

/// The maps of A (boxes of 1 x bm x 64) and B (1 x 64 x 64), in that order.
FailureOr<std::vector<CudaKernelPlan::TensorMap>>
getTensorMaps(const ProblemView &view, int64_t bm, std::string &whyNot) {
  const ContractionView &c = *view.contraction;
  GemmKernelAddressing addr = getGemmKernelAddressing(view);
  std::optional<CudaKernelPlan::TensorMap> a =
      getOperandMap(view, view.inputs[0].argNumber, addr.a, addr.aOffset, c.m,
                    c.k, "A", whyNot);
  if (!a)
    return failure();
  std::optional<CudaKernelPlan::TensorMap> b =
      getOperandMap(view, view.inputs[1].argNumber, addr.b, addr.bOffset, c.k,
                    c.n, "B", whyNot);
  if (!b)
    return failure();
  a->box = {1, bm, kWgmmaBK};
  b->box = {1, kWgmmaBK, 64};
  return std::vector<CudaKernelPlan::TensorMap>{*a, *b};
}

LogicalResult checkApplies(const ProblemView &view, std::string &whyNot) {
  if (failed(checkWgmmaHalfApplies(view, "gemm_wgmma_tma", whyNot)))
    return failure();
  return getTensorMaps(view, kWgmmaBM, whyNot);
}

LogicalResult validate(const WgmmaTmaParams &p, std::string &whyNot) {
  if (p.bm != 64 && p.bm != 128) {
    whyNot = "gemm_wgmma_tma: bm must be 64 or 128";
    return failure();
  }
  if (failed(validateWgmmaHalfTile("gemm_wgmma_tma", p.bn, p.stages, p.groupM,
                                   whyNot, kWgmmaTmaWidths, p.bm)))
    return failure();
  if (p.blocks < 0 || p.blocks > std::numeric_limits<int32_t>::max()) {
    whyNot = "gemm_wgmma_tma: blocks in [0, 2^31)";
    return failure();
  }
  return success();
}

std::string emitSource(const ProblemView &view, const WgmmaTmaParams &p) {
  const ContractionView &c = *view.contraction;
  GemmKernelAddressing addr = getGemmKernelAddressing(view);
  WgmmaSourceSpec spec = makeWgmmaHalfSpec(
      c, {"GemmWgmma.cuh", "GemmWgmmaTma.cuh"}, p.bn, p.stages, p.groupM,
      "WgmmaTmaArgs", "stark_gemm_wgmma_tma", "gemmWgmmaTmaBlock");
  if (p.bm != kWgmmaBM)
    spec.config = llvm::formatv("stark_kernels::WgmmaConfig<{0}, {1}, {2}, "
                                "0, {3}>",
                                p.bn, p.stages, p.groupM, p.bm)
                      .str();
  spec.extraParams = ", const void* __restrict__ stark_map_a, const void* "
                     "__restrict__ stark_map_b";
  spec.extraArgs =
      llvm::formatv("  p.mapA = stark_map_a, p.mapB = stark_map_b;\n"
                    "  p.batches = (int)BATCH, p.aBroadcast = {0}, "
                    "p.bBroadcast = {1};\n",
                    addr.a[0] == 0 ? "true" : "false",
                    addr.b[0] == 0 ? "true" : "false")
          .str();
  return emitWgmmaCandidateSource(view, spec);
}

/// The score of a persistent grid of one block per SM: every round of
/// tiles takes as long as its slowest SM, so the fill is the share of the
/// rounds' SM time that holds a tile (512 x 2048: 64 tiles of 128 x 128 fill
/// 48% of one round on 132 SMs, 128 tiles of 128 x 64 fill 97%); a wider
/// tile still reuses each operand element more.
double scorePersistent(const ContractionView &c, int64_t bm, int64_t bn,
                       const HardwareProfile &profile) {
  int64_t tilesM = ceilDiv(c.m, bm), tilesN = ceilDiv(c.n, bn);
  int64_t tiles = tilesM * tilesN * c.batch, sms = getNumUnits(profile);
  double fill = double(tiles) / double(ceilDiv(tiles, sms) * sms);
  double useful =
      double(c.m) * double(c.n) / (double(tilesM * bm) * double(tilesN * bn));
  double intensity = double(bm * bn) / double(bm + bn) / 64.0;
  double reuse = double(64 * bn) / double(64 + bn) / 16.0;
  return useful * fill * std::sqrt(intensity * reuse);
}

/// TMA and wgmma exist only on sm_90a. Measured on the H100
/// (bench/results/wgmma-tma-2026-12-06d-h100.md): persistent 128x256 in 4
/// stages at 4096^3 and on 512 x 5632 x 2048; 128x128 in 5 stages where
/// there are few tiles (512 x 1024 x 2048: 23 us against 41). The 64- and
/// 192-wide tiles fill the SMs where those leave a round half empty (a
/// LLaMA block's 512-row projections). The 64-row tile (`bm` 64, one
/// consumer warpgroup) is taken when asked for and not enumerated: it has
/// not run on a GPU yet (scorePersistent would rank 64 x 128 above 128 x 64
/// at 512 x 2048 for its m64n128 instructions).
std::vector<WgmmaTmaParams> enumerate(const ProblemView &view,
                                      const HardwareProfile &profile) {
  if (profile.chip != "sm_90a")
    return {};
  // bm, bn, stages, persistent.
  static const int64_t configs[][4] = {
      {128, 256, 4, 1}, {128, 128, 5, 1}, {128, 256, 3, 1}, {128, 256, 4, 0},
      {128, 128, 4, 1}, {128, 64, 8, 1},  {128, 192, 4, 1}};
  const ContractionView &c = *view.contraction;
  std::vector<std::pair<WgmmaTmaParams, double>> scored;
  for (auto &cfg : configs) {
    WgmmaTmaParams p;
    p.bm = cfg[0], p.bn = cfg[1], p.stages = cfg[2];
    std::optional<double> score =
        scoreWgmmaHalfTile(c, p.bn, p.stages, profile, p.bm);
    if (!score)
      continue;
    if (cfg[3]) {
      p.blocks = std::min(ceilDiv(c.m, p.bm) * ceilDiv(c.n, p.bn) * c.batch,
                          getNumUnits(profile));
      // Among persistent grids of one tile, more stages rank first.
      *score =
          scorePersistent(c, p.bm, p.bn, profile) * (1.0 + 0.01 * p.stages);
    }
    scored.push_back({p, *score});
  }
  return sortByScore(std::move(scored));
}

FailureOr<CudaKernelPlan> generate(const ProblemView &view,
                                   const WgmmaTmaParams &p,
                                   std::string &whyNot) {
  if (failed(checkApplies(view, whyNot)) || failed(validate(p, whyNot)))
    return failure();
  FailureOr<std::vector<CudaKernelPlan::TensorMap>> maps =
      getTensorMaps(view, p.bm, whyNot);
  if (failed(maps))
    return failure();
  const ContractionView &c = *view.contraction;
  CudaKernelPlan plan = makeGemmPlan(
      c, "gemm_wgmma_tma", "stark_gemm_wgmma_tma", emitSource(view, p), p.bm,
      p.bn, 128 * (1 + p.bm / 64), getWgmmaSharedBytes(p.bn, p.stages, p.bm),
      /*dynamicShared=*/true);
  // One dimension of tiles over every batch (the kernel loops while a
  // block has tiles left).
  int64_t tiles = ceilDiv(c.m, p.bm) * ceilDiv(c.n, p.bn) * c.batch;
  if (tiles > std::numeric_limits<int32_t>::max()) {
    whyNot = "gemm_wgmma_tma: more tiles than a grid holds";
    return failure();
  }
  CudaKernelPlan::Launch &launch = plan.launches.front();
  launch.grid = {p.blocks ? std::min(tiles, p.blocks) : tiles, 1, 1};
  launch.tensorMaps = std::move(*maps);
  return plan;
}
} // namespace

std::unique_ptr<StrategyFamily> mlir::stark::createGemmWgmmaTmaFamily() {
  return makeFunctionFamily<WgmmaTmaParams>(
      "gemm_wgmma_tma", getFields(), {/*initValue=*/true, /*epilogue=*/true},
      rankContractionsIn(kWgmmaTma), checkApplies, enumerate, generate);
}
