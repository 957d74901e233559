//===- CandidateSpaces.cpp - The candidate space of each target -----------===//

#include "stark/Strategies/CandidateSpaces.h"
#include "stark/Strategies/CpuStrategies.h"
#include "stark/Strategies/CudaSchedules.h"
#include "stark/Strategies/CudaTemplates.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

/// The CUDA C++ templates: every applicable family with its parameter
/// sets, families in order of promise, each family's best guess first.
class CudaCandidateSpace : public CandidateSpace {
public:
  CudaCandidateSpace(ModuleOp problem, ProblemView view,
                     const HardwareProfile &profile)
      : problem(problem), view(std::move(view)) {
    EnumerateOptions options;
    options.limit = kParamSetsPerFamily;
    for (const std::string &family : getApplicableFamilies(this->view)) {
      for (const TemplateParams &params :
           enumerateParams(family, this->view, profile, options)) {
        StrategyPoint point;
        point.family = family;
        for (const auto &[name, value] : params)
          point.params[name] = std::to_string(value);
        point.description = family + " " + formatTemplateParams(params);
        points.push_back(std::move(point));
      }
    }
    // The transform-dialect schedules (td-*) follow the templates.
    std::string whyNot;
    schedules = createCudaScheduleSpace(problem, profile, whyNot);
    if (schedules)
      llvm::append_range(points, schedules->getPoints());
  }

  const std::vector<StrategyPoint> &getPoints() const override {
    return points;
  }

  FailureOr<std::string> build(const StrategyPoint &point,
                               std::string &error) override {
    if (schedules && StringRef(point.family).starts_with("td-"))
      return schedules->build(point, error);
    FailureOr<TemplateParams> params = getIntegerParams(point, error);
    if (failed(params))
      return failure();
    FailureOr<CudaKernelPlan> plan =
        generateCudaKernel(point.family, view, *params, error);
    if (failed(plan))
      return failure();
    FailureOr<OwningOpRef<ModuleOp>> candidate =
        buildCudaCandidateModule(problem, *plan, error);
    if (failed(candidate))
      return failure();
    return printCandidate(**candidate);
  }

private:
  /// Enough to refine around the best guess without flooding the search.
  static constexpr int64_t kParamSetsPerFamily = 24;
  ModuleOp problem;
  ProblemView view;
  std::unique_ptr<CandidateSpace> schedules;
  std::vector<StrategyPoint> points;
};

} // namespace

std::unique_ptr<CandidateSpace>
mlir::stark::createCandidateSpace(StringRef target, ModuleOp problem,
                                  const HardwareProfile &profile,
                                  std::string &whyNot) {
  if (target == "cpu")
    return createCpuCandidateSpace(problem, profile, whyNot);
  if (target == "cuda") {
    FailureOr<ProblemView> view = analyzeCudaProblem(problem, whyNot);
    if (failed(view))
      return nullptr;
    auto space = std::make_unique<CudaCandidateSpace>(problem, std::move(*view),
                                                      profile);
    if (space->getPoints().empty()) {
      whyNot = "no CUDA template family applies";
      return nullptr;
    }
    return space;
  }
  whyNot = ("no strategy families for target '" + target + "'").str();
  return nullptr;
}
