//===- BufferLoweringTest.cpp - Rewrites both targets apply ---------------===//

#include "stark/Target/BufferLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

class PromoteAccumulatorsTest : public ::testing::Test {
protected:
  PromoteAccumulatorsTest() {
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        memref::MemRefDialect, scf::SCFDialect>();
  }

  /// Parses `ir`, promotes, verifies; returns the count.
  unsigned promote(StringRef ir) {
    module = parseSourceString<ModuleOp>(ir, &context);
    EXPECT_TRUE(module) << "failed to parse";
    if (!module)
      return 0;
    unsigned n = promoteLoopAccumulators(*module);
    EXPECT_TRUE(succeeded(verify(*module)));
    return n;
  }

  /// Loads and stores of `name`'s argument #arg inside any scf.for.
  int accessesInLoops(unsigned arg) {
    int n = 0;
    module->walk([&](Operation *op) {
      Value m;
      if (auto load = dyn_cast<memref::LoadOp>(op))
        m = load.getMemRef();
      else if (auto store = dyn_cast<memref::StoreOp>(op))
        m = store.getMemRef();
      auto barg = dyn_cast_or_null<BlockArgument>(m);
      if (barg && barg.getArgNumber() == arg &&
          op->getParentOfType<scf::ForOp>())
        ++n;
    });
    return n;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

// What upstream's linalg-to-parallel-loops makes of a matmul: C is read
// and written on every step of k.
constexpr const char *kMatmulLoops = R"mlir(
func.func @mm(%A: memref<8x4xf32>, %B: memref<4x2xf32>, %C: memref<8x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c2) step (%c1, %c1) {
    scf.for %k = %c0 to %c4 step %c1 {
      %a = memref.load %A[%i, %k] : memref<8x4xf32>
      %b = memref.load %B[%k, %j] : memref<4x2xf32>
      %c = memref.load %C[%i, %j] : memref<8x2xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %c, %p : f32
      memref.store %s, %C[%i, %j] : memref<8x2xf32>
    }
    scf.reduce
  }
  return
}
)mlir";

TEST_F(PromoteAccumulatorsTest, MatmulAccumulatorLeavesTheLoop) {
  EXPECT_EQ(promote(kMatmulLoops), 1u);
  EXPECT_EQ(accessesInLoops(2), 0);
  scf::ForOp loop;
  module->walk([&](scf::ForOp f) { loop = f; });
  ASSERT_TRUE(loop);
  EXPECT_EQ(loop.getNumRegionIterArgs(), 1u);
  // One load before the loop, one store after it.
  auto load = dyn_cast_or_null<memref::LoadOp>(loop->getPrevNode());
  auto store = dyn_cast_or_null<memref::StoreOp>(loop->getNextNode());
  ASSERT_TRUE(load && store);
  EXPECT_EQ(store.getValueToStore(), loop.getResult(0));
  EXPECT_EQ(loop.getInitArgs().front(), load.getResult());
}

// A convolution's three reduction loops: the accumulator climbs out of all.
TEST_F(PromoteAccumulatorsTest, NestedReductionsPromoteThroughEveryLevel) {
  EXPECT_EQ(promote(R"mlir(
func.func @f(%X: memref<4x4xf32>, %O: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%o) = (%c0) to (%c2) step (%c1) {
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %s = %c0 to %c4 step %c1 {
        %x = memref.load %X[%r, %s] : memref<4x4xf32>
        %acc = memref.load %O[%o] : memref<2xf32>
        %sum = arith.addf %acc, %x : f32
        memref.store %sum, %O[%o] : memref<2xf32>
      }
    }
    scf.reduce
  }
  return
}
)mlir"),
            2u);
  EXPECT_EQ(accessesInLoops(1), 0);
}

// The input is a view of the output: a step may read an element an earlier
// step wrote, so the output must stay in memory.
TEST_F(PromoteAccumulatorsTest, ReadOfTheSameBufferKeepsTheStores) {
  EXPECT_EQ(promote(R"mlir(
func.func @f(%O: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %in = memref.subview %O[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  scf.for %k = %c0 to %c4 step %c1 {
    %x = memref.load %in[%k] : memref<4xf32, strided<[1], offset: 4>>
    %acc = memref.load %O[%c0] : memref<8xf32>
    %sum = arith.addf %acc, %x : f32
    memref.store %sum, %O[%c0] : memref<8xf32>
  }
  return
}
)mlir"),
            0u);
  EXPECT_EQ(accessesInLoops(0), 2);
}

// Another write in the loop, an index that moves with the loop, or a second
// read of the element: each keeps the loop as it was.
TEST_F(PromoteAccumulatorsTest, OtherWritesAndMovingIndicesAreLeftAlone) {
  EXPECT_EQ(promote(R"mlir(
func.func @f(%X: memref<4xf32>, %O: memref<4xf32>, %P: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %k = %c0 to %c4 step %c1 {
    %x = memref.load %X[%k] : memref<4xf32>
    %acc = memref.load %O[%c0] : memref<4xf32>
    %sum = arith.addf %acc, %x : f32
    memref.store %sum, %O[%c0] : memref<4xf32>
    memref.store %x, %P[%k] : memref<4xf32>
  }
  scf.for %k = %c0 to %c4 step %c1 {
    %x = memref.load %X[%k] : memref<4xf32>
    %acc = memref.load %O[%k] : memref<4xf32>
    %sum = arith.addf %acc, %x : f32
    memref.store %sum, %O[%k] : memref<4xf32>
  }
  scf.for %k = %c0 to %c4 step %c1 {
    %acc = memref.load %O[%c0] : memref<4xf32>
    %again = memref.load %O[%c0] : memref<4xf32>
    %sum = arith.addf %acc, %again : f32
    memref.store %sum, %O[%c0] : memref<4xf32>
  }
  return
}
)mlir"),
            0u);
}

} // namespace
