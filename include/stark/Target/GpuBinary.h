//===- GpuBinary.h - CUDA C++ as gpu.binary and its launches ----*- C++ -*-===//
//
// Turns a CUDA C++ candidate (a body-less function with a `stark.cuda`
// attribute) into IR the standard GPU pipeline lowers: NVRTC's output in a
// `gpu.binary` and a host function that launches its kernels with
// `gpu.launch_func`. Defined only in builds with STARK_ENABLE_CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TARGET_GPUBINARY_H
#define STARK_TARGET_GPUBINARY_H

#include "stark/Target/CudaCompile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::stark {

/// `chip` with the NVVM target features that go with it (sm_90a ->
/// +ptx80), as the cuda target pairs them; no features for unknown chips.
CudaArch getCudaArchForChip(StringRef chip);

/// Emits into `module` the private host function `name` of type `type` (the
/// candidate's memref signature) that passes each memref's aligned pointer
/// (the kernels take `T *`) to every launch of `binaryName`, in order, on
/// one stream, and waits for them. `loweredNames` maps kernel names to
/// their symbols in the binary.
func::FuncOp
emitCudaLaunchHost(ModuleOp module, StringRef name, FunctionType type,
                   StringRef binaryName, ArrayRef<CudaLaunch> launches,
                   const llvm::StringMap<std::string> &loweredNames);

/// What became of a CUDA C++ function.
struct CudaGpuBinary {
  /// The host function launching the kernels; null when nothing was emitted.
  func::FuncOp host;
  /// Why not: a malformed function, or a compile that failed.
  std::string error;
  /// The function itself is wrong (its attribute, signature or launches), as
  /// opposed to a compile that failed for this toolkit or chip.
  bool malformed = false;
};

/// Compiles the CUDA C++ function `entry` with NVRTC for `chip` and emits it
/// into `module` as `gpu.binary @<name>_bin` (the cubin, or PTX when
/// `embedPtx` or no cubin came out) plus the host function `@<name>`
/// (emitCudaLaunchHost); `module` becomes a GPU container module. Nothing
/// is added unless the compile succeeds.
CudaGpuBinary emitCudaSourceAsGpuBinary(ModuleOp module, func::FuncOp entry,
                                        StringRef name, StringRef chip,
                                        bool embedPtx);

} // namespace mlir::stark

#endif // STARK_TARGET_GPUBINARY_H
