//===- TranscriptTest.cpp - Record a run, replay it, detect divergence ----===//

#include "stark/LLM/Transcript.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace mlir::stark::llm;

namespace {

/// Answers "reply N" to the N-th request; the third is cut off.
class FakeModel : public ChatModel {
public:
  ChatResult complete(const ChatRequest &request) override {
    ++calls;
    if (calls == 3)
      return ChatResult::failure(ChatErrorKind::Truncated, "cut off");
    ChatResult r;
    r.reply.content = "reply " + std::to_string(calls) + " to " + request.role;
    r.reply.promptTokens = 10 * calls;
    r.reply.completionTokens = calls;
    r.reply.finishReason = "stop";
    return r;
  }
  int calls = 0;
};

std::string tempPath() {
  const testing::TestInfo *test =
      testing::UnitTest::GetInstance()->current_test_info();
  return testing::TempDir() + "stark-" + test->name() + "-" +
         std::to_string(::getpid()) + ".jsonl";
}

ChatRequest ask(const std::string &role, int64_t node) {
  ChatRequest r;
  r.role = role;
  r.node = node;
  r.user = "context of node " + std::to_string(node);
  return r;
}

TEST(TranscriptTest, RecordThenReplay) {
  std::string path = tempPath();
  ChatConfig config;
  config.model = "m";
  config.apiKeyEnv = "SOME_KEY_VAR";
  FakeModel fake;
  std::string error;
  {
    auto recorder = RecordingChatModel::create(fake, config, path, error);
    ASSERT_TRUE(recorder) << error;
    EXPECT_TRUE(recorder->complete(ask("planner", 0)).ok());
    EXPECT_TRUE(recorder->complete(ask("coder", 0)).ok());
    EXPECT_EQ(recorder->complete(ask("debugger", 1)).error,
              ChatErrorKind::Truncated);
  }
  EXPECT_TRUE(ReplayChatModel::isTranscript(path));
  auto replay = ReplayChatModel::load(path, error);
  ASSERT_TRUE(replay) << error;
  EXPECT_EQ(replay->remaining(), 3u);
  ChatResult a = replay->complete(ask("planner", 0));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a.reply.content, "reply 1 to planner");
  EXPECT_EQ(a.reply.promptTokens, 10);
  ChatResult b = replay->complete(ask("coder", 0));
  EXPECT_EQ(b.reply.content, "reply 2 to coder");
  ChatResult c = replay->complete(ask("debugger", 1));
  EXPECT_EQ(c.error, ChatErrorKind::Truncated);
  EXPECT_EQ(c.message, "cut off");
  ChatResult d = replay->complete(ask("planner", 2));
  EXPECT_EQ(d.error, ChatErrorKind::Replay);
  EXPECT_NE(d.message.find("ends after 3 requests"), std::string::npos);
  std::remove(path.c_str());
}

TEST(TranscriptTest, MismatchIsReported) {
  std::string path = tempPath();
  FakeModel fake;
  std::string error;
  {
    auto recorder = RecordingChatModel::create(fake, ChatConfig(), path, error);
    ASSERT_TRUE(recorder);
    recorder->complete(ask("planner", 0));
  }
  auto replay = ReplayChatModel::load(path, error);
  ASSERT_TRUE(replay) << error;
  ChatResult r = replay->complete(ask("debugger", 4));
  EXPECT_EQ(r.error, ChatErrorKind::Replay);
  EXPECT_NE(r.message.find("mismatch at request 0: it recorded the planner "
                           "for node 0, the search asks the debugger for "
                           "node 4"),
            std::string::npos)
      << r.message;
  std::remove(path.c_str());
}

TEST(TranscriptTest, NotATranscript) {
  std::string path = tempPath();
  {
    std::ofstream out(path);
    out << "{\"proposals\": []}\n";
  }
  EXPECT_FALSE(ReplayChatModel::isTranscript(path));
  std::string error;
  EXPECT_FALSE(ReplayChatModel::load(path, error));
  EXPECT_NE(error.find("not a transcript"), std::string::npos);
  std::remove(path.c_str());
}

} // namespace

ChatRequest askFor(const std::string &role, int64_t node, int64_t ticket) {
  ChatRequest r = ask(role, node);
  r.problem = "p";
  r.ticket = ticket;
  return r;
}

TEST(TranscriptTest, ReplaysEachProposalWhateverTheOrderOfArrival) {
  std::string path = tempPath();
  ChatConfig config;
  config.model = "m";
  config.concurrency = 4;
  FakeModel fake;
  std::string error;
  {
    // Proposal 1's planner answered before proposal 0's.
    auto recorder = RecordingChatModel::create(fake, config, path, error);
    ASSERT_TRUE(recorder) << error;
    recorder->complete(askFor("planner", 0, 1));
    recorder->complete(askFor("planner", 0, 0));
    recorder->complete(askFor("coder", 0, 0)); // the third: truncated
    recorder->complete(askFor("coder", 0, 1));
  }
  auto replay = ReplayChatModel::load(path, error);
  ASSERT_TRUE(replay) << error;
  EXPECT_EQ(replay->getConcurrency(), 4u);
  // Asked in another order, each proposal gets its own replies.
  EXPECT_EQ(replay->complete(askFor("planner", 0, 0)).reply.content,
            "reply 2 to planner");
  EXPECT_EQ(replay->complete(askFor("coder", 0, 0)).error,
            ChatErrorKind::Truncated);
  EXPECT_EQ(replay->complete(askFor("planner", 0, 1)).reply.content,
            "reply 1 to planner");
  EXPECT_EQ(replay->complete(askFor("coder", 0, 1)).reply.content,
            "reply 4 to coder");
  ChatResult more = replay->complete(askFor("coder", 0, 1));
  EXPECT_EQ(more.error, ChatErrorKind::Replay);
  EXPECT_NE(more.message.find("it recorded 2 request(s) for proposal 1 of p"),
            std::string::npos)
      << more.message;
  ChatResult other = replay->complete(askFor("debugger", 3, 2));
  EXPECT_EQ(other.error, ChatErrorKind::Replay);
  std::remove(path.c_str());
}

TEST(TranscriptTest, ATranscriptWithoutConcurrencyWasOneAtATime) {
  std::string path = tempPath();
  ChatConfig config;
  FakeModel fake;
  std::string error;
  {
    auto recorder = RecordingChatModel::create(fake, config, path, error);
    ASSERT_TRUE(recorder) << error;
    recorder->complete(ask("planner", 0));
  }
  std::ifstream in(path);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header.find("concurrency"), std::string::npos);
  auto replay = ReplayChatModel::load(path, error);
  ASSERT_TRUE(replay) << error;
  EXPECT_EQ(replay->getConcurrency(), 1u);
  std::remove(path.c_str());
}
