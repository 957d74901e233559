//===- StarkDialect.h - The stark dialect: the IR contract ------*- C++ -*-===//
//
// The stark dialect holds only attributes (StarkAttrs.h): the typed contract
// between stark's passes. Register it wherever stark IR is parsed.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_DIALECT_STARKDIALECT_H
#define STARK_DIALECT_STARKDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"

#include "stark/Dialect/StarkDialect.h.inc"

namespace mlir::stark {

/// Names of the discardable attributes the dialect verifies.
inline constexpr StringLiteral kCostAttrName = "stark.cost";
inline constexpr StringLiteral kProblemAttrName = "stark.problem";
inline constexpr StringLiteral kWinnerAttrName = "stark.winner";
inline constexpr StringLiteral kCudaAttrName = "stark.cuda";
inline constexpr StringLiteral kScheduleAttrName = "stark.schedule";
/// On a fused chain's problem module: the problems of its ops alone, in
/// chain order, that the search compares it with (stark-outline
/// compare-unfused); on each op of the chain: its own problem.
inline constexpr StringLiteral kUnfusedAttrName = "stark.unfused";
inline constexpr StringLiteral kUnfusedProblemAttrName =
    "stark.unfused_problem";
/// On a searched problem module: the baseline's time in microseconds, also
/// where no candidate beat it.
inline constexpr StringLiteral kBaselineAttrName = "stark.baseline_us";

/// Registers the stark dialect so that every context made from `registry`
/// loads it at once: its verifier must see the stark.* attributes of IR that
/// spells none of its attributes (an old string-keyed dictionary would
/// otherwise pass parsing unchecked).
void registerStarkDialect(DialectRegistry &registry);

} // namespace mlir::stark

#endif // STARK_DIALECT_STARKDIALECT_H
