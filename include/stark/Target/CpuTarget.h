//===- CpuTarget.h - Candidates on the host through the ORC JIT -*- C++ -*-===//

#ifndef STARK_TARGET_CPUTARGET_H
#define STARK_TARGET_CPUTARGET_H

#include "stark/Target/Target.h"

namespace mlir::stark {

/// Module attribute (integer) asking the cpu target to run the outermost
/// `scf.parallel` of the entry function on that many threads, each taking
/// one contiguous block of its iterations; the wall-clock time covers them
/// all. Without it (or with 1) the loop runs in order on one thread.
inline constexpr const char *kCpuThreadsAttr = "stark.cpu.threads";
inline constexpr int64_t kMaxCpuThreads = 256;

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
