//===- GemmWgmmaFamilyTest.cpp - gemm_wgmma -------------------------------===//
//
// Needs no GPU: which contractions the Hopper wgmma family takes or declines
// and why, that it is offered only on sm_90a and before gemm_tc, how its
// parameters are checked, what its source and launch say, and that NVRTC
// compiles every point when the cuda target can load it.
//
//===----------------------------------------------------------------------===//

#include "CudaProblemTest.h"
#include "stark/Analysis/HardwareProfile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::test;

namespace {

const char *kMatmulBf16 = R"mlir(
func.func @kernel(%a: memref<4096x4096xbf16>, %b: memref<4096x4096xbf16>, %c: memref<4096x4096xf32>) {
  linalg.matmul ins(%a, %b : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%c : memref<4096x4096xf32>)
  return
})mlir";

// No size a multiple of the tile; f16 in and out; batched.
const char *kBatchOddF16 = R"mlir(
func.func @kernel(%a: memref<2x1000x520xf16>, %b: memref<2x520x1032xf16>, %c: memref<2x1000x1032xf16>) {
  linalg.batch_matmul ins(%a, %b : memref<2x1000x520xf16>, memref<2x520x1032xf16>) outs(%c : memref<2x1000x1032xf16>)
  return
})mlir";

const char *kMatmulF32 = R"mlir(
func.func @kernel(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
})mlir";

// A B^T: B is contiguous along k.
const char *kMatmulTransposeBBf16 = R"mlir(
func.func @kernel(%a: memref<256x128xbf16>, %b: memref<192x128xbf16>, %c: memref<256x192xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<256x128xbf16>, memref<192x128xbf16>) outs(%c : memref<256x192xf32>)
  return
})mlir";

// k = 100 is not a multiple of 8.
const char *kMatmulOddK = R"mlir(
func.func @kernel(%a: memref<256x100xbf16>, %b: memref<100x256xbf16>, %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x100xbf16>, memref<100x256xbf16>) outs(%c : memref<256x256xf32>)
  return
})mlir";

// f16 times bf16.
const char *kMatmulMixed = R"mlir(
func.func @kernel(%a: memref<256x256xf16>, %b: memref<256x256xbf16>, %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x256xf16>, memref<256x256xbf16>) outs(%c : memref<256x256xf32>)
  return
})mlir";

/// An f32 A B^T (a linear layer, B given as N x K), C filled with zero
/// first when `fill`.
std::string linearF32(int64_t m, int64_t n, int64_t k, bool fill = false) {
  auto memref = [](int64_t rows, int64_t cols) {
    return "memref<" + std::to_string(rows) + "x" + std::to_string(cols) +
           "xf32>";
  };
  std::string a = memref(m, k), b = memref(n, k), c = memref(m, n);
  std::string ir =
      "func.func @kernel(%a: " + a + ", %b: " + b + ", %c: " + c + ") {\n";
  if (fill)
    ir += "  %zero = arith.constant 0.0 : f32\n  linalg.fill ins(%zero : f32) "
          "outs(%c : " +
          c + ")\n";
  return ir +
         "  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
         "affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] "
         "ins(%a, %b : " +
         a + ", " + b + ") outs(%c : " + c + ")\n  return\n}\n";
}

// 8 x 16 tiles of 128 x 128, and 4 x 8.
const std::string kLinearF32 = linearF32(1024, 2048, 512);
const std::string kSmallLinearF32 = linearF32(512, 1000, 256);
// k = 102 is not a multiple of 4.
const std::string kLinearOddKF32 = linearF32(256, 256, 102);
// n = 301: C's rows are not aligned to pairs of f32.
const std::string kLinearOddNF32 = linearF32(200, 301, 256);
const std::string kFillLinearOddNF32 = linearF32(200, 301, 256, true);

class GemmWgmmaFamilyTest : public test::CudaProblemTest {};

TEST_F(GemmWgmmaFamilyTest, AppliesToRowMajorHalfContractions) {
  for (const char *ir : {kMatmulBf16, kBatchOddF16}) {
    ProblemView v = view(ir);
    std::string why;
    EXPECT_TRUE(succeeded(checkFamilyApplies("gemm_wgmma", v, why))) << why;
    // Offered after its TMA variant (whole arguments) and right before the
    // WMMA family.
    SmallVector<std::string> order = getApplicableFamilies(v, false);
    auto at = [&](StringRef f) { return llvm::find(order, f) - order.begin(); };
    EXPECT_EQ(order.front(), "gemm_wgmma_tma") << v.opName;
    EXPECT_EQ(at("gemm_wgmma_tma") + 1, at("gemm_wgmma")) << v.opName;
    EXPECT_EQ(at("gemm_wgmma") + 1, at("gemm_tc")) << v.opName;
  }
}

TEST_F(GemmWgmmaFamilyTest, DeclinesWithReasons) {
  struct Case {
    const char *ir, *why;
  };
  for (const Case &c :
       {Case{kMatmulF32, "gemm_wgmma needs both inputs f16 or both bf16"},
        Case{kMatmulMixed, "gemm_wgmma needs both inputs f16 or both bf16"},
        Case{kMatmulTransposeBBf16,
             "gemm_wgmma needs B contiguous along n (row-major B)"},
        Case{kMatmulOddK, "gemm_wgmma needs k and n multiples of 8"},
        Case{kConvNhwc, "gemm_wgmma needs both inputs f16 or both bf16"}}) {
    ProblemView v = view(c.ir);
    std::string why;
    EXPECT_TRUE(failed(checkFamilyApplies("gemm_wgmma", v, why))) << c.ir;
    EXPECT_EQ(why, c.why);
    SmallVector<std::string> order = getApplicableFamilies(v, false);
    EXPECT_FALSE(llvm::is_contained(order, "gemm_wgmma"));
    // The tensor-core problems among them still get gemm_tc.
    if (c.ir == kMatmulTransposeBBf16 || c.ir == kMatmulOddK)
      EXPECT_TRUE(llvm::is_contained(order, "gemm_tc"));
  }
}

TEST_F(GemmWgmmaFamilyTest, OnlySm90a) {
  ProblemView v = view(kMatmulBf16);
  HardwareProfile h200 = *lookupHardwareProfile("h200");
  std::vector<TemplateParams> sets = enumerateParams("gemm_wgmma", v, h200);
  ASSERT_FALSE(sets.empty());
  // The 4096^3 measurement's best first.
  EXPECT_EQ(sets.front().at("bn"), 256);
  EXPECT_EQ(sets.front().at("stages"), 4);
  for (const char *name : {"a100"}) {
    HardwareProfile other = *lookupHardwareProfile(name);
    EXPECT_TRUE(enumerateParams("gemm_wgmma", v, other).empty()) << name;
    EXPECT_FALSE(enumerateParams("gemm_tc", v, other).empty()) << name;
  }
  HardwareProfile plain90 = h200;
  plain90.chip = "sm_90";
  EXPECT_TRUE(enumerateParams("gemm_wgmma", v, plain90).empty());
}

TEST_F(GemmWgmmaFamilyTest, ValidatesParameters) {
  ProblemView v = view(kMatmulBf16);
  std::string error;
  EXPECT_TRUE(
      failed(generateCudaKernel("gemm_wgmma", v, {{"bn", 192}}, error)));
  EXPECT_EQ(error, "gemm_wgmma: bn must be 128 or 256");
  EXPECT_TRUE(
      failed(generateCudaKernel("gemm_wgmma", v, {{"stages", 1}}, error)));
  EXPECT_EQ(error, "gemm_wgmma: stages in [2, 8], group_m >= 1");
  EXPECT_TRUE(failed(generateCudaKernel("gemm_wgmma", v,
                                        {{"bn", 256}, {"stages", 5}}, error)));
  EXPECT_TRUE(contains(error, "5 stages of 128x256 need 247808 bytes of "
                              "shared memory (limit 232448)"))
      << error;
  EXPECT_TRUE(failed(generateCudaKernel("gemm_wgmma", v, {{"bm", 64}}, error)));
  EXPECT_TRUE(contains(error, "has no parameter 'bm'")) << error;
  // A problem it declines fails with the same reason.
  EXPECT_TRUE(
      failed(generateCudaKernel("gemm_wgmma", view(kMatmulF32), {}, error)));
  EXPECT_EQ(error, "gemm_wgmma needs both inputs f16 or both bf16");
}

TEST_F(GemmWgmmaFamilyTest, SourceAndLaunch) {
  ProblemView v = view(kBatchOddF16);
  CudaKernelPlan p = plan(v, "gemm_wgmma", {{"bn", 128}, {"stages", 5}});
  ASSERT_EQ(p.launches.size(), 1u);
  // ceil(1000 / 128) * ceil(1032 / 128) tiles, the batch in grid.y.
  EXPECT_EQ(p.launches[0].grid[0], 8 * 9);
  EXPECT_EQ(p.launches[0].grid[1], 2);
  EXPECT_EQ(p.launches[0].block[0], 384);
  EXPECT_EQ(p.launches[0].sharedBytes, 5 * (128 * 64 + 64 * 128) * 2 + 1024);
  EXPECT_TRUE(contains(p.source, "WgmmaConfig<128, 5, 8> StarkConfig;"));
  EXPECT_TRUE(contains(p.source, "stark_kernels::WgmmaArgs<__half, __half> "
                                 "p;"));
  EXPECT_TRUE(contains(p.source, "p.lda = 520LL, p.ldb = 1032LL, p.ldc = "
                                 "1032LL;"));
  EXPECT_TRUE(contains(p.source, "p.batchA = 520000LL, p.batchB = 536640LL, "
                                 "p.batchC = 1032000LL;"));
  EXPECT_TRUE(contains(p.source, "gemmWgmmaBlock<StarkConfig>(p);"));
}

TEST_F(GemmWgmmaFamilyTest, Tf32TakesLinearLayersFirstWhereTilesFillTheGpu) {
  auto order = [&](const std::string &ir) {
    ProblemView v = view(ir.c_str());
    std::string why;
    EXPECT_TRUE(succeeded(checkFamilyApplies("gemm_wgmma_3xtf32", v, why)))
        << why;
    return getApplicableFamilies(v, false);
  };
  auto at = [](ArrayRef<std::string> o, StringRef f) {
    return llvm::find(o, f) - o.begin();
  };
  // 128 tiles: before the mma.sync kernel; 32: right after it.
  SmallVector<std::string> big = order(kLinearF32);
  EXPECT_EQ(big.front(), "gemm_wgmma_3xtf32");
  EXPECT_EQ(at(big, "gemm_wgmma_3xtf32") + 1, at(big, "gemm_3xtf32"));
  SmallVector<std::string> small = order(kSmallLinearF32);
  EXPECT_EQ(small.front(), "gemm_3xtf32");
  EXPECT_EQ(at(small, "gemm_3xtf32") + 1, at(small, "gemm_wgmma_3xtf32"));
}

TEST_F(GemmWgmmaFamilyTest, Tf32DeclinesWithReasons) {
  struct Case {
    const char *ir, *why;
  };
  for (const Case &c :
       {Case{kMatmulTransposeBBf16,
             "gemm_wgmma_3xtf32 needs f32 inputs and output"},
        Case{kLinearOddKF32.c_str(),
             "gemm_wgmma_3xtf32 needs k a multiple of 4"},
        Case{kLinearOddNF32.c_str(), "gemm_wgmma_3xtf32 needs the rows of C "
                                     "aligned to two elements"}}) {
    ProblemView v = view(c.ir);
    std::string why;
    EXPECT_TRUE(failed(checkFamilyApplies("gemm_wgmma_3xtf32", v, why)))
        << c.ir;
    EXPECT_EQ(why, c.why);
    EXPECT_FALSE(llvm::is_contained(getApplicableFamilies(v, false),
                                    "gemm_wgmma_3xtf32"));
  }
}

// A row-major B (K x N) is copied by rows and split transposed: a fourth
// tile per stage, three stages at most, with two producer warpgroups.
TEST_F(GemmWgmmaFamilyTest, Tf32TakesRowMajorB) {
  ProblemView v = view(kMatmulF32);
  std::string why;
  EXPECT_TRUE(succeeded(checkFamilyApplies("gemm_wgmma_3xtf32", v, why)))
      << why;
  HardwareProfile h200 = *lookupHardwareProfile("h200");
  std::vector<TemplateParams> sets =
      enumerateParams("gemm_wgmma_3xtf32", v, h200);
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_EQ(sets.front().at("stages"), 3);
  EXPECT_EQ(sets.front().at("producers"), 2);
  CudaKernelPlan p = plan(v, "gemm_wgmma_3xtf32", sets.front());
  EXPECT_EQ(p.launches[0].sharedBytes, 3 * 4 * 128 * 32 * 4 + 1024);
  EXPECT_EQ(p.launches[0].block[0], 512);
  EXPECT_TRUE(
      contains(p.source, "WgmmaTf32Config<3, 8, true, 2> StarkConfig;"));
  // ldb is B's stride along k.
  EXPECT_TRUE(contains(p.source, "p.lda = 256LL, p.ldb = 256LL"));
  std::string error;
  EXPECT_TRUE(failed(
      generateCudaKernel("gemm_wgmma_3xtf32", v, {{"stages", 4}}, error)));
  EXPECT_EQ(error, "gemm_wgmma_3xtf32: stages in [3, 3] (B is K x N), "
                   "group_m >= 1, producers 1 or 2");
}

// A problem that fills C first is stored one element at a time: C's rows
// need no alignment.
TEST_F(GemmWgmmaFamilyTest, Tf32StoresOddRowsOfAFilledC) {
  std::string why;
  EXPECT_TRUE(succeeded(checkFamilyApplies(
      "gemm_wgmma_3xtf32", view(kFillLinearOddNF32.c_str()), why)))
      << why;
}

TEST_F(GemmWgmmaFamilyTest, Tf32OnlySm90aAndValidatesParameters) {
  ProblemView v = view(kLinearF32.c_str());
  HardwareProfile h200 = *lookupHardwareProfile("h200");
  std::vector<TemplateParams> sets =
      enumerateParams("gemm_wgmma_3xtf32", v, h200);
  // 1024 x 2048: 128 tiles for 132 SMs. Two slices of k would run two
  // waves of half the depth, no faster, so only the three unsplit sets
  // remain: four stages with two producer warpgroups first.
  ASSERT_EQ(sets.size(), 3u);
  EXPECT_EQ(sets.front().at("stages"), 4);
  EXPECT_EQ(sets.front().at("group_m"), 8);
  EXPECT_EQ(sets.front().at("producers"), 2);
  for (const TemplateParams &set : sets)
    EXPECT_EQ(set.at("split_k"), 1);
  EXPECT_TRUE(
      enumerateParams("gemm_wgmma_3xtf32", v, *lookupHardwareProfile("a100"))
          .empty());
  std::string error;
  EXPECT_TRUE(failed(
      generateCudaKernel("gemm_wgmma_3xtf32", v, {{"stages", 5}}, error)));
  EXPECT_EQ(error, "gemm_wgmma_3xtf32: stages in [3, 4], group_m >= 1, "
                   "producers 1 or 2");
  EXPECT_TRUE(failed(
      generateCudaKernel("gemm_wgmma_3xtf32", v, {{"producers", 3}}, error)));
  EXPECT_EQ(error, "gemm_wgmma_3xtf32: stages in [3, 4], group_m >= 1, "
                   "producers 1 or 2");
  // N x K: no copy of B's rows.
  EXPECT_TRUE(contains(plan(v, "gemm_wgmma_3xtf32", sets.front()).source,
                       "WgmmaTf32Config<4, 8, false, 2> StarkConfig;"));
}

TEST_F(GemmWgmmaFamilyTest, Tf32SourceAndLaunch) {
  ProblemView v = view(kSmallLinearF32.c_str());
  CudaKernelPlan p = plan(v, "gemm_wgmma_3xtf32", {{"stages", 4}});
  ASSERT_EQ(p.launches.size(), 1u);
  // ceil(512 / 128) * ceil(1000 / 128) tiles.
  EXPECT_EQ(p.launches[0].grid[0], 4 * 8);
  EXPECT_EQ(p.launches[0].grid[1], 1);
  EXPECT_EQ(p.launches[0].block[0], 384);
  EXPECT_EQ(p.launches[0].sharedBytes, 4 * 3 * 128 * 32 * 4 + 1024);
  EXPECT_TRUE(
      contains(p.source, "WgmmaTf32Config<4, 8, false, 1> StarkConfig;"));
  // Two producer warpgroups: 512 threads.
  CudaKernelPlan two =
      plan(v, "gemm_wgmma_3xtf32", {{"stages", 4}, {"producers", 2}});
  EXPECT_EQ(two.launches[0].block[0], 512);
  EXPECT_TRUE(
      contains(two.source, "WgmmaTf32Config<4, 8, false, 2> StarkConfig;"));
  // B's rows run along n: ldb is its stride along n (k = 256).
  EXPECT_TRUE(contains(p.source, "p.lda = 256LL, p.ldb = 256LL, p.ldc = "
                                 "1000LL;"));
  EXPECT_TRUE(contains(p.source, "gemmWgmmaTf32Block<StarkConfig>(p);"));
  // The split precedes the kernel that calls it.
  EXPECT_LT(p.source.find("void splitTf32"),
            p.source.find("wgmmaTf32SplitTile"));
}

// B shared by every batch (a weight, as torch's linear layers on 3-D
// inputs give it): A's and C's batches fold into m.
const char *kSharedWeightBf16 = R"mlir(
func.func @kernel(%a: memref<4x256x128xbf16>, %b: memref<128x512xbf16>, %c: memref<4x256x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<4x256x128xbf16>, memref<128x512xbf16>) outs(%c : memref<4x256x512xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
})mlir";

TEST_F(GemmWgmmaFamilyTest, TmaDeclinesWithReasons) {
  struct Case {
    const char *ir, *why;
  };
  for (const Case &c :
       {Case{kMatmulF32, "gemm_wgmma_tma needs both inputs f16 or both bf16"},
        Case{kMatmulTransposeBBf16,
             "gemm_wgmma_tma needs B contiguous along n (row-major B)"},
        Case{kMatmulOddK, "gemm_wgmma_tma needs k and n multiples of 8"}}) {
    ProblemView v = view(c.ir);
    std::string why;
    EXPECT_TRUE(failed(checkFamilyApplies("gemm_wgmma_tma", v, why))) << c.ir;
    EXPECT_EQ(why, c.why);
    EXPECT_FALSE(
        llvm::is_contained(getApplicableFamilies(v, false), "gemm_wgmma_tma"));
  }
}

// Persistent points first, one block per SM (132 on the H200); the last
// point has a block per tile.
TEST_F(GemmWgmmaFamilyTest, TmaOnlySm90aAndPersistentFirst) {
  ProblemView v = view(kMatmulBf16);
  HardwareProfile h200 = *lookupHardwareProfile("h200");
  std::vector<TemplateParams> sets = enumerateParams("gemm_wgmma_tma", v, h200);
  ASSERT_EQ(sets.size(), 7u);
  EXPECT_EQ(sets.front().at("bn"), 256);
  EXPECT_EQ(sets.front().at("stages"), 4);
  EXPECT_EQ(sets.front().at("blocks"), 132);
  EXPECT_EQ(
      llvm::count_if(
          sets, [](const TemplateParams &p) { return p.at("blocks") == 0; }),
      1);
  EXPECT_TRUE(
      enumerateParams("gemm_wgmma_tma", v, *lookupHardwareProfile("a100"))
          .empty());
  std::string error;
  EXPECT_TRUE(
      failed(generateCudaKernel("gemm_wgmma_tma", v, {{"blocks", -1}}, error)));
  EXPECT_EQ(error, "gemm_wgmma_tma: blocks in [0, 2^31)");
  EXPECT_TRUE(
      failed(generateCudaKernel("gemm_wgmma_tma", v, {{"bn", 96}}, error)));
  EXPECT_EQ(error, "gemm_wgmma_tma: bn must be 64, 128, 192 or 256");
  EXPECT_TRUE(
      failed(generateCudaKernel("gemm_wgmma_tma", v, {{"bm", 96}}, error)));
  EXPECT_EQ(error, "gemm_wgmma_tma: bm must be 64 or 128");
  // 8 stages of 128 x 128 do not fit a block; of 64 x 128 they do.
  EXPECT_TRUE(failed(generateCudaKernel("gemm_wgmma_tma", v,
                                        {{"bn", 128}, {"stages", 8}}, error)));
  EXPECT_TRUE(succeeded(generateCudaKernel(
      "gemm_wgmma_tma", v, {{"bm", 64}, {"bn", 128}, {"stages", 8}}, error)))
      << error;
  // The cp.async producer takes no 64- or 192-wide tile.
  EXPECT_TRUE(failed(generateCudaKernel("gemm_wgmma", v, {{"bn", 64}}, error)));
  EXPECT_EQ(error, "gemm_wgmma: bn must be 128 or 256");
}

// Where the widest tiles leave most SMs idle in their one round, the
// persistent grid of the tile that fills the round ranks first: 512 x 2048
// (a LLaMA block's projections) has 32 tiles of 128 x 256 and 128 of
// 128 x 64 for 132 SMs; 512 x 5632 has 88 of 128 x 256 and 120 of
// 128 x 192. (The 64-row tile is not enumerated before it is measured.)
TEST_F(GemmWgmmaFamilyTest, TmaWidthFillsTheSms) {
  HardwareProfile h200 = *lookupHardwareProfile("h200");
  auto first = [&](int64_t n, int64_t k) {
    std::string ir = llvm::formatv(R"mlir(
func.func @kernel(%a: memref<512x{1}xbf16>, %b: memref<{1}x{0}xbf16>, %c: memref<512x{0}xbf16>) {{
  linalg.matmul ins(%a, %b : memref<512x{1}xbf16>, memref<{1}x{0}xbf16>) outs(%c : memref<512x{0}xbf16>)
  return
})mlir",
                                   n, k)
                         .str();
    std::vector<TemplateParams> sets =
        enumerateParams("gemm_wgmma_tma", view(ir), h200);
    EXPECT_FALSE(sets.empty());
    return sets.empty() ? TemplateParams() : sets.front();
  };
  TemplateParams narrow = first(2048, 2048);
  EXPECT_EQ(narrow.at("bm"), 128);
  EXPECT_EQ(narrow.at("bn"), 64);
  EXPECT_EQ(narrow.at("blocks"), 128);
  TemplateParams wide = first(5632, 2048);
  EXPECT_EQ(wide.at("bm"), 128);
  EXPECT_EQ(wide.at("bn"), 192);
  EXPECT_EQ(wide.at("blocks"), 120);
  // 4096^3 keeps its measured best.
  TemplateParams square =
      enumerateParams("gemm_wgmma_tma", view(kMatmulBf16), h200).front();
  EXPECT_EQ(square.at("bn"), 256);
}

TEST_F(GemmWgmmaFamilyTest, TmaSourceLaunchAndTensorMaps) {
  ProblemView v = view(kBatchOddF16);
  CudaKernelPlan p =
      plan(v, "gemm_wgmma_tma", {{"bn", 128}, {"stages", 5}, {"blocks", 0}});
  ASSERT_EQ(p.launches.size(), 1u);
  const CudaKernelPlan::Launch &l = p.launches[0];
  // Every tile of both batches in grid.x.
  EXPECT_EQ(l.grid[0], 8 * 9 * 2);
  EXPECT_EQ(l.grid[1], 1);
  EXPECT_EQ(l.block[0], 384);
  ASSERT_EQ(l.tensorMaps.size(), 2u);
  EXPECT_EQ(l.tensorMaps[0].arg, 0);
  EXPECT_EQ(l.tensorMaps[0].shape, (std::vector<int64_t>{2, 1000, 520}));
  EXPECT_EQ(l.tensorMaps[0].box, (std::vector<int64_t>{1, 128, 64}));
  EXPECT_EQ(l.tensorMaps[1].arg, 1);
  EXPECT_EQ(l.tensorMaps[1].shape, (std::vector<int64_t>{2, 520, 1032}));
  EXPECT_EQ(l.tensorMaps[1].box, (std::vector<int64_t>{1, 64, 64}));
  EXPECT_TRUE(contains(p.source, "WgmmaTmaArgs<__half, __half> p;"));
  EXPECT_TRUE(contains(p.source, "const void* __restrict__ stark_map_a, const "
                                 "void* __restrict__ stark_map_b)"));
  EXPECT_TRUE(contains(p.source, "p.batches = (int)BATCH, p.aBroadcast = "
                                 "false, p.bBroadcast = false;"));
  EXPECT_TRUE(contains(p.source, "gemmWgmmaTmaBlock<StarkConfig>(p);"));
  // A 64-row tile: one consumer warpgroup, A's boxes 64 rows high, twice
  // the tiles along m.
  CudaKernelPlan low =
      plan(v, "gemm_wgmma_tma",
           {{"bm", 64}, {"bn", 128}, {"stages", 8}, {"blocks", 0}});
  EXPECT_EQ(low.launches[0].block[0], 256);
  EXPECT_EQ(low.launches[0].grid[0], 16 * 9 * 2);
  EXPECT_EQ(low.launches[0].tensorMaps[0].box,
            (std::vector<int64_t>{1, 64, 64}));
  EXPECT_EQ(low.launches[0].tensorMaps[1].box,
            (std::vector<int64_t>{1, 64, 64}));
  EXPECT_TRUE(contains(low.source, "WgmmaConfig<128, 8, 8, 0, 64>"));
  // A persistent grid never has more blocks than tiles.
  EXPECT_EQ(plan(v, "gemm_wgmma_tma", {{"bn", 128}, {"blocks", 500}})
                .launches[0]
                .grid[0],
            144);
  // The attribute carries the maps.
  std::string error;
  FailureOr<OwningOpRef<ModuleOp>> candidate =
      buildCudaCandidateModule(*modules.front(), p, error);
  ASSERT_TRUE(succeeded(candidate)) << error;
  std::string text;
  llvm::raw_string_ostream os(text);
  (*candidate)->print(os);
  EXPECT_TRUE(contains(text, "tensor_maps = [#stark.tensor_map<arg = 0, box = "
                             "array<i64: 1, 128, 64>, shape = array<i64: 2, "
                             "1000, 520>>, #stark.tensor_map<arg = 1"))
      << text;
}

TEST_F(GemmWgmmaFamilyTest, TmaMapsASharedWeightsBatchFoldedIntoM) {
  ProblemView v = view(kSharedWeightBf16);
  std::string why;
  ASSERT_TRUE(succeeded(checkFamilyApplies("gemm_wgmma_tma", v, why))) << why;
  CudaKernelPlan p = plan(v, "gemm_wgmma_tma", {});
  EXPECT_EQ(p.launches[0].tensorMaps[0].shape,
            (std::vector<int64_t>{1, 1024, 128}));
  EXPECT_EQ(p.launches[0].tensorMaps[1].shape,
            (std::vector<int64_t>{1, 128, 512}));
}

#ifdef STARK_ENABLE_CUDA
TEST_F(GemmWgmmaFamilyTest, TmaSourcesCompileWithNvrtc) {
  // The 64-row tile is not enumerated until it is measured on a GPU.
  expectSourcesCompile(
      "gemm_wgmma_tma", {kMatmulBf16, kBatchOddF16},
      {{{"bm", 64}, {"bn", 128}, {"stages", 8}, {"blocks", 132}}});
}

TEST_F(GemmWgmmaFamilyTest, Tf32SourcesCompileWithNvrtc) {
  expectSourcesCompile("gemm_wgmma_3xtf32", {kSmallLinearF32, kMatmulF32});
}

TEST_F(GemmWgmmaFamilyTest, SourcesCompileWithNvrtc) {
  expectSourcesCompile("gemm_wgmma", {kMatmulBf16, kBatchOddF16});
}
#endif

} // namespace
