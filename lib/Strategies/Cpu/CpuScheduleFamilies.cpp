//===- CpuScheduleFamilies.cpp - The host's schedule families -------------===//
//
// cpu-tile-vectorize, cpu-window-vectorize, cpu-softmax-rows,
// cpu-tile-loops and cpu-fused-rows (docs/search.md, "CPU candidates"). One
// enumerator (enumerateCpuSchedules) picks the schedules of an op, so each
// family is the part of its list that carries the family's name.
//
//===----------------------------------------------------------------------===//

#include "stark/Strategies/CpuStrategies.h"
#include "stark/Strategies/ScheduleFamily.h"
#include "stark/Strategies/StrategyRegistry.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

class CpuScheduleFamily : public ScheduleFamily<CpuSchedule> {
public:
  explicit CpuScheduleFamily(StringRef name)
      : ScheduleFamily(name, Kind::CpuSchedule, "cpu", enumerateCpuSchedules,
                       "another family fits the op") {}

  /// A schedule is not rebuilt from its parameters: the point names one of
  /// the enumerated schedules.
  FailureOr<std::string> build(const StrategyProblem &problem,
                               const StrategyPoint &point,
                               std::string &error) const override {
    std::string ignored;
    for (const CpuSchedule &s : schedules(problem, ignored)) {
      if (StrategyPoint{s.family, s.toParams(), ""}.key() != point.key())
        continue;
      FailureOr<OwningOpRef<ModuleOp>> candidate =
          applyCpuSchedule(problem.getModule(), s, error);
      if (failed(candidate))
        return failure();
      return printCandidate(**candidate);
    }
    error = "not a point of this space: " + point.key();
    return failure();
  }
};

} // namespace

std::unique_ptr<StrategyFamily> mlir::stark::createCpuTileVectorizeFamily() {
  return std::make_unique<CpuScheduleFamily>(kCpuTileVectorize);
}

std::unique_ptr<StrategyFamily> mlir::stark::createCpuWindowVectorizeFamily() {
  return std::make_unique<CpuScheduleFamily>(kCpuWindowVectorize);
}

std::unique_ptr<StrategyFamily> mlir::stark::createCpuSoftmaxRowsFamily() {
  return std::make_unique<CpuScheduleFamily>(kCpuSoftmaxRows);
}

std::unique_ptr<StrategyFamily> mlir::stark::createCpuTileLoopsFamily() {
  return std::make_unique<CpuScheduleFamily>(kCpuTileLoops);
}

std::unique_ptr<StrategyFamily> mlir::stark::createCpuFusedRowsFamily() {
  return std::make_unique<CpuScheduleFamily>(kCpuFusedRows);
}
