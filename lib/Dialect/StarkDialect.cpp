//===- StarkDialect.cpp - The stark dialect and its attribute checks ------===//

#include "stark/Dialect/StarkDialect.h"
#include "stark/Dialect/StarkAttrs.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stark;

#include "stark/Dialect/StarkDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "stark/Dialect/StarkAttrs.cpp.inc"

void StarkDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "stark/Dialect/StarkAttrs.cpp.inc"
      >();
}

void mlir::stark::registerStarkDialect(DialectRegistry &registry) {
  registry.insert<StarkDialect>();
  // The builtin dialect is loaded in every context: load stark with it.
  registry.addExtension(+[](MLIRContext *ctx, BuiltinDialect *) {
    ctx->loadDialect<StarkDialect>();
  });
}

namespace {

/// The error for a `stark.*` attribute that is not the typed one; old
/// string-keyed dictionaries get told so.
LogicalResult wrongKind(Operation *op, NamedAttribute attr,
                        StringRef expected) {
  InFlightDiagnostic diag = op->emitOpError()
                            << "'" << attr.getName().getValue()
                            << "' must be a " << expected << " attribute";
  if (isa<DictionaryAttr>(attr.getValue()))
    diag << " (string-keyed dictionaries are no longer accepted)";
  return diag;
}

/// An attribute with two forms: the typed `ModuleAttrT` (spelled
/// `moduleKind`) on a problem module, an `OpAttrT` on the ops that refer to
/// it; `opError` says what the latter must be.
template <typename ModuleAttrT, typename OpAttrT>
LogicalResult verifyModuleOrOpForm(Operation *op, NamedAttribute attr,
                                   StringRef moduleKind, StringRef opError) {
  if (isa<ModuleOp>(op)) {
    if (!isa<ModuleAttrT>(attr.getValue()))
      return wrongKind(op, attr, moduleKind);
    return success();
  }
  if (!isa<OpAttrT>(attr.getValue()))
    return op->emitOpError() << opError;
  return success();
}

} // namespace

LogicalResult StarkDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  if (name == kCostAttrName) {
    if (!isa<CostAttr>(value))
      return wrongKind(op, attr, "#stark.cost");
    return success();
  }
  if (name == kProblemAttrName) {
    // A problem module describes itself; the ops it was outlined from name
    // it.
    return verifyModuleOrOpForm<ProblemAttr, FlatSymbolRefAttr>(
        op, attr, "#stark.problem",
        "'stark.problem' must be a symbol reference to a problem module (a "
        "#stark.problem attribute belongs on the module)");
  }
  if (name == kWinnerAttrName) {
    // On a problem module: the search's result. On the call that replaced
    // an op: provenance in a builtin dictionary, which stock tools lowering
    // the output can read.
    return verifyModuleOrOpForm<WinnerAttr, DictionaryAttr>(
        op, attr, "#stark.winner",
        "'stark.winner' on a substituted call must be a dictionary "
        "{candidate, signature, speedup, strategy} (a #stark.winner "
        "attribute belongs on a problem module)");
  }
  if (name == kCudaAttrName || name == kScheduleAttrName) {
    bool cuda = name == kCudaAttrName;
    if (cuda ? !isa<CudaKernelAttr>(value) : !isa<ScheduleAttr>(value))
      return wrongKind(op, attr, cuda ? "#stark.cuda" : "#stark.schedule");
    if (!isa<FunctionOpInterface>(op))
      return op->emitOpError() << "'" << name << "' belongs on a function";
    return success();
  }
  if (name == kUnfusedAttrName) {
    auto refs = dyn_cast<ArrayAttr>(value);
    if (!isa<ModuleOp>(op) || !refs ||
        !llvm::all_of(refs, llvm::IsaPred<FlatSymbolRefAttr>))
      return op->emitOpError() << "'stark.unfused' belongs on a problem module "
                                  "and lists the symbols of problems";
    return success();
  }
  if (name == kUnfusedProblemAttrName) {
    if (!isa<FlatSymbolRefAttr>(value))
      return op->emitOpError()
             << "'stark.unfused_problem' must be a symbol reference to a "
                "problem module";
    return success();
  }
  if (name == kBaselineAttrName) {
    auto time = dyn_cast<FloatAttr>(value);
    if (!isa<ModuleOp>(op) || !time || !(time.getValueAsDouble() > 0))
      return op->emitOpError() << "'stark.baseline_us' belongs on a problem "
                                  "module and is a positive time";
    return success();
  }
  // On a program: the weights synthesised in it (Analysis/ElidedWeights.h).
  if (name == "stark.synthesized_weights") {
    auto names = dyn_cast<ArrayAttr>(value);
    if (!isa<ModuleOp>(op) || !names ||
        !llvm::all_of(names, llvm::IsaPred<StringAttr>))
      return op->emitOpError()
             << "'stark.synthesized_weights' belongs on a module and lists "
                "the names of the weights synthesised in it";
    return success();
  }
  if (name == "stark.template")
    return op->emitOpError() << "'stark.template' is no longer used: the "
                                "family and params are part of #stark.cuda";
  // Other stark.* names are markers of their own (stark.cpu.threads,
  // stark.unroll inside transform scripts).
  return success();
}
