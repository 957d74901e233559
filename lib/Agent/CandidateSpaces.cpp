//===- CandidateSpaces.cpp - The candidate space of each target -----------===//

#include "stark/Agent/CandidateSpaces.h"
#include "stark/Agent/CpuStrategies.h"

using namespace mlir;
using namespace mlir::stark;

std::unique_ptr<CandidateSpace>
mlir::stark::createCandidateSpace(StringRef target, ModuleOp problem,
                                  const HardwareProfile &profile,
                                  std::string &whyNot) {
  if (target == "cpu")
    return createCpuCandidateSpace(problem, profile, whyNot);
  whyNot = ("no strategy families for target '" + target + "'").str();
  return nullptr;
}
