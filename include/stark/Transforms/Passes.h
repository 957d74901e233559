//===- Passes.h - stark transformation passes ------------------*- C++ -*-===//

#ifndef STARK_TRANSFORMS_PASSES_H
#define STARK_TRANSFORMS_PASSES_H

#include "stark/Dialect/StarkDialect.h"

#include "mlir/Pass/Pass.h"

namespace mlir::stark {

#define GEN_PASS_DECL
#include "stark/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "stark/Transforms/Passes.h.inc"

} // namespace mlir::stark

#endif // STARK_TRANSFORMS_PASSES_H
