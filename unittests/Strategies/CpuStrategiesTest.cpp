//===- CpuStrategiesTest.cpp - Host schedules apply and vectorise ---------===//

#include "stark/Strategies/CpuStrategies.h"
#include "stark/Dialect/StarkDialect.h"
#include "stark/Eval/Evaluator.h"
#include "stark/Strategies/TransformScript.h"
#include "stark/Target/CpuTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

class CpuStrategiesTest : public ::testing::Test {
protected:
  CpuStrategiesTest() {
    DialectRegistry registry;
    registerEvalDialects(registry);
    registerCpuStrategyDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    host = *lookupHardwareProfile("h200"); // fixed numbers, not this CPU
    host.simdBits = 256;
    host.numComputeUnits = 2;
    options.correctnessTrials = 2;
    options.measureTime = false;
  }

  /// The problem module as stark-outline writes it (entry, outputs).
  OwningOpRef<ModuleOp> parseProblem(StringRef func, int64_t outputs = 1) {
    std::string text =
        (llvm::Twine("module attributes {stark.problem = "
                     "#stark.problem<entry = \"kernel\", num_outputs = ") +
         llvm::Twine(outputs) + ">} {\n" + func + "\n}")
            .str();
    return parse(text);
  }

  /// Applies `s` and runs the candidate on the cpu target against the
  /// problem's baseline; the evaluator must verify it.
  void expectVerified(ModuleOp problem, const CpuSchedule &s) {
    std::string error;
    FailureOr<OwningOpRef<ModuleOp>> candidate =
        applyCpuSchedule(problem, s, error);
    ASSERT_TRUE(succeeded(candidate)) << s.describe() << ": " << error;
    (**candidate)->removeAttr(kProblemAttrName);
    EvalResult r = evaluateCandidate(*target, problem, **candidate, options);
    EXPECT_TRUE(r.isOk()) << s.describe() << "\n" << formatEvalResult(r);
  }

  /// The schedules of `family` for `problem`, at least one.
  std::vector<CpuSchedule> schedulesOf(ModuleOp problem, StringRef family) {
    std::string why;
    std::vector<CpuSchedule> all = enumerateCpuSchedules(problem, host, why);
    std::vector<CpuSchedule> of;
    for (const CpuSchedule &s : all)
      if (s.family == family)
        of.push_back(s);
    EXPECT_FALSE(of.empty()) << family.str() << ": " << why;
    return of;
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
  std::unique_ptr<Target> target = createCpuTarget(context);
  EvalOptions options;
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
  // First guess: 64x256x128 cache block, 4 x (2 x 8 lanes) register block:
  // eight accumulators, half of AVX2's sixteen vector registers.
  EXPECT_EQ(s[0].cacheTiles, (SmallVector<int64_t>{64, 256, 128}));
  EXPECT_EQ(s[0].registerTiles, (SmallVector<int64_t>{4, 16, 1}));
  // 8 x 16 (sixteen accumulators) is still offered, after the others.
  auto eightBySixteen = llvm::find_if(s, [](const CpuSchedule &x) {
    return x.registerTiles == SmallVector<int64_t>{8, 16, 1};
  });
  ASSERT_NE(eightBySixteen, s.end());
  for (auto it = s.begin(); it != eightBySixteen; ++it)
    EXPECT_LE(it->registerTiles[0] * it->registerTiles[1], 64)
        << it->describe();
  // With 512-bit vectors (thirty-two registers) 8 x (2 x 16 lanes) fits.
  HardwareProfile wide = host;
  wide.simdBits = 512;
  std::vector<CpuSchedule> w = enumerateCpuSchedules(*problem, wide, why);
  ASSERT_FALSE(w.empty()) << why;
  EXPECT_EQ(w[0].registerTiles, (SmallVector<int64_t>{8, 32, 1}));
  checkAllSchedulesApply(R"mlir(
    func.func @kernel(%a: memref<256x512xf32>, %b: memref<512x1024xf32>, %c: memref<256x1024xf32>) {
      linalg.matmul ins(%a, %b : memref<256x512xf32>, memref<512x1024xf32>)
                    outs(%c : memref<256x1024xf32>)
      return
    })mlir",
                         4);
}

/// The register tile's contraction is a vector.contract when the vectoriser
/// is done, so the schedule's contraction lowering is what shapes the inner
/// loop: with `outerproduct` each k step is one fused multiply-add per row
/// of the 4 x 16 tile, on whole 16-lane rows. Without it the product was a
/// multiply and an add on vector<4x16x1xf32>, whose unit innermost
/// dimension the LLVM lowering breaks into single lanes (the demo's matmul
/// ran at a quarter of the speed).
TEST_F(CpuStrategiesTest, MatmulRegisterTileIsFusedMultiplyAdds) {
  OwningOpRef<ModuleOp> problem = parseProblem(R"mlir(
    func.func @kernel(%a: memref<128x256xf32>, %b: memref<256x512xf32>, %c: memref<128x512xf32>) {
      linalg.matmul ins(%a, %b : memref<128x256xf32>, memref<256x512xf32>)
                    outs(%c : memref<128x512xf32>)
      return
    })mlir");
  ASSERT_TRUE(problem);
  std::string why, error;
  std::vector<CpuSchedule> schedules =
      enumerateCpuSchedules(*problem, host, why);
  ASSERT_FALSE(schedules.empty()) << why;
  CpuSchedule s = schedules.front();
  ASSERT_EQ(s.registerTiles, (SmallVector<int64_t>{4, 16, 1}));
  ASSERT_EQ(s.contractionLowering, "outerproduct");
  FailureOr<OwningOpRef<ModuleOp>> candidate =
      applyCpuSchedule(*problem, s, error);
  ASSERT_TRUE(succeeded(candidate)) << error;
  int rowFmas = 0, otherFmas = 0, vectorMuls = 0;
  (**candidate)->walk([&](Operation *op) {
    if (auto fma = dyn_cast<vector::FMAOp>(op)) {
      if (fma.getVectorType().getShape() == ArrayRef<int64_t>{16})
        ++rowFmas;
      else
        ++otherFmas;
    }
    if (isa<arith::MulFOp>(op) && isa<VectorType>(op->getResult(0).getType()))
      ++vectorMuls;
  });
  EXPECT_EQ(rowFmas, 4) << s.describe();
  EXPECT_EQ(otherFmas, 0) << s.describe();
  EXPECT_EQ(vectorMuls, 0) << s.describe();
  expectVerified(*problem, s);
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

/// A row sum's loop over the row carries a vector of partial sums (one
/// element-wise add per step), reduced once after the loop, instead of a
/// scalar that every step's vector is reduced into lane by lane; and so
/// does a row maximum. Both verify (the sum is reassociated: the bound
/// from the f64 reference judges it).
TEST_F(CpuStrategiesTest, RowReductionsKeepVectorAccumulators) {
  for (StringRef combine : {"arith.addf", "arith.maximumf"}) {
    std::string func = llvm::formatv(R"mlir(
      func.func @kernel(%a: memref<64x1024xf32>, %c: memref<64xf32>) {{
        linalg.reduce ins(%a : memref<64x1024xf32>) outs(%c : memref<64xf32>) dimensions = [1]
          (%x: f32, %acc: f32) {{
            %s = {0} %x, %acc : f32
            linalg.yield %s : f32
          }
        return
      })mlir",
                                     combine)
                           .str();
    OwningOpRef<ModuleOp> problem = parseProblem(func);
    ASSERT_TRUE(problem);
    std::vector<CpuSchedule> schedules =
        schedulesOf(*problem, "cpu-tile-vectorize");
    ASSERT_FALSE(schedules.empty());
    const CpuSchedule &s = schedules.front();
    std::string error;
    FailureOr<OwningOpRef<ModuleOp>> candidate =
        applyCpuSchedule(*problem, s, error);
    ASSERT_TRUE(succeeded(candidate)) << error;
    // A reduction inside the loop that loads the row's vectors, or after it.
    int inLoops = 0, after = 0, vectorCarried = 0;
    (**candidate)->walk([&](vector::ReductionOp r) {
      auto loop = dyn_cast<scf::ForOp>(r->getParentOp());
      bool inRowLoop =
          loop &&
          llvm::any_of(loop.getBody()->getOps<vector::LoadOp>(),
                       [](vector::LoadOp load) {
                         return load.getVectorType().getNumElements() > 1;
                       });
      ++(inRowLoop ? inLoops : after);
    });
    (**candidate)->walk([&](scf::ForOp loop) {
      for (BlockArgument arg : loop.getRegionIterArgs())
        if (auto type = dyn_cast<VectorType>(arg.getType()))
          vectorCarried += type.getNumElements() > 1;
    });
    EXPECT_EQ(inLoops, 0) << combine.str() << ": " << s.describe();
    EXPECT_GT(after, 0) << combine.str();
    EXPECT_GT(vectorCarried, 0) << combine.str();
    expectVerified(*problem, s);
  }
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

TEST_F(CpuStrategiesTest, ConvolutionIsDecomposedAndVectorised) {
  OwningOpRef<ModuleOp> problem = parseProblem(R"mlir(
    func.func @kernel(%i: memref<1x10x10x4xf32>, %w: memref<3x3x4x8xf32>, %o: memref<1x8x8x8xf32>) {
      linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%i, %w : memref<1x10x10x4xf32>, memref<3x3x4x8xf32>) outs(%o : memref<1x8x8x8xf32>)
      return
    })mlir");
  std::vector<CpuSchedule> schedules =
      schedulesOf(*problem, kCpuWindowVectorize);
  ASSERT_FALSE(schedules.empty());
  // Loops n, oh, ow, f, kh, kw, c: unit batch, output row and filter row
  // (so the op decomposes to conv_1d_nwc_wcf), whole filter columns.
  const CpuSchedule &first = schedules.front();
  EXPECT_EQ(first.registerTiles[0], 1);
  EXPECT_EQ(first.registerTiles[1], 1);
  EXPECT_EQ(first.registerTiles[4], 1);
  EXPECT_EQ(first.registerTiles[5], 0);
  for (const CpuSchedule &s : schedules) {
    std::string error;
    FailureOr<OwningOpRef<ModuleOp>> candidate =
        applyCpuSchedule(*problem, s, error);
    ASSERT_TRUE(succeeded(candidate)) << s.describe() << ": " << error;
    EXPECT_TRUE(succeeded(verify(**candidate)));
    int linalgOps = 0, vectorOps = 0, wideTransfers = 0;
    (*candidate)->walk([&](Operation *op) {
      linalgOps += isa<linalg::LinalgOp>(op);
      vectorOps += isa<vector::VectorDialect>(op->getDialect());
      // Transfers of rank > 1 would be staged through stack buffers by the
      // target's lowering, inside the loops (the stack overflows on large
      // convolutions): the schedule unrolls them to 1-D.
      if (auto transfer = dyn_cast<VectorTransferOpInterface>(op))
        wideTransfers += transfer.getVectorType().getRank() > 1;
    });
    EXPECT_EQ(linalgOps, 0) << s.describe();
    EXPECT_GT(vectorOps, 0) << s.describe();
    EXPECT_EQ(wideTransfers, 0) << s.describe();
    // The problem's arguments are still what the candidate works on.
    EXPECT_EQ((**candidate)->getAttr(kProblemAttrName),
              (*problem)->getAttr(kProblemAttrName));
  }
  expectVerified(*problem, first);
}

TEST_F(CpuStrategiesTest, OtherConvolutionLayoutsVerify) {
  // Channels first, with strides and dilations.
  OwningOpRef<ModuleOp> nchw = parseProblem(R"mlir(
    func.func @kernel(%i: memref<2x3x13x11xf32>, %w: memref<16x3x3x2xf32>, %o: memref<2x16x5x4xf32>) {
      linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
        ins(%i, %w : memref<2x3x13x11xf32>, memref<16x3x3x2xf32>) outs(%o : memref<2x16x5x4xf32>)
      return
    })mlir");
  expectVerified(*nchw, schedulesOf(*nchw, kCpuWindowVectorize).front());
  OwningOpRef<ModuleOp> depthwise = parseProblem(R"mlir(
    func.func @kernel(%i: memref<1x9x9x16xf32>, %w: memref<3x3x16xf32>, %o: memref<1x7x7x16xf32>) {
      linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%i, %w : memref<1x9x9x16xf32>, memref<3x3x16xf32>) outs(%o : memref<1x7x7x16xf32>)
      return
    })mlir");
  expectVerified(*depthwise,
                 schedulesOf(*depthwise, kCpuWindowVectorize).front());
  OwningOpRef<ModuleOp> conv1d = parseProblem(R"mlir(
    func.func @kernel(%i: memref<2x20x8xf32>, %w: memref<3x8x16xf32>, %o: memref<2x18x16xf32>) {
      linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
        ins(%i, %w : memref<2x20x8xf32>, memref<3x8x16xf32>) outs(%o : memref<2x18x16xf32>)
      return
    })mlir");
  expectVerified(*conv1d, schedulesOf(*conv1d, kCpuWindowVectorize).front());
}

TEST_F(CpuStrategiesTest, PoolingIsDecomposedAndVectorised) {
  OwningOpRef<ModuleOp> maxPool = parseProblem(R"mlir(
    func.func @kernel(%i: memref<1x16x16x8xf32>, %k: memref<2x2xf32>, %o: memref<1x8x8x8xf32>) {
      linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%i, %k : memref<1x16x16x8xf32>, memref<2x2xf32>) outs(%o : memref<1x8x8x8xf32>)
      return
    })mlir");
  for (const CpuSchedule &s : schedulesOf(*maxPool, kCpuWindowVectorize))
    expectVerified(*maxPool, s);
  OwningOpRef<ModuleOp> sumPool = parseProblem(R"mlir(
    func.func @kernel(%i: memref<2x4x10x10xf32>, %k: memref<3x3xf32>, %o: memref<2x4x8x8xf32>) {
      linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%i, %k : memref<2x4x10x10xf32>, memref<3x3xf32>) outs(%o : memref<2x4x8x8xf32>)
      return
    })mlir");
  expectVerified(*sumPool, schedulesOf(*sumPool, kCpuWindowVectorize).front());
}

TEST_F(CpuStrategiesTest, SoftmaxRowsAreFusedAndVectorised) {
  OwningOpRef<ModuleOp> problem = parseProblem(R"mlir(
    func.func @kernel(%x: memref<16x128xf32>, %y: memref<16x128xf32>) {
      linalg.softmax dimension(1) ins(%x : memref<16x128xf32>) outs(%y : memref<16x128xf32>)
      return
    })mlir");
  std::vector<CpuSchedule> schedules = schedulesOf(*problem, kCpuSoftmaxRows);
  ASSERT_FALSE(schedules.empty());
  std::string error;
  FailureOr<OwningOpRef<ModuleOp>> candidate =
      applyCpuSchedule(*problem, schedules.front(), error);
  ASSERT_TRUE(succeeded(candidate)) << error;
  // One pass: a single parallel loop over blocks of rows, no temporaries.
  int parallelLoops = 0, allocs = 0;
  (*candidate)->walk([&](Operation *op) {
    parallelLoops += isa<scf::ParallelOp>(op);
    allocs += isa<memref::AllocOp>(op);
  });
  EXPECT_EQ(parallelLoops, 1);
  EXPECT_EQ(allocs, 0);
  for (const CpuSchedule &s : schedules)
    expectVerified(*problem, s);
}

TEST_F(CpuStrategiesTest, LongSoftmaxRowsAreDeclinedWithAReason) {
  OwningOpRef<ModuleOp> problem = parseProblem(R"mlir(
    func.func @kernel(%x: memref<2x16384xf32>, %y: memref<2x16384xf32>) {
      linalg.softmax dimension(1) ins(%x : memref<2x16384xf32>) outs(%y : memref<2x16384xf32>)
      return
    })mlir");
  std::string why;
  EXPECT_TRUE(enumerateCpuSchedules(*problem, host, why).empty());
  EXPECT_NE(why.find("softmax rows of 16384 elements"), std::string::npos)
      << why;
}

TEST_F(CpuStrategiesTest, OtherWindowOpsGetTiledLoops) {
  // No 1-D form to decompose to: tiled, lowered as loops by the target.
  OwningOpRef<ModuleOp> problem = parseProblem(R"mlir(
    func.func @kernel(%i: memref<1x6x6x6x2xf32>, %w: memref<3x3x3x2x4xf32>, %o: memref<1x4x4x4x4xf32>) {
      linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
        ins(%i, %w : memref<1x6x6x6x2xf32>, memref<3x3x3x2x4xf32>) outs(%o : memref<1x4x4x4x4xf32>)
      return
    })mlir");
  std::vector<CpuSchedule> schedules = schedulesOf(*problem, kCpuTileLoops);
  ASSERT_FALSE(schedules.empty());
  expectVerified(*problem, schedules.front());
}

TEST_F(CpuStrategiesTest, LargeOpsGetAThreadedScheduleFirst) {
  OwningOpRef<ModuleOp> problem = parseProblem(R"mlir(
    func.func @kernel(%a: memref<96x64xf32>, %b: memref<64x80xf32>, %c: memref<96x80xf32>) {
      linalg.matmul ins(%a, %b : memref<96x64xf32>, memref<64x80xf32>)
                    outs(%c : memref<96x80xf32>)
      return
    })mlir");
  std::string why;
  std::vector<CpuSchedule> schedules =
      enumerateCpuSchedules(*problem, host, why);
  ASSERT_GE(schedules.size(), 2u) << why;
  const CpuSchedule &threaded = schedules[0];
  EXPECT_EQ(threaded.threads, 2);
  EXPECT_EQ(threaded.toParams().at("threads"), "2");
  EXPECT_NE(threaded.describe().find("2 threads"), std::string::npos);
  // Its serial twin follows.
  EXPECT_EQ(schedules[1].threads, 1);
  EXPECT_EQ(schedules[1].cacheTiles, threaded.cacheTiles);

  std::string error;
  FailureOr<OwningOpRef<ModuleOp>> candidate =
      applyCpuSchedule(*problem, threaded, error);
  ASSERT_TRUE(succeeded(candidate)) << error;
  auto threads = (**candidate)->getAttrOfType<IntegerAttr>(kCpuThreadsAttr);
  ASSERT_TRUE(threads);
  EXPECT_EQ(threads.getInt(), 2);
  int parallelLoops = 0;
  (*candidate)->walk([&](scf::ParallelOp) { ++parallelLoops; });
  EXPECT_EQ(parallelLoops, 1);
  expectVerified(*problem, threaded);

  // Small ops stay on one thread.
  OwningOpRef<ModuleOp> small = parseProblem(R"mlir(
    func.func @kernel(%a: memref<16x8xf32>, %b: memref<8x16xf32>, %c: memref<16x16xf32>) {
      linalg.matmul ins(%a, %b : memref<16x8xf32>, memref<8x16xf32>)
                    outs(%c : memref<16x16xf32>)
      return
    })mlir");
  for (const CpuSchedule &s : enumerateCpuSchedules(*small, host, why))
    EXPECT_EQ(s.threads, 1) << s.describe();
}

TEST_F(CpuStrategiesTest, ThreadsFillTheTilesTheyCompute) {
  // The fill of a fill + contraction problem runs inside the thread loop:
  // outside it the threads would have nothing to share but the target
  // runs only the scf.parallel on several threads.
  OwningOpRef<ModuleOp> problem = parseProblem(R"mlir(
    func.func @kernel(%a: memref<96x64xf32>, %b: memref<64x80xf32>, %c: memref<96x80xf32>) {
      %zero = arith.constant 0.5 : f32
      linalg.fill ins(%zero : f32) outs(%c : memref<96x80xf32>)
      linalg.matmul ins(%a, %b : memref<96x64xf32>, memref<64x80xf32>)
                    outs(%c : memref<96x80xf32>)
      return
    })mlir");
  std::string why;
  std::vector<CpuSchedule> schedules =
      enumerateCpuSchedules(*problem, host, why);
  ASSERT_FALSE(schedules.empty()) << why;
  const CpuSchedule &threaded = schedules[0];
  ASSERT_EQ(threaded.threads, 2);
  EXPECT_TRUE(threaded.fuseInitFill);
  EXPECT_FALSE(schedules[1].fuseInitFill);

  std::string error;
  FailureOr<OwningOpRef<ModuleOp>> candidate =
      applyCpuSchedule(*problem, threaded, error);
  ASSERT_TRUE(succeeded(candidate)) << error;
  auto func = (*candidate)->lookupSymbol<func::FuncOp>("kernel");
  ASSERT_TRUE(func);
  int parallelLoops = 0;
  for (Operation &op : func.getBody().front().without_terminator()) {
    if (isa<scf::ParallelOp>(op))
      ++parallelLoops;
    else
      EXPECT_TRUE(isMemoryEffectFree(&op)) << op.getName().getStringRef().str();
  }
  EXPECT_EQ(parallelLoops, 1);
  expectVerified(*problem, threaded);
}

/// A parallel loop whose iteration count (7 x 3) does not divide among the
/// threads: every iteration must run exactly once (a skipped one leaves
/// b, one run twice adds a twice).
constexpr const char *kParallelFill = R"mlir(
  module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>} {
    func.func @kernel(%a: memref<7x3xf32>, %b: memref<7x3xf32>) {
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                      iterator_types = ["parallel", "parallel"]}
          ins(%a : memref<7x3xf32>) outs(%b : memref<7x3xf32>) {
      ^bb0(%x: f32, %o: f32):
        %s = arith.addf %x, %o : f32
        linalg.yield %s : f32
      }
      return
    }
  })mlir";

TEST_F(CpuStrategiesTest, ThreadsRunEachParallelIterationOnce) {
  OwningOpRef<ModuleOp> problem = parse(kParallelFill);
  ASSERT_TRUE(problem);
  for (int64_t threads : {2, 3, 5, 8}) {
    OwningOpRef<ModuleOp> candidate = parse(llvm::formatv(R"mlir(
      module attributes {{stark.cpu.threads = {0} : i64} {{
        func.func @kernel(%a: memref<7x3xf32>, %b: memref<7x3xf32>) {{
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c3 = arith.constant 3 : index
          %c7 = arith.constant 7 : index
          scf.parallel (%i, %j) = (%c0, %c0) to (%c7, %c3) step (%c1, %c1) {{
            %x = memref.load %a[%i, %j] : memref<7x3xf32>
            %o = memref.load %b[%i, %j] : memref<7x3xf32>
            %s = arith.addf %x, %o : f32
            memref.store %s, %b[%i, %j] : memref<7x3xf32>
          }
          return
        }
      })mlir",
                                                          threads)
                                                .str());
    ASSERT_TRUE(candidate);
    EvalResult r = evaluateCandidate(*target, *problem, *candidate, options);
    EXPECT_TRUE(r.isOk()) << threads << " threads\n" << formatEvalResult(r);
  }
}

TEST_F(CpuStrategiesTest, ThreadsWithoutAParallelLoopAreACompileError) {
  OwningOpRef<ModuleOp> problem = parse(kParallelFill);
  OwningOpRef<ModuleOp> candidate = parse(R"mlir(
    module attributes {stark.cpu.threads = 2 : i64} {
      func.func @kernel(%a: memref<7x3xf32>, %b: memref<7x3xf32>) {
        return
      }
    })mlir");
  ASSERT_TRUE(problem && candidate);
  EvalResult r = evaluateCandidate(*target, *problem, *candidate, options);
  EXPECT_EQ(r.status, EvalStatus::CompileError) << formatEvalResult(r);
  EXPECT_NE(r.message.find("no top-level scf.parallel"), std::string::npos)
      << r.message;
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

TEST_F(CpuStrategiesTest, UnknownVectorLoweringFailsWhenTheScriptIsBuilt) {
  CpuSchedule bad;
  bad.cacheTiles = {0, 0};
  bad.registerTiles = {1, 8};
  bad.contractionLowering = "diagonal";
  std::string error;
  EXPECT_TRUE(failed(buildCpuTransformScript(&context, bad, error)));
  EXPECT_NE(error.find("unknown vector lowering: contraction 'diagonal'"),
            std::string::npos)
      << error;
}

TEST_F(CpuStrategiesTest, ScriptIsOneNamedSequenceThatParsesBack) {
  OwningOpRef<ModuleOp> problem = parse(kParallelFill);
  ASSERT_TRUE(problem);
  std::string why, error;
  std::vector<CpuSchedule> schedules =
      enumerateCpuSchedules(*problem, host, why);
  ASSERT_FALSE(schedules.empty()) << why;
  FailureOr<OwningOpRef<ModuleOp>> script =
      buildCpuTransformScript(&context, schedules.front(), error);
  ASSERT_TRUE(succeeded(script)) << error;
  auto entry = (**script).lookupSymbol<transform::NamedSequenceOp>(
      transform::TransformDialect::kTransformEntryPointSymbolName);
  ASSERT_TRUE(entry);
  EXPECT_TRUE(
      entry.getArgAttr(0, transform::TransformDialect::kArgReadOnlyAttrName));
  // The printed form (what a record keeps) is the same script.
  std::string text = printTransformScript(**script);
  OwningOpRef<ModuleOp> reparsed = parse(text);
  ASSERT_TRUE(reparsed);
  EXPECT_EQ(printTransformScript(*reparsed), text);
}

} // namespace
