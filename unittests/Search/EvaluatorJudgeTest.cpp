//===- EvaluatorJudgeTest.cpp - When the judge asks for extra trials ------===//

#include "stark/Search/EvaluatorJudge.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

// Before anything is verified, the configured threshold over the upstream
// baseline decides; after, a candidate gets the extra trials only when it
// is also more than twice as fast as the best one verified in full.
TEST(EvaluatorJudgeTest, ExtraTrialsBeyondTwiceTheBestVerified) {
  EXPECT_EQ(getSuspiciousSpeedup(10, 0), 10);
  EXPECT_EQ(getSuspiciousSpeedup(10, 3), 10);
  EXPECT_EQ(getSuspiciousSpeedup(10, 23), 46);
  EXPECT_EQ(getSuspiciousSpeedup(10, 23, 4), 92);
  // A configured threshold above that stays.
  EXPECT_EQ(getSuspiciousSpeedup(100, 23), 100);
}

TEST(EvaluatorJudgeTest, AFreshJudgeUsesTheConfiguredThreshold) {
  EvalOptions options;
  options.suspiciousSpeedup = 7;
  EvaluatorJudge judge("", "problem", options, WorkerOptions());
  EXPECT_EQ(judge.getSuspiciousSpeedup(), 7);
}

} // namespace
