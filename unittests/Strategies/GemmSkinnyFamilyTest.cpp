//===- GemmSkinnyFamilyTest.cpp - gemm_skinny -----------------------------===//
//
// Needs no GPU: where gemm_skinny stands among the families on products
// with a few rows or columns of output (first on a classifier's rows and
// on a few columns with an epilogue, after the matching reduction on a
// plain matrix-vector product, not at all where both sides are wide), the
// side it keeps whole (the transposed walk), the slices it proposes and
// every point's source compiled by NVRTC where the cuda target loads it.
//
//===----------------------------------------------------------------------===//

#include "CudaProblemTest.h"

#include "stark/Analysis/HardwareProfile.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::test;

namespace {

// Four rows times a K x N matrix (a classifier at batch 4).
const char *kFourRows = R"mlir(
func.func @kernel(%a: memref<4x2048xf32>, %b: memref<2048x1000xf32>, %c: memref<4x1000xf32>) {
  linalg.matmul ins(%a, %b : memref<4x2048xf32>, memref<2048x1000xf32>) outs(%c : memref<4x1000xf32>)
  return
})mlir";

// A plain matrix times a vector: 300 rows, one column.
const char *kMatvec = R"mlir(
func.func @kernel(%a: memref<300x1000xf32>, %x: memref<1000xf32>, %y: memref<300xf32>) {
  linalg.matvec ins(%a, %x : memref<300x1000xf32>, memref<1000xf32>) outs(%y : memref<300xf32>)
  return
})mlir";

// Three columns with a bias: a linear layer to three features.
const char *kThreeColumnsBias = R"mlir(
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.fill,linalg.matmul,linalg.generic)", shapes = "300x1024xf32,3x1024xf32,3xf32->300x3xf32", signature = "0">} {
  func.func @kernel(%a: memref<300x1024xf32>, %b: memref<3x1024xf32>, %bias: memref<3xf32>, %out: memref<300x3xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %c = memref.alloc() : memref<300x3xf32>
    linalg.fill ins(%cst : f32) outs(%c : memref<300x3xf32>)
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<300x1024xf32>, memref<3x1024xf32>) outs(%c : memref<300x3xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<300x3xf32>, memref<3xf32>) outs(%out : memref<300x3xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
    memref.dealloc %c : memref<300x3xf32>
    return
  }
})mlir";

// Twelve rows: where the GEMM tiles start to pay.
const char *kTwelveRows = R"mlir(
func.func @kernel(%a: memref<12x512xf32>, %b: memref<512x768xf32>, %c: memref<12x768xf32>) {
  linalg.matmul ins(%a, %b : memref<12x512xf32>, memref<512x768xf32>) outs(%c : memref<12x768xf32>)
  return
})mlir";

class GemmSkinnyFamilyTest : public CudaProblemTest {
protected:
  static int64_t at(ArrayRef<std::string> order, StringRef family) {
    return llvm::find(order, family) - order.begin();
  }
};

TEST_F(GemmSkinnyFamilyTest, FirstOnAFewRows) {
  SmallVector<std::string> order =
      getApplicableFamilies(view(kFourRows), false);
  ASSERT_FALSE(order.empty());
  EXPECT_EQ(order.front(), "gemm_skinny");
}

TEST_F(GemmSkinnyFamilyTest, AfterTheMatchingReductionOnAMatrixTimesAVector) {
  SmallVector<std::string> order = getApplicableFamilies(view(kMatvec), false);
  ASSERT_GE(order.size(), 2u);
  EXPECT_EQ(order[0], "reduce_row");
  EXPECT_EQ(order[1], "gemm_skinny");
}

TEST_F(GemmSkinnyFamilyTest, FirstOnAFewColumnsWithAnEpilogue) {
  ProblemView v = view(kThreeColumnsBias);
  ASSERT_TRUE(v.epilogue);
  SmallVector<std::string> order = getApplicableFamilies(v, false);
  ASSERT_FALSE(order.empty());
  EXPECT_EQ(order.front(), "gemm_skinny");
  // The transposed walk: the block keeps the three columns.
  std::vector<TemplateParams> sets =
      enumerateParams("gemm_skinny", v, *lookupHardwareProfile("h200"));
  ASSERT_FALSE(sets.empty());
  EXPECT_EQ(sets.front().at("bm"), 4);
  CudaKernelPlan p = plan(v, "gemm_skinny", sets.front());
  EXPECT_TRUE(contains(p.source, "SkinnyConfig<4, "));
  EXPECT_TRUE(contains(p.source, ", true> StarkConfig;")) << p.source;
}

TEST_F(GemmSkinnyFamilyTest, AfterTheGemmKernelsFromNineRows) {
  SmallVector<std::string> order =
      getApplicableFamilies(view(kTwelveRows), false);
  EXPECT_LT(at(order, "gemm_f32"), at(order, "gemm_skinny"));
  EXPECT_LT(at(order, "gemm_skinny"), int64_t(order.size()));
}

TEST_F(GemmSkinnyFamilyTest, DeclinesWhereBothSidesAreWide) {
  std::string why;
  EXPECT_TRUE(
      failed(checkFamilyApplies("gemm_skinny", view(kMatmul4096), why)));
  EXPECT_EQ(why, "gemm_skinny takes at most 16 rows or columns of output "
                 "(m = 4096, n = 4096)");
}

TEST_F(GemmSkinnyFamilyTest, SlicesFillTheDevice) {
  // 1000 columns are one strip of 1024 (256 threads of four): k = 2048 is
  // cut into as many slices as the H200's 132 SMs would take four blocks
  // each, at most: every slice at least two steps of k deep.
  ProblemView v = view(kFourRows);
  std::vector<TemplateParams> sets =
      enumerateParams("gemm_skinny", v, *lookupHardwareProfile("h200"));
  ASSERT_FALSE(sets.empty());
  EXPECT_EQ(sets[0].at("bn"), 1024);
  EXPECT_EQ(sets[0].at("bk"), 8);
  EXPECT_EQ(sets[0].at("split_k"), 128);
  for (const TemplateParams &set : sets) {
    EXPECT_LE(set.at("split_k") * 2 * set.at("bk"), 2048)
        << formatTemplateParams(set);
    CudaKernelPlan p = plan(v, "gemm_skinny", set);
    ASSERT_EQ(p.launches.size(), set.at("split_k") > 1 ? 2u : 1u);
    EXPECT_EQ(p.launches[0].grid[1], set.at("split_k"));
  }
  // The batch times the slices stays within grid.y.
  for (const TemplateParams &set : enumerateParams(
           "gemm_skinny", view(kManyBatches), *lookupHardwareProfile("h200")))
    EXPECT_LE(2000 * set.at("split_k"), 65535);
}

#ifdef STARK_ENABLE_CUDA
TEST_F(GemmSkinnyFamilyTest, EverySourceCompiles) {
  expectSourcesCompile("gemm_skinny",
                       {kFourRows, kMatvec, kThreeColumnsBias, kTwelveRows});
}
#endif

} // namespace
