//===- CandidateSpacesTest.cpp - Each target's strategy points build
//-------===//

#include "stark/Strategies/CandidateSpaces.h"
#include "stark/Eval/Evaluator.h"
#include "stark/Strategies/CpuStrategies.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

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

TEST_F(CandidateSpacesTest, UnknownTargetHasNoSpace) {
  std::string why;
  EXPECT_FALSE(createCandidateSpace("tpu", *problem,
                                    *lookupHardwareProfile("h200"), why));
  EXPECT_EQ(why, "no strategy families for target 'tpu'");
}

} // namespace
