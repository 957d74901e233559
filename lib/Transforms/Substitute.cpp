//===- Substitute.cpp - Replace ops by their problems' verified winners ---===//
//
// Thin pass over substituteWinner (stark/Tuning/Substitution.h): each op
// tagged with a problem that has a winner becomes a call of the winner.
//
//===----------------------------------------------------------------------===//

#include "stark/Problem/FusionGroup.h"
#include "stark/Problem/KernelProblem.h"
#include "stark/Transforms/Passes.h"
#include "stark/Tuning/Substitution.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::stark {
#define GEN_PASS_DEF_STARKSUBSTITUTEPASS
#include "stark/Transforms/Passes.h.inc"
} // namespace mlir::stark

using namespace mlir;
using namespace mlir::stark;

namespace {

struct StarkSubstitutePass
    : public stark::impl::StarkSubstitutePassBase<StarkSubstitutePass> {
  using StarkSubstitutePassBase::StarkSubstitutePassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (cudaFormat != "cubin" && cudaFormat != "ptx") {
      module.emitError() << "stark-substitute: cuda-format must be cubin or "
                            "ptx, got '"
                         << cudaFormat << "'";
      return signalPassFailure();
    }
    SubstituteOptions options;
    options.cudaChip = cudaChip;
    options.embedPtx = cudaFormat == "ptx";
    SmallVector<DestinationStyleOpInterface> tagged;
    module->walk([&](DestinationStyleOpInterface op) {
      auto ref = op->getAttrOfType<FlatSymbolRefAttr>(kProblemAttrName);
      if (!ref)
        return;
      // The fill a problem of several ops owns (a contraction's, or one a
      // fused chain rebuilds) goes with the op that substitutes the problem,
      // which may erase it before the walk's order reaches it.
      if (auto problem = module.lookupSymbol<ModuleOp>(ref.getAttr());
          problem && isa<linalg::FillOp>(op)) {
        if (auto info = problem->getAttrOfType<ProblemAttr>(kProblemAttrName);
            info && (info.getFusedOps() > 1 || isFusedGroupProblem(info))) {
          op->removeAttr(kProblemAttrName);
          return;
        }
      }
      tagged.push_back(op);
    });
    // Ops of fused chains already replaced (erased: compared, never used).
    llvm::SmallPtrSet<Operation *, 16> replaced;
    for (DestinationStyleOpInterface op : tagged) {
      if (replaced.contains(op.getOperation()))
        continue;
      auto ref = op->getAttrOfType<FlatSymbolRefAttr>(kProblemAttrName);
      auto problem = module.lookupSymbol<ModuleOp>(ref.getAttr());
      if (!problem)
        continue;
      switch (substituteWinner(module, op, problem, options, replaced)) {
      case SubstituteResult::Failed:
        return signalPassFailure();
      case SubstituteResult::LeftAsIs:
        continue;
      case SubstituteResult::Replaced:
        break;
      }
      ++numSubstituted;
    }
    if (!keepProblems)
      for (auto nested : llvm::make_early_inc_range(module.getOps<ModuleOp>()))
        if (nested->hasAttr(kProblemAttrName))
          nested->erase();
  }
};

} // namespace
