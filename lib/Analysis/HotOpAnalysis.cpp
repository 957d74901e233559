//===- HotOpAnalysis.cpp - Rank the linalg ops of a module by cost --------===//

#include "stark/Analysis/HotOpAnalysis.h"
#include "stark/Analysis/CompileTime.h"
#include "stark/Analysis/InitFill.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::stark;

/// Ranks `op` by its cost, or lists it as unknown with why it has none: the
/// same for every kind of op that can be costed.
static void addCost(HotOpRanking &ranking, Operation *op,
                    FailureOr<OpCost> cost, const std::string &why,
                    const HardwareProfile &profile) {
  if (failed(cost)) {
    ranking.unknown.push_back({op, why});
    return;
  }
  RankedOp r;
  r.op = op;
  r.cost = *cost;
  r.estimate = estimateRoofline(*cost, profile);
  ranking.ranked.push_back(r);
}

HotOpRanking mlir::stark::rankHotOps(Operation *root,
                                     const HardwareProfile &profile) {
  HotOpRanking ranking;
  CompileTimeValues compileTime;
  root->walk([&](Operation *op) {
    if (compileTime.isCompileTimeOp(op)) {
      ranking.compileTime.push_back(op);
      return;
    }
    // The fill a compile-time op owns goes with it, as it goes with the
    // contraction it initialises below.
    if (auto fill = dyn_cast<linalg::FillOp>(op); fill && fill->hasOneUse()) {
      Operation *owner = *fill->user_begin();
      if (getOwnedInitFill(owner) == fill &&
          compileTime.isCompileTimeOp(owner)) {
        ranking.compileTime.push_back(op);
        return;
      }
    }
    std::string why;
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      addCost(ranking, op, computeOpCost(linalgOp, why), why, profile);
      return;
    }
    if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
      addCost(ranking, op, computeSoftmaxCost(softmax, why), why, profile);
      return;
    }
    // Other aggregated ops compute, but have no indexing maps.
    if (isa<linalg::AggregatedOpInterface>(op))
      ranking.unknown.push_back(
          {op, "not a structured op: decompose it into linalg.generic ops "
               "to cost it"});
  });

  // A contraction and the fill it owns become one problem: one entry, the
  // fill's work added to the contraction's.
  llvm::DenseMap<Operation *, size_t> position;
  for (auto [i, r] : llvm::enumerate(ranking.ranked))
    position[r.op] = i;
  llvm::SmallPtrSet<Operation *, 8> folded;
  for (RankedOp &r : ranking.ranked) {
    linalg::FillOp fill = getOwnedInitFill(r.op);
    auto it = fill ? position.find(fill) : position.end();
    if (it == position.end())
      continue;
    const RankedOp &f = ranking.ranked[it->second];
    r.initFill = fill;
    r.cost.flops += f.cost.flops;
    r.cost.bytesRead += f.cost.bytesRead;
    r.cost.bytesWritten += f.cost.bytesWritten;
    r.estimate.computeSeconds += f.estimate.computeSeconds;
    r.estimate.memorySeconds += f.estimate.memorySeconds;
    r.estimate.seconds += f.estimate.seconds;
    folded.insert(fill);
  }
  llvm::erase_if(ranking.ranked,
                 [&](const RankedOp &r) { return folded.contains(r.op); });

  std::stable_sort(ranking.ranked.begin(), ranking.ranked.end(),
                   [](const RankedOp &a, const RankedOp &b) {
                     return a.estimate.seconds > b.estimate.seconds;
                   });
  for (const RankedOp &r : ranking.ranked)
    ranking.totalSeconds += r.estimate.seconds;
  for (auto [i, r] : llvm::enumerate(ranking.ranked)) {
    r.rank = i + 1;
    r.share = ranking.totalSeconds > 0
                  ? r.estimate.seconds / ranking.totalSeconds
                  : 0.0;
  }
  return ranking;
}

bool mlir::stark::isHot(const RankedOp &op, unsigned topK, double minShare) {
  if (topK != 0 && op.rank > int64_t(topK))
    return false;
  return op.share >= minShare;
}
