//===- Expert.h - The built-in expert policy ---------------------*- C++
//-*-===//
//
// The offline agent team. A CandidateSpace lists the strategy points that
// apply to one problem on one target (families and their parameters, best
// guesses first, grounded in the hardware profile) and builds a point's
// candidate. On top of it:
//  - the planner picks from the root a point of a family not tried there
//    yet, and from a passed node the untried point that differs in exactly
//    one parameter (the grounded instruction: that parameter is the part to
//    change), preferring the nearest value;
//  - the coder builds that point, and only that point;
//  - the debugger answers a failure by kind: a compile error, crash or
//    timeout by the nearest smaller variant, a wrong result by another
//    lowering of the same tiles if there is one, else a smaller variant.
// It is deterministic: ties are broken by the order of the space.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_EXPERT_H
#define STARK_SEARCH_EXPERT_H

#include "stark/Search/Search.h"
#include "stark/Strategies/CandidateSpace.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace mlir::stark {

class ExpertAgents : public AgentTeam {
public:
  explicit ExpertAgents(CandidateSpace &space);
  std::optional<Proposal> propose(const RoleContext &ctx) override;
  std::optional<Proposal> repair(const RoleContext &ctx) override;
  /// The point propose() would take next from each passed node of `from`
  /// (the root: the next family's best guess), built, up to `limit`; what
  /// is built here is not built again when it is proposed.
  std::vector<std::string> anticipate(llvm::ArrayRef<RoleContext> from,
                                      unsigned limit) override;
  /// Why the last point that failed to build did not build.
  const std::string &getLastBuildError() const { return lastBuildError; }
  /// Records that the point of `node` (a seed judged outside the expert,
  /// such as a recorded winner) was tried, so it is not proposed again.
  void markTried(const SearchNode &node);

private:
  /// Builds the first of `order` (indices into the space) that builds,
  /// marking every one it tries.
  std::optional<Proposal> buildFirst(ArrayRef<size_t> order, StringRef plan,
                                     StringRef changedPart);
  /// Untried points differing from `params` in exactly one key, nearest
  /// value first; `changed` receives the key of each.
  std::vector<size_t> neighbours(const SearchNode &node,
                                 std::vector<std::string> &changed) const;
  std::optional<size_t> indexOf(const SearchNode &node) const;
  /// The order propose() tries the points in from the root, whose children
  /// are `children`.
  std::vector<size_t> rootOrder(ArrayRef<const SearchNode *> children) const;
  /// The candidate of point `i`, built (or taken from `anticipated`).
  FailureOr<std::string> buildPoint(size_t i, std::string &error);

  CandidateSpace &space;
  std::set<std::string> tried;
  /// Candidates built by anticipate(), by point key, until proposed.
  std::map<std::string, std::string> anticipated;
  std::string lastBuildError;
};

} // namespace mlir::stark

#endif // STARK_SEARCH_EXPERT_H
