//===- Outline.cpp - Turn each hot op into a kernel problem ---------------===//

#include "PassOptions.h"
#include "stark/Analysis/ProblemView.h"
#include "stark/Dialect/StarkDialect.h"
#include "stark/Problem/ProgramOutline.h"
#include "stark/Strategies/CudaTemplates.h"
#include "stark/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::stark {
#define GEN_PASS_DEF_STARKOUTLINEPASS
#include "stark/Transforms/Passes.h.inc"
} // namespace mlir::stark

using namespace mlir;
using namespace mlir::stark;

namespace {

struct StarkOutlinePass
    : public stark::impl::StarkOutlinePassBase<StarkOutlinePass> {
  using StarkOutlinePassBase::StarkOutlinePassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<HardwareProfile> hw =
        lookupProfileOption(module, getArgument(), profile);
    if (!hw)
      return signalPassFailure();
    OutlineOptions options;
    options.all = all;
    options.dir = dir;
    options.fuse = fuse;
    options.fuseEpilogues = fuseEpilogues;
    options.fuseConvEpilogues = fuseConvEpilogues;
    options.fuseAttention = fuseAttention;
    // On a GPU, attention is one problem where the attention family takes
    // it; elsewhere (the host) every attention problem is kept.
    if (hw->isGpu)
      options.takesAttention = [](const ProblemView &view, std::string &why) {
        return succeeded(checkFamilyApplies("attention", view, why));
      };
    options.costModel = costModel;
    options.compareUnfused = compareUnfused;
    options.profile = *hw;
    OutlineCounts counts;
    LogicalResult outlined = outlineProgram(module, options, counts);
    numOutlined += counts.outlined;
    numFused += counts.fused;
    numProblems += counts.problems;
    numSkipped += counts.skipped;
    if (failed(outlined))
      signalPassFailure();
  }
};

} // namespace
