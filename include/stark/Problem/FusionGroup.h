//===- FusionGroup.h - Op chains outlined as one problem -------*- C++ -*-===//
//
// A fusion group is a connected chain of linalg ops on tensors in one block
// (element-wise ops, broadcasts and reductions; never convolutions or
// fills) whose intermediate results are used only inside the chain: a layer
// norm written as reductions and element-wise ops is one group. A chain of
// element-wise ops whose one output is computed from the result of a
// contraction or a convolution (matmul + bias + GELU, conv + bias + relu)
// takes that contraction as its head:
// the GEMM and its epilogue are one group. The group becomes ONE kernel
// problem: @kernel takes the group's
// inputs, then its outputs, as memrefs; each intermediate lives in a
// memref.alloc temporary (freed before the return); fills of constants that
// initialise a member's output are cloned in. The problem's stark.problem
// attribute says how many linalg ops it fuses (`fused_ops`).
//
//===----------------------------------------------------------------------===//

#ifndef STARK_PROBLEM_FUSIONGROUP_H
#define STARK_PROBLEM_FUSIONGROUP_H

#include "stark/Dialect/StarkAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::stark {

/// Which ops a group may take (null: every op).
using OpFilter = function_ref<bool(Operation *)>;

/// Largest number of linalg ops fused into one problem.
inline constexpr unsigned kMaxFusedOps = 16;

struct FusionGroup {
  /// The linalg ops of the group, in program order.
  SmallVector<Operation *> ops;
  /// Values from outside the group the ops read (tensors), in order of first
  /// use: the problem's input arguments.
  SmallVector<Value> inputs;
  /// Results of group ops used outside the group, in program order: the
  /// problem's output arguments.
  SmallVector<Value> outputs;
};

/// Whether `op` may belong to a fusion group: a linalg op on statically
/// shaped tensors whose maps are projected permutations, that is neither a
/// contraction, a convolution, a fill nor linalg.softmax.
bool isFusableOp(Operation *op);

/// Whether `op` may head a fusion group as the contraction an element-wise
/// chain is the epilogue of: a contraction of two statically shaped tensors
/// (matmul, batch_matmul, a generic contraction with projected-permutation
/// maps) or a convolution that is an implicit GEMM (a sum of products of
/// its two inputs, no depthwise channel: conv_1d_ncw_fcw, conv_2d_nchw_fchw,
/// conv_2d_nhwc_hwcf, ...), that accumulates into a fill of a constant.
/// With `convolutions` false, only contractions qualify.
bool isEpilogueHead(Operation *op, bool convolutions = true);

/// Grows the fusion group of `op` into `group`: every fusable op of its
/// block connected to it through tensor values (just `op` when it is not
/// fusable). Where a member's result is used both inside and outside the
/// chain, or outside it before the chain ends, the chain is cut there
/// (without that member, without its users in the chain, or without the
/// members after that outside use) and the largest part around `op` that is
/// one problem is kept. Fails, saying why in `whyNot`, when the chain cannot be
/// one problem: an intermediate result is also used outside the chain (and no
/// cut leaves two ops), an op
/// outside the chain sits between two of its ops in the data flow, a member
/// accumulates into a value other than a constant fill, a value is captured
/// that is not a constant, or the chain has more than kMaxFusedOps ops;
/// `group.ops` then still lists the chain's ops (as far as grown). A group
/// of one op is not an error (the op is not fused with anything).
///
/// With `epilogues`, a chain of element-wise ops with one output also takes
/// the contraction it is the epilogue of (of the epilogue heads producing
/// its inputs, the one computed last, with as many elements as that
/// output), when the result is still one problem; grown from such a
/// contraction, the group is that chain with it, else the contraction
/// alone. Where its consumers' chain is too long or no part of it around
/// them is one problem, the contraction takes the straight line of its
/// consumers (each op's result used by the next alone: bias, then a
/// residual add) that is one problem. A chain with a reduction never takes a
/// contraction: the reduction stays a kernel of its own.
///
/// With `available`, the chain and its head are grown through the ops it
/// accepts only (those no other problem holds yet; when a problem is found
/// again, the ops tagged with it).
///
/// With `convEpilogues` false, a convolution heads no epilogue (it keeps the
/// fill of its output; its chain is a problem of its own).
///
/// With `epilogues` and `prologues`, a contraction in the group (not a
/// convolution) also takes the element-wise chains that compute its
/// operands (relu(x) in matmul(relu(x), w)): the chain of an operand's
/// producer, when it holds no reduction, its one output is used by the
/// contraction alone and none of its inputs comes from a contraction or
/// convolution (that chain would be their epilogue). Grown from an op of
/// such a chain, the group is the contraction's.
///
/// With `attention`, an op of an attention chain (growAttentionGroup) grows
/// that chain as its group, where it is one problem.
LogicalResult growFusionGroup(Operation *op, FusionGroup &group,
                              std::string &whyNot, bool epilogues = true,
                              bool convEpilogues = true, bool prologues = true,
                              bool attention = false,
                              OpFilter available = nullptr);

/// The attention chain `op` belongs to: a contraction (Q K^T) with the
/// permuting copies of its operands it alone reads, the
/// element-wise ops and row reductions on its result (scale, mask, softmax
/// written out or linalg.softmax) and the contraction of their result with
/// V, each intermediate used only inside the chain. Only the shapes are
/// checked here (the scores [batch..., queries, keys], row values [batch...,
/// queries]); whether the ops compute attention is for the problem's view
/// (AttentionView) to say. Fails where `op` belongs to no such chain.
FailureOr<FusionGroup> growAttentionGroup(Operation *op);

/// Sorts `ops` into `group` and finds its inputs and outputs; fails, saying
/// why, when the ops cannot be one problem (see growFusionGroup).
LogicalResult finishFusionGroup(ArrayRef<Operation *> ops, FusionGroup &group,
                                std::string &whyNot);

/// One way `--stark-outline` may have grown a group (growFusionGroup's
/// flags).
struct OutlineVariant {
  bool epilogues, convolutions, prologues, attention;
};

/// The ways `--stark-outline` may have grown a group: an attention chain
/// (fuse-attention), a contraction or convolution head with operand
/// prologues or without (the headed problem with prologues was declined), a
/// contraction head only (fuse-conv-epilogues off), no head (fuse-epilogues
/// off). Finding an outlined group again tries them in turn.
inline constexpr OutlineVariant kOutlineEpilogueVariants[] = {
    {true, true, true, true},    {true, true, true, false},
    {true, true, false, false},  {true, false, true, false},
    {true, false, false, false}, {false, false, false, false}};

/// Whether `op` alone is a fused problem: it reduces into several outputs,
/// each initialised by a fill of a constant (an argmax's value and index).
/// Its problem then owns every fill, and any result nothing uses (the value
/// beside the index) becomes a temporary of the problem.
bool isSeveralOutputReduction(Operation *op);

/// Whether `problem` is a fused group's problem (FusionGroup.h): its op is
/// `fused(...)`, even for a group of one op (isSeveralOutputReduction).
bool isFusedGroupProblem(ProblemAttr problem);

/// Builds the kernel problem of `group` (two or more ops, or one that
/// isSeveralOutputReduction).
FailureOr<OwningOpRef<ModuleOp>> outlineFusionGroup(const FusionGroup &group,
                                                    std::string &whyNot);

/// The group `member` was outlined in, as --stark-outline left it: grown
/// again from `member` (with or without its epilogue head), it must have
/// `fusedOps` ops, each tagged with the same problem as `member`. Fails, saying
/// why, when the program changed.
FailureOr<FusionGroup> findOutlinedFusionGroup(Operation *member,
                                               int64_t fusedOps,
                                               std::string &whyNot);

/// Replaces `group` by a call of `kernel` (the group's problem calling
/// convention): inputs are passed as read-only buffers, each output gets a
/// fresh buffer whose tensor replaces the output, the group's ops are
/// erased, and fills and empty tensors left without users go too. The call
/// carries `stark.winner = provenance`.
LogicalResult replaceFusionGroupWithCall(const FusionGroup &group,
                                         func::FuncOp kernel,
                                         DictionaryAttr provenance);

/// The ops of `program` that name the problem `symbol` in `attrName`
/// (stark.problem, or stark.unfused_problem for the problems of a fused
/// chain's ops alone).
SmallVector<Operation *> getOpsOfProblem(ModuleOp program, StringAttr symbol,
                                         StringRef attrName = kProblemAttrName);

/// The measured time of a searched `problem` in microseconds: its winner's,
/// else its baseline's (stark.baseline_us); none where it was not timed.
std::optional<double> getSearchedMicroseconds(ModuleOp problem);

/// How a fused chain's problem compared with its ops alone
/// (--stark-outline compare-unfused).
struct UnfusedComparison {
  /// The chain's problem, and the problems of its ops alone in chain order.
  ModuleOp fused;
  SmallVector<ModuleOp> alone;
  /// The chain's time, and the sum of its ops' times; none where a problem
  /// was not timed.
  std::optional<double> fusedMicroseconds, aloneMicroseconds;
  /// The ops alone are faster: they now name their own problems.
  bool unfused = false;
  /// "@stark_problem_3 (12.5 us) + @stark_problem_4 (3.1 us) = 15.6 us".
  std::string aloneSummary;
};

/// For each problem of `program` with stark.unfused: compares the chain's
/// time with the sum of its ops' times alone, and where the ops alone are
/// faster by `minSpeedup` (the factor a winner must beat its baseline by),
/// tags every op of the program outlined in that chain (and the
/// fill its own problem owns) with its own problem (stark.unfused_problem),
/// so that --stark-substitute replaces them one by one. Where a problem
/// was not timed, the chain stays fused. Returns one comparison per chain's
/// problem.
SmallVector<UnfusedComparison> chooseFusedOrUnfused(ModuleOp program,
                                                    double minSpeedup = 1.0);

/// The problem of a fusion group of one op (an op reducing into several
/// fills, isSeveralOutputReduction): the group's problem, owning every fill,
/// when a kernel reads it (getProblemView); else fails, saying why, and the
/// op is a problem of its own, its fills apart. --stark-outline and the
/// tuning specs outline such an op with this, so that a recorded winner
/// finds its problem again.
FailureOr<OwningOpRef<ModuleOp>>
outlineOneOpFusionGroup(const FusionGroup &group, std::string &whyNot);

} // namespace mlir::stark

#endif // STARK_PROBLEM_FUSIONGROUP_H
