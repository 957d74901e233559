//===- SearchTree.h - The candidate tree of the strategic search -*- C++
//-*-===//
//
// The search keeps every candidate of one problem in a tree rooted at the
// baseline. Each step selects a node (the best one with probability 1-eps,
// an expandable leaf otherwise); a node that passed gets a new child from
// the planner and coder, a node that failed gets a repaired child from the
// debugger. Root children are capped (root throttling) and a node with
// enough failed children is dead. This file holds the tree and its rules;
// the agents and the evaluator plug in through the interfaces in Search.h.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_SEARCHTREE_H
#define STARK_SEARCH_SEARCHTREE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace mlir::stark {

/// The evaluator's verdict on a candidate, as the search sees it.
struct Verdict {
  bool passed = false;
  double seconds = 0;  // candidate median, when passed
  std::string status;  // "ok", "wrong", "compile_error", "crash", "timeout",
                       // "slower"
  std::string failure; // the structured failure message
  /// Passed its first trial and its timed runs, but was slower than it had
  /// to be to win, so it was not verified further (status "slower"): its
  /// time guides the search, and it may never win.
  bool screened = false;
};

/// What became of a candidate once the evaluator judged it.
enum class NodeState { Pending, Passed, Failed };

struct SearchNode {
  int64_t id = 0;
  int64_t parent = -1; // -1 for the root (the baseline)
  int64_t depth = 0;
  /// Strategy family and its parameters, as the planner named them.
  std::string strategy;
  std::map<std::string, std::string> params;
  /// The planner's instruction and the part of the parent it changes.
  std::string plan;
  std::string changedPart;
  /// Who produced it: "baseline", "planner+coder", "debugger".
  std::string author;

  NodeState state = NodeState::Pending;
  /// Evaluator status ("ok", "wrong", "compile_error", "crash", "timeout",
  /// "slower").
  std::string status;
  /// Passed but screened out (Verdict::screened): timed, not verified
  /// further, never the winner.
  bool screened = false;
  std::string failure;
  /// Median time of the candidate; only meaningful when it passed.
  double seconds = 0;
  double speedup = 0;

  llvm::SmallVector<int64_t> children;
  int64_t failedChildren = 0;
  int64_t repairAttempts = 0;
  /// Proposals under way from this node (SearchTree::reserve); they count
  /// as children against the root's cap and as repairs against the limit.
  int64_t reserved = 0;
};

struct SearchTreeOptions {
  /// Probability of exploring an expandable leaf instead of the best node.
  double epsilon = 0.3;
  /// At most this many children of the root (plans from the baseline).
  int64_t maxRootChildren = 4;
  /// A node with this many failed children is dead: never selected again.
  int64_t deadAfterFailedChildren = 3;
  /// Repairs the debugger may try on one failed node, and the longest
  /// chain of repairs of failed repairs.
  int64_t maxRepairAttempts = 2;
  /// A winner must be at least this much faster than the baseline; smaller
  /// gains are within the noise of a timing and not worth a substitution.
  double minSpeedup = 1.05;
};

class SearchTree {
public:
  SearchTree(SearchTreeOptions options, uint64_t seed);

  /// Adds the baseline as the root; it has passed by definition.
  int64_t addRoot(double baselineSeconds);
  /// Adds a pending child of `parent`.
  int64_t addChild(int64_t parent, SearchNode node);
  /// Records the evaluator's verdict on a pending node.
  void recordPassed(int64_t id, double seconds);
  /// A passed candidate that was screened out (Verdict::screened).
  void recordScreened(int64_t id, double seconds);
  /// The verdict's record: passed, screened or failed.
  void record(int64_t id, const Verdict &verdict);
  void recordFailed(int64_t id, llvm::StringRef status,
                    llvm::StringRef failure);

  /// A proposal from `id` is under way / has arrived (or was dropped).
  void reserve(int64_t id) { ++nodes[id].reserved; }
  void release(int64_t id) { --nodes[id].reserved; }

  /// A node can still be worked on: a passed node takes new children
  /// (the root only up to its cap), a failed one takes repairs (up to the
  /// limit); dead nodes take nothing.
  bool isExpandable(int64_t id) const;
  bool isDead(int64_t id) const;

  /// The next node to work on, or none when nothing is expandable.
  std::optional<int64_t> select();

  /// Passed nodes other than the root, fastest first; ties by id.
  llvm::SmallVector<int64_t> leaderboard() const;
  /// The fastest passed candidate at least minSpeedup times faster than
  /// the baseline that was verified in full (not screened), if any.
  std::optional<int64_t> best() const;

  const SearchNode &node(int64_t id) const { return nodes[id]; }
  int64_t size() const { return nodes.size(); }
  const SearchTreeOptions &getOptions() const { return options; }

private:
  SearchTreeOptions options;
  std::mt19937_64 rng;
  std::vector<SearchNode> nodes;
};

} // namespace mlir::stark

#endif // STARK_SEARCH_SEARCHTREE_H
