//===- InitFill.cpp - The constant fill an accumulating op owns -----------===//

#include "stark/Analysis/InitFill.h"
#include "stark/Analysis/CostModel.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::stark;

linalg::FillOp mlir::stark::getConstantFill(Value v) {
  auto fill = v.getDefiningOp<linalg::FillOp>();
  if (!fill || fill.getInputs().size() != 1 ||
      !matchPattern(fill.getInputs()[0], m_Constant()))
    return {};
  return fill;
}

bool mlir::stark::readsInit(Operation *op, OpOperand &init) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.payloadUsesValueFromOperand(&init);
}

std::optional<double> mlir::stark::getFillValue(linalg::FillOp fill) {
  if (!fill || fill.getInputs().size() != 1)
    return std::nullopt;
  Attribute value;
  if (!matchPattern(fill.getInputs()[0], m_Constant(&value)))
    return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(value))
    return f.getValueAsDouble();
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    if (i.getType().isUnsignedInteger())
      return double(i.getValue().getZExtValue());
    return double(i.getValue().getSExtValue());
  }
  return std::nullopt;
}

linalg::FillOp mlir::stark::getOwnedInitFill(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!linalgOp || isa<linalg::FillOp>(op) || linalgOp.getNumDpsInits() != 1)
    return {};
  OpClass opClass = classifyLinalgOp(linalgOp);
  if (opClass != OpClass::Contraction && opClass != OpClass::Convolution &&
      opClass != OpClass::Reduction && opClass != OpClass::Pooling)
    return {};
  OpOperand &init = linalgOp.getDpsInitsMutable()[0];
  if (!linalgOp.payloadUsesValueFromOperand(&init))
    return {};
  Value out = init.get();
  if (isa<RankedTensorType>(out.getType())) {
    auto fill = out.getDefiningOp<linalg::FillOp>();
    if (!fill || !out.hasOneUse() || !getFillValue(fill))
      return {};
    return fill;
  }
  if (!isa<MemRefType>(out.getType()))
    return {};
  // On buffers, anything that touches memory between the fill and `op`
  // might read or write the buffer (or a view of it): only ops free of
  // memory effects may sit in between.
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    auto fill = dyn_cast<linalg::FillOp>(prev);
    if (fill && fill.getOutputs()[0] == out)
      return getFillValue(fill) ? fill : linalg::FillOp();
    if (!isMemoryEffectFree(prev))
      return {};
  }
  return {};
}
