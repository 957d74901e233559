//===- StrategyFamily.cpp - The problem as strategy families see it -------===//

#include "stark/Strategies/StrategyFamily.h"

using namespace mlir;
using namespace mlir::stark;

StrategyFamily::~StrategyFamily() = default;

const ProblemView *StrategyProblem::getView(std::string &whyNot) const {
  if (!analyzed) {
    analyzed = true;
    FailureOr<ProblemView> read = getProblemView(module, whyNoView);
    if (succeeded(read))
      view = std::move(*read);
  }
  if (!view) {
    whyNot = whyNoView;
    return nullptr;
  }
  return &*view;
}
