//===- TdScheduleFamilies.cpp - The CUDA transform-schedule families ------===//
//
// td-matmul, td-elementwise and td-reduce (docs/cuda-schedules.md). One
// enumerator (enumerateCudaSchedules) sizes the schedules of all three, so
// each family is the part of its list that carries the family's name.
//
//===----------------------------------------------------------------------===//

#include "stark/Strategies/CudaSchedules.h"
#include "stark/Strategies/StrategyRegistry.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

class TdScheduleFamily : public StrategyFamily {
public:
  explicit TdScheduleFamily(StringRef name) : name(name) {}

  Kind getKind() const override { return Kind::CudaSchedule; }
  StringRef getName() const override { return name; }
  StringRef getTarget() const override { return "cuda"; }

  LogicalResult applies(const StrategyProblem &problem,
                        std::string &whyNot) const override {
    if (!schedules(problem, whyNot).empty())
      return success();
    if (whyNot.empty())
      whyNot = (name + ": no schedule fits the op").str();
    return failure();
  }

  std::vector<StrategyPoint>
  getPoints(const StrategyProblem &problem) const override {
    std::string ignored;
    std::vector<StrategyPoint> points;
    for (const CudaSchedule &s : schedules(problem, ignored))
      points.push_back({s.family, s.toParams(), s.describe()});
    return points;
  }

  FailureOr<std::string> build(const StrategyProblem &problem,
                               const StrategyPoint &point,
                               std::string &error) const override {
    CudaSchedule schedule;
    schedule.family = point.family;
    FailureOr<std::map<std::string, int64_t>> params =
        getIntegerParams(point, error);
    if (failed(params))
      return failure();
    schedule.params = std::move(*params);
    FailureOr<OwningOpRef<ModuleOp>> candidate =
        applyCudaSchedule(problem.getModule(), schedule, error);
    if (failed(candidate))
      return failure();
    return printCandidate(**candidate);
  }

private:
  std::vector<CudaSchedule> schedules(const StrategyProblem &problem,
                                      std::string &whyNot) const {
    std::vector<CudaSchedule> mine;
    for (CudaSchedule &s : enumerateCudaSchedules(problem.getModule(),
                                                  problem.getProfile(), whyNot))
      if (s.family == name)
        mine.push_back(std::move(s));
    return mine;
  }

  StringRef name;
};

} // namespace

std::unique_ptr<StrategyFamily> mlir::stark::createTdMatmulFamily() {
  return std::make_unique<TdScheduleFamily>("td-matmul");
}

std::unique_ptr<StrategyFamily> mlir::stark::createTdElementwiseFamily() {
  return std::make_unique<TdScheduleFamily>("td-elementwise");
}

std::unique_ptr<StrategyFamily> mlir::stark::createTdReduceFamily() {
  return std::make_unique<TdScheduleFamily>("td-reduce");
}
