//===- Report.cpp - The JSON report of stark-search -----------------------===//

#include "stark/Search/Report.h"
#include "stark/Analysis/HotOpAnalysis.h"
#include "stark/Dialect/StarkDialect.h"
#include "stark/Problem/FusionGroup.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::stark;

llvm::json::Object
mlir::stark::paramsToJSON(const std::map<std::string, std::string> &params) {
  llvm::json::Object o;
  for (const auto &[k, v] : params)
    o[k] = v;
  return o;
}

llvm::json::Object mlir::stark::nodeToJSON(const SearchNode &n) {
  llvm::json::Object o{{"id", n.id},
                       {"parent", n.parent},
                       {"depth", n.depth},
                       {"strategy", n.strategy},
                       {"params", paramsToJSON(n.params)},
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

llvm::json::Object
mlir::stark::problemToJSON(StringRef symbol, ProblemAttr info,
                           const ProblemSearchResult &result) {
  llvm::json::Object report{{"problem", symbol},
                            {"op", info.getOp()},
                            {"shapes", info.getShapes()},
                            {"signature", info.getSignature()}};
  if (result.status == ProblemSearchStatus::Skipped)
    report["skipped"] = result.message;
  if (result.llmUsage) {
    llvm::json::Object llm{
        {"requests", result.llmUsage->requests},
        {"prompt_tokens", result.llmUsage->promptTokens},
        {"completion_tokens", result.llmUsage->completionTokens}};
    if (!result.fallbackReason.empty())
      llm["fallback"] = result.fallbackReason;
    report["llm"] = std::move(llm);
  }
  if (result.status == ProblemSearchStatus::Error)
    report["error"] = result.message;
  if (result.status != ProblemSearchStatus::Searched)
    return report;

  const SearchResult &search = *result.search;
  llvm::json::Array nodes;
  for (int64_t id = 0; id < search.tree.size(); ++id)
    nodes.push_back(nodeToJSON(search.tree.node(id)));
  report["baseline_seconds"] = result.baselineSeconds;
  report["references"] =
      llvm::json::Object{{"runs", result.referenceRuns},
                         {"reused", result.referencesReused},
                         {"allowance_seconds", result.referenceAllowance}};
  if (!result.toleranceKind.empty())
    report["tolerance"] =
        llvm::json::Object{{"element_type", result.toleranceKind},
                           {"atol", result.tolerance.atol},
                           {"rtol", result.tolerance.rtol},
                           {"tf32", result.tf32Tolerance}};
  llvm::json::Object phases;
  for (const auto &[name, seconds] : result.phaseSeconds)
    phases[name] = seconds;
  report["evaluations"] = llvm::json::Object{
      {"count", result.evaluations},
      {"wall_seconds", llvm::json::Array(result.evaluationSeconds)},
      {"problem_wall_seconds", result.problemEvaluationSeconds},
      {"retime_wall_seconds", llvm::json::Array(result.retimeSeconds)},
      {"sanitizer_wall_seconds", llvm::json::Array(result.sanitizerSeconds)},
      {"judge_phase_seconds", std::move(phases)}};
  report["candidates"] = search.candidatesTried;
  report["stop_reason"] = search.stopReason;
  report["nodes"] = std::move(nodes);
  if (!result.retimed.empty())
    report["retimed"] = llvm::json::Array(result.retimed);
  // A winner that does not parse back is no winner, and no "no winner".
  if (!search.winner)
    report["winner"] = nullptr;
  else if (result.winner)
    report["winner"] = *search.winner;
  return report;
}

LogicalResult mlir::stark::writeSearchReport(StringRef path,
                                             const SearchReportHeader &header,
                                             llvm::json::Array problems,
                                             std::string &error) {
  llvm::json::Object root{{"version", 1},
                          {"target", header.target},
                          {"agent", header.agent},
                          {"profile", header.profile},
                          {"budget", header.budget},
                          {"seconds", header.seconds},
                          {"seed", header.seed},
                          {"allow_tf32", header.allowTf32},
                          {"problems", std::move(problems)}};
  if (header.llm)
    root["llm"] = *header.llm;
  if (header.totalSeconds > 0)
    root["total_seconds"] = header.totalSeconds;
  if (!header.summary.empty())
    root["summary"] = llvm::json::Object(header.summary);
  if (!header.plan.empty())
    root["plan"] = llvm::json::Object(header.plan);
  if (header.evaluation)
    root["evaluation"] = llvm::json::Object(*header.evaluation);
  if (!header.synthesizedWeights.empty())
    root["synthesized_weights"] = llvm::json::Array(header.synthesizedWeights);
  root["left_upstream"] = llvm::json::Array(header.leftUpstream);
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return failure();
  file->os() << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)))
             << "\n";
  file->keep();
  return success();
}

void mlir::stark::reportFusedOrUnfused(ModuleOp program, double minSpeedup,
                                       llvm::json::Array &reports) {
  for (UnfusedComparison &c : chooseFusedOrUnfused(program, minSpeedup)) {
    StringRef name = c.fused.getSymNameAttr().getValue();
    std::string message;
    if (!c.fusedMicroseconds || !c.aloneMicroseconds)
      message =
          llvm::formatv("stark-search: @{0} stays fused, not compared "
                        "with its ops alone: {1}{2}",
                        name, c.fusedMicroseconds ? "" : "it was not timed; ",
                        c.aloneSummary)
              .str();
    else
      message = llvm::formatv(
                    "stark-search: {0}: @{1} ({2:f2} us) is {3}{4:f2}x "
                    "slower than its ops alone: {5}",
                    c.unfused ? "unfused" : "fused", name, *c.fusedMicroseconds,
                    c.unfused ? "" : "not ", minSpeedup, c.aloneSummary)
                    .str();
    SmallVector<Operation *> ops;
    for (ModuleOp alone : c.alone)
      for (Operation *op : getOpsOfProblem(program, alone.getSymNameAttr(),
                                           kUnfusedProblemAttrName))
        if (!llvm::is_contained(ops, op))
          ops.push_back(op);
    for (Operation *op : ops)
      op->emitRemark() << message;
    if (ops.empty())
      c.fused.emitRemark() << message;
    llvm::json::Object entry{
        {"chosen", c.unfused ? "unfused" : "fused"},
        {"problems",
         llvm::json::Array(llvm::map_range(
             c.alone,
             [](ModuleOp m) { return m.getSymNameAttr().getValue().str(); }))},
        {"summary", c.aloneSummary}};
    if (c.fusedMicroseconds)
      entry["fused_seconds"] = *c.fusedMicroseconds * 1e-6;
    if (c.aloneMicroseconds)
      entry["alone_seconds"] = *c.aloneMicroseconds * 1e-6;
    for (llvm::json::Value &report : reports)
      if (llvm::json::Object *o = report.getAsObject())
        if (o->getString("problem") == name)
          (*o)["unfused"] = llvm::json::Object(entry);
  }
}

llvm::json::Array
mlir::stark::describeOpsLeftUpstream(ModuleOp program,
                                     const HardwareProfile &profile) {
  llvm::json::Array out;
  for (auto func : program.getOps<FunctionOpInterface>()) {
    HotOpRanking ranking = rankHotOps(func, profile);
    DenseMap<Operation *, std::string> why;
    for (Operation *op : ranking.compileTime)
      why[op] = "computed from constants alone (compile-time work)";
    for (const UnknownCostOp &u : ranking.unknown)
      why[u.op] = "cost unknown: " + u.reason;
    for (const RankedOp &r : ranking.ranked) {
      // A hot op (stark-hot-ops marked it) in no problem was refused by
      // stark-outline, whose remark says why.
      std::string notHot =
          r.op->hasAttr(kCostAttrName)
              ? std::string("hot, but not outlined (see stark-outline's "
                            "remark)")
              : llvm::formatv("not hot: rank {0} of {1}, {2:f2}% of the "
                              "estimated time (outside top-k or under "
                              "min-share)",
                              r.rank, ranking.ranked.size(), 100 * r.share)
                    .str();
      why[r.op] = notHot;
      // A fill goes with the op whose output it initialises: in that op's
      // problem when the op has one.
      if (r.initFill)
        why[r.initFill] = r.op->hasAttr(kProblemAttrName) ? "" : notHot;
    }
    func.walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kProblemAttrName))
        return;
      std::string loc;
      llvm::raw_string_ostream os(loc);
      op->getLoc().print(os);
      auto it = why.find(op);
      if (it != why.end() && it->second.empty())
        return;
      out.push_back(llvm::json::Object{
          {"op", op->getName().getStringRef()},
          {"loc", loc},
          {"why", it != why.end() ? it->second : "not outlined"}});
    });
  }
  return out;
}
