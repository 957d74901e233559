//===- TransformScript.h - Transform scripts built as ops -------*- C++ -*-===//
//
// The CPU and CUDA schedules are transform-dialect scripts: one
// `transform.named_sequence @__transform_main` in a module of its own, built
// with the ops' builders (so a malformed script is a build error, caught
// when the candidate is built, not a parse error when it runs), applied by
// the transform interpreter and printed where the script is recorded.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_STRATEGIES_TRANSFORMSCRIPT_H
#define STARK_STRATEGIES_TRANSFORMSCRIPT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::stark {

/// The largest tile <= `want` that divides `extent` (tails would need
/// masking, which the schedules do not do), or the whole extent when it is
/// small.
inline int64_t getDividingTile(int64_t extent, int64_t want) {
  if (extent <= want)
    return extent;
  for (int64_t t = want; t >= 1; --t)
    if (extent % t == 0)
      return t;
  return 1;
}

/// Builds the body of `@__transform_main` op by op; every handle is a
/// `!transform.any_op`. The helpers cover the ops the schedules use more
/// than once; any other transform op is created on `getBuilder()` at
/// `getLoc()`.
class TransformScriptBuilder {
public:
  /// `consumesRoot`: the sequence consumes its root handle (scripts that
  /// bufferise the whole payload); otherwise it only reads it.
  TransformScriptBuilder(MLIRContext *ctx, bool consumesRoot);

  OpBuilder &getBuilder() { return builder; }
  Location getLoc() const { return loc; }
  Type getAnyOpType() const { return anyOp; }
  /// The handle of the payload root (the problem module).
  Value getRoot() const { return root; }

  /// `transform.structured.match ops{[names...]} in target`, restricted to
  /// ops carrying `opAttrs` when given.
  Value matchOps(Value target, ArrayRef<StringRef> names,
                 DictionaryAttr opAttrs = {});
  /// `transform.structured.match interface{LinalgOp} in target`.
  Value matchLinalgOps(Value target);

  /// `transform.structured.tile_using_forall target tile_sizes [...]` with an
  /// optional mapping; returns the tiled op and the forall.
  std::pair<Value, Value> tileUsingForall(Value target, ArrayRef<int64_t> tiles,
                                          ArrayAttr mapping = {});
  /// `transform.structured.tile_using_for target tile_sizes [...]`; returns
  /// the tiled op and one loop handle per non-zero tile (`target` and no
  /// loops when every tile is zero).
  std::pair<Value, SmallVector<Value>> tileUsingFor(Value target,
                                                    ArrayRef<int64_t> tiles);

  /// `transform.apply_patterns to target { ... }`; `patterns` creates the
  /// pattern ops in the region.
  void applyPatterns(Value target,
                     function_ref<void(OpBuilder &, Location)> patterns);
  /// `transform.apply_cse to target`.
  void applyCse(Value target);

  /// Ends the sequence and verifies the script; a script that does not
  /// verify is an internal error, reported in `error`.
  FailureOr<OwningOpRef<ModuleOp>> finish(std::string &error);

private:
  OwningOpRef<ModuleOp> module;
  OpBuilder builder;
  Location loc;
  Type anyOp;
  Value root;
};

/// The script as text, the form it is recorded in (without locations).
std::string printTransformScript(ModuleOp script);

/// Collects the error diagnostics of a context while it lives, instead of
/// printing them: a schedule that does not apply is an ordinary outcome.
class ErrorCollector {
public:
  explicit ErrorCollector(MLIRContext *ctx);
  /// The errors so far, one per line.
  const std::string &getText() const { return text; }

private:
  std::string text;
  ScopedDiagnosticHandler handler;
};

/// Applies the entry sequence of `script` to `candidate`. A schedule that
/// does not apply is an ordinary outcome of the search: its diagnostics go
/// into `error` ("the schedule does not apply: ..."), not to the user.
LogicalResult applyTransformScript(ModuleOp candidate, ModuleOp script,
                                   std::string &error);

} // namespace mlir::stark

#endif // STARK_STRATEGIES_TRANSFORMSCRIPT_H
