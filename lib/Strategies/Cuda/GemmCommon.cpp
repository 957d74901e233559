//===- GemmCommon.cpp - What the two GEMM families share ------------------===//
//
// Both GEMM families work on the ContractionView of a problem, so the same
// kernels serve matmul, batch_matmul, transposed operands, matvec shapes and
// convolutions (implicit GEMM: the address of an operand element is a linear
// function of the decoded m / n / k coordinates, whatever the layout).
//
//===----------------------------------------------------------------------===//

#include "GemmCommon.h"

#include "stark/Strategies/KernelSources.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

/// Largest vector width (up to `maxVec`, a power of two) for loads of
/// `access` that run along the innermost loop of `group`: that loop has unit
/// stride, its range is a multiple of the width and no other term breaks the
/// alignment.
int64_t cudatpl::vectorWidthAlong(const LinearAccess &access,
                                  ArrayRef<unsigned> group,
                                  ArrayRef<int64_t> ranges, int64_t maxVec) {
  if (group.empty())
    return 1;
  unsigned inner = group.back();
  if (access.coefficients[inner] != 1)
    return 1;
  for (int64_t v = maxVec; v > 1; v /= 2)
    if (ranges[inner] % v == 0 && isAlignedExcept(access, {inner}, v))
      return v;
  return 1;
}

CopyAxis cudatpl::pickCopyAxis(int64_t first, int64_t second, bool transposed) {
  if (first >= second && first > 1)
    return {0, first};
  if (second > 1)
    return {1, second};
  return {transposed ? 1 : 0, 1};
}

/// `const idx_t l<d> = ...;` for the loops of one group decoded from `var`.
static std::string decodeGroup(StringRef indexType, StringRef var,
                               ArrayRef<unsigned> loops,
                               ArrayRef<int64_t> ranges,
                               ArrayRef<std::string> names) {
  return emitDecode("  ", indexType, var, loops, ranges, names);
}

/// The three address functions of a contraction: a_off(b, m, k),
/// b_off(b, k, n), c_off(b, m, n).
std::string cudatpl::emitContractionAddressing(const ProblemView &view,
                                               StringRef indexType) {
  const ContractionView &c = *view.contraction;
  SmallVector<std::string> names;
  for (int64_t d = 0; d < view.numLoops(); ++d)
    names.push_back("l" + std::to_string(d));
  std::string idx = indexType.str();
  auto function = [&](StringRef name, StringRef params,
                      ArrayRef<std::pair<StringRef, ArrayRef<unsigned>>> groups,
                      const LinearAccess &access) {
    std::string s = "__device__ __forceinline__ " + idx + " " + name.str() +
                    "(" + params.str() + ") {\n";
    SmallVector<unsigned> all;
    for (auto &[var, loops] : groups) {
      s += decodeGroup(idx, var, loops, view.loopRanges, names);
      all.append(loops.begin(), loops.end());
    }
    s += "  return " + emitLinearOffset(access, all, names, true) + ";\n}\n";
    return s;
  };
  std::string s;
  s += function("a_off", idx + " b, " + idx + " m, " + idx + " k",
                {{"b", c.batchLoops}, {"m", c.mLoops}, {"k", c.kLoops}},
                view.inputs[0].access);
  s += function("b_off", idx + " b, " + idx + " k, " + idx + " n",
                {{"b", c.batchLoops}, {"k", c.kLoops}, {"n", c.nLoops}},
                view.inputs[1].access);
  s += function("c_off", idx + " b, " + idx + " m, " + idx + " n",
                {{"b", c.batchLoops}, {"m", c.mLoops}, {"n", c.nLoops}},
                view.outputs[0].access);
  return s;
}

std::string cudatpl::describeGemmProblem(const ProblemView &view) {
  std::string s = std::string("C[b, m, n] ") +
                  (view.contraction->initValue ? "= C_INIT +" : "+=") +
                  " sum_k A[b, m, k] * B[b, k, n]";
  if (view.epilogue)
    s += ", the output the epilogue of C (" + view.opName + ")";
  return s;
}

std::string cudatpl::emitProblemConstants(const ContractionView &c) {
  // C_FROM_INIT: the problem fills C with C_INIT before it accumulates, so
  // the kernel writes C_INIT + sum and never reads C.
  return llvm::formatv(
             "[[maybe_unused]] constexpr long long M = {0}, N = "
             "{1}, K = {2}, BATCH = {3};\n"
             "[[maybe_unused]] constexpr bool C_FROM_INIT = {4};\n"
             "[[maybe_unused]] constexpr float C_INIT = {5};\n",
             c.m, c.n, c.k, c.batch, c.initValue ? "true" : "false",
             emitScalarLiteral(ElementKind::F32, c.initValue.value_or(0.0), 0))
      .str();
}

static bool isGemmStorageKind(ElementKind k) {
  return k == ElementKind::F32 || k == ElementKind::F16 ||
         k == ElementKind::BF16;
}

static LogicalResult checkContraction(const ProblemView &view,
                                      std::string &whyNot) {
  if (!view.contraction) {
    whyNot = "the problem is not a contraction (out += a * b over linear "
             "maps)";
    return failure();
  }
  const ContractionView &c = *view.contraction;
  if (c.batch > 65535) {
    whyNot = "batch larger than the grid's y limit (65535)";
    return failure();
  }
  // The kernels take the fill value as a compile-time f32 constant.
  if (c.initValue && !std::isfinite(float(*c.initValue))) {
    whyNot = "the output is filled with a value that is not a finite f32";
    return failure();
  }
  return success();
}

LogicalResult cudatpl::checkGemmApplies(const ProblemView &view,
                                        std::string &whyNot) {
  if (failed(checkContraction(view, whyNot)))
    return failure();
  const ContractionView &c = *view.contraction;
  if (!isGemmStorageKind(c.aKind) || !isGemmStorageKind(c.bKind) ||
      !isGemmStorageKind(c.cKind)) {
    whyNot = "gemm needs f32, f16 or bf16 operands";
    return failure();
  }
  // The epilogue takes the output point as 32-bit coordinates.
  const int64_t limit = std::numeric_limits<int32_t>::max();
  if (view.epilogue && (c.m > limit || c.n > limit)) {
    whyNot = "gemm computes an epilogue only with m and n in 32 bits";
    return failure();
  }
  return success();
}

LogicalResult cudatpl::checkGemmTcApplies(const ProblemView &view,
                                          bool allowTf32, std::string &whyNot) {
  if (failed(checkContraction(view, whyNot)))
    return failure();
  const ContractionView &c = *view.contraction;
  bool half = c.aKind == ElementKind::F16 && c.bKind == ElementKind::F16;
  bool bf16 = c.aKind == ElementKind::BF16 && c.bKind == ElementKind::BF16;
  bool f32 = c.aKind == ElementKind::F32 && c.bKind == ElementKind::F32;
  if (!half && !bf16 && !(f32 && allowTf32)) {
    whyNot = f32 ? "f32 inputs use tensor cores only as tf32, which needs "
                   "allow_tf32=1"
                 : "gemm_tc needs both inputs f16 or both bf16 (or f32 with "
                   "allow_tf32=1)";
    return failure();
  }
  if (!isGemmStorageKind(c.cKind)) {
    whyNot = "gemm_tc needs an f32, f16 or bf16 output";
    return failure();
  }
  const int64_t limit = std::numeric_limits<int32_t>::max();
  if (view.epilogue && (c.m > limit || c.n > limit || c.batch > limit)) {
    whyNot = "gemm_tc's epilogue keeps batch, m and n in 32 bits";
    return failure();
  }
  return success();
}

/// Rough merit of a tiling: the fraction of computed outputs that are real,
/// the fraction of SMs the grid fills, and the data reuse of the tile and
/// of the register block.
double cudatpl::tileScore(const ContractionView &c, int64_t bm, int64_t bn,
                          double reuse, const HardwareProfile &profile) {
  int64_t tilesM = ceilDiv(c.m, bm), tilesN = ceilDiv(c.n, bn);
  double useful =
      double(c.m) * double(c.n) / (double(tilesM * bm) * double(tilesN * bn));
  double blocks = double(tilesM * tilesN * c.batch);
  double sms = double(getNumUnits(profile));
  double fill = std::min(1.0, blocks / sms);
  double intensity = double(bm * bn) / double(bm + bn) / 64.0;
  return useful * fill * std::sqrt(intensity) * std::sqrt(reuse);
}

//===----------------------------------------------------------------------===//
// The embedded kernels (gemm_f32, gemm_3xtf32)
//===----------------------------------------------------------------------===//

/// An embedded kernel source that the build always provides.
static StringRef embeddedKernel(StringRef fileName) {
  std::optional<StringRef> text = getKernelSource(fileName);
  assert(text && "kernel source not embedded");
  return text.value_or("");
}

StringRef cudatpl::getGemmF32KernelText() {
  return embeddedKernel("GemmF32.cuh");
}
StringRef cudatpl::getGemmSimtKernelText() {
  return embeddedKernel("GemmSimt.cuh");
}
StringRef cudatpl::getGemm3xTf32KernelText() {
  // NVRTC sees one source: the split the kernel includes goes first.
  static const std::string text = (embeddedKernel("Tf32Split.cuh") + "\n" +
                                   embeddedKernel("Gemm3xTf32.cuh"))
                                      .str();
  return text;
}

/// The stride of `loops` (outermost first) in `access` when the access is
/// linear in their mixed-radix linear index: each coefficient is the next
/// inner one times the next inner range. A loop of one iteration is always
/// at 0 and takes no part (the batch of a batch-1 convolution, whose rows
/// are then its output pixels, one stride apart). An empty group has
/// stride 0; one whose loops all run once, its innermost's coefficient.
static std::optional<int64_t> groupStride(const LinearAccess &access,
                                          ArrayRef<unsigned> loops,
                                          ArrayRef<int64_t> ranges) {
  if (loops.empty())
    return 0;
  SmallVector<unsigned> varying;
  for (unsigned l : loops)
    if (ranges[l] != 1)
      varying.push_back(l);
  if (varying.empty())
    return access.coefficients[loops.back()];
  for (size_t i = 0; i + 1 < varying.size(); ++i)
    if (access.coefficients[varying[i]] !=
        access.coefficients[varying[i + 1]] * ranges[varying[i + 1]])
      return std::nullopt;
  return access.coefficients[varying.back()];
}

/// The orientation the kernels' copies follow: an operand's unit-stride
/// dimension (A's m, B's k where the other is not also unit-stride).
static void orientCopies(GemmKernelAddressing &addr) {
  addr.transposeA = addr.a[1] == 1 && addr.a[2] != 1;
  addr.transposeB = addr.b[1] == 1 && addr.b[2] != 1;
}

/// The strides of `access` over each loop group of `groups` into `out`;
/// false where one of them is not strided.
static bool getGroupStrides(const ProblemView &view, const LinearAccess &access,
                            ArrayRef<SmallVector<unsigned>> groups,
                            int64_t *out) {
  for (auto [i, group] : llvm::enumerate(groups)) {
    std::optional<int64_t> s = groupStride(access, group, view.loopRanges);
    if (!s)
      return false;
    out[i] = *s;
  }
  return true;
}

GemmKernelAddressing cudatpl::getGemmKernelAddressing(const ProblemView &view) {
  const ContractionView &c = *view.contraction;
  GemmKernelAddressing addr;
  addr.transposeA = c.transposeA;
  addr.transposeB = c.transposeB;
  const LinearAccess &a = view.inputs[0].access, &b = view.inputs[1].access,
                     &o = view.outputs[0].access;
  addr.strided =
      getGroupStrides(view, a, {c.batchLoops, c.mLoops, c.kLoops}, addr.a) &&
      getGroupStrides(view, b, {c.batchLoops, c.kLoops, c.nLoops}, addr.b) &&
      getGroupStrides(view, o, {c.batchLoops, c.mLoops, c.nLoops}, addr.c);
  if (!addr.strided)
    return addr;
  addr.aOffset = a.offset;
  addr.bOffset = b.offset;
  addr.cOffset = o.offset;
  orientCopies(addr);
  return addr;
}

std::optional<GemmKernelAddressing>
cudatpl::getIm2colGemmKernelAddressing(const ProblemView &view) {
  const ContractionView &c = *view.contraction;
  GemmKernelAddressing addr;
  const LinearAccess &b = view.inputs[1].access, &o = view.outputs[0].access;
  if (!getGroupStrides(view, b, {c.batchLoops, c.kLoops, c.nLoops}, addr.b) ||
      !getGroupStrides(view, o, {c.batchLoops, c.mLoops, c.nLoops}, addr.c))
    return std::nullopt;
  // The workspace: [batch][m][k], row-major.
  addr.a[0] = c.m * c.k, addr.a[1] = c.k, addr.a[2] = 1;
  addr.strided = true;
  addr.bOffset = b.offset;
  addr.cOffset = o.offset;
  orientCopies(addr);
  return addr;
}

GemmKernelAddressing
cudatpl::getTransposedGemmKernelAddressing(const GemmKernelAddressing &addr) {
  GemmKernelAddressing t = addr;
  // A' = B^T (m' = n), B' = A^T (n' = m): each takes the other's strides
  // with its own two dimensions exchanged, and C's rows become columns.
  t.a[0] = addr.b[0], t.a[1] = addr.b[2], t.a[2] = addr.b[1];
  t.b[0] = addr.a[0], t.b[1] = addr.a[2], t.b[2] = addr.a[1];
  std::swap(t.c[1], t.c[2]);
  std::swap(t.aOffset, t.bOffset);
  if (t.strided) {
    orientCopies(t);
  } else {
    // Decoded addressing keeps the view's orientation, exchanged: A' is
    // contiguous along m' where B is along n, B' along k where A is.
    t.transposeA = !addr.transposeB;
    t.transposeB = !addr.transposeA;
  }
  return t;
}

bool cudatpl::isGemmKernelVectorisable(const GemmKernelAddressing &addr,
                                       bool needA, bool needB, bool needC) {
  if (!addr.strided)
    return false;
  auto m4 = [](int64_t v) { return v % 4 == 0; };
  const int64_t *a = addr.a, *b = addr.b, *c = addr.c;
  bool okA =
      addr.transposeA ? (a[1] == 1 && m4(a[2])) : (a[2] == 1 && m4(a[1]));
  bool okB =
      addr.transposeB ? (b[1] == 1 && m4(b[2])) : (b[2] == 1 && m4(b[1]));
  bool okC = c[2] == 1 && m4(c[1]) && m4(c[0]) && m4(addr.cOffset);
  okA = !needA || (okA && m4(a[0]) && m4(addr.aOffset));
  okB = !needB || (okB && m4(b[0]) && m4(addr.bOffset));
  return okA && okB && (okC || !needC);
}

bool cudatpl::gemmKernelTileOffsetsFit(const GemmKernelAddressing &addr,
                                       int64_t bm, int64_t bn, int64_t bk) {
  const int64_t limit = std::numeric_limits<int32_t>::max();
  auto mag = [](int64_t v) { return v < 0 ? -v : v; };
  return mag(addr.a[1]) * bm + mag(addr.a[2]) * bk < limit &&
         mag(addr.b[1]) * bk + mag(addr.b[2]) * bn < limit;
}

LogicalResult cudatpl::checkGemmKernelApplies(const ProblemView &view,
                                              StringRef family,
                                              std::string &whyNot) {
  if (failed(checkContraction(view, whyNot)))
    return failure();
  const ContractionView &c = *view.contraction;
  // With an epilogue the layout converts the output to its type.
  if (c.aKind != ElementKind::F32 || c.bKind != ElementKind::F32 ||
      (view.epilogue ? !isEpilogueOutputKind(c.cKind)
                     : c.cKind != ElementKind::F32)) {
    whyNot = (family + " needs f32 operands and an f32 output").str();
    return failure();
  }
  if (view.inputs.size() < 2 || view.outputs.empty() ||
      view.inputs[0].argNumber < 0 || view.inputs[1].argNumber < 0 ||
      view.outputs[0].argNumber < 0) {
    whyNot = (family + " needs both operands and the output in memory").str();
    return failure();
  }
  const int64_t limit = std::numeric_limits<int32_t>::max();
  if (c.m > limit || c.n > limit || c.k > limit) {
    whyNot = (family + " keeps m, n and k in 32 bits").str();
    return failure();
  }
  return success();
}

double cudatpl::gemmKernelTileScore(const ContractionView &c, int64_t bm,
                                    int64_t bn, int64_t bk, double reuse,
                                    const HardwareProfile &profile) {
  int64_t tilesM = ceilDiv(c.m, bm), tilesN = ceilDiv(c.n, bn);
  double useful =
      double(c.m) * double(c.n) / (double(tilesM * bm) * double(tilesN * bn));
  useful *= double(c.k) / double(ceilDiv(c.k, bk) * bk);
  double blocks = double(tilesM * tilesN * c.batch);
  double sms = double(getNumUnits(profile));
  double fill = std::min(1.0, blocks / (2 * sms));
  double intensity = double(bm * bn) / double(bm + bn) / 64.0;
  return useful * fill * std::sqrt(intensity) * std::sqrt(reuse);
}

CudaKernelPlan cudatpl::makeGemmPlan(const ContractionView &c, StringRef family,
                                     StringRef kernel, std::string source,
                                     int64_t bm, int64_t bn, int64_t threads,
                                     int64_t sharedBytes, bool dynamicShared,
                                     int64_t splitK) {
  CudaKernelPlan plan = makeOneLaunchPlan(
      family, std::move(source), kernel,
      {ceilDiv(c.m, bm) * ceilDiv(c.n, bn), c.batch * splitK, 1},
      {threads, 1, 1}, /*staticShared=*/dynamicShared ? 0 : sharedBytes,
      /*dynamicShared=*/dynamicShared ? sharedBytes : 0);
  if (splitK > 1) {
    // A grid-stride loop: a few thousand blocks cover any output.
    constexpr int64_t reduceThreads = 256;
    CudaKernelPlan::Launch reduce;
    reduce.kernel = kSplitKReduceKernel.str();
    reduce.grid = {
        std::min<int64_t>(ceilDiv(c.batch * c.m * c.n, reduceThreads), 4096), 1,
        1};
    reduce.block = {reduceThreads, 1, 1};
    plan.launches.push_back(reduce);
    plan.threadsPerBlock = std::max(threads, reduceThreads);
  }
  return plan;
}

BlockLimits::BlockLimits(const HardwareProfile &profile)
    : sharedBytes(profile.sharedMemoryPerBlock > 0
                      ? profile.sharedMemoryPerBlock
                      : 48 * 1024),
      threads(getMaxBlockThreads(profile)),
      registersPerUnit(profile.registersPerUnit > 0 ? profile.registersPerUnit
                                                    : 65536) {}

bool BlockLimits::fits(int64_t sharedBytes, int64_t threads, int64_t registers,
                       int64_t blocks) const {
  return sharedBytes <= this->sharedBytes && threads <= this->threads &&
         registers <= 255 && registers * threads * blocks <= registersPerUnit;
}

bool cudatpl::hasAsyncCopy(const HardwareProfile &profile) {
  StringRef chip = profile.chip;
  unsigned major = 0;
  if (!chip.consume_front("sm_") ||
      chip.take_while(llvm::isDigit).getAsInteger(10, major))
    return true;
  return major >= 80;
}

std::string cudatpl::emitGemmKernelSource(
    const ProblemView &view, const GemmKernelAddressing &addr, bool affine,
    StringRef kernelText, StringRef config, StringRef block, StringRef kernel,
    bool vec, int64_t minBlocks, int64_t groupM, int64_t splitK,
    int64_t kPerSplit, StringRef reduceKernel) {
  const ContractionView &c = *view.contraction;
  std::string s = getCudaPrelude(view);
  s += R"cuda(// What the kernels below take from the C++ standard library.
namespace stark_kernels {
namespace std {
template <class...> using void_t = void;
template <bool B> struct bool_constant { static constexpr bool value = B; };
using false_type = bool_constant<false>;
} // namespace std
typedef unsigned int uint32_t;
} // namespace stark_kernels

)cuda";
  appendKernelText(s, embeddedKernel("GemmCommon.cuh"));
  appendKernelText(s, kernelText);
  llvm::raw_string_ostream os(s);
  os << "\n// The problem: " << describeGemmProblem(view) << ".\n";
  os << emitProblemConstants(c);
  if (!affine) {
    os << "namespace stark_addr {\n"
       << emitContractionAddressing(view, getIndexType(view))
       << "} // namespace stark_addr\n";
  }
  auto strided = [](const int64_t *st, int64_t offset, StringRef x, StringRef y,
                    StringRef z) {
    return llvm::formatv("{0}LL * {1} + {2}LL * {3} + {4}LL * {5} + {6}LL",
                         st[0], x, st[1], y, st[2], z, offset)
        .str();
  };
  auto member = [&](StringRef name, StringRef x, StringRef y, StringRef z,
                    const int64_t *st, int64_t offset) {
    os << "  __device__ __forceinline__ long long " << name << "(int " << x
       << ", int " << y << ", int " << z << ") const { return ";
    if (affine)
      os << strided(st, offset, x, y, z);
    else
      os << "(long long)stark_addr::" << name << "(" << x << ", " << y << ", "
         << z << ")";
    os << "; }\n";
  };
  os << "struct StarkLayout {\n";
  os << "  static constexpr bool kAffine = " << (affine ? "true" : "false")
     << ";\n";
  member("a_off", "b", "m", "k", addr.a, addr.aOffset);
  member("b_off", "b", "k", "n", addr.b, addr.bOffset);
  member("c_off", "b", "m", "n", addr.c, addr.cOffset);
  if (view.epilogue)
    os << emitEpilogueLayoutMembers(view, getIndexType(view));
  os << "};\n";
  os << "typedef stark_kernels::" << config << " StarkConfig;\n";
  bool split = splitK > 1;
  if (split)
    os << emitSplitKWorkspace(splitK, "K_PER_SPLIT", kPerSplit);
  // With an epilogue the layout stores the output (of any type) itself and
  // reads the epilogue's inputs: the parameters are the kernel's.
  std::string a = "A", b = "B", cArg = "C",
              parameters = "const float *A, const float *B, float *C",
              operands = argName(view.inputs[0].argNumber) + ", " +
                         argName(view.inputs[1].argNumber) + ", " +
                         argName(view.outputs[0].argNumber);
  if (view.epilogue) {
    a = argName(view.inputs[0].argNumber);
    b = argName(view.inputs[1].argNumber);
    cArg = "nullptr";
    parameters = getKernelParameters(view);
    operands.clear();
    for (size_t i = 0; i < view.argKinds.size(); ++i)
      operands += (i ? ", " : "") + argName(i);
  }
  os << "\n__device__ __forceinline__ stark_kernels::GemmParams<StarkLayout> "
        "stark_gemm_params("
     << parameters << ") {\n";
  os << "  stark_kernels::GemmParams<StarkLayout> p;\n";
  os << "  p.A = " << a << ", p.B = " << b << ", p.C = " << cArg << ";\n";
  os << "  p.batch = (int)BATCH, p.M = (int)M, p.N = (int)N, p.K = (int)K;\n";
  if (split)
    os << "  p.ws = stark_gemm_ws;\n"
          "  p.splits = SPLIT_K, p.kPerSplit = K_PER_SPLIT, p.ldws = (int)N;\n";
  else
    os << "  p.ws = nullptr;\n"
          "  p.splits = 1, p.kPerSplit = (int)K, p.ldws = 0;\n";
  os << "  p.groupM = " << groupM << ";\n";
  // A problem that fills C first: C = init + sum, C is never read.
  os << "  p.alpha = 1.f, p.beta = "
     << (c.initValue ? "0.f, p.init = C_INIT" : "1.f") << ";\n";
  os << "  p.lay = StarkLayout();\n";
  if (view.epilogue)
    os << emitEpilogueLayoutBinding(view, "p.lay");
  os << "  return p;\n}\n\n";
  os << "extern \"C\" __global__ void __launch_bounds__(StarkConfig::kThreads, "
     << minBlocks << ") " << kernel << "(" << getKernelParameters(view)
     << ") {\n";
  os << "  stark_kernels::" << block << "<StarkConfig, "
     << (addr.transposeA ? "true" : "false") << ", "
     << (addr.transposeB ? "true" : "false") << ", " << (vec ? "true" : "false")
     << ", StarkLayout>(stark_gemm_params(" << operands << "));\n}\n";
  if (split) {
    os << "\n// The slices' partial sums, added in slice order: the result "
          "does not\n// depend on which block finished first.\n";
    os << "extern \"C\" __global__ void __launch_bounds__(256) " << reduceKernel
       << "(" << getKernelParameters(view) << ") {\n";
    os << "  stark_kernels::detail::splitKReduce(stark_gemm_params(" << operands
       << "));\n}\n";
  }
  return s;
}

//===----------------------------------------------------------------------===//
// The families over the embedded kernels
//===----------------------------------------------------------------------===//

LogicalResult GemmKernelFamily::check(const ProblemView &view, bool allowTf32,
                                      std::string &whyNot) const {
  return checkGemmKernelApplies(view, getName(), whyNot);
}

FailureOr<GemmKernelShape>
GemmKernelFamily::getWarpTiledShape(const GemmKernelAddressing &addr,
                                    const GemmKernelParams &p, bool vecA,
                                    bool vecB, std::string &whyNot) {
  GemmKernelShape s;
  s.threads = (p.bm / p.wm) * (p.bn / p.wn) * 32;
  if (s.threads > 1024) {
    whyNot = llvm::formatv("{0} threads per block (limit 1024)", s.threads);
    return failure();
  }
  s.affine = addr.strided && gemmKernelTileOffsetsFit(addr, p.bm, p.bn, p.bk);
  s.vec = s.affine && isGemmKernelVectorisable(addr, vecA, vecB);
  return s;
}

std::vector<GemmKernelParams>
GemmKernelFamily::enumerateStructs(const ProblemView &view,
                                   const HardwareProfile &profile,
                                   bool allowTf32) const {
  if (!hasAsyncCopy(profile))
    return {};
  const ContractionView &c = *view.contraction;
  GemmKernelAddressing addr = getGemmKernelAddressing(view);
  BlockLimits limits(profile);
  int64_t sms = getNumUnits(profile);
  std::vector<GemmKernelParams> fitting;
  // Split-K where no configuration's tiles fill the SMs; where smaller
  // tiles do, a configuration whose own tiles leave SMs idle is also
  // offered in slices on a deep contraction (isDeepContraction), and the
  // score weighs the larger tile's reuse against the partial sums' traffic.
  bool fewTiles = true;
  for (const GemmKernelParams &p : getConfigs()) {
    std::string ignored;
    FailureOr<GemmKernelShape> s = getShape(addr, p, ignored);
    if (failed(s) ||
        !limits.fits(s->sharedBytes, s->threads, s->registers, p.minBlocks))
      continue;
    fitting.push_back(p);
    if (ceilDiv(c.m, p.bm) * ceilDiv(c.n, p.bn) * c.batch >= sms)
      fewTiles = false;
  }
  std::vector<std::pair<GemmKernelParams, double>> scored;
  for (const GemmKernelParams &p : fitting) {
    scored.push_back(
        {p, gemmKernelTileScore(c, p.bm, p.bn, p.bk, getReuse(p), profile)});
    bool idle = ceilDiv(c.m, p.bm) * ceilDiv(c.n, p.bn) * c.batch < sms;
    if (!fewTiles && !(idle && isDeepContraction(c)))
      continue;
    for (int64_t splitK : proposeSplitK(c, p.bm, p.bn, p.bk, sms)) {
      GemmKernelParams q = p;
      q.splitK = splitK;
      scored.push_back({q, scoreSplitKTile(c, p.bm, p.bn, p.bk, getReuse(p),
                                           splitK, profile)});
    }
  }
  return sortByScore(std::move(scored));
}

FailureOr<CudaKernelPlan>
GemmKernelFamily::generateStruct(const ProblemView &view,
                                 const GemmKernelParams &p,
                                 std::string &whyNot) const {
  if (failed(check(view, /*allowTf32=*/false, whyNot)))
    return failure();
  GemmKernelAddressing addr = getGemmKernelAddressing(view);
  FailureOr<GemmKernelShape> shape = getShape(addr, p, whyNot);
  if (failed(shape))
    return failure();
  FailureOr<int64_t> kPerSplit =
      getSplitKDepth(*view.contraction, p.bk, p.splitK, whyNot);
  if (failed(kPerSplit))
    return failure();
  CudaKernelPlan plan = makeGemmPlan(
      *view.contraction, getName(), kernel,
      emitGemmKernelSource(view, addr, shape->affine, text, getConfigType(p),
                           block, kernel, shape->vec, p.minBlocks, p.groupM,
                           p.splitK, *kPerSplit, kSplitKReduceKernel),
      p.bm, p.bn, shape->threads, shape->sharedBytes, /*dynamicShared=*/true,
      p.splitK);
  return plan;
}
