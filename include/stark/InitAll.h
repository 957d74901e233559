//===- InitAll.h - Register every stark dialect and pass --------*- C++ -*-===//
//
// The one place that says which dialects stark's IR may hold and which passes
// and pipelines stark provides. Tools, the mlir-opt plugin and unit tests call
// these instead of listing dialects of their own, so a new dialect or pass is
// registered in one line here.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_INITALL_H
#define STARK_INITALL_H

#include "stark/Dialect/StarkDialect.h"
#include "stark/Eval/Evaluator.h"
#include "stark/Transforms/FrontendConversions.h"
#include "stark/Transforms/Passes.h"
#include "stark/Transforms/Pipelines.h"
#include "stark/Tuning/TuningTransformOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir::stark {

/// The dialects of stark's input programs and problems, and every dialect a
/// candidate or a substituted winner may use.
inline void registerAllStarkDialects(DialectRegistry &registry) {
  registry
      .insert<arith::ArithDialect, bufferization::BufferizationDialect,
              func::FuncDialect, linalg::LinalgDialect, math::MathDialect,
              memref::MemRefDialect, scf::SCFDialect, tensor::TensorDialect>();
  registerEvalDialects(registry);
  registerStarkDialect(registry);
  // Tuning specs are transform scripts over stark's own transform ops.
  registry.insert<transform::TransformDialect>();
  registerTuningTransformExtension(registry);
}

/// stark's passes and `stark-pipeline`.
inline void registerAllStarkPasses() {
  registerStarkPasses();
  registerStarkPipelines();
}

/// Whole models as ML frontends emit them: their dialects and the upstream
/// conversions down to linalg (stark/Transforms/FrontendConversions.h).
/// stark-opt only: mlir-opt, which loads the plugin, has them already.
inline void registerFrontendSupport(DialectRegistry &registry) {
  registerFrontendDialects(registry);
  registerFrontendConversionPasses();
}

} // namespace mlir::stark

#endif // STARK_INITALL_H
