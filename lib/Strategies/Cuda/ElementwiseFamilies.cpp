//===- ElementwiseFamilies.cpp - The elementwise and direct families ------===//
//
// Both families translate the payload into CUDA statements. Element-wise
// ops run a vectorised grid-stride loop over the output; the direct family
// is the literal linalg semantics (one thread per output point, reductions
// as sequential loops) and so applies to any op with linear maps: it is the
// kernel for depthwise convolutions, pooling and layouts nothing else fits.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"
#include "ParamTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

static SmallVector<unsigned> allLoops(const ProblemView &view) {
  return llvm::to_vector(llvm::seq<unsigned>(0, unsigned(view.numLoops())));
}

static SmallVector<unsigned> parallelLoops(const ProblemView &view) {
  SmallVector<unsigned> loops;
  for (unsigned d = 0; d < unsigned(view.numLoops()); ++d)
    if (!view.reductionLoops[d])
      loops.push_back(d);
  return loops;
}

/// Outputs must be written exactly once per point: dense over the parallel
/// loops in some order.
static LogicalResult checkOutputsDense(const ProblemView &view,
                                       std::string &whyNot) {
  SmallVector<unsigned> loops = parallelLoops(view);
  for (const OperandView &out : view.outputs) {
    SmallVector<unsigned> order = sortLoopsByStride(loops, out.access);
    if (!isDenseOver(out.access, order, view.loopRanges)) {
      whyNot = "an output is not a dense permutation of the parallel loops";
      return failure();
    }
  }
  return success();
}

static LogicalResult checkLinalgBody(const ProblemView &view,
                                     std::string &whyNot) {
  if (view.isSoftmax) {
    whyNot = "not a linalg structured op";
    return failure();
  }
  if (!view.body) {
    whyNot = view.whyNoBody;
    return failure();
  }
  if (view.outputs.empty()) {
    whyNot = "no output";
    return failure();
  }
  if (llvm::any_of(view.loopRanges, [](int64_t r) { return r <= 0; })) {
    whyNot = "empty loop range";
    return failure();
  }
  return success();
}

/// Whether `a` addresses exactly like `b` (same offset and coefficients).
static bool sameAccess(const LinearAccess &a, const LinearAccess &b) {
  return a.offset == b.offset && a.coefficients == b.coefficients;
}

//===----------------------------------------------------------------------===//
// Element-wise
//===----------------------------------------------------------------------===//

LogicalResult cudatpl::checkElementwiseApplies(const ProblemView &view,
                                               std::string &whyNot) {
  if (failed(checkLinalgBody(view, whyNot)))
    return failure();
  if (llvm::is_contained(view.reductionLoops, true)) {
    whyNot = "the op has reduction loops";
    return failure();
  }
  if (view.loopRanges.empty()) {
    whyNot = "the op has no loops";
    return failure();
  }
  return checkOutputsDense(view, whyNot);
}

namespace {
/// How one operand is read or written by a vector of V points that differ
/// only in the innermost traversed loop.
enum class VecAccess { Vector, Invariant, Strided };
} // namespace

static VecAccess classify(const LinearAccess &access, unsigned inner,
                          int64_t vec) {
  if (access.coefficients[inner] == 0)
    return VecAccess::Invariant;
  if (vec > 1 && access.coefficients[inner] == 1 &&
      isAlignedExcept(access, {inner}, vec))
    return VecAccess::Vector;
  return VecAccess::Strided;
}

static int64_t largestElementBytes(const ProblemView &view) {
  int64_t bytes = getWidestInputBytes(view);
  for (const OperandView &o : view.outputs)
    bytes = std::max(bytes, getElementKindBytes(o.kind));
  return bytes;
}

/// Whether `p` makes a valid element-wise kernel whose vectors run along
/// loop `inner`.
static LogicalResult checkElementwiseParams(const ProblemView &view,
                                            const ElementwiseParams &p,
                                            unsigned inner,
                                            std::string &whyNot) {
  if (p.block < 32 || p.block > 1024 || p.block % 32 || p.perThread < 1 ||
      p.perThread > 16 || p.vec < 1 || p.vec > 16 || (p.vec & (p.vec - 1))) {
    whyNot = "block must be a multiple of 32 in [32, 1024], vec a power of "
             "two up to 16, per_thread in [1, 16]";
    return failure();
  }
  if (view.loopRanges[inner] % p.vec != 0) {
    whyNot = llvm::formatv("vec={0} does not divide the innermost extent {1}",
                           p.vec, view.loopRanges[inner]);
    return failure();
  }
  if (p.vec * largestElementBytes(view) > 16) {
    whyNot = llvm::formatv("vec={0} makes accesses wider than 16 bytes", p.vec);
    return failure();
  }
  return success();
}

namespace {
/// The loops of an element-wise kernel: decoded in `order` from the chunk's
/// first point `p`, vectors along the innermost one.
struct ChunkLoops {
  const ProblemView &view;
  SmallVector<unsigned> order;
  SmallVector<std::string> names;
  unsigned inner;
  int64_t vec;

  /// The offset of `access` at the chunk's first point: `p` itself where
  /// it addresses like the first output.
  std::string offsetOf(const LinearAccess &access) const {
    if (sameAccess(access, view.outputs[0].access))
      return std::string("p");
    return emitLinearOffset(access, order, names, true);
  }
  /// The step of `access` between the points of a vector.
  std::string stride(const LinearAccess &access) const {
    return "(idx_t)(" + std::to_string(access.coefficients[inner]) + ")";
  }
};
} // namespace

/// Loads: one vector, one scalar or VEC scalars per operand the payload
/// reads; returns each operand's expression at point j of the vector.
static SmallVector<std::string> emitChunkLoads(llvm::raw_ostream &os,
                                               const ChunkLoops &loops) {
  const ProblemView &view = loops.view;
  unsigned numOps = view.inputs.size() + view.outputs.size();
  SmallVector<std::string> argExprs(numOps);
  for (unsigned i = 0; i < numOps; ++i) {
    bool isOut = i >= view.inputs.size();
    const OperandView &o =
        isOut ? view.outputs[i - view.inputs.size()] : view.inputs[i];
    if (o.argNumber < 0)
      continue; // a folded constant
    if (isOut && !view.body->usesArg(i))
      continue;
    VecAccess k = classify(o.access, loops.inner, loops.vec);
    std::string x = "x" + std::to_string(i);
    std::string t = getCudaStorageType(o.kind).str();
    std::string ptr = argName(o.argNumber), off = loops.offsetOf(o.access);
    std::string at = ptr + " + " + off;
    if (k == VecAccess::Invariant) {
      os << "    const " << t << " " << x << " = " << ptr << "[" << off
         << "];\n";
      argExprs[i] = "stark_widen(" + x + ")";
      continue;
    }
    os << "    const StarkVec<" << t << ", VEC> " << x << " = stark_kernels::";
    if (k == VecAccess::Vector)
      os << "loadVec<VEC>(" << at << ");\n";
    else
      os << "loadStrided<VEC>(" << at << ", " << loops.stride(o.access)
         << ");\n";
    argExprs[i] = "stark_widen(" + x + ".v[j])";
  }
  return argExprs;
}

/// The payload, once per point of the vector, into a vector per output.
static void emitChunkPayload(llvm::raw_ostream &os, const ChunkLoops &loops,
                             ArrayRef<std::string> argExprs) {
  const ProblemView &view = loops.view;
  SmallVector<std::string> results;
  SmallVector<std::string> indexNames(loops.names);
  indexNames[loops.inner] = "(" + loops.names[loops.inner] + " + j)";
  std::string body =
      emitScalarProgram(*view.body, argExprs, indexNames, "v", results);
  for (auto [k, out] : llvm::enumerate(view.outputs))
    os << "    StarkVec<" << getCudaStorageType(out.kind) << ", VEC> r" << k
       << ";\n";
  os << "#pragma unroll\n";
  os << "    for (int j = 0; j < VEC; ++j) {\n";
  emitLines(os, "      ", body);
  for (auto [k, out] : llvm::enumerate(view.outputs))
    os << "      r" << k << ".v[j] = stark_cast<"
       << getCudaStorageType(out.kind) << ">(" << results[k] << ");\n";
  os << "    }\n";
}

/// Stores: each output's vector at once where its points are neighbours.
static void emitChunkStores(llvm::raw_ostream &os, const ChunkLoops &loops) {
  for (auto [k, out] : llvm::enumerate(loops.view.outputs)) {
    std::string at =
        argName(out.argNumber) + " + " + loops.offsetOf(out.access);
    if (classify(out.access, loops.inner, loops.vec) == VecAccess::Vector)
      os << "    stark_kernels::storeVec<VEC>(" << at << ", r" << k << ");\n";
    else
      os << "    stark_kernels::storeStrided<VEC>(" << at << ", "
         << loops.stride(out.access) << ", r" << k << ");\n";
  }
}

FailureOr<CudaKernelPlan> mlir::stark::generateElementwiseKernel(
    const ProblemView &view, const ElementwiseParams &p, std::string &whyNot) {
  if (failed(checkElementwiseApplies(view, whyNot)))
    return failure();
  ChunkLoops loops{view,
                   sortLoopsByStride(allLoops(view), view.outputs[0].access),
                   loopNames(view), 0, p.vec};
  loops.inner = loops.order.back();
  if (failed(checkElementwiseParams(view, p, loops.inner, whyNot)))
    return failure();
  int64_t chunks = productOver(loops.order, view.loopRanges) / p.vec;

  // The grid-stride loop and the vector accesses are Loops.cuh; the part
  // written here decodes a chunk's point, classifies each operand's access
  // and evaluates the payload.
  std::string s = getCudaPrelude(view, {"Loops.cuh"});
  llvm::raw_string_ostream os(s);
  os << "// Element-wise " << view.opName << ": " << p.vec
     << " points per access along loop d" << loops.inner << ".\n";
  os << "typedef " << getIndexType(view) << " idx_t;\n";
  os << "constexpr long long CHUNKS = " << chunks << "LL;\n";
  os << "constexpr int VEC = " << p.vec << ", BLOCK = " << p.block
     << ", PER_THREAD = " << p.perThread << ";\n\n";
  os << "extern \"C\" __global__ void __launch_bounds__(BLOCK) "
        "stark_elementwise("
     << getKernelParameters(view) << ") {\n";
  os << "  stark_kernels::gridStride<CHUNKS, BLOCK, PER_THREAD>([&](long long "
        "chunk) {\n";
  os << "    const idx_t p = (idx_t)(chunk * VEC);\n";
  os << emitDecode("    ", "idx_t", "p", loops.order, view.loopRanges,
                   loops.names);
  SmallVector<std::string> argExprs = emitChunkLoads(os, loops);
  emitChunkPayload(os, loops, argExprs);
  emitChunkStores(os, loops);
  os << "  });\n}\n";
  os.flush();

  // Enough blocks for every chunk; the grid-stride loop covers the rest
  // when the grid is capped.
  return makeOneLaunchPlan(
      "elementwise", std::move(s), "stark_elementwise",
      {std::min<int64_t>(ceilDiv(chunks, p.block * p.perThread), int64_t(1)
                                                                     << 24),
       1, 1},
      {p.block, 1, 1});
}

std::vector<ElementwiseParams>
cudatpl::enumerateElementwise(const ProblemView &view,
                              const HardwareProfile &profile) {
  std::vector<ElementwiseParams> out;
  SmallVector<unsigned> order =
      sortLoopsByStride(allLoops(view), view.outputs[0].access);
  int64_t innerRange = view.loopRanges[order.back()];
  int64_t maxVec = 16 / largestElementBytes(view);
  SmallVector<int64_t> vecs;
  for (int64_t v = maxVec; v >= 1; v /= 2)
    if (innerRange % v == 0)
      vecs.push_back(v);
  int64_t maxThreads = getMaxBlockThreads(profile);
  int64_t total = productOver(order, view.loopRanges);
  int64_t sms = getNumUnits(profile);
  for (int64_t vec : vecs) {
    for (int64_t perThread : {1, 2, 4}) {
      for (int64_t block : {256, 128, 512, 1024}) {
        if (block > maxThreads)
          continue;
        // Skip shapes that leave most SMs idle when a smaller one would
        // not.
        int64_t blocks = ceilDiv(total / vec, block * perThread);
        if (blocks < sms && (perThread > 1 || block > 256) && !out.empty())
          continue;
        out.push_back({block, vec, perThread});
      }
    }
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Direct
//===----------------------------------------------------------------------===//

LogicalResult cudatpl::checkDirectApplies(const ProblemView &view,
                                          std::string &whyNot) {
  if (failed(checkLinalgBody(view, whyNot)))
    return failure();
  if (view.initValue && view.outputs.size() != 1) {
    whyNot = "a fill of one output of several";
    return failure();
  }
  if (view.initValue && !isFloatKind(view.outputs[0].kind)) {
    whyNot = "the output is filled, and is not a float";
    return failure();
  }
  return checkOutputsDense(view, whyNot);
}

FailureOr<CudaKernelPlan>
mlir::stark::generateDirectKernel(const ProblemView &view,
                                  const DirectParams &p, std::string &whyNot) {
  if (failed(checkDirectApplies(view, whyNot)))
    return failure();
  if (p.block < 32 || p.block > 1024 || p.block % 32) {
    whyNot = "block must be a multiple of 32 in [32, 1024]";
    return failure();
  }
  SmallVector<unsigned> par =
      sortLoopsByStride(parallelLoops(view), view.outputs[0].access);
  SmallVector<unsigned> red;
  for (unsigned d = 0; d < unsigned(view.numLoops()); ++d)
    if (view.reductionLoops[d])
      red.push_back(d);
  int64_t points = productOver(par, view.loopRanges);
  std::string idx = getIndexType(view);
  SmallVector<std::string> names = loopNames(view);
  const LinearAccess &primary = view.outputs[0].access;

  // The grid-stride loop is Loops.cuh; the part written here decodes the
  // point and runs the reduced loops of the payload in order.
  std::string s = getCudaPrelude(view, {"Loops.cuh"});
  llvm::raw_string_ostream os(s);
  os << "// Direct " << view.opName
     << ": one thread per output point, reductions in order.\n";
  os << "typedef " << idx << " idx_t;\n";
  os << "constexpr long long POINTS = " << points << "LL;\n";
  os << "constexpr int BLOCK = " << p.block << ";\n\n";
  os << "extern \"C\" __global__ void __launch_bounds__(BLOCK) stark_direct("
     << getKernelParameters(view) << ") {\n";
  os << "  stark_kernels::gridStride<POINTS, BLOCK, 1>([&](long long q) {\n";
  os << "    const idx_t p = (idx_t)q;\n";
  os << emitDecode("    ", "idx_t", "p", par, view.loopRanges, names);

  unsigned numIn = view.inputs.size();
  SmallVector<std::string> argExprs(numIn + view.outputs.size());
  // Accumulators start from the output when the payload reads it, or from
  // the fill value when the problem fills the output first (the output is
  // then never read).
  for (auto [k, out] : llvm::enumerate(view.outputs)) {
    std::string off = sameAccess(out.access, primary)
                          ? std::string("p")
                          : emitLinearOffset(out.access, par, names, true);
    os << "    const idx_t o" << k << " = " << off << ";\n";
    os << "    " << getCudaComputeType(out.kind) << " acc" << k;
    if (view.body->usesArg(numIn + k)) {
      if (view.initValue)
        os << " = "
           << emitScalarLiteral(out.kind == ElementKind::F64 ? ElementKind::F64
                                                             : ElementKind::F32,
                                *view.initValue, 0);
      else
        os << " = stark_widen(" << argName(out.argNumber) << "[o" << k << "])";
    }
    os << ";\n";
    argExprs[numIn + k] = "acc" + std::to_string(k);
  }
  // The parallel part of each input's address, once per point.
  for (auto [k, in] : llvm::enumerate(view.inputs)) {
    if (in.argNumber < 0)
      continue;
    os << "    const idx_t b" << k << " = "
       << emitLinearOffset(in.access, par, names, true) << ";\n";
  }
  std::string indent = "    ";
  for (unsigned d : red) {
    if (view.loopRanges[d] <= 8)
      os << "#pragma unroll\n";
    os << indent << "for (idx_t " << names[d] << " = 0; " << names[d] << " < "
       << view.loopRanges[d] << "; ++" << names[d] << ") {\n";
    indent += "  ";
  }
  for (auto [k, in] : llvm::enumerate(view.inputs)) {
    if (in.argNumber < 0)
      continue;
    std::string off = "b" + std::to_string(k);
    std::string extra = emitLinearOffset(in.access, red, names, false);
    if (extra != "0")
      off += " + " + extra;
    os << indent << "const " << getCudaComputeType(in.kind) << " x" << k
       << " = stark_widen(" << argName(in.argNumber) << "[" << off << "]);\n";
    argExprs[k] = "x" + std::to_string(k);
  }
  SmallVector<std::string> results;
  std::string body =
      emitScalarProgram(*view.body, argExprs, names, "v", results);
  emitLines(os, indent, body);
  for (unsigned k = 0; k < view.outputs.size(); ++k)
    os << indent << "acc" << k << " = " << results[k] << ";\n";
  for (size_t i = 0; i < red.size(); ++i) {
    indent.resize(indent.size() - 2);
    os << indent << "}\n";
  }
  for (auto [k, out] : llvm::enumerate(view.outputs))
    os << "    " << argName(out.argNumber) << "[o" << k << "] = stark_cast<"
       << getCudaStorageType(out.kind) << ">(acc" << k << ");\n";
  os << "  });\n}\n";

  return makeOneLaunchPlan(
      "direct", std::move(s), "stark_direct",
      {std::min<int64_t>(ceilDiv(points, p.block), int64_t(1) << 24), 1, 1},
      {p.block, 1, 1});
}

std::vector<DirectParams>
cudatpl::enumerateDirect(const ProblemView &view,
                         const HardwareProfile &profile) {
  std::vector<DirectParams> out;
  int64_t maxThreads = getMaxBlockThreads(profile);
  int64_t points = view.numParallelPoints();
  int64_t sms = getNumUnits(profile);
  // Small grids: smaller blocks spread over more SMs.
  SmallVector<int64_t> blocks = points < sms * 256
                                    ? SmallVector<int64_t>{64, 128, 32, 256}
                                    : SmallVector<int64_t>{256, 128, 512, 64};
  for (int64_t b : blocks)
    if (b <= maxThreads)
      out.push_back({b});
  return out;
}

//===----------------------------------------------------------------------===//
// The families
//===----------------------------------------------------------------------===//

std::unique_ptr<StrategyFamily> mlir::stark::createElementwiseFamily() {
  using P = ElementwiseParams;
  static const ParamField<P> fields[] = {
      {"block", &P::block}, {"vec", &P::vec}, {"per_thread", &P::perThread}};
  return makeFunctionFamily<P>(
      "elementwise", fields, {}, rankOnly(RankingKind::Other, kElementwise),
      checkElementwiseApplies, enumerateElementwise, generateElementwiseKernel);
}

std::unique_ptr<StrategyFamily> mlir::stark::createDirectFamily() {
  using P = DirectParams;
  static const ParamField<P> fields[] = {{"block", &P::block}};
  // First for a window per output, last for anything else.
  auto rank = [](const ProblemView &view, bool) -> std::optional<unsigned> {
    switch (getRankingKind(view)) {
    case RankingKind::Window:
      return kFirst;
    case RankingKind::Other:
      return kDirect;
    default:
      return std::nullopt;
    }
  };
  // Each thread starts its accumulator from the fill value.
  return makeFunctionFamily<P>("direct", fields, {/*initValue=*/true}, rank,
                               checkDirectApplies, enumerateDirect,
                               generateDirectKernel);
}
