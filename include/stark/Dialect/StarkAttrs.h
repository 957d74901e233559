//===- StarkAttrs.h - Attributes of the stark dialect -----------*- C++ -*-===//
//
// #stark.cost, #stark.problem, #stark.winner, #stark.cuda (with
// #stark.launch) and #stark.schedule: see docs/dialect.md.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_DIALECT_STARKATTRS_H
#define STARK_DIALECT_STARKATTRS_H

#include "stark/Dialect/StarkDialect.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include <optional>
#include <string>

#define GET_ATTRDEF_CLASSES
#include "stark/Dialect/StarkAttrs.h.inc"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::stark {

/// The #stark.problem attribute of `module` (kProblemAttrName); fails, with
/// the reason in `error`, when it has none or one of another kind.
FailureOr<ProblemAttr> getProblemAttr(ModuleOp module, std::string &error);

} // namespace mlir::stark

#endif // STARK_DIALECT_STARKATTRS_H
