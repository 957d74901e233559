//===- CandidateSpacesTest.cpp - Each target's strategy points build
//-------===//

#include "stark/Strategies/CandidateSpaces.h"
#include "stark/Eval/Evaluator.h"
#include "stark/Strategies/CpuStrategies.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace mlir::stark;

namespace {

constexpr const char *kMatmul = R"mlir(
  module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>} {
    func.func @kernel(%a: memref<256x128xf32>, %b: memref<128x64xf32>, %c: memref<256x64xf32>) {
      linalg.matmul ins(%a, %b : memref<256x128xf32>, memref<128x64xf32>)
                    outs(%c : memref<256x64xf32>)
      return
    }
  })mlir";

class CandidateSpacesTest : public ::testing::Test {
protected:
  CandidateSpacesTest() {
    DialectRegistry registry;
    registerEvalDialects(registry);
    registerCpuStrategyDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    problem = parseSourceString<ModuleOp>(kMatmul, &context);
  }
  MLIRContext context;
  OwningOpRef<ModuleOp> problem;
};

TEST_F(CandidateSpacesTest, CudaSpaceOffersTemplatesAndBuildsThem) {
  ASSERT_TRUE(problem);
  std::string why;
  std::unique_ptr<CandidateSpace> space = createCandidateSpace(
      "cuda", *problem, *lookupHardwareProfile("h200"), why);
  ASSERT_TRUE(space) << why;
  std::set<std::string> families;
  for (const StrategyPoint &p : space->getPoints())
    families.insert(p.family);
  EXPECT_TRUE(families.count("gemm"));
  // f32 without allow-tf32: no tensor-core family.
  EXPECT_FALSE(families.count("gemm_tc"));
  std::string error;
  FailureOr<std::string> text = space->build(space->getPoints()[0], error);
  ASSERT_TRUE(succeeded(text)) << error;
  OwningOpRef<ModuleOp> candidate =
      parseSourceString<ModuleOp>(*text, &context);
  ASSERT_TRUE(candidate);
  EXPECT_FALSE((*candidate)->hasAttr("stark.problem"));
  EXPECT_NE(text->find("stark.cuda"), std::string::npos);
  EXPECT_NE(text->find("__global__"), std::string::npos);
}

TEST_F(CandidateSpacesTest, CpuSpaceBuildsTransformedModules) {
  ASSERT_TRUE(problem);
  std::string why;
  HardwareProfile host = *lookupHardwareProfile("h200");
  host.simdBits = 256;
  std::unique_ptr<CandidateSpace> space =
      createCandidateSpace("cpu", *problem, host, why);
  ASSERT_TRUE(space) << why;
  std::string error;
  FailureOr<std::string> text = space->build(space->getPoints()[0], error);
  ASSERT_TRUE(succeeded(text)) << error;
  EXPECT_NE(text->find("vector."), std::string::npos);
  EXPECT_EQ(text->find("linalg.matmul"), std::string::npos);
}

/// The problem of an f32 `m` x `k` by `k` x `n` matmul.
static OwningOpRef<ModuleOp> parseMatmulProblem(MLIRContext &context, int64_t m,
                                                int64_t n, int64_t k) {
  std::string ir = llvm::formatv(
      R"mlir(
  module attributes {{stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>} {{
    func.func @kernel(%a: memref<{0}x{2}xf32>, %b: memref<{2}x{1}xf32>, %c: memref<{0}x{1}xf32>) {{
      linalg.matmul ins(%a, %b : memref<{0}x{2}xf32>, memref<{2}x{1}xf32>)
                    outs(%c : memref<{0}x{1}xf32>)
      return
    }
  })mlir",
      m, n, k);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(ir, &context);
  EXPECT_TRUE(module);
  return module;
}

/// The families of the cuda space of an f32 `m` x `k` by `k` x `n` matmul,
/// in the order of their points (what the search tries first).
static SmallVector<std::string> cudaFamilyOrder(MLIRContext &context, int64_t m,
                                                int64_t n, int64_t k) {
  OwningOpRef<ModuleOp> module = parseMatmulProblem(context, m, n, k);
  SmallVector<std::string> order;
  if (!module)
    return order;
  std::string why;
  std::unique_ptr<CandidateSpace> space = createCandidateSpace(
      "cuda", *module, *lookupHardwareProfile("h200"), why);
  EXPECT_TRUE(space) << why;
  if (space)
    for (const StrategyPoint &p : space->getPoints())
      if (!llvm::is_contained(order, p.family))
        order.push_back(p.family);
  return order;
}

// A shallow k leaves the pipelined kernels nothing to overlap: gemm's small
// tiles lead, as for the suite's matmul_small_k (k = 4) and
// matmul_tall_skinny (k = 2); a cube keeps the embedded kernels first.
TEST_F(CandidateSpacesTest, CudaGemmOrderFollowsTheShape) {
  for (int64_t k : {4, 2}) {
    SmallVector<std::string> order = cudaFamilyOrder(context, 2048, 2048, k);
    ASSERT_GE(order.size(), 3u) << k;
    EXPECT_EQ(order[0], "gemm") << k;
    auto at = [&](StringRef f) { return llvm::find(order, f) - order.begin(); };
    EXPECT_EQ(at("reduce_row"), 1) << k;
    EXPECT_EQ(at("reduce_col"), 2) << k;
    EXPECT_LT(at("gemm_3xtf32"), int64_t(order.size())) << k;
    EXPECT_LT(at("gemm_f32"), int64_t(order.size())) << k;
  }
  // 2^30 multiply-adds: the wgmma kernel (with slices of k for the 64
  // tiles) before gemm_3xtf32 on the H200, though it reads this row-major
  // B through its transposed split (512 x 2048 x 2048 with B K x N: 125
  // against 156 us, bench/results/2026-12-06i-h200/SUMMARY.md).
  SmallVector<std::string> order = cudaFamilyOrder(context, 1024, 1024, 1024);
  ASSERT_GE(order.size(), 4u);
  EXPECT_EQ(order[0], "gemm_wgmma_3xtf32");
  EXPECT_EQ(order[1], "gemm_3xtf32");
  EXPECT_EQ(order[2], "gemm_f32");
  EXPECT_EQ(order[3], "gemm");
}

// allow-tf32 puts plain tf32 tensor cores (gemm_tc) first for an f32
// matmul; without it they are not offered at all.
TEST_F(CandidateSpacesTest, AllowTf32OffersTensorCoresFirst) {
  ASSERT_TRUE(problem);
  std::string why;
  StrategyOptions options;
  options.allowTf32 = true;
  std::unique_ptr<CandidateSpace> space = createCandidateSpace(
      "cuda", *problem, *lookupHardwareProfile("h200"), why, options);
  ASSERT_TRUE(space) << why;
  ASSERT_FALSE(space->getPoints().empty());
  const StrategyPoint &first = space->getPoints().front();
  EXPECT_EQ(first.family, "gemm_tc");
  std::string error;
  FailureOr<std::string> text = space->build(first, error);
  ASSERT_TRUE(succeeded(text)) << error;
  EXPECT_NE(text->find("precision::tf32"), std::string::npos);
}

// The suite's matmul_large_k (one 64 x 64 output tile, k = 131072): the
// search's first point slices k over one wave of blocks, and so does a
// 1024-cube's.
TEST_F(CandidateSpacesTest, CudaLargeKLeadsWithSplitK) {
  auto firstPoint = [&](int64_t m, int64_t n, int64_t k) {
    OwningOpRef<ModuleOp> module = parseMatmulProblem(context, m, n, k);
    std::string why;
    std::unique_ptr<CandidateSpace> space = createCandidateSpace(
        "cuda", *module, *lookupHardwareProfile("h200"), why);
    EXPECT_TRUE(space) << why;
    return space ? space->getPoints().front() : StrategyPoint();
  };
  StrategyPoint largeK = firstPoint(64, 64, 131072);
  EXPECT_EQ(largeK.family, "gemm_3xtf32");
  EXPECT_EQ(largeK.params["split_k"], "128");
  // A 1024 x 1024 output has 64 tiles of 128 x 128 for 132 SMs: the wgmma
  // kernel leads with two slices of k (128 blocks, one wave).
  StrategyPoint cube = firstPoint(1024, 1024, 1024);
  EXPECT_EQ(cube.family, "gemm_wgmma_3xtf32");
  EXPECT_EQ(cube.params["split_k"], "2");
}

TEST_F(CandidateSpacesTest, UnknownTargetHasNoSpace) {
  std::string why;
  EXPECT_FALSE(createCandidateSpace("tpu", *problem,
                                    *lookupHardwareProfile("h200"), why));
  EXPECT_EQ(why, "no strategy families for target 'tpu'");
}

} // namespace
