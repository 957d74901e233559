//===- WgmmaCandidates.cpp - What the two wgmma families share ------------===//
//
// gemm_wgmma (GemmWgmma.cuh) and gemm_wgmma_3xtf32 (GemmWgmmaTf32.cuh) read
// their operands with the same 16-byte copies into the same 128-byte
// swizzle and run the same frame (tile placement, mbarriers, store stage):
// the check of the operands' layout and the candidate's entry are one piece
// of code, parameterised by the copy width and B's orientation.
// gemm_wgmma_tma (GemmWgmmaTma.cuh) runs gemm_wgmma's ring and consumers:
// the two share their types, tile checks and scores.
//
//===----------------------------------------------------------------------===//

#include "GemmCommon.h"

#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

std::optional<GemmKernelAddressing>
cudatpl::getWgmmaAddressing(const ProblemView &view, bool im2colA) {
  if (im2colA)
    return getIm2colGemmKernelAddressing(view);
  return getGemmKernelAddressing(view);
}

/// The im2col workspace and the kernel that fills it: every element of A,
/// read through the view's own addressing, stored at [b][m][k].
static std::string emitIm2colKernel(const ProblemView &view,
                                    StringRef parameters) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "namespace stark_addr {\n"
     << emitContractionAddressing(view, getIndexType(view))
     << "} // namespace stark_addr\n";
  os << "// A gathered: [batch][m][k], row-major.\n"
        "__device__ __align__(16) float stark_im2col[BATCH * M * K];\n\n";
  os << "extern \"C\" __global__ void __launch_bounds__(256) " << kIm2colKernel
     << "(" << parameters << ") {\n"
     << llvm::formatv("  const float *A = {0};\n",
                      argName(view.inputs[0].argNumber))
     << "  for (long long i = blockIdx.x * 256LL + threadIdx.x; i < BATCH * M "
        "* K;\n       i += gridDim.x * 256LL) {\n"
        "    const int k = (int)(i % K);\n"
        "    const long long r = i / K;\n"
        "    stark_im2col[i] = A[stark_addr::a_off((int)(r / M), (int)(r % M), "
        "k)];\n"
        "  }\n}\n\n";
  return s;
}

std::string cudatpl::emitWgmmaCandidateSource(const ProblemView &view,
                                              const WgmmaSourceSpec &spec) {
  const ContractionView &c = *view.contraction;
  GemmKernelAddressing addr = *getWgmmaAddressing(view, spec.im2colA);
  std::string s = getCudaPrelude(view, spec.kernelFiles);
  llvm::raw_string_ostream os(s);
  os << "\n// The problem: " << describeGemmProblem(view) << ".\n";
  os << emitProblemConstants(c);
  os << "typedef " << spec.config << " StarkConfig;\n\n";
  // A problem that fills C first writes C = C_INIT + sum and never reads
  // C; one with an epilogue stores the chain's output instead of C.
  bool store = c.initValue.has_value();
  if (store)
    os << emitStoreStruct(view, llvm::formatv("{0}LL * b + {1}LL * m + {2}LL "
                                              "* n + {3}LL",
                                              addr.c[0], addr.c[1], addr.c[2],
                                              addr.cOffset)
                                    .str())
       << "\n";
  bool split = spec.splitK > 1;
  if (split)
    os << emitSplitKWorkspace(spec.splitK, "K_TILES_PER_SPLIT",
                              spec.kTilesPerSplit)
       << "\n";
  std::string parameters = getKernelParameters(view) + spec.extraParams;
  if (spec.im2colA)
    os << emitIm2colKernel(view, parameters);
  // The arguments, the same in the GEMM's launch and the split-K sums'.
  std::string setup;
  llvm::raw_string_ostream args(setup);
  args << "  " << spec.args << " p;\n";
  args << llvm::formatv("  p.A = {0} + {1}LL;\n  p.B = {2} + {3}LL;\n"
                        "  p.C = {4} + {5}LL;\n",
                        spec.im2colA ? std::string("stark_im2col")
                                     : argName(view.inputs[0].argNumber),
                        addr.aOffset, argName(view.inputs[1].argNumber),
                        addr.bOffset, argName(view.outputs[0].argNumber),
                        addr.cOffset);
  args << "  p.M = (int)M, p.N = (int)N, p.K = (int)K;\n";
  args << llvm::formatv("  p.lda = {0}LL, p.ldb = {1}LL, p.ldc = {2}LL;\n"
                        "  p.batchA = {3}LL, p.batchB = {4}LL, p.batchC = "
                        "{5}LL;\n",
                        addr.a[1], spec.bRowsAlongN ? addr.b[2] : addr.b[1],
                        addr.c[1], addr.a[0], addr.b[0], addr.c[0]);
  if (split)
    args << "  p.ws = stark_gemm_ws, p.batches = (int)BATCH, p.splits = "
            "SPLIT_K, p.kTilesPerSplit = K_TILES_PER_SPLIT;\n";
  args << spec.extraArgs;
  if (store)
    args << "  StarkStore st;\n" << emitStoreBinding(view, "st");
  os << "extern \"C\" __global__ void "
        "__launch_bounds__(StarkConfig::kThreads, 1) "
     << spec.kernel << "(" << parameters << ") {\n"
     << setup;
  os << "  stark_kernels::" << spec.block << "<StarkConfig>(p"
     << (store ? ", st" : "") << ");\n}\n";
  if (split) {
    os << "\n// The slices' partial sums, added in slice order and stored.\n";
    os << "extern \"C\" __global__ void __launch_bounds__(256) "
       << kSplitKReduceKernel << "(" << parameters << ") {\n"
       << setup;
    os << "  stark_kernels::wgmmaSplitKReduce(p" << (store ? ", st" : "")
       << ");\n}\n";
  }
  return s;
}

LogicalResult cudatpl::checkWgmmaLayout(const ProblemView &view,
                                        StringRef family, int64_t copyElements,
                                        bool bRowsAlongN, std::string &whyNot,
                                        bool im2colA) {
  auto decline = [&](const Twine &why) {
    whyNot = (family + " " + why).str();
    return failure();
  };
  const ContractionView &c = *view.contraction;
  if (view.inputs.size() < 2 || view.outputs.empty() ||
      view.inputs[0].argNumber < 0 || view.inputs[1].argNumber < 0 ||
      view.outputs[0].argNumber < 0)
    return decline("needs both operands and the output in memory");
  if (c.batch > 65535)
    return decline("needs a batch of at most 65535 (the grid's y limit)");
  const int64_t limit = std::numeric_limits<int32_t>::max();
  if (c.m > limit || c.n > limit || c.k > limit)
    return decline("keeps m, n and k in 32 bits");
  std::optional<GemmKernelAddressing> found = getWgmmaAddressing(view, im2colA);
  if (!found || !found->strided)
    return decline(im2colA ? "with A gathered first needs B and C strided in "
                             "(batch, k, n) and (batch, m, n)"
                           : "needs each operand strided in (batch, m, k), "
                             "(batch, k, n) and (batch, m, n)");
  const GemmKernelAddressing &addr = *found;
  if (im2colA && double(c.batch) * double(c.m) * double(c.k) * 4 >
                     double(kIm2colMaxWorkspaceBytes))
    return decline(llvm::formatv("with A gathered first needs A within {0} "
                                 "MB",
                                 kIm2colMaxWorkspaceBytes >> 20)
                       .str());
  if (addr.a[2] != 1)
    return decline("needs A contiguous along k (row-major A)");
  if (bRowsAlongN && addr.b[1] != 1)
    return decline("needs B contiguous along k (B given as N x K)");
  if (!bRowsAlongN && addr.b[2] != 1)
    return decline("needs B contiguous along n (row-major B)");
  // The store stage of a problem that fills C first writes each element
  // at its own address; adding to C goes along n in pairs.
  if (addr.c[2] != 1 && !c.initValue)
    return decline("needs C contiguous along n, or a problem that fills C "
                   "first");
  // The gather reads A as it is stored, not through a prologue.
  if (im2colA && view.epilogue && view.epilogue->hasPrologue())
    return decline("with A gathered first takes no prologue on the operands");
  // 16-byte copies: rows, batches and offsets aligned, and no copy
  // straddling the end of k (or n, along B's rows).
  auto whole = [&](int64_t v) { return v % copyElements == 0; };
  std::string copy = std::to_string(copyElements);
  if (!whole(c.k) || (!bRowsAlongN && !whole(c.n)))
    return decline(bRowsAlongN ? "needs k a multiple of " + copy
                               : "needs k and n multiples of " + copy);
  int64_t bRow = bRowsAlongN ? addr.b[2] : addr.b[1];
  if (!whole(addr.a[1]) || !whole(addr.a[0]) || !whole(addr.aOffset) ||
      !whole(bRow) || !whole(addr.b[0]) || !whole(addr.bOffset))
    return decline("needs the rows of A and B 16-byte aligned");
  // Adding to C accesses two adjacent elements at a time; the store stage
  // of a problem that fills C first writes one at a time.
  auto even = [](int64_t v) { return v % 2 == 0; };
  if (!c.initValue &&
      (!even(addr.c[1]) || !even(addr.c[0]) || !even(addr.cOffset)))
    return decline("needs the rows of C aligned to two elements");
  return success();
}

WgmmaSourceSpec cudatpl::makeWgmmaHalfSpec(const ContractionView &c,
                                           ArrayRef<StringRef> kernelFiles,
                                           int64_t bn, int64_t stages,
                                           int64_t groupM,
                                           StringRef argsTemplate,
                                           StringRef kernel, StringRef block) {
  WgmmaSourceSpec spec;
  spec.kernelFiles.assign(kernelFiles.begin(), kernelFiles.end());
  spec.config = llvm::formatv("stark_kernels::WgmmaConfig<{0}, {1}, {2}>", bn,
                              stages, groupM)
                    .str();
  spec.args =
      llvm::formatv("stark_kernels::{0}<{1}, {2}>", argsTemplate,
                    getCudaStorageType(c.aKind), getCudaStorageType(c.cKind))
          .str();
  spec.kernel = kernel;
  spec.block = block;
  spec.bRowsAlongN = false;
  return spec;
}

LogicalResult cudatpl::checkWgmmaHalfApplies(const ProblemView &view,
                                             StringRef family,
                                             std::string &whyNot) {
  if (!view.contraction) {
    whyNot = "the problem is not a contraction (out += a * b over linear maps)";
    return failure();
  }
  const ContractionView &c = *view.contraction;
  bool half = c.aKind == ElementKind::F16 && c.bKind == ElementKind::F16;
  bool bf16 = c.aKind == ElementKind::BF16 && c.bKind == ElementKind::BF16;
  if (!half && !bf16) {
    whyNot = (family + " needs both inputs f16 or both bf16").str();
    return failure();
  }
  if (c.cKind != ElementKind::F32 && c.cKind != ElementKind::F16 &&
      c.cKind != ElementKind::BF16) {
    whyNot = (family + " needs an f32, f16 or bf16 output").str();
    return failure();
  }
  return checkWgmmaLayout(view, family, /*copyElements=*/8,
                          /*bRowsAlongN=*/false, whyNot);
}

LogicalResult cudatpl::validateWgmmaHalfTile(StringRef family, int64_t bn,
                                             int64_t stages, int64_t groupM,
                                             std::string &whyNot,
                                             ArrayRef<int64_t> widths,
                                             int64_t bm) {
  if (!llvm::is_contained(widths, bn)) {
    std::string list;
    for (auto [i, w] : llvm::enumerate(widths))
      list += (i == 0                   ? ""
               : i + 1 == widths.size() ? " or "
                                        : ", ") +
              std::to_string(w);
    whyNot = (family + ": bn must be " + list).str();
    return failure();
  }
  if (stages < 2 || stages > 8 || groupM < 1) {
    whyNot = (family + ": stages in [2, 8], group_m >= 1").str();
    return failure();
  }
  // The most a block may hold on the H200 (and any sm_90a part).
  int64_t bytes = getWgmmaSharedBytes(bn, stages, bm) + kWgmmaStaticShared;
  if (bytes > 227 * 1024) {
    whyNot = llvm::formatv("{0}: {1} stages of {2}x{3} need {4} bytes of "
                           "shared memory (limit {5})",
                           family, stages, bm, bn, bytes, 227 * 1024);
    return failure();
  }
  return success();
}

std::optional<double>
cudatpl::scoreWgmmaHalfTile(const ContractionView &c, int64_t bn,
                            int64_t stages, const HardwareProfile &profile,
                            int64_t bm) {
  std::string ignored;
  if (failed(validateWgmmaHalfTile("", bn, stages, 1, ignored, kWgmmaTmaWidths,
                                   bm)) ||
      !BlockLimits(profile).fits(getWgmmaSharedBytes(bn, stages, bm) +
                                     kWgmmaStaticShared,
                                 kWgmmaThreads, kWgmmaRegisters))
    return std::nullopt;
  // A consumer warpgroup's 64 x bn accumulator reuses each A element bn
  // times and each B element 64 times.
  double reuse = double(64 * bn) / double(64 + bn) / 16.0;
  return gemmKernelTileScore(c, bm, bn, kWgmmaBK, reuse, profile);
}
