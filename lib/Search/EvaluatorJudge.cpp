//===- EvaluatorJudge.cpp - The search's judge: the real evaluator --------===//

#include "stark/Search/EvaluatorJudge.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

EvaluatorJudge::EvaluatorJudge(std::string problemSource,
                               std::string problemName, EvalOptions options,
                               WorkerOptions worker)
    : problemSource(std::move(problemSource)),
      problemName(std::move(problemName)), options(std::move(options)),
      worker(std::move(worker)) {}

std::string mlir::stark::describeFailure(const EvalResult &result) {
  std::string text = stringifyEvalStatus(result.status).str();
  if (!result.message.empty())
    text += ": " + result.message;
  // The message already names the worst element of a wrong result.
  if (!result.phase.empty())
    text += "\nphase: " + result.phase;
  if (!result.logTail.empty())
    text += "\nlog tail:\n" + result.logTail;
  return text;
}

FailureOr<double> EvaluatorJudge::measureBaseline(std::string &error) {
  EvalResult r = evaluateInWorker(problemSource, problemName, problemSource,
                                  problemName, options, worker);
  results.push_back(r);
  if (!r.isOk() || !r.baselineTime) {
    error = "the baseline itself does not evaluate: " + describeFailure(r);
    return failure();
  }
  baselineSeconds = r.baselineTime->median;
  return baselineSeconds;
}

Verdict EvaluatorJudge::judge(const Proposal &proposal) {
  std::string name = "candidate-" + proposal.node.strategy;
  EvalResult r = evaluateInWorker(problemSource, problemName, proposal.payload,
                                  name, options, worker);
  results.push_back(r);
  Verdict v;
  v.status = stringifyEvalStatus(r.status).str();
  if (!r.isOk()) {
    v.failure = describeFailure(r);
    return v;
  }
  if (!r.candidateTime || !r.baselineTime || r.baselineTime->median <= 0) {
    v.status = "error";
    v.failure = "verified but not timed";
    return v;
  }
  v.passed = true;
  // Interleaved speedup of this evaluation, applied to the root's time.
  v.seconds =
      baselineSeconds * r.candidateTime->median / r.baselineTime->median;
  return v;
}
