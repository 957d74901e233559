//===- CpuTarget.h - Candidates on the host through the ORC JIT -*- C++ -*-===//

#ifndef STARK_TARGET_CPUTARGET_H
#define STARK_TARGET_CPUTARGET_H

#include "stark/Target/Target.h"

namespace mlir::stark {

/// The host CPU: upstream lowering to the LLVM dialect, MLIR ExecutionEngine.
std::unique_ptr<Target> createCpuTarget(MLIRContext &context);

/// The cpu target's lowering of `module` to the LLVM dialect, in place: the
/// plain upstream pipeline (linalg to loops, affine/scf to cf, vector,
/// math, memref, arith, index, func to llvm), with bf16 arithmetic computed
/// in f32 and its conversions expanded to integer code, and the C interface
/// (`_mlir_ciface_<entry>`) requested for `entry`. Fails, naming the first
/// op it could not convert, when anything but the LLVM dialect is left.
LogicalResult lowerModuleForCpu(ModuleOp module, StringRef entry,
                                std::string &error);

} // namespace mlir::stark

#endif // STARK_TARGET_CPUTARGET_H
