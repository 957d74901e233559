//===- RecordedWinner.cpp - Tuning records as winners of problems ---------===//

#include "stark/Tuning/RecordedWinner.h"
#include "stark/Dialect/TypedParams.h"
#include "stark/Problem/KernelProblem.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

OwningOpRef<ModuleOp> mlir::stark::parseModuleText(StringRef text,
                                                   MLIRContext *context,
                                                   bool verifyModule,
                                                   std::string &messages) {
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    if (!messages.empty())
      messages += "; ";
    messages += diag.str();
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, context);
  if (module && verifyModule && failed(verify(*module)))
    return nullptr;
  return module;
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::stark::parseRecordedWinner(const TuningRecord &record,
                                 MLIRContext *context, std::string &error) {
  std::string messages;
  OwningOpRef<ModuleOp> winner =
      parseModuleText(record.module, context, /*verifyModule=*/true, messages);
  if (!winner) {
    error = "the recorded winner does not parse: " + messages;
    return failure();
  }
  return winner;
}

WinnerAttr mlir::stark::getRecordedWinnerAttr(const TuningRecord &record,
                                              MLIRContext *context) {
  return WinnerAttr::get(context, APFloat(record.baselineSeconds * 1e6),
                         record.candidate, record.chip,
                         getTypedParamsAttr(context, record.params),
                         APFloat(record.speedup), record.strategy,
                         record.target, APFloat(record.winnerSeconds * 1e6));
}

LogicalResult mlir::stark::checkRecordedWinner(ModuleOp problem,
                                               const TuningRecord &record,
                                               ModuleOp winner,
                                               std::string &error) {
  FailureOr<ProblemAttr> info = getProblemAttr(problem, error);
  if (failed(info))
    return failure();
  auto mismatch = [&](StringRef what, const Twine &recorded,
                      const Twine &actual) {
    error = ("the record's " + what + " (" + recorded +
             ") is not the problem's (" + actual + ")")
                .str();
    return failure();
  };
  if (record.signature != info->getSignature())
    return mismatch("signature", record.signature, info->getSignature());
  if (record.entry != info->getEntry())
    return mismatch("entry", record.entry, info->getEntry());
  if (record.numOutputs != info->getNumOutputs())
    return mismatch("num_outputs", Twine(record.numOutputs),
                    Twine(info->getNumOutputs()));
  if (record.fusedOps != info->getFusedOps())
    return mismatch("fused_ops", Twine(record.fusedOps),
                    Twine(info->getFusedOps()));
  auto problemEntry = problem.lookupSymbol<func::FuncOp>(info->getEntry());
  auto winnerEntry = winner.lookupSymbol<func::FuncOp>(info->getEntry());
  if (!winnerEntry) {
    error = ("the recorded winner has no @" + info->getEntry()).str();
    return failure();
  }
  if (problemEntry &&
      problemEntry.getFunctionType() != winnerEntry.getFunctionType()) {
    std::string recorded, actual;
    llvm::raw_string_ostream(recorded) << winnerEntry.getFunctionType();
    llvm::raw_string_ostream(actual) << problemEntry.getFunctionType();
    return mismatch("entry type", recorded, actual);
  }
  return success();
}

LogicalResult mlir::stark::applyTuningRecord(ModuleOp problem,
                                             const TuningRecord &record,
                                             std::string &error) {
  FailureOr<OwningOpRef<ModuleOp>> winner =
      parseRecordedWinner(record, problem.getContext(), error);
  if (failed(winner) ||
      failed(checkRecordedWinner(problem, record, **winner, error)))
    return failure();
  Builder b(problem.getContext());
  (*winner)->setSymNameAttr(b.getStringAttr("winner"));
  problem.getBody()->push_back(winner->release());
  problem->setAttr(kWinnerAttrName,
                   getRecordedWinnerAttr(record, problem.getContext()));
  return success();
}

Proposal mlir::stark::getSeedProposal(const TuningRecord &record) {
  Proposal p;
  p.node.strategy = record.strategy;
  p.node.params = record.params;
  p.node.plan = llvm::formatv("start from the winner recorded on {0} "
                              "({1:f2}x there)",
                              record.device, record.speedup)
                    .str();
  p.node.changedPart = "all";
  p.node.author = "tuning-db";
  p.payload = record.module;
  return p;
}
