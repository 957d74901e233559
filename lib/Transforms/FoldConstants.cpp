//===- FoldConstants.cpp - Fold the compile-time work of a model ----------===//
//
// Frontends emit weight transposes, broadcasts and casts of constants as
// linalg ops; run as they are, they would rank as hot ops of their own. The
// patterns here fold them; the pass applies them with the reshape and cast
// folders of the tensor dialect, then drops the globals nobody loads.
//
//===----------------------------------------------------------------------===//

#include "stark/Transforms/FoldConstants.h"
#include "stark/Analysis/ElidedWeights.h"
#include "stark/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cstring>

namespace mlir::stark {
#define GEN_PASS_DEF_STARKFOLDCONSTANTSPASS
#include "stark/Transforms/Passes.h.inc"
} // namespace mlir::stark

using namespace mlir;
using namespace mlir::stark;

namespace {

/// `ml_program.global_load_const @g` of `ml_program.global private @g(v)`
/// is `arith.constant v`.
struct LoadOfConstantGlobal
    : public OpRewritePattern<ml_program::GlobalLoadConstOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ml_program::GlobalLoadConstOp load,
                                PatternRewriter &rewriter) const override {
    auto global = SymbolTable::lookupNearestSymbolFrom<ml_program::GlobalOp>(
        load, load.getGlobalAttr());
    if (!global || global.getIsMutable() || !global.getValue())
      return failure();
    auto value = dyn_cast<ElementsAttr>(*global.getValue());
    if (!value || value.getType() != load.getType())
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(load, value);
    return success();
  }
};

/// Whether `op` is a linalg op on static tensors (not a fill) with only
/// parallel loops: each output element depends on one point.
bool isParallelOnStaticTensors(linalg::LinalgOp op) {
  if (isa<linalg::FillOp>(op) || !op.hasPureTensorSemantics() ||
      op.getNumReductionLoops() != 0 || op->getNumResults() == 0)
    return false;
  return llvm::all_of(op->getResultTypes(), [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && tensor.hasStaticShape();
  });
}

int64_t getNumBytes(RankedTensorType type) {
  return type.getNumElements() *
         int64_t(llvm::divideCeil(type.getElementTypeBitWidth(), 8));
}

/// A transpose, broadcast or copy of a dense constant: the payload yields
/// its one input unchanged, so the result is the constant's elements,
/// moved. Computed on the raw bytes.
struct ForwardedConstant : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  ForwardedConstant(MLIRContext *ctx, int64_t maxBytes)
      : OpInterfaceRewritePattern(ctx), maxBytes(maxBytes) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isParallelOnStaticTensors(op) || op.getNumDpsInputs() != 1 ||
        op.getNumDpsInits() != 1)
      return failure();
    Block *body = op.getBlock();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    if (&body->front() != yield.getOperation() ||
        yield.getValues()[0] != body->getArgument(0))
      return failure();
    OpOperand *input = op.getDpsInputOperand(0);
    DenseElementsAttr value;
    if (!matchPattern(input->get(), m_Constant(&value)))
      return failure();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (value.getElementType() != type.getElementType())
      return failure();
    if (value.isSplat()) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, DenseElementsAttr::get(type, value.getSplatValue<Attribute>()));
      return success();
    }
    unsigned bits = type.getElementTypeBitWidth();
    if (bits % 8 != 0 || getNumBytes(type) > maxBytes)
      return failure();
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    AffineMap inMap = op.getMatchingIndexingMap(input);
    if (!outMap.isPermutation())
      return failure();
    auto inType = cast<RankedTensorType>(value.getType());
    // Each input dimension reads a loop or a constant index.
    SmallVector<int64_t> inDim(inMap.getNumResults(), -1), inConst;
    for (auto [i, expr] : llvm::enumerate(inMap.getResults())) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        inDim[i] = dim.getPosition();
      else if (auto c = dyn_cast<AffineConstantExpr>(expr))
        inConst.push_back(i), inDim[i] = -1 - c.getValue();
      else
        return failure();
    }
    SmallVector<int64_t> inStrides(inType.getRank(), 1);
    for (int64_t d = inType.getRank() - 2; d >= 0; --d)
      inStrides[d] = inStrides[d + 1] * inType.getDimSize(d + 1);

    int64_t bytes = bits / 8, count = type.getNumElements();
    ArrayRef<char> raw = value.getRawData();
    std::vector<char> out(count * bytes);
    SmallVector<int64_t> index(type.getRank(), 0), loops(op.getNumLoops(), 0);
    for (int64_t o = 0; o < count; ++o) {
      for (auto [r, i] : llvm::enumerate(index))
        loops[outMap.getDimPosition(r)] = i;
      int64_t j = 0;
      for (auto [k, d] : llvm::enumerate(inDim))
        j += (d >= 0 ? loops[d] : -1 - d) * inStrides[k];
      std::memcpy(out.data() + o * bytes, raw.data() + j * bytes, bytes);
      for (int64_t r = type.getRank() - 1; r >= 0; --r) {
        if (++index[r] < type.getDimSize(r))
          break;
        index[r] = 0;
      }
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, DenseElementsAttr::getFromRawBuffer(type, out));
    return success();
  }

  int64_t maxBytes;
};

/// An all-parallel op whose inputs are splats or scalar constants computes
/// one value everywhere: its payload, folded once.
struct SplatPayload : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isParallelOnStaticTensors(op))
      return failure();
    llvm::DenseMap<Value, Attribute> values;
    Block *body = op.getBlock();
    for (OpOperand &operand : op->getOpOperands()) {
      BlockArgument arg = op.getMatchingBlockArgument(&operand);
      if (op.isDpsInit(&operand) && !op.payloadUsesValueFromOperand(&operand))
        continue;
      Attribute attr;
      if (!matchPattern(operand.get(), m_Constant(&attr)))
        return failure();
      if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
        if (!dense.isSplat())
          return failure();
        attr = dense.getSplatValue<Attribute>();
      } else if (isa<ShapedType>(operand.get().getType())) {
        return failure();
      }
      values[arg] = attr;
    }
    for (Operation &inner : body->without_terminator()) {
      if (inner.getNumRegions() != 0 || isa<linalg::IndexOp>(inner))
        return failure();
      SmallVector<Attribute> operands;
      for (Value v : inner.getOperands()) {
        // Values from outside the payload: scalar constants.
        Attribute attr = values.lookup(v);
        if (!attr && !matchPattern(v, m_Constant(&attr)))
          return failure();
        operands.push_back(attr);
      }
      SmallVector<OpFoldResult> results;
      if (failed(inner.fold(operands, results)) ||
          results.size() != inner.getNumResults())
        return failure();
      for (auto [result, folded] : llvm::zip(inner.getResults(), results)) {
        Attribute attr = dyn_cast<Attribute>(folded);
        if (!attr)
          attr = values.lookup(cast<Value>(folded));
        if (!attr)
          return failure();
        values[result] = attr;
      }
    }
    SmallVector<Value> replacements;
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    for (auto [result, v] : llvm::zip(op->getResults(), yield.getValues())) {
      Attribute attr = values.lookup(v);
      if (!attr && !matchPattern(v, m_Constant(&attr)))
        return failure();
      auto typed = dyn_cast<TypedAttr>(attr);
      auto type = cast<RankedTensorType>(result.getType());
      if (!typed || typed.getType() != type.getElementType())
        return failure();
      replacements.push_back(arith::ConstantOp::create(
          rewriter, op.getLoc(), DenseElementsAttr::get(type, attr)));
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

struct StarkFoldConstantsPass
    : public stark::impl::StarkFoldConstantsPassBase<StarkFoldConstantsPass> {
  using StarkFoldConstantsPassBase::StarkFoldConstantsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (maxBytes < 0) {
      module.emitError() << "stark-fold-constants: max-fold-bytes must not "
                            "be negative, got "
                         << int64_t(maxBytes);
      return signalPassFailure();
    }
    if (failed(handleMissingWeights(module)))
      return signalPassFailure();

    int64_t linalgBefore = 0, linalgAfter = 0;
    module.walk([&](linalg::LinalgOp) { ++linalgBefore; });

    RewritePatternSet patterns(ctx);
    populateFoldConstantsPatterns(patterns, maxBytes);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CastOp::getCanonicalizationPatterns(patterns, ctx);
    if (failed(applyPatternsGreedily(module, std::move(patterns)))) {
      module.emitError() << "stark-fold-constants: folding did not converge";
      return signalPassFailure();
    }
    module.walk([&](linalg::LinalgOp) { ++linalgAfter; });
    numFolded += linalgBefore - linalgAfter;

    // Private globals nobody reads any more would keep a second copy of
    // the weights in the output.
    SmallVector<Operation *> unused;
    for (auto global : module.getOps<ml_program::GlobalOp>())
      if (global.isPrivate() &&
          SymbolTable::symbolKnownUseEmpty(global, module))
        unused.push_back(global);
    for (Operation *global : unused)
      global->erase();
    if (linalgBefore != linalgAfter)
      module.emitRemark() << "stark-fold-constants: folded "
                          << (linalgBefore - linalgAfter)
                          << " linalg op(s) computing from constants alone";
  }

  /// Weights without data: synthesised when asked, before anything copies
  /// them, else a warning that the program cannot run.
  LogicalResult handleMissingWeights(ModuleOp module) {
    if (!synthesizeElidedWeights) {
      std::vector<MissingWeight> missing = findMissingWeights(module);
      if (!missing.empty())
        emitMissingWeightsWarning(missing,
                                  "--stark-pipeline=\"synthesize-elided-"
                                  "weights=1\" or --stark-fold-constants="
                                  "\"synthesize-elided-weights=1\"");
      return success();
    }
    FailureOr<std::vector<MissingWeight>> synthesized =
        synthesizeMissingWeights(module);
    if (failed(synthesized))
      return failure();
    for (const MissingWeight &w : *synthesized) {
      ++numSynthesized;
      w.holder->emitRemark()
          << "weight '" << w.name << "' of type " << w.attr.getType()
          << " synthesised: it had no data; deterministic values stand in "
             "for it, for timing and verification only";
    }
    return success();
  }
};

} // namespace

void mlir::stark::populateFoldConstantsPatterns(RewritePatternSet &patterns,
                                                int64_t maxBytes) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<LoadOfConstantGlobal, SplatPayload>(ctx);
  patterns.add<ForwardedConstant>(ctx, maxBytes);
}
