//===- FrontendConversions.cpp - What ML frontends leave, and their way in ===//

#include "stark/Transforms/FrontendConversions.h"
#include "stark/Eval/TensorProgram.h"

#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Conversion/ShapeToStandard/ShapeToStandard.h"
#include "mlir/Conversion/TensorToLinalg/TensorToLinalgPass.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToMLProgram/TosaToMLProgram.h"
#include "mlir/Conversion/TosaToSCF/TosaToSCF.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/MLProgram/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Shape/IR/Shape.h"
#include "mlir/Dialect/Shape/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/TensorInferTypeOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

// The conversions' header declares every conversion's registration; only
// those named here are instantiated, so only their passes are linked (the
// static build names their libraries in CMakeLists.txt). The dialects'
// pass headers declare their registrations themselves.
namespace mlir {
#define GEN_PASS_REGISTRATION_TOSATOLINALG
#define GEN_PASS_REGISTRATION_TOSATOLINALGNAMED
#define GEN_PASS_REGISTRATION_TOSATOARITHPASS
#define GEN_PASS_REGISTRATION_TOSATOTENSORPASS
#define GEN_PASS_REGISTRATION_TOSATOSCFPASS
#define GEN_PASS_REGISTRATION_TOSATOMLPROGRAM
#define GEN_PASS_REGISTRATION_CONVERTSHAPETOSTANDARDPASS
#define GEN_PASS_REGISTRATION_CONVERTCOMPLEXTOSTANDARDPASS
#define GEN_PASS_REGISTRATION_CONVERTTENSORTOLINALGPASS
#include "mlir/Conversion/Passes.h.inc"
} // namespace mlir

using namespace mlir;

void mlir::stark::registerFrontendDialects(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, cf::ControlFlowDialect,
                  complex::ComplexDialect, index::IndexDialect,
                  ml_program::MLProgramDialect, quant::QuantDialect,
                  shape::ShapeDialect, sparse_tensor::SparseTensorDialect,
                  tosa::TosaDialect, ub::UBDialect>();
  // One-shot bufferization of a whole model (what stark-eval does to a
  // program on tensors, and what a user runs after stark-substitute).
  registerTensorProgramDialects(registry);
  shape::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerInferTypeOpInterfaceExternalModels(registry);
}

void mlir::stark::registerFrontendConversionPasses() {
  registerTosaToLinalg();
  registerTosaToLinalgNamed();
  registerTosaToArithPass();
  registerTosaToTensorPass();
  registerTosaToSCFPass();
  registerTosaToMLProgram();
  tosa::registerTosaToLinalgPipelines();
  tosa::registerTosaInferShapesPass();
  tosa::registerTosaOptionalDecompositionsPass();
  tosa::registerTosaMakeBroadcastablePass();
  registerConvertShapeToStandardPass();
  registerConvertComplexToStandardPass();
  registerConvertTensorToLinalgPass();
  registerConvertElementwiseToLinalgPass();
  registerLinalgGeneralizeNamedOpsPass();
  registerLinalgElementwiseOpFusionPass();
  bufferization::registerOneShotBufferizePass();
  bufferization::registerBufferResultsToOutParamsPass();
  registerInliner();
  registerSymbolDCE();
}
