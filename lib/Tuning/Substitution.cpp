//===- Substitution.cpp - Put a problem's winner into the program ---------===//

#include "stark/Tuning/Substitution.h"
#include "stark/Analysis/InitFill.h"
#include "stark/Analysis/ProblemView.h"
#include "stark/Problem/FusionGroup.h"
#include "stark/Problem/KernelProblem.h"
#include "stark/Target/GpuBinary.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

/// Copies the winner's entry into `module` as a private function (once per
/// signature) and returns it.
func::FuncOp importWinner(ModuleOp module, ModuleOp winner, ProblemAttr info) {
  std::string name = "stark_kernel_" + info.getSignature().take_front(16).str();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  auto entry = winner.lookupSymbol<func::FuncOp>(info.getEntry());
  if (!entry)
    return {};
  // Helpers the entry calls (and globals it uses) come along, renamed
  // with the same prefix so they cannot clash with the program's symbols.
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  func::FuncOp copy;
  for (Operation &op : winner.getBody()->getOperations()) {
    Operation *clone = b.clone(op);
    if (auto f = dyn_cast<func::FuncOp>(clone);
        f && f.getName() == info.getEntry())
      copy = f;
  }
  SymbolTable table(module);
  (void)table.rename(copy, name);
  copy.setPrivate();
  return copy;
}

/// Imports the CUDA C++ winner `entry` as `gpu.binary @<name>_bin` plus the
/// host function `@<name>` (once per signature). A malformed winner is an
/// error; a compile that did not happen or failed (no NVRTC, another
/// toolkit, another chip) leaves the op.
CudaGpuBinary importCudaWinner(ModuleOp module, func::FuncOp entry,
                               StringRef name, StringRef chip, bool embedPtx) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name)) {
    CudaGpuBinary result;
    result.host = existing;
    return result;
  }
#ifdef STARK_ENABLE_CUDA
  return emitCudaSourceAsGpuBinary(module, entry, name, chip, embedPtx);
#else
  (void)entry;
  (void)chip;
  (void)embedPtx;
  CudaGpuBinary result;
  result.error = "stark was built without the CUDA target "
                 "(STARK_ENABLE_CUDA=OFF), which compiles CUDA C++";
  return result;
#endif
}

/// Replaces `op` by a call of `kernel`, bridging tensors to buffers. With
/// `initFill` (the fill of op's output the problem owns), the kernel writes
/// the output without reading it: no copy of the init, and the fill goes.
LogicalResult replaceWithCall(DestinationStyleOpInterface op,
                              func::FuncOp kernel, DictionaryAttr provenance,
                              linalg::FillOp initFill = {}) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op.getOperation());
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<Value> args;
  for (OpOperand *in : op.getDpsInputOperands()) {
    Value v = in->get();
    if (!isa<ShapedType>(v.getType()))
      continue; // scalars were cloned into the problem as constants
    if (auto t = dyn_cast<RankedTensorType>(v.getType()))
      v = bufferization::ToBufferOp::create(
          b, loc, MemRefType::get(t.getShape(), t.getElementType()), v,
          /*readOnly=*/true);
    args.push_back(v);
  }
  SmallVector<Value> outBuffers;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Value v = init.get();
    if (auto t = dyn_cast<RankedTensorType>(v.getType())) {
      auto type = MemRefType::get(t.getShape(), t.getElementType());
      Value buffer = memref::AllocOp::create(b, loc, type);
      // Structured ops may accumulate into their init; softmax does not.
      if (!initFill && linalgOp &&
          linalgOp.payloadUsesValueFromOperand(&init)) {
        Value initBuffer = bufferization::ToBufferOp::create(b, loc, type, v,
                                                             /*readOnly=*/true);
        memref::CopyOp::create(b, loc, initBuffer, buffer);
      }
      outBuffers.push_back(buffer);
      args.push_back(buffer);
    } else {
      args.push_back(v);
    }
  }
  if (TypeRange(ValueRange(args)) != kernel.getFunctionType().getInputs())
    return op->emitError("stark-substitute: the winner's arguments do not "
                         "match the op's operands");
  auto call = func::CallOp::create(b, loc, kernel, args);
  call->setAttr(kWinnerAttrName, provenance);
  SmallVector<Value> results;
  for (auto [result, buffer] : llvm::zip(op->getResults(), outBuffers))
    results.push_back(bufferization::ToTensorOp::create(
        b, loc, result.getType(), buffer, /*restrict=*/true,
        /*writable=*/true));
  op->replaceAllUsesWith(results);
  op->erase();
  if (initFill && initFill->use_empty()) {
    Value dest = initFill.getOutputs()[0];
    initFill->erase();
    if (auto empty = dest.getDefiningOp<tensor::EmptyOp>();
        empty && empty->use_empty())
      empty->erase();
  } else if (initFill && isa<MemRefType>(initFill.getOutputs()[0].getType())) {
    // The kernel writes every element the fill wrote.
    initFill->erase();
  }
  return success();
}

/// Whether `fill` writes the same value as the fill of `problem`'s entry.
bool fillsAsProblem(linalg::FillOp fill, ModuleOp problem) {
  SmallVector<Operation *> ops = getProblemOps(problem);
  auto problemFill =
      ops.empty() ? linalg::FillOp() : dyn_cast<linalg::FillOp>(ops.front());
  std::optional<double> value = getFillValue(fill);
  return problemFill && value && getFillValue(problemFill) == value &&
         getElementTypeOrSelf(fill.getInputs()[0].getType()) ==
             getElementTypeOrSelf(problemFill.getInputs()[0].getType());
}

/// The provenance a substituted call carries. It stays a builtin dictionary:
/// the output goes on to stock tools (mlir-opt, mlir-translate, mlir-runner)
/// that do not know the stark dialect.
DictionaryAttr buildCallProvenance(WinnerAttr winner, ProblemAttr problem) {
  Builder b(winner.getContext());
  return b.getDictionaryAttr({
      b.getNamedAttr("candidate", b.getI64IntegerAttr(winner.getCandidate())),
      b.getNamedAttr("signature", b.getStringAttr(problem.getSignature())),
      b.getNamedAttr("speedup",
                     b.getF64FloatAttr(winner.getSpeedup().convertToDouble())),
      b.getNamedAttr("strategy", b.getStringAttr(winner.getStrategy())),
  });
}

} // namespace

SubstituteResult
mlir::stark::substituteWinner(ModuleOp program, DestinationStyleOpInterface op,
                              ModuleOp problem,
                              const SubstituteOptions &options,
                              llvm::SmallPtrSetImpl<Operation *> &replaced) {
  StringRef who = options.who;
  StringRef problemName =
      problem.getSymName() ? *problem.getSymName() : StringRef("?");
  auto leaveAsIs = [&] {
    op->removeAttr(kProblemAttrName);
    return SubstituteResult::LeftAsIs;
  };
  auto winnerAttr = problem->getAttrOfType<WinnerAttr>(kWinnerAttrName);
  auto winner = problem.lookupSymbol<ModuleOp>("winner");
  if (!winnerAttr || !winner) {
    op->removeAttr(kProblemAttrName);
    return SubstituteResult::LeftAsIs;
  }
  std::string error;
  FailureOr<ProblemAttr> info = getProblemAttr(problem, error);
  if (failed(info)) {
    op->emitError() << who << ": " << error;
    return SubstituteResult::Failed;
  }
  auto entry = winner.lookupSymbol<func::FuncOp>(info->getEntry());
  if (!entry) {
    op->emitError() << who << ": the winner of " << problemName << " has no @"
                    << info->getEntry();
    return SubstituteResult::Failed;
  }
  std::string name =
      "stark_kernel_" + info->getSignature().take_front(16).str();
  func::FuncOp kernel;
  std::string cudaNote;
  if (entry->hasAttr(kCudaAttrName)) {
    // CUDA C++ lives in an attribute of a body-less function; it becomes
    // gpu.binary + gpu.launch_func, which the standard pipeline lowers.
    std::string chip = options.cudaChip;
    if (chip.empty())
      chip = winnerAttr.getChip().str();
    if (chip.empty())
      chip = "sm_90a";
    CudaGpuBinary cuda =
        importCudaWinner(program, entry, name, chip, options.embedPtx);
    if (cuda.malformed) {
      op->emitError() << who << ": the CUDA C++ winner of @" << problemName
                      << " is malformed: " << cuda.error;
      return SubstituteResult::Failed;
    }
    if (!cuda.host) {
      op->emitRemark() << who
                       << ": left as is: the CUDA C++ "
                          "winner of @"
                       << problemName << " could not be compiled for " << chip
                       << ": " << cuda.error;
      op->removeAttr(kProblemAttrName);
      return leaveAsIs();
    }
    kernel = cuda.host;
    cudaNote =
        llvm::formatv(": CUDA C++ compiled for {0} into gpu.binary @{1}_bin",
                      chip, name)
            .str();
  } else {
    kernel = importWinner(program, winner, *info);
  }
  DictionaryAttr provenance = buildCallProvenance(winnerAttr, *info);
  double speedup = winnerAttr.getSpeedup().convertToDouble();
  // A problem that owns the fill of the op's output replaces both
  // (stark/Analysis/InitFill.h); a fused problem its whole chain
  // (FusionGroup.h).
  linalg::FillOp initFill;
  SmallVector<Operation *> problemOps = getProblemOps(problem);
  bool ownsFill = problemOps.size() == 2 && isa<linalg::FillOp>(problemOps[0]);
  // A reduction outlined alone with its fill (its chain not fused, by the
  // cost model or by compare-unfused) is such a problem too.
  if (info->getFusedOps() > 1 && ownsFill && !isFusedGroupProblem(*info)) {
    initFill = getOwnedInitFill(op);
    if (!initFill || !fillsAsProblem(initFill, problem)) {
      op->emitRemark() << who
                       << ": left as is: the output of "
                          "the op is no longer filled as in @"
                       << problemName;
      op->removeAttr(kProblemAttrName);
      return leaveAsIs();
    }
  }
  FailureOr<FusionGroup> group = failure();
  if ((info->getFusedOps() > 1 || isFusedGroupProblem(*info)) && !initFill) {
    group = findOutlinedFusionGroup(op, info->getFusedOps(), error);
    if (failed(group)) {
      op->emitRemark() << who << ": left as is: " << error;
      op->removeAttr(kProblemAttrName);
      return leaveAsIs();
    }
    replaced.insert(group->ops.begin(), group->ops.end());
  }
  InFlightDiagnostic remark = op->emitRemark();
  remark << who << ": replaced by @" << kernel.getName() << " ("
         << winnerAttr.getStrategy() << ", "
         << llvm::formatv("{0:f2}", speedup).str() << "x, verified)"
         << cudaNote;
  remark.report();
  if (failed(succeeded(group)
                 ? replaceFusionGroupWithCall(*group, kernel, provenance)
                 : replaceWithCall(op, kernel, provenance, initFill)))
    return SubstituteResult::Failed;
  return SubstituteResult::Replaced;
}
