//===- Passes.h - stark transformation passes ------------------*- C++ -*-===//

#ifndef STARK_TRANSFORMS_PASSES_H
#define STARK_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::stark {

#define GEN_PASS_DECL
#include "stark/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "stark/Transforms/Passes.h.inc"

/// Name of the attribute stark-hot-ops puts on hot ops.
inline constexpr StringLiteral kCostAttrName = "stark.cost";

} // namespace mlir::stark

#endif // STARK_TRANSFORMS_PASSES_H
