//===- KernelSources.cpp - CUDA C++ kernel sources embedded at build time -===//

#include "stark/Strategies/KernelSources.h"

#include "stark/Strategies/Kernels/KernelSources.inc"

using namespace mlir;
using namespace mlir::stark;

ArrayRef<KernelSource> mlir::stark::getKernelSources() {
  using namespace mlir::stark::kernels;
  // The last entry only keeps the array non-empty without any .cuh file.
  static const KernelSource sources[] = {STARK_KERNEL_SOURCES{"", ""}};
  return ArrayRef(sources).drop_back();
}

std::optional<StringRef> mlir::stark::getKernelSource(StringRef fileName) {
  for (const KernelSource &source : getKernelSources())
    if (source.fileName == fileName)
      return source.text;
  return std::nullopt;
}
