//===- AttentionGroup.cpp - Attention chains outlined as one problem ------===//
//
// softmax(Q K^T * scale + mask) V, as frontends write it, is a contraction,
// element-wise ops and row reductions on its result, and a second
// contraction. Outlined as ops of their own, the scores and probabilities
// ([batch, queries, keys]) go through memory between four to six kernels;
// as one problem, a flash-style kernel never writes them. The chain is
// found from its second contraction backwards: every producer of the
// probabilities that has the scores' shape (or that of a row of them) up to
// the first contraction.
//
//===----------------------------------------------------------------------===//

#include "stark/Analysis/ProblemView.h"
#include "stark/Problem/FusionGroup.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::stark;

/// A contraction of two statically shaped tensors into a tensor of rank 2
/// or more (matmul, batch_matmul, or a generic one).
static bool isTensorContraction(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      linalgOp.getNumDpsInputs() != 2 || linalgOp.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(linalgOp))
    return false;
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return out && out.hasStaticShape() && out.getRank() >= 2;
}

/// The attention chain whose second contraction is `last`.
static FailureOr<FusionGroup> growFromLast(Operation *last) {
  if (!isTensorContraction(last))
    return failure();
  Value probs = cast<linalg::LinalgOp>(last).getDpsInputs()[0];
  auto scoresType = dyn_cast<RankedTensorType>(probs.getType());
  if (!scoresType || !scoresType.hasStaticShape())
    return failure();
  ArrayRef<int64_t> scores = scoresType.getShape();
  ArrayRef<int64_t> row = scores.drop_back();
  Block *block = last->getBlock();
  SmallVector<Operation *> members = {last};
  llvm::SmallPtrSet<Operation *, 16> seen = {last};
  Operation *first = nullptr;
  SmallVector<Value> stack = {probs};
  while (!stack.empty()) {
    Value v = stack.pop_back_val();
    Operation *def = v.getDefiningOp();
    auto type = dyn_cast<RankedTensorType>(v.getType());
    // What is not the chain's own (a mask, a constant) is an input.
    if (!def || def->getBlock() != block || !type ||
        (type.getShape() != scores && type.getShape() != row))
      continue;
    if (!seen.insert(def).second)
      continue;
    if (isTensorContraction(def) && type.getShape() == scores) {
      if (first && first != def)
        return failure();
      first = def;
      members.push_back(def);
      continue;
    }
    if (!isFusableOp(def) && !isa<linalg::SoftmaxOp>(def))
      continue;
    members.push_back(def);
    if (members.size() > kMaxFusedOps)
      return failure();
    for (Value in : cast<DestinationStyleOpInterface>(def).getDpsInputs())
      stack.push_back(in);
  }
  // A softmax between the two contractions: linalg.softmax, or a reduction
  // over the keys (the row maximum).
  if (!first || llvm::none_of(members, [](Operation *op) {
        auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
        return isa<linalg::SoftmaxOp>(op) ||
               (linalgOp && isFusableOp(op) &&
                linalgOp.getNumReductionLoops() > 0);
      }))
    return failure();
  // A copy that permutes Q, K or V for its contraction alone (K transposed
  // for Q K^T, heads moved outward) is read through its permutation.
  SmallVector<Value> operands(cast<linalg::LinalgOp>(first).getDpsInputs());
  operands.push_back(cast<linalg::LinalgOp>(last).getDpsInputs()[1]);
  for (Value in : operands)
    if (Operation *def = in.getDefiningOp();
        def && def->getBlock() == block && isFusableOp(def) &&
        isPermutingCopy(def) && in.hasOneUse() &&
        !llvm::is_contained(members, def))
      members.push_back(def);
  // A copy that alone reads the output and permutes it (heads moved back
  // inward) is where the kernel writes the output.
  Value output = last->getResult(0);
  if (output.hasOneUse())
    if (Operation *user = *output.getUsers().begin();
        user->getBlock() == block && isFusableOp(user) &&
        isPermutingCopy(user)) {
      members.push_back(user);
      output = user->getResult(0);
    }
  FusionGroup group;
  std::string ignored;
  if (failed(finishFusionGroup(members, group, ignored)) ||
      group.outputs.size() != 1 || group.outputs[0] != output)
    return failure();
  return group;
}

FailureOr<FusionGroup> mlir::stark::growAttentionGroup(Operation *op) {
  // The second contractions `op` may lead to: itself, or one reached
  // through the chain's users.
  SmallVector<Operation *> stack = {op};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!stack.empty()) {
    Operation *cur = stack.pop_back_val();
    if (!seen.insert(cur).second || seen.size() > kMaxFusedOps + 1)
      continue;
    if (isTensorContraction(cur))
      if (FailureOr<FusionGroup> group = growFromLast(cur);
          succeeded(group) && llvm::is_contained(group->ops, op))
        return group;
    if (cur->getNumResults() != 1)
      continue;
    for (Operation *user : cur->getResult(0).getUsers())
      if (Operation *ancestor = cur->getBlock()->findAncestorOpInBlock(*user);
          ancestor && (isFusableOp(ancestor) || isTensorContraction(ancestor) ||
                       isa<linalg::SoftmaxOp>(ancestor)))
        stack.push_back(ancestor);
  }
  return failure();
}
