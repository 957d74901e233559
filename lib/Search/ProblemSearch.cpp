//===- ProblemSearch.cpp - The search of one kernel problem ---------------===//

#include "stark/Search/ProblemSearch.h"
#include "stark/Eval/Evaluator.h"
#include "stark/Search/EvaluatorJudge.h"
#include "stark/Search/Expert.h"
#include "stark/Search/Replay.h"
#include "stark/Strategies/CandidateSpaces.h"

#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace mlir::stark;

/// Times the `count` fastest passed candidates of `search` again, one after
/// the other, on the home device, and picks the winner from those times:
/// during the search they were timed on whichever device was free, next to
/// other workers' compilations. One that fails now is not a contender.
static void retimeContenders(SearchResult &search, EvaluatorJudge &judge,
                             unsigned count, std::vector<int64_t> &retimed) {
  SearchTree &tree = search.tree;
  for (int64_t id : tree.leaderboard()) {
    if (retimed.size() >= count)
      break;
    const SearchNode &node = tree.node(id);
    Verdict v = judge.retime({node, search.payloads[id]});
    if (!v.passed)
      v.failure = "failed when timed again on the home device: " + v.failure;
    tree.record(id, v);
    retimed.push_back(id);
  }
  search.winner = tree.best();
}

/// What every evaluation of a problem's search is asked to do.
static EvalOptions getEvalOptions(const ProblemSearchOptions &options) {
  EvalOptions evalOptions;
  evalOptions.seed = options.seed;
  evalOptions.correctnessTrials = options.trials;
  evalOptions.timing.minTrials = options.timingTrials;
  evalOptions.allowTf32 = options.allowTf32;
  return evalOptions;
}

/// Runs the winner of `search` under each of `tools` (compute-sanitizer);
/// a finding fails it, and the next best is checked in its place. Returns
/// the runs made.
static int64_t sanitizeWinner(SearchResult &search, EvaluatorJudge &judge,
                              ArrayRef<std::string> tools) {
  SearchTree &tree = search.tree;
  int64_t runs = 0;
  while (std::optional<int64_t> id = tree.best()) {
    const SearchNode &node = tree.node(*id);
    bool clean = true;
    for (const std::string &tool : tools) {
      Verdict v = judge.sanitize({node, search.payloads[*id]}, tool);
      ++runs;
      if (v.passed)
        continue;
      tree.recordFailed(*id, v.status.empty() ? "failed" : v.status,
                        "failed under compute-sanitizer (" + tool +
                            "): " + v.failure);
      clean = false;
      break;
    }
    if (clean)
      break;
  }
  search.winner = tree.best();
  return runs;
}

/// The agent team of a search and what it owns.
struct SearchAgents {
  std::unique_ptr<CandidateSpace> space;
  std::unique_ptr<ExpertAgents> fallback;
  std::unique_ptr<AgentTeam> agents;
  /// The expert among them (the team, or the model's fallback), if any.
  ExpertAgents *expert = nullptr;
  LLMAgents *llm = nullptr;
};

/// The agent team of `options`: a language model (with the expert as its
/// fallback when asked), a replayed transcript, or the expert policy over
/// the target's candidate space. False, with the status and message set in
/// `result`, when there is none.
static bool createSearchAgents(ModuleOp standalone, const HardwareProfile &hw,
                               const ProblemSearchOptions &options,
                               SearchAgents &team,
                               ProblemSearchResult &result) {
  std::string whyNot;
  StrategyOptions strategyOptions;
  strategyOptions.allowTf32 = options.allowTf32;
  if (options.model) {
    auto owned =
        LLMAgents::create(standalone, hw, *options.model, options.llm, whyNot);
    if (!owned) {
      result.status = ProblemSearchStatus::Error;
      result.message = whyNot;
      return false;
    }
    team.llm = owned.get();
    team.agents = std::move(owned);
    if (options.fallback == "expert") {
      std::string noSpace;
      team.space = createCandidateSpace(options.target, standalone, hw, noSpace,
                                        strategyOptions);
      if (team.space) {
        team.fallback = std::make_unique<ExpertAgents>(*team.space);
        team.expert = team.fallback.get();
        team.llm->setFallback(team.fallback.get(), "expert");
      }
    }
    return true;
  }
  if (options.agent == "replay") {
    team.agents = ReplayAgents::load(options.transcript, whyNot);
    if (team.agents)
      return true;
    result.status = ProblemSearchStatus::Error;
    result.message = whyNot;
    return false;
  }
  team.space = createCandidateSpace(options.target, standalone, hw, whyNot,
                                    strategyOptions);
  if (!team.space) {
    result.status = ProblemSearchStatus::Skipped;
    result.message = whyNot;
    result.skipReason = "no strategy applies (" + whyNot + ")";
    return false;
  }
  auto owned = std::make_unique<ExpertAgents>(*team.space);
  team.expert = owned.get();
  team.agents = std::move(owned);
  return true;
}

/// What the search's evaluations cost: their number, wall times, phases
/// and reference runs.
static void summarizeEvaluations(const EvaluatorJudge &judge,
                                 ProblemSearchResult &result) {
  using Kind = EvaluatorJudge::EvaluationKind;
  result.evaluations = judge.getResults().size();
  for (auto [r, kind] : llvm::zip(judge.getResults(), judge.getKinds())) {
    result.referenceRuns += r.referenceRuns;
    result.referencesReused += r.referencesReused;
    switch (kind) {
    case Kind::Problem:
      result.problemEvaluationSeconds += r.wallSeconds;
      break;
    case Kind::Candidate:
      result.evaluationSeconds.push_back(r.wallSeconds);
      break;
    case Kind::Retime:
      result.retimeSeconds.push_back(r.wallSeconds);
      break;
    case Kind::Sanitizer:
      result.sanitizerSeconds.push_back(r.wallSeconds);
      break;
    }
    for (const auto &[name, seconds] : r.phaseSeconds) {
      auto it = llvm::find_if(result.phaseSeconds,
                              [&](const auto &p) { return p.first == name; });
      if (it == result.phaseSeconds.end())
        result.phaseSeconds.emplace_back(name, seconds);
      else
        it->second += seconds;
    }
  }
  result.referenceAllowance = judge.getReferenceAllowance();
}

ProblemSearchResult mlir::stark::searchProblem(
    ModuleOp problem, const HardwareProfile &hw,
    const ProblemSearchOptions &options,
    const std::function<void(const SearchProgress &)> &progress) {
  ProblemSearchResult result;
  // The budget counts from here: the problem's own evaluation (references
  // and baseline) and the agents' compiles are part of the search's cost.
  auto start = std::chrono::steady_clock::now();
  auto clock = [start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };

  // The problem as a standalone module, as the worker will parse it.
  OwningOpRef<ModuleOp> standalone = cast<ModuleOp>(problem->clone());
  std::string problemText;
  {
    llvm::raw_string_ostream os(problemText);
    standalone->print(os);
  }

  SearchAgents team;
  if (!createSearchAgents(*standalone, hw, options, team, result))
    return result;
  ExpertAgents *expert = team.expert;
  LLMAgents *llmAgents = team.llm;

  EvalOptions evalOptions = getEvalOptions(options);
  WorkerOptions worker;
  worker.targetName = options.target;
  worker.timeoutSeconds = options.timeout;
  ReferenceOptions references;
  references.timeoutSeconds = options.referenceTimeout;
  EvaluatorJudge judge(problemText, problem.getSymName()->str(), evalOptions,
                       worker, references, options.pool);
  judge.setScreening({options.screen, options.minSpeedup});
  judge.setPrecompiler(options.precompiler);
  if (expert) {
    for (const Proposal &seed : options.seeds)
      expert->markTried(seed.node);
    for (const SearchNode &node : options.judged)
      expert->markTried(node);
  }
  // While the problem's own evaluation runs, the first candidates compile
  // on the idle host cores: the seeds, then the agents' first guesses.
  unsigned batch = options.pool ? std::max(1u, options.batch) : 1;
  if (judge.canPrepare()) {
    std::vector<std::string> first;
    for (const Proposal &seed : options.seeds)
      first.push_back(seed.payload);
    SearchNode root;
    root.state = NodeState::Passed;
    RoleContext rootContext;
    rootContext.selected = rootContext.root = &root;
    llvm::append_range(first, team.agents->anticipate(rootContext, batch));
    judge.prepare(first);
  }
  std::string error;
  FailureOr<double> baseline = judge.measureBaseline(error);
  result.evaluations = judge.getResults().size();
  if (failed(baseline)) {
    result.status = ProblemSearchStatus::Skipped;
    result.message = error;
    result.skipReason = error;
    return result;
  }
  result.status = ProblemSearchStatus::Searched;
  result.baselineSeconds = *baseline;
  if (!judge.getResults().empty()) {
    const EvalResult &reference = judge.getResults().front();
    result.toleranceKind = reference.toleranceKind;
    result.tolerance = reference.tolerance;
    result.tf32Tolerance = reference.hasFlag("tf32_tolerance");
  }

  SearchTreeOptions treeOptions;
  treeOptions.minSpeedup = options.minSpeedup;
  SearchBudget budget;
  budget.maxCandidates = options.budget;
  budget.maxSeconds = std::max(0.0, options.seconds - clock());
  budget.batch = batch;
  budget.concurrency = options.model ? std::max(1u, options.concurrency) : 1;
  // The budget as the caller plans it again: once it says stop, the clock
  // the loop reads jumps past its seconds.
  auto budgetClock = [&]() {
    double t = clock();
    if (options.mayContinue &&
        !options.mayContinue(int64_t(judge.getResults().size()), t))
      t += 1e12;
    return t;
  };
  if (options.mayContinue &&
      !options.mayContinue(int64_t(judge.getResults().size()), clock()))
    budget.maxSeconds = 0;
  result.search = runSearch(*baseline, *team.agents, judge, treeOptions, budget,
                            options.seed, budgetClock, progress, options.seeds);
  if (options.pool && options.pool->size() > 1)
    retimeContenders(*result.search, judge, options.retimeContenders,
                     result.retimed);
  if (!options.sanitizers.empty() && result.search->winner)
    result.sanitizerRuns =
        sanitizeWinner(*result.search, judge, options.sanitizers);
  summarizeEvaluations(judge, result);
  if (expert)
    result.lastBuildError = expert->getLastBuildError();
  if (llmAgents) {
    result.llmUsage = llmAgents->getUsage();
    result.fallbackReason = llmAgents->getFallbackReason();
    if (std::optional<AgentStop> stop = llmAgents->getStop();
        stop && stop->error) {
      result.status = ProblemSearchStatus::Error;
      result.message = "agent " + options.agent + ": " + stop->message;
      return result;
    }
  }
  if (result.search->winner)
    result.winner = parseSourceString<ModuleOp>(
        result.search->payloads[*result.search->winner], problem->getContext());
  return result;
}

FirstPickResult mlir::stark::buildFirstPick(ModuleOp problem,
                                            const HardwareProfile &hw,
                                            const ProblemSearchOptions &options,
                                            EvalJob &job,
                                            ArrayRef<SearchNode> failedPicks) {
  FirstPickResult result;
  FirstPickVerdict &verdict = result.verdict;
  OwningOpRef<ModuleOp> standalone = cast<ModuleOp>(problem->clone());
  std::string problemText;
  {
    llvm::raw_string_ostream os(problemText);
    standalone->print(os);
  }
  StrategyOptions strategyOptions;
  strategyOptions.allowTf32 = options.allowTf32;
  std::string whyNot;
  std::unique_ptr<CandidateSpace> space = createCandidateSpace(
      options.target, *standalone, hw, whyNot, strategyOptions);
  if (!space) {
    verdict.reason = "no strategy applies (" + whyNot + ")";
    return result;
  }
  // The expert's answer from the root: the best guess of the space that
  // builds.
  ExpertAgents expert(*space);
  SearchTree tree(SearchTreeOptions(), options.seed);
  tree.addRoot(1.0);
  for (const SearchNode &failed : failedPicks) {
    int64_t id = tree.addChild(0, failed);
    tree.recordFailed(id, failed.status, failed.failure);
    expert.markTried(failed);
  }
  std::vector<std::string> payloads(tree.size());
  std::optional<Proposal> pick =
      expert.propose(buildRoleContext(tree, 0, payloads));
  if (!pick) {
    verdict.reason = "no candidate builds";
    if (!expert.getLastBuildError().empty())
      verdict.reason += ": " + expert.getLastBuildError();
    return result;
  }
  verdict.available = true;
  result.node = pick->node;
  result.node.id = int64_t(failedPicks.size()) + 1;
  result.node.parent = 0;
  result.node.depth = 1;
  result.node.author = "first pick";
  result.payload = pick->payload;

  job.problemSource = std::move(problemText);
  job.problemName = problem.getSymName()->str();
  job.candidateSource = result.payload;
  job.candidateName = "candidate-" + result.node.strategy;
  job.options = getEvalOptions(options);
  // Kept only when faster than upstream: a slower one needs no more trials.
  if (options.screen)
    job.options.screenBelowSpeedup = 1.0;
  job.worker = WorkerOptions();
  job.worker.targetName = options.target;
  // One evaluation computes the references and times the baseline too.
  job.worker.timeoutSeconds = options.timeout + options.referenceTimeout;
  return result;
}

void mlir::stark::judgeFirstPick(ModuleOp problem, const EvalResult &r,
                                 FirstPickResult &result) {
  FirstPickVerdict &verdict = result.verdict;
  verdict.status = stringifyEvalStatus(r.status).str();
  bool screened = r.status == EvalStatus::Slower;
  if (!r.isOk() && !screened) {
    verdict.failure = describeFailure(r);
    return;
  }
  if (!r.candidateTime || !r.baselineTime) {
    verdict.failure = "verified but not timed";
    return;
  }
  verdict.passed = true;
  verdict.candidateSeconds = r.candidateTime->median;
  verdict.baselineSeconds = r.baselineTime->median;
  // Screened: slower than upstream, so never kept, and not verified in full.
  if (screened)
    return;
  result.module =
      parseSourceString<ModuleOp>(result.payload, problem->getContext());
}
