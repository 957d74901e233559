//===- CpuFusedGroup.cpp - A fused problem's chain as one tensor program --===//

#include "CpuFusedGroup.h"
#include "stark/Analysis/InitFill.h"
#include "stark/Analysis/ProblemView.h"
#include "stark/Dialect/StarkAttrs.h"
#include "stark/Dialect/StarkDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

bool mlir::stark::isFusedGroupProblem(ModuleOp problem) {
  SmallVector<Operation *> ops;
  for (Operation *op : getProblemOps(problem))
    if (isa<linalg::LinalgOp>(op))
      ops.push_back(op);
  if (ops.size() == 2 && getOwnedInitFill(ops[1]) == ops[0])
    return false;
  return ops.size() > 1;
}

/// The tensor type a memref's contents have on the tensor form.
static RankedTensorType getTensorTypeOf(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  return RankedTensorType::get(type.getShape(), type.getElementType());
}

/// Splits the problem's ops into the chain of linalg ops on memrefs and the
/// temporaries' allocations and deallocations; anything else is refused.
static LogicalResult splitChain(ArrayRef<Operation *> ops,
                                SmallVectorImpl<Operation *> &chain,
                                SmallVectorImpl<Operation *> &temporaries,
                                std::string &error) {
  for (Operation *op : ops) {
    if (isa<memref::AllocOp, memref::DeallocOp>(op)) {
      temporaries.push_back(op);
      continue;
    }
    if (!isa<linalg::LinalgOp>(op) ||
        !cast<linalg::LinalgOp>(op).hasPureBufferSemantics()) {
      error = llvm::formatv("'{0}' in the chain is not a linalg op on memrefs",
                            op->getName().getStringRef())
                  .str();
      return failure();
    }
    chain.push_back(op);
  }
  return success();
}

/// Temporaries and arguments must be static identity-layout memrefs: only
/// those have a tensor form to read and write whole.
static LogicalResult checkStaticBuffers(func::FuncOp func,
                                        ArrayRef<Operation *> temporaries,
                                        std::string &error) {
  for (Operation *op : temporaries)
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      if (!alloc.getType().hasStaticShape() ||
          !alloc.getType().getLayout().isIdentity()) {
        error = "a temporary with a dynamic shape or a layout";
        return failure();
      }
  for (Type t : func.getArgumentTypes()) {
    auto memref = dyn_cast<MemRefType>(t);
    if (!memref || !memref.hasStaticShape() ||
        !memref.getLayout().isIdentity()) {
      error = "arguments must be static memrefs with the identity layout";
      return failure();
    }
  }
  return success();
}

/// The tensor an operand of the chain reads: what its memref holds at this
/// point, or a fresh tensor for a temporary first used as an init.
static FailureOr<Value> getOperandTensor(OpBuilder &b, OpOperand &operand,
                                         const DenseMap<Value, Value> &current,
                                         std::string &error) {
  Value v = operand.get();
  auto it = current.find(v);
  if (it != current.end())
    return it->second;
  if (!v.getDefiningOp<memref::AllocOp>()) {
    error = "an operand is neither an argument nor a temporary";
    return failure();
  }
  // A temporary read before anything wrote it holds no defined value;
  // as an init it is a fresh tensor.
  auto dps = cast<DestinationStyleOpInterface>(operand.getOwner());
  if (!dps.isDpsInit(&operand)) {
    error = "a temporary is read before it is written";
    return failure();
  }
  auto type = cast<MemRefType>(v.getType());
  return tensor::EmptyOp::create(b, operand.getOwner()->getLoc(),
                                 type.getShape(), type.getElementType())
      .getResult();
}

/// Clones one op of the chain on the tensors its memrefs hold; its results
/// become what its inits hold.
static LogicalResult cloneOnTensors(OpBuilder &b, Operation *op,
                                    DenseMap<Value, Value> &current,
                                    std::string &error) {
  auto dps = cast<DestinationStyleOpInterface>(op);
  b.setInsertionPoint(op);
  SmallVector<Value> operands;
  SmallVector<Type> resultTypes;
  SmallVector<Value> inits;
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    if (!isa<MemRefType>(v.getType())) {
      operands.push_back(v);
      continue;
    }
    FailureOr<Value> t = getOperandTensor(b, operand, current, error);
    if (failed(t))
      return failure();
    operands.push_back(*t);
    if (dps.isDpsInit(&operand)) {
      resultTypes.push_back(t->getType());
      inits.push_back(v);
    }
  }
  Operation *tensorOp = mlir::clone(b, op, resultTypes, operands);
  for (auto [memref, result] : llvm::zip(inits, tensorOp->getResults()))
    current[memref] = result;
  return success();
}

/// Builds the chain on tensors beside the memref one: arguments read
/// through to_tensor, each op cloned on tensors, each output argument that
/// changed written back by materialize_in_destination.
static LogicalResult buildTensorChain(func::FuncOp func,
                                      ArrayRef<Operation *> chain,
                                      unsigned numOutputs, std::string &error) {
  unsigned numArgs = func.getNumArguments();
  // The value each memref holds at the current point of the chain.
  OpBuilder b(func.getContext());
  b.setInsertionPointToStart(&func.getBody().front());
  DenseMap<Value, Value> current;
  // Each argument's to_tensor, valid until the patterns below run.
  DenseMap<Value, Value> argTensors;
  for (BlockArgument arg : func.getArguments()) {
    bool isOutput = arg.getArgNumber() >= numArgs - numOutputs;
    Value t = bufferization::ToTensorOp::create(
        b, arg.getLoc(), getTensorTypeOf(arg), arg, /*restrict=*/true,
        /*writable=*/isOutput);
    current[arg] = t;
    argTensors[arg] = t;
  }
  for (Operation *op : chain)
    if (failed(cloneOnTensors(b, op, current, error)))
      return failure();
  b.setInsertionPoint(func.getBody().front().getTerminator());
  for (unsigned i = numArgs - numOutputs; i < numArgs; ++i) {
    Value arg = func.getArgument(i);
    if (current[arg] == argTensors[arg])
      continue;
    bufferization::MaterializeInDestinationOp::create(
        b, arg.getLoc(), /*result=*/Type(), current[arg], arg,
        /*restrict=*/true, /*writable=*/true);
  }
  return success();
}

/// Erases the memref chain and its temporaries once the tensor chain
/// replaces them.
static LogicalResult eraseMemrefChain(ArrayRef<Operation *> chain,
                                      ArrayRef<Operation *> temporaries,
                                      std::string &error) {
  for (Operation *op : llvm::reverse(chain))
    op->erase();
  for (Operation *op : llvm::reverse(temporaries))
    if (isa<memref::DeallocOp>(op))
      op->erase();
  for (Operation *op : llvm::reverse(temporaries))
    if (isa<memref::AllocOp>(op)) {
      if (!op->use_empty()) {
        error = "a temporary is used outside the chain";
        return failure();
      }
      op->erase();
    }
  return success();
}

/// Element-wise producers go into their consumers (recomputed where there
/// are several); reductions stay ops of their own.
static LogicalResult fuseElementwise(func::FuncOp func, std::string &error) {
  RewritePatternSet patterns(func.getContext());
  linalg::populateElementwiseOpsFusionPatterns(
      patterns, [](OpOperand *) { return true; });
  linalg::GenericOp::getCanonicalizationPatterns(patterns, func.getContext());
  if (failed(applyPatternsGreedily(func, std::move(patterns)))) {
    error = "element-wise fusion did not converge";
    return failure();
  }
  return success();
}

/// Fusion replaces an init the payload never reads by a fresh tensor; an
/// output's producer must write into the output argument again, or
/// bufferisation would allocate a buffer and copy it out.
static void restoreOutputInits(func::FuncOp func) {
  func.walk([&](bufferization::MaterializeInDestinationOp write) {
    auto result = dyn_cast<OpResult>(write.getSource());
    auto dps = result ? dyn_cast<DestinationStyleOpInterface>(result.getOwner())
                      : DestinationStyleOpInterface();
    if (!dps)
      return;
    OpOperand *init = dps.getTiedOpOperand(result);
    Value dest = write.getDest();
    if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
        init->get().getType() != getTensorTypeOf(dest))
      return;
    // The argument's own to_tensor may have been erased as dead.
    Value destTensor;
    for (Operation *user : dest.getUsers())
      if (auto read = dyn_cast<bufferization::ToTensorOp>(user))
        destTensor = read.getResult();
    if (!destTensor) {
      OpBuilder atStart = OpBuilder::atBlockBegin(&func.getBody().front());
      destTensor = bufferization::ToTensorOp::create(
          atStart, dest.getLoc(), getTensorTypeOf(dest), dest,
          /*restrict=*/true, /*writable=*/true);
    }
    init->set(destTensor);
  });
}

/// Rows are blocked by a reduction's outer loops: a generic that reduces a
/// middle loop (an argmax over dim 1) takes its parallel loops first. The
/// reduced loops keep their order, so each output still sees its elements
/// in the same sequence.
static LogicalResult moveParallelLoopsOut(func::FuncOp func,
                                          std::string &error) {
  IRRewriter rewriter(func.getContext());
  SmallVector<linalg::GenericOp> generics;
  func.walk([&](linalg::GenericOp op) { generics.push_back(op); });
  for (linalg::GenericOp op : generics) {
    SmallVector<unsigned> order;
    op.getParallelDims(order);
    op.getReductionDims(order);
    if (llvm::equal(order, llvm::seq<unsigned>(0, op.getNumLoops())))
      continue;
    rewriter.setInsertionPoint(op);
    if (failed(linalg::interchangeGenericOp(rewriter, op, order))) {
      error = "cannot move a reduction's parallel loops outside";
      return failure();
    }
  }
  return success();
}

FailureOr<SmallVector<Operation *>>
mlir::stark::fuseGroupOnTensors(ModuleOp problem, std::string &error) {
  SmallVector<Operation *> ops = getProblemOps(problem);
  if (ops.empty()) {
    error = "the problem has no entry function with a body";
    return failure();
  }
  auto func = ops.front()->getParentOfType<func::FuncOp>();
  auto info = problem->getAttrOfType<ProblemAttr>(kProblemAttrName);
  unsigned numArgs = func.getNumArguments();
  unsigned numOutputs = info ? unsigned(info.getNumOutputs()) : 1;
  if (numOutputs < 1 || numOutputs > numArgs) {
    error = "the problem does not say which arguments are its outputs";
    return failure();
  }
  SmallVector<Operation *> chain, temporaries;
  if (failed(splitChain(ops, chain, temporaries, error)) ||
      failed(checkStaticBuffers(func, temporaries, error)) ||
      failed(buildTensorChain(func, chain, numOutputs, error)) ||
      failed(eraseMemrefChain(chain, temporaries, error)) ||
      failed(fuseElementwise(func, error)))
    return failure();
  restoreOutputInits(func);
  if (failed(moveParallelLoopsOut(func, error)))
    return failure();
  SmallVector<Operation *> left;
  func.walk([&](linalg::LinalgOp op) { left.push_back(op); });
  return left;
}

LogicalResult mlir::stark::tileAndFuseRows(Operation *sink,
                                           ArrayRef<int64_t> tiles,
                                           std::string &error) {
  auto tileable = dyn_cast<TilingInterface>(sink);
  if (!tileable) {
    error = "the chain's last op cannot be tiled";
    return failure();
  }
  MLIRContext *ctx = sink->getContext();
  scf::SCFTilingOptions tiling;
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  tiling.setTileSizes(getAsIndexOpFoldResult(ctx, tiles));
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  IRRewriter rewriter(ctx);
  rewriter.setInsertionPoint(sink);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, tileable, options);
  if (failed(result)) {
    error = "tiling the chain's last op failed";
    return failure();
  }
  for (OpResult r : sink->getResults()) {
    auto it = result->replacements.find(r);
    if (it == result->replacements.end()) {
      error = "tiling left a result of the chain without a value";
      return failure();
    }
    rewriter.replaceAllUsesWith(r, it->second);
  }
  rewriter.eraseOp(sink);
  // The producers fused into the loop are dead outside it.
  bool erased = true;
  while (erased) {
    erased = false;
    for (Operation *producer : result->fusedProducers)
      if (producer && producer->getBlock() && producer->use_empty()) {
        result->fusedProducers.remove(producer);
        rewriter.eraseOp(producer);
        erased = true;
        break;
      }
  }
  return success();
}
