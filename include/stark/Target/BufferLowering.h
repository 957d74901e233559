//===- BufferLowering.h - Preparing linalg-on-buffers for a target -*- C++
//-*-===//
//
// Rewrites that both targets apply to a problem (or candidate) before their
// upstream lowering: ops that upstream only decomposes on tensors are
// decomposed on buffers here.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TARGET_BUFFERLOWERING_H
#define STARK_TARGET_BUFFERLOWERING_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::stark {

/// Replaces every `linalg.softmax` on memrefs in `module` by the four
/// linalg.generic ops of upstream's tensor decomposition (max, exp(x - max),
/// sum, divide), with the max and the sum in `memref.alloc` temporaries that
/// are freed afterwards. The max starts from NaN and uses `arith.maxnumf`,
/// exactly like upstream's `SoftmaxOp::decomposeOperation`, so both forms
/// compute the same numbers.
LogicalResult decomposeSoftmaxOnBuffers(ModuleOp module, std::string &error);

/// Keeps reduction accumulators in registers: in every `scf.for` under
/// `root` whose body loads `m[i...]`, updates the value and stores it back
/// to `m[i...]` with indices defined outside the loop, the element is loaded
/// once before the loop, carried as an iteration argument and stored once
/// after it. Upstream's linalg-to-loops lowering reads and writes the output
/// element on every step of a reduction; a 4096^3 matmul then spends its
/// time on those memory round trips. Only applied where nothing else in the
/// loop may touch the element: the loop writes no other memory, and every
/// buffer it reads has a different root (function argument, allocation or
/// global) than `m`. Distinct function arguments are taken to be distinct
/// buffers, as the evaluator allocates them. Returns how many accumulators
/// were promoted.
unsigned promoteLoopAccumulators(Operation *root);

} // namespace mlir::stark

#endif // STARK_TARGET_BUFFERLOWERING_H
