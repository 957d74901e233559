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
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

/// `node` without the float extensions and truncations around it.
static int stripFloatCasts(const ScalarProgram &p, int node) {
  while (p.nodes[node].op == "arith.extf" || p.nodes[node].op == "arith.truncf")
    node = p.nodes[node].operands[0];
  return node;
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
  int a = stripFloatCasts(p, product.operands[0]);
  int b = stripFloatCasts(p, product.operands[1]);
  if (p.nodes[a].op != "arg" || p.nodes[b].op != "arg" ||
      p.nodes[a].position == p.nodes[b].position)
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
  int64_t ia = p.nodes[a].position, ib = p.nodes[b].position;
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
