//===- ModelSearch.h - The search of a whole model's problems ----*- C++
//-*-===//
//
// stark-search's one call: every kernel problem of a module gets a kernel.
// Recorded winners are applied first; the rest are searched in the order
// and with the budgets of a ModelPlan (largest expected gain first, every
// cost on one clock), and each problem whose turn does not come gets the
// expert's first pick, evaluated once and kept where it verified and ran
// faster than the upstream lowering. Each op ends `searched`, `first pick`
// or `upstream`, with the reason in its remark and in the report.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_MODELSEARCH_H
#define STARK_SEARCH_MODELSEARCH_H

#include "stark/Problem/KernelProblem.h"
#include "stark/Search/ProblemSearch.h"

#include "llvm/Support/JSON.h"

#include <chrono>
#include <utility>
#include <vector>

namespace mlir::stark {

/// Winners recorded by earlier runs (a tuning database, lib/Tuning): the
/// search applies them, seeds from them and records what it finds.
class RecordedWinners {
public:
  virtual ~RecordedWinners();
  /// What applying a record gave: the problem's report entry, the remark,
  /// and the recorded speedup.
  struct Applied {
    llvm::json::Object report;
    std::string remark;
    double speedup = 0;
  };
  /// Applies the winner recorded for `problem` on this device; none when
  /// there is none to apply. Failure (why in `error`) when it cannot be.
  virtual FailureOr<std::optional<Applied>>
  apply(ModuleOp problem, ProblemAttr info, std::string &error) = 0;
  /// Winners of the problem recorded on other devices: the search's seeds.
  virtual std::vector<Proposal> getSeeds(ProblemAttr info) = 0;
  /// Records the winner `win` of the search `result` of `info`.
  virtual LogicalResult record(ProblemAttr info,
                               const ProblemSearchResult &result,
                               const SearchNode &win, std::string &error) = 0;
};

struct ModelSearchOptions {
  /// What every problem's search uses; `budget` and `seconds` are the most
  /// one problem gets.
  ProblemSearchOptions problem;
  /// The whole run's wall-clock budget (0: none), counted from `start`.
  double totalSeconds = 0;
  /// When the run began: every cost after it (reading the tuning
  /// database, starting evaluators) counts against `totalSeconds`.
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
  /// Seconds one evaluation is taken to cost before one was measured.
  double evaluationSecondsPrior = 1;
  /// Progress lines on stderr.
  bool progress = true;
  /// Null: no tuning database.
  RecordedWinners *records = nullptr;
  /// Searches may run side by side on a pool of evaluators (none of them
  /// asks a model, and there is no total-seconds budget to split).
  bool sideBySide = false;
};

struct ModelSearchResult {
  /// Remarks for the pass to emit, in the order of the problems' turns.
  std::vector<std::pair<Operation *, std::string>> remarks;
  /// Every problem's report entry, in the module's order.
  llvm::json::Array reports;
  /// The model's summary for the report, and as a sentence.
  llvm::json::Object summary;
  std::string summaryText;
  /// The plan: order, evaluation estimate, time used.
  llvm::json::Object plan;
  /// Statistics.
  int64_t searched = 0, candidates = 0, winners = 0, fromRecords = 0;
  /// With a model: what it was asked, over every problem.
  int64_t requests = 0, promptTokens = 0, completionTokens = 0;
  /// Set when the run stopped on an error (emitted on the problem); the
  /// remarks of the problems before it are still there.
  bool failed = false;
};

/// Searches (or covers) every unsearched kernel problem of `module` on
/// `hw`. Stops (`failed`, with an error on the problem) where a search
/// cannot start (a transcript that does not load, a model that failed for
/// good) or a record can be neither applied nor written.
ModelSearchResult searchModel(ModuleOp module, const HardwareProfile &hw,
                              const ModelSearchOptions &options);

struct SearchReportHeader;
/// The parts of the report's header that the search of `module` on `hw`
/// gave: its summary and plan (moved out of `result`), the weights that
/// were synthesised and the ops left upstream.
void describeModelSearch(ModuleOp module, const HardwareProfile &hw,
                         ModelSearchResult &result, SearchReportHeader &header);

} // namespace mlir::stark

#endif // STARK_SEARCH_MODELSEARCH_H
