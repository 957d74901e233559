//===- RunResources.cpp - What a model's searches share -------------------===//

#include "stark/Search/RunResources.h"
#include "stark/Eval/MpiEval.h"
#include "stark/Eval/RunnerProcess.h"
#include "stark/LLM/Config.h"
#include "stark/LLM/Transcript.h"
#include "stark/Target/Target.h"
#include "llvm/Support/FormatVariadic.h"
#if STARK_ENABLE_LLM
#include "stark/LLM/HttpClient.h"
#endif

using namespace mlir;
using namespace mlir::stark;

LogicalResult mlir::stark::setUpRunModel(StringRef agent, StringRef transcript,
                                         llm::ChatConfig config,
                                         StringRef provider,
                                         unsigned concurrencyOption,
                                         RunModel &run, std::string &error) {
  run = RunModel();
  run.agent = agent.str();
  if (agent == "replay" &&
      llm::ReplayChatModel::isTranscript(transcript.str())) {
    std::shared_ptr<llm::ReplayChatModel> loaded =
        llm::ReplayChatModel::load(transcript.str(), error);
    if (!loaded)
      return failure();
    // Asking ahead shapes the tree: replay it as it was recorded.
    run.concurrency = loaded->getConcurrency();
    run.replay = loaded;
    run.model = run.replay.get();
    return success();
  }
  if (agent != "llm")
    return success();
#if STARK_ENABLE_LLM
  run.config = std::move(config);
  if (!llm::resolveConcurrency(concurrencyOption, run.config.concurrency,
                               error))
    return failure();
  run.concurrency = run.config.concurrency;
  if (!llm::resolveConfig(run.config, provider.str(), error))
    return failure();
  run.client = std::make_shared<llm::HttpChatModel>(run.config);
  run.model = run.client.get();
  if (!transcript.empty()) {
    run.recorder = llm::RecordingChatModel::create(*run.client, run.config,
                                                   transcript.str(), error);
    if (!run.recorder)
      return failure();
    run.model = run.recorder.get();
  }
  return success();
#else
  error = "agent llm needs libcurl";
  return failure();
#endif
}

std::optional<llvm::json::Value>
mlir::stark::describeModelUse(const RunModel &run, int64_t requests,
                              int64_t promptTokens, int64_t completionTokens) {
  if (!run.model)
    return std::nullopt;
  llvm::json::Object o{{"requests", requests},
                       {"prompt_tokens", promptTokens},
                       {"completion_tokens", completionTokens}};
  if (run.concurrency > 1)
    o["concurrency"] = int64_t(run.concurrency);
  if (run.agent == "llm") {
    o["provider"] = llm::getProviderName(run.config.provider);
    o["model"] = run.config.model;
#if STARK_ENABLE_LLM
    o["cost"] = llm::getCost(run.config, promptTokens, completionTokens);
#endif
  }
  return llvm::json::Value(std::move(o));
}

FailureOr<std::unique_ptr<EvalPool>>
mlir::stark::createSearchPool(StringRef target, unsigned devices,
                              unsigned workersPerDevice, bool mpi,
                              double mpiGrace, std::string &error) {
  if (devices * workersPerDevice <= 1 && !mpi)
    return std::unique_ptr<EvalPool>();
  std::vector<std::unique_ptr<EvalExecutor>> executors;
  if (devices * workersPerDevice > 1)
    executors = createLocalExecutors(
        LocalPoolOptions{target.str(), devices, workersPerDevice});
  if (mpi) {
    MpiClientOptions client;
    client.graceSeconds = mpiGrace;
    auto remote = createMpiExecutors(client, error);
    if (failed(remote)) {
      error = "mpi=1: " + error;
      return failure();
    }
    for (auto &executor : *remote)
      executors.push_back(std::move(executor));
  }
  return std::make_unique<EvalPool>(std::move(executors),
                                    createHomeExecutor(target.str()));
}

std::unique_ptr<Precompiler>
mlir::stark::createSearchPrecompiler(bool enabled, StringRef target,
                                     StringRef chip, EvalPool *pool) {
  if (!enabled || target != "cuda" || chip.empty())
    return nullptr;
  auto precompiler = std::make_unique<Precompiler>(
      makeCudaPrecompile(chip.str()),
      getPrecompileThreads(pool ? pool->size() : 1));
  if (pool)
    pool->setPrecompiler(precompiler.get());
  return precompiler;
}

std::optional<llvm::json::Object> mlir::stark::describeEvaluators(
    const EvalPool *pool, const Precompiler *precompiler, unsigned devices,
    unsigned workersPerDevice, bool mpi) {
  if (!pool && !precompiler)
    return std::nullopt;
  llvm::json::Object o;
  if (pool) {
    llvm::json::Array lost;
    for (const LostExecutor &l : pool->getLost())
      lost.push_back(llvm::json::Object{{"executor", l.name},
                                        {"reason", l.reason},
                                        {"requeued", int64_t(l.requeued)}});
    o = llvm::json::Object{{"executors", int64_t(pool->size())},
                           {"lost", std::move(lost)},
                           {"devices", int64_t(devices)},
                           {"workers_per_device", int64_t(workersPerDevice)},
                           {"mpi", mpi}};
  }
  if (precompiler)
    o["precompile"] = precompiler->statsToJSON();
  return o;
}

FailureOr<RunTarget>
mlir::stark::resolveRunTarget(MLIRContext &context, StringRef target,
                              unsigned devices, StringRef device,
                              bool nameDevice, std::string &error) {
  RunTarget run{target.str(), "", device.str()};
  std::unique_ptr<Target> cuda;
  if (target == "auto" || target == "cuda") {
    cuda = createTarget("cuda", context, error);
    std::string why = cuda ? cuda->getUnavailableReason() : error;
    if (target == "cuda" && !why.empty()) {
      error = "target cuda: " + why;
      return failure();
    }
    run.name = why.empty() ? "cuda" : "cpu";
    if (why.empty())
      run.chip = getChipOfDeviceName(cuda->getDeviceName());
  }
  if (devices > 1 && run.name != "cuda") {
    error = llvm::formatv("devices={0} needs the cuda target; the cpu target "
                          "has one device (use workers-per-device for "
                          "parallel cpu workers)",
                          devices);
    return failure();
  }
  if (devices > 1 && cuda && cuda->getDeviceCount() < devices) {
    error = llvm::formatv("devices={0} but only {1} CUDA device(s) are "
                          "visible here",
                          devices, cuda->getDeviceCount());
    return failure();
  }
  if (run.device.empty() && nameDevice) {
    std::unique_ptr<Target> used = run.name == "cuda"
                                       ? std::move(cuda)
                                       : createTarget(run.name, context, error);
    if (used)
      run.device = used->getDeviceName();
    if (run.device.empty()) {
      error = "cannot name the device for tuning-db; give device=NAME";
      return failure();
    }
  }
  return run;
}

std::vector<std::string> mlir::stark::getWinnerSanitizers(StringRef target,
                                                          bool enabled,
                                                          Operation *op) {
  if (!enabled || target != "cuda")
    return {};
  std::vector<std::string> tools = {"memcheck", "racecheck"};
  std::string why;
  for (const std::string &tool : tools) {
    if (succeeded(getSanitizerLauncher(tool, why)))
      continue;
    op->emitRemark("stark-search: winners not run under compute-sanitizer: ")
        << why;
    return {};
  }
  return tools;
}

void mlir::stark::warnLostEvaluators(Operation *module, const EvalPool *pool) {
  if (!pool)
    return;
  for (const LostExecutor &l : pool->getLost())
    module->emitWarning() << "stark-search: evaluator " << l.name << " lost ("
                          << l.reason << "); " << l.requeued
                          << " candidate(s) re-queued on the others";
}
