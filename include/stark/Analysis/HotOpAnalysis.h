//===- HotOpAnalysis.h - Rank the linalg ops of a module by cost -*- C++
//-*-===//

#ifndef STARK_ANALYSIS_HOTOPANALYSIS_H
#define STARK_ANALYSIS_HOTOPANALYSIS_H

#include "stark/Analysis/CostModel.h"

#include "mlir/IR/Operation.h"

namespace mlir::stark {

struct RankedOp {
  Operation *op = nullptr;
  OpCost cost;
  RooflineEstimate estimate;
  /// Fraction of the summed estimated time of all ops with a known cost.
  double share = 0;
  /// 1-based position in the ranking.
  int64_t rank = 0;
  /// The fill of the output `op` owns (stark/Analysis/InitFill.h): the two
  /// are one problem, so the fill's cost and time are folded into `op`'s
  /// and the fill is not ranked on its own.
  Operation *initFill = nullptr;
};

struct UnknownCostOp {
  Operation *op = nullptr;
  std::string reason;
};

struct HotOpRanking {
  /// Ops with a known cost, most expensive first; ties keep program order.
  SmallVector<RankedOp> ranked;
  /// Ops whose cost could not be computed, in program order.
  SmallVector<UnknownCostOp> unknown;
  /// Linalg ops that compute from constants alone (CompileTime.h) and the
  /// fills they own, in program order: compile-time work, neither ranked
  /// nor costed.
  SmallVector<Operation *> compileTime;
  double totalSeconds = 0;
};

/// Costs every linalg op nested under `root` on `profile` and ranks them.
/// Ops of the linalg dialect that are not structured (linalg.softmax, ...)
/// land in `unknown`; ops computing from constants alone in `compileTime`. A
/// contraction and the fill of its output it owns rank as one op.
HotOpRanking rankHotOps(Operation *root, const HardwareProfile &profile);

/// Whether the op at `rank` (1-based) with `share` of the total is "hot"
/// under a top-k limit (0: none) and a minimum share.
bool isHot(const RankedOp &op, unsigned topK, double minShare);

} // namespace mlir::stark

#endif // STARK_ANALYSIS_HOTOPANALYSIS_H
