//===- CostModelTest.cpp - FLOP and byte counting of linalg ops -----------===//

#include "stark/Analysis/CostModel.h"
#include "stark/Analysis/HotOpAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

class CostModelTest : public ::testing::Test {
protected:
  CostModelTest() {
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        linalg::LinalgDialect, math::MathDialect,
                        memref::MemRefDialect, tensor::TensorDialect>();
  }

  /// Parses `body` (the inside of a func) and returns the first linalg op.
  linalg::LinalgOp parseFirstLinalgOp(StringRef ir) {
    module = parseSourceString<ModuleOp>(ir, &context);
    EXPECT_TRUE(module);
    linalg::LinalgOp found;
    if (module)
      module->walk([&](linalg::LinalgOp op) {
        if (!found)
          found = op;
      });
    EXPECT_TRUE(found);
    return found;
  }

  OpCost costOf(StringRef ir) {
    linalg::LinalgOp op = parseFirstLinalgOp(ir);
    std::string why;
    FailureOr<OpCost> cost = computeOpCost(op, why);
    EXPECT_TRUE(succeeded(cost)) << why;
    return succeeded(cost) ? *cost : OpCost();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(CostModelTest, MatmulIsTwoMNK) {
  OpCost c = costOf(R"mlir(
    func.func @f(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>,
                 %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
      %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>)
                         outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
      return %0 : tensor<64x16xf32>
    })mlir");
  EXPECT_EQ(c.opsPerPoint, 2);
  EXPECT_EQ(c.iterationPoints, 64 * 16 * 32);
  EXPECT_EQ(c.flops, 2 * 64 * 16 * 32);
  // A and B read, C read (accumulated into) and written.
  EXPECT_EQ(c.bytesRead, 4 * (64 * 32 + 32 * 16 + 64 * 16));
  EXPECT_EQ(c.bytesWritten, 4 * 64 * 16);
  EXPECT_EQ(c.opClass, OpClass::Contraction);
  EXPECT_EQ(c.computeType, ComputeType::F32);
}

TEST_F(CostModelTest, BatchMatmulOnMemrefsF16) {
  OpCost c = costOf(R"mlir(
    func.func @f(%a: memref<4x8x16xf16>, %b: memref<4x16x8xf16>,
                 %c: memref<4x8x8xf16>) {
      linalg.batch_matmul ins(%a, %b : memref<4x8x16xf16>, memref<4x16x8xf16>)
                          outs(%c : memref<4x8x8xf16>)
      return
    })mlir");
  EXPECT_EQ(c.flops, 2 * 4 * 8 * 8 * 16);
  EXPECT_EQ(c.bytesRead, 2 * (4 * 8 * 16 + 4 * 16 * 8 + 4 * 8 * 8));
  EXPECT_EQ(c.bytesWritten, 2 * 4 * 8 * 8);
  EXPECT_EQ(c.computeType, ComputeType::F16);
}

TEST_F(CostModelTest, MatvecIsTwoMN) {
  OpCost c = costOf(R"mlir(
    func.func @f(%a: tensor<128x256xf32>, %x: tensor<256xf32>,
                 %y: tensor<128xf32>) -> tensor<128xf32> {
      %0 = linalg.matvec ins(%a, %x : tensor<128x256xf32>, tensor<256xf32>)
                         outs(%y : tensor<128xf32>) -> tensor<128xf32>
      return %0 : tensor<128xf32>
    })mlir");
  EXPECT_EQ(c.flops, 2 * 128 * 256);
  EXPECT_EQ(c.opClass, OpClass::Contraction);
}

TEST_F(CostModelTest, Conv2dNhwcHwcf) {
  // N=1, OH=OW=30, F=8, KH=KW=3, C=4: 2*N*OH*OW*F*KH*KW*C.
  OpCost c = costOf(R"mlir(
    func.func @f(%i: tensor<1x32x32x4xf32>, %w: tensor<3x3x4x8xf32>,
                 %o: tensor<1x30x30x8xf32>) -> tensor<1x30x30x8xf32> {
      %0 = linalg.conv_2d_nhwc_hwcf
             {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
             ins(%i, %w : tensor<1x32x32x4xf32>, tensor<3x3x4x8xf32>)
             outs(%o : tensor<1x30x30x8xf32>) -> tensor<1x30x30x8xf32>
      return %0 : tensor<1x30x30x8xf32>
    })mlir");
  EXPECT_EQ(c.flops, 2LL * 1 * 30 * 30 * 8 * 3 * 3 * 4);
  EXPECT_EQ(c.bytesRead, 4 * (32 * 32 * 4 + 3 * 3 * 4 * 8 + 30 * 30 * 8));
  EXPECT_EQ(c.opClass, OpClass::Convolution);
}

TEST_F(CostModelTest, ElementwiseChainCountsEveryBodyOp) {
  // max(a*b + a, 0) with a constant and a cast in the body: 3 ops/point.
  OpCost c = costOf(R"mlir(
    #id = affine_map<(d0, d1) -> (d0, d1)>
    func.func @f(%a: tensor<16x64xf32>, %b: tensor<16x64xf16>,
                 %o: tensor<16x64xf32>) -> tensor<16x64xf32> {
      %0 = linalg.generic {indexing_maps = [#id, #id, #id],
                           iterator_types = ["parallel", "parallel"]}
          ins(%a, %b : tensor<16x64xf32>, tensor<16x64xf16>)
          outs(%o : tensor<16x64xf32>) {
      ^bb0(%x: f32, %y: f16, %out: f32):
        %cst = arith.constant 0.0 : f32
        %ye = arith.extf %y : f16 to f32
        %m = arith.mulf %x, %ye : f32
        %s = arith.addf %m, %x : f32
        %r = arith.maximumf %s, %cst : f32
        linalg.yield %r : f32
      } -> tensor<16x64xf32>
      return %0 : tensor<16x64xf32>
    })mlir");
  EXPECT_EQ(c.opsPerPoint, 3);
  EXPECT_EQ(c.flops, 3 * 16 * 64);
  // The output's initial value is not used: it is written, not read.
  EXPECT_EQ(c.bytesRead, 16 * 64 * (4 + 2));
  EXPECT_EQ(c.bytesWritten, 16 * 64 * 4);
  EXPECT_EQ(c.opClass, OpClass::Elementwise);
}

TEST_F(CostModelTest, RowSumReduction) {
  OpCost c = costOf(R"mlir(
    func.func @f(%a: tensor<32x1000xbf16>, %o: tensor<32xbf16>) -> tensor<32xbf16> {
      %0 = linalg.reduce ins(%a : tensor<32x1000xbf16>) outs(%o : tensor<32xbf16>)
             dimensions = [1]
        (%x: bf16, %acc: bf16) {
          %s = arith.addf %x, %acc : bf16
          linalg.yield %s : bf16
        }
      return %0 : tensor<32xbf16>
    })mlir");
  EXPECT_EQ(c.flops, 32 * 1000);
  EXPECT_EQ(c.bytesRead, 2 * (32 * 1000 + 32));
  EXPECT_EQ(c.bytesWritten, 2 * 32);
  EXPECT_EQ(c.opClass, OpClass::Reduction);
  EXPECT_EQ(c.computeType, ComputeType::BF16);
}

TEST_F(CostModelTest, MathOpsCountOne) {
  OpCost c = costOf(R"mlir(
    func.func @f(%a: tensor<100xf32>, %o: tensor<100xf32>) -> tensor<100xf32> {
      %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]}
          ins(%a : tensor<100xf32>) outs(%o : tensor<100xf32>) {
      ^bb0(%x: f32, %out: f32):
        %e = math.exp %x : f32
        %t = math.tanh %e : f32
        linalg.yield %t : f32
      } -> tensor<100xf32>
      return %0 : tensor<100xf32>
    })mlir");
  EXPECT_EQ(c.flops, 200);
}

TEST_F(CostModelTest, DynamicShapeIsUnknown) {
  linalg::LinalgOp op = parseFirstLinalgOp(R"mlir(
    func.func @f(%a: tensor<?x32xf32>, %b: tensor<32x16xf32>,
                 %c: tensor<?x16xf32>) -> tensor<?x16xf32> {
      %0 = linalg.matmul ins(%a, %b : tensor<?x32xf32>, tensor<32x16xf32>)
                         outs(%c : tensor<?x16xf32>) -> tensor<?x16xf32>
      return %0 : tensor<?x16xf32>
    })mlir");
  std::string why;
  EXPECT_TRUE(failed(computeOpCost(op, why)));
  EXPECT_EQ(why, "dynamic shape");
}

TEST_F(CostModelTest, UnknownBodyOpIsUnknown) {
  linalg::LinalgOp op = parseFirstLinalgOp(R"mlir(
    func.func private @g(f32) -> f32
    func.func @f(%a: tensor<8xf32>, %o: tensor<8xf32>) -> tensor<8xf32> {
      %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]}
          ins(%a : tensor<8xf32>) outs(%o : tensor<8xf32>) {
      ^bb0(%x: f32, %out: f32):
        %r = func.call @g(%x) : (f32) -> f32
        linalg.yield %r : f32
      } -> tensor<8xf32>
      return %0 : tensor<8xf32>
    })mlir");
  std::string why;
  EXPECT_TRUE(failed(computeOpCost(op, why)));
  EXPECT_EQ(why, "body op 'func.call' has no known cost");
}

TEST_F(CostModelTest, RooflineBoundOnH200) {
  std::optional<HardwareProfile> h200 = lookupHardwareProfile("h200");
  ASSERT_TRUE(h200);
  OpCost matmul;
  matmul.flops = 2LL * 4096 * 4096 * 4096;
  matmul.bytesRead = 3LL * 4096 * 4096 * 4;
  matmul.bytesWritten = 4096LL * 4096 * 4;
  matmul.computeType = ComputeType::F32;
  RooflineEstimate e = estimateRoofline(matmul, *h200);
  EXPECT_TRUE(e.computeBound);
  EXPECT_DOUBLE_EQ(e.seconds, double(matmul.flops) / 67e12);

  OpCost copy;
  copy.flops = 1LL << 20;
  copy.bytesRead = 4LL << 20;
  copy.bytesWritten = 4LL << 20;
  RooflineEstimate c = estimateRoofline(copy, *h200);
  EXPECT_FALSE(c.computeBound);
  EXPECT_DOUBLE_EQ(c.seconds, double(8LL << 20) / 4.8e12);
}

TEST_F(CostModelTest, ProfilesFallBackToWiderTypes) {
  std::optional<HardwareProfile> a100 = lookupHardwareProfile("a100");
  ASSERT_TRUE(a100);
  // No FP8 units on A100: f8 runs at the f16 tensor-core rate.
  EXPECT_DOUBLE_EQ(a100->peakFor(ComputeType::F8), a100->peakF16);
  EXPECT_FALSE(lookupHardwareProfile("tpu"));
  const HardwareProfile &host = getHostProfile();
  EXPECT_GT(host.peakF32, 0);
  EXPECT_GT(host.memoryBandwidth, 0);
  EXPECT_GE(host.numComputeUnits, 1);
}

TEST_F(CostModelTest, RankingOrdersByEstimatedTime) {
  module = parseSourceString<ModuleOp>(R"mlir(
    func.func @f(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>,
                 %c: tensor<512x512xf32>, %v: tensor<512xf32>) -> tensor<512x512xf32> {
      %0 = linalg.add ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>)
                      outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
      %1 = linalg.matmul ins(%0, %b : tensor<512x512xf32>, tensor<512x512xf32>)
                         outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
      return %1 : tensor<512x512xf32>
    })mlir",
                                       &context);
  ASSERT_TRUE(module);
  HotOpRanking r = rankHotOps(*module, *lookupHardwareProfile("h200"));
  ASSERT_EQ(r.ranked.size(), 2u);
  EXPECT_TRUE(isa<linalg::MatmulOp>(r.ranked[0].op));
  EXPECT_EQ(r.ranked[0].rank, 1);
  EXPECT_TRUE(isa<linalg::AddOp>(r.ranked[1].op));
  EXPECT_NEAR(r.ranked[0].share + r.ranked[1].share, 1.0, 1e-12);
  EXPECT_TRUE(isHot(r.ranked[0], 1, 0.0));
  EXPECT_FALSE(isHot(r.ranked[1], 1, 0.0));
  EXPECT_FALSE(isHot(r.ranked[1], 0, 0.5));
}

} // namespace
