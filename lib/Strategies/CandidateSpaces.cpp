//===- CandidateSpaces.cpp - The candidate space over the registry --------===//

#include "stark/Strategies/CandidateSpaces.h"
#include "stark/Strategies/CudaSchedules.h"
#include "stark/Strategies/StrategyRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

/// The points of every given family, families in order, each family's best
/// guess first; a point is built by the family that listed it.
class RegistrySpace : public CandidateSpace {
public:
  RegistrySpace(std::unique_ptr<StrategyProblem> problem,
                SmallVector<const StrategyFamily *> families)
      : problem(std::move(problem)), families(std::move(families)) {
    for (const StrategyFamily *family : this->families)
      llvm::append_range(points, family->getPoints(*this->problem));
  }

  const std::vector<StrategyPoint> &getPoints() const override {
    return points;
  }

  FailureOr<std::string> build(const StrategyPoint &point,
                               std::string &error) override {
    for (const StrategyFamily *family : families)
      if (family->getName() == point.family)
        return family->build(*problem, point, error);
    error = "not a point of this space: " + point.key();
    return failure();
  }

private:
  std::unique_ptr<StrategyProblem> problem;
  SmallVector<const StrategyFamily *> families;
  std::vector<StrategyPoint> points;
};

} // namespace

/// The space of the families among `candidates` that apply to `module`,
/// ranked; null with the reasons when none has a point.
static std::unique_ptr<CandidateSpace>
createSpaceOf(ArrayRef<const StrategyFamily *> candidates, ModuleOp module,
              const HardwareProfile &profile, std::string &whyNot,
              const StrategyOptions &options = {}) {
  auto problem = std::make_unique<StrategyProblem>(module, profile, options);
  SmallVector<std::pair<unsigned, const StrategyFamily *>> ranked;
  SmallVector<std::string> reasons;
  for (const StrategyFamily *family : candidates) {
    std::string why;
    if (failed(family->applies(*problem, why))) {
      if (!llvm::is_contained(reasons, why))
        reasons.push_back(why);
      continue;
    }
    if (std::optional<unsigned> rank = family->getRank(*problem))
      ranked.push_back({*rank, family});
  }
  llvm::stable_sort(
      ranked, [](const auto &a, const auto &b) { return a.first < b.first; });
  SmallVector<const StrategyFamily *> families;
  for (const auto &entry : ranked)
    families.push_back(entry.second);
  auto space =
      std::make_unique<RegistrySpace>(std::move(problem), std::move(families));
  if (space->getPoints().empty()) {
    whyNot = reasons.empty() ? "no strategy family has a point for it"
                             : llvm::join(reasons, "; ");
    return nullptr;
  }
  return space;
}

std::unique_ptr<CandidateSpace> mlir::stark::createCandidateSpace(
    StringRef target, ModuleOp problem, const HardwareProfile &profile,
    std::string &whyNot, const StrategyOptions &options) {
  SmallVector<const StrategyFamily *> families =
      StrategyRegistry::get().getFamilies(target);
  if (families.empty()) {
    whyNot = ("no strategy families for target '" + target + "'").str();
    return nullptr;
  }
  return createSpaceOf(families, problem, profile, whyNot, options);
}

std::unique_ptr<CandidateSpace> mlir::stark::createCudaScheduleSpace(
    ModuleOp problem, const HardwareProfile &profile, std::string &whyNot) {
  SmallVector<const StrategyFamily *> families;
  for (StringRef name : getCudaScheduleFamilies())
    families.push_back(StrategyRegistry::get().lookup(name));
  return createSpaceOf(families, problem, profile, whyNot);
}
