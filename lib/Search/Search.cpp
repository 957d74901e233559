//===- Search.cpp - Strategic search over candidate lowerings -------------===//

#include "stark/Search/Search.h"

using namespace mlir::stark;

AgentTeam::~AgentTeam() = default;
Judge::~Judge() = default;

RoleContext mlir::stark::buildRoleContext(const SearchTree &tree, int64_t id,
                                          llvm::ArrayRef<std::string> payloads,
                                          int64_t leaderboardSize) {
  RoleContext ctx;
  const SearchNode &selected = tree.node(id);
  ctx.selected = &selected;
  ctx.root = &tree.node(0);
  for (int64_t child : selected.children)
    ctx.children.push_back(&tree.node(child));
  for (int64_t leader : tree.leaderboard()) {
    if (int64_t(ctx.leaderboardTop.size()) >= leaderboardSize)
      break;
    ctx.leaderboardTop.push_back(&tree.node(leader));
  }
  if (selected.parent >= 0)
    for (int64_t sibling : tree.node(selected.parent).children)
      if (sibling != id && tree.node(sibling).state == NodeState::Failed)
        ctx.failingSiblings.push_back(&tree.node(sibling));
  if (id < int64_t(payloads.size()))
    ctx.selectedPayload = payloads[id];
  return ctx;
}

SearchResult mlir::stark::runSearch(
    double baselineSeconds, AgentTeam &agents, Judge &judge,
    const SearchTreeOptions &options, const SearchBudget &budget, uint64_t seed,
    const std::function<double()> &clock,
    const std::function<void(const SearchProgress &)> &progress,
    llvm::ArrayRef<Proposal> seeds) {
  SearchResult result{SearchTree(options, seed), {}, std::nullopt, 0, ""};
  SearchTree &tree = result.tree;
  tree.addRoot(baselineSeconds);
  result.payloads.emplace_back();
  double start = clock();

  // A node whose agent declined to produce anything is not asked again.
  llvm::SmallVector<bool> declined(1, false);
  auto judgeChild = [&](int64_t parent, const Proposal &proposal) {
    int64_t id = tree.addChild(parent, proposal.node);
    result.payloads.push_back(proposal.payload);
    declined.push_back(false);
    ++result.candidatesTried;

    // A proposal the agents rejected before compiling (a guard, an edit
    // outside its region) is recorded without reaching the judge.
    Verdict verdict;
    if (!proposal.rejection.empty()) {
      verdict.status = "rejected";
      verdict.failure = proposal.rejection;
    } else {
      verdict = judge.judge(proposal);
    }
    if (verdict.passed)
      tree.recordPassed(id, verdict.seconds);
    else
      tree.recordFailed(id, verdict.status.empty() ? "failed" : verdict.status,
                        verdict.failure);

    if (progress) {
      SearchProgress p;
      p.candidatesTried = result.candidatesTried;
      p.lastNode = id;
      if (std::optional<int64_t> b = tree.best())
        p.bestSpeedup = tree.node(*b).speedup;
      progress(p);
    }
  };
  size_t nextSeed = 0;
  while (true) {
    if (result.candidatesTried >= budget.maxCandidates) {
      result.stopReason = "candidates";
      break;
    }
    if (clock() - start >= budget.maxSeconds) {
      result.stopReason = "seconds";
      break;
    }
    if (nextSeed < seeds.size()) {
      judgeChild(/*parent=*/0, seeds[nextSeed++]);
      continue;
    }
    std::optional<int64_t> selected;
    // Selection is random; skip nodes the agents declined, a bounded
    // number of times, then fall back to any node that is still open.
    for (int attempt = 0; attempt < 8 && !selected; ++attempt) {
      std::optional<int64_t> s = tree.select();
      if (!s)
        break;
      if (!declined[*s])
        selected = s;
    }
    if (!selected)
      for (int64_t id = 0; id < tree.size(); ++id)
        if (tree.isExpandable(id) && !declined[id]) {
          selected = id;
          break;
        }
    if (!selected) {
      result.stopReason = "exhausted";
      break;
    }

    RoleContext ctx = buildRoleContext(tree, *selected, result.payloads);
    bool repairing = tree.node(*selected).state == NodeState::Failed;
    std::optional<Proposal> proposal =
        repairing ? agents.repair(ctx) : agents.propose(ctx);
    if (!proposal) {
      if (std::optional<AgentStop> stop = agents.getStop()) {
        result.stopReason = stop->reason;
        break;
      }
      declined[*selected] = true;
      continue;
    }
    if (proposal->node.author.empty())
      proposal->node.author = repairing ? "debugger" : "planner+coder";
    judgeChild(*selected, *proposal);
  }
  result.winner = tree.best();
  return result;
}
