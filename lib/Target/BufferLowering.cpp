//===- BufferLowering.cpp - Preparing linalg-on-buffers for a target ------===//

#include "stark/Target/BufferLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

/// The pieces every generic of the decomposition shares.
struct SoftmaxParts {
  Location loc;
  Value input, output, max, sum;
  AffineMap full, reduced;
  unsigned rank;
  int64_t dim;
};

SmallVector<utils::IteratorType> iterators(unsigned rank,
                                           std::optional<int64_t> reduceDim) {
  SmallVector<utils::IteratorType> its(rank, utils::IteratorType::parallel);
  if (reduceDim)
    its[*reduceDim] = utils::IteratorType::reduction;
  return its;
}

/// acc = combine(acc, f(in)) over `dim` of `in`, into `acc` (already filled).
template <typename CombineOp>
void buildReduction(OpBuilder &b, const SoftmaxParts &p, Value in, Value acc) {
  linalg::GenericOp::create(
      b, p.loc, TypeRange(), ValueRange{in}, ValueRange{acc},
      ArrayRef<AffineMap>{p.full, p.reduced}, iterators(p.rank, p.dim),
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        Value r = CombineOp::create(nb, loc, args[0], args[1]);
        linalg::YieldOp::create(nb, loc, r);
      });
}

} // namespace

static LogicalResult decomposeOne(linalg::SoftmaxOp op, std::string &error) {
  auto inType = dyn_cast<MemRefType>(op.getInput().getType());
  auto outType = dyn_cast<MemRefType>(op.getOutput().getType());
  if (!inType || !outType)
    return success(); // tensors: upstream decomposes those itself
  if (!inType.hasStaticShape() || !isa<FloatType>(inType.getElementType())) {
    error = "linalg.softmax on buffers needs a static shape and a float type";
    return failure();
  }
  OpBuilder b(op);
  MLIRContext *ctx = op.getContext();
  SoftmaxParts p{op.getLoc(),
                 op.getInput(),
                 op.getOutput(),
                 {},
                 {},
                 {},
                 {},
                 unsigned(inType.getRank()),
                 op.getDimension()};
  p.full = b.getMultiDimIdentityMap(p.rank);
  SmallVector<AffineExpr> kept;
  SmallVector<int64_t> reducedShape;
  for (unsigned d = 0; d < p.rank; ++d) {
    if (int64_t(d) == p.dim)
      continue;
    kept.push_back(getAffineDimExpr(d, ctx));
    reducedShape.push_back(inType.getDimSize(d));
  }
  p.reduced = AffineMap::get(p.rank, 0, kept, ctx);
  Type elem = inType.getElementType();
  auto reducedType = MemRefType::get(reducedShape, elem);
  p.max = memref::AllocOp::create(b, p.loc, reducedType);
  p.sum = memref::AllocOp::create(b, p.loc, reducedType);

  // max: starts from NaN, which maxnumf ignores (as upstream does).
  auto floatType = cast<FloatType>(elem);
  Value nan = arith::ConstantOp::create(
      b, p.loc,
      b.getFloatAttr(floatType, APFloat::getQNaN(floatType.getFloatSemantics(),
                                                 /*Negative=*/true)));
  linalg::FillOp::create(b, p.loc, ValueRange{nan}, ValueRange{p.max});
  buildReduction<arith::MaxNumFOp>(b, p, p.input, p.max);

  // output = exp(input - max)
  linalg::GenericOp::create(
      b, p.loc, TypeRange(), ValueRange{p.input, p.max}, ValueRange{p.output},
      ArrayRef<AffineMap>{p.full, p.reduced, p.full},
      iterators(p.rank, std::nullopt),
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        Value diff = arith::SubFOp::create(nb, loc, args[0], args[1]);
        Value e = math::ExpOp::create(nb, loc, diff);
        linalg::YieldOp::create(nb, loc, e);
      });

  // sum of output, then output /= sum
  Value zero = arith::ConstantOp::create(b, p.loc, b.getFloatAttr(elem, 0.0));
  linalg::FillOp::create(b, p.loc, ValueRange{zero}, ValueRange{p.sum});
  buildReduction<arith::AddFOp>(b, p, p.output, p.sum);
  linalg::GenericOp::create(
      b, p.loc, TypeRange(), ValueRange{p.sum}, ValueRange{p.output},
      ArrayRef<AffineMap>{p.reduced, p.full}, iterators(p.rank, std::nullopt),
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        Value q = arith::DivFOp::create(nb, loc, args[1], args[0]);
        linalg::YieldOp::create(nb, loc, q);
      });
  memref::DeallocOp::create(b, p.loc, p.max);
  memref::DeallocOp::create(b, p.loc, p.sum);
  op->erase();
  return success();
}

LogicalResult mlir::stark::decomposeSoftmaxOnBuffers(ModuleOp module,
                                                     std::string &error) {
  SmallVector<linalg::SoftmaxOp> ops;
  module.walk([&](linalg::SoftmaxOp op) { ops.push_back(op); });
  for (linalg::SoftmaxOp op : ops)
    if (failed(decomposeOne(op, error)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Reduction accumulators in registers
//===----------------------------------------------------------------------===//

namespace {

/// The buffer a memref value views: a block argument, an allocation or a
/// global (by name). Null where it cannot be told.
struct BufferRoot {
  Value value;
  StringRef global;
  bool operator==(const BufferRoot &o) const {
    return global.empty() ? value == o.value : global == o.global;
  }
  explicit operator bool() const { return value || !global.empty(); }
};

BufferRoot getBufferRoot(Value v) {
  while (true) {
    if (isa<BlockArgument>(v))
      return {v, {}};
    Operation *def = v.getDefiningOp();
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      v = view.getViewSource();
      continue;
    }
    if (auto global = dyn_cast<memref::GetGlobalOp>(def))
      return {Value(), global.getName()};
    if (hasSingleEffect<MemoryEffects::Allocate>(def, v))
      return {v, {}};
    return {};
  }
}

/// Whether `load` and `store` of `loop`'s body may become an iteration
/// argument: same buffer and indices, indices invariant, load first, and
/// nothing else in the loop that may read or write that element.
bool isPromotable(scf::ForOp loop, memref::LoadOp load, memref::StoreOp store) {
  Value m = store.getMemRef();
  if (load.getMemRef() != m || load.getIndices() != store.getIndices() ||
      !load->isBeforeInBlock(store))
    return false;
  for (Value index : store.getIndices())
    if (!loop.isDefinedOutsideOfLoop(index))
      return false;
  BufferRoot root = getBufferRoot(m);
  if (!root)
    return false;
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    if (op == load.getOperation() || op == store.getOperation())
      return WalkResult::advance();
    if (llvm::is_contained(op->getOperands(), m))
      return WalkResult::interrupt();
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return WalkResult::interrupt(); // unknown effects
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &e : list) {
      if (isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()))
        return WalkResult::interrupt();
      if (!isa<MemoryEffects::Read>(e.getEffect()))
        continue;
      Value read = e.getValue();
      BufferRoot other = read ? getBufferRoot(read) : BufferRoot{};
      if (!other || other == root)
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// Promotes one accumulator of `loop`, if it has one; returns the new loop.
FailureOr<scf::ForOp> promoteOne(RewriterBase &rewriter, scf::ForOp loop) {
  Block *body = loop.getBody();
  for (auto store : body->getOps<memref::StoreOp>()) {
    memref::LoadOp load;
    for (auto candidate : body->getOps<memref::LoadOp>())
      if (candidate.getMemRef() == store.getMemRef() &&
          candidate.getIndices() == store.getIndices())
        load = candidate;
    if (!load || !isPromotable(loop, load, store))
      continue;
    rewriter.setInsertionPoint(loop);
    Value init = memref::LoadOp::create(rewriter, load.getLoc(),
                                        load.getMemRef(), load.getIndices());
    Value stored = store.getValueToStore();
    FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
        rewriter, ValueRange{init}, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
          return SmallVector<Value>{stored};
        });
    if (failed(replaced))
      return failure();
    auto newLoop = cast<scf::ForOp>(replaced->getOperation());
    rewriter.replaceAllUsesWith(load.getResult(),
                                newLoop.getRegionIterArgs().back());
    rewriter.setInsertionPointAfter(newLoop);
    memref::StoreOp::create(rewriter, store.getLoc(),
                            newLoop.getResults().back(), store.getMemRef(),
                            store.getIndices());
    rewriter.eraseOp(store);
    rewriter.eraseOp(load);
    return newLoop;
  }
  return failure();
}

} // namespace

unsigned mlir::stark::promoteLoopAccumulators(Operation *root) {
  SmallVector<scf::ForOp> loops;
  root->walk([&](scf::ForOp loop) { loops.push_back(loop); }); // inner first
  IRRewriter rewriter(root->getContext());
  unsigned promoted = 0;
  for (scf::ForOp loop : loops) {
    while (true) {
      FailureOr<scf::ForOp> next = promoteOne(rewriter, loop);
      if (failed(next))
        break;
      loop = *next;
      ++promoted;
    }
  }
  return promoted;
}
