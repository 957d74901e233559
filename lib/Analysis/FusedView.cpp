//===- FusedView.cpp - A fused chain of linalg ops as one computation -----===//
//
// The ops of a fused problem each have loops of their own; they meet in the
// buffers they share. Identifying every loop with the buffer dimensions it
// indexes (union-find over loops and dimensions) gives one loop space for
// the chain. When that identification is consistent (no op has two loops
// and no buffer two dimensions in one class, and the extents agree), the
// value a temporary holds at a point of the space is the expression its
// producer computed there, so the chain becomes one scalar program over the
// entry's inputs, with a "reduce" node per reduction.
//
//===----------------------------------------------------------------------===//

#include "FusedView.h"

#include "stark/Analysis/InitFill.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>

using namespace mlir;
using namespace mlir::stark;
using mlir::stark::detail::isArgNode;

SmallVector<bool> FusedView::perPoint(const ProblemView &view) const {
  SmallVector<bool> point(program.nodes.size(), false);
  for (auto [i, node] : llvm::enumerate(program.nodes)) {
    if (node.op == "arg") {
      const LinearAccess &access = view.inputs[node.position].access;
      point[i] = llvm::any_of(columnLoops,
                              [&](unsigned d) { return access.dependsOn(d); });
    } else if (node.op == "index") {
      point[i] = llvm::is_contained(columnLoops, unsigned(node.position));
    } else if (node.op != "reduce") {
      point[i] =
          llvm::any_of(node.operands, [&](int o) { return bool(point[o]); });
    }
  }
  return point;
}

namespace {

struct UnionFind {
  SmallVector<int> parent;
  SmallVector<int64_t> range;
  int make(int64_t extent) {
    parent.push_back(int(parent.size()));
    range.push_back(extent);
    return parent.back();
  }
  int find(int x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  /// False when the extents differ.
  bool unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a == b)
      return true;
    if (range[a] != range[b])
      return false;
    parent[b] = a;
    return true;
  }
};

/// The combining op of `combiner` on values of `kind`, for the initial value
/// of a reduction's buffer.
std::string getCombinerOp(StringRef combiner, ElementKind kind) {
  bool fp = isFloatKind(kind);
  if (combiner == "add")
    return fp ? "arith.addf" : "arith.addi";
  if (combiner == "mul")
    return fp ? "arith.mulf" : "arith.muli";
  if (combiner == "max")
    return fp ? "arith.maximumf" : "arith.maxsi";
  if (combiner == "min")
    return fp ? "arith.minimumf" : "arith.minsi";
  if (combiner == "maxnum")
    return "arith.maxnumf";
  if (combiner == "minnum")
    return "arith.minnumf";
  return ("arith." + combiner + "i").str();
}

/// Whether `operand` is read through a map that is no projected
/// permutation: a convolution's input (oh + kh). Such a buffer meets no
/// loop of the chain dimension by dimension; its access is a linear function
/// of the convolution's loops instead (the problem's head, see
/// EpilogueView.cpp).
bool isWindowRead(linalg::LinalgOp op, OpOperand &operand) {
  return linalg::isaConvolutionOpInterface(op) && !op.isDpsInit(&operand) &&
         !op.getMatchingIndexingMap(&operand).isProjectedPermutation();
}

/// How a payload with two outputs finds the first extreme of a row (an
/// argmax): value = select(c, x, value), index = select(c, i, index) with
/// c = x > value (or value < x; `<` for an argmin) on ordered floats or
/// signed integers and i the reduced loop's position.
struct ArgPattern {
  unsigned valueOut = 0, indexOut = 1;
  int value = -1, index = -1;
  std::string combiner;
};

/// Matches ArgPattern in `p` (a payload whose output arguments start at
/// `firstOut`) with `loop` the one reduced loop; says why not in `whyNot`.
std::optional<ArgPattern> matchArgPattern(const ScalarProgram &p,
                                          int64_t firstOut, unsigned loop,
                                          std::string &whyNot) {
  whyNot = "its two outputs are not the value and position of a row's first "
           "greatest (or least) element";
  for (unsigned v = 0; v < 2; ++v) {
    ArgPattern m;
    m.valueOut = v;
    m.indexOut = 1 - v;
    const ScalarNode &sv = p.nodes[p.yields[m.valueOut]];
    const ScalarNode &si = p.nodes[p.yields[m.indexOut]];
    if (sv.op != "arith.select" || si.op != "arith.select" ||
        sv.operands[0] != si.operands[0] ||
        !isArgNode(p, sv.operands[2], firstOut + m.valueOut) ||
        !isArgNode(p, si.operands[2], firstOut + m.indexOut))
      continue;
    m.value = sv.operands[1];
    m.index = si.operands[1];
    const ScalarNode &cmp = p.nodes[sv.operands[0]];
    if (cmp.op != "arith.cmpf" && cmp.op != "arith.cmpi")
      continue;
    bool floats = cmp.op == "arith.cmpf";
    StringRef greater = floats ? "ogt" : "sgt", less = floats ? "olt" : "slt";
    bool xFirst = cmp.operands[0] == m.value &&
                  isArgNode(p, cmp.operands[1], firstOut + m.valueOut);
    bool xSecond = cmp.operands[1] == m.value &&
                   isArgNode(p, cmp.operands[0], firstOut + m.valueOut);
    if (!xFirst && !xSecond)
      continue;
    // x > value or value < x: a new maximum; the strict order keeps the
    // first of equal elements.
    if (cmp.predicate == (xFirst ? greater : less))
      m.combiner = "argmax";
    else if (cmp.predicate == (xFirst ? less : greater))
      m.combiner = "argmin";
    else {
      whyNot = llvm::formatv("the comparison '{0} {1}' is not a strict order "
                             "of ordered floats or signed integers (it would "
                             "not keep the first extreme)",
                             cmp.op, cmp.predicate);
      return std::nullopt;
    }
    const ScalarNode &index = p.nodes[m.index];
    const ScalarNode *position = &index;
    if (index.op == "arith.index_cast")
      position = &p.nodes[index.operands[0]];
    if (position->op != "index" || position->position != int64_t(loop)) {
      whyNot = "the position it keeps is not the reduced loop's index";
      return std::nullopt;
    }
    return m;
  }
  return std::nullopt;
}

class FusedAnalysis {
public:
  FusedAnalysis(ProblemView &view, std::string &whyNot)
      : view(view), whyNot(whyNot) {}

  LogicalResult run(func::FuncOp func);

private:
  LogicalResult fail(const Twine &why) {
    whyNot = ("fused chain: " + why).str();
    return failure();
  }
  ArrayRef<int> dimsOf(Value buffer);
  int push(ScalarNode node) {
    fused.program.nodes.push_back(std::move(node));
    return int(fused.program.nodes.size()) - 1;
  }
  FailureOr<int> inputNode(Value buffer);
  FailureOr<int> windowInputNode(linalg::LinalgOp op, OpOperand &operand,
                                 ArrayRef<int> loops);
  LogicalResult addOp(linalg::LinalgOp op, ArrayRef<int> loops);
  SmallVector<unsigned> outputDims(OpOperand &init);
  LogicalResult addArgReduction(linalg::LinalgOp op, const ScalarProgram &local,
                                ArrayRef<int> loops, ArrayRef<unsigned> reduced,
                                ArrayRef<unsigned> parallel);
  /// A node of `local` (the payload of `op`) in the chain's program.
  FailureOr<int> mapNode(linalg::LinalgOp op, const ScalarProgram &local,
                         ArrayRef<int> loops, SmallVectorImpl<int> &mapped,
                         int i);
  /// Rejects an op the chain cannot fuse, with the reason.
  LogicalResult checkChainOp(Operation &op);
  /// The ops, in order: linalg ops on buffers and fills of constants; the
  /// temporaries' allocations and deallocations carry no computation.
  LogicalResult collectOps(SmallVectorImpl<Operation *> &ops);
  /// Whether \p members lie in different loop classes.
  bool areDistinct(ArrayRef<int> members);
  /// One class per loop of the chain: loops meet through the buffers.
  LogicalResult linkLoops(ArrayRef<Operation *> ops,
                          SmallVectorImpl<SmallVector<int>> &opLoops);
  /// The fused loops: the classes of the last op first, in its loop order,
  /// split into row and column loops.
  LogicalResult orderLoops(ArrayRef<Operation *> ops,
                           ArrayRef<SmallVector<int>> opLoops);
  /// A fill starts its buffer at a constant node.
  LogicalResult addFill(linalg::FillOp fill);
  /// The chain as one program, with the names of its computations.
  LogicalResult addOps(ArrayRef<Operation *> ops,
                       ArrayRef<SmallVector<int>> opLoops,
                       std::string &opNames);
  /// Output \p k: the entry's argument after the inputs, the value of one
  /// computation over the rows (a reduction's result) or the whole space.
  LogicalResult addOutput(unsigned k);
  /// Moves the program into the view and classifies the chain.
  void finishView(StringRef opNames);

  ProblemView &view;
  std::string &whyNot;
  FusedView fused;
  Block *entry = nullptr;
  unsigned numInputs = 0;
  UnionFind classes;
  DenseMap<Value, SmallVector<int>> bufferDims;
  /// Global loop of each class that holds a loop.
  DenseMap<int, unsigned> globalOf;
  /// What each buffer holds at the current point, as a node.
  DenseMap<Value, int> contents;
  DenseMap<Value, int> inputNodes;
  /// Inputs a convolution reads through sums of loops (see isWindowRead).
  DenseMap<OpOperand *, int> windowNodes;
  SmallVector<bool> columnLoop;
};

} // namespace

ArrayRef<int> FusedAnalysis::dimsOf(Value buffer) {
  auto it = bufferDims.find(buffer);
  if (it != bufferDims.end())
    return it->second;
  SmallVector<int> dims;
  for (int64_t extent : cast<MemRefType>(buffer.getType()).getShape())
    dims.push_back(classes.make(extent));
  return bufferDims[buffer] = dims;
}

FailureOr<int> FusedAnalysis::inputNode(Value buffer) {
  auto it = contents.find(buffer);
  if (it != contents.end())
    return it->second;
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (!arg || arg.getOwner() != entry || arg.getArgNumber() >= numInputs)
    return failure();
  auto known = inputNodes.find(buffer);
  if (known != inputNodes.end())
    return known->second;
  OperandView in;
  in.argNumber = arg.getArgNumber();
  in.kind = view.argKinds[in.argNumber];
  in.shape = view.argShapes[in.argNumber];
  in.access.coefficients.assign(view.loopRanges.size(), 0);
  int64_t stride = 1;
  ArrayRef<int> dims = dimsOf(buffer);
  for (int64_t r = int64_t(dims.size()) - 1; r >= 0; --r) {
    in.access.coefficients[globalOf.lookup(classes.find(dims[r]))] += stride;
    stride *= in.shape[r];
  }
  ScalarNode node;
  node.op = "arg";
  node.kind = in.kind;
  node.position = int64_t(view.inputs.size());
  view.inputs.push_back(std::move(in));
  return inputNodes[buffer] = push(node);
}

FailureOr<int> FusedAnalysis::windowInputNode(linalg::LinalgOp op,
                                              OpOperand &operand,
                                              ArrayRef<int> loops) {
  auto known = windowNodes.find(&operand);
  if (known != windowNodes.end())
    return known->second;
  auto arg = dyn_cast<BlockArgument>(operand.get());
  if (!arg || arg.getOwner() != entry || arg.getArgNumber() >= numInputs)
    return fail(llvm::formatv("'{0}' reads a temporary through a map that is "
                              "not a projected permutation",
                              op->getName()));
  OperandView in;
  in.argNumber = arg.getArgNumber();
  in.kind = view.argKinds[in.argNumber];
  in.shape = view.argShapes[in.argNumber];
  FailureOr<LinearAccess> local = mlir::stark::detail::getLinearAccess(
      op.getMatchingIndexingMap(&operand), in.shape);
  if (failed(local))
    return fail(llvm::formatv("an indexing map of '{0}' is not linear in its "
                              "loops",
                              op->getName()));
  in.access.offset = local->offset;
  in.access.coefficients.assign(view.loopRanges.size(), 0);
  for (auto [d, c] : llvm::enumerate(local->coefficients))
    in.access.coefficients[globalOf.lookup(classes.find(loops[d]))] += c;
  ScalarNode node;
  node.op = "arg";
  node.kind = in.kind;
  node.position = int64_t(view.inputs.size());
  view.inputs.push_back(std::move(in));
  return windowNodes[&operand] = push(node);
}

FailureOr<int> FusedAnalysis::mapNode(linalg::LinalgOp op,
                                      const ScalarProgram &local,
                                      ArrayRef<int> loops,
                                      SmallVectorImpl<int> &mapped, int i) {
  if (mapped[i] >= 0)
    return mapped[i];
  const ScalarNode &n = local.nodes[i];
  if (n.op == "arg") {
    OpOperand &operand = op->getOpOperand(n.position);
    if (isWindowRead(op, operand)) {
      FailureOr<int> node = windowInputNode(op, operand, loops);
      if (failed(node))
        return failure();
      return mapped[i] = *node;
    }
    FailureOr<int> node = inputNode(operand.get());
    if (failed(node))
      return fail(llvm::formatv(
          "'{0}' reads {1} before anything writes it", op->getName(),
          n.position < int64_t(op.getNumDpsInputs()) ? "an input"
                                                     : "its output"));
    return mapped[i] = *node;
  }
  ScalarNode g = n;
  if (n.op == "index")
    g.position = globalOf.lookup(classes.find(loops[n.position]));
  for (int &o : g.operands) {
    FailureOr<int> m = mapNode(op, local, loops, mapped, o);
    if (failed(m))
      return failure();
    o = *m;
  }
  return mapped[i] = push(std::move(g));
}

SmallVector<unsigned> FusedAnalysis::outputDims(OpOperand &init) {
  SmallVector<unsigned> dims;
  for (int c : dimsOf(init.get()))
    dims.push_back(globalOf.lookup(classes.find(c)));
  return dims;
}

static bool sameSet(ArrayRef<unsigned> a, ArrayRef<unsigned> b) {
  return a.size() == b.size() &&
         llvm::all_of(a, [&](unsigned x) { return llvm::is_contained(b, x); });
}

LogicalResult FusedAnalysis::addOp(linalg::LinalgOp op, ArrayRef<int> loops) {
  std::string why;
  FailureOr<ScalarProgram> local = extractScalarProgram(op, why);
  if (failed(local))
    return fail(why);
  auto globalLoop = [&](int64_t d) {
    return globalOf.lookup(classes.find(loops[d]));
  };
  SmallVector<unsigned> reduced, parallel;
  for (auto [d, it] : llvm::enumerate(op.getIteratorTypesArray()))
    (it == utils::IteratorType::reduction ? reduced : parallel)
        .push_back(globalLoop(d));
  unsigned numOpInputs = op.getNumDpsInputs();

  // Local nodes become global ones on demand (a reduction's output argument
  // is never read as a value).
  SmallVector<int> mapped(local->nodes.size(), -1);
  auto map = [&](int i) { return mapNode(op, *local, loops, mapped, i); };

  if (reduced.empty()) {
    bool touchesColumns =
        llvm::any_of(parallel, [&](unsigned d) { return bool(columnLoop[d]); });
    if (touchesColumns && !llvm::all_of(fused.columnLoops, [&](unsigned d) {
          return llvm::is_contained(parallel, d);
        }))
      return fail(
          llvm::formatv("'{0}' covers only some reduced loops", op->getName()));
    SmallVector<int> results;
    for (auto [k, init] : llvm::enumerate(op.getDpsInitsMutable())) {
      if (!sameSet(outputDims(init), parallel))
        return fail(llvm::formatv("an output of '{0}' does not depend on "
                                  "every loop",
                                  op->getName()));
      FailureOr<int> r = map(local->yields[k]);
      if (failed(r))
        return failure();
      results.push_back(*r);
    }
    for (auto [k, init] : llvm::enumerate(op.getDpsInitsMutable()))
      contents[init.get()] = results[k];
    return success();
  }

  if (op.getNumDpsInits() == 2)
    return addArgReduction(op, *local, loops, reduced, parallel);
  if (op.getNumDpsInits() != 1)
    return fail(
        llvm::formatv("'{0}' reduces into several outputs", op->getName()));
  if (!sameSet(reduced, fused.columnLoops))
    return fail("the reductions do not all reduce the same loops");
  OpOperand &init = op.getDpsInitsMutable()[0];
  if (!sameSet(outputDims(init), parallel))
    return fail(llvm::formatv("the output of '{0}' does not depend on every "
                              "parallel loop",
                              op->getName()));
  std::string combiner;
  int pre = mlir::stark::detail::matchReductionCombiner(
      *local, local->yields[0], int64_t(numOpInputs), combiner);
  if (pre < 0)
    return fail(llvm::formatv("the payload of '{0}' is not a recognised "
                              "combiner of its output and a value of its "
                              "inputs",
                              op->getName()));
  SmallVector<bool> live = local->reachable({pre});
  for (auto [i, n] : llvm::enumerate(local->nodes))
    if (live[i] && n.op == "arg" && n.position == int64_t(numOpInputs))
      return fail("a combined value depends on the output");
  ElementKind kind = local->nodes[local->yields[0]].kind;
  if (kind == ElementKind::I1)
    return fail("i1 reductions are not supported");
  auto start = contents.find(init.get());
  if (start == contents.end())
    return fail(llvm::formatv("'{0}' accumulates into a buffer nothing "
                              "filled",
                              op->getName()));
  FailureOr<int> preNode = map(pre);
  if (failed(preNode))
    return failure();
  FusedReduction red;
  red.preNode = *preNode;
  red.combiner = combiner;
  red.accumulatorKind = getAccumulatorKind(kind);
  ScalarNode result;
  result.op = "reduce";
  result.kind = red.accumulatorKind;
  result.position = int64_t(fused.reductions.size());
  fused.reductions.push_back(red);
  int r = push(result);
  ScalarNode combined;
  combined.op = getCombinerOp(combiner, kind);
  combined.kind = kind;
  combined.operands = {start->second, r};
  contents[init.get()] = push(combined);
  return success();
}

LogicalResult FusedAnalysis::addArgReduction(linalg::LinalgOp op,
                                             const ScalarProgram &local,
                                             ArrayRef<int> loops,
                                             ArrayRef<unsigned> reduced,
                                             ArrayRef<unsigned> parallel) {
  if (!sameSet(reduced, fused.columnLoops))
    return fail("the reductions do not all reduce the same loops");
  if (reduced.size() != 1)
    return fail(llvm::formatv("'{0}' reduces into two outputs over several "
                              "loops",
                              op->getName()));
  unsigned localLoop = 0;
  for (auto [d, it] : llvm::enumerate(op.getIteratorTypesArray()))
    if (it == utils::IteratorType::reduction)
      localLoop = d;
  std::string why;
  int64_t firstOut = op.getNumDpsInputs();
  std::optional<ArgPattern> m =
      matchArgPattern(local, firstOut, localLoop, why);
  if (!m)
    return fail(llvm::formatv("'{0}' reduces into two outputs: {1}",
                              op->getName(), why));
  SmallVector<bool> live = local.reachable({m->value});
  for (auto [i, n] : llvm::enumerate(local.nodes))
    if (live[i] && n.op == "arg" && n.position >= firstOut)
      return fail("a compared value depends on an output");
  MutableOperandRange inits = op.getDpsInitsMutable();
  OpOperand &valueInit = inits[m->valueOut], &indexInit = inits[m->indexOut];
  for (OpOperand *init : {&valueInit, &indexInit})
    if (!sameSet(outputDims(*init), parallel))
      return fail(llvm::formatv("an output of '{0}' does not depend on every "
                                "parallel loop",
                                op->getName()));
  auto startValue = contents.find(valueInit.get());
  auto startIndex = contents.find(indexInit.get());
  if (startValue == contents.end() || startIndex == contents.end())
    return fail(llvm::formatv("'{0}' accumulates into a buffer nothing "
                              "filled",
                              op->getName()));
  ElementKind kind = local.nodes[m->value].kind;
  ElementKind indexKind = local.nodes[m->index].kind;
  if (kind == ElementKind::I1)
    return fail("i1 reductions are not supported");
  SmallVector<int> mapped(local.nodes.size(), -1);
  FailureOr<int> value = mapNode(op, local, loops, mapped, m->value);
  if (failed(value))
    return failure();
  FailureOr<int> index = mapNode(op, local, loops, mapped, m->index);
  if (failed(index))
    return failure();
  FusedReduction red;
  red.preNode = *value;
  red.indexNode = *index;
  red.combiner = m->combiner;
  red.accumulatorKind = kind;
  int64_t k = int64_t(fused.reductions.size());
  fused.reductions.push_back(red);
  ScalarNode found;
  found.op = "reduce";
  found.kind = kind;
  found.position = k;
  int r = push(found);
  ScalarNode where;
  where.op = "reduce_index";
  where.kind = indexKind;
  where.position = k;
  int ri = push(where);
  // The row's extreme replaces the initial value only when strictly beyond
  // it, as the sequential payload would have it.
  ScalarNode cmp;
  bool floats = isFloatKind(kind);
  cmp.op = floats ? "arith.cmpf" : "arith.cmpi";
  cmp.kind = ElementKind::I1;
  cmp.predicate = m->combiner == "argmax" ? (floats ? "ogt" : "sgt")
                                          : (floats ? "olt" : "slt");
  cmp.operands = {r, startValue->second};
  int beyond = push(cmp);
  ScalarNode pickValue;
  pickValue.op = "arith.select";
  pickValue.kind = kind;
  pickValue.operands = {beyond, r, startValue->second};
  ScalarNode pickIndex = pickValue;
  pickIndex.kind = indexKind;
  pickIndex.operands = {beyond, ri, startIndex->second};
  int newValue = push(pickValue);
  int newIndex = push(pickIndex);
  contents[valueInit.get()] = newValue;
  contents[indexInit.get()] = newIndex;
  return success();
}

LogicalResult FusedAnalysis::checkChainOp(Operation &op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
  if (!linalgOp)
    return fail(llvm::formatv("'{0}' is not a linalg op", op.getName()));
  if (!linalgOp.hasPureBufferSemantics())
    return fail("an op does not work on memrefs");
  if (auto fill = dyn_cast<linalg::FillOp>(&op)) {
    if (!getFillValue(fill))
      return fail("a fill of a value that is not a constant");
    return success();
  }
  if (llvm::any_of(linalgOp.getStaticLoopRanges(), ShapedType::isDynamic))
    return fail("dynamic loop range");
  for (OpOperand &operand : op.getOpOperands())
    if (!linalgOp.getMatchingIndexingMap(&operand).isProjectedPermutation() &&
        !isWindowRead(linalgOp, operand))
      return fail(llvm::formatv("an indexing map of '{0}' is not a projected "
                                "permutation",
                                op.getName()));
  for (Value v : op.getOperands())
    if (auto t = dyn_cast<MemRefType>(v.getType());
        t && (!t.hasStaticShape() || !t.getLayout().isIdentity()))
      return fail("a buffer is not statically shaped with identity layout");
  return success();
}

LogicalResult FusedAnalysis::collectOps(SmallVectorImpl<Operation *> &ops) {
  for (Operation &op : entry->without_terminator()) {
    if (matchPattern(&op, m_Constant()) ||
        isa<memref::AllocOp, memref::DeallocOp>(op))
      continue;
    if (failed(checkChainOp(op)))
      return failure();
    ops.push_back(&op);
  }
  return success();
}

bool FusedAnalysis::areDistinct(ArrayRef<int> members) {
  llvm::SmallDenseSet<int> seen;
  return llvm::all_of(
      members, [&](int m) { return seen.insert(classes.find(m)).second; });
}

LogicalResult
FusedAnalysis::linkLoops(ArrayRef<Operation *> ops,
                         SmallVectorImpl<SmallVector<int>> &opLoops) {
  for (Operation *op : ops) {
    opLoops.emplace_back();
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (isa<linalg::FillOp>(op))
      continue;
    for (int64_t extent : linalgOp.getStaticLoopRanges())
      opLoops.back().push_back(classes.make(extent));
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<MemRefType>(operand.get().getType()) ||
          isWindowRead(linalgOp, operand))
        continue;
      AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
      SmallVector<int> dims(dimsOf(operand.get()));
      for (unsigned r = 0; r < map.getNumResults(); ++r)
        if (!classes.unite(opLoops.back()[map.getDimPosition(r)], dims[r]))
          return fail("loops that meet in a buffer have different extents");
    }
  }
  for (auto [op, loops] : llvm::zip(ops, opLoops))
    if (!areDistinct(loops))
      return fail(llvm::formatv("'{0}' meets itself through two different "
                                "index maps of one buffer",
                                op->getName()));
  for (auto &[buffer, dims] : bufferDims)
    if (!areDistinct(dims))
      return fail("a buffer is read through two different index maps");
  return success();
}

LogicalResult FusedAnalysis::orderLoops(ArrayRef<Operation *> ops,
                                        ArrayRef<SmallVector<int>> opLoops) {
  for (const SmallVector<int> &loops : llvm::reverse(opLoops))
    for (int loop : loops)
      if (globalOf.try_emplace(classes.find(loop), view.loopRanges.size())
              .second)
        view.loopRanges.push_back(classes.range[classes.find(loop)]);
  if (view.loopRanges.empty())
    return fail("no loops");
  columnLoop.assign(view.loopRanges.size(), false);
  for (auto [op, loops] : llvm::zip(ops, opLoops)) {
    if (isa<linalg::FillOp>(op))
      continue;
    for (auto [d, it] :
         llvm::enumerate(cast<linalg::LinalgOp>(op).getIteratorTypesArray()))
      if (it == utils::IteratorType::reduction)
        columnLoop[globalOf.lookup(classes.find(loops[d]))] = true;
  }
  for (unsigned d = 0; d < columnLoop.size(); ++d) {
    (columnLoop[d] ? fused.columnLoops : fused.rowLoops).push_back(d);
    (columnLoop[d] ? fused.length : fused.rows) *= view.loopRanges[d];
  }
  view.reductionLoops.assign(columnLoop.begin(), columnLoop.end());
  // Buffers only fills touch have no loops; outputs must have them all.
  for (auto &[buffer, dims] : bufferDims)
    for (int dim : dims)
      if (!globalOf.count(classes.find(dim)))
        return fail("a buffer is written but never read by a computation");
  return success();
}

LogicalResult FusedAnalysis::addFill(linalg::FillOp fill) {
  ScalarNode c;
  c.op = "const";
  FailureOr<ElementKind> kind = getElementKind(
      cast<MemRefType>(fill.getOutputs()[0].getType()).getElementType());
  if (failed(kind))
    return fail("a fill of an unsupported type");
  c.kind = *kind;
  double value = *getFillValue(fill);
  if (isFloatKind(c.kind))
    c.floatValue = value;
  else
    c.intValue = int64_t(value);
  contents[fill.getOutputs()[0]] = push(c);
  return success();
}

LogicalResult FusedAnalysis::addOps(ArrayRef<Operation *> ops,
                                    ArrayRef<SmallVector<int>> opLoops,
                                    std::string &opNames) {
  for (auto [op, loops] : llvm::zip(ops, opLoops)) {
    if (auto fill = dyn_cast<linalg::FillOp>(op)) {
      if (failed(addFill(fill)))
        return failure();
      continue;
    }
    if (failed(addOp(cast<linalg::LinalgOp>(op), loops)))
      return failure();
    opNames +=
        (opNames.empty() ? "" : ",") + op->getName().getStringRef().str();
    ++fused.numOps;
  }
  return success();
}

LogicalResult FusedAnalysis::addOutput(unsigned k) {
  Value buffer = entry->getArgument(numInputs + k);
  auto it = contents.find(buffer);
  if (it == contents.end())
    return fail(llvm::formatv("output #{0} is not computed", k));
  OperandView out;
  out.argNumber = numInputs + k;
  out.isOutput = true;
  out.kind = view.argKinds[out.argNumber];
  out.shape = view.argShapes[out.argNumber];
  out.access.coefficients.assign(view.loopRanges.size(), 0);
  ArrayRef<int> dims = dimsOf(buffer);
  int64_t stride = 1;
  bool columns = false;
  for (int64_t r = int64_t(dims.size()) - 1; r >= 0; --r) {
    unsigned d = globalOf.lookup(classes.find(dims[r]));
    out.access.coefficients[d] += stride;
    stride *= out.shape[r];
    columns |= columnLoop[d];
  }
  size_t expected = columns ? view.loopRanges.size() : fused.rowLoops.size();
  if (dims.size() != expected)
    return fail(llvm::formatv("output #{0} does not depend on every {1}", k,
                              columns ? "loop" : "row loop"));
  view.outputs.push_back(std::move(out));
  fused.outputNodes.push_back(it->second);
  return success();
}

void FusedAnalysis::finishView(StringRef opNames) {
  fused.program.argKinds.clear();
  for (const OperandView &in : view.inputs)
    fused.program.argKinds.push_back(in.kind);
  for (const OperandView &out : view.outputs)
    fused.program.argKinds.push_back(out.kind);
  fused.program.yields = fused.outputNodes;
  view.opName = ("fused(" + opNames + ")").str();
  if (fused.reductions.empty()) {
    view.opClass = OpClass::Elementwise;
    view.body = fused.program;
  } else {
    view.opClass = OpClass::Reduction;
    view.whyNoBody = "a fused chain with reductions is no single payload";
  }
  view.fused = std::move(fused);
}

LogicalResult FusedAnalysis::run(func::FuncOp func) {
  entry = &func.getBody().front();
  numInputs = view.argKinds.size() - view.numOutputArgs;
  SmallVector<Operation *> ops;
  if (failed(collectOps(ops)))
    return failure();
  SmallVector<SmallVector<int>> opLoops;
  if (failed(linkLoops(ops, opLoops)) || failed(orderLoops(ops, opLoops)))
    return failure();
  std::string opNames;
  if (failed(addOps(ops, opLoops, opNames)))
    return failure();
  for (unsigned k = 0; k < view.numOutputArgs; ++k)
    if (failed(addOutput(k)))
      return failure();
  finishView(opNames);
  return success();
}

LogicalResult mlir::stark::detail::analyzeFusedProblem(Operation *func,
                                                       ProblemView &view,
                                                       std::string &whyNot) {
  view.loopRanges.clear();
  view.reductionLoops.clear();
  view.inputs.clear();
  view.outputs.clear();
  return FusedAnalysis(view, whyNot).run(cast<func::FuncOp>(func));
}

void mlir::stark::detail::addSoftmaxFusedView(ProblemView &view) {
  const SoftmaxView &sv = *view.softmax;
  ArrayRef<int64_t> shape = view.argShapes[0];
  view.loopRanges.assign(shape.begin(), shape.end());
  view.reductionLoops.assign(shape.size(), false);
  view.reductionLoops[sv.dim] = true;
  auto rowMajor = [&](int64_t arg, bool output) {
    OperandView o;
    o.argNumber = arg;
    o.kind = view.argKinds[arg];
    o.shape.assign(shape.begin(), shape.end());
    o.isOutput = output;
    o.access.coefficients.assign(shape.size(), 0);
    int64_t stride = 1;
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      o.access.coefficients[d] = stride;
      stride *= shape[d];
    }
    return o;
  };
  view.inputs = {rowMajor(0, false)};
  view.outputs = {rowMajor(1, true)};

  FusedView fused;
  ElementKind kind = sv.inKind;
  ElementKind acc = getAccumulatorKind(kind);
  auto push = [&](ScalarNode node) {
    fused.program.nodes.push_back(std::move(node));
    return int(fused.program.nodes.size()) - 1;
  };
  auto op = [&](StringRef name, ElementKind k, ArrayRef<int> operands) {
    ScalarNode n;
    n.op = name.str();
    n.kind = k;
    n.operands.assign(operands.begin(), operands.end());
    return push(n);
  };
  ScalarNode x;
  x.op = "arg";
  x.kind = kind;
  x.position = 0;
  int in = push(x);
  auto reduce = [&](int pre, StringRef combiner) {
    FusedReduction r;
    r.preNode = pre;
    r.combiner = combiner.str();
    r.accumulatorKind = acc;
    ScalarNode n;
    n.op = "reduce";
    n.kind = acc;
    n.position = int64_t(fused.reductions.size());
    fused.reductions.push_back(r);
    return push(n);
  };
  int max = reduce(in, "maxnum");
  int e = op("math.exp", acc, {op("arith.subf", acc, {in, max})});
  int sum = reduce(e, "add");
  int out = op("arith.divf", acc, {e, sum});
  fused.outputNodes = {out};
  fused.program.yields = {out};
  fused.program.argKinds = {kind, sv.outKind};
  for (unsigned d = 0; d < shape.size(); ++d) {
    bool column = int64_t(d) == sv.dim;
    (column ? fused.columnLoops : fused.rowLoops).push_back(d);
    (column ? fused.length : fused.rows) *= shape[d];
  }
  fused.numOps = 1;
  view.fused = std::move(fused);
}
