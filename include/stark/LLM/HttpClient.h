//===- HttpClient.h - The chat model behind an HTTP endpoint ----*- C++ -*-===//
//
// Sends chat requests with libcurl in the configured wire format and keeps
// the run's accounts. Retries 429 (after Retry-After when the server sends
// one), 5xx, timeouts and refused connections with exponential backoff and
// jitter; gives every other failure a sentence that says what to fix. The
// token and cost budgets are checked before each request: once spent,
// every request fails with ChatErrorKind::Budget. Requests may be sent from
// several threads at once; the budget is checked when each is sent, so
// requests already in flight when it is reached still complete and count.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LLM_HTTPCLIENT_H
#define STARK_LLM_HTTPCLIENT_H

#include "stark/LLM/Chat.h"

#include <functional>
#include <mutex>
#include <random>

namespace mlir::stark::llm {

/// Tokens and money spent so far.
struct ChatUsage {
  int64_t requests = 0;
  int64_t promptTokens = 0, completionTokens = 0;
  double cost = 0;
};

class HttpChatModel : public ChatModel {
public:
  explicit HttpChatModel(ChatConfig config);
  ~HttpChatModel() override;

  ChatResult complete(const ChatRequest &request) override;

  /// Called before each retry with what happened and how long it waits.
  void setRetryListener(std::function<void(const std::string &)> listener) {
    onRetry = std::move(listener);
  }

  /// Read when no request is in flight.
  const ChatUsage &getUsage() const { return usage; }
  const ChatConfig &getConfig() const { return config; }

private:
  /// The wait before retry number `retry` (0-based), jitter included.
  double backoffSeconds(unsigned retry);

  ChatConfig config;
  /// Guards `usage` and `jitter`: requests may be sent from several
  /// threads at once (llm-concurrency).
  std::mutex mutex;
  ChatUsage usage;
  std::mt19937_64 jitter;
  std::function<void(const std::string &)> onRetry;
};

/// The cost of `promptTokens` + `completionTokens` at the prices of
/// `config` (per million tokens).
double getCost(const ChatConfig &config, int64_t promptTokens,
               int64_t completionTokens);

} // namespace mlir::stark::llm

#endif // STARK_LLM_HTTPCLIENT_H
