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
  // Five trials, one per distribution, then the special values.
  EXPECT_EQ(r.correctnessTrials, 6u);
  // Each trial runs the candidate twice (the second run rescheduled).
  EXPECT_EQ(r.candidateRuns, 12u);
  EXPECT_EQ(r.distributions,
            (std::vector<std::string>{"uniform", "normal", "large", "tiny",
                                      "negative", "special"}));
  EXPECT_EQ(r.seeds.size(), 6u);
  ASSERT_TRUE(r.baselineTime && r.candidateTime);
  EXPECT_EQ(r.baselineTime->trials, 2u);
  EXPECT_GT(r.speedup, 0);
  EXPECT_EQ(r.toleranceKind, "f32");
  EXPECT_EQ(r.reductionLength, 3);
  ASSERT_FALSE(phases.empty());
  EXPECT_EQ(phases.front(), "compiling the baseline");
  EXPECT_TRUE(r.phase.empty());
  // The runner's account of the runs and the timing, step by step.
  std::vector<std::string> steps;
  for (const auto &[name, seconds] : r.runnerSeconds) {
    steps.push_back(name);
    EXPECT_GE(seconds, 0) << name;
  }
  EXPECT_EQ(steps, (std::vector<std::string>{
                       "making the arguments", "uploading the arguments",
                       "running the candidate", "reading back and comparing",
                       "making the timing sets", "staging the timing sets",
                       "warm-up and timed rounds", "back-to-back runs"}));
}

TEST_F(EvaluatorTest, ACandidateThatCannotWinIsScreenedAfterOneTrial) {
  // No candidate is a million times faster than the baseline.
  options.screenBelowSpeedup = 1e6;
  EvalResult r = evaluate(matmulLoops(5, 4));
  EXPECT_EQ(r.status, EvalStatus::Slower) << r.message;
  EXPECT_FALSE(r.isOk());
  EXPECT_EQ(r.correctnessTrials, 1u);
  ASSERT_TRUE(r.baselineTime && r.candidateTime);
  EXPECT_NE(r.message.find("not verified further"), std::string::npos)
      << r.message;
}

TEST_F(EvaluatorTest, ACandidateThatCanWinGetsEveryTrialAfterScreening) {
  options.screenBelowSpeedup = 1e-6;
  EvalResult r = evaluate(matmulLoops(5, 4));
  EXPECT_EQ(r.status, EvalStatus::Ok) << r.message;
  EXPECT_EQ(r.correctnessTrials, 6u);
  ASSERT_TRUE(r.candidateTime);
}

TEST_F(EvaluatorTest, AWrongCandidateIsWrongWhetherScreenedOrNot) {
  options.screenBelowSpeedup = 1e6;
  EvalResult r = evaluate(matmulLoops(4, 4));
  EXPECT_EQ(r.status, EvalStatus::Wrong);
  EXPECT_FALSE(r.candidateTime);
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
  ASSERT_EQ(a.seeds.size(), 2u); // the trial and the special values
  ASSERT_EQ(b.seeds.size(), 2u);
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

TEST_F(EvaluatorTest, UnpromotableProblemIsJudgedWithoutHighPrecision) {
  // Bit-level code has no f32 counterpart: say so and use the baseline.
  const char *problem = R"mlir(
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>} {
  func.func @kernel(%A: memref<4xf16>, %B: memref<4xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %a = memref.load %A[%i] : memref<4xf16>
      %bits = arith.bitcast %a : f16 to i16
      %back = arith.bitcast %bits : i16 to f16
      memref.store %back, %B[%i] : memref<4xf16>
    }
    return
  }
}
)mlir";
  OwningOpRef<ModuleOp> p = parse(*context, problem);
  OwningOpRef<ModuleOp> c = parse(*context, problem);
  ASSERT_TRUE(p && c);
  options.measureTime = false;
  EvalResult r = evaluateCandidate(*target, *p, *c, options);
  EXPECT_EQ(r.status, EvalStatus::Ok) << r.message;
  EXPECT_FALSE(r.highPrecisionReference);
  EXPECT_TRUE(r.hasFlag("no_high_precision_reference"));
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("cannot promote the problem to f32"),
            std::string::npos)
      << r.notes[0];
}

TEST_F(EvaluatorTest, NonFiniteReferenceIsFlagged) {
  // log of the all-negative distribution is NaN everywhere.
  const char *problem = R"mlir(
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>} {
  func.func @kernel(%A: memref<6xf32>, %B: memref<6xf32>) {
    linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
        ins(%A : memref<6xf32>) outs(%B : memref<6xf32>) {
    ^bb0(%a: f32, %b: f32):
      %l = math.log %a : f32
      linalg.yield %l : f32
    }
    return
  }
}
)mlir";
  OwningOpRef<ModuleOp> p = parse(*context, problem);
  OwningOpRef<ModuleOp> c = parse(*context, problem);
  ASSERT_TRUE(p && c);
  options.measureTime = false;
  EvalResult r = evaluateCandidate(*target, *p, *c, options);
  EXPECT_EQ(r.status, EvalStatus::Ok) << r.message;
  EXPECT_TRUE(r.hasFlag("reference_non_finite"));
}

TEST_F(EvaluatorTest, LargeLowPrecisionProblemSkipsTheHostReference) {
  const char *problem = R"mlir(
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>} {
  func.func @kernel(%A: memref<4x8xf16>, %B: memref<8x2xf16>, %C: memref<4x2xf16>) {
    linalg.matmul ins(%A, %B : memref<4x8xf16>, memref<8x2xf16>) outs(%C : memref<4x2xf16>)
    return
  }
}
)mlir";
  OwningOpRef<ModuleOp> p = parse(*context, problem);
  OwningOpRef<ModuleOp> c = parse(*context, problem);
  ASSERT_TRUE(p && c);
  options.measureTime = false;
  EvalResult r = evaluateCandidate(*target, *p, *c, options);
  EXPECT_EQ(r.status, EvalStatus::Ok) << r.message;
  EXPECT_TRUE(r.highPrecisionReference);

  options.maxHighPrecisionIterations = 63; // the matmul runs 4*2*8 = 64
  r = evaluateCandidate(*target, *p, *c, options);
  EXPECT_EQ(r.status, EvalStatus::Ok) << r.message;
  EXPECT_FALSE(r.highPrecisionReference);
  EXPECT_TRUE(r.hasFlag("no_high_precision_reference"));
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("runs 64 loop iterations"), std::string::npos)
      << r.notes[0];
}
