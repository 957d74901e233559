//===- ProblemAnalysisTest.cpp - Problem reading and f32 promotion --------===//

#include "stark/Eval/ProblemAnalysis.h"
#include "TestModules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::test;

namespace {
class ProblemAnalysisTest : public ::testing::Test {
protected:
  std::unique_ptr<MLIRContext> context = makeContext();
};
} // namespace

TEST_F(ProblemAnalysisTest, MatmulReadsItsOutput) {
  OwningOpRef<ModuleOp> m = parse(*context, kMatmulProblem);
  ASSERT_TRUE(m);
  std::string error;
  FailureOr<ProblemAnalysis> a = analyzeProblem(*m, error);
  ASSERT_TRUE(succeeded(a)) << error;
  EXPECT_EQ(a->entry, "kernel");
  EXPECT_EQ(a->numOutputs, 1u);
  EXPECT_EQ(a->opName, "linalg.matmul");
  EXPECT_EQ(a->outputIsRead, (SmallVector<bool>{false, false, true}));
  EXPECT_EQ(a->reductionLength, 3);
  EXPECT_EQ(a->iterations, 5 * 4 * 3);
  EXPECT_FALSE(a->isLowPrecision);
}

TEST_F(ProblemAnalysisTest, ElementwiseAndFillOutputsAreWriteOnly) {
  OwningOpRef<ModuleOp> m = parse(*context, R"mlir(
module attributes {stark.problem = #stark.problem<entry = "f", num_outputs = 2>} {
  func.func @f(%A: memref<4x6xf16>, %B: memref<4x6xf16>, %C: memref<4x6xf16>, %D: memref<4x6xf16>) {
    linalg.add ins(%A, %B : memref<4x6xf16>, memref<4x6xf16>) outs(%C : memref<4x6xf16>)
    %z = arith.constant 0.0 : f16
    linalg.fill ins(%z : f16) outs(%D : memref<4x6xf16>)
    return
  }
}
)mlir");
  ASSERT_TRUE(m);
  std::string error;
  FailureOr<ProblemAnalysis> a = analyzeProblem(*m, error);
  ASSERT_TRUE(succeeded(a)) << error;
  EXPECT_EQ(a->outputIsRead, (SmallVector<bool>{false, false, false, false}));
  EXPECT_EQ(a->reductionLength, 1);
  EXPECT_TRUE(a->isLowPrecision);
  EXPECT_TRUE(a->signature.args[2].isOutput);
  EXPECT_FALSE(a->signature.args[1].isOutput);
}

TEST_F(ProblemAnalysisTest, AnyOtherUseCountsAsARead) {
  OwningOpRef<ModuleOp> m = parse(*context, R"mlir(
module attributes {stark.problem = #stark.problem<entry = "f", num_outputs = 1>} {
  func.func @f(%A: memref<4xf32>, %C: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %v = memref.load %C[%c0] : memref<4xf32>
    linalg.copy ins(%A : memref<4xf32>) outs(%C : memref<4xf32>)
    return
  }
}
)mlir");
  ASSERT_TRUE(m);
  std::string error;
  FailureOr<ProblemAnalysis> a = analyzeProblem(*m, error);
  ASSERT_TRUE(succeeded(a)) << error;
  EXPECT_EQ(a->outputIsRead, (SmallVector<bool>{false, true}));
}

TEST_F(ProblemAnalysisTest, MissingOrBadAttribute) {
  OwningOpRef<ModuleOp> m = parse(*context, R"mlir(
module {
  func.func @kernel(%A: memref<4xf32>) { return }
}
)mlir");
  std::string error;
  EXPECT_TRUE(failed(analyzeProblem(*m, error)));
  EXPECT_NE(error.find("no 'stark.problem' attribute"), std::string::npos);

  m = parse(*context, R"mlir(
module attributes {stark.problem = #stark.problem<entry = "other", num_outputs = 1>} {
  func.func @kernel(%A: memref<4xf32>) { return }
}
)mlir");
  EXPECT_TRUE(failed(analyzeProblem(*m, error)));
  EXPECT_NE(error.find("no function named 'other'"), std::string::npos)
      << error;
}

TEST_F(ProblemAnalysisTest, SignatureComparison) {
  KernelSignature p, c;
  p.entry = c.entry = "kernel";
  ArgSpec a;
  a.shape = {4, 8};
  p.args = {a, a};
  c.args = {a};
  std::string error;
  EXPECT_TRUE(failed(checkSameSignature(p, c, error)));
  EXPECT_NE(error.find("takes 2 arguments in the problem but 1"),
            std::string::npos);
  ArgSpec b = a;
  b.kind = ElementKind::F16;
  c.args = {a, b};
  EXPECT_TRUE(failed(checkSameSignature(p, c, error)));
  EXPECT_NE(error.find("argument #1 of 'kernel' is memref<4x8xf32> in the "
                       "problem but memref<4x8xf16> in the candidate"),
            std::string::npos)
      << error;
  c.args = {a, a};
  EXPECT_TRUE(succeeded(checkSameSignature(p, c, error)));
}

TEST_F(ProblemAnalysisTest, PromotesF16MatmulWithMixedAccumulation) {
  OwningOpRef<ModuleOp> m = parse(*context, R"mlir(
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>} {
  func.func @kernel(%A: memref<4x8xf16>, %B: memref<8x2xbf16>, %C: memref<4x2xf32>) {
    linalg.matmul ins(%A, %B : memref<4x8xf16>, memref<8x2xbf16>) outs(%C : memref<4x2xf32>)
    %c0 = arith.constant 0 : index
    %h = arith.constant 1.5 : f16
    %w = arith.extf %h : f16 to f32
    memref.store %w, %C[%c0, %c0] : memref<4x2xf32>
    return
  }
}
)mlir");
  ASSERT_TRUE(m);
  std::string error;
  FailureOr<OwningOpRef<ModuleOp>> wide =
      promoteFloats(*m, Float32Type::get(m->getContext()), error);
  ASSERT_TRUE(succeeded(wide)) << error;
  FailureOr<KernelSignature> sig =
      getKernelSignature(**wide, "kernel", 1, error);
  ASSERT_TRUE(succeeded(sig)) << error;
  for (const ArgSpec &arg : sig->args)
    EXPECT_EQ(arg.kind, ElementKind::F32);
  // No f16/bf16 and no same-type casts remain; the original is untouched.
  bool lowPrecisionLeft = false, castLeft = false;
  (*wide)->walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      if (getElementTypeOrSelf(t).isF16() || getElementTypeOrSelf(t).isBF16())
        lowPrecisionLeft = true;
    if (isa<arith::ExtFOp, arith::TruncFOp>(op))
      castLeft = true;
  });
  EXPECT_FALSE(lowPrecisionLeft);
  EXPECT_FALSE(castLeft);
  auto original = m->lookupSymbol<func::FuncOp>("kernel");
  EXPECT_TRUE(cast<MemRefType>(original.getArgumentTypes()[0])
                  .getElementType()
                  .isF16());
}

// With roundResults every op's narrow result is rounded after the op: in
// place for a buffer, as a new value (which later ops read) for a tensor;
// an f32 result is not.
TEST_F(ProblemAnalysisTest, PromotionRoundsEachNarrowResult) {
  OwningOpRef<ModuleOp> m = parse(*context, R"mlir(
#id = affine_map<(i) -> (i)>
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>} {
  func.func @kernel(%x: tensor<8xbf16>, %buf: memref<8xbf16>) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xbf16>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<8xbf16>) outs(%e : tensor<8xbf16>) {
    ^bb0(%a: bf16, %o: bf16):
      %m = arith.mulf %a, %a : bf16
      linalg.yield %m : bf16
    } -> tensor<8xbf16>
    %f = tensor.empty() : tensor<8xf32>
    %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%t : tensor<8xbf16>) outs(%f : tensor<8xf32>) {
    ^bb0(%a: bf16, %o: f32):
      %w = arith.extf %a : bf16 to f32
      linalg.yield %w : f32
    } -> tensor<8xf32>
    linalg.copy ins(%buf : memref<8xbf16>) outs(%buf : memref<8xbf16>)
    return %u : tensor<8xf32>
  }
}
)mlir");
  ASSERT_TRUE(m);
  std::string error;
  int64_t rounded = -1;
  FailureOr<OwningOpRef<ModuleOp>> wide =
      promoteFloats(*m, Float32Type::get(m->getContext()), error,
                    /*roundResults=*/true, &rounded);
  ASSERT_TRUE(succeeded(wide)) << error;
  EXPECT_EQ(rounded, 2); // %t and the copy into %buf; not %u (f32)
  SmallVector<linalg::GenericOp> generics;
  (*wide)->walk([&](linalg::GenericOp op) { generics.push_back(op); });
  // mul, its rounding, extf, copy, its rounding.
  ASSERT_EQ(generics.size(), 5u);
  auto isRounding = [](linalg::GenericOp op) {
    Block &body = op.getRegion().front();
    auto trunc = dyn_cast<arith::TruncFOp>(body.front());
    return op.getNumDpsInputs() == 0 && trunc && trunc.getType().isBF16() &&
           isa<arith::ExtFOp>(trunc->getNextNode());
  };
  EXPECT_TRUE(isRounding(generics[1]));
  EXPECT_FALSE(isRounding(generics[2]));
  EXPECT_TRUE(isRounding(generics[4]));
  // The second op reads the rounded tensor, the rounding the first op's.
  EXPECT_EQ(generics[2].getDpsInputs()[0], generics[1]->getResult(0));
  EXPECT_EQ(generics[1].getDpsInits()[0], generics[0]->getResult(0));
  // The buffer is rounded in place.
  EXPECT_EQ(generics[4].getDpsInits()[0], generics[3].getDpsInits()[0]);
  // Without roundResults nothing is added.
  FailureOr<OwningOpRef<ModuleOp>> plain =
      promoteFloats(*m, Float32Type::get(m->getContext()), error);
  ASSERT_TRUE(succeeded(plain)) << error;
  int64_t plainGenerics = 0;
  (*plain)->walk([&](linalg::GenericOp) { ++plainGenerics; });
  EXPECT_EQ(plainGenerics, 3);
}

TEST_F(ProblemAnalysisTest, PromotionSaysWhatItCannotPromote) {
  OwningOpRef<ModuleOp> m = parse(*context, R"mlir(
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>} {
  func.func @kernel(%A: memref<4xf16>, %B: memref<4xi16>) {
    %c0 = arith.constant 0 : index
    %a = memref.load %A[%c0] : memref<4xf16>
    %b = arith.bitcast %a : f16 to i16
    memref.store %b, %B[%c0] : memref<4xi16>
    return
  }
}
)mlir");
  ASSERT_TRUE(m);
  std::string error;
  EXPECT_TRUE(
      failed(promoteFloats(*m, Float32Type::get(m->getContext()), error)));
  EXPECT_NE(error.find("cannot promote the problem to f32"), std::string::npos)
      << error;
  EXPECT_NE(error.find("bitcast"), std::string::npos) << error;
}

// Two outputs: a row sum over 64 columns, and an element-wise scale of the
// input. Each gets the reduction length of what computes it, so the short
// one is not held to the bound of the long one (nor the reverse); the sum
// fed through a copy keeps its length.
TEST_F(ProblemAnalysisTest, EachOutputHasItsOwnReductionLength) {
  OwningOpRef<ModuleOp> m = parse(*context, R"mlir(
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
module attributes {stark.problem = #stark.problem<entry = "f", num_outputs = 3>} {
  func.func @f(%x: memref<4x64xf32>, %sum: memref<4xf32>, %scaled: memref<4x64xf32>, %copy: memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    %two = arith.constant 2.0 : f32
    linalg.fill ins(%zero : f32) outs(%sum : memref<4xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<4x64xf32>) outs(%sum : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : memref<4x64xf32>) outs(%scaled : memref<4x64xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.mulf %a, %two : f32
      linalg.yield %s : f32
    }
    memref.copy %sum, %copy : memref<4xf32> to memref<4xf32>
    return
  }
}
)mlir");
  ASSERT_TRUE(m);
  std::string error;
  FailureOr<ProblemAnalysis> a = analyzeProblem(*m, error);
  ASSERT_TRUE(succeeded(a)) << error;
  EXPECT_EQ(a->reductionLength, 64);
  EXPECT_EQ(a->getReductionLength(1), 64);
  EXPECT_EQ(a->getReductionLength(2), 1);
  EXPECT_EQ(a->getReductionLength(3), 64);
}
