//===- CpuFusedGroup.h - A fused problem's chain as one tensor program ----===//
//
// The host schedules of fused problems (several linalg ops joined by
// temporaries) work on a tensor form of the chain: the temporaries become
// SSA values, element-wise producers are fused into their consumers, and
// what is left is either one op (scheduled like any single op) or a chain
// that one loop over blocks of rows computes, its producers fused into the
// loop.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LIB_STRATEGIES_CPU_CPUFUSEDGROUP_H
#define STARK_LIB_STRATEGIES_CPU_CPUFUSEDGROUP_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::stark {

/// Rewrites the chain of the fused problem `problem` (its entry's linalg ops
/// on argument memrefs and `memref.alloc` temporaries) into the same chain
/// on tensors: arguments read through `bufferization.to_tensor`, each
/// temporary the result of the op that writes it, each output argument
/// written back by `bufferization.materialize_in_destination`. Then fuses
/// element-wise producers into their consumers. Returns the linalg ops left,
/// in program order; fails, saying why in `error`, for chains of anything
/// but linalg ops on static memrefs.
FailureOr<SmallVector<Operation *>> fuseGroupOnTensors(ModuleOp problem,
                                                       std::string &error);

/// True when `problem` holds a chain of several ops that is not a
/// contraction with the fill it owns.
bool isFusedGroupProblem(ModuleOp problem);

/// Tiles the last op of a fused chain on tensors (`sink`) with `scf.forall`
/// by `tiles` (one size per loop, 0 leaves the loop whole) and fuses every
/// producer of its operands into the loop.
LogicalResult tileAndFuseRows(Operation *sink, ArrayRef<int64_t> tiles,
                              std::string &error);

} // namespace mlir::stark

#endif // STARK_LIB_STRATEGIES_CPU_CPUFUSEDGROUP_H
