//===- StrategyFamily.h - One family of candidate generators ----*- C++ -*-===//
//
// A strategy family turns a problem into candidates for one target: it says
// whether it applies (or why not), lists its parameter space as strategy
// points (best guesses first, grounded in the hardware profile) and builds
// the candidate module of a point. Families know nothing of each other; the
// registry (StrategyRegistry.h) holds them and the candidate space of a
// problem is the union of the points of every family that applies.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_STRATEGIES_STRATEGYFAMILY_H
#define STARK_STRATEGIES_STRATEGYFAMILY_H

#include "stark/Analysis/HardwareProfile.h"
#include "stark/Strategies/CandidateSpace.h"
#include "stark/Strategies/CudaTemplates.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::stark {

/// What the user allows candidates to do beyond the problem's own numerics.
struct StrategyOptions {
  /// f32 contractions may run on tf32 tensor cores (inputs rounded to 10
  /// mantissa bits); the evaluator then holds them to a looser bound.
  bool allowTf32 = false;
};

/// A problem as the families see it: the problem module, the profile of the
/// target, the user's options, and the shared view of its op(s), read once
/// on first use.
class StrategyProblem {
public:
  StrategyProblem(ModuleOp module, const HardwareProfile &profile,
                  StrategyOptions options = {})
      : module(module), profile(profile), options(options) {}

  ModuleOp getModule() const { return module; }
  const HardwareProfile &getProfile() const { return profile; }
  const StrategyOptions &getOptions() const { return options; }
  /// The view of the problem, or null with the reason it could not be read.
  const ProblemView *getView(std::string &whyNot) const;

private:
  ModuleOp module;
  const HardwareProfile &profile;
  StrategyOptions options;
  mutable bool analyzed = false;
  mutable std::optional<ProblemView> view;
  mutable std::string whyNoView;
};

class StrategyFamily {
public:
  /// The rank of a family that has no preference among its target's
  /// families: after the ranked ones, in registration order.
  static constexpr unsigned kDefaultRank = 1000;
  /// What kind of generator the family is (for isa / dyn_cast).
  enum class Kind { CudaTemplate, CudaSchedule, CpuSchedule };

  virtual ~StrategyFamily();
  virtual Kind getKind() const = 0;
  /// The family's name, as points and reports carry it ("gemm",
  /// "cpu-tile-vectorize", "td-matmul").
  virtual StringRef getName() const = 0;
  /// The target whose candidates it builds: "cpu" or "cuda".
  virtual StringRef getTarget() const = 0;
  /// Whether the family can build correct candidates for `problem`.
  virtual LogicalResult applies(const StrategyProblem &problem,
                                std::string &whyNot) const = 0;
  /// Where the family stands among its target's families for `problem`
  /// (lower first; ties keep registration order), or none when it is not
  /// worth offering there even though it applies.
  virtual std::optional<unsigned>
  getRank(const StrategyProblem &problem) const {
    return kDefaultRank;
  }
  /// The points worth trying, best guesses first (only called when the
  /// family applies).
  virtual std::vector<StrategyPoint>
  getPoints(const StrategyProblem &problem) const = 0;
  /// The candidate module (text) of `point`, or failure with the reason.
  virtual FailureOr<std::string> build(const StrategyProblem &problem,
                                       const StrategyPoint &point,
                                       std::string &error) const = 0;
};

} // namespace mlir::stark

#endif // STARK_STRATEGIES_STRATEGYFAMILY_H
