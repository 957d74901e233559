//===- CudaCodegen.h - CUDA C++ from payloads -------------------*- C++ -*-===//
//
// The CUDA C++ emitter of the template families: the C++ types of element
// kinds and a problem's payload (a ScalarProgram, see CudaTemplates.h) as
// CUDA statements.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_STRATEGIES_CUDACODEGEN_H
#define STARK_STRATEGIES_CUDACODEGEN_H

#include "stark/Strategies/CudaTemplates.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::stark {

/// The C++ type an element has in memory (`__half` for f16).
StringRef getCudaStorageType(ElementKind kind);
/// The C++ type values of this kind are computed in: f16 and bf16 are
/// promoted to `float` (the evaluator's reference for them is the f32 copy
/// of the problem, so intermediate roundings to 16 bits would only add
/// error), everything else computes in its own type.
StringRef getCudaComputeType(ElementKind kind);

/// CUDA statements computing `program`. `args` are C++ expressions for the
/// arguments, already in their compute type; `indices` names the loop
/// indices for linalg.index. Each node becomes `const T <prefix><id> = ...;`
/// and the expressions of the yielded values are returned in `results`.
/// `roots` replaces the program's yields when not empty.
std::string emitScalarProgram(const ScalarProgram &program,
                              ArrayRef<std::string> args,
                              ArrayRef<std::string> indices, StringRef prefix,
                              SmallVectorImpl<std::string> &results,
                              ArrayRef<int> roots = {});

/// The CUDA expression of one arith / math node of `program` whose operands
/// have the expressions `operands` (in their compute types).
std::string emitScalarOp(const ScalarProgram &program, const ScalarNode &node,
                         ArrayRef<std::string> operands);

/// The CUDA literal of a constant of `kind` ("2.0f", "__int_as_float(...)").
std::string emitScalarLiteral(ElementKind kind, double floatValue,
                              int64_t intValue);

} // namespace mlir::stark

#endif // STARK_STRATEGIES_CUDACODEGEN_H
