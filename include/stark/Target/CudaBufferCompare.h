//===- CudaBufferCompare.h - Compare device buffers on the device -*- C++
//-*-===//
//
// The timed runs of an evaluation start from input sets staged on the GPU
// and must show that a run left its inputs unchanged. Reading every input
// back to the host after every run costs more than the kernels; a small
// comparison kernel of the target's own (PTX, not a candidate's) compares
// each input with its staged copy where both are.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TARGET_CUDABUFFERCOMPARE_H
#define STARK_TARGET_CUDABUFFERCOMPARE_H

#include "stark/Target/CudaDriver.h"

namespace mlir::stark {

/// The PTX of `stark_buffers_differ(a, b, bytes, flag)`: sets the 32-bit
/// word at `flag` to 1 when the `bytes` bytes at `a` and at `b` differ and
/// leaves it alone otherwise. Both pointers must be 4-byte aligned.
StringRef getBufferComparePtx();

/// The comparison kernel loaded into the current context.
class CudaBufferCompare {
public:
  explicit CudaBufferCompare(const CudaDriverApi &api) : api(api) {}
  ~CudaBufferCompare();

  /// Loads the module (once) and allocates `count` flags.
  LogicalResult prepare(unsigned count, std::string &error);
  /// Enqueues the comparison of `bytes` bytes at `a` and `b` on `stream`,
  /// raising flag `index` on a difference (flags start lowered by
  /// `clearFlags`).
  LogicalResult enqueue(CUdeviceptr a, CUdeviceptr b, size_t bytes,
                        unsigned index, CUstream stream, std::string &error);
  LogicalResult clearFlags(CUstream stream, std::string &error);
  /// Copies the flags to `out` (one per index) once `stream` is done.
  LogicalResult readFlags(CUstream stream, SmallVectorImpl<uint32_t> &out,
                          std::string &error);

private:
  const CudaDriverApi &api;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  CUdeviceptr flags = 0;
  unsigned flagCount = 0;
};

} // namespace mlir::stark

#endif // STARK_TARGET_CUDABUFFERCOMPARE_H
