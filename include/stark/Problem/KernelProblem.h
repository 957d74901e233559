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

#include "stark/Dialect/StarkAttrs.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::stark {

/// Name of the entry function of outlined problems.
inline constexpr StringLiteral kProblemEntryName = "kernel";

/// Builds the problem module of `op`, a linalg structured op or
/// linalg.softmax (tensors become memref arguments, constants the body or a
/// fill captures are cloned in). With `initFill` (getOwnedInitFill(op)),
/// the fill is part of the problem: the entry fills its output argument,
/// then `op` accumulates into it, so the problem never reads the output's
/// old value (fused_ops = 2, op "linalg.fill + <op>"). Fails, with the
/// reason in `whyNot`, for other ops, dynamic shapes and operands that are
/// neither shaped nor constants.
FailureOr<OwningOpRef<ModuleOp>>
outlineKernelProblem(Operation *op, std::string &whyNot,
                     linalg::FillOp initFill = {});

/// The signature of a problem module: SHA-256 (first 128 bits, hex) of its
/// generic form without locations and without the stark.problem attribute.
std::string computeProblemSignature(ModuleOp problem);

/// Signs `problem` (computeProblemSignature) and sets its #stark.problem
/// attribute: entry, num_outputs, op, shapes, signature and fused_ops.
void setProblemAttr(ModuleOp problem, int64_t numOutputs, StringRef op,
                    StringRef shapes, int64_t fusedOps = 1);

} // namespace mlir::stark

#endif // STARK_PROBLEM_KERNELPROBLEM_H
