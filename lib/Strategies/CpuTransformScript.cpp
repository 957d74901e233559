//===- CpuTransformScript.cpp - A host schedule as a transform script -----===//
//
// The transform-dialect script of a CpuSchedule (buildCpuTransformScript):
// tiling for threads, caches and registers, vectorisation, the vector
// lowerings the schedule names, bufferisation of the tensor-form schedules
// and the clean-up that lets accumulators stay in registers. Which
// schedules a problem gets is CpuStrategies.cpp's part.
//
//===----------------------------------------------------------------------===//

#include "Cpu/CpuFusedGroup.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/TransformOps/BufferizationTransformOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/TransformOps/FuncTransformOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/TransformOps/DialectExtension.h"
#include "mlir/Dialect/Linalg/TransformOps/LinalgTransformOps.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/TransformOps/MemRefTransformOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/TransformOps/VectorTransformOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "stark/Analysis/InitFill.h"
#include "stark/Analysis/ProblemView.h"
#include "stark/Dialect/StarkDialect.h"
#include "stark/Strategies/CpuStrategies.h"
#include "stark/Strategies/TransformScript.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

void mlir::stark::registerCpuStrategyDialects(DialectRegistry &registry) {
  registerStarkDialect(registry);
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, func::FuncDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect, tensor::TensorDialect,
                  transform::TransformDialect, ub::UBDialect,
                  vector::VectorDialect>();
  linalg::registerTransformDialectExtension(registry);
  vector::registerTransformDialectExtension(registry);
  scf::registerTransformDialectExtension(registry);
  memref::registerTransformDialectExtension(registry);
  func::registerTransformDialectExtension(registry);
  bufferization::registerTransformDialectExtension(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  memref::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
  // Tensor-form schedules are bufferised at the end of their script.
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
}

/// cpu-softmax-rows: decompose into max, exp, sum and divide, then fuse all
/// four (and their fills) into the loop over blocks of rows of the last one.
static void buildSoftmaxRowsSteps(TransformScriptBuilder &w, Value root,
                                  const CpuSchedule &s) {
  OpBuilder &b = w.getBuilder();
  Location loc = w.getLoc();
  Value softmax = w.matchOps(root, {"linalg.softmax"});
  transform::DecomposeInterfaceOp::create(b, loc, w.getAnyOpType(), softmax);
  Value parts = w.matchOps(root, {"linalg.generic", "linalg.fill"});
  auto split = transform::SplitHandleOp::create(b, loc, parts, 6);
  Value forall = w.tileUsingForall(split.getResult(5), s.registerTiles).second;
  for (int i = 4; i >= 0; --i)
    forall = transform::FuseIntoContainingOp::create(b, loc, split.getResult(i),
                                                     forall)
                 .getNewContainingOp();
}

/// The tiling of a single op: threads, cache tiles, register tiles, then
/// the vectoriser on the innermost tile.
static void buildTileSteps(TransformScriptBuilder &w, Value root,
                           const CpuSchedule &s, bool parallel,
                           bool vectorize) {
  OpBuilder &b = w.getBuilder();
  Location loc = w.getLoc();
  Value current = w.matchLinalgOps(root);
  Value fill;
  if (s.fuseInitFill) {
    // The output's fill and the op, in program order.
    auto split = transform::SplitHandleOp::create(b, loc, current, 2);
    fill = split.getResult(0);
    current = split.getResult(1);
  }
  if (parallel) {
    auto [tiled, forall] = w.tileUsingForall(current, s.threadTiles);
    current = tiled;
    // Each thread fills the tile of the output it computes.
    if (fill)
      transform::FuseIntoContainingOp::create(b, loc, fill, forall);
  }
  current = w.tileUsingFor(current, s.cacheTiles).first;
  if (vectorize)
    current = w.tileUsingFor(current, s.registerTiles).first;
  if (s.decomposeWindows) {
    // Unit output rows and filter rows: the 2-D window op becomes its 1-D
    // form, which the vectoriser handles. A 1-D op stays as it is.
    current = transform::DecomposeOp::create(b, loc, w.getAnyOpType(), current);
  }
  if (vectorize)
    transform::VectorizeOp::create(b, loc, current, ValueRange(),
                                   DenseI64ArrayAttr(), UnitAttr(), UnitAttr(),
                                   b.getUnitAttr(), DenseBoolArrayAttr());
}

/// Lowers the vector contractions and reductions of `func` the way the
/// schedule names. The transfers stay transfers until the cleanup has
/// hoisted the accumulator's out of the reduction loops (lowered to loads
/// and stores first, a row reduction's 1-element accumulator stayed in
/// memory, read and written at every step).
static void
buildVectorLowering(TransformScriptBuilder &w, Value func,
                    vector::VectorContractLowering contractionLowering,
                    vector::VectorMultiReductionLowering reductionLowering) {
  MLIRContext *ctx = w.getBuilder().getContext();
  w.applyPatterns(func, [&](OpBuilder &b, Location loc) {
    transform::ApplyLowerContractionPatternsOp::create(
        b, loc,
        vector::VectorContractLoweringAttr::get(ctx, contractionLowering));
    transform::ApplyLowerMultiReductionPatternsOp::create(
        b, loc,
        vector::VectorMultiReductionLoweringAttr::get(ctx, reductionLowering));
    transform::ApplyTransferPermutationPatternsOp::create(b, loc);
    transform::ApplyLowerOuterProductPatternsOp::create(b, loc);
    transform::ApplyCanonicalizationPatternsOp::create(b, loc);
  });
}

/// Slices folded into the accesses, copies of a tile onto itself (left by
/// bufferisation) removed: then the accumulator's reads and writes are
/// loop-invariant and hoisted out of the reduction loops.
static void buildCleanup(TransformScriptBuilder &w, Value func,
                         bool vectorize) {
  OpBuilder &b = w.getBuilder();
  Location loc = w.getLoc();
  w.applyPatterns(func, [&](OpBuilder &b, Location loc) {
    transform::ApplyFoldMemrefAliasOpsPatternsOp::create(b, loc);
    transform::ApplyCanonicalizationPatternsOp::create(b, loc);
  });
  w.applyCse(func);
  w.applyPatterns(func, [&](OpBuilder &b, Location loc) {
    transform::ApplyCanonicalizationPatternsOp::create(b, loc);
  });
  if (!vectorize)
    return;
  Value hoisted = transform::HoistRedundantVectorTransfersOp::create(
      b, loc, w.getAnyOpType(), func, UnitAttr());
  // Folding the slices leaves transfers that skip unit dimensions;
  // unrolled to 1-D here, they never reach the target's lowering, which
  // would stage them through stack buffers inside the loops.
  w.applyPatterns(hoisted, [&](OpBuilder &b, Location loc) {
    transform::ApplyTransferPermutationPatternsOp::create(b, loc);
    transform::ApplyTransferToScfPatternsOp::create(
        b, loc, b.getI64IntegerAttr(1), b.getBoolAttr(true));
    transform::ApplyLowerTransferPatternsOp::create(b, loc,
                                                    b.getI64IntegerAttr(1));
    transform::ApplyCanonicalizationPatternsOp::create(b, loc);
  });
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::stark::buildCpuTransformScript(MLIRContext *ctx, const CpuSchedule &s,
                                     std::string &error) {
  std::optional<vector::VectorContractLowering> contractionLowering =
      vector::symbolizeVectorContractLowering(s.contractionLowering);
  std::optional<vector::VectorMultiReductionLowering> reductionLowering =
      vector::symbolizeVectorMultiReductionLowering(s.reductionLowering);
  if (!contractionLowering || !reductionLowering) {
    error = "unknown vector lowering: contraction '" + s.contractionLowering +
            "', reduction '" + s.reductionLowering + "'";
    return failure();
  }
  DialectRegistry registry;
  registerCpuStrategyDialects(registry);
  ctx->appendDialectRegistry(registry);
  ctx->loadDialect<transform::TransformDialect, vector::VectorDialect,
                   bufferization::BufferizationDialect>();

  bool tensors = s.onTensors();
  bool vectorize = s.family != kCpuTileLoops;
  bool parallel = llvm::any_of(s.threadTiles, [](int64_t t) { return t; });
  bool rowBlocks = s.family == kCpuSoftmaxRows || s.family == kCpuFusedRows;
  TransformScriptBuilder w(ctx, /*consumesRoot=*/tensors);
  OpBuilder &b = w.getBuilder();
  Location loc = w.getLoc();
  Type anyOp = w.getAnyOpType();
  Value root = w.getRoot();

  // cpu-fused-rows is tiled and fused before the script runs
  // (tileAndFuseRows): the loop over rows exists, its body is vectorised
  // below.
  if (s.family == kCpuSoftmaxRows)
    buildSoftmaxRowsSteps(w, root, s);
  else if (s.family != kCpuFusedRows)
    buildTileSteps(w, root, s, parallel, vectorize);

  Value func = w.matchOps(root, {"func.func"});
  if (rowBlocks)
    func = transform::VectorizeChildrenAndApplyPatternsOp::create(b, loc, func);
  if (vectorize)
    buildVectorLowering(w, func, *contractionLowering, *reductionLowering);
  if (tensors) {
    root = transform::OneShotBufferizeOp::create(
        b, loc, anyOp, root, bufferization::LayoutMapOptionAttr(),
        /*allow_return_allocs_from_loops=*/BoolAttr(),
        /*allow_unknown_ops=*/BoolAttr(),
        /*bufferize_function_boundaries=*/b.getBoolAttr(false));
    func = w.matchOps(root, {"func.func"});
  }
  // The fill of each thread's tile, as loops (memory-bound: a vector form
  // would only unroll them).
  if (s.fuseInitFill)
    transform::ConvertToLoopsOp::create(b, loc, anyOp,
                                        w.matchOps(root, {"linalg.fill"}));
  if (parallel || rowBlocks)
    transform::ForallToParallelOp::create(b, loc, TypeRange{anyOp},
                                          w.matchOps(root, {"scf.forall"}));
  buildCleanup(w, func, vectorize);
  return w.finish(error);
}
