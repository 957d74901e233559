//===- CudaTarget.h - Candidates on an NVIDIA GPU ---------------*- C++ -*-===//

#ifndef STARK_TARGET_CUDATARGET_H
#define STARK_TARGET_CUDATARGET_H

#include "stark/Target/Target.h"

namespace mlir::stark {

/// An NVIDIA GPU through the CUDA driver API (libcuda and NVRTC are loaded
/// at run time, so this exists on hosts without a GPU and reports why it
/// cannot run there).
std::unique_ptr<Target> createCudaTarget(MLIRContext &context);

} // namespace mlir::stark

#endif // STARK_TARGET_CUDATARGET_H
