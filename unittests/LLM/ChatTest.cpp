//===- ChatTest.cpp - The two wire formats: requests and replies ----------===//

#include "stark/LLM/Chat.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace mlir::stark::llm;
using nlohmann::json;

namespace {

ChatConfig config(Provider provider) {
  ChatConfig c;
  c.provider = provider;
  c.baseUrl = "http://127.0.0.1:8000/";
  c.model = "m";
  c.maxTokens = 512;
  return c;
}

ChatRequest request() {
  ChatRequest r;
  r.role = "coder";
  r.system = "be brief";
  r.user = "write a kernel";
  r.temperature = 0.25;
  return r;
}

std::string header(const HttpRequest &http, const std::string &name) {
  for (const auto &[k, v] : http.headers)
    if (k == name)
      return v;
  return "<absent>";
}

TEST(ChatRequestTest, OpenAIShape) {
  HttpRequest http =
      buildHttpRequest(config(Provider::OpenAI), request(), "sk-1");
  EXPECT_EQ(http.url, "http://127.0.0.1:8000/v1/chat/completions");
  EXPECT_EQ(header(http, "Authorization"), "Bearer sk-1");
  EXPECT_EQ(header(http, "x-api-key"), "<absent>");
  json body = json::parse(http.body);
  EXPECT_EQ(body["model"], "m");
  EXPECT_EQ(body["max_tokens"], 512);
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.25);
  ASSERT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][0]["content"], "be brief");
  EXPECT_EQ(body["messages"][1]["role"], "user");
  EXPECT_EQ(body["messages"][1]["content"], "write a kernel");
  EXPECT_FALSE(body.contains("system"));
}

TEST(ChatRequestTest, AnthropicShape) {
  ChatRequest r = request();
  r.maxTokens = 64;
  HttpRequest http = buildHttpRequest(config(Provider::Anthropic), r, "k-2");
  EXPECT_EQ(http.url, "http://127.0.0.1:8000/v1/messages");
  EXPECT_EQ(header(http, "x-api-key"), "k-2");
  EXPECT_EQ(header(http, "anthropic-version"), "2023-06-01");
  EXPECT_EQ(header(http, "Authorization"), "<absent>");
  json body = json::parse(http.body);
  EXPECT_EQ(body["system"], "be brief");
  EXPECT_EQ(body["max_tokens"], 64);
  ASSERT_EQ(body["messages"].size(), 1u);
  EXPECT_EQ(body["messages"][0]["role"], "user");
}

TEST(ChatRequestTest, NoKeyNoKeyHeaderAndV1NotDoubled) {
  ChatConfig c = config(Provider::OpenAI);
  c.baseUrl = "http://host:1/v1";
  HttpRequest http = buildHttpRequest(c, request(), "");
  EXPECT_EQ(http.url, "http://host:1/v1/chat/completions");
  EXPECT_EQ(header(http, "Authorization"), "<absent>");
  // The key never appears in the body that transcripts may log.
  HttpRequest keyed = buildHttpRequest(c, request(), "secret-key");
  EXPECT_EQ(keyed.body.find("secret-key"), std::string::npos);
}

TEST(ChatReplyTest, OpenAIReply) {
  ChatResult r = parseReplyBody(
      Provider::OpenAI,
      R"({"choices":[{"message":{"role":"assistant","content":"hi"},)"
      R"("finish_reason":"stop"}],"usage":{"prompt_tokens":7,)"
      R"("completion_tokens":3}})");
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.reply.content, "hi");
  EXPECT_EQ(r.reply.finishReason, "stop");
  EXPECT_EQ(r.reply.promptTokens, 7);
  EXPECT_EQ(r.reply.completionTokens, 3);
}

TEST(ChatReplyTest, AnthropicReplyJoinsTextBlocks) {
  ChatResult r = parseReplyBody(
      Provider::Anthropic,
      R"({"content":[{"type":"text","text":"a"},{"type":"tool_use"},)"
      R"({"type":"text","text":"b"}],"stop_reason":"end_turn",)"
      R"("usage":{"input_tokens":11,"output_tokens":5}})");
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.reply.content, "ab");
  EXPECT_EQ(r.reply.promptTokens, 11);
  EXPECT_EQ(r.reply.completionTokens, 5);
}

TEST(ChatReplyTest, Truncated) {
  ChatResult openai = parseReplyBody(
      Provider::OpenAI,
      R"({"choices":[{"message":{"content":"half"},"finish_reason":"length"}]})");
  EXPECT_EQ(openai.error, ChatErrorKind::Truncated);
  EXPECT_NE(openai.message.find("llm-max-tokens"), std::string::npos);
  ChatResult anthropic = parseReplyBody(
      Provider::Anthropic,
      R"({"content":[{"type":"text","text":"x"}],"stop_reason":"max_tokens"})");
  EXPECT_EQ(anthropic.error, ChatErrorKind::Truncated);
}

TEST(ChatReplyTest, MalformedAndEmpty) {
  EXPECT_EQ(parseReplyBody(Provider::OpenAI, "not json").error,
            ChatErrorKind::Malformed);
  EXPECT_EQ(parseReplyBody(Provider::OpenAI, "").error,
            ChatErrorKind::Malformed);
  EXPECT_EQ(parseReplyBody(Provider::OpenAI, R"({"choices":[]})").error,
            ChatErrorKind::Malformed);
  EXPECT_EQ(parseReplyBody(Provider::Anthropic, R"({"text":"x"})").error,
            ChatErrorKind::Malformed);
  EXPECT_EQ(parseReplyBody(Provider::OpenAI,
                           R"({"choices":[{"message":{"content":" \n"},)"
                           R"("finish_reason":"stop"}]})")
                .error,
            ChatErrorKind::Empty);
  EXPECT_EQ(parseReplyBody(Provider::OpenAI,
                           R"({"choices":[{"message":{"content":null}}]})")
                .error,
            ChatErrorKind::Empty);
}

TEST(ChatStatusTest, Classification) {
  ChatConfig c = config(Provider::OpenAI);
  EXPECT_EQ(errorForStatus(401, "", c).error, ChatErrorKind::Auth);
  EXPECT_EQ(errorForStatus(403, "", c).error, ChatErrorKind::Auth);
  ChatResult missing =
      errorForStatus(404, R"({"error":{"message":"no model m"}})", c);
  EXPECT_EQ(missing.error, ChatErrorKind::NotFound);
  EXPECT_NE(missing.message.find("no model m"), std::string::npos);
  EXPECT_EQ(errorForStatus(400, R"({"error":"bad"})", c).message,
            "HTTP 400: bad");
  EXPECT_TRUE(isRetryableStatus(429));
  EXPECT_TRUE(isRetryableStatus(503));
  EXPECT_FALSE(isRetryableStatus(400));
  EXPECT_FALSE(isRetryableStatus(404));
  EXPECT_TRUE(isFatal(ChatErrorKind::Unreachable));
  EXPECT_FALSE(isFatal(ChatErrorKind::Truncated));
}

TEST(ChatStatusTest, RetryAfter) {
  EXPECT_EQ(parseRetryAfter(" 2\r\n"), 2.0);
  EXPECT_EQ(parseRetryAfter("0.5"), 0.5);
  EXPECT_FALSE(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT"));
  EXPECT_FALSE(parseRetryAfter(""));
  EXPECT_FALSE(parseRetryAfter("-1"));
}

TEST(ChatConfigTest, ResolveChecksWhatIsMissing) {
  ChatConfig c;
  std::string error;
  unsetenv("STARK_LLM_URL");
  unsetenv("STARK_LLM_MODEL");
  unsetenv("STARK_LLM_PROVIDER");
  EXPECT_FALSE(resolveConfig(c, "", error));
  EXPECT_NE(error.find("llm-url"), std::string::npos);
  c.baseUrl = "http://x";
  EXPECT_FALSE(resolveConfig(c, "", error));
  EXPECT_NE(error.find("llm-model"), std::string::npos);
  setenv("STARK_LLM_MODEL", "from-env", 1);
  EXPECT_TRUE(resolveConfig(c, "anthropic", error)) << error;
  EXPECT_EQ(c.model, "from-env");
  EXPECT_EQ(c.provider, Provider::Anthropic);
  EXPECT_FALSE(resolveConfig(c, "gemini", error));
  EXPECT_NE(error.find("unknown llm-provider 'gemini'"), std::string::npos);
  unsetenv("STARK_LLM_MODEL");
}

TEST(ChatConfigTest, ConcurrencyFromTheOptionTheEnvironmentOrOne) {
  std::string error;
  unsigned n = 0;
  unsetenv("STARK_LLM_CONCURRENCY");
  EXPECT_TRUE(resolveConcurrency(0, n, error));
  EXPECT_EQ(n, 1u);
  setenv("STARK_LLM_CONCURRENCY", "8", 1);
  EXPECT_TRUE(resolveConcurrency(0, n, error));
  EXPECT_EQ(n, 8u);
  // The option wins over the environment.
  EXPECT_TRUE(resolveConcurrency(3, n, error));
  EXPECT_EQ(n, 3u);
  EXPECT_FALSE(resolveConcurrency(65, n, error));
  EXPECT_EQ(error, "llm-concurrency must be a whole number from 1 to 64, "
                   "got 65");
  for (const char *bad : {"0", "65", "-2", "4x", "four", " 4"}) {
    setenv("STARK_LLM_CONCURRENCY", bad, 1);
    EXPECT_FALSE(resolveConcurrency(0, n, error)) << bad;
    EXPECT_NE(
        error.find(std::string("got '") + bad + "' from STARK_LLM_CONCURRENCY"),
        std::string::npos)
        << error;
  }
  unsetenv("STARK_LLM_CONCURRENCY");
}

} // namespace
