//===- ModelSearchInternal.h - The model search's parts ---------*- C++ -*-===//
//
// The search of a whole model (ModelSearch.cpp: the plan's turns, recorded
// winners, the summary), its coverage pass (ModelCoverage.cpp: the first
// picks of the problems whose turn did not come) and the searches the time
// the coverage pass left pays for (ModelLeftover.cpp) share the class
// below and what it keeps of each problem.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LIB_SEARCH_MODELSEARCHINTERNAL_H
#define STARK_LIB_SEARCH_MODELSEARCHINTERNAL_H

#include "stark/Search/ModelPlan.h"
#include "stark/Search/ModelSearch.h"
#include "stark/Search/ProblemSearch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::stark::modelsearch {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

inline std::string
joinParams(const std::map<std::string, std::string> &params) {
  return llvm::join(
      llvm::map_range(
          params, [](const auto &kv) { return kv.first + "=" + kv.second; }),
      " ");
}

/// One problem of the model and what became of it.
struct Entry {
  ModuleOp problem;
  ProblemAttr info;
  StringAttr symbol;
  /// The ops the problem speaks for; `alone` when they name it only as
  /// their problem alone (a fused chain outlined with compare-unfused).
  SmallVector<Operation *> ops;
  bool alone = false;
  std::string label;
  PlanProblem plan;
  /// Its index in the model's plan, once it has one.
  size_t planIndex = SIZE_MAX;
  llvm::json::Object report;
  /// "searched", "first pick" or "upstream".
  std::string outcome;
  bool winner = false;
  double speedup = 1;
  /// The points the coverage pass judged for it (its failed picks and its
  /// last pick): a later search of it does not propose them again.
  std::vector<SearchNode> judged;
};

/// One run of searchModel: collects the model's problems, plans them,
/// searches them turn by turn, covers the rest and writes the summary.
class ModelSearch {
public:
  ModelSearch(ModuleOp module, const HardwareProfile &hw,
              const ModelSearchOptions &options)
      : module(module), hw(hw), options(options),
        target(options.problem.target) {}

  ModelSearchResult run();

private:
  ModuleOp module;
  const HardwareProfile &hw;
  const ModelSearchOptions &options;
  std::string target;
  std::vector<Entry> entries;
  ModelSearchResult out;
  /// Problems the plan orders (those without a recorded winner).
  size_t planned = 0;
  /// Searches that ran side by side before the turns, by entry.
  std::map<size_t, ProblemSearchResult> presearched;

  void collect();
  void remark(Entry &e, const Twine &message);
  void finish(Entry &e, StringRef outcome, const Twine &why);
  void progressLine(const Twine &line) {
    if (options.progress)
      llvm::errs() << line << "\n";
  }
  void installWinner(Entry &e, OwningOpRef<ModuleOp> winner,
                     const SearchNode &node, double baselineSeconds);
  void searchSideBySide(const ModelPlan &plan, ArrayRef<size_t> open);
  /// Installs the winners the tuning records have for this device; the
  /// entries left to search, or failure (diagnosed) on a bad record.
  FailureOr<std::vector<size_t>> applyRecordedWinners();
  void coverRemaining(ModelPlan &plan, ArrayRef<size_t> open, size_t &turns);
  LogicalResult searchTurn(size_t index, const PlanTurn &turn, size_t rank,
                           ModelPlan &plan);
  /// The time the coverage pass left (its estimates are cautious before
  /// anything is measured) goes to searches of the problems it gave their
  /// first picks, in the plan's order, planned again from what is left.
  LogicalResult searchLeftover(const ModelPlan &plan, ArrayRef<size_t> open,
                               size_t &turns);
  /// One of those searches: the first pick stays unless the search's
  /// winner is faster.
  LogicalResult searchAgain(size_t index, const PlanTurn &turn, size_t rank,
                            ModelPlan &plan);
  /// A problem the coverage pass gives its first pick: its entry, its rank
  /// in the run's progress, why it was not searched, and its first pick,
  /// built, with the job that evaluates it (none without a first pick).
  struct CoverItem {
    size_t index;
    size_t rank;
    std::string why;
    FirstPickResult pick;
    std::optional<EvalJob> job;
    /// Picks of other families that failed before `pick` (kCoverPicks),
    /// with their status and failure.
    std::vector<SearchNode> failedPicks = {};
    /// Seconds of the run the item's evaluations cost.
    double seconds = 0;
  };
  CoverItem buildCoverItem(size_t index, size_t rank, std::string why);
  void cover(size_t index, size_t rank, StringRef why, ModelPlan &plan) {
    std::vector<CoverItem> items;
    items.push_back(buildCoverItem(index, rank, why.str()));
    cover(items, plan);
  }
  /// Evaluates the first picks of `items` at once (as many as the pool has
  /// executors) and keeps each or not; a pick that fails is followed by the
  /// next family's while total-seconds allows (kCoverPicks).
  void cover(MutableArrayRef<CoverItem> items, ModelPlan &plan);
  /// Runs the jobs of `items`, side by side where the pool has executors.
  std::vector<EvalResult> evaluateCoverJobs(ArrayRef<CoverItem *> items);
  /// Replaces a failed pick by the first pick of another family; false
  /// when none builds.
  bool pickAgain(CoverItem &item);
  void recordFirstPick(CoverItem &item);
  void summarize(const ModelPlan &plan, double coverageSeconds);
};

/// How far past total-seconds a model's search may go (the 10% the
/// planner promises).
constexpr double kTotalSecondsSlack = 1.1;

} // namespace mlir::stark::modelsearch

#endif // STARK_LIB_SEARCH_MODELSEARCHINTERNAL_H
