//===- GemmWgmmaTf32Family.cpp - f32 GEMM with 3xTF32 wgmma ---------------===//
//
// The kernel of lib/Strategies/Kernels/GemmWgmmaTf32.cuh (gemm_wgmma_3xtf32):
// f32-accurate products of f32 operands on Hopper's wgmma tensor cores
// (sm_90a only), each operand split into a TF32 part and a TF32 residual,
// three products per pair, each 32-deep slice of k summed apart and added
// in f32 (the evaluator checks every candidate against the f64 reference
// all the same). A producer warpgroup copies and splits, two consumer
// warpgroups multiply a 128 x 128 tile of C.
//
// TF32 wgmma reads both operands contiguous along k and has no transpose
// bit. The family takes A row-major (M x K) and B either as its N x K
// transpose (the weight of a linear layer with a transposed map, an
// attention's K) or row-major K x N (a weight exported pre-transposed, as
// torch-mlir's LLaMA block has them): then the producer copies B's rows
// into a fourth tile of the stage and writes its split transposed, and the
// ring holds three stages. Other f32 contractions go to gemm_3xtf32
// (mma.sync), which reads any orientation.
// The store stage adds to C, writes C_INIT + sum for a problem that fills
// C first, or evaluates the epilogue there (GemmEpilogue.cpp).
//
// Where the tiles leave SMs idle, the family also offers k in slices
// (split_k, as gemm_f32): each block sums one slice into a workspace and a
// second launch adds the slices in order and runs the store stage. A block
// holds its SM alone, so a count is offered only when its blocks fit whole
// waves and shorten the busiest SM's run of k tiles (proposeOneBlockSplitK):
// on the H100 VGG-16's 128 -> 128 convolution at 112 x 112 (98 tiles) ran
// unsplit in 137 us and in two slices (two waves of half the depth) in 178.
//
// A convolution's A (its input seen through the window) is not strided in
// (m, k); its B (the filter, Cout x Cin*KH*KW) is N x K and its C (NCHW:
// contiguous along the pixels, m) strided. Such a problem is taken with
// A gathered first: a first launch gathers A into a row-major workspace of
// m x k (the whole of it, at most kIm2colMaxWorkspaceBytes), read through
// the view's own addressing, and the GEMM reads A from there. C is written
// by the store stage one element at a time, so the problem must fill C
// first (a convolution exported with its zero fill) unless C is
// contiguous along n.
//
// Ranking: with split-K the family goes first wherever the problem does
// at least kWgmmaTf32MinWork multiply-adds, either orientation of B; on the
// H200 (bench/results/2026-12-06i-h200/gemm-wgmma-split-k.log, fills +
// matmuls) it runs LLaMA's 512 x 5632 x 2048 projection in 220 us with B
// as N x K and 245 us as K x N (gemm_3xtf32's first pick 338 / 354 us),
// 512 x 2048 x 5632 in 262 / 309 us (394 / 425), 512 x 2048 x 2048 in 112 /
// 125 us (146 / 156) and BERT's 128 x 3072 x 768 in 31 / 33 us (42 / 43);
// 128 x 768 x 3072 is even (30 / 33 against 31 / 31 us). Below that, and
// where the output fills less than three quarters of its tiles,
// gemm_3xtf32 goes first: BERT's 128 x 768 x 768 takes 29-31 us here and
// 22 us there. A convolution it gathers goes before every other family
// (kIm2colWgmmaTf32) under the same two conditions.
//
//===----------------------------------------------------------------------===//

#include "GemmCommon.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

namespace {
/// The pipeline depth, the tile rows per L2 group, the slices of k and the
/// producer warpgroups.
struct WgmmaTf32Params {
  int64_t stages = 3, groupM = 8, splitK = 1, producers = 1;
};

constexpr int64_t kTile = 128, kDepth = 32;

/// A block's threads: the producer warpgroups and two consumers.
int64_t getThreads(const WgmmaTf32Params &p) { return 128 * (p.producers + 2); }

/// The register cap of __launch_bounds__(threads, 1): 168 for 384 threads,
/// 128 for 512.
int64_t getRegisterCap(const WgmmaTf32Params &p) {
  return 65536 / getThreads(p) / 8 * 8;
}
/// The mbarriers and the alignment of the dynamic array (ptxas: 1 KB).
constexpr int64_t kStaticShared = 1024;
/// The multiply-adds (m n k, times the batch) from which the family ranks
/// before gemm_3xtf32.
constexpr double kWgmmaTf32MinWork = double(int64_t(1) << 28);

/// Whether A must be gathered first: it is not strided in (m, k).
bool needsIm2col(const ProblemView &view) {
  return !getGemmKernelAddressing(view).strided;
}

/// Whether B is row-major K x N (contiguous along n) rather than N x K.
bool hasRowMajorB(const ProblemView &view) {
  std::optional<GemmKernelAddressing> addr =
      getWgmmaAddressing(view, needsIm2col(view));
  return !addr || addr->b[1] != 1;
}

/// Dynamic shared memory of a block: per stage the A tile, B's big and small
/// tiles and, for a K x N B, its slice as copied (128 x 32 f32 each), and
/// one KB to align the ring (WgmmaTf32Config::kSmemBytes).
int64_t sharedBytes(const WgmmaTf32Params &p, bool rowMajorB) {
  return p.stages * (rowMajorB ? 4 : 3) * kTile * kDepth * 4 + 1024;
}

ArrayRef<ParamField<WgmmaTf32Params>> getFields() {
  static const ParamField<WgmmaTf32Params> fields[] = {
      {"stages", &WgmmaTf32Params::stages},
      {"group_m", &WgmmaTf32Params::groupM},
      {"split_k", &WgmmaTf32Params::splitK},
      {"producers", &WgmmaTf32Params::producers}};
  return fields;
}

LogicalResult checkApplies(const ProblemView &view, std::string &whyNot) {
  if (!view.contraction) {
    whyNot = "the problem is not a contraction (out += a * b over linear maps)";
    return failure();
  }
  const ContractionView &c = *view.contraction;
  if (c.aKind != ElementKind::F32 || c.bKind != ElementKind::F32 ||
      c.cKind != ElementKind::F32) {
    whyNot = "gemm_wgmma_3xtf32 needs f32 inputs and output";
    return failure();
  }
  return checkWgmmaLayout(view, "gemm_wgmma_3xtf32", /*copyElements=*/4,
                          /*bRowsAlongN=*/!hasRowMajorB(view), whyNot,
                          /*im2colA=*/needsIm2col(view));
}

std::optional<unsigned> rank(const ProblemView &view, bool) {
  if (!ranksAsContraction(view))
    return std::nullopt;
  const ContractionView &c = *view.contraction;
  if (hasShallowK(view))
    return kShallowWgmmaTf32;
  // Small problems, and outputs that fill less than three quarters of
  // their 128 x 128 tiles (the suite's 64 x 64 matmul_large_k), run faster
  // in gemm_3xtf32's smaller tiles (see the file comment).
  double work = double(c.batch) * double(c.m) * double(c.n) * double(c.k);
  double useful =
      double(c.m) * double(c.n) /
      double(ceilDiv(c.m, kTile) * kTile * ceilDiv(c.n, kTile) * kTile);
  if (work < kWgmmaTf32MinWork || useful < 0.75)
    return kFewTilesWgmmaTf32;
  return needsIm2col(view) ? kIm2colWgmmaTf32 : kWgmmaTf32;
}

LogicalResult validate(const WgmmaTf32Params &p, bool rowMajorB,
                       std::string &whyNot) {
  int64_t most = rowMajorB ? 3 : 4;
  if (p.stages < 3 || p.stages > most || p.groupM < 1 || p.producers < 1 ||
      p.producers > 2) {
    whyNot = llvm::formatv("gemm_wgmma_3xtf32: stages in [3, {0}]{1}, "
                           "group_m >= 1, producers 1 or 2",
                           most, rowMajorB ? " (B is K x N)" : "")
                 .str();
    return failure();
  }
  return success();
}

/// wgmma and setmaxnreg exist only on sm_90a.
std::vector<WgmmaTf32Params> enumerate(const ProblemView &view,
                                       const HardwareProfile &profile) {
  if (profile.chip != "sm_90a")
    return {};
  // Measured on the H200 (bench/results/2026-12-07g-h200, LLaMA's
  // projections with B as N x K): four stages with two or one producer
  // warpgroups (204 and 202 us at 512 x 5632 x 2048), then three stages
  // with two (217 us; the one choice where B is K x N and four stages do
  // not fit: 222 against 329 us with one producer). Three stages with one
  // producer, the earlier default, took 283 us.
  static const int64_t configs[][3] = {{4, 8, 2}, {4, 8, 1}, {3, 8, 2}};
  const ContractionView &c = *view.contraction;
  bool rowMajorB = hasRowMajorB(view);
  BlockLimits limits(profile);
  int64_t sms = getNumUnits(profile);
  bool fewTiles = c.batch * ceilDiv(c.m, kTile) * ceilDiv(c.n, kTile) < sms;
  // A consumer warpgroup's 64 x 128 sums reuse each A element 128 times and
  // each B element 64 times; equal scores keep the measured order.
  double reuse = double(64 * kTile) / double(64 + kTile) / 16.0;
  std::vector<std::pair<WgmmaTf32Params, double>> scored;
  for (auto &cfg : configs) {
    WgmmaTf32Params p;
    p.stages = cfg[0], p.groupM = cfg[1], p.producers = cfg[2];
    std::string ignored;
    if (failed(validate(p, rowMajorB, ignored)) ||
        !limits.fits(sharedBytes(p, rowMajorB) + kStaticShared, getThreads(p),
                     getRegisterCap(p)))
      continue;
    double score = gemmKernelTileScore(c, kTile, kTile, kDepth, reuse, profile);
    scored.push_back({p, score});
    // Where the tiles leave SMs idle, slices of k fill them; where they
    // leave the last wave mostly empty, slices even out the waves.
    if (!fewTiles) {
      if (auto wave =
              proposeWaveSplitK(c, kTile, kTile, kDepth, score, profile)) {
        WgmmaTf32Params q = p;
        q.splitK = wave->first;
        scored.push_back({q, wave->second});
      }
      continue;
    }
    for (auto [splitK, splitScore] :
         proposeOneBlockSplitK(c, kTile, kTile, kDepth, score, profile)) {
      WgmmaTf32Params q = p;
      q.splitK = splitK;
      scored.push_back({q, splitScore});
    }
  }
  return sortByScore(std::move(scored));
}

FailureOr<CudaKernelPlan> generate(const ProblemView &view,
                                   const WgmmaTf32Params &p,
                                   std::string &whyNot) {
  if (failed(checkApplies(view, whyNot)))
    return failure();
  bool rowMajorB = hasRowMajorB(view);
  if (failed(validate(p, rowMajorB, whyNot)))
    return failure();
  FailureOr<int64_t> depth =
      getSplitKDepth(*view.contraction, kDepth, p.splitK, whyNot);
  if (failed(depth))
    return failure();
  WgmmaSourceSpec spec;
  spec.kernelFiles = {"GemmWgmma.cuh", "Tf32Split.cuh", "GemmWgmmaTf32.cuh"};
  spec.splitK = p.splitK;
  spec.kTilesPerSplit = *depth / kDepth;
  spec.config =
      llvm::formatv("stark_kernels::WgmmaTf32Config<{0}, {1}, {2}, {3}>",
                    p.stages, p.groupM, rowMajorB ? "true" : "false",
                    p.producers)
          .str();
  spec.args = "stark_kernels::WgmmaArgs<float, float>";
  spec.kernel = "stark_gemm_wgmma_3xtf32";
  spec.block = "gemmWgmmaTf32Block";
  spec.bRowsAlongN = !rowMajorB;
  spec.im2colA = needsIm2col(view);
  const ContractionView &c = *view.contraction;
  CudaKernelPlan plan = makeGemmPlan(
      c, "gemm_wgmma_3xtf32", spec.kernel, emitWgmmaCandidateSource(view, spec),
      kTile, kTile, getThreads(p), sharedBytes(p, rowMajorB),
      /*dynamicShared=*/true, p.splitK);
  if (spec.im2colA) {
    // The gather goes first; a grid-stride loop covers any A.
    CudaKernelPlan::Launch gather;
    gather.kernel = kIm2colKernel.str();
    gather.grid = {
        std::min<int64_t>(ceilDiv(c.batch * c.m * c.k, 256), 8 * 1024), 1, 1};
    gather.block = {256, 1, 1};
    plan.launches.insert(plan.launches.begin(), gather);
  }
  return plan;
}
} // namespace

std::unique_ptr<StrategyFamily> mlir::stark::createGemmWgmmaTf32Family() {
  return makeFunctionFamily<WgmmaTf32Params>(
      "gemm_wgmma_3xtf32", getFields(), {/*initValue=*/true, /*epilogue=*/true},
      rank, checkApplies, enumerate, generate);
}
