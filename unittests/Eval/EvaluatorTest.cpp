//===- EvaluatorTest.cpp - The evaluation protocol, in process ------------===//

#include "stark/Eval/Evaluator.h"
#include "TestModules.h"
#include "stark/Target/CpuTarget.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::test;

namespace {
class EvaluatorTest : public ::testing::Test {
protected:
  EvaluatorTest() {
    options.timing.warmupRuns = 1;
    options.timing.minTrials = 2;
    options.timing.maxTrials = 2;
    options.timing.flushCache = false;
  }
  EvalResult evaluate(StringRef candidate) {
    OwningOpRef<ModuleOp> p = parse(*context, kMatmulProblem);
    OwningOpRef<ModuleOp> c = parse(*context, candidate);
    EXPECT_TRUE(p && c);
    if (!p || !c)
      return EvalResult();
    return evaluateCandidate(*target, *p, *c, options);
  }
  std::unique_ptr<MLIRContext> context = makeContext();
  std::unique_ptr<Target> target = createCpuTarget(*context);
  EvalOptions options;
};
} // namespace

TEST_F(EvaluatorTest, CorrectCandidateIsVerifiedAndTimed) {
  std::vector<std::string> phases;
  options.onPhase = [&](StringRef p) { phases.push_back(p.str()); };
  EvalResult r = evaluate(matmulLoops(5, 4));
  EXPECT_EQ(r.status, EvalStatus::Ok) << r.message;
  EXPECT_EQ(r.correctnessTrials, 5u);
  EXPECT_EQ(r.distributions,
            (std::vector<std::string>{"uniform", "normal", "large", "tiny",
                                      "negative"}));
  EXPECT_EQ(r.seeds.size(), 5u);
  ASSERT_TRUE(r.baselineTime && r.candidateTime);
  EXPECT_EQ(r.baselineTime->trials, 2u);
  EXPECT_GT(r.speedup, 0);
  EXPECT_EQ(r.toleranceKind, "f32");
  EXPECT_EQ(r.reductionLength, 3);
  ASSERT_FALSE(phases.empty());
  EXPECT_EQ(phases.front(), "compiling the baseline");
  EXPECT_TRUE(r.phase.empty());
}

TEST_F(EvaluatorTest, MissingRowIsWrongWithTheWorstElement) {
  options.measureTime = false;
  EvalResult r = evaluate(matmulLoops(4, 4));
  EXPECT_EQ(r.status, EvalStatus::Wrong);
  EXPECT_EQ(r.mismatches, 4);
  ASSERT_TRUE(r.worst);
  EXPECT_EQ(r.worst->argIndex, 2u);
  EXPECT_EQ(r.worst->index[0], 4);
  EXPECT_FALSE(r.worst->passed);
  EXPECT_EQ(r.worstDistribution, "uniform");
  EXPECT_EQ(r.correctnessTrials, 1u);
}

TEST_F(EvaluatorTest, SeedsChangeTheInputs) {
  options.measureTime = false;
  options.correctnessTrials = 1;
  EvalResult a = evaluate(matmulLoops(5, 4));
  options.seed = 1;
  EvalResult b = evaluate(matmulLoops(5, 4));
  ASSERT_EQ(a.seeds.size(), 1u);
  ASSERT_EQ(b.seeds.size(), 1u);
  EXPECT_NE(a.seeds[0], b.seeds[0]);
}

TEST_F(EvaluatorTest, SignatureMismatchIsACompileError) {
  EvalResult r = evaluate(R"mlir(
module {
  func.func @kernel(%A: memref<5x3xf32>, %B: memref<3x4xf32>) { return }
}
)mlir");
  EXPECT_EQ(r.status, EvalStatus::CompileError);
  EXPECT_NE(r.message.find("takes 3 arguments in the problem but 2"),
            std::string::npos)
      << r.message;
}

TEST_F(EvaluatorTest, SourcesThatDoNotParse) {
  EvalResult r = evaluateSources(kMatmulProblem, "p.mlir", "module {", "c.mlir",
                                 "cpu", options);
  EXPECT_EQ(r.status, EvalStatus::CompileError);
  EXPECT_NE(r.message.find("c.mlir:1:"), std::string::npos) << r.message;

  r = evaluateSources("garbage", "p.mlir", kMatmulProblem, "c.mlir", "cpu",
                      options);
  EXPECT_EQ(r.status, EvalStatus::Error);
  EXPECT_NE(r.message.find("cannot parse the problem"), std::string::npos);

  r = evaluateSources(kMatmulProblem, "p.mlir", kMatmulProblem, "c.mlir", "tpu",
                      options);
  EXPECT_EQ(r.status, EvalStatus::Error);
  EXPECT_NE(r.message.find("unknown target 'tpu'"), std::string::npos);
}
