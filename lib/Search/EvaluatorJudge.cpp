//===- EvaluatorJudge.cpp - The search's judge: the real evaluator --------===//

#include "stark/Search/EvaluatorJudge.h"
#include "stark/Eval/Precompiler.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>

using namespace mlir;
using namespace mlir::stark;

EvaluatorJudge::EvaluatorJudge(std::string problemSource,
                               std::string problemName, EvalOptions options,
                               WorkerOptions worker,
                               ReferenceOptions references, EvalPool *pool)
    : problemSource(std::move(problemSource)),
      problemName(std::move(problemName)), options(std::move(options)),
      worker(std::move(worker)), references(references), pool(pool) {}

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
  EvalResult r =
      pool ? pool->evaluateHere({problemSource, problemName, problemSource,
                                 problemName, refOptions, refWorker})
           : evaluateInWorker(problemSource, problemName, problemSource,
                              problemName, refOptions, refWorker);
  double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  results.push_back(r);
  kinds.push_back(EvaluationKind::Problem);
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

double EvaluatorJudge::getScreenBelowSpeedup() const {
  if (!screening.enabled)
    return 0;
  return std::max(screening.minSpeedup, bestVerifiedSpeedup) /
         (1 + screening.margin);
}

double mlir::stark::getSuspiciousSpeedup(double configured, double bestVerified,
                                         double overBest) {
  return std::max(configured, overBest * bestVerified);
}

double EvaluatorJudge::getSuspiciousSpeedup() const {
  return mlir::stark::getSuspiciousSpeedup(options.suspiciousSpeedup,
                                           bestVerifiedSpeedup);
}

EvalJob EvaluatorJudge::makeJob(const Proposal &proposal, bool screen) const {
  EvalJob job{problemSource,    problemName,
              proposal.payload, "candidate-" + proposal.node.strategy,
              options,          worker};
  job.worker.timeoutSeconds += referenceAllowance;
  job.options.suspiciousSpeedup = getSuspiciousSpeedup();
  if (screen)
    job.options.screenBelowSpeedup = getScreenBelowSpeedup();
  return job;
}

void EvaluatorJudge::prepare(llvm::ArrayRef<std::string> payloads) {
  if (!precompiler)
    return;
  for (const std::string &payload : payloads)
    precompiler->enqueue(payload);
}

Verdict EvaluatorJudge::judge(const Proposal &proposal) {
  EvalJob job = makeJob(proposal, /*screen=*/true);
  if (precompiler && !pool)
    precompiler->settle(job.candidateSource);
  EvalResult r = pool ? pool->evaluateAll({job}).front()
                      : evaluateInWorker(job.problemSource, job.problemName,
                                         job.candidateSource, job.candidateName,
                                         job.options, job.worker);
  results.push_back(r);
  kinds.push_back(EvaluationKind::Candidate);
  return toVerdict(r);
}

std::vector<Verdict>
EvaluatorJudge::judgeAll(llvm::ArrayRef<Proposal> proposals) {
  if (!pool)
    return Judge::judgeAll(proposals);
  std::vector<EvalJob> jobs;
  for (const Proposal &proposal : proposals)
    jobs.push_back(makeJob(proposal, /*screen=*/true));
  std::vector<Verdict> verdicts;
  for (EvalResult &r : pool->evaluateAll(std::move(jobs))) {
    verdicts.push_back(toVerdict(r));
    results.push_back(std::move(r));
    kinds.push_back(EvaluationKind::Candidate);
  }
  return verdicts;
}

Verdict EvaluatorJudge::retime(const Proposal &proposal) {
  if (!pool)
    return judge(proposal);
  EvalResult r = pool->evaluateHere(makeJob(proposal));
  results.push_back(r);
  kinds.push_back(EvaluationKind::Retime);
  return toVerdict(r);
}

Verdict EvaluatorJudge::sanitize(const Proposal &proposal, StringRef tool) {
  EvalJob job = makeJob(proposal);
  job.options.sanitizer = tool.str();
  job.options.measureTime = false;
  // The winner was verified; under the tool one trial shows its memory
  // accesses and shared-memory hazards (the values do not change them).
  job.options.correctnessTrials = 1;
  job.options.specialValues = false;
  // Kernels run tens of times slower under the sanitizer.
  job.worker.timeoutSeconds = std::max(10 * job.worker.timeoutSeconds, 300.0);
  EvalResult r = pool ? pool->evaluateHere(job)
                      : evaluateInWorker(job.problemSource, job.problemName,
                                         job.candidateSource, job.candidateName,
                                         job.options, job.worker);
  results.push_back(r);
  kinds.push_back(EvaluationKind::Sanitizer);
  Verdict v;
  v.status = stringifyEvalStatus(r.status).str();
  v.passed = r.isOk();
  if (!v.passed)
    v.failure = describeFailure(r);
  return v;
}

Verdict EvaluatorJudge::toVerdict(const EvalResult &r) {
  Verdict v;
  v.status = stringifyEvalStatus(r.status).str();
  v.screened = r.status == EvalStatus::Slower;
  if (!r.isOk() && !v.screened) {
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
  if (!v.screened)
    bestVerifiedSpeedup = std::max(
        bestVerifiedSpeedup, r.baselineTime->median / r.candidateTime->median);
  return v;
}
