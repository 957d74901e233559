//===- EvaluatorJudge.cpp - The search's judge: the real evaluator --------===//

#include "stark/Search/EvaluatorJudge.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>

using namespace mlir;
using namespace mlir::stark;

EvaluatorJudge::EvaluatorJudge(std::string problemSource,
                               std::string problemName, EvalOptions options,
                               WorkerOptions worker,
                               ReferenceOptions references)
    : problemSource(std::move(problemSource)),
      problemName(std::move(problemName)), options(std::move(options)),
      worker(std::move(worker)), references(references) {}

EvaluatorJudge::~EvaluatorJudge() {
  if (!referenceDir.empty() && !worker.keepFiles)
    llvm::sys::fs::remove_directories(referenceDir, /*IgnoreErrors=*/true);
}

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
  EvalOptions refOptions = options;
  if (references.reuse && referenceDir.empty()) {
    SmallString<256> dir;
    // Without a store every evaluation computes its own references.
    if (!llvm::sys::fs::createUniqueDirectory("stark-references", dir))
      referenceDir = std::string(dir);
  }
  if (!referenceDir.empty()) {
    refOptions.referenceDir = referenceDir;
    refOptions.writeReferences = true;
  }
  WorkerOptions refWorker = worker;
  refWorker.timeoutSeconds = references.timeoutSeconds;
  auto start = std::chrono::steady_clock::now();
  EvalResult r = evaluateInWorker(problemSource, problemName, problemSource,
                                  problemName, refOptions, refWorker);
  double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  results.push_back(r);
  if (!r.isOk() || !r.baselineTime) {
    error = "the baseline itself does not evaluate: " + describeFailure(r);
    return failure();
  }
  baselineSeconds = r.baselineTime->median;
  referenceAllowance = wall;
  // Candidates read the store the problem's evaluation wrote.
  if (!referenceDir.empty())
    options.referenceDir = referenceDir;
  return baselineSeconds;
}

Verdict EvaluatorJudge::judge(const Proposal &proposal) {
  std::string name = "candidate-" + proposal.node.strategy;
  WorkerOptions candidateWorker = worker;
  candidateWorker.timeoutSeconds += referenceAllowance;
  EvalResult r = evaluateInWorker(problemSource, problemName, proposal.payload,
                                  name, options, candidateWorker);
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
