//===- Replay.h - Agents that replay a recorded transcript ------*- C++ -*-===//
//
// The `replay` backend answers every planner, coder and debugger call with
// the next proposal of a transcript, so a search can be reproduced exactly
// (an LLM run, or a hand-written sequence of good and bad candidates in a
// test). Transcript format (JSON):
//
//   {"proposals": [{"role": "propose" | "repair" | "any",
//                   "strategy": "...", "params": {"k": "v"},
//                   "plan": "...", "changed_part": "...",
//                   "payload": "<candidate module>"
//                   | "payload_file": "<path relative to the transcript>"}]}
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_REPLAY_H
#define STARK_SEARCH_REPLAY_H

#include "stark/Search/Search.h"

#include "mlir/Support/LLVM.h"

#include <memory>
#include <vector>

namespace mlir::stark {

class ReplayAgents : public AgentTeam {
public:
  /// Reads a transcript; null with `error` when it is unreadable or
  /// malformed.
  static std::unique_ptr<ReplayAgents> load(StringRef path, std::string &error);

  std::optional<Proposal> propose(const RoleContext &ctx) override;
  std::optional<Proposal> repair(const RoleContext &ctx) override;

  size_t remaining() const { return entries.size() - next; }

private:
  struct Entry {
    std::string role;
    Proposal proposal;
  };
  std::optional<Proposal> take(StringRef role);

  std::vector<Entry> entries;
  size_t next = 0;
};

} // namespace mlir::stark

#endif // STARK_SEARCH_REPLAY_H
