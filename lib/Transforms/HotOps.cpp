//===- HotOps.cpp - Mark the most expensive linalg ops --------------------===//
//
// Thin pass over rankHotOps: validates the options, attaches stark.cost to
// the hot ops and reports each decision as a remark.
//
//===----------------------------------------------------------------------===//

#include "stark/Analysis/HotOpAnalysis.h"
#include "stark/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::stark {
#define GEN_PASS_DEF_STARKHOTOPSPASS
#include "stark/Transforms/Passes.h.inc"
} // namespace mlir::stark

using namespace mlir;
using namespace mlir::stark;

namespace {

DictionaryAttr buildCostAttr(Builder &b, const RankedOp &r,
                             StringRef profileName) {
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr(
          "bound",
          b.getStringAttr(r.estimate.computeBound ? "compute" : "memory")),
      b.getNamedAttr("bytes", b.getI64IntegerAttr(r.cost.bytes())),
      b.getNamedAttr("class",
                     b.getStringAttr(stringifyOpClass(r.cost.opClass))),
      b.getNamedAttr("dtype",
                     b.getStringAttr(stringifyComputeType(r.cost.computeType))),
      b.getNamedAttr("flops", b.getI64IntegerAttr(r.cost.flops)),
      b.getNamedAttr("profile", b.getStringAttr(profileName)),
      b.getNamedAttr("rank", b.getI64IntegerAttr(r.rank)),
      b.getNamedAttr("share", b.getF64FloatAttr(r.share)),
      b.getNamedAttr("time_us", b.getF64FloatAttr(r.estimate.seconds * 1e6)),
  };
  return b.getDictionaryAttr(fields);
}

std::string describe(const RankedOp &r, StringRef profileName) {
  return llvm::formatv("{0}, {1}, {2}, est. {3} on {4} ({5}-bound, {6:f1}% "
                       "of total)",
                       stringifyOpClass(r.cost.opClass),
                       formatFlops(r.cost.flops), formatBytes(r.cost.bytes()),
                       formatSeconds(r.estimate.seconds), profileName,
                       r.estimate.computeBound ? "compute" : "memory",
                       r.share * 100)
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
    std::optional<HardwareProfile> hw = lookupHardwareProfile(profile);
    if (!hw) {
      module.emitError() << "stark-hot-ops: unknown hardware profile '"
                         << profile << "'; expected one of: "
                         << llvm::join(getHardwareProfileNames(), ", ");
      return signalPassFailure();
    }

    // A previous run's marks are stale once the module has changed.
    module->walk([](Operation *op) { op->removeAttr(kCostAttrName); });

    HotOpRanking ranking = rankHotOps(module, *hw);
    Builder b(&getContext());
    for (const RankedOp &r : ranking.ranked) {
      ++numAnalysed;
      if (isHot(r, topK, minShare)) {
        ++numHot;
        r.op->setAttr(kCostAttrName, buildCostAttr(b, r, hw->name));
        r.op->emitRemark() << "hot op #" << r.rank << ": "
                           << describe(r, hw->name);
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
