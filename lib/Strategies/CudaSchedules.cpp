//===- CudaSchedules.cpp - Transform-dialect schedules for the GPU --------===//

#include "stark/Strategies/CudaSchedules.h"
#include "stark/Strategies/CpuStrategies.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/TransformOps/GPUTransformOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>
#include <set>

using namespace mlir;
using namespace mlir::stark;

static constexpr StringLiteral kMatmul = "td-matmul";
static constexpr StringLiteral kElementwise = "td-elementwise";
static constexpr StringLiteral kReduce = "td-reduce";

int64_t CudaSchedule::get(StringRef name) const {
  auto it = params.find(name.str());
  return it == params.end() ? 0 : it->second;
}

std::map<std::string, std::string> CudaSchedule::toParams() const {
  std::map<std::string, std::string> out;
  for (const auto &[name, value] : params)
    out[name] = std::to_string(value);
  return out;
}

std::string CudaSchedule::describe() const {
  std::string text = family;
  for (const auto &[name, value] : params)
    text += llvm::formatv(" {0}={1}", name, value).str();
  return text;
}

ArrayRef<StringRef> mlir::stark::getCudaScheduleFamilies() {
  static const StringRef families[] = {kMatmul, kElementwise, kReduce};
  return families;
}

void mlir::stark::registerCudaScheduleDialects(DialectRegistry &registry) {
  registerCpuStrategyDialects(registry);
  registry.insert<gpu::GPUDialect>();
  gpu::registerTransformDialectExtension(registry);
}

//===----------------------------------------------------------------------===//
// The op and its shape
//===----------------------------------------------------------------------===//

namespace {
/// What a schedule needs to know of the problem's op.
struct OpShape {
  mutable linalg::LinalgOp op;
  SmallVector<int64_t> ranges;
  SmallVector<bool> reduced;
  /// Bytes of the widest element the op reads or writes.
  int64_t elementBytes = 4;
  /// td-matmul: the loops of a contraction.
  std::optional<unsigned> batch, m, n, k;
  bool isContraction = false;
};
} // namespace

static FailureOr<OpShape> analyzeOp(ModuleOp problem, std::string &whyNot) {
  linalg::LinalgOp found;
  int count = 0;
  problem->walk([&](linalg::LinalgOp op) {
    found = op;
    ++count;
  });
  if (count != 1) {
    whyNot = "the problem must hold exactly one linalg op";
    return failure();
  }
  OpShape shape;
  shape.op = found;
  if (!found.hasPureBufferSemantics()) {
    whyNot = "the op must work on memrefs";
    return failure();
  }
  if (found.hasDynamicShape()) {
    whyNot = "dynamic shapes";
    return failure();
  }
  if (!found.hasOnlyProjectedPermutations()) {
    whyNot = "indexing maps that are not projected permutations (convolution "
             "or pooling windows)";
    return failure();
  }
  shape.ranges = found.getStaticLoopRanges();
  if (shape.ranges.empty()) {
    whyNot = "a zero-dimensional op has nothing to tile";
    return failure();
  }
  for (utils::IteratorType t : found.getIteratorTypesArray())
    shape.reduced.push_back(t == utils::IteratorType::reduction);
  int64_t widest = 8;
  for (Value operand : found->getOperands()) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!element.isIntOrFloat()) {
      whyNot = "operands of element type other than integer or float";
      return failure();
    }
    widest = std::max<int64_t>(widest, element.getIntOrFloatBitWidth());
  }
  shape.elementBytes = std::max<int64_t>(1, widest / 8);
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(found);
  // Mixed precision (f16 inputs, f32 accumulator) does not become an fma
  // contraction yet; those stay with the CUDA C++ templates.
  bool sameElementTypes =
      llvm::all_equal(llvm::map_range(found->getOperandTypes(), [](Type t) {
        return getElementTypeOrSelf(t);
      }));
  shape.isContraction = linalg::isaContractionOpInterface(found);
  if (linalg::isaContractionOpInterface(found) && succeeded(dims) &&
      dims->m.size() == 1 && dims->n.size() == 1 && dims->k.size() == 1 &&
      dims->batch.empty() && sameElementTypes) {
    shape.m = dims->m[0];
    shape.n = dims->n[0];
    shape.k = dims->k[0];
    if (!dims->batch.empty())
      shape.batch = dims->batch[0];
  }
  return shape;
}

/// Why `family` does not apply to the op, or "" when it does.
static std::string whyFamilyDoesNotApply(StringRef family,
                                         const OpShape &shape) {
  bool anyReduced = llvm::is_contained(shape.reduced, true);
  bool anyParallel = llvm::is_contained(shape.reduced, false);
  if (family == kMatmul)
    return shape.m ? ""
                   : "not a contraction with one m, n and k loop, no batch "
                     "loop and one element type";
  if (family == kElementwise)
    return anyReduced ? "the op reduces" : "";
  if (family == kReduce) {
    if (!anyReduced)
      return "the op does not reduce";
    if (!anyParallel)
      return "a full reduction has no parallel loop to give the threads";
    if (shape.isContraction)
      return "contractions take td-matmul or the CUDA C++ templates";
    if (shape.op.getNumDpsInits() != 1)
      return "reductions with several outputs";
    return "";
  }
  return ("unknown schedule family '" + family + "'").str();
}

/// Loops the block forall maps, outermost first: parallel loops with a
/// block tile, at most three (x is the innermost).
static std::string blockMapping(unsigned count) {
  static const char *names[] = {"x", "y", "z"};
  std::string text;
  for (unsigned i = 0; i < count; ++i)
    text +=
        llvm::formatv("{0}#gpu.block<{1}>", i ? ", " : "", names[count - 1 - i])
            .str();
  return "[" + text + "]";
}

static std::string threadMapping(unsigned count) {
  static const char *names[] = {"x", "y", "z"};
  std::string text;
  for (unsigned i = 0; i < count; ++i)
    text += llvm::formatv("{0}#gpu.thread<{1}>", i ? ", " : "",
                          names[count - 1 - i])
                .str();
  return "[" + text + "]";
}

static std::string linearThreadMapping(unsigned count) {
  std::string text;
  for (unsigned i = 0; i < count; ++i)
    text += llvm::formatv("{0}#gpu.thread<linear_dim_{1}>", i ? ", " : "",
                          count - 1 - i)
                .str();
  return "[" + text + "]";
}

static std::string list(ArrayRef<int64_t> values) {
  return "[" +
         llvm::join(llvm::map_range(
                        values, [](int64_t v) { return std::to_string(v); }),
                    ", ") +
         "]";
}

static unsigned countNonZero(ArrayRef<int64_t> values) {
  return unsigned(llvm::count_if(values, [](int64_t v) { return v != 0; }));
}

static bool divides(int64_t tile, int64_t extent) {
  return tile > 0 && extent % tile == 0;
}

namespace {
/// Builds a transform script line by line.
class ScriptWriter {
public:
  ScriptWriter() {
    os << "module attributes {transform.with_named_sequence} {\n"
       << "  transform.named_sequence @__transform_main(%root: "
          "!transform.any_op {transform.readonly}) {\n";
  }
  std::string fresh(StringRef base) {
    return ("%" + base + std::to_string(counter++)).str();
  }
  /// tile_using_forall of `target`; returns the tiled op handle.
  std::string tileForall(StringRef target, ArrayRef<int64_t> tiles,
                         StringRef mapping, std::string *forall = nullptr) {
    std::string op = fresh("tiled"), loop = fresh("forall");
    os << "    " << op << ", " << loop
       << " = transform.structured.tile_using_forall " << target
       << " tile_sizes " << list(tiles) << " (mapping = " << mapping
       << ") : (!transform.any_op) -> (!transform.any_op, "
          "!transform.any_op)\n";
    if (forall)
      *forall = loop;
    return op;
  }
  /// tile_using_for; `loopAnnotation` marks the innermost loop.
  std::string tileFor(StringRef target, ArrayRef<int64_t> tiles,
                      StringRef loopAnnotation = "") {
    unsigned loops = countNonZero(tiles);
    if (loops == 0)
      return target.str();
    std::string op = fresh("tiled"), loop = fresh("loops");
    std::string types = "!transform.any_op";
    for (unsigned i = 0; i < loops; ++i)
      types += ", !transform.any_op";
    os << "    " << op << ", " << loop << ":" << loops
       << " = transform.structured.tile_using_for " << target << " tile_sizes "
       << list(tiles) << " : (!transform.any_op) -> (" << types << ")\n";
    if (!loopAnnotation.empty())
      os << "    transform.annotate " << loop << "#" << (loops - 1) << " \""
         << loopAnnotation << "\" : !transform.any_op\n";
    return op;
  }
  std::string matchFunc() {
    std::string f = fresh("func");
    os << "    " << f
       << " = transform.structured.match ops{[\"func.func\"]} in %root : "
          "(!transform.any_op) -> !transform.any_op\n";
    return f;
  }
  void patterns(StringRef target, ArrayRef<StringRef> names) {
    os << "    transform.apply_patterns to " << target << " {\n";
    for (StringRef name : names)
      os << "      transform.apply_patterns." << name << "\n";
    os << "    } : !transform.any_op\n";
  }
  llvm::raw_string_ostream &raw() { return os; }
  std::string finish() {
    os << "    transform.yield\n  }\n}\n";
    return text;
  }

private:
  std::string text;
  llvm::raw_string_ostream os{text};
  unsigned counter = 0;
};
} // namespace

/// Matches the problem's op, tiles it to a block forall of `blockTiles`,
/// maps that to a new gpu.launch and returns the handle of the launch and of
/// the op inside it.
static std::pair<std::string, std::string>
emitBlockLaunch(ScriptWriter &w, ArrayRef<int64_t> blockTiles) {
  w.raw() << "    %op = transform.structured.match interface{LinalgOp} in "
             "%root : (!transform.any_op) -> !transform.any_op\n";
  std::string grid;
  w.tileForall("%op", blockTiles, blockMapping(countNonZero(blockTiles)),
               &grid);
  std::string launch = w.fresh("launch"), op = w.fresh("op");
  w.raw() << "    " << launch << " = transform.gpu.map_forall_to_blocks "
          << grid
          << " generate_gpu_launch : (!transform.any_op) -> "
             "!transform.any_op\n"
          << "    " << op
          << " = transform.structured.match interface{LinalgOp} in " << launch
          << " : (!transform.any_op) -> !transform.any_op\n";
  return {launch, op};
}

/// Vectorises every linalg op, maps the thread foralls, keeps accumulators
/// in registers across the loops and lowers the vector ops to what the
/// NVVM lowering takes (1-D loads and stores, fma, reductions).
static void emitVectorizeAndMap(ScriptWriter &w, StringRef launch,
                                ArrayRef<int64_t> blockDims,
                                int64_t unrollFactor) {
  std::string f = w.matchFunc();
  // Unit loops (a batch of one per block) leave the ops: accumulators are
  // then at most 2-D. The folding works on linalg.generic.
  std::string named = w.fresh("ops");
  w.raw() << "    " << named
          << " = transform.structured.match interface{LinalgOp} in " << f
          << " : (!transform.any_op) -> !transform.any_op\n"
          << "    " << w.fresh("generic")
          << " = transform.structured.generalize " << named
          << " : (!transform.any_op) -> !transform.any_op\n";
  w.patterns(f,
             {"linalg.fold_unit_extent_dims_via_slices", "canonicalization"});
  std::string all = w.fresh("ops");
  w.raw() << "    " << all
          << " = transform.structured.match interface{LinalgOp} in " << f
          << " : (!transform.any_op) -> !transform.any_op\n"
          << "    transform.structured.vectorize " << all
          << " : !transform.any_op\n";
  // Alone first: canonicalization would fold a unit-length reduction into
  // a mulf + addf before it becomes a contraction (and then an fma).
  w.patterns(f, {"vector.reduction_to_contract",
                 "vector.transfer_permutation_patterns"});
  w.patterns(f, {"memref.fold_memref_alias_ops", "canonicalization"});
  std::string mapped = w.fresh("launch");
  w.raw() << "    " << mapped
          << " = transform.gpu.map_nested_forall_to_threads " << launch
          << " block_dims = " << list(blockDims)
          << " : (!transform.any_op) -> !transform.any_op\n";
  w.patterns(f, {"canonicalization"});
  w.raw() << "    transform.apply_cse to " << f << " : !transform.any_op\n";
  // Read-modify-write pairs of the output leave the loops: accumulators
  // live in registers. (Subviews were folded into the transfers above, so
  // the transfers address the function arguments.)
  std::string hoisted = w.fresh("func");
  w.raw() << "    " << hoisted
          << " = transform.structured.hoist_redundant_vector_transfers " << f
          << " : (!transform.any_op) -> !transform.any_op\n";
  if (unrollFactor > 1) {
    std::string loop = w.fresh("unroll");
    w.raw() << "    " << loop
            << " = transform.structured.match ops{[\"scf.for\"]} attributes "
               "{stark.unroll} in %root : (!transform.any_op) -> "
               "!transform.any_op\n"
            << "    transform.loop.unroll " << loop
            << " {factor = " << unrollFactor << "} : !transform.any_op\n";
  }
  std::string g = w.matchFunc();
  w.patterns(g,
             {"vector.lower_contraction lowering_strategy = \"outerproduct\"",
              "vector.lower_multi_reduction lowering_strategy = "
              "\"innerreduction\"",
              "vector.transfer_permutation_patterns",
              "vector.lower_outerproduct", "canonicalization"});
  w.patterns(g,
             {"vector.transfer_to_scf max_transfer_rank = 1 full_unroll = "
              "true",
              "vector.lower_transfer max_transfer_rank = 1",
              "vector.cast_away_vector_leading_one_dim", "canonicalization"});
  w.raw() << "    transform.apply_cse to " << g << " : !transform.any_op\n";
}

/// Largest power of two <= `want` dividing `extent`, at least 1.
static int64_t pow2Divisor(int64_t extent, int64_t want) {
  int64_t v = 1;
  while (v * 2 <= want && extent % (v * 2) == 0)
    v *= 2;
  return v;
}

/// Tile sizes and mapping of a cooperative copy of a `shape` tile by
/// `threads` threads: `vec` contiguous elements (fewer when the innermost
/// extent or the source row does not allow them), rows spread over the
/// remaining threads.
static SmallVector<int64_t> copyTiles(ArrayRef<int64_t> shape,
                                      int64_t sourceInner, int64_t threads,
                                      int64_t vec) {
  unsigned rank = shape.size();
  SmallVector<int64_t> tiles(rank, 1);
  int64_t inner = shape[rank - 1];
  int64_t v = pow2Divisor(std::gcd(inner, sourceInner), vec);
  while (inner / v > threads && inner % (v * 2) == 0)
    v *= 2;
  tiles[rank - 1] = v;
  if (rank >= 2) {
    int64_t colThreads = inner / v;
    int64_t rowThreads = std::max<int64_t>(1, threads / colThreads);
    int64_t rows = shape[rank - 2];
    int64_t used = 1;
    for (int64_t t = std::min(rows, rowThreads); t >= 1; --t)
      if (rows % t == 0) {
        used = t;
        break;
      }
    tiles[rank - 2] = rows / used;
  }
  return tiles;
}

static FailureOr<std::string> renderMatmul(const OpShape &s,
                                           const CudaSchedule &sched,
                                           const HardwareProfile *profile,
                                           std::string &error) {
  int64_t bm = sched.get("bm"), bn = sched.get("bn"), bk = sched.get("bk"),
          tm = sched.get("tm"), tn = sched.get("tn"), ku = sched.get("ku");
  bool promote = sched.get("promote") != 0;
  unsigned m = *s.m, n = *s.n, k = *s.k;
  if (!divides(bm, s.ranges[m]) || !divides(bn, s.ranges[n]) ||
      !divides(bk, s.ranges[k]) || !divides(tm, bm) || !divides(tn, bn) ||
      !divides(ku, bk)) {
    error = llvm::formatv("tiles bm={0} bn={1} bk={2} tm={3} tn={4} ku={5} "
                          "must divide the loops {6}x{7}x{8} and each other",
                          bm, bn, bk, tm, tn, ku, s.ranges[m], s.ranges[n],
                          s.ranges[k])
                .str();
    return failure();
  }
  int64_t tx = bn / tn, ty = bm / tm;
  int64_t maxThreads = profile && profile->maxThreadsPerBlock
                           ? profile->maxThreadsPerBlock
                           : 1024;
  if (tx * ty > maxThreads) {
    error = llvm::formatv("{0} threads per block exceed the limit {1}", tx * ty,
                          maxThreads)
                .str();
    return failure();
  }
  if (promote && profile && profile->sharedMemoryPerBlock) {
    int64_t bytes = (bm + bn) * bk * s.elementBytes;
    if (bytes > profile->sharedMemoryPerBlock) {
      error = llvm::formatv("{0} bytes of shared memory exceed the limit {1}",
                            bytes, profile->sharedMemoryPerBlock)
                  .str();
      return failure();
    }
  }
  unsigned numLoops = s.ranges.size();
  SmallVector<int64_t> blockTiles(numLoops, 0), kTiles(numLoops, 0),
      threadTiles(numLoops, 0), regTiles(numLoops, 0), loopTile(numLoops, 0);
  if (s.batch)
    blockTiles[*s.batch] = 1;
  blockTiles[m] = bm;
  blockTiles[n] = bn;
  kTiles[k] = bk;
  threadTiles[m] = tm;
  threadTiles[n] = tn;
  regTiles[k] = ku;
  loopTile = blockTiles;
  loopTile[k] = bk;

  ScriptWriter w;
  auto [launch, op] = emitBlockLaunch(w, blockTiles);
  std::string current = w.tileFor(op, kTiles);
  if (promote) {
    std::string promoted = w.fresh("promoted");
    w.raw() << "    " << promoted << " = transform.structured.promote "
            << current
            << " {operands_to_promote = [0, 1], memory_space = "
               "#gpu.address_space<workgroup>, use_original_subview_size} : "
               "(!transform.any_op) -> !transform.any_op\n";
    current = promoted;
  }
  // Threads along n are x (consecutive threads, consecutive columns).
  current = w.tileForall(current, threadTiles,
                         m < n ? "[#gpu.thread<y>, #gpu.thread<x>]"
                               : "[#gpu.thread<x>, #gpu.thread<y>]");
  w.tileFor(current, regTiles, bk / ku > 1 ? "stark.unroll" : "");
  if (promote) {
    // One cooperative copy per staged operand, A first.
    std::string copies = w.fresh("copies"), ca = w.fresh("copy"),
                cb = w.fresh("copy");
    w.raw() << "    " << copies
            << " = transform.structured.match ops{[\"linalg.copy\"]} in "
            << launch << " : (!transform.any_op) -> !transform.any_op\n"
            << "    " << ca << ", " << cb << " = transform.split_handle "
            << copies
            << " : (!transform.any_op) -> (!transform.any_op, "
               "!transform.any_op)\n";
    for (auto [index, handle] :
         llvm::enumerate(SmallVector<std::string>{ca, cb})) {
      AffineMap map =
          s.op.getMatchingIndexingMap(s.op.getDpsInputOperand(unsigned(index)));
      auto type = cast<MemRefType>(
          s.op.getDpsInputOperand(unsigned(index))->get().getType());
      SmallVector<int64_t> tileShape;
      for (AffineExpr e : map.getResults())
        tileShape.push_back(loopTile[cast<AffineDimExpr>(e).getPosition()]);
      SmallVector<int64_t> tiles =
          copyTiles(tileShape, type.getShape().back(), tx * ty,
                    std::max<int64_t>(1, 16 / s.elementBytes));
      w.tileForall(handle, tiles, linearThreadMapping(tiles.size()));
    }
  }
  emitVectorizeAndMap(w, launch, {tx, ty, 1}, bk / ku);
  return w.finish();
}

/// The loops a block forall maps (at most three, innermost first in
/// `mapped`) and the outer parallel loops each thread walks sequentially.
static void splitParallelLoops(const OpShape &s, SmallVector<unsigned> &mapped,
                               SmallVector<unsigned> &walked) {
  for (int i = int(s.ranges.size()) - 1; i >= 0; --i) {
    if (s.reduced[i])
      continue;
    if (mapped.size() < 3)
      mapped.push_back(unsigned(i));
    else
      walked.push_back(unsigned(i));
  }
}

static FailureOr<std::string> renderElementwise(const OpShape &s,
                                                const CudaSchedule &sched,
                                                const HardwareProfile *profile,
                                                std::string &error) {
  int64_t tx = sched.get("tx"), ty = sched.get("ty"), vec = sched.get("vec");
  unsigned numLoops = s.ranges.size();
  unsigned inner = numLoops - 1;
  if (!divides(tx * vec, s.ranges[inner]) ||
      (numLoops >= 2 && !divides(ty, s.ranges[inner - 1])) ||
      (numLoops == 1 && ty != 1)) {
    error = llvm::formatv("tx*vec={0} and ty={1} must divide the two "
                          "innermost loops",
                          tx * vec, ty)
                .str();
    return failure();
  }
  int64_t maxThreads = profile && profile->maxThreadsPerBlock
                           ? profile->maxThreadsPerBlock
                           : 1024;
  if (tx * ty > maxThreads) {
    error = "too many threads per block";
    return failure();
  }
  SmallVector<unsigned> mapped, walked;
  splitParallelLoops(s, mapped, walked);
  SmallVector<int64_t> blockTiles(numLoops, 0), threadTiles(numLoops, 0),
      walkTiles(numLoops, 0);
  for (unsigned l : mapped)
    blockTiles[l] = 1;
  blockTiles[inner] = tx * vec;
  threadTiles[inner] = vec;
  if (numLoops >= 2) {
    blockTiles[inner - 1] = ty;
    threadTiles[inner - 1] = 1;
  }
  for (unsigned l : walked)
    walkTiles[l] = 1;

  ScriptWriter w;
  auto [launch, op] = emitBlockLaunch(w, blockTiles);
  std::string current =
      w.tileForall(op, threadTiles, threadMapping(countNonZero(threadTiles)));
  w.tileFor(current, walkTiles);
  emitVectorizeAndMap(w, launch, {tx, numLoops >= 2 ? ty : 1, 1}, 1);
  return w.finish();
}

static FailureOr<std::string> renderReduce(const OpShape &s,
                                           const CudaSchedule &sched,
                                           const HardwareProfile *profile,
                                           std::string &error) {
  int64_t threads = sched.get("threads"), vec = sched.get("vec");
  unsigned numLoops = s.ranges.size();
  SmallVector<unsigned> mapped, walked;
  splitParallelLoops(s, mapped, walked);
  unsigned innerParallel = mapped.front();
  int reducedInner = -1;
  for (unsigned i = 0; i < numLoops; ++i)
    if (s.reduced[i])
      reducedInner = int(i);
  if (!divides(threads, s.ranges[innerParallel]) ||
      !divides(vec, s.ranges[reducedInner])) {
    error = llvm::formatv("threads={0} must divide the innermost parallel "
                          "loop ({1}) and vec={2} the innermost reduced one "
                          "({3})",
                          threads, s.ranges[innerParallel], vec,
                          s.ranges[reducedInner])
                .str();
    return failure();
  }
  int64_t maxThreads = profile && profile->maxThreadsPerBlock
                           ? profile->maxThreadsPerBlock
                           : 1024;
  if (threads > maxThreads) {
    error = "too many threads per block";
    return failure();
  }
  SmallVector<int64_t> blockTiles(numLoops, 0), threadTiles(numLoops, 0),
      regTiles(numLoops, 0);
  for (unsigned l : mapped)
    blockTiles[l] = 1;
  blockTiles[innerParallel] = threads;
  threadTiles[innerParallel] = 1;
  for (unsigned l : walked)
    regTiles[l] = 1;
  for (unsigned i = 0; i < numLoops; ++i)
    if (s.reduced[i])
      regTiles[i] = 1;
  regTiles[reducedInner] = vec;

  ScriptWriter w;
  auto [launch, op] = emitBlockLaunch(w, blockTiles);
  std::string current = w.tileForall(op, threadTiles, threadMapping(1));
  w.tileFor(current, regTiles);
  emitVectorizeAndMap(w, launch, {threads, 1, 1}, 1);
  return w.finish();
}

static FailureOr<std::string> render(const OpShape &shape,
                                     const CudaSchedule &schedule,
                                     const HardwareProfile *profile,
                                     std::string &error) {
  std::string why = whyFamilyDoesNotApply(schedule.family, shape);
  if (!why.empty()) {
    error = schedule.family + ": " + why;
    return failure();
  }
  if (schedule.family == kMatmul)
    return renderMatmul(shape, schedule, profile, error);
  if (schedule.family == kElementwise)
    return renderElementwise(shape, schedule, profile, error);
  return renderReduce(shape, schedule, profile, error);
}

FailureOr<std::string> mlir::stark::renderCudaTransformScript(
    ModuleOp problem, const CudaSchedule &schedule, std::string &error) {
  FailureOr<OpShape> shape = analyzeOp(problem, error);
  if (failed(shape))
    return failure();
  return render(*shape, schedule, nullptr, error);
}

//===----------------------------------------------------------------------===//
// Enumeration
//===----------------------------------------------------------------------===//

/// Largest divisor of `extent` that is <= `want`.
static int64_t pickTile(int64_t extent, int64_t want) {
  if (extent <= want)
    return extent;
  for (int64_t t = want; t >= 1; --t)
    if (extent % t == 0)
      return t;
  return 1;
}

std::vector<CudaSchedule> mlir::stark::enumerateCudaSchedules(
    ModuleOp problem, const HardwareProfile &profile, std::string &whyNot) {
  std::vector<CudaSchedule> schedules;
  FailureOr<OpShape> shape = analyzeOp(problem, whyNot);
  if (failed(shape))
    return schedules;
  const OpShape &s = *shape;
  std::set<std::string> seen;
  // Enough to refine around the best guess without flooding the search.
  constexpr size_t kPerFamily = 24;
  std::map<std::string, size_t> perFamily;
  auto add = [&](CudaSchedule c) {
    if (perFamily[c.family] >= kPerFamily)
      return;
    std::string error;
    if (failed(render(s, c, &profile, error)))
      return;
    if (seen.insert(c.describe()).second) {
      ++perFamily[c.family];
      schedules.push_back(std::move(c));
    }
  };
  // Threads per block worth launching: whole warps, enough of them.
  auto goodThreads = [](int64_t t) { return t >= 64 && t % 32 == 0; };
  std::vector<std::string> reasons;
  for (StringRef family : getCudaScheduleFamilies()) {
    std::string why = whyFamilyDoesNotApply(family, s);
    if (!why.empty()) {
      reasons.push_back((family + ": " + why).str());
      continue;
    }
    size_t before = schedules.size();
    if (family == kMatmul) {
      int64_t M = s.ranges[*s.m], N = s.ranges[*s.n], K = s.ranges[*s.k];
      const std::array<int64_t, 2> blocks[] = {
          {128, 128}, {64, 64}, {128, 64}, {64, 128}, {32, 32}};
      const std::array<int64_t, 2> threads[] = {{8, 8}, {4, 4}, {8, 4}, {4, 8}};
      for (int64_t promote : {1, 0})
        for (auto [wm, wn] : blocks)
          for (auto [wtm, wtn] : threads)
            for (int64_t wk : {16, 32, 8}) {
              CudaSchedule c;
              c.family = family.str();
              int64_t bm = pickTile(M, wm), bn = pickTile(N, wn),
                      bk = pickTile(K, wk);
              int64_t tm = pickTile(bm, wtm), tn = pickTile(bn, wtn);
              if (!goodThreads((bm / tm) * (bn / tn)))
                continue;
              c.params = {{"bm", bm},          {"bn", bn},
                          {"bk", bk},          {"tm", tm},
                          {"tn", tn},          {"ku", pickTile(bk, 4)},
                          {"promote", promote}};
              add(c);
            }
    } else if (family == kElementwise) {
      unsigned inner = s.ranges.size() - 1;
      for (int64_t vec : {4, 2, 1})
        for (auto [wx, wy] : {std::pair<int64_t, int64_t>{64, 4},
                              {256, 1},
                              {32, 8},
                              {128, 2}}) {
          CudaSchedule c;
          c.family = family.str();
          int64_t v = pow2Divisor(s.ranges[inner], vec);
          int64_t tx = pickTile(s.ranges[inner] / v, wx);
          int64_t ty = inner == 0 ? 1 : pickTile(s.ranges[inner - 1], wy);
          if (!goodThreads(tx * ty) && tx * ty < s.ranges[inner] / v)
            continue;
          c.params = {{"tx", tx}, {"ty", ty}, {"vec", v}};
          add(c);
        }
    } else if (family == kReduce) {
      SmallVector<unsigned> mapped, walked;
      splitParallelLoops(s, mapped, walked);
      int64_t rows = s.ranges[mapped.front()];
      int64_t reducedExtent = 1;
      for (unsigned i = 0; i < s.ranges.size(); ++i)
        if (s.reduced[i])
          reducedExtent = s.ranges[i];
      for (int64_t threads : {128, 256, 64, 32})
        for (int64_t vec : {4, 1}) {
          CudaSchedule c;
          c.family = family.str();
          c.params = {{"threads", pickTile(rows, threads)},
                      {"vec", pow2Divisor(reducedExtent, vec)}};
          add(c);
        }
    }
    if (schedules.size() == before)
      reasons.push_back(
          (family + ": no parameters fit the op's loops and the profile")
              .str());
  }
  if (schedules.empty())
    whyNot = llvm::join(reasons, "; ");
  return schedules;
}

//===----------------------------------------------------------------------===//
// Application
//===----------------------------------------------------------------------===//

/// Shared buffers allocated inside a launch become 16-byte aligned slices
/// of the launch's dynamic shared memory. (Workgroup attributions would do,
/// but their arrays are only aligned to their element type, which rules out
/// 16-byte vector accesses.)
static LogicalResult allocsToDynamicSharedMemory(ModuleOp module,
                                                 std::string &error) {
  DenseMap<Operation *, SmallVector<memref::AllocOp>> byLaunch;
  SmallVector<gpu::LaunchOp> launches;
  WalkResult walk = module->walk([&](memref::AllocOp alloc) {
    if (!gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(alloc.getType()))
      return WalkResult::advance();
    auto launch = alloc->getParentOfType<gpu::LaunchOp>();
    if (!launch || !alloc.getType().hasStaticShape() ||
        !alloc.getType().getLayout().isIdentity()) {
      error = "a shared buffer outside a launch, of dynamic size or with a "
              "layout";
      return WalkResult::interrupt();
    }
    if (!byLaunch.count(launch))
      launches.push_back(launch);
    byLaunch[launch].push_back(alloc);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  for (gpu::LaunchOp launch : launches) {
    OpBuilder b(launch.getContext());
    b.setInsertionPointToStart(&launch.getBody().front());
    Location loc = launch.getLoc();
    auto space = gpu::AddressSpaceAttr::get(launch.getContext(),
                                            gpu::AddressSpace::Workgroup);
    auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                     MemRefLayoutAttrInterface(), space);
    Value base = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
    int64_t offset = 0;
    for (memref::AllocOp alloc : byLaunch[launch]) {
      MemRefType type = alloc.getType();
      int64_t bytes =
          type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
      b.setInsertionPoint(alloc);
      Value shift = arith::ConstantIndexOp::create(b, alloc.getLoc(), offset);
      Value view = memref::ViewOp::create(b, alloc.getLoc(), type, base, shift,
                                          ValueRange());
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      alloc.getResult().replaceAllUsesWith(view);
      alloc->erase();
      offset += llvm::alignTo(bytes, 16);
    }
    b.setInsertionPoint(launch);
    Value size = arith::ConstantIntOp::create(b, loc, b.getI32Type(), offset);
    launch.getDynamicSharedMemorySizeMutable().assign(size);
  }
  return success();
}

/// A number every value of `value` is a multiple of (1 when unknown).
static int64_t knownDivisor(Value value, unsigned depth = 0) {
  if (depth > 8)
    return 1;
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return *c == 0 ? (int64_t(1) << 30) : std::abs(*c);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (arg == loop.getInductionVar())
        return std::gcd(knownDivisor(loop.getLowerBound(), depth + 1),
                        knownDivisor(loop.getStep(), depth + 1));
    return 1;
  }
  Operation *def = value.getDefiningOp();
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    // Each operand is d * (an unknown integer): substitute and ask the
    // expression.
    AffineMap map = apply.getAffineMap();
    SmallVector<AffineExpr> dims, symbols;
    MLIRContext *ctx = apply.getContext();
    for (unsigned i = 0; i < map.getNumDims(); ++i)
      dims.push_back(getAffineDimExpr(i, ctx) *
                     knownDivisor(apply.getOperand(i), depth + 1));
    for (unsigned i = 0; i < map.getNumSymbols(); ++i)
      symbols.push_back(
          getAffineSymbolExpr(i, ctx) *
          knownDivisor(apply.getOperand(map.getNumDims() + i), depth + 1));
    AffineExpr e = map.getResult(0).replaceDimsAndSymbols(dims, symbols);
    return std::max<int64_t>(1, e.getLargestKnownDivisor());
  }
  if (auto add = dyn_cast<arith::AddIOp>(def))
    return std::gcd(knownDivisor(add.getLhs(), depth + 1),
                    knownDivisor(add.getRhs(), depth + 1));
  if (auto mul = dyn_cast<arith::MulIOp>(def))
    return knownDivisor(mul.getLhs(), depth + 1) *
           knownDivisor(mul.getRhs(), depth + 1);
  return 1;
}

/// Byte alignment of the first element a 1-D vector access touches, given
/// buffers aligned to 16 bytes (device allocations are aligned to 256,
/// shared buffers are 16-byte aligned slices of dynamic shared memory).
static int64_t accessAlignment(MemRefType type, ValueRange indices) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return 0;
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  if (elementBytes == 0)
    return 0;
  int64_t divisor = offset == 0 ? (int64_t(1) << 30) : std::abs(offset);
  for (auto [stride, index] : llvm::zip(strides, indices))
    divisor = std::gcd(divisor, stride * knownDivisor(index));
  int64_t bytes = divisor >= (int64_t(1) << 30) ? 16 : divisor * elementBytes;
  int64_t align = 1;
  while (align < 16 && bytes % (align * 2) == 0)
    align *= 2;
  return align;
}

/// Vector loads and stores that the indices prove aligned say so: the NVPTX
/// backend only emits ld/st.v2 and .v4 for aligned accesses.
static void annotateVectorAlignment(ModuleOp module) {
  Builder b(module.getContext());
  auto annotate = [&](Operation *op, MemRefType type, ValueRange indices,
                      VectorType vector) {
    if (vector.getRank() != 1 || op->hasAttr("alignment"))
      return;
    int64_t align = accessAlignment(type, indices);
    int64_t vectorBytes =
        vector.getNumElements() * vector.getElementTypeBitWidth() / 8;
    align = std::min(align, vectorBytes);
    if (align * 8 > int64_t(vector.getElementTypeBitWidth()))
      op->setAttr("alignment", b.getI64IntegerAttr(align));
  };
  module->walk([&](Operation *op) {
    if (auto load = dyn_cast<vector::LoadOp>(op))
      annotate(op, load.getMemRefType(), load.getIndices(),
               load.getVectorType());
    else if (auto store = dyn_cast<vector::StoreOp>(op))
      annotate(op, store.getMemRefType(), store.getIndices(),
               store.getVectorType());
  });
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::stark::applyCudaSchedule(ModuleOp problem, const CudaSchedule &schedule,
                               std::string &error) {
  MLIRContext *ctx = problem->getContext();
  DialectRegistry registry;
  registerCudaScheduleDialects(registry);
  ctx->appendDialectRegistry(registry);

  FailureOr<std::string> text =
      renderCudaTransformScript(problem, schedule, error);
  if (failed(text))
    return failure();

  // A schedule that does not apply is an ordinary outcome of the search:
  // its diagnostics go into the error, not to the user.
  std::string diagnostics;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      diagnostics += d.str() + "\n";
    return success();
  });
  OwningOpRef<ModuleOp> script = parseSourceString<ModuleOp>(*text, ctx);
  if (!script) {
    error =
        "internal error: the transform script does not parse:\n" + diagnostics;
    return failure();
  }
  OwningOpRef<ModuleOp> candidate = cast<ModuleOp>(problem->clone());
  auto entry =
      script->lookupSymbol<transform::TransformOpInterface>("__transform_main");
  if (failed(transform::applyTransformNamedSequence(
          *candidate, entry, *script, transform::TransformOptions()))) {
    error = "the schedule does not apply: " + diagnostics;
    return failure();
  }
  if (failed(allocsToDynamicSharedMemory(*candidate, error)))
    return failure();
  annotateVectorAlignment(*candidate);
  bool leftOver = false;
  (*candidate)->walk([&](linalg::LinalgOp) { leftOver = true; });
  if (leftOver) {
    error = "the schedule left a linalg op that was not vectorised";
    return failure();
  }
  if (failed(verify(*candidate))) {
    error = "the scheduled module does not verify: " + diagnostics;
    return failure();
  }

  // The schedule travels with the candidate, for the report.
  Builder b(ctx);
  SmallVector<NamedAttribute> params;
  for (const auto &[name, value] : schedule.params)
    params.push_back(b.getNamedAttr(name, b.getI64IntegerAttr(value)));
  auto record = b.getDictionaryAttr(
      {b.getNamedAttr("family", b.getStringAttr(schedule.family)),
       b.getNamedAttr("params", b.getDictionaryAttr(params)),
       b.getNamedAttr("script", b.getStringAttr(*text))});
  (*candidate)->walk([&](func::FuncOp func) {
    if (!func.isExternal())
      func->setAttr("stark.schedule", record);
  });
  return candidate;
}

//===----------------------------------------------------------------------===//
// The space
//===----------------------------------------------------------------------===//

namespace {
class CudaScheduleSpace : public CandidateSpace {
public:
  CudaScheduleSpace(ModuleOp problem, std::vector<CudaSchedule> schedules)
      : problem(problem), schedules(std::move(schedules)) {
    for (const CudaSchedule &s : this->schedules)
      points.push_back({s.family, s.toParams(), s.describe()});
  }

  const std::vector<StrategyPoint> &getPoints() const override {
    return points;
  }

  FailureOr<std::string> build(const StrategyPoint &point,
                               std::string &error) override {
    CudaSchedule schedule;
    schedule.family = point.family;
    FailureOr<std::map<std::string, int64_t>> params =
        getIntegerParams(point, error);
    if (failed(params))
      return failure();
    schedule.params = std::move(*params);
    FailureOr<OwningOpRef<ModuleOp>> candidate =
        applyCudaSchedule(problem, schedule, error);
    if (failed(candidate))
      return failure();
    return printCandidate(**candidate);
  }

private:
  ModuleOp problem;
  std::vector<CudaSchedule> schedules;
  std::vector<StrategyPoint> points;
};
} // namespace

std::unique_ptr<CandidateSpace> mlir::stark::createCudaScheduleSpace(
    ModuleOp problem, const HardwareProfile &profile, std::string &whyNot) {
  std::vector<CudaSchedule> schedules =
      enumerateCudaSchedules(problem, profile, whyNot);
  if (schedules.empty())
    return nullptr;
  return std::make_unique<CudaScheduleSpace>(problem, std::move(schedules));
}
