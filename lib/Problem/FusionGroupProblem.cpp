//===- FusionGroupProblem.cpp - A fusion group as one kernel problem ------===//
//
// A grown group (FusionGroup.cpp) becomes one problem: its ops are cloned
// onto memrefs into `@kernel` (intermediates as temporaries, constant fills
// rebuilt); the substitution finds the group again from its tagged ops and
// replaces it by one call; `compare-unfused` keeps the chain's kernel only
// where it beats its ops' winners together.
//
//===----------------------------------------------------------------------===//

#include "stark/Analysis/InitFill.h"
#include "stark/Analysis/ProblemView.h"
#include "stark/Problem/FusionGroup.h"
#include "stark/Problem/KernelProblem.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

static MemRefType getBufferType(Type t) {
  auto shaped = cast<ShapedType>(t);
  return MemRefType::get(shaped.getShape(), shaped.getElementType());
}

static std::string shapeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto shaped = cast<ShapedType>(t);
  for (int64_t d : shaped.getShape())
    os << d << "x";
  os << shaped.getElementType();
  return s;
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::stark::outlineFusionGroup(const FusionGroup &group, std::string &whyNot) {
  if ((group.ops.size() < 2 &&
       !(group.ops.size() == 1 && isSeveralOutputReduction(group.ops[0]))) ||
      group.outputs.empty()) {
    whyNot = "a fusion group needs two ops (or one reducing into several "
             "fills) and an output";
    return failure();
  }
  Operation *first = group.ops.front();
  Location loc = first->getLoc();
  MLIRContext *ctx = first->getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder b = OpBuilder::atBlockBegin(module->getBody());

  SmallVector<Type> argTypes;
  for (Value v : group.inputs)
    argTypes.push_back(getBufferType(v.getType()));
  for (Value v : group.outputs)
    argTypes.push_back(getBufferType(v.getType()));
  auto func = func::FuncOp::create(b, loc, kProblemEntryName,
                                   b.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);

  IRMapping mapping;
  for (auto [v, arg] : llvm::zip(group.inputs, entry->getArguments()))
    mapping.map(v, arg);
  for (auto [v, arg] :
       llvm::zip(group.outputs,
                 entry->getArguments().drop_front(group.inputs.size())))
    mapping.map(v, arg);
  // Constants are cloned once, where they are first needed.
  Operation *lastConstant = nullptr;
  auto constant = [&](Value v) -> Value {
    if (Value mapped = mapping.lookupOrNull(v))
      return mapped;
    OpBuilder::InsertionGuard guard(b);
    if (lastConstant)
      b.setInsertionPointAfter(lastConstant);
    else
      b.setInsertionPointToStart(entry);
    lastConstant = b.clone(*v.getDefiningOp());
    mapping.map(v, lastConstant->getResult(0));
    return lastConstant->getResult(0);
  };

  SmallVector<Value> temporaries;
  for (Operation *op : group.ops) {
    auto dps = cast<DestinationStyleOpInterface>(op);
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value v : captured)
      (void)constant(v);

    SmallVector<Value> operands;
    for (OpOperand &operand : op->getOpOperands()) {
      Value v = operand.get();
      if (!dps.isDpsInit(&operand)) {
        operands.push_back(isa<ShapedType>(v.getType()) ? mapping.lookup(v)
                                                        : constant(v));
        continue;
      }
      OpResult result = dps.getTiedOpResult(&operand);
      Value buffer = mapping.lookupOrNull(result);
      if (!buffer) {
        buffer =
            memref::AllocOp::create(b, loc, getBufferType(result.getType()));
        temporaries.push_back(buffer);
        mapping.map(result, buffer);
      }
      if (readsInit(op, operand)) {
        linalg::FillOp fill = getConstantFill(v);
        if (!fill) {
          whyNot = "a member accumulates into a value that is not a fill";
          return failure();
        }
        linalg::FillOp::create(b, fill.getLoc(),
                               ValueRange{constant(fill.getInputs()[0])},
                               ValueRange{buffer});
      }
      operands.push_back(buffer);
    }
    Operation *clone = mlir::clone(b, op, /*newResultTypes=*/{}, operands);
    for (Value v : captured)
      for (Region &region : clone->getRegions())
        replaceAllUsesInRegionWith(v, mapping.lookup(v), region);
    // Markers of other passes say nothing about what is computed.
    clone->setDiscardableAttrs(DictionaryAttr::get(ctx));
  }
  for (Value buffer : temporaries)
    memref::DeallocOp::create(b, loc, buffer);
  func::ReturnOp::create(b, loc);

  std::string opNames, shapes;
  {
    llvm::raw_string_ostream os(opNames);
    os << "fused(";
    llvm::interleave(
        group.ops, os, [&](Operation *op) { os << op->getName(); }, ",");
    os << ")";
    llvm::raw_string_ostream ss(shapes);
    llvm::interleave(
        group.inputs, ss, [&](Value v) { ss << shapeString(v.getType()); },
        ",");
    ss << "->";
    llvm::interleave(
        group.outputs, ss, [&](Value v) { ss << shapeString(v.getType()); },
        ",");
  }
  setProblemAttr(*module, group.outputs.size(), opNames, shapes,
                 group.ops.size());
  return module;
}

FailureOr<FusionGroup>
mlir::stark::findOutlinedFusionGroup(Operation *member, int64_t fusedOps,
                                     std::string &whyNot) {
  Attribute tag = member->getAttr(kProblemAttrName);
  // The problem may have been outlined with or without the contraction its
  // chain is the epilogue of (fuse-epilogues), and grown from another of
  // its ops (where a chain was cut, the cut depends on where it grew from):
  // `member` first, then the other ops with its tag.
  SmallVector<Operation *> starts = {member};
  for (Operation &op : *member->getBlock())
    if (&op != member && op.getAttr(kProblemAttrName) == tag)
      starts.push_back(&op);
  // Grown through the ops of the problem only, as the outliner grew it
  // through the ops no other problem held.
  auto tagged = [&](Operation *op) {
    return op->getAttr(kProblemAttrName) == tag;
  };
  FusionGroup group;
  for (Operation *start : starts) {
    for (auto [epilogues, convolutions, prologues, attention] :
         kOutlineEpilogueVariants) {
      std::string why;
      if (failed(growFusionGroup(start, group, why, epilogues, convolutions,
                                 prologues, attention, tagged))) {
        if (start == member)
          whyNot = why;
        break;
      }
      if (int64_t(group.ops.size()) == fusedOps &&
          llvm::all_of(group.ops, [&](Operation *op) {
            return op->getAttr(kProblemAttrName) == tag;
          }))
        return group;
    }
  }
  if (!whyNot.empty())
    return failure();
  if (failed(growFusionGroup(member, group, whyNot, /*epilogues=*/false)))
    return failure();
  whyNot = llvm::formatv("the chain now has {0} ops, not the {1} tagged "
                         "ops of the problem",
                         group.ops.size(), fusedOps);
  return failure();
}

LogicalResult mlir::stark::replaceFusionGroupWithCall(
    const FusionGroup &group, func::FuncOp kernel, DictionaryAttr provenance) {
  Operation *last = group.ops.back();
  OpBuilder b(last);
  Location loc = last->getLoc();
  SmallVector<Value> args;
  for (Value v : group.inputs) {
    if (auto t = dyn_cast<RankedTensorType>(v.getType()))
      v = bufferization::ToBufferOp::create(b, loc, getBufferType(t), v,
                                            /*readOnly=*/true);
    args.push_back(v);
  }
  // The problem initialises every output it reads (fills are part of it).
  SmallVector<Value> buffers;
  for (Value v : group.outputs) {
    buffers.push_back(
        memref::AllocOp::create(b, loc, getBufferType(v.getType())));
    args.push_back(buffers.back());
  }
  if (TypeRange(ValueRange(args)) != kernel.getFunctionType().getInputs())
    return last->emitError("stark-substitute: the winner's arguments do not "
                           "match the inputs and outputs of the fused ops");
  auto call = func::CallOp::create(b, loc, kernel, args);
  call->setAttr(kWinnerAttrName, provenance);
  for (auto [output, buffer] : llvm::zip(group.outputs, buffers)) {
    Value v = output;
    v.replaceAllUsesWith(bufferization::ToTensorOp::create(
        b, loc, v.getType(), buffer, /*restrict=*/true, /*writable=*/true));
  }

  // Fills and empty tensors only the group used go with it (fills first:
  // they use the empty tensors).
  llvm::SetVector<Operation *> fills, empties;
  auto collect = [&](Operation *op) {
    for (Value v : op->getOperands()) {
      if (auto fill = v.getDefiningOp<linalg::FillOp>())
        fills.insert(fill);
      else if (auto empty = v.getDefiningOp<tensor::EmptyOp>())
        empties.insert(empty);
    }
  };
  for (Operation *op : group.ops)
    collect(op);
  for (Operation *op : llvm::reverse(group.ops))
    op->erase();
  for (size_t i = 0; i < fills.size(); ++i)
    if (Operation *fill = fills[i]; fill->use_empty()) {
      collect(fill);
      fill->erase();
    }
  for (Operation *empty : empties)
    if (empty->use_empty())
      empty->erase();
  return success();
}

std::optional<double> mlir::stark::getSearchedMicroseconds(ModuleOp problem) {
  if (auto winner = problem->getAttrOfType<WinnerAttr>(kWinnerAttrName)) {
    if (std::optional<APFloat> us = winner.getWinnerUs())
      return us->convertToDouble();
    return std::nullopt;
  }
  if (auto baseline = problem->getAttrOfType<FloatAttr>(kBaselineAttrName))
    return baseline.getValueAsDouble();
  return std::nullopt;
}

SmallVector<Operation *> mlir::stark::getOpsOfProblem(ModuleOp program,
                                                      StringAttr symbol,
                                                      StringRef attrName) {
  SmallVector<Operation *> ops;
  program->walk([&](Operation *op) {
    if (auto ref = op->getAttrOfType<FlatSymbolRefAttr>(attrName))
      if (ref.getAttr() == symbol)
        ops.push_back(op);
  });
  return ops;
}

SmallVector<UnfusedComparison>
mlir::stark::chooseFusedOrUnfused(ModuleOp program, double minSpeedup) {
  SmallVector<UnfusedComparison> comparisons;
  for (auto fused : program.getOps<ModuleOp>()) {
    auto refs = fused->getAttrOfType<ArrayAttr>(kUnfusedAttrName);
    if (!refs || !fused.getSymNameAttr())
      continue;
    UnfusedComparison c;
    c.fused = fused;
    c.fusedMicroseconds = getSearchedMicroseconds(fused);
    double sum = 0;
    bool timed = true;
    llvm::raw_string_ostream os(c.aloneSummary);
    for (auto [i, ref] :
         llvm::enumerate(refs.getAsRange<FlatSymbolRefAttr>())) {
      auto alone = program.lookupSymbol<ModuleOp>(ref.getAttr());
      std::optional<double> us =
          alone ? getSearchedMicroseconds(alone) : std::nullopt;
      if (alone)
        c.alone.push_back(alone);
      os << (i ? " + " : "") << ref;
      if (us)
        os << llvm::formatv(" ({0:f2} us)", *us);
      else
        os << " (not timed)";
      timed &= us.has_value();
      sum += us.value_or(0);
    }
    if (timed) {
      c.aloneMicroseconds = sum;
      os << llvm::formatv(" = {0:f2} us", sum);
    }
    c.unfused = c.fusedMicroseconds && c.aloneMicroseconds &&
                *c.aloneMicroseconds * minSpeedup < *c.fusedMicroseconds;
    if (c.unfused) {
      auto fusedRef = FlatSymbolRefAttr::get(fused.getSymNameAttr());
      program->walk([&](Operation *op) {
        auto own =
            op->getAttrOfType<FlatSymbolRefAttr>(kUnfusedProblemAttrName);
        if (!own || op->getAttr(kProblemAttrName) != fusedRef)
          return;
        op->setAttr(kProblemAttrName, own);
        auto ownProblem = program.lookupSymbol<ModuleOp>(own.getAttr());
        ProblemAttr info =
            ownProblem
                ? ownProblem->getAttrOfType<ProblemAttr>(kProblemAttrName)
                : ProblemAttr();
        // The fill the op's own problem owns goes with it (a fill the
        // chain's problem rebuilt carries the chain's tag, one outside any
        // ranking none).
        if (info && info.getFusedOps() > 1)
          if (linalg::FillOp fill = getOwnedInitFill(op);
              fill && (!fill->hasAttr(kProblemAttrName) ||
                       fill->getAttr(kProblemAttrName) == fusedRef))
            fill->setAttr(kProblemAttrName, own);
      });
    }
    comparisons.push_back(std::move(c));
  }
  return comparisons;
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::stark::outlineOneOpFusionGroup(const FusionGroup &group,
                                     std::string &whyNot) {
  FailureOr<OwningOpRef<ModuleOp>> problem = outlineFusionGroup(group, whyNot);
  if (failed(problem) || failed(getProblemView(**problem, whyNot)))
    return failure();
  return problem;
}
