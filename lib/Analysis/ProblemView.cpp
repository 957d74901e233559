//===- ProblemView.cpp - The view of a problem the generators share -------===//
//
// Reads a kernel problem into a ProblemView: element kinds, the payload as a
// scalar program, loop ranges, linear access maps and the contraction,
// reduction, softmax and convolution structure of its op (the norm
// recogniser is NormView.cpp).
//
//===----------------------------------------------------------------------===//

#include "stark/Analysis/ProblemView.h"
#include "FusedView.h"
#include "NormView.h"

#include "stark/Analysis/InitFill.h"

#include "stark/Dialect/StarkAttrs.h"
#include "stark/Dialect/StarkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::stark;
using mlir::stark::detail::isArgNode;

//===----------------------------------------------------------------------===//
// Scalar programs
//===----------------------------------------------------------------------===//

bool ScalarProgram::usesArg(unsigned arg) const {
  SmallVector<bool> live = reachable();
  for (auto [i, node] : llvm::enumerate(nodes))
    if (live[i] && node.op == "arg" && node.position == int64_t(arg))
      return true;
  return false;
}

SmallVector<bool> ScalarProgram::reachable(ArrayRef<int> roots) const {
  SmallVector<bool> live(nodes.size(), false);
  for (int r : roots.empty() ? ArrayRef<int>(yields) : roots)
    live[r] = true;
  for (int i = int(nodes.size()) - 1; i >= 0; --i)
    if (live[i])
      for (int o : nodes[i].operands)
        live[o] = true;
  return live;
}

/// Ops a scalar program represents (each has a CUDA translation, see
/// emitOp in lib/Strategies/Cuda/CudaCodegen.cpp).
static const llvm::StringSet<> &getSupportedOps() {
  static const llvm::StringSet<> ops = {
      // arith, floating point
      "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf",
      "arith.negf", "arith.maximumf", "arith.minimumf", "arith.maxnumf",
      "arith.minnumf", "arith.cmpf", "arith.select",
      // arith, integer
      "arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.remsi",
      "arith.divui", "arith.remui", "arith.andi", "arith.ori", "arith.xori",
      "arith.shli", "arith.shrsi", "arith.shrui", "arith.maxsi", "arith.minsi",
      "arith.maxui", "arith.minui", "arith.cmpi",
      // arith, casts
      "arith.extf", "arith.truncf", "arith.sitofp", "arith.uitofp",
      "arith.fptosi", "arith.fptoui", "arith.extsi", "arith.extui",
      "arith.trunci", "arith.index_cast", "arith.index_castui",
      // math
      "math.exp", "math.exp2", "math.expm1", "math.log", "math.log2",
      "math.log10", "math.log1p", "math.tanh", "math.sqrt", "math.rsqrt",
      "math.erf", "math.erfc", "math.absf", "math.absi", "math.powf",
      "math.fpowi", "math.sin", "math.cos", "math.tan", "math.asin",
      "math.acos", "math.atan", "math.atan2", "math.sinh", "math.cosh",
      "math.asinh", "math.acosh", "math.atanh", "math.floor", "math.ceil",
      "math.round", "math.roundeven", "math.trunc", "math.fma", "math.copysign",
      "math.cbrt", "math.isnan", "math.isinf", "math.isfinite"};
  return ops;
}

static FailureOr<ScalarNode> makeConstantNode(Attribute value, Type type,
                                              std::string &whyNot) {
  FailureOr<ElementKind> kind = getElementKind(type);
  if (failed(kind)) {
    whyNot = "constant of unsupported type";
    return failure();
  }
  ScalarNode node;
  node.op = "const";
  node.kind = *kind;
  if (auto f = dyn_cast<FloatAttr>(value)) {
    node.floatValue = f.getValue().convertToDouble();
    return node;
  }
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    node.intValue = *kind == ElementKind::I1
                        ? int64_t(i.getValue().getZExtValue())
                        : i.getValue().getSExtValue();
    return node;
  }
  whyNot = "constant that is neither an integer nor a float";
  return failure();
}

bool mlir::stark::isPermutingCopy(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumDpsInputs() != 1 ||
      linalgOp.getNumDpsInits() != 1 || linalgOp.getNumReductionLoops() != 0 ||
      !llvm::all_of(linalgOp.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isPermutation(); }))
    return false;
  // The payload yields the input element as it is.
  Block *body = linalgOp.getBlock();
  Operation *yield = body->getTerminator();
  return yield->getNumOperands() == 1 &&
         yield->getOperand(0) == body->getArgument(0);
}

FailureOr<ScalarProgram>
mlir::stark::extractScalarProgram(Operation *op, std::string &whyNot) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp) {
    whyNot = "not a linalg structured op";
    return failure();
  }
  Block *block = linalgOp.getBlock();
  ScalarProgram program;
  DenseMap<Value, int> ids;
  auto push = [&](ScalarNode node) {
    program.nodes.push_back(std::move(node));
    return int(program.nodes.size()) - 1;
  };

  for (auto [i, arg] : llvm::enumerate(block->getArguments())) {
    FailureOr<ElementKind> kind = getElementKind(arg.getType());
    if (failed(kind)) {
      whyNot = llvm::formatv("payload argument #{0} has unsupported type", i);
      return failure();
    }
    program.argKinds.push_back(*kind);
    Value operand = op->getOperand(i);
    if (!isa<ShapedType>(operand.getType())) {
      Attribute value;
      if (!matchPattern(operand, m_Constant(&value))) {
        whyNot = llvm::formatv("scalar operand #{0} is not a constant", i);
        return failure();
      }
      FailureOr<ScalarNode> node =
          makeConstantNode(value, arg.getType(), whyNot);
      if (failed(node))
        return failure();
      ids[arg] = push(*node);
      continue;
    }
    ScalarNode node;
    node.op = "arg";
    node.kind = *kind;
    node.position = int64_t(i);
    ids[arg] = push(node);
  }

  // Values from above the payload: only constants can be folded in.
  auto lookup = [&](Value v) -> FailureOr<int> {
    auto it = ids.find(v);
    if (it != ids.end())
      return it->second;
    Attribute value;
    if (!matchPattern(v, m_Constant(&value))) {
      whyNot = "the payload uses a value defined outside it that is not a "
               "constant";
      return failure();
    }
    FailureOr<ScalarNode> node = makeConstantNode(value, v.getType(), whyNot);
    if (failed(node))
      return failure();
    return ids[v] = push(*node);
  };

  for (Operation &bodyOp : block->without_terminator()) {
    StringRef name = bodyOp.getName().getStringRef();
    if (bodyOp.getNumResults() != 1) {
      whyNot = llvm::formatv("payload op '{0}' has no CUDA translation", name);
      return failure();
    }
    FailureOr<ElementKind> kind = getElementKind(bodyOp.getResult(0).getType());
    if (failed(kind)) {
      whyNot = llvm::formatv("payload op '{0}' has an unsupported result type",
                             name);
      return failure();
    }
    ScalarNode node;
    node.kind = *kind;
    if (auto index = dyn_cast<linalg::IndexOp>(bodyOp)) {
      node.op = "index";
      node.position = int64_t(index.getDim());
      ids[bodyOp.getResult(0)] = push(node);
      continue;
    }
    Attribute value;
    if (matchPattern(bodyOp.getResult(0), m_Constant(&value))) {
      FailureOr<ScalarNode> c =
          makeConstantNode(value, bodyOp.getResult(0).getType(), whyNot);
      if (failed(c))
        return failure();
      ids[bodyOp.getResult(0)] = push(*c);
      continue;
    }
    if (!getSupportedOps().contains(name)) {
      whyNot = llvm::formatv("payload op '{0}' has no CUDA translation", name);
      return failure();
    }
    for (Value operand : bodyOp.getOperands()) {
      FailureOr<int> id = lookup(operand);
      if (failed(id))
        return failure();
      node.operands.push_back(*id);
      if (failed(getElementKind(operand.getType()))) {
        whyNot = llvm::formatv("payload op '{0}' has an unsupported operand "
                               "type",
                               name);
        return failure();
      }
    }
    if (auto cmp = dyn_cast<arith::CmpFOp>(bodyOp))
      node.predicate = arith::stringifyCmpFPredicate(cmp.getPredicate()).str();
    if (auto cmp = dyn_cast<arith::CmpIOp>(bodyOp))
      node.predicate = arith::stringifyCmpIPredicate(cmp.getPredicate()).str();
    node.op = name.str();
    ids[bodyOp.getResult(0)] = push(node);
  }
  for (Value v : block->getTerminator()->getOperands()) {
    FailureOr<int> id = lookup(v);
    if (failed(id))
      return failure();
    program.yields.push_back(*id);
  }
  return program;
}

//===----------------------------------------------------------------------===//
// Problem views
//===----------------------------------------------------------------------===//

int64_t ProblemView::numParallelPoints() const {
  int64_t points = 1;
  for (auto [range, reduction] : llvm::zip(loopRanges, reductionLoops))
    if (!reduction)
      points *= range;
  return points;
}

/// Adds `scale * e` to the linear form; fails for non-linear expressions.
static LogicalResult linearize(AffineExpr e, int64_t scale,
                               MutableArrayRef<int64_t> coefficients,
                               int64_t &offset) {
  if (auto dim = dyn_cast<AffineDimExpr>(e)) {
    coefficients[dim.getPosition()] += scale;
    return success();
  }
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    offset += scale * c.getValue();
    return success();
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(e);
  if (!binary)
    return failure();
  if (e.getKind() == AffineExprKind::Add)
    return success(
        succeeded(linearize(binary.getLHS(), scale, coefficients, offset)) &&
        succeeded(linearize(binary.getRHS(), scale, coefficients, offset)));
  if (e.getKind() == AffineExprKind::Mul) {
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getRHS()))
      return linearize(binary.getLHS(), scale * c.getValue(), coefficients,
                       offset);
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getLHS()))
      return linearize(binary.getRHS(), scale * c.getValue(), coefficients,
                       offset);
  }
  return failure();
}

FailureOr<LinearAccess>
mlir::stark::detail::getLinearAccess(AffineMap map, ArrayRef<int64_t> shape) {
  LinearAccess access;
  access.coefficients.assign(map.getNumDims(), 0);
  int64_t stride = 1;
  for (int64_t r = int64_t(map.getNumResults()) - 1; r >= 0; --r) {
    if (failed(linearize(map.getResult(r), stride, access.coefficients,
                         access.offset)))
      return failure();
    stride *= shape[r];
  }
  return access;
}

/// Strips float casts off a payload value (a matmul on f16 reads through
/// extf).
static int stripFloatCasts(const ScalarProgram &p, int node) {
  while (p.nodes[node].op == "arith.extf" || p.nodes[node].op == "arith.truncf")
    node = p.nodes[node].operands[0];
  return node;
}

bool mlir::stark::detail::isArgNode(const ScalarProgram &p, int node,
                                    int64_t arg) {
  return p.nodes[node].op == "arg" && p.nodes[node].position == arg;
}

/// Number of live uses of each node.
static SmallVector<int> countUses(const ScalarProgram &p) {
  SmallVector<int> uses(p.nodes.size(), 0);
  SmallVector<bool> live = p.reachable();
  for (auto [i, node] : llvm::enumerate(p.nodes))
    if (live[i])
      for (int o : node.operands)
        ++uses[o];
  for (int y : p.yields)
    ++uses[y];
  return uses;
}

/// out + a * b with float types, operands in any order, casts allowed on a
/// and b.
static bool isMulAddBody(const ScalarProgram &p) {
  if (p.yields.size() != 1 || p.argKinds.size() != 3)
    return false;
  if (!llvm::all_of(p.argKinds, isFloatKind))
    return false;
  const ScalarNode &add = p.nodes[p.yields[0]];
  if (add.op != "arith.addf")
    return false;
  int mul = -1;
  if (isArgNode(p, add.operands[0], 2))
    mul = add.operands[1];
  else if (isArgNode(p, add.operands[1], 2))
    mul = add.operands[0];
  if (mul < 0 || p.nodes[mul].op != "arith.mulf")
    return false;
  int x = stripFloatCasts(p, p.nodes[mul].operands[0]);
  int y = stripFloatCasts(p, p.nodes[mul].operands[1]);
  bool direct = isArgNode(p, x, 0) && isArgNode(p, y, 1);
  bool swapped = isArgNode(p, x, 1) && isArgNode(p, y, 0);
  if (!direct && !swapped)
    return false;
  SmallVector<int> uses = countUses(p);
  for (auto [i, node] : llvm::enumerate(p.nodes))
    if (node.op == "arg" && uses[i] > 1)
      return false;
  return true;
}

static FailureOr<ContractionView> analyzeContraction(const ProblemView &view,
                                                     std::string &whyNot) {
  if (view.inputs.size() != 2 || view.outputs.size() != 1 ||
      view.inputs[0].argNumber < 0 || view.inputs[1].argNumber < 0) {
    whyNot = "not two shaped inputs and one output";
    return failure();
  }
  if (!view.body || !isMulAddBody(*view.body)) {
    whyNot = "the payload is not out + a * b on floats";
    return failure();
  }
  return mlir::stark::detail::analyzeContractionLoops(view, whyNot);
}

FailureOr<ContractionView>
mlir::stark::detail::analyzeContractionLoops(const ProblemView &view,
                                             std::string &whyNot) {
  const LinearAccess &a = view.inputs[0].access;
  const LinearAccess &b = view.inputs[1].access;
  const LinearAccess &c = view.outputs[0].access;
  ContractionView cv;
  for (int64_t d = 0; d < view.numLoops(); ++d) {
    bool inA = a.dependsOn(d), inB = b.dependsOn(d), inC = c.dependsOn(d);
    if (view.reductionLoops[d]) {
      if (inC) {
        whyNot = "the output depends on a reduction loop";
        return failure();
      }
      cv.kLoops.push_back(d);
    } else if (inA && inB && inC) {
      cv.batchLoops.push_back(d);
    } else if (inA && inC && !inB) {
      cv.mLoops.push_back(d);
    } else if (inB && inC && !inA) {
      cv.nLoops.push_back(d);
    } else {
      whyNot =
          llvm::formatv("parallel loop d{0} is not a batch, m or n loop", d);
      return failure();
    }
  }
  if (cv.kLoops.empty()) {
    whyNot = "no reduction loop";
    return failure();
  }
  // Decode order: the output's layout for batch, m and n (so the epilogue
  // walks it in order), A's layout for k (so A's contiguous loop is
  // innermost), B's where A does not tell.
  auto sortBy = [&](SmallVector<unsigned> &loops, const LinearAccess &first,
                    const LinearAccess &second) {
    llvm::stable_sort(loops, [&](unsigned x, unsigned y) {
      int64_t fx = std::abs(first.coefficients[x]),
              fy = std::abs(first.coefficients[y]);
      if (fx != fy)
        return fx > fy;
      return std::abs(second.coefficients[x]) >
             std::abs(second.coefficients[y]);
    });
  };
  sortBy(cv.batchLoops, c, a);
  sortBy(cv.mLoops, c, a);
  sortBy(cv.nLoops, c, b);
  sortBy(cv.kLoops, a, b);
  cv.batch = productOver(cv.batchLoops, view.loopRanges);
  cv.m = productOver(cv.mLoops, view.loopRanges);
  cv.n = productOver(cv.nLoops, view.loopRanges);
  cv.k = productOver(cv.kLoops, view.loopRanges);
  // The loop with the smallest stride decides which way an operand is laid
  // out. Several loops can share it: a convolution's input moves by 1 along
  // both the output column (an m loop) and the kernel column (a k loop).
  // The longest of them wins, whatever the loop order, so the copies run
  // along 126 contiguous columns rather than 3.
  auto fastest = [&](const LinearAccess &acc) {
    int64_t best = -1, bestStride = 0;
    for (int64_t d = 0; d < view.numLoops(); ++d) {
      int64_t s = std::abs(acc.coefficients[d]);
      if (s == 0)
        continue;
      if (best < 0 || s < bestStride ||
          (s == bestStride && view.loopRanges[d] > view.loopRanges[best])) {
        best = d;
        bestStride = s;
      }
    }
    return best;
  };
  int64_t fa = fastest(a), fb = fastest(b);
  cv.transposeA = fa >= 0 && llvm::is_contained(cv.mLoops, unsigned(fa));
  cv.transposeB = fb >= 0 && llvm::is_contained(cv.kLoops, unsigned(fb));
  cv.aKind = view.inputs[0].kind;
  cv.bKind = view.inputs[1].kind;
  cv.cKind = view.outputs[0].kind;
  return cv;
}

int mlir::stark::detail::matchReductionCombiner(const ScalarProgram &p,
                                                int yield, int64_t outArg,
                                                std::string &combiner) {
  const ScalarNode &node = p.nodes[yield];
  static const std::pair<StringRef, StringRef> combiners[] = {
      {"arith.addf", "add"},       {"arith.mulf", "mul"},
      {"arith.maximumf", "max"},   {"arith.minimumf", "min"},
      {"arith.maxnumf", "maxnum"}, {"arith.minnumf", "minnum"},
      {"arith.addi", "add"},       {"arith.muli", "mul"},
      {"arith.maxsi", "max"},      {"arith.minsi", "min"},
      {"arith.andi", "and"},       {"arith.ori", "or"},
      {"arith.xori", "xor"}};
  int pre = -1;
  combiner.clear();
  for (auto [op, name] : combiners) {
    if (node.op != op)
      continue;
    if (isArgNode(p, node.operands[1], outArg))
      pre = node.operands[0];
    else if (isArgNode(p, node.operands[0], outArg))
      pre = node.operands[1];
    combiner = name.str();
  }
  // select(cmpf(ogt|oge, x, out), x, out) is a max, olt|ole a min.
  if (node.op == "arith.select" && isArgNode(p, node.operands[2], outArg)) {
    const ScalarNode &cmp = p.nodes[node.operands[0]];
    int x = node.operands[1];
    if (cmp.op == "arith.cmpf" && cmp.operands[0] == x &&
        isArgNode(p, cmp.operands[1], outArg)) {
      if (cmp.predicate == "ogt" || cmp.predicate == "oge")
        combiner = "maxnum";
      else if (cmp.predicate == "olt" || cmp.predicate == "ole")
        combiner = "minnum";
      if (!combiner.empty())
        pre = x;
    }
  }
  return combiner.empty() ? -1 : pre;
}

/// Combiner of a reduction payload: yields[0] = combine(pre, out) with the
/// output argument used nowhere else.
static FailureOr<ReductionView> analyzeReduction(const ProblemView &view,
                                                 std::string &whyNot) {
  if (view.outputs.size() != 1) {
    whyNot = "more than one output";
    return failure();
  }
  if (!view.body) {
    whyNot = view.whyNoBody;
    return failure();
  }
  const ScalarProgram &p = *view.body;
  int64_t outArg = int64_t(view.inputs.size());
  int y = p.yields[0];
  ReductionView rv;
  int pre =
      mlir::stark::detail::matchReductionCombiner(p, y, outArg, rv.combiner);
  if (pre < 0 || rv.combiner.empty()) {
    whyNot = "the payload is not a recognised combiner (add, mul, max, min, "
             "and, or, xor) of the output and a value of the inputs";
    return failure();
  }
  SmallVector<bool> preLive = p.reachable({pre});
  for (auto [i, n] : llvm::enumerate(p.nodes))
    if (preLive[i] && isArgNode(p, int(i), outArg)) {
      whyNot = "the combined value depends on the output";
      return failure();
    }
  if (p.nodes[y].kind == ElementKind::I1) {
    whyNot = "i1 reductions are not supported";
    return failure();
  }
  rv.preNode = pre;
  rv.accumulatorKind = getAccumulatorKind(p.nodes[y].kind);

  const LinearAccess &out = view.outputs[0].access;
  for (int64_t d = 0; d < view.numLoops(); ++d) {
    if (view.reductionLoops[d]) {
      if (out.dependsOn(d)) {
        whyNot = "the output depends on a reduction loop";
        return failure();
      }
      rv.reducedLoops.push_back(d);
    } else {
      rv.parallelLoops.push_back(d);
    }
  }
  if (rv.reducedLoops.empty()) {
    whyNot = "no reduction loop";
    return failure();
  }
  rv.parallelLoops = sortLoopsByStride(rv.parallelLoops, out);
  if (!isDenseOver(out, rv.parallelLoops, view.loopRanges)) {
    whyNot = "the output is not a dense permutation of the parallel loops";
    return failure();
  }
  // The largest input that depends on the reduction sets the order.
  auto numElements = [](ArrayRef<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  };
  const OperandView *primary = nullptr;
  for (const OperandView &in : view.inputs) {
    if (in.argNumber < 0 || llvm::none_of(rv.reducedLoops, [&](unsigned d) {
          return in.access.dependsOn(d);
        }))
      continue;
    if (!primary || numElements(in.shape) > numElements(primary->shape))
      primary = &in;
  }
  if (primary) {
    rv.reducedLoops = sortLoopsByStride(rv.reducedLoops, primary->access);
    rv.innerContiguous =
        isDenseOver(primary->access, rv.reducedLoops, view.loopRanges) || [&] {
          // Dense over the reduced loops with the parallel loops outside.
          int64_t expected = 1;
          for (unsigned d : llvm::reverse(rv.reducedLoops)) {
            if (primary->access.coefficients[d] != expected)
              return false;
            expected *= view.loopRanges[d];
          }
          return llvm::all_of(rv.parallelLoops, [&](unsigned d) {
            return primary->access.coefficients[d] % expected == 0;
          });
        }();
  }
  rv.rows = productOver(rv.parallelLoops, view.loopRanges);
  rv.length = productOver(rv.reducedLoops, view.loopRanges);
  return rv;
}

static FailureOr<ConvolutionView> analyzeConvolution(linalg::LinalgOp op) {
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims))
    return failure();
  ConvolutionView cv;
  cv.batch.assign(dims->batch.begin(), dims->batch.end());
  cv.outputImage.assign(dims->outputImage.begin(), dims->outputImage.end());
  cv.outputChannel.assign(dims->outputChannel.begin(),
                          dims->outputChannel.end());
  cv.filterLoop.assign(dims->filterLoop.begin(), dims->filterLoop.end());
  cv.inputChannel.assign(dims->inputChannel.begin(), dims->inputChannel.end());
  cv.depth.assign(dims->depth.begin(), dims->depth.end());
  cv.strides.assign(dims->strides.begin(), dims->strides.end());
  cv.dilations.assign(dims->dilations.begin(), dims->dilations.end());
  cv.depthwise = !dims->depth.empty();
  return cv;
}

static FailureOr<ElementKind> getArgKind(Type type, std::string &whyNot) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape() || !memref.getLayout().isIdentity()) {
    whyNot = "entry arguments must be statically shaped identity-layout "
             "memrefs";
    return failure();
  }
  FailureOr<ElementKind> kind = getElementKind(memref.getElementType());
  if (failed(kind))
    whyNot = "unsupported element type";
  return kind;
}

/// The entry function of a problem: the one #stark.problem names, else
/// @kernel. Null when there is none with a body.
static func::FuncOp getProblemEntry(ModuleOp problem) {
  StringRef entry = "kernel";
  if (auto info = problem->getAttrOfType<ProblemAttr>(kProblemAttrName))
    entry = info.getEntry();
  auto func = problem.lookupSymbol<func::FuncOp>(entry);
  return func && !func.isExternal() ? func : func::FuncOp();
}

SmallVector<Operation *> mlir::stark::getProblemOps(ModuleOp problem) {
  SmallVector<Operation *> ops;
  if (func::FuncOp func = getProblemEntry(problem))
    for (Operation &op : func.getBody().front().without_terminator())
      if (!matchPattern(&op, m_Constant()))
        ops.push_back(&op);
  return ops;
}

/// The entry argument number of \p v, or -1 when \p v is not an argument of
/// \p entryBlock; operands must name entry arguments to be addressable.
static int64_t getEntryArgNumber(Value v, Block &entryBlock) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != &entryBlock)
    return -1;
  return arg.getArgNumber();
}

/// Records the kinds and shapes of the entry arguments, which every
/// generator addresses by position.
static LogicalResult readEntryArgs(func::FuncOp func, ProblemView &view,
                                   std::string &whyNot) {
  for (Type t : func.getArgumentTypes()) {
    FailureOr<ElementKind> kind = getArgKind(t, whyNot);
    if (failed(kind))
      return failure();
    view.argKinds.push_back(*kind);
    view.argShapes.push_back(llvm::to_vector(cast<MemRefType>(t).getShape()));
  }
  return success();
}

/// Reads an entry that holds several ops: a contraction with its epilogue,
/// else a norm when the norm templates know it, else one computation over the
/// fused loops.
static FailureOr<ProblemView> getFusedProblemView(func::FuncOp func,
                                                  ProblemAttr info,
                                                  ArrayRef<Operation *> ops,
                                                  ProblemView &view,
                                                  std::string &whyNot) {
  int64_t numOutputs = info ? info.getNumOutputs() : 0;
  if (numOutputs < 1 || numOutputs > int64_t(view.argKinds.size())) {
    whyNot = "the entry holds more than one op";
    return failure();
  }
  view.numOutputArgs = numOutputs;
  auto isContraction = [](Operation *op) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    return linalgOp && linalg::isaContractionOpInterface(linalgOp);
  };
  // Two contractions with a softmax between them: attention.
  if (llvm::count_if(ops, isContraction) == 2) {
    if (failed(
            mlir::stark::detail::analyzeAttentionProblem(func, view, whyNot)))
      return failure();
    return view;
  }
  // A contraction with its epilogue: the GEMM and a program for its
  // store stage, never a chain of rows over k.
  if (llvm::any_of(ops, [&](Operation *op) {
        auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
        return isContraction(op) ||
               (linalgOp && linalg::isaConvolutionOpInterface(linalgOp));
      })) {
    if (failed(mlir::stark::detail::analyzeEpilogueProblem(func, view, whyNot)))
      return failure();
    return view;
  }
  ProblemView normView = view;
  std::string whyNotNorm;
  if (succeeded(
          mlir::stark::detail::analyzeNormProblem(func, normView, whyNotNorm)))
    return normView;
  if (succeeded(mlir::stark::detail::analyzeFusedProblem(func, view, whyNot)))
    return view;
  whyNot = whyNotNorm + "; " + whyNot;
  return failure();
}

/// Reads linalg.softmax, which has no indexing maps to analyse: the kernel
/// only needs its row geometry and the two argument kinds.
static LogicalResult analyzeSoftmax(linalg::SoftmaxOp softmax,
                                    Block &entryBlock, ProblemView &view,
                                    std::string &whyNot) {
  int64_t in = getEntryArgNumber(softmax.getInput(), entryBlock);
  int64_t out = getEntryArgNumber(softmax.getOutput(), entryBlock);
  // The kernel reads argument 0 and writes argument 1.
  if (in != 0 || out != 1 || view.argKinds.size() != 2) {
    whyNot = "softmax must read the entry's first argument and write its "
             "second";
    return failure();
  }
  view.isSoftmax = true;
  view.opClass = OpClass::Reduction;
  view.numOutputArgs = 1;
  SoftmaxView sv;
  sv.dim = int64_t(softmax.getDimension());
  ArrayRef<int64_t> shape = view.argShapes[in];
  if (view.argShapes[out] != view.argShapes[in] || sv.dim < 0 ||
      sv.dim >= int64_t(shape.size())) {
    whyNot = "softmax input and output shapes differ";
    return failure();
  }
  sv.length = shape[sv.dim];
  for (int64_t d = sv.dim + 1; d < int64_t(shape.size()); ++d)
    sv.inner *= shape[d];
  for (int64_t d = 0; d < int64_t(shape.size()); ++d)
    if (d != sv.dim)
      sv.rows *= shape[d];
  sv.inKind = view.argKinds[in];
  sv.outKind = view.argKinds[out];
  view.softmax = sv;
  mlir::stark::detail::addSoftmaxFusedView(view);
  return success();
}

/// Reads one operand of \p op into an OperandView: its kind, the entry
/// argument it names and its access as a linear function of the loops.
static FailureOr<OperandView>
analyzeOperand(linalg::LinalgOp op, OpOperand &operand, Block &entryBlock,
               const ProblemView &view, std::string &whyNot) {
  OperandView ov;
  ov.isOutput = op.isDpsInit(&operand);
  Value v = operand.get();
  FailureOr<ElementKind> kind = getElementKind(getElementTypeOrSelf(v));
  if (failed(kind)) {
    whyNot = "unsupported element type";
    return failure();
  }
  ov.kind = *kind;
  auto shaped = dyn_cast<ShapedType>(v.getType());
  if (!shaped) {
    ov.access.coefficients.assign(view.loopRanges.size(), 0);
    return ov;
  }
  ov.argNumber = getEntryArgNumber(v, entryBlock);
  if (ov.argNumber < 0) {
    whyNot = "a shaped operand is not an entry argument";
    return failure();
  }
  ov.shape = llvm::to_vector(shaped.getShape());
  FailureOr<LinearAccess> access = mlir::stark::detail::getLinearAccess(
      op.getMatchingIndexingMap(&operand), ov.shape);
  if (failed(access)) {
    whyNot = llvm::formatv("the indexing map of operand #{0} is not "
                           "linear in the loops",
                           operand.getOperandNumber());
    return failure();
  }
  ov.access = *access;
  return ov;
}

/// Adds the contraction, reduction and convolution structure of \p op where
/// it has one; an op without any is still a valid (elementwise) view.
static void addOpStructure(linalg::LinalgOp op, ProblemView &view) {
  std::string ignored;
  if (FailureOr<ContractionView> cv = analyzeContraction(view, ignored);
      succeeded(cv)) {
    view.contraction = *cv;
    view.contraction->initValue = view.initValue;
  }
  if (op.getNumReductionLoops() > 0)
    if (FailureOr<ReductionView> rv = analyzeReduction(view, ignored);
        succeeded(rv))
      view.reduction = *rv;
  if (view.opClass == OpClass::Convolution || view.opClass == OpClass::Pooling)
    if (FailureOr<ConvolutionView> cv = analyzeConvolution(op); succeeded(cv))
      view.convolution = *cv;
}

/// Reads the single linalg op of an entry: loops, operands, payload and the
/// structure the generators dispatch on.
static LogicalResult analyzeLinalgCompute(Operation *compute, Block &entryBlock,
                                          ProblemView &view,
                                          std::string &whyNot) {
  auto op = dyn_cast<linalg::LinalgOp>(compute);
  if (!op) {
    whyNot = llvm::formatv("'{0}' is not a linalg op", view.opName);
    return failure();
  }
  if (!op.hasPureBufferSemantics()) {
    whyNot = "the linalg op does not work on memrefs";
    return failure();
  }
  view.opClass = classifyLinalgOp(op);
  view.numOutputArgs = op.getNumDpsInits();
  view.loopRanges = op.getStaticLoopRanges();
  if (llvm::any_of(view.loopRanges, ShapedType::isDynamic)) {
    whyNot = "dynamic loop range";
    return failure();
  }
  for (utils::IteratorType it : op.getIteratorTypesArray())
    view.reductionLoops.push_back(it == utils::IteratorType::reduction);

  for (OpOperand &operand : op->getOpOperands()) {
    FailureOr<OperandView> ov =
        analyzeOperand(op, operand, entryBlock, view, whyNot);
    if (failed(ov))
      return failure();
    (ov->isOutput ? view.outputs : view.inputs).push_back(std::move(*ov));
  }
  // Outputs must be entry arguments after the inputs (the calling
  // convention puts them last).
  if (view.numOutputArgs > view.argKinds.size()) {
    whyNot = "more outputs than arguments";
    return failure();
  }

  FailureOr<ScalarProgram> body = extractScalarProgram(op, view.whyNoBody);
  if (succeeded(body))
    view.body = std::move(*body);
  addOpStructure(op, view);
  return success();
}

FailureOr<ProblemView> mlir::stark::getProblemView(ModuleOp problem,
                                                   std::string &whyNot) {
  ProblemView view;
  auto info = problem->getAttrOfType<ProblemAttr>(kProblemAttrName);
  if (info)
    view.entry = info.getEntry().str();
  func::FuncOp func = getProblemEntry(problem);
  if (!func) {
    whyNot = llvm::formatv("no function @{0} with a body", view.entry);
    return failure();
  }
  if (failed(readEntryArgs(func, view, whyNot)))
    return failure();

  SmallVector<Operation *> ops = getProblemOps(problem);
  // A fill the contraction owns: the view is the contraction's, starting
  // from the fill's value.
  if (ops.size() == 2 && isa<linalg::FillOp>(ops[0]) &&
      getOwnedInitFill(ops[1]) == ops[0]) {
    view.initValue = getFillValue(cast<linalg::FillOp>(ops[0]));
    ops.erase(ops.begin());
  }
  if (ops.size() > 1)
    return getFusedProblemView(func, info, ops, view, whyNot);
  if (ops.empty()) {
    whyNot = "the entry holds no op";
    return failure();
  }
  Operation *compute = ops.front();
  view.opName = compute->getName().getStringRef().str();
  Block &entryBlock = func.getBody().front();
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(compute)) {
    if (failed(analyzeSoftmax(softmax, entryBlock, view, whyNot)))
      return failure();
    return view;
  }
  if (failed(analyzeLinalgCompute(compute, entryBlock, view, whyNot)))
    return failure();
  return view;
}

SmallVector<unsigned>
mlir::stark::sortLoopsByStride(ArrayRef<unsigned> loops,
                               const LinearAccess &access) {
  SmallVector<unsigned> sorted(loops);
  llvm::stable_sort(sorted, [&](unsigned x, unsigned y) {
    return std::abs(access.coefficients[x]) > std::abs(access.coefficients[y]);
  });
  return sorted;
}

bool mlir::stark::isDenseOver(const LinearAccess &access,
                              ArrayRef<unsigned> loops,
                              ArrayRef<int64_t> ranges) {
  if (access.offset != 0)
    return false;
  int64_t expected = 1;
  for (unsigned d : llvm::reverse(loops)) {
    if (access.coefficients[d] != expected && ranges[d] != 1)
      return false;
    expected *= ranges[d];
  }
  for (auto [d, c] : llvm::enumerate(access.coefficients))
    if (c != 0 && !llvm::is_contained(loops, unsigned(d)))
      return false;
  return true;
}

int64_t mlir::stark::productOver(ArrayRef<unsigned> loops,
                                 ArrayRef<int64_t> ranges) {
  int64_t p = 1;
  for (unsigned d : loops)
    p *= ranges[d];
  return p;
}
