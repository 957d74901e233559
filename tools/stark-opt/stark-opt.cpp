//===- stark-opt.cpp - The stark optimizer driver -------------------------===//
//
// mlir-opt with stark's passes and only the dialects stark works on.
//
//===----------------------------------------------------------------------===//

#include "stark/Eval/Evaluator.h"
#include "stark/Transforms/Passes.h"
#include "stark/Transforms/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect,
                  mlir::bufferization::BufferizationDialect,
                  mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
  // Candidates and winners may use any dialect a candidate may use.
  mlir::stark::registerEvalDialects(registry);
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::stark::registerStarkPasses();
  mlir::stark::registerStarkPipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "stark optimizer driver\n", registry));
}
