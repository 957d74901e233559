//===- EpilogueView.cpp - A contraction and its epilogue as one GEMM ------===//
//
// A fused problem whose chain is a contraction (or a convolution, an
// implicit GEMM whose input is read at oh * stride + kh) followed by
// element-wise ops is read as one computation first (FusedView.cpp: the
// contraction is a reduction over its k loops of the product of two
// inputs, the epilogue a program of the reduction's result). Here that reading
// becomes a GEMM over the row loops (batch, m, n) with the k loops as its
// reduction, and the rest of the program, evaluated once per output element
// from the accumulated sum, as its epilogue.
//
//===----------------------------------------------------------------------===//

#include "FusedView.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

/// `node` without the float extensions and truncations around it.
static int stripFloatCasts(const ScalarProgram &p, int node) {
  while (p.nodes[node].op == "arith.extf" || p.nodes[node].op == "arith.truncf")
    node = p.nodes[node].operands[0];
  return node;
}

/// Reads the factor `node` of the contraction's product: an input (`arg` its
/// position, `prologue` -1) or element-wise ops of inputs computed in f32
/// (`prologue` the node), of which `arg` is the one read at every point of
/// the operand (the others read at fewer loops: broadcasts along the
/// operand). Fails for a factor that reads a loop index, a reduction or no
/// such input.
static LogicalResult readOperand(const ScalarProgram &p,
                                 const ProblemView &view, int node,
                                 int64_t &arg, int &prologue,
                                 std::string &whyNot) {
  int stripped = stripFloatCasts(p, node);
  if (p.nodes[stripped].op == "arg") {
    arg = p.nodes[stripped].position;
    prologue = -1;
    return success();
  }
  SmallVector<bool> reached = p.reachable({node});
  SmallVector<int64_t> args;
  for (auto [i, n] : llvm::enumerate(p.nodes)) {
    if (!reached[i])
      continue;
    if (n.op == "index" || n.op == "reduce" || n.op == "reduce_index") {
      whyNot = "the ops computing an operand read a loop index or a reduction";
      return failure();
    }
    // Inputs are widened as they are read; what the ops compute is f32.
    if (n.op != "arg" && n.kind != ElementKind::F32 &&
        n.kind != ElementKind::I1) {
      whyNot = "the ops computing an operand are not all in f32";
      return failure();
    }
    if (n.op == "arg" && !llvm::is_contained(args, n.position))
      args.push_back(n.position);
  }
  if (args.empty()) {
    whyNot = "an operand of the contraction is computed from no input";
    return failure();
  }
  // The loops each input is read along; the one read along most is the
  // operand's.
  SmallVector<llvm::SmallBitVector> loops;
  for (int64_t input : args) {
    loops.emplace_back(view.numLoops());
    for (int64_t d = 0; d < view.numLoops(); ++d)
      loops.back()[d] = view.inputs[input].access.dependsOn(unsigned(d));
  }
  size_t main = 0;
  for (size_t i = 1; i < args.size(); ++i)
    if (loops[i].count() > loops[main].count())
      main = i;
  arg = args[main];
  for (const llvm::SmallBitVector &read : loops) {
    if ((read & loops[main]) != read) {
      whyNot = "no input of the ops computing an operand is read at every "
               "point of it";
      return failure();
    }
  }
  prologue = node;
  return success();
}

LogicalResult mlir::stark::detail::analyzeEpilogueProblem(Operation *func,
                                                          ProblemView &view,
                                                          std::string &whyNot) {
  if (failed(analyzeFusedProblem(func, view, whyNot)))
    return failure();
  auto fail = [&](const Twine &why) {
    whyNot = ("contraction epilogue: " + why).str();
    return failure();
  };
  FusedView fused = std::move(*view.fused);
  view.fused.reset();
  if (fused.reductions.size() != 1 || fused.reductions[0].combiner != "add")
    return fail("the chain holds a reduction besides the contraction");
  const ScalarProgram &p = fused.program;
  const ScalarNode &product = p.nodes[fused.reductions[0].preNode];
  if (product.op != "arith.mulf")
    return fail("the contraction does not sum a product");
  // Each factor is an input, or element-wise ops of inputs (a prologue).
  int64_t ia = -1, ib = -1;
  int aPrologue = -1, bPrologue = -1;
  if (failed(
          readOperand(p, view, product.operands[0], ia, aPrologue, whyNot)) ||
      failed(readOperand(p, view, product.operands[1], ib, bPrologue, whyNot)))
    return fail(whyNot);
  if (ia == ib)
    return fail("the contraction's product is not of two inputs");
  if (view.outputs.size() != 1)
    return fail("the epilogue writes several outputs");

  // The epilogue is evaluated once per output element: nothing it reads may
  // move along k.
  SmallVector<bool> perPoint = fused.perPoint(view);
  SmallVector<bool> live = p.reachable(fused.outputNodes);
  for (auto [i, node] : llvm::enumerate(p.nodes))
    if (live[i] && perPoint[i])
      return fail("the epilogue reads along the contraction's k loops");
  if (llvm::any_of(fused.columnLoops, [&](unsigned d) {
        return view.outputs[0].access.dependsOn(d);
      }))
    return fail("the output depends on the contraction's k loops");

  // The GEMM: A and B first among the inputs, the chain's output as C.
  SmallVector<int64_t> order = {ia, ib};
  for (int64_t i = 0; i < int64_t(view.inputs.size()); ++i)
    if (i != ia && i != ib)
      order.push_back(i);
  SmallVector<int64_t> newPosition(view.inputs.size());
  SmallVector<OperandView> inputs;
  for (auto [to, from] : llvm::enumerate(order)) {
    newPosition[from] = int64_t(to);
    inputs.push_back(view.inputs[from]);
  }
  view.inputs = std::move(inputs);
  ProblemView gemm;
  gemm.loopRanges = view.loopRanges;
  gemm.reductionLoops = view.reductionLoops;
  gemm.inputs = {view.inputs[0], view.inputs[1]};
  gemm.outputs = {view.outputs[0]};
  std::string why;
  FailureOr<ContractionView> contraction = analyzeContractionLoops(gemm, why);
  if (failed(contraction))
    return fail(why);

  // The epilogue: the program with the reduction's result as an argument.
  EpilogueView epilogue;
  epilogue.program = p;
  epilogue.accumulator = int64_t(view.inputs.size());
  for (ScalarNode &node : epilogue.program.nodes) {
    if (node.op == "arg") {
      node.position = newPosition[node.position];
    } else if (node.op == "reduce") {
      node.op = "arg";
      node.kind = ElementKind::F32;
      node.position = epilogue.accumulator;
    }
  }
  epilogue.program.argKinds.clear();
  for (const OperandView &in : view.inputs)
    epilogue.program.argKinds.push_back(in.kind);
  epilogue.program.argKinds.push_back(ElementKind::F32);
  epilogue.program.yields = fused.outputNodes;
  epilogue.outputNodes = fused.outputNodes;
  epilogue.aPrologue = aPrologue;
  epilogue.bPrologue = bPrologue;
  epilogue.numOps = fused.numOps;

  contraction->initValue = 0.0;
  view.contraction = *contraction;
  view.initValue = 0.0;
  view.epilogue = std::move(epilogue);
  view.opClass = OpClass::Contraction;
  view.body.reset();
  view.whyNoBody = "a contraction with its epilogue is no single payload";
  view.reduction.reset();
  return success();
}
