//===- TuningTransformOps.cpp - Transform ops of tuning specs -------------===//

#include "stark/Tuning/TuningTransformOps.h"
#include "stark/Analysis/InitFill.h"
#include "stark/Dialect/StarkDialect.h"
#include "stark/Problem/FusionGroup.h"
#include "stark/Problem/KernelProblem.h"
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
#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

/// The kernel problem --stark-outline builds for `op` when that problem
/// holds `fusedOps` linalg ops: the op alone, a contraction with the fill
/// of its output or with the element-wise ops computing its operands (the
/// one of `signature`, where both form), or the chain `op` ends. `members`
/// gets the program's ops the problem stands for.
static FailureOr<OwningOpRef<ModuleOp>>
outlineAsRecorded(Operation *op, int64_t fusedOps, StringRef signature,
                  SmallVectorImpl<Operation *> &members, std::string &whyNot) {
  if (!isa<linalg::LinalgOp, linalg::SoftmaxOp>(op)) {
    whyNot = "not a linalg op";
    return failure();
  }
  // Substituted kernels and problem modules hold ops that are not the
  // program's own.
  if (auto func = op->getParentOfType<func::FuncOp>();
      func && func.getName().starts_with("stark_kernel_")) {
    whyNot = "inside a substituted kernel";
    return failure();
  }
  for (auto parent = op->getParentOfType<ModuleOp>(); parent;
       parent = parent->getParentOfType<ModuleOp>())
    if (parent->hasAttr(kProblemAttrName)) {
      whyNot = "inside a kernel problem";
      return failure();
    }
  members.assign({op});
  if (fusedOps == 1) {
    // As --stark-outline: an op reducing into several fills is a problem of
    // one fused op where a kernel reads that problem, else the op's own.
    if (isSeveralOutputReduction(op)) {
      FusionGroup group;
      std::string ignored;
      if (succeeded(growFusionGroup(op, group, ignored)) &&
          group.ops.size() == 1) {
        FailureOr<OwningOpRef<ModuleOp>> fused =
            outlineOneOpFusionGroup(group, ignored);
        if (succeeded(fused))
          return fused;
      }
    }
    return outlineKernelProblem(op, whyNot);
  }
  if (!isFusableOp(op)) {
    // A contraction that ends its group: the group of its operand
    // prologues, where the record is that group's.
    for (auto [epilogues, convolutions, prologues, attention] :
         kOutlineEpilogueVariants) {
      FusionGroup group;
      std::string ignored, error;
      if (failed(growFusionGroup(op, group, ignored, epilogues, convolutions,
                                 prologues, attention)) ||
          group.ops.size() < 2 || int64_t(group.ops.size()) != fusedOps ||
          group.ops.back() != op)
        continue;
      FailureOr<OwningOpRef<ModuleOp>> fused =
          outlineFusionGroup(group, ignored);
      if (failed(fused))
        continue;
      FailureOr<ProblemAttr> info = getProblemAttr(**fused, error);
      if (succeeded(info) && info->getSignature() == signature) {
        members.assign(group.ops.begin(), group.ops.end());
        return fused;
      }
    }
    linalg::FillOp fill = getOwnedInitFill(op);
    if (!fill) {
      whyNot = "its output is not a constant fill only it reads";
      return failure();
    }
    members.assign({fill, op});
    return outlineKernelProblem(op, whyNot, fill);
  }
  // The chain with or without the contraction it is the epilogue of
  // (fuse-epilogues), whichever the record has.
  FusionGroup group;
  for (auto [epilogues, convolutions, prologues, attention] :
       kOutlineEpilogueVariants) {
    if (failed(growFusionGroup(op, group, whyNot, epilogues, convolutions,
                               prologues, attention)))
      return failure();
    if (int64_t(group.ops.size()) == fusedOps)
      break;
  }
  if (int64_t(group.ops.size()) != fusedOps) {
    whyNot = llvm::formatv("its chain has {0} ops, not {1}", group.ops.size(),
                           fusedOps)
                 .str();
    return failure();
  }
  if (group.ops.back() != op) {
    whyNot = "not the last op of its chain";
    return failure();
  }
  members.assign(group.ops.begin(), group.ops.end());
  return outlineFusionGroup(group, whyNot);
}

//===----------------------------------------------------------------------===//
// MatchSignatureOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
MatchSignatureOp::matchOperation(Operation *current,
                                 transform::TransformResults &results,
                                 transform::TransformState &state) {
  SmallVector<Operation *> members;
  std::string whyNot;
  FailureOr<OwningOpRef<ModuleOp>> problem = outlineAsRecorded(
      current, getFusedOps(), getSignature(), members, whyNot);
  if (failed(problem))
    return emitSilenceableError() << "no kernel problem: " << whyNot;
  std::string error;
  FailureOr<ProblemAttr> info = getProblemAttr(**problem, error);
  if (failed(info) || info->getSignature() != getSignature())
    return emitSilenceableError() << "the op's problem has another signature";
  return DiagnosedSilenceableFailure::success();
}

void MatchSignatureOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getOperandHandleMutable(), effects);
  transform::onlyReadsPayload(effects);
}

//===----------------------------------------------------------------------===//
// ApplyWinnerOp
//===----------------------------------------------------------------------===//

ModuleOp ApplyWinnerOp::getWinnerModule() {
  Block &block = getBody().front();
  if (!llvm::hasSingleElement(block))
    return {};
  return dyn_cast<ModuleOp>(block.front());
}

// The region holds a builtin.module, spelled `module` as at the top level.
StringRef ApplyWinnerOp::getDefaultDialect() { return "builtin"; }

LogicalResult ApplyWinnerOp::verify() {
  ModuleOp winner = getWinnerModule();
  if (!winner)
    return emitOpError("expects its region to hold exactly one "
                       "builtin.module, the winner");
  if (!winner.lookupSymbol<func::FuncOp>(getProblem().getEntry()))
    return emitOpError("the winner has no @") << getProblem().getEntry();
  if (getProblem().getSignature().empty())
    return emitOpError("the problem has no signature");
  return success();
}

void ApplyWinnerOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::consumesHandle(getTargetMutable(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure
ApplyWinnerOp::apply(transform::TransformRewriter &rewriter,
                     transform::TransformResults &results,
                     transform::TransformState &state) {
  ProblemAttr recorded = getProblem();
  for (Operation *op : state.getPayloadOps(getTarget())) {
    SmallVector<Operation *> members;
    std::string whyNot;
    FailureOr<OwningOpRef<ModuleOp>> problem = outlineAsRecorded(
        op, recorded.getFusedOps(), recorded.getSignature(), members, whyNot);
    if (failed(problem))
      return emitSilenceableError() << "no kernel problem: " << whyNot;
    std::string error;
    FailureOr<ProblemAttr> info = stark::getProblemAttr(**problem, error);
    if (failed(info) || info->getSignature() != recorded.getSignature())
      return emitSilenceableError()
             << "the op's problem does not have the signature "
             << recorded.getSignature();
    // The problem as stark-search leaves it: the winner inside, named.
    ModuleOp problemModule = **problem;
    auto problemEntry =
        problemModule.lookupSymbol<func::FuncOp>(info->getEntry());
    auto winnerEntry =
        getWinnerModule().lookupSymbol<func::FuncOp>(info->getEntry());
    if (!problemEntry || !winnerEntry ||
        problemEntry.getFunctionType() != winnerEntry.getFunctionType())
      return emitDefiniteFailure() << "the winner's @" << info->getEntry()
                                   << " does not take the problem's arguments";
    OpBuilder b(getContext());
    std::string name =
        "stark_tuned_" + info->getSignature().take_front(16).str();
    problemModule.setSymNameAttr(b.getStringAttr(name));
    auto winner = cast<ModuleOp>(getWinnerModule()->clone());
    winner.setSymNameAttr(b.getStringAttr("winner"));
    problemModule.getBody()->push_back(winner);
    problemModule->setAttr(kWinnerAttrName, getWinner());

    auto program = op->getParentOfType<ModuleOp>();
    auto tag = FlatSymbolRefAttr::get(getContext(), name);
    for (Operation *member : members)
      member->setAttr(kProblemAttrName, tag);
    SubstituteOptions options;
    options.who = "tuning spec";
    llvm::SmallPtrSet<Operation *, 16> replaced;
    SubstituteResult result =
        substituteWinner(program, cast<DestinationStyleOpInterface>(op),
                         problemModule, options, replaced);
    if (result == SubstituteResult::Failed)
      return emitDefiniteFailure()
             << "cannot substitute the winner of " << recorded.getSignature();
    if (result == SubstituteResult::LeftAsIs)
      for (Operation *member : members)
        member->removeAttr(kProblemAttrName);
  }
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// Extension
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "stark/Tuning/TuningTransformOps.cpp.inc"

namespace {
class TuningTransformExtension
    : public transform::TransformDialectExtension<TuningTransformExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TuningTransformExtension)

  TuningTransformExtension() {
    // What substituting a winner creates in the payload.
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<bufferization::BufferizationDialect>();
    declareGeneratedDialect<func::FuncDialect>();
    declareGeneratedDialect<gpu::GPUDialect>();
    declareGeneratedDialect<LLVM::LLVMDialect>();
    declareGeneratedDialect<memref::MemRefDialect>();
    declareGeneratedDialect<NVVM::NVVMDialect>();
    declareGeneratedDialect<nvgpu::NVGPUDialect>();
    declareDependentDialect<StarkDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "stark/Tuning/TuningTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::stark::registerTuningTransformExtension(DialectRegistry &registry) {
  registry.addExtensions<TuningTransformExtension>();
}
