//===- ProgramOutline.cpp - A program's hot ops as kernel problems --------===//

#include "stark/Problem/ProgramOutline.h"
#include "stark/Analysis/ElidedWeights.h"
#include "stark/Analysis/FusionCost.h"
#include "stark/Analysis/InitFill.h"
#include "stark/Analysis/ProblemView.h"
#include "stark/Dialect/StarkDialect.h"
#include "stark/Problem/FusionGroup.h"
#include "stark/Problem/KernelProblem.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <functional>

using namespace mlir;
using namespace mlir::stark;

namespace {

/// The contraction or convolution `group` took as the head of its epilogue;
/// null when it has none.
Operation *getEpilogueHead(const FusionGroup &group) {
  for (Operation *op : group.ops)
    if (isEpilogueHead(op) && !isFusableOp(op))
      return op;
  return nullptr;
}

/// Whether `group` holds element-wise ops that compute an operand of its
/// contraction `head`.
bool hasOperandPrologue(const FusionGroup &group, Operation *head) {
  return llvm::any_of(cast<linalg::LinalgOp>(head).getDpsInputs(),
                      [&](Value v) {
                        return llvm::is_contained(group.ops, v.getDefiningOp());
                      });
}

/// Whether `problem` (outlined from a chain with its epilogue head) reads as
/// a GEMM and its epilogue on operands the GEMM kernels store and load (f32,
/// f16, bf16). A group that does not would have no kernel but the upstream
/// lowering of the whole chain, slower than the contraction's own kernel
/// and the chain's.
LogicalResult checkEpilogueProblem(ModuleOp problem, std::string &whyNot) {
  FailureOr<ProblemView> view = getProblemView(problem, whyNot);
  if (failed(view))
    return failure();
  if (!view->epilogue || !view->contraction) {
    whyNot = "the problem is not read as a GEMM and its epilogue";
    return failure();
  }
  auto gemmKind = [](ElementKind k) {
    return k == ElementKind::F32 || k == ElementKind::F16 ||
           k == ElementKind::BF16;
  };
  const ContractionView &c = *view->contraction;
  if (!gemmKind(c.aKind) || !gemmKind(c.bKind) || !gemmKind(c.cKind)) {
    whyNot = "the GEMM kernels take f32, f16 or bf16 operands and outputs";
    return failure();
  }
  return success();
}

/// Whether `group` holds two contractions (growAttentionGroup's chains).
bool isAttentionGroup(const FusionGroup &group) {
  return llvm::count_if(group.ops, [](Operation *op) {
           return !isFusableOp(op) && isEpilogueHead(op, false);
         }) == 2;
}

/// Whether `problem` (outlined from an attention chain) reads as attention
/// and a kernel takes it (`options.takesAttention`).
LogicalResult checkAttentionProblem(ModuleOp problem,
                                    const OutlineOptions &options,
                                    std::string &whyNot) {
  FailureOr<ProblemView> view = getProblemView(problem, whyNot);
  if (failed(view))
    return failure();
  if (!view->attention) {
    whyNot = "the problem is not read as attention";
    return failure();
  }
  if (options.takesAttention && !options.takesAttention(*view, whyNot)) {
    whyNot = "no kernel takes it: " + whyNot;
    return failure();
  }
  return success();
}

/// Writes `problem` to `<dir>/<signature>.mlir`.
LogicalResult writeProblemFile(ModuleOp problem, StringRef dir,
                               StringRef signature, Operation *diagAnchor) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return diagAnchor->emitError()
           << "stark-outline: cannot create '" << dir << "': " << ec.message();
  SmallString<256> path(dir);
  llvm::sys::path::append(path, signature + ".mlir");
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return diagAnchor->emitError() << "stark-outline: " << error;
  problem.print(file->os());
  file->os() << "\n";
  file->keep();
  return success();
}

/// Whether the cost model fuses `group` on `profile`; `note` says what it
/// estimated (empty where it cannot tell, and then the group is fused).
bool fusionPays(const FusionGroup &group, const HardwareProfile &profile,
                std::string &note) {
  std::string whyUnknown;
  FailureOr<FusionEstimate> estimate = estimateFusion(
      group.ops, group.inputs, group.outputs, profile, whyUnknown);
  if (failed(estimate)) {
    note.clear();
    return true;
  }
  note = "by the cost model on " + profile.name + ", one kernel " +
         estimate->describe();
  return estimate->pays();
}

/// One outlining of a program: the problems made so far (by signature) and
/// what became of each op.
class ProgramOutliner {
public:
  ProgramOutliner(ModuleOp module, const OutlineOptions &options,
                  OutlineCounts &counts)
      : module(module), options(options), counts(counts),
        builder(OpBuilder::atBlockEnd(module.getBody())) {}

  LogicalResult run();

private:
  ModuleOp module;
  const OutlineOptions &options;
  OutlineCounts &counts;
  OpBuilder builder;
  /// Existing problems (from an earlier run) are reused by signature.
  llvm::StringMap<StringAttr> bySignature;
  int64_t nextIndex = 0;
  /// Ops outlined with the chain of an earlier hot op, and ops whose chain
  /// could not be fused (outlined alone; the remark on them said why).
  llvm::SmallPtrSet<Operation *, 16> grouped, fused, unfusable;
  /// Chains (and heads) whose fused problem no GEMM kernel would take: they
  /// are outlined without the head.
  llvm::SmallPtrSet<Operation *, 16> headless;
  /// Contractions (and the ops around them) whose problem with operand
  /// prologues no GEMM kernel would take: outlined without them.
  llvm::SmallPtrSet<Operation *, 16> withoutPrologues;
  /// Ops of attention chains that do not read as attention: grouped as
  /// other ops are.
  llvm::SmallPtrSet<Operation *, 16> notAttention;
  /// What a chain may grow through: the ops no problem holds yet (a
  /// residual add that a matmul took as its epilogue is an input of the
  /// next norm).
  std::function<bool(Operation *)> ungrouped = [this](Operation *op) {
    return !grouped.contains(op);
  };

  SmallVector<Operation *> collectOps();
  void indexExistingProblems();
  /// The problem of `problem`'s signature: an existing one, or `problem`
  /// appended to the module (and written to `dir`). Null, with an error,
  /// on failure: a file that cannot be written, a weight without data.
  StringAttr addProblem(OwningOpRef<ModuleOp> problem, Operation *anchor);
  /// A fill that only initialises ops of one fused chain is rebuilt in
  /// that chain's problem: it takes the chain's tag (and is dropped with the
  /// chain on substitution), so every hot op says what covers it.
  bool adoptChainFill(Operation *op);
  /// The fused problem of the chain around `op`, with its `members`; fails
  /// (`problem` untouched) where the op is outlined alone.
  void outlineChain(Operation *op, SmallVector<Operation *> &members,
                    FailureOr<OwningOpRef<ModuleOp>> &problem, std::string &why,
                    std::string &costNote);
  /// The chain of `op` with its epilogue head (and operand prologues):
  /// outlined into `problem` when a kernel reads it; otherwise `group` is
  /// grown again without the prologues, then without the head.
  void outlineHeadedChain(Operation *op, FusionGroup &group,
                          LogicalResult &grown, bool prologues,
                          FailureOr<OwningOpRef<ModuleOp>> &problem,
                          std::string &why);
  /// Outlines `op` (and its chain); false on a hard failure.
  bool outlineOp(Operation *op);
  /// Tags `members` with `name` and says what `op` was outlined as.
  void noteOutlined(Operation *op, ArrayRef<Operation *> members,
                    StringAttr name, ProblemAttr info, bool withInitFill,
                    StringRef costNote);
  /// Outlines each op of a fused chain (`members`, outlined as
  /// `fusedName`) alone, with the fill it owns; the chain's problem lists
  /// them in stark.unfused and each op names its own in
  /// stark.unfused_problem. Fails, saying why, when an op cannot be a
  /// problem of its own (nothing is recorded then).
  LogicalResult outlineMembersAlone(ArrayRef<Operation *> members,
                                    StringAttr fusedName, std::string &whyNot);
};

} // namespace

SmallVector<Operation *> ProgramOutliner::collectOps() {
  SmallVector<Operation *> ops;
  module->walk([&](Operation *op) {
    if (!isa<linalg::LinalgOp, linalg::SoftmaxOp>(op))
      return;
    // Problems outlined by an earlier run are not outlined again; a problem
    // file given as the input module is a program like any other.
    if (auto parent = op->getParentOfType<ModuleOp>();
        parent && parent != module && parent->hasAttr(kProblemAttrName))
      return;
    if (options.all || op->hasAttr(kCostAttrName))
      ops.push_back(op);
  });
  // Fills go last: one that only initialises ops of a fused chain, or the
  // output of a contraction, is part of that problem, not one of its own.
  std::stable_partition(ops.begin(), ops.end(),
                        [](Operation *op) { return !isa<linalg::FillOp>(op); });
  return ops;
}

void ProgramOutliner::indexExistingProblems() {
  for (auto nested : module.getOps<ModuleOp>()) {
    std::string ignored;
    FailureOr<ProblemAttr> info = getProblemAttr(nested, ignored);
    if (succeeded(info) && nested.getSymNameAttr()) {
      bySignature[info->getSignature()] = nested.getSymNameAttr();
      ++nextIndex;
    }
  }
}

StringAttr ProgramOutliner::addProblem(OwningOpRef<ModuleOp> problem,
                                       Operation *anchor) {
  // A problem is evaluated on its own: a weight it holds must have data.
  // The error goes on the program's op that holds it.
  std::vector<MissingWeight> missing = findMissingWeights(*problem);
  if (!missing.empty()) {
    std::vector<MissingWeight> inProgram = findMissingWeights(module);
    for (const MissingWeight &w : missing) {
      auto origin = llvm::find_if(inProgram, [&](const MissingWeight &p) {
        return p.attr == w.attr && p.holder->getLoc() == w.holder->getLoc();
      });
      emitMissingWeightError(
          origin != inProgram.end() ? *origin : w,
          "--stark-pipeline=\"synthesize-elided-weights=1\" or "
          "--stark-fold-constants=\"synthesize-elided-weights=1\" "
          "before --stark-outline");
    }
    return nullptr;
  }
  std::string err;
  ProblemAttr info = *getProblemAttr(*problem, err);
  StringAttr &name = bySignature[info.getSignature()];
  if (!name) {
    name =
        builder.getStringAttr("stark_problem_" + std::to_string(nextIndex++));
    if (!options.dir.empty() &&
        failed(writeProblemFile(*problem, options.dir, info.getSignature(),
                                anchor)))
      return nullptr;
    problem->setSymNameAttr(name);
    builder.insert(problem.release());
    ++counts.problems;
  }
  return name;
}

bool ProgramOutliner::adoptChainFill(Operation *op) {
  if (!isa<linalg::FillOp>(op) || op->use_empty() ||
      !llvm::all_of(op->getUsers(),
                    [&](Operation *user) { return fused.contains(user); }))
    return false;
  Attribute tag = (*op->getUsers().begin())->getAttr(kProblemAttrName);
  if (llvm::all_of(op->getUsers(), [&](Operation *user) {
        return user->getAttr(kProblemAttrName) == tag;
      }))
    op->setAttr(kProblemAttrName, tag);
  return true;
}

void ProgramOutliner::outlineHeadedChain(
    Operation *op, FusionGroup &group, LogicalResult &grown, bool prologues,
    FailureOr<OwningOpRef<ModuleOp>> &problem, std::string &why) {
  Operation *head = getEpilogueHead(group);
  // The headed problem is outlined once: kept when it passes. One with
  // operand prologues that does not is tried without them, then without
  // the head.
  std::string whyNot;
  auto outlineHeaded = [&] {
    FailureOr<OwningOpRef<ModuleOp>> headed = outlineFusionGroup(group, whyNot);
    if (succeeded(headed) && succeeded(checkEpilogueProblem(**headed, whyNot)))
      problem = std::move(headed);
  };
  auto stillHeaded = [&] {
    return succeeded(grown) && group.ops.size() > 1 && getEpilogueHead(group);
  };
  outlineHeaded();
  if (failed(problem) && prologues && hasOperandPrologue(group, head)) {
    withoutPrologues.insert(group.ops.begin(), group.ops.end());
    head->emitRemark() << "not fused with the element-wise ops computing its "
                          "operands: "
                       << whyNot;
    grown = growFusionGroup(op, group, why, /*epilogues=*/true,
                            options.fuseConvEpilogues, /*prologues=*/false,
                            /*attention=*/false, ungrouped);
    if (stillHeaded())
      outlineHeaded();
  }
  if (failed(problem) && stillHeaded()) {
    headless.insert(group.ops.begin(), group.ops.end());
    op->emitRemark() << "not fused with the '" << head->getName()
                     << "' it is the epilogue of: " << whyNot;
    grown = growFusionGroup(op, group, why, /*epilogues=*/false,
                            /*convEpilogues=*/false, /*prologues=*/false,
                            /*attention=*/false, ungrouped);
  }
}

void ProgramOutliner::outlineChain(Operation *op,
                                   SmallVector<Operation *> &members,
                                   FailureOr<OwningOpRef<ModuleOp>> &problem,
                                   std::string &why, std::string &costNote) {
  FusionGroup group;
  bool epilogues = options.fuseEpilogues && !headless.contains(op);
  bool prologues = !withoutPrologues.contains(op);
  bool attention =
      epilogues && options.fuseAttention && !notAttention.contains(op);
  LogicalResult grown =
      growFusionGroup(op, group, why, epilogues, options.fuseConvEpilogues,
                      prologues, attention, ungrouped);
  if (succeeded(grown) && attention && isAttentionGroup(group)) {
    // An attention chain is one problem where it reads as attention;
    // otherwise its ops are grouped as any others.
    std::string whyNot;
    FailureOr<OwningOpRef<ModuleOp>> chain = outlineFusionGroup(group, whyNot);
    if (succeeded(chain) &&
        succeeded(checkAttentionProblem(**chain, options, whyNot))) {
      members = group.ops;
      problem = std::move(chain);
      return;
    }
    notAttention.insert(group.ops.begin(), group.ops.end());
    op->emitRemark() << "not fused as attention: " << whyNot;
    grown = growFusionGroup(op, group, why, epilogues,
                            options.fuseConvEpilogues, prologues,
                            /*attention=*/false, ungrouped);
  }
  // A chain that would take an op another problem holds (an attention
  // chain's contraction) is not fused.
  if (succeeded(grown) && group.ops.size() > 1 &&
      llvm::any_of(group.ops, [&](Operation *member) {
        return grouped.contains(member);
      })) {
    why = "an op of its chain belongs to another problem";
    grown = failure();
    group.ops.assign({op});
  }
  if (succeeded(grown) && epilogues && group.ops.size() > 1 &&
      getEpilogueHead(group))
    outlineHeadedChain(op, group, grown, prologues, problem, why);
  if (failed(grown)) {
    // Only the op the chain grew from goes alone: another member may still
    // head a group of its own among the ops left (a pool and its divide,
    // where the whole squeeze-excite diamond is not one problem).
    unfusable.insert(op);
    op->emitRemark() << "not fused with its producers and consumers: " << why;
  } else if (group.ops.size() == 1 &&
             isSeveralOutputReduction(group.ops.front())) {
    // An op alone that reduces into several fills; where no kernel reads
    // its fused form (an argmax that keeps the last of equal values) it
    // stays the op's own problem.
    std::string whyNot;
    problem = outlineOneOpFusionGroup(group, whyNot);
    if (succeeded(problem))
      members = group.ops;
    else
      op->emitRemark() << "not outlined with the fills of its outputs: "
                       << whyNot;
  } else if (group.ops.size() > 1 && options.costModel &&
             !fusionPays(group, options.profile, costNote)) {
    problem = failure();
    unfusable.insert(group.ops.begin(), group.ops.end());
    op->emitRemark() << "not fused with its producers and consumers: "
                     << costNote;
    costNote.clear();
  } else if (group.ops.size() > 1) {
    if (failed(problem))
      problem = outlineFusionGroup(group, why);
    if (succeeded(problem)) {
      members = group.ops;
    } else {
      unfusable.insert(group.ops.begin(), group.ops.end());
      op->emitRemark() << "not fused with its producers and consumers: " << why;
    }
  }
}

bool ProgramOutliner::outlineOp(Operation *op) {
  SmallVector<Operation *> members = {op};
  std::string why, costNote;
  FailureOr<OwningOpRef<ModuleOp>> problem = failure();
  if (options.fuse &&
      (isFusableOp(op) ||
       (options.fuseEpilogues &&
        isEpilogueHead(op, options.fuseConvEpilogues)) ||
       (options.fuseEpilogues && options.fuseAttention &&
        isa<linalg::SoftmaxOp>(op))) &&
      !unfusable.contains(op))
    outlineChain(op, members, problem, why, costNote);
  // An accumulating op (contraction, convolution, reduction, pooling) owns
  // the fill of its output: one problem that writes the output instead of
  // reading it.
  linalg::FillOp initFill;
  if (failed(problem)) {
    initFill = options.fuse ? getOwnedInitFill(op) : linalg::FillOp();
    problem = outlineKernelProblem(op, why, initFill);
    if (succeeded(problem) && initFill)
      members = {initFill, op};
  }
  if (failed(problem)) {
    ++counts.skipped;
    op->emitRemark() << "not outlined: " << why;
    return true;
  }
  std::string err;
  ProblemAttr info = *getProblemAttr(**problem, err);
  StringAttr name = addProblem(std::move(*problem), op);
  if (!name)
    return false;
  noteOutlined(op, members, name, info, bool(initFill), costNote);
  ++counts.outlined;
  return true;
}

void ProgramOutliner::noteOutlined(Operation *op, ArrayRef<Operation *> members,
                                   StringAttr name, ProblemAttr info,
                                   bool withInitFill, StringRef costNote) {
  for (Operation *member : members) {
    grouped.insert(member);
    member->setAttr(kProblemAttrName, FlatSymbolRefAttr::get(name));
  }
  std::string as =
      llvm::formatv("@{0} ({1} {2}, signature {3})", name.getValue(),
                    info.getOp(), info.getShapes(), info.getSignature())
          .str();
  if (withInitFill) {
    fused.insert(members.begin(), members.end());
    counts.fused += members.size();
    op->emitRemark() << "outlined with the fill of its output as " << as;
  } else if (isFusedGroupProblem(info) && members.size() == 1) {
    fused.insert(op);
    ++counts.fused;
    op->emitRemark() << "outlined with the fills of its outputs as " << as;
  } else if (members.size() > 1) {
    fused.insert(members.begin(), members.end());
    counts.fused += members.size();
    InFlightDiagnostic remark = op->emitRemark();
    remark << "outlined with " << (members.size() - 1)
           << " producer/consumer op(s) as " << as;
    if (!costNote.empty())
      remark << "; " << costNote;
    if (options.compareUnfused) {
      std::string whyNot;
      if (failed(outlineMembersAlone(members, name, whyNot)))
        remark << "; not compared with its ops alone: " << whyNot;
      else
        remark << "; its ops are also outlined alone";
    }
    remark.report();
  } else {
    op->emitRemark() << "outlined as " << as;
  }
}

LogicalResult ProgramOutliner::outlineMembersAlone(
    ArrayRef<Operation *> members, StringAttr fusedName, std::string &whyNot) {
  SmallVector<std::pair<Operation *, OwningOpRef<ModuleOp>>> alone;
  for (Operation *member : members) {
    if (isa<linalg::FillOp>(member))
      continue;
    linalg::FillOp initFill = getOwnedInitFill(member);
    FailureOr<OwningOpRef<ModuleOp>> problem =
        outlineKernelProblem(member, whyNot, initFill);
    if (failed(problem))
      return failure();
    alone.emplace_back(member, std::move(*problem));
  }
  SmallVector<Attribute> refs;
  for (auto &[member, problem] : alone) {
    StringAttr name = addProblem(std::move(problem), member);
    if (!name) {
      whyNot = "a problem could not be added (see the error)";
      return failure();
    }
    auto ref = FlatSymbolRefAttr::get(name);
    member->setAttr(kUnfusedProblemAttrName, ref);
    refs.push_back(ref);
  }
  if (auto fusedModule = module.lookupSymbol<ModuleOp>(fusedName))
    fusedModule->setAttr(kUnfusedAttrName,
                         ArrayAttr::get(fusedName.getContext(), refs));
  return success();
}

LogicalResult ProgramOutliner::run() {
  SmallVector<Operation *> ops = collectOps();
  indexExistingProblems();
  // Attention chains go first: a contraction of one is also the head of an
  // epilogue or the consumer of a prologue outside it, and the chain must
  // be grouped before those take it.
  auto attentionFirst = ops.begin();
  if (options.fuse && options.fuseEpilogues && options.fuseAttention)
    attentionFirst =
        std::stable_partition(ops.begin(), ops.end(), [](Operation *op) {
          return !isa<linalg::FillOp>(op) && succeeded(growAttentionGroup(op));
        });
  // Then contractions take their epilogues: in a transformer the residual
  // add after a projection also connects the norms of every layer, and a
  // norm grown first would take it (or fail on the whole stream).
  if (options.fuse && options.fuseEpilogues)
    std::stable_partition(attentionFirst, ops.end(), [&](Operation *op) {
      return isEpilogueHead(op, options.fuseConvEpilogues);
    });
  for (Operation *op : ops) {
    if (grouped.contains(op) || adoptChainFill(op))
      continue;
    if (!outlineOp(op))
      return failure();
  }
  return success();
}

LogicalResult mlir::stark::outlineProgram(ModuleOp module,
                                          const OutlineOptions &options,
                                          OutlineCounts &counts) {
  return ProgramOutliner(module, options, counts).run();
}
