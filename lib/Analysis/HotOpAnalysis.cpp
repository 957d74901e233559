//===- HotOpAnalysis.cpp - Rank the linalg ops of a module by cost --------===//

#include "stark/Analysis/HotOpAnalysis.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::stark;

HotOpRanking mlir::stark::rankHotOps(Operation *root,
                                     const HardwareProfile &profile) {
  HotOpRanking ranking;
  root->walk([&](Operation *op) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      std::string why;
      FailureOr<OpCost> cost = computeOpCost(linalgOp, why);
      if (failed(cost)) {
        ranking.unknown.push_back({op, why});
        return;
      }
      RankedOp r;
      r.op = op;
      r.cost = *cost;
      r.estimate = estimateRoofline(*cost, profile);
      ranking.ranked.push_back(r);
      return;
    }
    if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
      std::string why;
      FailureOr<OpCost> cost = computeSoftmaxCost(softmax, why);
      if (failed(cost)) {
        ranking.unknown.push_back({op, why});
        return;
      }
      ranking.ranked.push_back(
          {op, *cost, estimateRoofline(*cost, profile), 0, 0});
      return;
    }
    // Other aggregated ops compute, but have no indexing maps.
    if (isa<linalg::AggregatedOpInterface>(op))
      ranking.unknown.push_back(
          {op, "not a structured op: decompose it into linalg.generic ops "
               "to cost it"});
  });

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
