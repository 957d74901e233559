//===- CandidateSpace.h - Strategy points and candidate spaces --*- C++ -*-===//
//
// A candidate space lists the strategy points (a family and its parameters)
// that apply to one problem on one target, best guesses first, and builds the
// candidate of a point. The search's agents choose among the points; the
// space knows nothing of the search.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_STRATEGIES_CANDIDATESPACE_H
#define STARK_STRATEGIES_CANDIDATESPACE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::stark {

struct StrategyPoint {
  std::string family;
  std::map<std::string, std::string> params;
  /// One line for plans and reports.
  std::string description;
  /// A stable key: family and parameters.
  std::string key() const;
};

class CandidateSpace {
public:
  virtual ~CandidateSpace();
  /// Every point, best guesses first.
  virtual const std::vector<StrategyPoint> &getPoints() const = 0;
  /// The candidate module (text) of `point`, or failure with `error`.
  virtual FailureOr<std::string> build(const StrategyPoint &point,
                                       std::string &error) = 0;
};

/// The parameters of `point` as integers; fails naming the first that is
/// not one.
FailureOr<std::map<std::string, int64_t>>
getIntegerParams(const StrategyPoint &point, std::string &error);

/// The text a candidate space hands out for a built candidate: the module
/// printed without the problem's `stark.problem` attribute.
std::string printCandidate(ModuleOp candidate);

/// Size of a parameter value: the product of the numbers in it ("[8,16,1]"
/// is 128, "4" is 4); 0 when it holds no number.
double getParamSize(StringRef value);

} // namespace mlir::stark

#endif // STARK_STRATEGIES_CANDIDATESPACE_H
