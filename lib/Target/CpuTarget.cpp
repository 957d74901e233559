//===- CpuTarget.cpp - Candidates on the host through the ORC JIT ---------===//
// Placeholder until the CPU target lands.

#include "stark/Target/CpuTarget.h"

using namespace mlir;
using namespace mlir::stark;

std::unique_ptr<Target> mlir::stark::createCpuTarget(MLIRContext &) {
  return nullptr;
}
