//===- NormView.h - Layer norms and RMS norms of fused problems -*- C++ -*-===//
//
// Private to the analysis library: ProblemView.cpp hands a fused problem to
// the norm recogniser of NormView.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LIB_ANALYSIS_NORMVIEW_H
#define STARK_LIB_ANALYSIS_NORMVIEW_H

#include "stark/Analysis/ProblemView.h"

namespace mlir::stark::detail {

/// Recognises a fused problem (`func` holds several ops) as a layer norm or
/// RMS norm and fills `view.norm` (and the loop ranges); fails with the
/// first thing it does not understand.
LogicalResult analyzeNormProblem(Operation *func, ProblemView &view,
                                 std::string &whyNot);

} // namespace mlir::stark::detail

#endif // STARK_LIB_ANALYSIS_NORMVIEW_H
