//===- ExtractsToOperands.h - Captured reads become operands ----*- C++ -*-===//
//
// The rewrite behind `--stark-extracts-to-operands`: a `tensor.extract` in
// the body of a linalg.generic, of a tensor defined above the op, at indices
// that are affine functions of the loop indices, becomes an input operand
// with that indexing map. torch-mlir writes adaptive average pooling this
// way; once the read is an operand, the pool is a plain reduction that cost
// models, fusion and kernel families understand.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TRANSFORMS_EXTRACTSTOOPERANDS_H
#define STARK_TRANSFORMS_EXTRACTSTOOPERANDS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <cstdint>
#include <string>

namespace mlir::stark {

/// Rewrites `op` so that every `tensor.extract` in its body of a tensor
/// defined above the op reads a new input operand instead. The index
/// arithmetic (linalg.index, integer arith on constants) is evaluated at
/// every point of the iteration space, at most `maxPoints` of them: each
/// index must equal one affine function of the loop indices at every point
/// and lie inside the tensor, and each `arith.select` whose condition
/// depends only on the indices must choose the same side at every point
/// (the select is then replaced by that side). An input whose value the new
/// body no longer reads is dropped when the remaining maps still give every
/// loop its extent (a pooling window is such an input).
///
/// Returns the new op, which replaces `op`; on failure `op` is unchanged and
/// `why` says what stood in the way.
FailureOr<linalg::GenericOp> rewriteExtractsToOperands(RewriterBase &rewriter,
                                                       linalg::GenericOp op,
                                                       int64_t maxPoints,
                                                       std::string &why);

} // namespace mlir::stark

#endif // STARK_TRANSFORMS_EXTRACTSTOOPERANDS_H
