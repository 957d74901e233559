//===- GemmTcFamily.cpp - The tensor-core GEMM family (gemm_tc) -----------===//

#include "GemmCommon.h"
#include "stark/Strategies/KernelSources.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

// Tensor-core GEMM (WMMA)
//===----------------------------------------------------------------------===//

namespace {
struct TcLayout {
  bool tf32 = false;
  int64_t elemBytes = 2, fk = 16, pad = 8;
  int64_t threads = 0, warps = 0;
  int aAxis = 0, va = 1; // 0: A tile stored [BM][BK] (k contiguous)
  int bAxis = 0, vb = 1; // 0: B tile stored [BK][BN] (n contiguous)
  int64_t pipeBytes = 0, sharedBytes = 0;
  int64_t registers = 0;
};
} // namespace

static FailureOr<TcLayout>
layoutTc(const ProblemView &view, const GemmTcParams &p, std::string &whyNot) {
  const ContractionView &c = *view.contraction;
  TcLayout l;
  l.tf32 = c.aKind == ElementKind::F32;
  l.elemBytes = l.tf32 ? 4 : 2;
  l.fk = l.tf32 ? 8 : 16;
  l.pad = 16 / l.elemBytes;
  if (p.wm % 16 || p.wn % 16 || p.wm <= 0 || p.wn <= 0 || p.bm % p.wm ||
      p.bn % p.wn || p.bk % l.fk || p.bk <= 0 || p.stages < 2 || p.stages > 8 ||
      p.groupM < 1) {
    whyNot = llvm::formatv("wm and wn must be multiples of 16 dividing bm and "
                           "bn, bk a multiple of {0}, stages in [2, 8]",
                           l.fk);
    return failure();
  }
  l.warps = (p.bm / p.wm) * (p.bn / p.wn);
  l.threads = 32 * l.warps;
  if (l.threads > 1024) {
    whyNot = llvm::formatv("{0} threads per block (limit 1024)", l.threads);
    return failure();
  }
  // 16-byte cp.async units where the layout allows, else element copies.
  int64_t unit = 16 / l.elemBytes;
  const OperandView &a = view.inputs[0], &b = view.inputs[1];
  int64_t ak = vectorWidthAlong(a.access, c.kLoops, view.loopRanges, unit);
  int64_t am = vectorWidthAlong(a.access, c.mLoops, view.loopRanges, unit);
  int64_t bn = vectorWidthAlong(b.access, c.nLoops, view.loopRanges, unit);
  int64_t bk = vectorWidthAlong(b.access, c.kLoops, view.loopRanges, unit);
  // Narrower copies than a whole unit are element copies.
  auto whole = [&](int64_t width) { return width == unit ? unit : 1; };
  CopyAxis aCopy = pickCopyAxis(whole(ak), whole(am), c.transposeA);
  CopyAxis bCopy = pickCopyAxis(whole(bn), whole(bk), c.transposeB);
  l.aAxis = aCopy.axis;
  l.va = aCopy.width;
  l.bAxis = bCopy.axis;
  l.vb = bCopy.width;
  int64_t aStage = l.aAxis == 0 ? p.bm * (p.bk + l.pad) : p.bk * (p.bm + l.pad);
  int64_t bStage = l.bAxis == 0 ? p.bk * (p.bn + l.pad) : p.bn * (p.bk + l.pad);
  l.pipeBytes = p.stages * (aStage + bStage) * l.elemBytes;
  l.sharedBytes = l.pipeBytes + l.warps * 256 * 4;
  int64_t fm = p.wm / 16, fn = p.wn / 16;
  // Accumulator fragments (8 floats each), operand fragments, addressing.
  l.registers = fm * fn * 8 + (fm + fn) * (l.tf32 ? 4 : 8) + 40;
  return l;
}

/// The family's parameters.
static ArrayRef<ParamField<GemmTcParams>> getGemmTcFields() {
  static const ParamField<GemmTcParams> fields[] = {
      {"bm", &GemmTcParams::bm},
      {"bn", &GemmTcParams::bn},
      {"bk", &GemmTcParams::bk},
      {"wm", &GemmTcParams::wm},
      {"wn", &GemmTcParams::wn},
      {"stages", &GemmTcParams::stages},
      {"group_m", &GemmTcParams::groupM},
      {"allow_tf32", &GemmTcParams::allowTf32}};
  return fields;
}

FailureOr<CudaKernelPlan>
mlir::stark::generateGemmTcKernel(const ProblemView &view,
                                  const GemmTcParams &p, std::string &whyNot) {
  if (failed(checkGemmTcApplies(view, p.allowTf32, whyNot)))
    return failure();
  FailureOr<TcLayout> layout = layoutTc(view, p, whyNot);
  if (failed(layout))
    return failure();
  const ContractionView &c = *view.contraction;
  std::string idx = getIndexType(view);
  StringRef inType = getCudaStorageType(c.aKind);
  std::string fragType =
      layout->tf32 ? "nvcuda::wmma::precision::tf32" : inType.str();

  // The kernel is GemmWmma.cuh; the part written here is the problem and
  // the tiles as its config, and the store of each finished sum.
  std::string s = getCudaPrelude(view);
  s += "#include <mma.h>\n";
  appendKernelText(s, *getKernelSource("GemmWmma.cuh"));
  llvm::raw_string_ostream os(s);
  os << "\n// Tensor-core GEMM (WMMA " << (layout->tf32 ? "tf32" : inType)
     << " inputs, f32 accumulation): C[b, m, n] += sum_k A[b, m, k] * "
        "B[b, k, n].\n";
  os << emitProblemConstants(c);
  os << "typedef " << idx << " idx_t;\n";
  os << "typedef " << getCudaStorageType(c.cKind) << " TC;\n\n";
  os << "namespace stark_addr {\n"
     << emitContractionAddressing(view, "idx_t")
     << "} // namespace stark_addr\n\n";
  os << "struct StarkWmma {\n";
  os << "  typedef " << inType << " TIn;\n";
  os << "  typedef " << idx << " idx_t;\n";
  os << llvm::formatv("  static constexpr int BM = {0}, BN = {1}, BK = {2}, "
                      "WM = {3}, WN = {4}, STAGES = {5}, GROUP_M = {6};\n",
                      p.bm, p.bn, p.bk, p.wm, p.wn, p.stages, p.groupM);
  os << "  static constexpr int FK = " << layout->fk
     << ", PAD = " << layout->pad << ";\n";
  os << "  // A tile stored " << (layout->aAxis == 0 ? "[BM][BK]" : "[BK][BM]")
     << ", copied " << layout->va << " elements at a time; B tile stored "
     << (layout->bAxis == 0 ? "[BK][BN]" : "[BN][BK]") << ", " << layout->vb
     << " at a time.\n";
  os << "  static constexpr int A_AXIS = " << layout->aAxis
     << ", VA = " << layout->va << ", B_AXIS = " << layout->bAxis
     << ", VB = " << layout->vb << ";\n";
  os << "  static constexpr bool TF32 = " << (layout->tf32 ? "true" : "false")
     << ";\n";
  os << llvm::formatv("  static constexpr idx_t M = {0}, N = {1}, K = {2};\n",
                      c.m, c.n, c.k);
  os << "  typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, FK, "
     << fragType
     << ", nvcuda::wmma::" << (layout->aAxis == 0 ? "row_major" : "col_major")
     << "> FragA;\n";
  os << "  typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, FK, "
     << fragType
     << ", nvcuda::wmma::" << (layout->bAxis == 0 ? "row_major" : "col_major")
     << "> FragB;\n";
  for (StringRef name : {"a_off", "b_off"})
    os << "  static __device__ __forceinline__ idx_t " << name
       << "(idx_t b, idx_t x, idx_t y) { return stark_addr::" << name
       << "(b, x, y); }\n";
  os << "};\n\n";
  // With an epilogue its members read the other inputs and store the
  // output; C is the output only without.
  os << "struct StarkWmmaStore {\n";
  os << "  __device__ __forceinline__ idx_t c_off(idx_t b, idx_t m, idx_t n) "
        "const { return stark_addr::c_off(b, m, n); }\n";
  if (view.epilogue)
    os << emitEpilogueLayoutMembers(view, "idx_t")
       << "  __device__ __forceinline__ void store(idx_t b, idx_t m, idx_t n, "
          "float sum) const { epilogue((int)b, (int)m, (int)n, C_INIT + sum); "
          "}\n";
  else
    os << "  TC *C;\n"
       << "  __device__ __forceinline__ void store(idx_t b, idx_t m, idx_t n, "
          "float sum) const {\n"
       << "    TC *p = C + c_off(b, m, n);\n"
       << "    *p = stark_cast<TC>((C_FROM_INIT ? C_INIT : "
          "(float)stark_widen(*p)) + sum);\n  }\n";
  os << "};\n\n";
  // An explicit minimum of one block: without it ptxas was seen to cap the
  // registers of some instances low enough to spill.
  os << "extern \"C\" __global__ void __launch_bounds__("
        "stark_kernels::WmmaShape<StarkWmma>::kThreads, 1) stark_gemm_tc("
     << getKernelParameters(view) << ") {\n";
  os << "  StarkWmmaStore st;\n";
  if (view.epilogue)
    os << emitEpilogueLayoutBinding(view, "st");
  else
    os << "  st.C = " << argName(view.outputs[0].argNumber) << ";\n";
  os << "  stark_kernels::gemmWmmaBlock<StarkWmma>("
     << argName(view.inputs[0].argNumber) << ", "
     << argName(view.inputs[1].argNumber) << ", st);\n}\n";
  os.flush();

  CudaKernelPlan plan = makeGemmPlan(
      c, "gemm_tc", "stark_gemm_tc", std::move(s), p.bm, p.bn, layout->threads,
      layout->sharedBytes, /*dynamicShared=*/true);
  return plan;
}

std::vector<GemmTcParams>
cudatpl::enumerateGemmTc(const ProblemView &view,
                         const HardwareProfile &profile, bool allowTf32) {
  static const int64_t shapes[][5] = {
      // bm, bn, bk (for 16-bit inputs), wm, wn
      {128, 128, 32, 64, 32}, {128, 256, 32, 64, 64}, {256, 128, 32, 64, 64},
      {128, 128, 32, 64, 64}, {128, 128, 64, 64, 32}, {128, 64, 32, 64, 32},
      {64, 128, 32, 32, 64},  {64, 64, 32, 32, 32},   {64, 64, 64, 32, 32},
      {32, 64, 32, 16, 32},   {64, 32, 32, 32, 16},   {32, 32, 32, 16, 16}};
  const ContractionView &c = *view.contraction;
  bool tf32 = c.aKind == ElementKind::F32;
  BlockLimits limits(profile);
  std::vector<std::pair<GemmTcParams, double>> scored;
  for (int64_t stages : {3, 4, 2}) {
    for (auto &shape : shapes) {
      GemmTcParams p;
      p.bm = shape[0];
      p.bn = shape[1];
      // Same bytes per k-slice for tf32: half the elements.
      p.bk = tf32 ? shape[2] / 2 : shape[2];
      p.wm = shape[3];
      p.wn = shape[4];
      p.stages = stages;
      p.allowTf32 = allowTf32 && tf32;
      std::string ignored;
      FailureOr<TcLayout> l = layoutTc(view, p, ignored);
      if (failed(l) || !limits.fits(l->sharedBytes, l->threads, l->registers))
        continue;
      double reuse = double(p.wm * p.wn) / double(p.wm + p.wn) / 16.0;
      double score = tileScore(c, p.bm, p.bn, reuse, profile);
      if (stages != 3)
        score *= 0.9;
      scored.push_back({p, score});
    }
  }
  return sortByScore(std::move(scored));
}

std::unique_ptr<StrategyFamily> mlir::stark::createGemmTcFamily() {
  auto rank = [](const ProblemView &view,
                 bool allowTf32) -> std::optional<unsigned> {
    if (!ranksAsContraction(view))
      return std::nullopt;
    if (allowTf32 && view.contraction->aKind == ElementKind::F32 &&
        !hasShallowK(view))
      return kAllowedTf32;
    return kTensorCores;
  };
  return makeFunctionFamily<GemmTcParams>(
      "gemm_tc", getGemmTcFields(), {/*initValue=*/true, /*epilogue=*/true},
      rank, checkGemmTcApplies, enumerateGemmTc, generateGemmTcKernel);
}
