//===- CostModel.cpp - FLOPs, bytes and roofline time of linalg ops -------===//

#include "stark/Analysis/CostModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::stark;

OpClass mlir::stark::classifyLinalgOp(linalg::LinalgOp op) {
  if (op->getName().getStringRef().starts_with("linalg.pooling_"))
    return OpClass::Pooling;
  if (linalg::isaContractionOpInterface(op))
    return OpClass::Contraction;
  if (linalg::isaConvolutionOpInterface(op))
    return OpClass::Convolution;
  if (op.getNumReductionLoops() > 0)
    return OpClass::Reduction;
  // All-parallel with every map a permutation: each point reads and writes
  // one element of each operand (broadcasting inputs are still elementwise).
  bool identityLikeOutputs =
      llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
        return op.getMatchingIndexingMap(&init).isPermutation();
      });
  bool projectedInputs =
      llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *in) {
        return op.getMatchingIndexingMap(in).isProjectedPermutation();
      });
  if (identityLikeOutputs && projectedInputs &&
      llvm::any_of(op.getBlock()->without_terminator(),
                   [](Operation &o) { return !isa<CastOpInterface>(o); }))
    return OpClass::Elementwise;
  return OpClass::Generic;
}

FailureOr<int64_t> mlir::stark::getElementByteSize(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type)) {
    FailureOr<int64_t> part = getElementByteSize(complex.getElementType());
    if (failed(part))
      return failure();
    return 2 * *part;
  }
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat())
    return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
  return failure();
}

/// Ops that move or reinterpret data without arithmetic.
static bool isFreeBodyOp(Operation &op) {
  return isa<arith::ConstantOp, arith::SelectOp, linalg::IndexOp,
             linalg::YieldOp, CastOpInterface>(op);
}

FailureOr<int64_t> mlir::stark::countBodyArithmetic(linalg::LinalgOp op,
                                                    std::string &whyUnknown) {
  int64_t count = 0;
  for (Operation &bodyOp : op.getBlock()->getOperations()) {
    if (isFreeBodyOp(bodyOp))
      continue;
    Dialect *dialect = bodyOp.getDialect();
    bool arithmetic =
        dialect && isa<arith::ArithDialect, math::MathDialect>(dialect);
    if (!arithmetic || bodyOp.getNumRegions() != 0) {
      whyUnknown = llvm::formatv("body op '{0}' has no known cost",
                                 bodyOp.getName().getStringRef())
                       .str();
      return failure();
    }
    ++count;
  }
  return count;
}

FailureOr<int64_t> mlir::stark::getValueByteSize(Value v,
                                                 std::string &whyUnknown) {
  Type type = v.getType();
  auto shaped = dyn_cast<ShapedType>(type);
  Type elementType = shaped ? shaped.getElementType() : type;
  FailureOr<int64_t> elementBytes = getElementByteSize(elementType);
  if (failed(elementBytes)) {
    std::string typeStr;
    llvm::raw_string_ostream os(typeStr);
    os << elementType;
    whyUnknown = "element type " + typeStr + " has no known size";
    return failure();
  }
  if (!shaped)
    return *elementBytes;
  if (!shaped.hasStaticShape()) {
    whyUnknown = "dynamic shape";
    return failure();
  }
  int64_t total = *elementBytes;
  for (int64_t dim : shaped.getShape()) {
    if (llvm::MulOverflow(total, dim, total)) {
      whyUnknown = "operand size overflows int64";
      return failure();
    }
  }
  return total;
}

/// The element type of the first shaped input, else of the first output:
/// the type the multipliers see (f16 inputs with f32 accumulation run on
/// f16 tensor cores).
static Type getComputeElementType(linalg::LinalgOp op) {
  for (OpOperand *in : op.getDpsInputOperands())
    if (auto shaped = dyn_cast<ShapedType>(in->get().getType()))
      return shaped.getElementType();
  for (OpOperand &init : op.getDpsInitsMutable())
    if (auto shaped = dyn_cast<ShapedType>(init.get().getType()))
      return shaped.getElementType();
  return {};
}

FailureOr<OpCost> mlir::stark::computeOpCost(linalg::LinalgOp op,
                                             std::string &whyUnknown) {
  OpCost cost;
  if (op.hasDynamicShape()) {
    whyUnknown = "dynamic shape";
    return failure();
  }
  int64_t points = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range)) {
      whyUnknown = "dynamic loop range";
      return failure();
    }
    if (llvm::MulOverflow(points, range, points)) {
      whyUnknown = "iteration space overflows int64";
      return failure();
    }
  }
  cost.iterationPoints = points;

  FailureOr<int64_t> perPoint = countBodyArithmetic(op, whyUnknown);
  if (failed(perPoint))
    return failure();
  cost.opsPerPoint = *perPoint;
  if (llvm::MulOverflow(points, *perPoint, cost.flops)) {
    whyUnknown = "FLOP count overflows int64";
    return failure();
  }

  for (OpOperand *in : op.getDpsInputOperands()) {
    FailureOr<int64_t> b = getValueByteSize(in->get(), whyUnknown);
    if (failed(b))
      return failure();
    cost.bytesRead += *b;
  }
  for (OpOperand &init : op.getDpsInitsMutable()) {
    FailureOr<int64_t> b = getValueByteSize(init.get(), whyUnknown);
    if (failed(b))
      return failure();
    cost.bytesWritten += *b;
    if (op.payloadUsesValueFromOperand(&init))
      cost.bytesRead += *b;
  }

  if (Type t = getComputeElementType(op))
    cost.computeType = classifyComputeType(t);
  cost.opClass = classifyLinalgOp(op);
  return cost;
}

FailureOr<OpCost> mlir::stark::computeSoftmaxCost(linalg::SoftmaxOp op,
                                                  std::string &whyUnknown) {
  OpCost cost;
  auto in = cast<ShapedType>(op.getInput().getType());
  FailureOr<int64_t> inBytes = getValueByteSize(op.getInput(), whyUnknown);
  if (failed(inBytes))
    return failure();
  FailureOr<int64_t> outBytes = getValueByteSize(op.getOutput(), whyUnknown);
  if (failed(outBytes))
    return failure();
  cost.iterationPoints = in.getNumElements();
  cost.opsPerPoint = 5;
  cost.flops = 5 * cost.iterationPoints;
  cost.bytesRead = *inBytes;
  cost.bytesWritten = *outBytes;
  cost.computeType = classifyComputeType(in.getElementType());
  cost.opClass = OpClass::Reduction;
  return cost;
}

RooflineEstimate mlir::stark::estimateRoofline(const OpCost &cost,
                                               const HardwareProfile &profile) {
  RooflineEstimate e;
  // Plain (non-tensor-core) f32 for f32 ops: tf32 is an opt-in.
  double peak = profile.peakFor(cost.computeType);
  e.computeSeconds = peak > 0 ? double(cost.flops) / peak : 0;
  e.memorySeconds = profile.memoryBandwidth > 0
                        ? double(cost.bytes()) / profile.memoryBandwidth
                        : 0;
  e.computeBound = e.computeSeconds > e.memorySeconds;
  e.seconds = std::max(e.computeSeconds, e.memorySeconds);
  return e;
}

/// Three significant digits with a decimal (SI) prefix.
static std::string formatScaled(double value, StringRef unit) {
  static const char *prefixes[] = {"", "K", "M", "G", "T", "P"};
  int i = 0;
  while (std::abs(value) >= 1000 && i < 5) {
    value /= 1000;
    ++i;
  }
  // Counts below 1000 are exact integers: no decimals.
  bool exact = i == 0 && value == std::floor(value);
  return llvm::formatv("{0} {1}{2}",
                       llvm::formatv(exact || value >= 100 ? "{0:f0}"
                                     : value >= 10         ? "{0:f1}"
                                                           : "{0:f2}",
                                     value),
                       prefixes[i], unit)
      .str();
}

std::string mlir::stark::formatFlops(int64_t flops) {
  return formatScaled(double(flops), "FLOP");
}

std::string mlir::stark::formatBytes(int64_t bytes) {
  return formatScaled(double(bytes), "B");
}

std::string mlir::stark::formatSeconds(double seconds) {
  if (seconds >= 1)
    return llvm::formatv("{0:f2} s", seconds).str();
  if (seconds >= 1e-3)
    return llvm::formatv("{0:f2} ms", seconds * 1e3).str();
  if (seconds >= 1e-6)
    return llvm::formatv("{0:f2} us", seconds * 1e6).str();
  return llvm::formatv("{0:f1} ns", seconds * 1e9).str();
}
