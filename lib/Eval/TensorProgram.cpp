//===- TensorProgram.cpp - A whole program on tensors as a problem --------===//

#include "stark/Eval/TensorProgram.h"
#include "stark/Analysis/ElidedWeights.h"
#include "stark/Dialect/StarkAttrs.h"
#include "stark/Dialect/StarkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/MLProgram/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

void mlir::stark::registerTensorProgramDialects(DialectRegistry &registry) {
  registry.insert<bufferization::BufferizationDialect,
                  ml_program::MLProgramDialect, tensor::TensorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  cf::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  ml_program::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
}

bool mlir::stark::isProgramWithoutProblem(ModuleOp module) {
  return !module->hasAttr(kProblemAttrName);
}

/// The entry: the one named, else the only public function with a body.
static func::FuncOp findEntry(ModuleOp module, StringRef name,
                              std::string &error) {
  if (!name.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func || func.isExternal())
      error =
          llvm::formatv("the program has no function body named '{0}'", name)
              .str();
    return func && !func.isExternal() ? func : func::FuncOp();
  }
  SmallVector<func::FuncOp> candidates;
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      candidates.push_back(func);
  if (candidates.size() == 1)
    return candidates.front();
  error = llvm::formatv("the module has no stark.problem attribute, so it is "
                        "taken as a program, but it has {0} public functions "
                        "with a body; name the entry (stark-eval --entry)",
                        candidates.size())
              .str();
  return {};
}

/// Whether `func` holds ops of the gpu dialect (the host side of a
/// substituted CUDA winner).
static bool launchesGpuKernels(func::FuncOp func) {
  return func
      .walk([](Operation *op) {
        return op->getDialect() && op->getDialect()->getNamespace() == "gpu"
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `func` frees buffers itself (a substituted kernel whose winner
/// allocates and frees temporaries): the ownership-based deallocation pass
/// rejects such code ("memory free side-effect on MemRef value not
/// supported"), and it needs nothing from it.
static bool freesBuffers(func::FuncOp func) {
  return func.walk([](memref::DeallocOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Collects the errors a pass pipeline reports.
static std::string collectDiagnostics(MLIRContext *ctx,
                                      function_ref<LogicalResult()> body,
                                      bool &failedRun) {
  std::string text;
  {
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error)
        return success();
      llvm::raw_string_ostream os(text);
      if (!text.empty())
        os << "\n";
      os << diag.getLocation() << ": " << diag;
      return success();
    });
    failedRun = failed(body());
  }
  return text;
}

/// Weights without data: synthesised when asked, else refused with an
/// error on the first one's holder that says how to opt in.
static LogicalResult handleMissingWeights(ModuleOp module, bool synthesize,
                                          std::string &error) {
  std::vector<MissingWeight> missing = findMissingWeights(module);
  if (missing.empty())
    return success();
  bool failedRun = false;
  std::string diagnostics = collectDiagnostics(
      module.getContext(),
      [&]() -> LogicalResult {
        if (synthesize)
          return failure(failed(synthesizeMissingWeights(module)));
        emitMissingWeightError(missing.front(),
                               "stark-eval --synthesize-elided-weights",
                               int64_t(missing.size()) - 1);
        return failure();
      },
      failedRun);
  if (failedRun)
    error = diagnostics;
  return failure(failedRun);
}

void mlir::stark::noteSynthesizedWeights(ModuleOp problem, ModuleOp candidate,
                                         EvalResult &result) {
  std::vector<std::string> inProblem = getSynthesizedWeights(problem);
  std::vector<std::string> inCandidate = getSynthesizedWeights(candidate);
  if (inProblem.empty() && inCandidate.empty())
    return;
  result.flags.push_back("synthesized_weights");
  auto list = [](const std::vector<std::string> &names) {
    return names.empty() ? std::string("none") : llvm::join(names, ", ");
  };
  result.notes.push_back(
      llvm::formatv("weights synthesised (deterministic, not the model's): "
                    "problem: {0}; candidate: {1}",
                    list(inProblem), list(inCandidate))
          .str());
}

/// Whether `entry` can be a program's entry: statically shaped tensors in,
/// at least one result out.
static LogicalResult checkProgramEntry(func::FuncOp entry, std::string &error) {
  FunctionType type = entry.getFunctionType();
  bool onTensors = false;
  for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults())) {
    auto shaped = dyn_cast<ShapedType>(t);
    if (!shaped || !isa<RankedTensorType, MemRefType>(t) ||
        !shaped.hasStaticShape()) {
      error = llvm::formatv("the entry '{0}' of the program must take and "
                            "return statically shaped tensors; it has {1}",
                            entry.getSymName(), t)
                  .str();
      return failure();
    }
    onTensors |= isa<RankedTensorType>(t);
  }
  if (!onTensors) {
    error = llvm::formatv("the module has no stark.problem attribute and its "
                          "entry '{0}' takes no tensors: a kernel problem on "
                          "memrefs needs #stark.problem<entry, num_outputs>",
                          entry.getSymName())
                .str();
    return failure();
  }
  if (type.getNumResults() == 0) {
    error = llvm::formatv("the entry '{0}' of the program returns nothing: "
                          "there is no output to compare",
                          entry.getSymName())
                .str();
    return failure();
  }
  return success();
}

/// One-shot bufferization has no model for loads of constant globals: they
/// become the constants they load.
static LogicalResult inlineConstantGlobalLoads(ModuleOp module,
                                               std::string &error) {
  SmallVector<ml_program::GlobalLoadConstOp> loads;
  module.walk(
      [&](ml_program::GlobalLoadConstOp load) { loads.push_back(load); });
  for (ml_program::GlobalLoadConstOp load : loads) {
    auto global = SymbolTable::lookupNearestSymbolFrom<ml_program::GlobalOp>(
        load, load.getGlobalAttr());
    auto value = global && global.getValue()
                     ? dyn_cast<ElementsAttr>(*global.getValue())
                     : ElementsAttr();
    if (!value || value.getType() != load.getType()) {
      error = llvm::formatv("'{0}' loads a global without a value of its "
                            "type (an external global the runtime provides "
                            "cannot be evaluated)",
                            load.getGlobal())
                  .str();
      return failure();
    }
    OpBuilder b(load);
    load.replaceAllUsesWith(
        arith::ConstantOp::create(b, load.getLoc(), value).getResult());
    load.erase();
  }

  return success();
}

/// Bufferizes the program on tensors into one on memrefs whose results are
/// out-parameters, freeing what it allocates.
static LogicalResult bufferizeProgram(ModuleOp module, func::FuncOp entry,
                                      std::string &error) {
  MLIRContext *ctx = module.getContext();
  // A program on tensors never changes its inputs, and the buffers the judge
  // passes for them are not the program's to write: without this, a result
  // written destination-style into an argument (`outs(%arg)`) would be
  // bufferized in place, and the judge rightly calls that a write to an
  // input.
  for (unsigned i = 0, e = entry.getNumArguments(); i < e; ++i)
    if (isa<RankedTensorType>(entry.getArgument(i).getType()))
      entry.setArgAttr(i,
                       bufferization::BufferizationDialect::kWritableAttrName,
                       BoolAttr::get(ctx, false));
  PassManager pm(ctx);
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  bufferize.unknownTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
  // The evaluator calls the entry many times: what it allocates is freed.
  // The host functions of substituted CUDA winners (gpu.launch_func on
  // their memref arguments, nothing allocated) and substituted kernels
  // that free their own temporaries are outside what the deallocation pass
  // models: it sees them as declarations, which by the function ABI
  // neither take nor give ownership of a buffer.
  PassManager dealloc(ctx);
  bufferization::buildBufferDeallocationPipeline(dealloc);
  bool failedRun = false;
  std::string diagnostics = collectDiagnostics(
      ctx,
      [&] {
        if (failed(pm.run(module)))
          return failure();
        SmallVector<std::pair<func::FuncOp, std::unique_ptr<Region>>> hidden;
        for (auto func : module.getOps<func::FuncOp>())
          if (func.isPrivate() && !func.isExternal() &&
              (launchesGpuKernels(func) || freesBuffers(func))) {
            hidden.emplace_back(func, std::make_unique<Region>());
            hidden.back().second->takeBody(func.getBody());
          }
        LogicalResult result = dealloc.run(module);
        for (auto &[func, body] : hidden)
          func.getBody().takeBody(*body);
        return result;
      },
      failedRun);
  if (failedRun) {
    error = "cannot bufferize the program" +
            (diagnostics.empty() ? std::string() : ":\n" + diagnostics);
    return failure();
  }
  return success();
}

LogicalResult mlir::stark::prepareTensorProgram(ModuleOp module,
                                                StringRef entryName,
                                                bool synthesizeElidedWeights,
                                                std::string &error) {
  func::FuncOp entry = findEntry(module, entryName, error);
  if (!entry || failed(checkProgramEntry(entry, error)))
    return failure();
  int64_t numOutputs = entry.getFunctionType().getNumResults();
  std::string name = entry.getSymName().str();
  if (failed(handleMissingWeights(module, synthesizeElidedWeights, error)) ||
      failed(inlineConstantGlobalLoads(module, error)) ||
      failed(bufferizeProgram(module, entry, error)))
    return failure();
  module->setAttr(kProblemAttrName,
                  ProblemAttr::get(module.getContext(), name,
                                   /*fused_ops=*/0, numOutputs,
                                   /*op=*/"program", /*shapes=*/"",
                                   /*signature=*/""));
  return success();
}
