//===- CpuVectorAccumulators.h - Reductions kept in vector lanes ---------===//
//
// A vectorised row reduction that keeps its running value as a scalar
// reduces every loaded vector horizontally into it: one dependent chain of
// lane-by-lane operations per step. Keeping a vector of partial results
// instead, reduced once after the loop, leaves one element-wise operation
// per step.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LIB_STRATEGIES_CPU_CPUVECTORACCUMULATORS_H
#define STARK_LIB_STRATEGIES_CPU_CPUVECTORACCUMULATORS_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::stark {

/// Rewrites each `scf.for` of `module` whose loop-carried vector<1xT> only
/// goes through `vector.extract [0]`, `vector.reduction <kind>` of a 1-D
/// vector into it, and `vector.broadcast` back to the yield: the loop then
/// carries a vector of that 1-D shape, starting at the kind's identity and
/// combined element-wise with each step's vector, and one
/// `vector.reduction` after the loop folds it into the initial value. The
/// kinds are add and mul (float and integer) and the float max / min
/// kinds. Float sums are reassociated, so a result may round differently
/// (the evaluator's bound judges it). Returns how many loops changed.
int keepVectorAccumulators(ModuleOp module);

} // namespace mlir::stark

#endif // STARK_LIB_STRATEGIES_CPU_CPUVECTORACCUMULATORS_H
