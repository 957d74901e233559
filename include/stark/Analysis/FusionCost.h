//===- FusionCost.h - Whether fusing a chain of linalg ops pays -*- C++ -*-===//
//
// The cost model --stark-outline decides fusion with: the memory traffic and
// roofline time of a chain of linalg ops run as one kernel, against the same
// ops run one kernel each.
//
// Unfused, every op reads its operands from memory and writes its results
// there (an intermediate is written once and read by each consumer), pays
// one launch, and can spread its whole iteration space over the machine (a
// reduction alone may be split across blocks). Fused, the kernel reads the
// chain's inputs and writes its outputs once, pays one launch, and runs as
// many threads as its rows give it where a member reduces (a row is one
// block's: the reduction's parallel points times at most one block of
// threads per row; the element-wise ops around it work on those rows), else
// as many as its widest member has points. On a GPU, a kernel with fewer
// threads than the machine holds (one block's worth per SM) reaches that share
// of its roofline rate; on the host every kernel is taken to run at its
// roofline.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_ANALYSIS_FUSIONCOST_H
#define STARK_ANALYSIS_FUSIONCOST_H

#include "stark/Analysis/HardwareProfile.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::stark {

struct FusionEstimate {
  /// Bytes the ops move one kernel each, and as one kernel.
  int64_t unfusedBytes = 0;
  int64_t fusedBytes = 0;
  /// Estimated seconds one kernel each (launches included), and as one.
  double unfusedSeconds = 0;
  double fusedSeconds = 0;
  /// Threads the fused kernel can keep busy (see the file comment).
  int64_t fusedParallelism = 0;
  /// Kernels the ops take unfused.
  int64_t unfusedKernels = 0;

  /// Whether the cost model fuses: one kernel is estimated faster.
  bool pays() const { return fusedSeconds < unfusedSeconds; }
  /// "moves 8.39 MB instead of 25.2 MB, ~4.2 us instead of ~14.6 us".
  std::string describe() const;
};

/// Estimates `ops` (linalg ops of one chain; fills are not counted: unfused,
/// each is part of its consumer's problem) reading `inputs` and writing
/// `outputs` as one kernel, against one kernel per op, on `profile`. Fails,
/// saying why in `whyUnknown`, where an op's cost is unknown (dynamic
/// shapes, body ops without a cost).
FailureOr<FusionEstimate> estimateFusion(ArrayRef<Operation *> ops,
                                         ArrayRef<Value> inputs,
                                         ArrayRef<Value> outputs,
                                         const HardwareProfile &profile,
                                         std::string &whyUnknown);

} // namespace mlir::stark

#endif // STARK_ANALYSIS_FUSIONCOST_H
