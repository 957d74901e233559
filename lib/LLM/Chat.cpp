//===- Chat.cpp - Chat requests and the two wire formats ------------------===//

#include "stark/LLM/Chat.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <utility>

using namespace mlir::stark::llm;
using nlohmann::json;

ChatModel::~ChatModel() = default;

const char *mlir::stark::llm::getProviderName(Provider provider) {
  return provider == Provider::Anthropic ? "anthropic" : "openai";
}

std::optional<Provider>
mlir::stark::llm::parseProvider(const std::string &name) {
  if (name == "openai")
    return Provider::OpenAI;
  if (name == "anthropic")
    return Provider::Anthropic;
  return std::nullopt;
}

static std::string getEnv(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

bool mlir::stark::llm::resolveConfig(ChatConfig &config,
                                     std::string providerName,
                                     std::string &error) {
  if (providerName.empty())
    providerName = getEnv("STARK_LLM_PROVIDER");
  if (providerName.empty())
    providerName = "openai";
  std::optional<Provider> provider = parseProvider(providerName);
  if (!provider) {
    error = "unknown llm-provider '" + providerName +
            "'; expected openai or anthropic";
    return false;
  }
  config.provider = *provider;
  if (config.baseUrl.empty())
    config.baseUrl = getEnv("STARK_LLM_URL");
  if (config.model.empty())
    config.model = getEnv("STARK_LLM_MODEL");
  if (config.apiKeyEnv.empty())
    config.apiKeyEnv = getEnv("STARK_LLM_KEY_ENV");
  if (config.baseUrl.empty()) {
    error = "no model server: set llm-url (or STARK_LLM_URL)";
    return false;
  }
  if (config.model.empty()) {
    error = "no model name: set llm-model (or STARK_LLM_MODEL)";
    return false;
  }
  if (config.maxTokens <= 0) {
    error = "llm-max-tokens must be positive";
    return false;
  }
  if (!(config.requestTimeout > 0) || !(config.connectTimeout > 0)) {
    error = "llm-timeout and llm-connect-timeout must be positive";
    return false;
  }
  if (!(config.backoff >= 0) || config.tokenBudget < 0 ||
      !(config.costBudget >= 0) || !(config.priceInput >= 0) ||
      !(config.priceOutput >= 0)) {
    error = "llm-backoff, the budgets and the prices must not be negative";
    return false;
  }
  return true;
}

bool mlir::stark::llm::resolveConcurrency(unsigned option,
                                          unsigned &concurrency,
                                          std::string &error) {
  std::string range = "llm-concurrency must be a whole number from 1 to " +
                      std::to_string(kMaxConcurrency);
  if (option > kMaxConcurrency) {
    error = range + ", got " + std::to_string(option);
    return false;
  }
  if (option > 0) {
    concurrency = option;
    return true;
  }
  std::string text = getEnv("STARK_LLM_CONCURRENCY");
  if (text.empty()) {
    concurrency = 1;
    return true;
  }
  char *end = nullptr;
  errno = 0;
  unsigned long value = std::strtoul(text.c_str(), &end, 10);
  if (!std::isdigit(static_cast<unsigned char>(text[0])) || *end || errno ||
      value < 1 || value > kMaxConcurrency) {
    error = range + ", got '" + text + "' from STARK_LLM_CONCURRENCY";
    return false;
  }
  concurrency = unsigned(value);
  return true;
}

/// Every error kind and its name in records and transcripts, one row each, so
/// that naming and parsing cannot drift apart.
static constexpr std::pair<ChatErrorKind, const char *> kErrorKindNames[] = {
    {ChatErrorKind::None, "none"},
    {ChatErrorKind::Unreachable, "unreachable"},
    {ChatErrorKind::Timeout, "timeout"},
    {ChatErrorKind::Auth, "auth"},
    {ChatErrorKind::NotFound, "not_found"},
    {ChatErrorKind::Http, "http"},
    {ChatErrorKind::Malformed, "malformed"},
    {ChatErrorKind::Empty, "empty"},
    {ChatErrorKind::Truncated, "truncated"},
    {ChatErrorKind::Budget, "budget"},
    {ChatErrorKind::Replay, "replay"}};

const char *mlir::stark::llm::getErrorKindName(ChatErrorKind kind) {
  for (const auto &[rowKind, name] : kErrorKindNames)
    if (rowKind == kind)
      return name;
  return "none";
}

std::optional<ChatErrorKind>
mlir::stark::llm::parseErrorKind(const std::string &name) {
  for (const auto &[kind, rowName] : kErrorKindNames)
    if (name == rowName)
      return kind;
  return std::nullopt;
}

bool mlir::stark::llm::isFatal(ChatErrorKind kind) {
  switch (kind) {
  case ChatErrorKind::Malformed:
  case ChatErrorKind::Empty:
  case ChatErrorKind::Truncated:
  case ChatErrorKind::None:
    return false;
  default:
    return true;
  }
}

/// `base` + `path`, where `base` may already end in /v1.
static std::string endpoint(std::string base, const std::string &path) {
  while (!base.empty() && base.back() == '/')
    base.pop_back();
  if (base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0)
    base.resize(base.size() - 3);
  return base + path;
}

HttpRequest mlir::stark::llm::buildHttpRequest(const ChatConfig &config,
                                               const ChatRequest &request,
                                               const std::string &apiKey) {
  HttpRequest http;
  int64_t maxTokens =
      request.maxTokens > 0 ? request.maxTokens : config.maxTokens;
  json body;
  body["model"] = config.model;
  body["max_tokens"] = maxTokens;
  body["temperature"] = request.temperature;
  http.headers.emplace_back("Content-Type", "application/json");
  if (config.provider == Provider::Anthropic) {
    http.url = endpoint(config.baseUrl, "/v1/messages");
    if (!request.system.empty())
      body["system"] = request.system;
    body["messages"] =
        json::array({{{"role", "user"}, {"content", request.user}}});
    http.headers.emplace_back("anthropic-version", "2023-06-01");
    if (!apiKey.empty())
      http.headers.emplace_back("x-api-key", apiKey);
  } else {
    http.url = endpoint(config.baseUrl, "/v1/chat/completions");
    json messages = json::array();
    if (!request.system.empty())
      messages.push_back({{"role", "system"}, {"content", request.system}});
    messages.push_back({{"role", "user"}, {"content", request.user}});
    body["messages"] = std::move(messages);
    if (!apiKey.empty())
      http.headers.emplace_back("Authorization", "Bearer " + apiKey);
  }
  // Text from a model may hold invalid UTF-8; it must not make the request
  // unwritable.
  http.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  return http;
}

// Built with -fno-exceptions: a nlohmann accessor that would throw aborts
// instead, so every field is read through these, which check its type.

/// A string field of `object`, none when absent or not a string.
static std::optional<std::string> getString(const json &object,
                                            const char *key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string())
    return std::nullopt;
  return it->get<std::string>();
}

/// An integer field of `object`, 0 when absent.
static int64_t getCount(const json &object, const char *key) {
  auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

ChatResult mlir::stark::llm::parseReplyBody(Provider provider,
                                            const std::string &body) {
  json reply = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (reply.is_discarded() || !reply.is_object())
    return ChatResult::failure(ChatErrorKind::Malformed,
                               "the server's reply is not a JSON object: '" +
                                   body.substr(0, 80) +
                                   (body.size() > 80 ? "...'" : "'"));
  ChatResult result;
  ChatReply &out = result.reply;
  if (provider == Provider::Anthropic) {
    auto content = reply.find("content");
    if (content == reply.end() || !content->is_array())
      return ChatResult::failure(ChatErrorKind::Malformed,
                                 "the reply has no \"content\" array");
    for (const json &block : *content)
      if (block.is_object() && getString(block, "type") == "text")
        out.content += getString(block, "text").value_or("");
    out.finishReason = getString(reply, "stop_reason").value_or("");
    auto usage = reply.find("usage");
    if (usage != reply.end() && usage->is_object()) {
      out.promptTokens = getCount(*usage, "input_tokens");
      out.completionTokens = getCount(*usage, "output_tokens");
    }
  } else {
    auto choices = reply.find("choices");
    if (choices == reply.end() || !choices->is_array() || choices->empty() ||
        !(*choices)[0].is_object())
      return ChatResult::failure(ChatErrorKind::Malformed,
                                 "the reply has no \"choices\"");
    const json &choice = (*choices)[0];
    auto message = choice.find("message");
    if (message == choice.end() || !message->is_object())
      return ChatResult::failure(ChatErrorKind::Malformed,
                                 "the reply's choice has no \"message\"");
    auto text = message->find("content");
    if (text != message->end() && text->is_string())
      out.content = text->get<std::string>();
    else if (text != message->end() && !text->is_null())
      return ChatResult::failure(ChatErrorKind::Malformed,
                                 "the reply's content is not a string");
    out.finishReason = getString(choice, "finish_reason").value_or("");
    auto usage = reply.find("usage");
    if (usage != reply.end() && usage->is_object()) {
      out.promptTokens = getCount(*usage, "prompt_tokens");
      out.completionTokens = getCount(*usage, "completion_tokens");
    }
  }
  if (out.finishReason == "length" || out.finishReason == "max_tokens") {
    ChatResult cut = ChatResult::failure(
        ChatErrorKind::Truncated,
        "the reply was cut off at the token limit (finish reason '" +
            out.finishReason + "'); raise llm-max-tokens");
    cut.reply = out;
    return cut;
  }
  bool blank = true;
  for (char c : out.content)
    blank &= std::isspace(static_cast<unsigned char>(c)) != 0;
  if (blank) {
    ChatResult empty =
        ChatResult::failure(ChatErrorKind::Empty, "the reply has no text");
    empty.reply = out;
    return empty;
  }
  return result;
}

ChatResult mlir::stark::llm::errorForStatus(long status,
                                            const std::string &body,
                                            const ChatConfig &config) {
  // Both providers put a readable message under "error".
  std::string detail;
  json reply = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!reply.is_discarded() && reply.is_object()) {
    auto e = reply.find("error");
    if (e != reply.end() && e->is_string())
      detail = e->get<std::string>();
    else if (e != reply.end() && e->is_object())
      detail = getString(*e, "message").value_or("");
  }
  std::string suffix = detail.empty() ? "" : ": " + detail;
  std::string code = "HTTP " + std::to_string(status);
  if (status == 401 || status == 403)
    return ChatResult::failure(
        ChatErrorKind::Auth,
        code + " from " + config.baseUrl + ": the server refused the key" +
            (config.apiKeyEnv.empty()
                 ? std::string(" (none sent; set llm-key-env to the name of "
                               "the variable holding it)")
                 : " read from $" + config.apiKeyEnv) +
            suffix);
  if (status == 404)
    return ChatResult::failure(ChatErrorKind::NotFound,
                               code + ": no such endpoint or model ('" +
                                   config.model + "' at " + config.baseUrl +
                                   ")" + suffix);
  return ChatResult::failure(ChatErrorKind::Http, code + suffix);
}

bool mlir::stark::llm::isRetryableStatus(long status) {
  return status == 429 || (status >= 500 && status < 600);
}

std::optional<double>
mlir::stark::llm::parseRetryAfter(const std::string &value) {
  size_t begin = value.find_first_not_of(" \t");
  size_t end = value.find_last_not_of(" \t\r\n");
  if (begin == std::string::npos)
    return std::nullopt;
  std::string text = value.substr(begin, end - begin + 1);
  char *stop = nullptr;
  double seconds = std::strtod(text.c_str(), &stop);
  if (stop == text.c_str() || *stop != '\0' || !(seconds >= 0))
    return std::nullopt;
  return seconds;
}
