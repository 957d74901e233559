//===- HotOps.cpp - Mark the most expensive linalg ops --------------------===//
//
// Thin pass over rankHotOps: validates the options, attaches stark.cost to
// the hot ops and reports each decision as a remark.
//
//===----------------------------------------------------------------------===//

#include "PassOptions.h"
#include "stark/Analysis/HotOpAnalysis.h"
#include "stark/Dialect/StarkAttrs.h"
#include "stark/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::stark {
#define GEN_PASS_DEF_STARKHOTOPSPASS
#include "stark/Transforms/Passes.h.inc"
} // namespace mlir::stark

using namespace mlir;
using namespace mlir::stark;

namespace {

CostAttr buildCostAttr(MLIRContext *ctx, const RankedOp &r,
                       StringRef profileName) {
  return CostAttr::get(ctx, r.estimate.computeBound ? "compute" : "memory",
                       r.cost.bytes(), stringifyOpClass(r.cost.opClass),
                       stringifyComputeType(r.cost.computeType), r.cost.flops,
                       profileName, r.rank, APFloat(r.share),
                       APFloat(r.estimate.seconds * 1e6));
}

std::string describe(const RankedOp &r, StringRef profileName) {
  std::string opClass = stringifyOpClass(r.cost.opClass).str();
  if (r.initFill)
    opClass = "fill + " + opClass;
  return llvm::formatv(
             "{0}, {1}, {2}, est. {3} on {4} ({5}-bound, {6:f1}% "
             "of total)",
             opClass, formatFlops(r.cost.flops), formatBytes(r.cost.bytes()),
             formatSeconds(r.estimate.seconds), profileName,
             r.estimate.computeBound ? "compute" : "memory", r.share * 100)
      .str();
}

struct StarkHotOpsPass
    : public stark::impl::StarkHotOpsPassBase<StarkHotOpsPass> {
  using StarkHotOpsPassBase::StarkHotOpsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!(minShare >= 0.0 && minShare <= 1.0)) {
      module.emitError() << "stark-hot-ops: min-share must be between 0 and "
                            "1, got "
                         << minShare;
      return signalPassFailure();
    }
    std::optional<HardwareProfile> hw =
        lookupProfileOption(module, getArgument(), profile);
    if (!hw)
      return signalPassFailure();

    // A previous run's marks are stale once the module has changed.
    module->walk([](Operation *op) { op->removeAttr(kCostAttrName); });

    HotOpRanking ranking = rankHotOps(module, *hw);
    for (Operation *op : ranking.compileTime) {
      ++numCompileTime;
      op->emitRemark() << "not ranked: computed from constants alone "
                          "(compile-time work: --stark-fold-constants folds "
                          "what it can, the compiler hoists the rest)";
    }
    double hotSeconds = 0;
    for (const RankedOp &r : ranking.ranked) {
      ++numAnalysed;
      if (isHot(r, topK, minShare)) {
        ++numHot;
        hotSeconds += r.estimate.seconds;
        r.op->setAttr(kCostAttrName, buildCostAttr(&getContext(), r, hw->name));
        // The last hot op's remark says how much of the model the search
        // will see.
        r.op->emitRemark() << "hot op #" << r.rank << ": "
                           << describe(r, hw->name)
                           << llvm::formatv("; hot ops so far cover {0:f1}% of "
                                            "the model's estimated time",
                                            ranking.totalSeconds > 0
                                                ? 100 * hotSeconds /
                                                      ranking.totalSeconds
                                                : 0.0)
                                  .str();
      } else if (remarkAll) {
        r.op->emitRemark() << "op #" << r.rank
                           << " (not hot): " << describe(r, hw->name);
      }
    }
    for (const UnknownCostOp &u : ranking.unknown) {
      ++numUnknown;
      u.op->emitRemark() << "cost unknown: " << u.reason;
    }
  }
};

} // namespace
