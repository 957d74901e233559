//===- ApplyTuningSpec.cpp - Put recorded winners into a program ----------===//
//
// Thin pass over applyTuningSpec (stark/Tuning/TuningSpec.h). The spec is
// parsed once, when the pass is initialised, so the dialects its winners
// use are loaded before any pass runs.
//
//===----------------------------------------------------------------------===//

#include "stark/Eval/Evaluator.h"
#include "stark/Strategies/CpuStrategies.h"
#include "stark/Transforms/Passes.h"
#include "stark/Tuning/TuningSpec.h"
#include "stark/Tuning/TuningTransformOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::stark {
#define GEN_PASS_DEF_STARKAPPLYTUNINGSPECPASS
#include "stark/Transforms/Passes.h.inc"
} // namespace mlir::stark

using namespace mlir;
using namespace mlir::stark;

namespace {

struct StarkApplyTuningSpecPass
    : public stark::impl::StarkApplyTuningSpecPassBase<
          StarkApplyTuningSpecPass> {
  using StarkApplyTuningSpecPassBase::StarkApplyTuningSpecPassBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    StarkApplyTuningSpecPassBase::getDependentDialects(registry);
    // The spec's own ops, and whatever dialects its winners are written in.
    registerTuningTransformExtension(registry);
    registerEvalDialects(registry);
    registerCpuStrategyDialects(registry);
  }

  LogicalResult initialize(MLIRContext *context) override {
    specModule = std::make_shared<OwningOpRef<ModuleOp>>();
    specError.clear();
    if (spec.empty()) {
      specError = "stark-apply-tuning-spec: give the spec as spec=FILE";
      return success();
    }
    std::string error;
    std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(spec, &error);
    if (!buffer) {
      specError = "stark-apply-tuning-spec: " + error;
      return success();
    }
    // Parse errors name lines of the spec file.
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
    std::string messages;
    {
      llvm::raw_string_ostream os(messages);
      SourceMgrDiagnosticHandler handler(sourceMgr, context, os);
      *specModule = parseSourceFile<ModuleOp>(sourceMgr, context);
    }
    if (!*specModule)
      specError = "stark-apply-tuning-spec: '" + spec + "' does not parse:\n" +
                  messages;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Errors found while initialising are reported on the program, where
    // a test can expect them.
    if (!specModule || !*specModule) {
      module.emitError() << specError;
      return signalPassFailure();
    }
    std::string error;
    if (failed(applyTuningSpec(module, **specModule, error))) {
      module.emitError() << "stark-apply-tuning-spec: '" << spec
                         << "': " << error;
      return signalPassFailure();
    }
  }

  /// Shared: the pass manager copies passes.
  std::shared_ptr<OwningOpRef<ModuleOp>> specModule;
  std::string specError;
};

} // namespace
