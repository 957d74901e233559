//===- FoldConstants.h - Compile-time work of a model, folded ---*- C++ -*-===//
//
// The rewrites behind `--stark-fold-constants`: loads of constant globals
// become constants, and linalg ops computing from constants alone (weight
// transposes, broadcasts, casts, element-wise work on splats) become the
// constant they compute. Reshapes and casts of constants fold through their
// own folders.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TRANSFORMS_FOLDCONSTANTS_H
#define STARK_TRANSFORMS_FOLDCONSTANTS_H

#include "mlir/IR/PatternMatch.h"

#include <cstdint>

namespace mlir::stark {

/// Adds the folding patterns: `ml_program.global_load_const` of an
/// immutable global with a value becomes `arith.constant`; a linalg op on
/// tensors whose payload only forwards its input (a transpose, a broadcast,
/// a copy) of a dense constant becomes the permuted constant; an
/// all-parallel linalg op whose inputs are splat constants (or scalars)
/// becomes the splat its payload computes. No constant larger than
/// `maxBytes` is created; the tensor.expand_shape / collapse_shape / cast
/// canonicalisations fold reshapes of the results.
void populateFoldConstantsPatterns(RewritePatternSet &patterns,
                                   int64_t maxBytes);

} // namespace mlir::stark

#endif // STARK_TRANSFORMS_FOLDCONSTANTS_H
