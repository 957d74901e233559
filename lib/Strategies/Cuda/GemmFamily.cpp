//===- GemmFamily.cpp - The SIMT GEMM family (gemm) -----------------------===//

#include "GemmCommon.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

//===----------------------------------------------------------------------===//
// SIMT GEMM
//===----------------------------------------------------------------------===//

namespace {
/// Derived layout of one SIMT GEMM instance.
struct SimtLayout {
  int64_t threads = 0;
  int aAxis = 0, va = 1; // 0: A units run along k, 1: along m
  int bAxis = 0, vb = 1; // 0: B units run along n, 1: along k
  int64_t vc = 1;
  int64_t sharedBytes = 0;
  int64_t registers = 0;
};
} // namespace

/// `width` halved until it divides the tile's `extent`: a vector unit never
/// straddles two tiles.
static int64_t fitTile(int64_t width, int64_t extent) {
  while (width > 1 && extent % width)
    width /= 2;
  return width;
}

/// How a SIMT block copies a tile of `operand`: units of up to 4 elements
/// along the `first` loops (the tile's extent there `firstTile`) or the
/// `second` ones.
static CopyAxis pickSimtCopyAxis(const ProblemView &view,
                                 const OperandView &operand,
                                 ArrayRef<unsigned> first, int64_t firstTile,
                                 ArrayRef<unsigned> second, int64_t secondTile,
                                 bool transposed) {
  auto widest = [&](ArrayRef<unsigned> loops, int64_t tile) {
    return fitTile(vectorWidthAlong(operand.access, loops, view.loopRanges, 4),
                   tile);
  };
  return pickCopyAxis(widest(first, firstTile), widest(second, secondTile),
                      transposed);
}

static FailureOr<SimtLayout>
layoutSimt(const ProblemView &view, const GemmParams &p, std::string &whyNot) {
  const ContractionView &c = *view.contraction;
  const OperandView &a = view.inputs[0], &b = view.inputs[1],
                    &out = view.outputs[0];
  SimtLayout l;
  if (!isPowerOfTwo(p.tm) || !isPowerOfTwo(p.tn) || p.tm > 16 || p.tn > 16 ||
      p.bm % p.tm || p.bn % p.tn || p.bk < 1 || p.groupM < 1 ||
      p.minBlocks < 1 || p.minBlocks > 32) {
    whyNot = "tm and tn must be powers of two up to 16 dividing bm and bn, "
             "bk, group_m and min_blocks positive";
    return failure();
  }
  l.threads = (p.bm / p.tm) * (p.bn / p.tn);
  if (l.threads < 32 || l.threads > 1024 || l.threads % 32) {
    whyNot = llvm::formatv("(bm/tm)*(bn/tn) = {0} threads; must be a "
                           "multiple of 32 in [32, 1024]",
                           l.threads);
    return failure();
  }
  int64_t vm = std::min<int64_t>(p.tm, 4), vn = std::min<int64_t>(p.tn, 4);
  // A: vector units along k (A row-major) or along m (A transposed); B:
  // along n or k.
  CopyAxis aCopy =
      pickSimtCopyAxis(view, a, c.kLoops, p.bk, c.mLoops, p.bm, c.transposeA);
  CopyAxis bCopy =
      pickSimtCopyAxis(view, b, c.nLoops, p.bn, c.kLoops, p.bk, c.transposeB);
  l.aAxis = aCopy.axis;
  l.va = aCopy.width;
  l.bAxis = bCopy.axis;
  l.vb = bCopy.width;
  l.vc = vectorWidthAlong(out.access, c.nLoops, view.loopRanges, vn);
  if (l.vc != vn)
    l.vc = 1;
  int64_t lda = p.bm + (l.aAxis == 0 ? 4 : 0);
  int64_t ldb = p.bn + (l.bAxis == 1 ? 4 : 0);
  int64_t stages = p.doubleBuffer ? 2 : 1;
  l.sharedBytes = stages * p.bk * (lda + ldb) * 4;
  if (l.sharedBytes > 48 * 1024) {
    whyNot = llvm::formatv("{0} bytes of static shared memory (limit 49152)",
                           l.sharedBytes);
    return failure();
  }
  int64_t aLoads = ceilDiv(p.bm * p.bk / l.va, l.threads) * l.va;
  int64_t bLoads = ceilDiv(p.bn * p.bk / l.vb, l.threads) * l.vb;
  // Accumulators, one k-slice of fragments, staged loads, addressing.
  l.registers = p.tm * p.tn + p.tm + p.tn + aLoads + bLoads + 32;
  (void)vm;
  return l;
}

/// The family's parameters.
static ArrayRef<ParamField<GemmParams>> getGemmFields() {
  static const ParamField<GemmParams> fields[] = {
      {"bm", &GemmParams::bm},
      {"bn", &GemmParams::bn},
      {"bk", &GemmParams::bk},
      {"tm", &GemmParams::tm},
      {"tn", &GemmParams::tn},
      {"double_buffer", &GemmParams::doubleBuffer},
      {"group_m", &GemmParams::groupM},
      {"min_blocks", &GemmParams::minBlocks}};
  return fields;
}

FailureOr<CudaKernelPlan>
mlir::stark::generateGemmKernel(const ProblemView &view, const GemmParams &p,
                                std::string &whyNot) {
  if (failed(checkGemmApplies(view, whyNot)))
    return failure();
  FailureOr<SimtLayout> layout = layoutSimt(view, p, whyNot);
  if (failed(layout))
    return failure();
  const ContractionView &c = *view.contraction;
  std::string idx = getIndexType(view);

  std::string s = getCudaPrelude(view);
  llvm::raw_string_ostream os(s);
  os << "// SIMT GEMM (f32 accumulation): " << describeGemmProblem(view)
     << ".\n";
  os << emitProblemConstants(c);
  os << llvm::formatv(
      "constexpr int BM = {0}, BN = {1}, BK = {2}, TM = {3}, TN = {4}, "
      "GROUP_M = {5};\n",
      p.bm, p.bn, p.bk, p.tm, p.tn, p.groupM);
  os << "constexpr bool DOUBLE_BUFFER = " << (p.doubleBuffer ? "true" : "false")
     << ";\n";
  os << "constexpr int MIN_BLOCKS = " << p.minBlocks << ";\n";
  os << "// A units run along " << (layout->aAxis == 0 ? "k" : "m") << ", "
     << layout->va << " elements each; B units along "
     << (layout->bAxis == 0 ? "n" : "k") << ", " << layout->vb
     << " each; C is written " << layout->vc << " at a time.\n";
  os << "constexpr int A_AXIS = " << layout->aAxis << ", VA = " << layout->va
     << ", B_AXIS = " << layout->bAxis << ", VB = " << layout->vb
     << ", VC = " << layout->vc << ";\n";
  os << "typedef " << getCudaStorageType(c.aKind) << " TA;\n";
  os << "typedef " << getCudaStorageType(c.bKind) << " TB;\n";
  os << "typedef " << getCudaStorageType(c.cKind) << " TC;\n";
  os << "typedef " << idx << " idx_t;\n\n";
  os << "namespace stark_addr {\n"
     << emitContractionAddressing(view, "idx_t")
     << "} // namespace stark_addr\n\n";
  // The kernel is GemmSimt.cuh; the problem reaches it through one struct.
  os << "struct StarkGemmProblem {\n";
  os << "  typedef " << getCudaStorageType(c.aKind) << " TA;\n";
  os << "  typedef " << getCudaStorageType(c.bKind) << " TB;\n";
  os << "  typedef " << getCudaStorageType(c.cKind) << " TC;\n";
  os << "  typedef " << idx << " idx_t;\n";
  os << llvm::formatv(
      "  static constexpr long long M = {0}, N = {1}, K = {2};\n", c.m, c.n,
      c.k);
  os << "  static constexpr bool kInitOut = C_FROM_INIT;\n";
  os << "  static constexpr float kInit = C_INIT;\n";
  for (auto [name, params] :
       {std::pair<StringRef, StringRef>{"a_off", "b, m, k"},
        {"b_off", "b, k, n"},
        {"c_off", "b, m, n"}}) {
    SmallVector<StringRef> names;
    params.split(names, ", ");
    os << "  static __device__ __forceinline__ idx_t " << name << "(idx_t "
       << llvm::join(names, ", idx_t ") << ") { return stark_addr::" << name
       << "(" << params << "); }\n";
  }
  os << "};\n";
  // With an epilogue the kernel hands each sum to StarkStore, which writes
  // the chain's output (the output's offset as the problem's c_off).
  if (view.epilogue)
    os << emitStoreStruct(view, "(long long)stark_addr::c_off(b, m, n)");
  os.flush();
  appendKernelText(s, getGemmSimtKernelText());
  os << "typedef stark_kernels::SimtGemmConfig<StarkGemmProblem, BM, BN, BK, "
        "TM, TN, GROUP_M, DOUBLE_BUFFER, MIN_BLOCKS, A_AXIS, VA, B_AXIS, VB, "
        "VC> StarkConfig;\n\n";
  os << "extern \"C\" __global__ void "
        "__launch_bounds__(StarkConfig::kThreads, MIN_BLOCKS) stark_gemm("
     << getKernelParameters(view) << ") {\n";
  std::string store;
  if (view.epilogue) {
    os << "  StarkStore st;\n" << emitStoreBinding(view, "st");
    store = ", st";
  }
  os << "  stark_kernels::gemmSimtBlock<StarkConfig>("
     << argName(view.inputs[0].argNumber) << ", "
     << argName(view.inputs[1].argNumber) << ", "
     << argName(view.outputs[0].argNumber) << store << ");\n}\n";

  CudaKernelPlan plan = makeGemmPlan(
      c, "gemm", "stark_gemm", std::move(s), p.bm, p.bn, layout->threads,
      layout->sharedBytes, /*dynamicShared=*/false);
  return plan;
}

std::vector<GemmParams> cudatpl::enumerateGemm(const ProblemView &view,
                                               const HardwareProfile &profile) {
  static const int64_t shapes[][5] = {
      // bm, bn, bk, tm, tn
      {128, 128, 8, 8, 8}, {128, 128, 16, 8, 8}, {128, 64, 8, 8, 8},
      {64, 128, 8, 8, 8},  {128, 64, 16, 8, 4},  {64, 128, 16, 4, 8},
      {64, 64, 8, 4, 4},   {64, 64, 16, 8, 8},   {64, 64, 16, 4, 4},
      {128, 32, 8, 4, 4},  {32, 128, 8, 4, 4},   {32, 64, 8, 4, 4},
      {64, 32, 8, 4, 4},   {32, 32, 8, 4, 4},    {32, 32, 16, 2, 2},
      {16, 64, 8, 2, 4},   {64, 16, 8, 4, 2},    {16, 16, 16, 1, 1}};
  const ContractionView &c = *view.contraction;
  // Static shared memory: the layout keeps within 48 KiB.
  BlockLimits limits(profile);
  std::vector<std::pair<GemmParams, double>> scored;
  for (bool db : {true, false}) {
    for (auto &shape : shapes) {
      for (int64_t minBlocks : {1, 2}) {
        GemmParams p;
        p.minBlocks = minBlocks;
        p.bm = shape[0];
        p.bn = shape[1];
        p.bk = shape[2];
        p.tm = shape[3];
        p.tn = shape[4];
        p.doubleBuffer = db;
        std::string ignored;
        FailureOr<SimtLayout> l = layoutSimt(view, p, ignored);
        if (failed(l) || !limits.fits(l->sharedBytes, l->threads, l->registers))
          continue;
        double reuse = double(p.tm * p.tn) / double(p.tm + p.tn) / 4.0;
        double score = tileScore(c, p.bm, p.bn, reuse, profile);
        // Single buffering only as a fallback (fewer registers). Two blocks
        // per SM hide latency better when their registers fit, so that cap
        // goes right before its uncapped twin.
        if (!db)
          score *= 0.5;
        if (minBlocks > 1) {
          if (2 * l->threads > 2048 || l->registers > 65536 / (2 * l->threads))
            continue;
          score *= 1.01;
        }
        scored.push_back({p, score});
      }
    }
  }
  return sortByScore(std::move(scored));
}

//===----------------------------------------------------------------------===//

std::unique_ptr<StrategyFamily> mlir::stark::createGemmFamily() {
  // The epilogue goes through StarkStore in the store stage; operands are
  // loaded through registers, where their prologues apply.
  return makeFunctionFamily<GemmParams>(
      "gemm", getGemmFields(),
      {/*initValue=*/true, /*epilogue=*/true, /*operandPrologues=*/true},
      rankContractionsIn(kSimtGemm), checkGemmApplies, enumerateGemm,
      generateGemmKernel);
}
