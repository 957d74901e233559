//===- ModelPlan.h - Order and budgets of a whole model's search -*- C++
//-*-===//
//
// A model's problems are searched in order of expected gain (the share of
// the model's estimated time times the headroom of the upstream lowering
// over the best known kernel of the problem's class), and the wall-clock
// budget follows the shares: every step's cost is measured on one clock
// (baselines, references, compiles, candidates) and the budgets of the
// problems still to search are planned again from what is left. Problems
// whose turn does not come get the coverage pass: the expert's first pick,
// evaluated once. Pure logic, no MLIR: a fake clock tests it.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_MODELPLAN_H
#define STARK_SEARCH_MODELPLAN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir::stark {

/// What the plan knows of a problem before it is searched.
struct PlanProblem {
  std::string name;
  /// Part of the model's estimated time (the `share` of its ops'
  /// `stark.cost`); 0 when unknown.
  double share = 0;
  /// Roofline time of its ops (their `stark.cost` `time_us`); 0 unknown.
  double rooflineSeconds = 0;
  /// Class of its costliest op (`stark.cost` `op_class`); empty unknown.
  std::string opClass;
  /// The upstream lowering's measured time, where a run already timed it
  /// (`stark.baseline_us`); 0 unknown.
  double baselineSeconds = 0;
  /// Bytes of its arguments (inputs and outputs); 0 unknown. An
  /// evaluation's cost grows with them (inputs made and copied, outputs
  /// compared, references run), so the plan scales what one evaluation of
  /// a problem is expected to cost by them.
  double bytes = 0;
};

/// How close to the roofline the upstream lowering and the best kernels
/// known for a class of ops come on a target (fractions of the roofline).
struct ClassEfficiency {
  double upstream = 1;
  double best = 1;
};

/// The efficiencies of `opClass` on `target` (cpu or cuda): coarse priors
/// that only rank problems; a measured baseline replaces the upstream one.
ClassEfficiency getClassEfficiency(llvm::StringRef target,
                                   llvm::StringRef opClass);

/// The upstream lowering's estimated time over the best known kernel's
/// (at least 1): the measured baseline where there is one, else the
/// class's upstream efficiency, against the class's best efficiency.
double estimateHeadroom(const PlanProblem &problem, llvm::StringRef target);

struct ModelPlanOptions {
  std::string target = "cpu";
  /// The whole run's wall-clock budget; 0: none (every problem is searched
  /// with `maxSeconds` and `maxCandidates`).
  double totalSeconds = 0;
  /// The most one problem's search may take, and its most candidates.
  double maxSeconds = 120;
  int64_t maxCandidates = 12;
  /// Seconds one evaluation is taken to cost before any was measured (plus
  /// evaluationSecondsPerBytePrior per byte). While the measurements are of
  /// one size and cannot tell the fixed part (process starts, compiles) from
  /// the part that grows with the bytes, both parts of the prior are scaled
  /// to them; without a part per byte, the prior is the most the fixed part
  /// is taken to be.
  double evaluationSecondsPrior = 1;
  /// Seconds per byte of a problem's arguments an evaluation is taken to
  /// cost on top of the prior before any was measured: each trial draws,
  /// copies, references and checks every argument. VGG-16's first
  /// classifier layer (411 MB of weight) took about 50 s an evaluation on
  /// the H100 where its 13 MB convolutions took 1.5 s; with the prior alone
  /// it came first by its share, and its search spent a third of the
  /// model's budget before its first candidate.
  double evaluationSecondsPerBytePrior = 5e-8;
  /// A search is started only when its budget pays for the problem's own
  /// evaluation and this many candidates, besides the last evaluation's
  /// overrun; otherwise the problem gets the coverage pass.
  int64_t minCandidates = 1;
  /// Every problem already has its first pick (the searches the time the
  /// coverage pass left pays for): nothing is kept back for coverage.
  bool covered = false;
  /// What a searched problem spends after its search, in evaluations of
  /// that problem: timing its contenders again, running its winner under
  /// compute-sanitizer. Its turn keeps that back from the search, so that
  /// the coverage of the problems after it is not spent.
  double finishEvaluations = 0;
};

/// What running a winner under one compute-sanitizer tool costs, in
/// evaluations of its problem: memcheck and racecheck of LLaMA's 3xTF32
/// GEMM winners took 22-33 s together where an evaluation of the same
/// problem took 6-7 s (H100; bench/results/models/2026-12-06b-h100).
inline constexpr double kSanitizerEvaluations = 2.5;

/// The evaluations a searched turn's wall time paid for, as the plan counts
/// them: each of its `evaluations` once, but its `sanitizerRuns` (among
/// them) at kSanitizerEvaluations each. Counted one each, they made a turn's
/// measured cost of an evaluation too high by what its finish took.
int64_t countEvaluationEquivalents(int64_t evaluations, int64_t sanitizerRuns);

/// What evaluations cost the run, from their estimates: their sum. Each
/// estimate is already a share of wall time as the run spends it (a turn's
/// seconds over its evaluations, judged side by side where the pool has
/// several evaluators; a coverage batch's over its first picks), so that
/// evaluations judged side by side cost their sum and not less.
double getEvaluationsCost(llvm::ArrayRef<double> estimates);

/// One problem's turn: its whole allotment and what its search may use
/// (the allotment less one evaluation, the most the last candidate started
/// within the budget can run over, and less what the search's finish
/// costs, ModelPlanOptions::finishEvaluations).
struct PlanTurn {
  size_t problem = 0;
  double allotment = 0;
  double searchSeconds = 0;
  int64_t candidates = 0;
  /// What the allotment was planned from: the run's elapsed time when the
  /// turn began, the problems then waiting, and the problem's part of the
  /// time beyond their coverage.
  double begun = 0;
  size_t waiting = 0;
  double part = 0;
  /// The problem's position in the plan's order (the problems after it
  /// were waiting when the turn began).
  size_t position = 0;
};

class ModelPlan {
public:
  /// `clock` returns seconds since some fixed point; the run's time counts
  /// from the plan's construction.
  ModelPlan(std::vector<PlanProblem> problems, ModelPlanOptions options,
            std::function<double()> clock);

  /// The problems by expected gain, largest first (ties: the given order).
  llvm::ArrayRef<size_t> getOrder() const { return order; }
  double getHeadroom(size_t problem) const { return headroom[problem]; }
  /// share x headroom (the headroom alone when no problem has a share).
  double getGain(size_t problem) const { return gain[problem]; }
  /// The position of `problem` in the order, from 0.
  size_t getRank(size_t problem) const;

  /// The next problem to search and its budget, re-planned from the time
  /// left; none once the rest get the coverage pass (the time left pays
  /// for no further search) or every problem had its turn. A problem whose
  /// search the time left cannot pay for even alone (its evaluations are
  /// the dearest) is left to the coverage pass, and the next in the order
  /// is planned instead.
  std::optional<PlanTurn> next();
  /// Whether the search of `turn` may start another candidate, `seconds`
  /// and `evaluations` into it: its allotment planned again with the cost
  /// of an evaluation these measurements give (once they include a
  /// candidate's: the first is the baseline's), so that a first estimate
  /// that was too low does not overrun the budget.
  bool mayContinue(const PlanTurn &turn, int64_t evaluations,
                   double seconds) const;
  /// Problems that did not get a turn: those passed over first, then the
  /// rest in plan order.
  std::vector<size_t> getUncovered() const;

  /// `count` evaluations took `seconds` of wall time in all (with the
  /// compiles around them): the estimate of one evaluation's cost
  /// follows the measurements.
  void recordEvaluations(int64_t count, double seconds);
  /// The same, for evaluations of `problem`: with its bytes, they also
  /// tell how the cost grows with a problem's size.
  void recordEvaluations(size_t problem, int64_t count, double seconds);
  /// Seconds one evaluation is expected to cost, over every problem.
  double getEvaluationEstimate() const;
  /// Seconds one evaluation of `problem` is expected to cost: a fixed part
  /// and a part per byte, fitted to the evaluations measured so far and
  /// their problems' bytes (the mean over every problem while sizes are
  /// unknown).
  double getEvaluationEstimate(size_t problem) const;
  /// Seconds kept back for the coverage of the problems still waiting.
  double getCoverageReserve() const;
  double getElapsed() const { return clock() - start; }
  /// The budget left (negative once overrun; infinite without one).
  double getLeft() const;
  const ModelPlanOptions &getOptions() const { return options; }

private:
  /// The turn of the problem at `cursor`, or none: when the time left is
  /// spent (`stopped`), or when no run of the order from it pays for its
  /// search.
  std::optional<PlanTurn> planHead();
  /// The problems waiting for the coverage pass once those before
  /// `position` of the order had their turn: the ones passed over, then the
  /// rest of the order.
  std::vector<size_t> getWaitingFrom(size_t position) const;

  std::vector<PlanProblem> problems;
  ModelPlanOptions options;
  std::function<double()> clock;
  double start = 0;
  std::vector<size_t> order;
  std::vector<double> headroom, gain, weight;
  /// Problems before this position of `order` had their turn or were
  /// passed over (`deferred`, in the order they were).
  size_t cursor = 0;
  std::vector<size_t> deferred;
  /// Set once next() handed the rest to the coverage pass.
  bool stopped = false;
  /// The fixed part and the part per byte of an evaluation's cost.
  struct CostFit {
    double fixed = 0;
    double perByte = 0;
  };
  CostFit fitCost() const;
  /// Seconds a searched `problem` spends after its search
  /// (ModelPlanOptions::finishEvaluations of its evaluations).
  double getFinishCost(size_t problem) const;
  /// Seconds kept back for the coverage of the problems of `order` from
  /// `position` on: one evaluation each (getEvaluationsCost).
  double reserveFrom(size_t position) const;

  int64_t evaluations = 0;
  double evaluationSeconds = 0;
  /// Evaluations of problems of known size: count, seconds, bytes.
  struct Sample {
    double count = 0, seconds = 0, bytes = 0;
  };
  std::vector<Sample> samples;
};

/// What the one evaluation of a problem's first pick gave.
struct FirstPickVerdict {
  /// False when the expert has no candidate for the problem (`reason`).
  bool available = false;
  std::string reason;
  bool passed = false;
  /// The evaluator's status and failure (when not passed).
  std::string status, failure;
  /// Medians of the same evaluation, timed interleaved.
  double candidateSeconds = 0, baselineSeconds = 0;
};

struct CoverageDecision {
  bool keep = false;
  /// Why, for the remark and the report: "1.52x faster than upstream
  /// (1.1 ms -> 723 us)", "first pick slower than upstream: 1.3 ms vs
  /// 1.1 ms", "first pick failed: wrong: ...".
  std::string why;
};

/// Keeps the first pick only when it verified and ran faster than the
/// upstream lowering in the same evaluation.
CoverageDecision decideFirstPick(const FirstPickVerdict &verdict);

} // namespace mlir::stark

#endif // STARK_SEARCH_MODELPLAN_H
