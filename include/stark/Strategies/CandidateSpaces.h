//===- CandidateSpaces.h - The candidate space of each target --*- C++ -*-===//

#ifndef STARK_STRATEGIES_CANDIDATESPACES_H
#define STARK_STRATEGIES_CANDIDATESPACES_H

#include "stark/Analysis/HardwareProfile.h"
#include "stark/Strategies/CandidateSpace.h"
#include "stark/Strategies/StrategyFamily.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <string>

namespace mlir::stark {

/// The strategy points for `problem` on `target` ("cpu" or "cuda"), or null
/// with the reason when no strategy family applies.
std::unique_ptr<CandidateSpace>
createCandidateSpace(StringRef target, ModuleOp problem,
                     const HardwareProfile &profile, std::string &whyNot,
                     const StrategyOptions &options = {});

} // namespace mlir::stark

#endif // STARK_STRATEGIES_CANDIDATESPACES_H
