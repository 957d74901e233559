//===- CudaProblemTest.h - Problems and a fixture for the CUDA tests ------===//

#ifndef STARK_UNITTESTS_STRATEGIES_CUDAPROBLEMTEST_H
#define STARK_UNITTESTS_STRATEGIES_CUDAPROBLEMTEST_H

#include "stark/Analysis/HardwareProfile.h"
#include "stark/Analysis/ProblemView.h"
#include "stark/Dialect/StarkDialect.h"
#include "stark/Strategies/CudaCodegen.h"
#include "stark/Strategies/CudaTemplates.h"
#ifdef STARK_ENABLE_CUDA
#include "stark/Target/CudaCompile.h"
#endif

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace mlir::stark::test {

inline constexpr const char *kMatmul4096 = R"mlir(
func.func @kernel(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>, %c: memref<4096x4096xf32>) {
  linalg.matmul ins(%a, %b : memref<4096x4096xf32>, memref<4096x4096xf32>) outs(%c : memref<4096x4096xf32>)
  return
})mlir";

// Implicit GEMM: k = (kh, kw, c) does not fold into one stride of the input.
inline constexpr const char *kConvNhwc = R"mlir(
func.func @kernel(%i: memref<2x18x18x16xf32>, %f: memref<3x3x16x32xf32>, %o: memref<2x16x16x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<2x18x18x16xf32>, memref<3x3x16x32xf32>) outs(%o : memref<2x16x16x32xf32>)
  return
})mlir";

inline constexpr const char *kConvNchwStrided = R"mlir(
func.func @kernel(%i: memref<1x3x17x17xf32>, %f: memref<8x3x3x3xf32>, %o: memref<1x8x8x8xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%i, %f : memref<1x3x17x17xf32>, memref<8x3x3x3xf32>) outs(%o : memref<1x8x8x8xf32>)
  return
})mlir";

// Many tiny outputs: the batch times the slices outgrows grid.y.
inline constexpr const char *kManyBatches = R"mlir(
func.func @kernel(%a: memref<2000x4x4096xf32>, %b: memref<2000x4096x4xf32>, %c: memref<2000x4x4xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2000x4x4096xf32>, memref<2000x4096x4xf32>) outs(%c : memref<2000x4x4xf32>)
  return
})mlir";

/// Parses problems into views (the modules live as long as the test) and
/// generates kernels, failing the test with the reason when either fails.
class CudaProblemTest : public ::testing::Test {
protected:
  CudaProblemTest() {
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        linalg::LinalgDialect, math::MathDialect,
                        memref::MemRefDialect, StarkDialect>();
  }

  ProblemView view(StringRef ir) {
    modules.push_back(parseSourceString<ModuleOp>(ir, &context));
    EXPECT_TRUE(modules.back());
    std::string why;
    FailureOr<ProblemView> v = getProblemView(*modules.back(), why);
    EXPECT_TRUE(succeeded(v)) << why;
    return succeeded(v) ? *v : ProblemView();
  }

  CudaKernelPlan plan(const ProblemView &v, StringRef family,
                      const TemplateParams &params) {
    std::string error;
    FailureOr<CudaKernelPlan> p = generateCudaKernel(family, v, params, error);
    EXPECT_TRUE(succeeded(p)) << family.str() << ": " << error;
    return succeeded(p) ? *p : CudaKernelPlan();
  }

#ifdef STARK_ENABLE_CUDA
  /// NVRTC compiles, for sm_90a, every point `family` enumerates on the h200
  /// profile for each problem of `irs`, and the points of `extra` (the
  /// kernels' static_asserts included); the test is skipped where the cuda
  /// target cannot load NVRTC.
  void expectSourcesCompile(StringRef family, ArrayRef<std::string> irs,
                            ArrayRef<TemplateParams> extra = {}) {
    HardwareProfile h200 = *lookupHardwareProfile("h200");
    for (const std::string &ir : irs) {
      ProblemView v = view(ir);
      std::vector<TemplateParams> sets = enumerateParams(family, v, h200);
      sets.insert(sets.end(), extra.begin(), extra.end());
      for (const TemplateParams &set : sets) {
        CudaKernelPlan p = plan(v, family, set);
        std::vector<std::string> names;
        for (const CudaKernelPlan::Launch &l : p.launches)
          names.push_back(l.kernel);
        std::string error;
        FailureOr<NvrtcOutput> out =
            compileCudaSourceWithNvrtc(p.source, names, "sm_90a", {}, error);
        if (failed(out) && error.find("NVRTC") != std::string::npos &&
            error.find("not found") != std::string::npos)
          GTEST_SKIP() << "NVRTC is not available";
        EXPECT_TRUE(succeeded(out))
            << formatTemplateParams(set) << " on " << v.opName << "\n"
            << error;
      }
    }
  }
#endif

  MLIRContext context;
  std::vector<OwningOpRef<ModuleOp>> modules;
};

inline bool contains(const std::string &s, StringRef what) {
  return s.find(what.str()) != std::string::npos;
}

} // namespace mlir::stark::test

#endif // STARK_UNITTESTS_STRATEGIES_CUDAPROBLEMTEST_H
