//===- ModelSearch.cpp - The search of a whole model's problems -----------===//

#include "stark/Search/ModelSearch.h"
#include "ModelSearchInternal.h"
#include "stark/Analysis/ElidedWeights.h"
#include "stark/Dialect/TypedParams.h"
#include "stark/Eval/Timing.h"
#include "stark/Problem/FusionGroup.h"
#include "stark/Search/ModelPlan.h"
#include "stark/Search/Report.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#define DEBUG_TYPE "stark-model-search"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::modelsearch;

RecordedWinners::~RecordedWinners() = default;

namespace {

/// Bytes of the arguments of the problem's entry function (0 when a type
/// has no static size).
double getArgumentBytes(ModuleOp problem, StringRef entry) {
  auto fn = problem.lookupSymbol<func::FuncOp>(entry);
  if (!fn)
    return 0;
  double bytes = 0;
  for (Type type : fn.getArgumentTypes()) {
    auto shaped = dyn_cast<MemRefType>(type);
    if (!shaped || !shaped.hasStaticShape() ||
        !shaped.getElementType().isIntOrFloat())
      return 0;
    bytes += double(shaped.getNumElements()) *
             double(shaped.getElementTypeBitWidth()) / 8;
  }
  return bytes;
}

} // namespace

/// How many times the program runs a problem whose ops are `ops`: the ops
/// that feed one another (a fused chain, a contraction and its fill) are
/// one run, each group apart another. Two runs of a chain of the same
/// problem where one feeds the other directly count as one.
static int64_t countRuns(ArrayRef<Operation *> ops) {
  llvm::EquivalenceClasses<Operation *> groups;
  for (Operation *op : ops)
    groups.insert(op);
  for (Operation *op : ops)
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && groups.contains(def))
        groups.unionSets(op, def);
  return groups.getNumClasses();
}

void ModelSearch::collect() {
  for (auto nested : module.getOps<ModuleOp>()) {
    if (!nested->hasAttr(kProblemAttrName) || !nested.getSymNameAttr() ||
        nested->hasAttr(kWinnerAttrName) || nested->hasAttr(kBaselineAttrName))
      continue;
    std::string error;
    FailureOr<ProblemAttr> info = getProblemAttr(nested, error);
    if (failed(info))
      continue;
    Entry e;
    e.problem = nested;
    e.info = *info;
    e.symbol = nested.getSymNameAttr();
    e.ops = getOpsOfProblem(module, e.symbol);
    e.alone = e.ops.empty();
    if (e.alone)
      e.ops = getOpsOfProblem(module, e.symbol, kUnfusedProblemAttrName);
    e.label = llvm::formatv("{0} {1}", e.info.getOp(), e.info.getShapes());
    e.plan.name = e.symbol.getValue().str();
    e.plan.bytes = getArgumentBytes(nested, e.info.getEntry());
    double costliest = -1;
    for (Operation *op : e.ops)
      if (auto cost = op->getAttrOfType<CostAttr>(kCostAttrName)) {
        double us = cost.getTimeUs().convertToDouble();
        e.plan.share += cost.getShare().convertToDouble();
        e.plan.rooflineSeconds += us * 1e-6;
        if (us > costliest) {
          costliest = us;
          e.plan.opClass = cost.getOpClass().str();
        }
      }
    e.report = llvm::json::Object{{"problem", e.symbol.getValue()},
                                  {"op", e.info.getOp()},
                                  {"shapes", e.info.getShapes()},
                                  {"signature", e.info.getSignature()}};
    entries.push_back(std::move(e));
  }
}

void ModelSearch::remark(Entry &e, const Twine &message) {
  std::string text =
      ((e.alone ? "alone as @" + e.symbol.getValue() + ": " : Twine()) +
       message)
          .str();
  for (Operation *op : e.ops)
    out.remarks.emplace_back(op, text);
  if (e.ops.empty())
    out.remarks.emplace_back(e.problem, message.str());
}

void ModelSearch::finish(Entry &e, StringRef outcome, const Twine &why) {
  e.outcome = outcome.str();
  e.report["outcome"] = e.outcome;
  e.report["why"] = why.str();
  remark(e, "stark-search: " + outcome + ": " + why);
}

void ModelSearch::installWinner(Entry &e, OwningOpRef<ModuleOp> winner,
                                const SearchNode &node,
                                double baselineSeconds) {
  MLIRContext *ctx = module.getContext();
  Builder b(ctx);
  winner->setSymNameAttr(b.getStringAttr("winner"));
  e.problem.getBody()->push_back(winner.release());
  e.problem->setAttr(
      kWinnerAttrName,
      WinnerAttr::get(ctx, APFloat(baselineSeconds * 1e6), node.id,
                      /*chip=*/"", getTypedParamsAttr(ctx, node.params),
                      APFloat(node.speedup), node.strategy, target,
                      APFloat(node.seconds * 1e6)));
  e.winner = true;
  e.speedup = node.speedup;
  ++out.winners;
}

/// With an evaluation pool, searches the problems side by side, as many at
/// once as the pool has evaluators, in the plan's order; the turns then
/// take their results, so the output, the remarks and the tuning records
/// do not depend on which search ends first.
void ModelSearch::searchSideBySide(const ModelPlan &plan,
                                   ArrayRef<size_t> open) {
  EvalPool *pool = options.problem.pool;
  if (!options.sideBySide || !pool || pool->size() < 2 ||
      options.totalSeconds > 0 || open.size() < 2 ||
      !module.getContext()->isMultithreadingEnabled())
    return;
  struct Job {
    size_t index;
    ProblemSearchOptions options;
    std::string problemText;
    ProblemSearchResult result;
  };
  std::vector<Job> jobs;
  for (size_t k : plan.getOrder()) {
    size_t index = open[k];
    ProblemSearchOptions jobOptions = options.problem;
    if (options.records)
      jobOptions.seeds = options.records->getSeeds(entries[index].info);
    std::string text;
    llvm::raw_string_ostream os(text);
    entries[index].problem->print(os);
    jobs.push_back({index, std::move(jobOptions), std::move(text), {}});
  }
  if (jobs.size() < 2)
    return;
  // Each thread searches in a context of its own. Building and lowering a
  // candidate loads dialects and appends registries and pass dependencies,
  // which a context shared by threads does not allow (side-by-side searches
  // on cuda crashed so). Problems go to the threads as text; the winners
  // come back as their payloads, parsed into the module's context below.
  MLIRContext *ctx = module.getContext();
  DialectRegistry registry;
  ctx->getDialectRegistry().appendTo(registry);
  std::mutex mutex;
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < jobs.size(); i = next++) {
      Job &job = jobs[i];
      const Entry &e = entries[job.index];
      auto onProgress = [&](const SearchProgress &p) {
        if (!options.progress)
          return;
        std::lock_guard<std::mutex> guard(mutex);
        llvm::errs() << llvm::formatv(
            "stark-search: [{0}/{1}] {2}: candidate {3}/{4}, best {5:f2}x\n",
            i + 1, jobs.size(), e.label, p.candidatesTried, job.options.budget,
            p.bestSpeedup);
      };
      MLIRContext local(MLIRContext::Threading::DISABLED);
      local.appendDialectRegistry(registry);
      OwningOpRef<ModuleOp> problem =
          parseSourceString<ModuleOp>(job.problemText, &local);
      if (!problem) {
        job.result.status = ProblemSearchStatus::Error;
        job.result.message = "the problem does not parse back in its "
                             "search's own context";
        continue;
      }
      job.result = searchProblem(*problem, hw, job.options, onProgress);
      job.result.winner = nullptr; // parsed again in the module's context
    }
  };
  std::vector<std::thread> threads;
  unsigned parallel = std::min<size_t>(pool->size(), jobs.size());
  for (unsigned t = 0; t < parallel; ++t)
    threads.emplace_back(work);
  for (std::thread &t : threads)
    t.join();
  for (Job &job : jobs) {
    ProblemSearchResult &r = job.result;
    if (r.search && r.search->winner)
      r.winner = parseSourceString<ModuleOp>(
          r.search->payloads[*r.search->winner], ctx);
    presearched[job.index] = std::move(r);
  }
}

/// Why a search that ran found no winner, for the remark and the report.
static std::string describeNoWinner(const ProblemSearchResult &result,
                                    double minSpeedup) {
  const SearchResult &search = *result.search;
  int64_t failedCount = 0;
  for (int64_t id = 1; id < search.tree.size(); ++id)
    failedCount += search.tree.node(id).state == NodeState::Failed;
  std::string why =
      llvm::formatv("no verified candidate beat the baseline by "
                    "{3:f2}x ({0} tried, {1} failed, stopped on {2})",
                    search.candidatesTried, failedCount, search.stopReason,
                    minSpeedup)
          .str();
  if (search.candidatesTried == 0 && !result.lastBuildError.empty())
    why += "; no candidate could be built: " + result.lastBuildError;
  return why;
}

LogicalResult ModelSearch::searchTurn(size_t index, const PlanTurn &turn,
                                      size_t rank, ModelPlan &plan) {
  Entry &e = entries[index];
  size_t count = planned;
  std::string line = llvm::formatv("stark-search: [{0}/{1}] {2}: {3} op(s)",
                                   rank + 1, count, e.label, e.ops.size());
  if (e.plan.share > 0 && e.plan.share <= 1)
    line += llvm::formatv(", {0:f1}% of the model's estimated time",
                          100 * e.plan.share)
                .str();
  line += llvm::formatv(", {0:f1} s budget", turn.allotment).str();
  progressLine(line);

  ProblemSearchOptions searchOptions = options.problem;
  if (options.totalSeconds > 0) {
    searchOptions.seconds = turn.searchSeconds;
    searchOptions.budget = unsigned(turn.candidates);
    searchOptions.mayContinue = [&](int64_t evaluations, double seconds) {
      return plan.mayContinue(turn, evaluations, seconds);
    };
  }
  if (options.records)
    searchOptions.seeds = options.records->getSeeds(e.info);
  searchOptions.judged = e.judged;
  auto onProgress = [&](const SearchProgress &p) {
    if (options.progress)
      llvm::errs() << llvm::formatv(
          "stark-search: [{0}/{1}] {2}: candidate {3}/{4}, best {5:f2}x\n",
          rank + 1, count, e.label, p.candidatesTried, searchOptions.budget,
          p.bestSpeedup);
  };
  ProblemSearchResult result;
  auto start = Clock::now();
  if (auto it = presearched.find(index); it != presearched.end()) {
    result = std::move(it->second);
  } else {
    result = searchProblem(e.problem, hw, searchOptions, onProgress);
    plan.recordEvaluations(
        turn.problem,
        countEvaluationEquivalents(result.evaluations, result.sanitizerRuns),
        secondsSince(start));
  }
  ++out.searched;
  e.report = problemToJSON(e.symbol.getValue(), e.info, result);
  e.report["seconds"] = secondsSince(start);
  e.report["budget_seconds"] = turn.allotment;
  if (options.records) {
    e.report["source"] = "search";
    e.report["seeds"] = int64_t(searchOptions.seeds.size());
  }
  if (result.llmUsage) {
    out.requests += result.llmUsage->requests;
    out.promptTokens += result.llmUsage->promptTokens;
    out.completionTokens += result.llmUsage->completionTokens;
  }
  if (!result.fallbackReason.empty())
    remark(e, "stark-search: agent llm fell back to expert: " +
                  result.fallbackReason);

  switch (result.status) {
  case ProblemSearchStatus::Error:
    e.problem.emitError() << "stark-search: " << result.message;
    return failure();
  case ProblemSearchStatus::Skipped:
    finish(e, "upstream", result.skipReason);
    return success();
  case ProblemSearchStatus::Searched:
    break;
  }
  const SearchResult &search = *result.search;
  out.candidates += search.candidatesTried;
  // Searched: not searched again, and timed for compare-unfused.
  if (result.baselineSeconds > 0)
    e.problem->setAttr(kBaselineAttrName,
                       FloatAttr::get(Float64Type::get(module.getContext()),
                                      result.baselineSeconds * 1e6));
  if (!search.winner && search.candidatesTried == 0) {
    // The turn ended before its first candidate (the baseline's own
    // evaluation took the time): the problem is covered like one whose turn
    // never came, not left upstream untried.
    cover(index, rank,
          llvm::formatv("its search tried no candidate (stopped on {0} after "
                        "{1:f1} s of its {2:f1} s)",
                        search.stopReason, secondsSince(start), turn.allotment)
              .str(),
          plan);
    return success();
  }
  if (!search.winner) {
    finish(e, "upstream", describeNoWinner(result, options.problem.minSpeedup));
    return success();
  }
  const SearchNode &win = search.tree.node(*search.winner);
  if (!result.winner) {
    finish(e, "upstream", "the winning candidate does not parse back");
    return success();
  }
  double baseline = result.baselineSeconds;
  installWinner(e, std::move(result.winner), win, baseline);
  if (options.records) {
    std::string error;
    if (failed(options.records->record(e.info, result, win, error))) {
      e.problem.emitError() << "stark-search: tuning database: " << error;
      return failure();
    }
  }
  finish(e, "searched",
         llvm::formatv("{0:f2}x faster on {1}: {2} {3} (candidate {4} of {5}, "
                       "{6} -> {7})",
                       win.speedup, target, win.strategy,
                       joinParams(win.params), win.id, search.candidatesTried,
                       formatDuration(baseline), formatDuration(win.seconds)));
  return success();
}

void ModelSearch::summarize(const ModelPlan &plan, double coverageSeconds) {
  int64_t winners = 0, searched = 0, firstPicks = 0, upstream = 0;
  double share = 0, winnerShare = 0, after = 0;
  bool haveShares = false;
  for (const Entry &e : entries) {
    haveShares |= e.plan.share > 0 && e.plan.share <= 1;
    share += e.plan.share;
    searched += e.outcome == "searched";
    firstPicks += e.outcome == "first pick";
    upstream += e.outcome == "upstream";
    if (e.winner && e.speedup > 0) {
      ++winners;
      winnerShare += e.plan.share;
      after += e.plan.share / e.speedup;
    } else {
      after += e.plan.share;
    }
  }
  // Shares are of the model's time only when stark-hot-ops marked them.
  double modelSpeedup = 0;
  if (haveShares && share <= 1.0 + 1e-9)
    modelSpeedup = 1.0 / (std::max(0.0, 1.0 - share) + after);
  double elapsed = plan.getElapsed();
  out.summaryText =
      llvm::formatv("stark-search: model summary: {0} problem(s) in {1:f1} s: "
                    "{2} searched, {3} first pick, {4} upstream; {5} with a "
                    "verified winner",
                    entries.size(), elapsed, searched, firstPicks, upstream,
                    winners)
          .str();
  if (modelSpeedup > 0)
    out.summaryText +=
        llvm::formatv("; their ops are {0:f1}% of the model's estimated "
                      "time, the winners {1:f1}%; estimated model speedup "
                      "{2:f2}x",
                      100 * share, 100 * winnerShare, modelSpeedup)
            .str();
  out.summary = llvm::json::Object{{"problems", int64_t(entries.size())},
                                   {"winners", winners},
                                   {"seconds", elapsed},
                                   {"searched", searched},
                                   {"first_picks", firstPicks},
                                   {"upstream", upstream}};
  if (modelSpeedup > 0) {
    out.summary["searched_share"] = share;
    out.summary["winner_share"] = winnerShare;
    out.summary["estimated_model_speedup"] = modelSpeedup;
  }
  llvm::json::Array order;
  for (size_t i : plan.getOrder())
    order.push_back(entries[i].plan.name);
  out.plan =
      llvm::json::Object{{"order", std::move(order)},
                         {"evaluation_seconds", plan.getEvaluationEstimate()},
                         {"coverage_seconds", coverageSeconds},
                         {"elapsed_seconds", elapsed}};
}

FailureOr<std::vector<size_t>> ModelSearch::applyRecordedWinners() {
  std::vector<size_t> open;
  for (auto [index, e] : llvm::enumerate(entries)) {
    std::string error;
    FailureOr<std::optional<RecordedWinners::Applied>> applied =
        options.records
            ? options.records->apply(e.problem, e.info, error)
            : FailureOr<std::optional<RecordedWinners::Applied>>(std::nullopt);
    if (failed(applied)) {
      e.problem.emitError() << "stark-search: " << error;
      return failure();
    }
    if (!*applied) {
      open.push_back(index);
      continue;
    }
    e.report = std::move((*applied)->report);
    e.report["share"] = e.plan.share;
    e.report["budget_seconds"] = 0.0;
    e.winner = (*applied)->speedup > 0;
    e.speedup = (*applied)->speedup;
    if (e.winner)
      ++out.winners;
    ++out.fromRecords;
    finish(e, "searched", (*applied)->remark);
  }
  return open;
}

ModelSearchResult ModelSearch::run() {
  auto stop = [&] {
    out.failed = true;
    return std::move(out);
  };
  Clock::time_point runStart = options.start;
  collect();
  // Recorded winners first: they cost nothing and take no turn.
  FailureOr<std::vector<size_t>> unrecorded = applyRecordedWinners();
  if (failed(unrecorded))
    return stop();
  std::vector<size_t> &open = *unrecorded;

  std::vector<PlanProblem> toPlan;
  for (size_t index : open) {
    entries[index].planIndex = toPlan.size();
    toPlan.push_back(entries[index].plan);
  }
  ModelPlanOptions planOptions;
  planOptions.target = target;
  planOptions.totalSeconds = options.totalSeconds;
  planOptions.maxSeconds = options.problem.seconds;
  planOptions.maxCandidates = options.problem.budget;
  planOptions.evaluationSecondsPrior = options.evaluationSecondsPrior;
  if (EvalPool *pool = options.problem.pool; pool && pool->size() > 1)
    planOptions.finishEvaluations += options.problem.retimeContenders;
  planOptions.finishEvaluations +=
      kSanitizerEvaluations * double(options.problem.sanitizers.size());
  ModelPlan plan(std::move(toPlan), planOptions,
                 [runStart] { return secondsSince(runStart); });
  LLVM_DEBUG({
    for (size_t k : plan.getOrder())
      llvm::dbgs() << "plan #" << plan.getRank(k) + 1 << " @"
                   << entries[open[k]].plan.name << ": share "
                   << entries[open[k]].plan.share << " x headroom "
                   << plan.getHeadroom(k) << "\n";
  });

  planned = open.size();
  searchSideBySide(plan, open);
  size_t turns = 0;
  while (std::optional<PlanTurn> turn = plan.next())
    if (failed(searchTurn(open[turn->problem], *turn, turns++, plan)))
      return stop();
  // Coverage: the problems whose turn did not come.
  auto coverageStart = Clock::now();
  coverRemaining(plan, open, turns);
  double coverageSeconds = secondsSince(coverageStart);
  if (failed(searchLeftover(plan, open, turns)))
    return stop();
  summarize(plan, coverageSeconds);
  for (size_t k = 0; k < open.size(); ++k) {
    llvm::json::Object &report = entries[open[k]].report;
    report["rank"] = int64_t(plan.getRank(k) + 1);
    report["share"] = entries[open[k]].plan.share;
    report["headroom"] = plan.getHeadroom(k);
    report["expected_gain"] = plan.getGain(k);
  }
  for (Entry &e : entries) {
    e.report["runs"] = countRuns(e.ops);
    out.reports.push_back(std::move(e.report));
  }
  return std::move(out);
}

ModelSearchResult mlir::stark::searchModel(ModuleOp module,
                                           const HardwareProfile &hw,
                                           const ModelSearchOptions &options) {
  ModelSearch search(module, hw, options);
  return search.run();
}

void mlir::stark::describeModelSearch(ModuleOp module,
                                      const HardwareProfile &hw,
                                      ModelSearchResult &result,
                                      SearchReportHeader &header) {
  header.summary = std::move(result.summary);
  header.plan = std::move(result.plan);
  header.synthesizedWeights = getSynthesizedWeights(module);
  header.leftUpstream = describeOpsLeftUpstream(module, hw);
}
