//===- Chat.h - Chat requests to a language model and their wire formats -===//
//
// What the agents ask a model and what comes back, independent of how it
// travels: a ChatModel answers a ChatRequest with a ChatReply or a
// ChatError. The HTTP client (HttpClient.h) speaks two wire formats, built
// and parsed here so that unit tests check them without a network:
//  - OpenAI-compatible chat completions (POST {base}/v1/chat/completions;
//    vLLM, llama.cpp's server, SGLang and hosted APIs), key as a bearer
//    token;
//  - Anthropic messages (POST {base}/v1/messages), key in `x-api-key`,
//    `anthropic-version`, the system prompt at the top level.
// The API key is read from the environment variable whose name is
// configured, only when a request is sent; it is never stored in a request
// that is logged or recorded.
//
// This library knows nothing of MLIR or of the search.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LLM_CHAT_H
#define STARK_LLM_CHAT_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::stark::llm {

enum class Provider { OpenAI, Anthropic };

/// "openai" or "anthropic".
const char *getProviderName(Provider provider);
std::optional<Provider> parseProvider(const std::string &name);

/// Where the model is and how to talk to it. Every field has an option of
/// stark-search (`llm-*`); the first four also an environment variable used
/// when the option is empty (resolveConfig).
struct ChatConfig {
  Provider provider = Provider::OpenAI;
  /// Server root, e.g. http://127.0.0.1:8000 (a trailing /v1 is accepted).
  std::string baseUrl;
  std::string model;
  /// Name of the environment variable holding the API key; empty: send no
  /// key (local servers).
  std::string apiKeyEnv;
  int64_t maxTokens = 4096;
  /// Seconds to establish the connection, and for the whole request.
  double connectTimeout = 10;
  double requestTimeout = 120;
  /// Retries after the first attempt, on 429, 5xx, timeouts and refused
  /// connections; the wait doubles from `backoff` seconds (at most
  /// `maxBackoff`), with jitter, unless the server sends Retry-After.
  unsigned retries = 3;
  double backoff = 1;
  double maxBackoff = 30;
  /// Per run: tokens (prompt + completion) and cost; 0 is no limit.
  int64_t tokenBudget = 0;
  double costBudget = 0;
  /// Price per million prompt and completion tokens, for the cost.
  double priceInput = 0, priceOutput = 0;
  /// Seed of the retry jitter.
  uint64_t seed = 0;
  /// Requests that may be in flight at once (the search asks ahead while
  /// candidates are judged); recorded in transcripts, since the search's
  /// tree depends on it.
  unsigned concurrency = 1;
};

/// The most requests in flight at once that llm-concurrency accepts.
constexpr unsigned kMaxConcurrency = 64;

/// The concurrency of a run: `option` when given (non-zero), else
/// STARK_LLM_CONCURRENCY, else 1; false with `error` when that is not a
/// whole number from 1 to kMaxConcurrency.
bool resolveConcurrency(unsigned option, unsigned &concurrency,
                        std::string &error);

/// Fills the empty fields of `config` from STARK_LLM_PROVIDER, STARK_LLM_URL,
/// STARK_LLM_MODEL and STARK_LLM_KEY_ENV (`providerName` is the option's
/// text, empty when not given) and checks the result; false with `error`
/// saying what is missing.
bool resolveConfig(ChatConfig &config, std::string providerName,
                   std::string &error);

/// One call of one role.
struct ChatRequest {
  /// "planner", "coder" or "debugger" (or anything, for stark-llm).
  std::string role;
  /// The problem and search node the call is about (-1: none);
  /// transcripts record them so a replay can tell when it has diverged.
  std::string problem;
  int64_t node = -1;
  /// The search's number of the proposal the request serves (-1: none).
  /// A proposal's requests are sent one after the other, so the problem,
  /// the ticket and the order within it name a request whatever order
  /// the requests of concurrent proposals arrive in.
  int64_t ticket = -1;
  std::string system;
  std::string user;
  double temperature = 0;
  /// 0: the configuration's maxTokens.
  int64_t maxTokens = 0;
};

struct ChatReply {
  std::string content;
  /// As the server said it ("stop", "end_turn", ...).
  std::string finishReason;
  int64_t promptTokens = 0, completionTokens = 0;
  /// Attempts made (1 without retries) and their wall time.
  unsigned attempts = 1;
  double seconds = 0;
};

enum class ChatErrorKind {
  None,
  /// No connection (refused, unresolvable) after every retry.
  Unreachable,
  /// No complete answer within the request timeout, after every retry.
  Timeout,
  /// 401 or 403: the key is missing or wrong.
  Auth,
  /// 404: wrong URL or model.
  NotFound,
  /// Any other HTTP error, including 429 and 5xx once retries are spent.
  Http,
  /// A 200 whose body is not the expected JSON.
  Malformed,
  /// A reply with no text.
  Empty,
  /// The model stopped at max tokens: the reply is cut off.
  Truncated,
  /// The run's token or cost budget is spent.
  Budget,
  /// A replayed transcript does not match the run.
  Replay,
};

const char *getErrorKindName(ChatErrorKind kind);
std::optional<ChatErrorKind> parseErrorKind(const std::string &name);

/// Errors that end the run (as opposed to one bad reply, which the search
/// records as a rejected candidate and moves on from).
bool isFatal(ChatErrorKind kind);

/// A reply, or why there is none.
struct ChatResult {
  ChatErrorKind error = ChatErrorKind::None;
  std::string message;
  ChatReply reply;
  bool ok() const { return error == ChatErrorKind::None; }
  static ChatResult failure(ChatErrorKind kind, std::string message) {
    ChatResult r;
    r.error = kind;
    r.message = std::move(message);
    return r;
  }
};

/// Something that answers chat requests: the HTTP client, a replayed
/// transcript, a fake in tests.
class ChatModel {
public:
  virtual ~ChatModel();
  virtual ChatResult complete(const ChatRequest &request) = 0;
};

/// An HTTP request as the wire format wants it. `headers` holds the key
/// header only when a key was given; never log them.
struct HttpRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

/// The request of `request` to the endpoint of `config`, carrying `apiKey`
/// (empty: none).
HttpRequest buildHttpRequest(const ChatConfig &config,
                             const ChatRequest &request,
                             const std::string &apiKey);

/// Reads a 200 reply body in the provider's format: the text, the finish
/// reason and the token counts; Malformed, Empty or Truncated otherwise.
ChatResult parseReplyBody(Provider provider, const std::string &body);

/// The error an HTTP status other than 200 stands for, with the server's
/// own message when its body has one.
ChatResult errorForStatus(long status, const std::string &body,
                          const ChatConfig &config);

/// True for the statuses worth retrying: 429 and 5xx.
bool isRetryableStatus(long status);

/// Seconds of a Retry-After header value (delta-seconds only); none when
/// absent or not a number.
std::optional<double> parseRetryAfter(const std::string &value);

} // namespace mlir::stark::llm

#endif // STARK_LLM_CHAT_H
