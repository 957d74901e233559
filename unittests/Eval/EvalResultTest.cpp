//===- EvalResultTest.cpp - JSON and text forms of results ----------------===//

#include "stark/Eval/CandidateRunner.h"
#include "stark/Eval/Evaluator.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::stark;

static EvalResult sampleResult() {
  EvalResult r;
  r.status = EvalStatus::Wrong;
  r.message = "argument #2 differs";
  r.target = "cpu";
  r.phase = "running the candidate: trial 1";
  WorstElement w;
  w.argIndex = 2;
  w.flatIndex = 31;
  w.index = {3, 4};
  w.got = std::numeric_limits<double>::quiet_NaN();
  w.expected = -1.25;
  w.expectedHighPrecision = -1.2501;
  w.reference = "baseline";
  w.absError = std::numeric_limits<double>::infinity();
  w.relError = std::numeric_limits<double>::infinity();
  w.allowed = 1e-4;
  w.passed = false;
  r.worst = w;
  r.worstDistribution = "large";
  r.worstSeed = 18446744073709551557ULL; // above INT64_MAX
  r.mismatches = 7;
  r.tolerance = {3e-5, 3e-5};
  r.toleranceKind = "f32";
  r.reductionLength = 17;
  r.correctnessTrials = 2;
  r.candidateRuns = 3;
  r.seeds = {1, 18446744073709551557ULL};
  r.distributions = {"uniform", "normal"};
  r.highPrecisionReference = true;
  TimingStats s;
  s.trials = 12;
  s.median = 2e-6;
  s.min = 1e-6;
  s.max = 5e-6;
  s.q1 = 1.5e-6;
  s.q3 = 2.5e-6;
  r.baselineTime = s;
  s.median = 1e-6;
  r.candidateTime = s;
  r.speedup = 2;
  r.flags = {"timing_budget_exhausted"};
  r.notes = {"a note"};
  r.logTail = "line 1\nline 2\n";
  r.phaseSeconds = {{"compiling the candidate", 0.5},
                    {"running the candidate", 1.25}};
  r.runnerSeconds = {{"uploading the arguments", 0.125},
                     {"warm-up and timed rounds", 2}};
  return r;
}

TEST(EvalResultTest, JsonRoundTripKeepsEveryField) {
  EvalResult r = sampleResult();
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(r));
  // JSON has no NaN or infinity literals.
  EXPECT_EQ(text.find("nan,"), std::string::npos);
  EXPECT_NE(text.find("\"got\":\"nan\""), std::string::npos) << text;

  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  ASSERT_TRUE(!!parsed);
  EvalResult back;
  llvm::json::Path::Root root;
  ASSERT_TRUE(fromJSON(*parsed, back, root));
  EXPECT_EQ(back.status, EvalStatus::Wrong);
  EXPECT_EQ(back.message, r.message);
  EXPECT_EQ(back.target, "cpu");
  EXPECT_EQ(back.phase, r.phase);
  ASSERT_TRUE(back.worst);
  EXPECT_EQ(back.worst->argIndex, 2u);
  EXPECT_EQ(back.worst->flatIndex, 31);
  EXPECT_EQ(back.worst->index, (SmallVector<int64_t>{3, 4}));
  EXPECT_TRUE(std::isnan(back.worst->got));
  EXPECT_EQ(back.worst->expected, -1.25);
  ASSERT_TRUE(back.worst->expectedHighPrecision);
  EXPECT_EQ(*back.worst->expectedHighPrecision, -1.2501);
  EXPECT_TRUE(std::isinf(back.worst->absError));
  EXPECT_FALSE(back.worst->passed);
  EXPECT_EQ(back.worstDistribution, "large");
  EXPECT_EQ(back.worstSeed, r.worstSeed);
  EXPECT_EQ(back.mismatches, 7);
  EXPECT_EQ(back.tolerance.atol, 3e-5);
  EXPECT_EQ(back.toleranceKind, "f32");
  EXPECT_EQ(back.reductionLength, 17);
  EXPECT_EQ(back.correctnessTrials, 2u);
  EXPECT_EQ(back.candidateRuns, 3u);
  EXPECT_EQ(back.seeds, r.seeds);
  EXPECT_EQ(back.distributions, r.distributions);
  EXPECT_TRUE(back.highPrecisionReference);
  ASSERT_TRUE(back.baselineTime && back.candidateTime);
  EXPECT_EQ(back.baselineTime->median, 2e-6);
  EXPECT_EQ(back.baselineTime->trials, 12u);
  EXPECT_EQ(back.candidateTime->median, 1e-6);
  EXPECT_EQ(back.speedup, 2);
  EXPECT_EQ(back.flags, r.flags);
  EXPECT_EQ(back.notes, r.notes);
  EXPECT_EQ(back.logTail, r.logTail);
  EXPECT_EQ(back.phaseSeconds, r.phaseSeconds);
  EXPECT_EQ(back.runnerSeconds, r.runnerSeconds);
}

TEST(EvalResultTest, MalformedJsonIsRejected) {
  EvalResult r;
  llvm::json::Path::Root root;
  EXPECT_FALSE(fromJSON(llvm::json::Value(3), r, root));
  llvm::json::Path::Root root2;
  EXPECT_FALSE(fromJSON(llvm::json::Object{{"status", "fine"}}, r, root2));
}

TEST(EvalResultTest, OptionsRoundTrip) {
  EvalOptions o;
  o.seed = 18446744073709551557ULL;
  o.correctnessTrials = 9;
  o.extraTrials = 4;
  o.suspiciousSpeedup = 7.5;
  o.measureTime = false;
  o.maxHighPrecisionIterations = 1234;
  o.timing.warmupRuns = 1;
  o.timing.minTrials = 3;
  o.timing.maxTrials = 4;
  o.timing.targetRelativeSpread = 0.5;
  o.timing.budgetSeconds = 0.25;
  o.timing.targetMedianError = 0.125;
  o.timing.flushCache = false;
  o.timing.gateHostPrograms = true;
  std::string text;
  llvm::raw_string_ostream(text) << toJSON(o);
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  ASSERT_TRUE(!!parsed);
  EvalOptions back;
  llvm::json::Path::Root root;
  ASSERT_TRUE(fromJSON(*parsed, back, root));
  EXPECT_EQ(back.seed, o.seed);
  EXPECT_EQ(back.correctnessTrials, 9u);
  EXPECT_EQ(back.extraTrials, 4u);
  EXPECT_EQ(back.suspiciousSpeedup, 7.5);
  EXPECT_FALSE(back.measureTime);
  EXPECT_EQ(back.maxHighPrecisionIterations, 1234u);
  EXPECT_EQ(back.timing.warmupRuns, 1u);
  EXPECT_EQ(back.timing.minTrials, 3u);
  EXPECT_EQ(back.timing.maxTrials, 4u);
  EXPECT_EQ(back.timing.targetRelativeSpread, 0.5);
  EXPECT_EQ(back.timing.budgetSeconds, 0.25);
  EXPECT_EQ(back.timing.targetMedianError, 0.125);
  EXPECT_FALSE(back.timing.flushCache);
  EXPECT_TRUE(back.timing.gateHostPrograms);
}

// The runner's request carries the gate option to the timed runs; a
// request written before it existed reads as ungated.
TEST(EvalResultTest, TimedRunsRequestCarriesTheGate) {
  TimedRunsRequest request;
  request.timing.gateHostPrograms = true;
  request.sampledRuns = {2, 5};
  llvm::json::Value value = toJSON(request);
  TimedRunsRequest back;
  llvm::json::Path::Root root;
  ASSERT_TRUE(fromJSON(value, back, root));
  EXPECT_TRUE(back.timing.gateHostPrograms);
  EXPECT_EQ(back.sampledRuns, request.sampledRuns);
  value.getAsObject()->erase("gate_host_programs");
  TimedRunsRequest old;
  ASSERT_TRUE(fromJSON(value, old, root));
  EXPECT_FALSE(old.timing.gateHostPrograms);
}

TEST(EvalResultTest, TextNamesStatusWorstElementTimingAndLog) {
  std::string text = formatEvalResult(sampleResult());
  EXPECT_NE(text.find("status: wrong\n"), std::string::npos) << text;
  EXPECT_NE(text.find("worst element: argument #2 [3, 4] (flat 31): got nan"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(large, seed 18446744073709551557)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("baseline:  median 2 us"), std::string::npos) << text;
  EXPECT_NE(text.find("speedup: 2.000x"), std::string::npos) << text;
  EXPECT_NE(text.find("flags: timing_budget_exhausted"), std::string::npos);
  EXPECT_NE(text.find("  | line 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("judge's time: compiling the candidate 0.500 s; "
                      "running the candidate 1.250 s;"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("runner's time (inside the judge's): uploading the "
                      "arguments 0.125 s; warm-up and timed rounds 2.000 s;"),
            std::string::npos)
      << text;
}
