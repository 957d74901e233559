//===- IndexProgram.h - Index arithmetic of a linalg body -------*- C++ -*-===//
//
// The integer arithmetic of a linalg body that some of its values depend
// on, run as a small program over the loop indices: `linalg.index`, integer
// and index constants, and the arith ops on them. stark-extracts-to-operands
// evaluates it at every point of an iteration space to find which reads are
// affine in the loops.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_ANALYSIS_INDEXPROGRAM_H
#define STARK_ANALYSIS_INDEXPROGRAM_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cstdint>
#include <string>

namespace mlir::stark {

/// The values of `body` (a linalg op's block) that `add` was given, and the
/// arithmetic they depend on. Nothing else may feed them: no block argument,
/// no value known only at run time.
class IndexProgram {
public:
  IndexProgram(Block &body, unsigned numLoops)
      : body(body), numLoops(numLoops) {}

  /// Whether `value` can be computed from the loop indices alone; when not,
  /// `why` names what it depends on.
  bool canCompute(Value value, std::string &why) const;

  /// Adds `value` (which `canCompute`) and what it depends on.
  void add(Value value);

  /// Evaluates every added value at `point`. Fails where the arithmetic is
  /// undefined there (a division by zero, a shift past the width).
  LogicalResult run(ArrayRef<int64_t> point);

  /// The value of `value` (added) at the last point run, sign-extended.
  int64_t get(Value value) const;

  /// The loops whose `linalg.index` `value` (added) depends on, as bits.
  uint64_t loopsRead(Value value) const { return dims[slots.lookup(value)]; }

private:
  static uint64_t constantOf(Value value);
  bool canComputeImpl(Value value, std::string &why,
                      llvm::SmallPtrSet<Value, 16> &seen) const;
  static bool isSupported(Operation *op);
  static bool compare(arith::CmpIPredicate predicate, uint64_t a, uint64_t b,
                      unsigned width);
  FailureOr<uint64_t> evaluate(Operation *op, ArrayRef<int64_t> point) const;

  Block &body;
  unsigned numLoops;
  /// The ops to run, in block order once `sorted`.
  llvm::SetVector<Operation *> ops;
  bool sorted = false;
  /// Each added value's slot in `values` (its bits, zero-extended from its
  /// width) and `dims` (the loops it reads).
  DenseMap<Value, unsigned> slots;
  SmallVector<uint64_t> values;
  SmallVector<uint64_t> dims;
};

} // namespace mlir::stark

#endif // STARK_ANALYSIS_INDEXPROGRAM_H
