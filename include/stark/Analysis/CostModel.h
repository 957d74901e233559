//===- CostModel.h - FLOPs, bytes and roofline time of linalg ops -*- C++
//-*-===//
//
// Static cost of one linalg structured op: arithmetic per iteration point
// times the iteration space, the bytes its operands and results move, and a
// roofline estimate of its run time on a HardwareProfile.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_ANALYSIS_COSTMODEL_H
#define STARK_ANALYSIS_COSTMODEL_H

#include "stark/Analysis/AnalysisEnums.h"
#include "stark/Analysis/HardwareProfile.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::stark {

/// The class of `op` (OpClass, see AnalysisEnums.td).
OpClass classifyLinalgOp(linalg::LinalgOp op);

struct OpCost {
  /// Arithmetic operations in the body per iteration point (see
  /// countBodyArithmetic for what counts).
  int64_t opsPerPoint = 0;
  /// Product of the static loop ranges.
  int64_t iterationPoints = 0;
  /// opsPerPoint * iterationPoints.
  int64_t flops = 0;
  /// Bytes of all inputs, plus outputs whose initial value the body reads.
  int64_t bytesRead = 0;
  /// Bytes of all outputs.
  int64_t bytesWritten = 0;
  /// The element type class that decides the peak rate.
  ComputeType computeType = ComputeType::F32;
  OpClass opClass = OpClass::Generic;

  int64_t bytes() const { return bytesRead + bytesWritten; }
};

struct RooflineEstimate {
  double computeSeconds = 0;
  double memorySeconds = 0;
  /// max(compute, memory): the lower bound a perfect kernel could reach.
  double seconds = 0;
  bool computeBound = false;
};

/// Size in bytes of one element of `type` (int, index, float, complex), or
/// failure for types whose size is not known.
FailureOr<int64_t> getElementByteSize(Type type);

/// Bytes of `value`: a statically shaped value's elements, or a scalar.
/// Fails, saying why, for dynamic shapes, element types of unknown size and
/// sizes that overflow int64.
FailureOr<int64_t> getValueByteSize(Value value, std::string &whyUnknown);

/// Counts the arithmetic operations the body of `op` executes per iteration
/// point. arith and math ops count one each; constants, casts, selects,
/// linalg.index and the terminator count zero. Any other op makes the count
/// unknown: failure, with the reason in `whyUnknown`.
FailureOr<int64_t> countBodyArithmetic(linalg::LinalgOp op,
                                       std::string &whyUnknown);

/// The full static cost of `op`. Fails (with a reason) for dynamic shapes,
/// unknown element types, unknown body ops and sizes that overflow int64.
FailureOr<OpCost> computeOpCost(linalg::LinalgOp op, std::string &whyUnknown);

/// The cost of linalg.softmax along one dimension: max, subtract, exp,
/// add and divide per element (5 operations), the input read once and the
/// output written once (what a single-pass kernel must move).
FailureOr<OpCost> computeSoftmaxCost(linalg::SoftmaxOp op,
                                     std::string &whyUnknown);

/// The roofline time of `cost` on `profile`.
RooflineEstimate estimateRoofline(const OpCost &cost,
                                  const HardwareProfile &profile);

/// Human-readable quantities for remarks and reports: "2.15 GFLOP",
/// "16.8 MB", "32.1 us".
std::string formatFlops(int64_t flops);
std::string formatBytes(int64_t bytes);
std::string formatSeconds(double seconds);

} // namespace mlir::stark

#endif // STARK_ANALYSIS_COSTMODEL_H
