//===- ProgramOutline.h - A program's hot ops as kernel problems -*- C++
//-*-===//
//
// What `--stark-outline` does, as a function: every hot op of a program
// (or every linalg op) becomes a self-contained kernel problem, appended to
// the program as a nested module and named on the op with stark.problem.
// Chains of producers and consumers are fused into one problem where a
// kernel reads them and the cost model says it pays; a contraction or
// convolution takes its epilogue (and a contraction its operand
// prologues) where the GEMM and conv kernels read the group; an
// accumulating op owns the fill of its output. Every op gets a remark
// saying what became of it.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_PROBLEM_PROGRAMOUTLINE_H
#define STARK_PROBLEM_PROGRAMOUTLINE_H

#include "stark/Analysis/HardwareProfile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <functional>
#include <string>

namespace mlir::stark {

struct ProblemView;

/// The options of `--stark-outline` (Passes.td says what each does).
struct OutlineOptions {
  bool all = false;
  /// Also write each problem to <dir>/<signature>.mlir (empty: not).
  std::string dir;
  bool fuse = true;
  bool fuseEpilogues = true;
  bool fuseConvEpilogues = true;
  bool fuseAttention = true;
  /// Whether a kernel takes an attention problem (its view reads as
  /// attention); where it says no, saying why, the chain is grouped as its
  /// ops otherwise are: the upstream lowering of the whole chain would be
  /// all that is left. Unset: every attention problem is kept.
  std::function<bool(const ProblemView &, std::string &)> takesAttention;
  bool costModel = true;
  bool compareUnfused = false;
  /// What the cost model estimates on.
  HardwareProfile profile;
};

/// What an outlining did.
struct OutlineCounts {
  int64_t outlined = 0;
  int64_t fused = 0;
  int64_t problems = 0;
  int64_t skipped = 0;
};

/// Outlines the ops of `module` (those marked stark.cost, or all). Problems
/// of an earlier run are reused by signature. Fails, with an error on the
/// op concerned, when a problem cannot be written or holds a weight without
/// data; ops that cannot be outlined only get a remark.
LogicalResult outlineProgram(ModuleOp module, const OutlineOptions &options,
                             OutlineCounts &counts);

} // namespace mlir::stark

#endif // STARK_PROBLEM_PROGRAMOUTLINE_H
