//===- KernelSources.h - CUDA C++ kernel sources embedded at build time -*- C++
//-*-===//
//
// The fixed text of the CUDA C++ kernels lives in lib/Strategies/Kernels as
// real .cuh files (clang-formatted, compiled by nvcc in a test); the build
// turns each into a string constant, and generators prepend or append that
// text to the problem-specific part they write. docs/cuda-templates.md says
// how to add one.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_STRATEGIES_KERNELSOURCES_H
#define STARK_STRATEGIES_KERNELSOURCES_H

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::stark {

/// One embedded kernel source: its file name under lib/Strategies/Kernels
/// and its text, byte for byte.
struct KernelSource {
  StringRef fileName;
  StringRef text;
};

/// Every embedded kernel source, by file name.
ArrayRef<KernelSource> getKernelSources();

/// The text of `fileName` ("GemmCommon.cuh"), or nullopt when no kernel
/// source has that name.
std::optional<StringRef> getKernelSource(StringRef fileName);

} // namespace mlir::stark

#endif // STARK_STRATEGIES_KERNELSOURCES_H
