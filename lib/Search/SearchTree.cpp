//===- SearchTree.cpp - The candidate tree of the strategic search --------===//

#include "stark/Search/SearchTree.h"

#include <algorithm>
#include <cassert>

using namespace mlir::stark;

SearchTree::SearchTree(SearchTreeOptions options, uint64_t seed)
    : options(options), rng(seed) {}

int64_t SearchTree::addRoot(double baselineSeconds) {
  assert(nodes.empty() && "the root is the first node");
  SearchNode root;
  root.id = 0;
  root.strategy = "baseline";
  root.author = "baseline";
  root.state = NodeState::Passed;
  root.status = "ok";
  root.seconds = baselineSeconds;
  root.speedup = 1.0;
  nodes.push_back(root);
  return 0;
}

int64_t SearchTree::addChild(int64_t parent, SearchNode node) {
  assert(parent >= 0 && parent < size() && "unknown parent");
  node.id = size();
  node.parent = parent;
  node.depth = nodes[parent].depth + 1;
  node.state = NodeState::Pending;
  nodes.push_back(std::move(node));
  nodes[parent].children.push_back(nodes.back().id);
  if (nodes[parent].state == NodeState::Failed)
    ++nodes[parent].repairAttempts;
  return nodes.back().id;
}

void SearchTree::recordPassed(int64_t id, double seconds) {
  SearchNode &n = nodes[id];
  n.state = NodeState::Passed;
  n.status = "ok";
  n.screened = false;
  n.seconds = seconds;
  double base = nodes[0].seconds;
  n.speedup = seconds > 0 ? base / seconds : 0;
}

void SearchTree::recordScreened(int64_t id, double seconds) {
  recordPassed(id, seconds);
  nodes[id].status = "slower";
  nodes[id].screened = true;
}

void SearchTree::record(int64_t id, const Verdict &verdict) {
  if (verdict.passed && verdict.screened)
    recordScreened(id, verdict.seconds);
  else if (verdict.passed)
    recordPassed(id, verdict.seconds);
  else
    recordFailed(id, verdict.status.empty() ? "failed" : verdict.status,
                 verdict.failure);
}

void SearchTree::recordFailed(int64_t id, llvm::StringRef status,
                              llvm::StringRef failure) {
  SearchNode &n = nodes[id];
  n.state = NodeState::Failed;
  n.status = status.str();
  n.failure = failure.str();
  if (n.parent >= 0)
    ++nodes[n.parent].failedChildren;
}

bool SearchTree::isDead(int64_t id) const {
  return nodes[id].failedChildren >= options.deadAfterFailedChildren;
}

bool SearchTree::isExpandable(int64_t id) const {
  const SearchNode &n = nodes[id];
  if (isDead(id))
    return false;
  switch (n.state) {
  case NodeState::Pending:
    return false;
  case NodeState::Failed: {
    // Repairs of repairs are bounded too: a chain of failed nodes is as
    // long as the repair limit at most.
    int64_t failedAncestors = 0;
    for (int64_t p = n.parent; p >= 0 && nodes[p].state == NodeState::Failed;
         p = nodes[p].parent)
      ++failedAncestors;
    return n.repairAttempts + n.reserved < options.maxRepairAttempts &&
           failedAncestors < options.maxRepairAttempts;
  }
  case NodeState::Passed:
    return id != 0 ||
           int64_t(n.children.size()) + n.reserved < options.maxRootChildren;
  }
  return false;
}

llvm::SmallVector<int64_t> SearchTree::leaderboard() const {
  llvm::SmallVector<int64_t> ids;
  for (const SearchNode &n : nodes)
    if (n.id != 0 && n.state == NodeState::Passed)
      ids.push_back(n.id);
  std::stable_sort(ids.begin(), ids.end(), [&](int64_t a, int64_t b) {
    return nodes[a].seconds < nodes[b].seconds;
  });
  return ids;
}

std::optional<int64_t> SearchTree::best() const {
  for (int64_t id : leaderboard()) {
    if (nodes[id].screened)
      continue;
    if (nodes[id].speedup < options.minSpeedup)
      return std::nullopt;
    return id;
  }
  return std::nullopt;
}

std::optional<int64_t> SearchTree::select() {
  // Expandable leaves: nodes without children yet (failed ones to repair,
  // passed ones to refine). The root counts while it is under its cap.
  llvm::SmallVector<int64_t> leaves;
  for (const SearchNode &n : nodes)
    if (isExpandable(n.id) && (n.children.empty() || n.id == 0))
      leaves.push_back(n.id);

  // The best expandable passed node: the fastest on the leaderboard that
  // can take a child, else the root.
  std::optional<int64_t> bestNode;
  for (int64_t id : leaderboard())
    if (isExpandable(id)) {
      bestNode = id;
      break;
    }
  if (!bestNode && isExpandable(0))
    bestNode = 0;

  std::uniform_real_distribution<double> coin(0.0, 1.0);
  bool explore = coin(rng) < options.epsilon;
  if ((explore || !bestNode) && !leaves.empty()) {
    std::uniform_int_distribution<size_t> pick(0, leaves.size() - 1);
    return leaves[pick(rng)];
  }
  if (bestNode)
    return bestNode;
  // Nothing passed is expandable; anything else that still is.
  for (const SearchNode &n : nodes)
    if (isExpandable(n.id))
      return n.id;
  return std::nullopt;
}
