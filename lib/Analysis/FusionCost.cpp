//===- FusionCost.cpp - Whether fusing a chain of linalg ops pays ---------===//

#include "stark/Analysis/FusionCost.h"
#include "stark/Analysis/CostModel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::stark;

/// Product of the static ranges of `op`'s loops of `type` (parallel or
/// reduction).
static int64_t getLoopPoints(linalg::LinalgOp op, utils::IteratorType type) {
  int64_t points = 1;
  for (auto [range, iterator] :
       llvm::zip(op.getStaticLoopRanges(), op.getIteratorTypesArray()))
    if (iterator == type)
      points *= range;
  return points;
}

/// The share of its roofline rate a kernel of `threads` threads reaches.
static double getParallelEfficiency(int64_t threads,
                                    const HardwareProfile &profile) {
  if (!profile.isGpu || profile.numComputeUnits <= 0 ||
      profile.maxThreadsPerBlock <= 0)
    return 1.0;
  double full = double(profile.numComputeUnits) * profile.maxThreadsPerBlock;
  return std::min(1.0, double(std::max<int64_t>(threads, 1)) / full);
}

FailureOr<FusionEstimate> mlir::stark::estimateFusion(
    ArrayRef<Operation *> ops, ArrayRef<Value> inputs, ArrayRef<Value> outputs,
    const HardwareProfile &profile, std::string &whyUnknown) {
  FusionEstimate e;
  // Threads of the chain's kernel: its rows' where an op reduces, else the
  // widest op's points.
  int64_t rowThreads = std::numeric_limits<int64_t>::max(), widest = 1;
  double fusedCompute = 0;
  for (Operation *op : ops) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp) {
      whyUnknown = llvm::formatv("'{0}' is not a linalg op",
                                 op->getName().getStringRef())
                       .str();
      return failure();
    }
    if (isa<linalg::FillOp>(op))
      continue;
    FailureOr<OpCost> cost = computeOpCost(linalgOp, whyUnknown);
    if (failed(cost))
      return failure();
    RooflineEstimate roof = estimateRoofline(*cost, profile);
    int64_t parallel = getLoopPoints(linalgOp, utils::IteratorType::parallel);
    int64_t reduced = getLoopPoints(linalgOp, utils::IteratorType::reduction);
    // A contraction's kernel spreads its output over the machine; a
    // reduction alone may also split its rows across blocks.
    bool tiled = cost->opClass == OpClass::Contraction ||
                 cost->opClass == OpClass::Convolution;
    int64_t alone = tiled ? parallel : cost->iterationPoints;
    if (!tiled && reduced > 1) {
      // In the chain's kernel, a row is one block's: the element-wise ops
      // around the reduction work on its rows too.
      rowThreads = std::min(
          rowThreads,
          parallel *
              std::min<int64_t>(
                  reduced, std::max<int64_t>(1, profile.maxThreadsPerBlock)));
    } else {
      widest = std::max(widest, parallel);
    }
    e.unfusedBytes += cost->bytes();
    e.unfusedSeconds += roof.seconds / getParallelEfficiency(alone, profile) +
                        profile.launchOverheadSeconds;
    fusedCompute += roof.computeSeconds;
    ++e.unfusedKernels;
  }
  e.fusedParallelism =
      rowThreads != std::numeric_limits<int64_t>::max() ? rowThreads : widest;
  if (e.unfusedKernels == 0) {
    whyUnknown = "the chain has no op but fills";
    return failure();
  }
  for (ArrayRef<Value> values : {inputs, outputs})
    for (Value value : values) {
      FailureOr<int64_t> bytes = getValueByteSize(value, whyUnknown);
      if (failed(bytes))
        return failure();
      e.fusedBytes += *bytes;
    }
  double fusedMemory =
      profile.memoryBandwidth > 0 ? e.fusedBytes / profile.memoryBandwidth : 0;
  e.fusedSeconds = std::max(fusedCompute, fusedMemory) /
                       getParallelEfficiency(e.fusedParallelism, profile) +
                   profile.launchOverheadSeconds;
  return e;
}

std::string FusionEstimate::describe() const {
  return llvm::formatv("moves {0} instead of {1}, ~{2} instead of ~{3} in {4} "
                       "kernel(s)",
                       formatBytes(fusedBytes), formatBytes(unfusedBytes),
                       formatSeconds(fusedSeconds),
                       formatSeconds(unfusedSeconds), unfusedKernels)
      .str();
}
