//===- LLMAgents.h - A language model in the roles of the team --*- C++ -*-===//
//
// The `llm` backend: the planner, the coder and the debugger are requests
// to a chat model (the HTTP client, or a replayed transcript), each with
// its role's prompt (lib/Search/Prompts/*.md) and only its own context.
//  - The planner sees the selected node with its candidate's lines
//    numbered, the root, the node's children, the top of the leaderboard
//    and the failed siblings, and answers with a JSON header: strategy,
//    params, plan and the region of the candidate to change.
//  - The coder sees the plan, the parent candidate and the region, and
//    answers with the whole new candidate. A change outside the region is
//    rejected before anything is compiled.
//  - The debugger sees the failed candidate, its plan and its structured
//    failure, and answers with a repaired candidate.
// A candidate is an MLIR module, a transform script (applied to the
// problem here) or CUDA C++ with its launches (checked by the guards of
// CudaGuards.h, given the model-written family whose PTX the cuda target
// checks; run only on target cuda). A reply that cannot be used
// becomes a rejected candidate the debugger can repair; a model that
// cannot be reached stops the search with an error, or hands the roles to
// a fallback team (the expert) when one is set.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_LLMAGENTS_H
#define STARK_SEARCH_LLMAGENTS_H

#include "stark/Analysis/HardwareProfile.h"
#include "stark/LLM/Chat.h"
#include "stark/Search/CudaGuards.h"
#include "stark/Search/LLMReplies.h"
#include "stark/Search/Search.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <mutex>

namespace mlir::stark {

struct LLMAgentOptions {
  /// cpu or cuda: which kinds of candidate may run.
  std::string target = "cpu";
  double plannerTemperature = 0.7;
  double coderTemperature = 0.2;
  double debuggerTemperature = 0.2;
  /// A folder with planner.md, coder.md and debugger.md to use instead of
  /// the built-in prompts; empty: the built-in ones.
  std::string promptDir;
};

/// The built-in prompt of `role` (planner, coder, debugger).
StringRef getBuiltinPrompt(StringRef role);

class LLMAgents : public AgentTeam {
public:
  /// Agents for the problem module `problem` (kept alive by the caller);
  /// null with `error` when a prompt file cannot be read or the problem has
  /// no entry.
  static std::unique_ptr<LLMAgents>
  create(ModuleOp problem, const HardwareProfile &hw, llm::ChatModel &model,
         const LLMAgentOptions &options, std::string &error);

  std::optional<Proposal> propose(const RoleContext &ctx) override;
  std::optional<Proposal> repair(const RoleContext &ctx) override;
  std::optional<AgentStop> getStop() const override;
  /// The requests of a task run in AgentTask::run (thread-safe: they only
  /// build text and ask the model); reading the replies into candidates
  /// (parsing, transform scripts, guards) and failing over happen in
  /// finish, on the search's thread.
  bool canOverlap() const override { return true; }
  std::unique_ptr<AgentTask> start(const RoleContext &ctx, bool repairing,
                                   int64_t ticket) override;

  /// The team that takes over when the model fails for good.
  void setFallback(AgentTeam *team, StringRef name) {
    fallback = team;
    fallbackName = name.str();
  }
  /// Why the fallback took over; empty while the model answers.
  const std::string &getFallbackReason() const { return fallbackReason; }

  struct Usage {
    int64_t requests = 0;
    int64_t promptTokens = 0, completionTokens = 0;
  };
  const Usage &getUsage() const { return usage; }

private:
  LLMAgents(ModuleOp problem, llm::ChatModel &model)
      : problem(problem), model(model) {}

  class Task;

  /// One request (of the proposal `ticket`, -1: none); may run on any
  /// thread.
  llm::ChatResult ask(StringRef role, const SearchNode &node, StringRef system,
                      std::string user, double temperature, int64_t ticket);
  /// A fatal failure: the search stops, or the fallback takes over.
  void onFatal(const llm::ChatResult &result);
  /// What the planner, the coder (after `plan`) and the debugger are told.
  std::string plannerMessage(const RoleContext &ctx, StringRef parent) const;
  std::string coderMessage(const SearchNode &node, const PlannerReply &plan,
                           StringRef parent) const;
  std::string debuggerMessage(const RoleContext &ctx,
                              StringRef failedText) const;
  std::optional<Proposal> finishProposal(Task &task, const RoleContext &ctx);
  std::optional<Proposal> finishRepair(Task &task, const RoleContext &ctx);
  /// A proposal that is rejected with `why`.
  Proposal reject(StringRef strategy, StringRef plan, StringRef changedPart,
                  std::string why, std::string payload = "");
  /// The candidate of a code reply: built, checked and ready to judge, or
  /// rejected. `region` is the planner's (none for the debugger).
  Proposal realize(StringRef reply, const PlannerReply &plan,
                   StringRef parentText, bool checkRegionOfPlan);
  /// The text of a node's candidate as the roles edit it: the CUDA C++
  /// source of a CUDA candidate, else the module (the problem for the
  /// root).
  std::string editableText(const SearchNode &node, StringRef payload) const;
  /// What every role is told about the problem and the target.
  std::string describeProblem() const;
  std::string describeNode(const SearchNode &node) const;

  ModuleOp problem;
  llm::ChatModel &model;
  LLMAgentOptions options;
  std::string problemName, problemText, hwText;
  std::string prompts[3];
  CudaGuardOptions guards;

  AgentTeam *fallback = nullptr;
  std::string fallbackName, fallbackReason;
  std::optional<AgentStop> stop;
  /// Guards `usage`, which requests of several tasks add to at once.
  std::mutex usageMutex;
  Usage usage;
};

} // namespace mlir::stark

#endif // STARK_SEARCH_LLMAGENTS_H
