//===- EvaluatorJudge.h - The search's judge: the evaluator -*- C++ -*-===//
//
// Adapts the evaluator to the search: every candidate is verified and timed
// against the problem in a worker process. Times are normalised to the
// root's baseline so that drift between evaluations (each one times the
// baseline again, interleaved) does not reorder the leaderboard.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_EVALUATORJUDGE_H
#define STARK_SEARCH_EVALUATORJUDGE_H

#include "stark/Eval/Worker.h"
#include "stark/Search/Search.h"

#include <vector>

namespace mlir::stark {

class EvaluatorJudge : public Judge {
public:
  EvaluatorJudge(std::string problemSource, std::string problemName,
                 EvalOptions options, WorkerOptions worker);

  /// Evaluates the problem against itself: the baseline time (the root of
  /// the search). Fails when even the baseline does not run.
  FailureOr<double> measureBaseline(std::string &error);

  Verdict judge(const Proposal &proposal) override;

  /// Every evaluation so far, in order (the baseline first).
  const std::vector<EvalResult> &getResults() const { return results; }

private:
  std::string problemSource, problemName;
  EvalOptions options;
  WorkerOptions worker;
  double baselineSeconds = 0;
  std::vector<EvalResult> results;
};

/// The failure of `result` as the debugger reads it: the message, the
/// worst element, the phase and the tail of the worker's log.
std::string describeFailure(const EvalResult &result);

} // namespace mlir::stark

#endif // STARK_SEARCH_EVALUATORJUDGE_H
