//===- CudaTarget.cpp - Candidates on an NVIDIA GPU -----------------------===//
// Placeholder until the CUDA target lands.

#include "stark/Target/CudaTarget.h"

using namespace mlir;
using namespace mlir::stark;

std::unique_ptr<Target> mlir::stark::createCudaTarget(MLIRContext &) {
  return nullptr;
}
