//===- ExpertTest.cpp - The expert policy's choices on a fake space -------===//

#include "stark/Search/Expert.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

/// Two families; "gemm" has tile x lowering variants. Points whose tile is
/// "bad" fail to build.
class FakeSpace : public CandidateSpace {
public:
  FakeSpace() {
    for (const char *tile : {"64", "32", "128", "16"})
      for (const char *lowering : {"outer", "dot"})
        points.push_back(
            {"gemm", {{"tile", tile}, {"lowering", lowering}}, "gemm"});
    points.push_back({"naive", {{"unroll", "4"}}, "naive"});
    points.push_back({"gemm", {{"tile", "bad"}, {"lowering", "outer"}}, ""});
  }
  const std::vector<StrategyPoint> &getPoints() const override {
    return points;
  }
  FailureOr<std::string> build(const StrategyPoint &p,
                               std::string &error) override {
    ++builds;
    if (p.params.count("tile") && p.params.at("tile") == "bad") {
      error = "cannot build";
      return failure();
    }
    return p.key();
  }
  std::vector<StrategyPoint> points;
  int builds = 0;
};

SearchNode nodeFor(const Proposal &p, int64_t id, NodeState state,
                   StringRef status = "ok") {
  SearchNode n = p.node;
  n.id = id;
  n.state = state;
  n.status = status.str();
  return n;
}

TEST(ExpertTest, ParamSize) {
  EXPECT_EQ(getParamSize("[8,16,1]"), 128);
  EXPECT_EQ(getParamSize("4"), 4);
  EXPECT_EQ(getParamSize("outer"), 0);
}

TEST(ExpertTest, RootProposalsCoverFamiliesFirst) {
  FakeSpace space;
  ExpertAgents agents(space);
  SearchNode root;
  root.id = 0;
  RoleContext ctx;
  ctx.selected = &root;
  ctx.root = &root;
  std::optional<Proposal> first = agents.propose(ctx);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->node.strategy, "gemm");
  EXPECT_EQ(first->node.params.at("tile"), "64");
  SearchNode child = nodeFor(*first, 1, NodeState::Passed);
  ctx.children.push_back(&child);
  std::optional<Proposal> second = agents.propose(ctx);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->node.strategy, "naive"); // a family not tried yet
  EXPECT_EQ(second->node.changedPart, "all");
}

TEST(ExpertTest, RefinementChangesOneParameterNearestFirst) {
  FakeSpace space;
  ExpertAgents agents(space);
  SearchNode root;
  RoleContext rootCtx;
  rootCtx.selected = &root;
  rootCtx.root = &root;
  Proposal first = *agents.propose(rootCtx); // tile 64, outer
  SearchNode parent = nodeFor(first, 1, NodeState::Passed);
  parent.speedup = 2.0;
  RoleContext ctx;
  ctx.selected = &parent;
  ctx.root = &root;
  std::set<std::string> seen = {first.payload};
  // Neighbours of (64, outer): tile 32 and 128 (one octave), lowering dot
  // (no size), tile 16 (two octaves).
  std::vector<std::pair<std::string, std::string>> expected = {
      {"tile", "32"}, {"tile", "128"}, {"lowering", "dot"}, {"tile", "16"}};
  for (auto [part, value] : expected) {
    std::optional<Proposal> p = agents.propose(ctx);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->node.changedPart, part);
    EXPECT_EQ(p->node.params.at(part), value);
    EXPECT_TRUE(seen.insert(p->payload).second) << "proposed twice";
    EXPECT_NE(p->node.plan.find("change " + part), std::string::npos);
  }
  // Nothing differs in exactly one parameter any more.
  EXPECT_FALSE(agents.propose(ctx));
}

TEST(ExpertTest, RepairOfWrongResultTriesAnotherLoweringFirst) {
  FakeSpace space;
  ExpertAgents agents(space);
  SearchNode root;
  RoleContext rootCtx;
  rootCtx.selected = &root;
  rootCtx.root = &root;
  Proposal first = *agents.propose(rootCtx); // tile 64, outer
  SearchNode failedNode = nodeFor(first, 1, NodeState::Failed, "wrong");
  failedNode.failure = "output #0 [3, 4]: got 1, expected 2";
  RoleContext ctx;
  ctx.selected = &failedNode;
  ctx.root = &root;
  std::optional<Proposal> fix = agents.repair(ctx);
  ASSERT_TRUE(fix);
  EXPECT_EQ(fix->node.params.at("lowering"), "dot");
  EXPECT_EQ(fix->node.params.at("tile"), "64");
  EXPECT_NE(fix->node.plan.find("wrong"), std::string::npos);
  // Then smaller tiles, nearest first.
  fix = agents.repair(ctx);
  ASSERT_TRUE(fix);
  EXPECT_EQ(fix->node.params.at("tile"), "32");
}

TEST(ExpertTest, RepairOfCompileErrorShrinks) {
  FakeSpace space;
  ExpertAgents agents(space);
  SearchNode failedNode;
  failedNode.id = 3;
  failedNode.strategy = "gemm";
  failedNode.params = {{"tile", "128"}, {"lowering", "outer"}};
  failedNode.state = NodeState::Failed;
  failedNode.status = "compile_error";
  failedNode.failure = "shared memory overflow";
  SearchNode root;
  RoleContext ctx;
  ctx.selected = &failedNode;
  ctx.root = &root;
  std::vector<std::string> tiles;
  while (std::optional<Proposal> fix = agents.repair(ctx))
    tiles.push_back(fix->node.params.at("tile"));
  // Only smaller variants, nearest first; never a larger or equal one.
  EXPECT_EQ(tiles, (std::vector<std::string>{"64", "32", "16"}));
}

TEST(ExpertTest, PointsThatDoNotBuildAreSkipped) {
  FakeSpace space;
  space.points.insert(space.points.begin(),
                      {"gemm", {{"tile", "bad"}, {"lowering", "dot"}}, ""});
  ExpertAgents agents(space);
  SearchNode root;
  RoleContext ctx;
  ctx.selected = &root;
  ctx.root = &root;
  std::optional<Proposal> p = agents.propose(ctx);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->node.params.at("tile"), "64");
  EXPECT_EQ(space.builds, 2);
}

} // namespace

TEST(ExpertTest, AnticipatedPointsAreTheNextProposalsAndBuiltOnce) {
  FakeSpace space;
  ExpertAgents agents(space);
  SearchNode root;
  root.state = NodeState::Passed;
  RoleContext rootCtx;
  rootCtx.selected = &root;
  rootCtx.root = &root;
  // From the root: each family's best guess, as propose() takes them.
  std::vector<std::string> ahead = agents.anticipate({rootCtx}, 4);
  EXPECT_EQ(ahead, (std::vector<std::string>{
                       space.points[0].key(), // gemm 64 outer
                       space.points[8].key(), // naive
                   }));
  int builds = space.builds;
  EXPECT_EQ(builds, 2);
  // Anticipating proposes nothing: the same points come next, unbuilt.
  Proposal first = *agents.propose(rootCtx);
  EXPECT_EQ(first.payload, ahead[0]);
  SearchNode child = nodeFor(first, 1, NodeState::Passed);
  rootCtx.children.push_back(&child);
  EXPECT_EQ(agents.propose(rootCtx)->payload, ahead[1]);
  EXPECT_EQ(space.builds, builds);
  // From a passed node: its nearest untried neighbour, what propose() takes
  // from it next; a failed node (the debugger's) and tried points are
  // not anticipated.
  child.speedup = 2;
  RoleContext ctx;
  ctx.selected = &child;
  ctx.root = &root;
  SearchNode failed = child;
  failed.id = 2;
  failed.state = NodeState::Failed;
  RoleContext failedCtx = ctx;
  failedCtx.selected = &failed;
  ahead = agents.anticipate({failedCtx, ctx}, 4);
  ASSERT_EQ(ahead.size(), 1u);
  std::optional<Proposal> next = agents.propose(ctx);
  ASSERT_TRUE(next);
  EXPECT_EQ(next->payload, ahead[0]);
  EXPECT_EQ(next->node.params.at("tile"), "32");
  ahead = agents.anticipate({ctx}, 4);
  ASSERT_EQ(ahead.size(), 1u);
  EXPECT_EQ(ahead[0], agents.propose(ctx)->payload);
}
