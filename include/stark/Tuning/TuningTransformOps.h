//===- TuningTransformOps.h - Transform ops of tuning specs -----*- C++ -*-===//
//
// `transform.stark.match_signature` and `transform.stark.apply_winner`, the
// stark extension of the transform dialect that tuning specs are written
// in (TuningTransformOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TUNING_TUNINGTRANSFORMOPS_H
#define STARK_TUNING_TUNINGTRANSFORMOPS_H

#include "stark/Dialect/StarkAttrs.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/MatchInterfaces.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "stark/Tuning/TuningTransformOps.h.inc"

namespace mlir {
class DialectRegistry;
namespace stark {

/// Registers the stark extension of the transform dialect.
void registerTuningTransformExtension(DialectRegistry &registry);

} // namespace stark
} // namespace mlir

#endif // STARK_TUNING_TUNINGTRANSFORMOPS_H
