//===- FusedRowsFamily.cpp - Fused chains of reductions over rows ---------===//
//
// The fused_rows family runs a fused chain with reductions (FusedView: a
// log-softmax, a mean, a norm with its affine part and activation, the
// reduction after an element-wise epilogue) as one kernel: `lanes` threads
// per row walk the row once per reduction, evaluating the chain's payload
// from the inputs, combine their accumulators (Lanes.cuh), and then write
// the row's outputs. Temporaries of the chain are never stored: each is
// recomputed where it is read. One thread per row (`lanes` = 1) suits rows
// whose elements are far apart in memory (a reduction over a middle
// dimension), where neighbouring rows are neighbours in memory; `split`
// threads then share each such row, walking every split-th element and
// combining through shared memory, so that a few thousand rows of
// hundreds of elements still keep enough loads in flight.
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

namespace {
struct FusedRowsParams {
  int64_t lanes = 256, rows = 1;
  /// Each lane keeps its elements of the inputs read along the row in
  /// registers: the first walk loads them, the later walks reuse them.
  int64_t cache = 0;
  /// With one lane per row: threads per row, each walking every split-th
  /// element (threadIdx.x is then the row in the block, threadIdx.y the
  /// part of the row).
  int64_t split = 1;
};

/// The most registers a lane's cache may take.
constexpr int64_t kMaxCachedPerLane = 32;

/// The element of `operand` at the current point of the fused loops (named
/// `loopNames`): `argN[offset]`.
static std::string emitElement(const ProblemView &view,
                               const OperandView &operand,
                               ArrayRef<std::string> loopNames) {
  SmallVector<unsigned> all =
      llvm::to_vector(llvm::seq<unsigned>(0, unsigned(view.numLoops())));
  return argName(operand.argNumber) + "[" +
         emitLinearOffset(operand.access, all, loopNames, true) + "]";
}

/// Emits the nodes of a fused program: row values once per row, values per
/// point inside each walk over a row.
class FusedEmitter {
public:
  FusedEmitter(const ProblemView &view, llvm::raw_ostream &os)
      : view(view), fused(*view.fused), os(os), perPoint(fused.perPoint(view)),
        names(fused.program.nodes.size()), loopNames(cudatpl::loopNames(view)) {
  }

  /// Declares the row values `roots` depend on that are not declared yet.
  void emitRowValues(ArrayRef<int> roots, StringRef indent) {
    SmallVector<bool> live = fused.program.reachable(roots);
    for (auto [i, node] : llvm::enumerate(fused.program.nodes))
      if (live[i] && !perPoint[i] && names[i].empty())
        emitNode(int(i), indent, "r");
  }

  /// Declares, in a walk's body, the values per point `roots` depend on.
  void emitPointValues(ArrayRef<int> roots, StringRef indent,
                       StringRef prefix) {
    SmallVector<bool> live = fused.program.reachable(roots);
    for (auto [i, node] : llvm::enumerate(fused.program.nodes))
      if (live[i] && perPoint[i])
        emitNode(int(i), indent, prefix);
  }

  /// Walks read the inputs in `cached` through `cache<input>[slot]` once a
  /// walk has loaded them (`slot`: the lane's slot t in registers, or the
  /// row position c in shared memory).
  void setCached(ArrayRef<bool> cachedInputs, StringRef slot) {
    cached.assign(cachedInputs.begin(), cachedInputs.end());
    loaded.assign(cached.size(), false);
    cacheIndex = slot.str();
  }

  /// Marks every cached input as loaded: a walk before the first stored
  /// them.
  void setAllLoaded() { loaded.assign(cached.size(), true); }

  /// Forgets the values of a walk once its body closes.
  void endWalk() {
    for (auto [i, name] : llvm::enumerate(names))
      if (perPoint[i])
        name.clear();
  }

  std::string nameOf(int node) const { return names[node]; }
  void setName(int node, std::string name) { names[node] = std::move(name); }

private:
  void emitNode(int i, StringRef indent, StringRef prefix) {
    const ScalarNode &node = fused.program.nodes[i];
    if (node.op == "const") {
      names[i] = emitScalarLiteral(node.kind, node.floatValue, node.intValue);
      return;
    }
    if (node.op == "reduce" || node.op == "reduce_index") {
      assert(!names[i].empty() && "a reduction's result before its walk");
      return;
    }
    std::string expr;
    std::string cacheSlot;
    if (node.op == "arg") {
      expr = "stark_widen(" +
             emitElement(view, view.inputs[node.position], loopNames) + ")";
      if (!cached.empty() && cached[node.position]) {
        cacheSlot =
            "cache" + std::to_string(node.position) + "[" + cacheIndex + "]";
        if (loaded[node.position]) {
          expr = cacheSlot;
          cacheSlot.clear();
        }
        loaded[node.position] = true;
      }
    } else if (node.op == "index") {
      expr = "(long long)(" + loopNames[node.position] + ")";
    } else {
      SmallVector<std::string> operands;
      for (int o : node.operands)
        operands.push_back(names[o]);
      expr = emitScalarOp(fused.program, node, operands);
    }
    names[i] = (prefix + Twine(i)).str();
    os << indent << "const " << getCudaComputeType(node.kind) << " " << names[i]
       << " = " << expr << ";\n";
    if (!cacheSlot.empty())
      os << indent << cacheSlot << " = " << names[i] << ";\n";
  }

  const ProblemView &view;
  const FusedView &fused;
  llvm::raw_ostream &os;
  SmallVector<bool> perPoint;
  SmallVector<std::string> names;
  SmallVector<std::string> loopNames;
  SmallVector<bool> cached, loaded;
  std::string cacheIndex;
};
} // namespace

/// The input that sets the order of the walks: the largest one read per
/// point.
static const OperandView *getPrimaryInput(const ProblemView &view) {
  const OperandView *primary = nullptr;
  auto elements = [](const OperandView &o) {
    int64_t n = 1;
    for (int64_t d : o.shape)
      n *= d;
    return n;
  };
  for (const OperandView &in : view.inputs) {
    if (llvm::none_of(view.fused->columnLoops,
                      [&](unsigned d) { return in.access.dependsOn(d); }))
      continue;
    if (!primary || elements(in) > elements(*primary))
      primary = &in;
  }
  return primary;
}

/// The inputs a lane caches: those read per point of a row that differ from
/// row to row (a vector along the row is shared by every row and stays in
/// the caches of the memory hierarchy).
static SmallVector<bool> getCachedInputs(const ProblemView &view) {
  SmallVector<bool> cached;
  for (const OperandView &in : view.inputs)
    cached.push_back(
        llvm::any_of(view.fused->columnLoops,
                     [&](unsigned d) { return in.access.dependsOn(d); }) &&
        llvm::any_of(view.fused->rowLoops,
                     [&](unsigned d) { return in.access.dependsOn(d); }));
  return cached;
}

/// Bytes of shared memory a row of input `i` takes when cached (cache=2),
/// in its compute type, 16-byte aligned.
static int64_t getCachedRowBytes(const ProblemView &view, size_t i) {
  int64_t bytes =
      view.fused->length *
      std::max<int64_t>(4, getElementKindBytes(view.inputs[i].kind));
  return (bytes + 15) / 16 * 16;
}

/// Bytes of shared memory the cached inputs of `rows` rows take (cache=2).
static int64_t getCacheSharedBytes(const ProblemView &view, int64_t rows) {
  int64_t bytes = 0;
  for (auto [i, c] : llvm::enumerate(getCachedInputs(view)))
    if (c)
      bytes += getCachedRowBytes(view, i);
  return bytes * rows;
}

/// Registers per lane the cache takes with `lanes` lanes per row.
static int64_t getCacheRegisters(const ProblemView &view, int64_t lanes) {
  int64_t slots = ceilDiv(view.fused->length, lanes);
  return slots * llvm::count(getCachedInputs(view), true);
}

static LogicalResult checkFusedRowsApplies(const ProblemView &view,
                                           std::string &whyNot) {
  if (!view.fused) {
    whyNot = "not a fused chain";
    return failure();
  }
  if (view.fused->reductions.empty()) {
    whyNot = "the fused chain has no reduction (the element-wise families "
             "take it)";
    return failure();
  }
  if (llvm::any_of(view.loopRanges, [](int64_t r) { return r <= 0; })) {
    whyNot = "empty loop range";
    return failure();
  }
  return success();
}

/// Whether `p` makes a valid fused_rows kernel for `view`: lanes, rows and
/// split give whole warps, and the cache of rows fits where it is kept.
static LogicalResult checkFusedRowsParams(const ProblemView &view,
                                          const FusedRowsParams &p,
                                          std::string &whyNot) {
  bool lanesOk = p.lanes == 1 || (p.lanes >= 32 && p.lanes <= 1024 &&
                                  (p.lanes & (p.lanes - 1)) == 0);
  int64_t threads = p.lanes * p.rows * p.split;
  bool splitOk =
      p.split == 1 || (p.lanes == 1 && p.cache == 0 && p.split >= 2 &&
                       p.split <= 32 && (p.split & (p.split - 1)) == 0);
  if (!splitOk) {
    whyNot = "split must be 1, or a power of two in [2, 32] with lanes 1 "
             "and cache 0";
    return failure();
  }
  if (!lanesOk || p.rows < 1 || threads > 1024 || threads % 32 ||
      (p.lanes > 32 && p.rows != 1)) {
    whyNot = "lanes must be 1 or a power of two in [32, 1024]; lanes x rows "
             "a multiple of 32 up to 1024; rows 1 when lanes exceed 32";
    return failure();
  }
  if (p.cache < 0 || p.cache > 2) {
    whyNot = "cache must be 0 (none), 1 (registers) or 2 (shared memory)";
    return failure();
  }
  if (p.cache == 2 && (p.lanes == 1 || getCacheSharedBytes(view, p.rows) == 0 ||
                       getCacheSharedBytes(view, p.rows) > kMaxRowCacheBytes)) {
    whyNot = llvm::formatv("cache=2 needs lanes along the row, a row input "
                           "and at most {0} bytes of cached rows per block",
                           kMaxRowCacheBytes);
    return failure();
  }
  if (p.cache == 1 &&
      (p.lanes == 1 || getCacheRegisters(view, p.lanes) > kMaxCachedPerLane ||
       getCacheRegisters(view, p.lanes) == 0)) {
    whyNot = llvm::formatv("cache=1 needs lanes along the row, a row input "
                           "and at most {0} cached elements per lane",
                           kMaxCachedPerLane);
    return failure();
  }
  return success();
}

static std::string getValueType(const FusedReduction &r) {
  return getCudaComputeType(r.accumulatorKind).str();
}

/// The accumulator of a reduction: an argmax or argmin carries the position
/// with the value (Lanes.cuh).
static std::string getAccType(const FusedReduction &r) {
  return r.isArgReduction() ? "stark_kernels::ArgState<" + getValueType(r) + ">"
                            : getValueType(r);
}

static std::string emitFusedCombine(const FusedReduction &r, StringRef a,
                                    StringRef b) {
  if (r.isArgReduction())
    return (Twine("stark_kernels::") +
            (r.combiner == "argmax" ? "argMax(" : "argMin(") + a + ", " + b +
            ")")
        .str();
  return emitCombine(r.combiner, r.accumulatorKind, a, b);
}

static std::string emitFusedIdentity(const FusedReduction &r) {
  if (r.isArgReduction())
    return getAccType(r) + "{" +
           emitCombineIdentity(r.combiner == "argmax" ? "max" : "min",
                               r.accumulatorKind) +
           ", 9223372036854775807LL}";
  return emitCombineIdentity(r.combiner, r.accumulatorKind);
}

/// Whether output `out` has an element per point of a row, not one per row.
static bool isPerPointOutput(const FusedView &fused, const OperandView &out) {
  return llvm::any_of(fused.columnLoops,
                      [&](unsigned d) { return out.access.dependsOn(d); });
}

namespace {
/// Writes a fused_rows kernel in the order of its source: the constants,
/// the loop over rows, the cache of the row's inputs, a walk over the row
/// per reduction and the outputs.
class FusedRowsWriter {
public:
  FusedRowsWriter(const ProblemView &view, const FusedRowsParams &p,
                  llvm::raw_ostream &os)
      : view(view), fused(*view.fused), p(p), os(os), split(p.split > 1),
        names(loopNames(view)), rowOrder(fused.rowLoops),
        colOrder(fused.columnLoops), emit(view, os) {
    // The walks follow the largest input's layout.
    if (const OperandView *primary = getPrimaryInput(view)) {
      rowOrder = sortLoopsByStride(rowOrder, primary->access);
      colOrder = sortLoopsByStride(colOrder, primary->access);
    }
  }

  /// What the kernel computes and its constants.
  void emitConstants() {
    os << "// Fused rows " << view.opName << ": " << fused.rows << " rows of "
       << fused.length << ", " << fused.reductions.size() << " reduction"
       << (fused.reductions.size() == 1 ? "" : "s") << "; " << p.lanes
       << " lane" << (p.lanes == 1 ? "" : "s") << " per row, " << p.rows
       << " row" << (p.rows == 1 ? "" : "s") << " per block.\n";
    os << "typedef " << getIndexType(view) << " idx_t;\n";
    os << "constexpr long long ROWS = " << fused.rows << "LL;\n";
    os << "constexpr idx_t LEN = " << fused.length << ";\n";
    os << "constexpr int LANES = " << p.lanes << ", ROWS_PER_BLOCK = " << p.rows
       << ", SPLIT = " << p.split << ";\n";
    if (p.cache == 1)
      os << "constexpr int SLOTS = " << ceilDiv(fused.length, p.lanes)
         << "; // elements of a row per lane, kept in registers\n";
    os << "\n";
  }

  /// The entry, the shared slots the lanes combine through, and the head of
  /// the loop over the block's rows with the row's position.
  void emitRowLoopStart() {
    os << "extern \"C\" __global__ void __launch_bounds__(LANES * "
          "ROWS_PER_BLOCK * SPLIT) stark_fused_rows("
       << getKernelParameters(view) << ") {\n";
    if (p.cache == 2)
      os << "  extern __shared__ __align__(128) unsigned char stark_smem[];\n";
    if (p.lanes > 1)
      for (auto [k, r] : llvm::enumerate(fused.reductions))
        os << "  __shared__ " << getAccType(r) << " part" << k
           << "[ROWS_PER_BLOCK][LANES > 32 ? LANES / 32 : 1];\n";
    if (split)
      emitSplitRowLoopStart();
    else
      emitLaneRowLoopStart();
    os << "    const idx_t r = (idx_t)row;\n";
    os << emitDecode("    ", "idx_t", "r", rowOrder, view.loopRanges, names);
  }

  /// Declares the cache of the row's inputs (cache=1: registers, cache=2:
  /// shared memory, filled here).
  void emitCache() {
    if (p.cache == 1) {
      SmallVector<bool> cached = getCachedInputs(view);
      emit.setCached(cached, "t");
      for (auto [i, c] : llvm::enumerate(cached))
        if (c)
          os << "    " << getCudaComputeType(view.inputs[i].kind) << " cache"
             << i << "[SLOTS];\n";
    } else if (p.cache == 2) {
      emitSharedCache();
    }
  }

  /// Reduction `k`: its walk over the row, the combine of the row's lanes
  /// (and parts), and its result named for the nodes that read it.
  void emitReduction(size_t k, const FusedReduction &r) {
    emit.emitRowValues({r.preNode}, "    ");
    std::string acc = "acc" + std::to_string(k);
    os << "    " << getAccType(r) << " " << acc << " = " << emitFusedIdentity(r)
       << ";\n";
    openWalk(("reduction " + Twine(k) + " (" + r.combiner + ")").str());
    SmallVector<int> roots = {r.preNode};
    if (r.isArgReduction())
      roots.push_back(r.indexNode);
    emit.emitPointValues(roots, "      ", "p" + std::to_string(k) + "_");
    std::string value =
        "(" + getValueType(r) + ")(" + emit.nameOf(r.preNode) + ")";
    if (r.isArgReduction())
      value = getAccType(r) + "{" + value + ", (long long)(" +
              emit.nameOf(r.indexNode) + ")}";
    os << "      " << acc << " = " << emitFusedCombine(r, acc, value) << ";\n";
    os << "    }\n";
    emit.endWalk();
    if (p.lanes > 1)
      os << "    " << acc << " = stark_kernels::rowAllReduce<LANES>(" << acc
         << ", part" << k << "[threadIdx.y], [](" << getAccType(r) << " &a, "
         << getAccType(r) << " b) { a = " << emitFusedCombine(r, "a", "b")
         << "; });\n";
    if (split)
      emitSplitCombine(k, r, acc);
    nameResults(k, r, acc);
  }

  /// Outputs: row values by the row's first lane, then one more walk for
  /// the outputs per point.
  void emitOutputs() {
    SmallVector<int> rowRoots, pointRoots;
    for (auto [k, node] : llvm::enumerate(fused.outputNodes))
      (isPerPointOutput(fused, view.outputs[k]) ? pointRoots : rowRoots)
          .push_back(node);
    emit.emitRowValues(rowRoots, "    ");
    emit.emitRowValues(pointRoots, "    ");
    if (!rowRoots.empty()) {
      os << "    if (" << (split ? "threadIdx.y" : "lane") << " == 0) {\n";
      emitStores(/*perPoint=*/false);
      os << "    }\n";
    }
    if (!pointRoots.empty()) {
      openWalk("outputs");
      emit.emitPointValues(pointRoots, "      ", "q");
      emitStores(/*perPoint=*/true);
      os << "    }\n";
      emit.endWalk();
    }
  }

private:
  /// With split rows every thread of a block runs every iteration (the
  /// combines synchronise the block): the rows past the end recompute the
  /// last row and store nothing.
  void emitSplitRowLoopStart() {
    for (auto [k, r] : llvm::enumerate(fused.reductions))
      os << "  __shared__ " << getAccType(r) << " part" << k
         << "[SPLIT][ROWS_PER_BLOCK];\n";
    os << "  [[maybe_unused]] const idx_t lane = 0;\n";
    os << "  const idx_t part = threadIdx.y;\n";
    os << "  for (long long base = (long long)blockIdx.x * ROWS_PER_BLOCK; "
          "base < ROWS;\n       base += (long long)gridDim.x * "
          "ROWS_PER_BLOCK) {\n";
    os << "    const bool live = base + threadIdx.x < ROWS;\n";
    os << "    const long long row = live ? base + threadIdx.x : ROWS - 1;\n";
  }

  void emitLaneRowLoopStart() {
    os << "  [[maybe_unused]] const idx_t lane = threadIdx.x;\n";
    os << "  for (long long row = (long long)blockIdx.x * ROWS_PER_BLOCK + "
          "threadIdx.y; row < ROWS;\n       row += (long long)gridDim.x * "
          "ROWS_PER_BLOCK) {\n";
  }

  /// cache=2: the row's cached inputs go to shared memory first, all loads
  /// of a lane in flight together; every walk then reads them there. Each
  /// lane reads back only the elements it stored: no barrier.
  void emitSharedCache() {
    SmallVector<bool> cached = getCachedInputs(view);
    emit.setCached(cached, "c");
    os << "    unsigned char *rowCache = stark_smem + (size_t)threadIdx.y * "
       << getCacheSharedBytes(view, 1) << ";\n";
    int64_t offset = 0;
    for (auto [i, c] : llvm::enumerate(cached)) {
      if (!c)
        continue;
      StringRef type = getCudaComputeType(view.inputs[i].kind);
      os << "    " << type << " *cache" << i << " = reinterpret_cast<" << type
         << " *>(rowCache + " << offset << ");\n";
      offset += getCachedRowBytes(view, i);
    }
    os << "    // the rows into shared memory\n";
    os << "#pragma unroll 8\n";
    os << "    for (idx_t c = lane; c < LEN; c += LANES) {\n";
    os << emitDecode("      ", "idx_t", "c", colOrder, view.loopRanges, names);
    for (auto [i, c] : llvm::enumerate(cached))
      if (c)
        os << "      cache" << i << "[c] = stark_widen("
           << emitElement(view, view.inputs[i], names) << ");\n";
    os << "    }\n";
    emit.setAllLoaded();
  }

  /// Opens a walk over the row and decodes the point. A cached walk is
  /// unrolled over the lane's slots, so that the cache stays in registers.
  void openWalk(StringRef what) {
    os << "    // " << what << "\n";
    if (p.cache == 1) {
      os << "#pragma unroll\n";
      os << "    for (int t = 0; t < SLOTS; ++t) {\n";
      os << "      const idx_t c = lane + (idx_t)t * LANES;\n";
      os << "      if (c >= LEN)\n        break;\n";
    } else {
      StringRef start = split ? "part" : p.lanes == 1 ? "0" : "lane";
      StringRef step = split ? "SPLIT" : p.lanes == 1 ? "1" : "LANES";
      os << "    for (idx_t c = " << start << "; c < LEN; c += " << step
         << ") {\n";
    }
    os << emitDecode("      ", "idx_t", "c", colOrder, view.loopRanges, names);
  }

  /// The parts of a split row in order (the result does not depend on
  /// timing), then every part of the row reads the total.
  void emitSplitCombine(size_t k, const FusedReduction &r, StringRef acc) {
    std::string slot = "part" + std::to_string(k);
    os << "    " << slot << "[threadIdx.y][threadIdx.x] = " << acc << ";\n";
    os << "    __syncthreads();\n";
    os << "    if (threadIdx.y == 0) {\n";
    os << "      for (int s = 1; s < SPLIT; ++s)\n";
    os << "        " << acc << " = "
       << emitFusedCombine(r, acc, slot + "[s][threadIdx.x]") << ";\n";
    os << "      " << slot << "[0][threadIdx.x] = " << acc << ";\n";
    os << "    }\n";
    os << "    __syncthreads();\n";
    os << "    " << acc << " = " << slot << "[0][threadIdx.x];\n";
  }

  /// The program's reduce (and reduce_index) nodes of reduction `k` read
  /// its accumulator.
  void nameResults(size_t k, const FusedReduction &r, const std::string &acc) {
    for (auto [i, node] : llvm::enumerate(fused.program.nodes)) {
      if (node.position != int64_t(k))
        continue;
      if (node.op == "reduce")
        emit.setName(int(i), r.isArgReduction() ? acc + ".v" : acc);
      else if (node.op == "reduce_index")
        emit.setName(int(i), "((" + getCudaComputeType(node.kind).str() + ")" +
                                 acc + ".i)");
    }
  }

  /// Stores the outputs per point (`perPoint`) or those per row.
  void emitStores(bool perPoint) {
    for (auto [k, out] : llvm::enumerate(view.outputs)) {
      if (isPerPointOutput(fused, out) != perPoint)
        continue;
      os << "      " << (split ? "if (live) " : "")
         << emitElement(view, out, names) << " = stark_cast<"
         << getCudaStorageType(out.kind) << ">("
         << emit.nameOf(fused.outputNodes[k]) << ");\n";
    }
  }

  const ProblemView &view;
  const FusedView &fused;
  const FusedRowsParams &p;
  llvm::raw_ostream &os;
  bool split;
  SmallVector<std::string> names;
  SmallVector<unsigned> rowOrder, colOrder;
  FusedEmitter emit;
};
} // namespace

static FailureOr<CudaKernelPlan>
generateFusedRowsKernel(const ProblemView &view, const FusedRowsParams &p,
                        std::string &whyNot) {
  if (failed(checkFusedRowsApplies(view, whyNot)) ||
      failed(checkFusedRowsParams(view, p, whyNot)))
    return failure();
  const FusedView &fused = *view.fused;
  std::string s = getCudaPrelude(view, {"Lanes.cuh"});
  llvm::raw_string_ostream os(s);
  FusedRowsWriter writer(view, p, os);
  writer.emitConstants();
  writer.emitRowLoopStart();
  writer.emitCache();
  for (auto [k, r] : llvm::enumerate(fused.reductions))
    writer.emitReduction(k, r);
  writer.emitOutputs();
  // The next row's partial results reuse the shared slots.
  if (p.lanes > 32 || p.split > 1)
    os << "    __syncthreads();\n";
  os << "  }\n}\n";
  os.flush();

  bool split = p.split > 1;
  CudaKernelPlan plan = makeOneLaunchPlan(
      "fused_rows", std::move(s), "stark_fused_rows",
      {std::min<int64_t>(ceilDiv(fused.rows, p.rows), int64_t(1) << 24), 1, 1},
      split ? std::array<int64_t, 3>{p.rows, p.split, 1}
            : std::array<int64_t, 3>{p.lanes, p.rows, 1},
      /*staticShared=*/0,
      /*dynamicShared=*/p.cache == 2 ? getCacheSharedBytes(view, p.rows) : 0);
  plan.threadsPerBlock = p.lanes * p.rows * p.split;
  return plan;
}

static std::vector<FusedRowsParams>
enumerateFusedRows(const ProblemView &view, const HardwareProfile &profile) {
  const FusedView &fused = *view.fused;
  const OperandView *primary = getPrimaryInput(view);
  // Lanes along a row pay when the row's elements are neighbours in memory;
  // otherwise neighbouring rows are, and one thread per row reads them
  // together.
  bool rowsContiguous =
      primary && llvm::any_of(fused.columnLoops, [&](unsigned d) {
        return primary->access.coefficients[d] == 1;
      });
  int64_t maxThreads = getMaxBlockThreads(profile);
  std::vector<FusedRowsParams> along;
  if (fused.length >= 2048)
    along = {{1024, 1}, {512, 1}, {256, 1}, {128, 1}, {32, 4}};
  else if (fused.length >= 256)
    along = {{128, 1}, {256, 1}, {32, 4}, {64, 1}, {32, 8}};
  else
    along = {{32, 4}, {32, 8}, {64, 1}, {128, 1}};
  // Across rows: a row per thread, or, for long rows whose elements are far
  // apart, `split` threads per row (as many loads in flight as reduce_col
  // has for a plain column reduction).
  std::vector<FusedRowsParams> across;
  auto splitRows = [](int64_t rows, int64_t split) {
    FusedRowsParams p;
    p.lanes = 1;
    p.rows = rows;
    p.split = split;
    return p;
  };
  if (!rowsContiguous && fused.length >= 64)
    across = {splitRows(32, 16), splitRows(64, 8), splitRows(32, 8),
              splitRows(64, 4)};
  llvm::append_range(across, std::vector<FusedRowsParams>{splitRows(128, 1),
                                                          splitRows(256, 1),
                                                          splitRows(64, 1)});
  std::vector<FusedRowsParams> ordered = rowsContiguous ? along : across;
  llvm::append_range(ordered, rowsContiguous ? across : along);
  // Where a lane's part of the row fits its registers, the row is read
  // once instead of once per walk: those points come first (with one walk
  // there is nothing to save, and lanes along a row whose elements are far
  // apart come after one thread per row).
  bool outputsPerPoint = llvm::any_of(view.outputs, [&](const OperandView &o) {
    return llvm::any_of(fused.columnLoops,
                        [&](unsigned d) { return o.access.dependsOn(d); });
  });
  int64_t walks = int64_t(fused.reductions.size()) + (outputsPerPoint ? 1 : 0);
  // Registers hold a long row only with a 1024-lane block per row, one per
  // SM: such rows go to shared memory first (on the H200 a log-softmax of
  // rows of 24576 took 35.8 us from registers, 21.4 us from shared memory).
  std::vector<int64_t> caches = {0};
  if (walks > 1 && rowsContiguous)
    caches = fused.length > 8192 ? std::vector<int64_t>{2, 1, 0}
                                 : std::vector<int64_t>{1, 2, 0};
  std::vector<FusedRowsParams> out;
  for (int64_t cache : caches)
    for (FusedRowsParams p : ordered) {
      p.cache = cache;
      int64_t regs = getCacheRegisters(view, p.lanes);
      if (cache == 1 && (p.lanes == 1 || regs == 0 || regs > kMaxCachedPerLane))
        continue;
      int64_t bytes = getCacheSharedBytes(view, p.rows);
      if (cache == 2 && (p.lanes == 1 || bytes == 0 ||
                         (regs <= kMaxCachedPerLane && fused.length <= 8192) ||
                         !rowCachesFitTwoBlocks(profile, bytes)))
        continue;
      if (p.lanes * p.rows * p.split <= maxThreads)
        out.push_back(p);
    }
  return out;
}

std::unique_ptr<StrategyFamily> mlir::stark::createFusedRowsFamily() {
  using P = FusedRowsParams;
  static const ParamField<P> fields[] = {{"lanes", &P::lanes},
                                         {"rows", &P::rows},
                                         {"cache", &P::cache},
                                         {"split", &P::split, /*omittedAt=*/1}};
  // A softmax's second choice (first for long rows), and every other
  // fused chain with reductions.
  auto rank = [](const ProblemView &view, bool) -> std::optional<unsigned> {
    switch (getRankingKind(view)) {
    case RankingKind::Softmax:
      return hasLongSoftmaxRows(view) ? kFirst : kSecond;
    case RankingKind::FusedRows:
      return kFirst;
    default:
      return std::nullopt;
    }
  };
  return makeFunctionFamily<P>("fused_rows", fields, {}, rank,
                               checkFusedRowsApplies, enumerateFusedRows,
                               generateFusedRowsKernel);
}
