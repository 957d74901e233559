//===- ProblemAnalysis.cpp - What the evaluator needs from a problem ------===//

#include "stark/Eval/ProblemAnalysis.h"
#include "stark/Dialect/StarkAttrs.h"
#include "stark/Eval/Inputs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::stark;

static bool isOutputRead(BlockArgument arg) {
  // A fill of the whole argument before anything else uses it (the init of
  // a fill + contraction problem): the old value is never read.
  Operation *first = nullptr;
  for (Operation *user : arg.getUsers())
    if (user->getBlock() == arg.getOwner() &&
        (!first || user->isBeforeInBlock(first)))
      first = user;
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(first);
      fill && fill.getOutputs()[0] == arg &&
      llvm::all_of(arg.getUsers(), [&](Operation *user) {
        return user->getBlock() == arg.getOwner();
      }))
    return false;
  for (OpOperand &use : arg.getUses()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner());
    // A linalg init whose payload never reads the old value (a fill, a
    // copy, an element-wise op) only writes; anything else may read.
    if (linalgOp && linalgOp.isDpsInit(&use) &&
        !linalgOp.payloadUsesValueFromOperand(&use))
      continue;
    return true;
  }
  return false;
}

/// The static loop ranges of an op that computes, and whether each one
/// reduces: a structured linalg op's own; for linalg.softmax its input's
/// dimensions, the softmax dimension a reduction (its max and its sum run
/// along it). False for any other op.
static bool getLoops(Operation *op, SmallVector<int64_t> &ranges,
                     SmallVector<bool> &reduces) {
  ranges.clear();
  reduces.clear();
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    ranges = linalgOp.getStaticLoopRanges();
    for (utils::IteratorType it : linalgOp.getIteratorTypesArray())
      reduces.push_back(it == utils::IteratorType::reduction);
    return true;
  }
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    ArrayRef<int64_t> shape = softmax.getInputOperandType().getShape();
    ranges.assign(shape.begin(), shape.end());
    for (size_t d = 0; d < shape.size(); ++d)
      reduces.push_back(d == softmax.getDimension());
    return true;
  }
  return false;
}

/// The product of an op's static reduction loop ranges (1 without any).
static int64_t getOpReductionLength(ArrayRef<int64_t> ranges,
                                    ArrayRef<bool> reduces) {
  int64_t k = 1;
  for (auto [range, reduce] : llvm::zip(ranges, reduces))
    if (reduce && range > 0 && !ShapedType::isDynamic(range))
      k *= range;
  return k;
}

/// Calls `fn` with the loops (getLoops) of every op of `func` that has them.
static void
forEachOpLoops(func::FuncOp func,
               function_ref<void(ArrayRef<int64_t>, ArrayRef<bool>)> fn) {
  SmallVector<int64_t> ranges;
  SmallVector<bool> reduces;
  func.walk([&](Operation *op) {
    if (getLoops(op, ranges, reduces))
      fn(ranges, reduces);
  });
}

static int64_t getIterations(func::FuncOp func) {
  int64_t total = 0;
  forEachOpLoops(func, [&](ArrayRef<int64_t> ranges, ArrayRef<bool>) {
    int64_t n = 1;
    for (int64_t range : ranges)
      if (range > 0 && !ShapedType::isDynamic(range))
        n = n > INT64_MAX / range ? INT64_MAX : n * range;
    total = total > INT64_MAX - n ? INT64_MAX : total + n;
  });
  return total;
}

static int64_t getReductionLength(func::FuncOp func) {
  int64_t longest = 1;
  forEachOpLoops(func, [&](ArrayRef<int64_t> ranges, ArrayRef<bool> reduces) {
    longest = std::max(longest, getOpReductionLength(ranges, reduces));
  });
  return longest;
}

/// The buffer a view (subview, cast, reshape) is a view of.
static Value getRootBuffer(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// Per argument of `func`: the longest reduction on the chain of linalg
/// ops (and copies) that computes it, or 0 when no linalg op writes it.
static SmallVector<int64_t> getOutputReductionLengths(func::FuncOp func) {
  DenseMap<Value, int64_t> length; // written buffer -> longest reduction
  auto lengthOf = [&](Value v) { return length.lookup(getRootBuffer(v)); };
  SmallVector<int64_t> ranges;
  SmallVector<bool> reduces;
  func.walk([&](Operation *op) {
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      int64_t &to = length[getRootBuffer(copy.getTarget())];
      to = std::max({to, lengthOf(copy.getSource()), int64_t(1)});
      return;
    }
    auto dps = dyn_cast<DestinationStyleOpInterface>(op);
    if (!dps || !getLoops(op, ranges, reduces))
      return;
    int64_t k = getOpReductionLength(ranges, reduces);
    // What an input (or an output it reads) was computed with adds on.
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    for (OpOperand &operand : op->getOpOperands())
      if (isa<MemRefType>(operand.get().getType()) &&
          (!dps.isDpsInit(&operand) ||
           (linalgOp && linalgOp.payloadUsesValueFromOperand(&operand))))
        k = std::max(k, lengthOf(operand.get()));
    for (OpOperand &init : dps.getDpsInitsMutable()) {
      int64_t &to = length[getRootBuffer(init.get())];
      to = std::max(to, k);
    }
  });
  SmallVector<int64_t> lengths;
  for (BlockArgument arg : func.getArguments())
    lengths.push_back(length.lookup(arg));
  return lengths;
}

FailureOr<ProblemAnalysis> mlir::stark::analyzeProblem(ModuleOp problem,
                                                       std::string &error) {
  FailureOr<ProblemAttr> problemAttr = getProblemAttr(problem, error);
  if (failed(problemAttr))
    return failure();
  ProblemAttr attr = *problemAttr;
  ProblemAnalysis analysis;
  analysis.entry = attr.getEntry().str();
  analysis.numOutputs = unsigned(attr.getNumOutputs());
  analysis.opName = attr.getOp().str();

  std::string sigError;
  FailureOr<KernelSignature> sig = getKernelSignature(
      problem, analysis.entry, analysis.numOutputs, sigError);
  if (failed(sig)) {
    error = "problem: " + sigError;
    return failure();
  }
  analysis.signature = std::move(*sig);

  auto func = problem.lookupSymbol<func::FuncOp>(analysis.entry);
  if (func.isExternal()) {
    error = llvm::formatv("problem: '{0}' has no body", analysis.entry).str();
    return failure();
  }
  bool anyF32 = false, otherFloat = false;
  for (auto [i, spec] : llvm::enumerate(analysis.signature.args)) {
    analysis.outputIsRead.push_back(spec.isOutput &&
                                    isOutputRead(func.getArgument(i)));
    if (spec.kind == ElementKind::F16 || spec.kind == ElementKind::BF16)
      analysis.isLowPrecision = true;
    anyF32 |= spec.kind == ElementKind::F32;
    otherFloat |= isFloatKind(spec.kind) && spec.kind != ElementKind::F32;
  }
  analysis.isSinglePrecision = anyF32 && !otherFloat;
  analysis.reductionLength = getReductionLength(func);
  analysis.outputReductionLength = getOutputReductionLengths(func);
  for (auto [i, spec] : llvm::enumerate(analysis.signature.args))
    if (!spec.isOutput)
      analysis.outputReductionLength[i] = 0;
  analysis.iterations = getIterations(func);
  return analysis;
}

std::string mlir::stark::formatArgSpec(const ArgSpec &spec) {
  std::string text = "memref<";
  for (int64_t d : spec.shape)
    text += std::to_string(d) + "x";
  text += stringifyElementKind(spec.kind).str() + ">";
  return text;
}

LogicalResult mlir::stark::checkSameSignature(const KernelSignature &problem,
                                              const KernelSignature &candidate,
                                              std::string &error) {
  if (problem.args.size() != candidate.args.size()) {
    error =
        llvm::formatv("candidate signature differs from the problem: "
                      "'{0}' takes {1} arguments in the problem but {2} "
                      "in the candidate",
                      problem.entry, problem.args.size(), candidate.args.size())
            .str();
    return failure();
  }
  for (auto [i, p, c] : llvm::enumerate(problem.args, candidate.args)) {
    if (p.shape == c.shape && p.kind == c.kind)
      continue;
    error = llvm::formatv("candidate signature differs from the problem: "
                          "argument #{0} of '{1}' is {2} in the problem but "
                          "{3} in the candidate",
                          i, problem.entry, formatArgSpec(p), formatArgSpec(c))
                .str();
    return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Promotion to f32
//===----------------------------------------------------------------------===//

/// `t` with every float narrower than `wide` replaced by `wide`.
static Type promoteType(Type t, FloatType wide) {
  MLIRContext *ctx = t.getContext();
  if (auto f = dyn_cast<FloatType>(t))
    return f.getWidth() < wide.getWidth() ? wide : t;
  if (auto memref = dyn_cast<MemRefType>(t)) {
    Type e = promoteType(memref.getElementType(), wide);
    if (e != memref.getElementType())
      return MemRefType::get(memref.getShape(), e, memref.getLayout(),
                             memref.getMemorySpace());
    return t;
  }
  if (auto shaped = dyn_cast<ShapedType>(t)) {
    if (!isa<VectorType, RankedTensorType, UnrankedTensorType>(t))
      return t;
    Type e = promoteType(shaped.getElementType(), wide);
    return e != shaped.getElementType() ? shaped.clone(e) : t;
  }
  if (auto fn = dyn_cast<FunctionType>(t)) {
    SmallVector<Type> ins, outs;
    for (Type in : fn.getInputs())
      ins.push_back(promoteType(in, wide));
    for (Type out : fn.getResults())
      outs.push_back(promoteType(out, wide));
    return FunctionType::get(ctx, ins, outs);
  }
  return t;
}

/// Widens a float constant value narrower than `wide`; null when it is not
/// one. Every narrower float is exactly representable in the wider type.
static Attribute promoteConstant(Attribute value, FloatType wide) {
  if (auto f = dyn_cast<FloatAttr>(value)) {
    if (promoteType(f.getType(), wide) == f.getType())
      return nullptr;
    return FloatAttr::get(wide, f.getValue().convertToDouble());
  }
  if (auto dense = dyn_cast<DenseFPElementsAttr>(value)) {
    if (promoteType(dense.getElementType(), wide) == dense.getElementType())
      return nullptr;
    auto type = cast<ShapedType>(promoteType(dense.getType(), wide));
    auto convert = [&](APFloat v) {
      bool lost = false;
      v.convert(wide.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      return v;
    };
    // A model's weights: a splat stays one value, and f32 into f64 goes
    // through plain doubles rather than an APFloat per element.
    if (dense.isSplat())
      return DenseElementsAttr::get(type,
                                    convert(dense.getSplatValue<APFloat>()));
    if (dense.getElementType().isF32() && wide.isF64()) {
      std::vector<double> values;
      values.reserve(dense.getNumElements());
      for (float v : dense.getValues<float>())
        values.push_back(v);
      return DenseElementsAttr::get(type, ArrayRef<double>(values));
    }
    SmallVector<APFloat> values;
    for (APFloat v : dense.getValues<APFloat>()) {
      bool lost = false;
      v.convert(wide.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      values.push_back(v);
    }
    return DenseElementsAttr::get(type, values);
  }
  return nullptr;
}

namespace {
/// An output of a linalg op to round after it (promoteFloats with
/// roundResults): init `init` of `op`, whose element type was `narrow`.
struct ResultRounding {
  Operation *op;
  unsigned init;
  FloatType narrow;
};
} // namespace

/// The outputs of the linalg ops of `module` whose element type is a float
/// narrower than `wide`.
static SmallVector<ResultRounding> findNarrowResults(ModuleOp module,
                                                     FloatType wide) {
  SmallVector<ResultRounding> found;
  module->walk([&](linalg::LinalgOp op) {
    for (auto [i, init] : llvm::enumerate(op.getDpsInits())) {
      auto type = dyn_cast<FloatType>(getElementTypeOrSelf(init.getType()));
      if (type && type.getWidth() < wide.getWidth())
        found.push_back({op, unsigned(i), type});
    }
  });
  return found;
}

/// Rounds each found output to its old type and back, in a generic right
/// after its op: in place for a buffer, as a new value for a tensor (whose
/// later uses then read the rounded one).
static void insertResultRoundings(ArrayRef<ResultRounding> roundings,
                                  FloatType wide) {
  for (const ResultRounding &r : roundings) {
    auto op = cast<linalg::LinalgOp>(r.op);
    OpBuilder b(r.op->getContext());
    b.setInsertionPointAfter(r.op);
    Location loc = r.op->getLoc();
    Value init = op.getDpsInits()[r.init];
    bool tensor = isa<RankedTensorType>(init.getType());
    Value target = tensor ? r.op->getResult(r.init) : init;
    auto type = cast<ShapedType>(target.getType());
    int64_t rank = type.getRank();
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto round = linalg::GenericOp::create(
        b, loc, tensor ? TypeRange{type} : TypeRange{}, ValueRange{},
        ValueRange{target}, ArrayRef{b.getMultiDimIdentityMap(rank)}, iterators,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value narrow = arith::TruncFOp::create(nb, l, r.narrow, args[0]);
          Value back = arith::ExtFOp::create(nb, l, wide, narrow);
          linalg::YieldOp::create(nb, l, back);
        });
    if (tensor)
      target.replaceAllUsesExcept(round->getResult(0), round);
  }
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::stark::promoteFloats(ModuleOp problem, FloatType wide, std::string &error,
                           bool roundResults, int64_t *numRounded) {
  std::string what = "cannot promote the problem to " +
                     llvm::formatv("f{0}", wide.getWidth()).str() + ": ";
  OwningOpRef<ModuleOp> module(problem.clone());
  MLIRContext *ctx = module->getContext();

  // Named ops carry their payload implicitly, typed by their operands;
  // only a generic op's payload can be retyped.
  SmallVector<linalg::LinalgOp> named;
  module->walk([&](linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp>(op))
      named.push_back(op);
  });
  IRRewriter rewriter(ctx);
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::generalizeNamedOp(rewriter, op))) {
      error = what +
              llvm::formatv("'{0}' cannot be generalized", op->getName()).str();
      return failure();
    }
  }

  SmallVector<ResultRounding> roundings;
  if (roundResults)
    roundings = findNarrowResults(*module, wide);
  if (numRounded)
    *numRounded = int64_t(roundings.size());

  std::string unsupported;
  module->walk([&](Operation *op) {
    // A global of narrower floats (a model's weights) is widened with its
    // initial value; one whose value cannot be read here (a resource) is
    // not.
    if (auto global = dyn_cast<memref::GlobalOp>(op)) {
      MemRefType type = global.getType();
      auto widened = cast<MemRefType>(promoteType(type, wide));
      if (widened == type)
        return WalkResult::advance();
      std::optional<Attribute> init = global.getInitialValue();
      bool hasValue = init && !isa<UnitAttr>(*init);
      Attribute value = hasValue ? promoteConstant(*init, wide) : Attribute();
      if (hasValue && !value) {
        unsupported = "memref.global of a narrower float type whose initial "
                      "value is not a dense constant";
        return WalkResult::interrupt();
      }
      global.setType(widened);
      if (value)
        global.setInitialValueAttr(value);
      return WalkResult::advance();
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(promoteType(arg.getType(), wide));
    for (OpResult result : op->getResults())
      result.setType(promoteType(result.getType(), wide));
    if (auto func = dyn_cast<FunctionOpInterface>(op))
      func.setType(promoteType(func.getFunctionType(), wide));
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (Attribute widened = promoteConstant(constant.getValue(), wide))
        constant.setValueAttr(cast<TypedAttr>(widened));
    return WalkResult::advance();
  });
  if (!unsupported.empty()) {
    error = what + unsupported;
    return failure();
  }

  // Casts between the old and the new type are now casts to themselves.
  SmallVector<Operation *> noops;
  module->walk([&](Operation *op) {
    if (isa<arith::ExtFOp, arith::TruncFOp>(op) &&
        op->getOperand(0).getType() == op->getResult(0).getType())
      noops.push_back(op);
  });
  for (Operation *op : noops) {
    op->getResult(0).replaceAllUsesWith(op->getOperand(0));
    op->erase();
  }
  insertResultRoundings(roundings, wide);

  std::string diagnostics;
  {
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      llvm::raw_string_ostream os(diagnostics);
      if (!diagnostics.empty())
        os << "; ";
      os << diag;
      return success();
    });
    if (failed(verify(*module))) {
      error = what + (diagnostics.empty()
                          ? std::string("the result does not verify")
                          : diagnostics);
      return failure();
    }
  }
  return module;
}
