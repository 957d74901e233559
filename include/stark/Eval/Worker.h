//===- Worker.h - Evaluate a candidate in a separate process ----*- C++ -*-===//
//
// A candidate is untrusted code: it may crash, hang, scribble over memory or
// leave a GPU context unusable. It therefore runs in a freshly exec'd worker
// (`stark-eval --worker DIR`), never in the caller and never in a fork of a
// process that may have initialised CUDA. The caller writes the problem, the
// candidate and the options into DIR, waits with a time limit and reads
// DIR/result.json back; a signal, a timeout or a missing or malformed result
// becomes an EvalResult with status crash or timeout, the phase the worker
// was in and the tail of its output.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_WORKER_H
#define STARK_EVAL_WORKER_H

#include "stark/Eval/Evaluator.h"

#include <string>

namespace mlir::stark {

struct WorkerOptions {
  /// "cpu" or "cuda".
  std::string targetName = "cpu";
  /// Wall-clock limit for the whole worker (compile, verify, time), in
  /// seconds; rounded up to whole seconds.
  double timeoutSeconds = 60;
  /// The stark-eval binary to run. Empty: $STARK_EVAL_WORKER, else
  /// stark-eval next to the running executable, else stark-eval on PATH.
  std::string workerPath;
  /// Keep the request directory (for debugging a worker by hand).
  bool keepFiles = false;
  /// How much of the worker's output to keep in failed results.
  unsigned logTailBytes = 4000;
  /// CUDA_VISIBLE_DEVICES of the worker (the device it is pinned to);
  /// empty: the caller's environment as it is.
  std::string cudaDevice;
  /// The device's lock file (DeviceLock.h): the worker times only while it
  /// holds it exclusively. Empty: no lock (the worker has the device alone).
  std::string deviceLock;
};

/// Finds the worker binary as described for WorkerOptions::workerPath.
FailureOr<std::string> findEvalWorker(const WorkerOptions &options,
                                      std::string &error);

/// Evaluates in a worker process. Never crashes or hangs because of the
/// candidate: every outcome is an EvalResult.
EvalResult evaluateInWorker(StringRef problemSource, StringRef problemName,
                            StringRef candidateSource, StringRef candidateName,
                            const EvalOptions &options,
                            const WorkerOptions &worker);

/// The worker side: reads the request in `dir`, evaluates, writes
/// `dir/result.json`. Returns 0 once a result is written.
int runEvalWorker(StringRef dir);

/// Prefix of the phase lines a worker prints (one per phase, flushed), so
/// the caller can tell where a worker that died was.
inline constexpr StringLiteral kWorkerPhasePrefix =
    "stark-eval worker: phase: ";

} // namespace mlir::stark

#endif // STARK_EVAL_WORKER_H
