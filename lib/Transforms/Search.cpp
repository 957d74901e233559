//===- Search.cpp - Search a verified, faster lowering per problem --------===//
//
// Thin pass over searchModel (stark/Search/ModelSearch.h): the problems in
// order of expected gain, budgets planned on one clock, and the expert's
// first pick for every problem whose turn does not come; a remark on each
// op says what it got. With a tuning database (stark/Tuning), recorded
// winners of this device replace the search, those of other devices seed
// it, and new winners are recorded.
//
//===----------------------------------------------------------------------===//

#include "stark/Eval/Evaluator.h"
#include "stark/LLM/Config.h"
#include "stark/Search/ModelSearch.h"
#include "stark/Search/Report.h"
#include "stark/Search/RunResources.h"
#include "stark/Strategies/CpuStrategies.h"
#include "stark/Transforms/Passes.h"
#include "stark/Tuning/SearchRecords.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <algorithm>

namespace mlir::stark {
#define GEN_PASS_DEF_STARKSEARCHPASS
#include "stark/Transforms/Passes.h.inc"
} // namespace mlir::stark

using namespace mlir;
using namespace mlir::stark;

namespace {

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
    auto fail = [&](const Twine &message) {
      return module.emitError() << "stark-search: " << message;
    };
    if (target != "auto" && target != "cpu" && target != "cuda")
      return fail("unknown target '" + target +
                  "'; expected cpu, cuda or auto");
    if (agent != "expert" && agent != "replay" &&
        (agent != "llm" || !STARK_ENABLE_LLM))
      return fail("agent '" + agent +
                  "' is not available in this build; expected expert, " +
                  (STARK_ENABLE_LLM ? "llm or replay"
                                    : "or replay (llm needs libcurl)"));
    if (agent == "replay" && transcript.empty())
      return fail("agent replay needs transcript=FILE");
    if (llmFallback != "none" && llmFallback != "expert")
      return fail("unknown llm-fallback '" + llmFallback +
                  "'; expected none or expert");
    if (llmConcurrency > llm::kMaxConcurrency)
      return fail("llm-concurrency must be a whole number from 1 to " +
                  Twine(llm::kMaxConcurrency) + ", got " +
                  Twine(unsigned(llmConcurrency)));
    std::pair<bool, const char *> checks[] = {
        {budget == 0, "budget must be at least 1"},
        {!(seconds > 0) || !(timeout > 0),
         "seconds and timeout must be positive"},
        {!(totalSeconds >= 0), "total-seconds must not be negative"},
        {!(evaluationPrior > 0), "evaluation-prior must be positive"},
        {!(referenceTimeout > 0), "reference-timeout must be positive"},
        {!(minSpeedup >= 0.0), "min-speedup must not be negative"},
        {minSpeedup < 1.0 && !tuningDb.empty(),
         "min-speedup below 1 would record winners slower than their "
         "baseline; leave tuning-db out"},
        {timingTrials == 0, "timing-trials must be at least 1"},
        {trials == 0, "trials must be at least 1"},
        {devices == 0, "devices must be at least 1"},
        {workersPerDevice == 0, "workers-per-device must be at least 1"},
        {!(mpiGrace > 0), "mpi-grace must be positive"}};
    for (auto [bad, message] : checks)
      if (bad)
        return fail(message);
    std::string error;
    FailureOr<RunTarget> run =
        resolveRunTarget(getContext(), target, devices, device,
                         /*nameDevice=*/!tuningDb.empty(), error);
    if (failed(run))
      return fail(error);
    resolvedTarget = run->name;
    resolvedChip = run->chip;
    resolvedDevice = run->device;
    return success();
  }

  /// The device tuning records are keyed by (validateOptions).
  std::string resolvedDevice;
  /// The cuda device's chip, when the target is cuda (validateOptions).
  std::string resolvedChip;

  /// The options of the chat with a model (agent=llm).
  llm::ChatConfig getChatConfig() {
    llm::ChatConfig chat;
    chat.baseUrl = llmUrl;
    chat.model = llmModel;
    chat.apiKeyEnv = llmKeyEnv;
    chat.maxTokens = llmMaxTokens;
    chat.requestTimeout = llmTimeout;
    chat.connectTimeout = llmConnectTimeout;
    chat.retries = llmRetries;
    chat.backoff = llmBackoff;
    chat.tokenBudget = llmTokenBudget;
    chat.costBudget = llmCostBudget;
    chat.priceInput = llmPriceIn;
    chat.priceOutput = llmPriceOut;
    chat.seed = seed;
    return chat;
  }

  /// What every problem's search takes from the pass's options.
  void setProblemOptions(ProblemSearchOptions &p, StringRef resolvedTarget,
                         const RunModel &run) {
    p.target = resolvedTarget.str();
    p.agent = agent;
    p.transcript = transcript;
    p.budget = budget;
    p.seconds = seconds;
    p.seed = seed;
    p.minSpeedup = minSpeedup;
    p.trials = trials;
    p.screen = screen;
    p.timingTrials = timingTrials;
    p.timeout = timeout;
    p.referenceTimeout = referenceTimeout;
    p.allowTf32 = allowTf32;
    p.sanitizers =
        getWinnerSanitizers(resolvedTarget, sanitizeWinner, getOperation());
    p.model = run.model;
    p.concurrency = run.concurrency;
    p.llm.target = resolvedTarget;
    p.llm.plannerTemperature = llmPlannerTemperature;
    p.llm.coderTemperature = llmCoderTemperature;
    p.llm.debuggerTemperature = llmDebuggerTemperature;
    p.llm.promptDir = llmPrompts;
    if (llmFallback == "expert")
      p.fallback = "expert";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The run's clock starts here (ModelSearchOptions::start).
    ModelSearchOptions options;
    ProblemSearchOptions &p = options.problem;
    std::string resolvedTarget, error;
    auto fail = [&](const Twine &message) {
      module.emitError() << "stark-search: " << message;
      signalPassFailure();
    };
    if (failed(validateOptions(module, resolvedTarget)))
      return signalPassFailure();
    std::string profileName = profile;
    if (profileName.empty())
      profileName = resolvedTarget == "cuda" ? "h200" : "host";
    std::optional<HardwareProfile> hw = lookupHardwareProfile(profileName);
    if (!hw)
      return fail("unknown hardware profile '" + profileName + "'");
    // The model and the evaluators every problem's search shares.
    RunModel run;
    if (failed(setUpRunModel(agent, transcript, getChatConfig(), llmProvider,
                             llmConcurrency, run, error)))
      return fail(error);
    FailureOr<std::unique_ptr<EvalPool>> pooled = createSearchPool(
        resolvedTarget, devices, workersPerDevice, mpi, mpiGrace, error);
    if (failed(pooled))
      return fail(error);
    std::unique_ptr<EvalPool> pool = std::move(*pooled);
    // Declared after the pool, so destroyed before it.
    std::unique_ptr<Precompiler> precompiler = createSearchPrecompiler(
        precompile, resolvedTarget, resolvedChip, pool.get());
    setProblemOptions(p, resolvedTarget, run);
    // As many candidates at once as there are evaluators.
    p.pool = pool.get();
    p.precompiler = precompiler.get();
    p.batch = pool ? pool->size() : 1;
    options.totalSeconds = totalSeconds;
    options.evaluationSecondsPrior = evaluationPrior;
    options.progress = progress;
    // One conversation with a model at a time.
    options.sideBySide = !run.model;
    std::unique_ptr<RecordedWinners> records;
    if (!tuningDb.empty()) {
      FailureOr<TuningDatabase> read = readTuningDatabase(tuningDb, error);
      if (failed(read))
        return fail("tuning database: " + error);
      records = createSearchRecords(
          std::move(*read), {tuningDb, resolvedDevice, profileName, retune}, p);
      options.records = records.get();
    }

    ModelSearchResult result = searchModel(module, *hw, options);
    for (auto &[op, message] : result.remarks)
      op->emitRemark() << message;
    if (result.failed)
      return signalPassFailure();
    numProblems += result.searched;
    numCandidates += result.candidates;
    numWinners += result.winners;
    numFromTuningDb += result.fromRecords;
    // A chain and its ops alone are both verified: with min-speedup below 1
    // (correctness only) the faster of the two is kept.
    reportFusedOrUnfused(module, std::max(1.0, double(minSpeedup)),
                         result.reports);
    if (progress)
      llvm::errs() << result.summaryText << "\n";
    if (summary && !result.reports.empty())
      module.emitRemark() << result.summaryText;
    warnLostEvaluators(module, pool.get());
    if (report.empty())
      return;
    SearchReportHeader header{resolvedTarget,  agent,           profileName,
                              int64_t(budget), double(seconds), int64_t(seed),
                              allowTf32};
    header.llm = describeModelUse(run, result.requests, result.promptTokens,
                                  result.completionTokens);
    header.totalSeconds = totalSeconds;
    describeModelSearch(module, *hw, result, header);
    header.evaluation = describeEvaluators(pool.get(), precompiler.get(),
                                           devices, workersPerDevice, mpi);
    if (failed(writeSearchReport(report, header, std::move(result.reports),
                                 error)))
      return fail(error);
  }
};

} // namespace
