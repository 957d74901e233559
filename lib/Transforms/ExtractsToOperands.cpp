//===- ExtractsToOperands.cpp - Captured reads become operands ------------===//
//
// torch-mlir lowers adaptive average pooling to a linalg.generic that reads
// its input with `tensor.extract` of a tensor captured from above, at indices
// computed from `linalg.index` with integer arithmetic: the window's start
// `floor(o * in / out)`, its end `ceil((o + 1) * in / out)`, a clamp and a
// select that masks reads past the end. Whether those indices are affine is a
// question about finitely many points, so the rewrite answers it by
// evaluating the arithmetic at every point of the (static) iteration space,
// instead of trying to simplify divisions symbolically.
//
//===----------------------------------------------------------------------===//

#include "stark/Transforms/ExtractsToOperands.h"
#include "stark/Analysis/IndexProgram.h"
#include "stark/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "stark-extracts-to-operands"

namespace mlir::stark {
#define GEN_PASS_DEF_STARKEXTRACTSTOOPERANDSPASS
#include "stark/Transforms/Passes.h.inc"
} // namespace mlir::stark

using namespace mlir;
using namespace mlir::stark;

namespace {

/// What the evaluation found for one extract: per index, its coefficient on
/// each loop and its constant term.
struct AffineIndex {
  SmallVector<int64_t> coefficients;
  int64_t constant = 0;

  int64_t at(ArrayRef<int64_t> point) const {
    int64_t value = constant;
    for (auto [c, p] : llvm::zip_equal(coefficients, point))
      value += c * p;
    return value;
  }
};

/// The affine expression of `index`.
AffineExpr buildExpr(const AffineIndex &index, MLIRContext *ctx) {
  AffineExpr expr = getAffineConstantExpr(index.constant, ctx);
  for (auto [d, c] : llvm::enumerate(index.coefficients))
    if (c != 0)
      expr = expr + getAffineDimExpr(d, ctx) * c;
  return expr;
}

/// Gives each constant 0 into a dimension of 1 a loop of extent 1 (always
/// 0) that no other result reads: one the index arithmetic named, else the
/// loop at the dimension's position, else the first. A batch of one read as
/// `x[0, c, ...]` (canonicalisation folds `linalg.index` of a unit loop to
/// 0) then keeps its loop, and the map stays a projected permutation that
/// fusion and the kernel families take.
void giveUnitDimsTheirLoops(SmallVectorImpl<AffineExpr> &results,
                            ArrayRef<int64_t> shape,
                            ArrayRef<uint64_t> loopsRead,
                            ArrayRef<int64_t> ranges) {
  llvm::SmallBitVector used(ranges.size());
  for (AffineExpr expr : results)
    expr.walk([&](AffineExpr e) {
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        used.set(dim.getPosition());
    });
  for (auto [i, expr] : llvm::enumerate(results)) {
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!constant || constant.getValue() != 0 || shape[i] != 1)
      continue;
    auto free = [&](unsigned d) { return ranges[d] == 1 && !used.test(d); };
    std::optional<unsigned> pick;
    for (unsigned d = 0; d < ranges.size() && !pick; ++d)
      if (free(d) && (loopsRead[i] >> d) & 1)
        pick = d;
    if (!pick && i < ranges.size() && free(i))
      pick = i;
    for (unsigned d = 0; d < ranges.size() && !pick; ++d)
      if (free(d))
        pick = d;
    if (!pick)
      continue;
    used.set(*pick);
    expr = getAffineDimExpr(*pick, expr.getContext());
  }
}

/// Whether a read through `map` from a tensor of `shape` over loops of
/// `ranges` passes linalg's verifier: a result that is one loop must match
/// the dimension's size exactly.
bool fitsVerifier(AffineMap map, ArrayRef<int64_t> shape,
                  ArrayRef<int64_t> ranges) {
  for (auto [expr, size] : llvm::zip_equal(map.getResults(), shape))
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      if (ranges[dim.getPosition()] != size)
        return false;
  return true;
}

/// Calls `visit` with every point of the iteration space of `ranges`, in
/// order; stops at the first failure.
LogicalResult
forEachPoint(ArrayRef<int64_t> ranges,
             function_ref<LogicalResult(ArrayRef<int64_t>)> visit) {
  SmallVector<int64_t> point(ranges.size(), 0);
  while (true) {
    if (failed(visit(point)))
      return failure();
    int64_t d = int64_t(ranges.size()) - 1;
    for (; d >= 0; --d) {
      if (++point[d] < ranges[d])
        break;
      point[d] = 0;
    }
    if (d < 0)
      return success();
  }
}

/// The reads of captured tensors in a body and what evaluating the index
/// arithmetic found about them.
struct ReadAnalysis {
  SmallVector<tensor::ExtractOp> extracts;
  /// Per extract, per index: its affine function of the loops.
  SmallVector<SmallVector<AffineIndex>> fits;
  /// Selects whose condition the loop indices decide, the side each picks
  /// at the first point, and whether it picks that side everywhere.
  SmallVector<arith::SelectOp> selects;
  SmallVector<int64_t> firstChoice;
  SmallVector<bool> foldable;
};

/// Whether `extract`, in `op`'s body, reads a tensor defined above the op.
bool readsFromAbove(linalg::GenericOp op, tensor::ExtractOp extract) {
  return !op.getRegion().isAncestor(extract.getTensor().getParentRegion());
}

/// The `tensor.extract`s in `op`'s body of tensors defined above it; fails
/// when there is none or one sits in a nested region.
LogicalResult collectExtracts(linalg::GenericOp op,
                              SmallVectorImpl<tensor::ExtractOp> &extracts,
                              std::string &why) {
  Block &body = op.getRegion().front();
  bool nested = false;
  op.getRegion().walk([&](tensor::ExtractOp extract) {
    if (!readsFromAbove(op, extract))
      return;
    if (extract->getBlock() != &body)
      nested = true;
    extracts.push_back(extract);
  });
  if (extracts.empty()) {
    why = "its body extracts no element of a tensor from above";
    return failure();
  }
  if (nested) {
    why = "a tensor.extract sits in a region nested in the body";
    return failure();
  }
  return success();
}

/// The static loop extents of `op`, when there are at most `maxPoints`
/// points and at least one.
FailureOr<SmallVector<int64_t>>
getIterationSpace(linalg::GenericOp op, int64_t maxPoints, std::string &why) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t points = 1;
  for (int64_t extent : ranges) {
    if (ShapedType::isDynamic(extent)) {
      why = "a loop has a dynamic extent";
      return failure();
    }
    points = extent == 0 ? 0 : points * extent;
    if (points > maxPoints) {
      why = llvm::formatv("its iteration space has more than {0} points "
                          "(max-points)",
                          maxPoints);
      return failure();
    }
  }
  if (points == 0) {
    why = "its iteration space is empty";
    return failure();
  }
  return ranges;
}

/// Adds every extract's indices to `program` (each must be computed from
/// the loop indices alone) and the conditions of the selects that are.
LogicalResult addIndexArithmetic(Block &body, IndexProgram &program,
                                 ReadAnalysis &reads, std::string &why) {
  for (tensor::ExtractOp extract : reads.extracts) {
    auto type = cast<RankedTensorType>(extract.getTensor().getType());
    if (!type.hasStaticShape()) {
      why = "it extracts from a tensor of dynamic shape";
      return failure();
    }
    for (auto [i, index] : llvm::enumerate(extract.getIndices())) {
      std::string because;
      if (!program.canCompute(index, because)) {
        why = llvm::formatv("index {0} of a tensor.extract is not computed "
                            "from the loop indices alone: {1}",
                            i, because);
        return failure();
      }
      program.add(index);
    }
  }
  // The mask of reads past a window's end: folded where the condition is
  // the same everywhere.
  for (auto select : body.getOps<arith::SelectOp>()) {
    std::string because;
    if (!program.canCompute(select.getCondition(), because))
      continue;
    program.add(select.getCondition());
    reads.selects.push_back(select);
  }
  return success();
}

/// Fits each index to an affine function of the loops from its value at
/// the origin and its step along each loop of more than one point.
LogicalResult fitIndices(ArrayRef<int64_t> ranges, IndexProgram &program,
                         ReadAnalysis &reads, std::string &why) {
  SmallVector<int64_t> origin(ranges.size(), 0);
  if (failed(program.run(origin))) {
    why = "the index arithmetic is undefined at the first point";
    return failure();
  }
  for (tensor::ExtractOp extract : reads.extracts) {
    SmallVector<AffineIndex> fit;
    for (Value index : extract.getIndices())
      fit.push_back(
          {SmallVector<int64_t>(ranges.size(), 0), program.get(index)});
    reads.fits.push_back(std::move(fit));
  }
  for (arith::SelectOp select : reads.selects)
    reads.firstChoice.push_back(program.get(select.getCondition()));
  for (auto [d, extent] : llvm::enumerate(ranges)) {
    if (extent < 2)
      continue;
    SmallVector<int64_t> step(ranges.size(), 0);
    step[d] = 1;
    if (failed(program.run(step))) {
      why = "the index arithmetic is undefined at a point";
      return failure();
    }
    for (auto [extract, fit] : llvm::zip_equal(reads.extracts, reads.fits))
      for (auto [index, affine] : llvm::zip_equal(extract.getIndices(), fit))
        affine.coefficients[d] = program.get(index) - affine.constant;
  }
  return success();
}

/// Checks the fits and the bounds at every point, and which selects pick
/// the same side everywhere.
LogicalResult checkEveryPoint(ArrayRef<int64_t> ranges, IndexProgram &program,
                              ReadAnalysis &reads, std::string &why) {
  reads.foldable.assign(reads.selects.size(), true);
  return forEachPoint(ranges, [&](ArrayRef<int64_t> point) {
    if (failed(program.run(point))) {
      why = "the index arithmetic is undefined at a point";
      return failure();
    }
    for (auto [extract, fit] : llvm::zip_equal(reads.extracts, reads.fits)) {
      ArrayRef<int64_t> shape = extract.getTensor().getType().getShape();
      for (auto [i, index, affine] :
           llvm::enumerate(extract.getIndices(), fit)) {
        int64_t value = program.get(index);
        if (value != affine.at(point)) {
          why = llvm::formatv("index {0} of a tensor.extract is not an "
                              "affine function of the loop indices",
                              i);
          return failure();
        }
        if (value < 0 || value >= shape[i]) {
          why = llvm::formatv("index {0} of a tensor.extract leaves the "
                              "tensor at some point",
                              i);
          return failure();
        }
      }
    }
    for (auto [i, select] : llvm::enumerate(reads.selects))
      if (program.get(select.getCondition()) != reads.firstChoice[i])
        reads.foldable[i] = false;
    return success();
  });
}

/// The operands of the rewritten op: the inputs it keeps, then one new
/// input per captured tensor and map, then the old inits.
struct OperandPlan {
  llvm::MapVector<std::pair<Value, AffineMap>, unsigned> newOperands;
  /// Per extract, its new operand's position among `newOperands`.
  SmallVector<unsigned> operandOfExtract;
  SmallVector<bool> keepInput;
};

FailureOr<OperandPlan> planOperands(linalg::GenericOp op,
                                    ArrayRef<int64_t> ranges,
                                    const IndexProgram &program,
                                    ReadAnalysis &reads, std::string &why) {
  MLIRContext *ctx = op.getContext();
  OperandPlan plan;
  for (auto [extract, fit] : llvm::zip_equal(reads.extracts, reads.fits)) {
    ArrayRef<int64_t> shape = extract.getTensor().getType().getShape();
    SmallVector<AffineExpr> results;
    SmallVector<uint64_t> loopsRead;
    for (auto [index, affine] : llvm::zip_equal(extract.getIndices(), fit)) {
      results.push_back(buildExpr(affine, ctx));
      loopsRead.push_back(program.loopsRead(index));
    }
    giveUnitDimsTheirLoops(results, shape, loopsRead, ranges);
    auto map = AffineMap::get(ranges.size(), 0, results, ctx);
    if (!fitsVerifier(map, shape, ranges)) {
      why = "a tensor.extract reads part of a dimension along a whole loop";
      return failure();
    }
    auto inserted = plan.newOperands.insert(
        {{extract.getTensor(), map}, unsigned(plan.newOperands.size())});
    plan.operandOfExtract.push_back(inserted.first->second);
  }

  // Inputs the body never reads (a pooling window's shape) go, where the
  // other operands still give every loop its extent.
  Block &body = op.getRegion().front();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned numInputs = op.getNumDpsInputs();
  for (unsigned i = 0; i < numInputs; ++i)
    plan.keepInput.push_back(!body.getArgument(i).use_empty());
  llvm::SmallBitVector covered(ranges.size());
  auto cover = [&](AffineMap map) {
    for (AffineExpr expr : map.getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        covered.set(dim.getPosition());
  };
  for (unsigned i = 0; i < maps.size(); ++i)
    if (i >= numInputs || plan.keepInput[i])
      cover(maps[i]);
  for (auto &entry : plan.newOperands)
    cover(entry.first.second);
  if (!covered.all())
    plan.keepInput.assign(numInputs, true);
  return plan;
}

/// Builds the op `plan` describes, its body `op`'s with each extract read
/// from its new block argument and each foldable select replaced by its
/// side; index arithmetic left unused goes.
linalg::GenericOp buildRewritten(RewriterBase &rewriter, linalg::GenericOp op,
                                 const OperandPlan &plan, ReadAnalysis &reads) {
  Block &body = op.getRegion().front();
  SmallVector<AffineMap> oldMaps = op.getIndexingMapsArray();
  unsigned numInputs = op.getNumDpsInputs();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  SmallVector<Type> argTypes;
  for (unsigned i = 0; i < numInputs; ++i)
    if (plan.keepInput[i]) {
      inputs.push_back(op.getDpsInputs()[i]);
      maps.push_back(oldMaps[i]);
      argTypes.push_back(body.getArgument(i).getType());
    }
  for (auto &entry : plan.newOperands) {
    inputs.push_back(entry.first.first);
    maps.push_back(entry.first.second);
    argTypes.push_back(
        cast<RankedTensorType>(entry.first.first.getType()).getElementType());
  }
  for (unsigned i = numInputs; i < oldMaps.size(); ++i) {
    maps.push_back(oldMaps[i]);
    argTypes.push_back(body.getArgument(i).getType());
  }

  auto newOp = linalg::GenericOp::create(
      rewriter, op.getLoc(), op.getResultTypes(), inputs, op.getDpsInits(),
      maps, op.getIteratorTypesArray());
  newOp->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  SmallVector<Location> argLocs(argTypes.size(), op.getLoc());
  Block *block =
      rewriter.createBlock(&newOp.getRegion(), {}, argTypes, argLocs);

  IRMapping mapping;
  unsigned next = 0;
  for (unsigned i = 0; i < numInputs; ++i)
    if (plan.keepInput[i])
      mapping.map(body.getArgument(i), block->getArgument(next++));
  unsigned firstNew = next;
  next += plan.newOperands.size();
  for (unsigned i = numInputs; i < body.getNumArguments(); ++i)
    mapping.map(body.getArgument(i), block->getArgument(next++));
  for (auto [extract, operand] :
       llvm::zip_equal(reads.extracts, plan.operandOfExtract))
    mapping.map(extract.getResult(), block->getArgument(firstNew + operand));

  // A folded select stands for the side its condition always picks.
  DenseMap<Operation *, Value> foldedTo;
  for (auto [select, fold, choice] :
       llvm::zip_equal(reads.selects, reads.foldable, reads.firstChoice))
    if (fold)
      foldedTo[select] =
          choice ? select.getTrueValue() : select.getFalseValue();
  rewriter.setInsertionPointToStart(block);
  for (Operation &bodyOp : body) {
    if (isa<tensor::ExtractOp>(bodyOp) && mapping.contains(bodyOp.getResult(0)))
      continue;
    if (Value side = foldedTo.lookup(&bodyOp)) {
      mapping.map(bodyOp.getResult(0), mapping.lookupOrDefault(side));
      continue;
    }
    rewriter.clone(bodyOp, mapping);
  }
  for (Operation &dead : llvm::make_early_inc_range(llvm::reverse(*block)))
    if (isOpTriviallyDead(&dead))
      rewriter.eraseOp(&dead);
  return newOp;
}

} // namespace

FailureOr<linalg::GenericOp>
mlir::stark::rewriteExtractsToOperands(RewriterBase &rewriter,
                                       linalg::GenericOp op, int64_t maxPoints,
                                       std::string &why) {
  if (!op.hasPureTensorSemantics()) {
    why = "the op works on buffers";
    return failure();
  }
  ReadAnalysis reads;
  if (failed(collectExtracts(op, reads.extracts, why)))
    return failure();
  FailureOr<SmallVector<int64_t>> ranges =
      getIterationSpace(op, maxPoints, why);
  if (failed(ranges))
    return failure();
  Block &body = op.getRegion().front();
  IndexProgram program(body, ranges->size());
  if (failed(addIndexArithmetic(body, program, reads, why)) ||
      failed(fitIndices(*ranges, program, reads, why)) ||
      failed(checkEveryPoint(*ranges, program, reads, why)))
    return failure();
  FailureOr<OperandPlan> plan = planOperands(op, *ranges, program, reads, why);
  if (failed(plan))
    return failure();
  linalg::GenericOp newOp = buildRewritten(rewriter, op, *plan, reads);
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << reads.extracts.size()
                          << " extract(s) became " << plan->newOperands.size()
                          << " operand(s) of " << newOp << "\n");
  rewriter.replaceOp(op, newOp->getResults());
  return newOp;
}

namespace {

struct StarkExtractsToOperandsPass
    : public stark::impl::StarkExtractsToOperandsPassBase<
          StarkExtractsToOperandsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxPoints < 1) {
      getOperation()->emitError()
          << "stark-extracts-to-operands: max-points must be at least 1, not "
          << int64_t(maxPoints);
      return signalPassFailure();
    }
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk([&](linalg::GenericOp op) {
      WalkResult found = op.getRegion().walk([&](tensor::ExtractOp extract) {
        return readsFromAbove(op, extract) ? WalkResult::interrupt()
                                           : WalkResult::advance();
      });
      if (found.wasInterrupted())
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates) {
      rewriter.setInsertionPoint(op);
      std::string why;
      if (succeeded(rewriteExtractsToOperands(rewriter, op, maxPoints, why))) {
        ++numRewritten;
        continue;
      }
      op.emitRemark() << "stark-extracts-to-operands: the op keeps its "
                         "tensor.extract of a tensor from above: "
                      << why;
    }
  }
};

} // namespace
