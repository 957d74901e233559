//===- ReduceFamilies.cpp - Row and column reductions ---------------------===//
//
// Reductions combine pre(inputs) over the reduced loops into the initial
// output value with the payload's combiner. reduce_row gives each output a
// group of lanes that walk a contiguous row (warp shuffles, then shared
// memory across warps, optionally split over blocks with a second launch);
// reduce_col gives each output one thread, so that neighbouring threads read
// neighbouring addresses when the reduced loops are the outer ones.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"
#include "ParamTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

LogicalResult cudatpl::checkReduceApplies(const ProblemView &view,
                                          std::string &whyNot) {
  if (view.isSoftmax) {
    whyNot = "softmax has its own family";
    return failure();
  }
  if (!view.reduction) {
    if (!llvm::is_contained(view.reductionLoops, true))
      whyNot = "the op has no reduction loop";
    else if (!view.body)
      whyNot = view.whyNoBody;
    else
      whyNot = "the payload is not a recognised combiner (add, mul, max, "
               "min, and, or, xor) of the output and a value of the inputs, "
               "or the output is not dense over the parallel loops";
    return failure();
  }
  return success();
}

/// The combiner as the Op struct of Reduce.cuh, and its accumulator type.
static void emitReductionOp(llvm::raw_ostream &os, const ReductionView &rv) {
  ElementKind acc = rv.accumulatorKind;
  os << "struct StarkCombine {\n";
  os << "  typedef " << getCudaComputeType(acc) << " Acc;\n";
  os << "  __device__ __forceinline__ Acc operator()(Acc a, Acc b) const { "
        "return "
     << emitCombine(rv.combiner, acc, "a", "b") << "; }\n";
  os << "  static __device__ __forceinline__ Acc identity() { return "
     << emitCombineIdentity(rv.combiner, acc) << "; }\n";
  os << "};\n";
  os << "typedef StarkCombine::Acc acc_t;\n";
}

namespace {
enum class RowAccess { Invariant, Contiguous, General };
} // namespace

/// How input `in` is addressed along a row of the reduction.
static RowAccess classifyRow(const ProblemView &view, const ReductionView &rv,
                             const OperandView &in) {
  if (llvm::none_of(rv.reducedLoops,
                    [&](unsigned d) { return in.access.dependsOn(d); }))
    return RowAccess::Invariant;
  int64_t expected = 1;
  for (unsigned d : llvm::reverse(rv.reducedLoops)) {
    if (in.access.coefficients[d] != expected)
      return RowAccess::General;
    expected *= view.loopRanges[d];
  }
  return RowAccess::Contiguous;
}

/// Largest vector width a row reduction can load with.
static int64_t maxRowVector(const ProblemView &view, const ReductionView &rv) {
  int64_t best = 16 / getWidestInputBytes(view);
  bool anyContiguous = false;
  for (const OperandView &in : view.inputs) {
    if (in.argNumber < 0)
      continue;
    RowAccess k = classifyRow(view, rv, in);
    if (k == RowAccess::Contiguous) {
      anyContiguous = true;
      while (best > 1 && !isAlignedExcept(in.access, rv.reducedLoops, best))
        best /= 2;
    }
  }
  if (!anyContiguous)
    return 1;
  while (best > 1 && rv.length % best)
    best /= 2;
  return best;
}

//===----------------------------------------------------------------------===//
// reduce_row
//===----------------------------------------------------------------------===//

/// The statement that puts `acc` into the output element at `out`: combined
/// with the constant of the output's fill when the problem owns it (the
/// output is then written, never read), else with the output's value.
static std::string emitOutputUpdate(const ProblemView &view,
                                    const ReductionView &rv, StringRef out,
                                    StringRef acc) {
  if (view.initValue)
    return llvm::formatv("stark_kernels::storeFromInit<StarkCombine>({0}, "
                         "(acc_t)({1}), {2})",
                         out,
                         emitScalarLiteral(rv.accumulatorKind, *view.initValue,
                                           int64_t(*view.initValue)),
                         acc)
        .str();
  return llvm::formatv("stark_kernels::accumulateInto<StarkCombine>({0}, {1})",
                       out, acc)
      .str();
}

/// Whether `p` makes a valid reduce_row kernel for `rv`: block shape,
/// vector width the rows' alignment allows, grid and partials' size.
static LogicalResult checkReduceRowParams(const ProblemView &view,
                                          const ReductionView &rv,
                                          const ReduceRowParams &p,
                                          std::string &whyNot) {
  if (!isPowerOfTwo(p.threads) || p.threads > 1024 || p.rows < 1 ||
      p.threads * p.rows > 1024 || p.split < 1 || !isPowerOfTwo(p.vec)) {
    whyNot = "threads must be a power of two, threads * rows at most 1024, "
             "vec a power of two, split at least 1";
    return failure();
  }
  if (failed(checkRowVector(p.vec, maxRowVector(view, rv), whyNot)))
    return failure();
  if (ceilDiv(rv.rows, p.rows) > (int64_t(1) << 31) - 1 || p.split > 65535 ||
      rv.rows * p.split > (int64_t(1) << 24)) {
    whyNot = "grid or partial buffer too large";
    return failure();
  }
  return success();
}

/// The start of a reduction's source: the prelude with Reduce.cuh, a line
/// saying what the kernel computes (`kind`, `shape`), the index type and
/// the combiner.
static std::string beginReductionSource(const ProblemView &view,
                                        const ReductionView &rv, StringRef kind,
                                        const Twine &shape) {
  std::string s =
      getCudaPrelude(view, {"Loops.cuh", "Lanes.cuh", "Reduce.cuh"});
  llvm::raw_string_ostream os(s);
  os << "// " << kind << " reduction (" << rv.combiner << ") of " << view.opName
     << ": " << shape << ".\n";
  os << "typedef " << getIndexType(view) << " idx_t;\n";
  emitReductionOp(os, rv);
  os.flush();
  return s;
}

/// pre() of the point whose inputs are `argExprs`, combined into `acc`:
/// what both reductions do at each reduced point.
static void emitPreIntoAcc(llvm::raw_ostream &os, const ProblemView &view,
                           const ReductionView &rv,
                           MutableArrayRef<std::string> argExprs,
                           ArrayRef<std::string> names, StringRef indent) {
  argExprs.back() = "StarkCombine::identity()"; // never read by pre()
  SmallVector<std::string> results;
  std::string pre = emitScalarProgram(*view.body, argExprs, names, "v", results,
                                      {rv.preNode});
  emitLines(os, indent, pre);
  os << indent << "acc = StarkCombine()(acc, (acc_t)(" << results[0] << "));\n";
}

/// The constants of a reduce_row kernel, and the partial results of rows
/// split over blocks.
static void emitReduceRowConstants(llvm::raw_ostream &os,
                                   const ReductionView &rv,
                                   const ReduceRowParams &p) {
  int64_t chunk = ceilDiv(ceilDiv(rv.length, p.split), p.vec) * p.vec;
  os << "constexpr idx_t ROWS = " << rv.rows << ", LEN = " << rv.length
     << ", CHUNK = " << chunk << ";\n";
  os << "constexpr int TPR = " << p.threads << ", RPB = " << p.rows
     << ", VEC = " << p.vec << ", SPLIT = " << p.split << ";\n";
  if (p.split > 1)
    os << "// Partial results of the SPLIT parts of each row.\n"
       << "__device__ acc_t stark_partials[ROWS * SPLIT];\n";
}

/// Declares, once per row, the invariant inputs' values and the offsets of
/// the row's start in the others; returns how each input is read along the
/// row (the invariant ones' expressions go to `argExprs`).
static SmallVector<RowAccess>
emitRowBases(llvm::raw_ostream &os, const ProblemView &view,
             const ReductionView &rv, ArrayRef<std::string> names,
             MutableArrayRef<std::string> argExprs) {
  SmallVector<RowAccess> kinds;
  for (auto [k, in] : llvm::enumerate(view.inputs)) {
    kinds.push_back(RowAccess::Invariant);
    if (in.argNumber < 0)
      continue;
    kinds[k] = classifyRow(view, rv, in);
    std::string base =
        emitLinearOffset(in.access, rv.parallelLoops, names, true);
    if (kinds[k] == RowAccess::Invariant) {
      os << "    const " << getCudaComputeType(in.kind) << " x" << k
         << " = stark_widen(" << argName(in.argNumber) << "[" << base
         << "]);\n";
      argExprs[k] = "x" + std::to_string(k);
    } else {
      os << "    const idx_t b" << k << " = " << base << ";\n";
    }
  }
  return kinds;
}

/// The walk over the lane's elements of its part of the row: a vector of
/// each contiguous input per step, then per element its position, the
/// other inputs and pre() combined into acc.
static void emitRowWalk(llvm::raw_ostream &os, const ProblemView &view,
                        const ReductionView &rv, ArrayRef<std::string> names,
                        ArrayRef<RowAccess> kinds,
                        MutableArrayRef<std::string> argExprs) {
  os << "    stark_kernels::forRowPart<TPR, VEC, CHUNK, LEN>(part, lane, "
        "[&](idx_t e) {\n";
  for (auto [k, in] : llvm::enumerate(view.inputs)) {
    if (in.argNumber < 0 || kinds[k] != RowAccess::Contiguous)
      continue;
    std::string t = getCudaStorageType(in.kind).str();
    os << "      const StarkVec<" << t << ", VEC> y" << k
       << " = stark_kernels::loadVec<VEC>(" << argName(in.argNumber) << " + b"
       << k << " + e);\n";
    argExprs[k] = "stark_widen(y" + std::to_string(k) + ".v[j])";
  }
  os << "#pragma unroll\n";
  os << "      for (int j = 0; j < VEC; ++j) {\n";
  os << "        const idx_t r = e + j;\n";
  os << emitDecode("        ", "idx_t", "r", rv.reducedLoops, view.loopRanges,
                   names);
  for (auto [k, in] : llvm::enumerate(view.inputs)) {
    if (in.argNumber < 0 || kinds[k] != RowAccess::General)
      continue;
    os << "        const " << getCudaComputeType(in.kind) << " z" << k
       << " = stark_widen(" << argName(in.argNumber) << "[b" << k << " + "
       << emitLinearOffset(in.access, rv.reducedLoops, names, false) << "]);\n";
    argExprs[k] = "z" + std::to_string(k);
  }
  emitPreIntoAcc(os, view, rv, argExprs, names, "        ");
  os << "      }\n    });\n";
}

/// The lanes' combine and the row's output: stored by the row's first lane,
/// or, with split rows, left in stark_partials for a second kernel that
/// combines a row's parts and stores the output.
static void emitReduceRowStore(llvm::raw_ostream &os, const ProblemView &view,
                               const ReductionView &rv,
                               const ReduceRowParams &p) {
  os << "  acc = stark_kernels::reduceRowLanes<StarkCombine, TPR, RPB>(acc);\n";
  std::string outPtr = argName(view.outputs[0].argNumber);
  if (p.split == 1) {
    os << "  if (lane == 0 && row < ROWS) "
       << emitOutputUpdate(view, rv, outPtr + " + row", "acc") << ";\n}\n";
    return;
  }
  os << "  if (lane == 0 && row < ROWS) stark_partials[row * SPLIT + part] "
        "= acc;\n}\n\n";
  os << "extern \"C\" __global__ void __launch_bounds__(256) "
        "stark_reduce_row_finish("
     << getKernelParameters(view) << ") {\n";
  os << "  const idx_t row = (idx_t)blockIdx.x * 256 + threadIdx.x;\n";
  os << "  if (row >= ROWS) return;\n";
  os << "  "
     << emitOutputUpdate(view, rv, outPtr + " + row",
                         "stark_kernels::combineParts<StarkCombine, "
                         "SPLIT>(stark_partials + row * SPLIT)")
     << ";\n}\n";
}

/// The launches of a reduce_row source: RPB rows to a block, SPLIT blocks
/// to a row, then with split rows the kernel that finishes them.
static CudaKernelPlan makeReduceRowPlan(const ReductionView &rv,
                                        const ReduceRowParams &p,
                                        std::string source) {
  CudaKernelPlan plan = makeOneLaunchPlan(
      "reduce_row", std::move(source), "stark_reduce_row",
      {ceilDiv(rv.rows, p.rows), p.split, 1}, {p.threads, p.rows, 1});
  if (p.split > 1) {
    CudaKernelPlan::Launch finish;
    finish.kernel = "stark_reduce_row_finish";
    finish.grid = {ceilDiv(rv.rows, 256), 1, 1};
    finish.block = {256, 1, 1};
    plan.launches.push_back(finish);
  }
  plan.threadsPerBlock =
      std::max<int64_t>(p.threads * p.rows, p.split > 1 ? 256 : 0);
  plan.sharedBytesPerBlock =
      p.threads > 32
          ? p.rows * (p.threads / 32) * getElementKindBytes(rv.accumulatorKind)
          : 0;
  return plan;
}

FailureOr<CudaKernelPlan> mlir::stark::generateReduceRowKernel(
    const ProblemView &view, const ReduceRowParams &p, std::string &whyNot) {
  if (failed(checkReduceApplies(view, whyNot)))
    return failure();
  const ReductionView &rv = *view.reduction;
  if (failed(checkReduceRowParams(view, rv, p, whyNot)))
    return failure();
  SmallVector<std::string> names = loopNames(view);

  // The row walk, the lanes' combining and the split parts are Reduce.cuh;
  // the part written here decodes rows and elements and evaluates pre().
  std::string s = beginReductionSource(
      view, rv, "Row", Twine(rv.rows) + " rows of " + Twine(rv.length));
  llvm::raw_string_ostream os(s);
  emitReduceRowConstants(os, rv, p);
  os << "\nextern \"C\" __global__ void __launch_bounds__(TPR * RPB) "
        "stark_reduce_row("
     << getKernelParameters(view) << ") {\n";
  os << "  const int lane = threadIdx.x;\n"
        "  const idx_t row = (idx_t)blockIdx.x * RPB + threadIdx.y;\n"
        "  const int part = blockIdx.y;\n"
        "  acc_t acc = StarkCombine::identity();\n"
        "  if (row < ROWS) {\n";
  os << emitDecode("    ", "idx_t", "row", rv.parallelLoops, view.loopRanges,
                   names);
  // Invariant inputs once per row, the others relative to the row's base.
  SmallVector<std::string> argExprs(view.inputs.size() + 1);
  SmallVector<RowAccess> kinds = emitRowBases(os, view, rv, names, argExprs);
  emitRowWalk(os, view, rv, names, kinds, argExprs);
  os << "  }\n";
  emitReduceRowStore(os, view, rv, p);
  os.flush();
  return makeReduceRowPlan(rv, p, std::move(s));
}

std::vector<ReduceRowParams>
cudatpl::enumerateReduceRow(const ProblemView &view,
                            const HardwareProfile &profile) {
  const ReductionView &rv = *view.reduction;
  int64_t maxVec = maxRowVector(view, rv);
  int64_t maxThreads = getMaxBlockThreads(profile);
  int64_t sms = getNumUnits(profile);
  std::vector<std::pair<ReduceRowParams, double>> scored;
  SmallVector<int64_t> vecs = getVectorWidths(maxVec);
  for (int64_t vec : vecs) {
    for (int64_t tpr : {32, 64, 128, 256, 512, 1024, 16, 8, 4}) {
      for (int64_t block : {256, 128, 512}) {
        int64_t rows = std::max<int64_t>(1, block / tpr);
        if (tpr * rows != block && block != 256)
          continue; // one entry per lane count with a whole-row block
        // No more rows per block than there are rows.
        rows = std::min<int64_t>(rows, int64_t(llvm::PowerOf2Ceil(rv.rows)));
        if (tpr * rows > maxThreads)
          continue;
        // Split rows over blocks only when there are too few rows to fill
        // the machine and each part still has several lane-strides.
        SmallVector<int64_t> splits = {1};
        int64_t blocks = ceilDiv(rv.rows, rows);
        if (blocks < 2 * sms) {
          int64_t want = llvm::PowerOf2Ceil(ceilDiv(2 * sms, blocks));
          int64_t most = std::max<int64_t>(1, rv.length / (tpr * vec));
          int64_t split =
              std::min<int64_t>(want, int64_t(llvm::bit_floor(uint64_t(most))));
          if (split > 1 && rv.rows * split <= (int64_t(1) << 24))
            splits.insert(splits.begin(), std::min<int64_t>(split, 65535));
        }
        for (int64_t split : splits) {
          ReduceRowParams p{tpr, rows, vec, split};
          double lanes =
              std::min(1.0, double(rv.length) / double(split * tpr * vec));
          // Elements in flight per SM: threads times vector width.
          double fill =
              std::min(1.0, double(blocks * split * tpr * rows * vec) /
                                double(sms * 2048));
          // Rows split over blocks are long: one row per block with many
          // lanes beat several rows of few lanes each on the H200 (layer
          // norm's 8 rows of 524288: 13 us against 21 us).
          double score = lanes * fill * (vec == maxVec ? 1.0 : 0.7) *
                         (split > 1 ? (rows == 1 ? 0.95 : 0.9) : 1.0);
          scored.push_back({p, score});
        }
      }
    }
  }
  std::vector<ReduceRowParams> out;
  for (const ReduceRowParams &p : sortByScore(std::move(scored)))
    if (llvm::none_of(out, [&](const ReduceRowParams &q) {
          return q.threads == p.threads && q.rows == p.rows && q.vec == p.vec &&
                 q.split == p.split;
        }))
      out.push_back(p);
  return out;
}

//===----------------------------------------------------------------------===//
// reduce_col
//===----------------------------------------------------------------------===//

/// Parallel loops ordered by the largest input's strides, so neighbouring
/// threads read neighbouring elements.
static SmallVector<unsigned> columnOrder(const ProblemView &view,
                                         const ReductionView &rv) {
  const OperandView *primary = nullptr;
  int64_t most = -1;
  for (const OperandView &in : view.inputs) {
    if (in.argNumber < 0)
      continue;
    int64_t n = 1;
    for (int64_t d : in.shape)
      n *= d;
    if (n > most) {
      most = n;
      primary = &in;
    }
  }
  if (!primary)
    return rv.parallelLoops;
  return sortLoopsByStride(rv.parallelLoops, primary->access);
}

FailureOr<CudaKernelPlan> mlir::stark::generateReduceColKernel(
    const ProblemView &view, const ReduceColParams &p, std::string &whyNot) {
  if (failed(checkReduceApplies(view, whyNot)))
    return failure();
  const ReductionView &rv = *view.reduction;
  if (p.blockX < 1 || !isPowerOfTwo(p.splitY) || p.blockX * p.splitY > 1024 ||
      (p.blockX * p.splitY) % 32) {
    whyNot = "split_y must be a power of two and block_x * split_y a "
             "multiple of 32 up to 1024";
    return failure();
  }
  SmallVector<std::string> names = loopNames(view);
  SmallVector<unsigned> order = columnOrder(view, rv);
  const OperandView &out = view.outputs[0];
  std::string outPtr = argName(out.argNumber);

  // The walk over the reduced points and the tree over a column's threads
  // are Reduce.cuh; the part written here decodes and evaluates pre().
  std::string s =
      beginReductionSource(view, rv, "Column",
                           Twine(rv.rows) + " outputs, " + Twine(rv.length) +
                               " reduced points each");
  llvm::raw_string_ostream os(s);
  os << "constexpr idx_t OUTPUTS = " << rv.rows << ", LEN = " << rv.length
     << ";\n";
  os << "constexpr int BX = " << p.blockX << ", SY = " << p.splitY << ";\n\n";
  os << "extern \"C\" __global__ void __launch_bounds__(BX * SY) "
        "stark_reduce_col("
     << getKernelParameters(view) << ") {\n";
  os << "  const idx_t p = (idx_t)blockIdx.x * BX + threadIdx.x;\n";
  os << "  acc_t acc = StarkCombine::identity();\n";
  os << "  idx_t o = 0;\n";
  os << "  if (p < OUTPUTS) {\n";
  os << emitDecode("    ", "idx_t", "p", order, view.loopRanges, names);
  os << "    o = " << emitLinearOffset(out.access, order, names, true) << ";\n";
  unsigned numIn = view.inputs.size();
  SmallVector<std::string> argExprs(numIn + 1);
  for (auto [k, in] : llvm::enumerate(view.inputs)) {
    if (in.argNumber < 0)
      continue;
    os << "    const idx_t b" << k << " = "
       << emitLinearOffset(in.access, order, names, true) << ";\n";
  }
  os << "    stark_kernels::forLaneVectors<SY, 1>((idx_t)0, LEN, "
        "threadIdx.y, [&](idx_t r) {\n";
  os << emitDecode("      ", "idx_t", "r", rv.reducedLoops, view.loopRanges,
                   names);
  for (auto [k, in] : llvm::enumerate(view.inputs)) {
    if (in.argNumber < 0)
      continue;
    std::string off = "b" + std::to_string(k);
    std::string extra =
        emitLinearOffset(in.access, rv.reducedLoops, names, false);
    if (extra != "0")
      off += " + " + extra;
    os << "      const " << getCudaComputeType(in.kind) << " x" << k
       << " = stark_widen(" << argName(in.argNumber) << "[" << off << "]);\n";
    argExprs[k] = "x" + std::to_string(k);
  }
  emitPreIntoAcc(os, view, rv, argExprs, names, "      ");
  os << "    });\n  }\n";
  os << "  acc = stark_kernels::reduceColumnThreads<StarkCombine, BX, "
        "SY>(acc);\n";
  os << "  if (threadIdx.y == 0 && p < OUTPUTS) "
     << emitOutputUpdate(view, rv, outPtr + " + o", "acc") << ";\n}\n";

  return makeOneLaunchPlan(
      "reduce_col", std::move(s), "stark_reduce_col",
      {ceilDiv(rv.rows, p.blockX), 1, 1}, {p.blockX, p.splitY, 1},
      /*staticShared=*/p.splitY > 1
          ? p.splitY * p.blockX * getElementKindBytes(rv.accumulatorKind)
          : 0);
}

std::vector<ReduceColParams>
cudatpl::enumerateReduceCol(const ProblemView &view,
                            const HardwareProfile &profile) {
  const ReductionView &rv = *view.reduction;
  int64_t maxThreads = getMaxBlockThreads(profile);
  int64_t sms = getNumUnits(profile);
  std::vector<std::pair<ReduceColParams, double>> scored;
  for (int64_t bx : {32, 64, 128, 256}) {
    for (int64_t sy : {1, 2, 4, 8, 16, 32}) {
      if (bx * sy > maxThreads || bx * sy > 1024 || (bx * sy) % 32 ||
          bx * sy < 64)
        continue;
      if (sy > 1 && rv.length < sy * 4)
        continue;
      double blocks = double(ceilDiv(rv.rows, bx));
      double fill =
          std::min(1.0, blocks * double(bx * sy) / double(sms * 1024));
      double useful = double(rv.rows) / (blocks * double(bx));
      // Fewer partial combines are cheaper when the machine is full anyway.
      double score = fill * useful * (1.0 - 0.02 * double(sy));
      scored.push_back({{bx, sy}, score});
    }
  }
  return sortByScore(std::move(scored));
}

//===----------------------------------------------------------------------===//
// The families
//===----------------------------------------------------------------------===//

std::unique_ptr<StrategyFamily> mlir::stark::createReduceRowFamily() {
  using P = ReduceRowParams;
  static const ParamField<P> fields[] = {{"threads", &P::threads},
                                         {"rows", &P::rows},
                                         {"vec", &P::vec},
                                         {"split", &P::split}};
  auto rank = [](const ProblemView &view, bool) {
    return rankReductionFamily(view, /*rows=*/true);
  };
  return makeFunctionFamily<P>("reduce_row", fields, {/*initValue=*/true}, rank,
                               checkReduceApplies, enumerateReduceRow,
                               generateReduceRowKernel);
}

std::unique_ptr<StrategyFamily> mlir::stark::createReduceColFamily() {
  using P = ReduceColParams;
  static const ParamField<P> fields[] = {{"block_x", &P::blockX},
                                         {"split_y", &P::splitY}};
  // A window per output: after direct (RankingKind::Window).
  auto rank = [](const ProblemView &view, bool) -> std::optional<unsigned> {
    if (getRankingKind(view) == RankingKind::Window)
      return kSecond;
    return rankReductionFamily(view, /*rows=*/false);
  };
  return makeFunctionFamily<P>("reduce_col", fields, {/*initValue=*/true}, rank,
                               checkReduceApplies, enumerateReduceCol,
                               generateReduceColKernel);
}
