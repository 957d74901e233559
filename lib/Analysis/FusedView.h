//===- FusedView.h - Fused chains read as one computation -------*- C++ -*-===//
//
// Private to the analysis library: ProblemView.cpp hands a fused problem that
// is no norm to FusedView.cpp, and both read reduction payloads the same way.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LIB_ANALYSIS_FUSEDVIEW_H
#define STARK_LIB_ANALYSIS_FUSEDVIEW_H

#include "stark/Analysis/ProblemView.h"

namespace mlir::stark::detail {

/// Reads a fused problem (`func` holds a chain of linalg ops on temporaries)
/// into `view.fused` and the loops, inputs and outputs of `view` (and its
/// body when the chain has no reduction); fails with the first thing it
/// cannot express.
LogicalResult analyzeFusedProblem(Operation *func, ProblemView &view,
                                  std::string &whyNot);

/// Gives the view of a linalg.softmax problem (`view.softmax` set, argument 0
/// in, 1 out) the loops, input, output and FusedView of its decomposition:
/// a max (maxnum, as the baseline's) and a sum of exp(x - max) over the
/// softmax dimension, then exp(x - max) / sum; so `fused_rows` may take it
/// with one walk per pass, beside the online `softmax` family.
void addSoftmaxFusedView(ProblemView &view);

/// Reads a fused problem whose chain is a contraction and the element-wise
/// ops after it into `view.contraction` and `view.epilogue` (see
/// EpilogueView); fails with the first thing it cannot express.
LogicalResult analyzeEpilogueProblem(Operation *func, ProblemView &view,
                                     std::string &whyNot);

/// Reads a fused problem that computes attention (two contractions with a
/// softmax between them, see AttentionView) into `view.attention`; fails
/// with the first thing that is not attention.
LogicalResult analyzeAttentionProblem(Operation *func, ProblemView &view,
                                      std::string &whyNot);

/// The contraction structure of `view` (its first two inputs A and B, its
/// first output C) read off their accesses alone: every parallel loop is a
/// batch, m or n loop, every reduction loop a k loop.
FailureOr<ContractionView> analyzeContractionLoops(const ProblemView &view,
                                                   std::string &whyNot);

/// Whether `node` of `p` reads the payload's argument `arg`.
bool isArgNode(const ScalarProgram &p, int node, int64_t arg);

/// The combiner of a reduction payload whose node `yield` combines the
/// output argument `outArg` with a value of the inputs: sets `combiner`
/// ("add", "max", ... as ReductionView::combiner) and returns the node of
/// that value, or -1.
/// The access of an operand of `shape` read through `map`, as a linear
/// function of the map's dimensions; fails for an expression that is not
/// (a sum of multiples of dimensions and a constant).
FailureOr<LinearAccess> getLinearAccess(AffineMap map, ArrayRef<int64_t> shape);

int matchReductionCombiner(const ScalarProgram &p, int yield, int64_t outArg,
                           std::string &combiner);

} // namespace mlir::stark::detail

#endif // STARK_LIB_ANALYSIS_FUSEDVIEW_H
