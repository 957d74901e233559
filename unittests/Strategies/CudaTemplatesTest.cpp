//===- CudaTemplatesTest.cpp - CUDA template recognition and generation ---===//
//
// Needs no GPU: problem views, payload translation, parameter spaces against
// the hardware profiles, and every family's source compiled for sm_90a with
// nvcc (resource usage from ptxas -v) or, without nvcc, NVRTC.
//
//===----------------------------------------------------------------------===//

#include "CudaProblemTest.h"
#include "stark/Analysis/HardwareProfile.h"
#ifdef STARK_ENABLE_CUDA
#include "stark/Target/CudaCompile.h"
#include "stark/Target/PtxGuards.h"
#endif

#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::test;

namespace {

//===----------------------------------------------------------------------===//
// Problems
//===----------------------------------------------------------------------===//

const char *kMatmul = R"mlir(
func.func @kernel(%a: memref<64x32xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  return
})mlir";

// A^T B with odd sizes: nothing divides a tile.
const char *kMatmulTransposeA = R"mlir(
func.func @kernel(%a: memref<37x45xf32>, %b: memref<37x29xf32>, %c: memref<45x29xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<37x45xf32>, memref<37x29xf32>) outs(%c : memref<45x29xf32>)
  return
})mlir";

const char *kMatmulTransposeBF16 = R"mlir(
func.func @kernel(%a: memref<100x72xf16>, %b: memref<60x72xf16>, %c: memref<100x60xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<100x72xf16>, memref<60x72xf16>) outs(%c : memref<100x60xf32>)
  return
})mlir";

const char *kBatchMatmulBF16 = R"mlir(
func.func @kernel(%a: memref<4x128x64xbf16>, %b: memref<4x64x96xbf16>, %c: memref<4x128x96xbf16>) {
  linalg.batch_matmul ins(%a, %b : memref<4x128x64xbf16>, memref<4x64x96xbf16>) outs(%c : memref<4x128x96xbf16>)
  return
})mlir";

const char *kMatvec = R"mlir(
func.func @kernel(%a: memref<512x1024xf32>, %x: memref<1024xf32>, %y: memref<512xf32>) {
  linalg.matvec ins(%a, %x : memref<512x1024xf32>, memref<1024xf32>) outs(%y : memref<512xf32>)
  return
})mlir";

const char *kDepthwise = R"mlir(
func.func @kernel(%i: memref<1x10x10x8xf32>, %f: memref<3x3x8xf32>, %o: memref<1x8x8x8xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x10x10x8xf32>, memref<3x3x8xf32>) outs(%o : memref<1x8x8x8xf32>)
  return
})mlir";

const char *kMaxPool = R"mlir(
func.func @kernel(%i: memref<1x8x8x4xf32>, %w: memref<2x2xf32>, %o: memref<1x4x4x4xf32>) {
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%i, %w : memref<1x8x8x4xf32>, memref<2x2xf32>) outs(%o : memref<1x4x4x4xf32>)
  return
})mlir";

const char *kRowSum = R"mlir(
func.func @kernel(%x: memref<64x1000xf32>, %y: memref<64xf32>) {
  linalg.reduce ins(%x : memref<64x1000xf32>) outs(%y : memref<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
})mlir";

const char *kColMax = R"mlir(
func.func @kernel(%x: memref<300x130xf16>, %y: memref<130xf16>) {
  linalg.reduce ins(%x : memref<300x130xf16>) outs(%y : memref<130xf16>) dimensions = [0]
    (%in: f16, %acc: f16) {
      %s = arith.maximumf %in, %acc : f16
      linalg.yield %s : f16
    }
  return
})mlir";

// Sum of squares over everything: one row, split over blocks.
const char *kTotalSumSquares = R"mlir(
func.func @kernel(%x: memref<1024x1024xf32>, %y: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<1024x1024xf32>) outs(%y : memref<f32>) {
    ^bb0(%in: f32, %acc: f32):
      %sq = arith.mulf %in, %in : f32
      %s = arith.addf %acc, %sq : f32
      linalg.yield %s : f32
  }
  return
})mlir";

const char *kBroadcastGelu = R"mlir(
func.func @kernel(%x: memref<128x256xf32>, %b: memref<256xf32>, %y: memref<128x256xf32>) {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<128x256xf32>, memref<256xf32>) outs(%y : memref<128x256xf32>) {
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
})mlir";

const char *kReluF16Transpose = R"mlir(
func.func @kernel(%x: memref<33x65xf16>, %y: memref<65x33xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<33x65xf16>) outs(%y : memref<65x33xf16>) {
    ^bb0(%in: f16, %out: f16):
      %c = arith.cmpf ogt, %in, %zero : f16
      %r = arith.select %c, %in, %zero : f16
      linalg.yield %r : f16
  }
  return
})mlir";

const char *kFill = R"mlir(
func.func @kernel(%y: memref<1000xf32>) {
  %c = arith.constant 2.5 : f32
  linalg.fill ins(%c : f32) outs(%y : memref<1000xf32>)
  return
})mlir";

const char *kUnsupportedBody = R"mlir(
func.func @kernel(%x: memref<64xi32>, %y: memref<64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<64xi32>) outs(%y : memref<64xi32>) {
    ^bb0(%in: i32, %out: i32):
      %r = math.ctlz %in : i32
      linalg.yield %r : i32
  }
  return
})mlir";

const char *kSoftmax = R"mlir(
func.func @kernel(%x: memref<32x1000xf32>, %y: memref<32x1000xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<32x1000xf32>) outs(%y : memref<32x1000xf32>)
  return
})mlir";

const char *kSoftmaxLong = R"mlir(
func.func @kernel(%x: memref<8x24576xf32>, %y: memref<8x24576xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<8x24576xf32>) outs(%y : memref<8x24576xf32>)
  return
})mlir";

const char *kSoftmaxStridedF16 = R"mlir(
func.func @kernel(%x: memref<4x77x50xf16>, %y: memref<4x77x50xf16>) {
  linalg.softmax dimension(1) ins(%x : memref<4x77x50xf16>) outs(%y : memref<4x77x50xf16>)
  return
})mlir";

// Layer norm over 64 x 128 with gamma and beta, eps 1e-5, the mean taken
// by multiplying with 1/128 (a fused problem: stark.problem is needed).
const char *kLayerNorm = R"mlir(
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1>} {
func.func @kernel(%x: memref<64x128xf32>, %g: memref<128xf32>, %b: memref<128xf32>, %y: memref<64x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 7.812500e-03 : f32
  %eps = arith.constant 1.0e-5 : f32
  %sum = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x128xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%v: f32, %a: f32):
    %t = arith.addf %v, %a : f32
    linalg.yield %t : f32
  }
  %sq = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%sq : memref<64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : memref<64x128xf32>, memref<64xf32>) outs(%sq : memref<64xf32>) {
  ^bb0(%v: f32, %s: f32, %a: f32):
    %m = arith.mulf %inv, %s : f32
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %t = arith.addf %a, %d2 : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %sq, %g, %b : memref<64x128xf32>, memref<64xf32>, memref<64xf32>, memref<128xf32>, memref<128xf32>) outs(%y : memref<64x128xf32>) {
  ^bb0(%v: f32, %s: f32, %q: f32, %gv: f32, %bv: f32, %o: f32):
    %m = arith.mulf %inv, %s : f32
    %var = arith.mulf %q, %inv : f32
    %ve = arith.addf %eps, %var : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %v, %m : f32
    %t = arith.mulf %gv, %d : f32
    %u = arith.mulf %t, %r : f32
    %w = arith.addf %bv, %u : f32
    linalg.yield %w : f32
  }
  memref.dealloc %sum : memref<64xf32>
  memref.dealloc %sq : memref<64xf32>
  return
}
})mlir";

class CudaTemplatesTest : public test::CudaProblemTest {};

//===----------------------------------------------------------------------===//
// Recognition
//===----------------------------------------------------------------------===//

TEST_F(CudaTemplatesTest, MatmulView) {
  ProblemView v = view(kMatmul);
  EXPECT_EQ(v.opClass, OpClass::Contraction);
  ASSERT_TRUE(v.contraction);
  const ContractionView &c = *v.contraction;
  EXPECT_EQ(c.m, 64);
  EXPECT_EQ(c.n, 16);
  EXPECT_EQ(c.k, 32);
  EXPECT_EQ(c.batch, 1);
  EXPECT_FALSE(c.transposeA);
  EXPECT_FALSE(c.transposeB);
  EXPECT_EQ(c.mLoops, SmallVector<unsigned>({0}));
  EXPECT_EQ(c.nLoops, SmallVector<unsigned>({1}));
  EXPECT_EQ(c.kLoops, SmallVector<unsigned>({2}));
  // A[m, k] is at 32 * m + k.
  EXPECT_EQ(v.inputs[0].access.coefficients, SmallVector<int64_t>({32, 0, 1}));
  EXPECT_EQ(v.argKinds.size(), 3u);
  EXPECT_EQ(v.numOutputArgs, 1u);
  // The payload is a reduction too (out + a * b), so matvec-like shapes can
  // use the reduction kernels.
  ASSERT_TRUE(v.reduction);
  EXPECT_EQ(v.reduction->combiner, "add");
}

TEST_F(CudaTemplatesTest, FillMatmulViewStartsFromTheFill) {
  // The fill is the problem's: the view is the matmul's, starting from 0.
  ProblemView v = view(R"mlir(
func.func @kernel(%a: memref<64x32xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x16xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  return
})mlir");
  EXPECT_EQ(v.opName, "linalg.matmul");
  ASSERT_TRUE(v.initValue);
  EXPECT_EQ(*v.initValue, 0.0);
  ASSERT_TRUE(v.contraction);
  EXPECT_EQ(v.contraction->initValue, v.initValue);
  EXPECT_EQ(v.contraction->m, 64);
  EXPECT_EQ(v.numOutputArgs, 1u);
  // A plain matmul accumulates into what C holds.
  ProblemView plain = view(kMatmul);
  EXPECT_FALSE(plain.initValue);
  ASSERT_TRUE(plain.contraction);
  EXPECT_FALSE(plain.contraction->initValue);

  // Any constant; convolutions too.
  ProblemView conv = view(R"mlir(
func.func @kernel(%i: memref<2x18x18x16xf32>, %f: memref<3x3x16x32xf32>, %o: memref<2x16x16x32xf32>) {
  %init = arith.constant 1.5 : f32
  linalg.fill ins(%init : f32) outs(%o : memref<2x16x16x32xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<2x18x18x16xf32>, memref<3x3x16x32xf32>) outs(%o : memref<2x16x16x32xf32>)
  return
})mlir");
  ASSERT_TRUE(conv.contraction);
  EXPECT_EQ(conv.contraction->initValue, std::optional<double>(1.5));

  // A fill of another buffer is not the matmul's: two unrelated ops.
  modules.push_back(parseSourceString<ModuleOp>(R"mlir(
func.func @kernel(%a: memref<64x32xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32>, %d: memref<64x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%d : memref<64x16xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  return
})mlir",
                                                &context));
  ASSERT_TRUE(modules.back());
  std::string why;
  EXPECT_TRUE(failed(getProblemView(*modules.back(), why)));
}

TEST_F(CudaTemplatesTest, FillMatmulKernelsWriteC) {
  ProblemView v = view(R"mlir(
func.func @kernel(%a: memref<256x128xf32>, %b: memref<128x256xf32>, %c: memref<256x256xf32>) {
  %init = arith.constant 2.0 : f32
  linalg.fill ins(%init : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul ins(%a, %b : memref<256x128xf32>, memref<128x256xf32>) outs(%c : memref<256x256xf32>)
  return
})mlir");
  ASSERT_TRUE(v.initValue);
  const HardwareProfile &h200 = *lookupHardwareProfile("h200");
  // Every GEMM family starts C from the fill value without reading it.
  for (StringRef family : {"gemm", "gemm_tc", "gemm_f32", "gemm_3xtf32"}) {
    std::vector<TemplateParams> sets =
        enumerateParams(family, v, h200, EnumerateOptions{true, 1});
    ASSERT_FALSE(sets.empty()) << family.str();
    CudaKernelPlan p = plan(v, family, sets.front());
    EXPECT_TRUE(contains(p.source, "constexpr bool C_FROM_INIT = true;"))
        << family.str();
    EXPECT_TRUE(contains(p.source, "constexpr float C_INIT = 2.0f;"))
        << family.str();
  }
  ProblemView plain = view(kMatmul4096);
  CudaKernelPlan accumulate =
      plan(plain, "gemm_f32", enumerateParams("gemm_f32", plain, h200).front());
  EXPECT_TRUE(contains(accumulate.source, "C_FROM_INIT = false;"));
  EXPECT_TRUE(contains(accumulate.source, "p.beta = 1.f;"));
  CudaKernelPlan write =
      plan(v, "gemm_f32", enumerateParams("gemm_f32", v, h200).front());
  EXPECT_TRUE(contains(write.source, "p.beta = 0.f, p.init = C_INIT;"));

  // direct starts each output's accumulator from the fill value; the
  // reductions write fill (+) sum (stark-template.mlir shows a family that
  // would read C refusing the problem).
  std::string why;
  ASSERT_TRUE(succeeded(checkFamilyApplies("reduce_row", v, why))) << why;
  CudaKernelPlan rowPlan =
      plan(v, "reduce_row", enumerateParams("reduce_row", v, h200).front());
  EXPECT_TRUE(contains(rowPlan.source, "storeFromInit<StarkCombine>("));
  EXPECT_FALSE(contains(rowPlan.source, "accumulateInto<StarkCombine>(arg2"));
  FailureOr<CudaKernelPlan> direct = generateCudaKernel("direct", v, {}, why);
  ASSERT_TRUE(succeeded(direct)) << why;
  EXPECT_TRUE(contains(direct->source, "float acc0 = 2.0f;"));
  EXPECT_FALSE(contains(direct->source, "stark_widen(arg2[o0])"));
  SmallVector<std::string> families = getApplicableFamilies(v, true);
  llvm::sort(families);
  EXPECT_EQ(families,
            SmallVector<std::string>(
                {"direct", "gemm", "gemm_3xtf32", "gemm_f32", "gemm_tc",
                 "gemm_wgmma_3xtf32", "reduce_col", "reduce_row"}));
}

TEST_F(CudaTemplatesTest, TransposedMatmulViews) {
  ProblemView ta = view(kMatmulTransposeA);
  ASSERT_TRUE(ta.contraction);
  EXPECT_TRUE(ta.contraction->transposeA);
  EXPECT_FALSE(ta.contraction->transposeB);
  EXPECT_EQ(ta.contraction->m, 45);
  EXPECT_EQ(ta.contraction->n, 29);
  EXPECT_EQ(ta.contraction->k, 37);

  ProblemView tb = view(kMatmulTransposeBF16);
  ASSERT_TRUE(tb.contraction);
  EXPECT_FALSE(tb.contraction->transposeA);
  EXPECT_TRUE(tb.contraction->transposeB);
  EXPECT_EQ(tb.contraction->aKind, ElementKind::F16);
  EXPECT_EQ(tb.contraction->cKind, ElementKind::F32);
}

TEST_F(CudaTemplatesTest, BatchMatmulAndMatvecViews) {
  ProblemView b = view(kBatchMatmulBF16);
  ASSERT_TRUE(b.contraction);
  EXPECT_EQ(b.contraction->batch, 4);
  EXPECT_EQ(b.contraction->batchLoops, SmallVector<unsigned>({0}));
  EXPECT_EQ(b.contraction->m, 128);
  EXPECT_EQ(b.contraction->n, 96);
  EXPECT_EQ(b.contraction->k, 64);

  ProblemView mv = view(kMatvec);
  ASSERT_TRUE(mv.contraction);
  EXPECT_EQ(mv.contraction->m, 512);
  EXPECT_EQ(mv.contraction->n, 1);
  EXPECT_TRUE(mv.contraction->nLoops.empty());
  ASSERT_TRUE(mv.reduction);
  EXPECT_TRUE(mv.reduction->innerContiguous);
  // A bandwidth-bound shape goes to the row reduction first.
  EXPECT_EQ(getApplicableFamilies(mv).front(), "reduce_row");
}

TEST_F(CudaTemplatesTest, ConvolutionViews) {
  ProblemView v = view(kConvNhwc);
  EXPECT_EQ(v.opClass, OpClass::Convolution);
  ASSERT_TRUE(v.convolution);
  EXPECT_FALSE(v.convolution->depthwise);
  EXPECT_EQ(v.convolution->outputImage.size(), 2u);
  EXPECT_EQ(v.convolution->filterLoop.size(), 2u);
  EXPECT_EQ(v.convolution->strides, SmallVector<int64_t>({1, 1}));
  // Implicit GEMM: m = N * OH * OW, n = F, k = KH * KW * C.
  ASSERT_TRUE(v.contraction);
  EXPECT_EQ(v.contraction->m, 2 * 16 * 16);
  EXPECT_EQ(v.contraction->n, 32);
  EXPECT_EQ(v.contraction->k, 3 * 3 * 16);
  EXPECT_EQ(v.contraction->kLoops.size(), 3u);
  // An f32 convolution goes to the embedded GEMM kernels first (3xTF32 on
  // wgmma over an im2col workspace after the mma.sync kernel, the problem
  // being small), then to the generated SIMT GEMM.
  SmallVector<std::string> families = getApplicableFamilies(v);
  ASSERT_GE(families.size(), 4u);
  EXPECT_EQ(families[0], "gemm_3xtf32");
  EXPECT_EQ(families[1], "gemm_wgmma_3xtf32");
  EXPECT_EQ(families[2], "gemm_f32");
  EXPECT_EQ(families[3], "gemm");

  ProblemView strided = view(kConvNchwStrided);
  ASSERT_TRUE(strided.convolution);
  EXPECT_EQ(strided.convolution->strides, SmallVector<int64_t>({2, 2}));
  ASSERT_TRUE(strided.contraction);
  EXPECT_EQ(strided.contraction->m, 64);
  EXPECT_EQ(strided.contraction->n, 8);
  EXPECT_EQ(strided.contraction->k, 27);

  // Depthwise is a contraction batched over channels with n = 1: correct
  // as a GEMM but a waste of tiles, so only the direct and per-output
  // reduction kernels are proposed.
  ProblemView dw = view(kDepthwise);
  ASSERT_TRUE(dw.convolution);
  EXPECT_TRUE(dw.convolution->depthwise);
  ASSERT_TRUE(dw.contraction);
  EXPECT_EQ(dw.contraction->batch, 8);
  EXPECT_EQ(dw.contraction->n, 1);
  EXPECT_EQ(getApplicableFamilies(dw),
            SmallVector<std::string>({"direct", "reduce_col"}));
  std::string why;
  ProblemView ew = view(kBroadcastGelu);
  EXPECT_TRUE(failed(checkFamilyApplies("gemm", ew, why)));
  EXPECT_NE(why.find("not a contraction"), std::string::npos) << why;

  ProblemView pool = view(kMaxPool);
  EXPECT_EQ(pool.opClass, OpClass::Pooling);
  ASSERT_TRUE(pool.reduction);
  EXPECT_EQ(pool.reduction->combiner, "max");
  EXPECT_TRUE(succeeded(checkFamilyApplies("direct", pool, why))) << why;
}

TEST_F(CudaTemplatesTest, ReductionViews) {
  ProblemView row = view(kRowSum);
  EXPECT_EQ(row.opClass, OpClass::Reduction);
  ASSERT_TRUE(row.reduction);
  EXPECT_EQ(row.reduction->combiner, "add");
  EXPECT_EQ(row.reduction->reducedLoops, SmallVector<unsigned>({1}));
  EXPECT_EQ(row.reduction->rows, 64);
  EXPECT_EQ(row.reduction->length, 1000);
  EXPECT_TRUE(row.reduction->innerContiguous);
  EXPECT_EQ(getApplicableFamilies(row).front(), "reduce_row");

  ProblemView col = view(kColMax);
  ASSERT_TRUE(col.reduction);
  EXPECT_EQ(col.reduction->combiner, "max");
  EXPECT_EQ(col.reduction->reducedLoops, SmallVector<unsigned>({0}));
  EXPECT_FALSE(col.reduction->innerContiguous);
  // f16 accumulates in f32.
  EXPECT_EQ(col.reduction->accumulatorKind, ElementKind::F32);
  EXPECT_EQ(getApplicableFamilies(col).front(), "reduce_col");

  ProblemView all = view(kTotalSumSquares);
  ASSERT_TRUE(all.reduction);
  EXPECT_EQ(all.reduction->rows, 1);
  EXPECT_EQ(all.reduction->length, 1024 * 1024);
  EXPECT_TRUE(all.reduction->innerContiguous);
}

TEST_F(CudaTemplatesTest, ElementwiseViewWithBroadcast) {
  ProblemView v = view(kBroadcastGelu);
  EXPECT_EQ(v.opClass, OpClass::Elementwise);
  ASSERT_TRUE(v.body);
  // The bias is indexed by j only.
  EXPECT_EQ(v.inputs[1].access.coefficients, SmallVector<int64_t>({0, 1}));
  EXPECT_EQ(v.inputs[0].access.coefficients, SmallVector<int64_t>({256, 1}));
  // Captured constants become nodes of the payload.
  EXPECT_EQ(llvm::count_if(v.body->nodes,
                           [](const ScalarNode &n) { return n.op == "const"; }),
            3);
  EXPECT_FALSE(v.body->usesArg(2));
  EXPECT_EQ(getApplicableFamilies(v).front(), "elementwise");

  ProblemView fill = view(kFill);
  ASSERT_TRUE(fill.body);
  EXPECT_EQ(fill.body->nodes[fill.body->yields[0]].op, "const");
  EXPECT_EQ(fill.inputs[0].argNumber, -1);
  EXPECT_EQ(getApplicableFamilies(fill).front(), "elementwise");
}

TEST_F(CudaTemplatesTest, SoftmaxViews) {
  ProblemView v = view(kSoftmax);
  EXPECT_TRUE(v.isSoftmax);
  ASSERT_TRUE(v.softmax);
  EXPECT_EQ(v.softmax->rows, 32);
  EXPECT_EQ(v.softmax->length, 1000);
  EXPECT_EQ(v.softmax->inner, 1);
  // Rows of 1000: the online kernel first, then the decomposition.
  EXPECT_EQ(getApplicableFamilies(v),
            SmallVector<std::string>({"softmax", "fused_rows"}));
  // The decomposition: a maxnum and a sum over the softmax dimension.
  ASSERT_TRUE(v.fused);
  ASSERT_EQ(v.fused->reductions.size(), 2u);
  EXPECT_EQ(v.fused->reductions[0].combiner, "maxnum");
  EXPECT_EQ(v.fused->reductions[1].combiner, "add");
  EXPECT_EQ(v.fused->rows, 32);
  EXPECT_EQ(v.fused->length, 1000);
  EXPECT_EQ(v.fused->columnLoops, SmallVector<unsigned>({1}));

  // Long contiguous rows: the walks over a row in shared memory first.
  EXPECT_EQ(getApplicableFamilies(view(kSoftmaxLong)),
            SmallVector<std::string>({"fused_rows", "softmax"}));

  ProblemView s = view(kSoftmaxStridedF16);
  ASSERT_TRUE(s.softmax);
  EXPECT_EQ(s.softmax->rows, 200);
  EXPECT_EQ(s.softmax->length, 77);
  EXPECT_EQ(s.softmax->inner, 50);
  ASSERT_TRUE(s.fused);
  EXPECT_EQ(s.fused->columnLoops, SmallVector<unsigned>({1}));
  EXPECT_EQ(s.inputs[0].access.coefficients[1], 50);
}

//===----------------------------------------------------------------------===//
// Payload translation
//===----------------------------------------------------------------------===//

TEST_F(CudaTemplatesTest, LayerNormView) {
  // Operands in any order of the commutative ops; the constants as written.
  ProblemView v = view(kLayerNorm);
  ASSERT_TRUE(v.norm);
  EXPECT_FALSE(v.norm->rms);
  EXPECT_EQ(v.norm->rows, 64);
  EXPECT_EQ(v.norm->length, 128);
  EXPECT_EQ(v.norm->eps, double(1.0e-5f));
  EXPECT_EQ(v.norm->inputArg, 0);
  EXPECT_EQ(v.norm->gammaArg, 1);
  EXPECT_EQ(v.norm->betaArg, 2);
  EXPECT_EQ(v.norm->outputArg, 3);
  EXPECT_TRUE(v.norm->meanByFactor);
  EXPECT_TRUE(v.norm->varByFactor);
  EXPECT_EQ(v.norm->meanFactor, 1.0 / 128);
  EXPECT_FALSE(v.norm->divideBySqrt);
  EXPECT_EQ(getApplicableFamilies(v), SmallVector<std::string>({"layernorm"}));

  // A mean by a factor that is not 1/length, or the variance as
  // E[x^2] - mean^2, is not a layer norm: the chain is then read as one
  // computation with two reductions over the row, for fused_rows.
  for (auto [from, to] :
       {std::pair<StringRef, StringRef>{"7.812500e-03", "7.900000e-03"},
        std::pair<StringRef, StringRef>{"%d2 = arith.mulf %d, %d",
                                        "%d2 = arith.mulf %v, %v"}}) {
    std::string ir = kLayerNorm;
    size_t at = ir.find(from.str());
    ASSERT_NE(at, std::string::npos);
    ir.replace(at, from.size(), to.str());
    modules.push_back(parseSourceString<ModuleOp>(ir, &context));
    ASSERT_TRUE(modules.back());
    std::string why;
    FailureOr<ProblemView> chain = getProblemView(*modules.back(), why);
    ASSERT_TRUE(succeeded(chain)) << why;
    EXPECT_FALSE(chain->norm) << to.str();
    ASSERT_TRUE(chain->fused);
    EXPECT_EQ(chain->fused->reductions.size(), 2u);
    EXPECT_EQ(chain->fused->rows, 64);
    EXPECT_EQ(chain->fused->length, 128);
    EXPECT_EQ(chain->fused->rowLoops, SmallVector<unsigned>({0}));
    EXPECT_EQ(chain->fused->columnLoops, SmallVector<unsigned>({1}));
    // x, gamma and beta: x along the row, gamma and beta per column.
    ASSERT_EQ(chain->inputs.size(), 3u);
    EXPECT_EQ(chain->inputs[0].access.coefficients,
              SmallVector<int64_t>({128, 1}));
    EXPECT_EQ(chain->inputs[1].access.coefficients,
              SmallVector<int64_t>({0, 1}));
    EXPECT_EQ(getApplicableFamilies(*chain),
              SmallVector<std::string>({"fused_rows"}));
    // The second reduction reads the first one's result, a row value (the
    // centred variance; E[x^2] does not).
    SmallVector<bool> perPoint = chain->fused->perPoint(*chain);
    const FusedView &f = *chain->fused;
    SmallVector<bool> live = f.program.reachable({f.reductions[1].preNode});
    EXPECT_TRUE(perPoint[f.reductions[1].preNode]);
    bool readsFirst = false;
    for (auto [i, node] : llvm::enumerate(f.program.nodes))
      if (live[i] && node.op == "reduce")
        readsFirst |= node.position == 0 && !perPoint[i];
    EXPECT_EQ(readsFirst, from == "7.812500e-03") << to.str();
  }
}

TEST_F(CudaTemplatesTest, ElementwiseExpressionText) {
  ProblemView v = view(kBroadcastGelu);
  ASSERT_TRUE(v.body);
  SmallVector<std::string> results;
  std::string code =
      emitScalarProgram(*v.body, {"x", "b", "y"}, {"i", "j"}, "v", results);
  // Nodes 0-2 are the arguments; constants are numbered where first used
  // and inlined as literals.
  EXPECT_NE(code.find("const float v3 = (x + b);"), std::string::npos) << code;
  EXPECT_NE(code.find("const float v5 = (v3 * 0.707106769f);"),
            std::string::npos)
      << code;
  EXPECT_NE(code.find("const float v6 = erff(v5);"), std::string::npos) << code;
  EXPECT_NE(code.find("const float v8 = (v6 + 1.0f);"), std::string::npos)
      << code;
  EXPECT_NE(code.find("const float v10 = (v3 * 0.5f);"), std::string::npos)
      << code;
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0], "v11");

  // f16 values compute in float; cmpf + select is a C conditional.
  ProblemView relu = view(kReluF16Transpose);
  ASSERT_TRUE(relu.body);
  code = emitScalarProgram(*relu.body, {"x", "y"}, {"i", "j"}, "t", results);
  EXPECT_NE(code.find("const bool t3 = (x > 0.0f);"), std::string::npos)
      << code;
  EXPECT_NE(code.find("const float t4 = (t3 ? x : 0.0f);"), std::string::npos)
      << code;
}

TEST_F(CudaTemplatesTest, Literals) {
  EXPECT_EQ(emitScalarLiteral(ElementKind::F32, 2.0, 0), "2.0f");
  EXPECT_EQ(emitScalarLiteral(ElementKind::F32, 1e-5, 0), "9.99999975e-06f");
  EXPECT_EQ(emitScalarLiteral(ElementKind::F32, -INFINITY, 0),
            "__int_as_float(0xff800000)");
  EXPECT_EQ(emitScalarLiteral(ElementKind::F64, 0.1, 0), "0.10000000000000001");
  EXPECT_EQ(emitScalarLiteral(ElementKind::I1, 0, 1), "true");
  EXPECT_EQ(emitScalarLiteral(ElementKind::I64, 0, -3), "-3LL");
}

TEST_F(CudaTemplatesTest, UnsupportedPayloadOp) {
  ProblemView v = view(kUnsupportedBody);
  EXPECT_FALSE(v.body);
  EXPECT_NE(v.whyNoBody.find("math.ctlz"), std::string::npos) << v.whyNoBody;
  std::string why;
  EXPECT_TRUE(failed(checkFamilyApplies("elementwise", v, why)));
  EXPECT_NE(why.find("math.ctlz"), std::string::npos) << why;
  EXPECT_TRUE(getApplicableFamilies(v).empty());
}

//===----------------------------------------------------------------------===//
// Parameters and plans
//===----------------------------------------------------------------------===//

TEST_F(CudaTemplatesTest, ParamsParseAndValidate) {
  std::string error;
  FailureOr<TemplateParams> p =
      parseTemplateParams("BM=64, bn=32,double_buffer=0", error);
  ASSERT_TRUE(succeeded(p)) << error;
  EXPECT_EQ((*p)["bm"], 64);
  EXPECT_EQ((*p)["double_buffer"], 0);
  EXPECT_EQ(formatTemplateParams(*p), "bm=64,bn=32,double_buffer=0");
  EXPECT_TRUE(failed(parseTemplateParams("bm=x", error)));

  ProblemView v = view(kMatmul);
  EXPECT_TRUE(failed(generateCudaKernel("gemm", v, {{"bogus", 1}}, error)));
  EXPECT_NE(error.find("no parameter 'bogus'"), std::string::npos) << error;
  EXPECT_TRUE(failed(generateCudaKernel("gemm", v, {{"tm", 3}}, error)));
  // f32 inputs reach the tensor cores only with allow_tf32.
  EXPECT_TRUE(failed(generateCudaKernel("gemm_tc", v, {}, error)));
  EXPECT_NE(error.find("allow_tf32"), std::string::npos) << error;
  EXPECT_TRUE(succeeded(
      generateCudaKernel("gemm_tc", v, {{"allow_tf32", 1}, {"bk", 16}}, error)))
      << error;
  EXPECT_TRUE(
      enumerateParams("gemm_tc", v, *lookupHardwareProfile("h200")).empty());
  EnumerateOptions tf32;
  tf32.allowTf32 = true;
  EXPECT_FALSE(
      enumerateParams("gemm_tc", v, *lookupHardwareProfile("h200"), tf32)
          .empty());
}

TEST_F(CudaTemplatesTest, GemmPlanLaunch) {
  ProblemView v = view(kMatmul4096);
  std::string error;
  std::vector<TemplateParams> sets =
      enumerateParams("gemm", v, *lookupHardwareProfile("h200"));
  ASSERT_FALSE(sets.empty());
  // The big square problem starts from the 128x128 tile with 8x8 per thread.
  EXPECT_EQ(sets.front().at("bm"), 128);
  EXPECT_EQ(sets.front().at("bn"), 128);
  EXPECT_EQ(sets.front().at("tm"), 8);
  EXPECT_EQ(sets.front().at("double_buffer"), 1);
  // Its registers fit two blocks per SM.
  EXPECT_EQ(sets.front().at("min_blocks"), 2);
  FailureOr<CudaKernelPlan> plan =
      generateCudaKernel("gemm", v, sets.front(), error);
  ASSERT_TRUE(succeeded(plan)) << error;
  ASSERT_EQ(plan->launches.size(), 1u);
  EXPECT_EQ(plan->launches[0].kernel, "stark_gemm");
  EXPECT_EQ(plan->launches[0].grid, (std::array<int64_t, 3>{32 * 32, 1, 1}));
  EXPECT_EQ(plan->launches[0].block, (std::array<int64_t, 3>{256, 1, 1}));
  // Both operands load 16-byte vectors and C is stored 4 at a time.
  EXPECT_NE(plan->source.find("A_AXIS = 0, VA = 4, B_AXIS = 0, VB = 4, VC = 4"),
            std::string::npos);
  EXPECT_EQ(plan->params.at("bm"), "128");
}

TEST_F(CudaTemplatesTest, CandidateModule) {
  ProblemView v = view(kRowSum);
  std::string error;
  FailureOr<CudaKernelPlan> plan = generateCudaKernel(
      "reduce_row", v, {{"threads", 64}, {"rows", 2}, {"split", 2}}, error);
  ASSERT_TRUE(succeeded(plan)) << error;
  ASSERT_EQ(plan->launches.size(), 2u);
  FailureOr<OwningOpRef<ModuleOp>> candidate =
      buildCudaCandidateModule(*modules.back(), *plan, error);
  ASSERT_TRUE(succeeded(candidate)) << error;
  auto func = (*candidate)->lookupSymbol<func::FuncOp>("kernel");
  ASSERT_TRUE(func);
  EXPECT_EQ(func.getBody().front().getOperations().size(), 1u);
  auto attr = func->getAttrOfType<CudaKernelAttr>(kCudaAttrName);
  ASSERT_TRUE(attr);
  EXPECT_EQ(attr.getSource(), plan->source);
  EXPECT_EQ(attr.getFamily(), "reduce_row");
  ASSERT_EQ(attr.getLaunchList().size(), 2u);
#ifdef STARK_ENABLE_CUDA
  // The cuda target's own parser accepts it.
  FailureOr<CudaSourceCandidate> parsed = parseCudaSource(func, error);
  ASSERT_TRUE(succeeded(parsed)) << error;
  ASSERT_EQ(parsed->launches.size(), 2u);
  EXPECT_EQ(parsed->launches[0].kernel, "stark_reduce_row");
  EXPECT_EQ(parsed->launches[0].grid, (std::array<int64_t, 3>{32, 2, 1}));
  EXPECT_EQ(parsed->launches[0].block, (std::array<int64_t, 3>{64, 2, 1}));
  EXPECT_EQ(parsed->launches[1].kernel, "stark_reduce_row_finish");
  EXPECT_EQ(parsed->source, plan->source);
#endif
}

/// All test problems.
ArrayRef<const char *> allProblems() {
  static const char *problems[] = {kMatmul,           kMatmul4096,
                                   kMatmulTransposeA, kMatmulTransposeBF16,
                                   kBatchMatmulBF16,  kMatvec,
                                   kConvNhwc,         kConvNchwStrided,
                                   kDepthwise,        kMaxPool,
                                   kRowSum,           kColMax,
                                   kTotalSumSquares,  kBroadcastGelu,
                                   kReluF16Transpose, kFill,
                                   kSoftmax,          kSoftmaxStridedF16,
                                   kLayerNorm};
  return problems;
}

// Every enumerated set generates, and stays within the profile's threads,
// shared memory and grid limits.
TEST_F(CudaTemplatesTest, EnumeratedSetsFitTheProfiles) {
  for (StringRef profileName : {"h200", "a100"}) {
    HardwareProfile profile = *lookupHardwareProfile(profileName);
    EnumerateOptions options;
    options.allowTf32 = true;
    for (const char *ir : allProblems()) {
      ProblemView v = view(ir);
      SmallVector<std::string> families = getApplicableFamilies(v, true);
      EXPECT_FALSE(families.empty()) << v.opName;
      for (const std::string &family : families) {
        std::vector<TemplateParams> sets =
            enumerateParams(family, v, profile, options);
        // wgmma exists only on sm_90a: elsewhere the families offer
        // nothing.
        bool wgmma = family == "gemm_wgmma" || family == "gemm_wgmma_tma" ||
                     family == "gemm_wgmma_3xtf32";
        bool offered = !wgmma || profile.chip == "sm_90a";
        EXPECT_EQ(sets.empty(), !offered) << family << " on " << v.opName;
        for (const TemplateParams &set : sets) {
          std::string error;
          FailureOr<CudaKernelPlan> plan =
              generateCudaKernel(family, v, set, error);
          ASSERT_TRUE(succeeded(plan))
              << family << " " << formatTemplateParams(set) << " on "
              << v.opName << ": " << error;
          EXPECT_LE(plan->sharedBytesPerBlock, profile.sharedMemoryPerBlock)
              << family << " " << formatTemplateParams(set);
          EXPECT_LE(plan->threadsPerBlock, profile.maxThreadsPerBlock);
          for (const CudaKernelPlan::Launch &l : plan->launches) {
            EXPECT_GE(l.grid[0], 1);
            EXPECT_LE(l.grid[1], 65535);
            EXPECT_LE(l.grid[2], 65535);
            EXPECT_LE(l.block[0] * l.block[1] * l.block[2],
                      profile.maxThreadsPerBlock);
            EXPECT_LE(l.sharedBytes, profile.sharedMemoryPerBlock);
          }
        }
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Compilation for sm_90a
//===----------------------------------------------------------------------===//

/// What ptxas reported for one kernel.
struct PtxasReport {
  int64_t registers = -1, sharedBytes = 0, spillStores = 0;
};

/// nvcc from STARK_NVCC (set but empty: use NVRTC instead), the toolkit or
/// PATH.
std::string findNvcc() {
  if (const char *env = std::getenv("STARK_NVCC"))
    return env;
  if (llvm::sys::fs::can_execute("/usr/local/cuda/bin/nvcc"))
    return "/usr/local/cuda/bin/nvcc";
  if (auto found = llvm::sys::findProgramByName("nvcc"))
    return *found;
  return "";
}

struct Job {
  std::string name;
  CudaKernelPlan plan;
};

/// Parses ptxas -v: per entry "Used N registers, used B barriers, S bytes
/// smem" and "X bytes spill stores".
llvm::StringMap<PtxasReport> parsePtxas(StringRef log) {
  llvm::StringMap<PtxasReport> reports;
  llvm::Regex entry("Compiling entry function '([A-Za-z0-9_]+)'");
  llvm::Regex regs("Used ([0-9]+) registers");
  llvm::Regex smem("([0-9]+) bytes smem");
  llvm::Regex spill("([0-9]+) bytes spill stores");
  std::string current;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    SmallVector<StringRef> m;
    if (entry.match(line, &m))
      current = m[1].str();
    if (current.empty())
      continue;
    if (regs.match(line, &m))
      reports[current].registers = std::stoll(m[1].str());
    if (smem.match(line, &m))
      reports[current].sharedBytes = std::stoll(m[1].str());
    if (spill.match(line, &m))
      reports[current].spillStores = std::stoll(m[1].str());
  }
  return reports;
}

/// Compiles every job's source for sm_90a and checks ptxas' report:
/// no spills, registers and shared memory within the H200's limits.
void compileJobs(std::vector<Job> &jobs) {
  HardwareProfile h200 = *lookupHardwareProfile("h200");
  std::string nvcc = findNvcc();
  if (nvcc.empty()) {
#ifndef STARK_ENABLE_CUDA
    GTEST_SKIP() << "neither nvcc nor the NVRTC of the cuda target";
#else
    // Without nvcc, NVRTC still says whether each source compiles.
    for (Job &job : jobs) {
      std::vector<std::string> names;
      for (auto &l : job.plan.launches)
        names.push_back(l.kernel);
      std::string error;
      FailureOr<NvrtcOutput> out = compileCudaSourceWithNvrtc(
          job.plan.source, names, "sm_90a", {}, error);
      if (failed(out) && error.find("NVRTC") != std::string::npos &&
          error.find("not found") != std::string::npos)
        GTEST_SKIP() << "neither nvcc nor NVRTC is available: " << error;
      EXPECT_TRUE(succeeded(out)) << job.name << "\n" << error;
    }
    return;
#endif
  }

  // One nvcc run for all jobs (the headers are parsed once): each source
  // goes into a namespace of its own and its kernels are renamed by macro,
  // since extern "C" names ignore namespaces. The headers the sources
  // include are included first, so their guards keep them out of the
  // namespaces.
  SmallString<128> root;
  ASSERT_FALSE(
      llvm::sys::fs::createUniqueDirectory("stark-cuda-templates", root));
  auto kernelName = [](size_t job, StringRef kernel) {
    return ("job" + Twine(job) + "_" + kernel).str();
  };
  auto runNvcc = [&](ArrayRef<size_t> which, std::string &log) {
    std::string cu = (root + "/kernels.cu").str();
    std::string out = (root + "/kernels.cubin").str();
    std::string logPath = (root + "/ptxas.log").str();
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(cu, ec);
      os << "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
            "#include <mma.h>\n";
      for (size_t i : which) {
        for (const CudaKernelPlan::Launch &l : jobs[i].plan.launches)
          os << "#define " << l.kernel << " " << kernelName(i, l.kernel)
             << "\n";
        os << "namespace stark_job" << i << " {\n"
           << jobs[i].plan.source << "\n} // namespace stark_job" << i << "\n";
        for (const CudaKernelPlan::Launch &l : jobs[i].plan.launches)
          os << "#undef " << l.kernel << "\n";
      }
    }
    SmallVector<StringRef> args = {
        nvcc,     "-std=c++17", "-gencode=arch=compute_90a,code=sm_90a",
        "-cubin", "-Xptxas",    "-v",
        "-o",     out,          cu};
    std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                            StringRef(logPath)};
    std::string err;
    int rc = llvm::sys::ExecuteAndWait(nvcc, args, std::nullopt, redirects, 0,
                                       0, &err);
    auto buffer = llvm::MemoryBuffer::getFile(logPath);
    log = buffer ? (*buffer)->getBuffer().str() : err;
    return rc;
  };

  // Batches keep one translation unit from growing without bound.
  const size_t batch = 48;
  for (size_t first = 0; first < jobs.size(); first += batch) {
    SmallVector<size_t> which = llvm::to_vector(
        llvm::seq<size_t>(first, std::min(jobs.size(), first + batch)));
    std::string log;
    if (runNvcc(which, log) != 0) {
      // Say which sources fail.
      for (size_t i : which) {
        std::string one;
        EXPECT_EQ(runNvcc({i}, one), 0) << jobs[i].name << "\n" << one;
      }
      continue;
    }
    llvm::StringMap<PtxasReport> reports = parsePtxas(log);
    for (size_t i : which) {
      const Job &job = jobs[i];
      // Capping registers for two blocks per SM may spill a little; the
      // search measures whether it pays.
      auto minBlocks = job.plan.params.find("min_blocks");
      bool maySpill =
          minBlocks != job.plan.params.end() && minBlocks->second != "1";
      for (const CudaKernelPlan::Launch &l : job.plan.launches) {
        auto it = reports.find(kernelName(i, l.kernel));
        ASSERT_NE(it, reports.end())
            << job.name << ": no ptxas report for " << l.kernel << "\n"
            << log;
        const PtxasReport &r = it->second;
        EXPECT_GT(r.registers, 0) << job.name;
        EXPECT_LE(r.registers, 255) << job.name;
        // Register spills would put the tiles in local memory.
        if (!maySpill)
          EXPECT_EQ(r.spillStores, 0) << job.name;
        EXPECT_LE(r.sharedBytes + l.sharedBytes, h200.sharedMemoryPerBlock)
            << job.name;
        EXPECT_LE(r.sharedBytes, 48 * 1024) << job.name;
        int64_t threads = l.block[0] * l.block[1] * l.block[2];
        EXPECT_LE(r.registers * threads, h200.registersPerUnit) << job.name;
      }
    }
  }
  llvm::sys::fs::remove_directories(root);
}

/// A representative subset of the template library's sources: every
/// family, both operand layouts, every element type, tails and vectors,
/// lanes within a warp and across warps, rows in registers and streamed.
/// Each job's number of inputs (its kernels' leading pointer parameters)
/// goes into `numInputs`. `view` reads a problem.
std::vector<Job>
representativeJobs(llvm::function_ref<ProblemView(StringRef)> view,
                   std::vector<unsigned> *numInputs = nullptr) {
  struct Case {
    const char *ir;
    const char *family;
    TemplateParams params;
  };
  std::vector<Case> cases = {
      {kMatmul4096, "gemm", {}},
      {kMatmulTransposeA,
       "gemm",
       {{"bm", 64},
        {"bn", 32},
        {"bk", 16},
        {"tm", 4},
        {"tn", 2},
        {"double_buffer", 0}}},
      {kConvNhwc, "gemm", {}},
      {kMatmulTransposeBF16, "gemm_tc", {}},
      {kBatchMatmulBF16,
       "gemm_tc",
       {{"bm", 64}, {"bn", 64}, {"wm", 32}, {"wn", 32}, {"stages", 2}}},
      {kMatmul,
       "gemm_tc",
       {{"allow_tf32", 1},
        {"bk", 16},
        {"bm", 64},
        {"bn", 64},
        {"wm", 32},
        {"wn", 32}}},
      {kBroadcastGelu, "elementwise", {}},
      {kReluF16Transpose, "elementwise", {{"vec", 1}, {"per_thread", 2}}},
      {kTotalSumSquares, "reduce_row", {}},
      {kRowSum, "reduce_row", {{"threads", 128}, {"rows", 2}, {"vec", 1}}},
      {kColMax, "reduce_col", {}},
      {kSoftmax, "softmax", {}},
      {kSoftmaxStridedF16, "softmax", {}},
      {kDepthwise, "direct", {}},
      {kMaxPool, "direct", {}},
      {kLayerNorm, "layernorm", {}},
      {kLayerNorm,
       "layernorm",
       {{"threads", 64}, {"rows", 2}, {"vec", 2}, {"cache", 0}}},
  };
  HardwareProfile h200 = *lookupHardwareProfile("h200");
  std::vector<Job> jobs;
  for (const Case &c : cases) {
    ProblemView v = view(c.ir);
    TemplateParams params = c.params;
    if (params.empty()) {
      EnumerateOptions options;
      options.allowTf32 = true;
      std::vector<TemplateParams> sets =
          enumerateParams(c.family, v, h200, options);
      EXPECT_FALSE(sets.empty()) << c.family << " on " << v.opName;
      if (sets.empty())
        continue;
      params = sets.front();
    }
    std::string error;
    FailureOr<CudaKernelPlan> plan =
        generateCudaKernel(c.family, v, params, error);
    EXPECT_TRUE(succeeded(plan)) << c.family << ": " << error;
    if (failed(plan))
      continue;
    if (numInputs)
      numInputs->push_back(v.argKinds.size() - v.numOutputArgs);
    jobs.push_back({(c.family + std::string(" on ") + v.opName + " " +
                     formatTemplateParams(params)),
                    *plan});
  }

  return jobs;
}

TEST_F(CudaTemplatesTest, GeneratedSourcesCompileForSm90a) {
  std::vector<Job> jobs =
      representativeJobs([&](StringRef ir) { return view(ir); });
  compileJobs(jobs);
}

#ifdef STARK_ENABLE_CUDA
// The rules on model-written PTX (PtxGuards.h) let the library's own
// kernels through, so a model that writes kernels like these passes them,
// with one exception the rules exist for: a split reduction or split-K
// GEMM keeps its partial results in a __device__ workspace between its
// launches, which in PTX is the same as state kept between runs. (The
// template families are not model-written, so the target does not apply
// these rules to them.)
TEST_F(CudaTemplatesTest, GeneratedSourcesPassTheModelWrittenGuards) {
  std::vector<unsigned> numInputs;
  std::vector<Job> jobs =
      representativeJobs([&](StringRef ir) { return view(ir); }, &numInputs);
  for (auto [job, inputs] : llvm::zip(jobs, numInputs)) {
    std::vector<std::string> names;
    for (auto &l : job.plan.launches)
      names.push_back(l.kernel);
    std::string error;
    FailureOr<NvrtcOutput> out =
        compileCudaSourceWithNvrtc(job.plan.source, names, "sm_90a", {}, error);
    if (failed(out) && error.find("NVRTC") != std::string::npos &&
        error.find("not found") != std::string::npos)
      GTEST_SKIP() << "NVRTC is not available: " << error;
    ASSERT_TRUE(succeeded(out)) << job.name << "\n" << error;
    PtxGuardOptions options;
    options.numInputs = inputs;
    std::optional<PtxViolation> v = findPtxViolation(out->ptx, options);
    StringRef source = job.plan.source;
    bool workspace = source.contains("__device__ acc_t stark_partials[") ||
                     source.contains("__device__ float stark_gemm_ws[");
    if (!workspace) {
      EXPECT_FALSE(v) << job.name << ": " << v->describe();
      continue;
    }
    ASSERT_TRUE(v) << job.name;
    EXPECT_EQ(v->rule, "module state") << job.name;
    EXPECT_NE(v->reason.find("'stark_"), std::string::npos) << v->reason;
  }
}
#endif

// Every enumerated set of every test problem: minutes of nvcc, so only on
// request (STARK_TEMPLATES_COMPILE_ALL=1).
TEST_F(CudaTemplatesTest, AllEnumeratedSourcesCompile) {
  if (!std::getenv("STARK_TEMPLATES_COMPILE_ALL"))
    GTEST_SKIP() << "set STARK_TEMPLATES_COMPILE_ALL=1 to compile every set";
  HardwareProfile h200 = *lookupHardwareProfile("h200");
  EnumerateOptions options;
  options.allowTf32 = true;
  std::vector<Job> jobs;
  for (const char *ir : allProblems()) {
    ProblemView v = view(ir);
    for (const std::string &family : getApplicableFamilies(v, true)) {
      for (const TemplateParams &set :
           enumerateParams(family, v, h200, options)) {
        std::string error;
        FailureOr<CudaKernelPlan> plan =
            generateCudaKernel(family, v, set, error);
        ASSERT_TRUE(succeeded(plan)) << error;
        jobs.push_back(
            {family + " on " + v.opName + " " + formatTemplateParams(set),
             *plan});
      }
    }
  }
  compileJobs(jobs);
}

} // namespace
