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
#include "stark/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"
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

/// The integer arithmetic of a linalg body that a set of values depends on,
/// as a small program over the loop indices: `linalg.index`, integer and
/// index constants, and the arith ops on them. Nothing else may feed it (no
/// block argument, no value known only at run time).
class IndexProgram {
public:
  IndexProgram(Block &body, unsigned numLoops)
      : body(body), numLoops(numLoops) {}

  /// Whether `value` can be computed from the loop indices alone; when not,
  /// `why` names what it depends on.
  bool canCompute(Value value, std::string &why) const {
    llvm::SmallPtrSet<Value, 16> seen;
    return canComputeImpl(value, why, seen);
  }

  /// Adds `value` (which `canCompute`) and what it depends on.
  void add(Value value) {
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
      ops.insert(def);
    else
      values.back() = constantOf(value);
  }

  /// Evaluates every added value at `point`. Fails where the arithmetic is
  /// undefined there (a division by zero, a shift past the width).
  LogicalResult run(ArrayRef<int64_t> point) {
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

  /// The value of `value` (added) at the last point run, sign-extended.
  int64_t get(Value value) const {
    return signedOf(values[slots.lookup(value)], widthOf(value.getType()));
  }

  /// The loops whose `linalg.index` `value` (added) depends on, as bits.
  uint64_t loopsRead(Value value) const { return dims[slots.lookup(value)]; }

private:
  static uint64_t constantOf(Value value) {
    auto attr = cast<IntegerAttr>(
        cast<arith::ConstantOp>(value.getDefiningOp()).getValue());
    return truncTo(attr.getValue().getZExtValue(), widthOf(value.getType()));
  }

  bool canComputeImpl(Value value, std::string &why,
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

  static bool isSupported(Operation *op) {
    return isa<arith::ConstantOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,
               arith::DivUIOp, arith::DivSIOp, arith::RemUIOp, arith::RemSIOp,
               arith::CeilDivUIOp, arith::CeilDivSIOp, arith::FloorDivSIOp,
               arith::MinUIOp, arith::MaxUIOp, arith::MinSIOp, arith::MaxSIOp,
               arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::ShLIOp,
               arith::ShRUIOp, arith::ShRSIOp, arith::CmpIOp, arith::SelectOp,
               arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
               arith::ExtSIOp, arith::TruncIOp>(op);
  }

  static bool compare(arith::CmpIPredicate predicate, uint64_t a, uint64_t b,
                      unsigned width) {
    int64_t sa = signedOf(a, width), sb = signedOf(b, width);
    switch (predicate) {
    case arith::CmpIPredicate::eq:
      return a == b;
    case arith::CmpIPredicate::ne:
      return a != b;
    case arith::CmpIPredicate::slt:
      return sa < sb;
    case arith::CmpIPredicate::sle:
      return sa <= sb;
    case arith::CmpIPredicate::sgt:
      return sa > sb;
    case arith::CmpIPredicate::sge:
      return sa >= sb;
    case arith::CmpIPredicate::ult:
      return a < b;
    case arith::CmpIPredicate::ule:
      return a <= b;
    case arith::CmpIPredicate::ugt:
      return a > b;
    case arith::CmpIPredicate::uge:
      return a >= b;
    }
    llvm_unreachable("unknown arith.cmpi predicate");
  }

  FailureOr<uint64_t> evaluate(Operation *op, ArrayRef<int64_t> point) const {
    auto in = [&](unsigned i) {
      return values[slots.lookup(op->getOperand(i))];
    };
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
        .Case([&](arith::ConstantOp) {
          return wrap(constantOf(op->getResult(0)));
        })
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

  Block &body;
  unsigned numLoops;
  llvm::SetVector<Operation *> ops;
  bool sorted = false;
  DenseMap<Value, unsigned> slots;
  SmallVector<uint64_t> values;
  SmallVector<uint64_t> dims;
};

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

/// The `tensor.extract`s in `op`'s body of tensors defined above it; fails
/// when there is none or one sits in a nested region.
LogicalResult collectExtracts(linalg::GenericOp op,
                              SmallVectorImpl<tensor::ExtractOp> &extracts,
                              std::string &why) {
  Block &body = op.getRegion().front();
  bool nested = false;
  op.getRegion().walk([&](tensor::ExtractOp extract) {
    if (op.getRegion().isAncestor(extract.getTensor().getParentRegion()))
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
      bool readsFromAbove = false;
      op.getRegion().walk([&](tensor::ExtractOp extract) {
        if (!op.getRegion().isAncestor(extract.getTensor().getParentRegion()))
          readsFromAbove = true;
      });
      if (readsFromAbove)
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
