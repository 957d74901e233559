//===- IndexProgram.cpp - Index arithmetic of a linalg body ---------------===//

#include "stark/Analysis/IndexProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::stark;

namespace {

/// Bits of an integer or index value kept in a uint64_t, zero-extended from
/// the type's width (index counts as 64 bits).
unsigned widthOf(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth();
  return 64;
}

uint64_t truncTo(uint64_t value, unsigned width) {
  return width >= 64 ? value : value & ((uint64_t(1) << width) - 1);
}

int64_t signedOf(uint64_t value, unsigned width) {
  if (width >= 64)
    return int64_t(value);
  uint64_t sign = uint64_t(1) << (width - 1);
  return int64_t((value ^ sign) - sign);
}

} // namespace

bool IndexProgram::canCompute(Value value, std::string &why) const {
  llvm::SmallPtrSet<Value, 16> seen;
  return canComputeImpl(value, why, seen);
}

void IndexProgram::add(Value value) {
  if (slots.count(value))
    return;
  Operation *def = value.getDefiningOp();
  if (def->getBlock() == &body)
    for (Value operand : def->getOperands())
      add(operand);
  uint64_t dims = 0;
  if (auto index = dyn_cast<linalg::IndexOp>(def))
    dims = uint64_t(1) << index.getDim();
  else if (def->getBlock() == &body)
    for (Value operand : def->getOperands())
      dims |= this->dims[slots.lookup(operand)];
  slots[value] = values.size();
  values.push_back(0);
  this->dims.push_back(dims);
  if (def->getBlock() == &body)
    sorted &= !ops.insert(def);
  else
    values.back() = constantOf(value);
}

LogicalResult IndexProgram::run(ArrayRef<int64_t> point) {
  if (!sorted) {
    SmallVector<Operation *> order(ops.begin(), ops.end());
    llvm::sort(order, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    ops = llvm::SetVector<Operation *>(order.begin(), order.end());
    sorted = true;
  }
  for (Operation *op : ops) {
    FailureOr<uint64_t> result = evaluate(op, point);
    if (failed(result))
      return failure();
    values[slots.lookup(op->getResult(0))] = *result;
  }
  return success();
}

int64_t IndexProgram::get(Value value) const {
  return signedOf(values[slots.lookup(value)], widthOf(value.getType()));
}

uint64_t IndexProgram::constantOf(Value value) {
  auto attr = cast<IntegerAttr>(
      cast<arith::ConstantOp>(value.getDefiningOp()).getValue());
  return truncTo(attr.getValue().getZExtValue(), widthOf(value.getType()));
}

bool IndexProgram::canComputeImpl(Value value, std::string &why,
                                  llvm::SmallPtrSet<Value, 16> &seen) const {
  if (!seen.insert(value).second)
    return true;
  if (!value.getType().isIntOrIndex()) {
    why = "it depends on a value of type " +
          llvm::formatv("{0}", value.getType()).str();
    return false;
  }
  Operation *def = value.getDefiningOp();
  if (!def) {
    why = cast<BlockArgument>(value).getOwner() == &body
              ? "it depends on the op's operands"
              : "it depends on a block argument known only at run time";
    return false;
  }
  if (def->getBlock() != &body) {
    auto constant = dyn_cast<arith::ConstantOp>(def);
    if (constant && isa<IntegerAttr>(constant.getValue()) &&
        widthOf(value.getType()) <= 64)
      return true;
    why = "it depends on '" + def->getName().getStringRef().str() +
          "' defined above the op";
    return false;
  }
  if (auto index = dyn_cast<linalg::IndexOp>(def)) {
    if (index.getDim() < numLoops && numLoops <= 64)
      return true;
    why = "it reads a loop index past the 64th";
    return false;
  }
  if (def->getNumResults() != 1 || !isSupported(def)) {
    why = "it depends on '" + def->getName().getStringRef().str() + "'";
    return false;
  }
  for (Value operand : def->getOperands())
    if (!canComputeImpl(operand, why, seen))
      return false;
  return true;
}

bool IndexProgram::isSupported(Operation *op) {
  return isa<arith::ConstantOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,
             arith::DivUIOp, arith::DivSIOp, arith::RemUIOp, arith::RemSIOp,
             arith::CeilDivUIOp, arith::CeilDivSIOp, arith::FloorDivSIOp,
             arith::MinUIOp, arith::MaxUIOp, arith::MinSIOp, arith::MaxSIOp,
             arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::ShLIOp,
             arith::ShRUIOp, arith::ShRSIOp, arith::CmpIOp, arith::SelectOp,
             arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
             arith::ExtSIOp, arith::TruncIOp>(op);
}

bool IndexProgram::compare(arith::CmpIPredicate predicate, uint64_t a,
                           uint64_t b, unsigned width) {
  // The values are kept zero-extended from `width` (index and wider types
  // as 64 bits); arith's own folder decides the predicate.
  unsigned bits = std::min(width, 64u);
  return arith::applyCmpPredicate(
      predicate, APInt(bits, a, /*isSigned=*/false, /*implicitTrunc=*/true),
      APInt(bits, b, /*isSigned=*/false, /*implicitTrunc=*/true));
}

FailureOr<uint64_t> IndexProgram::evaluate(Operation *op,
                                           ArrayRef<int64_t> point) const {
  auto in = [&](unsigned i) { return values[slots.lookup(op->getOperand(i))]; };
  unsigned width = widthOf(op->getResult(0).getType());
  unsigned inWidth =
      op->getNumOperands() ? widthOf(op->getOperand(0).getType()) : width;
  auto s = [&](unsigned i) { return signedOf(in(i), inWidth); };
  auto wrap = [&](uint64_t v) -> FailureOr<uint64_t> {
    return truncTo(v, width);
  };
  auto wrapSigned = [&](int64_t v) -> FailureOr<uint64_t> {
    return truncTo(uint64_t(v), width);
  };
  // A signed division that overflows (the least value by -1) or divides
  // by zero is undefined: the point cannot be evaluated.
  auto signedDivisor = [&]() -> bool {
    int64_t a = s(0), b = s(1);
    return b != 0 &&
           !(b == -1 && a == signedOf(uint64_t(1) << (inWidth - 1), inWidth));
  };
  return llvm::TypeSwitch<Operation *, FailureOr<uint64_t>>(op)
      .Case([&](linalg::IndexOp index) {
        return wrap(uint64_t(point[index.getDim()]));
      })
      .Case(
          [&](arith::ConstantOp) { return wrap(constantOf(op->getResult(0))); })
      .Case([&](arith::AddIOp) { return wrap(in(0) + in(1)); })
      .Case([&](arith::SubIOp) { return wrap(in(0) - in(1)); })
      .Case([&](arith::MulIOp) { return wrap(in(0) * in(1)); })
      .Case([&](arith::DivUIOp) -> FailureOr<uint64_t> {
        if (!in(1))
          return failure();
        return wrap(in(0) / in(1));
      })
      .Case([&](arith::RemUIOp) -> FailureOr<uint64_t> {
        if (!in(1))
          return failure();
        return wrap(in(0) % in(1));
      })
      .Case([&](arith::CeilDivUIOp) -> FailureOr<uint64_t> {
        if (!in(1))
          return failure();
        return wrap(in(0) == 0 ? 0 : (in(0) - 1) / in(1) + 1);
      })
      .Case([&](arith::DivSIOp) -> FailureOr<uint64_t> {
        if (!signedDivisor())
          return failure();
        return wrapSigned(s(0) / s(1));
      })
      .Case([&](arith::RemSIOp) -> FailureOr<uint64_t> {
        if (!signedDivisor())
          return failure();
        return wrapSigned(s(0) % s(1));
      })
      .Case([&](arith::FloorDivSIOp) -> FailureOr<uint64_t> {
        if (!signedDivisor())
          return failure();
        int64_t q = s(0) / s(1);
        if ((s(0) % s(1) != 0) && ((s(0) < 0) != (s(1) < 0)))
          --q;
        return wrapSigned(q);
      })
      .Case([&](arith::CeilDivSIOp) -> FailureOr<uint64_t> {
        if (!signedDivisor())
          return failure();
        int64_t q = s(0) / s(1);
        if ((s(0) % s(1) != 0) && ((s(0) < 0) == (s(1) < 0)))
          ++q;
        return wrapSigned(q);
      })
      .Case([&](arith::MinUIOp) { return wrap(std::min(in(0), in(1))); })
      .Case([&](arith::MaxUIOp) { return wrap(std::max(in(0), in(1))); })
      .Case([&](arith::MinSIOp) { return wrapSigned(std::min(s(0), s(1))); })
      .Case([&](arith::MaxSIOp) { return wrapSigned(std::max(s(0), s(1))); })
      .Case([&](arith::AndIOp) { return wrap(in(0) & in(1)); })
      .Case([&](arith::OrIOp) { return wrap(in(0) | in(1)); })
      .Case([&](arith::XOrIOp) { return wrap(in(0) ^ in(1)); })
      .Case([&](arith::ShLIOp) -> FailureOr<uint64_t> {
        if (in(1) >= width)
          return failure();
        return wrap(in(0) << in(1));
      })
      .Case([&](arith::ShRUIOp) -> FailureOr<uint64_t> {
        if (in(1) >= width)
          return failure();
        return wrap(in(0) >> in(1));
      })
      .Case([&](arith::ShRSIOp) -> FailureOr<uint64_t> {
        if (in(1) >= width)
          return failure();
        return wrapSigned(s(0) >> in(1));
      })
      .Case([&](arith::CmpIOp cmp) {
        return wrap(compare(cmp.getPredicate(), in(0), in(1), inWidth));
      })
      .Case([&](arith::SelectOp) { return wrap(in(0) ? in(1) : in(2)); })
      .Case<arith::IndexCastOp, arith::ExtSIOp>(
          [&](Operation *) { return wrapSigned(s(0)); })
      .Case<arith::IndexCastUIOp, arith::ExtUIOp, arith::TruncIOp>(
          [&](Operation *) { return wrap(in(0)); })
      .Default([](Operation *) { return failure(); });
}
