//===- FusionGroupTest.cpp - Which ops a fusion group takes ---------------===//
//
// Contractions with their epilogue: the element-wise chain after a matmul
// or a convolution takes it as its head, whichever member the group is
// grown from, and without epilogues (or with a reduction in the chain, or
// two contractions feeding it) the contraction stays alone; depthwise
// convolutions and pooling never head a chain.
//
//===----------------------------------------------------------------------===//

#include "stark/Problem/FusionGroup.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

// matmul, then bias + GELU-like tanh, then a scale.
const char *kMatmulEpilogue = R"mlir(
func.func @f(%a: tensor<16x4xf32>, %w: tensor<4x8xf32>, %bias: tensor<8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<16x4xf32>, tensor<4x8xf32>) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<16x8xf32>, tensor<8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = math.tanh %s : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %two : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
})mlir";

// matmul, then a row sum: a reduction takes no head.
const char *kMatmulRowSum = R"mlir(
func.func @f(%a: tensor<16x4xf32>, %w: tensor<4x8xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %er = tensor.empty() : tensor<16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<16x4xf32>, tensor<4x8xf32>) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  %rinit = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<16x8xf32>) outs(%rinit : tensor<16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
})mlir";

// A matmul accumulating into an argument: no constant fill, no head.
const char *kMatmulAccumulates = R"mlir(
func.func @f(%a: tensor<16x4xf32>, %w: tensor<4x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<16x4xf32>, tensor<4x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
})mlir";

// conv2d (NCHW, stride 2), then a per-channel bias add and a relu.
const char *kConvBiasRelu = R"mlir(
func.func @f(%x: tensor<2x3x11x9xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<2x5x5x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x5x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<2x3x11x9xf32>, tensor<5x3x3x3xf32>) outs(%init : tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(n, f, h, w) -> (n, f, h, w)>, affine_map<(n, f, h, w) -> (f)>, affine_map<(n, f, h, w) -> (n, f, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<2x5x5x4xf32>, tensor<5xf32>) outs(%e : tensor<2x5x5x4xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<2x5x5x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, h, w) -> (n, f, h, w)>, affine_map<(n, f, h, w) -> (n, f, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : tensor<2x5x5x4xf32>) outs(%e : tensor<2x5x5x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x5x5x4xf32>
  return %y : tensor<2x5x5x4xf32>
})mlir";

// A depthwise convolution and a max pooling, each with a bias add: no GEMM
// head (n = 1 per channel; a max is no sum of products).
const char *kDepthwiseAndPooling = R"mlir(
func.func @f(%x: tensor<2x9x9x4xf32>, %w: tensor<3x3x4xf32>, %win: tensor<3x3xf32>, %b: tensor<4xf32>) -> (tensor<2x7x7x4xf32>, tensor<2x7x7x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x4xf32>) -> tensor<2x7x7x4xf32>
  %d = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<2x9x9x4xf32>, tensor<3x3x4xf32>) outs(%init : tensor<2x7x7x4xf32>) -> tensor<2x7x7x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%d, %b : tensor<2x7x7x4xf32>, tensor<4xf32>) outs(%e : tensor<2x7x7x4xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<2x7x7x4xf32>
  %pinit = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x4xf32>) -> tensor<2x7x7x4xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %win : tensor<2x9x9x4xf32>, tensor<3x3xf32>) outs(%pinit : tensor<2x7x7x4xf32>) -> tensor<2x7x7x4xf32>
  %u = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %b : tensor<2x7x7x4xf32>, tensor<4xf32>) outs(%e : tensor<2x7x7x4xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<2x7x7x4xf32>
  return %t, %u : tensor<2x7x7x4xf32>, tensor<2x7x7x4xf32>
})mlir";

class FusionGroupTest : public ::testing::Test {
protected:
  FusionGroupTest() {
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        linalg::LinalgDialect, math::MathDialect,
                        tensor::TensorDialect>();
  }

  /// The linalg ops of `ir`'s function other than fills, in order.
  SmallVector<Operation *> parse(const char *ir) {
    module = parseSourceString<ModuleOp>(ir, &context);
    EXPECT_TRUE(module);
    SmallVector<Operation *> ops;
    if (module)
      module->walk([&](linalg::LinalgOp op) {
        if (!isa<linalg::FillOp>(op))
          ops.push_back(op);
      });
    return ops;
  }

  FusionGroup grow(Operation *op, bool epilogues = true) {
    FusionGroup group;
    std::string why;
    EXPECT_TRUE(succeeded(growFusionGroup(op, group, why, epilogues))) << why;
    return group;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(FusionGroupTest, ChainTakesItsContraction) {
  SmallVector<Operation *> ops = parse(kMatmulEpilogue);
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_TRUE(isEpilogueHead(ops[0]));
  EXPECT_FALSE(isFusableOp(ops[0]));
  // The same group from every member: the contraction first, its operands
  // and the bias the inputs, the scale's result the output.
  for (Operation *start : ops) {
    FusionGroup group = grow(start);
    EXPECT_EQ(group.ops, ops);
    ASSERT_EQ(group.inputs.size(), 3u);
    EXPECT_EQ(group.inputs[0], ops[0]->getOperand(0));
    EXPECT_EQ(group.inputs[1], ops[0]->getOperand(1));
    ASSERT_EQ(group.outputs.size(), 1u);
    EXPECT_EQ(group.outputs[0], ops[2]->getResult(0));
  }
  // Without epilogues: the contraction alone, the chain without it.
  EXPECT_EQ(grow(ops[0], false).ops, SmallVector<Operation *>({ops[0]}));
  EXPECT_EQ(grow(ops[1], false).ops,
            SmallVector<Operation *>({ops[1], ops[2]}));
}

TEST_F(FusionGroupTest, ReductionTakesNoContraction) {
  SmallVector<Operation *> ops = parse(kMatmulRowSum);
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(grow(ops[0]).ops, SmallVector<Operation *>({ops[0]}));
  EXPECT_EQ(grow(ops[2]).ops, SmallVector<Operation *>({ops[1], ops[2]}));
}

TEST_F(FusionGroupTest, HeadNeedsAConstantFill) {
  SmallVector<Operation *> ops = parse(kMatmulAccumulates);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_FALSE(isEpilogueHead(ops[0]));
  EXPECT_EQ(grow(ops[0]).ops, SmallVector<Operation *>({ops[0]}));
  EXPECT_EQ(grow(ops[1]).ops, SmallVector<Operation *>({ops[1]}));
}

TEST_F(FusionGroupTest, ChainTakesItsConvolution) {
  SmallVector<Operation *> ops = parse(kConvBiasRelu);
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_TRUE(isEpilogueHead(ops[0]));
  EXPECT_FALSE(isFusableOp(ops[0]));
  for (Operation *start : ops) {
    FusionGroup group = grow(start);
    EXPECT_EQ(group.ops, ops);
    ASSERT_EQ(group.inputs.size(), 3u);
    EXPECT_EQ(group.inputs[0], ops[0]->getOperand(0));
    EXPECT_EQ(group.inputs[1], ops[0]->getOperand(1));
    EXPECT_EQ(group.inputs[2], ops[1]->getOperand(1));
    ASSERT_EQ(group.outputs.size(), 1u);
    EXPECT_EQ(group.outputs[0], ops[2]->getResult(0));
  }
  EXPECT_EQ(grow(ops[0], false).ops, SmallVector<Operation *>({ops[0]}));
  EXPECT_EQ(grow(ops[1], false).ops,
            SmallVector<Operation *>({ops[1], ops[2]}));
}

TEST_F(FusionGroupTest, DepthwiseAndPoolingHeadNothing) {
  SmallVector<Operation *> ops = parse(kDepthwiseAndPooling);
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_FALSE(isEpilogueHead(ops[0]));
  EXPECT_FALSE(isEpilogueHead(ops[2]));
  EXPECT_EQ(grow(ops[0]).ops, SmallVector<Operation *>({ops[0]}));
  EXPECT_EQ(grow(ops[1]).ops, SmallVector<Operation *>({ops[1]}));
  EXPECT_EQ(grow(ops[3]).ops, SmallVector<Operation *>({ops[3]}));
}

} // namespace
