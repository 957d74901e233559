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
//===----------------------------------------------------------------------===//

#ifndef STARK_LLM_TRANSCRIPT_H
#define STARK_LLM_TRANSCRIPT_H

#include "stark/LLM/Chat.h"

#include <chrono>
#include <fstream>
#include <memory>

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

private:
  struct Entry {
    std::string role;
    std::string problem;
    int64_t node = -1;
    ChatResult result;
  };
  std::string path;
  std::vector<Entry> entries;
  size_t next = 0;
};

} // namespace mlir::stark::llm

#endif // STARK_LLM_TRANSCRIPT_H
