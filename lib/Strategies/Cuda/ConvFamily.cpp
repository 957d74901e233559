//===- ConvFamily.cpp - Direct convolution on CUDA cores (conv) ----------===//
//
// A convolution is a contraction whose input is read through a sliding
// window (oh * stride + kh): more loops index the image than it has
// dimensions. Few input channels and small filters make k short (36 for a
// 3x3 filter over 4 channels), where a GEMM tile's pipeline has nothing to
// overlap and the implicit-GEMM address decoding costs more than the
// products. The conv family computes such problems directly:
//
// - each thread owns FT output channels x PW output points along the
//   output's contiguous image loop (x), the points 32 apart so that a warp's
//   loads and stores are coalesced; a block holds WF x WR warps, WF along
//   the output channels and WR along the other output loops (rows);
// - the filter values of the block's TF = WF x FT channels are staged in
//   shared memory, KCH reduction points at a time, as [k][channel]: a
//   warp's FT values for one k are one broadcast of 16-byte loads;
// - the image is read straight from global memory (through L1: the WF warps
//   of a row and the neighbouring window positions read the same lines);
//   the offset of every reduction point k in the image and the filter is a
//   table in constant memory, so k needs no decoding in the inner loop;
// - the store stage writes C = init + sum (or C += sum), or evaluates the
//   element-wise ops after the convolution (bias, activation, residual) once
//   per output element and stores the chain's output (GemmEpilogue.cpp).
//
// Any contraction of one output-channel loop whose output is contiguous
// along its last m loop fits this scheme; it is offered first for the
// sliding-window ones whose output rows fill a warp (x >= 32), after the
// implicit-GEMM kernels for narrower rows (late CNN layers: 7 or 14 wide).
//
//===----------------------------------------------------------------------===//

#include "GemmCommon.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

namespace {
struct ConvParams {
  int64_t ft = 16, pw = 4, wf = 2, wr = 4, kch = 64;
};

/// The shape of a contraction as the conv kernel walks it.
struct ConvShape {
  /// The output's contiguous m loop (the last m loop), and the other m
  /// loops (the rows), outermost first.
  unsigned xLoop = 0;
  SmallVector<unsigned> rowLoops;
  unsigned channelLoop = 0;
  int64_t x = 1, rows = 1, channels = 1, k = 1;
};
} // namespace

static ArrayRef<ParamField<ConvParams>> getConvFields() {
  static const ParamField<ConvParams> fields[] = {{"ft", &ConvParams::ft},
                                                  {"pw", &ConvParams::pw},
                                                  {"wf", &ConvParams::wf},
                                                  {"wr", &ConvParams::wr},
                                                  {"kch", &ConvParams::kch}};
  return fields;
}

/// The largest reduction the constant-memory offset tables hold (two tables
/// of 4-byte offsets in the 64 KiB of constant memory, with room to spare).
static constexpr int64_t kMaxConvK = 4096;
/// Shared memory for the staged filter values, per block.
static constexpr int64_t kMaxConvStageBytes = 48 * 1024;

static LogicalResult matchConv(const ProblemView &view, ConvShape &shape,
                               std::string &whyNot) {
  if (failed(checkGemmKernelApplies(view, "conv", whyNot)))
    return failure();
  const ContractionView &c = *view.contraction;
  if (!c.batchLoops.empty()) {
    whyNot = "conv has no batch loops (loops that index the image, the "
             "filter and the output: grouped convolutions)";
    return failure();
  }
  if (c.nLoops.size() != 1 || c.mLoops.empty()) {
    whyNot = "conv needs one output-channel loop (n) and at least one "
             "output point loop (m)";
    return failure();
  }
  if (c.k > kMaxConvK) {
    whyNot = llvm::formatv("conv keeps the offsets of the reduction in "
                           "constant memory: k = {0} is over {1}",
                           c.k, kMaxConvK);
    return failure();
  }
  shape.xLoop = c.mLoops.back();
  shape.rowLoops.assign(c.mLoops.begin(), c.mLoops.end() - 1);
  shape.channelLoop = c.nLoops.front();
  if (view.outputs[0].access.coefficients[shape.xLoop] != 1) {
    whyNot = "conv needs the output contiguous along its last output point "
             "loop (NCHW / NCW; the implicit-GEMM families take channels-last "
             "outputs)";
    return failure();
  }
  shape.x = view.loopRanges[shape.xLoop];
  shape.rows = c.m / shape.x;
  shape.channels = c.n;
  shape.k = c.k;
  return success();
}

static LogicalResult checkParams(const ConvShape &s, const ConvParams &p,
                                 std::string &whyNot) {
  auto oneOf = [](int64_t v, std::initializer_list<int64_t> set) {
    return llvm::is_contained(set, v);
  };
  if (!oneOf(p.ft, {1, 2, 4, 8, 16}) || !oneOf(p.pw, {1, 2, 4, 8}) ||
      p.wf < 1 || p.wr < 1) {
    whyNot = "ft must be 1, 2, 4, 8 or 16, pw 1, 2, 4 or 8, wf and wr "
             "positive";
    return failure();
  }
  int64_t threads = 32 * p.wf * p.wr;
  if (threads > 1024) {
    whyNot = llvm::formatv("{0} threads per block (limit 1024)", threads);
    return failure();
  }
  if (p.ft * p.pw > 64) {
    whyNot = "ft x pw must be at most 64 (accumulators per thread)";
    return failure();
  }
  int64_t tf = p.wf * p.ft;
  if (p.kch < 1 || p.kch * tf * 4 > kMaxConvStageBytes) {
    whyNot = llvm::formatv("kch x wf x ft x 4 bytes of staged filter values "
                           "must be in (0, {0}]",
                           kMaxConvStageBytes);
    return failure();
  }
  int64_t blocks =
      ceilDiv(s.x, 32 * p.pw) * ceilDiv(s.rows, p.wr) * ceilDiv(s.channels, tf);
  if (blocks > std::numeric_limits<int32_t>::max()) {
    whyNot = "too many blocks for one grid dimension";
    return failure();
  }
  return success();
}

/// `{v0, v1, ...}` of the offsets of `access` over the k loops, for every k
/// in mixed radix (outermost first).
static std::string emitKOffsetTable(const ProblemView &view,
                                    const LinearAccess &access) {
  const ContractionView &c = *view.contraction;
  std::string s = "{";
  SmallVector<int64_t> index(c.kLoops.size(), 0);
  for (int64_t k = 0; k < c.k; ++k) {
    int64_t offset = 0;
    for (auto [i, d] : llvm::enumerate(c.kLoops))
      offset += access.coefficients[d] * index[i];
    s += (k ? (k % 16 ? ", " : ",\n    ") : "") + std::to_string(offset);
    for (int64_t i = int64_t(index.size()) - 1; i >= 0; --i) {
      if (++index[i] < view.loopRanges[c.kLoops[i]])
        break;
      index[i] = 0;
    }
  }
  return s + "}";
}

static FailureOr<CudaKernelPlan> generateConvKernel(const ProblemView &view,
                                                    const ConvParams &p,
                                                    std::string &whyNot) {
  ConvShape s;
  if (failed(matchConv(view, s, whyNot)) || failed(checkParams(s, p, whyNot)))
    return failure();
  const ContractionView &c = *view.contraction;
  const OperandView &a = view.inputs[0], &b = view.inputs[1],
                    &out = view.outputs[0];
  std::string idx = getIndexType(view);
  SmallVector<std::string> names = loopNames(view);
  int64_t tf = p.wf * p.ft, xb = 32 * p.pw, threads = 32 * p.wf * p.wr;
  int64_t tilesX = ceilDiv(s.x, xb), tilesR = ceilDiv(s.rows, p.wr),
          tilesF = ceilDiv(s.channels, tf);
  std::string aName = argName(a.argNumber), bName = argName(b.argNumber),
              cName = argName(out.argNumber);

  // The kernel is Conv.cuh; the part written here is the problem as its
  // config, the offset tables and the operands' accesses.
  std::string src = getCudaPrelude(view, {"Conv.cuh"});
  llvm::raw_string_ostream os(src);
  os << "// Direct convolution: C[m, n] "
     << (view.epilogue ? "feeds the epilogue,"
                       : (c.initValue ? "= C_INIT +" : "+="))
     << " sum_k A[m, k] * B[k, n] (" << view.opName << "), m = " << s.rows
     << " rows x " << s.x << " points.\n";
  os << emitProblemConstants(c);
  os << "typedef " << idx << " idx_t;\n";
  os << llvm::formatv(
      "struct StarkConv {{\n"
      "  typedef idx_t Idx;\n"
      "  static constexpr int kFt = {0}, kPw = {1}, kWf = {2}, kWr = {3}, "
      "kKch = {4};\n"
      "  static constexpr Idx kX = {5}, kRows = {6}, kChannels = {7}, kK = "
      "K;\n"
      "  static constexpr int kTilesX = {8}, kTilesF = {9};\n"
      "};\n",
      p.ft, p.pw, p.wf, p.wr, p.kch, s.x, s.rows, s.channels, tilesX, tilesF);
  os << "// The offsets of each reduction point k in A and in B.\n";
  os << "__constant__ idx_t kOffA[" << c.k
     << "] = " << emitKOffsetTable(view, a.access) << ";\n";
  os << "__constant__ idx_t kOffB[" << c.k
     << "] = " << emitKOffsetTable(view, b.access) << ";\n";
  os << "namespace stark_addr {\n"
     << emitContractionAddressing(view, idx) << "} // namespace stark_addr\n";
  // A at (row, x) for k = 0, and B at channel n for k = 0.
  os << "__device__ __forceinline__ idx_t stark_a_base(idx_t row, idx_t x) "
        "{\n";
  os << emitDecode("  ", "idx_t", "row", s.rowLoops, view.loopRanges, names);
  os << "  const idx_t " << names[s.xLoop] << " = x;\n";
  os << "  return " << emitLinearOffset(a.access, c.mLoops, names, true)
     << ";\n}\n";
  os << "__device__ __forceinline__ idx_t stark_b_base(idx_t n) {\n";
  os << "  const idx_t " << names[s.channelLoop] << " = n;\n";
  os << "  return " << emitLinearOffset(b.access, c.nLoops, names, true)
     << ";\n}\n";
  // A problem that fills C writes C_INIT + sum, or the epilogue's output,
  // through StarkStore; otherwise the kernel adds the sum to C.
  bool store = c.initValue.has_value();
  if (store)
    os << emitStoreStruct(view, "(long long)stark_addr::c_off(b, m, n)");

  os << "\nextern \"C\" __global__ void __launch_bounds__(" << threads
     << ") stark_conv(" << getKernelParameters(view) << ") {\n";
  os << "  auto aBase = [](idx_t row, idx_t x) { return stark_a_base(row, x); "
        "};\n";
  os << "  auto aOffset = [](idx_t k) { return kOffA[k]; };\n";
  os << "  auto loadA = [&](idx_t o) -> float { return stark_widen(__ldg(&"
     << aName << "[o])); };\n";
  os << "  auto loadB = [&](idx_t f, idx_t k) -> float {\n"
     << "    return stark_widen(__ldg(&" << bName
     << "[stark_b_base(f) + kOffB[k]]));\n  };\n";
  if (store) {
    os << "  StarkStore st;\n" << emitStoreBinding(view, "st");
    os << "  auto store = [&](idx_t m, idx_t n, float sum) {\n"
       << "    st.store(0, (int)m, (int)n, sum);\n  };\n";
  } else {
    os << "  auto store = [&](idx_t m, idx_t n, float sum) {\n"
       << "    const idx_t o = stark_addr::c_off(0, m, n);\n"
       << "    " << cName << "[o] = " << cName << "[o] + sum;\n  };\n";
  }
  os << "  stark_kernels::convBlock<StarkConv>(aBase, aOffset, loadA, loadB, "
        "store);\n}\n";

  return makeOneLaunchPlan("conv", std::move(src), "stark_conv",
                           {tilesX * tilesR * tilesF, 1, 1}, {threads, 1, 1},
                           /*staticShared=*/p.kch * tf * 4);
}

/// The parameter sets worth measuring, best guess first: little waste at
/// the edges of x, the rows and the channels, two waves of blocks or more,
/// and many products per load (FT x PW products per PW image loads, FT / 4
/// filter loads and one table load).
static std::vector<ConvParams> enumerateConv(const ConvShape &s,
                                             const HardwareProfile &profile) {
  int64_t sms = getNumUnits(profile);
  int64_t maxThreads = getMaxBlockThreads(profile);
  std::vector<std::pair<ConvParams, double>> all;
  for (int64_t ft : {16, 8, 4, 2, 1})
    for (int64_t pw : {4, 2, 8, 1})
      for (int64_t wf : {1, 2, 4, 8})
        for (int64_t wr : {1, 2, 4, 8}) {
          ConvParams p{ft, pw, wf, wr, 0};
          int64_t threads = 32 * wf * wr, tf = wf * ft;
          if (threads < 128 || threads > 512 || threads > maxThreads ||
              ft * pw > 64)
            continue;
          p.kch = std::min<int64_t>(s.k, kMaxConvStageBytes / 3 / (tf * 4));
          std::string ignored;
          if (p.kch < 1 || failed(checkParams(s, p, ignored)))
            continue;
          int64_t tx = ceilDiv(s.x, 32 * pw), tr = ceilDiv(s.rows, wr),
                  tfl = ceilDiv(s.channels, tf);
          double useful = double(s.x) / double(tx * 32 * pw) * double(s.rows) /
                          double(tr * wr) * double(s.channels) /
                          double(tfl * tf);
          double blocks = double(tx * tr * tfl);
          double fill = std::min(1.0, blocks / double(2 * sms));
          double perLoad = double(ft * pw) / double(pw + ceilDiv(ft, 4) + 1);
          double score = useful * fill * std::sqrt(std::min(1.0, perLoad / 8));
          all.push_back({p, score});
        }
  return sortByScore(std::move(all));
}

/// More loops index the first input than it has dimensions: oh and kh both
/// move along the image's rows.
bool cudatpl::isSlidingWindowContraction(const ProblemView &view) {
  if (!view.contraction || view.inputs.empty())
    return false;
  const OperandView &a = view.inputs[0];
  int64_t loops = llvm::count_if(a.access.coefficients,
                                 [](int64_t coef) { return coef != 0; });
  return loops > int64_t(a.shape.size());
}

bool cudatpl::hasWideConvRows(const ProblemView &view) {
  ConvShape s;
  std::string ignored;
  return isSlidingWindowContraction(view) &&
         succeeded(matchConv(view, s, ignored)) && s.x >= 32;
}

std::unique_ptr<StrategyFamily> mlir::stark::createConvFamily() {
  auto rank = [](const ProblemView &view, bool) -> std::optional<unsigned> {
    if (!ranksAsContraction(view))
      return std::nullopt;
    if (hasWideConvRows(view))
      return kWideConvRows;
    if (isSlidingWindowContraction(view))
      return kNarrowConvRows;
    return std::nullopt;
  };
  auto check = [](const ProblemView &view, std::string &whyNot) {
    ConvShape s;
    return matchConv(view, s, whyNot);
  };
  auto enumerate = [](const ProblemView &view, const HardwareProfile &profile) {
    ConvShape s;
    std::string ignored;
    if (failed(matchConv(view, s, ignored)))
      return std::vector<ConvParams>();
    return enumerateConv(s, profile);
  };
  return makeFunctionFamily<ConvParams>(
      "conv", getConvFields(), {/*initValue=*/true, /*epilogue=*/true}, rank,
      check, enumerate, generateConvKernel);
}
