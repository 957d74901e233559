//===- TdScheduleFamilies.cpp - The CUDA transform-schedule families ------===//
//
// td-matmul, td-elementwise and td-reduce (docs/cuda-schedules.md). One
// enumerator (enumerateCudaSchedules) sizes the schedules of all three, so
// each family is the part of its list that carries the family's name.
//
//===----------------------------------------------------------------------===//

#include "stark/Strategies/CudaSchedules.h"
#include "stark/Strategies/ScheduleFamily.h"
#include "stark/Strategies/StrategyRegistry.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

class TdScheduleFamily : public ScheduleFamily<CudaSchedule> {
public:
  explicit TdScheduleFamily(StringRef name)
      : ScheduleFamily(name, Kind::CudaSchedule, "cuda", enumerateCudaSchedules,
                       "no schedule fits the op") {}

  /// A point rebuilds from its parameters, enumerated or not.
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
