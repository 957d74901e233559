//===- ProblemSearch.h - The search of one kernel problem -------*- C++ -*-===//
//
// Everything one kernel problem's search needs beyond the search loop: the
// agent team (the expert over the target's candidate space, or a replayed
// transcript), the evaluator as judge, the baseline, and the winner parsed
// back into the problem's context. stark-search calls it once per problem.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_PROBLEMSEARCH_H
#define STARK_SEARCH_PROBLEMSEARCH_H

#include "stark/Analysis/HardwareProfile.h"
#include "stark/Eval/Compare.h"
#include "stark/Eval/EvalPool.h"
#include "stark/Search/LLMAgents.h"
#include "stark/Search/ModelPlan.h"
#include "stark/Search/Search.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <functional>
#include <optional>
#include <string>

namespace mlir::stark {

struct ProblemSearchOptions {
  /// cpu or cuda (already resolved from auto).
  std::string target = "cpu";
  /// expert (the candidate space of `target`), llm, or replay (of
  /// `transcript`).
  std::string agent = "expert";
  std::string transcript;
  /// agent=llm, or agent=replay of an llm transcript: the model the roles
  /// ask (the caller's, shared by the problems of a run so that budgets
  /// and transcripts span it).
  llm::ChatModel *model = nullptr;
  LLMAgentOptions llm;
  /// "expert": when the model fails for good, the expert takes over;
  /// empty: the search stops with an error.
  std::string fallback;
  /// With a model: proposals asked for ahead, while candidates are judged
  /// (SearchBudget::concurrency).
  unsigned concurrency = 1;
  unsigned budget = 12;
  /// Wall-clock seconds of the whole search, the problem's own evaluation
  /// (references and baseline) included.
  double seconds = 120;
  /// When set, asked before each candidate with the evaluations run and
  /// the seconds spent so far; false ends the search as `seconds` would
  /// (a model's plan re-planning the budget from measured costs).
  std::function<bool(int64_t evaluations, double seconds)> mayContinue;
  uint64_t seed = 0;
  double minSpeedup = 1.05;
  /// Correctness trials and timed runs per evaluation.
  unsigned trials = 5;
  unsigned timingTrials = 10;
  /// Screen candidates (ScreeningOptions in EvaluatorJudge.h): verify in
  /// full only those fast enough to win. First picks are screened against
  /// the baseline (kept only when faster than it anyway).
  bool screen = true;
  /// Seconds per evaluation in the worker; a candidate's evaluation gets
  /// the reference allowance on top (EvaluatorJudge.h).
  double timeout = 60;
  /// Seconds the problem's own evaluation (the references and the
  /// baseline's timing) may take.
  double referenceTimeout = 600;
  /// f32 contractions may use tf32 tensor cores, held to the looser bound
  /// EvalOptions::allowTf32 describes.
  bool allowTf32 = false;
  /// Candidates judged first (winners of the problem on other devices):
  /// starting points, not answers.
  std::vector<Proposal> seeds;
  /// Points already judged for this problem elsewhere (the coverage pass's
  /// picks): the expert does not propose them again.
  std::vector<SearchNode> judged;
  /// Evaluators to judge on (not owned); null: one worker at a time, on
  /// this host, as stark-eval runs it. With a pool of more than one
  /// executor, `batch` candidates are judged at once and the
  /// `retimeContenders` fastest are timed again on the pool's home device
  /// before the winner is chosen.
  EvalPool *pool = nullptr;
  /// Compiles the candidates likely to be judged next while the evaluators
  /// work (Precompiler.h; not owned); null: none.
  Precompiler *precompiler = nullptr;
  unsigned batch = 1;
  unsigned retimeContenders = 3;
  /// compute-sanitizer tools the winner runs under before it wins (cuda);
  /// a finding disqualifies it and the next best is checked. Empty: none.
  std::vector<std::string> sanitizers;
};

enum class ProblemSearchStatus {
  /// The search could not start (e.g. the transcript does not load).
  Error,
  /// Nothing to search: no strategy applies or the baseline does not run.
  Skipped,
  /// The search ran; `search->winner` says whether something won.
  Searched,
};

struct ProblemSearchResult {
  ProblemSearchStatus status = ProblemSearchStatus::Error;
  /// Error: what went wrong. Skipped: why, as the report records it.
  std::string message;
  /// Skipped: why, as a sentence for the remark.
  std::string skipReason;
  double baselineSeconds = 0;
  /// Over every evaluation of the search: runs of the baseline and of the
  /// high-precision reference made for reference outputs, trial inputs
  /// whose reference outputs were reused from the store, and the seconds
  /// each candidate's evaluation was allowed for its baseline.
  unsigned referenceRuns = 0;
  unsigned referencesReused = 0;
  double referenceAllowance = 0;
  /// The bound every candidate's outputs were held to (from the problem's
  /// own evaluation), and whether allow-tf32 loosened it.
  std::string toleranceKind;
  Tolerance tolerance;
  bool tf32Tolerance = false;
  /// Searched: the tree and its winner.
  std::optional<SearchResult> search;
  /// Contenders timed again on the home device after the search, fastest
  /// first as they were before (their times in the tree are the new ones).
  std::vector<int64_t> retimed;
  /// The expert's last failure to build a candidate (empty for replay).
  std::string lastBuildError;
  /// With a model: what it was asked and spent, and why the fallback took
  /// over (empty when it did not).
  std::optional<LLMAgents::Usage> llmUsage;
  std::string fallbackReason;
  /// The winner, parsed into the problem's context; null without a winner
  /// or when its text does not parse back.
  OwningOpRef<ModuleOp> winner;
  /// Evaluations run (the problem's own one included), and how many of them
  /// ran the winner under compute-sanitizer.
  int64_t evaluations = 0;
  int64_t sanitizerRuns = 0;
  /// The wall time of each candidate's judgement, in the order they ran
  /// (what a search pays per candidate); apart from them the problem's own
  /// evaluation (references and baseline), the winners' second timings and
  /// their runs under compute-sanitizer. The judge's seconds per kind of
  /// phase are summed over all of them.
  std::vector<double> evaluationSeconds;
  double problemEvaluationSeconds = 0;
  std::vector<double> retimeSeconds, sanitizerSeconds;
  std::vector<std::pair<std::string, double>> phaseSeconds;
};

/// Searches a faster verified lowering of the kernel problem `problem` on
/// `hw`. `progress` is called after every candidate.
ProblemSearchResult
searchProblem(ModuleOp problem, const HardwareProfile &hw,
              const ProblemSearchOptions &options,
              const std::function<void(const SearchProgress &)> &progress);

/// The expert's first-ranked candidate for a problem, evaluated once
/// against the upstream lowering (the coverage of a problem that is not
/// searched).
struct FirstPickResult {
  FirstPickVerdict verdict;
  /// The candidate (strategy, params, plan) and its text, when there is one.
  SearchNode node;
  std::string payload;
  /// The candidate parsed into the problem's context, when it passed and
  /// parses back.
  OwningOpRef<ModuleOp> module;
};

/// The expert's first-ranked candidate of `problem` on `options.target`,
/// built (in the problem's context), and the job that evaluates it once
/// (its own references, the baseline timed interleaved with it), when there
/// is a first pick (`verdict.available`). `failedPicks` are earlier picks
/// of the problem that failed their evaluation: the pick is then the first
/// of a family not among them (else the next point of theirs), as the
/// expert proposes from a root whose children failed. Several problems'
/// jobs may run at once...
FirstPickResult buildFirstPick(ModuleOp problem, const HardwareProfile &hw,
                               const ProblemSearchOptions &options,
                               EvalJob &job,
                               ArrayRef<SearchNode> failedPicks = {});
/// ...and the verdict comes from the job's result, the candidate parsed
/// into the problem's context when it passed.
void judgeFirstPick(ModuleOp problem, const EvalResult &r,
                    FirstPickResult &result);

} // namespace mlir::stark

#endif // STARK_SEARCH_PROBLEMSEARCH_H
