//===- GemmCommon.h - The frame the four GEMM families share --------------===//
//
// The GEMM families (gemm, gemm_tc, gemm_f32, gemm_3xtf32) each keep their
// parameters in a struct (ParamTable.h), filter their candidate blocks
// against the profile the same way and sort them by their score.
// The two families over the embedded kernels differ only in the kernel, its
// configurations and the shape of its block: one class, GemmKernelFamily.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LIB_STRATEGIES_CUDA_GEMMCOMMON_H
#define STARK_LIB_STRATEGIES_CUDA_GEMMCOMMON_H

#include "CudaTemplatesInternal.h"
#include "ParamTable.h"

namespace mlir::stark::cudatpl {

/// A plan of one launch of `kernel`: a block of `threads` per BM x BN tile
/// of the output and per slice of k, the batch times the `splitK` slices in
/// grid.y; `sharedBytes` per block, requested at launch when
/// `dynamicShared` (else declared in the source). With `splitK` > 1 a
/// second launch, kSplitKReduceKernel, sums the slices into C.
CudaKernelPlan makeGemmPlan(const ContractionView &c, StringRef family,
                            StringRef kernel, std::string source, int64_t bm,
                            int64_t bn, int64_t threads, int64_t sharedBytes,
                            bool dynamicShared, int64_t splitK = 1);

// Split-K (GemmSplitK.cpp; the plans' second launch is makeGemmPlan's).

/// The entry of the second launch of a split-K plan.
constexpr StringLiteral kSplitKReduceKernel = "stark_gemm_splitk_reduce";
/// The largest split-K workspace (the partial sums of every slice, f32) a
/// candidate may declare.
constexpr int64_t kSplitKMaxWorkspaceBytes = int64_t(64) << 20;
/// The entry of the first launch of a plan that gathers A into a workspace
/// (WgmmaSourceSpec::im2colA).
constexpr StringLiteral kIm2colKernel = "stark_gemm_im2col_a";
/// The largest such workspace (all of A, f32) a candidate may declare.
constexpr int64_t kIm2colMaxWorkspaceBytes = int64_t(512) << 20;
/// The shallowest slice of k the search proposes (8 tiles of the deepest
/// bk): shorter slices spend most of their time filling and draining the
/// pipeline and writing partial sums.
constexpr int64_t kSplitKMinSliceDepth = 256;

/// The depth of each of `splitK` slices of k for a block of depth `bk` (a
/// multiple of bk, so that every slice starts on a tile boundary), or why
/// `splitK` is not a valid split of `c`: it must be at least 1, leave no
/// slice empty, fit the grid's y limit with the batch and keep the
/// workspace within kSplitKMaxWorkspaceBytes.
FailureOr<int64_t> getSplitKDepth(const ContractionView &c, int64_t bk,
                                  int64_t splitK, std::string &whyNot);

/// A split candidate's constants and workspace: SPLIT_K, the slices' depth
/// as `perSplitName` (in the kernel's units), and `stark_gemm_ws`, the
/// partial sums of every slice ([slice][batch][m][n], f32), in a source that
/// defines BATCH, M and N.
std::string emitSplitKWorkspace(int64_t splitK, StringRef perSplitName,
                                int64_t perSplit);

/// The split counts worth trying for a bm x bn x bk block on `c` where its
/// output tiles leave SMs idle: one wave of blocks and two, each slice at
/// least kSplitKMinSliceDepth deep, each count the number of slices its
/// depth actually makes (so that no slice is empty).
SmallVector<int64_t> proposeSplitK(const ContractionView &c, int64_t bm,
                                   int64_t bn, int64_t bk, int64_t sms);

/// Whether k is at least twice the larger side of the output (a 3x3
/// convolution of 512 channels on a 28 x 28 image: 784 x 512 outputs, k =
/// 4608): its partial sums are cheap beside its arithmetic, and a tile too
/// large to fill the SMs alone may do better in slices of k than smaller
/// tiles do whole (VGG-16's such convolutions ran gemm_3xtf32's 64 x 32
/// tiles, 208 blocks, at 8 TFLOP/s on the H200).
bool isDeepContraction(const ContractionView &c);

/// The score of a bm x bn x bk block reusing operands `reuse` times with k
/// in `splitK` slices: its tile score with the slices counted as blocks,
/// times the share of its time left to the GEMM by the partial sums'
/// traffic.
double scoreSplitKTile(const ContractionView &c, int64_t bm, int64_t bn,
                       int64_t bk, double reuse, int64_t splitK,
                       const HardwareProfile &profile);

/// Slice counts for a kernel that runs one block per SM, where the bm x bn
/// tiles of `c` leave SMs idle: for one wave and for two, the most slices
/// whose blocks fit in them (never a short extra wave: 28 tiles on 132 SMs
/// take 4 slices, not 5), each slice at least kSplitKMinSliceDepth deep.
/// A count is kept when the k tiles run one after another on the busiest
/// SM (waves times tiles per slice) are at most 85% of the unsplit
/// kernel's; its score is `unsplitScore` scaled by that gain and by the
/// partial sums' traffic.
SmallVector<std::pair<int64_t, double>>
proposeOneBlockSplitK(const ContractionView &c, int64_t bm, int64_t bn,
                      int64_t bk, double unsplitScore,
                      const HardwareProfile &profile);

/// Where the bm x bn tiles of `c` fill the SMs but leave their last wave a
/// quarter empty or more (176 tiles on 132 SMs run as two waves, the second
/// a third full), the count of 2 to 4 slices of k whose blocks fill their
/// waves best, each slice at least kSplitKMinSliceDepth deep, with the score
/// `unsplitScore` (the unsplit tile's) scaled by the waves' better fill and
/// by the partial sums' traffic.
std::optional<std::pair<int64_t, double>>
proposeWaveSplitK(const ContractionView &c, int64_t bm, int64_t bn, int64_t bk,
                  double unsplitScore, const HardwareProfile &profile);

/// The axis a tile's copies run along (0 or 1) and the elements each copy
/// moves.
struct CopyAxis {
  int axis;
  int64_t width;
};
/// The first of two axes an operand may be copied along (`first` and
/// `second`: the widest copies each allows) unless the second allows wider
/// copies; where neither allows more than an element at a time, the axis
/// the operand is stored along (the second when `transposed`).
CopyAxis pickCopyAxis(int64_t first, int64_t second, bool transposed);

// The two wgmma families' shared pieces (WgmmaCandidates.cpp).

/// The operands' addressing of a wgmma candidate: the view's, or with A in
/// the im2col workspace (`im2colA`); none where that does not exist.
std::optional<GemmKernelAddressing> getWgmmaAddressing(const ProblemView &view,
                                                       bool im2colA);

/// Whether the operands of the contraction `view` sit in memory as the
/// wgmma kernels' 16-byte copies of `copyElements` elements read them: A
/// contiguous along k, B contiguous along n (or along k with
/// `bRowsAlongN`, B given as N x K), C along n unless the problem fills C
/// first; the copied extents (k, and n for B's rows along k) multiples of
/// a copy, every row 16-byte aligned and, unless the problem fills C first
/// (the store stage then writes single elements), C's rows aligned to two
/// elements; batch within the grid's y
/// and m, n, k in 32 bits. `family` starts the reason. With `im2colA` A is
/// read from the workspace it is first gathered into
/// (getIm2colGemmKernelAddressing), which must fit
/// kIm2colMaxWorkspaceBytes.
LogicalResult checkWgmmaLayout(const ProblemView &view, StringRef family,
                               int64_t copyElements, bool bRowsAlongN,
                               std::string &whyNot, bool im2colA = false);

/// The 16-bit wgmma kernels (GemmWgmma.cuh, and GemmWgmmaTma.cuh on the
/// same ring): a 128 x bn x 64 tile, 384 threads under
/// __launch_bounds__(384, 1) (168 registers each), a ring of `stages`
/// stages in dynamic shared memory plus one KB to align it, and 1 KB of
/// static shared memory (the alignment and the mbarriers).
inline constexpr int64_t kWgmmaBM = 128, kWgmmaBK = 64, kWgmmaThreads = 384,
                         kWgmmaRegisters = 168, kWgmmaStaticShared = 1024;
/// The ring of `stages` stages of bm x 64 of A and 64 x bn of B (bm 64:
/// the TMA kernel with one consumer warpgroup, 256 threads).
inline int64_t getWgmmaSharedBytes(int64_t bn, int64_t stages,
                                   int64_t bm = kWgmmaBM) {
  return stages * (bm * kWgmmaBK + kWgmmaBK * bn) * 2 + 1024;
}
/// A contraction the 16-bit wgmma kernels take: both inputs f16 or both
/// bf16, an f32, f16 or bf16 output, and checkWgmmaLayout's layout.
LogicalResult checkWgmmaHalfApplies(const ProblemView &view, StringRef family,
                                    std::string &whyNot);
/// The tile widths of the cp.async kernel (GemmWgmma.cuh) and of the TMA
/// kernel (GemmWgmmaTma.cuh, whose producer loads B in 64-wide panels).
inline constexpr int64_t kWgmmaWidths[] = {128, 256};
inline constexpr int64_t kWgmmaTmaWidths[] = {64, 128, 192, 256};
/// bn one of `widths`, stages in [2, 8], group_m >= 1, the ring of bm x bn
/// tiles within the shared memory of an sm_90a block. `family` starts the
/// reason.
LogicalResult validateWgmmaHalfTile(StringRef family, int64_t bn,
                                    int64_t stages, int64_t groupM,
                                    std::string &whyNot,
                                    ArrayRef<int64_t> widths = kWgmmaWidths,
                                    int64_t bm = kWgmmaBM);
/// gemmKernelTileScore of a bm x bn tile with the consumers' reuse, or
/// nullopt when the block does not fit `profile`.
std::optional<double> scoreWgmmaHalfTile(const ContractionView &c, int64_t bn,
                                         int64_t stages,
                                         const HardwareProfile &profile,
                                         int64_t bm = kWgmmaBM);

/// What differs between the candidates of the two wgmma kernels
/// (GemmWgmma.cuh, GemmWgmmaTf32.cuh): the kernel sources in include order,
/// the configuration and argument types, the entry's name, the block
/// function it runs, and B's rows: along k (B row-major K x N, ldb is B's
/// stride along k) or along n (B given as N x K, ldb its stride along n).
struct WgmmaSourceSpec {
  SmallVector<StringRef> kernelFiles;
  std::string config, args;
  StringRef kernel, block;
  bool bRowsAlongN = false;
  /// Parameters after the arguments' pointers (the tensor maps' addresses)
  /// and the statements that put them into `p`.
  std::string extraParams, extraArgs;
  /// Slices of k (kernels that take them: p.splits), each of
  /// `kTilesPerSplit` k tiles but the last; a second launch,
  /// kSplitKReduceKernel, adds them and stores the result.
  int64_t splitK = 1, kTilesPerSplit = 0;
  /// A gathered first, by a launch of kIm2colKernel, into a row-major
  /// workspace the source declares (getIm2colGemmKernelAddressing): a
  /// convolution as a plain product. f32 A only.
  bool im2colA = false;
};

/// The spec of a 16-bit wgmma kernel's candidate: `kernelFiles`, the
/// configuration WgmmaConfig<bn, stages, groupM>, the arguments
/// stark_kernels::`argsTemplate`<A's type, C's type>, the entry `kernel`
/// running `block`, B row-major.
WgmmaSourceSpec makeWgmmaHalfSpec(const ContractionView &c,
                                  ArrayRef<StringRef> kernelFiles, int64_t bn,
                                  int64_t stages, int64_t groupM,
                                  StringRef argsTemplate, StringRef kernel,
                                  StringRef block);

/// The candidate source of a wgmma kernel on `view`: the kernels, the
/// configuration as `StarkConfig`, and an entry that fills the kernel's
/// arguments from the problem's pointers and strides and runs the block,
/// with the store stage of a problem that fills C first or has an epilogue.
std::string emitWgmmaCandidateSource(const ProblemView &view,
                                     const WgmmaSourceSpec &spec);

/// The rank of a GEMM family that takes every contraction in `band`.
inline auto rankContractionsIn(RankBand band) {
  return [band](const ProblemView &view, bool) -> std::optional<unsigned> {
    if (!ranksAsContraction(view))
      return std::nullopt;
    return band;
  };
}

/// What a block may use on a profile (the generic limits where the profile
/// does not say).
struct BlockLimits {
  explicit BlockLimits(const HardwareProfile &profile);
  /// Whether `blocks` blocks of `threads` threads, each thread holding
  /// `registers`, fit one SM, and one block's shared memory and threads fit.
  bool fits(int64_t sharedBytes, int64_t threads, int64_t registers,
            int64_t blocks = 1) const;

  int64_t sharedBytes, threads, registersPerUnit;
};

/// The parameters of an embedded kernel's block: BM x BN x BK block tile,
/// WM x WN warp tiles, TM x TN thread tiles (SIMT only), `stages` tiles in
/// flight, tile rows per raster group, blocks per SM for __launch_bounds__,
/// and the slices of k that separate blocks sum (split-K; 1: a block covers
/// all of k).
struct GemmKernelParams {
  int64_t bm = 128, bn = 128, bk = 8, wm = 32, wn = 32, tm = 8, tn = 8;
  int64_t stages = 4, groupM = 8, minBlocks = 1, splitK = 1;
};

/// One block of an embedded kernel on a problem.
struct GemmKernelShape {
  int64_t threads = 0, sharedBytes = 0, registers = 0;
  /// 16-byte copies; the affine copy path.
  bool vec = false, affine = false;
};

/// A family over one embedded kernel (GemmF32.cuh, Gemm3xTf32.cuh): the
/// check, the enumeration over the kernel's configurations and the source
/// are the same; the kernel says its configurations, the shape of a block
/// and its configuration type.
class GemmKernelFamily : public StructParamFamily<GemmKernelParams> {
public:
  /// `kernel`: the entry of a candidate; `block`: the kernel's device
  /// function it runs; `text`: the kernel's source; `pipelined` and
  /// `shallow`: the family's bands where k is deep enough for the kernel's
  /// pipeline and where it is not (hasShallowK); `deepConv`, where given, its
  /// band on a convolution whose k is deep (isDeepContraction).
  GemmKernelFamily(StringRef name,
                   ArrayRef<ParamField<GemmKernelParams>> fields,
                   GemmKernelParams defaults, StringRef kernel, StringRef block,
                   StringRef text, RankBand pipelined, RankBand shallow,
                   std::optional<RankBand> deepConv = std::nullopt)
      : StructParamFamily(name, fields, defaults), kernel(kernel), block(block),
        text(text), pipelined(pipelined), shallow(shallow), deepConv(deepConv) {
  }

  std::optional<unsigned> rank(const ProblemView &view,
                               bool allowTf32) const final {
    if (!ranksAsContraction(view))
      return std::nullopt;
    if (hasShallowK(view))
      return shallow;
    if (deepConv && isSlidingWindowContraction(view) &&
        isDeepContraction(*view.contraction))
      return *deepConv;
    return pipelined;
  }

  LogicalResult check(const ProblemView &view, bool allowTf32,
                      std::string &whyNot) const final;
  bool handlesInitValue() const final { return true; }
  bool handlesEpilogue() const final { return true; }

protected:
  /// The configurations measured best on the H200, in the order that breaks
  /// ties of their score.
  virtual std::vector<GemmKernelParams> getConfigs() const = 0;
  /// The block of `p` on `addr`, or why `p` is not a valid block.
  virtual FailureOr<GemmKernelShape> getShape(const GemmKernelAddressing &addr,
                                              const GemmKernelParams &p,
                                              std::string &whyNot) const = 0;
  /// The kernel's configuration type for `p` ("SimtConfig<...>").
  virtual std::string getConfigType(const GemmKernelParams &p) const = 0;
  /// The data reuse of the per-warp or per-thread register block.
  virtual double getReuse(const GemmKernelParams &p) const = 0;

  /// The threads of a block of WM x WN warp tiles (at most 1024) and its
  /// copy path: affine where the in-tile offsets fit 32 bits, 16-byte copies
  /// where the operands the kernel reads with vectors (`vecA`, `vecB`)
  /// allow them.
  static FailureOr<GemmKernelShape>
  getWarpTiledShape(const GemmKernelAddressing &addr, const GemmKernelParams &p,
                    bool vecA, bool vecB, std::string &whyNot);

private:
  std::vector<GemmKernelParams> enumerateStructs(const ProblemView &view,
                                                 const HardwareProfile &profile,
                                                 bool allowTf32) const final;
  FailureOr<CudaKernelPlan> generateStruct(const ProblemView &view,
                                           const GemmKernelParams &p,
                                           std::string &whyNot) const final;

  StringRef kernel, block, text;
  RankBand pipelined, shallow;
  std::optional<RankBand> deepConv;
};

} // namespace mlir::stark::cudatpl

#endif // STARK_LIB_STRATEGIES_CUDA_GEMMCOMMON_H
