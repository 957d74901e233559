//===- Search.h - Strategic search over candidate lowerings ----*- C++ -*-===//
//
// The loop that drives one problem's search: select a node of the tree,
// ask the agent team for a child (plan + code from a passed node, a repair
// from a failed one), have the judge verify and time it, record the result,
// until a budget runs out. Agents and judge are interfaces: the expert
// policy, an LLM and a replayed transcript are agent teams; the evaluator
// (or a fake in tests) is the judge.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_SEARCH_H
#define STARK_SEARCH_SEARCH_H

#include "stark/Search/SearchTree.h"

#include <functional>
#include <memory>

namespace mlir::stark {

/// What one role sees: the selected node, the root, the selected node's
/// children, the top of the leaderboard and the failed siblings of the
/// selected node -- not the whole history.
struct RoleContext {
  const SearchNode *selected = nullptr;
  const SearchNode *root = nullptr;
  llvm::SmallVector<const SearchNode *> children;
  llvm::SmallVector<const SearchNode *> leaderboardTop;
  llvm::SmallVector<const SearchNode *> failingSiblings;
  /// The candidate text of the selected node (empty for the baseline).
  std::string selectedPayload;
};

/// Builds the context of `id` in `tree`; `payloads` holds each node's text.
RoleContext buildRoleContext(const SearchTree &tree, int64_t id,
                             llvm::ArrayRef<std::string> payloads,
                             int64_t leaderboardSize = 3);

/// A candidate an agent produced: its description and its text.
struct Proposal {
  SearchNode node; // strategy, params, plan, changedPart, author
  std::string payload;
  /// Set when the agents already know the candidate must not run (a reply
  /// that could not be read, a change outside the marked region, a guard):
  /// the search records it as failed with status "rejected" and this
  /// message, without judging it, and the debugger sees why.
  std::string rejection;
};

/// Why an agent team cannot go on: the search stops with `reason` as its
/// stop reason; `error` says the run failed (e.g. the model is unreachable)
/// rather than ran out of a budget.
struct AgentStop {
  std::string reason;
  std::string message;
  bool error = false;
};

/// A proposal under way (AgentTeam::start). `run` does the slow part,
/// asking a model, and may run on another thread while the judge works: it
/// touches neither the tree nor the IR. `finish` turns its outcome into the
/// proposal on the search's thread, given the context of the selected node
/// as it is by then.
class AgentTask {
public:
  virtual ~AgentTask();
  virtual void run() {}
  virtual std::optional<Proposal> finish(const RoleContext &ctx) = 0;
};

class AgentTeam {
public:
  virtual ~AgentTeam();
  /// True when the tasks of start() do their slow part in run(), so that
  /// several may be under way while the judge works.
  virtual bool canOverlap() const { return false; }
  /// The proposal (`repairing`: the repair) for the node of `ctx` as a
  /// task; `ticket` numbers the search's tasks in the order they start.
  /// By default all the work happens in finish().
  virtual std::unique_ptr<AgentTask> start(const RoleContext &ctx,
                                           bool repairing, int64_t ticket);
  /// Planner then coder: a new candidate refining the passed node in `ctx`.
  /// None when the planner has nothing left to try from there.
  virtual std::optional<Proposal> propose(const RoleContext &ctx) = 0;
  /// Debugger: a repair of the failed node in `ctx`, or none.
  virtual std::optional<Proposal> repair(const RoleContext &ctx) = 0;
  /// Set once the team cannot answer anymore; checked when it declines.
  virtual std::optional<AgentStop> getStop() const { return std::nullopt; }
  /// Up to `limit` candidate texts the team is likely to propose next from
  /// the nodes of `from` (most likely first), without proposing them: the
  /// judge may prepare them (compile them ahead) while it works. A guess;
  /// by default none.
  virtual std::vector<std::string> anticipate(llvm::ArrayRef<RoleContext> from,
                                              unsigned limit);
};

class Judge {
public:
  virtual ~Judge();
  virtual Verdict judge(const Proposal &proposal) = 0;
  /// The verdicts on `proposals`, in their order; a judge with several
  /// evaluators judges them at once. By default one after the other.
  virtual std::vector<Verdict> judgeAll(llvm::ArrayRef<Proposal> proposals);
  /// Whether prepare() does anything: the search asks the agents to
  /// anticipate (which builds candidates) only then.
  virtual bool canPrepare() const { return false; }
  /// Candidates that may be judged soon (AgentTeam::anticipate): a judge
  /// may start on their costs ahead. By default nothing happens.
  virtual void prepare(llvm::ArrayRef<std::string> payloads);
};

struct SearchBudget {
  int64_t maxCandidates = 16;
  double maxSeconds = 120;
  /// Candidates proposed before any of them is judged, then judged
  /// together (in parallel when the judge can). Each is proposed from the
  /// tree with the earlier ones pending, and verdicts are recorded in the
  /// order of proposal, so the tree depends on the batch size and the seed,
  /// never on which evaluation finishes first. 1: the plain loop.
  unsigned batch = 1;
  /// Proposals under way at once when the agents can overlap (their
  /// requests to a model run while the judge works): the search keeps up
  /// to this many started ahead, each from the tree with the earlier ones
  /// reserved, and takes them in the order they started, so the tree
  /// depends on this number and the seed, never on which reply comes
  /// first. 1: each proposal is asked for only when it is needed.
  unsigned concurrency = 1;
};

struct SearchProgress {
  int64_t candidatesTried = 0;
  int64_t lastNode = -1;
  double bestSpeedup = 1.0;
};

struct SearchResult {
  SearchTree tree;
  std::vector<std::string> payloads; // by node id
  std::optional<int64_t> winner;
  int64_t candidatesTried = 0;
  /// "candidates", "seconds", "exhausted", or the agents' own reason
  /// (AgentStop).
  std::string stopReason;
};

/// Runs the search. `clock` returns seconds since some fixed point (a fake
/// clock makes time budgets testable); `progress` is called after every
/// candidate. The same seed, agents and judge give the same tree.
/// `seeds` (e.g. the winners of the problem on other devices) are judged
/// first, as children of the root, within the budget; the agents then
/// refine them like any other node.
SearchResult
runSearch(double baselineSeconds, AgentTeam &agents, Judge &judge,
          const SearchTreeOptions &options, const SearchBudget &budget,
          uint64_t seed, const std::function<double()> &clock,
          const std::function<void(const SearchProgress &)> &progress = nullptr,
          llvm::ArrayRef<Proposal> seeds = {});

} // namespace mlir::stark

#endif // STARK_SEARCH_SEARCH_H
