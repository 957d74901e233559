//===- Search.cpp - Search a verified, faster lowering per problem --------===//
//
// Thin pass over searchProblem (stark/Search/ProblemSearch.h): one search
// per kernel problem, judged by the evaluator in worker processes; the winner
// is kept in the problem module and the report written by Report.h. With a
// tuning database (stark/Tuning), recorded winners of this device replace
// the search, those of other devices seed it, and new winners are recorded.
//
//===----------------------------------------------------------------------===//

#include "stark/Eval/Evaluator.h"
#include "stark/LLM/Config.h"
#include "stark/LLM/Transcript.h"
#if STARK_ENABLE_LLM
#include "stark/LLM/HttpClient.h"
#endif
#include "stark/Eval/Timing.h"
#include "stark/Problem/FusionGroup.h"
#include "stark/Problem/KernelProblem.h"
#include "stark/Search/ProblemSearch.h"
#include "stark/Analysis/ElidedWeights.h"
#include "stark/Search/Report.h"
#include "stark/Strategies/CpuStrategies.h"
#include "stark/Target/Target.h"
#include "stark/Transforms/Passes.h"
#include "stark/Tuning/RecordedWinner.h"
#include "stark/Tuning/TuningDatabase.h"

#include "stark/Eval/EvalPool.h"
#include "stark/Eval/MpiEval.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

namespace mlir::stark {
#define GEN_PASS_DEF_STARKSEARCHPASS
#include "stark/Transforms/Passes.h.inc"
} // namespace mlir::stark

using namespace mlir;
using namespace mlir::stark;

namespace {

/// The share of the model's estimated time of the ops `stark-hot-ops`
/// marked among `ops`; 0 when none carries a cost.
double getShareOfOps(ArrayRef<Operation *> ops) {
  double share = 0;
  for (Operation *op : ops)
    if (auto cost = op->getAttrOfType<CostAttr>(kCostAttrName))
      share += cost.getShare().convertToDouble();
  return share;
}

/// The evaluators of a parallel run, for the report.
llvm::json::Object describePool(const EvalPool &pool) {
  llvm::json::Array lost;
  for (const LostExecutor &l : pool.getLost())
    lost.push_back(llvm::json::Object{{"executor", l.name},
                                      {"reason", l.reason},
                                      {"requeued", int64_t(l.requeued)}});
  return llvm::json::Object{{"executors", int64_t(pool.size())},
                            {"lost", std::move(lost)}};
}

/// What one problem's search gave, for the model's summary.
struct ProblemOutcome {
  double share = 0;
  double seconds = 0; // wall time the search took
  double speedup = 1; // 1 without a winner
  bool winner = false;
};

/// The ops a search of the problem named `symbol` speaks for: those it was
/// outlined from, else (`alone` set) the ops of a fused chain that also name
/// it as their problem alone (compare-unfused).
SmallVector<Operation *> opsSearchedFor(ModuleOp module, StringAttr symbol,
                                        bool &alone) {
  SmallVector<Operation *> ops = getOpsOfProblem(module, symbol);
  alone = ops.empty();
  if (alone)
    ops = getOpsOfProblem(module, symbol, kUnfusedProblemAttrName);
  return ops;
}

struct StarkSearchPass
    : public stark::impl::StarkSearchPassBase<StarkSearchPass> {
  using StarkSearchPassBase::StarkSearchPassBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    // Winners are parsed back into the program's context; the CPU schedules
    // are transform scripts run in it.
    registerEvalDialects(registry);
    registerCpuStrategyDialects(registry);
  }

  LogicalResult validateOptions(ModuleOp module, std::string &resolvedTarget) {
    if (target != "auto" && target != "cpu" && target != "cuda")
      return module.emitError() << "stark-search: unknown target '" << target
                                << "'; expected cpu, cuda or auto";
    if (agent != "expert" && agent != "replay" &&
        (agent != "llm" || !STARK_ENABLE_LLM))
      return module.emitError()
             << "stark-search: agent '" << agent
             << "' is not available in this build; expected expert, "
             << (STARK_ENABLE_LLM ? "llm or replay"
                                  : "or replay (llm needs libcurl)");
    if (agent == "replay" && transcript.empty())
      return module.emitError()
             << "stark-search: agent replay needs transcript=FILE";
    if (llmFallback != "none" && llmFallback != "expert")
      return module.emitError() << "stark-search: unknown llm-fallback '"
                                << llmFallback << "'; expected none or expert";
    if (llmConcurrency > llm::kMaxConcurrency)
      return module.emitError()
             << "stark-search: llm-concurrency must be a whole number from 1 "
                "to "
             << llm::kMaxConcurrency << ", got " << unsigned(llmConcurrency);
    if (budget == 0)
      return module.emitError() << "stark-search: budget must be at least 1";
    if (!(seconds > 0) || !(timeout > 0))
      return module.emitError()
             << "stark-search: seconds and timeout must be positive";
    if (!(totalSeconds >= 0))
      return module.emitError()
             << "stark-search: total-seconds must not be negative";
    if (!(referenceTimeout > 0))
      return module.emitError()
             << "stark-search: reference-timeout must be positive";
    if (!(minSpeedup >= 1.0))
      return module.emitError()
             << "stark-search: min-speedup must be at least 1";
    if (timingTrials == 0)
      return module.emitError()
             << "stark-search: timing-trials must be at least 1";
    if (trials == 0)
      return module.emitError() << "stark-search: trials must be at least 1";
    if (devices == 0)
      return module.emitError() << "stark-search: devices must be at least 1";
    if (workersPerDevice == 0)
      return module.emitError()
             << "stark-search: workers-per-device must be at least 1";
    if (!(mpiGrace > 0))
      return module.emitError() << "stark-search: mpi-grace must be positive";
    resolvedTarget = target;
    std::string error;
    std::unique_ptr<Target> cuda;
    if (target == "auto" || target == "cuda") {
      cuda = createTarget("cuda", getContext(), error);
      std::string why = cuda ? cuda->getUnavailableReason() : error;
      if (target == "cuda" && !why.empty())
        return module.emitError() << "stark-search: target cuda: " << why;
      resolvedTarget = why.empty() ? "cuda" : "cpu";
    }
    if (devices > 1 && resolvedTarget != "cuda")
      return module.emitError()
             << "stark-search: devices=" << unsigned(devices)
             << " needs the cuda target; the cpu target has one device (use "
                "workers-per-device for parallel cpu workers)";
    // Several local workers on the cuda target crashed stark-opt on the
    // H200 (a segfault in test/Integration/CUDA/search-workers-cuda.mlir);
    // until that is found, such a run is refused rather than risked.
    if (resolvedTarget == "cuda" && devices * workersPerDevice > 1)
      return module.emitError()
             << "stark-search: more than one evaluation worker on the cuda "
                "target (devices="
             << unsigned(devices)
             << " workers-per-device=" << unsigned(workersPerDevice)
             << ") is disabled: it crashes in this version; use one worker "
                "per process, or mpi=1 with one evaluation rank per GPU";
    if (devices > 1 && cuda && cuda->getDeviceCount() < devices)
      return module.emitError()
             << "stark-search: devices=" << unsigned(devices) << " but only "
             << cuda->getDeviceCount() << " CUDA device(s) are visible here";
    resolvedDevice = device;
    if (resolvedDevice.empty() && !tuningDb.empty()) {
      std::unique_ptr<Target> used =
          resolvedTarget == "cuda"
              ? std::move(cuda)
              : createTarget(resolvedTarget, getContext(), error);
      if (used)
        resolvedDevice = used->getDeviceName();
      if (resolvedDevice.empty())
        return module.emitError()
               << "stark-search: cannot name the device for tuning-db; give "
                  "device=NAME";
    }
    return success();
  }

  /// The device tuning records are keyed by (validateOptions).
  std::string resolvedDevice;
  /// The tuning database, when tuning-db is given.
  std::optional<TuningDatabase> database;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string resolvedTarget;
    if (failed(validateOptions(module, resolvedTarget)))
      return signalPassFailure();
    std::string profileName = profile;
    if (profileName.empty())
      profileName = resolvedTarget == "cuda" ? "h200" : "host";
    std::optional<HardwareProfile> hw = lookupHardwareProfile(profileName);
    if (!hw) {
      module.emitError() << "stark-search: unknown hardware profile '"
                         << profileName << "'";
      return signalPassFailure();
    }

    database.reset();
    if (!tuningDb.empty()) {
      std::string error;
      FailureOr<TuningDatabase> read = readTuningDatabase(tuningDb, error);
      if (failed(read)) {
        module.emitError() << "stark-search: tuning database: " << error;
        return signalPassFailure();
      }
      database = std::move(*read);
    }

    if (failed(setUpModel(module)))
      return signalPassFailure();

    SmallVector<ModuleOp> problems;
    for (auto nested : module.getOps<ModuleOp>())
      if (nested->hasAttr(kProblemAttrName) && nested.getSymNameAttr() &&
          !nested->hasAttr(kWinnerAttrName) &&
          !nested->hasAttr(kBaselineAttrName))
        problems.push_back(nested);

    // More than one evaluation worker: a pool shared by every search; with
    // mpi, the other ranks of the job too (MpiEval.h).
    std::unique_ptr<EvalPool> pool;
    if (devices * workersPerDevice > 1 || mpi) {
      std::vector<std::unique_ptr<EvalExecutor>> executors;
      if (devices * workersPerDevice > 1) {
        LocalPoolOptions local{resolvedTarget, devices, workersPerDevice};
        executors = createLocalExecutors(local);
      }
      if (mpi) {
        std::string error;
        MpiClientOptions client;
        client.graceSeconds = mpiGrace;
        auto remote = createMpiExecutors(client, error);
        if (failed(remote)) {
          module.emitError() << "stark-search: mpi=1: " << error;
          return signalPassFailure();
        }
        for (auto &executor : *remote)
          executors.push_back(std::move(executor));
      }
      pool = std::make_unique<EvalPool>(std::move(executors),
                                        createHomeExecutor(resolvedTarget));
    }
    evalPool = pool.get();
    presearched = std::make_shared<std::map<size_t, ProblemSearchResult>>();
    presearchSeconds.clear();
    searchSideBySide(module, problems, resolvedTarget, *hw);

    llvm::json::Array reports;
    failedHard = false;
    // The whole run's budget is split by share: each problem gets the part
    // of what is left that its share is of the shares still to search.
    SmallVector<double> shares, weights;
    for (ModuleOp problem : problems) {
      bool alone;
      shares.push_back(getShareOfOps(
          opsSearchedFor(module, problem.getSymNameAttr(), alone)));
    }
    // Problems outlined without a ranking (`all`) share the budget evenly.
    weights = shares;
    if (llvm::all_of(weights, [](double w) { return w <= 0; }))
      weights.assign(problems.size(), 1.0);
    double weightLeft = 0;
    for (double w : weights)
      weightLeft += w;
    SmallVector<ProblemOutcome> outcomes;
    auto runStart = std::chrono::steady_clock::now();
    for (auto [index, problem] : llvm::enumerate(problems)) {
      double elapsed = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - runStart)
                           .count();
      double budgetSeconds = seconds;
      if (totalSeconds > 0) {
        double left = std::max(0.0, double(totalSeconds) - elapsed);
        double part = weightLeft > 0 ? weights[index] / weightLeft : 1.0;
        budgetSeconds = std::min(double(seconds), left * part);
      }
      weightLeft -= weights[index];
      ProblemOutcome outcome;
      outcome.share = shares[index];
      auto problemStart = std::chrono::steady_clock::now();
      llvm::json::Object report =
          searchOne(module, problem, index, problems.size(), resolvedTarget,
                    *hw, budgetSeconds, outcome);
      outcome.seconds = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - problemStart)
                            .count();
      if (auto it = presearchSeconds.find(index); it != presearchSeconds.end())
        outcome.seconds = it->second;
      report["share"] = outcome.share;
      report["budget_seconds"] = budgetSeconds;
      outcomes.push_back(outcome);
      reports.push_back(std::move(report));
      if (failedHard)
        return signalPassFailure();
    }
    reportFusedOrUnfused(module, minSpeedup, reports);
    llvm::json::Object summary = summarize(module, outcomes);
    if (pool)
      for (const LostExecutor &l : pool->getLost())
        module.emitWarning()
            << "stark-search: evaluator " << l.name << " lost (" << l.reason
            << "); " << l.requeued << " candidate(s) re-queued on the others";

    if (!report.empty()) {
      SearchReportHeader header{resolvedTarget,  agent,           profileName,
                                int64_t(budget), double(seconds), int64_t(seed),
                                allowTf32};
      header.llm = describeModelUse();
      header.totalSeconds = totalSeconds;
      header.summary = std::move(summary);
      header.synthesizedWeights = getSynthesizedWeights(module);
      if (pool) {
        header.evaluation = describePool(*pool);
        (*header.evaluation)["devices"] = int64_t(devices);
        (*header.evaluation)["workers_per_device"] = int64_t(workersPerDevice);
        (*header.evaluation)["mpi"] = bool(mpi);
      }
      std::string error;
      if (failed(
              writeSearchReport(report, header, std::move(reports), error))) {
        module.emitError() << "stark-search: " << error;
        return signalPassFailure();
      }
    }
  }

  /// Set by searchOne on errors that must fail the pass (not the search).
  bool failedHard = false;

  /// The model of agent=llm (the HTTP client, recording when `transcript`
  /// is set) or of agent=replay of an llm transcript; one per run, so its
  /// budgets span every problem. Shared pointers keep the pass copyable;
  /// each run sets them up anew.
  std::shared_ptr<llm::ChatModel> client, recorder, replay;
  llm::ChatModel *chatModel = nullptr;
  llm::ChatConfig chatConfig;
  /// Tokens over the run's problems.
  int64_t promptTokens = 0, completionTokens = 0, requests = 0;

  /// Requests to the model in flight at once (llm-concurrency resolved).
  unsigned concurrency = 1;

  LogicalResult setUpModel(ModuleOp module) {
    chatModel = nullptr;
    concurrency = 1;
    promptTokens = completionTokens = requests = 0;
    std::string error;
    if (agent == "replay" && llm::ReplayChatModel::isTranscript(transcript)) {
      std::shared_ptr<llm::ReplayChatModel> loaded =
          llm::ReplayChatModel::load(transcript, error);
      if (!loaded)
        return module.emitError() << "stark-search: " << error;
      // Asking ahead shapes the tree: replay it as it was recorded.
      concurrency = loaded->getConcurrency();
      replay = loaded;
      chatModel = replay.get();
      return success();
    }
    if (agent != "llm")
      return success();
#if STARK_ENABLE_LLM
    chatConfig = llm::ChatConfig();
    chatConfig.baseUrl = llmUrl;
    chatConfig.model = llmModel;
    chatConfig.apiKeyEnv = llmKeyEnv;
    chatConfig.maxTokens = llmMaxTokens;
    chatConfig.requestTimeout = llmTimeout;
    chatConfig.connectTimeout = llmConnectTimeout;
    chatConfig.retries = llmRetries;
    chatConfig.backoff = llmBackoff;
    chatConfig.tokenBudget = llmTokenBudget;
    chatConfig.costBudget = llmCostBudget;
    chatConfig.priceInput = llmPriceIn;
    chatConfig.priceOutput = llmPriceOut;
    chatConfig.seed = seed;
    if (!llm::resolveConcurrency(llmConcurrency, chatConfig.concurrency, error))
      return module.emitError() << "stark-search: " << error;
    concurrency = chatConfig.concurrency;
    if (!llm::resolveConfig(chatConfig, llmProvider, error))
      return module.emitError() << "stark-search: " << error;
    client = std::make_shared<llm::HttpChatModel>(chatConfig);
    chatModel = client.get();
    if (!transcript.empty()) {
      recorder = llm::RecordingChatModel::create(*client, chatConfig,
                                                 transcript, error);
      if (!recorder)
        return module.emitError() << "stark-search: " << error;
      chatModel = recorder.get();
    }
    return success();
#else
    return module.emitError() << "stark-search: agent llm needs libcurl";
#endif
  }

  /// The report header's account of the model: tokens and cost.
  std::optional<llvm::json::Value> describeModelUse() const {
    if (!chatModel)
      return std::nullopt;
    llvm::json::Object o{{"requests", requests},
                         {"prompt_tokens", promptTokens},
                         {"completion_tokens", completionTokens}};
    if (concurrency > 1)
      o["concurrency"] = int64_t(concurrency);
    if (agent == "llm") {
      o["provider"] = llm::getProviderName(chatConfig.provider);
      o["model"] = chatConfig.model;
#if STARK_ENABLE_LLM
      o["cost"] = llm::getCost(chatConfig, promptTokens, completionTokens);
#endif
    }
    return llvm::json::Value(std::move(o));
  }

  /// The model's summary: problems searched, winners, the share of the
  /// model's estimated time they cover and, by Amdahl's law over those
  /// shares, the whole model's estimated speedup. Printed with the
  /// progress, a remark on the module with `summary`, and returned for the
  /// report.
  llvm::json::Object summarize(ModuleOp module,
                               ArrayRef<ProblemOutcome> outcomes) {
    int64_t winners = 0;
    double searchedShare = 0, winnerShare = 0, after = 0, spent = 0;
    bool haveShares = false;
    for (const ProblemOutcome &o : outcomes) {
      haveShares |= o.share > 0 && o.share <= 1;
      searchedShare += o.share;
      spent += o.seconds;
      if (o.winner) {
        ++winners;
        winnerShare += o.share;
        after += o.share / o.speedup;
      } else {
        after += o.share;
      }
    }
    // Shares are of the model's time only when stark-hot-ops marked them.
    double modelSpeedup = 0;
    if (haveShares && searchedShare <= 1.0 + 1e-9) {
      double rest = std::max(0.0, 1.0 - searchedShare);
      modelSpeedup = 1.0 / (rest + after);
    }
    std::string text = llvm::formatv(
        "stark-search: model summary: {0} problem(s) searched in {1:f1} s, "
        "{2} with a verified winner",
        outcomes.size(), spent, winners);
    if (modelSpeedup > 0)
      text +=
          llvm::formatv("; the searched ops are {0:f1}% of the model's "
                        "estimated time, the winners {1:f1}%; estimated "
                        "model speedup {2:f2}x",
                        100 * searchedShare, 100 * winnerShare, modelSpeedup)
              .str();
    if (progress)
      llvm::errs() << text << "\n";
    if (summary && !outcomes.empty())
      module.emitRemark() << text;
    llvm::json::Object json{{"problems", int64_t(outcomes.size())},
                            {"winners", winners},
                            {"seconds", spent}};
    if (modelSpeedup > 0) {
      json["searched_share"] = searchedShare;
      json["winner_share"] = winnerShare;
      json["estimated_model_speedup"] = modelSpeedup;
    }
    return json;
  }

  /// The evaluation pool of this run (null: one worker at a time).
  EvalPool *evalPool = nullptr;
  /// Problems searched side by side before the problems are finished in
  /// order (searchSideBySide), by index, and the seconds each took.
  /// (Shared: the pass must stay copyable.)
  std::shared_ptr<std::map<size_t, ProblemSearchResult>> presearched;
  std::map<size_t, double> presearchSeconds;

  ProblemSearchOptions makeSearchOptions(StringRef resolvedTarget,
                                         double budgetSeconds,
                                         std::vector<Proposal> seeds) {
    ProblemSearchOptions options;
    options.target = resolvedTarget.str();
    options.agent = agent;
    options.transcript = transcript;
    options.budget = budget;
    options.seconds = budgetSeconds;
    options.seed = seed;
    options.minSpeedup = minSpeedup;
    options.trials = trials;
    options.timingTrials = timingTrials;
    options.timeout = timeout;
    options.referenceTimeout = referenceTimeout;
    options.allowTf32 = allowTf32;
    options.seeds = std::move(seeds);
    options.model = chatModel;
    options.concurrency = concurrency;
    options.llm.target = resolvedTarget.str();
    options.llm.plannerTemperature = llmPlannerTemperature;
    options.llm.coderTemperature = llmCoderTemperature;
    options.llm.debuggerTemperature = llmDebuggerTemperature;
    options.llm.promptDir = llmPrompts;
    if (llmFallback == "expert")
      options.fallback = "expert";
    // As many candidates at once as there are evaluators.
    options.pool = evalPool;
    options.batch = evalPool ? evalPool->size() : 1;
    return options;
  }

  /// With an evaluation pool, searches the problems that need a search side
  /// by side, as many at once as the pool has evaluators; searchOne then
  /// takes their results in problem order, so the output, the remarks and
  /// the tuning records do not depend on which search ends first. Not with
  /// a model (one conversation at a time), a total-seconds budget (split
  /// as the problems go) or a context without threads.
  void searchSideBySide(ModuleOp module, ArrayRef<ModuleOp> problems,
                        StringRef resolvedTarget, const HardwareProfile &hw) {
    if (!evalPool || evalPool->size() < 2 || chatModel || totalSeconds > 0 ||
        problems.size() < 2 || !getContext().isMultithreadingEnabled())
      return;
    struct Job {
      size_t index;
      ModuleOp problem;
      std::string label;
      ProblemSearchOptions options;
    };
    std::vector<Job> jobs;
    for (auto [index, problem] : llvm::enumerate(problems)) {
      std::string error;
      ProblemAttr info = *getProblemAttr(problem, error);
      std::vector<Proposal> seeds;
      if (database) {
        if (!retune &&
            database->lookup(info.getSignature(), resolvedDevice, allowTf32))
          continue;
        for (const TuningRecord *other : database->lookupOtherDevices(
                 info.getSignature(), resolvedDevice, allowTf32))
          if (other->target == resolvedTarget)
            seeds.push_back(getSeedProposal(*other));
      }
      jobs.push_back(
          {index, problem,
           llvm::formatv("{0} {1}", info.getOp(), info.getShapes()).str(),
           makeSearchOptions(resolvedTarget, seconds, std::move(seeds))});
    }
    if (jobs.size() < 2)
      return;
    // Threads create IR (candidate modules, parsed winners) in the shared
    // context: every dialect they may need is loaded before they start.
    getContext().loadAllAvailableDialects();
    std::mutex mutex;
    std::vector<std::pair<ProblemSearchResult, double>> results(jobs.size());
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i = next++; i < jobs.size(); i = next++) {
        Job &job = jobs[i];
        auto onProgress = [&](const SearchProgress &p) {
          if (!progress)
            return;
          std::lock_guard<std::mutex> guard(mutex);
          llvm::errs() << llvm::formatv(
              "stark-search: [{0}/{1}] {2}: candidate {3}/{4}, best {5:f2}x\n",
              job.index + 1, problems.size(), job.label, p.candidatesTried,
              int64_t(budget), p.bestSpeedup);
        };
        auto start = std::chrono::steady_clock::now();
        results[i].first =
            searchProblem(job.problem, hw, job.options, onProgress);
        results[i].second = std::chrono::duration<double>(
                                std::chrono::steady_clock::now() - start)
                                .count();
      }
    };
    std::vector<std::thread> threads;
    unsigned parallel = std::min<size_t>(evalPool->size(), jobs.size());
    for (unsigned t = 0; t < parallel; ++t)
      threads.emplace_back(work);
    for (std::thread &t : threads)
      t.join();
    for (auto [job, result] : llvm::zip(jobs, results)) {
      (*presearched)[job.index] = std::move(result.first);
      presearchSeconds[job.index] = result.second;
    }
  }

  llvm::json::Object searchOne(ModuleOp module, ModuleOp problem, size_t index,
                               size_t count, StringRef resolvedTarget,
                               const HardwareProfile &hw, double budgetSeconds,
                               ProblemOutcome &outcome) {
    std::string error;
    ProblemAttr info = *getProblemAttr(problem, error);
    StringAttr symbol = problem.getSymNameAttr();
    bool alone;
    SmallVector<Operation *> ops = opsSearchedFor(module, symbol, alone);
    std::string label =
        llvm::formatv("{0} {1}", info.getOp(), info.getShapes()).str();
    auto remarkAll = [&](const Twine &message) {
      for (Operation *op : ops)
        op->emitRemark() << (alone ? "alone as @" + symbol.getValue() + ": "
                                   : Twine())
                         << message;
      if (ops.empty())
        problem.emitRemark() << message;
    };
    std::vector<Proposal> seeds;
    if (database) {
      if (!retune)
        if (const TuningRecord *record = database->lookup(
                info.getSignature(), resolvedDevice, allowTf32)) {
          // A recorded winner counts in the model's summary like a found one.
          outcome.winner = record->speedup > 0;
          outcome.speedup = record->speedup;
          return applyRecord(problem, info, *record, remarkAll);
        }
      for (const TuningRecord *other : database->lookupOtherDevices(
               info.getSignature(), resolvedDevice, allowTf32))
        if (other->target == resolvedTarget)
          seeds.push_back(getSeedProposal(*other));
    }
    ++numProblems;
    if (progress) {
      llvm::errs() << llvm::formatv("stark-search: [{0}/{1}] {2}: {3} op(s)",
                                    index + 1, count, label, ops.size());
      if (outcome.share > 0 && outcome.share <= 1)
        llvm::errs() << llvm::formatv(", {0:f1}% of the model's estimated time",
                                      100 * outcome.share);
      llvm::errs() << llvm::formatv(", {0:f1} s budget\n", budgetSeconds);
    }
    if (!(budgetSeconds > 0)) {
      remarkAll("stark-search: left as is: the total-seconds budget is spent");
      return llvm::json::Object{
          {"problem", symbol.getValue()},
          {"op", info.getOp()},
          {"shapes", info.getShapes()},
          {"signature", info.getSignature()},
          {"skipped", "the total-seconds budget is spent"}};
    }

    ProblemSearchOptions options =
        makeSearchOptions(resolvedTarget, budgetSeconds, seeds);
    auto onProgress = [&](const SearchProgress &p) {
      if (!progress)
        return;
      llvm::errs() << llvm::formatv(
          "stark-search: [{0}/{1}] {2}: candidate {3}/{4}, best {5:f2}x\n",
          index + 1, count, label, p.candidatesTried, int64_t(budget),
          p.bestSpeedup);
    };
    ProblemSearchResult result;
    if (auto it = presearched->find(index); it != presearched->end())
      result = std::move(it->second);
    else
      result = searchProblem(problem, hw, options, onProgress);
    llvm::json::Object report = problemToJSON(symbol.getValue(), info, result);
    if (database) {
      report["source"] = "search";
      report["seeds"] = int64_t(seeds.size());
    }
    if (result.llmUsage) {
      requests += result.llmUsage->requests;
      promptTokens += result.llmUsage->promptTokens;
      completionTokens += result.llmUsage->completionTokens;
    }
    if (!result.fallbackReason.empty())
      remarkAll("stark-search: agent llm fell back to expert: " +
                result.fallbackReason);

    switch (result.status) {
    case ProblemSearchStatus::Error:
      problem.emitError() << "stark-search: " << result.message;
      failedHard = true;
      return report;
    case ProblemSearchStatus::Skipped:
      remarkAll("stark-search: left as is: " + result.skipReason);
      return report;
    case ProblemSearchStatus::Searched:
      break;
    }
    const SearchResult &search = *result.search;
    numCandidates += search.candidatesTried;
    // Searched: not searched again, and timed for compare-unfused.
    if (result.baselineSeconds > 0)
      problem->setAttr(kBaselineAttrName,
                       FloatAttr::get(Float64Type::get(&getContext()),
                                      result.baselineSeconds * 1e6));

    if (!search.winner) {
      int64_t failedCount = 0;
      for (int64_t id = 1; id < search.tree.size(); ++id)
        failedCount += search.tree.node(id).state == NodeState::Failed;
      std::string why =
          llvm::formatv("no verified candidate beat the baseline by "
                        "{3:f2}x ({0} tried, {1} failed, stopped on {2})",
                        search.candidatesTried, failedCount, search.stopReason,
                        double(minSpeedup))
              .str();
      if (search.candidatesTried == 0 && !result.lastBuildError.empty())
        why += "; no candidate could be built: " + result.lastBuildError;
      remarkAll("stark-search: left as is: " + why);
      return report;
    }

    const SearchNode &win = search.tree.node(*search.winner);
    if (!result.winner) {
      remarkAll("stark-search: left as is: the winning candidate does not "
                "parse back");
      return report;
    }
    double baseline = result.baselineSeconds;
    Builder b(&getContext());
    result.winner->setSymNameAttr(b.getStringAttr("winner"));
    problem.getBody()->push_back(result.winner.release());
    SmallVector<NamedAttribute> params;
    for (const auto &[k, v] : win.params)
      params.push_back(b.getNamedAttr(k, b.getStringAttr(v)));
    problem->setAttr(
        kWinnerAttrName,
        WinnerAttr::get(&getContext(), APFloat(baseline * 1e6), win.id,
                        /*chip=*/"", b.getDictionaryAttr(params),
                        APFloat(win.speedup), win.strategy, resolvedTarget,
                        APFloat(win.seconds * 1e6)));
    ++numWinners;
    if (database) {
      TuningRecord record = makeRecord(info, result, win, resolvedTarget);
      std::string error;
      if (failed(appendTuningRecord(tuningDb, record, error))) {
        problem.emitError() << "stark-search: tuning database: " << error;
        failedHard = true;
        return report;
      }
    }
    outcome.winner = true;
    outcome.speedup = win.speedup;
    remarkAll(llvm::formatv("stark-search: {0:f2}x faster on {1}: {2} {3} "
                            "(candidate {4} of {5}, {6} -> {7})",
                            win.speedup, resolvedTarget, win.strategy,
                            llvm::join(llvm::map_range(win.params,
                                                       [](const auto &kv) {
                                                         return kv.first + "=" +
                                                                kv.second;
                                                       }),
                                       " "),
                            win.id, search.candidatesTried,
                            formatDuration(baseline),
                            formatDuration(win.seconds))
                  .str());
    return report;
  }

  /// The record of `win`, the winner of the problem `info` searched here.
  TuningRecord makeRecord(ProblemAttr info, const ProblemSearchResult &result,
                          const SearchNode &win, StringRef resolvedTarget) {
    const SearchResult &search = *result.search;
    TuningRecord r;
    r.signature = info.getSignature().str();
    r.device = resolvedDevice;
    r.target = resolvedTarget.str();
    r.op = info.getOp().str();
    r.shapes = info.getShapes().str();
    r.entry = info.getEntry().str();
    r.numOutputs = info.getNumOutputs();
    r.fusedOps = info.getFusedOps();
    r.strategy = win.strategy;
    r.params = win.params;
    r.candidate = win.id;
    r.module = search.payloads[win.id];
    r.baselineSeconds = result.baselineSeconds;
    r.winnerSeconds = win.seconds;
    r.speedup = win.speedup;
    r.allowTf32 = result.tf32Tolerance;
    r.search = llvm::json::Object{
        {"agent", std::string(agent)},
        {"budget", int64_t(budget)},
        {"seconds", double(seconds)},
        {"seed", int64_t(seed)},
        {"profile",
         profile.empty()
             ? std::string(resolvedTarget == "cuda" ? "h200" : "host")
             : std::string(profile)},
        {"min_speedup", double(minSpeedup)},
        {"trials", int64_t(trials)},
        {"timing_trials", int64_t(timingTrials)},
        {"candidates", search.candidatesTried},
        {"stop_reason", search.stopReason}};
    return r;
  }

  /// Makes `record` the winner of `problem` without searching.
  llvm::json::Object
  applyRecord(ModuleOp problem, ProblemAttr info, const TuningRecord &record,
              llvm::function_ref<void(const Twine &)> remarkAll) {
    llvm::json::Object report{{"problem", problem.getSymNameAttr().getValue()},
                              {"op", info.getOp()},
                              {"shapes", info.getShapes()},
                              {"signature", info.getSignature()},
                              {"source", "tuning-db"},
                              {"candidates", 0}};
    std::string error;
    if (failed(applyTuningRecord(problem, record, error))) {
      problem.emitError() << "stark-search: tuning database '" << tuningDb
                          << "': the record of " << info.getSignature()
                          << " on " << record.device
                          << " cannot be applied: " << error;
      failedHard = true;
      return report;
    }
    llvm::json::Object params;
    for (const auto &[k, v] : record.params)
      params[k] = v;
    report["baseline_seconds"] = record.baselineSeconds;
    report["tuning_db"] =
        llvm::json::Object{{"device", record.device},
                           {"strategy", record.strategy},
                           {"params", std::move(params)},
                           {"candidate", record.candidate},
                           {"seconds", record.winnerSeconds},
                           {"speedup", record.speedup},
                           {"stark_version", record.starkVersion},
                           {"recorded_at", record.recordedAt}};
    ++numFromTuningDb;
    ++numWinners;
    remarkAll(llvm::formatv(
                  "stark-search: from tuning database: {0:f2}x faster on {1}: "
                  "{2} {3} (recorded {4} on {5}, {6} -> {7})",
                  record.speedup, record.target, record.strategy,
                  llvm::join(llvm::map_range(record.params,
                                             [](const auto &kv) {
                                               return kv.first + "=" +
                                                      kv.second;
                                             }),
                             " "),
                  record.recordedAt, record.device,
                  formatDuration(record.baselineSeconds),
                  formatDuration(record.winnerSeconds))
                  .str());
    return report;
  }
};

} // namespace
