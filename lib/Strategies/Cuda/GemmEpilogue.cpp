//===- GemmEpilogue.cpp - A contraction's epilogue in the GEMM store stage ===//
//
// A problem that is a contraction followed by element-wise ops (matmul +
// bias + GELU) runs as one GEMM whose store stage evaluates the rest of the
// chain: the kernels hand each accumulated value to their layout, which
// decodes the output point, reads the epilogue's other inputs there,
// computes the chain in f32 through the shared payload translation
// (emitScalarProgram) and stores the output element once. The intermediate
// result of the contraction never goes through memory.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"

#include "stark/Strategies/CudaCodegen.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

bool cudatpl::isEpilogueOutputKind(ElementKind kind) {
  return kind == ElementKind::F32 || kind == ElementKind::F16 ||
         kind == ElementKind::BF16;
}

/// Which of the problem's inputs the program reads from `roots`, but for
/// `loaded` (the operand a prologue gets from the kernel).
static SmallVector<bool> getProgramReads(const ProblemView &view,
                                         ArrayRef<int> roots,
                                         int64_t loaded = -1) {
  const EpilogueView &e = *view.epilogue;
  SmallVector<bool> live = e.program.reachable(roots);
  SmallVector<bool> read(view.inputs.size(), false);
  for (auto [i, node] : llvm::enumerate(e.program.nodes))
    if (live[i] && node.op == "arg" && node.position < e.accumulator &&
        node.position != loaded)
      read[node.position] = true;
  return read;
}

/// Which of the problem's inputs the epilogue and the operand prologues
/// read through pointers (A and B feed the accumulated sum; a prologue gets
/// its own operand from the kernel).
static SmallVector<bool> getEpilogueReads(const ProblemView &view) {
  const EpilogueView &e = *view.epilogue;
  SmallVector<bool> read = getProgramReads(view, e.outputNodes);
  for (auto [node, loaded] :
       {std::pair<int, int64_t>{e.aPrologue, 0}, {e.bPrologue, 1}})
    if (node >= 0)
      for (auto [i, r] : llvm::enumerate(getProgramReads(view, {node}, loaded)))
        read[i] = read[i] || r;
  return read;
}

/// Statements that decode the GEMM coordinates of `groups` (a variable and
/// the loops it stands for, outermost first) into the loop indices `names`
/// and read each input marked in `read` there, as `args[i]` ("x<i>").
static std::string
emitPointReads(const ProblemView &view, StringRef indexType,
               ArrayRef<std::pair<StringRef, ArrayRef<unsigned>>> groups,
               ArrayRef<bool> read, ArrayRef<std::string> names,
               MutableArrayRef<std::string> args) {
  std::string s;
  SmallVector<unsigned> loops;
  for (auto [var, group] : groups) {
    s += emitDecode("    ", indexType, "(" + indexType.str() + ")" + var.str(),
                    group, view.loopRanges, names);
    loops.append(group.begin(), group.end());
  }
  for (auto [i, in] : llvm::enumerate(view.inputs)) {
    if (!read[i])
      continue;
    args[i] = "x" + std::to_string(i);
    s += "    const " + getCudaComputeType(in.kind).str() + " " + args[i] +
         " = stark_widen(" + argName(in.argNumber) + "[" +
         emitLinearOffset(in.access, loops, names, true) + "]);\n";
  }
  return s;
}

/// The members of StarkStore for the operand prologues: the flags and, for
/// each prologue, `prologue_<name>(b, <rows>, <cols>, x)`.
static std::string emitPrologueMembers(const ProblemView &view,
                                       StringRef indexType) {
  const ContractionView &c = *view.contraction;
  const EpilogueView &e = *view.epilogue;
  std::string s = "  static constexpr bool kPrologueA = ";
  s += e.aPrologue >= 0 ? "true" : "false";
  s += ", kPrologueB = ";
  s += e.bPrologue >= 0 ? "true" : "false";
  s += ";\n";
  SmallVector<std::string> names;
  for (int64_t d = 0; d < view.numLoops(); ++d)
    names.push_back("l" + std::to_string(d));
  struct Side {
    int node;
    int64_t loaded;
    StringRef fn, rows, cols;
    ArrayRef<unsigned> rowLoops, colLoops;
  };
  for (const Side &side :
       {Side{e.aPrologue, 0, "prologue_a", "m", "k", c.mLoops, c.kLoops},
        Side{e.bPrologue, 1, "prologue_b", "k", "n", c.kLoops, c.nLoops}}) {
    if (side.node < 0)
      continue;
    s += "  // The element-wise ops computing operand ";
    s += side.loaded == 0 ? "A" : "B";
    s += " from the value loaded.\n";
    s += "  __device__ __forceinline__ float " + side.fn.str() +
         "(int b, int " + side.rows.str() + ", int " + side.cols.str() +
         ", float x) const {\n";
    SmallVector<bool> read = getProgramReads(view, {side.node}, side.loaded);
    SmallVector<std::string> args(e.program.argKinds.size());
    args[side.loaded] = "x";
    s += emitPointReads(view, indexType,
                        {{"b", c.batchLoops},
                         {side.rows, side.rowLoops},
                         {side.cols, side.colLoops}},
                        read, names, args);
    SmallVector<std::string> results;
    std::string body = emitScalarProgram(
        e.program, args, names, "p" + side.rows.str(), results, {side.node});
    {
      llvm::raw_string_ostream os(s);
      emitLines(os, "    ", body);
    }
    s += "    return (float)(" + results[0] + ");\n  }\n";
  }
  return s;
}

std::string cudatpl::emitEpilogueLayoutMembers(const ProblemView &view,
                                               StringRef indexType) {
  const ContractionView &c = *view.contraction;
  const EpilogueView &e = *view.epilogue;
  const OperandView &out = view.outputs[0];
  SmallVector<bool> read = getEpilogueReads(view);

  std::string s = "  // The epilogue: the ops after the contraction, per "
                  "output element.\n";
  s += "  static constexpr bool kEpilogue = true;\n";
  for (auto [i, in] : llvm::enumerate(view.inputs))
    if (read[i])
      s += "  const " + getCudaStorageType(in.kind).str() + " *" +
           argName(in.argNumber) + " = nullptr;\n";
  s += "  " + getCudaStorageType(out.kind).str() + " *" +
       argName(out.argNumber) + " = nullptr;\n";
  s += "  __device__ __forceinline__ void epilogue(int b, int m, int n, "
       "float acc) const {\n";
  SmallVector<std::string> names;
  for (int64_t d = 0; d < view.numLoops(); ++d)
    names.push_back("l" + std::to_string(d));
  SmallVector<std::string> args(e.program.argKinds.size());
  s += emitPointReads(view, indexType,
                      {{"b", c.batchLoops}, {"m", c.mLoops}, {"n", c.nLoops}},
                      getProgramReads(view, e.outputNodes), names, args);
  args[e.accumulator] = "acc";
  SmallVector<std::string> results;
  std::string body =
      emitScalarProgram(e.program, args, names, "e", results, e.outputNodes);
  {
    llvm::raw_string_ostream os(s);
    emitLines(os, "    ", body);
  }
  s += "    " + argName(out.argNumber) + "[c_off(b, m, n)] = stark_cast<" +
       getCudaStorageType(out.kind).str() + ">(" + results[0] + ");\n";
  s += "  }\n";
  return s;
}

std::string cudatpl::emitEpilogueLayoutBinding(const ProblemView &view,
                                               StringRef lay) {
  SmallVector<bool> read = getEpilogueReads(view);
  std::string s;
  auto bind = [&](int64_t argNumber) {
    std::string name = argName(argNumber);
    s += "  " + lay.str() + "." + name + " = " + name + ";\n";
  };
  for (auto [i, in] : llvm::enumerate(view.inputs))
    if (read[i])
      bind(in.argNumber);
  bind(view.outputs[0].argNumber);
  return s;
}

std::string cudatpl::emitStoreStruct(const ProblemView &view,
                                     StringRef cOffBody) {
  std::string s = "struct StarkStore {\n";
  s += "  static constexpr bool kStore = true;\n";
  if (view.epilogue && view.epilogue->hasPrologue())
    s += emitPrologueMembers(view, getIndexType(view));
  else
    s += "  static constexpr bool kPrologueA = false, kPrologueB = false;\n";
  s += "  __device__ __forceinline__ long long c_off(int b, int m, int n) "
       "const { return " +
       cOffBody.str() + "; }\n";
  if (view.epilogue) {
    s += emitEpilogueLayoutMembers(view, getIndexType(view));
    s += "  __device__ __forceinline__ void store(int b, int m, int n, float "
         "x) const { epilogue(b, m, n, x); }\n";
  } else {
    StringRef out = getCudaStorageType(view.outputs[0].kind);
    s += "  " + out.str() + " *C = nullptr;\n";
    s += "  __device__ __forceinline__ void store(int b, int m, int n, float "
         "x) const { C[c_off(b, m, n)] = stark_cast<" +
         out.str() + ">(C_INIT + x); }\n";
  }
  return s + "};\n";
}

std::string cudatpl::emitStoreBinding(const ProblemView &view, StringRef var) {
  if (view.epilogue)
    return emitEpilogueLayoutBinding(view, var);
  return "  " + var.str() + ".C = " + argName(view.outputs[0].argNumber) +
         ";\n";
}
