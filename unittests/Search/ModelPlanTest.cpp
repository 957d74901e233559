//===- ModelPlanTest.cpp - Order, budgets and coverage of a model's search ===//

#include "stark/Search/ModelPlan.h"

#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

#include <memory>

using namespace mlir::stark;

namespace {

PlanProblem problem(std::string name, double share, std::string opClass,
                    double rooflineSeconds = 1e-4) {
  PlanProblem p;
  p.name = std::move(name);
  p.share = share;
  p.opClass = std::move(opClass);
  p.rooflineSeconds = rooflineSeconds;
  return p;
}

/// A clock the test moves by hand; the plan and the simulated run share it.
struct FakeClock {
  double now = 0;
  std::function<double()> get() {
    return [this] { return now; };
  }
};

/// Runs a whole model on the fake clock as the driver does: work before the
/// plan's turns (`before` seconds), each turn's search (its own evaluation,
/// then candidates while its seconds and candidate budget last and the plan
/// lets it go on, each evaluation of problem p taking `cost(p)` seconds),
/// then one evaluation per problem whose turn did not come. Returns the
/// problems searched, in turn order.
std::vector<size_t> simulate(ModelPlan &plan, FakeClock &clock,
                             const std::function<double(size_t)> &cost,
                             double before = 0, double finish = 0) {
  clock.now += before;
  std::vector<size_t> searched;
  while (std::optional<PlanTurn> turn = plan.next()) {
    searched.push_back(turn->problem);
    double start = clock.now, evaluation = cost(turn->problem);
    int64_t evaluations = 1;
    clock.now += evaluation; // the problem's own evaluation
    for (int64_t c = 0;
         c < turn->candidates && clock.now - start < turn->searchSeconds &&
         plan.mayContinue(*turn, evaluations, clock.now - start);
         ++c) {
      clock.now += evaluation;
      ++evaluations;
    }
    // After the search: `finish` evaluations' worth of retiming and
    // sanitizer runs.
    clock.now += finish * evaluation;
    plan.recordEvaluations(turn->problem, evaluations, clock.now - start);
  }
  for (size_t k : plan.getUncovered()) {
    clock.now += cost(k);
    plan.recordEvaluations(k, 1, cost(k));
  }
  return searched;
}

std::vector<size_t> simulate(ModelPlan &plan, FakeClock &clock,
                             double evaluation, double before = 0,
                             double finish = 0) {
  return simulate(
      plan, clock, [=](size_t) { return evaluation; }, before, finish);
}

TEST(ModelPlanTest, LargestExpectedGainFirstNotProgramOrder) {
  // In program order: a small matmul, a large elementwise op, the largest
  // convolution, a large matmul. An elementwise op has little headroom
  // over upstream, so its larger share counts for less.
  std::vector<PlanProblem> problems = {
      problem("small_matmul", 0.05, "contraction"),
      problem("elementwise", 0.30, "elementwise"),
      problem("conv", 0.40, "convolution"),
      problem("matmul", 0.25, "contraction")};
  FakeClock clock;
  ModelPlanOptions options;
  options.target = "cuda";
  ModelPlan plan(problems, options, clock.get());
  EXPECT_EQ(std::vector<size_t>(plan.getOrder().begin(), plan.getOrder().end()),
            (std::vector<size_t>{2, 3, 0, 1}));
  EXPECT_GT(plan.getGain(2), plan.getGain(3));
  EXPECT_GT(plan.getHeadroom(3), plan.getHeadroom(1));
  EXPECT_EQ(plan.getRank(1), 3u);
  // Without a total budget every problem is searched, in that order, with
  // the per-problem budgets.
  std::vector<size_t> turns;
  while (std::optional<PlanTurn> turn = plan.next()) {
    turns.push_back(turn->problem);
    EXPECT_EQ(turn->allotment, options.maxSeconds);
    EXPECT_EQ(turn->candidates, options.maxCandidates);
  }
  EXPECT_EQ(turns, (std::vector<size_t>{2, 3, 0, 1}));
  EXPECT_TRUE(plan.getUncovered().empty());
}

TEST(ModelPlanTest, MeasuredBaselineReplacesTheClassPrior) {
  PlanProblem slow = problem("slow", 0.5, "elementwise", 1e-4);
  PlanProblem fast = problem("fast", 0.5, "elementwise", 1e-4);
  // Measured: 100x and 2x the roofline; the best elementwise kernels reach
  // 80% of it on cuda.
  slow.baselineSeconds = 1e-2;
  fast.baselineSeconds = 2e-4;
  EXPECT_DOUBLE_EQ(estimateHeadroom(slow, "cuda"), 80.0);
  EXPECT_DOUBLE_EQ(estimateHeadroom(fast, "cuda"), 1.6);
  FakeClock clock;
  ModelPlanOptions options;
  options.target = "cuda";
  ModelPlan plan({fast, slow}, options, clock.get());
  EXPECT_EQ(plan.getOrder().front(), 1u);
  // A baseline measured faster than the best known kernel leaves no
  // headroom, never less than none.
  PlanProblem done = problem("done", 0.5, "contraction", 1e-4);
  done.baselineSeconds = 1e-4;
  EXPECT_DOUBLE_EQ(estimateHeadroom(done, "cuda"), 1.0);
}

TEST(ModelPlanTest, WithoutSharesTheHeadroomOrdersAndBudgetsAreEven) {
  std::vector<PlanProblem> problems = {problem("a", 0, "elementwise"),
                                       problem("b", 0, "contraction")};
  FakeClock clock;
  ModelPlanOptions options;
  options.totalSeconds = 40;
  ModelPlan plan(problems, options, clock.get());
  EXPECT_EQ(plan.getOrder().front(), 1u);
  std::optional<PlanTurn> first = plan.next();
  ASSERT_TRUE(first);
  // 40 s for two problems at 1 s per evaluation: each gets its coverage
  // evaluation plus half of the remaining 38 s.
  EXPECT_DOUBLE_EQ(first->allotment, 20.0);
  EXPECT_DOUBLE_EQ(first->searchSeconds, 19.0);
  EXPECT_EQ(first->candidates, 12);
}

TEST(ModelPlanTest, BudgetsFollowSharesAndEveryCostCounts) {
  // Work before the turns (reading records, outlining) is on the clock too:
  // the allotments shrink by it.
  std::vector<PlanProblem> problems = {problem("a", 0.6, "contraction"),
                                       problem("b", 0.3, "contraction"),
                                       problem("c", 0.1, "contraction")};
  FakeClock clock;
  ModelPlanOptions options;
  options.totalSeconds = 100;
  options.maxCandidates = 1000;
  options.maxSeconds = 1000;
  ModelPlan plan(problems, options, clock.get());
  clock.now = 10;
  std::optional<PlanTurn> turn = plan.next();
  ASSERT_TRUE(turn);
  EXPECT_EQ(turn->problem, 0u);
  // 90 s left, 3 s of coverage kept for the three: 1 + 87 * 0.6.
  EXPECT_NEAR(turn->allotment, 1 + 87 * 0.6, 1e-9);
  EXPECT_EQ(turn->candidates, int64_t((turn->allotment - 2) / 1));
  // The search used half its allotment: the rest is planned again for the
  // others, by their shares.
  clock.now += turn->allotment / 2;
  plan.recordEvaluations(10, turn->allotment / 2);
  double left = 100 - clock.now;
  double e = turn->allotment / 2 / 10;
  turn = plan.next();
  ASSERT_TRUE(turn);
  EXPECT_EQ(turn->problem, 1u);
  EXPECT_NEAR(turn->allotment, e + (left - 2 * e) * 0.75, 1e-9);
}

TEST(ModelPlanTest, TotalHonouredWithinTenPercentAndLargestFirst) {
  // 40 problems with falling shares; evaluations cost three times what
  // the plan first assumes, so the first turn is planned with too low a
  // cost: it is planned again from its own measurements as it goes, and
  // the later turns from the measured cost.
  std::vector<PlanProblem> problems;
  double sum = 0;
  for (int i = 0; i < 40; ++i)
    sum += 1.0 / (i + 1);
  // Program order is the reverse of the shares'.
  for (int i = 39; i >= 0; --i)
    problems.push_back(
        problem("p" + std::to_string(i), 1.0 / (i + 1) / sum, "contraction"));
  // The coverage of 40 problems alone takes 120 s.
  for (double total : {150.0, 300.0, 600.0, 2000.0}) {
    FakeClock clock;
    ModelPlanOptions options;
    options.totalSeconds = total;
    options.maxCandidates = 100;
    options.maxSeconds = 1000;
    options.evaluationSecondsPrior = 1;
    ModelPlan plan(problems, options, clock.get());
    std::vector<size_t> searched = simulate(plan, clock, 3.0, /*before=*/2);
    EXPECT_LE(clock.now, 1.1 * total) << total;
    // And most of the budget is used.
    EXPECT_GE(clock.now, 0.8 * total) << total;
    ASSERT_FALSE(searched.empty()) << total;
    // The largest shares are searched, first, in order.
    for (size_t k = 0; k < searched.size(); ++k)
      EXPECT_EQ(searched[k], problems.size() - 1 - k) << total;
    // Every other problem is left to the coverage pass, in plan order.
    EXPECT_EQ(searched.size() + plan.getUncovered().size(), problems.size());
  }
}

TEST(ModelPlanTest, ASearchKeepsBackWhatItsFinishCosts) {
  // Each searched problem spends five evaluations after its search
  // (retimes, compute-sanitizer runs): its search stops that much earlier,
  // and a run whose searches all finish so keeps total-seconds.
  std::vector<PlanProblem> problems;
  for (int i = 0; i < 15; ++i)
    problems.push_back(
        problem("p" + std::to_string(i), 1.0 / (i + 1), "contraction"));
  ModelPlanOptions options;
  options.totalSeconds = 150;
  options.maxCandidates = 10;
  options.maxSeconds = 60;
  FakeClock clock;
  ModelPlan without(problems, options, clock.get());
  options.finishEvaluations = 5;
  ModelPlan with(problems, options, clock.get());
  std::optional<PlanTurn> a = without.next(), b = with.next();
  ASSERT_TRUE(a && b);
  // At 1 s an evaluation: the search keeps the last one's overrun and
  // (with a finish) five more evaluations back.
  EXPECT_NEAR(a->searchSeconds, a->allotment - 1, 1e-9);
  EXPECT_NEAR(b->searchSeconds, b->allotment - 6, 1e-9);
  double late = b->allotment - 4;
  EXPECT_TRUE(without.mayContinue(*b, int64_t(late), late));
  EXPECT_FALSE(with.mayContinue(*b, int64_t(late), late));
  FakeClock run;
  ModelPlan plan(problems, options, run.get());
  std::vector<size_t> searched =
      simulate(plan, run, 3.0, /*before=*/0, /*finish=*/5);
  EXPECT_FALSE(searched.empty());
  EXPECT_EQ(searched.size() + plan.getUncovered().size(), problems.size());
  EXPECT_LE(run.now, 1.1 * options.totalSeconds);
}

TEST(ModelPlanTest, ATurnIsPlannedAgainFromItsOwnMeasurements) {
  std::vector<PlanProblem> problems = {problem("a", 0.5, "contraction"),
                                       problem("b", 0.5, "contraction")};
  FakeClock clock;
  ModelPlanOptions options;
  options.totalSeconds = 100;
  ModelPlan plan(problems, options, clock.get());
  std::optional<PlanTurn> turn = plan.next();
  ASSERT_TRUE(turn);
  // Planned at 1 s per evaluation: 1 + 98 / 2 = 50 s, 49 for the search.
  EXPECT_DOUBLE_EQ(turn->allotment, 50.0);
  EXPECT_TRUE(plan.mayContinue(*turn, 1, 1.0));
  EXPECT_TRUE(plan.mayContinue(*turn, 40, 40.0));
  // Measured at 10 s each, the coverage kept back and the overrun are ten
  // times larger: 10 + (100 - 20) / 2 = 50 s, so a search 40 s in (one
  // more evaluation to overrun) stops, one 30 s in goes on.
  EXPECT_FALSE(plan.mayContinue(*turn, 4, 40.0));
  EXPECT_TRUE(plan.mayContinue(*turn, 3, 30.0));
  // Without a total budget nothing is planned again.
  ModelPlanOptions unbounded;
  ModelPlan unplanned(problems, unbounded, clock.get());
  std::optional<PlanTurn> any = unplanned.next();
  ASSERT_TRUE(any);
  EXPECT_TRUE(unplanned.mayContinue(*any, 1000, 1e6));
}

TEST(ModelPlanTest, TheBaselinesEvaluationIsNotTakenForACandidates) {
  // The largest of five problems gets 30% of what is left; its turn is
  // planned at 1 s an evaluation and keeps eight evaluations back for its
  // finish (retimes, sanitizer runs). The baseline's evaluation, with the
  // references, takes 5 s: taken for a candidate's, the finish alone (40 s)
  // would leave the search no time. It says nothing of a candidate's cost,
  // so the search goes on until candidates are measured.
  std::vector<PlanProblem> problems = {problem("big", 0.3, "contraction")};
  for (int i = 0; i < 4; ++i)
    problems.push_back(problem("p" + std::to_string(i), 0.175, "contraction"));
  for (PlanProblem &p : problems)
    p.bytes = 1e6;
  FakeClock clock;
  ModelPlanOptions options;
  options.totalSeconds = 150;
  options.finishEvaluations = 8;
  options.evaluationSecondsPerBytePrior = 0;
  ModelPlan plan(problems, options, clock.get());
  std::optional<PlanTurn> turn = plan.next();
  ASSERT_TRUE(turn);
  ASSERT_EQ(turn->problem, 0u);
  // 1 + (150 - 5) * 0.3 = 44.5 s.
  EXPECT_DOUBLE_EQ(turn->allotment, 44.5);
  EXPECT_TRUE(plan.mayContinue(*turn, 1, 5.0));
  // Candidates at 1 s after it (7 s in, 2.33 s an evaluation): about 45 s
  // planned again, 2.3 s of overrun and 19 s of finish kept back.
  EXPECT_TRUE(plan.mayContinue(*turn, 3, 7.0));
  // Candidates as dear as the baseline (5 s each): the finish no longer
  // fits.
  EXPECT_FALSE(plan.mayContinue(*turn, 3, 15.0));
}

TEST(ModelPlanTest, NoSearchWhenTheBudgetPaysOnlyForCoverage) {
  std::vector<PlanProblem> problems = {problem("a", 0.5, "contraction"),
                                       problem("b", 0.5, "convolution")};
  FakeClock clock;
  ModelPlanOptions options;
  options.totalSeconds = 3; // two coverage evaluations and a little
  ModelPlan plan(problems, options, clock.get());
  EXPECT_FALSE(plan.next());
  EXPECT_EQ(plan.getUncovered(), (std::vector<size_t>{0, 1}));
  EXPECT_DOUBLE_EQ(plan.getCoverageReserve(), 2.0);
  // Once stopped, the plan stays stopped.
  clock.now = -100;
  EXPECT_FALSE(plan.next());
  // Less than the coverage itself: the plan stops at once and every problem
  // is still left to the coverage pass.
  options.totalSeconds = 1;
  ModelPlan spent(problems, options, clock.get());
  EXPECT_FALSE(spent.next());
  EXPECT_EQ(spent.getUncovered(), (std::vector<size_t>{0, 1}));
}

TEST(ModelPlanTest, ProblemsAlreadyCoveredKeepNothingBackForCoverage) {
  // The time the coverage pass left: with the problems covered, the 3 s
  // that paid for their coverage alone above pay for a search.
  std::vector<PlanProblem> problems = {problem("a", 0.5, "contraction"),
                                       problem("b", 0.5, "convolution")};
  FakeClock clock;
  ModelPlanOptions options;
  options.totalSeconds = 3;
  options.covered = true;
  ModelPlan plan(problems, options, clock.get());
  EXPECT_DOUBLE_EQ(plan.getCoverageReserve(), 0.0);
  std::optional<PlanTurn> turn = plan.next();
  ASSERT_TRUE(turn);
  EXPECT_EQ(turn->problem, 0u);
  EXPECT_GE(turn->candidates, options.minCandidates);
  EXPECT_LE(turn->allotment, options.totalSeconds);
  // The same budget without the flag pays for the coverage only.
  options.covered = false;
  ModelPlan uncovered(problems, options, clock.get());
  EXPECT_FALSE(uncovered.next());
}

TEST(ModelPlanTest, EvaluationCostGrowsWithTheProblemsBytes) {
  constexpr double MB = 1e6;
  std::vector<PlanProblem> problems = {problem("big", 0.5, "contraction"),
                                       problem("mid", 0.3, "contraction"),
                                       problem("small", 0.2, "contraction")};
  problems[0].bytes = 60 * MB;
  problems[1].bytes = 30 * MB;
  problems[2].bytes = 10 * MB;
  FakeClock clock;
  ModelPlanOptions options;
  options.totalSeconds = 100;
  options.evaluationSecondsPrior = 1;
  options.evaluationSecondsPerBytePrior = 0.02 / MB;
  ModelPlan plan(problems, options, clock.get());
  // Nothing measured: the prior, and its part per byte.
  EXPECT_DOUBLE_EQ(plan.getEvaluationEstimate(2), 1.0 + 0.2);
  EXPECT_DOUBLE_EQ(plan.getEvaluationEstimate(0), 1.0 + 1.2);
  // One size measured (7 s an evaluation at 60 MB, where the prior said
  // 2.2 s): both of the prior's parts are scaled by 7 / 2.2.
  plan.recordEvaluations(0, 10, 70);
  double scale = 7.0 / 2.2;
  EXPECT_NEAR(plan.getEvaluationEstimate(0), 7.0, 1e-9);
  EXPECT_NEAR(plan.getEvaluationEstimate(1), scale * (1 + 0.6), 1e-9);
  EXPECT_NEAR(plan.getEvaluationEstimate(2), scale * (1 + 0.2), 1e-9);
  // The mean over problems stays what it was measured to be.
  EXPECT_NEAR(plan.getEvaluationEstimate(), 7.0, 1e-9);
  // Without a part per byte in the prior, the prior is the fixed part and
  // the rest grows with the bytes, 0.1 s per MB.
  options.evaluationSecondsPerBytePrior = 0;
  ModelPlan flat(problems, options, clock.get());
  EXPECT_DOUBLE_EQ(flat.getEvaluationEstimate(2), 1.0);
  flat.recordEvaluations(0, 10, 70);
  EXPECT_NEAR(flat.getEvaluationEstimate(1), 1 + 3.0, 1e-9);
  EXPECT_NEAR(flat.getEvaluationEstimate(2), 1 + 1.0, 1e-9);
  // Two sizes: the fit finds both parts (0.5 s + 0.05 s per MB).
  ModelPlan fitted(problems, options, clock.get());
  fitted.recordEvaluations(0, 4, 4 * 3.5);
  fitted.recordEvaluations(2, 4, 4 * 1.0);
  EXPECT_NEAR(fitted.getEvaluationEstimate(1), 0.5 + 30 * 0.05, 1e-9);
  // A problem of unknown size costs the mean.
  std::vector<PlanProblem> unsized = problems;
  unsized[1].bytes = 0;
  ModelPlan mixed(unsized, options, clock.get());
  mixed.recordEvaluations(0, 10, 70);
  EXPECT_NEAR(mixed.getEvaluationEstimate(1), 7.0, 1e-9);
}

TEST(ModelPlanTest, SmallProblemsLeftAfterALargeOneStillGetSearched) {
  // The largest problem comes first and its evaluations cost 12 s; the 14
  // after it are a tenth of its size and cost 1.3 s. Planned with the mean
  // cost, their coverage looks like 14 x 12 s and no second search starts;
  // with costs by size the budget pays for more searches, and the total
  // still holds.
  constexpr double MB = 1e6;
  auto build = [&](bool sized) {
    std::vector<PlanProblem> problems = {problem("big", 0.5, "contraction")};
    problems[0].bytes = sized ? 60 * MB : 0;
    for (int i = 0; i < 14; ++i) {
      problems.push_back(
          problem("p" + std::to_string(i), 0.5 / 14, "contraction"));
      problems.back().bytes = sized ? 6 * MB : 0;
    }
    return problems;
  };
  auto cost = [&](size_t problem) { return problem == 0 ? 12.0 : 1.3; };
  auto run = [&](bool sized, double &elapsed) {
    FakeClock clock;
    ModelPlanOptions options;
    options.totalSeconds = 150;
    options.maxSeconds = 60;
    options.maxCandidates = 4;
    options.evaluationSecondsPrior = 1;
    ModelPlan plan(build(sized), options, clock.get());
    size_t searched = simulate(plan, clock, cost).size();
    elapsed = clock.now;
    return searched;
  };
  double blindElapsed = 0, sizedElapsed = 0;
  size_t blind = run(false, blindElapsed);
  size_t sized = run(true, sizedElapsed);
  EXPECT_EQ(blind, 1u);
  EXPECT_GE(sized, 5u);
  EXPECT_LE(sizedElapsed, 1.1 * 150);
  EXPECT_GE(sizedElapsed, 0.8 * 150);
  // The size-blind plan leaves much of the budget unused.
  EXPECT_GT(sizedElapsed, blindElapsed);
}

TEST(ModelPlanTest, AProblemTooDearToSearchIsCoveredAndTheNextSearched) {
  // The largest problem's evaluations cost 7 s and its search keeps five
  // more back for its finish (sanitizer runs): 56 s, more than the 50 s
  // budget leaves beyond the coverage. It is passed over for the coverage
  // pass; the two small problems after it (1.6 s an evaluation) are still
  // searched, not left to the coverage with it.
  constexpr double MB = 1e6;
  std::vector<PlanProblem> problems = {problem("big", 0.6, "contraction"),
                                       problem("a", 0.2, "contraction"),
                                       problem("b", 0.2, "contraction")};
  problems[0].bytes = 60 * MB;
  problems[1].bytes = problems[2].bytes = 6 * MB;
  auto cost = [](size_t problem) { return problem == 0 ? 7.0 : 1.6; };
  ModelPlanOptions options;
  options.totalSeconds = 50;
  options.maxCandidates = 4;
  options.finishEvaluations = 5;
  FakeClock clock;
  ModelPlan plan(problems, options, clock.get());
  // Costs measured before the turns (as the side-by-side first pass does).
  plan.recordEvaluations(0, 1, cost(0));
  plan.recordEvaluations(1, 1, cost(1));
  ASSERT_NEAR(plan.getEvaluationEstimate(0), 7.0, 1e-9);
  std::optional<PlanTurn> first = plan.next();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->problem, 1u);
  EXPECT_GE(first->candidates, 1);
  // The big problem waits for the coverage pass, and its evaluation is
  // kept back from the searches.
  EXPECT_EQ(plan.getUncovered(), (std::vector<size_t>{0, 2}));
  EXPECT_NEAR(plan.getCoverageReserve(), 7.0 + 1.6, 1e-9);

  FakeClock run;
  ModelPlan whole(problems, options, run.get());
  whole.recordEvaluations(0, 1, cost(0));
  whole.recordEvaluations(1, 1, cost(1));
  std::vector<size_t> searched =
      simulate(whole, run, cost, /*before=*/0, /*finish=*/5);
  EXPECT_EQ(searched, (std::vector<size_t>{1, 2}));
  EXPECT_EQ(whole.getUncovered(), (std::vector<size_t>{0}));
  EXPECT_LE(run.now, 1.1 * options.totalSeconds);
}

TEST(ModelPlanTest, BeforeAnyMeasurementADearProblemByItsBytesIsCovered) {
  // VGG-16 at batch 1: its first classifier layer (411 MB of weight) has
  // the largest share of the upstream time, its evaluations cost 50 s,
  // those of the convolutions (13 MB) 1.5 s. Nothing is measured before the
  // first turn. With the prior alone the classifier's search came first and
  // spent a third of the budget before its first candidate; with its part
  // per byte the classifier waits for the coverage pass and the
  // convolutions are searched.
  constexpr double MB = 1e6;
  std::vector<PlanProblem> problems = {
      problem("classifier", 0.31, "contraction")};
  for (int i = 0; i < 9; ++i) {
    problems.push_back(
        problem("conv" + std::to_string(i), 0.07, "convolution"));
    problems.back().bytes = 13 * MB;
  }
  problems[0].bytes = 411 * MB;
  auto cost = [](size_t p) { return p == 0 ? 50.0 : 1.5; };
  ModelPlanOptions options;
  options.target = "cuda";
  options.totalSeconds = 150;
  options.maxCandidates = 4;
  options.finishEvaluations = 5;

  FakeClock clock;
  ModelPlan plan(problems, options, clock.get());
  EXPECT_EQ(plan.getOrder().front(), 0u); // the largest expected gain
  EXPECT_NEAR(plan.getEvaluationEstimate(0), 1 + 411 * MB * 5e-8, 1e-9);
  std::optional<PlanTurn> turn = plan.next();
  ASSERT_TRUE(turn);
  EXPECT_NE(turn->problem, 0u);
  EXPECT_GE(turn->candidates, 1);
  EXPECT_TRUE(llvm::is_contained(plan.getUncovered(), 0u));

  FakeClock run;
  ModelPlan whole(problems, options, run.get());
  std::vector<size_t> searched = simulate(whole, run, cost, 0, 5);
  ASSERT_FALSE(searched.empty());
  EXPECT_FALSE(llvm::is_contained(searched, 0u));
  EXPECT_LE(run.now, 1.1 * options.totalSeconds);

  // The same run with the prior alone: the classifier's turn comes first.
  FakeClock old;
  options.evaluationSecondsPerBytePrior = 0;
  ModelPlan flat(problems, options, old.get());
  std::vector<size_t> first = simulate(flat, old, cost, 0, 5);
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first.front(), 0u);
}

TEST(ModelPlanTest, SanitizerRunsCountAsTheEvaluationsTheyCost) {
  // Ten evaluations of which two ran the winner under compute-sanitizer:
  // the turn's seconds paid for 8 + 2 x 2.5.
  EXPECT_EQ(countEvaluationEquivalents(10, 2), 13);
  EXPECT_EQ(countEvaluationEquivalents(10, 0), 10);
  // One sanitizer run: 1.5 more, rounded.
  EXPECT_EQ(countEvaluationEquivalents(4, 1), 6);
}

TEST(ModelPlanTest, CoverageKeepsBackTheMeasuredCostOfEachFirstPick) {
  // A turn's seconds over its evaluations is what an evaluation costs the
  // run, evaluators side by side included: three evaluators judged 12
  // candidates in 6 s of wall time, 0.5 s each. The coverage of the two
  // problems after it keeps back 0.5 s each, not less for judging them
  // side by side again (that kept two thirds of MobileNetV3-small's
  // coverage back, 32 s for 48 s).
  std::vector<PlanProblem> problems = {problem("a", 0.4, "contraction"),
                                       problem("b", 0.3, "contraction"),
                                       problem("c", 0.3, "contraction")};
  for (PlanProblem &p : problems)
    p.bytes = 1 << 20;
  FakeClock clock;
  ModelPlanOptions options;
  options.totalSeconds = 30;
  options.evaluationSecondsPerBytePrior = 0;
  ModelPlan plan(problems, options, clock.get());
  // Before any measurement: the prior, 1 s each.
  EXPECT_DOUBLE_EQ(plan.getCoverageReserve(), 3.0);
  std::optional<PlanTurn> turn = plan.next();
  ASSERT_TRUE(turn);
  EXPECT_EQ(turn->problem, 0u);
  clock.now = 6;
  plan.recordEvaluations(turn->problem, 12, 6.0);
  EXPECT_DOUBLE_EQ(plan.getCoverageReserve(), 2 * 0.5);
  // A batch of first picks costs the sum of its estimates.
  EXPECT_DOUBLE_EQ(getEvaluationsCost({0.5, 0.5, 1.0}), 2.0);
  EXPECT_DOUBLE_EQ(getEvaluationsCost({}), 0.0);
}

TEST(ModelPlanTest, FirstPickKeptOnlyWhenVerifiedAndFaster) {
  FirstPickVerdict faster;
  faster.available = faster.passed = true;
  faster.status = "ok";
  faster.candidateSeconds = 0.5e-3;
  faster.baselineSeconds = 1.0e-3;
  CoverageDecision kept = decideFirstPick(faster);
  EXPECT_TRUE(kept.keep);
  EXPECT_EQ(kept.why, "2.00x faster than upstream (1 ms -> 500 us)");

  FirstPickVerdict slower = faster;
  slower.candidateSeconds = 1.3e-3;
  slower.baselineSeconds = 1.1e-3;
  CoverageDecision upstream = decideFirstPick(slower);
  EXPECT_FALSE(upstream.keep);
  EXPECT_EQ(upstream.why, "first pick slower than upstream: 1.3 ms vs 1.1 ms");

  FirstPickVerdict wrong;
  wrong.available = true;
  wrong.status = "wrong";
  wrong.failure = "wrong: max abs error 3 at [1, 2]\nphase: check";
  CoverageDecision failed = decideFirstPick(wrong);
  EXPECT_FALSE(failed.keep);
  EXPECT_EQ(failed.why, "first pick failed: wrong: max abs error 3 at [1, 2]");

  FirstPickVerdict none;
  none.reason = "no strategy applies (softmax rows too long)";
  EXPECT_FALSE(decideFirstPick(none).keep);
  EXPECT_EQ(decideFirstPick(none).why,
            "no first pick: no strategy applies (softmax rows too long)");
}

} // namespace
