//===- NormView.cpp - Layer norms and RMS norms read off fused problems --===//
//
// A fused problem (a chain of reductions and element-wise ops, see
// stark/Problem/FusionGroup.h) is recognised as a layer norm or an RMS norm
// over its trailing dimensions by evaluating it symbolically: every buffer
// gets an expression of the input element x[r, j], the vectors gamma[j] and
// beta[j], constants and row sums; the output's expression must then be
// exactly one of the forms NormView describes. Anything else (another op, a
// map that is not an identity, a row broadcast or a trailing-dimension
// vector, a mean that is not sum / length, an extra input) declines.
//
//===----------------------------------------------------------------------===//

#include "NormView.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <functional>
#include <map>

using namespace mlir;
using namespace mlir::stark;

//===----------------------------------------------------------------------===//
// Symbolic evaluation
//===----------------------------------------------------------------------===//

namespace {

/// A value of the problem as a function of the row r and the position j in
/// the row. Nodes are unique (hash-consed), so equal expressions have equal
/// ids.
struct SymNode {
  /// "x" (input argument at [r, j]), "vec" (input argument at [j]), "const",
  /// "sum" (over j of the operand: a row value), or an arith / math op name.
  std::string op;
  SmallVector<int> operands;
  int64_t arg = -1;
  double value = 0;
  /// Depends on j (false: on r at most).
  bool full = false;
};

class SymTable {
public:
  int get(SymNode node) {
    std::string key = node.op + "|" + std::to_string(node.arg) + "|" +
                      llvm::formatv("{0:e17}", node.value).str();
    for (int o : node.operands)
      key += "," + std::to_string(o);
    auto [it, inserted] = index.try_emplace(key, int(nodes.size()));
    if (inserted)
      nodes.push_back(std::move(node));
    return it->second;
  }
  int constant(double v) {
    SymNode n;
    n.op = "const";
    n.value = v;
    return get(std::move(n));
  }
  int op(StringRef name, ArrayRef<int> operands) {
    SymNode n;
    n.op = name.str();
    n.operands.assign(operands.begin(), operands.end());
    for (int o : operands)
      n.full |= nodes[o].full;
    return get(std::move(n));
  }
  const SymNode &operator[](int id) const { return nodes[id]; }

private:
  std::vector<SymNode> nodes;
  std::map<std::string, int> index;
};

/// Where an operand of a generic reads, relative to the normalised loops.
enum class Access { Full, Row, Vec };

struct NormAnalysis {
  ProblemView &view;
  std::string &whyNot;
  SymTable table;
  /// Rank of the output and number of leading (row) dimensions.
  int64_t rank = 0, rowDims = -1;
  SmallVector<int64_t> fullShape;
  unsigned numInputs = 0;
  /// Contents of the buffers written so far.
  DenseMap<Value, int> contents;

  NormAnalysis(ProblemView &view, std::string &whyNot)
      : view(view), whyNot(whyNot) {}

  LogicalResult fail(const Twine &why) {
    whyNot = ("not a layer norm or RMS norm: " + why).str();
    return failure();
  }

  std::optional<Access> classify(AffineMap map, int64_t numLoops) {
    if (map.getNumDims() != numLoops || !map.isProjectedPermutation())
      return std::nullopt;
    auto isDims = [&](int64_t from, int64_t to) {
      if (int64_t(map.getNumResults()) != to - from)
        return false;
      for (int64_t i = 0; i < to - from; ++i)
        if (map.getDimPosition(i) != unsigned(from + i))
          return false;
      return true;
    };
    if (numLoops == rank && isDims(0, rank))
      return Access::Full;
    if (numLoops == rank && isDims(0, rowDims))
      return Access::Row;
    if (numLoops == rank && isDims(rowDims, rank))
      return Access::Vec;
    if (numLoops == rowDims && isDims(0, rowDims))
      return Access::Row;
    return std::nullopt;
  }

  /// The expression an input operand of a generic reads.
  FailureOr<int> read(Value buffer, Access access) {
    auto arg = dyn_cast<BlockArgument>(buffer);
    if (arg && arg.getArgNumber() < numInputs) {
      SymNode leaf;
      leaf.arg = arg.getArgNumber();
      leaf.full = true;
      auto shape = cast<MemRefType>(buffer.getType()).getShape();
      if (access == Access::Full && shape == ArrayRef(fullShape)) {
        leaf.op = "x";
        return table.get(leaf);
      }
      if (access == Access::Vec &&
          shape == ArrayRef(fullShape).drop_front(rowDims)) {
        leaf.op = "vec";
        return table.get(leaf);
      }
      return fail(llvm::formatv("input argument #{0} is read neither "
                                "element by element nor as a vector over "
                                "the normalised dimensions",
                                arg.getArgNumber()));
    }
    auto it = contents.find(buffer);
    if (it == contents.end())
      return fail("a buffer is read before it is written");
    bool full = table[it->second].full;
    if (access == Access::Vec || (full && access != Access::Full))
      return fail("a computed buffer is read through a broadcast");
    return it->second;
  }

  /// Checks the loops of a generic against the rows the first reduction
  /// fixed (or fixes them): reductions run over the trailing dimensions.
  LogicalResult checkLoops(linalg::GenericOp op) {
    int64_t numLoops = op.getNumLoops();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    int64_t numReductions = op.getNumReductionLoops();
    if (numReductions > 0) {
      // The reduced loops are the trailing ones: they fix the rows.
      int64_t parallel = numLoops - numReductions;
      for (int64_t i = 0; i < numLoops; ++i)
        if ((i < parallel) != (iterators[i] == utils::IteratorType::parallel))
          return fail("a reduction over other than the trailing dimensions");
      if (numLoops != rank || (rowDims >= 0 && rowDims != parallel))
        return fail("reductions over different dimensions");
      rowDims = parallel;
    }
    if (rowDims < 0)
      return fail("an element-wise op before the first reduction");
    if (numReductions == 0 && numLoops != rank && numLoops != rowDims)
      return fail("an element-wise op over other loops");
    return success();
  }

  /// Binds the payload arguments of the inputs of \p op to the expressions
  /// their buffers hold.
  LogicalResult readInputs(linalg::GenericOp op, DenseMap<Value, int> &values) {
    for (OpOperand *in : op.getDpsInputOperands()) {
      std::optional<Access> access =
          classify(op.getMatchingIndexingMap(in), op.getNumLoops());
      if (!isa<MemRefType>(in->get().getType()) || !access)
        return fail("an operand map that is not an identity, a row "
                    "broadcast or a vector over the normalised dimensions");
      FailureOr<int> v = read(in->get(), *access);
      if (failed(v))
        return failure();
      values[op.getMatchingBlockArgument(in)] = *v;
    }
    return success();
  }

  /// The expression of a payload value: a bound value or a float constant.
  FailureOr<int> lookup(const DenseMap<Value, int> &values, Value v) {
    if (auto it = values.find(v); it != values.end())
      return it->second;
    Attribute attr;
    if (matchPattern(v, m_Constant(&attr)))
      if (auto f = dyn_cast<FloatAttr>(attr))
        return table.constant(f.getValue().convertToDouble());
    return fail("the payload reads a value that is not a float constant");
  }

  /// Evaluates one payload op that reads the accumulator \p acc: only the
  /// one addf of a sum may, and its other operand is what is summed.
  LogicalResult evaluateAccumulation(Operation &inner, Value acc, bool reduces,
                                     DenseMap<Value, int> &values,
                                     int &accumulated) {
    if (!reduces || !isa<arith::AddFOp>(inner) || accumulated >= 0)
      return fail("the output's old value is used other than by the "
                  "one addf of a sum");
    Value other =
        inner.getOperand(0) == acc ? inner.getOperand(1) : inner.getOperand(0);
    FailureOr<int> o = lookup(values, other);
    if (failed(o) || other == acc)
      return failure();
    accumulated = *o;
    values[inner.getResult(0)] = -1;
    return success();
  }

  /// Evaluates one payload op that does not read the accumulator: casts
  /// are transparent, the arithmetic a norm needs builds a node.
  LogicalResult evaluateInner(Operation &inner, DenseMap<Value, int> &values) {
    StringRef name = inner.getName().getStringRef();
    if (isa<arith::ExtFOp, arith::TruncFOp>(inner)) {
      FailureOr<int> o = lookup(values, inner.getOperand(0));
      if (failed(o))
        return failure();
      values[inner.getResult(0)] = *o;
      return success();
    }
    if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::NegFOp, math::RsqrtOp, math::SqrtOp>(inner))
      return fail(llvm::formatv("'{0}' in a payload", name));
    SmallVector<int> operands;
    for (Value v : inner.getOperands()) {
      FailureOr<int> o = lookup(values, v);
      if (failed(o))
        return failure();
      if (*o < 0)
        return fail("the running sum is used inside the payload");
      operands.push_back(*o);
    }
    values[inner.getResult(0)] = table.op(name, operands);
    return success();
  }

  /// The expression the payload yields (-1: the running sum), with the
  /// accumulator allowed only as the combiner.
  FailureOr<int> evaluatePayload(linalg::GenericOp op, Value acc,
                                 DenseMap<Value, int> &values,
                                 int &accumulated) {
    bool reduces = op.getNumReductionLoops() > 0;
    Block *body = op.getBlock();
    for (Operation &inner : body->without_terminator()) {
      LogicalResult done = success();
      if (isa<arith::ConstantOp>(inner)) {
        FailureOr<int> c = lookup(values, inner.getResult(0));
        if (failed(c))
          return failure();
        values[inner.getResult(0)] = *c;
      } else if (llvm::is_contained(inner.getOperands(), acc)) {
        done = evaluateAccumulation(inner, acc, reduces, values, accumulated);
      } else {
        done = evaluateInner(inner, values);
      }
      if (failed(done))
        return failure();
    }
    return lookup(values, body->getTerminator()->getOperand(0));
  }

  /// What the output of a generic holds after it: a row sum for a
  /// reduction, else the payload's result.
  FailureOr<int> getWrittenContent(OpOperand *init, bool reduces,
                                   bool rowOutput, int result,
                                   int accumulated) {
    if (!reduces) {
      if (result < 0)
        return fail("the output's old value is used");
      if (rowOutput && table[result].full)
        return fail("a row value that depends on the row position");
      return result;
    }
    if (result != -1 || accumulated < 0)
      return fail("a reduction that is not a sum");
    if (!table[accumulated].full)
      return fail("a sum of a value that does not depend on the row "
                  "position");
    auto it = contents.find(init->get());
    if (it == contents.end() || table[it->second].op != "const" ||
        table[it->second].value != 0.0)
      return fail("a sum that does not start from a fill of zero");
    // The sum is a row value even though its operand is not.
    SymNode sum;
    sum.op = "sum";
    sum.operands = {accumulated};
    return table.get(sum);
  }

  LogicalResult evaluate(linalg::GenericOp op) {
    if (op.getNumDpsInits() != 1)
      return fail("a generic with several outputs");
    if (failed(checkLoops(op)))
      return failure();
    DenseMap<Value, int> values;
    if (failed(readInputs(op, values)))
      return failure();
    int64_t numLoops = op.getNumLoops();
    bool reduces = op.getNumReductionLoops() > 0;
    OpOperand *init = op.getDpsInitOperand(0);
    std::optional<Access> outAccess =
        classify(op.getMatchingIndexingMap(init), numLoops);
    bool rowOutput = reduces || numLoops == rowDims;
    if (!outAccess || *outAccess != (rowOutput ? Access::Row : Access::Full))
      return fail("an output map that does not match the loops");
    int accumulated = -1;
    FailureOr<int> result = evaluatePayload(
        op, op.getMatchingBlockArgument(init), values, accumulated);
    if (failed(result))
      return failure();
    FailureOr<int> content =
        getWrittenContent(init, reduces, rowOutput, *result, accumulated);
    if (failed(content))
      return failure();
    contents[init->get()] = *content;
    return success();
  }

  /// Writes a fill's constant into its buffer; returns the buffer.
  FailureOr<Value> evaluateFill(linalg::FillOp fill) {
    Attribute value;
    auto f = matchPattern(fill.getInputs()[0], m_Constant(&value))
                 ? dyn_cast<FloatAttr>(value)
                 : FloatAttr();
    if (!f)
      return fail("a fill with a value that is not a float constant");
    Value written = fill.getOutputs()[0];
    contents[written] = table.constant(f.getValue().convertToDouble());
    return written;
  }

  /// Evaluates the ops of \p func in order; returns the output's expression.
  FailureOr<int> evaluateProblem(func::FuncOp func) {
    if (view.numOutputArgs != 1 || view.argKinds.size() < 2)
      return fail("the problem must have one output");
    numInputs = view.argKinds.size() - 1;
    fullShape = view.argShapes.back();
    rank = fullShape.size();
    if (rank < 2)
      return fail("the output has fewer than two dimensions");
    Value output = func.getArgument(numInputs);
    Block &entry = func.getBody().front();
    for (Operation &op : entry.without_terminator()) {
      if (isa<arith::ConstantOp, memref::DeallocOp>(op))
        continue;
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        if (!alloc.getType().hasStaticShape())
          return fail("a dynamic temporary");
        continue;
      }
      FailureOr<Value> written = evaluateWrite(op);
      if (failed(written))
        return failure();
      auto arg = dyn_cast<BlockArgument>(*written);
      if (arg && arg.getOwner() == &entry && arg.getArgNumber() < numInputs)
        return fail("an input is overwritten");
    }
    auto it = contents.find(output);
    if (it == contents.end() || !table[it->second].full)
      return fail("the output is not written element by element");
    return it->second;
  }

  /// Evaluates a fill or a generic; returns the buffer it writes.
  FailureOr<Value> evaluateWrite(Operation &op) {
    if (auto fill = dyn_cast<linalg::FillOp>(op))
      return evaluateFill(fill);
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic)
      return fail(llvm::formatv("'{0}' in the problem", op.getName()));
    if (!generic.hasPureBufferSemantics())
      return fail("an op on tensors");
    Value written = generic.getDpsInitOperand(0)->get();
    if (failed(evaluate(generic)))
      return failure();
    return written;
  }
};

/// Matches the output's expression against the forms NormView describes,
/// from the outside in: the optional beta, the gamma and scale factors, then
/// the statistic the scale reads.
struct NormMatcher {
  NormAnalysis &a;
  const SymTable &t;
  int64_t length;
  /// The argument read as x, fixed by the first x leaf met.
  int64_t xArg = -1;

  NormMatcher(NormAnalysis &a, int64_t length)
      : a(a), t(a.table), length(length) {}

  bool isX(int id) {
    if (t[id].op != "x")
      return false;
    if (xArg < 0)
      xArg = t[id].arg;
    return t[id].arg == xArg;
  }

  bool constantOf(int id, double &v) const {
    if (t[id].op != "const")
      return false;
    v = t[id].value;
    return true;
  }

  /// mean(inner): sum(inner) / length, or sum(inner) * (1 / length).
  bool matchMean(int id, int &inner, bool &byFactor, double &factor) const {
    const SymNode &n = t[id];
    if (n.operands.size() != 2)
      return false;
    double c;
    if (n.op == "arith.divf" && t[n.operands[0]].op == "sum" &&
        constantOf(n.operands[1], c) && c == double(length)) {
      inner = t[n.operands[0]].operands[0];
      byFactor = false;
      return true;
    }
    if (n.op != "arith.mulf")
      return false;
    for (int k = 0; k < 2; ++k) {
      int s = n.operands[k], f = n.operands[1 - k];
      bool exact =
          constantOf(f, c) && (c == 1.0 / double(length) ||
                               c == double(float(1.0 / double(length))));
      if (t[s].op == "sum" && exact) {
        inner = t[s].operands[0];
        byFactor = true;
        factor = c;
        return true;
      }
    }
    return false;
  }

  /// stat + eps, either order.
  bool matchPlusEps(int id, int &stat, double &eps) const {
    const SymNode &n = t[id];
    if (n.op != "arith.addf")
      return false;
    for (int k = 0; k < 2; ++k)
      if (constantOf(n.operands[1 - k], eps) && !t[n.operands[k]].full) {
        stat = n.operands[k];
        return true;
      }
    return false;
  }

  /// Strips an optional + beta; returns what it is added to.
  int stripBeta(int root, NormView &nv) const {
    if (t[root].op != "arith.addf")
      return root;
    for (int k = 0; k < 2; ++k)
      if (t[t[root].operands[k]].op == "vec") {
        nv.betaArg = t[t[root].operands[k]].arg;
        return t[root].operands[1 - k];
      }
    return root;
  }

  /// The product (and at most one quotient) \p id is made of.
  bool flatten(int id, SmallVectorImpl<int> &factors,
               SmallVectorImpl<int> &divisors) const {
    const SymNode &n = t[id];
    if (n.op == "arith.mulf")
      return flatten(n.operands[0], factors, divisors) &&
             flatten(n.operands[1], factors, divisors);
    if (n.op == "arith.divf" && t[n.operands[0]].full) {
      divisors.push_back(n.operands[1]);
      return flatten(n.operands[0], factors, divisors);
    }
    factors.push_back(id);
    return true;
  }

  /// Finds the gamma factor and the scale: rsqrt(stat + eps) as a factor,
  /// or sqrt(stat + eps) as the divisor; \p scaled is what it scales.
  LogicalResult matchScale(int root, NormView &nv, int &stat, int &scaled) {
    SmallVector<int> factors, divisors;
    flatten(root, factors, divisors);
    for (auto f = factors.begin(); f != factors.end(); ++f)
      if (t[*f].op == "vec") {
        nv.gammaArg = t[*f].arg;
        factors.erase(f);
        break;
      }
    if (factors.size() == 2 && divisors.empty()) {
      for (int k = 0; k < 2; ++k)
        if (t[factors[k]].op == "math.rsqrt" && !t[factors[k]].full &&
            matchPlusEps(t[factors[k]].operands[0], stat, nv.eps)) {
          scaled = factors[1 - k];
          break;
        }
    } else if (factors.size() == 1 && divisors.size() == 1 &&
               t[divisors[0]].op == "math.sqrt" &&
               matchPlusEps(t[divisors[0]].operands[0], stat, nv.eps)) {
      scaled = factors[0];
      nv.divideBySqrt = true;
    }
    if (scaled < 0)
      return a.fail("the output is not (x - mean) or x times rsqrt(statistic "
                    "+ eps) (or divided by sqrt), with an optional gamma and "
                    "beta");
    return success();
  }

  /// Checks the statistic against the scaled value: the mean of x * x for
  /// an RMS norm, the variance of x for a layer norm.
  LogicalResult matchStatistic(int scaled, int stat, NormView &nv) {
    int inner = -1;
    if (isX(scaled)) {
      // RMS norm: x * rsqrt(mean(x * x) + eps).
      nv.rms = true;
      if (!matchMean(stat, inner, nv.varByFactor, nv.varFactor) ||
          t[inner].op != "arith.mulf" || !isX(t[inner].operands[0]) ||
          !isX(t[inner].operands[1]))
        return a.fail(
            "the statistic of x * rsqrt(...) is not the mean of x * x");
      if (nv.betaArg >= 0)
        return a.fail("an RMS norm with a beta");
      return success();
    }
    // Layer norm: (x - mean(x)) * rsqrt(mean((x - mean(x))^2) + eps).
    const SymNode &centered = t[scaled];
    int meanInner = -1;
    if (centered.op != "arith.subf" || !isX(centered.operands[0]) ||
        t[centered.operands[1]].full ||
        !matchMean(centered.operands[1], meanInner, nv.meanByFactor,
                   nv.meanFactor) ||
        !isX(meanInner))
      return a.fail("the normalised value is not x - mean(x)");
    if (!matchMean(stat, inner, nv.varByFactor, nv.varFactor) ||
        t[inner].op != "arith.mulf" || t[inner].operands[0] != scaled ||
        t[inner].operands[1] != scaled)
      return a.fail("the statistic is not the mean of (x - mean(x))^2");
    return success();
  }
};

} // namespace

/// Generalised copy of `func` (named element-wise ops and linalg.reduce
/// become generics), so one evaluator reads every spelling.
static OwningOpRef<Operation *> generalizedCopy(Operation *func) {
  OwningOpRef<Operation *> copy(func->clone());
  SmallVector<linalg::LinalgOp> named;
  copy.get()->walk([&](linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp, linalg::FillOp>(op))
      named.push_back(op);
  });
  IRRewriter rewriter(func->getContext());
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    (void)linalg::generalizeNamedOp(rewriter, op);
  }
  return copy;
}

/// The product of \p dims (1 when empty).
static int64_t getProduct(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= d;
  return p;
}

/// Checks the arguments the matched norm uses and records it in the view.
static LogicalResult recordNorm(NormAnalysis &a, NormView nv, int64_t xArg,
                                int64_t rows, int64_t length) {
  ProblemView &view = a.view;
  nv.inputArg = xArg;
  nv.outputArg = a.numInputs;
  if (nv.gammaArg == xArg || nv.betaArg == xArg ||
      (nv.gammaArg >= 0 && nv.gammaArg == nv.betaArg))
    return a.fail("gamma, beta and x are not distinct arguments");
  unsigned used = 1 + (nv.gammaArg >= 0) + (nv.betaArg >= 0);
  if (used != a.numInputs)
    return a.fail("an input is not used as x, gamma or beta");
  nv.rows = rows;
  nv.length = length;
  nv.inKind = view.argKinds[nv.inputArg];
  nv.outKind = view.argKinds[nv.outputArg];
  if (nv.gammaArg >= 0)
    nv.gammaKind = view.argKinds[nv.gammaArg];
  if (nv.betaArg >= 0)
    nv.betaKind = view.argKinds[nv.betaArg];
  for (ElementKind k : view.argKinds)
    if (!isFloatKind(k))
      return a.fail("an argument that is not a float");
  view.norm = nv;
  view.opName = nv.rms ? "rmsnorm" : "layernorm";
  view.opClass = OpClass::Reduction;
  view.loopRanges = {rows, length};
  view.reductionLoops = {false, true};
  return success();
}

LogicalResult mlir::stark::detail::analyzeNormProblem(Operation *funcOp,
                                                      ProblemView &view,
                                                      std::string &whyNot) {
  NormAnalysis a(view, whyNot);
  OwningOpRef<Operation *> copy = generalizedCopy(funcOp);
  FailureOr<int> root = a.evaluateProblem(cast<func::FuncOp>(copy.get()));
  if (failed(root))
    return failure();

  // Match the output's expression.
  ArrayRef<int64_t> shape = a.fullShape;
  int64_t length = getProduct(shape.drop_front(a.rowDims));
  int64_t rows = getProduct(shape.take_front(a.rowDims));
  NormMatcher m(a, length);
  NormView nv;
  int stat = -1, scaled = -1;
  if (failed(m.matchScale(m.stripBeta(*root, nv), nv, stat, scaled)) ||
      failed(m.matchStatistic(scaled, stat, nv)))
    return failure();
  return recordNorm(a, nv, m.xArg, rows, length);
}
