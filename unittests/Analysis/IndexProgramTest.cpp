//===- IndexProgramTest.cpp - Index arithmetic of a linalg body -----------===//

#include "stark/Analysis/IndexProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

class IndexProgramTest : public ::testing::Test {
protected:
  IndexProgramTest() {
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        linalg::LinalgDialect, tensor::TensorDialect>();
  }

  /// The linalg.generic of `ir` and the index operands of its
  /// tensor.extract, in order.
  linalg::GenericOp parse(StringRef ir, SmallVectorImpl<Value> &indices) {
    module = parseSourceString<ModuleOp>(ir, &context);
    EXPECT_TRUE(module);
    linalg::GenericOp found;
    if (module)
      module->walk([&](linalg::GenericOp op) { found = op; });
    EXPECT_TRUE(found);
    if (found)
      found.getRegion().walk([&](tensor::ExtractOp extract) {
        indices.append(extract.getIndices().begin(),
                       extract.getIndices().end());
      });
    return found;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

// An adaptive pool's window start and clamp (floor(o * 5 / 3) + k, at most
// 4), signed and unsigned division, and a cast through i32: each evaluated
// at a point as the arith ops define them.
TEST_F(IndexProgramTest, EvaluatesTheWindowArithmetic) {
  SmallVector<Value> indices;
  linalg::GenericOp op = parse(R"mlir(
    func.func @f(%x: tensor<8x8xf32>) -> tensor<3x3xf32> {
      %e = tensor.empty() : tensor<3x3xf32>
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %m7 = arith.constant -7 : i32
      %c2i = arith.constant 2 : i32
      %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
          outs(%e : tensor<3x3xf32>) {
      ^bb0(%out: f32):
        %o = linalg.index 0 : index
        %k = linalg.index 1 : index
        %st = arith.muli %o, %c5 : index
        %s = arith.divui %st, %c3 : index
        %i = arith.addi %s, %k : index
        %ic = arith.minui %i, %c4 : index
        %oi = arith.index_cast %o : index to i32
        %neg = arith.addi %oi, %m7 : i32
        %fl = arith.floordivsi %neg, %c2i : i32
        %flx = arith.index_cast %fl : i32 to index
        %v = tensor.extract %x[%ic, %flx] : tensor<8x8xf32>
        linalg.yield %v : f32
      } -> tensor<3x3xf32>
      return %g : tensor<3x3xf32>
    })mlir",
                               indices);
  ASSERT_TRUE(op);
  ASSERT_EQ(indices.size(), 2u);
  IndexProgram program(op.getRegion().front(), 2);
  for (Value index : indices) {
    std::string why;
    ASSERT_TRUE(program.canCompute(index, why)) << why;
    program.add(index);
  }
  // o = 2, k = 2: floor(10 / 3) + 2 = 5, clamped to 4; floor((2 - 7) / 2)
  // = -3.
  SmallVector<int64_t> point = {2, 2};
  ASSERT_TRUE(succeeded(program.run(point)));
  EXPECT_EQ(program.get(indices[0]), 4);
  EXPECT_EQ(program.get(indices[1]), -3);
  // o = 1, k = 0: floor(5 / 3) = 1; floor(-6 / 2) = -3.
  point = {1, 0};
  ASSERT_TRUE(succeeded(program.run(point)));
  EXPECT_EQ(program.get(indices[0]), 1);
  EXPECT_EQ(program.get(indices[1]), -3);
  // The first index reads both loops, the second the first only.
  EXPECT_EQ(program.loopsRead(indices[0]), 0b11u);
  EXPECT_EQ(program.loopsRead(indices[1]), 0b01u);
}

// An index read from the op's data (a gather) cannot be computed from the
// loops, and a division by zero at a point fails that point.
TEST_F(IndexProgramTest, RefusesDataAndUndefinedPoints) {
  SmallVector<Value> indices;
  linalg::GenericOp op = parse(R"mlir(
    func.func @f(%ids: tensor<4xindex>, %x: tensor<8x8xf32>) -> tensor<4xf32> {
      %e = tensor.empty() : tensor<4xf32>
      %c4 = arith.constant 4 : index
      %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                            affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]}
          ins(%ids : tensor<4xindex>) outs(%e : tensor<4xf32>) {
      ^bb0(%id: index, %out: f32):
        %o = linalg.index 0 : index
        %d = arith.divui %c4, %o : index
        %v = tensor.extract %x[%id, %d] : tensor<8x8xf32>
        linalg.yield %v : f32
      } -> tensor<4xf32>
      return %g : tensor<4xf32>
    })mlir",
                               indices);
  ASSERT_TRUE(op);
  ASSERT_EQ(indices.size(), 2u);
  IndexProgram program(op.getRegion().front(), 1);
  std::string why;
  EXPECT_FALSE(program.canCompute(indices[0], why));
  EXPECT_EQ(why, "it depends on the op's operands");
  ASSERT_TRUE(program.canCompute(indices[1], why)) << why;
  program.add(indices[1]);
  SmallVector<int64_t> point = {2};
  ASSERT_TRUE(succeeded(program.run(point)));
  EXPECT_EQ(program.get(indices[1]), 2);
  point = {0};
  EXPECT_TRUE(failed(program.run(point)));
}

} // namespace
