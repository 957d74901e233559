//===- CudaTemplatesNorm.cpp - Layer norm and RMS norm templates ----------===//
//
// A fused problem (a chain of reductions and element-wise ops, see
// stark/Problem/FusionGroup.h) is recognised as a layer norm or an RMS norm
// over its trailing dimensions by evaluating it symbolically: every buffer
// gets an expression of the input element x[r, j], the vectors gamma[j] and
// beta[j], constants and row sums; the output's expression must then be
// exactly one of the forms NormView describes. Anything else (another op, a
// map that is not an identity, a row broadcast or a trailing-dimension
// vector, a mean that is not sum / length, an extra input) declines.
// The kernels give each row a group of lanes: two passes over the row kept
// in registers, or a streaming Welford pass and a second read.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"

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
using namespace mlir::stark::cudatpl;

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

  LogicalResult evaluate(linalg::GenericOp op) {
    if (op.getNumDpsInits() != 1)
      return fail("a generic with several outputs");
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

    Block *body = op.getBlock();
    DenseMap<Value, int> values;
    for (OpOperand *in : op.getDpsInputOperands()) {
      std::optional<Access> access =
          classify(op.getMatchingIndexingMap(in), numLoops);
      if (!isa<MemRefType>(in->get().getType()) || !access)
        return fail("an operand map that is not an identity, a row "
                    "broadcast or a vector over the normalised dimensions");
      FailureOr<int> v = read(in->get(), *access);
      if (failed(v))
        return failure();
      values[op.getMatchingBlockArgument(in)] = *v;
    }
    OpOperand *init = op.getDpsInitOperand(0);
    std::optional<Access> outAccess =
        classify(op.getMatchingIndexingMap(init), numLoops);
    bool rowOutput = numReductions > 0 || numLoops == rowDims;
    if (!outAccess || *outAccess != (rowOutput ? Access::Row : Access::Full))
      return fail("an output map that does not match the loops");
    Value acc = op.getMatchingBlockArgument(init);

    // The payload, with the accumulator allowed only as the combiner.
    int accumulated = -1;
    auto lookup = [&](Value v) -> FailureOr<int> {
      if (auto it = values.find(v); it != values.end())
        return it->second;
      Attribute attr;
      if (matchPattern(v, m_Constant(&attr)))
        if (auto f = dyn_cast<FloatAttr>(attr))
          return table.constant(f.getValue().convertToDouble());
      return fail("the payload reads a value that is not a float constant");
    };
    for (Operation &inner : body->without_terminator()) {
      StringRef name = inner.getName().getStringRef();
      if (isa<arith::ConstantOp>(inner)) {
        FailureOr<int> c = lookup(inner.getResult(0));
        if (failed(c))
          return failure();
        values[inner.getResult(0)] = *c;
        continue;
      }
      if (llvm::is_contained(inner.getOperands(), acc)) {
        if (numReductions == 0 || !isa<arith::AddFOp>(inner) ||
            accumulated >= 0)
          return fail("the output's old value is used other than by the "
                      "one addf of a sum");
        Value other = inner.getOperand(0) == acc ? inner.getOperand(1)
                                                 : inner.getOperand(0);
        FailureOr<int> o = lookup(other);
        if (failed(o) || other == acc)
          return failure();
        accumulated = *o;
        values[inner.getResult(0)] = -1;
        continue;
      }
      if (isa<arith::ExtFOp, arith::TruncFOp>(inner)) {
        FailureOr<int> o = lookup(inner.getOperand(0));
        if (failed(o))
          return failure();
        values[inner.getResult(0)] = *o;
        continue;
      }
      if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
               arith::NegFOp, math::RsqrtOp, math::SqrtOp>(inner))
        return fail(llvm::formatv("'{0}' in a payload", name));
      SmallVector<int> operands;
      for (Value v : inner.getOperands()) {
        FailureOr<int> o = lookup(v);
        if (failed(o))
          return failure();
        if (*o < 0)
          return fail("the running sum is used inside the payload");
        operands.push_back(*o);
      }
      values[inner.getResult(0)] = table.op(name, operands);
    }
    Value yielded = body->getTerminator()->getOperand(0);
    FailureOr<int> result = lookup(yielded);
    if (failed(result))
      return failure();

    int content;
    if (numReductions > 0) {
      if (*result != -1 || accumulated < 0)
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
      content = table.get(sum);
    } else {
      if (*result < 0)
        return fail("the output's old value is used");
      content = *result;
      if (rowOutput && table[content].full)
        return fail("a row value that depends on the row position");
    }
    contents[init->get()] = content;
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

LogicalResult cudatpl::analyzeNormProblem(Operation *funcOp, ProblemView &view,
                                          std::string &whyNot) {
  NormAnalysis a(view, whyNot);
  OwningOpRef<Operation *> copy = generalizedCopy(funcOp);
  auto func = cast<func::FuncOp>(copy.get());
  if (view.numOutputArgs != 1 || view.argKinds.size() < 2)
    return a.fail("the problem must have one output");
  a.numInputs = view.argKinds.size() - 1;
  a.fullShape = view.argShapes.back();
  a.rank = a.fullShape.size();
  if (a.rank < 2)
    return a.fail("the output has fewer than two dimensions");
  Value output = func.getArgument(a.numInputs);

  for (Operation &op : func.getBody().front().without_terminator()) {
    if (isa<arith::ConstantOp, memref::DeallocOp>(op))
      continue;
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (!alloc.getType().hasStaticShape())
        return a.fail("a dynamic temporary");
      continue;
    }
    Value written;
    if (auto fill = dyn_cast<linalg::FillOp>(op)) {
      Attribute value;
      auto f = matchPattern(fill.getInputs()[0], m_Constant(&value))
                   ? dyn_cast<FloatAttr>(value)
                   : FloatAttr();
      if (!f)
        return a.fail("a fill with a value that is not a float constant");
      written = fill.getOutputs()[0];
      a.contents[written] = a.table.constant(f.getValue().convertToDouble());
    } else if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
      if (!generic.hasPureBufferSemantics())
        return a.fail("an op on tensors");
      written = generic.getDpsInitOperand(0)->get();
      if (failed(a.evaluate(generic)))
        return failure();
    } else {
      return a.fail(llvm::formatv("'{0}' in the problem", op.getName()));
    }
    auto arg = dyn_cast<BlockArgument>(written);
    if (arg && arg.getOwner() == &func.getBody().front() &&
        arg.getArgNumber() < a.numInputs)
      return a.fail("an input is overwritten");
  }
  auto it = a.contents.find(output);
  if (it == a.contents.end() || !a.table[it->second].full)
    return a.fail("the output is not written element by element");

  // Match the output's expression.
  const SymTable &t = a.table;
  NormView nv;
  int64_t length = 1;
  for (int64_t d : ArrayRef(a.fullShape).drop_front(a.rowDims))
    length *= d;
  int64_t rows = 1;
  for (int64_t d : ArrayRef(a.fullShape).take_front(a.rowDims))
    rows *= d;
  int64_t xArg = -1;
  auto isX = [&](int id) {
    if (t[id].op != "x")
      return false;
    if (xArg < 0)
      xArg = t[id].arg;
    return t[id].arg == xArg;
  };
  auto constantOf = [&](int id, double &v) {
    if (t[id].op != "const")
      return false;
    v = t[id].value;
    return true;
  };
  // mean(inner): sum(inner) / length, or sum(inner) * (1 / length).
  auto matchMean = [&](int id, int &inner, bool &byFactor,
                       double &factor) -> bool {
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
  };
  // stat + eps, either order.
  auto matchPlusEps = [&](int id, int &stat, double &eps) -> bool {
    const SymNode &n = t[id];
    if (n.op != "arith.addf")
      return false;
    for (int k = 0; k < 2; ++k)
      if (constantOf(n.operands[1 - k], eps) && !t[n.operands[k]].full) {
        stat = n.operands[k];
        return true;
      }
    return false;
  };

  int root = it->second;
  // Optional + beta.
  if (t[root].op == "arith.addf") {
    for (int k = 0; k < 2; ++k)
      if (t[t[root].operands[k]].op == "vec") {
        nv.betaArg = t[t[root].operands[k]].arg;
        root = t[root].operands[1 - k];
        break;
      }
  }
  // The product (and at most one quotient) that remains.
  SmallVector<int> factors, divisors;
  std::function<bool(int)> flatten = [&](int id) -> bool {
    const SymNode &n = t[id];
    if (n.op == "arith.mulf")
      return flatten(n.operands[0]) && flatten(n.operands[1]);
    if (n.op == "arith.divf" && t[n.operands[0]].full) {
      divisors.push_back(n.operands[1]);
      return flatten(n.operands[0]);
    }
    factors.push_back(id);
    return true;
  };
  flatten(root);
  for (auto f = factors.begin(); f != factors.end(); ++f)
    if (t[*f].op == "vec") {
      nv.gammaArg = t[*f].arg;
      factors.erase(f);
      break;
    }
  // The scale: rsqrt(stat + eps) as a factor, or sqrt(stat + eps) as the
  // divisor.
  int stat = -1, scaled = -1;
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
  int inner = -1;
  if (isX(scaled)) {
    // RMS norm: x * rsqrt(mean(x * x) + eps).
    nv.rms = true;
    if (!matchMean(stat, inner, nv.varByFactor, nv.varFactor) ||
        t[inner].op != "arith.mulf" || !isX(t[inner].operands[0]) ||
        !isX(t[inner].operands[1]))
      return a.fail("the statistic of x * rsqrt(...) is not the mean of x * x");
    if (nv.betaArg >= 0)
      return a.fail("an RMS norm with a beta");
  } else {
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
  }
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
  for (ScalarKind k : view.argKinds)
    if (!isFloatKind(k))
      return a.fail("an argument that is not a float");
  view.norm = nv;
  view.opName = nv.rms ? "rmsnorm" : "layernorm";
  view.opClass = OpClass::Reduction;
  view.loopRanges = {rows, length};
  view.reductionLoops = {false, true};
  return success();
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

LogicalResult cudatpl::checkNormApplies(const ProblemView &view, bool rms,
                                        std::string &whyNot) {
  if (!view.norm) {
    whyNot = "the problem is not a fused layer norm or RMS norm";
    return failure();
  }
  if (view.norm->rms != rms) {
    whyNot = rms ? "the problem is a layer norm, not an RMS norm"
                 : "the problem is an RMS norm, not a layer norm";
    return failure();
  }
  return success();
}

static int64_t maxNormVector(const NormView &nv) {
  int64_t bytes =
      std::max(getScalarKindBytes(nv.inKind), getScalarKindBytes(nv.outKind));
  if (nv.gammaArg >= 0)
    bytes = std::max(bytes, getScalarKindBytes(nv.gammaKind));
  if (nv.betaArg >= 0)
    bytes = std::max(bytes, getScalarKindBytes(nv.betaKind));
  int64_t v = 16 / bytes;
  while (v > 1 && nv.length % v)
    v /= 2;
  return v;
}

static int64_t cachedPerLane(const NormView &nv, int64_t threads, int64_t vec) {
  return ceilDiv(nv.length, threads * vec) * vec;
}

FailureOr<CudaKernelPlan>
mlir::stark::generateNormKernel(const ProblemView &view, const NormParams &p,
                                std::string &whyNot) {
  if (!view.norm) {
    whyNot = "the problem is not a fused layer norm or RMS norm";
    return failure();
  }
  const NormView &nv = *view.norm;
  auto pow2 = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  if (!pow2(p.threads) || p.threads > 1024 || p.rows < 1 ||
      p.threads * p.rows > 1024 || (p.threads * p.rows) % 32 || !pow2(p.vec)) {
    whyNot = "threads must be a power of two, threads * rows a multiple of "
             "32 and at most 1024, vec a power of two";
    return failure();
  }
  if (p.vec > maxNormVector(nv)) {
    whyNot = llvm::formatv("vec={0} exceeds the widest aligned access along "
                           "the rows ({1})",
                           p.vec, maxNormVector(nv));
    return failure();
  }
  if (p.cache && cachedPerLane(nv, p.threads, p.vec) > 32) {
    whyNot = llvm::formatv("cache=1 keeps {0} elements per lane in registers "
                           "(at most 32)",
                           cachedPerLane(nv, p.threads, p.vec));
    return failure();
  }
  bool dbl = llvm::any_of(view.argKinds,
                          [](ScalarKind k) { return k == ScalarKind::F64; });
  ScalarKind ck = dbl ? ScalarKind::F64 : ScalarKind::F32;
  std::string ct = dbl ? "double" : "float";
  std::string family = nv.rms ? "rmsnorm" : "layernorm";
  std::string kernel = "stark_" + family;
  auto mean = [&](StringRef sum, bool byFactor, double factor) {
    return byFactor ? (sum + " * " + emitScalarLiteral(ck, factor, 0)).str()
                    : (sum + " / (ct_t)LEN").str();
  };

  std::string s = getCudaPrelude(view);
  llvm::raw_string_ostream os(s);
  os << "// " << (nv.rms ? "RMS norm" : "Layer norm") << " of " << nv.rows
     << " rows of " << nv.length << ", eps " << emitScalarLiteral(ck, nv.eps, 0)
     << (nv.gammaArg >= 0 ? ", gamma" : "") << (nv.betaArg >= 0 ? ", beta" : "")
     << ".\n";
  os << "typedef " << getIndexType(view) << " idx_t;\n";
  os << "typedef " << ct << " ct_t;\n";
  os << "typedef " << getCudaStorageType(nv.inKind) << " TIn;\n";
  os << "typedef " << getCudaStorageType(nv.outKind) << " TOut;\n";
  os << "typedef " << getCudaStorageType(nv.gammaKind) << " TG;\n";
  os << "typedef " << getCudaStorageType(nv.betaKind) << " TB;\n";
  os << "constexpr idx_t ROWS = " << nv.rows << ", LEN = " << nv.length
     << ";\n";
  os << "constexpr int TPR = " << p.threads << ", RPB = " << p.rows
     << ", VEC = " << p.vec << ";\n";
  os << "constexpr bool CACHE = " << (p.cache ? "true" : "false") << ";\n";
  os << "constexpr bool HAS_GAMMA = " << (nv.gammaArg >= 0 ? "true" : "false")
     << ", HAS_BETA = " << (nv.betaArg >= 0 ? "true" : "false") << ";\n";
  os << "constexpr int PER_LANE = (int)((LEN + TPR * VEC - 1) / (TPR * "
        "VEC));\n";
  os << "constexpr int W = TPR < 32 ? TPR : 32, NW = TPR > 32 ? TPR / 32 : "
        "1;\n";
  os << "#define STARK_EPS (" << emitScalarLiteral(ck, nv.eps, 0) << ")\n";
  os << "#define STARK_MEAN(s) (" << mean("(s)", nv.meanByFactor, nv.meanFactor)
     << ")\n";
  os << "#define STARK_VAR(s) (" << mean("(s)", nv.varByFactor, nv.varFactor)
     << ")\n";
  os << "__device__ __forceinline__ ct_t stark_sqrt(ct_t x) { return "
     << (dbl ? "sqrt(x)" : "sqrtf(x)") << "; }\n";
  os << "__device__ __forceinline__ ct_t stark_rsqrt(ct_t x) { return "
     << (dbl ? "rsqrt(x)" : "rsqrtf(x)") << "; }\n";
  os << R"cuda(
// Sum over the TPR lanes of a row, returned to all of them (part: NW slots).
__device__ __forceinline__ ct_t stark_row_sum(ct_t v, ct_t* part) {
#pragma unroll
  for (int off = W / 2; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off, W);
  if constexpr (TPR > 32) {
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
    __syncthreads();
    v = part[0];
    for (int w = 1; w < NW; ++w) v += part[w];
  } else {
    v = __shfl_sync(0xffffffffu, v, 0, W);
  }
  return v;
}

// Merges the running (count, mean, M2) of two disjoint parts of a row.
__device__ __forceinline__ void stark_welford_merge(ct_t& n, ct_t& m, ct_t& m2, ct_t nb, ct_t mb, ct_t m2b) {
  if (nb == (ct_t)0) return;
  const ct_t nn = n + nb, d = mb - m;
  m += d * (nb / nn);
  m2 += m2b + d * d * (n * nb / nn);
  n = nn;
}

)cuda";
  os << "extern \"C\" __global__ void __launch_bounds__(TPR * RPB) " << kernel
     << "(" << getKernelParameters(view) << ") {\n";
  os << "  const TIn* __restrict__ x = " << argName(nv.inputArg) << ";\n";
  os << "  TOut* __restrict__ y = " << argName(nv.outputArg) << ";\n";
  os << "  const TG* __restrict__ gamma = "
     << (nv.gammaArg >= 0 ? argName(nv.gammaArg) : std::string("nullptr"))
     << ";\n";
  os << "  const TB* __restrict__ beta = "
     << (nv.betaArg >= 0 ? argName(nv.betaArg) : std::string("nullptr"))
     << ";\n";
  os << "  constexpr bool RMS = " << (nv.rms ? "true" : "false") << ";\n";
  os << "  constexpr bool DIVIDE = " << (nv.divideBySqrt ? "true" : "false")
     << ";\n";
  os << R"cuda(  __shared__ ct_t part[3][RPB][NW];
  const int lane = threadIdx.x;
  const idx_t row = (idx_t)blockIdx.x * RPB + threadIdx.y;
  // Rows past the end still take part in the block's barriers.
  const bool active = row < ROWS;
  const idx_t base = active ? row * LEN : 0;
  auto load = [&](idx_t j) { return *reinterpret_cast<const StarkVec<TIn, VEC>*>(x + base + j); };
  ct_t mean = 0, stat = 0;
  StarkVec<TIn, VEC> cached[CACHE ? PER_LANE : 1];
  if constexpr (CACHE) {
    // Two passes over the row in registers: the sum, then the centred squares.
    ct_t s = 0;
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
      const idx_t j = ((idx_t)i * TPR + lane) * VEC;
      if (active && j < LEN) {
        cached[i] = load(j);
#pragma unroll
        for (int v = 0; v < VEC; ++v) {
          const ct_t xv = (ct_t)stark_widen(cached[i].v[v]);
          s += RMS ? xv * xv : xv;
        }
      }
    }
    s = stark_row_sum(s, part[0][threadIdx.y]);
    if constexpr (RMS) {
      stat = STARK_VAR(s);
    } else {
      mean = STARK_MEAN(s);
      ct_t q = 0;
#pragma unroll
      for (int i = 0; i < PER_LANE; ++i) {
        const idx_t j = ((idx_t)i * TPR + lane) * VEC;
        if (active && j < LEN) {
#pragma unroll
          for (int v = 0; v < VEC; ++v) {
            const ct_t d = (ct_t)stark_widen(cached[i].v[v]) - mean;
            q += d * d;
          }
        }
      }
      q = stark_row_sum(q, part[1][threadIdx.y]);
      stat = STARK_VAR(q);
    }
  } else if constexpr (RMS) {
    ct_t s = 0;
    if (active) {
#pragma unroll 4
      for (idx_t j = (idx_t)lane * VEC; j < LEN; j += TPR * VEC) {
        const StarkVec<TIn, VEC> xv = load(j);
#pragma unroll
        for (int v = 0; v < VEC; ++v) {
          const ct_t e = (ct_t)stark_widen(xv.v[v]);
          s += e * e;
        }
      }
    }
    stat = STARK_VAR(stark_row_sum(s, part[0][threadIdx.y]));
  } else {
    // One streaming pass: each lane's Welford (count, mean, M2), merged.
    ct_t n = 0, m = 0, m2 = 0;
    if (active) {
#pragma unroll 4
      for (idx_t j = (idx_t)lane * VEC; j < LEN; j += TPR * VEC) {
        const StarkVec<TIn, VEC> xv = load(j);
#pragma unroll
        for (int v = 0; v < VEC; ++v) {
          const ct_t e = (ct_t)stark_widen(xv.v[v]);
          n += (ct_t)1;
          const ct_t d = e - m;
          m += d / n;
          m2 += d * (e - m);
        }
      }
    }
#pragma unroll
    for (int off = W / 2; off > 0; off /= 2) {
      const ct_t nb = __shfl_down_sync(0xffffffffu, n, off, W);
      const ct_t mb = __shfl_down_sync(0xffffffffu, m, off, W);
      const ct_t m2b = __shfl_down_sync(0xffffffffu, m2, off, W);
      stark_welford_merge(n, m, m2, nb, mb, m2b);
    }
    if constexpr (TPR > 32) {
      if (lane % 32 == 0) {
        part[0][threadIdx.y][lane / 32] = n;
        part[1][threadIdx.y][lane / 32] = m;
        part[2][threadIdx.y][lane / 32] = m2;
      }
      __syncthreads();
      n = part[0][threadIdx.y][0];
      m = part[1][threadIdx.y][0];
      m2 = part[2][threadIdx.y][0];
      for (int w = 1; w < NW; ++w)
        stark_welford_merge(n, m, m2, part[0][threadIdx.y][w], part[1][threadIdx.y][w], part[2][threadIdx.y][w]);
    } else {
      m = __shfl_sync(0xffffffffu, m, 0, W);
      m2 = __shfl_sync(0xffffffffu, m2, 0, W);
    }
    mean = m;
    stat = STARK_VAR(m2);
  }
  if (!active) return;
  const ct_t scale = DIVIDE ? stark_sqrt(stat + STARK_EPS) : stark_rsqrt(stat + STARK_EPS);
  auto store = [&](idx_t j, const StarkVec<TIn, VEC>& xv) {
    StarkVec<TOut, VEC> o;
    StarkVec<TG, VEC> g;
    StarkVec<TB, VEC> b;
    if constexpr (HAS_GAMMA) g = *reinterpret_cast<const StarkVec<TG, VEC>*>(gamma + j);
    if constexpr (HAS_BETA) b = *reinterpret_cast<const StarkVec<TB, VEC>*>(beta + j);
#pragma unroll
    for (int v = 0; v < VEC; ++v) {
      const ct_t c = RMS ? (ct_t)stark_widen(xv.v[v]) : (ct_t)stark_widen(xv.v[v]) - mean;
      ct_t t = DIVIDE ? c / scale : c * scale;
      if constexpr (HAS_GAMMA) t = t * (ct_t)stark_widen(g.v[v]);
      if constexpr (HAS_BETA) t = t + (ct_t)stark_widen(b.v[v]);
      o.v[v] = stark_cast<TOut>(t);
    }
    *reinterpret_cast<StarkVec<TOut, VEC>*>(y + base + j) = o;
  };
  if constexpr (CACHE) {
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
      const idx_t j = ((idx_t)i * TPR + lane) * VEC;
      if (j < LEN) store(j, cached[i]);
    }
  } else {
#pragma unroll 4
    for (idx_t j = (idx_t)lane * VEC; j < LEN; j += TPR * VEC) store(j, load(j));
  }
}
)cuda";

  CudaKernelPlan plan;
  plan.source = std::move(s);
  plan.family = family;
  CudaKernelPlan::Launch launch;
  launch.kernel = kernel;
  launch.grid = {ceilDiv(nv.rows, p.rows), 1, 1};
  launch.block = {p.threads, p.rows, 1};
  plan.launches.push_back(launch);
  plan.threadsPerBlock = p.threads * p.rows;
  plan.sharedBytesPerBlock =
      3 * p.rows * std::max<int64_t>(1, p.threads / 32) * (dbl ? 8 : 4);
  setParam(plan, "threads", p.threads);
  setParam(plan, "rows", p.rows);
  setParam(plan, "vec", p.vec);
  setParam(plan, "cache", p.cache);
  return plan;
}

std::vector<NormParams> cudatpl::enumerateNorm(const ProblemView &view,
                                               const HardwareProfile &profile) {
  const NormView &nv = *view.norm;
  int64_t maxThreads =
      profile.maxThreadsPerBlock > 0 ? profile.maxThreadsPerBlock : 1024;
  int64_t maxVec = maxNormVector(nv);
  int64_t sms = std::max<int64_t>(profile.numComputeUnits, 1);
  std::vector<NormParams> out;
  auto add = [&](int64_t threads, int64_t rows, int64_t vec) {
    if (threads * rows > std::min<int64_t>(maxThreads, 1024) ||
        (threads * rows) % 32)
      return;
    for (const NormParams &q : out)
      if (q.threads == threads && q.rows == rows && q.vec == vec)
        return;
    // A row that fits in the lanes' registers is read once: that variant
    // goes first.
    if (cachedPerLane(nv, threads, vec) <= 32)
      out.push_back({threads, rows, vec, /*cache=*/true});
    out.push_back({threads, rows, vec, /*cache=*/false});
  };
  SmallVector<int64_t> vecs = {maxVec};
  if (maxVec > 1)
    vecs.push_back(1);
  for (int64_t vec : vecs) {
    int64_t perRow = ceilDiv(nv.length, vec);
    SmallVector<int64_t> lanes;
    if (perRow <= 64)
      lanes = {32, 16, 64};
    else if (perRow <= 1024)
      lanes = {32, 64, 128, 256};
    else
      lanes = {256, 512, 1024, 128};
    for (int64_t tpr : lanes) {
      int64_t rows = std::max<int64_t>(1, 256 / tpr);
      // Few rows: fewer rows per block so more SMs get one.
      if (ceilDiv(nv.rows, rows) < sms)
        rows = std::max<int64_t>(32 / std::min<int64_t>(tpr, 32), rows / 4);
      add(tpr, rows, vec);
    }
  }
  return out;
}
