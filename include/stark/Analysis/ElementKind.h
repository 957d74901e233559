//===- ElementKind.h - The element types stark reads and moves --*- C++ -*-===//
//
// One enum for the element types of problems: the evaluator generates,
// moves and compares them, the generators read and compute them. `index`
// is I64. (HardwareProfile's compute types are a different thing: rate
// classes of the hardware.)
//
//===----------------------------------------------------------------------===//

#ifndef STARK_ANALYSIS_ELEMENTKIND_H
#define STARK_ANALYSIS_ELEMENTKIND_H

#include "stark/Analysis/AnalysisEnums.h"

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir::stark {

/// Bytes of one element in memory (i1 is stored as one byte).
int64_t getElementKindBytes(ElementKind kind);
/// The kind of an MLIR element type, or failure for other types.
FailureOr<ElementKind> getElementKind(Type type);
bool isFloatKind(ElementKind kind);
/// The kind a reduction over `kind` accumulates in: f32 for f16 and bf16,
/// else `kind` itself.
ElementKind getAccumulatorKind(ElementKind kind);

} // namespace mlir::stark

#endif // STARK_ANALYSIS_ELEMENTKIND_H
