//===- Transcript.cpp - Recording and replaying chat exchanges ------------===//

#include "stark/LLM/Transcript.h"
#include "stark/Support/Time.h"

#include <nlohmann/json.hpp>

#include <type_traits>

using namespace mlir::stark::llm;
using nlohmann::json;

static const char kHeaderKey[] = "stark_llm_transcript";

// Built with -fno-exceptions: fields are read only after their type is
// checked, so a hand-edited transcript is an error, not an abort.
template <typename T>
static bool read(const json &line, const char *key, T &out) {
  auto it = line.find(key);
  if (it == line.end() || it->is_null())
    return true;
  if constexpr (std::is_same_v<T, std::string>) {
    if (!it->is_string())
      return false;
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!it->is_number())
      return false;
  } else {
    if (!it->is_number_integer())
      return false;
  }
  out = it->get<T>();
  return true;
}

std::unique_ptr<RecordingChatModel>
RecordingChatModel::create(ChatModel &inner, const ChatConfig &config,
                           const std::string &path, std::string &error) {
  std::unique_ptr<RecordingChatModel> model(new RecordingChatModel(inner));
  model->out.open(path, std::ios::out | std::ios::trunc);
  if (!model->out) {
    error = "cannot write transcript '" + path + "'";
    return nullptr;
  }
  model->start = std::chrono::steady_clock::now();
  json header = {{kHeaderKey, 1},
                 {"provider", getProviderName(config.provider)},
                 {"model", config.model},
                 {"started", mlir::stark::formatUtcNow()}};
  if (config.concurrency > 1)
    header["concurrency"] = config.concurrency;
  model->out << header.dump() << "\n";
  model->out.flush();
  return model;
}

ChatResult RecordingChatModel::complete(const ChatRequest &request) {
  ChatResult result = inner.complete(request);
  std::lock_guard<std::mutex> lock(mutex);
  double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  json line = {{"seq", seq++},
               {"time", mlir::stark::formatUtcNow()},
               {"elapsed_s", elapsed},
               {"role", request.role},
               {"problem", request.problem},
               {"node", request.node},
               {"temperature", request.temperature},
               {"max_tokens", request.maxTokens},
               {"system", request.system},
               {"user", request.user},
               {"reply", result.reply.content},
               {"finish_reason", result.reply.finishReason},
               {"prompt_tokens", result.reply.promptTokens},
               {"completion_tokens", result.reply.completionTokens},
               {"attempts", result.reply.attempts},
               {"seconds", result.reply.seconds},
               {"error", getErrorKindName(result.error)},
               {"message", result.message}};
  if (request.ticket >= 0)
    line["proposal"] = request.ticket;
  // Invalid UTF-8 from a model must not make the line unwritable.
  out << line.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
  out.flush();
  return result;
}

bool ReplayChatModel::isTranscript(const std::string &path) {
  std::ifstream in(path);
  std::string first;
  if (!std::getline(in, first))
    return false;
  json header = json::parse(first, nullptr, /*allow_exceptions=*/false);
  return !header.is_discarded() && header.is_object() &&
         header.contains(kHeaderKey);
}

std::unique_ptr<ReplayChatModel> ReplayChatModel::load(const std::string &path,
                                                       std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read transcript '" + path + "'";
    return nullptr;
  }
  auto model = std::make_unique<ReplayChatModel>();
  model->path = path;
  std::string text;
  int64_t lineNo = 0;
  while (std::getline(in, text)) {
    ++lineNo;
    if (text.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    json line = json::parse(text, nullptr, /*allow_exceptions=*/false);
    auto fail = [&](const std::string &what) {
      error = "transcript '" + path + "', line " + std::to_string(lineNo) +
              ": " + what;
      return nullptr;
    };
    if (line.is_discarded() || !line.is_object())
      return fail("not a JSON object");
    if (lineNo == 1) {
      if (!line.contains(kHeaderKey))
        return fail("not a transcript (no \"stark_llm_transcript\" header)");
      int64_t concurrency = 1;
      if (!read(line, "concurrency", concurrency) || concurrency < 1 ||
          concurrency > kMaxConcurrency)
        return fail("\"concurrency\" must be a whole number from 1 to " +
                    std::to_string(kMaxConcurrency));
      model->concurrency = unsigned(concurrency);
      continue;
    }
    if (!line.contains("role") || !line.contains("reply"))
      return fail("needs \"role\" and \"reply\"");
    Entry e;
    ChatReply &r = e.result.reply;
    std::string kindName = "none";
    if (!read(line, "role", e.role) || !read(line, "node", e.node) ||
        !read(line, "proposal", e.proposal) ||
        !read(line, "problem", e.problem) || !read(line, "error", kindName) ||
        !read(line, "message", e.result.message) ||
        !read(line, "reply", r.content) ||
        !read(line, "finish_reason", r.finishReason) ||
        !read(line, "prompt_tokens", r.promptTokens) ||
        !read(line, "completion_tokens", r.completionTokens) ||
        !read(line, "attempts", r.attempts) ||
        !read(line, "seconds", r.seconds))
      return fail("a field has the wrong type");
    std::optional<ChatErrorKind> kind = parseErrorKind(kindName);
    if (!kind)
      return fail("unknown error kind '" + kindName + "'");
    e.result.error = *kind;
    if (e.proposal >= 0)
      model->byProposal[{e.problem, e.proposal}].push_back(
          model->entries.size());
    model->entries.push_back(std::move(e));
  }
  if (lineNo == 0) {
    error = "transcript '" + path + "' is empty";
    return nullptr;
  }
  return model;
}

ChatResult ReplayChatModel::complete(const ChatRequest &request) {
  auto describe = [](const std::string &role, const std::string &problem,
                     int64_t node) {
    std::string text = role + " for node " + std::to_string(node);
    return problem.empty() ? text : text + " of " + problem;
  };
  std::string asked = describe(request.role, request.problem, request.node);
  std::lock_guard<std::mutex> lock(mutex);
  if (request.ticket >= 0 && !byProposal.empty()) {
    // Asked ahead: the next recorded request of the same proposal.
    std::pair<std::string, int64_t> key{request.problem, request.ticket};
    auto it = byProposal.find(key);
    size_t &served = servedOfProposal[key];
    if (it == byProposal.end() || served >= it->second.size())
      return ChatResult::failure(
          ChatErrorKind::Replay,
          "transcript '" + path + "' mismatch: it recorded " +
              std::to_string(it == byProposal.end() ? 0 : it->second.size()) +
              " request(s) for proposal " + std::to_string(request.ticket) +
              (request.problem.empty() ? "" : " of " + request.problem) +
              ", the search asks the " + asked);
    size_t index = it->second[served];
    const Entry &e = entries[index];
    if (e.role != request.role || e.node != request.node)
      return ChatResult::failure(
          ChatErrorKind::Replay,
          "transcript '" + path + "' mismatch at request " +
              std::to_string(index) + ": it recorded the " +
              describe(e.role, e.problem, e.node) + ", the search asks the " +
              asked);
    ++served;
    ++next;
    return e.result;
  }
  if (next >= entries.size())
    return ChatResult::failure(ChatErrorKind::Replay,
                               "transcript '" + path +
                                   "' mismatch: it ends "
                                   "after " +
                                   std::to_string(entries.size()) +
                                   " requests, the search asks the " + asked);
  const Entry &e = entries[next];
  if (e.role != request.role || e.node != request.node ||
      e.problem != request.problem)
    return ChatResult::failure(ChatErrorKind::Replay,
                               "transcript '" + path +
                                   "' mismatch at request " +
                                   std::to_string(next) + ": it recorded the " +
                                   describe(e.role, e.problem, e.node) +
                                   ", the search asks the " + asked);
  ++next;
  return e.result;
}
