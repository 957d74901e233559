//===- KernelProblem.h - One hot op as a self-contained module -*- C++ -*-===//
//
// A kernel problem is what the search optimises and the evaluator judges: a
// module with one public function whose arguments are statically shaped,
// identity-layout memrefs (inputs, then outputs) and whose body is the
// original linalg op on those memrefs. Its signature hashes the canonical
// form of that module, so the same op gets the same signature across runs,
// machines, and tensor or memref spellings.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_PROBLEM_KERNELPROBLEM_H
#define STARK_PROBLEM_KERNELPROBLEM_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::stark {

/// Attribute on a problem module: {entry, num_outputs, op, shapes, signature}.
inline constexpr StringLiteral kProblemAttrName = "stark.problem";
/// Name of the entry function of outlined problems.
inline constexpr StringLiteral kProblemEntryName = "kernel";

struct KernelProblemInfo {
  std::string entry;
  int64_t numOutputs = 0;
  std::string opName;
  /// Operand shapes and element types, e.g. "64x32xf32,32x16xf32->64x16xf32".
  std::string shapes;
  /// Hex digest of the canonical problem module.
  std::string signature;
  /// Linalg ops the problem holds: more than one for a fused chain (see
  /// FusionGroup.h).
  int64_t fusedOps = 1;
};

/// Builds the problem module of `op`, a linalg structured op or
/// linalg.softmax (tensors become memref arguments, constants the body or a
/// fill captures are cloned in). Fails, with the reason in `whyNot`, for
/// other ops, dynamic shapes and operands that are neither shaped nor
/// constants.
FailureOr<OwningOpRef<ModuleOp>> outlineKernelProblem(Operation *op,
                                                      std::string &whyNot);

/// Reads the stark.problem attribute of `module`.
FailureOr<KernelProblemInfo> getKernelProblemInfo(ModuleOp module,
                                                  std::string &error);

/// The signature of a problem module: SHA-256 (first 128 bits, hex) of its
/// generic form without locations and without the stark.problem attribute.
std::string computeProblemSignature(ModuleOp problem);

/// Signs `problem` (computeProblemSignature) and sets its stark.problem
/// attribute: entry, num_outputs, op, shapes, signature, and `fused_ops`
/// when `fusedOps` is given.
void setProblemAttr(ModuleOp problem, int64_t numOutputs, StringRef op,
                    StringRef shapes,
                    std::optional<int64_t> fusedOps = std::nullopt);

} // namespace mlir::stark

#endif // STARK_PROBLEM_KERNELPROBLEM_H
