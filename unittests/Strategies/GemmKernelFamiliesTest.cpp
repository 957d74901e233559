//===- GemmKernelFamiliesTest.cpp - gemm_f32 and gemm_3xtf32 --------------===//
//
// Needs no GPU: which contractions the two families over the embedded kernels
// (lib/Strategies/Kernels) take or decline and why, their parameter points
// against the hardware profiles, the addressing each source chooses (affine
// strides, 16-byte copies, decoded implicit-GEMM addresses), split-K where the
// output has too few tiles (and the counts it refuses), and every point's
// source compiled by NVRTC when the cuda target can load it.
//
//===----------------------------------------------------------------------===//

#include "CudaProblemTest.h"
#include "stark/Analysis/HardwareProfile.h"
#ifdef STARK_ENABLE_CUDA
#include "stark/Target/CudaCompile.h"
#endif

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::test;

namespace {

const char *kFamilies[] = {"gemm_f32", "gemm_3xtf32"};

const char *kMatmul1024 = R"mlir(
func.func @kernel(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>, %c: memref<1024x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<1024x1024xf32>)
  return
})mlir";

// A^T B^T with odd sizes: no tile divides, no stride allows vectors.
const char *kOddTransposed = R"mlir(
func.func @kernel(%a: memref<37x45xf32>, %b: memref<29x37xf32>, %c: memref<45x29xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<37x45xf32>, memref<29x37xf32>) outs(%c : memref<45x29xf32>)
  return
})mlir";

const char *kBatchMatmul = R"mlir(
func.func @kernel(%a: memref<3x100x64xf32>, %b: memref<3x64x72xf32>, %c: memref<3x100x72xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x100x64xf32>, memref<3x64x72xf32>) outs(%c : memref<3x100x72xf32>)
  return
})mlir";

// The suite's matmul_large_k: one 64 x 64 output tile, k = 131072.
const char *kLargeK = R"mlir(
func.func @kernel(%a: memref<64x131072xf32>, %b: memref<131072x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x131072xf32>, memref<131072x64xf32>) outs(%c : memref<64x64xf32>)
  return
})mlir";

// matmul_large_k at KernelBench's full shape: 16 tiles of 64 x 64.
const char *kLargeKFull = R"mlir(
func.func @kernel(%a: memref<256x524288xf32>, %b: memref<524288x256xf32>, %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x524288xf32>, memref<524288x256xf32>) outs(%c : memref<256x256xf32>)
  return
})mlir";

// The suite's matmul_tall_skinny: a large output, k = 2.
const char *kShallowK = R"mlir(
func.func @kernel(%a: memref<2048x2xf32>, %b: memref<2x2048xf32>, %c: memref<2048x2048xf32>) {
  linalg.matmul ins(%a, %b : memref<2048x2xf32>, memref<2x2048xf32>) outs(%c : memref<2048x2048xf32>)
  return
})mlir";

const char *kMatmulF16 = R"mlir(
func.func @kernel(%a: memref<64x32xf16>, %b: memref<32x16xf16>, %c: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x16xf16>) outs(%c : memref<64x16xf32>)
  return
})mlir";

const char *kAdd = R"mlir(
func.func @kernel(%x: memref<64xf32>, %y: memref<64xf32>, %z: memref<64xf32>) {
  linalg.add ins(%x, %y : memref<64xf32>, memref<64xf32>) outs(%z : memref<64xf32>)
  return
})mlir";

// A contraction with its epilogue (a fused problem): exp of the bias is
// computed before the matmul, so the problem's first input is the bias.
const char *kExpBiasMatmulTanh = R"mlir(
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1>} {
  func.func @kernel(%bias: memref<40xf32>, %a: memref<24x16xf32>, %b: memref<16x40xf32>, %out: memref<24x40xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = memref.alloc() : memref<40xf32>
    linalg.generic {indexing_maps = [affine_map<(n) -> (n)>, affine_map<(n) -> (n)>], iterator_types = ["parallel"]}
        ins(%bias : memref<40xf32>) outs(%e : memref<40xf32>) {
    ^bb0(%x: f32, %o: f32):
      %r = math.exp %x : f32
      linalg.yield %r : f32
    }
    %c = memref.alloc() : memref<24x40xf32>
    linalg.fill ins(%zero : f32) outs(%c : memref<24x40xf32>)
    linalg.matmul ins(%a, %b : memref<24x16xf32>, memref<16x40xf32>) outs(%c : memref<24x40xf32>)
    linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
        ins(%c, %e : memref<24x40xf32>, memref<40xf32>) outs(%out : memref<24x40xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      %r = math.tanh %s : f32
      linalg.yield %r : f32
    }
    memref.dealloc %e : memref<40xf32>
    memref.dealloc %c : memref<24x40xf32>
    return
  }
})mlir";

// A row sum of the matmul's result: a reduction after the contraction, over
// other loops than its k.
const char *kMatmulRowSum = R"mlir(
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1>} {
  func.func @kernel(%a: memref<24x16xf32>, %b: memref<16x40xf32>, %out: memref<24xf32>) {
    %zero = arith.constant 0.0 : f32
    %c = memref.alloc() : memref<24x40xf32>
    linalg.fill ins(%zero : f32) outs(%c : memref<24x40xf32>)
    linalg.matmul ins(%a, %b : memref<24x16xf32>, memref<16x40xf32>) outs(%c : memref<24x40xf32>)
    linalg.fill ins(%zero : f32) outs(%out : memref<24xf32>)
    linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
        ins(%c : memref<24x40xf32>) outs(%out : memref<24xf32>) {
    ^bb0(%x: f32, %o: f32):
      %r = arith.addf %x, %o : f32
      linalg.yield %r : f32
    }
    memref.dealloc %c : memref<24x40xf32>
    return
  }
})mlir";

class GemmKernelFamiliesTest : public test::CudaProblemTest {};

// The view of a contraction with its epilogue: the GEMM's A and B first
// among the inputs whatever the problem's argument order, the chain's
// output as C, the epilogue a program of the accumulator and the other
// inputs read at the output point.
TEST_F(GemmKernelFamiliesTest, EpilogueView) {
  ProblemView v = view(kExpBiasMatmulTanh);
  ASSERT_TRUE(v.epilogue);
  ASSERT_TRUE(v.contraction);
  EXPECT_FALSE(v.fused);
  EXPECT_EQ(v.opClass, OpClass::Contraction);
  const ContractionView &c = *v.contraction;
  EXPECT_EQ(c.m, 24);
  EXPECT_EQ(c.n, 40);
  EXPECT_EQ(c.k, 16);
  EXPECT_EQ(c.batch, 1);
  EXPECT_EQ(c.initValue, std::optional<double>(0.0));
  ASSERT_EQ(v.inputs.size(), 3u);
  EXPECT_EQ(v.inputs[0].argNumber, 1);
  EXPECT_EQ(v.inputs[1].argNumber, 2);
  EXPECT_EQ(v.inputs[2].argNumber, 0);
  ASSERT_EQ(v.outputs.size(), 1u);
  EXPECT_EQ(v.outputs[0].argNumber, 3);
  // The bias moves along n only; A and B along k, the output never.
  for (unsigned d : c.kLoops) {
    EXPECT_FALSE(v.inputs[2].access.dependsOn(d));
    EXPECT_FALSE(v.outputs[0].access.dependsOn(d));
  }
  for (unsigned d : c.mLoops)
    EXPECT_FALSE(v.inputs[2].access.dependsOn(d));
  const EpilogueView &e = *v.epilogue;
  EXPECT_EQ(e.accumulator, 3);
  EXPECT_EQ(e.numOps, 3);
  ASSERT_EQ(e.outputNodes.size(), 1u);
  SmallVector<bool> live = e.program.reachable(e.outputNodes);
  SmallVector<std::string> ops;
  SmallVector<int64_t> args;
  for (auto [i, node] : llvm::enumerate(e.program.nodes)) {
    if (!live[i])
      continue;
    ops.push_back(node.op);
    if (node.op == "arg")
      args.push_back(node.position);
  }
  EXPECT_TRUE(llvm::is_contained(ops, "math.exp"));
  EXPECT_TRUE(llvm::is_contained(ops, "math.tanh"));
  EXPECT_EQ(args, SmallVector<int64_t>({2, 3}));
  // Only the families whose store stage takes the epilogue (gemm_tc on f32
  // as tf32 only where allowed; the SIMT gemm through its store).
  EXPECT_EQ(getApplicableFamilies(v, false),
            SmallVector<std::string>(
                {"gemm_3xtf32", "gemm_wgmma_3xtf32", "gemm_f32", "gemm"}));
  EXPECT_EQ(
      getApplicableFamilies(v, true),
      SmallVector<std::string>(
          {"gemm_tc", "gemm_3xtf32", "gemm_wgmma_3xtf32", "gemm_f32", "gemm"}));
  std::string source =
      plan(v, "gemm_f32",
           enumerateParams("gemm_f32", v, *lookupHardwareProfile("h200"))[0])
          .source;
  EXPECT_TRUE(contains(source, "x2 = stark_widen(arg0[l1]);")) << source;
  EXPECT_TRUE(contains(source, "arg3[c_off(b, m, n)] = stark_cast<float>("))
      << source;
}

TEST_F(GemmKernelFamiliesTest, EpilogueDeclinesAReduction) {
  modules.push_back(parseSourceString<ModuleOp>(kMatmulRowSum, &context));
  ASSERT_TRUE(modules.back());
  std::string why;
  EXPECT_TRUE(failed(getProblemView(*modules.back(), why)));
  EXPECT_EQ(why, "fused chain: the reductions do not all reduce the same "
                 "loops");
}

TEST_F(GemmKernelFamiliesTest, AppliesToF32Contractions) {
  for (const char *ir : {kMatmul4096, kOddTransposed, kBatchMatmul, kConvNhwc,
                         kConvNchwStrided}) {
    ProblemView v = view(ir);
    for (const char *family : kFamilies) {
      std::string why;
      EXPECT_TRUE(succeeded(checkFamilyApplies(family, v, why)))
          << family << " on " << v.opName << ": " << why;
    }
    // Offered before the other GEMM families (only the reductions of
    // skinny shapes go first).
    SmallVector<std::string> order = getApplicableFamilies(v, false);
    auto at = [&](StringRef f) { return llvm::find(order, f) - order.begin(); };
    EXPECT_LT(at("gemm_3xtf32"), at("gemm_f32")) << v.opName;
    EXPECT_LT(at("gemm_f32"), at("gemm")) << v.opName;
    EXPECT_LT(at("gemm"), int64_t(order.size())) << v.opName;
    // Only the wgmma kernel (sm_90a, where it reads the operands) goes
    // before them, on problems of 2^28 multiply-adds or more whose output
    // fills its tiles (the 4096^3 matmul).
    const ContractionView &c = *v.contraction;
    double work = double(c.batch) * double(c.m) * double(c.n) * double(c.k);
    bool wgmmaFirst = !order.empty() && order.front() == "gemm_wgmma_3xtf32";
    if (wgmmaFirst)
      EXPECT_GE(work, double(int64_t(1) << 28)) << v.opName;
    else if (std::min(c.m, c.n) >= 16)
      EXPECT_EQ(order.front(), "gemm_3xtf32") << v.opName;
    if (ir == kMatmul4096)
      EXPECT_TRUE(wgmmaFirst);
  }
}

TEST_F(GemmKernelFamiliesTest, DeclinesWithReasons) {
  ProblemView f16 = view(kMatmulF16);
  ProblemView add = view(kAdd);
  for (const char *family : kFamilies) {
    std::string why;
    EXPECT_TRUE(failed(checkFamilyApplies(family, f16, why)));
    EXPECT_EQ(why, std::string(family) + " needs f32 operands and an f32 "
                                         "output");
    why.clear();
    EXPECT_TRUE(failed(checkFamilyApplies(family, add, why)));
    EXPECT_TRUE(contains(why, "not a contraction")) << why;
    EXPECT_TRUE(
        enumerateParams(family, f16, *lookupHardwareProfile("h200")).empty());
  }
  // Unknown parameters name the family's own.
  ProblemView v = view(kMatmul4096);
  std::string error;
  EXPECT_TRUE(failed(generateCudaKernel("gemm_f32", v, {{"warp", 2}}, error)));
  EXPECT_TRUE(contains(error, "has no parameter 'warp'")) << error;
  EXPECT_TRUE(
      failed(generateCudaKernel("gemm_3xtf32", v, {{"wm", 24}}, error)));
  EXPECT_TRUE(contains(error, "multiple of 16")) << error;
  EXPECT_TRUE(failed(generateCudaKernel("gemm_f32", v, {{"tm", 4}}, error)));
  EXPECT_TRUE(contains(error, "32 thread tiles")) << error;
}

// The best measured configurations lead for their problem sizes.
TEST_F(GemmKernelFamiliesTest, BestGuessFirst) {
  HardwareProfile h200 = *lookupHardwareProfile("h200");
  ProblemView big = view(kMatmul4096), mid = view(kMatmul1024);
  std::vector<TemplateParams> simt = enumerateParams("gemm_f32", big, h200);
  ASSERT_FALSE(simt.empty());
  EXPECT_EQ(simt.front(), (TemplateParams{{"bm", 128},
                                          {"bn", 256},
                                          {"bk", 8},
                                          {"wm", 32},
                                          {"wn", 128},
                                          {"tm", 8},
                                          {"tn", 16},
                                          {"stages", 4},
                                          {"group_m", 8},
                                          {"min_blocks", 1},
                                          {"split_k", 1}}));
  simt = enumerateParams("gemm_f32", mid, h200);
  ASSERT_FALSE(simt.empty());
  EXPECT_EQ(simt.front().at("bm"), 64);
  EXPECT_EQ(simt.front().at("bn"), 64);
  EXPECT_EQ(simt.front().at("tm"), 8);
  EXPECT_EQ(simt.front().at("tn"), 4);
  std::vector<TemplateParams> tc = enumerateParams("gemm_3xtf32", big, h200);
  ASSERT_FALSE(tc.empty());
  EXPECT_EQ(tc.front(), (TemplateParams{{"bm", 128},
                                        {"bn", 128},
                                        {"bk", 32},
                                        {"wm", 64},
                                        {"wn", 32},
                                        {"stages", 4},
                                        {"group_m", 8},
                                        {"split_k", 1}}));
  tc = enumerateParams("gemm_3xtf32", mid, h200);
  ASSERT_FALSE(tc.empty());
  EXPECT_EQ(tc.front().at("bm"), 64);
  EXPECT_EQ(tc.front().at("bn"), 64);
  // No cp.async before sm_80: nothing to offer.
  HardwareProfile old = h200;
  old.chip = "sm_75";
  for (const char *family : kFamilies)
    EXPECT_TRUE(enumerateParams(family, big, old).empty()) << family;
}

// Every point fits the profile and launches one block per output tile with
// the batch in grid.y.
TEST_F(GemmKernelFamiliesTest, PointsFitTheProfiles) {
  for (StringRef name : {"h200", "a100"}) {
    HardwareProfile profile = *lookupHardwareProfile(name);
    for (const char *ir : {kMatmul4096, kMatmul1024, kOddTransposed,
                           kBatchMatmul, kConvNhwc, kConvNchwStrided}) {
      ProblemView v = view(ir);
      const ContractionView &c = *v.contraction;
      for (const char *family : kFamilies) {
        std::vector<TemplateParams> sets = enumerateParams(family, v, profile);
        EXPECT_FALSE(sets.empty()) << family << " on " << v.opName;
        EXPECT_LE(sets.size(), 12u) << family;
        for (const TemplateParams &set : sets) {
          CudaKernelPlan p = plan(v, family, set);
          ASSERT_EQ(p.launches.size(), 1u);
          const CudaKernelPlan::Launch &l = p.launches[0];
          int64_t bm = set.at("bm"), bn = set.at("bn");
          EXPECT_EQ(l.grid[0], ((c.m + bm - 1) / bm) * ((c.n + bn - 1) / bn));
          EXPECT_EQ(l.grid[1], c.batch);
          EXPECT_EQ(l.block[0], (bm / set.at("wm")) * (bn / set.at("wn")) * 32);
          EXPECT_LE(l.block[0], profile.maxThreadsPerBlock);
          EXPECT_LE(l.sharedBytes, profile.sharedMemoryPerBlock)
              << family << " " << formatTemplateParams(set);
          EXPECT_EQ(l.sharedBytes, p.sharedBytesPerBlock);
        }
      }
    }
  }
}

// Plain strides take the affine fast path with 16-byte copies; odd strides
// keep the affine path with element copies; convolutions decode addresses.
TEST_F(GemmKernelFamiliesTest, AddressingFollowsTheLayout) {
  TemplateParams simt = {{"bm", 64}, {"bn", 64}, {"bk", 16}, {"wm", 32},
                         {"wn", 32}, {"tm", 8},  {"tn", 4}};
  ProblemView square = view(kMatmul1024);
  CudaKernelPlan p = plan(square, "gemm_f32", simt);
  EXPECT_TRUE(contains(p.source, "static constexpr bool kAffine = true;"));
  EXPECT_TRUE(contains(p.source, "return 0LL * b + 1024LL * m + 1LL * k + "
                                 "0LL;"));
  EXPECT_TRUE(contains(p.source, "gemmF32SimtBlock<StarkConfig, false, "
                                 "false, true, StarkLayout>(stark_gemm_params("
                                 "arg0, arg1, arg2));"));
  EXPECT_TRUE(contains(p.source, "p.alpha = 1.f, p.beta = 1.f;"));
  EXPECT_TRUE(contains(p.source, "p.splits = 1"));
  EXPECT_FALSE(contains(p.source, "#include \"GemmCommon.cuh\""));
  EXPECT_FALSE(contains(p.source, "#include <type_traits>"));

  ProblemView odd = view(kOddTransposed);
  p = plan(odd, "gemm_3xtf32", {});
  EXPECT_TRUE(contains(p.source, "static constexpr bool kAffine = true;"));
  // A stored K x M and B stored N x K, read in place.
  EXPECT_TRUE(contains(p.source, "return 0LL * b + 1LL * m + 45LL * k + "
                                 "0LL;"));
  EXPECT_TRUE(contains(p.source, "return 0LL * b + 1LL * k + 37LL * n + "
                                 "0LL;"));
  EXPECT_TRUE(contains(p.source, "gemm3xTf32Block<StarkConfig, true, true, "
                                 "false, StarkLayout>(stark_gemm_params("));

  ProblemView batch = view(kBatchMatmul);
  p = plan(batch, "gemm_f32", simt);
  EXPECT_TRUE(contains(p.source, "return 6400LL * b + 64LL * m + 1LL * k + "
                                 "0LL;"));
  EXPECT_EQ(p.launches[0].grid[1], 3);

  ProblemView conv = view(kConvNhwc);
  for (const char *family : kFamilies) {
    p = plan(conv, family, {});
    EXPECT_TRUE(contains(p.source, "static constexpr bool kAffine = false;"))
        << family;
    EXPECT_TRUE(contains(p.source, "namespace stark_addr {")) << family;
    EXPECT_TRUE(contains(p.source, "(long long)stark_addr::a_off(b, m, k)"))
        << family;
    EXPECT_TRUE(contains(p.source, ", false, StarkLayout>(stark_gemm_params("))
        << family;
  }
}

// Where no tile fills the SMs and k is long, the first points slice k: one
// wave of blocks (the counts measured best on the H200 for matmul_large_k),
// two launches, the slices in grid.y. Shapes whose tiles fill the GPU, and
// shallow k, keep one block per tile.
TEST_F(GemmKernelFamiliesTest, SplitKWhereTilesAreFew) {
  HardwareProfile h200 = *lookupHardwareProfile("h200");
  ProblemView largeK = view(kLargeK);
  const std::pair<const char *, int64_t> firstSplits[] = {{"gemm_3xtf32", 128},
                                                          {"gemm_f32", 131}};
  for (auto [family, first] : firstSplits) {
    std::vector<TemplateParams> sets = enumerateParams(family, largeK, h200);
    ASSERT_FALSE(sets.empty()) << family;
    EXPECT_EQ(sets.front().at("split_k"), first) << family;
    EXPECT_EQ(sets.front().at("bm"), 64) << family;
    EXPECT_EQ(sets.front().at("bn"), 64) << family;
    // Unsplit points remain, after every split one.
    auto unsplit = llvm::find_if(
        sets, [](const TemplateParams &s) { return s.at("split_k") == 1; });
    ASSERT_NE(unsplit, sets.end()) << family;
    EXPECT_TRUE(std::all_of(unsplit, sets.end(), [](const TemplateParams &s) {
      return s.at("split_k") == 1;
    })) << family;

    CudaKernelPlan p = plan(largeK, family, sets.front());
    ASSERT_EQ(p.launches.size(), 2u) << family;
    EXPECT_EQ(p.launches[0].grid[0], 1);
    EXPECT_EQ(p.launches[0].grid[1], first);
    EXPECT_EQ(p.launches[1].kernel, "stark_gemm_splitk_reduce");
    EXPECT_EQ(p.launches[1].block[0], 256);
    EXPECT_EQ(p.launches[1].sharedBytes, 0);
    EXPECT_GE(p.threadsPerBlock, 256);
    EXPECT_EQ(p.params.at("split_k"), std::to_string(first));
    EXPECT_TRUE(contains(p.source, "__device__ float stark_gemm_ws[SPLIT_K * "
                                   "BATCH * M * N];"));
    EXPECT_TRUE(contains(p.source, "p.ws = stark_gemm_ws;"));
  }
  // At the full shape the larger tiles lead, with fewer slices: 3xTF32
  // 128 x 128 in 33 slices, SIMT 128 x 256 in 66 (also measured best).
  ProblemView full = view(kLargeKFull);
  TemplateParams tc = enumerateParams("gemm_3xtf32", full, h200).front();
  EXPECT_EQ(tc.at("bm"), 128);
  EXPECT_EQ(tc.at("bn"), 128);
  EXPECT_EQ(tc.at("split_k"), 33);
  TemplateParams simt = enumerateParams("gemm_f32", full, h200).front();
  EXPECT_EQ(simt.at("bm"), 128);
  EXPECT_EQ(simt.at("bn"), 256);
  EXPECT_EQ(simt.at("split_k"), 66);

  // A batch multiplies the slices in grid.y.
  ProblemView batch = view(kBatchMatmul);
  CudaKernelPlan p = plan(batch, "gemm_f32",
                          {{"bm", 32},
                           {"bn", 32},
                           {"bk", 16},
                           {"wm", 32},
                           {"wn", 16},
                           {"tm", 4},
                           {"tn", 4},
                           {"split_k", 2}});
  EXPECT_EQ(p.launches[0].grid[1], 3 * 2);
  EXPECT_EQ(p.launches[1].grid[0], (3 * 100 * 72 + 255) / 256);

  for (const char *ir : {kMatmul4096, kMatmul1024, kShallowK, kOddTransposed,
                         kBatchMatmul, kConvNhwc, kConvNchwStrided}) {
    ProblemView v = view(ir);
    for (const char *family : kFamilies)
      for (const TemplateParams &set : enumerateParams(family, v, h200))
        EXPECT_EQ(set.at("split_k"), 1)
            << family << " " << formatTemplateParams(set) << " on " << v.opName;
  }
}

// Every count the kernels cannot run is refused with the reason.
TEST_F(GemmKernelFamiliesTest, SplitKRefusedWithReasons) {
  ProblemView largeK = view(kLargeK);
  auto refused = [&](const ProblemView &v, const char *family, int64_t splitK,
                     StringRef reason) {
    std::string error;
    EXPECT_TRUE(
        failed(generateCudaKernel(family, v, {{"split_k", splitK}}, error)))
        << family << " split_k=" << splitK;
    EXPECT_TRUE(contains(error, reason)) << error;
  };
  for (const char *family : kFamilies) {
    refused(largeK, family, 0, "split_k must be at least 1 (got 0)");
    refused(largeK, family, -3, "split_k must be at least 1 (got -3)");
  }
  // 4096 k tiles of 32 (3xtf32's default bk): 4000 slices would be one or
  // two tiles deep; slices of two cover k in 2048 already.
  refused(largeK, "gemm_3xtf32", 4097,
          "split_k = 4097 exceeds the 4096 k tiles of depth 32 (k = 131072)");
  refused(largeK, "gemm_3xtf32", 4000,
          "split_k = 4000 leaves slices empty: slices of whole k tiles of "
          "depth 32 are 64 deep and cover k = 131072 in 2048");
  refused(view(kManyBatches), "gemm_3xtf32", 64,
          "batch 2000 times split_k = 64 exceeds the grid's y limit (65535)");
  refused(view(kMatmul4096), "gemm_f32", 2,
          "split_k = 2 needs a workspace of 128 MiB for the partial sums "
          "(limit 64 MiB)");
  // The counts that do fit generate.
  std::string error;
  EXPECT_TRUE(succeeded(
      generateCudaKernel("gemm_3xtf32", largeK, {{"split_k", 2048}}, error)))
      << error;
  EXPECT_TRUE(succeeded(generateCudaKernel("gemm_3xtf32", view(kManyBatches),
                                           {{"split_k", 32}}, error)))
      << error;
}

#ifdef STARK_ENABLE_CUDA
/// NVRTC compiles `p` for sm_90a; false with a reason to skip when the
/// cuda target cannot load NVRTC here.
void expectCompiles(const CudaKernelPlan &p, const std::string &what,
                    bool &skip) {
  std::vector<std::string> names;
  for (const CudaKernelPlan::Launch &l : p.launches)
    names.push_back(l.kernel);
  std::string error;
  FailureOr<NvrtcOutput> out =
      compileCudaSourceWithNvrtc(p.source, names, "sm_90a", {}, error);
  if (failed(out) && contains(error, "NVRTC") && contains(error, "not found")) {
    skip = true;
    return;
  }
  EXPECT_TRUE(succeeded(out)) << what << "\n" << error;
}
#endif

// Every point of the big square problem, and the first points of every
// layout, compile (the kernels' static_asserts included).
TEST_F(GemmKernelFamiliesTest, SourcesCompileWithNvrtc) {
#ifndef STARK_ENABLE_CUDA
  GTEST_SKIP() << "the cuda target (NVRTC) is not built";
#else
  HardwareProfile h200 = *lookupHardwareProfile("h200");
  bool skip = false;
  for (const char *ir :
       {kMatmul4096, kMatmul1024, kOddTransposed, kBatchMatmul, kConvNhwc,
        kConvNchwStrided, kLargeK, kExpBiasMatmulTanh}) {
    ProblemView v = view(ir);
    for (const char *family : kFamilies) {
      std::vector<TemplateParams> sets = enumerateParams(family, v, h200);
      if (ir != kMatmul4096 && sets.size() > 2)
        sets.resize(2);
      for (const TemplateParams &set : sets) {
        expectCompiles(plan(v, family, set),
                       std::string(family) + " " + formatTemplateParams(set) +
                           " on " + v.opName,
                       skip);
        if (skip)
          GTEST_SKIP() << "NVRTC is not available";
      }
    }
  }
#endif
}

// gemm_tc's sources (GemmWmma.cuh and the generated config and store)
// compile with NVRTC, which refuses host functions that nvcc takes: f16
// operands, f32 as tf32, and an f32 matmul with an epilogue as tf32.
TEST_F(GemmKernelFamiliesTest, TensorCoreSourcesCompileWithNvrtc) {
#ifndef STARK_ENABLE_CUDA
  GTEST_SKIP() << "the cuda target (NVRTC) is not built";
#else
  HardwareProfile h200 = *lookupHardwareProfile("h200");
  EnumerateOptions tf32;
  tf32.allowTf32 = true;
  tf32.limit = 2;
  bool skip = false;
  for (auto [ir, options] :
       {std::pair<const char *, EnumerateOptions>{kMatmulF16, {false, 2}},
        {kMatmul1024, tf32},
        {kOddTransposed, tf32},
        {kExpBiasMatmulTanh, tf32}}) {
    ProblemView v = view(ir);
    std::vector<TemplateParams> sets =
        enumerateParams("gemm_tc", v, h200, options);
    EXPECT_FALSE(sets.empty()) << v.opName;
    for (const TemplateParams &set : sets) {
      expectCompiles(plan(v, "gemm_tc", set),
                     "gemm_tc " + formatTemplateParams(set) + " on " + v.opName,
                     skip);
      if (skip)
        GTEST_SKIP() << "NVRTC is not available";
    }
  }
#endif
}

} // namespace
