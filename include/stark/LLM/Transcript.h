//===- Transcript.h - Recording and replaying chat exchanges ----*- C++ -*-===//
//
// A transcript is JSON Lines: a header line, then one line per request
// with the request, the reply (or the error) and the accounts:
//
//   {"stark_llm_transcript": 1, "provider": "openai", "model": "...",
//    "started": "2026-12-01T23:00:00Z"}
//   {"seq": 0, "time": "...", "elapsed_s": 0.4, "role": "planner",
//    "node": 0, "temperature": 0.7, "max_tokens": 4096, "system": "...",
//    "user": "...", "reply": "...", "finish_reason": "stop",
//    "prompt_tokens": 812, "completion_tokens": 97, "attempts": 1,
//    "seconds": 0.4, "error": "none", "message": ""}
//
// Nothing of the HTTP headers is written, so no key can end up in a file.
// A RecordingChatModel writes every exchange of the model it wraps; a
// ReplayChatModel answers with the recorded replies in order and reports a
// mismatch when the run asks another role, problem or node than the
// recording did.
//
// With llm-concurrency above 1 the header has "concurrency" and each line
// the search's "proposal" (ChatRequest::ticket). Lines are written as the
// replies arrive, which differs from run to run; a replay hands each
// request the next recorded reply of its problem and proposal instead of
// the next line, so the order of arrival does not matter.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LLM_TRANSCRIPT_H
#define STARK_LLM_TRANSCRIPT_H

#include "stark/LLM/Chat.h"

#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>

namespace mlir::stark::llm {

class RecordingChatModel : public ChatModel {
public:
  /// Opens `path` for writing (truncating it); null with `error` when it
  /// cannot be written.
  static std::unique_ptr<RecordingChatModel> create(ChatModel &inner,
                                                    const ChatConfig &config,
                                                    const std::string &path,
                                                    std::string &error);

  ChatResult complete(const ChatRequest &request) override;

private:
  RecordingChatModel(ChatModel &inner) : inner(inner) {}
  ChatModel &inner;
  /// Guards the file and `seq`; the inner model is asked outside it.
  std::mutex mutex;
  std::ofstream out;
  int64_t seq = 0;
  std::chrono::steady_clock::time_point start;
};

class ReplayChatModel : public ChatModel {
public:
  /// Reads a transcript; null with `error` when it is unreadable or not a
  /// transcript.
  static std::unique_ptr<ReplayChatModel> load(const std::string &path,
                                               std::string &error);
  /// True when the first line of `path` is a transcript header.
  static bool isTranscript(const std::string &path);

  ChatResult complete(const ChatRequest &request) override;

  size_t remaining() const { return entries.size() - next; }
  /// The concurrency the run was recorded with (1 when the header does not
  /// say): the replay must ask ahead the same way to grow the same tree.
  unsigned getConcurrency() const { return concurrency; }

private:
  struct Entry {
    std::string role;
    std::string problem;
    int64_t node = -1;
    int64_t proposal = -1;
    ChatResult result;
  };
  std::string path;
  std::vector<Entry> entries;
  unsigned concurrency = 1;
  std::mutex mutex;
  size_t next = 0;
  /// The entries of each (problem, proposal), in file order, and how many
  /// of them were served.
  std::map<std::pair<std::string, int64_t>, std::vector<size_t>> byProposal;
  std::map<std::pair<std::string, int64_t>, size_t> servedOfProposal;
};

} // namespace mlir::stark::llm

#endif // STARK_LLM_TRANSCRIPT_H
