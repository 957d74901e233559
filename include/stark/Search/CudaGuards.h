//===- CudaGuards.h - Checks on model-written CUDA C++ ----------*- C++ -*-===//
//
// CUDA C++ that a model wrote is checked before it is compiled, so that a
// kernel cannot win by cheating the evaluator or escape it: no host code
// (main, the runtime API, kernel launches, streams), no threads or
// processes, no timers (clock, %globaltimer, cudaEvent), no state that
// outlives a launch (mutable globals), no writes through the inputs (every
// input pointer parameter must be const, no const_cast), and no reading an
// output as an answer cache (an output compared, or read before it is
// written when the problem does not read its outputs). The evaluator's own
// defences (fresh inputs every trial, outputs pre-filled with NaN, extra
// trials for large speedups, the isolated worker) stay in force behind
// these. The checks read the text, so they are conservative: a kernel they
// reject names the rule it broke. They are a first, cheap filter: the cuda
// target checks the PTX of model-written CUDA C++ (stark/Target/PtxGuards.h),
// which no macro, namespace or cast can disguise.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_CUDAGUARDS_H
#define STARK_SEARCH_CUDAGUARDS_H

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::stark {

struct CudaGuardOptions {
  /// The kernel's pointer parameters are the entry's memrefs in order: the
  /// inputs first, then the outputs.
  unsigned numInputs = 0;
  unsigned numOutputs = 1;
  /// The problem reads its outputs' initial values (an accumulating
  /// matmul); otherwise an output read before it is written is a cache.
  bool outputsAreRead = true;
};

/// Fails with `reason` (one sentence naming the rule) when `source` breaks
/// a guard.
LogicalResult checkModelCuda(StringRef source, const CudaGuardOptions &options,
                             std::string &reason);

/// `source` without comments and with string and character literals
/// blanked, so the checks see only code; with `keepStrings`, the string
/// literals stay (inline assembly is in them).
std::string stripCommentsAndStrings(StringRef source, bool keepStrings = false);

} // namespace mlir::stark

#endif // STARK_SEARCH_CUDAGUARDS_H
