//===- UnitDimTransposes.h - Unit dimensions out of transposes --*- C++ -*-===//
//
// The rewrites behind `--stark-unit-dim-transposes`: a reshape that only
// adds or drops unit dimensions moves to the far side of the transpose it
// touches, so that the transpose meets the contraction it feeds (or that
// feeds it) and reads as a permuted operand or output.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TRANSFORMS_UNITDIMTRANSPOSES_H
#define STARK_TRANSFORMS_UNITDIMTRANSPOSES_H

#include "mlir/IR/PatternMatch.h"

#include <cstdint>

namespace mlir::stark {

/// Adds the two rewrites: `collapse_shape(transpose(x))` becomes
/// `transpose(collapse_shape(x))`, and `transpose(expand_shape(y))` becomes
/// `expand_shape(transpose(y))`, where each group of the reshape holds at
/// most one dimension that is not 1 and the inner op has no other user.
/// Each rewrite adds one to `*numMoved` when it is given.
void populateUnitDimTransposePatterns(RewritePatternSet &patterns,
                                      int64_t *numMoved = nullptr);

} // namespace mlir::stark

#endif // STARK_TRANSFORMS_UNITDIMTRANSPOSES_H
