//===- CpuStrategiesTest.cpp - Host schedules apply and vectorise ---------===//

#include "stark/Agent/CpuStrategies.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

class CpuStrategiesTest : public ::testing::Test {
protected:
  CpuStrategiesTest() {
    DialectRegistry registry;
    registerCpuStrategyDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    host = *lookupHardwareProfile("h200"); // fixed numbers, not this CPU
    host.simdBits = 256;
  }

  OwningOpRef<ModuleOp> parse(StringRef ir) {
    OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(ir, &context);
    EXPECT_TRUE(m);
    return m;
  }

  /// Applies every enumerated schedule; each must give a verified module
  /// with vector ops and no linalg op left.
  void checkAllSchedulesApply(StringRef ir, size_t minSchedules) {
    OwningOpRef<ModuleOp> problem = parse(ir);
    ASSERT_TRUE(problem);
    std::string why;
    std::vector<CpuSchedule> schedules =
        enumerateCpuSchedules(*problem, host, why);
    EXPECT_GE(schedules.size(), minSchedules) << why;
    for (const CpuSchedule &s : schedules) {
      std::string error;
      FailureOr<OwningOpRef<ModuleOp>> candidate =
          applyCpuSchedule(*problem, s, error);
      ASSERT_TRUE(succeeded(candidate)) << s.describe() << ": " << error;
      EXPECT_TRUE(succeeded(verify(**candidate))) << s.describe();
      int linalgOps = 0, vectorOps = 0, loops = 0;
      (*candidate)->walk([&](Operation *op) {
        if (isa<linalg::LinalgOp>(op))
          ++linalgOps;
        if (isa<vector::VectorDialect>(op->getDialect()))
          ++vectorOps;
        if (isa<scf::ForOp>(op))
          ++loops;
      });
      EXPECT_EQ(linalgOps, 0) << s.describe();
      EXPECT_GT(vectorOps, 0) << s.describe();
      EXPECT_GT(loops, 0) << s.describe();
      // The problem itself is untouched.
      int original = 0;
      (*problem)->walk([&](linalg::LinalgOp) { ++original; });
      EXPECT_EQ(original, 1);
    }
  }

  MLIRContext context;
  HardwareProfile host;
};

TEST_F(CpuStrategiesTest, MatmulSchedulesTileForCacheAndRegisters) {
  OwningOpRef<ModuleOp> problem = parse(R"mlir(
    func.func @kernel(%a: memref<256x512xf32>, %b: memref<512x1024xf32>, %c: memref<256x1024xf32>) {
      linalg.matmul ins(%a, %b : memref<256x512xf32>, memref<512x1024xf32>)
                    outs(%c : memref<256x1024xf32>)
      return
    })mlir");
  std::string why;
  std::vector<CpuSchedule> s = enumerateCpuSchedules(*problem, host, why);
  ASSERT_FALSE(s.empty()) << why;
  // First guess: 64x256x128 cache block, 8 x (2 x 8 lanes) register block.
  EXPECT_EQ(s[0].cacheTiles, (SmallVector<int64_t>{64, 256, 128}));
  EXPECT_EQ(s[0].registerTiles, (SmallVector<int64_t>{8, 16, 1}));
  checkAllSchedulesApply(R"mlir(
    func.func @kernel(%a: memref<256x512xf32>, %b: memref<512x1024xf32>, %c: memref<256x1024xf32>) {
      linalg.matmul ins(%a, %b : memref<256x512xf32>, memref<512x1024xf32>)
                    outs(%c : memref<256x1024xf32>)
      return
    })mlir",
                         4);
}

TEST_F(CpuStrategiesTest, TilesDivideOddSizes) {
  OwningOpRef<ModuleOp> problem = parse(R"mlir(
    func.func @kernel(%a: memref<33x100xf32>, %b: memref<100x70xf32>, %c: memref<33x70xf32>) {
      linalg.matmul ins(%a, %b : memref<33x100xf32>, memref<100x70xf32>)
                    outs(%c : memref<33x70xf32>)
      return
    })mlir");
  std::string why;
  for (const CpuSchedule &s : enumerateCpuSchedules(*problem, host, why)) {
    SmallVector<int64_t> extents = {33, 70, 100};
    for (unsigned i = 0; i < 3; ++i) {
      EXPECT_EQ(extents[i] % s.cacheTiles[i], 0) << s.describe();
      EXPECT_EQ(s.cacheTiles[i] % s.registerTiles[i], 0) << s.describe();
    }
  }
  checkAllSchedulesApply(R"mlir(
    func.func @kernel(%a: memref<33x100xf32>, %b: memref<100x70xf32>, %c: memref<33x70xf32>) {
      linalg.matmul ins(%a, %b : memref<33x100xf32>, memref<100x70xf32>)
                    outs(%c : memref<33x70xf32>)
      return
    })mlir",
                         1);
}

TEST_F(CpuStrategiesTest, BatchMatmul) {
  checkAllSchedulesApply(R"mlir(
    func.func @kernel(%a: memref<4x64x32xf32>, %b: memref<4x32x48xf32>, %c: memref<4x64x48xf32>) {
      linalg.batch_matmul ins(%a, %b : memref<4x64x32xf32>, memref<4x32x48xf32>)
                          outs(%c : memref<4x64x48xf32>)
      return
    })mlir",
                         1);
}

TEST_F(CpuStrategiesTest, RowReduction) {
  checkAllSchedulesApply(R"mlir(
    func.func @kernel(%a: memref<64x1024xf32>, %c: memref<64xf32>) {
      linalg.reduce ins(%a : memref<64x1024xf32>) outs(%c : memref<64xf32>) dimensions = [1]
        (%x: f32, %acc: f32) {
          %s = arith.addf %x, %acc : f32
          linalg.yield %s : f32
        }
      return
    })mlir",
                         4);
}

TEST_F(CpuStrategiesTest, ElementwiseWithBroadcast) {
  checkAllSchedulesApply(R"mlir(
    func.func @kernel(%a: memref<64x256xf32>, %b: memref<256xf32>, %c: memref<64x256xf32>) {
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                      iterator_types = ["parallel", "parallel"]}
          ins(%a, %b : memref<64x256xf32>, memref<256xf32>) outs(%c : memref<64x256xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %s = arith.addf %x, %y : f32
        %e = math.tanh %s : f32
        linalg.yield %e : f32
      }
      return
    })mlir",
                         4);
}

TEST_F(CpuStrategiesTest, ConvolutionIsDeclinedWithAReason) {
  OwningOpRef<ModuleOp> problem = parse(R"mlir(
    func.func @kernel(%i: memref<1x10x10x4xf32>, %w: memref<3x3x4x8xf32>, %o: memref<1x8x8x8xf32>) {
      linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%i, %w : memref<1x10x10x4xf32>, memref<3x3x4x8xf32>) outs(%o : memref<1x8x8x8xf32>)
      return
    })mlir");
  std::string why;
  EXPECT_TRUE(enumerateCpuSchedules(*problem, host, why).empty());
  EXPECT_NE(why.find("not projected permutations"), std::string::npos) << why;
}

TEST_F(CpuStrategiesTest, MismatchedScheduleIsAnError) {
  OwningOpRef<ModuleOp> problem = parse(R"mlir(
    func.func @kernel(%a: memref<8x8xf32>, %c: memref<8x8xf32>) {
      linalg.copy ins(%a : memref<8x8xf32>) outs(%c : memref<8x8xf32>)
      return
    })mlir");
  CpuSchedule bad;
  bad.cacheTiles = {0, 0, 0};
  bad.registerTiles = {1, 1, 1};
  std::string error;
  EXPECT_TRUE(failed(applyCpuSchedule(*problem, bad, error)));
  EXPECT_NE(error.find("tile sizes for 3 loops, the op has 2"),
            std::string::npos)
      << error;
}

} // namespace
