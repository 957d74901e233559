//===- GemmSplitK.cpp - Slices of k in separate blocks --------------------===//
//
// Split-K, shared by gemm_f32, gemm_3xtf32 and gemm_wgmma_3xtf32: whether a
// count of slices is valid and how deep each is, which counts to propose
// where the output's tiles leave SMs idle (too few tiles, or a last wave
// mostly empty), and how a split candidate scores against the unsplit ones.
// The plans' second launch (the sums) is makeGemmPlan's; the kernels' side
// is GemmCommon.cuh (detail::splitKReduce) and GemmWgmma.cuh
// (wgmmaSplitKReduce).
//
//===----------------------------------------------------------------------===//

#include "GemmCommon.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

FailureOr<int64_t> cudatpl::getSplitKDepth(const ContractionView &c, int64_t bk,
                                           int64_t splitK,
                                           std::string &whyNot) {
  if (splitK < 1) {
    whyNot = llvm::formatv("split_k must be at least 1 (got {0})", splitK);
    return failure();
  }
  int64_t kTiles = ceilDiv(c.k, bk);
  if (splitK == 1)
    return kTiles * bk;
  if (splitK > kTiles) {
    whyNot = llvm::formatv("split_k = {0} exceeds the {1} k tiles of depth {2} "
                           "(k = {3})",
                           splitK, kTiles, bk, c.k);
    return failure();
  }
  int64_t depth = ceilDiv(kTiles, splitK) * bk;
  int64_t used = ceilDiv(c.k, depth);
  if (used < splitK) {
    whyNot = llvm::formatv("split_k = {0} leaves slices empty: slices of "
                           "whole k tiles of depth {1} are {2} deep and cover "
                           "k = {3} in {4}",
                           splitK, bk, depth, c.k, used);
    return failure();
  }
  if (c.batch * splitK > 65535) {
    whyNot = llvm::formatv("batch {0} times split_k = {1} exceeds the grid's "
                           "y limit (65535)",
                           c.batch, splitK);
    return failure();
  }
  double bytes =
      double(splitK) * double(c.batch) * double(c.m) * double(c.n) * 4.0;
  if (bytes > double(kSplitKMaxWorkspaceBytes)) {
    whyNot = llvm::formatv("split_k = {0} needs a workspace of {1} MiB for "
                           "the partial sums (limit {2} MiB)",
                           splitK, int64_t(std::ceil(bytes / (1 << 20))),
                           kSplitKMaxWorkspaceBytes >> 20);
    return failure();
  }
  return depth;
}

/// The fraction of a split-K candidate's time spent on its GEMM rather than
/// on the partial sums: each slice writes the output once and the second
/// launch reads them all, against the GEMM's arithmetic at the profile's
/// peak. 1 without a split.
static double splitKEfficiency(const ContractionView &c, int64_t splitK,
                               const HardwareProfile &profile) {
  if (splitK <= 1)
    return 1.0;
  double outputs = double(c.batch) * double(c.m) * double(c.n);
  double bytes = (2.0 * double(splitK) + 2.0) * outputs * 4.0;
  double flops = 2.0 * outputs * double(c.k);
  if (profile.peakF32 <= 0 || profile.memoryBandwidth <= 0)
    return 0.9;
  double gemm = flops / profile.peakF32;
  double sums = bytes / profile.memoryBandwidth;
  return gemm / (gemm + sums);
}

SmallVector<int64_t> cudatpl::proposeSplitK(const ContractionView &c,
                                            int64_t bm, int64_t bn, int64_t bk,
                                            int64_t sms) {
  int64_t blocks = ceilDiv(c.m, bm) * ceilDiv(c.n, bn) * c.batch;
  int64_t kTiles = ceilDiv(c.k, bk);
  int64_t most = c.k / kSplitKMinSliceDepth;
  SmallVector<int64_t> out;
  for (int64_t waves : {1, 2}) {
    int64_t want = std::min(ceilDiv(waves * sms, blocks), most);
    if (want < 2)
      continue;
    int64_t depth = ceilDiv(kTiles, want) * bk;
    int64_t splitK = ceilDiv(c.k, depth);
    std::string ignored;
    if (splitK >= 2 && !llvm::is_contained(out, splitK) &&
        succeeded(getSplitKDepth(c, bk, splitK, ignored)))
      out.push_back(splitK);
  }
  return out;
}

bool cudatpl::isDeepContraction(const ContractionView &c) {
  return c.k >= 2 * std::max(c.m, c.n);
}

double cudatpl::scoreSplitKTile(const ContractionView &c, int64_t bm,
                                int64_t bn, int64_t bk, double reuse,
                                int64_t splitK,
                                const HardwareProfile &profile) {
  // The slices are blocks of their own, and one wave of them counts as a
  // full GPU: each runs a long k loop, so no second wave is needed to hide a
  // block's pipeline fill (large_k on the H200: one wave of slices beat two
  // for both kernels, bench/results/gemm-kernels-2026-12-01-h200.md).
  ContractionView sliced = c;
  sliced.batch *= 2 * splitK;
  return gemmKernelTileScore(sliced, bm, bn, bk, reuse, profile) *
         splitKEfficiency(c, splitK, profile);
}

SmallVector<std::pair<int64_t, double>>
cudatpl::proposeOneBlockSplitK(const ContractionView &c, int64_t bm, int64_t bn,
                               int64_t bk, double unsplitScore,
                               const HardwareProfile &profile) {
  int64_t sms = getNumUnits(profile);
  int64_t blocks = ceilDiv(c.m, bm) * ceilDiv(c.n, bn) * c.batch;
  int64_t kTiles = ceilDiv(c.k, bk);
  int64_t most = c.k / kSplitKMinSliceDepth;
  SmallVector<std::pair<int64_t, double>> out;
  for (int64_t waves : {1, 2}) {
    int64_t want = std::min(waves * sms / blocks, most);
    if (want < 2)
      continue;
    int64_t perSlice = ceilDiv(kTiles, want);
    int64_t splitK = ceilDiv(kTiles, perSlice);
    std::string ignored;
    if (splitK < 2 ||
        llvm::any_of(out, [&](auto &p) { return p.first == splitK; }) ||
        failed(getSplitKDepth(c, bk, splitK, ignored)))
      continue;
    double busiest =
        double(ceilDiv(blocks * splitK, sms) * ceilDiv(kTiles, splitK));
    if (busiest > 0.85 * double(kTiles))
      continue;
    out.push_back({splitK, unsplitScore * double(kTiles) / busiest *
                               splitKEfficiency(c, splitK, profile)});
  }
  return out;
}

std::optional<std::pair<int64_t, double>>
cudatpl::proposeWaveSplitK(const ContractionView &c, int64_t bm, int64_t bn,
                           int64_t bk, double unsplitScore,
                           const HardwareProfile &profile) {
  int64_t sms = getNumUnits(profile);
  int64_t tiles = ceilDiv(c.m, bm) * ceilDiv(c.n, bn) * c.batch;
  auto fill = [&](int64_t blocks) {
    return double(blocks) / double(ceilDiv(blocks, sms) * sms);
  };
  if (tiles < sms || fill(tiles) > 0.75)
    return std::nullopt;
  std::optional<std::pair<int64_t, double>> best;
  for (int64_t splitK = 2; splitK <= 4; ++splitK) {
    std::string ignored;
    if (c.k / splitK < kSplitKMinSliceDepth ||
        failed(getSplitKDepth(c, bk, splitK, ignored)) ||
        fill(tiles * splitK) < fill(tiles) + 0.15)
      continue;
    double score = unsplitScore * fill(tiles * splitK) / fill(tiles) *
                   splitKEfficiency(c, splitK, profile);
    if (!best || score > best->second)
      best = {splitK, score};
  }
  return best;
}

std::string cudatpl::emitSplitKWorkspace(int64_t splitK, StringRef perSplitName,
                                         int64_t perSplit) {
  return llvm::formatv(
      "constexpr int SPLIT_K = {0}, {1} = {2};\n"
      "// The partial sums of each slice of k: [slice][batch][m][n].\n"
      "__device__ float stark_gemm_ws[SPLIT_K * BATCH * M * N];\n",
      splitK, perSplitName, perSplit);
}
