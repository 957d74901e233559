//===- CudaSchedulesTest.cpp - Transform-dialect GPU schedules, no GPU ----===//

#include "stark/Strategies/CudaSchedules.h"
#ifdef STARK_ENABLE_CUDA
#include "stark/Target/CudaCompile.h"
#endif

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace mlir::stark;

namespace {

constexpr StringLiteral kMatmul = R"mlir(
func.func @kernel(%a: memref<256x128xf32>, %b: memref<128x512xf32>,
                  %c: memref<256x512xf32>) {
  linalg.matmul ins(%a, %b : memref<256x128xf32>, memref<128x512xf32>)
                outs(%c : memref<256x512xf32>)
  return
}
)mlir";

constexpr StringLiteral kMatmulF16 = R"mlir(
func.func @kernel(%a: memref<64x96xf16>, %b: memref<96x128xf16>,
                  %c: memref<64x128xf32>) {
  linalg.matmul ins(%a, %b : memref<64x96xf16>, memref<96x128xf16>)
                outs(%c : memref<64x128xf32>)
  return
}
)mlir";

constexpr StringLiteral kBatchMatmul = R"mlir(
func.func @kernel(%a: memref<4x64x96xf32>, %b: memref<4x96x128xf32>,
                  %c: memref<4x64x128xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x64x96xf32>, memref<4x96x128xf32>)
                      outs(%c : memref<4x64x128xf32>)
  return
}
)mlir";

constexpr StringLiteral kBiasGelu = R"mlir(
func.func @kernel(%x: memref<130x256xf32>, %b: memref<256xf32>,
                  %y: memref<130x256xf32>) {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                   affine_map<(i, j) -> (j)>,
                                   affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<130x256xf32>, memref<256xf32>)
      outs(%y : memref<130x256xf32>) {
    ^bb0(%in: f32, %bias: f32, %out: f32):
      %v = arith.addf %in, %bias : f32
      %s = arith.mulf %v, %rsqrt2 : f32
      %e = math.erf %s : f32
      %p = arith.addf %e, %one : f32
      %h = arith.mulf %v, %half : f32
      %r = arith.mulf %h, %p : f32
      linalg.yield %r : f32
  }
  return
}
)mlir";

constexpr StringLiteral kRowSum = R"mlir(
func.func @kernel(%x: memref<512x1024xf32>, %y: memref<512xf32>) {
  linalg.reduce ins(%x : memref<512x1024xf32>) outs(%y : memref<512xf32>)
      dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}
)mlir";

class CudaSchedulesTest : public ::testing::Test {
protected:
  CudaSchedulesTest() {
    DialectRegistry registry;
    registerCudaScheduleDialects(registry);
#ifdef STARK_ENABLE_CUDA
    registerCudaTargetDialects(registry);
#endif
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    profile = *lookupHardwareProfile("h200");
  }

  OwningOpRef<ModuleOp> parse(StringRef ir) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(ir, &context);
    EXPECT_TRUE(module) << "failed to parse";
    return module;
  }

  /// The first enumerated schedule of `family` for `problem`.
  std::optional<CudaSchedule> first(ModuleOp problem, StringRef family) {
    std::string whyNot;
    for (const CudaSchedule &s :
         enumerateCudaSchedules(problem, profile, whyNot))
      if (s.family == family)
        return s;
    ADD_FAILURE() << "no " << family.str() << " schedule: " << whyNot;
    return std::nullopt;
  }

  /// Applies `schedule` and checks the candidate is one gpu.launch with no
  /// linalg op left.
  OwningOpRef<ModuleOp> apply(ModuleOp problem, const CudaSchedule &schedule) {
    std::string error;
    FailureOr<OwningOpRef<ModuleOp>> candidate =
        applyCudaSchedule(problem, schedule, error);
    EXPECT_TRUE(succeeded(candidate)) << schedule.describe() << ": " << error;
    if (failed(candidate))
      return nullptr;
    int launches = 0, linalgOps = 0;
    (*candidate)->walk([&](Operation *op) {
      launches += isa<gpu::LaunchOp>(op);
      linalgOps += isa<linalg::LinalgOp>(op);
    });
    EXPECT_EQ(launches, 1);
    EXPECT_EQ(linalgOps, 0);
    return std::move(*candidate);
  }

#ifdef STARK_ENABLE_CUDA
  std::string ptxOf(ModuleOp candidate) {
    std::string error;
    FailureOr<std::string> ptx =
        compileGpuModuleToPtx(candidate, CudaArch(), error);
    EXPECT_TRUE(succeeded(ptx)) << error;
    return succeeded(ptx) ? *ptx : "";
  }
#endif

  MLIRContext context;
  HardwareProfile profile;
};

static bool contains(StringRef text, StringRef what) {
  return text.contains(what);
}

TEST_F(CudaSchedulesTest, FamiliesFollowTheOpClass) {
  auto families = [&](StringRef ir) {
    OwningOpRef<ModuleOp> problem = parse(ir);
    std::string whyNot;
    std::set<std::string> names;
    for (const CudaSchedule &s :
         enumerateCudaSchedules(*problem, profile, whyNot))
      names.insert(s.family);
    return names;
  };
  EXPECT_EQ(families(kMatmul), std::set<std::string>{"td-matmul"});
  // Batched and mixed-precision contractions are left to the CUDA C++
  // templates for now.
  EXPECT_TRUE(families(kMatmulF16).empty());
  EXPECT_TRUE(families(kBatchMatmul).empty());
  EXPECT_EQ(families(kBiasGelu), std::set<std::string>{"td-elementwise"});
  EXPECT_EQ(families(kRowSum), std::set<std::string>{"td-reduce"});
}

TEST_F(CudaSchedulesTest, MatmulScheduleStagesThroughSharedMemory) {
  OwningOpRef<ModuleOp> problem = parse(kMatmul);
  std::optional<CudaSchedule> schedule = first(*problem, "td-matmul");
  ASSERT_TRUE(schedule);
  EXPECT_EQ(schedule->get("promote"), 1);
  OwningOpRef<ModuleOp> candidate = apply(*problem, *schedule);
  ASSERT_TRUE(candidate);
  gpu::LaunchOp launch;
  (*candidate)->walk([&](gpu::LaunchOp op) { launch = op; });
  ASSERT_TRUE(launch);
  // A and B tiles live in dynamic shared memory; the block has
  // (bn / tn) x (bm / tm) threads.
  EXPECT_TRUE(launch.getDynamicSharedMemorySize());
  std::optional<int64_t> bx = getConstantIntValue(launch.getBlockSizeX());
  std::optional<int64_t> by = getConstantIntValue(launch.getBlockSizeY());
  ASSERT_TRUE(bx && by);
  EXPECT_EQ(*bx, schedule->get("bn") / schedule->get("tn"));
  EXPECT_EQ(*by, schedule->get("bm") / schedule->get("tm"));
  // The schedule is recorded on the entry.
  auto func = *(*candidate).getOps<func::FuncOp>().begin();
  auto record = func->getAttrOfType<ScheduleAttr>(kScheduleAttrName);
  ASSERT_TRUE(record);
  EXPECT_EQ(record.getFamily(), "td-matmul");
  EXPECT_TRUE(contains(record.getScript(), "transform.structured.promote"));
  // The recorded script is the one built for the schedule, printed.
  std::string error;
  FailureOr<std::string> script =
      renderCudaTransformScript(*problem, *schedule, error);
  ASSERT_TRUE(succeeded(script)) << error;
  EXPECT_EQ(record.getScript(), *script);
#ifdef STARK_ENABLE_CUDA
  std::string ptx = ptxOf(*candidate);
  EXPECT_TRUE(contains(ptx, ".shared")) << ptx;
  EXPECT_TRUE(contains(ptx, "bar.sync"));
  EXPECT_TRUE(contains(ptx, "ld.shared"));
  EXPECT_TRUE(contains(ptx, "st.shared"));
  EXPECT_TRUE(contains(ptx, "fma.rn.f32"));
  EXPECT_TRUE(contains(ptx, ".v4.b32")) << "no vector loads or stores";
#endif
}

TEST_F(CudaSchedulesTest, MatmulWithoutPromotionReadsGlobalMemory) {
  OwningOpRef<ModuleOp> problem = parse(kMatmul);
  CudaSchedule schedule;
  schedule.family = "td-matmul";
  schedule.params = {{"bm", 64}, {"bn", 64}, {"bk", 16},    {"tm", 4},
                     {"tn", 4},  {"ku", 4},  {"promote", 0}};
  OwningOpRef<ModuleOp> candidate = apply(*problem, schedule);
  ASSERT_TRUE(candidate);
  gpu::LaunchOp launch;
  (*candidate)->walk([&](gpu::LaunchOp op) { launch = op; });
  ASSERT_TRUE(launch);
  EXPECT_FALSE(launch.getDynamicSharedMemorySize());
#ifdef STARK_ENABLE_CUDA
  std::string ptx = ptxOf(*candidate);
  EXPECT_FALSE(contains(ptx, "ld.shared")) << ptx;
  EXPECT_TRUE(contains(ptx, "fma.rn.f32"));
#endif
}

TEST_F(CudaSchedulesTest, ElementwiseScheduleUsesVectorAccesses) {
  OwningOpRef<ModuleOp> problem = parse(kBiasGelu);
  std::optional<CudaSchedule> schedule = first(*problem, "td-elementwise");
  ASSERT_TRUE(schedule);
  EXPECT_EQ(schedule->get("vec"), 4);
  OwningOpRef<ModuleOp> candidate = apply(*problem, *schedule);
  ASSERT_TRUE(candidate);
#ifdef STARK_ENABLE_CUDA
  std::string ptx = ptxOf(*candidate);
  EXPECT_TRUE(contains(ptx, "ld.global.v4.b32")) << ptx;
  EXPECT_TRUE(contains(ptx, "st.global.v4.b32"));
#endif
}

TEST_F(CudaSchedulesTest, ReduceScheduleKeepsTheAccumulatorInRegisters) {
  OwningOpRef<ModuleOp> problem = parse(kRowSum);
  std::optional<CudaSchedule> schedule = first(*problem, "td-reduce");
  ASSERT_TRUE(schedule);
  OwningOpRef<ModuleOp> candidate = apply(*problem, *schedule);
  ASSERT_TRUE(candidate);
  // The output is read once before the reduction loop and written once
  // after it.
  int outputReads = 0, outputWrites = 0;
  Value output = (*(*candidate).getOps<func::FuncOp>().begin()).getArgument(1);
  for (Operation *user : output.getUsers()) {
    outputReads += user->getName().getStringRef().contains("read") ||
                   user->getName().getStringRef().contains("load");
    outputWrites += user->getName().getStringRef().contains("write") ||
                    user->getName().getStringRef().contains("store");
  }
  EXPECT_EQ(outputReads, 1);
  EXPECT_EQ(outputWrites, 1);
#ifdef STARK_ENABLE_CUDA
  std::string ptx = ptxOf(*candidate);
  EXPECT_TRUE(contains(ptx, "ld.global.v4.b32")) << ptx;
#endif
}

TEST_F(CudaSchedulesTest, ParametersThatDoNotFitAreRejected) {
  OwningOpRef<ModuleOp> problem = parse(kMatmul);
  CudaSchedule schedule;
  schedule.family = "td-matmul";
  schedule.params = {{"bm", 96}, {"bn", 64}, {"bk", 16},    {"tm", 4},
                     {"tn", 4},  {"ku", 4},  {"promote", 1}};
  std::string error;
  EXPECT_TRUE(failed(applyCudaSchedule(*problem, schedule, error)));
  EXPECT_TRUE(contains(error, "must divide")) << error;

  schedule.family = "td-reduce";
  error.clear();
  EXPECT_TRUE(failed(applyCudaSchedule(*problem, schedule, error)));
  EXPECT_TRUE(contains(error, "td-reduce")) << error;
}

TEST_F(CudaSchedulesTest, ConvolutionHasNoSchedule) {
  OwningOpRef<ModuleOp> problem = parse(R"mlir(
func.func @kernel(%x: memref<1x18x18x8xf32>, %w: memref<3x3x8x16xf32>,
                  %y: memref<1x16x16x16xf32>) {
  linalg.conv_2d_nhwc_hwcf ins(%x, %w : memref<1x18x18x8xf32>, memref<3x3x8x16xf32>)
                           outs(%y : memref<1x16x16x16xf32>)
  return
}
)mlir");
  std::string whyNot;
  EXPECT_TRUE(enumerateCudaSchedules(*problem, profile, whyNot).empty());
  EXPECT_TRUE(contains(whyNot, "projected permutations")) << whyNot;
  EXPECT_EQ(createCudaScheduleSpace(*problem, profile, whyNot), nullptr);
}

} // namespace
