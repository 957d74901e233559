//===- ProblemAnalysis.h - What the evaluator needs from a problem -*- C++
//-*-===//
//
// Reads a problem module (see docs/evaluation.md): its stark.problem
// attribute, its calling convention, which outputs the kernel reads before
// writing (so they get real initial values instead of the NaN prefill) and
// the reduction length that sets the tolerance. Also builds the f32 copy of
// an f16/bf16 problem that serves as the high-precision reference.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_PROBLEMANALYSIS_H
#define STARK_EVAL_PROBLEMANALYSIS_H

#include "stark/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace mlir::stark {

struct ProblemAnalysis {
  std::string entry;
  unsigned numOutputs = 0;
  std::string opName; // from stark.problem, e.g. "linalg.matmul"
  KernelSignature signature;
  /// One per argument: true for an output whose initial contents the
  /// problem reads (the init operand of a linalg op whose payload uses it,
  /// or any use other than a linalg init). False for inputs.
  SmallVector<bool> outputIsRead;
  /// Product of the static extents of the reduction loops of the problem's
  /// linalg ops (the largest over its ops); 1 without reductions.
  int64_t reductionLength = 1;
  /// One per argument: the reduction length of what computes that output,
  /// through the chain of linalg ops that feed it (the longest reduction
  /// on the way); 0 for inputs and for outputs no linalg op writes (then
  /// `reductionLength` holds).
  SmallVector<int64_t> outputReductionLength;
  int64_t getReductionLength(unsigned argIndex) const {
    int64_t k = argIndex < outputReductionLength.size()
                    ? outputReductionLength[argIndex]
                    : 0;
    return k > 0 ? k : reductionLength;
  }
  /// Loop iterations of the problem's linalg ops (product of the static
  /// loop extents, summed over its ops): what the host reference costs.
  int64_t iterations = 0;
  /// True when an argument is f16 or bf16.
  bool isLowPrecision = false;
  /// True when the float arguments are all f32 (and there is one).
  bool isSinglePrecision = false;
};

/// Reads `problem`. The module must carry
/// `stark.problem = #stark.problem<entry = "...", num_outputs = N, ...>`.
FailureOr<ProblemAnalysis> analyzeProblem(ModuleOp problem, std::string &error);

/// "memref<33x9xf32>"
std::string formatArgSpec(const ArgSpec &spec);

/// Fails with a message naming the first difference when `candidate` does
/// not have the calling convention of `problem`.
LogicalResult checkSameSignature(const KernelSignature &problem,
                                 const KernelSignature &candidate,
                                 std::string &error);

/// A copy of `problem` with every float type narrower than `wide` (scalars,
/// memref, vector and tensor elements) replaced by `wide`: named linalg ops
/// are generalized first so their payload can change type, extf/truncf that
/// become no-ops are dropped, float constants are widened. Fails, saying
/// which op could not be promoted, when the result does not verify (e.g. a
/// bitcast of an f16). With `roundResults`, every linalg op whose output
/// was a narrower float has that output rounded to its old type (and back)
/// right after the op: each op computed exactly, its result rounded as the
/// program declares it, which is what a whole low-precision program means
/// (a reduction's accumulator is rounded once, at the end).
/// `numRounded`, when given, is set to the number of outputs so rounded.
FailureOr<OwningOpRef<ModuleOp>> promoteFloats(ModuleOp problem, FloatType wide,
                                               std::string &error,
                                               bool roundResults = false,
                                               int64_t *numRounded = nullptr);

} // namespace mlir::stark

#endif // STARK_EVAL_PROBLEMANALYSIS_H
