//===- LLMAgents.cpp - A language model in the roles of the team ----------===//

#include "stark/Search/LLMAgents.h"
#include "stark/Problem/KernelProblem.h"
#include "stark/Strategies/CandidateSpace.h"
#include "stark/Strategies/CudaTemplates.h"
#include "stark/Strategies/TransformScript.h"
#include "stark/Target/CudaCompile.h"

#include "stark/Search/Prompts/coder.md.inc"
#include "stark/Search/Prompts/debugger.md.inc"
#include "stark/Search/Prompts/planner.md.inc"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::stark;
using llm::ChatErrorKind;
using llm::ChatResult;

static const char *const kRoles[] = {"planner", "coder", "debugger"};

StringRef mlir::stark::getBuiltinPrompt(StringRef role) {
  if (role == "planner")
    return prompts::kplanner;
  if (role == "coder")
    return prompts::kcoder;
  if (role == "debugger")
    return prompts::kdebugger;
  return {};
}

std::unique_ptr<LLMAgents> LLMAgents::create(ModuleOp problem,
                                             const HardwareProfile &hw,
                                             llm::ChatModel &model,
                                             const LLMAgentOptions &options,
                                             std::string &error) {
  std::unique_ptr<LLMAgents> agents(new LLMAgents(problem, model));
  agents->options = options;
  for (auto [i, role] : llvm::enumerate(kRoles)) {
    if (options.promptDir.empty()) {
      agents->prompts[i] = getBuiltinPrompt(role).str();
      continue;
    }
    SmallString<256> path(options.promptDir);
    llvm::sys::path::append(path, Twine(role) + ".md");
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer) {
      error = llvm::formatv("cannot read the {0} prompt '{1}': {2}", role, path,
                            buffer.getError().message())
                  .str();
      return nullptr;
    }
    agents->prompts[i] = (*buffer)->getBuffer().str();
  }
  FailureOr<ProblemAttr> info = getProblemAttr(problem, error);
  if (failed(info))
    return nullptr;
  auto entry = problem.lookupSymbol<func::FuncOp>(info->getEntry());
  if (!entry) {
    error =
        "the problem has no entry function '" + info->getEntry().str() + "'";
    return nullptr;
  }
  agents->problemName =
      problem.getSymName() ? problem.getSymName()->str() : "problem";
  agents->problemText = printCandidate(problem);
  agents->hwText = llvm::formatv("{0} ({1})", hw.name, hw.description).str();
  int64_t numArgs = entry.getNumArguments();
  agents->guards.numOutputs = info->getNumOutputs();
  agents->guards.numInputs =
      numArgs > info->getNumOutputs() ? numArgs - info->getNumOutputs() : 0;
  // Whether any op reads its outputs' initial values: if none does, an
  // output read before it is written can only be a cache.
  bool read = false, known = true;
  entry.walk([&](Operation *op) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      for (OpOperand &init : linalgOp.getDpsInitsMutable())
        read |= linalgOp.payloadUsesValueFromOperand(&init);
    } else if (op->getNumRegions() && !isa<func::FuncOp>(op)) {
      known = false;
    }
  });
  agents->guards.outputsAreRead = read || !known;
  return agents;
}

std::optional<AgentStop> LLMAgents::getStop() const { return stop; }

void LLMAgents::onFatal(const ChatResult &result) {
  std::string why =
      llvm::formatv("the model failed ({0}): {1}",
                    llm::getErrorKindName(result.error), result.message)
          .str();
  if (fallback) {
    fallbackReason = why;
    return;
  }
  AgentStop s;
  s.message = why;
  // A spent budget ends the search like any budget; anything else means
  // the model cannot be used and the run failed.
  s.error = result.error != ChatErrorKind::Budget;
  s.reason = s.error ? "model" : "tokens";
  stop = s;
}

ChatResult LLMAgents::ask(StringRef role, const SearchNode &node,
                          StringRef system, std::string user,
                          double temperature, int64_t ticket) {
  llm::ChatRequest request;
  request.role = role.str();
  request.problem = problemName;
  request.node = node.id;
  request.ticket = ticket;
  request.system = system.str();
  request.user = std::move(user);
  request.temperature = temperature;
  ChatResult result = model.complete(request);
  std::lock_guard<std::mutex> lock(usageMutex);
  ++usage.requests;
  usage.promptTokens += result.reply.promptTokens;
  usage.completionTokens += result.reply.completionTokens;
  return result;
}

Proposal LLMAgents::reject(StringRef strategy, StringRef plan,
                           StringRef changedPart, std::string why,
                           std::string payload) {
  Proposal p;
  p.node.strategy = strategy.empty() ? "llm" : strategy.str();
  p.node.plan = plan.str();
  p.node.changedPart = changedPart.str();
  p.rejection = std::move(why);
  p.payload = std::move(payload);
  return p;
}

std::string LLMAgents::editableText(const SearchNode &node,
                                    StringRef payload) const {
  if (node.id == 0 || payload.empty())
    return problemText;
  if (!payload.contains("stark.cuda"))
    return payload.str();
  // A payload that does not parse is shown as it is; its errors are not
  // the user's.
  MLIRContext *context = ModuleOp(problem).getContext();
  ErrorCollector quiet(context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(payload, context);
  if (module)
    for (auto func : module->getOps<func::FuncOp>())
      if (hasCudaSource(func)) {
        std::string error;
        FailureOr<CudaSourceCandidate> cuda = parseCudaSource(func, error);
        if (succeeded(cuda))
          return cuda->source;
      }
  return payload.str();
}

std::string LLMAgents::describeProblem() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "# Problem " << problemName << "\n\nTarget: " << options.target
     << ", hardware profile " << hwText << ".\n"
     << "The entry function takes " << guards.numInputs << " input and "
     << guards.numOutputs
     << " output buffer(s), in that order. The baseline is this module "
        "through the upstream lowering:\n\n```mlir\n"
     << problemText << "```\n\n";
  if (options.target == "cuda")
    os << "Candidates may be an MLIR module, a transform script or CUDA C++ "
          "(extern \"C\" __global__ kernels with a JSON header of launches).\n";
  else
    os << "Candidates run on the host CPU: answer with an MLIR module or a "
          "transform script. CUDA C++ does not run on this target.\n";
  return text;
}

/// `text` with every trial seed ("seed 1234") hidden: a model that knew
/// the seeds could write a candidate that recognises the judge's inputs.
static std::string hideSeeds(StringRef text) {
  static const llvm::Regex seed("seed [0-9]+");
  std::string out = text.str();
  while (seed.match(out))
    out = seed.sub("seed (hidden)", out);
  return out;
}

std::string LLMAgents::describeNode(const SearchNode &node) const {
  std::string text = llvm::formatv("node {0}: {1}", node.id,
                                   node.id == 0 ? "baseline" : node.strategy)
                         .str();
  if (!node.params.empty()) {
    text += " {";
    for (const auto &[k, v] : node.params)
      text += " " + k + "=" + v;
    text += " }";
  }
  if (node.state == NodeState::Passed)
    text += llvm::formatv(", {0}, {1:f3} ms, {2:f2}x the baseline",
                          node.screened ? "slower (passed its first trial)"
                                        : "passed",
                          node.seconds * 1e3, node.id == 0 ? 1.0 : node.speedup)
                .str();
  else if (node.state == NodeState::Failed)
    text += ", failed (" + node.status +
            "): " + hideSeeds(StringRef(node.failure).take_until([](char c) {
              return c == '\n';
            }));
  if (!node.plan.empty())
    text += "\n    plan: " + node.plan;
  return text;
}

/// The code block language a candidate of this text is shown in.
static StringRef fenceFor(StringRef text) {
  return text.contains("__global__") ? "cuda" : "mlir";
}

/// One proposal (or repair) of the roles: the messages are built when it
/// starts, the requests sent in run(), the replies read in finish().
class LLMAgents::Task : public AgentTask {
public:
  Task(LLMAgents &agents, bool repairing, int64_t ticket)
      : agents(agents), repairing(repairing), ticket(ticket) {}

  void run() override {
    if (!asking)
      return;
    if (repairing) {
      first = agents.ask("debugger", node, agents.prompts[2], message,
                         agents.options.debuggerTemperature, ticket);
      return;
    }
    first = agents.ask("planner", node, agents.prompts[0], message,
                       agents.options.plannerTemperature, ticket);
    if (!first.ok())
      return;
    SmallVector<StringRef> lines;
    StringRef(parent).rtrim().split(lines, '\n');
    FailureOr<PlannerReply> parsed =
        parsePlannerReply(first.reply.content, lines.size(), planError);
    if (failed(parsed))
      return;
    plan = *parsed;
    second = agents.ask("coder", node, agents.prompts[1],
                        agents.coderMessage(node, *plan, parent),
                        agents.options.coderTemperature, ticket);
  }

  std::optional<Proposal> finish(const RoleContext &ctx) override {
    // Once the fallback took over (possibly after this task started),
    // whatever the model answered here is not used.
    if (!agents.fallbackReason.empty())
      return repairing ? agents.fallback->repair(ctx)
                       : agents.fallback->propose(ctx);
    if (agents.stop)
      return std::nullopt;
    return repairing ? agents.finishRepair(*this, ctx)
                     : agents.finishProposal(*this, ctx);
  }

  LLMAgents &agents;
  bool repairing;
  int64_t ticket;
  /// Set when the model is asked at all (not after a stop or a fallback).
  bool asking = false;
  SearchNode node;
  /// The selected candidate as the roles edit it, and the first message.
  std::string parent, message;
  /// The planner's (or the debugger's) reply, the plan read from it, and
  /// the coder's reply.
  ChatResult first, second;
  std::optional<PlannerReply> plan;
  std::string planError;
};

std::unique_ptr<AgentTask> LLMAgents::start(const RoleContext &ctx,
                                            bool repairing, int64_t ticket) {
  auto task = std::make_unique<Task>(*this, repairing, ticket);
  if (!fallbackReason.empty() || stop)
    return task;
  task->asking = true;
  task->node = *ctx.selected;
  task->parent = editableText(*ctx.selected, ctx.selectedPayload);
  task->message = repairing ? debuggerMessage(ctx, task->parent)
                            : plannerMessage(ctx, task->parent);
  return task;
}

std::optional<Proposal> LLMAgents::propose(const RoleContext &ctx) {
  std::unique_ptr<AgentTask> task = start(ctx, /*repairing=*/false, -1);
  task->run();
  return task->finish(ctx);
}

std::optional<Proposal> LLMAgents::repair(const RoleContext &ctx) {
  std::unique_ptr<AgentTask> task = start(ctx, /*repairing=*/true, -1);
  task->run();
  return task->finish(ctx);
}

std::string LLMAgents::plannerMessage(const RoleContext &ctx,
                                      StringRef parent) const {
  // The tree around the node and its candidate, lines numbered.
  const SearchNode &node = *ctx.selected;
  std::string user = describeProblem();
  llvm::raw_string_ostream os(user);
  os << "\n# The tree\n\nroot: " << describeNode(*ctx.root) << "\nselected "
     << describeNode(node) << "\n";
  auto list = [&](StringRef title, ArrayRef<const SearchNode *> nodes) {
    os << "\n" << title << ":" << (nodes.empty() ? " none\n" : "\n");
    for (const SearchNode *n : nodes)
      os << "  - " << describeNode(*n) << "\n";
  };
  list("children of the selected node", ctx.children);
  list("best candidates so far", ctx.leaderboardTop);
  list("failed siblings of the selected node", ctx.failingSiblings);
  os << "\n# Candidate of node " << node.id << " (lines numbered)\n\n```"
     << fenceFor(parent) << "\n"
     << numberLines(parent) << "```\n";
  return user;
}

std::string LLMAgents::coderMessage(const SearchNode &node,
                                    const PlannerReply &plan,
                                    StringRef parent) const {
  // The plan, the parent and the region.
  std::string code = describeProblem();
  llvm::raw_string_ostream cs(code);
  cs << "\n# Plan\n\nstrategy: " << plan.strategy << "\n";
  for (const auto &[k, v] : plan.params)
    cs << "param " << k << " = " << v << "\n";
  cs << "plan: " << plan.plan << "\n\n# Parent candidate (node " << node.id
     << ")\n\n```" << fenceFor(parent) << "\n"
     << parent << (parent.ends_with("\n") ? "" : "\n") << "```\n\n";
  if (plan.whole)
    cs << "# Region\n\nall: rewrite the whole candidate.\n";
  else
    cs << "# Region\n\nOnly lines " << plan.first << "-" << plan.last
       << " of the parent may change; every other line must stay as it "
          "is. They are:\n\n```\n"
       << getLines(parent, plan.first, plan.last) << "```\n";
  return code;
}

std::string LLMAgents::debuggerMessage(const RoleContext &ctx,
                                       StringRef failedText) const {
  const SearchNode &node = *ctx.selected;
  std::string user = describeProblem();
  llvm::raw_string_ostream os(user);
  os << "\n# The failed candidate\n\n"
     << describeNode(node) << "\nchanged part: "
     << (node.changedPart.empty() ? "all" : node.changedPart)
     << "\n\n# Failure (" << node.status << ")\n\n"
     << hideSeeds(node.failure) << "\n";
  if (!ctx.failingSiblings.empty()) {
    os << "\nOther failed children of the same parent:\n";
    for (const SearchNode *n : ctx.failingSiblings)
      os << "  - " << describeNode(*n) << "\n";
  }
  if (ctx.selectedPayload.empty())
    os << "\n(The candidate was rejected before it had a text; write it "
          "from the plan.)\n";
  else
    os << "\n# Candidate\n\n```" << fenceFor(failedText) << "\n"
       << failedText << (failedText.ends_with("\n") ? "" : "\n") << "```\n";
  return user;
}

std::optional<Proposal> LLMAgents::finishProposal(Task &task,
                                                  const RoleContext &ctx) {
  const ChatResult &planned = task.first;
  if (!planned.ok()) {
    if (llm::isFatal(planned.error)) {
      onFatal(planned);
      return fallbackReason.empty() ? std::nullopt : fallback->propose(ctx);
    }
    return reject("llm", "", "", "the planner's reply: " + planned.message);
  }
  if (!task.plan)
    return reject("llm", "", "", task.planError);
  const PlannerReply &plan = *task.plan;
  const ChatResult &coded = task.second;
  if (!coded.ok()) {
    if (llm::isFatal(coded.error)) {
      onFatal(coded);
      return fallbackReason.empty() ? std::nullopt : fallback->propose(ctx);
    }
    return reject(plan.strategy, plan.plan, plan.changedPart(),
                  "the coder's reply: " + coded.message);
  }
  return realize(coded.reply.content, plan, task.parent,
                 /*checkRegionOfPlan=*/true);
}

std::optional<Proposal> LLMAgents::finishRepair(Task &task,
                                                const RoleContext &ctx) {
  const SearchNode &node = task.node;
  const ChatResult &repaired = task.first;
  std::string plan =
      llvm::formatv("repair node {0} ({1})", node.id, node.status).str();
  if (!repaired.ok()) {
    if (llm::isFatal(repaired.error)) {
      onFatal(repaired);
      return fallbackReason.empty() ? std::nullopt : fallback->repair(ctx);
    }
    return reject(node.strategy, plan, "",
                  "the debugger's reply: " + repaired.message);
  }
  PlannerReply header;
  header.strategy = node.strategy;
  header.params = node.params;
  header.plan = plan;
  if (std::optional<llvm::json::Object> json =
          findJsonHeader(repaired.reply.content)) {
    if (std::optional<StringRef> text = json->getString("plan"))
      header.plan = plan + ": " + text->str();
  }
  Proposal p = realize(repaired.reply.content, header, task.parent,
                       /*checkRegionOfPlan=*/false);
  if (std::optional<llvm::json::Object> json =
          findJsonHeader(repaired.reply.content))
    if (std::optional<StringRef> part = json->getString("changed_part"))
      p.node.changedPart = part->str();
  return p;
}

/// The launches of a CUDA C++ reply's JSON header: "launches": [...] or
/// one "launch": {...}.
static FailureOr<std::vector<CudaKernelPlan::Launch>>
parseLaunches(const std::optional<llvm::json::Object> &header,
              std::string &error) {
  std::vector<const llvm::json::Object *> items;
  if (header) {
    if (const llvm::json::Array *list = header->getArray("launches")) {
      for (const llvm::json::Value &v : *list)
        if (const llvm::json::Object *o = v.getAsObject())
          items.push_back(o);
    } else if (const llvm::json::Object *one = header->getObject("launch")) {
      items.push_back(one);
    }
  }
  if (items.empty()) {
    error = "CUDA C++ needs a JSON header naming its launches "
            "({\"launches\": [{\"kernel\", \"grid\", \"block\"}]})";
    return failure();
  }
  std::vector<CudaKernelPlan::Launch> launches;
  for (const llvm::json::Object *o : items) {
    CudaKernelPlan::Launch l;
    std::optional<StringRef> kernel = o->getString("kernel");
    if (!kernel || kernel->empty()) {
      error = "a launch names no \"kernel\"";
      return failure();
    }
    l.kernel = kernel->str();
    auto extents = [&](StringRef key, std::array<int64_t, 3> &out) {
      const llvm::json::Value *v = o->get(key);
      if (!v)
        return false;
      if (std::optional<int64_t> x = v->getAsInteger()) {
        out = {*x, 1, 1};
        return *x > 0;
      }
      const llvm::json::Array *a = v->getAsArray();
      if (!a || a->empty() || a->size() > 3)
        return false;
      out = {1, 1, 1};
      for (size_t i = 0; i < a->size(); ++i) {
        std::optional<int64_t> x = (*a)[i].getAsInteger();
        if (!x || *x <= 0)
          return false;
        out[i] = *x;
      }
      return true;
    };
    if (!extents("grid", l.grid) || !extents("block", l.block)) {
      error = "launch of '" + l.kernel +
              "': \"grid\" and \"block\" must be 1 to 3 positive integers";
      return failure();
    }
    l.sharedBytes = o->getInteger("shared_bytes").value_or(0);
    launches.push_back(l);
  }
  return launches;
}

Proposal LLMAgents::realize(StringRef reply, const PlannerReply &plan,
                            StringRef parentText, bool checkRegionOfPlan) {
  std::string strategy = plan.strategy, part = plan.changedPart();
  auto rejected = [&](std::string why, std::string payload = "") {
    Proposal p =
        reject(strategy, plan.plan, part, std::move(why), std::move(payload));
    p.node.params = plan.params;
    return p;
  };
  std::string error;
  FailureOr<CodeReply> code = parseCodeReply(reply, error);
  if (failed(code))
    return rejected(error);
  if (checkRegionOfPlan && !plan.whole) {
    if (code->kind == CodeKind::TransformScript)
      return rejected("a transform script rewrites the whole candidate, but "
                      "the planner marked only " +
                          part,
                      code->code);
    if (failed(
            checkRegion(parentText, code->code, plan.first, plan.last, error)))
      return rejected(error, code->code);
  }

  Proposal p;
  p.node.strategy = strategy;
  p.node.params = plan.params;
  p.node.plan = plan.plan;
  p.node.changedPart = part;
  MLIRContext *context = problem.getContext();
  switch (code->kind) {
  case CodeKind::Module: {
    p.payload = code->code;
    if (!StringRef(code->code).contains("stark.cuda"))
      return p;
    // CUDA C++ inside a module reply is model-written too, whatever family
    // it names: it gets the text guards here, and the family that makes
    // the target check its PTX.
    ErrorCollector quiet(context);
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(code->code, context);
    if (!module)
      return p;
    bool changed = false;
    WalkResult walk = module->walk([&](func::FuncOp func) {
      auto attr = func->getAttrOfType<CudaKernelAttr>(kCudaAttrName);
      if (!attr)
        return WalkResult::advance();
      if (failed(checkModelCuda(attr.getSource(), guards, error)))
        return WalkResult::interrupt();
      if (options.target != "cuda") {
        error = "CUDA C++ runs only with target=cuda; this search runs on " +
                options.target;
        return WalkResult::interrupt();
      }
      if (attr.getFamily() != kModelWrittenCudaFamily) {
        func->setAttr(kCudaAttrName,
                      CudaKernelAttr::get(context, kModelWrittenCudaFamily,
                                          attr.getLaunches(), attr.getOptions(),
                                          attr.getParams(), attr.getSource()));
        changed = true;
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return rejected(error, code->code);
    if (changed)
      p.payload = printCandidate(*module);
    return p;
  }
  case CodeKind::TransformScript: {
    OwningOpRef<ModuleOp> script;
    {
      ErrorCollector errors(context);
      script = parseSourceString<ModuleOp>(code->code, context);
      if (!script)
        return rejected("the transform script does not parse: " +
                            errors.getText(),
                        code->code);
    }
    OwningOpRef<ModuleOp> candidate = cast<ModuleOp>(problem->clone());
    if (failed(applyTransformScript(*candidate, *script, error)))
      return rejected(error, code->code);
    p.payload = printCandidate(*candidate);
    return p;
  }
  case CodeKind::CudaCpp: {
    if (failed(checkModelCuda(code->code, guards, error)))
      return rejected(error, code->code);
    if (options.target != "cuda")
      return rejected("CUDA C++ runs only with target=cuda; this search runs "
                      "on " +
                          options.target,
                      code->code);
    FailureOr<std::vector<CudaKernelPlan::Launch>> launches =
        parseLaunches(code->header, error);
    if (failed(launches))
      return rejected(error, code->code);
    CudaKernelPlan kernel;
    kernel.source = code->code;
    kernel.launches = std::move(*launches);
    kernel.family = kModelWrittenCudaFamily.str();
    kernel.params = plan.params;
    for (const CudaKernelPlan::Launch &l : kernel.launches) {
      kernel.sharedBytesPerBlock =
          std::max(kernel.sharedBytesPerBlock, l.sharedBytes);
      kernel.threadsPerBlock = std::max(kernel.threadsPerBlock,
                                        l.block[0] * l.block[1] * l.block[2]);
    }
    FailureOr<OwningOpRef<ModuleOp>> candidate =
        buildCudaCandidateModule(problem, kernel, error);
    if (failed(candidate))
      return rejected(error, code->code);
    p.payload = printCandidate(**candidate);
    return p;
  }
  }
  return p;
}
