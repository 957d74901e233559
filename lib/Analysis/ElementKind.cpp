//===- ElementKind.cpp - The element types stark reads and moves ----------===//

#include "stark/Analysis/ElementKind.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::stark;

#include "stark/Analysis/AnalysisEnums.cpp.inc"

int64_t mlir::stark::getElementKindBytes(ElementKind kind) {
  switch (kind) {
  case ElementKind::F64:
  case ElementKind::I64:
    return 8;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F16:
  case ElementKind::BF16:
  case ElementKind::I16:
    return 2;
  case ElementKind::I8:
  case ElementKind::I1:
    return 1;
  }
  return 0;
}

FailureOr<ElementKind> mlir::stark::getElementKind(Type type) {
  if (type.isF64())
    return ElementKind::F64;
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (type.isIndex())
    return ElementKind::I64;
  if (auto i = dyn_cast<IntegerType>(type)) {
    switch (i.getWidth()) {
    case 64:
      return ElementKind::I64;
    case 32:
      return ElementKind::I32;
    case 16:
      return ElementKind::I16;
    case 8:
      return ElementKind::I8;
    case 1:
      return ElementKind::I1;
    default:
      break;
    }
  }
  return failure();
}

ElementKind mlir::stark::getAccumulatorKind(ElementKind kind) {
  return kind == ElementKind::F16 || kind == ElementKind::BF16
             ? ElementKind::F32
             : kind;
}

bool mlir::stark::isFloatKind(ElementKind kind) {
  return kind == ElementKind::F64 || kind == ElementKind::F32 ||
         kind == ElementKind::F16 || kind == ElementKind::BF16;
}
