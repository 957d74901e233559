//===- HttpClient.cpp - The chat model behind an HTTP endpoint ------------===//

#include "stark/LLM/HttpClient.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

using namespace mlir::stark::llm;

double mlir::stark::llm::getCost(const ChatConfig &config, int64_t promptTokens,
                                 int64_t completionTokens) {
  return (double(promptTokens) * config.priceInput +
          double(completionTokens) * config.priceOutput) /
         1e6;
}

/// curl_global_init is not thread-safe; do it once.
static void initCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

HttpChatModel::HttpChatModel(ChatConfig config)
    : config(std::move(config)), jitter(this->config.seed) {
  initCurlOnce();
}

HttpChatModel::~HttpChatModel() = default;

double HttpChatModel::backoffSeconds(unsigned retry) {
  double wait = std::min(config.maxBackoff,
                         config.backoff * std::pow(2.0, double(retry)));
  // Half fixed, half random: clients that failed together do not all come
  // back at the same instant.
  std::uniform_real_distribution<double> unit(0.5, 1.0);
  std::lock_guard<std::mutex> lock(mutex);
  return wait * unit(jitter);
}

namespace {
/// What one attempt gave.
struct Exchange {
  CURLcode code = CURLE_OK;
  std::string curlError;
  long status = 0;
  std::string body;
  std::string retryAfter;
};
} // namespace

static size_t appendBody(char *data, size_t size, size_t count, void *user) {
  static_cast<std::string *>(user)->append(data, size * count);
  return size * count;
}

static size_t readHeader(char *data, size_t size, size_t count, void *user) {
  std::string line(data, size * count);
  const char name[] = "retry-after:";
  if (line.size() > sizeof(name) - 1) {
    std::string head = line.substr(0, sizeof(name) - 1);
    std::transform(head.begin(), head.end(), head.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (head == name)
      *static_cast<std::string *>(user) = line.substr(sizeof(name) - 1);
  }
  return size * count;
}

static Exchange perform(const HttpRequest &request, const ChatConfig &config) {
  Exchange out;
  CURL *curl = curl_easy_init();
  if (!curl) {
    out.code = CURLE_FAILED_INIT;
    out.curlError = "libcurl could not start a request";
    return out;
  }
  char errorBuffer[CURL_ERROR_SIZE] = {0};
  struct curl_slist *headers = nullptr;
  for (const auto &[name, value] : request.headers)
    headers = curl_slist_append(headers, (name + ": " + value).c_str());
  // An empty Expect keeps curl from waiting for "100 Continue" on large
  // bodies, which some servers never send.
  headers = curl_slist_append(headers, "Expect:");
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                   (curl_off_t)request.body.size());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, appendBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, readHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &out.retryAfter);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                   long(config.connectTimeout * 1000));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                   long(config.requestTimeout * 1000));
  // Timeouts must not raise SIGALRM in a multi-threaded compiler.
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  // No proxy from the environment for loopback servers.
  curl_easy_setopt(curl, CURLOPT_NOPROXY, "localhost,127.0.0.1,::1");
  out.code = curl_easy_perform(curl);
  if (out.code != CURLE_OK)
    out.curlError = errorBuffer[0] ? errorBuffer : curl_easy_strerror(out.code);
  else
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out.status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return out;
}

ChatResult HttpChatModel::complete(const ChatRequest &request) {
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  std::unique_lock<std::mutex> lock(mutex);
  if (config.tokenBudget > 0 &&
      usage.promptTokens + usage.completionTokens >= config.tokenBudget)
    return ChatResult::failure(
        ChatErrorKind::Budget,
        "the token budget of " + std::to_string(config.tokenBudget) +
            " is spent (" +
            std::to_string(usage.promptTokens + usage.completionTokens) +
            " used)");
  if (config.costBudget > 0 && usage.cost >= config.costBudget) {
    char text[128];
    std::snprintf(text, sizeof(text),
                  "the cost budget of %.4f is spent (%.4f used)",
                  config.costBudget, usage.cost);
    return ChatResult::failure(ChatErrorKind::Budget, text);
  }

  lock.unlock();

  std::string key;
  if (!config.apiKeyEnv.empty()) {
    const char *value = std::getenv(config.apiKeyEnv.c_str());
    if (!value || !*value)
      return ChatResult::failure(
          ChatErrorKind::Auth, "the environment variable " + config.apiKeyEnv +
                                   " (llm-key-env) holds no API key");
    key = value;
  }
  HttpRequest http = buildHttpRequest(config, request, key);

  ChatResult last;
  for (unsigned attempt = 0;; ++attempt) {
    {
      std::lock_guard<std::mutex> count(mutex);
      ++usage.requests;
    }
    Exchange x = perform(http, config);
    std::optional<double> retryAfter;
    if (x.code == CURLE_OPERATION_TIMEDOUT) {
      last = ChatResult::failure(
          ChatErrorKind::Timeout,
          "no reply from " + http.url + " within " +
              std::to_string(int64_t(std::ceil(config.requestTimeout))) +
              " s (llm-timeout): " + x.curlError);
    } else if (x.code != CURLE_OK) {
      last = ChatResult::failure(ChatErrorKind::Unreachable,
                                 "cannot reach the model at " + http.url +
                                     ": " + x.curlError);
    } else if (x.status == 200) {
      last = parseReplyBody(config.provider, x.body);
      // What the server counted is spent even when the reply is unusable.
      std::lock_guard<std::mutex> count(mutex);
      usage.promptTokens += last.reply.promptTokens;
      usage.completionTokens += last.reply.completionTokens;
      usage.cost +=
          getCost(config, last.reply.promptTokens, last.reply.completionTokens);
      last.reply.attempts = attempt + 1;
      last.reply.seconds = elapsed();
      return last;
    } else {
      last = errorForStatus(x.status, x.body, config);
      if (!isRetryableStatus(x.status))
        return last;
      retryAfter = parseRetryAfter(x.retryAfter);
    }
    if (attempt >= config.retries) {
      if (config.retries > 0)
        last.message += " (after " + std::to_string(attempt + 1) + " attempts)";
      last.reply.attempts = attempt + 1;
      last.reply.seconds = elapsed();
      return last;
    }
    // A server's Retry-After is honoured, up to the longest backoff.
    double wait = retryAfter ? std::min(*retryAfter, config.maxBackoff)
                             : backoffSeconds(attempt);
    if (onRetry) {
      char text[64];
      std::snprintf(text, sizeof(text), "retry %u in %.2f s%s: ", attempt + 1,
                    wait, retryAfter ? " (Retry-After)" : "");
      onRetry(text + last.message);
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));
  }
}
