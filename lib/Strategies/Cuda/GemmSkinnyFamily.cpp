//===- GemmSkinnyFamily.cpp - Few-row f32 GEMM (gemm_skinny) --------------===//
//
// The kernel of lib/Strategies/Kernels/GemmSkinny.cuh on f32 contractions
// with at most 16 rows of output (m; the batch is separate): a classifier
// at a small batch, a projection of one token. The product reads B once and
// little else, so the block keeps every row and a strip of columns, and k
// is split over blocks until the grid keeps the memory system busy (the
// slices' partial sums are added in order by the split-K pass, which also
// applies the fill and the epilogue). B along n: a thread per V columns;
// B along k (a linear layer's weight): a warp per few columns. With many
// rows and at most 16 columns (a matrix times a vector, a 1x1 convolution
// of one pixel) the kernel walks the transposed product instead. Addressing
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

namespace {
/// The product the kernel walks: the problem's own, or with few columns
/// and many rows its transpose (`swap`: C^T = B^T A^T, m and n exchanged),
/// with the addressing of that product; along k (B's contiguous dimension
/// is k) or along n, and the elements of its vector loads (1: scalar).
struct SkinnyWalk {
  bool swap = false;
  ContractionView c;
  GemmKernelAddressing addr;
  bool alongK = false;
  int64_t vec = 1;
};
} // namespace

/// The side of `c` the kernel keeps whole in a block: m, or n when m has
/// more than kSkinnyMaxRows rows and n does not (the swapped product).
static std::optional<bool> getSkinnySwap(const ContractionView &c) {
  if (c.m <= kSkinnyMaxRows)
    return false;
  if (c.n <= kSkinnyMaxRows)
    return true;
  return std::nullopt;
}

static std::optional<unsigned> rankSkinny(const ProblemView &view, bool) {
  if (!ranksAsContraction(view))
    return std::nullopt;
  const ContractionView &c = *view.contraction;
  std::optional<bool> swap = getSkinnySwap(c);
  if (!swap)
    return std::nullopt;
  int64_t rows = *swap ? c.n : c.m;
  if (rows > 8)
    return kSkinnyGemmWide;
  // A matrix times a vector without an epilogue is also a row or column
  // reduction, which goes first there.
  return *swap && !view.epilogue ? kSkinnyGemmSwapped : kSkinnyGemm;
}

static LogicalResult checkSkinny(const ProblemView &view, std::string &whyNot) {
  if (failed(checkGemmKernelApplies(view, "gemm_skinny", whyNot)))
    return failure();
  const ContractionView &c = *view.contraction;
  if (!getSkinnySwap(c)) {
    whyNot = llvm::formatv("gemm_skinny takes at most {0} rows or columns of "
                           "output (m = {1}, n = {2})",
                           kSkinnyMaxRows, c.m, c.n);
    return failure();
  }
  return success();
}

static SkinnyWalk getSkinnyWalk(const ProblemView &view) {
  SkinnyWalk w;
  w.c = *view.contraction;
  w.addr = getGemmKernelAddressing(view);
  w.swap = getSkinnySwap(w.c).value_or(false);
  if (w.swap) {
    // A' = B^T (m' = n), B' = A^T (n' = m).
    std::swap(w.c.m, w.c.n);
    w.addr = getTransposedGemmKernelAddressing(w.addr);
    w.c.transposeA = w.addr.transposeA, w.c.transposeB = w.addr.transposeB;
  }
  const GemmKernelAddressing &addr = w.addr;
  w.alongK = addr.transposeB;
  // Sums go out one at a time but along n unswapped, where C takes vectors.
  bool vecC = !w.alongK && !w.swap;
  if (w.alongK)
    w.vec = !addr.transposeA && isGemmKernelVectorisable(addr, true, true, vecC)
                ? 4
                : 1;
  else
    // A vector of B's row must stay inside it: n a multiple of 4.
    w.vec = w.c.n % 4 == 0 && isGemmKernelVectorisable(addr, false, true, vecC)
                ? 4
                : 1;
  return w;
}

/// Whether `p` is a block of the kernel for `walk`.
static LogicalResult validateSkinny(const SkinnyWalk &walk,
                                    const SkinnyParams &p,
                                    std::string &whyNot) {
  if (p.bm < walk.c.m || p.bm > kSkinnyMaxRows) {
    whyNot =
        llvm::formatv("bm must cover the {0} {1} of output and be at "
                      "most {2}",
                      walk.c.m, walk.swap ? "columns" : "rows", kSkinnyMaxRows);
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
  SkinnyWalk walk = getSkinnyWalk(view);
  const ContractionView &c = walk.c;
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

/// Blocks per SM for __launch_bounds__: 1024 threads per SM, which leaves
/// each thread 64 registers, or 512 (128) for more than four rows. Left to
/// itself ptxas gives the classifier's block of 256 threads (one row, eight
/// 16-byte loads of B in flight) 106 registers and two blocks per SM; with
/// these caps no enumerated block of the GPU tests' problems spills (nvcc
/// -Xptxas -v), where more blocks (42 or 32 registers) made the scalar and
/// the vector-along-k walks spill, and 64 registers eight rows' 16-byte
/// lanes.
static int64_t getSkinnyMinBlocks(const SkinnyParams &p) {
  int64_t threadsPerSM = p.bm > 4 ? 512 : 1024;
  return std::max<int64_t>(1, threadsPerSM / p.threads);
}

static FailureOr<CudaKernelPlan> generateSkinny(const ProblemView &view,
                                                const SkinnyParams &p,
                                                std::string &whyNot) {
  if (failed(checkSkinny(view, whyNot)))
    return failure();
  SkinnyWalk walk = getSkinnyWalk(view);
  const ContractionView &c = walk.c;
  if (failed(validateSkinny(walk, p, whyNot)))
    return failure();
  FailureOr<int64_t> kPerSplit = getSplitKDepth(c, p.bk, p.splitK, whyNot);
  if (failed(kPerSplit))
    return failure();
  std::optional<StringRef> text = getKernelSource("GemmSkinny.cuh");
  if (!text) {
    whyNot = "GemmSkinny.cuh is not embedded";
    return failure();
  }
  std::string config =
      llvm::formatv("SkinnyConfig<{0}, {1}, {2}, {3}, {4}>", p.bm, p.bn, p.bk,
                    p.threads, walk.swap ? "true" : "false");
  // The source addresses the problem as it is; the block's flags describe
  // the product it walks.
  GemmKernelAddressing addr = getGemmKernelAddressing(view);
  addr.transposeA = walk.addr.transposeA;
  addr.transposeB = walk.addr.transposeB;
  constexpr StringLiteral kernel = "stark_gemm_skinny";
  std::string source = emitGemmKernelSource(
      view, addr, /*affine=*/addr.strided, *text, config, "gemmSkinnyBlock",
      kernel, /*vec=*/walk.vec > 1, getSkinnyMinBlocks(p), /*groupM=*/1,
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
