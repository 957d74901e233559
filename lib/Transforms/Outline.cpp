//===- Outline.cpp - Turn each hot op into a kernel problem ---------------===//

#include "stark/Analysis/ElidedWeights.h"
#include "stark/Analysis/FusionCost.h"
#include "stark/Analysis/HardwareProfile.h"
#include "stark/Analysis/InitFill.h"
#include "stark/Analysis/ProblemView.h"
#include "stark/Problem/FusionGroup.h"
#include "stark/Problem/KernelProblem.h"
#include "stark/Transforms/Passes.h"
#include "stark/Tuning/Substitution.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::stark {
#define GEN_PASS_DEF_STARKOUTLINEPASS
#include "stark/Transforms/Passes.h.inc"
} // namespace mlir::stark

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

/// Outlines each op of a fused chain (`members`, outlined as `fusedName`)
/// alone, with the fill it owns, through `addProblem`; the chain's problem
/// lists them in stark.unfused and each op names its own in
/// stark.unfused_problem. Fails, saying why, when an op cannot be a problem
/// of its own (nothing is recorded then).
template <typename AddProblem>
LogicalResult outlineMembersAlone(ModuleOp module,
                                  ArrayRef<Operation *> members,
                                  StringAttr fusedName, AddProblem &addProblem,
                                  std::string &whyNot) {
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
  if (auto fused = module.lookupSymbol<ModuleOp>(fusedName))
    fused->setAttr(kUnfusedAttrName,
                   ArrayAttr::get(fusedName.getContext(), refs));
  return success();
}

struct StarkOutlinePass
    : public stark::impl::StarkOutlinePassBase<StarkOutlinePass> {
  using StarkOutlinePassBase::StarkOutlinePassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<HardwareProfile> hw = lookupHardwareProfile(profile);
    if (!hw) {
      module.emitError() << "stark-outline: unknown hardware profile '"
                         << profile << "'; expected one of: "
                         << llvm::join(getHardwareProfileNames(), ", ");
      return signalPassFailure();
    }
    SmallVector<Operation *> ops;
    module->walk([&](Operation *op) {
      if (!isa<linalg::LinalgOp, linalg::SoftmaxOp>(op))
        return;
      // Problems outlined by an earlier run are not outlined again; a problem
      // file given as the input module is a program like any other.
      if (auto parent = op->getParentOfType<ModuleOp>();
          parent && parent != module && parent->hasAttr(kProblemAttrName))
        return;
      if (all || op->hasAttr(kCostAttrName))
        ops.push_back(op);
    });

    // Existing problems (from an earlier run) are reused by signature.
    llvm::StringMap<StringAttr> bySignature;
    int64_t nextIndex = 0;
    for (auto nested : module.getOps<ModuleOp>()) {
      std::string ignored;
      FailureOr<ProblemAttr> info = getProblemAttr(nested, ignored);
      if (succeeded(info) && nested.getSymNameAttr()) {
        bySignature[info->getSignature()] = nested.getSymNameAttr();
        ++nextIndex;
      }
    }

    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    // The problem of `problem`'s signature: an existing one, or `problem`
    // appended to the module (and written to `dir`). Null, with an error,
    // on failure: a file that cannot be written, a weight without data.
    auto addProblem = [&](OwningOpRef<ModuleOp> problem,
                          Operation *anchor) -> StringAttr {
      // A problem is evaluated on its own: a weight it holds must have
      // data. The error goes on the program's op that holds it.
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
        name = b.getStringAttr("stark_problem_" + std::to_string(nextIndex++));
        if (!dir.empty() && failed(writeProblemFile(
                                *problem, dir, info.getSignature(), anchor)))
          return nullptr;
        problem->setSymNameAttr(name);
        b.insert(problem.release());
        ++numProblems;
      }
      return name;
    };
    // Fills go last: one that only initialises ops of a fused chain, or the
    // output of a contraction, is part of that problem, not one of its own.
    std::stable_partition(ops.begin(), ops.end(), [](Operation *op) {
      return !isa<linalg::FillOp>(op);
    });
    // Ops outlined with the chain of an earlier hot op, and ops of chains
    // that could not be fused (so the reason is given once).
    llvm::SmallPtrSet<Operation *, 16> grouped, fused, unfusable;
    // Chains (and heads) whose fused problem no GEMM kernel would take: they
    // are outlined without the head.
    llvm::SmallPtrSet<Operation *, 16> headless;
    // Contractions (and the ops around them) whose problem with operand
    // prologues no GEMM kernel would take: outlined without them.
    llvm::SmallPtrSet<Operation *, 16> withoutPrologues;
    for (Operation *op : ops) {
      if (grouped.contains(op))
        continue;
      // A fill that only initialises ops of one fused chain is rebuilt in
      // that chain's problem: it takes the chain's tag (and is dropped with
      // the chain on substitution), so every hot op says what covers it.
      if (isa<linalg::FillOp>(op) && !op->use_empty() &&
          llvm::all_of(op->getUsers(),
                       [&](Operation *user) { return fused.contains(user); })) {
        Attribute tag = (*op->getUsers().begin())->getAttr(kProblemAttrName);
        if (llvm::all_of(op->getUsers(), [&](Operation *user) {
              return user->getAttr(kProblemAttrName) == tag;
            }))
          op->setAttr(kProblemAttrName, tag);
        continue;
      }
      SmallVector<Operation *> members = {op};
      std::string why, costNote;
      FailureOr<OwningOpRef<ModuleOp>> problem = failure();
      if (fuse &&
          (isFusableOp(op) ||
           (fuseEpilogues && isEpilogueHead(op, fuseConvEpilogues))) &&
          !unfusable.contains(op)) {
        FusionGroup group;
        bool epilogues = fuseEpilogues && !headless.contains(op);
        bool prologues = !withoutPrologues.contains(op);
        LogicalResult grown = growFusionGroup(op, group, why, epilogues,
                                              fuseConvEpilogues, prologues);
        if (Operation *head =
                succeeded(grown) && epilogues && group.ops.size() > 1
                    ? getEpilogueHead(group)
                    : nullptr) {
          // The headed problem is outlined once: kept when it passes. One
          // with operand prologues that does not is tried without them,
          // then without the head.
          std::string whyNot;
          auto outlineHeaded = [&] {
            FailureOr<OwningOpRef<ModuleOp>> headed =
                outlineFusionGroup(group, whyNot);
            if (succeeded(headed) &&
                succeeded(checkEpilogueProblem(**headed, whyNot)))
              problem = std::move(headed);
          };
          auto stillHeaded = [&] {
            return succeeded(grown) && group.ops.size() > 1 &&
                   getEpilogueHead(group);
          };
          outlineHeaded();
          if (failed(problem) && prologues && hasOperandPrologue(group, head)) {
            withoutPrologues.insert(group.ops.begin(), group.ops.end());
            head->emitRemark()
                << "not fused with the element-wise ops computing its "
                   "operands: "
                << whyNot;
            grown = growFusionGroup(op, group, why, epilogues,
                                    fuseConvEpilogues, /*prologues=*/false);
            if (stillHeaded())
              outlineHeaded();
          }
          if (failed(problem) && stillHeaded()) {
            headless.insert(group.ops.begin(), group.ops.end());
            op->emitRemark() << "not fused with the '" << head->getName()
                             << "' it is the epilogue of: " << whyNot;
            grown = growFusionGroup(op, group, why, /*epilogues=*/false);
          }
        }
        if (failed(grown)) {
          unfusable.insert(group.ops.begin(), group.ops.end());
          op->emitRemark() << "not fused with its producers and consumers: "
                           << why;
        } else if (group.ops.size() == 1 &&
                   isSeveralOutputReduction(group.ops.front())) {
          // An op alone that reduces into several fills; where no kernel
          // reads its fused form (an argmax that keeps the last of equal
          // values) it stays the op's own problem.
          std::string whyNot;
          problem = outlineOneOpFusionGroup(group, whyNot);
          if (succeeded(problem))
            members = group.ops;
          else
            op->emitRemark()
                << "not outlined with the fills of its outputs: " << whyNot;
        } else if (group.ops.size() > 1 && costModel &&
                   !fusionPays(group, *hw, costNote)) {
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
            op->emitRemark()
                << "not fused with its producers and consumers: " << why;
          }
        }
      }
      // An accumulating op (contraction, convolution, reduction, pooling)
      // owns the fill of its output: one problem that
      // writes the output instead of reading it.
      linalg::FillOp initFill;
      if (failed(problem)) {
        initFill = fuse ? getOwnedInitFill(op) : linalg::FillOp();
        problem = outlineKernelProblem(op, why, initFill);
        if (succeeded(problem) && initFill)
          members = {initFill, op};
      }
      if (failed(problem)) {
        ++numSkipped;
        op->emitRemark() << "not outlined: " << why;
        continue;
      }
      std::string err;
      ProblemAttr info = *getProblemAttr(**problem, err);
      StringAttr name = addProblem(std::move(*problem), op);
      if (!name)
        return signalPassFailure();
      for (Operation *member : members) {
        grouped.insert(member);
        member->setAttr(kProblemAttrName, FlatSymbolRefAttr::get(name));
      }
      if (initFill) {
        fused.insert(members.begin(), members.end());
        numFused += members.size();
        op->emitRemark() << "outlined with the fill of its output as @"
                         << name.getValue() << " (" << info.getOp() << " "
                         << info.getShapes() << ", signature "
                         << info.getSignature() << ")";
      } else if (isFusedGroupProblem(info) && members.size() == 1) {
        fused.insert(op);
        ++numFused;
        op->emitRemark() << "outlined with the fills of its outputs as @"
                         << name.getValue() << " (" << info.getOp() << " "
                         << info.getShapes() << ", signature "
                         << info.getSignature() << ")";
      } else if (members.size() > 1) {
        fused.insert(members.begin(), members.end());
        numFused += members.size();
        InFlightDiagnostic remark = op->emitRemark();
        remark << "outlined with " << (members.size() - 1)
               << " producer/consumer op(s) as @" << name.getValue() << " ("
               << info.getOp() << " " << info.getShapes() << ", signature "
               << info.getSignature() << ")";
        if (!costNote.empty())
          remark << "; " << costNote;
        if (compareUnfused) {
          std::string whyNot;
          if (failed(outlineMembersAlone(module, members, name, addProblem,
                                         whyNot)))
            remark << "; not compared with its ops alone: " << whyNot;
          else
            remark << "; its ops are also outlined alone";
        }
        remark.report();
      } else {
        op->emitRemark() << "outlined as @" << name.getValue() << " ("
                         << info.getOp() << " " << info.getShapes()
                         << ", signature " << info.getSignature() << ")";
      }
      ++numOutlined;
    }
  }
};

} // namespace
