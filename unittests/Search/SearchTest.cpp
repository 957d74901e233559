//===- SearchTest.cpp - Tree rules and the search loop, with fakes --------===//

#include "stark/Search/Search.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <map>
#include <thread>

using namespace mlir::stark;

namespace {

/// Proposes candidates named "<parent>.<k>"; repairs are "<parent>.fix".
class FakeAgents : public AgentTeam {
public:
  std::optional<Proposal> propose(const RoleContext &ctx) override {
    ++proposals;
    Proposal p;
    p.node.strategy = "tile";
    p.payload =
        (ctx.selected->id == 0 ? std::string("c") : ctx.selectedPayload) + "." +
        std::to_string(ctx.children.size());
    return p;
  }
  std::optional<Proposal> repair(const RoleContext &ctx) override {
    ++repairs;
    lastRepairContext = ctx.selected->failure;
    Proposal p;
    p.node.strategy = "repair";
    p.payload = ctx.selectedPayload + ".fix";
    return p;
  }
  int proposals = 0, repairs = 0;
  std::string lastRepairContext;
};

/// Judges by a table; unknown candidates pass with a time derived from
/// their text, so deeper candidates are faster.
class FakeJudge : public Judge {
public:
  Verdict judge(const Proposal &p) override {
    judged.push_back(p.payload);
    auto it = failing.find(p.payload);
    if (it != failing.end())
      return {false, 0, "wrong", it->second};
    if (failAll)
      return {false, 0, "compile_error", "no"};
    return {true, 1.0 / double(1 + p.payload.size()), "ok", ""};
  }
  std::map<std::string, std::string> failing;
  bool failAll = false;
  std::vector<std::string> judged;
};

double zeroClock() { return 0; }

TEST(SearchTreeTest, GreedySelectsTheBestPassedNode) {
  SearchTreeOptions opts;
  opts.epsilon = 0; // never explore
  SearchTree tree(opts, 1);
  tree.addRoot(1.0);
  int64_t slow = tree.addChild(0, SearchNode());
  int64_t fast = tree.addChild(0, SearchNode());
  tree.recordPassed(slow, 0.8);
  tree.recordPassed(fast, 0.2);
  EXPECT_EQ(tree.select(), fast);
  EXPECT_EQ(tree.best(), fast);
  EXPECT_DOUBLE_EQ(tree.node(fast).speedup, 5.0);
  EXPECT_EQ(tree.leaderboard(), (llvm::SmallVector<int64_t>{fast, slow}));
}

TEST(SearchTreeTest, NoWinnerUnlessFasterThanBaseline) {
  SearchTree tree(SearchTreeOptions(), 1);
  tree.addRoot(1.0);
  int64_t c = tree.addChild(0, SearchNode());
  tree.recordPassed(c, 1.5);
  EXPECT_FALSE(tree.best());
  int64_t f = tree.addChild(0, SearchNode());
  tree.recordFailed(f, "wrong", "worst element");
  EXPECT_FALSE(tree.best());
}

TEST(SearchTreeTest, GainsBelowTheMinimumSpeedupDoNotWin) {
  SearchTreeOptions opts;
  opts.minSpeedup = 1.10;
  SearchTree tree(opts, 1);
  tree.addRoot(1.0);
  int64_t small = tree.addChild(0, SearchNode());
  tree.recordPassed(small, 1.0 / 1.08);
  EXPECT_FALSE(tree.best());
  int64_t large = tree.addChild(0, SearchNode());
  tree.recordPassed(large, 1.0 / 1.2);
  EXPECT_EQ(tree.best(), large);
}

TEST(SearchTreeTest, AScreenedCandidateNeverWinsUntilVerifiedInFull) {
  SearchTree tree(SearchTreeOptions(), 1);
  tree.addRoot(1.0);
  int64_t verified = tree.addChild(0, SearchNode());
  tree.recordPassed(verified, 0.5);
  // Timed faster than the verified one (e.g. on a quieter device), but
  // screened: it guides the search and stays off the winner's place.
  int64_t screened = tree.addChild(0, SearchNode());
  tree.record(screened, Verdict{true, 0.25, "slower", "", /*screened=*/true});
  EXPECT_EQ(tree.node(screened).status, "slower");
  EXPECT_TRUE(tree.node(screened).screened);
  EXPECT_EQ(tree.leaderboard().front(), screened);
  EXPECT_EQ(tree.best(), verified);
  // Only screened candidates: no winner at all.
  SearchTree alone(SearchTreeOptions(), 1);
  alone.addRoot(1.0);
  int64_t only = alone.addChild(0, SearchNode());
  alone.record(only, Verdict{true, 0.1, "slower", "", true});
  EXPECT_FALSE(alone.best());
  // A full evaluation (the retiming) that passes makes it a contender.
  tree.record(screened, Verdict{true, 0.3, "ok", ""});
  EXPECT_FALSE(tree.node(screened).screened);
  EXPECT_EQ(tree.best(), screened);
}

TEST(SearchTreeTest, RootChildrenAreCapped) {
  SearchTreeOptions opts;
  opts.maxRootChildren = 2;
  SearchTree tree(opts, 1);
  tree.addRoot(1.0);
  EXPECT_TRUE(tree.isExpandable(0));
  tree.recordFailed(tree.addChild(0, SearchNode()), "wrong", "");
  tree.recordFailed(tree.addChild(0, SearchNode()), "wrong", "");
  EXPECT_FALSE(tree.isExpandable(0));
  // Only the failed children (to be repaired) remain selectable.
  for (int i = 0; i < 20; ++i) {
    std::optional<int64_t> s = tree.select();
    ASSERT_TRUE(s);
    EXPECT_NE(*s, 0);
  }
}

TEST(SearchTreeTest, ThreeFailedChildrenKillANode) {
  SearchTreeOptions opts;
  opts.epsilon = 0;
  opts.maxRepairAttempts = 0; // failed nodes are not repaired here
  SearchTree tree(opts, 1);
  tree.addRoot(1.0);
  int64_t good = tree.addChild(0, SearchNode());
  tree.recordPassed(good, 0.5);
  for (int i = 0; i < 2; ++i)
    tree.recordFailed(tree.addChild(good, SearchNode()), "crash", "");
  EXPECT_FALSE(tree.isDead(good));
  EXPECT_EQ(tree.select(), good);
  tree.recordFailed(tree.addChild(good, SearchNode()), "crash", "");
  EXPECT_TRUE(tree.isDead(good));
  EXPECT_FALSE(tree.isExpandable(good));
  // The best node is dead: selection falls back to the root.
  EXPECT_EQ(tree.select(), 0);
}

TEST(SearchTreeTest, FailedNodesTakeLimitedRepairs) {
  SearchTreeOptions opts;
  opts.maxRepairAttempts = 2;
  SearchTree tree(opts, 1);
  tree.addRoot(1.0);
  int64_t bad = tree.addChild(0, SearchNode());
  tree.recordFailed(bad, "wrong", "");
  EXPECT_TRUE(tree.isExpandable(bad));
  tree.recordFailed(tree.addChild(bad, SearchNode()), "wrong", "");
  EXPECT_TRUE(tree.isExpandable(bad));
  tree.recordFailed(tree.addChild(bad, SearchNode()), "wrong", "");
  EXPECT_FALSE(tree.isExpandable(bad));
}

TEST(SearchTest, StopsAtTheCandidateBudget) {
  FakeAgents agents;
  FakeJudge judge;
  SearchBudget budget;
  budget.maxCandidates = 7;
  SearchResult r =
      runSearch(1.0, agents, judge, SearchTreeOptions(), budget, 42, zeroClock);
  EXPECT_EQ(r.candidatesTried, 7);
  EXPECT_EQ(r.stopReason, "candidates");
  EXPECT_EQ(r.tree.size(), 8);
  ASSERT_TRUE(r.winner);
  EXPECT_GT(r.tree.node(*r.winner).speedup, 1.0);
}

TEST(SearchTest, StopsAtTheTimeBudget) {
  FakeAgents agents;
  FakeJudge judge;
  double now = 0;
  auto clock = [&] { return now += 1.0; }; // one second per look
  SearchBudget budget;
  budget.maxCandidates = 1000;
  budget.maxSeconds = 5;
  SearchResult r =
      runSearch(1.0, agents, judge, SearchTreeOptions(), budget, 1, clock);
  EXPECT_EQ(r.stopReason, "seconds");
  EXPECT_LT(r.candidatesTried, 6);
}

TEST(SearchTest, SameSeedSameTreeOtherSeedOtherTree) {
  auto run = [](uint64_t seed) {
    FakeAgents agents;
    FakeJudge judge;
    judge.failing["c.1"] = "dropped last row";
    SearchBudget budget;
    budget.maxCandidates = 25;
    SearchTreeOptions opts;
    opts.epsilon = 0.5;
    runSearch(1.0, agents, judge, opts, budget, seed, zeroClock);
    return judge.judged;
  };
  EXPECT_EQ(run(7), run(7));
  bool anyDiffers = false;
  for (uint64_t seed = 8; seed < 16 && !anyDiffers; ++seed)
    anyDiffers = run(seed) != run(7);
  EXPECT_TRUE(anyDiffers);
}

TEST(SearchTest, FailuresGoToTheDebuggerWithTheirMessage) {
  FakeAgents agents;
  FakeJudge judge;
  judge.failing["c.0"] = "worst element [3, 7]: got nan, expected 1.5";
  SearchTreeOptions opts;
  opts.epsilon = 1.0; // always explore leaves, so the failure is picked
  opts.maxRootChildren = 1;
  SearchBudget budget;
  budget.maxCandidates = 2;
  SearchResult r = runSearch(1.0, agents, judge, opts, budget, 3, zeroClock);
  EXPECT_EQ(agents.repairs, 1);
  EXPECT_EQ(agents.lastRepairContext,
            "worst element [3, 7]: got nan, expected 1.5");
  EXPECT_EQ(r.payloads[2], "c.0.fix");
  EXPECT_EQ(r.tree.node(2).author, "debugger");
  EXPECT_EQ(r.tree.node(2).parent, 1);
}

TEST(SearchTest, EverythingFailingLeavesNoWinnerAndEnds) {
  FakeAgents agents;
  FakeJudge judge;
  judge.failAll = true;
  SearchBudget budget;
  budget.maxCandidates = 1000;
  SearchResult r =
      runSearch(1.0, agents, judge, SearchTreeOptions(), budget, 5, zeroClock);
  EXPECT_FALSE(r.winner);
  // Root cap 4, two repairs per failure, dead after three failed children:
  // the tree runs out of expandable nodes long before the budget.
  EXPECT_EQ(r.stopReason, "exhausted");
  EXPECT_LT(r.candidatesTried, 100);
}

TEST(SearchTest, RoleContextHoldsOnlyTheNeighbourhood) {
  SearchTree tree(SearchTreeOptions(), 1);
  tree.addRoot(1.0);
  int64_t a = tree.addChild(0, SearchNode());
  int64_t b = tree.addChild(0, SearchNode());
  int64_t c = tree.addChild(0, SearchNode());
  tree.recordPassed(a, 0.5);
  tree.recordFailed(b, "wrong", "x");
  tree.recordPassed(c, 0.9);
  int64_t a1 = tree.addChild(a, SearchNode());
  tree.recordPassed(a1, 0.4);
  std::vector<std::string> payloads = {"", "A", "B", "C", "A1"};
  RoleContext ctx = buildRoleContext(tree, a, payloads, 2);
  EXPECT_EQ(ctx.selected->id, a);
  EXPECT_EQ(ctx.root->id, 0);
  ASSERT_EQ(ctx.children.size(), 1u);
  EXPECT_EQ(ctx.children[0]->id, a1);
  ASSERT_EQ(ctx.leaderboardTop.size(), 2u);
  EXPECT_EQ(ctx.leaderboardTop[0]->id, a1);
  EXPECT_EQ(ctx.leaderboardTop[1]->id, a);
  ASSERT_EQ(ctx.failingSiblings.size(), 1u);
  EXPECT_EQ(ctx.failingSiblings[0]->id, b);
  EXPECT_EQ(ctx.selectedPayload, "A");
}

} // namespace

namespace {

/// Rejects every proposal before it is judged, and stops after `limit`.
class RejectingAgents : public FakeAgents {
public:
  std::optional<Proposal> propose(const RoleContext &ctx) override {
    if (proposals >= limit) {
      stop = AgentStop{"model", "the model failed (unreachable)", true};
      return std::nullopt;
    }
    std::optional<Proposal> p = FakeAgents::propose(ctx);
    p->rejection = "outside the region";
    return p;
  }
  std::optional<Proposal> repair(const RoleContext &ctx) override {
    return propose(ctx);
  }
  std::optional<AgentStop> getStop() const override { return stop; }
  int limit = 2;
  std::optional<AgentStop> stop;
};

TEST(SearchTest, RejectedProposalsAreNotJudged) {
  RejectingAgents agents;
  FakeJudge judge;
  SearchBudget budget;
  budget.maxCandidates = 10;
  SearchResult r =
      runSearch(1.0, agents, judge, SearchTreeOptions(), budget, 3, zeroClock);
  EXPECT_TRUE(judge.judged.empty());
  ASSERT_EQ(r.tree.size(), 3);
  EXPECT_EQ(r.tree.node(1).status, "rejected");
  EXPECT_EQ(r.tree.node(1).failure, "outside the region");
  EXPECT_EQ(r.candidatesTried, 2);
  // The agents' stop ends the search with their reason, not "exhausted".
  EXPECT_EQ(r.stopReason, "model");
  EXPECT_FALSE(r.winner);
}

} // namespace

namespace {
/// Judges a batch back to front (as parallel evaluators might finish) and
/// remembers the batch sizes.
class BatchJudge : public FakeJudge {
public:
  std::vector<Verdict> judgeAll(llvm::ArrayRef<Proposal> proposals) override {
    batches.push_back(proposals.size());
    std::vector<Verdict> verdicts(proposals.size());
    for (size_t i = proposals.size(); i-- > 0;)
      verdicts[i] = judge(proposals[i]);
    return verdicts;
  }
  std::vector<size_t> batches;
};
} // namespace

TEST(SearchTest, BatchesAreDeterministicAndKeepTheBudget) {
  auto run = [](unsigned batch, std::vector<size_t> *batches = nullptr) {
    FakeAgents agents;
    BatchJudge judge;
    judge.failing["c.1"] = "dropped last row";
    SearchBudget budget;
    budget.maxCandidates = 10;
    budget.batch = batch;
    SearchTreeOptions opts;
    opts.epsilon = 0.5;
    SearchResult r = runSearch(1.0, agents, judge, opts, budget, 7, zeroClock);
    EXPECT_EQ(r.candidatesTried, 10);
    if (batches)
      *batches = judge.batches;
    return r.payloads;
  };
  std::vector<size_t> batches;
  std::vector<std::string> first = run(3, &batches);
  EXPECT_EQ(first, run(3));
  // 10 candidates in batches of 3: the last batch holds what is left.
  EXPECT_EQ(batches, (std::vector<size_t>{3, 3, 3, 1}));
  // The first batch is proposed before any verdict: all from the root.
  EXPECT_EQ(std::vector<std::string>(first.begin() + 1, first.begin() + 4),
            (std::vector<std::string>{"c.0", "c.1", "c.2"}));
}

TEST(SearchTest, BatchOfOneIsThePlainLoop) {
  auto run = [](std::optional<unsigned> batch) {
    FakeAgents agents;
    FakeJudge judge;
    judge.failing["c.0"] = "wrong";
    SearchBudget budget;
    budget.maxCandidates = 12;
    if (batch)
      budget.batch = *batch;
    SearchTreeOptions opts;
    opts.epsilon = 0.5;
    runSearch(1.0, agents, judge, opts, budget, 11, zeroClock);
    return judge.judged;
  };
  EXPECT_EQ(run(std::nullopt), run(1));
}

TEST(SearchTest, ABatchThatEmptiesTheTreeWaitsForItsVerdicts) {
  // With every candidate pending nothing is expandable; the search must
  // judge the batch and go on, not stop as exhausted.
  FakeAgents agents;
  BatchJudge judge;
  SearchTreeOptions opts;
  opts.maxRootChildren = 1;
  SearchBudget budget;
  budget.maxCandidates = 4;
  budget.batch = 4;
  SearchResult r = runSearch(1.0, agents, judge, opts, budget, 3, zeroClock);
  EXPECT_EQ(r.candidatesTried, 4);
  EXPECT_EQ(r.stopReason, "candidates");
  // The root takes one child; once it passed, it takes the other three.
  EXPECT_EQ(judge.batches, (std::vector<size_t>{1, 3}));
}

TEST(SearchTreeTest, ReservationsCountAgainstTheCaps) {
  SearchTreeOptions opts;
  opts.maxRootChildren = 2;
  opts.maxRepairAttempts = 1;
  SearchTree tree(opts, 1);
  tree.addRoot(1.0);
  tree.reserve(0);
  EXPECT_TRUE(tree.isExpandable(0));
  int64_t child = tree.addChild(0, SearchNode());
  EXPECT_FALSE(tree.isExpandable(0));
  tree.release(0);
  EXPECT_TRUE(tree.isExpandable(0));
  tree.recordFailed(child, "wrong", "");
  EXPECT_TRUE(tree.isExpandable(child));
  tree.reserve(child);
  EXPECT_FALSE(tree.isExpandable(child));
}

namespace {
/// Agents whose proposals are tasks: the payload is decided when the task
/// starts (as a model's request is written then), run() waits a while that
/// depends on the ticket and can overlap with other tasks, finish() hands
/// the proposal over.
class OverlapAgents : public FakeAgents {
public:
  bool canOverlap() const override { return true; }

  class Task : public AgentTask {
  public:
    Task(OverlapAgents &agents, Proposal p, int64_t ticket)
        : agents(agents), proposal(std::move(p)), ticket(ticket) {}
    void run() override {
      int now = ++agents.running;
      int seen = agents.maxRunning.load();
      while (now > seen && !agents.maxRunning.compare_exchange_weak(seen, now))
        ;
      // Later tickets often finish first: the order of arrival is not the
      // order of the proposals.
      std::this_thread::sleep_for(
          std::chrono::milliseconds(agents.delay(ticket)));
      --agents.running;
    }
    std::optional<Proposal> finish(const RoleContext &) override {
      ++agents.finished;
      if (agents.stopAt >= 0 && ticket >= agents.stopAt) {
        agents.stop = AgentStop{"tokens", "spent", false};
        return std::nullopt;
      }
      return proposal;
    }
    OverlapAgents &agents;
    Proposal proposal;
    int64_t ticket;
  };

  std::unique_ptr<AgentTask> start(const RoleContext &ctx, bool repairing,
                                   int64_t ticket) override {
    ++started;
    Proposal p = repairing ? *repair(ctx) : *propose(ctx);
    // Two proposals from the same node may be under way: tell them apart.
    p.payload += "#" + std::to_string(ticket);
    return std::make_unique<Task>(*this, std::move(p), ticket);
  }
  std::optional<AgentStop> getStop() const override { return stop; }

  std::function<int(int64_t)> delay = [](int64_t ticket) {
    return int((ticket * 7) % 5) * 4;
  };
  int64_t stopAt = -1;
  std::optional<AgentStop> stop;
  std::atomic<int> running{0}, maxRunning{0};
  int started = 0, finished = 0;
};

/// Records how many proposals were under way (started, not yet taken) each
/// time it judges.
class WatchingJudge : public FakeJudge {
public:
  explicit WatchingJudge(OverlapAgents &agents) : agents(agents) {}
  Verdict judge(const Proposal &p) override {
    ahead.push_back(agents.started - agents.finished);
    return FakeJudge::judge(p);
  }
  OverlapAgents &agents;
  std::vector<int> ahead;
};

SearchResult runOverlapped(OverlapAgents &agents, Judge &judge,
                           unsigned concurrency, int64_t candidates = 12) {
  SearchBudget budget;
  budget.maxCandidates = candidates;
  budget.concurrency = concurrency;
  SearchTreeOptions opts;
  opts.epsilon = 0.5;
  return runSearch(1.0, agents, judge, opts, budget, 5, zeroClock);
}
} // namespace

TEST(SearchTest, ProposalsAheadOfTheJudgeAreDeterministic) {
  auto run = [](std::function<int(int64_t)> delay) {
    OverlapAgents agents;
    agents.delay = std::move(delay);
    FakeJudge judge;
    judge.failing["c.0#0"] = "wrong";
    SearchResult r = runOverlapped(agents, judge, 4);
    // The candidate budget holds, and no proposal is asked for beyond it.
    EXPECT_EQ(r.candidatesTried, 12);
    EXPECT_EQ(agents.started, 12);
    EXPECT_EQ(r.stopReason, "candidates");
    // Reserved proposals count against the root's cap.
    EXPECT_LE(int64_t(r.tree.node(0).children.size()),
              r.tree.getOptions().maxRootChildren);
    std::vector<std::string> shape;
    for (int64_t id = 0; id < r.tree.size(); ++id)
      shape.push_back(std::to_string(r.tree.node(id).parent) + ":" +
                      r.payloads[id] + ":" + r.tree.node(id).status);
    return shape;
  };
  std::vector<std::string> first = run([](int64_t t) { return 0; });
  // Whichever task finishes first, the tree is the same.
  EXPECT_EQ(first, run([](int64_t t) { return int((t * 7) % 5) * 4; }));
  EXPECT_EQ(first, run([](int64_t t) { return int(12 - t); }));
  // The first four are started before any verdict: all from the root.
  EXPECT_EQ(std::vector<std::string>(first.begin() + 1, first.begin() + 5),
            (std::vector<std::string>{"0:c.0#0:wrong", "0:c.0#1:ok",
                                      "0:c.0#2:ok", "0:c.0#3:ok"}));
}

TEST(SearchTest, ProposalsAreUnderWayWhileTheJudgeWorks) {
  OverlapAgents agents;
  WatchingJudge judge(agents);
  SearchResult r = runOverlapped(agents, judge, 3);
  EXPECT_EQ(r.candidatesTried, 12);
  ASSERT_FALSE(judge.ahead.empty());
  // While the first candidate is judged, the next ones are under way.
  EXPECT_EQ(judge.ahead.front(), 3);
  for (int ahead : judge.ahead)
    EXPECT_LE(ahead, 3);
}

TEST(SearchTest, RequestsOverlapWithEachOther) {
  // Each task waits until another one runs too (at most 5 s): with
  // concurrency they meet, one at a time they cannot.
  OverlapAgents agents;
  agents.delay = [&agents](int64_t) {
    for (int i = 0;
         i < 500 && agents.running.load() < 2 && agents.maxRunning.load() < 2;
         ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return 0;
  };
  FakeJudge judge;
  runOverlapped(agents, judge, 2, /*candidates=*/2);
  EXPECT_EQ(agents.maxRunning.load(), 2);
}

TEST(SearchTest, ConcurrencyOneIsThePlainLoop) {
  OverlapAgents overlapping;
  FakeJudge a;
  a.failing["c.0"] = "wrong";
  runOverlapped(overlapping, a, 1);
  EXPECT_EQ(overlapping.started, 0);
  FakeAgents plain;
  FakeJudge b;
  b.failing["c.0"] = "wrong";
  SearchBudget budget;
  budget.maxCandidates = 12;
  SearchTreeOptions opts;
  opts.epsilon = 0.5;
  runSearch(1.0, plain, b, opts, budget, 5, zeroClock);
  EXPECT_EQ(a.judged, b.judged);
}

TEST(SearchTest, AStopDropsTheProposalsUnderWay) {
  OverlapAgents agents;
  agents.stopAt = 5;
  FakeJudge judge;
  SearchResult r = runOverlapped(agents, judge, 4);
  EXPECT_EQ(r.stopReason, "tokens");
  EXPECT_EQ(r.candidatesTried, 5);
  // Tasks 6 to 8 were started and are dropped, not taken.
  EXPECT_EQ(agents.started, 9);
  EXPECT_EQ(agents.finished, 6);
  for (int64_t id = 0; id < r.tree.size(); ++id)
    EXPECT_EQ(r.tree.node(id).reserved, 0);
}

namespace {
/// FakeAgents that guess "<payload>.next" from every node they are shown,
/// and a judge that logs what it is asked to prepare and to judge.
class AnticipatingAgents : public FakeAgents {
public:
  std::vector<std::string> anticipate(llvm::ArrayRef<RoleContext> from,
                                      unsigned limit) override {
    std::vector<std::string> guesses;
    for (const RoleContext &ctx : from)
      if (guesses.size() < limit)
        guesses.push_back(
            (ctx.selected->id == 0 ? "root" : ctx.selectedPayload) + ".next");
    return guesses;
  }
};
class PreparedJudge : public FakeJudge {
public:
  bool canPrepare() const override { return true; }
  void prepare(llvm::ArrayRef<std::string> payloads) override {
    std::string line = "prepare";
    for (const std::string &p : payloads)
      line += " " + p;
    log.push_back(line);
  }
  std::vector<Verdict> judgeAll(llvm::ArrayRef<Proposal> proposals) override {
    for (const Proposal &p : proposals)
      log.push_back("judge " + p.payload);
    return Judge::judgeAll(proposals);
  }
  std::vector<std::string> log;
};
} // namespace

TEST(SearchTest, WhatTheAgentsAnticipateIsPreparedBeforeTheBatchIsJudged) {
  AnticipatingAgents agents;
  PreparedJudge judge;
  SearchTreeOptions opts;
  SearchBudget budget;
  budget.maxCandidates = 3;
  budget.batch = 2;
  runSearch(1.0, agents, judge, opts, budget, 1, zeroClock);
  // The batch's nodes first (the newest first), then the leaders (none
  // judged yet), then the root, at most twice the batch; the second batch
  // ends the budget, so nothing after it is prepared.
  ASSERT_EQ(judge.log.size(), 4u);
  EXPECT_EQ(judge.log[0], "prepare c.1.next c.0.next root.next");
  EXPECT_EQ(judge.log[1], "judge c.0");
  EXPECT_EQ(judge.log[2], "judge c.1");
  EXPECT_EQ(judge.log[3].rfind("judge ", 0), 0u);
}

TEST(SearchTest, AnticipatingDoesNotChangeTheSearch) {
  auto shape = [](AgentTeam &agents, Judge &judge) {
    SearchBudget budget;
    budget.maxCandidates = 10;
    budget.batch = 3;
    SearchResult r = runSearch(1.0, agents, judge, SearchTreeOptions(), budget,
                               7, zeroClock);
    std::vector<std::string> nodes;
    for (int64_t id = 0; id < r.tree.size(); ++id)
      nodes.push_back(std::to_string(r.tree.node(id).parent) + ":" +
                      r.payloads[id] + ":" + r.tree.node(id).status);
    return nodes;
  };
  FakeAgents plain;
  FakeJudge plainJudge;
  AnticipatingAgents anticipating;
  PreparedJudge preparedJudge;
  EXPECT_EQ(shape(plain, plainJudge), shape(anticipating, preparedJudge));
}

TEST(SearchTest, NothingIsAnticipatedForAJudgeThatCannotPrepare) {
  // Anticipating builds candidates: not for a judge that would drop them.
  struct CountingAgents : AnticipatingAgents {
    std::vector<std::string> anticipate(llvm::ArrayRef<RoleContext> from,
                                        unsigned limit) override {
      ++asked;
      return AnticipatingAgents::anticipate(from, limit);
    }
    int asked = 0;
  } agents;
  FakeJudge judge;
  SearchBudget budget;
  budget.maxCandidates = 6;
  budget.batch = 2;
  runSearch(1.0, agents, judge, SearchTreeOptions(), budget, 1, zeroClock);
  EXPECT_EQ(agents.asked, 0);
}
