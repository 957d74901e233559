//===- Search.cpp - Strategic search over candidate lowerings -------------===//

#include "stark/Search/Search.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <deque>
#include <thread>

using namespace mlir::stark;

#define DEBUG_TYPE "stark-search"

AgentTeam::~AgentTeam() = default;
AgentTask::~AgentTask() = default;
Judge::~Judge() = default;

namespace {
/// The default task: the whole proposal in finish().
class DeferredTask : public AgentTask {
public:
  DeferredTask(AgentTeam &team, bool repairing)
      : team(team), repairing(repairing) {}
  std::optional<Proposal> finish(const RoleContext &ctx) override {
    return repairing ? team.repair(ctx) : team.propose(ctx);
  }

private:
  AgentTeam &team;
  bool repairing;
};
} // namespace

std::unique_ptr<AgentTask> AgentTeam::start(const RoleContext &ctx,
                                            bool repairing, int64_t ticket) {
  return std::make_unique<DeferredTask>(*this, repairing);
}

std::vector<std::string> AgentTeam::anticipate(llvm::ArrayRef<RoleContext>,
                                               unsigned) {
  return {};
}

void Judge::prepare(llvm::ArrayRef<std::string>) {}

std::vector<Verdict> Judge::judgeAll(llvm::ArrayRef<Proposal> proposals) {
  std::vector<Verdict> verdicts;
  for (const Proposal &proposal : proposals)
    verdicts.push_back(judge(proposal));
  return verdicts;
}

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

namespace {
/// One run of the search loop: the tree, the proposals under way and what
/// the agents declined.
class SearchLoop {
public:
  SearchLoop(double baselineSeconds, AgentTeam &agents, Judge &judge,
             const SearchTreeOptions &options, const SearchBudget &budget,
             uint64_t seed, const std::function<double()> &clock,
             const std::function<void(const SearchProgress &)> &progress,
             llvm::ArrayRef<Proposal> seeds)
      : result{SearchTree(options, seed), {}, std::nullopt, 0, ""},
        tree(result.tree), agents(agents), judge(judge), budget(budget),
        clock(clock), progress(progress), seeds(seeds),
        overlap(budget.concurrency > 1 && agents.canOverlap()) {
    tree.addRoot(baselineSeconds);
    result.payloads.emplace_back();
    start = clock();
  }

  SearchResult run();

private:
  /// A proposal under way when the agents overlap proposing with judging;
  /// it holds a reservation on its node.
  struct UnderWay {
    int64_t node;
    std::unique_ptr<AgentTask> task;
    std::thread thread;
  };

  SearchResult result;
  SearchTree &tree;
  AgentTeam &agents;
  Judge &judge;
  const SearchBudget &budget;
  const std::function<double()> &clock;
  const std::function<void(const SearchProgress &)> &progress;
  llvm::ArrayRef<Proposal> seeds;
  bool overlap;
  double start = 0;
  /// A node whose agent declined to produce anything is not asked again.
  llvm::SmallVector<bool> declined{false};
  /// Proposals under way, oldest first.
  std::deque<UnderWay> window;
  size_t nextSeed = 0;
  /// Set when the agents stop the search (e.g. a spent model budget).
  std::string agentStop;
  int64_t ticket = 0;

  void record(int64_t id, const Verdict &verdict);
  bool isBusy(int64_t id) const {
    return llvm::any_of(window,
                        [&](const UnderWay &u) { return u.node == id; });
  }
  /// The node to ask about next, or none when nothing is left to expand.
  std::optional<int64_t> selectNode();
  /// Starts proposals until `concurrency` are under way, as long as the
  /// candidate and time budgets leave room for them.
  void refill();
  /// The next candidate and the node it hangs off, or none when nothing is
  /// left to expand.
  std::optional<std::pair<int64_t, Proposal>> next();
  /// Proposals from the tree with the earlier ones pending, up to a batch;
  /// sets the stop reason when the budget or the agents end it.
  void fillBatch(llvm::SmallVectorImpl<int64_t> &ids,
                 std::vector<Proposal> &proposals);
  /// The verdicts on a batch: the judge's, and rejections recorded without
  /// reaching it.
  std::vector<Verdict> judgeBatch(llvm::ArrayRef<Proposal> proposals);
  /// Hands the judge what the agents would likely propose after the batch
  /// `ids` (AgentTeam::anticipate): from the batch's nodes, should one of
  /// them lead, then from the leaders, then from the root.
  void prepareNext(llvm::ArrayRef<int64_t> ids);
};
} // namespace

void SearchLoop::record(int64_t id, const Verdict &verdict) {
  tree.record(id, verdict);
  if (!progress)
    return;
  SearchProgress p;
  p.candidatesTried = result.candidatesTried;
  p.lastNode = id;
  if (std::optional<int64_t> b = tree.best())
    p.bestSpeedup = tree.node(*b).speedup;
  progress(p);
}

std::optional<int64_t> SearchLoop::selectNode() {
  // Selection is random; skip nodes the agents declined (and, ahead of the
  // judge, nodes already being asked about), a bounded number of times,
  // then fall back to any node that is still open.
  std::optional<int64_t> selected;
  for (int attempt = 0; attempt < 8 && !selected; ++attempt) {
    std::optional<int64_t> s = tree.select();
    if (!s)
      break;
    if (!declined[*s] && !isBusy(*s))
      selected = s;
  }
  // Ahead of the judge: the next-best passed nodes nobody is asked about.
  if (!selected && overlap)
    for (int64_t id : tree.leaderboard())
      if (tree.isExpandable(id) && !declined[id] && !isBusy(id)) {
        selected = id;
        break;
      }
  for (bool allowBusy : {false, true})
    for (int64_t id = 0; id < tree.size() && !selected; ++id)
      if (tree.isExpandable(id) && !declined[id] && (allowBusy || !isBusy(id)))
        selected = id;
  return selected;
}

void SearchLoop::refill() {
  while (overlap && window.size() < budget.concurrency && agentStop.empty()) {
    int64_t promised = result.candidatesTried + int64_t(window.size()) +
                       int64_t(seeds.size() - nextSeed);
    if (promised >= budget.maxCandidates ||
        clock() - start >= budget.maxSeconds)
      return;
    std::optional<int64_t> selected = selectNode();
    if (!selected)
      return;
    RoleContext ctx = buildRoleContext(tree, *selected, result.payloads);
    bool repairing = tree.node(*selected).state == NodeState::Failed;
    UnderWay u{*selected, agents.start(ctx, repairing, ticket++), {}};
    tree.reserve(*selected);
    AgentTask *task = u.task.get();
    u.thread = std::thread([task] { task->run(); });
    window.push_back(std::move(u));
  }
}

std::optional<std::pair<int64_t, Proposal>> SearchLoop::next() {
  if (nextSeed < seeds.size())
    return std::make_pair(int64_t(0), seeds[nextSeed++]);
  while (true) {
    std::optional<int64_t> selected;
    std::optional<Proposal> proposal;
    if (overlap) {
      refill();
      if (window.empty())
        return std::nullopt;
      UnderWay u = std::move(window.front());
      window.pop_front();
      u.thread.join();
      tree.release(u.node);
      selected = u.node;
      proposal =
          u.task->finish(buildRoleContext(tree, *selected, result.payloads));
    } else {
      selected = selectNode();
      if (!selected)
        return std::nullopt;
      RoleContext ctx = buildRoleContext(tree, *selected, result.payloads);
      proposal = tree.node(*selected).state == NodeState::Failed
                     ? agents.repair(ctx)
                     : agents.propose(ctx);
    }
    bool repairing = tree.node(*selected).state == NodeState::Failed;
    if (!proposal) {
      if (std::optional<AgentStop> stop = agents.getStop()) {
        agentStop = stop->reason;
        return std::nullopt;
      }
      declined[*selected] = true;
      continue;
    }
    if (proposal->node.author.empty())
      proposal->node.author = repairing ? "debugger" : "planner+coder";
    return std::make_pair(*selected, std::move(*proposal));
  }
}

void SearchLoop::fillBatch(llvm::SmallVectorImpl<int64_t> &ids,
                           std::vector<Proposal> &proposals) {
  unsigned batchSize = std::max(1u, budget.batch);
  while (ids.size() < batchSize) {
    if (result.candidatesTried >= budget.maxCandidates) {
      result.stopReason = "candidates";
      return;
    }
    if (clock() - start >= budget.maxSeconds) {
      result.stopReason = "seconds";
      return;
    }
    std::optional<std::pair<int64_t, Proposal>> candidate = next();
    if (!candidate) {
      result.stopReason = agentStop.empty() ? "exhausted" : agentStop;
      return;
    }
    ids.push_back(tree.addChild(candidate->first, candidate->second.node));
    result.payloads.push_back(candidate->second.payload);
    declined.push_back(false);
    ++result.candidatesTried;
    proposals.push_back(std::move(candidate->second));
  }
}

std::vector<Verdict>
SearchLoop::judgeBatch(llvm::ArrayRef<Proposal> proposals) {
  // A proposal the agents rejected before compiling (a guard, an edit
  // outside its region) is recorded without reaching the judge.
  std::vector<Verdict> verdicts(proposals.size());
  std::vector<Proposal> toJudge;
  for (auto [i, proposal] : llvm::enumerate(proposals)) {
    if (!proposal.rejection.empty()) {
      verdicts[i].status = "rejected";
      verdicts[i].failure = proposal.rejection;
    } else {
      toJudge.push_back(proposal);
    }
  }
  if (toJudge.empty())
    return verdicts;
  std::vector<Verdict> judged = judge.judgeAll(toJudge);
  size_t from = 0;
  for (auto [i, proposal] : llvm::enumerate(proposals))
    if (proposal.rejection.empty())
      verdicts[i] = std::move(judged[from++]);
  return verdicts;
}

void SearchLoop::prepareNext(llvm::ArrayRef<int64_t> ids) {
  if (!judge.canPrepare())
    return;
  llvm::SmallVector<int64_t> from(llvm::reverse(ids));
  llvm::append_range(from, tree.leaderboard());
  from.push_back(0);
  std::vector<RoleContext> contexts;
  llvm::SmallVector<int64_t> seen;
  for (int64_t id : from) {
    if (llvm::is_contained(seen, id) || declined[id])
      continue;
    seen.push_back(id);
    contexts.push_back(buildRoleContext(tree, id, result.payloads));
  }
  unsigned limit = 2 * std::max(1u, budget.batch);
  judge.prepare(agents.anticipate(contexts, limit));
}

SearchResult SearchLoop::run() {
  while (true) {
    llvm::SmallVector<int64_t> ids;
    std::vector<Proposal> proposals;
    fillBatch(ids, proposals);
    if (ids.empty())
      break;
    // The next proposals are asked for while the judge works on these.
    if (result.stopReason.empty()) {
      refill();
      prepareNext(ids);
    }
    std::vector<Verdict> verdicts = judgeBatch(proposals);
    for (auto [id, proposal, verdict] : llvm::zip(ids, proposals, verdicts)) {
      LLVM_DEBUG(llvm::dbgs() << llvm::formatv(
                     "node {0} ({1}): {2}, {3} s{4}\n", id,
                     proposal.node.strategy, verdict.status, verdict.seconds,
                     verdict.failure.empty()
                         ? std::string()
                         : ": " + verdict.failure.substr(0, 200)));
      record(id, verdict);
    }
    // The budget ran out, or the agents stopped, while filling the batch;
    // if nothing was left to expand, the verdicts may open new nodes.
    if (result.stopReason == "candidates" || result.stopReason == "seconds" ||
        !agentStop.empty())
      break;
    result.stopReason.clear();
  }
  // Proposals still under way when the search ends (out of time, or the
  // agents stopped) are waited for and dropped.
  for (UnderWay &u : window) {
    u.thread.join();
    tree.release(u.node);
  }
  result.winner = tree.best();
  return std::move(result);
}

SearchResult mlir::stark::runSearch(
    double baselineSeconds, AgentTeam &agents, Judge &judge,
    const SearchTreeOptions &options, const SearchBudget &budget, uint64_t seed,
    const std::function<double()> &clock,
    const std::function<void(const SearchProgress &)> &progress,
    llvm::ArrayRef<Proposal> seeds) {
  return SearchLoop(baselineSeconds, agents, judge, options, budget, seed,
                    clock, progress, seeds)
      .run();
}
