//===- TestModules.h - Problems and candidates shared by the tests --------===//

#ifndef STARK_UNITTESTS_EVAL_TESTMODULES_H
#define STARK_UNITTESTS_EVAL_TESTMODULES_H

#include "stark/Eval/Evaluator.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <memory>

namespace mlir::stark::test {

inline std::unique_ptr<MLIRContext> makeContext() {
  DialectRegistry registry;
  registerEvalDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->disableMultithreading();
  context->loadAllAvailableDialects();
  return context;
}

inline OwningOpRef<ModuleOp> parse(MLIRContext &context, StringRef source) {
  return parseSourceString<ModuleOp>(source, &context);
}

/// 5x3 * 3x4 f32 matmul; C is accumulated into.
inline constexpr const char *kMatmulProblem = R"mlir(
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", signature = "0">} {
  func.func @kernel(%A: memref<5x3xf32>, %B: memref<3x4xf32>, %C: memref<5x4xf32>) {
    linalg.matmul ins(%A, %B : memref<5x3xf32>, memref<3x4xf32>) outs(%C : memref<5x4xf32>)
    return
  }
}
)mlir";

/// The same matmul by hand, with loop bounds to be filled in.
inline std::string matmulLoops(int rows, int cols) {
  return R"mlir(
module {
  func.func @kernel(%A: memref<5x3xf32>, %B: memref<3x4xf32>, %C: memref<5x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %m = arith.constant )mlir" +
         std::to_string(rows) + R"mlir( : index
    %n = arith.constant )mlir" +
         std::to_string(cols) + R"mlir( : index
    scf.for %i = %c0 to %m step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        scf.for %k = %c0 to %c3 step %c1 {
          %a = memref.load %A[%i, %k] : memref<5x3xf32>
          %b = memref.load %B[%k, %j] : memref<3x4xf32>
          %c = memref.load %C[%i, %j] : memref<5x4xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          memref.store %s, %C[%i, %j] : memref<5x4xf32>
        }
      }
    }
    return
  }
}
)mlir";
}

} // namespace mlir::stark::test

#endif // STARK_UNITTESTS_EVAL_TESTMODULES_H
