//===- FusionGroup.cpp - Producer/consumer chains grown into groups -------===//
//
// Which ops become one problem: the connected chain of element-wise and
// reduction ops around a hot op, cut where a value escapes, with the
// contraction it is the epilogue of and the chains computing that
// contraction's operands. FusionGroupProblem.cpp outlines a group.
//
//===----------------------------------------------------------------------===//

#include "stark/Problem/FusionGroup.h"
#include "stark/Analysis/InitFill.h"
#include "stark/Analysis/ProblemView.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace mlir;
using namespace mlir::stark;

bool mlir::stark::isFusableOp(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || isa<linalg::FillOp>(op) || op->getNumResults() == 0 ||
      !linalgOp.hasPureTensorSemantics())
    return false;
  for (Type t : op->getOperandTypes())
    if (auto shaped = dyn_cast<ShapedType>(t);
        shaped && !shaped.hasStaticShape())
      return false;
  if (!llvm::all_of(linalgOp.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isProjectedPermutation(); }))
    return false;
  // Contractions and convolutions are problems of their own: their
  // templates would not apply to a group.
  return !linalg::isaContractionOpInterface(linalgOp) &&
         !linalg::isaConvolutionOpInterface(linalgOp);
}

static std::string describe(Operation *op) {
  return llvm::formatv("'{0}'", op->getName()).str();
}

bool mlir::stark::isSeveralOutputReduction(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !isFusableOp(op) || linalgOp.getNumDpsInits() < 2 ||
      linalgOp.getNumReductionLoops() == 0)
    return false;
  return llvm::all_of(linalgOp.getDpsInitsMutable(), [&](OpOperand &init) {
    return readsInit(op, init) && getConstantFill(init.get());
  });
}

bool mlir::stark::isFusedGroupProblem(ProblemAttr problem) {
  return problem && problem.getOp().starts_with("fused(");
}

/// The ops of `start`'s block that `include` accepts and that are connected
/// to `start` through tensor values (start first, then in discovery order).
/// Stops, returning failure, once more than `limit` are found.
static LogicalResult walkConnected(Operation *start,
                                   function_ref<bool(Operation *)> include,
                                   size_t limit,
                                   SmallVectorImpl<Operation *> &ops) {
  Block *block = start->getBlock();
  llvm::SetVector<Operation *> members;
  SmallVector<Operation *> worklist = {start};
  members.insert(start);
  auto consider = [&](Operation *op) {
    if (op && op->getBlock() == block && include(op) && members.insert(op))
      worklist.push_back(op);
  };
  LogicalResult result = success();
  while (!worklist.empty() && succeeded(result)) {
    Operation *op = worklist.pop_back_val();
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        consider(operand.getDefiningOp());
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        consider(block->findAncestorOpInBlock(*user));
    if (members.size() > limit)
      result = failure();
  }
  ops.assign(members.begin(), members.end());
  return result;
}

/// Whether `available` (null: every op) accepts `op`.
static bool accepts(OpFilter available, Operation *op) {
  return !available || available(op);
}

/// The element-wise ops connected to `start` through tensor values (the
/// chain), in discovery order, through `available` ops only where it is
/// given. Fails when there are more than kMaxFusedOps.
static LogicalResult collectChain(Operation *start,
                                  SmallVectorImpl<Operation *> &ops,
                                  std::string &whyNot, OpFilter available) {
  auto include = [&](Operation *op) {
    return isFusableOp(op) && accepts(available, op);
  };
  if (succeeded(walkConnected(start, include, kMaxFusedOps, ops)))
    return success();
  whyNot = llvm::formatv("the chain has more than {0} ops", kMaxFusedOps);
  return failure();
}

/// Sorts `ops` into `group` and finds its inputs and outputs; fails when
/// the ops cannot be one problem (see growFusionGroup). When the reason is a
/// member's result used both inside and outside the chain, or outside it
/// before its last op, `escaping` is that member.
static LogicalResult finishGroup(ArrayRef<Operation *> ops, FusionGroup &group,
                                 std::string &whyNot,
                                 Operation **escaping = nullptr) {
  group = FusionGroup();
  group.ops.assign(ops.begin(), ops.end());
  llvm::sort(group.ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  Block *block = group.ops.front()->getBlock();
  llvm::SmallPtrSet<Operation *, 16> isMember(group.ops.begin(),
                                              group.ops.end());
  auto inGroup = [&](Operation *user) {
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    return ancestor && isMember.contains(ancestor);
  };

  // Results: used inside the group (intermediates) or outside it (outputs),
  // never both.
  Operation *last = group.ops.back();
  for (Operation *op : group.ops) {
    for (OpResult result : op->getResults()) {
      bool inside = false, outside = false;
      for (Operation *user : result.getUsers())
        (inGroup(user) ? inside : outside) = true;
      if (inside && outside) {
        whyNot = llvm::formatv("result #{0} of {1} is used both inside and "
                               "outside the chain",
                               result.getResultNumber(), describe(op));
        if (escaping)
          *escaping = op;
        return failure();
      }
      if (!outside)
        continue;
      for (Operation *user : result.getUsers()) {
        Operation *ancestor = block->findAncestorOpInBlock(*user);
        if (!ancestor || !last->isBeforeInBlock(ancestor)) {
          whyNot = llvm::formatv("result #{0} of {1} is used before the "
                                 "chain ends",
                                 result.getResultNumber(), describe(op));
          if (escaping)
            *escaping = op;
          return failure();
        }
      }
      group.outputs.push_back(result);
    }
  }
  if (group.outputs.empty()) {
    whyNot = "no result of the chain is used";
    return failure();
  }

  // Inputs, and what the problem must be able to rebuild: constants, and
  // the fills of constants that members accumulate into.
  llvm::SetVector<Value> inputs;
  for (Operation *op : group.ops) {
    auto dps = cast<DestinationStyleOpInterface>(op);
    for (OpOperand *in : dps.getDpsInputOperands()) {
      Value v = in->get();
      if (!isa<ShapedType>(v.getType())) {
        if (!matchPattern(v, m_Constant())) {
          whyNot = llvm::formatv("{0} reads a scalar that is not a constant",
                                 describe(op));
          return failure();
        }
        continue;
      }
      Operation *def = v.getDefiningOp();
      if (!def || !isMember.contains(def))
        inputs.insert(v);
    }
    for (OpOperand &init : dps.getDpsInitsMutable()) {
      if (!readsInit(op, init))
        continue;
      if (!getConstantFill(init.get())) {
        whyNot = llvm::formatv("{0} accumulates into a value that is not a "
                               "fill of a constant",
                               describe(op));
        return failure();
      }
    }
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value v : captured)
      if (!matchPattern(v, m_Constant())) {
        whyNot = llvm::formatv("{0} captures a value that is not a constant",
                               describe(op));
        return failure();
      }
  }
  group.inputs = inputs.takeVector();

  // No op outside the group may sit between two of its ops in the data
  // flow: the call would need its result before it could run.
  llvm::SmallPtrSet<Operation *, 32> visited;
  SmallVector<Operation *> stack;
  for (Value v : group.inputs)
    if (Operation *def = v.getDefiningOp(); def && def->getBlock() == block)
      stack.push_back(def);
  while (!stack.empty()) {
    Operation *op = stack.pop_back_val();
    if (!visited.insert(op).second)
      continue;
    SetVector<Value> used(op->getOperands().begin(), op->getOperands().end());
    getUsedValuesDefinedAbove(op->getRegions(), used);
    for (Value v : used) {
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != block)
        continue;
      if (isMember.contains(def)) {
        whyNot = llvm::formatv("{0} outside the chain both uses a result of "
                               "the chain and feeds it",
                               describe(op));
        return failure();
      }
      stack.push_back(def);
    }
  }
  return success();
}

/// `v` without the float extensions and truncations around it.
static Value stripFloatCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// A convolution that is an implicit GEMM: out += in * filter (a multiply
/// of its two inputs added to its output), with no channel loop shared by
/// input, filter and output. Pooling (a max or a sum of one input) and
/// depthwise convolutions (n = 1 per channel, where a GEMM tile is mostly
/// waste) stay problems of their own.
static bool isImplicitGemmConvolution(linalg::LinalgOp op) {
  if (!linalg::isaConvolutionOpInterface(op))
    return false;
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims) || !dims->depth.empty() || dims->outputChannel.empty())
    return false;
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  BlockArgument out = body->getArgument(2);
  Value other = add.getLhs() == out   ? add.getRhs()
                : add.getRhs() == out ? add.getLhs()
                                      : Value();
  auto mul = other ? other.getDefiningOp<arith::MulFOp>() : arith::MulFOp();
  if (!mul)
    return false;
  Value x = stripFloatCasts(mul.getLhs()), y = stripFloatCasts(mul.getRhs());
  return (x == body->getArgument(0) && y == body->getArgument(1)) ||
         (x == body->getArgument(1) && y == body->getArgument(0));
}

bool mlir::stark::isEpilogueHead(Operation *op, bool convolutions) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || op->getNumResults() != 1 ||
      linalgOp.getNumDpsInputs() != 2 || !linalgOp.hasPureTensorSemantics())
    return false;
  for (Type t : op->getOperandTypes())
    if (auto shaped = dyn_cast<ShapedType>(t);
        !shaped || !shaped.hasStaticShape())
      return false;
  if (!getConstantFill(linalgOp.getDpsInits()[0]))
    return false;
  // A convolution reads its input through sums of loops (oh + kh): the
  // analysis takes that access as a linear function of the loops.
  if (isImplicitGemmConvolution(linalgOp))
    return convolutions;
  if (!llvm::all_of(linalgOp.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isProjectedPermutation(); }))
    return false;
  return linalg::isaContractionOpInterface(linalgOp);
}

/// The contraction an element-wise `chain` (a valid group) is the epilogue
/// of: among the epilogue heads producing its inputs (and `available`,
/// where given), the one computed last, whose result has as many elements as
/// the chain's one output (the epilogue maps each GEMM output to one output
/// element). With several heads (silu(gate) * up, both matmuls), the
/// others' results are inputs the epilogue reads. Null when there is none.
static Operation *findEpilogueHead(const FusionGroup &chain, bool convolutions,
                                   OpFilter available) {
  if (chain.outputs.size() != 1)
    return nullptr;
  for (Operation *op : chain.ops)
    if (cast<linalg::LinalgOp>(op).getNumReductionLoops() != 0)
      return nullptr;
  Operation *head = nullptr;
  for (Value v : chain.inputs) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != chain.ops.front()->getBlock() ||
        !isEpilogueHead(def, convolutions) || !accepts(available, def))
      continue;
    if (!head || head->isBeforeInBlock(def))
      head = def;
  }
  if (!head)
    return nullptr;
  auto elements = [](Value v) {
    return cast<ShapedType>(v.getType()).getNumElements();
  };
  return elements(head->getResult(0)) == elements(chain.outputs[0]) ? head
                                                                    : nullptr;
}

/// finishGroup on `members`, and where a member's result is used both
/// inside and outside the chain (or outside it before the chain ends), on
/// the chains around `start` that cut it: without that member (its result
/// becomes an input), without its users in the chain (its result becomes an
/// output), or without the members after its first use outside. A residual
/// stream makes this common: a layer norm's output feeds the next matmul and
/// the next residual add, which connects both layer norms of a transformer
/// layer into one chain that cannot be one problem, while each layer norm with
/// the adds before it can. Keeps the largest valid chain of two or more ops
/// (the first found among equals); `members` becomes it. Fails with the
/// reason for the whole chain when no cut helps.
static LogicalResult finishGroupCutting(Operation *start,
                                        SmallVector<Operation *> &members,
                                        FusionGroup &chain,
                                        std::string &whyNot) {
  Operation *escaping = nullptr;
  LogicalResult whole = finishGroup(members, chain, whyNot, &escaping);
  if (succeeded(whole) || !escaping)
    return whole;
  Block *block = start->getBlock();
  std::set<SmallVector<Operation *>> seen;
  SmallVector<std::pair<SmallVector<Operation *>, Operation *>> worklist = {
      {members, escaping}};
  SmallVector<Operation *> best;
  FusionGroup bestChain;
  // Each cut removes at least one op of at most kMaxFusedOps: the search is
  // small, and bounded anyway.
  for (int tries = 0; !worklist.empty() && tries < 64;) {
    auto [current, culprit] = worklist.pop_back_val();
    llvm::SmallPtrSet<Operation *, 16> inChain(current.begin(), current.end());
    SmallVector<llvm::SmallPtrSet<Operation *, 16>> cuts;
    if (culprit != start) {
      cuts.emplace_back(inChain);
      cuts.back().erase(culprit);
    }
    llvm::SmallPtrSet<Operation *, 16> withoutUsers(inChain);
    bool startIsUser = false;
    for (Value result : culprit->getResults())
      for (Operation *user : result.getUsers())
        if (Operation *a = block->findAncestorOpInBlock(*user);
            a && a != culprit && inChain.contains(a)) {
          withoutUsers.erase(a);
          startIsUser |= a == start;
        }
    if (!startIsUser)
      cuts.push_back(std::move(withoutUsers));
    // A result used outside the chain before its end (a norm's output that
    // the next matmul reads, before the residual add the chain goes on
    // to): the chain stops at that use.
    Operation *firstOutside = nullptr;
    for (Value result : culprit->getResults())
      for (Operation *user : result.getUsers())
        if (Operation *a = block->findAncestorOpInBlock(*user);
            a && !inChain.contains(a) &&
            (!firstOutside || a->isBeforeInBlock(firstOutside)))
          firstOutside = a;
    if (firstOutside && !firstOutside->isBeforeInBlock(start)) {
      llvm::SmallPtrSet<Operation *, 16> beforeUse;
      for (Operation *op : current)
        if (op->isBeforeInBlock(firstOutside))
          beforeUse.insert(op);
      if (beforeUse.size() < inChain.size())
        cuts.push_back(std::move(beforeUse));
    }
    for (const llvm::SmallPtrSetImpl<Operation *> &allowed : cuts) {
      SmallVector<Operation *> next;
      (void)walkConnected(
          start, [&](Operation *op) { return allowed.contains(op); },
          allowed.size(), next);
      if (next.size() < 2 || next.size() <= best.size())
        continue;
      SmallVector<Operation *> key(next);
      llvm::sort(key);
      if (!seen.insert(key).second)
        continue;
      ++tries;
      FusionGroup candidate;
      std::string why;
      Operation *nextCulprit = nullptr;
      if (succeeded(finishGroup(next, candidate, why, &nextCulprit))) {
        best = next;
        bestChain = std::move(candidate);
      } else if (nextCulprit) {
        worklist.push_back({std::move(next), nextCulprit});
      }
    }
  }
  if (best.empty())
    return failure();
  members = std::move(best);
  chain = std::move(bestChain);
  return success();
}

/// Whether `op` is an element-wise op that may compute a GEMM operand.
static bool isElementwiseFusable(Operation *op) {
  return op && isFusableOp(op) &&
         cast<linalg::LinalgOp>(op).getNumReductionLoops() == 0;
}

/// The longest straight line of element-wise consumers from `first` (each
/// op's result used by the next alone, every op `available`) that is one
/// problem: `members` and `chain` become it.
static LogicalResult findStraightEpilogue(Operation *first, OpFilter available,
                                          SmallVector<Operation *> &members,
                                          FusionGroup &chain) {
  SmallVector<Operation *> line = {first};
  while (line.size() < kMaxFusedOps && line.back()->getNumResults() == 1 &&
         line.back()->getResult(0).hasOneUse()) {
    Operation *user = *line.back()->getResult(0).getUsers().begin();
    user = first->getBlock()->findAncestorOpInBlock(*user);
    if (!isElementwiseFusable(user) || !accepts(available, user))
      break;
    line.push_back(user);
  }
  for (; !line.empty(); line.pop_back()) {
    std::string ignored;
    if (succeeded(finishGroup(line, chain, ignored))) {
      members = line;
      return success();
    }
  }
  return failure();
}

/// growFusionGroup without operand prologues.
static LogicalResult growEpilogueGroup(Operation *start, FusionGroup &group,
                                       std::string &whyNot, bool epilogues,
                                       bool convEpilogues, OpFilter available) {
  group = FusionGroup();
  // A contraction grows its group from its first element-wise consumer: it
  // joins that chain when it is the chain's head.
  bool fromHead = epilogues && isEpilogueHead(start, convEpilogues);
  Operation *chainStart = fromHead ? nullptr : start;
  if (fromHead) {
    Block *block = start->getBlock();
    for (Operation *user : start->getResult(0).getUsers())
      if (Operation *ancestor = block->findAncestorOpInBlock(*user);
          ancestor && isFusableOp(ancestor) && accepts(available, ancestor)) {
        chainStart = ancestor;
        break;
      }
  }
  if (!chainStart || !isFusableOp(chainStart)) {
    group.ops.push_back(start);
    return success();
  }
  SmallVector<Operation *> members;
  FusionGroup chain;
  std::string why;
  LogicalResult valid = failure();
  if (failed(collectChain(chainStart, members, whyNot, available))) {
    if (!fromHead) {
      group.ops.assign(members.begin(), members.end());
      return failure();
    }
    whyNot.clear();
  } else {
    valid = finishGroupCutting(chainStart, members, chain, why);
  }
  // The chain `ops` (a valid group `opsGroup`) with the contraction it is
  // the epilogue of, where that is still one problem.
  auto joinHead = [&](SmallVector<Operation *> ops,
                      const FusionGroup &opsGroup) {
    Operation *head = findEpilogueHead(opsGroup, convEpilogues, available);
    if (!head || (fromHead && head != start) || ops.size() >= kMaxFusedOps)
      return false;
    ops.push_back(head);
    FusionGroup joined;
    std::string ignored;
    if (failed(finishGroup(ops, joined, ignored)))
      return false;
    group = std::move(joined);
    return true;
  };
  if (succeeded(valid) && epilogues && joinHead(members, chain))
    return success();
  if (fromHead) {
    // Where the consumers connect to more than one problem's worth of ops
    // (a transformer's residual stream links every layer) or to no chain
    // that is one problem, the straight line of consumers may still be the
    // epilogue: bias, then the residual add whose sum the next norm, matmul
    // and add all read. (A valid chain with a reduction keeps its ops: the
    // reduction is a kernel of its own, and takes them.)
    SmallVector<Operation *> line;
    FusionGroup lineGroup;
    if (failed(valid) &&
        succeeded(
            findStraightEpilogue(chainStart, available, line, lineGroup)) &&
        joinHead(line, lineGroup))
      return success();
    group.ops.assign({start});
    return success();
  }
  // An op alone is a group (with inputs and outputs) only when it reduces
  // into several fills; otherwise it is not fused with anything.
  if (!fromHead && members.size() == 1 && succeeded(valid) &&
      isSeveralOutputReduction(start)) {
    group = std::move(chain);
    return success();
  }
  if (members.size() == 1) {
    group.ops.assign({start});
    return success();
  }
  if (failed(valid)) {
    group.ops = std::move(chain.ops);
    whyNot = why;
    return failure();
  }
  group = std::move(chain);
  return success();
}

/// The element-wise chain of `start` as a valid group, when it is a
/// prologue: element-wise ops only, one output, and no input that a
/// contraction or convolution produces (such a chain is its epilogue).
static FailureOr<FusionGroup> getPrologueChain(Operation *start) {
  SmallVector<Operation *> members;
  FusionGroup chain;
  std::string ignored;
  if (!isElementwiseFusable(start) ||
      failed(walkConnected(start, isFusableOp, kMaxFusedOps, members)) ||
      !llvm::all_of(members, isElementwiseFusable) ||
      failed(finishGroup(members, chain, ignored)) || chain.outputs.size() != 1)
    return failure();
  for (Value v : chain.inputs)
    if (Operation *def = v.getDefiningOp(); def && isEpilogueHead(def))
      return failure();
  return chain;
}

/// Whether `op` may take prologues: a contraction (not a convolution, whose
/// input is read through a window) that is an epilogue head.
static bool takesPrologues(Operation *op) {
  return isEpilogueHead(op, /*convolutions=*/false) &&
         linalg::isaContractionOpInterface(cast<linalg::LinalgOp>(op));
}

/// Whether `chain` (a getPrologueChain) computes `operand` of `head` for
/// `head` alone.
static bool computesOperandAlone(const FusionGroup &chain, Operation *head,
                                 Value operand) {
  return chain.outputs[0] == operand &&
         llvm::all_of(operand.getUsers(),
                      [&](Operation *user) { return user == head; });
}

/// The ops of the prologue of `head`'s input `operand`: the element-wise
/// chain that computes it (getPrologueChain), when its output is used by
/// `head` alone. Empty otherwise.
static SmallVector<Operation *> getOperandPrologue(Operation *head,
                                                   Value operand) {
  Operation *def = operand.getDefiningOp();
  if (!def || def->getBlock() != head->getBlock())
    return {};
  FailureOr<FusionGroup> chain = getPrologueChain(def);
  if (failed(chain) || !computesOperandAlone(*chain, head, operand))
    return {};
  return chain->ops;
}

/// The contraction whose operand prologue `start` belongs to; null when
/// there is none.
static Operation *getPrologueConsumer(Operation *start) {
  FailureOr<FusionGroup> chain = getPrologueChain(start);
  if (failed(chain))
    return nullptr;
  Value out = chain->outputs[0];
  Operation *head = *out.getUsers().begin();
  if (head->getBlock() != start->getBlock() || !takesPrologues(head) ||
      !computesOperandAlone(*chain, head, out))
    return nullptr;
  return head;
}

LogicalResult mlir::stark::finishFusionGroup(ArrayRef<Operation *> ops,
                                             FusionGroup &group,
                                             std::string &whyNot) {
  return finishGroup(ops, group, whyNot);
}

LogicalResult mlir::stark::growFusionGroup(Operation *start, FusionGroup &group,
                                           std::string &whyNot, bool epilogues,
                                           bool convEpilogues, bool prologues,
                                           bool attention, OpFilter available) {
  if (attention)
    if (FailureOr<FusionGroup> chain = growAttentionGroup(start);
        succeeded(chain)) {
      group = std::move(*chain);
      return success();
    }
  prologues &= epilogues;
  // An op of a contraction's operand prologue grows the group from that
  // contraction, so that every member grows the same group.
  if (prologues)
    if (Operation *head = getPrologueConsumer(start)) {
      FusionGroup headGroup;
      std::string why;
      if (succeeded(growFusionGroup(head, headGroup, why, epilogues,
                                    convEpilogues, prologues,
                                    /*attention=*/false, available)) &&
          llvm::is_contained(headGroup.ops, start)) {
        group = std::move(headGroup);
        return success();
      }
    }
  if (failed(growEpilogueGroup(start, group, whyNot, epilogues, convEpilogues,
                               available)))
    return failure();
  if (!prologues)
    return success();
  Operation *head = nullptr;
  for (Operation *op : group.ops)
    if (!isFusableOp(op) && takesPrologues(op))
      head = op;
  if (!head)
    return success();
  // Each operand's prologue joins where the result is still one problem.
  SmallVector<Operation *> members(group.ops);
  for (Value operand : cast<linalg::LinalgOp>(head).getDpsInputs()) {
    SmallVector<Operation *> prologue = getOperandPrologue(head, operand);
    if (prologue.empty() || members.size() + prologue.size() > kMaxFusedOps ||
        llvm::any_of(prologue, [&](Operation *op) {
          return llvm::is_contained(members, op);
        }))
      continue;
    SmallVector<Operation *> next(members);
    next.append(prologue.begin(), prologue.end());
    FusionGroup joined;
    std::string ignored;
    if (succeeded(finishGroup(next, joined, ignored))) {
      members = std::move(next);
      group = std::move(joined);
    }
  }
  return success();
}
