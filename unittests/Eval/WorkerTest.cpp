//===- WorkerTest.cpp - The caller's side of worker isolation -------------===//
//
// Stand-in workers (shell scripts) misbehave in each way a real one can:
// the caller must turn every case into a structured result.
//
//===----------------------------------------------------------------------===//

#include "stark/Eval/Worker.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;

namespace {
class WorkerTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("stark-worker-test", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  /// Writes an executable shell script; the worker's request directory is
  /// its second argument (after --worker).
  std::string script(StringRef name, StringRef body) {
    SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    std::error_code ec;
    {
      llvm::raw_fd_ostream os(path, ec);
      EXPECT_FALSE(ec);
      os << "#!/bin/sh\n" << body << "\n";
    }
    llvm::sys::fs::setPermissions(path, llvm::sys::fs::all_read |
                                            llvm::sys::fs::all_exe |
                                            llvm::sys::fs::owner_write);
    return std::string(path);
  }

  EvalResult run(StringRef body, double timeout = 30) {
    WorkerOptions worker;
    worker.workerPath = script("worker.sh", body);
    worker.timeoutSeconds = timeout;
    return evaluateInWorker("problem", "p.mlir", "candidate", "c.mlir",
                            EvalOptions(), worker);
  }

  SmallString<256> dir;
};
} // namespace

TEST_F(WorkerTest, WellFormedResultIsReturned) {
  EvalResult r = run(R"sh(
test -f "$2/problem.mlir" && test -f "$2/candidate.mlir" && test -f "$2/request.json" || exit 9
grep -q '"target":"cpu"' "$2/request.json" || exit 8
printf '{"status":"ok","message":"fine","target":"cpu"}' > "$2/result.json")sh");
  EXPECT_EQ(r.status, EvalStatus::Ok) << r.message;
  EXPECT_EQ(r.message, "fine");
}

TEST_F(WorkerTest, GarbageResultIsACrash) {
  EvalResult r = run(R"sh(printf 'not json' > "$2/result.json")sh");
  EXPECT_EQ(r.status, EvalStatus::Crash);
  EXPECT_NE(r.message.find("the worker's result is not JSON"),
            std::string::npos)
      << r.message;
}

TEST_F(WorkerTest, MalformedResultIsACrash) {
  EvalResult r = run(R"sh(printf '{"status":"fine"}' > "$2/result.json")sh");
  EXPECT_EQ(r.status, EvalStatus::Crash);
  EXPECT_NE(r.message.find("malformed"), std::string::npos) << r.message;
}

TEST_F(WorkerTest, NoResultIsACrashWithThePhaseAndTheLog) {
  EvalResult r = run(R"sh(
echo "stark-eval worker: phase: compiling the candidate" >&2
echo "LLVM ERROR: out of registers" >&2
exit 3)sh");
  EXPECT_EQ(r.status, EvalStatus::Crash);
  EXPECT_EQ(r.message, "the worker exited with code 3 without a result while "
                       "compiling the candidate");
  EXPECT_EQ(r.phase, "compiling the candidate");
  EXPECT_NE(r.logTail.find("LLVM ERROR: out of registers"), std::string::npos);
}

TEST_F(WorkerTest, SignalIsACrash) {
  EvalResult r = run(R"sh(
echo "stark-eval worker: phase: running the candidate: trial 3" >&2
kill -ABRT $$)sh");
  EXPECT_EQ(r.status, EvalStatus::Crash);
  EXPECT_NE(r.message.find("the worker died: "), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("while running the candidate: trial 3"),
            std::string::npos)
      << r.message;
}

TEST_F(WorkerTest, HangIsATimeout) {
  EvalResult r = run("exec sleep 30", /*timeout=*/1);
  EXPECT_EQ(r.status, EvalStatus::Timeout);
  EXPECT_NE(r.message.find("did not finish within 1 s"), std::string::npos)
      << r.message;
}

TEST_F(WorkerTest, MissingWorkerIsAnError) {
  WorkerOptions worker;
  worker.workerPath = std::string(dir) + "/no-such-worker";
  EvalResult r =
      evaluateInWorker("p", "p.mlir", "c", "c.mlir", EvalOptions(), worker);
  EXPECT_EQ(r.status, EvalStatus::Error);
  EXPECT_NE(r.message.find("cannot start the worker"), std::string::npos)
      << r.message;
}

TEST_F(WorkerTest, WorkerSideRejectsABadRequest) {
  SmallString<256> request(dir);
  llvm::sys::path::append(request, "request.json");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(request, ec);
    os << "{ not json";
  }
  EXPECT_EQ(runEvalWorker(dir), 2);
  SmallString<256> resultPath(dir);
  llvm::sys::path::append(resultPath, "result.json");
  auto buffer = llvm::MemoryBuffer::getFile(resultPath);
  ASSERT_TRUE(!!buffer);
  llvm::Expected<llvm::json::Value> value =
      llvm::json::parse((*buffer)->getBuffer());
  ASSERT_TRUE(!!value);
  EvalResult r;
  llvm::json::Path::Root root;
  ASSERT_TRUE(fromJSON(*value, r, root));
  EXPECT_EQ(r.status, EvalStatus::Error);
  EXPECT_NE(r.message.find("worker: bad request"), std::string::npos)
      << r.message;
}

TEST_F(WorkerTest, PinnedWorkerSeesOnlyItsDeviceAndItsLock) {
  WorkerOptions worker;
  worker.workerPath = script("worker.sh", R"sh(
grep -q '"device_lock":"/tmp/some.lock"' "$2/request.json" || exit 8
printf '{"status":"ok","message":"%s","target":"cuda"}' "$CUDA_VISIBLE_DEVICES" > "$2/result.json")sh");
  worker.cudaDevice = "3";
  worker.deviceLock = "/tmp/some.lock";
  EvalResult r =
      evaluateInWorker("p", "p.mlir", "c", "c.mlir", EvalOptions(), worker);
  EXPECT_EQ(r.status, EvalStatus::Ok) << r.message << r.logTail;
  EXPECT_EQ(r.message, "3");
}
