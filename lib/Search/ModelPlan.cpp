//===- ModelPlan.cpp - Order and budgets of a whole model's search --------===//

#include "stark/Search/ModelPlan.h"
#include "stark/Eval/Timing.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace mlir::stark;

#define DEBUG_TYPE "stark-plan"

ClassEfficiency mlir::stark::getClassEfficiency(llvm::StringRef target,
                                                llvm::StringRef opClass) {
  // Fractions of the roofline. On cuda the upstream lowering of a
  // contraction or convolution runs one thread per output element straight
  // from global memory (1-2% of the roofline), while the templates reach
  // about half of it; elementwise ops lose less. On the host the upstream
  // loops are scalar, the schedules tiled and vectorised.
  struct Row {
    llvm::StringRef opClass;
    ClassEfficiency cuda, host;
  };
  static const Row rows[] = {
      {"contraction", {0.01, 0.6}, {0.02, 0.3}},
      {"convolution", {0.01, 0.4}, {0.02, 0.2}},
      {"pooling", {0.05, 0.6}, {0.1, 0.5}},
      {"reduction", {0.02, 0.6}, {0.1, 0.5}},
      {"elementwise", {0.2, 0.8}, {0.3, 0.7}},
  };
  static const Row other = {"", {0.05, 0.5}, {0.1, 0.4}};
  const Row *row =
      llvm::find_if(rows, [&](const Row &r) { return r.opClass == opClass; });
  if (row == std::end(rows))
    row = &other;
  return target == "cuda" ? row->cuda : row->host;
}

double mlir::stark::estimateHeadroom(const PlanProblem &problem,
                                     llvm::StringRef target) {
  ClassEfficiency e = getClassEfficiency(target, problem.opClass);
  double headroom = e.best / e.upstream;
  if (problem.baselineSeconds > 0 && problem.rooflineSeconds > 0)
    headroom = problem.baselineSeconds * e.best / problem.rooflineSeconds;
  return std::max(1.0, headroom);
}

ModelPlan::ModelPlan(std::vector<PlanProblem> problemsIn,
                     ModelPlanOptions optionsIn,
                     std::function<double()> clockIn)
    : problems(std::move(problemsIn)), options(std::move(optionsIn)),
      clock(std::move(clockIn)) {
  start = clock();
  bool shares =
      llvm::any_of(problems, [](const PlanProblem &p) { return p.share > 0; });
  for (const PlanProblem &p : problems) {
    headroom.push_back(estimateHeadroom(p, options.target));
    // Without shares (problems outlined without a ranking) the budget is
    // split evenly and the headroom alone orders them.
    double share = shares ? std::max(0.0, p.share) : 1.0;
    gain.push_back(share * headroom.back());
    weight.push_back(share);
  }
  order.resize(problems.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return gain[a] > gain[b]; });
}

size_t ModelPlan::getRank(size_t problem) const {
  return llvm::find(order, problem) - order.begin();
}

double ModelPlan::getEvaluationEstimate() const {
  return evaluations > 0 ? evaluationSeconds / evaluations
                         : options.evaluationSecondsPrior;
}

void ModelPlan::recordEvaluations(int64_t count, double seconds) {
  if (count <= 0 || !(seconds >= 0))
    return;
  evaluations += count;
  evaluationSeconds += seconds;
}

void ModelPlan::recordEvaluations(size_t problem, int64_t count,
                                  double seconds) {
  recordEvaluations(count, seconds);
  if (count <= 0 || !(seconds >= 0) || problem >= problems.size() ||
      !(problems[problem].bytes > 0))
    return;
  samples.push_back({double(count), seconds, problems[problem].bytes});
}

/// Weighted least squares of seconds per evaluation against bytes over the
/// samples. While their sizes are all about the same, the fixed part is
/// the prior (or the measured mean, if smaller) and the rest is put down
/// to the bytes; neither part is negative.
ModelPlan::CostFit ModelPlan::fitCost() const {
  CostFit fit;
  double n = 0, sy = 0, sb = 0, sbb = 0, syb = 0;
  for (const Sample &s : samples) {
    n += s.count;
    sy += s.seconds;
    sb += s.count * s.bytes;
    sbb += s.count * s.bytes * s.bytes;
    syb += s.seconds * s.bytes;
  }
  if (n <= 0 || sb <= 0)
    return fit;
  double meanY = sy / n, meanB = sb / n;
  double variance = sbb / n - meanB * meanB;
  if (variance > 0.01 * meanB * meanB) {
    fit.perByte = (syb / n - meanB * meanY) / variance;
    fit.fixed = meanY - fit.perByte * meanB;
  } else if (options.evaluationSecondsPerBytePrior > 0) {
    // The prior's two parts, scaled to what was measured: one size alone
    // cannot tell them apart, and putting all but the fixed prior down to
    // the bytes made a 411 MB problem look 30 times dearer than a 13 MB one
    // measured at a few seconds.
    double predicted = options.evaluationSecondsPrior +
                       options.evaluationSecondsPerBytePrior * meanB;
    double scale = predicted > 0 ? meanY / predicted : 0;
    fit.fixed = options.evaluationSecondsPrior * scale;
    fit.perByte = options.evaluationSecondsPerBytePrior * scale;
  } else {
    fit.fixed = std::min(options.evaluationSecondsPrior, meanY);
    fit.perByte = (meanY - fit.fixed) / meanB;
  }
  if (fit.perByte < 0) {
    fit.perByte = 0;
    fit.fixed = meanY;
  }
  if (fit.fixed < 0) {
    fit.fixed = 0;
    fit.perByte = syb / sbb;
  }
  return fit;
}

double ModelPlan::getEvaluationEstimate(size_t problem) const {
  if (problem >= problems.size() || !(problems[problem].bytes > 0))
    return getEvaluationEstimate();
  if (samples.empty())
    return evaluations > 0 ? getEvaluationEstimate()
                           : options.evaluationSecondsPrior +
                                 options.evaluationSecondsPerBytePrior *
                                     problems[problem].bytes;
  CostFit fit = fitCost();
  return fit.fixed + fit.perByte * problems[problem].bytes;
}

int64_t mlir::stark::countEvaluationEquivalents(int64_t evaluations,
                                                int64_t sanitizerRuns) {
  return evaluations + int64_t(std::llround((kSanitizerEvaluations - 1) *
                                            double(sanitizerRuns)));
}

double mlir::stark::getEvaluationsCost(llvm::ArrayRef<double> estimates) {
  return std::accumulate(estimates.begin(), estimates.end(), 0.0);
}

double ModelPlan::reserveFrom(size_t position) const {
  // The estimates are what an evaluation costs the run with its evaluators
  // side by side (measured so): discounting a batch again for judging it
  // side by side kept two thirds of MobileNetV3-small's coverage back with
  // three evaluators (32 s for 48 s), and the run ended 10.6% past
  // total-seconds (bench/results/2026-12-07d-h100).
  if (options.covered)
    return 0;
  std::vector<double> estimates;
  for (size_t problem : getWaitingFrom(position))
    estimates.push_back(getEvaluationEstimate(problem));
  return getEvaluationsCost(estimates);
}

double ModelPlan::getLeft() const {
  if (options.totalSeconds <= 0)
    return std::numeric_limits<double>::infinity();
  return options.totalSeconds - getElapsed();
}

double ModelPlan::getCoverageReserve() const { return reserveFrom(cursor); }

std::vector<size_t> ModelPlan::getWaitingFrom(size_t position) const {
  // The problems passed over wait for the coverage pass too.
  std::vector<size_t> waiting(deferred);
  waiting.insert(waiting.end(),
                 order.begin() + std::min(position, order.size()), order.end());
  return waiting;
}

std::vector<size_t> ModelPlan::getUncovered() const {
  return getWaitingFrom(cursor);
}

std::optional<PlanTurn> ModelPlan::next() {
  while (!stopped && cursor < order.size()) {
    std::optional<PlanTurn> turn = planHead();
    if (stopped)
      break;
    // Planned, or passed over for the coverage pass (the time left pays for
    // no search of it even alone, but may for the smaller ones after it).
    if (!turn)
      deferred.push_back(order[cursor]);
    ++cursor;
    if (turn)
      return turn;
  }
  return std::nullopt;
}

std::optional<PlanTurn> ModelPlan::planHead() {
  size_t head = order[cursor];
  if (options.totalSeconds <= 0)
    return PlanTurn{head, options.maxSeconds, options.maxSeconds,
                    options.maxCandidates};
  // Every problem still waiting costs one evaluation (of its size) if it
  // only gets the coverage pass; a search costs its allotment instead.
  // What is left beyond the coverage of all of them is split by share over
  // the problems to search: the longest run of the order, from its head,
  // in which every allotment pays for a search.
  size_t waiting = order.size() - cursor + deferred.size();
  double pool = getLeft() - reserveFrom(cursor);
  if (pool <= 0) {
    stopped = true;
    return std::nullopt;
  }
  auto minAllotment = [&](size_t problem) {
    return double(2 + options.minCandidates) * getEvaluationEstimate(problem) +
           getFinishCost(problem);
  };
  // A problem searched gives back the coverage evaluation kept for it
  // (none was kept for one already covered).
  auto allotment = [&](size_t problem, double totalWeight) {
    return (options.covered ? 0.0 : getEvaluationEstimate(problem)) +
           pool * weight[problem] / totalWeight;
  };
  for (size_t k = order.size() - cursor; k >= 1; --k) {
    double totalWeight = 0;
    for (size_t i = cursor; i < cursor + k; ++i)
      totalWeight += weight[order[i]];
    if (totalWeight <= 0)
      continue;
    bool fits = true;
    for (size_t i = cursor; i < cursor + k && fits; ++i)
      fits = allotment(order[i], totalWeight) >= minAllotment(order[i]);
    if (!fits)
      continue;
    PlanTurn turn;
    turn.problem = head;
    turn.begun = getElapsed();
    turn.waiting = waiting;
    turn.part = weight[head] / totalWeight;
    turn.position = cursor;
    turn.allotment = std::min(options.maxSeconds, allotment(head, totalWeight));
    double e = getEvaluationEstimate(head);
    // The last candidate started within the search's seconds may run one
    // evaluation past them.
    double finish = getFinishCost(head);
    turn.searchSeconds = std::max(0.0, turn.allotment - e - finish);
    int64_t affordable =
        int64_t(std::floor((turn.allotment - finish - 2 * e) / e));
    turn.candidates =
        std::clamp(affordable, options.minCandidates,
                   std::max(options.minCandidates, options.maxCandidates));
    LLVM_DEBUG({
      CostFit fit = fitCost();
      llvm::dbgs() << llvm::formatv(
          "turn of {0}: {1:f1} s ({2} candidates) of {3:f1} s left, {4:f1} s "
          "kept for the coverage of {5}; an evaluation costs {6:f2} s + "
          "{7:e2} s/byte\n",
          problems[head].name, turn.allotment, turn.candidates, getLeft(),
          reserveFrom(cursor), waiting, fit.fixed, fit.perByte);
    });
    return turn;
  }
  return std::nullopt;
}

bool ModelPlan::mayContinue(const PlanTurn &turn, int64_t count,
                            double seconds) const {
  if (options.totalSeconds <= 0)
    return true;
  // The turn's own evaluations say best what one of its problem costs once
  // a candidate's is among them. The first alone is the baseline's, which
  // also runs the references every later one reuses (the f64 reference of
  // a LLaMA projection: 1.4 s of the 3.9 s its baseline took on the H100):
  // taken for a candidate's, it made the finish kept back (five to eight
  // evaluations) look dear enough to stop the search before its first
  // candidate. Until then the plan's estimate stands.
  bool measured = count > 1;
  double e, reserve;
  if (turn.problem < problems.size() && problems[turn.problem].bytes > 0) {
    // The problems after it keep their estimates.
    e = measured ? seconds / double(count)
                 : getEvaluationEstimate(turn.problem);
    reserve = e + reserveFrom(turn.position + 1);
  } else {
    e = getEvaluationEstimate();
    if (measured)
      e = (evaluationSeconds + seconds) / double(evaluations + count);
    reserve = double(turn.waiting) * e;
  }
  // Problems already covered keep nothing back (ModelPlanOptions::covered).
  if (options.covered)
    reserve = 0;
  double pool = options.totalSeconds - turn.begun - reserve;
  double allotment = std::min(options.maxSeconds,
                              (options.covered ? 0.0 : e) + pool * turn.part);
  return seconds < allotment - e - options.finishEvaluations * e;
}

double ModelPlan::getFinishCost(size_t problem) const {
  return options.finishEvaluations * getEvaluationEstimate(problem);
}

CoverageDecision mlir::stark::decideFirstPick(const FirstPickVerdict &v) {
  if (!v.available)
    return {false, "no first pick: " + v.reason};
  if (!v.passed) {
    llvm::StringRef failure =
        llvm::StringRef(v.failure).take_until([](char c) { return c == '\n'; });
    std::string why = "first pick failed: " + v.status;
    if (!failure.empty() && !failure.starts_with(v.status))
      why += ": " + failure.str();
    else if (!failure.empty())
      why = "first pick failed: " + failure.str();
    return {false, why};
  }
  if (!(v.candidateSeconds > 0) || !(v.baselineSeconds > 0))
    return {false, "first pick failed: verified but not timed"};
  if (!(v.candidateSeconds < v.baselineSeconds))
    return {false, llvm::formatv("first pick slower than upstream: {0} vs {1}",
                                 formatDuration(v.candidateSeconds),
                                 formatDuration(v.baselineSeconds))
                       .str()};
  return {true, llvm::formatv("{0:f2}x faster than upstream ({1} -> {2})",
                              v.baselineSeconds / v.candidateSeconds,
                              formatDuration(v.baselineSeconds),
                              formatDuration(v.candidateSeconds))
                    .str()};
}
