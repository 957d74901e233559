//===- CudaTemplatesReduction.cpp - Reduction and softmax templates -------===//
//
// Reductions combine pre(inputs) over the reduced loops into the initial
// output value with the payload's combiner. reduce_row gives each output a
// group of lanes that walk a contiguous row (warp shuffles, then shared
// memory across warps, optionally split over blocks with a second launch);
// reduce_col gives each output one thread, so that neighbouring threads read
// neighbouring addresses when the reduced loops are the outer ones. Softmax
// is the online (running max, rescaled sum) form, one row per lane group.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

static SmallVector<std::string> loopNames(const ProblemView &view) {
  SmallVector<std::string> names;
  for (int64_t d = 0; d < view.numLoops(); ++d)
    names.push_back("i" + std::to_string(d));
  return names;
}

static void emitLines(llvm::raw_ostream &os, StringRef indent, StringRef text) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n', -1, false);
  for (StringRef line : lines)
    os << indent << line << "\n";
}

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

/// The accumulator type and the helpers every reduction kernel uses.
static void emitReductionHelpers(llvm::raw_ostream &os,
                                 const ReductionView &rv) {
  ScalarKind acc = rv.accumulatorKind;
  os << "typedef " << getCudaComputeType(acc) << " acc_t;\n";
  os << "__device__ __forceinline__ acc_t stark_combine(acc_t a, acc_t b) { "
        "return "
     << emitCombine(rv.combiner, acc, "a", "b") << "; }\n";
  os << "#define STARK_IDENTITY (" << emitCombineIdentity(rv.combiner, acc)
     << ")\n";
  os << R"cuda(// Combines the values of WIDTH consecutive lanes into the first of them.
template <int WIDTH> __device__ __forceinline__ acc_t stark_lanes_reduce(acc_t v) {
#pragma unroll
  for (int off = WIDTH / 2; off > 0; off /= 2) {
    const acc_t other = __shfl_down_sync(0xffffffffu, v, off, WIDTH);
    v = stark_combine(v, other);
  }
  return v;
}

)cuda";
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

static int64_t widestInputBytes(const ProblemView &view) {
  int64_t bytes = 1;
  for (const OperandView &in : view.inputs)
    if (in.argNumber >= 0)
      bytes = std::max(bytes, getScalarKindBytes(in.kind));
  return bytes;
}

/// Largest vector width a row reduction can load with.
static int64_t maxRowVector(const ProblemView &view, const ReductionView &rv) {
  int64_t best = 16 / widestInputBytes(view);
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

FailureOr<CudaKernelPlan> mlir::stark::generateReduceRowKernel(
    const ProblemView &view, const ReduceRowParams &p, std::string &whyNot) {
  if (failed(checkReduceApplies(view, whyNot)))
    return failure();
  const ReductionView &rv = *view.reduction;
  auto pow2 = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  if (!pow2(p.threads) || p.threads > 1024 || p.rows < 1 ||
      p.threads * p.rows > 1024 || p.split < 1 || !pow2(p.vec)) {
    whyNot = "threads must be a power of two, threads * rows at most 1024, "
             "vec a power of two, split at least 1";
    return failure();
  }
  if (p.vec > maxRowVector(view, rv)) {
    whyNot = llvm::formatv("vec={0} exceeds the widest aligned access along "
                           "the rows ({1})",
                           p.vec, maxRowVector(view, rv));
    return failure();
  }
  if (ceilDiv(rv.rows, p.rows) > (int64_t(1) << 31) - 1 || p.split > 65535 ||
      rv.rows * p.split > (int64_t(1) << 24)) {
    whyNot = "grid or partial buffer too large";
    return failure();
  }
  int64_t vec = p.vec;
  int64_t chunk = ceilDiv(ceilDiv(rv.length, p.split), vec) * vec;
  std::string idx = getIndexType(view);
  SmallVector<std::string> names = loopNames(view);
  const OperandView &out = view.outputs[0];
  std::string outType = getCudaStorageType(out.kind).str();

  std::string s = getCudaPrelude(view);
  llvm::raw_string_ostream os(s);
  os << "// Row reduction (" << rv.combiner << ") of " << view.opName << ": "
     << rv.rows << " rows of " << rv.length << ".\n";
  os << "typedef " << idx << " idx_t;\n";
  emitReductionHelpers(os, rv);
  os << "constexpr idx_t ROWS = " << rv.rows << ", LEN = " << rv.length
     << ", CHUNK = " << chunk << ";\n";
  os << "constexpr int TPR = " << p.threads << ", RPB = " << p.rows
     << ", VEC = " << vec << ", SPLIT = " << p.split << ";\n";
  if (p.split > 1)
    os << "// Partial results of the SPLIT parts of each row.\n"
       << "__device__ acc_t stark_partials[ROWS * SPLIT];\n";
  os << "\nextern \"C\" __global__ void __launch_bounds__(TPR * RPB) "
        "stark_reduce_row("
     << getKernelParameters(view) << ") {\n";
  os << R"cuda(  const int lane = threadIdx.x;
  const idx_t row = (idx_t)blockIdx.x * RPB + threadIdx.y;
  const int part = blockIdx.y;
  acc_t acc = STARK_IDENTITY;
  if (row < ROWS) {
)cuda";
  os << emitDecode("    ", "idx_t", "row", rv.parallelLoops, view.loopRanges,
                   names);
  // Invariant inputs once per row, the others relative to the row's base.
  unsigned numIn = view.inputs.size();
  SmallVector<RowAccess> kinds;
  SmallVector<std::string> argExprs(numIn + 1);
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
  os << "    const idx_t begin = (idx_t)part * CHUNK;\n";
  os << "    const idx_t end = begin + CHUNK < LEN ? begin + CHUNK : LEN;\n";
  // Unrolled so that several loads are in flight before the first use.
  os << "#pragma unroll 4\n";
  os << "    for (idx_t e = begin + (idx_t)lane * VEC; e < end; e += TPR * "
        "VEC) {\n";
  for (auto [k, in] : llvm::enumerate(view.inputs)) {
    if (in.argNumber < 0 || kinds[k] != RowAccess::Contiguous)
      continue;
    std::string t = getCudaStorageType(in.kind).str();
    os << "      const StarkVec<" << t << ", VEC> y" << k
       << " = *reinterpret_cast<const StarkVec<" << t << ", VEC>*>("
       << argName(in.argNumber) << " + b" << k << " + e);\n";
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
  argExprs[numIn] = "STARK_IDENTITY"; // never read by the pre-expression
  SmallVector<std::string> results;
  std::string pre = emitScalarProgram(*view.body, argExprs, names, "v", results,
                                      {rv.preNode});
  emitLines(os, "        ", pre);
  os << "        acc = stark_combine(acc, (acc_t)(" << results[0] << "));\n";
  os << "      }\n    }\n  }\n";
  os << R"cuda(  acc = stark_lanes_reduce<(TPR < 32 ? TPR : 32)>(acc);
  if constexpr (TPR > 32) {
    __shared__ acc_t warp_partials[RPB][TPR > 32 ? TPR / 32 : 1];
    if (lane % 32 == 0) warp_partials[threadIdx.y][lane / 32] = acc;
    __syncthreads();
    if (lane < 32) {
      acc = lane < TPR / 32 ? warp_partials[threadIdx.y][lane] : STARK_IDENTITY;
      acc = stark_lanes_reduce<32>(acc);
    }
  }
  if (lane == 0 && row < ROWS) {
)cuda";
  std::string outPtr = argName(out.argNumber);
  if (p.split > 1) {
    os << "    stark_partials[row * SPLIT + part] = acc;\n  }\n}\n\n";
    os << "extern \"C\" __global__ void __launch_bounds__(256) "
          "stark_reduce_row_finish("
       << getKernelParameters(view) << ") {\n";
    os << "  const idx_t row = (idx_t)blockIdx.x * 256 + threadIdx.x;\n";
    os << "  if (row >= ROWS) return;\n";
    os << "  acc_t acc = STARK_IDENTITY;\n";
    os << "  for (int q = 0; q < SPLIT; ++q) acc = stark_combine(acc, "
          "stark_partials[row * SPLIT + q]);\n";
    os << "  " << outPtr << "[row] = stark_cast<" << outType
       << ">(stark_combine((acc_t)stark_widen(" << outPtr
       << "[row]), acc));\n}\n";
  } else {
    os << "    " << outPtr << "[row] = stark_cast<" << outType
       << ">(stark_combine((acc_t)stark_widen(" << outPtr
       << "[row]), acc));\n  }\n}\n";
  }

  CudaKernelPlan plan;
  plan.source = std::move(s);
  plan.family = "reduce_row";
  CudaKernelPlan::Launch launch;
  launch.kernel = "stark_reduce_row";
  launch.grid = {ceilDiv(rv.rows, p.rows), p.split, 1};
  launch.block = {p.threads, p.rows, 1};
  plan.launches.push_back(launch);
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
          ? p.rows * (p.threads / 32) * getScalarKindBytes(rv.accumulatorKind)
          : 0;
  setParam(plan, "threads", p.threads);
  setParam(plan, "rows", p.rows);
  setParam(plan, "vec", p.vec);
  setParam(plan, "split", p.split);
  return plan;
}

std::vector<ReduceRowParams>
cudatpl::enumerateReduceRow(const ProblemView &view,
                            const HardwareProfile &profile) {
  const ReductionView &rv = *view.reduction;
  int64_t maxVec = maxRowVector(view, rv);
  int64_t maxThreads =
      profile.maxThreadsPerBlock > 0 ? profile.maxThreadsPerBlock : 1024;
  int64_t sms = std::max<int64_t>(profile.numComputeUnits, 1);
  struct Scored {
    ReduceRowParams p;
    double score;
  };
  std::vector<Scored> scored;
  SmallVector<int64_t> vecs = {maxVec};
  if (maxVec > 1)
    vecs.push_back(1);
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
          double score = lanes * fill * (vec == maxVec ? 1.0 : 0.7) *
                         (split > 1 ? 0.95 : 1.0);
          scored.push_back({p, score});
        }
      }
    }
  }
  std::stable_sort(
      scored.begin(), scored.end(),
      [](const Scored &a, const Scored &b) { return a.score > b.score; });
  std::vector<ReduceRowParams> out;
  for (const Scored &s : scored)
    if (llvm::none_of(out, [&](const ReduceRowParams &q) {
          return q.threads == s.p.threads && q.rows == s.p.rows &&
                 q.vec == s.p.vec && q.split == s.p.split;
        }))
      out.push_back(s.p);
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
  auto pow2 = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  if (p.blockX < 1 || !pow2(p.splitY) || p.blockX * p.splitY > 1024 ||
      (p.blockX * p.splitY) % 32) {
    whyNot = "split_y must be a power of two and block_x * split_y a "
             "multiple of 32 up to 1024";
    return failure();
  }
  std::string idx = getIndexType(view);
  SmallVector<std::string> names = loopNames(view);
  SmallVector<unsigned> order = columnOrder(view, rv);
  const OperandView &out = view.outputs[0];
  std::string outType = getCudaStorageType(out.kind).str();
  std::string outPtr = argName(out.argNumber);

  std::string s = getCudaPrelude(view);
  llvm::raw_string_ostream os(s);
  os << "// Column reduction (" << rv.combiner << ") of " << view.opName << ": "
     << rv.rows << " outputs, " << rv.length << " reduced points each.\n";
  os << "typedef " << idx << " idx_t;\n";
  emitReductionHelpers(os, rv);
  os << "constexpr idx_t OUTPUTS = " << rv.rows << ", LEN = " << rv.length
     << ";\n";
  os << "constexpr int BX = " << p.blockX << ", SY = " << p.splitY << ";\n\n";
  os << "extern \"C\" __global__ void __launch_bounds__(BX * SY) "
        "stark_reduce_col("
     << getKernelParameters(view) << ") {\n";
  os << "  const idx_t p = (idx_t)blockIdx.x * BX + threadIdx.x;\n";
  os << "  acc_t acc = STARK_IDENTITY;\n";
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
  os << "#pragma unroll 4\n";
  os << "    for (idx_t r = threadIdx.y; r < LEN; r += SY) {\n";
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
  argExprs[numIn] = "STARK_IDENTITY";
  SmallVector<std::string> results;
  std::string pre = emitScalarProgram(*view.body, argExprs, names, "v", results,
                                      {rv.preNode});
  emitLines(os, "      ", pre);
  os << "      acc = stark_combine(acc, (acc_t)(" << results[0] << "));\n";
  os << "    }\n  }\n";
  os << R"cuda(  if constexpr (SY > 1) {
    __shared__ acc_t partial[SY][BX];
    partial[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
#pragma unroll
    for (int half = SY / 2; half > 0; half /= 2) {
      if (threadIdx.y < half)
        partial[threadIdx.y][threadIdx.x] = stark_combine(partial[threadIdx.y][threadIdx.x], partial[threadIdx.y + half][threadIdx.x]);
      __syncthreads();
    }
    acc = partial[0][threadIdx.x];
  }
  if (threadIdx.y == 0 && p < OUTPUTS)
)cuda";
  os << "    " << outPtr << "[o] = stark_cast<" << outType
     << ">(stark_combine((acc_t)stark_widen(" << outPtr << "[o]), acc));\n}\n";

  CudaKernelPlan plan;
  plan.source = std::move(s);
  plan.family = "reduce_col";
  CudaKernelPlan::Launch launch;
  launch.kernel = "stark_reduce_col";
  launch.grid = {ceilDiv(rv.rows, p.blockX), 1, 1};
  launch.block = {p.blockX, p.splitY, 1};
  plan.launches.push_back(launch);
  plan.threadsPerBlock = p.blockX * p.splitY;
  plan.sharedBytesPerBlock =
      p.splitY > 1
          ? p.splitY * p.blockX * getScalarKindBytes(rv.accumulatorKind)
          : 0;
  setParam(plan, "block_x", p.blockX);
  setParam(plan, "split_y", p.splitY);
  return plan;
}

std::vector<ReduceColParams>
cudatpl::enumerateReduceCol(const ProblemView &view,
                            const HardwareProfile &profile) {
  const ReductionView &rv = *view.reduction;
  int64_t maxThreads =
      profile.maxThreadsPerBlock > 0 ? profile.maxThreadsPerBlock : 1024;
  int64_t sms = std::max<int64_t>(profile.numComputeUnits, 1);
  struct Scored {
    ReduceColParams p;
    double score;
  };
  std::vector<Scored> scored;
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
  std::stable_sort(
      scored.begin(), scored.end(),
      [](const Scored &a, const Scored &b) { return a.score > b.score; });
  std::vector<ReduceColParams> out;
  for (const Scored &s : scored)
    out.push_back(s.p);
  return out;
}

//===----------------------------------------------------------------------===//
// softmax
//===----------------------------------------------------------------------===//

LogicalResult cudatpl::checkSoftmaxApplies(const ProblemView &view,
                                           std::string &whyNot) {
  if (!view.softmax) {
    whyNot = "the problem is not linalg.softmax";
    return failure();
  }
  if (!isFloatKind(view.softmax->inKind) ||
      !isFloatKind(view.softmax->outKind)) {
    whyNot = "softmax needs float input and output";
    return failure();
  }
  return success();
}

static int64_t maxSoftmaxVector(const SoftmaxView &sv) {
  if (sv.inner != 1)
    return 1;
  int64_t bytes =
      std::max(getScalarKindBytes(sv.inKind), getScalarKindBytes(sv.outKind));
  int64_t v = 16 / bytes;
  while (v > 1 && sv.length % v)
    v /= 2;
  return v;
}

FailureOr<CudaKernelPlan> mlir::stark::generateSoftmaxKernel(
    const ProblemView &view, const SoftmaxParams &p, std::string &whyNot) {
  if (failed(checkSoftmaxApplies(view, whyNot)))
    return failure();
  const SoftmaxView &sv = *view.softmax;
  auto pow2 = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  if (!pow2(p.threads) || p.threads > 1024 || p.rows < 1 ||
      p.threads * p.rows > 1024 || !pow2(p.vec)) {
    whyNot = "threads must be a power of two, threads * rows at most 1024, "
             "vec a power of two";
    return failure();
  }
  if (p.cache && ceilDiv(sv.length, p.threads * p.vec) * p.vec > 32) {
    whyNot = llvm::formatv("cache=1 keeps {0} elements per lane in registers "
                           "(at most 32)",
                           ceilDiv(sv.length, p.threads * p.vec) * p.vec);
    return failure();
  }
  if (p.vec > maxSoftmaxVector(sv)) {
    whyNot = llvm::formatv("vec={0} exceeds the widest aligned access along "
                           "the rows ({1})",
                           p.vec, maxSoftmaxVector(sv));
    return failure();
  }
  std::string idx = getIndexType(view);
  bool dbl = sv.inKind == ScalarKind::F64 || sv.outKind == ScalarKind::F64;
  std::string ct = dbl ? "double" : "float";
  std::string inType = getCudaStorageType(sv.inKind).str();
  std::string outType = getCudaStorageType(sv.outKind).str();

  std::string s = getCudaPrelude(view);
  llvm::raw_string_ostream os(s);
  os << "// Online softmax along dimension " << sv.dim << ": " << sv.rows
     << " rows of " << sv.length << ", stride " << sv.inner << ".\n";
  os << "typedef " << idx << " idx_t;\n";
  os << "typedef " << ct << " ct_t;\n";
  os << "typedef " << inType << " TIn;\n";
  os << "typedef " << outType << " TOut;\n";
  os << "constexpr idx_t ROWS = " << sv.rows << ", LEN = " << sv.length
     << ", INNER = " << sv.inner << ";\n";
  os << "constexpr int TPR = " << p.threads << ", RPB = " << p.rows
     << ", VEC = " << p.vec << ";\n";
  os << "// Each lane's part of a row stays in registers between the passes.\n";
  os << "constexpr bool CACHE = " << (p.cache ? "true" : "false") << ";\n";
  os << "constexpr int PER_LANE = (int)((LEN + TPR * VEC - 1) / (TPR * "
        "VEC));\n";
  os << "__device__ __forceinline__ ct_t stark_exp(ct_t x) { return "
     << (dbl ? "exp(x)" : "expf(x)") << "; }\n";
  os << "#define STARK_NEG_INF ("
     << emitScalarLiteral(dbl ? ScalarKind::F64 : ScalarKind::F32, -INFINITY, 0)
     << ")\n";
  os << R"cuda(
// Adds x to the running (max, sum of exp(x - max)) of a row.
__device__ __forceinline__ void stark_online(ct_t x, ct_t& m, ct_t& s) {
  if (x > m) { s = s * stark_exp(m - x) + (ct_t)1; m = x; }
  else if (x != STARK_NEG_INF) s += stark_exp(x - m);
}
// Merges two running pairs.
__device__ __forceinline__ void stark_merge(ct_t& m, ct_t& s, ct_t m2, ct_t s2) {
  const ct_t mx = m > m2 ? m : m2;
  if (mx == STARK_NEG_INF) return;
  s = (m == STARK_NEG_INF ? (ct_t)0 : s * stark_exp(m - mx)) + (m2 == STARK_NEG_INF ? (ct_t)0 : s2 * stark_exp(m2 - mx));
  m = mx;
}

)cuda";
  os << "extern \"C\" __global__ void __launch_bounds__(TPR * RPB) "
        "stark_softmax("
     << getKernelParameters(view) << ") {\n";
  os << "  const TIn* __restrict__ in = " << argName(0) << ";\n";
  os << "  TOut* __restrict__ out = " << argName(1) << ";\n";
  os << R"cuda(  const int lane = threadIdx.x;
  const idx_t row = (idx_t)blockIdx.x * RPB + threadIdx.y;
  const idx_t base = (row / INNER) * (LEN * INNER) + row % INNER;
  ct_t m = STARK_NEG_INF, s = 0;
  // Lane-interleaved vectors: part i of a lane starts at (i * TPR + lane) * VEC.
  auto load = [&](idx_t j) {
    if constexpr (VEC > 1) {
      return *reinterpret_cast<const StarkVec<TIn, VEC>*>(in + base + j);
    } else {
      StarkVec<TIn, VEC> x;
      x.v[0] = in[base + j * INNER];
      return x;
    }
  };
  StarkVec<TIn, VEC> cached[CACHE ? PER_LANE : 1];
  if (row < ROWS) {
    if constexpr (CACHE) {
#pragma unroll
      for (int i = 0; i < PER_LANE; ++i) {
        const idx_t j = ((idx_t)i * TPR + lane) * VEC;
        if (j < LEN) {
          cached[i] = load(j);
#pragma unroll
          for (int v = 0; v < VEC; ++v) stark_online((ct_t)stark_widen(cached[i].v[v]), m, s);
        }
      }
    } else {
#pragma unroll 4
      for (idx_t j = (idx_t)lane * VEC; j < LEN; j += TPR * VEC) {
        const StarkVec<TIn, VEC> x = load(j);
#pragma unroll
        for (int v = 0; v < VEC; ++v) stark_online((ct_t)stark_widen(x.v[v]), m, s);
      }
    }
  }
  // Merge the lanes of the row, then hand the result to all of them.
  constexpr int W = TPR < 32 ? TPR : 32;
#pragma unroll
  for (int off = W / 2; off > 0; off /= 2) {
    const ct_t m2 = __shfl_down_sync(0xffffffffu, m, off, W);
    const ct_t s2 = __shfl_down_sync(0xffffffffu, s, off, W);
    stark_merge(m, s, m2, s2);
  }
  if constexpr (TPR > 32) {
    __shared__ ct_t wm[RPB][TPR > 32 ? TPR / 32 : 1], ws[RPB][TPR > 32 ? TPR / 32 : 1];
    if (lane % 32 == 0) { wm[threadIdx.y][lane / 32] = m; ws[threadIdx.y][lane / 32] = s; }
    __syncthreads();
    m = wm[threadIdx.y][0];
    s = ws[threadIdx.y][0];
    for (int w = 1; w < TPR / 32; ++w) stark_merge(m, s, wm[threadIdx.y][w], ws[threadIdx.y][w]);
  } else {
    m = __shfl_sync(0xffffffffu, m, 0, W);
    s = __shfl_sync(0xffffffffu, s, 0, W);
  }
  if (row >= ROWS) return;
  const ct_t inv = (ct_t)1 / s;
  auto store = [&](idx_t j, const StarkVec<TIn, VEC>& x) {
    StarkVec<TOut, VEC> y;
#pragma unroll
    for (int v = 0; v < VEC; ++v) y.v[v] = stark_cast<TOut>(stark_exp((ct_t)stark_widen(x.v[v]) - m) * inv);
    if constexpr (VEC > 1) *reinterpret_cast<StarkVec<TOut, VEC>*>(out + base + j) = y;
    else out[base + j * INNER] = y.v[0];
  };
  if constexpr (CACHE) {
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
      const idx_t j = ((idx_t)i * TPR + lane) * VEC;
      if (j < LEN) store(j, cached[i]);
    }
  } else {
#pragma unroll 4
    for (idx_t j = (idx_t)lane * VEC; j < LEN; j += TPR * VEC) store(j, load(j));
  }
}
)cuda";

  CudaKernelPlan plan;
  plan.source = std::move(s);
  plan.family = "softmax";
  CudaKernelPlan::Launch launch;
  launch.kernel = "stark_softmax";
  launch.grid = {ceilDiv(sv.rows, p.rows), 1, 1};
  launch.block = {p.threads, p.rows, 1};
  plan.launches.push_back(launch);
  plan.threadsPerBlock = p.threads * p.rows;
  plan.sharedBytesPerBlock =
      p.threads > 32 ? 2 * p.rows * (p.threads / 32) * (dbl ? 8 : 4) : 0;
  setParam(plan, "threads", p.threads);
  setParam(plan, "rows", p.rows);
  setParam(plan, "vec", p.vec);
  setParam(plan, "cache", p.cache);
  return plan;
}

std::vector<SoftmaxParams>
cudatpl::enumerateSoftmax(const ProblemView &view,
                          const HardwareProfile &profile) {
  const SoftmaxView &sv = *view.softmax;
  int64_t maxThreads =
      profile.maxThreadsPerBlock > 0 ? profile.maxThreadsPerBlock : 1024;
  int64_t maxVec = maxSoftmaxVector(sv);
  int64_t sms = std::max<int64_t>(profile.numComputeUnits, 1);
  std::vector<SoftmaxParams> out;
  auto add = [&](int64_t threads, int64_t rows, int64_t vec) {
    if (threads * rows > maxThreads || threads * rows > 1024)
      return;
    for (const SoftmaxParams &q : out)
      if (q.threads == threads && q.rows == rows && q.vec == vec)
        return;
    // A row that fits in the lanes' registers is read once: that variant
    // goes first.
    if (ceilDiv(sv.length, threads * vec) * vec <= 32)
      out.push_back({threads, rows, vec, /*cache=*/true});
    out.push_back({threads, rows, vec, /*cache=*/false});
  };
  SmallVector<int64_t> vecs = {maxVec};
  if (maxVec > 1)
    vecs.push_back(1);
  if (sv.inner > 1) {
    // Strided rows: a thread per row keeps neighbouring threads on
    // neighbouring addresses.
    for (int64_t rows : {128, 256, 64})
      add(1, rows, 1);
    for (int64_t rows : {4, 8})
      add(32, rows, 1);
    return out;
  }
  for (int64_t vec : vecs) {
    int64_t perLane = ceilDiv(sv.length, vec);
    // Lane counts that give each lane a few vectors, then their neighbours.
    SmallVector<int64_t> lanes;
    if (perLane <= 64)
      lanes = {32, 16, 64};
    else if (perLane <= 1024)
      lanes = {32, 64, 128, 256};
    else
      lanes = {256, 512, 1024, 128, 32};
    for (int64_t tpr : lanes) {
      int64_t rows = std::max<int64_t>(1, 256 / tpr);
      // Few rows: fewer rows per block so more SMs get one.
      if (ceilDiv(sv.rows, rows) < sms)
        rows = std::max<int64_t>(1, rows / 4);
      add(tpr, rows, vec);
    }
  }
  return out;
}
