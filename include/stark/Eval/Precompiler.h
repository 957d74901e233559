//===- Precompiler.h - Candidates compiled ahead on idle host cores -*- C++
//-*-===//
//
// An evaluation's runner starts by compiling its candidate, and NVRTC takes
// 0.3-0.8 s for a template kernel: often more than the rest of a small
// problem's verification. A search knows candidates before their
// evaluations start (the first picks of the problems after the current
// ones, the points the expert is likely to propose next), and the host has
// cores the evaluators do not use. A Precompiler compiles such candidates
// on low-priority threads into the compile cache (CompileCache.h), where
// the runner then finds them.
//
// It never changes what is evaluated: the runner compiles the candidate it
// is given from its own text, and a cache entry is keyed by the source,
// the options and the compiler (a different text is a different entry);
// what the runner reads from the cache goes through the same guards as a
// fresh compile.
//
// Before an evaluation starts, `settle` its candidate: a compile already
// under way is waited for (the runner would only repeat it), one not yet
// started is dropped (the runner compiles it anyway).
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_PRECOMPILER_H
#define STARK_EVAL_PRECOMPILER_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mlir::stark {

class CompileCache;

class Precompiler {
public:
  /// Compiles one candidate's text into the cache; its failures are the
  /// evaluation's to report, so it returns nothing.
  using CompileFn = std::function<void(const std::string &candidateSource)>;

  /// `threads` compile at once, at a lower scheduling priority than the
  /// evaluators; at most `maxPending` candidates wait (later ones are not
  /// taken: the nearest are queued first).
  Precompiler(CompileFn compile, unsigned threads, size_t maxPending = 64);
  /// Drops what has not started and waits for what has.
  ~Precompiler();
  Precompiler(const Precompiler &) = delete;
  Precompiler &operator=(const Precompiler &) = delete;

  /// Queues a candidate, once: one queued, under way or compiled before is
  /// not queued again.
  void enqueue(std::string candidateSource);
  /// Before `candidateSource` is evaluated: waits while it is being
  /// compiled; takes it off the queue when it has not started.
  void settle(StringRef candidateSource);

  struct Stats {
    unsigned queued = 0, compiled = 0, dropped = 0, settledWhileRunning = 0;
    /// Seconds the compiles took, and settle's waits for them.
    double compileSeconds = 0, waitSeconds = 0;
  };
  Stats getStats() const;
  llvm::json::Value statsToJSON() const;

private:
  enum class State { Pending, Running, Done, Dropped };
  void serve();

  CompileFn compile;
  size_t maxPending;
  mutable std::mutex mutex;
  std::condition_variable wake, done;
  std::deque<std::pair<uint64_t, std::string>> queue;
  std::map<uint64_t, State> states;
  Stats stats;
  bool stopping = false;
  std::vector<std::thread> threads;
};

/// The compile of a cuda candidate ahead of its evaluation: the text parsed
/// (registerEvalDialects) in a context of the calling thread's own, and the
/// CUDA C++ of its functions compiled for `chip` (precompileCudaSources);
/// candidates without CUDA C++ cost a parse. What compiles is kept in
/// `cache` (null: CompileCache::getDefault(), which the runners read).
Precompiler::CompileFn makeCudaPrecompile(std::string chip,
                                          CompileCache *cache = nullptr);

/// The chip of a cuda device as Target::getDeviceName names it
/// ("cuda:sm_90a:NVIDIA H200" -> "sm_90a"); empty for any other name.
std::string getChipOfDeviceName(StringRef deviceName);

/// Threads for a Precompiler beside `evaluators` evaluations on this host:
/// the cores they and the search leave, at least one.
unsigned getPrecompileThreads(unsigned evaluators);

} // namespace mlir::stark

#endif // STARK_EVAL_PRECOMPILER_H
