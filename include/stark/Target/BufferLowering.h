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

} // namespace mlir::stark

#endif // STARK_TARGET_BUFFERLOWERING_H
