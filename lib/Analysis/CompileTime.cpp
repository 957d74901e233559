//===- CompileTime.cpp - Values and ops known before the program runs -----===//

#include "stark/Analysis/CompileTime.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::stark;

/// Whether `load` reads a global that holds its value in the IR (not an
/// `#ml_program.extern` one the runtime provides).
static bool loadsConstantGlobal(ml_program::GlobalLoadConstOp load) {
  auto global = SymbolTable::lookupNearestSymbolFrom<ml_program::GlobalOp>(
      load, load.getGlobalAttr());
  return global && !global.getIsMutable() && global.getValue() &&
         isa<ElementsAttr>(*global.getValue());
}

bool CompileTimeValues::isKnown(Value value) {
  auto it = known.find(value);
  if (it != known.end())
    return it->second;
  // Assumed unknown while its operands are asked, so a cycle through a
  // graph region ends.
  known[value] = false;
  Operation *def = value.getDefiningOp();
  bool result = false;
  if (!def) {
    result = false;
  } else if (matchPattern(def, m_Constant())) {
    result = true;
  } else if (auto load = dyn_cast<ml_program::GlobalLoadConstOp>(def)) {
    result = loadsConstantGlobal(load);
  } else if (isa<tensor::EmptyOp>(def)) {
    result = llvm::all_of(def->getOperands(),
                          [&](Value size) { return isKnown(size); });
  } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(def)) {
    result =
        isCompileTimeOp(def) ||
        (isa<linalg::FillOp>(def) && linalgOp.hasPureTensorSemantics() &&
         llvm::all_of(def->getOperands(), [&](Value v) { return isKnown(v); }));
  } else if (isMemoryEffectFree(def)) {
    result =
        llvm::all_of(def->getOperands(), [&](Value v) { return isKnown(v); }) &&
        readsKnownCapturesOnly(def);
  }
  known[value] = result;
  return result;
}

bool CompileTimeValues::readsKnownCapturesOnly(Operation *op) {
  // A body reads more than the operands: torch-mlir's adaptive pooling
  // reads its input with `tensor.extract` of a tensor captured from above.
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  return llvm::all_of(captured, [&](Value v) { return isKnown(v); });
}

bool CompileTimeValues::isCompileTimeOp(Operation *op) {
  bool result = computeIsCompileTimeOp(op);
  // Remembered for the op's users: asked in program order, the questions
  // never recurse far back through a model.
  // (A fill is no compile-time op but may still yield a known value.)
  if (isa<linalg::LinalgOp>(op) && !isa<linalg::FillOp>(op))
    for (Value v : op->getResults())
      known.try_emplace(v, result);
  return result;
}

bool CompileTimeValues::computeIsCompileTimeOp(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  // A fill writes a scalar: it is how a splat is materialised, and the
  // contraction that accumulates into it owns it (InitFill.h).
  if (!linalgOp || isa<linalg::FillOp>(op) ||
      !linalgOp.hasPureTensorSemantics())
    return false;
  for (OpOperand *input : linalgOp.getDpsInputOperands())
    if (!isKnown(input->get()))
      return false;
  for (OpOperand &init : linalgOp.getDpsInitsMutable())
    if (linalgOp.payloadUsesValueFromOperand(&init) && !isKnown(init.get()))
      return false;
  // The payload may only compute (no loads, no calls with effects), and
  // only from known values.
  return llvm::all_of(
             linalgOp.getBlock()->getOperations(),
             [](Operation &inner) { return isMemoryEffectFree(&inner); }) &&
         readsKnownCapturesOnly(op);
}
