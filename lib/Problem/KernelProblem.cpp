//===- KernelProblem.cpp - One hot op as a self-contained module ----------===//

#include "stark/Problem/KernelProblem.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

using namespace mlir;
using namespace mlir::stark;

static std::string shapeString(ShapedType t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  for (int64_t d : t.getShape())
    os << d << "x";
  os << t.getElementType();
  return s;
}

/// The memref type a problem argument gets for an operand of type `t`.
static MemRefType getArgumentType(ShapedType t) {
  return MemRefType::get(t.getShape(), t.getElementType());
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::stark::outlineKernelProblem(Operation *operation, std::string &whyNot,
                                  linalg::FillOp initFill) {
  auto op = dyn_cast<DestinationStyleOpInterface>(operation);
  if (!op || !(isa<linalg::LinalgOp>(operation) ||
               isa<linalg::SoftmaxOp>(operation))) {
    whyNot = "only linalg structured ops and linalg.softmax are outlined";
    return failure();
  }
  for (Type t : operation->getOperandTypes())
    if (auto shaped = dyn_cast<ShapedType>(t);
        shaped && !shaped.hasStaticShape()) {
      whyNot = "dynamic shape";
      return failure();
    }
  // Everything the op reads from outside must be a shaped operand or a
  // constant we can clone into the problem.
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(operation->getRegions(), captured);
  SmallVector<Value> scalarOperands;
  for (OpOperand &operand : operation->getOpOperands())
    if (!isa<ShapedType>(operand.get().getType()))
      captured.insert(operand.get());
  if (initFill)
    captured.insert(initFill.getInputs()[0]);
  for (Value v : captured) {
    if (!matchPattern(v, m_Constant())) {
      whyNot = "reads a value that is neither a shaped operand nor a "
               "constant";
      return failure();
    }
  }

  Location loc = operation->getLoc();
  MLIRContext *ctx = operation->getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder b = OpBuilder::atBlockBegin(module->getBody());

  SmallVector<Type> argTypes;
  SmallVector<Value> shapedOperands;
  for (OpOperand *in : op.getDpsInputOperands())
    if (auto t = dyn_cast<ShapedType>(in->get().getType())) {
      argTypes.push_back(getArgumentType(t));
      shapedOperands.push_back(in->get());
    }
  int64_t numOutputs = 0;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    auto t = cast<ShapedType>(init.get().getType());
    argTypes.push_back(getArgumentType(t));
    shapedOperands.push_back(init.get());
    ++numOutputs;
  }

  auto func = func::FuncOp::create(b, loc, kProblemEntryName,
                                   b.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);

  IRMapping mapping;
  for (auto [v, arg] : llvm::zip(shapedOperands, entry->getArguments()))
    mapping.map(v, arg);
  for (Value v : captured)
    mapping.map(v, b.clone(*v.getDefiningOp())->getResult(0));

  if (initFill)
    linalg::FillOp::create(b, initFill.getLoc(),
                           ValueRange{mapping.lookup(initFill.getInputs()[0])},
                           ValueRange{mapping.lookup(op.getDpsInits()[0])});

  SmallVector<Value> newOperands;
  for (OpOperand &operand : operation->getOpOperands())
    newOperands.push_back(mapping.lookup(operand.get()));
  Operation *clone =
      mlir::clone(b, operation, /*newResultTypes=*/{}, newOperands);
  for (Value v : captured)
    for (Region &region : clone->getRegions())
      replaceAllUsesInRegionWith(v, mapping.lookup(v), region);
  // Discardable attributes (stark.cost, markers of other passes) say
  // nothing about what the op computes and must not change the signature.
  clone->setDiscardableAttrs(DictionaryAttr::get(ctx));
  func::ReturnOp::create(b, loc);

  // Summary of the shapes for people; the signature is for machines.
  std::string shapes;
  {
    llvm::raw_string_ostream os(shapes);
    llvm::interleave(
        op.getDpsInputOperands(), os,
        [&](OpOperand *in) {
          if (auto t = dyn_cast<ShapedType>(in->get().getType()))
            os << shapeString(t);
          else
            os << in->get().getType();
        },
        ",");
    os << "->";
    llvm::interleave(
        op.getDpsInitsMutable(), os,
        [&](OpOperand &init) {
          os << shapeString(cast<ShapedType>(init.get().getType()));
        },
        ",");
  }

  std::string opName = op->getName().getStringRef().str();
  if (initFill)
    opName = "linalg.fill + " + opName;
  setProblemAttr(*module, numOutputs, opName, shapes, initFill ? 2 : 1);
  return module;
}

void mlir::stark::setProblemAttr(ModuleOp problem, int64_t numOutputs,
                                 StringRef op, StringRef shapes,
                                 int64_t fusedOps) {
  std::string signature = computeProblemSignature(problem);
  problem->setAttr(kProblemAttrName,
                   ProblemAttr::get(problem.getContext(), kProblemEntryName,
                                    fusedOps, numOutputs, op, shapes,
                                    signature));
}

std::string mlir::stark::computeProblemSignature(ModuleOp problem) {
  // Print a copy without the attribute that holds the signature itself and
  // without locations or names that depend on the surrounding program.
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(problem->clone());
  copy->getOperation()->removeAttr(kProblemAttrName);
  copy->setSymNameAttr(nullptr);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "stark-problem-v1\n";
  copy->print(os, OpPrintingFlags()
                      .printGenericOpForm()
                      .enableDebugInfo(false)
                      .useLocalScope());
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::toHex(ArrayRef<uint8_t>(digest).take_front(16),
                     /*LowerCase=*/true);
}
