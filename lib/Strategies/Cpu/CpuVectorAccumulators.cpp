//===- CpuVectorAccumulators.cpp - Reductions kept in vector lanes -------===//
//
// keepVectorAccumulators: the loop-carried scalar of a vectorised
// reduction becomes a vector of partial results (see the header).
//
//===----------------------------------------------------------------------===//

#include "CpuVectorAccumulators.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

using namespace mlir;
using namespace mlir::stark;

/// The value `kind` leaves any element unchanged with, as a splat of
/// `type`; none for the kinds not rewritten.
static std::optional<TypedAttr> getIdentity(vector::CombiningKind kind,
                                            VectorType type) {
  Type element = type.getElementType();
  auto splat = [&](Attribute value) -> TypedAttr {
    return DenseElementsAttr::get(type, value);
  };
  if (auto f = dyn_cast<FloatType>(element)) {
    const llvm::fltSemantics &sem = f.getFloatSemantics();
    switch (kind) {
    case vector::CombiningKind::ADD: // -0 + x is x for every x, -0 included
      return splat(FloatAttr::get(f, llvm::APFloat::getZero(sem, true)));
    case vector::CombiningKind::MUL:
      return splat(FloatAttr::get(f, 1.0));
    case vector::CombiningKind::MAXNUMF:
    case vector::CombiningKind::MAXIMUMF:
      return splat(FloatAttr::get(f, llvm::APFloat::getInf(sem, true)));
    case vector::CombiningKind::MINNUMF:
    case vector::CombiningKind::MINIMUMF:
      return splat(FloatAttr::get(f, llvm::APFloat::getInf(sem, false)));
    default:
      return std::nullopt;
    }
  }
  if (auto i = dyn_cast<IntegerType>(element)) {
    if (kind == vector::CombiningKind::ADD)
      return splat(IntegerAttr::get(i, 0));
    if (kind == vector::CombiningKind::MUL)
      return splat(IntegerAttr::get(i, 1));
  }
  return std::nullopt;
}

namespace {
/// One loop-carried value in the shape keepVectorAccumulators rewrites.
struct ScalarChain {
  unsigned index;
  vector::ExtractOp extract;
  vector::ReductionOp reduction;
  vector::BroadcastOp broadcast;
  TypedAttr identity;
};
} // namespace

/// The chain of iter_arg `index` of `loop`, if it has the shape.
static std::optional<ScalarChain> matchChain(scf::ForOp loop, unsigned index) {
  BlockArgument arg = loop.getRegionIterArg(index);
  auto argType = dyn_cast<VectorType>(arg.getType());
  if (!argType || argType.getShape() != ArrayRef<int64_t>{1} ||
      argType.isScalable() || !arg.hasOneUse())
    return std::nullopt;
  auto extract = dyn_cast<vector::ExtractOp>(*arg.getUsers().begin());
  if (!extract || extract.hasDynamicPosition() ||
      extract.getStaticPosition() != ArrayRef<int64_t>{0} ||
      !extract.getResult().hasOneUse())
    return std::nullopt;
  auto reduction =
      dyn_cast<vector::ReductionOp>(*extract.getResult().getUsers().begin());
  if (!reduction || reduction.getAcc() != extract.getResult() ||
      reduction.getVector() == extract.getResult() ||
      !reduction.getResult().hasOneUse() ||
      reduction->getParentOp() != loop.getOperation() ||
      reduction->getParentOfType<vector::MaskOp>())
    return std::nullopt;
  VectorType vectorType = reduction.getSourceVectorType();
  if (vectorType.getRank() != 1 || vectorType.isScalable())
    return std::nullopt;
  auto broadcast =
      dyn_cast<vector::BroadcastOp>(*reduction.getResult().getUsers().begin());
  if (!broadcast || broadcast.getType() != argType ||
      !broadcast.getResult().hasOneUse())
    return std::nullopt;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  OpOperand &use = *broadcast.getResult().getUses().begin();
  if (use.getOwner() != yield.getOperation() || use.getOperandNumber() != index)
    return std::nullopt;
  std::optional<TypedAttr> identity =
      getIdentity(reduction.getKind(), vectorType);
  if (!identity)
    return std::nullopt;
  return ScalarChain{index, extract, reduction, broadcast, *identity};
}

/// Carries a vector through `loop` for `chain`; the old iter_arg is passed
/// through unchanged and its result replaced by the final reduction.
static void rewriteChain(IRRewriter &rewriter, scf::ForOp loop,
                         ScalarChain chain) {
  Location loc = chain.reduction.getLoc();
  vector::CombiningKind kind = chain.reduction.getKind();
  Value init = loop.getInitArgs()[chain.index];
  rewriter.setInsertionPoint(loop);
  Value identity = arith::ConstantOp::create(rewriter, loc, chain.identity);
  Value step = chain.reduction.getVector();
  auto grown = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, identity, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location, ArrayRef<BlockArgument> newArgs) {
        b.setInsertionPoint(chain.broadcast);
        return SmallVector<Value>{
            vector::makeArithReduction(b, loc, kind, step, newArgs[0])};
      }));
  // The old value passes through; its chain is dead.
  auto yield = cast<scf::YieldOp>(grown.getBody()->getTerminator());
  BlockArgument oldArg = grown.getRegionIterArg(chain.index);
  rewriter.modifyOpInPlace(yield,
                           [&] { yield->setOperand(chain.index, oldArg); });
  rewriter.eraseOp(chain.broadcast);
  rewriter.eraseOp(chain.reduction);
  rewriter.eraseOp(chain.extract);
  // After the loop: the partial results folded into the initial value.
  rewriter.setInsertionPointAfter(grown);
  Value partials = grown.getResults().back();
  Value start = vector::ExtractOp::create(rewriter, loc, init, 0);
  Value total =
      vector::ReductionOp::create(rewriter, loc, kind, partials, start);
  Value result = vector::BroadcastOp::create(
      rewriter, loc, grown.getResult(chain.index).getType(), total);
  rewriter.replaceAllUsesWith(grown.getResult(chain.index), result);
}

int mlir::stark::keepVectorAccumulators(ModuleOp module) {
  SmallVector<scf::ForOp> loops;
  module->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  IRRewriter rewriter(module.getContext());
  int changed = 0;
  for (scf::ForOp loop : loops) {
    // One chain a loop: the rewrite replaces the loop.
    for (unsigned i = 0, e = loop.getNumRegionIterArgs(); i < e; ++i) {
      std::optional<ScalarChain> chain = matchChain(loop, i);
      if (!chain)
        continue;
      rewriteChain(rewriter, loop, *chain);
      ++changed;
      break;
    }
  }
  return changed;
}
