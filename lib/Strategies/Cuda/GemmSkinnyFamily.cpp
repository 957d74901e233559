//===- GemmSkinnyFamily.cpp - Few-row f32 GEMM (gemm_skinny) --------------===//
//
// The kernel of lib/Strategies/Kernels/GemmSkinny.cuh on f32 contractions
// with at most 16 rows of output (m; the batch is separate): a classifier
// at a small batch, a projection of one token. The product reads B once and
// little else, so the block keeps every row and a strip of columns, and k
// is split over blocks until the grid keeps the memory system busy (the
// slices' partial sums are added in order by the split-K pass, which also
// applies the fill and the epilogue). B along n: a thread per V columns;
// B along k (a linear layer's weight): a warp per few columns. Addressing
// as in gemm_f32: strided where it can be, decoded otherwise.
//
//===----------------------------------------------------------------------===//

#include "GemmCommon.h"

#include "stark/Strategies/KernelSources.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

namespace {
/// bm: rows per block (at least m, at most 16); bn: columns per block; bk:
/// k per step (B along n: k of a thread's loads in flight; B along k: 32
/// lanes times their vector); threads per block; split_k: slices of k.
struct SkinnyParams {
  int64_t bm = 16, bn = 1024, bk = 8, threads = 256, splitK = 1;
};
} // namespace

static constexpr int64_t kSkinnyMaxRows = 16;

static ArrayRef<ParamField<SkinnyParams>> getSkinnyFields() {
  using P = SkinnyParams;
  static const ParamField<P> fields[] = {{"bm", &P::bm},
                                         {"bn", &P::bn},
                                         {"bk", &P::bk},
                                         {"threads", &P::threads},
                                         {"split_k", &P::splitK}};
  return fields;
}

static std::optional<unsigned> rankSkinny(const ProblemView &view, bool) {
  if (!ranksAsContraction(view) || view.contraction->m > kSkinnyMaxRows)
    return std::nullopt;
  return view.contraction->m <= 8 ? kSkinnyGemm : kSkinnyGemmWide;
}

static LogicalResult checkSkinny(const ProblemView &view, std::string &whyNot) {
  if (failed(checkGemmKernelApplies(view, "gemm_skinny", whyNot)))
    return failure();
  if (view.contraction->m > kSkinnyMaxRows) {
    whyNot = llvm::formatv("gemm_skinny takes at most {0} rows of output "
                           "(m = {1})",
                           kSkinnyMaxRows, view.contraction->m);
    return failure();
  }
  return success();
}

namespace {
/// How the kernel walks a problem: along k (B's contiguous dimension is k)
/// or along n, and the elements of its vector loads (1: scalar).
struct SkinnyWalk {
  bool alongK = false;
  int64_t vec = 1;
};
} // namespace

static SkinnyWalk getSkinnyWalk(const ContractionView &c,
                                const GemmKernelAddressing &addr) {
  SkinnyWalk w;
  w.alongK = addr.transposeB;
  if (w.alongK)
    w.vec =
        !addr.transposeA && isGemmKernelVectorisable(addr, true, true) ? 4 : 1;
  else
    // A vector of B's row must stay inside it: n a multiple of 4.
    w.vec = c.n % 4 == 0 && isGemmKernelVectorisable(addr, false, true) ? 4 : 1;
  return w;
}

/// Whether `p` is a block of the kernel for `walk` on `c`.
static LogicalResult validateSkinny(const ContractionView &c,
                                    const SkinnyWalk &walk,
                                    const SkinnyParams &p,
                                    std::string &whyNot) {
  if (p.bm < c.m || p.bm > kSkinnyMaxRows) {
    whyNot = llvm::formatv("bm must cover the {0} rows of output and be at "
                           "most {1}",
                           c.m, kSkinnyMaxRows);
    return failure();
  }
  if (p.threads < 32 || p.threads > 1024 || p.threads % 32) {
    whyNot = "threads must be whole warps, at most 1024";
    return failure();
  }
  if (walk.alongK) {
    int64_t warps = p.threads / 32;
    if (p.bk != 32 * walk.vec || p.bn % warps || p.bn / warps > 8) {
      whyNot = llvm::formatv("with B along k, bk is 32 lanes of {0} elements "
                             "({1}) and bn 1 to 8 columns per warp",
                             walk.vec, 32 * walk.vec);
      return failure();
    }
  } else if (p.bn != p.threads * walk.vec || p.bk < 1 || p.bk > 16) {
    whyNot = llvm::formatv("with B along n, bn is threads times {0} columns "
                           "and bk in [1, 16]",
                           walk.vec);
    return failure();
  }
  return success();
}

/// Slice counts that give the grid about `waves` blocks per SM, each slice
/// at least two steps deep; every count is the number of slices its depth
/// makes.
static SmallVector<int64_t> proposeSkinnySplits(const ContractionView &c,
                                                const SkinnyParams &p,
                                                int64_t sms) {
  int64_t strips = ceilDiv(c.n, p.bn) * c.batch;
  SmallVector<int64_t> out;
  for (int64_t waves : {4, 8, 2}) {
    int64_t want = std::max<int64_t>(1, ceilDiv(waves * sms, strips));
    int64_t depth = llvm::alignTo(ceilDiv(c.k, want), p.bk);
    depth = std::max(depth, 2 * p.bk);
    int64_t splits = ceilDiv(c.k, depth);
    std::string ignored;
    if (!llvm::is_contained(out, splits) &&
        succeeded(getSplitKDepth(c, p.bk, splits, ignored)))
      out.push_back(splits);
  }
  return out;
}

static std::vector<SkinnyParams>
enumerateSkinny(const ProblemView &view, const HardwareProfile &profile) {
  const ContractionView &c = *view.contraction;
  SkinnyWalk walk = getSkinnyWalk(c, getGemmKernelAddressing(view));
  int64_t bm = llvm::PowerOf2Ceil(c.m);
  int64_t maxThreads = getMaxBlockThreads(profile);
  // Blocks whose strips of columns waste the fewest threads first (a
  // strip past n idles its threads), the larger block among equals.
  std::vector<std::pair<SkinnyParams, double>> blocks;
  auto add = [&](const SkinnyParams &p) {
    blocks.push_back({p, double(c.n) / double(ceilDiv(c.n, p.bn) * p.bn)});
  };
  for (int64_t threads : {256, 128, 64}) {
    if (threads > maxThreads)
      continue;
    SkinnyParams p;
    p.bm = bm, p.threads = threads;
    if (walk.alongK) {
      p.bk = 32 * walk.vec;
      for (int64_t perWarp : {2, 4, 1}) {
        p.bn = threads / 32 * perWarp;
        add(p);
      }
    } else {
      p.bn = threads * walk.vec;
      for (int64_t bk : {8, 4}) {
        p.bk = bk;
        add(p);
      }
    }
  }
  std::vector<SkinnyParams> out;
  int64_t sms = getNumUnits(profile);
  for (const SkinnyParams &block : sortByScore(std::move(blocks)))
    for (int64_t splits : proposeSkinnySplits(c, block, sms)) {
      SkinnyParams p = block;
      p.splitK = splits;
      out.push_back(p);
    }
  return out;
}

/// Blocks per SM for __launch_bounds__: as many as a thread's
/// accumulators and loads in flight leave registers for (a block of 256
/// threads with one row and eight 16-byte loads of B keeps 64 registers
/// and four blocks per SM instead of 106 and two), up to 2048 threads.
static int64_t getSkinnyMinBlocks(const SkinnyWalk &walk,
                                  const SkinnyParams &p) {
  int64_t registers;
  if (walk.alongK) {
    int64_t columns = p.bn / (p.threads / 32);
    registers = p.bm * columns + columns * walk.vec + walk.vec + 24;
  } else {
    registers = p.bm * walk.vec + p.bk * walk.vec + 24;
  }
  registers = llvm::alignTo(registers, 8);
  return std::clamp<int64_t>(65536 / (p.threads * registers), 1,
                             2048 / p.threads);
}

static FailureOr<CudaKernelPlan> generateSkinny(const ProblemView &view,
                                                const SkinnyParams &p,
                                                std::string &whyNot) {
  if (failed(checkSkinny(view, whyNot)))
    return failure();
  const ContractionView &c = *view.contraction;
  GemmKernelAddressing addr = getGemmKernelAddressing(view);
  SkinnyWalk walk = getSkinnyWalk(c, addr);
  if (failed(validateSkinny(c, walk, p, whyNot)))
    return failure();
  FailureOr<int64_t> kPerSplit = getSplitKDepth(c, p.bk, p.splitK, whyNot);
  if (failed(kPerSplit))
    return failure();
  std::optional<StringRef> text = getKernelSource("GemmSkinny.cuh");
  if (!text) {
    whyNot = "GemmSkinny.cuh is not embedded";
    return failure();
  }
  std::string config = llvm::formatv("SkinnyConfig<{0}, {1}, {2}, {3}>", p.bm,
                                     p.bn, p.bk, p.threads);
  constexpr StringLiteral kernel = "stark_gemm_skinny";
  std::string source = emitGemmKernelSource(
      view, addr, /*affine=*/addr.strided, *text, config, "gemmSkinnyBlock",
      kernel, /*vec=*/walk.vec > 1, getSkinnyMinBlocks(walk, p), /*groupM=*/1,
      p.splitK, *kPerSplit, kSplitKReduceKernel);
  return makeGemmPlan(c, "gemm_skinny", kernel, std::move(source), p.bm, p.bn,
                      p.threads, /*sharedBytes=*/0, /*dynamicShared=*/false,
                      p.splitK);
}

std::unique_ptr<StrategyFamily> mlir::stark::createGemmSkinnyFamily() {
  return makeFunctionFamily<SkinnyParams>(
      "gemm_skinny", getSkinnyFields(), {/*initValue=*/true, /*epilogue=*/true},
      rankSkinny, checkSkinny, enumerateSkinny, generateSkinny);
}
