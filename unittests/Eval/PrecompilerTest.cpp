//===- PrecompilerTest.cpp - Candidates compiled ahead of their evaluation ===//

#include "stark/Eval/Precompiler.h"
#include "stark/Target/CompileCache.h"
#include "stark/Target/CudaCompile.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

using namespace mlir;
using namespace mlir::stark;

namespace {

/// A compile that logs what it was given and, for "slow" sources, waits
/// until it is released.
struct GatedCompile {
  std::mutex mutex;
  std::condition_variable cv;
  std::multiset<std::string> compiled;
  std::set<std::string> started;
  bool released = false;

  Precompiler::CompileFn fn() {
    return [this](const std::string &source) {
      std::unique_lock<std::mutex> guard(mutex);
      started.insert(source);
      cv.notify_all();
      if (source.rfind("slow", 0) == 0)
        cv.wait(guard, [&] { return released; });
      compiled.insert(source);
    };
  }
  void waitStarted(const std::string &source) {
    std::unique_lock<std::mutex> guard(mutex);
    cv.wait(guard, [&] { return started.count(source) > 0; });
  }
  void release() {
    std::lock_guard<std::mutex> guard(mutex);
    released = true;
    cv.notify_all();
  }
};

TEST(PrecompilerTest, EachCandidateIsCompiledOnce) {
  GatedCompile gate;
  gate.release();
  {
    Precompiler pre(gate.fn(), 2);
    for (const char *s : {"a", "b", "a", "c", "b"})
      pre.enqueue(s);
    for (const char *s : {"a", "b", "c"})
      pre.settle(s);
    // Settled after it finished, or dropped before it started: either way
    // it is not compiled a second time.
    pre.enqueue("a");
    Precompiler::Stats stats = pre.getStats();
    EXPECT_EQ(stats.queued, 3u);
    EXPECT_EQ(stats.compiled + stats.dropped, 3u);
  }
  for (const char *s : {"a", "b", "c"})
    EXPECT_LE(gate.compiled.count(s), 1u) << s;
}

TEST(PrecompilerTest, SettleWaitsForACompileUnderWayAndDropsAQueuedOne) {
  GatedCompile gate;
  Precompiler pre(gate.fn(), 1);
  pre.enqueue("slow-a");
  gate.waitStarted("slow-a");
  pre.enqueue("b"); // behind slow-a on the one thread
  // Not started: taken off the queue, never compiled.
  pre.settle("b");
  std::atomic<bool> settled{false};
  std::thread evaluation([&] {
    pre.settle("slow-a");
    settled = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(settled) << "settle returned while the compile was under way";
  gate.release();
  evaluation.join();
  EXPECT_TRUE(settled);
  {
    std::lock_guard<std::mutex> guard(gate.mutex);
    EXPECT_EQ(gate.compiled.count("slow-a"), 1u);
    EXPECT_EQ(gate.compiled.count("b"), 0u);
  }
  Precompiler::Stats stats = pre.getStats();
  EXPECT_EQ(stats.dropped, 1u);
  EXPECT_EQ(stats.settledWhileRunning, 1u);
  EXPECT_GT(stats.waitSeconds, 0.0);
  // A candidate never queued settles at once.
  pre.settle("never");
}

TEST(PrecompilerTest, AFullQueueTakesNoMore) {
  GatedCompile gate;
  Precompiler pre(gate.fn(), 1, /*maxPending=*/2);
  pre.enqueue("slow-a");
  gate.waitStarted("slow-a");
  for (const char *s : {"b", "c", "d"})
    pre.enqueue(s);
  EXPECT_EQ(pre.getStats().queued, 3u); // slow-a, b, c
  gate.release();
}

TEST(PrecompilerTest, ChipOfDeviceName) {
  EXPECT_EQ(getChipOfDeviceName("cuda:sm_90a:NVIDIA H200"), "sm_90a");
  EXPECT_EQ(getChipOfDeviceName("cuda:sm_80:A100: PCIe"), "sm_80");
  EXPECT_EQ(getChipOfDeviceName("cpu:znver4"), "");
  EXPECT_EQ(getChipOfDeviceName("cuda"), "");
  EXPECT_GE(getPrecompileThreads(64), 1u);
}

constexpr llvm::StringLiteral kCudaCandidate = R"mlir(
module {
  func.func @kernel(%a: memref<64xf32>, %b: memref<64xf32>)
      attributes {stark.cuda = #stark.cuda<family = "copy", launches = [
        #stark.launch<kernel = "copy", grid = array<i64: 1>,
                      block = array<i64: 64>>],
        source = "extern \22C\22 __global__ void copy(const float *a, float *b) { b[threadIdx.x] = a[threadIdx.x]; }">} {
    return
  }
}
)mlir";

TEST(PrecompilerTest, ACudaCandidateCompiledAheadIsFoundInTheCache) {
  std::string reason;
  if (!isNvrtcAvailable(reason))
    GTEST_SKIP() << reason;
  SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("stark-precompile", dir));
  auto cleanup =
      llvm::scope_exit([&] { llvm::sys::fs::remove_directories(dir); });
  CompileCache cache(std::string(dir.str()));
  Precompiler::CompileFn compile = makeCudaPrecompile("sm_90a", &cache);
  compile(kCudaCandidate.str());
  EXPECT_EQ(cache.getHits(), 0u);
  EXPECT_EQ(cache.getMisses(), 1u);
  // The evaluation's compile of the same candidate (the runner compiles
  // through compileCudaSourceCandidate) is a hit.
  CudaSourceCandidate candidate;
  candidate.source = "extern \"C\" __global__ void copy(const float *a, "
                     "float *b) { b[threadIdx.x] = a[threadIdx.x]; }";
  candidate.family = "copy";
  candidate.launches.emplace_back();
  candidate.launches.back().kernel = "copy";
  std::string error;
  ASSERT_TRUE(
      succeeded(compileCudaSourceCandidate(candidate, "sm_90a", error, &cache)))
      << error;
  EXPECT_EQ(cache.getHits(), 1u);
  // Text that does not parse, or has no CUDA C++, compiles nothing.
  compile("module { this is not mlir");
  compile("module { func.func @f() { return } }");
  EXPECT_EQ(cache.getMisses(), 1u);
}

} // namespace
