//===- AttentionView.cpp - Attention read off a fused problem -------------===//
//
// A fused problem (stark/Problem/FusionGroup.h) is read as attention,
// softmax(scale * Q K^T [+ mask]) V, by walking its ops in program order and
// giving each buffer they write a meaning:
//
//   scores    Q K^T (the first contraction), then scaled by constants, a
//             mask tensor added, keys after the query row set to -inf;
//   row max   the maximum of the scores over the keys (from -inf);
//   exp       exp(scores - row max);
//   row sum   the sum of exp over the keys (from 0);
//   probs     exp / row sum, or linalg.softmax of the scores;
//
// and the last op must be the contraction of probs with V into the output.
// Every payload is matched exactly (casts between float types aside): a
// chain that computes anything else, reads a buffer through a map that is
// not the identity, or combines the parts otherwise, is not attention.
//
//===----------------------------------------------------------------------===//

#include "FusedView.h"

#include "stark/Analysis/InitFill.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::stark;

namespace {

/// What a buffer of the chain holds once its writer ran.
enum class Meaning { Scores, RowMax, Exp, RowSum, Probs };

struct BufferMeaning {
  Meaning meaning = Meaning::Scores;
  /// For RowMax, Exp, RowSum and Probs: the scores buffer they derive from.
  Value scores;
};

/// How a scores buffer derives from Q K^T.
struct ScoreForm {
  double scale = 1;
  /// The mask argument added (-1: none) and its strides along (b, h, i, j).
  int64_t maskArg = -1;
  std::array<int64_t, 4> maskStrides{};
  bool causal = false;
  /// The causal mask is added (s + (j > i ? -inf : 0)), not selected.
  bool causalAdds = false;
};

/// The loops of a contraction: batch loops (outermost first), then the m,
/// n and k loop, with the accesses of A, B and C.
struct ContractionLoops {
  SmallVector<unsigned> batch;
  unsigned m = 0, n = 0, k = 0;
  LinearAccess a, b, c;
  SmallVector<int64_t> ranges;
};

class AttentionMatcher {
public:
  AttentionMatcher(func::FuncOp func, ProblemView &view, std::string &whyNot)
      : func(func), entry(func.getBody().front()), view(view), whyNot(whyNot) {}

  LogicalResult run();

private:
  func::FuncOp func;
  Block &entry;
  ProblemView &view;
  std::string &whyNot;
  AttentionView av;
  /// The ops that compute (constants, allocations and deallocations left
  /// out), in program order.
  SmallVector<Operation *> ops;
  DenseMap<Value, double> fillValues;
  /// Temporaries that permute an argument (K transposed): the argument and
  /// its element strides along each dimension of the temporary.
  DenseMap<Value, std::pair<int64_t, SmallVector<int64_t>>> permuted;
  /// A permuting copy of the last contraction's temporary result into the
  /// output argument (heads moved back inward); null when it writes the
  /// output itself.
  linalg::LinalgOp outCopy;
  DenseMap<Value, BufferMeaning> meanings;
  /// How each scores buffer derives from Q K^T.
  DenseMap<Value, ScoreForm> forms;
  int64_t numBatchLoops = 0;
  SmallVector<int64_t> batchRanges;

  LogicalResult fail(const Twine &why) {
    whyNot = ("not attention: " + why).str();
    return failure();
  }
  int64_t argNumber(Value v) const {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == &entry ? int64_t(arg.getArgNumber()) : -1;
  }
  SmallVector<int64_t> scoresShape() const {
    SmallVector<int64_t> shape(batchRanges);
    shape.append({av.sq, av.sk});
    return shape;
  }

  LogicalResult readContraction(linalg::LinalgOp op, ContractionLoops &loops);
  /// A copy of an argument through permutation maps into a temporary.
  LogicalResult matchPermutingCopy(linalg::LinalgOp op);
  /// The access of the last contraction `op` (loops `c`) in elements of the
  /// output argument that `outCopy` copies its temporary result into.
  FailureOr<LinearAccess> writeThroughCopy(linalg::LinalgOp op,
                                           const ContractionLoops &c);
  /// The access of a contraction operand in elements of the argument it
  /// reads (through a permuted temporary, that temporary's argument).
  FailureOr<LinearAccess> readOperand(linalg::LinalgOp op, OpOperand &operand,
                                      int64_t &arg);
  LogicalResult matchFirstContraction(linalg::LinalgOp op);
  LogicalResult matchLastContraction(linalg::LinalgOp op);
  LogicalResult matchChainOp(Operation *op);
  LogicalResult matchSoftmax(linalg::SoftmaxOp op);
  LogicalResult matchRowOp(linalg::LinalgOp op);
  /// Checks the loops of a row op and classifies its operands by position
  /// in the payload.
  LogicalResult readRowOperands(linalg::LinalgOp op, bool reduction,
                                SmallVector<Value> &buffers);
  /// A payload node that is the value of a scores buffer, possibly scaled
  /// or masked: `form` says how it derives from Q K^T.
  bool matchScores(const ScalarProgram &p, int node, ArrayRef<Value> buffers,
                   linalg::LinalgOp op, ScoreForm &form);
  /// The buffer a payload node reads as it is (casts aside); null for
  /// anything else.
  Value bufferRead(const ScalarProgram &p, int node,
                   ArrayRef<Value> buffers) const;
  /// exp(scores - row max) as a node: sets the scores buffer it reads.
  bool matchExp(const ScalarProgram &p, int node, ArrayRef<Value> buffers,
                Value &scores);
  bool isCausalCondition(const ScalarProgram &p, int node, bool masksAbove);
  bool isIndex(const ScalarProgram &p, int node, int64_t loop);
  const BufferMeaning *meaningOf(Value v) const {
    auto it = meanings.find(v);
    return it == meanings.end() ? nullptr : &it->second;
  }
};

} // namespace

/// `node` without the float extensions and truncations around it.
static int stripCasts(const ScalarProgram &p, int node) {
  while (p.nodes[node].op == "arith.extf" || p.nodes[node].op == "arith.truncf")
    node = p.nodes[node].operands[0];
  return node;
}

static bool isConst(const ScalarProgram &p, int node, double &value) {
  node = stripCasts(p, node);
  if (p.nodes[node].op != "const")
    return false;
  value = p.nodes[node].floatValue;
  return true;
}

/// Whether `access` reads a dense row-major buffer of `shape` at the point
/// whose dimension t is loop `loops[t]`.
static bool isDenseAccess(const LinearAccess &access, ArrayRef<int64_t> shape,
                          ArrayRef<unsigned> loops) {
  if (access.offset != 0 || shape.size() != loops.size())
    return false;
  int64_t stride = 1;
  SmallVector<int64_t> expected(access.coefficients.size(), 0);
  for (int64_t t = int64_t(shape.size()) - 1; t >= 0; --t) {
    if (shape[t] != 1)
      expected[loops[t]] = stride;
    stride *= shape[t];
  }
  for (auto [c, e] : llvm::zip(access.coefficients, expected))
    if (c != e && e != 0)
      return false;
  // A loop no dimension stands for must not move the address.
  for (auto [l, c] : llvm::enumerate(access.coefficients))
    if (c != 0 && !llvm::is_contained(loops, unsigned(l)))
      return false;
  return true;
}

LogicalResult AttentionMatcher::readContraction(linalg::LinalgOp op,
                                                ContractionLoops &loops) {
  if (!linalg::isaContractionOpInterface(op) || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return fail("a contraction of two operands is expected");
  loops.ranges = op.getStaticLoopRanges();
  auto accessOf = [&](OpOperand &operand, LinearAccess &out) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.hasStaticShape())
      return failure();
    FailureOr<LinearAccess> access = mlir::stark::detail::getLinearAccess(
        op.getMatchingIndexingMap(&operand), type.getShape());
    if (failed(access))
      return failure();
    out = *access;
    return success();
  };
  if (failed(accessOf(*op.getDpsInputOperand(0), loops.a)) ||
      failed(accessOf(*op.getDpsInputOperand(1), loops.b)) ||
      failed(accessOf(*op.getDpsInitOperand(0), loops.c)))
    return fail("a contraction operand is not read linearly");
  SmallVector<unsigned> ms, ns, ks;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned l = 0; l < loops.ranges.size(); ++l) {
    bool inA = loops.a.dependsOn(l), inB = loops.b.dependsOn(l),
         inC = loops.c.dependsOn(l);
    bool reduced = iterators[l] == utils::IteratorType::reduction;
    if (reduced && inA && inB && !inC)
      ks.push_back(l);
    else if (!reduced && inA && inB && inC)
      loops.batch.push_back(l);
    else if (!reduced && inA && !inB && inC)
      ms.push_back(l);
    else if (!reduced && !inA && inB && inC)
      ns.push_back(l);
    else
      return fail("a contraction loop is neither batch, m, n nor k");
  }
  if (ms.size() != 1 || ns.size() != 1 || ks.size() != 1 ||
      loops.batch.size() > 2)
    return fail("a contraction needs one m, one n and one k loop and at "
                "most two batch loops");
  loops.m = ms[0];
  loops.n = ns[0];
  loops.k = ks[0];
  auto init = fillValues.find(op.getDpsInits()[0]);
  if (init == fillValues.end() || init->second != 0)
    return fail("a contraction does not start from a fill of zero");
  return success();
}

/// The element strides in an argument of static `argType` of each
/// dimension of the temporary a permuting copy moves between them (`tempMap`
/// and `argMap` are the copy's maps of the two): dimension t of the
/// temporary is loop tempMap(t), and the argument's dimension that the same
/// loop indexes gives its stride. Fails where the loop indexes none.
static FailureOr<SmallVector<int64_t>>
getPermutedStrides(AffineMap tempMap, AffineMap argMap, MemRefType argType) {
  SmallVector<int64_t> dense = computeStrides(argType.getShape());
  SmallVector<int64_t> strides;
  for (AffineExpr e : tempMap.getResults()) {
    std::optional<unsigned> r = argMap.getResultPosition(e);
    if (!r)
      return failure();
    strides.push_back(dense[*r]);
  }
  return strides;
}

/// The access of an operand of the temporary read or written through `map`,
/// where dimension t of the temporary steps the argument behind it by
/// `strides[t]` (getPermutedStrides); fails where a dimension is not
/// indexed by a loop alone.
static FailureOr<LinearAccess> getAccessThroughCopy(AffineMap map,
                                                    ArrayRef<int64_t> strides) {
  LinearAccess access;
  access.coefficients.assign(map.getNumDims(), 0);
  for (auto [t, e] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim)
      return failure();
    access.coefficients[dim.getPosition()] += strides[t];
  }
  return access;
}

/// The strides of an operand along (b, h, row, column) from its access.
static std::array<int64_t, 4> getStrides(const LinearAccess &access,
                                         ArrayRef<unsigned> batch, unsigned row,
                                         unsigned column) {
  std::array<int64_t, 4> s{};
  if (batch.size() == 1)
    s[0] = access.coefficients[batch[0]];
  if (batch.size() == 2) {
    s[0] = access.coefficients[batch[0]];
    s[1] = access.coefficients[batch[1]];
  }
  s[2] = access.coefficients[row];
  s[3] = access.coefficients[column];
  return s;
}

LogicalResult AttentionMatcher::matchPermutingCopy(linalg::LinalgOp op) {
  Value in = op.getDpsInputs()[0], out = op.getDpsInits()[0];
  int64_t arg = argNumber(in);
  auto inType = dyn_cast<MemRefType>(in.getType());
  auto outType = dyn_cast<MemRefType>(out.getType());
  if (arg < 0 || argNumber(out) >= 0 || !inType || !outType ||
      !inType.hasStaticShape() || !outType.hasStaticShape())
    return fail("a copy before Q K^T does not permute an argument into a "
                "temporary");
  FailureOr<SmallVector<int64_t>> strides = getPermutedStrides(
      op.getMatchingIndexingMap(op.getDpsInitOperand(0)),
      op.getMatchingIndexingMap(op.getDpsInputOperand(0)), inType);
  if (failed(strides))
    return fail("a copy before Q K^T drops a dimension");
  permuted[out] = {arg, std::move(*strides)};
  return success();
}

FailureOr<LinearAccess> AttentionMatcher::readOperand(linalg::LinalgOp op,
                                                      OpOperand &operand,
                                                      int64_t &arg) {
  Value v = operand.get();
  auto type = cast<MemRefType>(v.getType());
  AffineMap map = op.getMatchingIndexingMap(&operand);
  arg = argNumber(v);
  if (arg >= 0)
    return mlir::stark::detail::getLinearAccess(map, type.getShape());
  auto it = permuted.find(v);
  if (it == permuted.end())
    return failure();
  arg = it->second.first;
  return getAccessThroughCopy(map, it->second.second);
}

FailureOr<LinearAccess>
AttentionMatcher::writeThroughCopy(linalg::LinalgOp op,
                                   const ContractionLoops &c) {
  Value temp = outCopy.getDpsInputs()[0], out = outCopy.getDpsInits()[0];
  auto tempType = dyn_cast<MemRefType>(temp.getType());
  auto outType = dyn_cast<MemRefType>(out.getType());
  SmallVector<unsigned> order(c.batch);
  order.append({c.m, c.n});
  if (!tempType || !outType || !tempType.hasStaticShape() ||
      !outType.hasStaticShape() || argNumber(out) < 0 ||
      !isDenseAccess(c.c, tempType.getShape(), order))
    return failure();
  FailureOr<SmallVector<int64_t>> strides = getPermutedStrides(
      outCopy.getMatchingIndexingMap(outCopy.getDpsInputOperand(0)),
      outCopy.getMatchingIndexingMap(outCopy.getDpsInitOperand(0)), outType);
  if (failed(strides))
    return failure();
  // The contraction writes dimension t of the temporary through loop
  // writeMap(t): that loop steps the output by the stride of t.
  AffineMap writeMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  return getAccessThroughCopy(writeMap, *strides);
}

LogicalResult AttentionMatcher::matchFirstContraction(linalg::LinalgOp op) {
  ContractionLoops c;
  if (failed(readContraction(op, c)))
    return failure();
  FailureOr<LinearAccess> qAccess =
      readOperand(op, *op.getDpsInputOperand(0), av.qArg);
  FailureOr<LinearAccess> kAccess =
      readOperand(op, *op.getDpsInputOperand(1), av.kArg);
  if (failed(qAccess) || failed(kAccess))
    return fail("Q and K must be arguments of the problem, or permutations "
                "of them");
  c.a = *qAccess;
  c.b = *kAccess;
  numBatchLoops = int64_t(c.batch.size());
  for (unsigned l : c.batch)
    batchRanges.push_back(c.ranges[l]);
  av.batch = numBatchLoops ? batchRanges[0] : 1;
  av.heads = numBatchLoops == 2 ? batchRanges[1] : 1;
  av.sq = c.ranges[c.m];
  av.sk = c.ranges[c.n];
  av.d = c.ranges[c.k];
  if (c.a.offset != 0 || c.b.offset != 0)
    return fail("Q or K is read at an offset");
  av.qStrides = getStrides(c.a, c.batch, c.m, c.k);
  av.kStrides = getStrides(c.b, c.batch, c.n, c.k);
  Value scores = op.getDpsInits()[0];
  SmallVector<unsigned> order(c.batch);
  order.append({c.m, c.n});
  auto type = cast<MemRefType>(scores.getType());
  if (argNumber(scores) >= 0 || !isDenseAccess(c.c, type.getShape(), order) ||
      SmallVector<int64_t>(type.getShape()) != scoresShape())
    return fail("the scores are not a temporary of [batch..., queries, keys] "
                "written in that order");
  FailureOr<ElementKind> qKind = getElementKind(
      cast<MemRefType>(func.getArgument(av.qArg).getType()).getElementType());
  FailureOr<ElementKind> kKind = getElementKind(
      cast<MemRefType>(func.getArgument(av.kArg).getType()).getElementType());
  if (failed(qKind) || failed(kKind))
    return fail("Q or K has an unsupported element type");
  av.qKind = *qKind;
  av.kKind = *kKind;
  meanings[scores] = {Meaning::Scores, scores};
  forms[scores] = ScoreForm();
  return success();
}

LogicalResult AttentionMatcher::matchLastContraction(linalg::LinalgOp op) {
  ContractionLoops c;
  if (failed(readContraction(op, c)))
    return failure();
  Value probs = op.getDpsInputs()[0];
  const BufferMeaning *m = meaningOf(probs);
  if (!m || m->meaning != Meaning::Probs)
    return fail("the last contraction does not multiply the probabilities");
  SmallVector<int64_t> ranges;
  for (unsigned l : c.batch)
    ranges.push_back(c.ranges[l]);
  if (ranges != batchRanges || c.ranges[c.m] != av.sq || c.ranges[c.k] != av.sk)
    return fail("the contractions' batch, query and key loops differ");
  SmallVector<unsigned> order(c.batch);
  order.append({c.m, c.k});
  if (!isDenseAccess(c.a, cast<MemRefType>(probs.getType()).getShape(), order))
    return fail("the probabilities are not read as [batch..., queries, "
                "keys]");
  FailureOr<LinearAccess> vAccess =
      readOperand(op, *op.getDpsInputOperand(1), av.vArg);
  Value out = op.getDpsInits()[0];
  av.outArg = argNumber(out);
  if (av.outArg < 0 && outCopy && outCopy.getDpsInputs()[0] == out)
    if (FailureOr<LinearAccess> access = writeThroughCopy(op, c);
        succeeded(access)) {
      c.c = *access;
      out = outCopy.getDpsInits()[0];
      av.outArg = argNumber(out);
    }
  if (failed(vAccess) || av.outArg < 0)
    return fail("V and the output must be arguments of the problem (V may "
                "be a permutation of one, the output may be copied into one "
                "through a permutation)");
  c.b = *vAccess;
  if (c.b.offset != 0 || c.c.offset != 0)
    return fail("V or the output is addressed at an offset");
  av.dv = c.ranges[c.n];
  av.vStrides = getStrides(c.b, c.batch, c.k, c.n);
  av.oStrides = getStrides(c.c, c.batch, c.m, c.n);
  FailureOr<ElementKind> vKind = getElementKind(
      cast<MemRefType>(func.getArgument(av.vArg).getType()).getElementType());
  FailureOr<ElementKind> oKind =
      getElementKind(cast<MemRefType>(out.getType()).getElementType());
  if (failed(vKind) || failed(oKind))
    return fail("V or the output has an unsupported element type");
  av.vKind = *vKind;
  av.oKind = *oKind;
  const ScoreForm &form = forms[m->scores];
  av.scale = form.scale;
  av.causal = form.causal;
  av.causalAdds = form.causalAdds;
  av.maskArg = form.maskArg;
  av.maskStrides = form.maskStrides;
  if (form.maskArg >= 0) {
    FailureOr<ElementKind> kind = getElementKind(
        cast<MemRefType>(func.getArgument(form.maskArg).getType())
            .getElementType());
    if (failed(kind) || !isFloatKind(*kind))
      return fail("the mask is not a float tensor");
    av.maskKind = *kind;
  }
  return success();
}

LogicalResult AttentionMatcher::matchSoftmax(linalg::SoftmaxOp op) {
  const BufferMeaning *in = meaningOf(op.getInput());
  auto type = cast<ShapedType>(op.getInput().getType());
  if (!in || in->meaning != Meaning::Scores ||
      int64_t(op.getDimension()) != type.getRank() - 1 ||
      argNumber(op.getOutput()) >= 0)
    return fail("linalg.softmax is not taken over the keys of the scores");
  meanings[op.getOutput()] = {Meaning::Probs, in->scores};
  return success();
}

bool AttentionMatcher::isIndex(const ScalarProgram &p, int node, int64_t loop) {
  while (p.nodes[node].op == "arith.index_cast" ||
         p.nodes[node].op == "arith.index_castui")
    node = p.nodes[node].operands[0];
  return p.nodes[node].op == "index" && p.nodes[node].position == loop;
}

/// `masksAbove`: the condition is true exactly where j > i (it selects
/// -inf); otherwise true exactly where j <= i (it selects the score).
bool AttentionMatcher::isCausalCondition(const ScalarProgram &p, int node,
                                         bool masksAbove) {
  const ScalarNode &n = p.nodes[node];
  if (n.op != "arith.cmpi" || n.operands.size() != 2)
    return false;
  int64_t i = numBatchLoops, j = numBatchLoops + 1;
  bool jFirst = isIndex(p, n.operands[0], j) && isIndex(p, n.operands[1], i);
  bool iFirst = isIndex(p, n.operands[0], i) && isIndex(p, n.operands[1], j);
  // Written as (j, i): j > i is ugt / sgt, j <= i is ule / sle; written as
  // (i, j): i < j is ult / slt, i >= j is uge / sge.
  StringRef pred = n.predicate;
  if (masksAbove)
    return (jFirst && (pred == "ugt" || pred == "sgt")) ||
           (iFirst && (pred == "ult" || pred == "slt"));
  return (jFirst && (pred == "ule" || pred == "sle")) ||
         (iFirst && (pred == "uge" || pred == "sge"));
}

static bool isConstValue(const ScalarProgram &p, int node, double value) {
  double v;
  return isConst(p, node, v) &&
         (std::isnan(value)
              ? std::isnan(v)
              : v == value && std::signbit(v) == std::signbit(value));
}

Value AttentionMatcher::bufferRead(const ScalarProgram &p, int node,
                                   ArrayRef<Value> buffers) const {
  const ScalarNode &n = p.nodes[stripCasts(p, node)];
  if (n.op != "arg" || n.position >= int64_t(buffers.size()))
    return Value();
  return buffers[n.position];
}

bool AttentionMatcher::matchScores(const ScalarProgram &p, int node,
                                   ArrayRef<Value> buffers, linalg::LinalgOp op,
                                   ScoreForm &form) {
  node = stripCasts(p, node);
  const ScalarNode &n = p.nodes[node];
  const double ninf = -std::numeric_limits<double>::infinity();
  if (n.op == "arg") {
    Value v = bufferRead(p, node, buffers);
    const BufferMeaning *m = v ? meaningOf(v) : nullptr;
    if (!m || m->meaning != Meaning::Scores)
      return false;
    form = forms[v];
    return true;
  }
  double c;
  // A scale: only before a mask is added or keys are masked (the mask
  // would be scaled too), by a finite positive constant.
  auto rescale = [&](int scoreNode, double factor) {
    if (!matchScores(p, scoreNode, buffers, op, form) || form.maskArg >= 0 ||
        form.causal || !(factor > 0) || std::isinf(factor))
      return false;
    form.scale *= factor;
    return true;
  };
  if (n.op == "arith.mulf" && n.operands.size() == 2) {
    if (isConst(p, n.operands[1], c))
      return rescale(n.operands[0], c);
    if (isConst(p, n.operands[0], c))
      return rescale(n.operands[1], c);
    return false;
  }
  if (n.op == "arith.divf" && isConst(p, n.operands[1], c))
    return c != 0 && rescale(n.operands[0], 1 / c);
  if (n.op == "arith.addf" && n.operands.size() == 2) {
    for (int side = 0; side < 2; ++side) {
      int other = stripCasts(p, n.operands[1 - side]);
      const ScalarNode &o = p.nodes[other];
      // + mask[b, h, i, j], an input argument of the problem.
      if (o.op == "arg" && o.position < int64_t(op.getNumDpsInputs()) &&
          !buffers[o.position]) {
        OpOperand *operand = op.getDpsInputOperand(o.position);
        auto type = cast<MemRefType>(operand->get().getType());
        FailureOr<LinearAccess> access = mlir::stark::detail::getLinearAccess(
            op.getMatchingIndexingMap(operand), type.getShape());
        if (failed(access) || access->offset != 0 ||
            !matchScores(p, n.operands[side], buffers, op, form) ||
            form.maskArg >= 0)
          return false;
        SmallVector<unsigned> batch;
        for (int64_t l = 0; l < numBatchLoops; ++l)
          batch.push_back(unsigned(l));
        form.maskArg = argNumber(operand->get());
        form.maskStrides = getStrides(*access, batch, unsigned(numBatchLoops),
                                      unsigned(numBatchLoops + 1));
        return form.maskArg >= 0;
      }
      // + (j > i ? -inf : 0).
      if (o.op == "arith.select" && isCausalCondition(p, o.operands[0], true) &&
          isConstValue(p, o.operands[1], ninf) &&
          isConstValue(p, o.operands[2], 0.0)) {
        if (!matchScores(p, n.operands[side], buffers, op, form) || form.causal)
          return false;
        form.causal = true;
        form.causalAdds = true;
        return true;
      }
    }
    return false;
  }
  // j > i ? -inf : s, or j <= i ? s : -inf.
  if (n.op == "arith.select" && n.operands.size() == 3) {
    int scoreNode = -1;
    if (isCausalCondition(p, n.operands[0], true) &&
        isConstValue(p, n.operands[1], ninf))
      scoreNode = n.operands[2];
    else if (isCausalCondition(p, n.operands[0], false) &&
             isConstValue(p, n.operands[2], ninf))
      scoreNode = n.operands[1];
    if (scoreNode < 0 || !matchScores(p, scoreNode, buffers, op, form) ||
        form.causal)
      return false;
    form.causal = true;
    return true;
  }
  return false;
}

bool AttentionMatcher::matchExp(const ScalarProgram &p, int node,
                                ArrayRef<Value> buffers, Value &scores) {
  node = stripCasts(p, node);
  const ScalarNode &n = p.nodes[node];
  auto meaningRead = [&](int arg) -> const BufferMeaning * {
    Value v = bufferRead(p, arg, buffers);
    return v ? meaningOf(v) : nullptr;
  };
  if (n.op == "arg") {
    const BufferMeaning *m = meaningRead(node);
    if (!m || m->meaning != Meaning::Exp)
      return false;
    scores = m->scores;
    return true;
  }
  if (n.op != "math.exp")
    return false;
  const ScalarNode &sub = p.nodes[stripCasts(p, n.operands[0])];
  if (sub.op != "arith.subf")
    return false;
  Value s = bufferRead(p, sub.operands[0], buffers);
  const BufferMeaning *mx = meaningRead(sub.operands[1]);
  const BufferMeaning *sm = s ? meaningOf(s) : nullptr;
  if (!sm || !mx || sm->meaning != Meaning::Scores ||
      mx->meaning != Meaning::RowMax || mx->scores != s)
    return false;
  scores = s;
  return true;
}

LogicalResult AttentionMatcher::readRowOperands(linalg::LinalgOp op,
                                                bool reduction,
                                                SmallVector<Value> &buffers) {
  int64_t rank = numBatchLoops + 2;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (int64_t(ranges.size()) != rank || ranges != scoresShape())
    return fail("a chain op's loops are not [batch..., queries, keys]");
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (int64_t l = 0; l < rank; ++l)
    if ((iterators[l] == utils::IteratorType::reduction) !=
        (reduction && l == rank - 1))
      return fail("a chain op reduces other loops than the keys");
  SmallVector<unsigned> all, rows;
  for (int64_t l = 0; l < rank; ++l) {
    all.push_back(unsigned(l));
    if (l < rank - 1)
      rows.push_back(unsigned(l));
  }
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type) {
      buffers.push_back(Value());
      continue;
    }
    // Entry arguments (a mask) are read through any linear access; the
    // chain's own buffers only as [batch..., queries, keys] or [batch...,
    // queries].
    if (argNumber(v) >= 0 && !op.isDpsInit(&operand)) {
      buffers.push_back(Value());
      continue;
    }
    FailureOr<LinearAccess> access = mlir::stark::detail::getLinearAccess(
        op.getMatchingIndexingMap(&operand), type.getShape());
    bool full = type.getRank() == rank;
    if (failed(access) ||
        !isDenseAccess(*access, type.getShape(), full ? all : rows))
      return fail("a chain op reads a temporary through a map that is not "
                  "the identity");
    buffers.push_back(v);
  }
  return success();
}

LogicalResult AttentionMatcher::matchRowOp(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return fail("a chain op has more than one output");
  bool reduction = op.getNumReductionLoops() > 0;
  SmallVector<Value> buffers;
  if (failed(readRowOperands(op, reduction, buffers)))
    return failure();
  std::string why;
  FailureOr<ScalarProgram> body = extractScalarProgram(op, why);
  if (failed(body))
    return fail(why);
  const ScalarProgram &p = *body;
  Value out = op.getDpsInits()[0];
  if (argNumber(out) >= 0)
    return fail("a chain op writes an argument of the problem");
  int64_t outPos = op.getNumDpsInputs();
  int yield = stripCasts(p, p.yields[0]);
  const ScalarNode &y = p.nodes[yield];
  if (reduction) {
    // combine(pre, out) over the keys, from the fill of `out`.
    auto init = fillValues.find(out);
    if (init == fillValues.end() || y.operands.size() != 2)
      return fail("a reduction does not start from a fill");
    int pre = -1;
    for (int side = 0; side < 2; ++side)
      if (mlir::stark::detail::isArgNode(p, stripCasts(p, y.operands[side]),
                                         outPos))
        pre = y.operands[1 - side];
    if (pre < 0)
      return fail("a reduction does not combine into its output");
    Value scores = bufferRead(p, pre, buffers);
    const BufferMeaning *in = scores ? meaningOf(scores) : nullptr;
    if ((y.op == "arith.maximumf" || y.op == "arith.maxnumf") &&
        std::isinf(init->second) && init->second < 0) {
      if (!in || in->meaning != Meaning::Scores)
        return fail("a maximum over the keys is not one of the scores");
      meanings[out] = {Meaning::RowMax, scores};
      return success();
    }
    if (y.op == "arith.addf" && init->second == 0 &&
        !std::signbit(init->second) && matchExp(p, pre, buffers, scores)) {
      meanings[out] = {Meaning::RowSum, scores};
      return success();
    }
    return fail("a reduction is neither the row maximum nor the sum of "
                "exp(scores - maximum)");
  }
  Value scores;
  if (y.op == "math.exp" && matchExp(p, yield, buffers, scores)) {
    meanings[out] = {Meaning::Exp, scores};
    return success();
  }
  if (y.op == "arith.divf") {
    const BufferMeaning *sum = nullptr;
    if (Value den = bufferRead(p, y.operands[1], buffers))
      sum = meaningOf(den);
    if (matchExp(p, y.operands[0], buffers, scores) && sum &&
        sum->meaning == Meaning::RowSum && sum->scores == scores) {
      meanings[out] = {Meaning::Probs, scores};
      return success();
    }
  }
  // An op that scales or masks scores makes another scores buffer.
  ScoreForm form;
  if (!matchScores(p, yield, buffers, op, form))
    return fail("a chain op computes neither scores, exp(scores - maximum) "
                "nor probabilities");
  meanings[out] = {Meaning::Scores, out};
  forms[out] = form;
  return success();
}

LogicalResult AttentionMatcher::matchChainOp(Operation *op) {
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    std::optional<double> value = getFillValue(fill);
    if (!value)
      return fail("a fill of a value that is not a constant");
    fillValues[fill.getOutputs()[0]] = *value;
    return success();
  }
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    return matchSoftmax(softmax);
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics())
    return fail(
        llvm::formatv("'{0}' is not a linalg op on buffers", op->getName()));
  return matchRowOp(linalgOp);
}

LogicalResult AttentionMatcher::run() {
  for (Operation &op : entry.without_terminator())
    if (isa<linalg::LinalgOp, linalg::SoftmaxOp>(op))
      ops.push_back(&op);
    else if (!isa<memref::AllocOp, memref::DeallocOp>(op) &&
             !op.hasTrait<OpTrait::ConstantLike>())
      return fail(llvm::formatv("'{0}' in the chain", op.getName()));
  // The contractions: the first and the last op that is not a fill.
  SmallVector<Operation *> computing;
  for (Operation *op : ops)
    if (!isa<linalg::FillOp>(op))
      computing.push_back(op);
  if (computing.size() < 3)
    return fail("fewer than three ops");
  // Permuting copies of the arguments (Q, K or V) may come anywhere before
  // their use.
  auto copiesArgument = [&](Operation *op) {
    return isPermutingCopy(op) &&
           cast<linalg::LinalgOp>(op).hasPureBufferSemantics() &&
           argNumber(cast<linalg::LinalgOp>(op).getDpsInputs()[0]) >= 0;
  };
  Operation *first = nullptr, *last = computing.back();
  // A permuting copy of a temporary into an argument, at the end, writes
  // the output: the contraction before it is the last.
  if (auto copy = dyn_cast<linalg::LinalgOp>(last);
      copy && isPermutingCopy(copy) && copy.hasPureBufferSemantics() &&
      argNumber(copy.getDpsInputs()[0]) < 0 &&
      argNumber(copy.getDpsInits()[0]) >= 0) {
    outCopy = copy;
    last = computing[computing.size() - 2];
  }
  for (Operation *op : computing)
    if (!copiesArgument(op)) {
      first = op;
      break;
    }
  for (Operation *op : ops) {
    LogicalResult matched = success();
    if (isa<linalg::FillOp>(op))
      matched = matchChainOp(op);
    else if (op == outCopy.getOperation())
      matched = success(); // Read with the last contraction.
    else if (copiesArgument(op) && op != last)
      matched = matchPermutingCopy(cast<linalg::LinalgOp>(op));
    else if (op == first)
      matched = matchFirstContraction(cast<linalg::LinalgOp>(op));
    else if (op == last)
      matched = isa<linalg::LinalgOp>(op)
                    ? matchLastContraction(cast<linalg::LinalgOp>(op))
                    : fail("the last op is not a contraction");
    else
      matched = matchChainOp(op);
    if (failed(matched))
      return failure();
  }
  av.numOps = int64_t(computing.size());
  if (!isFloatKind(av.qKind) || !isFloatKind(av.kKind) ||
      !isFloatKind(av.vKind) || !isFloatKind(av.oKind))
    return fail("Q, K, V and the output must be floats");
  if (av.qArg == av.outArg || av.kArg == av.outArg || av.vArg == av.outArg ||
      av.maskArg == av.outArg)
    return fail("the output is also read");
  view.attention = av;
  view.opName = "attention";
  view.opClass = OpClass::Contraction;
  return success();
}

LogicalResult
mlir::stark::detail::analyzeAttentionProblem(Operation *func, ProblemView &view,
                                             std::string &whyNot) {
  auto f = dyn_cast<func::FuncOp>(func);
  if (!f || f.getBody().empty())
    return failure();
  return AttentionMatcher(f, view, whyNot).run();
}
