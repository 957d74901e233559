//===- ScheduleFamily.h - Families over a shared schedule list --*- C++ -*-===//
//
// The transform-schedule families (cpu-* and td-*) share one enumerator per
// target that sizes the schedules of every family of that target at once;
// each family is the part of that list carrying its name. ScheduleFamily
// is that filter, over any schedule type with `family`, `toParams()` and
// `describe()`; a family gives the enumerator, why it may decline and how a
// point builds.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_STRATEGIES_SCHEDULEFAMILY_H
#define STARK_STRATEGIES_SCHEDULEFAMILY_H

#include "stark/Strategies/StrategyFamily.h"

#include "llvm/ADT/Twine.h"

namespace mlir::stark {

template <class Schedule> class ScheduleFamily : public StrategyFamily {
public:
  /// The target's enumerator: every schedule for a problem, all families
  /// together.
  using Enumerator = std::vector<Schedule> (*)(ModuleOp problem,
                                               const HardwareProfile &profile,
                                               std::string &whyNot);

  /// `whyNoneOfMine`: why the family declines when the enumerator found
  /// schedules, but none of this family.
  ScheduleFamily(StringRef name, Kind kind, StringRef target,
                 Enumerator enumerate, StringRef whyNoneOfMine)
      : name(name), kind(kind), target(target), enumerate(enumerate),
        whyNoneOfMine(whyNoneOfMine) {}

  Kind getKind() const final { return kind; }
  StringRef getName() const final { return name; }
  StringRef getTarget() const final { return target; }

  LogicalResult applies(const StrategyProblem &problem,
                        std::string &whyNot) const final {
    if (!schedules(problem, whyNot).empty())
      return success();
    if (whyNot.empty())
      whyNot = (name + ": " + whyNoneOfMine).str();
    return failure();
  }

  std::vector<StrategyPoint>
  getPoints(const StrategyProblem &problem) const final {
    std::string ignored;
    std::vector<StrategyPoint> points;
    for (const Schedule &s : schedules(problem, ignored))
      points.push_back({s.family, s.toParams(), s.describe()});
    return points;
  }

protected:
  /// The family's part of the enumeration.
  std::vector<Schedule> schedules(const StrategyProblem &problem,
                                  std::string &whyNot) const {
    std::vector<Schedule> mine;
    for (Schedule &s :
         enumerate(problem.getModule(), problem.getProfile(), whyNot))
      if (s.family == name)
        mine.push_back(std::move(s));
    return mine;
  }

private:
  StringRef name;
  Kind kind;
  StringRef target;
  Enumerator enumerate;
  StringRef whyNoneOfMine;
};

} // namespace mlir::stark

#endif // STARK_STRATEGIES_SCHEDULEFAMILY_H
