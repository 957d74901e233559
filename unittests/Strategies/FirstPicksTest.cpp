//===- FirstPicksTest.cpp - Every family's first pick works ---------------===//
//
// Where the search has no budget left, the expert's first-ranked candidate
// of a problem is verified once and kept: so the first point of every
// family must work on every problem the family claims. For small problems
// of every op class (test inputs of the repository), each family of the
// target that applies builds its first point, as the search would. On the
// cpu the candidate must compile and verify against the problem's upstream
// lowering (threaded first picks included); on cuda the CUDA C++ of each
// template family must compile with NVRTC for sm_90a (no GPU needed).
//
//===----------------------------------------------------------------------===//

#include "stark/Dialect/StarkDialect.h"
#include "stark/Eval/Evaluator.h"
#include "stark/Strategies/CpuStrategies.h"
#include "stark/Strategies/CudaSchedules.h"
#include "stark/Strategies/StrategyFamily.h"
#include "stark/Strategies/StrategyRegistry.h"
#include "stark/Target/CpuTarget.h"
#ifdef STARK_ENABLE_CUDA
#include "stark/Dialect/StarkAttrs.h"
#include "stark/Target/CudaCompile.h"
#endif

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

/// Problems of every class the families claim, as stark-outline writes them
/// (paths under the source tree), and whether the first picks of the cpu
/// families are threaded there (large enough for two cores).
struct CpuProblem {
  const char *path;
  bool threaded;
};
const CpuProblem kCpuProblems[] = {
    // Contractions owning the fill of their output, large enough to be
    // threaded first; small; bf16 inputs.
    {"test/Integration/CUDA/templates/Inputs/fill-matmul-255x129x191.mlir",
     true},
    {"test/Eval/Inputs/fill-matmul-problem.mlir", false},
    {"test/Integration/CUDA/templates/Inputs/fill-matmul-bf16-f32.mlir", true},
    // Plain, transposed and batched contractions, matrix-vector.
    {"test/Integration/CUDA/templates/Inputs/matmul-ta-f32.mlir", true},
    {"test/Integration/CUDA/templates/Inputs/batch-matmul-f32.mlir", true},
    {"test/Integration/CUDA/templates/Inputs/matvec.mlir", true},
    // Contractions with epilogues and prologues (fused problems).
    {"test/Integration/CUDA/templates/Inputs/fused-matmul-bias-gelu.mlir",
     true},
    {"test/Integration/CUDA/templates/Inputs/fused-scale-relu-matmul.mlir",
     true},
    {"test/Integration/CUDA/templates/Inputs/fused-batch-matmul-scale.mlir",
     true},
    // Reductions, with and without the fill of their output.
    {"test/Integration/CUDA/templates/Inputs/row-sum.mlir", true},
    {"test/Strategies/Inputs/templates/fill-row-sum.mlir", false},
    {"test/Integration/CUDA/templates/Inputs/middle-sum.mlir", false},
    {"test/Integration/CUDA/templates/Inputs/sum-squares.mlir", false},
    // Element-wise.
    {"test/Integration/CUDA/templates/Inputs/bias-gelu.mlir", false},
    {"test/Integration/CUDA/templates/Inputs/relu-transpose-f16.mlir", false},
    // Convolutions and pooling, with and without a fill.
    {"test/Integration/CUDA/templates/Inputs/conv-nhwc.mlir", true},
    {"test/Integration/CUDA/templates/Inputs/fill-conv-nhwc.mlir", true},
    {"test/Integration/CUDA/templates/Inputs/fill-depthwise.mlir", false},
    {"test/Integration/CUDA/templates/Inputs/conv-nchw-strided.mlir", false},
    {"test/Integration/CUDA/templates/Inputs/maxpool.mlir", false},
    {"test/Integration/CUDA/templates/Inputs/fused-conv2d-bias-relu.mlir",
     true},
    // Normalisations and softmax.
    {"test/Integration/CUDA/templates/Inputs/softmax.mlir", false},
    {"test/Integration/CUDA/templates/Inputs/layernorm.mlir", false},
    {"test/Integration/CUDA/templates/Inputs/fused-rmsnorm-silu.mlir", false},
    {"test/Integration/CUDA/templates/Inputs/fused-log-softmax.mlir", false},
};

/// Problems for the cuda families: contractions (f32, f16, bf16, with a
/// fill, an epilogue or a prologue), reductions, element-wise, scans,
/// convolutions, pooling, normalisations and softmax.
const char *const kCudaProblems[] = {
    "test/Integration/CUDA/templates/Inputs/fill-matmul-255x129x191.mlir",
    "test/Integration/CUDA/templates/Inputs/fill-matmul-f16-odd.mlir",
    "test/Integration/CUDA/templates/Inputs/batch-matmul-bf16.mlir",
    "test/Integration/CUDA/templates/Inputs/matvec.mlir",
    "test/Integration/CUDA/templates/Inputs/fused-matmul-bias-gelu.mlir",
    "test/Integration/CUDA/templates/Inputs/fused-scale-relu-matmul.mlir",
    "test/Integration/CUDA/templates/Inputs/row-sum.mlir",
    "test/Strategies/Inputs/templates/fill-row-sum.mlir",
    "test/Integration/CUDA/templates/Inputs/col-min.mlir",
    "test/Integration/CUDA/templates/Inputs/middle-sum.mlir",
    "test/Integration/CUDA/templates/Inputs/bias-gelu.mlir",
    "test/Integration/CUDA/templates/Inputs/cumsum.mlir",
    "test/Integration/CUDA/templates/Inputs/fill-conv-nhwc.mlir",
    "test/Integration/CUDA/templates/Inputs/depthwise.mlir",
    "test/Integration/CUDA/templates/Inputs/maxpool.mlir",
    "test/Integration/CUDA/templates/Inputs/softmax.mlir",
    "test/Integration/CUDA/templates/Inputs/layernorm.mlir",
    "test/Integration/CUDA/templates/Inputs/fused-rmsnorm-silu.mlir",
    "test/Integration/CUDA/templates/Inputs/fused-log-softmax.mlir",
};

class FirstPicksTest : public ::testing::Test {
protected:
  FirstPicksTest() {
    DialectRegistry registry;
    registerEvalDialects(registry);
    registerCpuStrategyDialects(registry);
    registerCudaScheduleDialects(registry);
#ifdef STARK_ENABLE_CUDA
    registerCudaTargetDialects(registry);
#endif
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    // Fixed numbers, not this machine's: two cores, AVX2-wide vectors.
    host = *lookupHardwareProfile("h200");
    host.simdBits = 256;
    host.numComputeUnits = 2;
    options.correctnessTrials = 2;
    options.measureTime = false;
  }

  OwningOpRef<ModuleOp> load(StringRef relative) {
    SmallString<256> path(STARK_SOURCE_DIR);
    llvm::sys::path::append(path, relative);
    auto buffer = llvm::MemoryBuffer::getFile(path);
    EXPECT_TRUE(bool(buffer)) << path.str().str();
    if (!buffer)
      return {};
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>((*buffer)->getBuffer(), &context);
    EXPECT_TRUE(module) << path.str().str();
    return module;
  }

  /// The first point of every family of `target` that applies to
  /// `problem`, with the family that built it.
  std::vector<std::pair<const StrategyFamily *, StrategyPoint>>
  firstPicks(StringRef target, const StrategyProblem &problem) {
    std::vector<std::pair<const StrategyFamily *, StrategyPoint>> picks;
    for (const StrategyFamily *family :
         StrategyRegistry::get().getFamilies(target)) {
      std::string why;
      if (failed(family->applies(problem, why)) || !family->getRank(problem))
        continue;
      std::vector<StrategyPoint> points = family->getPoints(problem);
      EXPECT_FALSE(points.empty()) << family->getName().str();
      if (!points.empty())
        picks.push_back({family, points.front()});
    }
    return picks;
  }

  MLIRContext context;
  HardwareProfile host;
  EvalOptions options;
};

TEST_F(FirstPicksTest, CpuFirstPicksCompileAndVerify) {
  std::unique_ptr<Target> target = createCpuTarget(context);
  for (auto [path, threaded] : kCpuProblems) {
    SCOPED_TRACE(path);
    OwningOpRef<ModuleOp> problem = load(path);
    if (!problem)
      continue;
    StrategyProblem strategyProblem(*problem, host);
    auto picks = firstPicks("cpu", strategyProblem);
    EXPECT_FALSE(picks.empty()) << "no cpu family claims it";
    for (auto &[family, point] : picks) {
      SCOPED_TRACE(point.key());
      std::string error;
      FailureOr<std::string> text =
          family->build(strategyProblem, point, error);
      ASSERT_TRUE(succeeded(text)) << error;
      OwningOpRef<ModuleOp> candidate =
          parseSourceString<ModuleOp>(*text, &context);
      ASSERT_TRUE(candidate) << *text;
      (*candidate)->removeAttr(kProblemAttrName);
      EvalResult r = evaluateCandidate(*target, *problem, *candidate, options);
      EXPECT_TRUE(r.isOk()) << formatEvalResult(r);
      EXPECT_EQ(point.params.at("threads") != "1", threaded);
    }
  }
}

#ifdef STARK_ENABLE_CUDA
TEST_F(FirstPicksTest, CudaFirstPicksCompile) {
  HardwareProfile h200 = *lookupHardwareProfile("h200");
  std::string noNvrtc;
  bool nvrtc = isNvrtcAvailable(noNvrtc);
  int compiled = 0;
  for (const char *path : kCudaProblems) {
    SCOPED_TRACE(path);
    OwningOpRef<ModuleOp> problem = load(path);
    if (!problem)
      continue;
    StrategyProblem strategyProblem(*problem, h200);
    auto picks = firstPicks("cuda", strategyProblem);
    EXPECT_FALSE(picks.empty()) << "no cuda family claims it";
    for (auto &[family, point] : picks) {
      SCOPED_TRACE(point.key());
      std::string error;
      FailureOr<std::string> text =
          family->build(strategyProblem, point, error);
      ASSERT_TRUE(succeeded(text)) << error;
      OwningOpRef<ModuleOp> candidate =
          parseSourceString<ModuleOp>(*text, &context);
      ASSERT_TRUE(candidate) << *text;
      if (family->getKind() == StrategyFamily::Kind::CudaSchedule) {
        // A transform-dialect schedule: its gpu.launch down to PTX.
        EXPECT_TRUE(
            succeeded(compileGpuModuleToPtx(*candidate, CudaArch(), error)))
            << error;
        ++compiled;
        continue;
      }
      if (!nvrtc)
        continue;
      func::FuncOp entry;
      (*candidate)->walk([&](func::FuncOp f) {
        if (hasCudaSource(f))
          entry = f;
      });
      ASSERT_TRUE(entry) << *text;
      FailureOr<CudaSourceCandidate> source = parseCudaSource(entry, error);
      ASSERT_TRUE(succeeded(source)) << error;
      std::vector<std::string> names;
      for (const CudaLaunch &launch : source->launches)
        if (!llvm::is_contained(names, launch.kernel))
          names.push_back(launch.kernel);
      EXPECT_TRUE(succeeded(compileCudaSourceWithNvrtc(
          source->source, names, "sm_90a", source->options, error)))
          << error;
      ++compiled;
    }
  }
  EXPECT_GT(compiled, 0);
  if (!nvrtc)
    GTEST_SKIP() << "the template families' sources are not compiled: "
                 << noNvrtc;
}
#endif

} // namespace
