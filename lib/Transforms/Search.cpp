//===- Search.cpp - Search a verified, faster lowering per problem --------===//
//
// Thin pass over runSearch: one search per kernel problem, judged by the
// evaluator in worker processes; the winner is kept in the problem module.
//
//===----------------------------------------------------------------------===//

#include "stark/Search/Search.h"
#include "stark/Eval/Evaluator.h"
#include "stark/Problem/KernelProblem.h"
#include "stark/Search/EvaluatorJudge.h"
#include "stark/Search/Expert.h"
#include "stark/Search/Replay.h"
#include "stark/Strategies/CandidateSpaces.h"
#include "stark/Strategies/CpuStrategies.h"
#include "stark/Target/Target.h"
#include "stark/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace mlir::stark {
#define GEN_PASS_DEF_STARKSEARCHPASS
#include "stark/Transforms/Passes.h.inc"
} // namespace mlir::stark

using namespace mlir;
using namespace mlir::stark;

namespace {

llvm::json::Object nodeToJSON(const SearchNode &n) {
  llvm::json::Object params;
  for (const auto &[k, v] : n.params)
    params[k] = v;
  llvm::json::Object o{{"id", n.id},
                       {"parent", n.parent},
                       {"depth", n.depth},
                       {"strategy", n.strategy},
                       {"params", std::move(params)},
                       {"plan", n.plan},
                       {"changed_part", n.changedPart},
                       {"author", n.author},
                       {"status", n.status},
                       {"failed_children", n.failedChildren}};
  if (!n.failure.empty())
    o["failure"] = n.failure;
  if (n.state == NodeState::Passed) {
    o["seconds"] = n.seconds;
    o["speedup"] = n.speedup;
  }
  return o;
}

/// Ops of the program that belong to the problem named `symbol`.
SmallVector<Operation *> opsOfProblem(ModuleOp module, StringAttr symbol) {
  SmallVector<Operation *> ops;
  module->walk([&](Operation *op) {
    if (auto ref = op->getAttrOfType<FlatSymbolRefAttr>(kProblemAttrName))
      if (ref.getAttr() == symbol)
        ops.push_back(op);
  });
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
    if (agent != "expert" && agent != "replay")
      return module.emitError()
             << "stark-search: agent '" << agent
             << "' is not available in this build; expected expert or replay";
    if (agent == "replay" && transcript.empty())
      return module.emitError()
             << "stark-search: agent replay needs transcript=FILE";
    if (budget == 0)
      return module.emitError() << "stark-search: budget must be at least 1";
    if (!(seconds > 0) || !(timeout > 0))
      return module.emitError()
             << "stark-search: seconds and timeout must be positive";
    if (!(minSpeedup >= 1.0))
      return module.emitError()
             << "stark-search: min-speedup must be at least 1";
    if (timingTrials == 0)
      return module.emitError()
             << "stark-search: timing-trials must be at least 1";
    if (trials == 0)
      return module.emitError() << "stark-search: trials must be at least 1";
    resolvedTarget = target;
    std::string error;
    if (target == "auto" || target == "cuda") {
      std::unique_ptr<Target> cuda = createTarget("cuda", getContext(), error);
      std::string why = cuda ? cuda->getUnavailableReason() : error;
      if (target == "cuda" && !why.empty())
        return module.emitError() << "stark-search: target cuda: " << why;
      resolvedTarget = why.empty() ? "cuda" : "cpu";
    }
    return success();
  }

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

    SmallVector<ModuleOp> problems;
    for (auto nested : module.getOps<ModuleOp>())
      if (nested->hasAttr(kProblemAttrName) && nested.getSymNameAttr() &&
          !nested->hasAttr("stark.winner"))
        problems.push_back(nested);

    llvm::json::Array reports;
    failedHard = false;
    for (auto [index, problem] : llvm::enumerate(problems)) {
      llvm::json::Object report = searchOne(
          module, problem, index, problems.size(), resolvedTarget, *hw);
      reports.push_back(std::move(report));
      if (failedHard)
        return signalPassFailure();
    }

    if (!report.empty()) {
      llvm::json::Object root{{"version", 1},
                              {"target", resolvedTarget},
                              {"agent", agent},
                              {"profile", profileName},
                              {"budget", int64_t(budget)},
                              {"seconds", double(seconds)},
                              {"seed", int64_t(seed)},
                              {"problems", std::move(reports)}};
      std::string error;
      std::unique_ptr<llvm::ToolOutputFile> file =
          openOutputFile(report, &error);
      if (!file) {
        module.emitError() << "stark-search: " << error;
        return signalPassFailure();
      }
      file->os() << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)))
                 << "\n";
      file->keep();
    }
  }

  /// Set by searchOne on errors that must fail the pass (not the search).
  bool failedHard = false;

  llvm::json::Object searchOne(ModuleOp module, ModuleOp problem, size_t index,
                               size_t count, StringRef resolvedTarget,
                               const HardwareProfile &hw) {
    std::string error;
    KernelProblemInfo info = *getKernelProblemInfo(problem, error);
    StringAttr symbol = problem.getSymNameAttr();
    SmallVector<Operation *> ops = opsOfProblem(module, symbol);
    std::string label =
        llvm::formatv("{0} {1}", info.opName, info.shapes).str();
    llvm::json::Object report{{"problem", symbol.getValue()},
                              {"op", info.opName},
                              {"shapes", info.shapes},
                              {"signature", info.signature}};
    auto remarkAll = [&](const Twine &message) {
      for (Operation *op : ops)
        op->emitRemark() << message;
      if (ops.empty())
        problem.emitRemark() << message;
    };
    ++numProblems;

    // The problem as a standalone module, as the worker will parse it.
    OwningOpRef<ModuleOp> standalone = cast<ModuleOp>(problem->clone());
    std::string problemText;
    {
      llvm::raw_string_ostream os(problemText);
      standalone->print(os);
    }

    // The agent team: the expert policy over the target's candidate space,
    // or a replayed transcript.
    std::string whyNot;
    std::unique_ptr<CandidateSpace> space;
    std::unique_ptr<AgentTeam> agents;
    ExpertAgents *expert = nullptr;
    if (agent == "replay") {
      agents = ReplayAgents::load(transcript, whyNot);
      if (!agents) {
        problem.emitError() << "stark-search: " << whyNot;
        failedHard = true;
        return report;
      }
    } else {
      space = createCandidateSpace(resolvedTarget, *standalone, hw, whyNot);
      if (!space) {
        remarkAll("stark-search: left as is: no strategy applies (" + whyNot +
                  ")");
        report["skipped"] = whyNot;
        return report;
      }
      auto owned = std::make_unique<ExpertAgents>(*space);
      expert = owned.get();
      agents = std::move(owned);
    }

    EvalOptions evalOptions;
    evalOptions.seed = seed;
    evalOptions.correctnessTrials = trials;
    evalOptions.timing.minTrials = timingTrials;
    WorkerOptions worker;
    worker.targetName = resolvedTarget.str();
    worker.timeoutSeconds = timeout;
    EvaluatorJudge judge(problemText, symbol.getValue().str(), evalOptions,
                         worker);
    FailureOr<double> baseline = judge.measureBaseline(error);
    if (failed(baseline)) {
      remarkAll("stark-search: left as is: " + error);
      report["skipped"] = error;
      return report;
    }

    SearchTreeOptions treeOptions;
    treeOptions.minSpeedup = minSpeedup;
    SearchBudget searchBudget;
    searchBudget.maxCandidates = budget;
    searchBudget.maxSeconds = seconds;
    auto start = std::chrono::steady_clock::now();
    auto clock = [start] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                           start)
          .count();
    };
    auto onProgress = [&](const SearchProgress &p) {
      if (!progress)
        return;
      llvm::errs() << llvm::formatv(
          "stark-search: [{0}/{1}] {2}: candidate {3}/{4}, best {5:f2}x\n",
          index + 1, count, label, p.candidatesTried, int64_t(budget),
          p.bestSpeedup);
    };
    SearchResult result = runSearch(*baseline, *agents, judge, treeOptions,
                                    searchBudget, seed, clock, onProgress);
    numCandidates += result.candidatesTried;

    llvm::json::Array nodes;
    for (int64_t id = 0; id < result.tree.size(); ++id)
      nodes.push_back(nodeToJSON(result.tree.node(id)));
    report["baseline_seconds"] = *baseline;
    report["candidates"] = result.candidatesTried;
    report["stop_reason"] = result.stopReason;
    report["nodes"] = std::move(nodes);

    if (!result.winner) {
      int64_t failedCount = 0;
      for (int64_t id = 1; id < result.tree.size(); ++id)
        failedCount += result.tree.node(id).state == NodeState::Failed;
      std::string why =
          llvm::formatv("no verified candidate beat the baseline by "
                        "{3:f2}x ({0} tried, {1} failed, stopped on {2})",
                        result.candidatesTried, failedCount, result.stopReason,
                        double(minSpeedup))
              .str();
      if (result.candidatesTried == 0 && expert &&
          !expert->getLastBuildError().empty())
        why += "; no candidate could be built: " + expert->getLastBuildError();
      remarkAll("stark-search: left as is: " + why);
      report["winner"] = nullptr;
      return report;
    }

    const SearchNode &win = result.tree.node(*result.winner);
    OwningOpRef<ModuleOp> winner = parseSourceString<ModuleOp>(
        result.payloads[*result.winner], &getContext());
    if (!winner) {
      remarkAll("stark-search: left as is: the winning candidate does not "
                "parse back");
      return report;
    }
    Builder b(&getContext());
    winner->setSymNameAttr(b.getStringAttr("winner"));
    problem.getBody()->push_back(winner.release());
    SmallVector<NamedAttribute> params;
    for (const auto &[k, v] : win.params)
      params.push_back(b.getNamedAttr(k, b.getStringAttr(v)));
    problem->setAttr(
        "stark.winner",
        b.getDictionaryAttr({
            b.getNamedAttr("baseline_us", b.getF64FloatAttr(*baseline * 1e6)),
            b.getNamedAttr("candidate", b.getI64IntegerAttr(win.id)),
            b.getNamedAttr("params", b.getDictionaryAttr(params)),
            b.getNamedAttr("speedup", b.getF64FloatAttr(win.speedup)),
            b.getNamedAttr("strategy", b.getStringAttr(win.strategy)),
            b.getNamedAttr("target", b.getStringAttr(resolvedTarget)),
            b.getNamedAttr("winner_us", b.getF64FloatAttr(win.seconds * 1e6)),
        }));
    ++numWinners;
    report["winner"] = win.id;
    remarkAll(llvm::formatv("stark-search: {0:f2}x faster on {1}: {2} {3} "
                            "(candidate {4} of {5}, {6} -> {7})",
                            win.speedup, resolvedTarget, win.strategy,
                            llvm::join(llvm::map_range(win.params,
                                                       [](const auto &kv) {
                                                         return kv.first + "=" +
                                                                kv.second;
                                                       }),
                                       " "),
                            win.id, result.candidatesTried,
                            formatDuration(*baseline),
                            formatDuration(win.seconds))
                  .str());
    return report;
  }
};

} // namespace
