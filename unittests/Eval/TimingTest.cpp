//===- TimingTest.cpp - Interleaved timing loop and statistics ------------===//

#include "stark/Eval/Timing.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stark;

/// One kernel timed by `o` without warm-up runs.
static InterleavedTiming timeAlone(TimedRun run, TimingOptions o) {
  auto warm = [](std::string &) -> LogicalResult { return success(); };
  UntimedRun warmups[] = {warm};
  TimedRun runs[] = {run};
  o.warmupRuns = 0;
  return timeInterleaved(warmups, runs, o);
}

TEST(TimingTest, Statistics) {
  TimingStats s = computeTimingStats({5, 1, 4, 2, 3});
  EXPECT_EQ(s.trials, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.iqr(), 2);
  EXPECT_DOUBLE_EQ(s.relativeSpread(), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_NEAR(s.stdev, 1.5811388, 1e-6);

  TimingStats even = computeTimingStats({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  EXPECT_DOUBLE_EQ(even.q1, 1.75);
  EXPECT_DOUBLE_EQ(even.q3, 3.25);

  TimingStats none = computeTimingStats({});
  EXPECT_EQ(none.trials, 0u);
  EXPECT_EQ(none.relativeSpread(), 0);
}

TEST(TimingTest, RunsInterleavedAfterWarmup) {
  std::string order;
  auto warmA = [&](std::string &) -> LogicalResult {
    order += 'a';
    return success();
  };
  auto warmB = [&](std::string &) -> LogicalResult {
    order += 'b';
    return success();
  };
  auto runA = [&](std::string &) -> FailureOr<double> {
    order += 'A';
    return 1.0;
  };
  auto runB = [&](std::string &) -> FailureOr<double> {
    order += 'B';
    return 2.0;
  };
  UntimedRun warm[] = {warmA, warmB};
  TimedRun runs[] = {runA, runB};
  TimingOptions o;
  o.warmupRuns = 2;
  o.minTrials = 3;
  o.maxTrials = 100;
  o.targetRelativeSpread = 0.01; // constant samples: reached at once
  InterleavedTiming t = timeInterleaved(warm, runs, o);
  EXPECT_EQ(order, "ababABABAB");
  EXPECT_EQ(t.failedKernel, -1);
  EXPECT_EQ(t.rounds, 3u);
  EXPECT_TRUE(t.spreadReached);
  EXPECT_FALSE(t.budgetExhausted);
  ASSERT_EQ(t.stats.size(), 2u);
  EXPECT_DOUBLE_EQ(t.stats[0].median, 1.0);
  EXPECT_DOUBLE_EQ(t.stats[1].median, 2.0);
}

TEST(TimingTest, NoisySamplesStopAtTheBudgetOrTheCap) {
  unsigned calls = 0;
  auto noisy = [&](std::string &) -> FailureOr<double> {
    return (++calls % 2) ? 1.0 : 3.0; // relative IQR stays near 1
  };
  TimingOptions o;
  o.minTrials = 4;
  o.maxTrials = 50;
  o.budgetSeconds = 0; // spent right after the minimum
  InterleavedTiming t = timeAlone(noisy, o);
  EXPECT_EQ(t.rounds, 4u);
  EXPECT_TRUE(t.budgetExhausted);
  EXPECT_FALSE(t.spreadReached);

  calls = 0;
  o.budgetSeconds = 1e9;
  t = timeAlone(noisy, o);
  EXPECT_EQ(t.rounds, 50u);
  EXPECT_FALSE(t.budgetExhausted);
  EXPECT_EQ(t.stats[0].trials, 50u);
}

// Samples of a few microseconds, a tick of the event clock apart: 12% of
// the median, never within the relative target, but within the floor.
TEST(TimingTest, SpreadWithinTheClocksResolutionStopsAtTheMinimum) {
  unsigned calls = 0;
  auto ticks = [&](std::string &) -> FailureOr<double> {
    return (++calls % 2) ? 4.0e-6 : 4.5e-6;
  };
  TimingOptions o;
  o.minTrials = 10;
  o.maxTrials = 200;
  o.budgetSeconds = 1e9;
  InterleavedTiming t = timeAlone(ticks, o);
  EXPECT_EQ(t.rounds, 10u);
  EXPECT_TRUE(t.spreadReached);
  EXPECT_GT(t.stats[0].relativeSpread(), o.targetRelativeSpread);

  // Without the floor the loop runs to its cap.
  calls = 0;
  o.spreadFloorSeconds = 0;
  t = timeAlone(ticks, o);
  EXPECT_EQ(t.rounds, 200u);
  EXPECT_FALSE(t.spreadReached);
}

TEST(TimingTest, MedianErrorFromTheIqr) {
  // IQR 2, median 3, five samples: sqrt(pi/2) * (2 / 1.349) / sqrt(5) / 3.
  TimingStats s = computeTimingStats({5, 1, 4, 2, 3});
  EXPECT_NEAR(s.relativeMedianError(),
              std::sqrt(M_PI / 2) * (2 / 1.349) / std::sqrt(5.0) / 3, 1e-12);
  EXPECT_TRUE(std::isinf(computeTimingStats({}).relativeMedianError()));
}

// Runs that spread by about 3% by nature (a GEMM of a few hundred
// microseconds) never reach the 2% spread; their median is known to 0.5%
// after a few dozen samples, and the loop stops at the first round where
// it is.
TEST(TimingTest, SpreadByNatureStopsOnceTheMedianIsKnown) {
  static constexpr double kCycle[] = {0.97, 0.99, 1.01, 1.03};
  unsigned calls = 0;
  std::vector<double> taken;
  auto spread = [&](std::string &) -> FailureOr<double> {
    taken.push_back(300e-6 * kCycle[calls++ % 4]);
    return taken.back();
  };
  TimingOptions o;
  o.minTrials = 10;
  o.maxTrials = 200;
  o.budgetSeconds = 1e9;
  InterleavedTiming t = timeAlone(spread, o);
  EXPECT_TRUE(t.spreadReached);
  EXPECT_LT(t.rounds, 200u);
  EXPECT_GT(t.rounds, o.minTrials);
  EXPECT_GT(t.stats[0].relativeSpread(), o.targetRelativeSpread);
  EXPECT_LE(t.stats[0].relativeMedianError(), o.targetMedianError);
  // One round fewer did not know it well enough.
  TimingStats before = computeTimingStats(ArrayRef<double>(taken).drop_back(1));
  EXPECT_GT(before.relativeMedianError(), o.targetMedianError);

  // Without the median rule the same runs go on to the cap.
  calls = 0;
  taken.clear();
  o.targetMedianError = 0;
  t = timeAlone(spread, o);
  EXPECT_EQ(t.rounds, 200u);
  EXPECT_FALSE(t.spreadReached);
}

// A kernel that settles first (a steady baseline) sits out the rounds its
// partner still needs; each keeps its own samples.
TEST(TimingTest, ASettledKernelSitsOutTheLaterRounds) {
  std::string order;
  unsigned calls = 0;
  auto steady = [&](std::string &) -> FailureOr<double> {
    order += 'A';
    return 8e-3;
  };
  auto noisy = [&](std::string &) -> FailureOr<double> {
    order += 'B';
    return (++calls % 2) ? 1e-3 : 2e-3;
  };
  auto warm = [&](std::string &) -> LogicalResult { return success(); };
  UntimedRun warmups[] = {warm, warm};
  TimedRun runs[] = {steady, noisy};
  TimingOptions o;
  o.warmupRuns = 0;
  o.minTrials = 3;
  o.maxTrials = 8;
  o.budgetSeconds = 1e9;
  InterleavedTiming t = timeInterleaved(warmups, runs, o);
  EXPECT_EQ(order, "ABABABBBBBB");
  EXPECT_EQ(t.rounds, 8u);
  ASSERT_EQ(t.samples.size(), 2u);
  EXPECT_EQ(t.samples[0].size(), 3u);
  EXPECT_EQ(t.samples[1].size(), 8u);
  EXPECT_EQ(t.stats[0].trials, 3u);
  EXPECT_FALSE(t.spreadReached);
}

TEST(TimingTest, AFailingRunStopsTheLoopAndNamesTheKernel) {
  unsigned calls = 0;
  auto ok = [&](std::string &) -> FailureOr<double> { return 1.0; };
  auto flaky = [&](std::string &error) -> FailureOr<double> {
    if (++calls == 3) {
      error = "illegal address";
      return failure();
    }
    return 1.0;
  };
  auto warm = [&](std::string &) -> LogicalResult { return success(); };
  UntimedRun warmups[] = {warm, warm};
  TimedRun runs[] = {ok, flaky};
  TimingOptions o;
  o.minTrials = 10;
  InterleavedTiming t = timeInterleaved(warmups, runs, o);
  EXPECT_EQ(t.failedKernel, 1);
  EXPECT_EQ(t.error, "illegal address");
  EXPECT_EQ(t.rounds, 2u);

  auto badWarm = [&](std::string &error) -> LogicalResult {
    error = "no";
    return failure();
  };
  UntimedRun badWarmups[] = {warm, badWarm};
  t = timeInterleaved(badWarmups, runs, o);
  EXPECT_EQ(t.failedKernel, 1);
  EXPECT_EQ(t.rounds, 0u);
}

TEST(TimingTest, FormatSeconds) {
  EXPECT_EQ(formatDuration(1.5e-9), "1.5 ns");
  EXPECT_EQ(formatDuration(2.25e-6), "2.25 us");
  EXPECT_EQ(formatDuration(0.0123), "12.3 ms");
  EXPECT_EQ(formatDuration(3), "3 s");
}
