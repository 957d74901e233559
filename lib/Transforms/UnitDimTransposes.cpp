//===- UnitDimTransposes.cpp - Unit dimensions out of transposes ----------===//
//
// torch-mlir moves attention heads for a batch of one with a reshape that
// adds a unit batch dimension, a transpose, and a reshape that drops it
// again. The patterns here move such reshapes across the transpose, so the
// transpose touches the contraction directly; the pass applies them with the
// tensor dialect's reshape folders.
//
//===----------------------------------------------------------------------===//

#include "stark/Transforms/UnitDimTransposes.h"
#include "stark/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::stark {
#define GEN_PASS_DEF_STARKUNITDIMTRANSPOSESPASS
#include "stark/Transforms/Passes.h.inc"
} // namespace mlir::stark

using namespace mlir;
using namespace mlir::stark;

namespace {

/// For each group of a reshape between `shape` and the shape with one
/// dimension per group, the dimension of `shape` that carries the group's
/// extent: its one dimension that is not 1, or its first when all are 1.
/// Fails when a group has two dimensions that are not 1 (a real reshape).
FailureOr<SmallVector<int64_t>>
getCarriers(ArrayRef<ReassociationIndices> groups, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> carriers;
  for (const ReassociationIndices &group : groups) {
    int64_t carrier = group.front();
    int nonUnit = 0;
    for (int64_t d : group)
      if (shape[d] != 1) {
        carrier = d;
        ++nonUnit;
      }
    if (nonUnit > 1 || ShapedType::isDynamic(shape[carrier]))
      return failure();
    carriers.push_back(carrier);
  }
  return carriers;
}

/// The groups that keep the dimensions marked in `kept` (in order) and put
/// each other dimension (a 1) with the kept one after it, or before it at
/// the end.
SmallVector<ReassociationIndices> groupAroundKept(ArrayRef<bool> kept) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (auto [d, keep] : llvm::enumerate(kept)) {
    pending.push_back(int64_t(d));
    if (!keep)
      continue;
    groups.push_back(std::move(pending));
    pending.clear();
  }
  if (!groups.empty())
    groups.back().append(pending.begin(), pending.end());
  return groups;
}

/// collapse_shape(transpose(x)) -> transpose(collapse_shape(x)).
struct CollapseOfTranspose : public OpRewritePattern<tensor::CollapseShapeOp> {
  CollapseOfTranspose(MLIRContext *ctx, int64_t *numMoved)
      : OpRewritePattern(ctx), numMoved(numMoved) {}

  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto transpose = collapse.getSrc().getDefiningOp<linalg::TransposeOp>();
    if (!transpose || !transpose->hasOneUse() ||
        !transpose.hasPureTensorSemantics())
      return failure();
    auto tType = cast<RankedTensorType>(collapse.getSrcType());
    Value x = transpose.getInput();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    if (!xType || !tType.hasStaticShape() || !xType.hasStaticShape())
      return failure();
    SmallVector<ReassociationIndices> groups =
        collapse.getReassociationIndices();
    FailureOr<SmallVector<int64_t>> carriers =
        getCarriers(groups, tType.getShape());
    if (failed(carriers) || carriers->empty())
      return failure();
    ArrayRef<int64_t> perm = transpose.getPermutation();
    // The dimensions of x the carriers read; every other one is a 1.
    SmallVector<bool> kept(xType.getRank(), false);
    for (int64_t c : *carriers)
      kept[perm[c]] = true;
    SmallVector<ReassociationIndices> xGroups = groupAroundKept(kept);
    // Each group of x holds one kept dimension: its place in x's collapse.
    SmallVector<int64_t> position(xType.getRank(), -1);
    for (auto [i, group] : llvm::enumerate(xGroups))
      for (int64_t d : group)
        if (kept[d])
          position[d] = int64_t(i);
    SmallVector<int64_t> newPerm;
    for (int64_t c : *carriers)
      newPerm.push_back(position[perm[c]]);
    Location loc = collapse.getLoc();
    Value input = x;
    if (int64_t(xGroups.size()) != xType.getRank())
      input = tensor::CollapseShapeOp::create(rewriter, loc, x, xGroups);
    Value init = tensor::EmptyOp::create(rewriter, loc,
                                         collapse.getResultType().getShape(),
                                         tType.getElementType());
    auto moved =
        linalg::TransposeOp::create(rewriter, loc, input, init, newPerm);
    rewriter.replaceOp(collapse, moved->getResult(0));
    if (numMoved)
      ++*numMoved;
    return success();
  }

  int64_t *numMoved;
};

/// transpose(expand_shape(y)) -> expand_shape(transpose(y)).
struct TransposeOfExpand : public OpRewritePattern<linalg::TransposeOp> {
  TransposeOfExpand(MLIRContext *ctx, int64_t *numMoved)
      : OpRewritePattern(ctx), numMoved(numMoved) {}

  LogicalResult matchAndRewrite(linalg::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    if (!transpose.hasPureTensorSemantics())
      return failure();
    auto expand = transpose.getInput().getDefiningOp<tensor::ExpandShapeOp>();
    if (!expand || !expand->hasOneUse())
      return failure();
    auto eType = cast<RankedTensorType>(expand.getResultType());
    auto tType = cast<RankedTensorType>(transpose->getResult(0).getType());
    if (!eType.hasStaticShape())
      return failure();
    SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
    FailureOr<SmallVector<int64_t>> carriers =
        getCarriers(groups, eType.getShape());
    if (failed(carriers) || carriers->empty())
      return failure();
    // Dimension d of the expanded value is dimension groupOf[d] of y when it
    // carries that group's extent.
    SmallVector<int64_t> groupOf(eType.getRank(), -1);
    for (auto [g, c] : llvm::enumerate(*carriers))
      groupOf[c] = int64_t(g);
    ArrayRef<int64_t> perm = transpose.getPermutation();
    SmallVector<bool> kept;
    SmallVector<int64_t> newPerm, shape;
    for (auto [k, p] : llvm::enumerate(perm)) {
      kept.push_back(groupOf[p] >= 0);
      if (!kept.back())
        continue;
      newPerm.push_back(groupOf[p]);
      shape.push_back(tType.getDimSize(k));
    }
    Location loc = transpose.getLoc();
    Value init =
        tensor::EmptyOp::create(rewriter, loc, shape, tType.getElementType());
    auto moved = linalg::TransposeOp::create(rewriter, loc, expand.getSrc(),
                                             init, newPerm);
    Value result = moved->getResult(0);
    if (int64_t(shape.size()) != tType.getRank())
      result = tensor::ExpandShapeOp::create(rewriter, loc, tType, result,
                                             groupAroundKept(kept));
    rewriter.replaceOp(transpose, result);
    if (numMoved)
      ++*numMoved;
    return success();
  }

  int64_t *numMoved;
};

struct StarkUnitDimTransposesPass
    : public stark::impl::StarkUnitDimTransposesPassBase<
          StarkUnitDimTransposesPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    int64_t moved = 0;
    populateUnitDimTransposePatterns(patterns, &moved);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    numMoved += moved;
  }
};

} // namespace

void mlir::stark::populateUnitDimTransposePatterns(RewritePatternSet &patterns,
                                                   int64_t *numMoved) {
  patterns.add<CollapseOfTranspose, TransposeOfExpand>(patterns.getContext(),
                                                       numMoved);
}
