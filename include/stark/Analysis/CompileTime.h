//===- CompileTime.h - Values known before the program runs ----*- C++ -*-===//
//
// A model's weights are constants (arith.constant, tosa.const, immutable
// ml_program globals), and frontends emit work on them: weight transposes,
// reshapes, broadcasts, casts. Such work is compile-time work: it is folded
// (stark-fold-constants) or left to the compiler's constant hoisting, and
// never ranked as a hot op or searched.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_ANALYSIS_COMPILETIME_H
#define STARK_ANALYSIS_COMPILETIME_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::stark {

/// Which values are known at compile time; memoised over one module, so
/// ask the same instance about every op of a ranking.
class CompileTimeValues {
public:
  /// The value of a constant-like op (arith.constant, tosa.const, ...), of
  /// `ml_program.global_load_const` of a global with a value, the shape of
  /// a `tensor.empty`, or the result of an op free of memory effects whose
  /// operands and values captured from above (read in its regions) are all
  /// known. Block arguments are not.
  bool isKnown(Value value);

  /// A linalg op on tensors (not a fill) whose inputs are all known at
  /// compile time, whose inits are known or never read and whose payload
  /// reads only known values from above (a `tensor.extract` of a captured
  /// tensor reads that tensor): its results are known too, so running it is
  /// compile-time work.
  bool isCompileTimeOp(Operation *op);

private:
  bool computeIsCompileTimeOp(Operation *op);
  /// Whether every value `op`'s regions use from above is known.
  bool readsKnownCapturesOnly(Operation *op);
  llvm::DenseMap<Value, bool> known;
};

} // namespace mlir::stark

#endif // STARK_ANALYSIS_COMPILETIME_H
