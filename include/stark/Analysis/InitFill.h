//===- InitFill.h - The constant fill an accumulating op owns ----*- C++
//-*-===//
//
// A contraction, convolution, reduction or pooling accumulates into its
// output; when that output was just filled with a constant and nothing else
// sees the fill, the pair is one computation (out = init + sum) and becomes
// one problem: the kernel writes its output instead of reading it, and no
// separate fill runs.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_ANALYSIS_INITFILL_H
#define STARK_ANALYSIS_INITFILL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::stark {

/// The linalg.fill of a constant scalar that only initialises the output of
/// `op`, a contraction, convolution, reduction or pooling with one init whose
/// payload reads it. On tensors: the fill's result is that init and has no
/// other user. On memrefs: the fill writes exactly op's init buffer, earlier
/// in the same block, and every op in between is free of memory effects.
/// Null otherwise.
linalg::FillOp getOwnedInitFill(Operation *op);

/// The linalg.fill of a constant that defines `v` (the usual init of a
/// reduction); null otherwise.
linalg::FillOp getConstantFill(Value v);

/// Whether the payload of `op` (a linalg op) reads the initial value of its
/// init `init`; false for anything else (linalg.softmax only writes its
/// output).
bool readsInit(Operation *op, OpOperand &init);

/// The constant `fill` writes, as a double (floats exactly, integers
/// converted); nullopt when it is not a constant scalar.
std::optional<double> getFillValue(linalg::FillOp fill);

} // namespace mlir::stark

#endif // STARK_ANALYSIS_INITFILL_H
