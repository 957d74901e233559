//===- CudaSchedulesInternal.h - What the schedule families share ---------===//
//
// The view of the problem's op the CUDA schedule families are chosen and
// parameterised on, shared by the enumeration (CudaSchedules.cpp) and the
// script building (CudaScheduleScripts.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LIB_STRATEGIES_CUDASCHEDULESINTERNAL_H
#define STARK_LIB_STRATEGIES_CUDASCHEDULESINTERNAL_H

#include "stark/Strategies/CudaSchedules.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <string>

namespace mlir::stark::cudaschedule {

inline constexpr StringLiteral kMatmul = "td-matmul";
inline constexpr StringLiteral kElementwise = "td-elementwise";
inline constexpr StringLiteral kReduce = "td-reduce";

/// What a schedule needs to know of the problem's op.
struct OpShape {
  mutable linalg::LinalgOp op;
  SmallVector<int64_t> ranges;
  SmallVector<bool> reduced;
  /// Bytes of the widest element the op reads or writes.
  int64_t elementBytes = 4;
  /// td-matmul: the loops of a contraction.
  std::optional<unsigned> batch, m, n, k;
  bool isContraction = false;
};

/// The shape of the single linalg op of `problem`, or failure with the
/// reason no schedule applies.
FailureOr<OpShape> analyzeOp(ModuleOp problem, std::string &whyNot);

/// Why `family` does not apply to the op, or "" when it does.
std::string whyFamilyDoesNotApply(StringRef family, const OpShape &shape);

/// The loops a block forall maps (at most three, innermost first in
/// `mapped`) and the outer parallel loops each thread walks sequentially.
void splitParallelLoops(const OpShape &s, SmallVector<unsigned> &mapped,
                        SmallVector<unsigned> &walked);

/// Largest power of two <= `want` dividing `extent`, at least 1.
int64_t pow2Divisor(int64_t extent, int64_t want);

/// The transform script of `schedule` for the op, built in the op's
/// context, or failure when the family does not apply or the parameters do
/// not fit the op (checked against `profile` when given).
FailureOr<OwningOpRef<ModuleOp>> buildScript(const OpShape &shape,
                                             const CudaSchedule &schedule,
                                             const HardwareProfile *profile,
                                             std::string &error);

} // namespace mlir::stark::cudaschedule

#endif // STARK_LIB_STRATEGIES_CUDASCHEDULESINTERNAL_H
