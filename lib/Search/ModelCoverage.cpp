//===- ModelCoverage.cpp - First picks where no search ran ----------------===//
//
// The coverage pass of a model's search: every problem whose turn did not
// come, or whose search tried no candidate, gets the expert's first pick,
// evaluated once (side by side where the pool has executors) and kept when
// it verified and ran faster than upstream; a pick that fails is followed
// by another family's, once (kCoverPicks).
//
//===----------------------------------------------------------------------===//

#include "ModelSearchInternal.h"
#include "stark/Eval/Precompiler.h"
#include "stark/Eval/Timing.h"
#include "stark/Search/Report.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "stark-model-search"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::modelsearch;

/// Picks the coverage pass evaluates for one problem at most: a first pick
/// that fails its evaluation (does not compile, crashes, computes wrong
/// results, times out) is followed by the first pick of another family,
/// so that one family's fault does not leave its op upstream.
static constexpr size_t kCoverPicks = 2;

ModelSearch::CoverItem ModelSearch::buildCoverItem(size_t index, size_t rank,
                                                   std::string why) {
  CoverItem item{index, rank, std::move(why), {}, std::nullopt};
  EvalJob job;
  item.pick = buildFirstPick(entries[index].problem, hw, options.problem, job);
  if (item.pick.verdict.available)
    item.job = std::move(job);
  return item;
}

std::vector<EvalResult>
ModelSearch::evaluateCoverJobs(ArrayRef<CoverItem *> items) {
  EvalPool *pool = options.problem.pool;
  std::vector<EvalResult> results;
  if (items.size() > 1 && pool) {
    progressLine(llvm::formatv("stark-search: {0} first picks judged at once",
                               items.size()));
    std::vector<EvalJob> jobs;
    for (const CoverItem *item : items)
      jobs.push_back(*item->job);
    return pool->evaluateAll(jobs);
  }
  for (const CoverItem *item : items) {
    const EvalJob &job = *item->job;
    results.push_back(
        pool ? pool->evaluateHere(job)
             : evaluateInWorker(job.problemSource, job.problemName,
                                job.candidateSource, job.candidateName,
                                job.options, job.worker));
  }
  return results;
}

bool ModelSearch::pickAgain(CoverItem &item) {
  const FirstPickVerdict &v = item.pick.verdict;
  SearchNode failed = item.pick.node;
  failed.state = NodeState::Failed;
  failed.status = v.status;
  failed.failure = v.failure;
  std::vector<SearchNode> failedPicks = item.failedPicks;
  failedPicks.push_back(failed);
  EvalJob job;
  FirstPickResult next = buildFirstPick(entries[item.index].problem, hw,
                                        options.problem, job, failedPicks);
  if (!next.verdict.available)
    return false;
  progressLine(llvm::formatv(
      "stark-search: [{0}/{1}] {2}: first pick {3} failed ({4}); trying {5} "
      "{6}",
      item.rank + 1, planned, entries[item.index].label, failed.strategy,
      v.status, next.node.strategy, joinParams(next.node.params)));
  item.failedPicks = std::move(failedPicks);
  item.pick = std::move(next);
  item.job = std::move(job);
  return true;
}

void ModelSearch::cover(MutableArrayRef<CoverItem> items, ModelPlan &plan) {
  std::vector<CoverItem *> round;
  for (CoverItem &item : items)
    if (item.job)
      round.push_back(&item);
  double limit = kTotalSecondsSlack * options.totalSeconds;
  while (!round.empty()) {
    auto start = Clock::now();
    std::vector<EvalResult> results = evaluateCoverJobs(round);
    // The evaluations ran side by side: each costs the run its part of
    // their wall time.
    double spent = secondsSince(start) / double(round.size());
    std::vector<CoverItem *> again;
    for (auto [item, result] : llvm::zip_equal(round, results)) {
      size_t planIndex = entries[item->index].planIndex;
      judgeFirstPick(entries[item->index].problem, result, item->pick);
      plan.recordEvaluations(planIndex, 1, spent);
      item->seconds += spent;
      // A failed pick (not one slower than upstream) is followed by the
      // next family's, within total-seconds and its 10%; not where the
      // evaluation itself could not run (status error: the problem or the
      // target), which another pick would meet again.
      const FirstPickVerdict &verdict = item->pick.verdict;
      bool failed = !verdict.passed && verdict.status != "error";
      bool timeLeft =
          options.totalSeconds <= 0 ||
          plan.getElapsed() + plan.getEvaluationEstimate(planIndex) <= limit;
      bool capped = item->failedPicks.size() + 1 >= kCoverPicks;
      LLVM_DEBUG(if (failed && (!timeLeft || capped)) llvm::dbgs()
                 << entries[item->index].label << ": no other pick after "
                 << item->pick.node.strategy << " failed (" << verdict.status
                 << "): " << (capped ? "the picks are spent" : "no time left")
                 << "\n");
      if (failed && timeLeft && !capped && pickAgain(*item))
        again.push_back(item);
    }
    round = std::move(again);
  }
  for (CoverItem &item : items)
    recordFirstPick(item);
}

void ModelSearch::recordFirstPick(CoverItem &item) {
  Entry &e = entries[item.index];
  size_t rank = item.rank;
  StringRef why = item.why;
  FirstPickResult &pick = item.pick;
  CoverageDecision decision = decideFirstPick(pick.verdict);
  const FirstPickVerdict &v = pick.verdict;
  // "gemm_skinny failed (wrong); ": the picks that came before this one.
  std::string before;
  for (const SearchNode &failed : item.failedPicks)
    before +=
        llvm::formatv("{0} failed ({1}); ", failed.strategy, failed.status)
            .str();
  progressLine(llvm::formatv(
      "stark-search: [{0}/{1}] {2}: {3}: {4}{5}", rank + 1, planned, e.label,
      decision.keep ? "first pick" : "upstream", before, decision.why));
  e.report["seconds"] = item.seconds;
  e.report["budget_seconds"] = 0.0;
  e.report["skipped"] = why.str();
  if (v.available) {
    out.candidates += int64_t(item.failedPicks.size()) + 1;
    // The entry reads like a search of one candidate per pick: the root,
    // the failed picks and the last pick, its winner when kept.
    SearchNode root;
    root.strategy = "baseline";
    root.author = "baseline";
    root.state = NodeState::Passed;
    root.status = "ok";
    root.seconds = v.baselineSeconds;
    root.speedup = 1;
    llvm::json::Array nodes;
    llvm::json::Array failedJSON;
    for (const SearchNode &failed : item.failedPicks) {
      root.children.push_back(failed.id);
      nodes.push_back(nodeToJSON(failed));
      failedJSON.push_back(llvm::json::Object{{"strategy", failed.strategy},
                                              {"status", failed.status},
                                              {"failure", failed.failure}});
    }
    SearchNode &node = pick.node;
    e.judged = item.failedPicks;
    e.judged.push_back(node);
    root.children.push_back(node.id);
    node.status = v.status;
    node.state = v.passed ? NodeState::Passed : NodeState::Failed;
    node.failure = v.failure;
    if (v.passed) {
      node.seconds = v.candidateSeconds;
      node.speedup = v.baselineSeconds / v.candidateSeconds;
      e.report["baseline_seconds"] = v.baselineSeconds;
      e.problem->setAttr(kBaselineAttrName,
                         FloatAttr::get(Float64Type::get(module.getContext()),
                                        v.baselineSeconds * 1e6));
    }
    nodes.insert(nodes.begin(), nodeToJSON(root));
    nodes.push_back(nodeToJSON(node));
    e.report["candidates"] = int64_t(item.failedPicks.size()) + 1;
    e.report["nodes"] = std::move(nodes);
    bool kept = decision.keep && pick.module;
    e.report["winner"] = kept ? llvm::json::Value(node.id) : nullptr;
    llvm::json::Object first{{"id", node.id},
                             {"strategy", node.strategy},
                             {"params", paramsToJSON(node.params)},
                             {"status", v.status},
                             {"kept", kept}};
    if (v.passed) {
      first["seconds"] = v.candidateSeconds;
      first["speedup"] = node.speedup;
    }
    if (!failedJSON.empty())
      first["failed_before"] = std::move(failedJSON);
    e.report["first_pick"] = std::move(first);
    if (kept) {
      installWinner(e, std::move(pick.module), node, v.baselineSeconds);
      finish(e, "first pick",
             why + "; " + before + decision.why + ": " + node.strategy + " " +
                 joinParams(node.params));
      return;
    }
    if (decision.keep)
      decision.why = "the first pick does not parse back";
  }
  finish(e, "upstream", why + "; " + before + decision.why);
}

/// The problems whose turn did not come: their first picks judged (side by
/// side with several evaluators) while total-seconds allows, in the plan's
/// order; `turns` counts on from the searched ones.
void ModelSearch::coverRemaining(ModelPlan &plan, ArrayRef<size_t> open,
                                 size_t &turns) {
  std::vector<size_t> uncovered = plan.getUncovered();
  double left = std::max(0.0, plan.getLeft());
  bool spent = left <= plan.getCoverageReserve();
  std::string state =
      llvm::formatv("{0:f1} s of {1:f1} left for {2} problem(s), about "
                    "{3:f2} s per evaluation",
                    left, options.totalSeconds, uncovered.size(),
                    plan.getEvaluationEstimate())
          .str();
  bool shares = llvm::any_of(
      open, [&](size_t index) { return entries[index].plan.share > 0; });
  auto reasonFor = [&](size_t k) {
    if (shares && !(entries[open[k]].plan.share > 0))
      return std::string(
          "no share of the model's estimated time (no stark.cost)");
    if (spent)
      return "budget spent (" + state + ")";
    return "its share of the budget left pays for no search (" + state + ")";
  };
  // With several evaluators the first picks are judged side by side, as
  // many at once as the pool has executors (a batch costs the sum of its
  // estimates, getEvaluationsCost).
  EvalPool *pool = options.problem.pool;
  size_t width = pool && pool->size() > 1 ? pool->size() : 1;
  double limit = kTotalSecondsSlack * options.totalSeconds;
  // First picks built before their batch, to be compiled ahead.
  std::map<size_t, CoverItem> ahead;
  auto takeItem = [&](size_t index, std::string why) {
    auto it = ahead.find(index);
    if (it == ahead.end())
      return buildCoverItem(index, turns++, std::move(why));
    CoverItem item = std::move(it->second);
    ahead.erase(it);
    item.rank = turns++;
    item.why = std::move(why);
    return item;
  };
  for (size_t next = 0; next < uncovered.size();) {
    std::vector<CoverItem> batch;
    std::vector<double> estimates; // of the batch's first picks
    while (next < uncovered.size() && estimates.size() < width) {
      size_t k = uncovered[next++];
      std::string why = reasonFor(k);
      estimates.push_back(plan.getEvaluationEstimate(k));
      double cost = getEvaluationsCost(estimates);
      estimates.pop_back();
      // total-seconds is kept to within 10%: a first pick that would end
      // past that is not evaluated.
      if (options.totalSeconds > 0 && plan.getElapsed() + cost > limit) {
        if (!batch.empty()) {
          // Judged after the batch before it, so that the decisions come
          // in the plan's order.
          --next;
          break;
        }
        Entry &e = entries[open[k]];
        std::string late =
            llvm::formatv("{0}; no time left for its first pick ({1:f1} s "
                          "spent of the {2:f1} s that total-seconds allows "
                          "with its 10%)",
                          why, plan.getElapsed(), limit)
                .str();
        progressLine(llvm::formatv("stark-search: [{0}/{1}] {2}: upstream: {3}",
                                   turns + 1, planned, e.label, late));
        e.report["budget_seconds"] = 0.0;
        e.report["skipped"] = why;
        ++turns;
        finish(e, "upstream", late);
        continue;
      }
      batch.push_back(takeItem(open[k], std::move(why)));
      if (batch.back().job)
        estimates.push_back(plan.getEvaluationEstimate(k));
    }
    // The next two batches' first picks compile on the idle host cores
    // while this one is judged.
    if (Precompiler *precompiler = options.problem.precompiler)
      for (size_t j = next; j < uncovered.size() && j < next + 2 * width; ++j) {
        size_t index = open[uncovered[j]];
        auto it = ahead.find(index);
        if (it == ahead.end())
          it = ahead.emplace(index, buildCoverItem(index, 0, "")).first;
        if (it->second.job)
          precompiler->enqueue(it->second.job->candidateSource);
      }
    if (!batch.empty())
      cover(batch, plan);
  }
}
