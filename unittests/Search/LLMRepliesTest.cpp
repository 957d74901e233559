//===- LLMRepliesTest.cpp - Reading planner, coder and debugger replies ---===//

#include "stark/Search/LLMReplies.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::stark;

namespace {

TEST(LLMRepliesTest, FencedBlocks) {
  std::vector<FencedBlock> blocks = extractFencedBlocks(
      "Here:\n```json\n{\"a\": 1}\n```\ntext\n```MLIR\nmodule {}\n```\n"
      "```\nunterminated\n");
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0].language, "json");
  EXPECT_EQ(blocks[1].language, "mlir");
  EXPECT_EQ(blocks[1].text, "module {}\n");
  EXPECT_EQ(blocks[2].language, "");
  EXPECT_EQ(blocks[2].text, "unterminated\n");
}

TEST(LLMRepliesTest, JsonHeaderFencedOrBare) {
  std::optional<llvm::json::Object> fenced =
      findJsonHeader("```json\n{\"plan\": \"x\"}\n```");
  ASSERT_TRUE(fenced);
  EXPECT_EQ(fenced->getString("plan"), "x");
  // Bare, after prose with braces that are not JSON, and a brace inside a
  // string.
  std::optional<llvm::json::Object> bare = findJsonHeader(
      "I think {this} is best: {\"plan\": \"use {tiles}\", \"n\": 2} ok");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->getString("plan"), "use {tiles}");
  // Braces inside code blocks are not a header.
  EXPECT_FALSE(findJsonHeader("```mlir\nmodule {}\n```"));
  EXPECT_FALSE(findJsonHeader("no json here"));
}

TEST(LLMRepliesTest, PlannerRegion) {
  std::string error;
  FailureOr<PlannerReply> p = parsePlannerReply(
      R"({"strategy": "tile", "params": {"tile": 32, "vec": "8"},)"
      R"( "plan": "tile by 32", "region": [3, 5]})",
      10, error);
  ASSERT_TRUE(succeeded(p)) << error;
  EXPECT_EQ(p->strategy, "tile");
  EXPECT_EQ(p->params.at("tile"), "32");
  EXPECT_EQ(p->params.at("vec"), "8");
  EXPECT_FALSE(p->whole);
  EXPECT_EQ(p->changedPart(), "lines 3-5");

  FailureOr<PlannerReply> all =
      parsePlannerReply(R"({"plan": "rewrite", "region": "all"})", 10, error);
  ASSERT_TRUE(succeeded(all));
  EXPECT_TRUE(all->whole);
  EXPECT_EQ(all->strategy, "llm");

  FailureOr<PlannerReply> object = parsePlannerReply(
      R"({"plan": "p", "region": {"first": "2", "last": 2}})", 3, error);
  ASSERT_TRUE(succeeded(object)) << error;
  EXPECT_EQ(object->first, 2);

  EXPECT_TRUE(failed(
      parsePlannerReply(R"({"plan": "p", "region": [4, 12]})", 10, error)));
  EXPECT_EQ(error, "the planner's region [4, 12] is not within the parent's "
                   "10 lines");
  EXPECT_TRUE(failed(parsePlannerReply(R"({"region": "all"})", 10, error)));
  EXPECT_EQ(error, "the planner's JSON header has no \"plan\"");
  EXPECT_TRUE(failed(parsePlannerReply("just prose", 10, error)));
  EXPECT_EQ(error, "the planner's reply has no JSON header");
}

TEST(LLMRepliesTest, CodeKinds) {
  std::string error;
  FailureOr<CodeReply> module = parseCodeReply(
      "snippet:\n```mlir\n%x = op\n```\nfull:\n```mlir\nmodule {\n  "
      "func.func @kernel() { return }\n}\n```\n",
      error);
  ASSERT_TRUE(succeeded(module));
  EXPECT_EQ(module->kind, CodeKind::Module);
  EXPECT_TRUE(StringRef(module->code).starts_with("module {"));

  FailureOr<CodeReply> script = parseCodeReply(
      "```\nmodule attributes {transform.with_named_sequence} {\n"
      "  transform.named_sequence @__transform_main(%r: !transform.any_op) "
      "{ transform.yield }\n}\n```",
      error);
  ASSERT_TRUE(succeeded(script));
  EXPECT_EQ(script->kind, CodeKind::TransformScript);

  FailureOr<CodeReply> cuda = parseCodeReply(
      "```json\n{\"launch\": {\"kernel\": \"k\", \"grid\": 1, \"block\": "
      "32}}\n```\n```cuda\nextern \"C\" __global__ void k() {}\n```",
      error);
  ASSERT_TRUE(succeeded(cuda));
  EXPECT_EQ(cuda->kind, CodeKind::CudaCpp);
  ASSERT_TRUE(cuda->header);
  EXPECT_TRUE(cuda->header->getObject("launch"));

  EXPECT_TRUE(failed(parseCodeReply("```json\n{}\n```\nno code", error)));
  EXPECT_EQ(error, "the reply holds no code block");
}

TEST(LLMRepliesTest, RegionCheck) {
  std::string parent = "a\nb\nc\nd\ne\n";
  std::string error;
  // Lines 2-3 replaced by three lines; the rest kept (trailing spaces do
  // not count).
  EXPECT_TRUE(succeeded(checkRegion(parent, "a  \nX\nY\nZ\nd\ne", 2, 3, error)))
      << error;
  // Line 5 changed: outside the region.
  EXPECT_TRUE(failed(checkRegion(parent, "a\nX\nd\nE\n", 2, 3, error)));
  EXPECT_EQ(error, "the coder changed line 5 of the parent, outside the "
                   "region 2-3 the planner marked: expected 'e', got 'E'");
  EXPECT_TRUE(failed(checkRegion(parent, "z\nb\nc\nd\ne\n", 2, 3, error)));
  EXPECT_NE(error.find("changed line 1"), std::string::npos);
  EXPECT_TRUE(failed(checkRegion(parent, "a\ne\n", 2, 3, error)));
  EXPECT_NE(error.find("fewer than the 3 outside"), std::string::npos);
  // Deleting the region entirely is a change inside it.
  EXPECT_TRUE(succeeded(checkRegion(parent, "a\nd\ne\n", 2, 3, error)));
}

TEST(LLMRepliesTest, NumberedLines) {
  EXPECT_EQ(numberLines("x\ny\n"), "   1 | x\n   2 | y\n");
  EXPECT_EQ(getLines("a\nb\nc\n", 2, 3), "b\nc\n");
}

} // namespace
