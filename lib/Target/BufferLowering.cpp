//===- BufferLowering.cpp - Preparing linalg-on-buffers for a target ------===//

#include "stark/Target/BufferLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
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
