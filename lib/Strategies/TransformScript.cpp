//===- TransformScript.cpp - Transform scripts built as ops ---------------===//

#include "stark/Strategies/TransformScript.h"

#include "mlir/Dialect/Linalg/TransformOps/LinalgTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::stark;

TransformScriptBuilder::TransformScriptBuilder(MLIRContext *ctx,
                                               bool consumesRoot)
    : builder(ctx), loc(UnknownLoc::get(ctx)) {
  ctx->getOrLoadDialect<transform::TransformDialect>();
  anyOp = transform::AnyOpType::get(ctx);
  module = ModuleOp::create(loc);
  (*module)->setAttr(transform::TransformDialect::kWithNamedSequenceAttrName,
                     builder.getUnitAttr());
  builder.setInsertionPointToEnd(module->getBody());
  auto sequence = transform::NamedSequenceOp::create(
      builder, loc, transform::TransformDialect::kTransformEntryPointSymbolName,
      anyOp, TypeRange(), [](OpBuilder &, Location, BlockArgument) {});
  sequence.setArgAttr(0,
                      consumesRoot
                          ? transform::TransformDialect::kArgConsumedAttrName
                          : transform::TransformDialect::kArgReadOnlyAttrName,
                      builder.getUnitAttr());
  Block &body = sequence.getBody().front();
  // The body builder of the sequence leaves the block without terminator:
  // finish() adds the yield.
  builder.setInsertionPointToEnd(&body);
  root = body.getArgument(0);
}

Value TransformScriptBuilder::matchOps(Value target, ArrayRef<StringRef> names,
                                       DictionaryAttr opAttrs) {
  auto match = transform::MatchOp::create(builder, loc, target, names);
  if (opAttrs)
    match.setOpAttrsAttr(opAttrs);
  return match.getResult();
}

Value TransformScriptBuilder::matchLinalgOps(Value target) {
  return transform::MatchOp::create(
             builder, loc, anyOp, target, /*ops=*/ArrayAttr(),
             transform::MatchInterfaceEnumAttr::get(
                 builder.getContext(), transform::MatchInterfaceEnum::LinalgOp),
             /*op_attrs=*/DictionaryAttr(), /*filter_result_type=*/TypeAttr(),
             /*filter_operand_types=*/ArrayAttr())
      .getResult();
}

std::pair<Value, Value>
TransformScriptBuilder::tileUsingForall(Value target, ArrayRef<int64_t> tiles,
                                        ArrayAttr mapping) {
  auto tiled = transform::TileUsingForallOp::create(
      builder, loc, target, tiles, transform::TileSizesSpec(), mapping);
  return {tiled.getTiledOp(), tiled.getForallOp()};
}

std::pair<Value, SmallVector<Value>>
TransformScriptBuilder::tileUsingFor(Value target, ArrayRef<int64_t> tiles) {
  if (llvm::all_of(tiles, [](int64_t t) { return t == 0; }))
    return {target, {}};
  auto tiled = transform::TileUsingForOp::create(builder, loc, target, tiles);
  return {tiled.getTiledLinalgOp(),
          llvm::to_vector_of<Value>(tiled.getLoops())};
}

void TransformScriptBuilder::applyPatterns(
    Value target, function_ref<void(OpBuilder &, Location)> patterns) {
  transform::ApplyPatternsOp::create(builder, loc, target, patterns);
}

void TransformScriptBuilder::applyCse(Value target) {
  transform::ApplyCommonSubexpressionEliminationOp::create(builder, loc,
                                                           target);
}

FailureOr<OwningOpRef<ModuleOp>>
TransformScriptBuilder::finish(std::string &error) {
  transform::YieldOp::create(builder, loc);
  std::string diagnostics;
  ScopedDiagnosticHandler handler(builder.getContext(), [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  if (failed(verify(*module))) {
    error = "internal error: the transform script does not verify:\n" +
            diagnostics + printTransformScript(*module);
    return failure();
  }
  return std::move(module);
}

std::string mlir::stark::printTransformScript(ModuleOp script) {
  std::string text;
  llvm::raw_string_ostream os(text);
  script->print(os, OpPrintingFlags());
  return text;
}

ErrorCollector::ErrorCollector(MLIRContext *ctx)
    : handler(ctx, [this](Diagnostic &d) {
        if (d.getSeverity() == DiagnosticSeverity::Error)
          text += d.str() + "\n";
        return success();
      }) {}

LogicalResult mlir::stark::applyTransformScript(ModuleOp candidate,
                                                ModuleOp script,
                                                std::string &error) {
  ErrorCollector errors(candidate.getContext());
  auto entry = script.lookupSymbol<transform::TransformOpInterface>(
      transform::TransformDialect::kTransformEntryPointSymbolName);
  if (failed(transform::applyTransformNamedSequence(
          candidate, entry, script, transform::TransformOptions()))) {
    error = "the schedule does not apply: " + errors.getText();
    return failure();
  }
  return success();
}
