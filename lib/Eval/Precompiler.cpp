//===- Precompiler.cpp - Candidates compiled ahead on idle host cores -----===//

#include "stark/Eval/Precompiler.h"
#include "stark/Eval/Evaluator.h"
#include "stark/Target/CudaCompile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::stark;

/// How much lower than the evaluators the compiles run (nice levels).
static constexpr int kNiceIncrement = 10;

static uint64_t keyOf(StringRef source) { return llvm::xxh3_64bits(source); }

Precompiler::Precompiler(CompileFn compile, unsigned numThreads,
                         size_t maxPending)
    : compile(std::move(compile)), maxPending(maxPending) {
  for (unsigned t = 0; t < std::max(1u, numThreads); ++t)
    threads.emplace_back([this] { serve(); });
}

Precompiler::~Precompiler() {
  {
    std::lock_guard<std::mutex> guard(mutex);
    stopping = true;
    stats.dropped += queue.size();
    queue.clear();
  }
  wake.notify_all();
  for (std::thread &t : threads)
    t.join();
}

void Precompiler::enqueue(std::string candidateSource) {
  uint64_t key = keyOf(candidateSource);
  {
    std::lock_guard<std::mutex> guard(mutex);
    if (stopping || states.count(key) || queue.size() >= maxPending)
      return;
    states[key] = State::Pending;
    queue.emplace_back(key, std::move(candidateSource));
    ++stats.queued;
  }
  wake.notify_one();
}

void Precompiler::settle(StringRef candidateSource) {
  uint64_t key = keyOf(candidateSource);
  std::unique_lock<std::mutex> guard(mutex);
  auto it = states.find(key);
  if (it == states.end())
    return;
  if (it->second == State::Pending) {
    it->second = State::Dropped;
    auto q =
        llvm::find_if(queue, [&](const auto &e) { return e.first == key; });
    if (q != queue.end())
      queue.erase(q);
    ++stats.dropped;
    return;
  }
  if (it->second != State::Running)
    return;
  ++stats.settledWhileRunning;
  auto start = std::chrono::steady_clock::now();
  done.wait(guard, [&] { return states[key] != State::Running; });
  stats.waitSeconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
}

void Precompiler::serve() {
  // Below the evaluators: a compile ahead takes only what they leave idle.
  (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)),
                      kNiceIncrement);
  while (true) {
    std::pair<uint64_t, std::string> item;
    {
      std::unique_lock<std::mutex> guard(mutex);
      wake.wait(guard, [&] { return stopping || !queue.empty(); });
      if (stopping)
        return;
      item = std::move(queue.front());
      queue.pop_front();
      states[item.first] = State::Running;
    }
    auto start = std::chrono::steady_clock::now();
    compile(item.second);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    {
      std::lock_guard<std::mutex> guard(mutex);
      states[item.first] = State::Done;
      ++stats.compiled;
      stats.compileSeconds += seconds;
    }
    done.notify_all();
  }
}

Precompiler::Stats Precompiler::getStats() const {
  std::lock_guard<std::mutex> guard(mutex);
  return stats;
}

llvm::json::Value Precompiler::statsToJSON() const {
  Stats s = getStats();
  return llvm::json::Object{
      {"queued", int64_t(s.queued)},
      {"compiled", int64_t(s.compiled)},
      {"dropped", int64_t(s.dropped)},
      {"settled_while_running", int64_t(s.settledWhileRunning)},
      {"compile_seconds", s.compileSeconds},
      {"wait_seconds", s.waitSeconds}};
}

Precompiler::CompileFn mlir::stark::makeCudaPrecompile(std::string chip,
                                                       CompileCache *cache) {
  return [chip = std::move(chip), cache](const std::string &candidateSource) {
    DialectRegistry registry;
    registerEvalDialects(registry);
    MLIRContext context(registry);
    context.disableMultithreading();
    // A candidate that does not parse is its evaluation's to report.
    ScopedDiagnosticHandler quiet(&context,
                                  [](Diagnostic &) { return success(); });
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(candidateSource, ParserConfig(&context));
    if (module)
      (void)precompileCudaSources(*module, chip, cache);
  };
}

std::string mlir::stark::getChipOfDeviceName(StringRef deviceName) {
  SmallVector<StringRef, 3> parts;
  deviceName.split(parts, ':', /*MaxSplit=*/2);
  if (parts.size() < 2 || parts[0] != "cuda" || parts[1].empty())
    return "";
  return parts[1].str();
}

unsigned mlir::stark::getPrecompileThreads(unsigned evaluators) {
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  // Each evaluator keeps a judge and a runner busy; the search has one.
  unsigned busy = 2 * evaluators + 1;
  return cores > busy ? cores - busy : 1;
}
