//===- EvaluatorJudge.h - The search's judge: the evaluator -*- C++ -*-===//
//
// Adapts the evaluator to the search: every candidate is verified and timed
// against the problem in a worker process. Times are normalised to the
// root's baseline so that drift between evaluations (each one times the
// baseline again, interleaved) does not reorder the leaderboard.
//
// The problem's own evaluation (the root) computes the reference outputs of
// every trial input once and keeps them in a store the judge owns; every
// candidate's evaluation reads them. That evaluation has a time limit of
// its own, and each candidate's limit is its own plus an allowance for the
// baseline runs it still makes, so a slow reference never reads as a
// failing candidate or problem.
//
// With an evaluation pool (EvalPool.h) a batch of candidates is judged in
// parallel; the baseline is measured on the pool's home device, and
// `retime` times a contender again there, so that the winner is chosen from
// timings of one device.
//
// With screening on, a candidate is timed after its first correctness trial
// and verified in full only when it is fast enough to win: faster than the
// best verified candidate so far (and than the least speedup a winner
// needs), less a margin for the timing's noise. The others come back
// screened (Verdict::screened), their times good for guiding the search.
// Retiming and the sanitizer always run the full protocol.
//
// A speedup far above the baseline's is suspicious: it buys a candidate the
// evaluator's extra correctness trials. Against an upstream lowering that
// every template beats tenfold, an absolute threshold would flag every
// candidate; the judge flags one that is also more than twice as fast as
// the best candidate verified in full so far (which had those trials
// itself when it was suspicious).
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_EVALUATORJUDGE_H
#define STARK_SEARCH_EVALUATORJUDGE_H

#include "stark/Eval/EvalPool.h"
#include "stark/Eval/Worker.h"
#include "stark/Search/Search.h"

#include <vector>

namespace mlir::stark {

/// How the judge runs the references.
struct ReferenceOptions {
  /// Keep the reference outputs in a store and reuse them for every
  /// candidate (off: every evaluation computes its own, as stark-eval does).
  bool reuse = true;
  /// Seconds the problem's own evaluation may take: the reference outputs
  /// of every trial input and the baseline's timing.
  double timeoutSeconds = 600;
};

/// When the judge screens candidates (see above).
struct ScreeningOptions {
  bool enabled = false;
  /// The least speedup over the baseline a winner needs
  /// (SearchTreeOptions::minSpeedup).
  double minSpeedup = 1.05;
  /// A candidate is verified in full when within this fraction of the
  /// speedup it has to beat.
  double margin = 0.05;
};

/// The speedup above which an evaluation runs its extra trials: the
/// configured one (EvalOptions::suspiciousSpeedup), raised to `overBest`
/// times the best speedup verified in full so far.
double getSuspiciousSpeedup(double configured, double bestVerified,
                            double overBest = 2.0);

class EvaluatorJudge : public Judge {
public:
  EvaluatorJudge(std::string problemSource, std::string problemName,
                 EvalOptions options, WorkerOptions worker,
                 ReferenceOptions references = {}, EvalPool *pool = nullptr);
  ~EvaluatorJudge() override;

  /// Evaluates the problem against itself: the baseline time (the root of
  /// the search), and the reference outputs the candidates reuse. Fails
  /// when even the baseline does not run within the reference limit.
  FailureOr<double> measureBaseline(std::string &error);

  /// The allowance a candidate's evaluation gets on top of its own limit
  /// for the baseline it still compiles and times: the wall time of the
  /// problem's own evaluation, which ran the baseline more often.
  double getReferenceAllowance() const { return referenceAllowance; }

  Verdict judge(const Proposal &proposal) override;
  std::vector<Verdict> judgeAll(llvm::ArrayRef<Proposal> proposals) override;
  /// Judges `proposal` again on the pool's home device (without a pool,
  /// as `judge` does).
  Verdict retime(const Proposal &proposal);
  /// Runs `proposal` once more under compute-sanitizer's `tool` (one
  /// correctness trial, untimed, on the home device): a finding fails it.
  Verdict sanitize(const Proposal &proposal, StringRef tool);

  /// Compiles candidates ahead of their evaluation (Precompiler.h): what
  /// prepare() is given is queued there, and a candidate is settled there
  /// before it runs (the pool settles its own jobs). Null: none.
  void setPrecompiler(Precompiler *p) { precompiler = p; }
  bool canPrepare() const override { return precompiler != nullptr; }
  void prepare(llvm::ArrayRef<std::string> payloads) override;

  void setScreening(ScreeningOptions screening) { this->screening = screening; }
  /// The speedup below which a candidate is screened out now; 0 when
  /// screening is off.
  double getScreenBelowSpeedup() const;
  /// The speedup above which a candidate gets the extra trials now.
  double getSuspiciousSpeedup() const;

  /// Every evaluation so far, in order (the baseline first).
  const std::vector<EvalResult> &getResults() const { return results; }
  /// What each of getResults() was, in the same order.
  enum class EvaluationKind { Problem, Candidate, Retime, Sanitizer };
  ArrayRef<EvaluationKind> getKinds() const { return kinds; }

private:
  std::string problemSource, problemName;
  EvalOptions options;
  WorkerOptions worker;
  ReferenceOptions references;
  EvalPool *pool;
  Precompiler *precompiler = nullptr;
  /// The judge's reference store; removed with the judge.
  std::string referenceDir;
  double referenceAllowance = 0;
  double baselineSeconds = 0;
  ScreeningOptions screening;
  /// The speedup of the fastest candidate verified in full so far.
  double bestVerifiedSpeedup = 0;
  std::vector<EvalResult> results;
  std::vector<EvaluationKind> kinds;

  /// The job of a candidate's evaluation; screened when `screen` and
  /// screening is on.
  EvalJob makeJob(const Proposal &proposal, bool screen = false) const;
  Verdict toVerdict(const EvalResult &r);
};

/// The failure of `result` as the debugger reads it: the message, the
/// worst element, the phase and the tail of the worker's log.
std::string describeFailure(const EvalResult &result);

} // namespace mlir::stark

#endif // STARK_SEARCH_EVALUATORJUDGE_H
