//===- TuningSpec.cpp - Tuning records as a transform-dialect spec --------===//

#include "stark/Tuning/TuningSpec.h"
#include "stark/Dialect/StarkAttrs.h"
#include "stark/Tuning/RecordedWinner.h"
#include "stark/Tuning/TuningTransformOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

FailureOr<std::vector<const TuningRecord *>>
mlir::stark::selectSpecRecords(const TuningDatabase &database,
                               std::string &device, bool allowTf32,
                               std::string &error) {
  if (device.empty()) {
    llvm::SetVector<StringRef> devices;
    for (const TuningRecord &r : database.records)
      devices.insert(r.device);
    if (devices.size() != 1) {
      error = devices.empty() ? "the database holds no records"
                              : "the database holds records of " +
                                    std::to_string(devices.size()) +
                                    " devices; choose one with --device (" +
                                    llvm::join(devices, ", ") + ")";
      return failure();
    }
    device = devices.front().str();
  }
  std::vector<const TuningRecord *> selected;
  llvm::SetVector<StringRef> signatures;
  for (const TuningRecord &r : database.records)
    if (r.device == device)
      signatures.insert(r.signature);
  for (StringRef signature : signatures)
    if (const TuningRecord *r = database.lookup(signature, device, allowTf32))
      selected.push_back(r);
  if (selected.empty()) {
    error = "the database holds no records for device '" + device + "'";
    return failure();
  }
  return selected;
}

/// The name of the op a record's problem is matched on: the op itself, the
/// contraction of a "linalg.fill + <op>" problem, or the last op of a fused
/// chain, "fused(<op>,...,<op>)".
static StringRef getAnchorOpName(StringRef op) {
  if (op.consume_front("fused(") && op.consume_back(")"))
    return op.rsplit(',').second.empty() ? op : op.rsplit(',').second;
  if (size_t plus = op.rfind(" + "); plus != StringRef::npos)
    return op.drop_front(plus + 3);
  return op;
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::stark::buildTuningSpec(ArrayRef<const TuningRecord *> records,
                             StringRef device, MLIRContext *context,
                             std::string &error) {
  Builder b(context);
  auto specAttr = b.getDictionaryAttr({
      b.getNamedAttr("device", b.getStringAttr(device)),
      b.getNamedAttr("records", b.getI64IntegerAttr(records.size())),
      b.getNamedAttr("stark_version", b.getStringAttr(getStarkVersion())),
      b.getNamedAttr("version", b.getI64IntegerAttr(kTuningDbVersion)),
  });
  // The spec is written as text and parsed back: the parser checks it, and
  // the text is what a reader of the shipped file sees.
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "module attributes {transform.with_named_sequence, "
     << kTuningSpecAttrName << " = " << specAttr << "} {\n";
  std::string pairs;
  // Winners go in after parsing, as IR: printed apart, their attribute
  // aliases would land inside the spec's body, where they cannot be.
  SmallVector<OwningOpRef<ModuleOp>> winners;
  for (const TuningRecord *r : records) {
    FailureOr<OwningOpRef<ModuleOp>> winner =
        parseRecordedWinner(*r, context, error);
    if (failed(winner)) {
      error = "record " + r->signature + ": " + error;
      return failure();
    }
    if (!(*winner)->lookupSymbol<func::FuncOp>(r->entry)) {
      error = "record " + r->signature + ": the recorded winner has no @" +
              r->entry;
      return failure();
    }
    (*winner)->setSymNameAttr(nullptr);
    auto problem =
        ProblemAttr::get(context, r->entry, r->fusedOps, r->numOutputs, r->op,
                         r->shapes, r->signature);
    WinnerAttr winnerAttr = getRecordedWinnerAttr(*r, context);
    StringRef anchor = getAnchorOpName(r->op);
    os << llvm::formatv(
        "transform.named_sequence @match_{0}(%op: !transform.any_op "
        "{{transform.readonly}) -> !transform.any_op {{\n",
        r->signature);
    if (anchor.starts_with("linalg."))
      os << "  transform.match.operation_name %op [" << b.getStringAttr(anchor)
         << "] : !transform.any_op\n";
    os << "  transform.stark.match_signature %op, "
       << b.getStringAttr(r->signature) << " {fused_ops = " << r->fusedOps
       << " : i64} : !transform.any_op\n"
       << "  transform.yield %op : !transform.any_op\n}\n";
    os << llvm::formatv("transform.named_sequence @apply_{0}(%op: "
                        "!transform.any_op {{transform.consumed}) {{\n",
                        r->signature);
    os << "  transform.stark.apply_winner %op {problem = " << problem
       << ", winner = " << winnerAttr << "} : !transform.any_op {\n"
       << "    module { func.func private @" << r->entry << "() }\n"
       << "  }\n  transform.yield\n}\n";
    winners.push_back(std::move(*winner));
    if (!pairs.empty())
      pairs += ", ";
    pairs += llvm::formatv("@match_{0} -> @apply_{0}", r->signature).str();
  }
  os << "transform.named_sequence @"
     << transform::TransformDialect::kTransformEntryPointSymbolName
     << "(%root: !transform.any_op {transform.consumed}) {\n"
     << "  %updated = transform.foreach_match in %root " << pairs
     << " : (!transform.any_op) -> !transform.any_op\n"
     << "  transform.yield\n}\n}\n";

  std::string messages;
  // Verified once the winners are in.
  OwningOpRef<ModuleOp> spec =
      parseModuleText(text, context, /*verifyModule=*/false, messages);
  if (!spec) {
    error = "the spec does not parse back: " + messages;
    return failure();
  }
  SmallVector<ApplyWinnerOp> actions;
  spec->walk([&](ApplyWinnerOp op) { actions.push_back(op); });
  assert(actions.size() == winners.size() && "one action per record");
  for (auto [action, winner] : llvm::zip(actions, winners)) {
    Block &body = action.getBody().front();
    body.front().erase();
    body.push_back(winner.release());
  }
  if (failed(verify(*spec))) {
    error = "the spec does not verify";
    return failure();
  }
  return spec;
}

LogicalResult mlir::stark::applyTuningSpec(ModuleOp payload, ModuleOp spec,
                                           std::string &error) {
  if (!spec->getAttrOfType<DictionaryAttr>(kTuningSpecAttrName)) {
    error = ("not a stark tuning spec (its module has no " +
             kTuningSpecAttrName + " attribute)")
                .str();
    return failure();
  }
  auto entry = spec.lookupSymbol<transform::NamedSequenceOp>(
      transform::TransformDialect::kTransformEntryPointSymbolName);
  if (!entry) {
    error = ("the tuning spec has no @" +
             transform::TransformDialect::kTransformEntryPointSymbolName)
                .str();
    return failure();
  }
  // Actions erase the ops they replace and create the calls; no handle
  // outlives foreach_match, so the expensive handle checks find nothing.
  transform::TransformOptions options;
  options.enableExpensiveChecks(false);
  if (failed(transform::applyTransformNamedSequence(payload, entry, spec,
                                                    options))) {
    error = "applying the tuning spec failed";
    return failure();
  }
  return success();
}
