//===- RunResources.h - What a model's searches share ------------*- C++
//-*-===//
//
// The language model of agent=llm (or of the replay of an llm transcript)
// and the pool of evaluators: set up once per run, so that budgets, tokens
// and transcripts span every problem.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_RUNRESOURCES_H
#define STARK_SEARCH_RUNRESOURCES_H

#include "stark/Eval/EvalPool.h"
#include "stark/Eval/Precompiler.h"
#include "stark/LLM/Chat.h"

#include "mlir/IR/Operation.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::stark {

/// The model a run's roles ask; none for the expert and a proposal replay.
struct RunModel {
  std::string agent;
  /// The HTTP client, recording when a transcript is named, or a replay.
  std::shared_ptr<llm::ChatModel> client, recorder, replay;
  llm::ChatModel *model = nullptr;
  llm::ChatConfig config;
  /// Requests in flight at once (llm-concurrency resolved; a replay takes
  /// its transcript's).
  unsigned concurrency = 1;
};

/// Sets up the model of `agent`: for llm, `config` completed from the
/// environment and `provider`; for replay of an llm transcript, the
/// transcript. Fails, saying why in `error`.
LogicalResult setUpRunModel(StringRef agent, StringRef transcript,
                            llm::ChatConfig config, StringRef provider,
                            unsigned concurrencyOption, RunModel &run,
                            std::string &error);

/// The report's account of the model: tokens, concurrency, cost; none
/// without a model.
std::optional<llvm::json::Value> describeModelUse(const RunModel &run,
                                                  int64_t requests,
                                                  int64_t promptTokens,
                                                  int64_t completionTokens);

/// The evaluators of a run with more than one local worker or with mpi
/// (null otherwise).
FailureOr<std::unique_ptr<EvalPool>>
createSearchPool(StringRef target, unsigned devices, unsigned workersPerDevice,
                 bool mpi, double mpiGrace, std::string &error);

/// The compiler of a run's likely next candidates (Precompiler.h): on
/// cuda, when `enabled` and the device's `chip` is known (null otherwise),
/// with the cores `pool`'s evaluators leave (one evaluator without a
/// pool); the pool settles its jobs with it.
std::unique_ptr<Precompiler> createSearchPrecompiler(bool enabled,
                                                     StringRef target,
                                                     StringRef chip,
                                                     EvalPool *pool);

/// The compute-sanitizer tools each problem's winner runs under before it
/// wins (memcheck and racecheck): none unless `enabled` and the target is
/// cuda; none, with a remark on `op` saying why, where compute-sanitizer is
/// not installed.
std::vector<std::string> getWinnerSanitizers(StringRef target, bool enabled,
                                             Operation *op);

/// A warning on `module` for each evaluator of `pool` (if any) that was
/// lost during the run, with the candidates it re-queued.
void warnLostEvaluators(Operation *module, const EvalPool *pool);

/// The report's account of a run's evaluators: the pool's executors, the
/// devices and the ones lost, and what the precompiler did; none without
/// either.
std::optional<llvm::json::Object>
describeEvaluators(const EvalPool *pool, const Precompiler *precompiler,
                   unsigned devices, unsigned workersPerDevice, bool mpi);

/// Where a run's candidates are evaluated, resolved from its options.
struct RunTarget {
  /// "cpu" or "cuda" (`auto` resolved).
  std::string name;
  /// The cuda device's chip ("sm_90a"); empty on the cpu.
  std::string chip;
  /// The device tuning records are keyed by: `device` when given, else the
  /// target's own name for it when `nameDevice`; else empty.
  std::string device;
};

/// Resolves `target` ("cpu", "cuda" or "auto": cuda when a CUDA device is
/// usable here) for a run on `devices` devices. Fails, saying why, when
/// cuda is asked for and not usable, when several devices are asked of
/// the cpu or of fewer CUDA devices, or when the device must be named and
/// cannot be.
FailureOr<RunTarget> resolveRunTarget(MLIRContext &context, StringRef target,
                                      unsigned devices, StringRef device,
                                      bool nameDevice, std::string &error);

} // namespace mlir::stark

#endif // STARK_SEARCH_RUNRESOURCES_H
