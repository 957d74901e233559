//===- ChildProcessTest.cpp - Children waited for from several threads ----===//
//
// Evaluation workers are started and waited for by one thread per executor.
// Each wait must end at its own child's end or its own deadline, whatever
// the other threads wait for.
//
//===----------------------------------------------------------------------===//

#include "stark/Eval/ChildProcess.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include "gtest/gtest.h"

#include <csignal>
#include <thread>
#include <vector>

using namespace mlir;
using namespace mlir::stark;

namespace {
ChildOutcome shell(StringRef command, double timeout) {
  SmallVector<StringRef> args = {"/bin/sh", "-c", command};
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(""),
                                          StringRef("")};
  return runChildProcess("/bin/sh", args, std::nullopt, redirects, timeout);
}
} // namespace

TEST(ChildProcessTest, ExitCodeIsReturned) {
  ChildOutcome o = shell("exit 7", 10);
  EXPECT_EQ(o.kind, ChildOutcome::Kind::Exited);
  EXPECT_EQ(o.exitCode, 7);
}

TEST(ChildProcessTest, SignalIsNamed) {
  ChildOutcome o = shell("kill -TERM $$", 10);
  EXPECT_EQ(o.kind, ChildOutcome::Kind::Signalled);
  EXPECT_EQ(o.signal, SIGTERM);
  EXPECT_FALSE(o.message.empty());
}

TEST(ChildProcessTest, MissingProgramDoesNotStart) {
  SmallVector<StringRef> args = {"/no/such/program"};
  ChildOutcome o =
      runChildProcess("/no/such/program", args, std::nullopt, {}, 10);
  EXPECT_EQ(o.kind, ChildOutcome::Kind::NotStarted);
  EXPECT_FALSE(o.message.empty());
}

TEST(ChildProcessTest, HangIsKilledAtTheDeadline) {
  ChildOutcome o = shell("exec sleep 30", 0.5);
  EXPECT_EQ(o.kind, ChildOutcome::Kind::TimedOut);
  EXPECT_GE(o.seconds, 0.5);
  EXPECT_LT(o.seconds, 5.0);
}

// Hanging children with a short deadline and quick ones with a long
// deadline, all waited for at the same time: a wait that shares one
// process-wide alarm lets a long deadline replace a short one (the hang
// outlives its limit) or a short one end a quick child's wait.
TEST(ChildProcessTest, ConcurrentWaitsKeepTheirOwnDeadlines) {
  constexpr int kPairs = 4;
  std::vector<ChildOutcome> hangs(kPairs), quick(kPairs);
  std::vector<std::thread> threads;
  for (int i = 0; i < kPairs; ++i) {
    threads.emplace_back([&, i] { hangs[i] = shell("exec sleep 30", 1); });
    threads.emplace_back([&, i] {
      std::string command = "sleep 1.5; exit " + std::to_string(10 + i);
      quick[i] = shell(command, 20);
    });
  }
  for (std::thread &t : threads)
    t.join();
  for (int i = 0; i < kPairs; ++i) {
    EXPECT_EQ(hangs[i].kind, ChildOutcome::Kind::TimedOut) << i;
    EXPECT_LT(hangs[i].seconds, 5.0) << i;
    EXPECT_EQ(quick[i].kind, ChildOutcome::Kind::Exited) << i;
    EXPECT_EQ(quick[i].exitCode, 10 + i) << i;
    EXPECT_GE(quick[i].seconds, 1.5) << i;
  }
}
