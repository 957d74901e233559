//===- CpuTarget.h - Candidates on the host through the ORC JIT -*- C++ -*-===//

#ifndef STARK_TARGET_CPUTARGET_H
#define STARK_TARGET_CPUTARGET_H

#include "stark/Target/Target.h"

namespace mlir::stark {

/// The host CPU: upstream lowering to the LLVM dialect, MLIR ExecutionEngine.
std::unique_ptr<Target> createCpuTarget(MLIRContext &context);

} // namespace mlir::stark

#endif // STARK_TARGET_CPUTARGET_H
