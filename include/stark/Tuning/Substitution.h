//===- Substitution.h - Put a problem's winner into the program -*- C++ -*-===//
//
// What stark-substitute does for one op, as a function the tuning spec's
// transform ops call too: the op (and the fill or the chain of ops its
// problem owns) becomes a call of the problem's verified winner, copied into
// the program once per signature; a CUDA C++ winner first becomes
// gpu.binary + a host launch function (stark/Target/GpuBinary.h).
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TUNING_SUBSTITUTION_H
#define STARK_TUNING_SUBSTITUTION_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <string>

namespace mlir::stark {

struct SubstituteOptions {
  /// Chip CUDA C++ winners are compiled for; empty: the winner's recorded
  /// chip, else sm_90a.
  std::string cudaChip;
  /// The gpu.binary holds PTX instead of a cubin.
  bool embedPtx = false;
  /// Who speaks in remarks and errors ("stark-substitute").
  std::string who = "stark-substitute";
};

enum class SubstituteResult {
  /// The op (and what its problem owns) was replaced by a call.
  Replaced,
  /// The op stays, with a remark saying why (no winner, a CUDA winner that
  /// does not compile here, a program that changed since outlining).
  LeftAsIs,
  /// A malformed problem or winner; an error was emitted.
  Failed,
};

/// Replaces `op`, tagged `stark.problem = @<problem's name>`, by a call of
/// the winner of `problem` (a problem module with `module @winner` and
/// stark.winner) inserted into the module `program`. Ops of a fused chain
/// that were replaced with `op` are added to `replaced`.
SubstituteResult substituteWinner(ModuleOp program,
                                  DestinationStyleOpInterface op,
                                  ModuleOp problem,
                                  const SubstituteOptions &options,
                                  llvm::SmallPtrSetImpl<Operation *> &replaced);

} // namespace mlir::stark

#endif // STARK_TUNING_SUBSTITUTION_H
