//===- CudaTemplatesInternal.h - What the CUDA template families share ----===//
//
// The base class of the CUDA C++ template families, and the helpers they
// share: the common prelude (element conversions, vector access structs,
// NaN-propagating min/max), kernel parameter lists in the candidate calling
// convention, mixed-radix decoding of linear indices, and the checks and
// enumerations of each family.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LIB_STRATEGIES_CUDA_CUDATEMPLATESINTERNAL_H
#define STARK_LIB_STRATEGIES_CUDA_CUDATEMPLATESINTERNAL_H

#include "stark/Strategies/CudaCodegen.h"
#include "stark/Strategies/CudaTemplates.h"
#include "stark/Strategies/StrategyRegistry.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::stark::cudatpl {

/// The problems whose template families are ranked among themselves only:
/// a softmax, a fused norm, another fused chain with reductions, a window
/// per output (pooling, depthwise convolution), attention; every other
/// problem is `Other`, where contractions and reductions are told apart by
/// the view.
enum class RankingKind { Softmax, Norm, FusedRows, Window, Attention, Other };
RankingKind getRankingKind(const ProblemView &view);

/// Where a template family stands on a problem (CudaTemplateFamily::rank),
/// lower first. Within a kind of its own (softmax, norms, fused rows,
/// windows) a family is first or second; on other problems the bands
/// below order contractions, then reductions, then anything.
enum RankBand : unsigned {
  kFirst = 0,
  kSecond = 1,
  /// A contraction with at most 8 rows of output, or 8 columns and an
  /// epilogue (gemm_skinny): bound by reading B once, which a strip of columns
  /// per block with k split over blocks does at the memory's rate; it also
  /// takes the fill and the epilogue that the reductions decline.
  kSkinnyGemm = 8,
  /// Matrix-vector shapes (min(m, n) < 16) are bandwidth-bound: a
  /// reduction per output reads each matrix element once without wasting
  /// a tile.
  kSkinnyContraction = 10,
  /// gemm_skinny on the transpose of a matrix times a vector (at most 8
  /// columns of output, many rows) without an epilogue: after the
  /// reduction that reads along its rows.
  kSkinnyGemmSwapped = 11,
  /// 3xTF32 on wgmma over an im2col workspace (a convolution whose output
  /// channels fill the 128 x 128 tiles and that does enough work): on the
  /// H100 1.45 to 1.75 times faster than the best first pick of conv,
  /// gemm_f32 and gemm_3xtf32 on VGG-16's 3x3 convolutions from 128
  /// channels up (bench/results/2026-12-07f-h100/call-1/conv-im2col.log);
  /// at 64 channels (half-empty tiles) conv stays faster (160 against 219
  /// us).
  kIm2colWgmmaTf32 = 15,
  /// A convolution computed directly, with output rows at least a warp
  /// wide: no implicit-GEMM address decoding, and short k (few channels,
  /// small filters) costs nothing to pipeline.
  kWideConvRows = 20,
  /// Plain tf32 tensor cores, where the user allows them, do a third of
  /// 3xTF32's MMAs.
  kAllowedTf32 = 30,
  /// 3xTF32 on wgmma (Hopper) where the problem does enough work for its
  /// 128 x 128 tiles (split-K fills the SMs); after the mma.sync kernel
  /// on small problems.
  kWgmmaTf32 = 35,
  /// gemm_f32 on a convolution as implicit GEMM whose k is deep
  /// (isDeepContraction): with k in slices it ran VGG-16's 3x3 layers on
  /// 28 x 28 images at 1.6 to 2.2 times the speed of gemm_3xtf32's first
  /// set (H100: 256 -> 512 channels 82.6 against 182.1 us, 512 -> 512
  /// 233.3 against 383.5 us;
  /// bench/results/2026-12-07c-h100/split-k-deep.md).
  kDeepConvF32 = 38,
  /// The embedded f32 kernels, where k is deep enough for their cp.async
  /// pipeline (kGemmKernelMinPipelinedK).
  kPipelined3xTf32 = 40,
  kFewTilesWgmmaTf32 = 45,
  kPipelinedF32 = 50,
  /// gemm_skinny on 9 to 16 rows (or columns), where the GEMM kernels'
  /// tiles start to pay for themselves.
  kSkinnyGemmWide = 55,
  /// A convolution whose output rows are narrower than a warp: after the
  /// GEMM kernels that decline nothing.
  kNarrowConvRows = 60,
  /// wgmma before WMMA: on chips other than sm_90a it offers nothing.
  /// TMA loads first, where the operands are whole arguments.
  kWgmmaTma = 68,
  kWgmma = 70,
  kTensorCores = 80,
  kSimtGemm = 90,
  /// Reductions over a contraction's k, after every GEMM.
  kRowReductionOfContraction = 100,
  kColReductionOfContraction = 110,
  /// The embedded f32 kernels where k is shallower than two of their
  /// smallest slices: the pipeline has nothing to overlap and C's traffic
  /// bounds the problem, where gemm's small tiles win (matmul_small_k,
  /// k = 4, on the H200: 24.8 us for gemm, 70.4 us with gemm_f32 first).
  kShallow3xTf32 = 120,
  kShallowWgmmaTf32 = 125,
  kShallowF32 = 130,
  /// A masked reduction that is a prefix scan (cumsum): O(L) instead of
  /// O(L^2) per row; the scan family declines every other reduction.
  kScan = 200,
  /// The reduction family that reads along the reduced dimension's
  /// layout (reduce_row for contiguous rows, reduce_col otherwise), then
  /// the other.
  kMatchingReduction = 210,
  kOtherReduction = 220,
  kElementwise = 300,
  kDirect = 310,
};

/// A contraction with min(m, n) < 16 (a matrix-vector product, a dot).
bool isSkinnyContraction(const ProblemView &view);
/// A contraction whose k is too shallow for the embedded f32 kernels'
/// pipeline (kShallow3xTf32).
bool hasShallowK(const ProblemView &view);
/// A softmax over long contiguous rows: the walks of fused_rows go before
/// the online kernel there (on the H200, rows of 24576 kept in shared
/// memory: 22.8 us against the online kernel's 25.0 us).
bool hasLongSoftmaxRows(const ProblemView &view);
/// A contraction (or convolution) among the `Other` problems: where the
/// GEMM families and conv rank themselves.
bool ranksAsContraction(const ProblemView &view);
/// The band of reduce_row (`rows`) or reduce_col on `view`, or none: a
/// skinny contraction's reduction, one after the GEMMs, or a reduction's.
std::optional<unsigned> rankReductionFamily(const ProblemView &view, bool rows);

/// A CUDA C++ template family: a check, an enumeration and a generator on
/// the ProblemView of a problem. Its points are its parameter sets; a point
/// builds into a copy of the problem carrying the generated kernels.
class CudaTemplateFamily : public StrategyFamily {
public:
  explicit CudaTemplateFamily(StringRef name) : name(name) {}

  static bool classof(const StrategyFamily *family) {
    return family->getKind() == Kind::CudaTemplate;
  }
  Kind getKind() const final { return Kind::CudaTemplate; }
  StringRef getName() const final { return name; }
  StringRef getTarget() const final { return "cuda"; }

  /// Whether the family can generate a correct kernel for `view`; f32
  /// contractions may use tf32 tensor cores when `allowTf32`.
  virtual LogicalResult check(const ProblemView &view, bool allowTf32,
                              std::string &whyNot) const = 0;
  /// Whether the family's kernels start the output from the problem's
  /// initValue (a fill + contraction problem) instead of reading it.
  virtual bool handlesInitValue() const { return false; }
  /// Whether the family's kernels compute a contraction's epilogue (a
  /// problem with ProblemView::epilogue) in their store stage.
  virtual bool handlesEpilogue() const { return false; }
  /// Whether the family's kernels compute a contraction's operand prologues
  /// (EpilogueView::aPrologue, bPrologue) as they load the operands.
  virtual bool handlesOperandPrologues() const { return false; }
  /// Where the family stands on `view` among the template families (a
  /// RankBand), or none when it is not worth offering there; whether it
  /// applies is `check`'s answer.
  virtual std::optional<unsigned> rank(const ProblemView &view,
                                       bool allowTf32) const = 0;
  /// `check`, after refusing a problem whose output starts from a constant
  /// when the family's kernels would read it instead, and a contraction
  /// with an epilogue when they would leave the epilogue out.
  LogicalResult checkView(const ProblemView &view, bool allowTf32,
                          std::string &whyNot) const;
  /// The parameter sets worth trying (the family applies), best guess first.
  virtual std::vector<TemplateParams> enumerate(const ProblemView &view,
                                                const HardwareProfile &profile,
                                                bool allowTf32) const = 0;
  /// The kernels of `params` (missing ones take their defaults, unknown
  /// names are an error).
  virtual FailureOr<CudaKernelPlan> generate(const ProblemView &view,
                                             const TemplateParams &params,
                                             std::string &whyNot) const = 0;

  LogicalResult applies(const StrategyProblem &problem,
                        std::string &whyNot) const final;
  std::optional<unsigned> getRank(const StrategyProblem &problem) const final;
  std::vector<StrategyPoint>
  getPoints(const StrategyProblem &problem) const final;
  FailureOr<std::string> build(const StrategyProblem &problem,
                               const StrategyPoint &point,
                               std::string &error) const final;

protected:
  /// Binds `given` to the named `slots`; fails naming an unknown parameter.
  LogicalResult takeParams(const TemplateParams &given,
                           ArrayRef<std::pair<StringRef, int64_t *>> slots,
                           std::string &whyNot) const;

private:
  StringRef name;
};

/// The template family called `name`, or null.
const CudaTemplateFamily *lookupTemplateFamily(StringRef name);

/// The template families that rank themselves on `view`, the most
/// promising first (ties in registration order; whether one applies is its
/// own check).
SmallVector<StringRef> rankTemplateFamilies(const ProblemView &view,
                                            bool allowTf32 = false);

/// Whether a contraction reads its first input through a sliding window (a
/// convolution: more loops index the image than it has dimensions); the
/// conv family is offered first for those (ConvFamily.cpp).
bool isSlidingWindowContraction(const ProblemView &view);
/// Whether the conv family applies to `view` with output rows (its x loop)
/// of at least 32 points, one per lane of a warp: narrower rows leave lanes
/// idle, and the implicit-GEMM kernels go first.
bool hasWideConvRows(const ProblemView &view);
/// "i0", "i1", ...: the C++ names of the loop indices.
SmallVector<std::string> loopNames(const ProblemView &view);

/// The includes and helpers every generated source starts with, then the
/// embedded kernel sources `kernelFiles` (lib/Strategies/Kernels, e.g.
/// "Reduce.cuh", each after those it includes), without their include lines:
/// a candidate carries only the .cuh files it uses.
std::string getCudaPrelude(const ProblemView &view,
                           ArrayRef<StringRef> kernelFiles = {});

/// "const float* __restrict__ arg0, ..., float* __restrict__ arg2": every
/// kernel takes the data pointers of all entry arguments, in order.
std::string getKernelParameters(const ProblemView &view);

/// The C++ name of entry argument `argNumber` in kernels ("arg0").
std::string argName(int64_t argNumber);

/// "int" when every offset and count of the problem fits 32 bits.
std::string getIndexType(const ProblemView &view);

/// Writes each line of `text` (statements from emitScalarProgram) to `os`,
/// indented by `indent`.
void emitLines(llvm::raw_ostream &os, StringRef indent, StringRef text);

/// Statements declaring `const <indexType> <names[i]> = (<linear> / stride_i)
/// % range_i;` for `loops` (outermost first) with `ranges`; the outermost
/// decode skips the modulo when `linearBound` is the product of the ranges.
std::string emitDecode(StringRef indent, StringRef indexType, StringRef linear,
                       ArrayRef<unsigned> loops, ArrayRef<int64_t> ranges,
                       ArrayRef<std::string> names);

/// `access.offset + sum(coef[d] * names[d])` over `loops` (terms with a zero
/// coefficient and loops not listed are left out). "0" when empty.
std::string emitLinearOffset(const LinearAccess &access,
                             ArrayRef<unsigned> loops,
                             ArrayRef<std::string> names, bool withOffset);

/// True when every coefficient except those of `except` and the offset are
/// multiples of `vec` (a vector access starting at an aligned index of the
/// loops in `except` stays aligned).
bool isAlignedExcept(const LinearAccess &access, ArrayRef<unsigned> except,
                     int64_t vec);

int64_t ceilDiv(int64_t a, int64_t b);

/// Whether `x` is a positive power of two: the block, lane and vector sizes
/// the kernels' combines and vector accesses need.
inline bool isPowerOfTwo(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

/// The most threads a block may have on `profile` (1024, CUDA's limit,
/// where the profile does not say).
int64_t getMaxBlockThreads(const HardwareProfile &profile);
/// The SMs of `profile`, at least one: what the enumerations fill.
int64_t getNumUnits(const HardwareProfile &profile);
/// The vector widths a row kernel tries: the widest its rows allow, then
/// scalar accesses.
SmallVector<int64_t> getVectorWidths(int64_t maxVec);
/// Bytes of the widest element an input argument holds (1 at least; folded
/// constants are not read from memory).
int64_t getWidestInputBytes(const ProblemView &view);

/// The structs of `scored`, highest score first, ties in their given order.
template <class P>
std::vector<P> sortByScore(std::vector<std::pair<P, double>> scored) {
  std::stable_sort(
      scored.begin(), scored.end(),
      [](const auto &a, const auto &b) { return a.second > b.second; });
  std::vector<P> out;
  for (auto &entry : scored)
    out.push_back(std::move(entry.first));
  return out;
}

/// The most bytes of rows a block of the row kernels (`softmax`,
/// `fused_rows`, `cache=2`) keeps in shared memory: under the 227 KiB a
/// Hopper block may opt into, with room for the block's static part.
constexpr int64_t kMaxRowCacheBytes = 220 * 1024;

/// Whether two blocks that each keep `bytes` of rows in shared memory fit
/// one SM of `profile`, so that one block's loads overlap the other's
/// combine (the row kernels offer `cache=2` only then).
bool rowCachesFitTwoBlocks(const HardwareProfile &profile, int64_t bytes);

/// A block shape of the row kernels: `lanes` threads to a row, `rows` rows
/// to a block, `vec` elements to an access.
struct RowBlockShape {
  int64_t lanes, rows, vec;
};

/// The block shapes the row kernels (norms, softmax) try for `numRows`
/// rows of `length` elements, for each vector width of getVectorWidths
/// (`maxVec`): lane counts that give each lane a few vectors, then their
/// neighbours (`longRowLanes` for rows of more than 1024 vectors), with 256
/// threads to a block, and a quarter of the rows to a block (whole warps
/// still) when the rows are too few to give each of `sms` units a block.
SmallVector<RowBlockShape> getRowBlockShapes(int64_t length, int64_t maxVec,
                                             int64_t numRows, int64_t sms,
                                             ArrayRef<int64_t> longRowLanes);

/// Fails, saying why, where a row kernel's vector width `vec` exceeds
/// `maxVec`, the widest aligned access along its rows.
LogicalResult checkRowVector(int64_t vec, int64_t maxVec, std::string &whyNot);
/// Fails, saying why, where a lane of a row kernel would keep more than 32
/// elements of its row in registers (`perLane`; cache=1).
LogicalResult checkRegisterCache(int64_t perLane, std::string &whyNot);

/// Records `value` under `key` in the plan's parameters.
void setParam(CudaKernelPlan &plan, StringRef key, int64_t value);

/// The plan of one launch of `kernel` in `source`, for `family`: `grid`
/// blocks of `block` threads; `staticShared` bytes of shared memory the
/// kernel declares and `dynamicShared` more given at launch. The family's
/// parameters are recorded by the family (StructParamFamily).
CudaKernelPlan makeOneLaunchPlan(StringRef family, std::string source,
                                 StringRef kernel, std::array<int64_t, 3> grid,
                                 std::array<int64_t, 3> block,
                                 int64_t staticShared = 0,
                                 int64_t dynamicShared = 0);

/// The combiner of a reduction as an expression of two compute values.
std::string emitCombine(StringRef combiner, ElementKind kind, StringRef a,
                        StringRef b);
/// The identity of a combiner in compute type `kind`.
std::string emitCombineIdentity(StringRef combiner, ElementKind kind);

// The two GEMM families (GemmCommon.cpp).

/// Largest vector width (up to `maxVec`, a power of two) for loads of
/// `access` that run along the innermost loop of `group`.
int64_t vectorWidthAlong(const LinearAccess &access, ArrayRef<unsigned> group,
                         ArrayRef<int64_t> ranges, int64_t maxVec);
/// The three address functions of a contraction: a_off(b, m, k),
/// b_off(b, k, n), c_off(b, m, n).
std::string emitContractionAddressing(const ProblemView &view,
                                      StringRef indexType);
/// Members of a GEMM kernel's layout struct that compute a contraction's
/// epilogue (view.epilogue) in its store stage: `kEpilogue`, the pointers of
/// the epilogue's inputs and of the output (set by
/// emitEpilogueLayoutBinding) and `epilogue(b, m, n, acc)`, which decodes
/// the output point, evaluates the program in f32 from the accumulated
/// value `acc` and stores the output element once, at c_off(b, m, n).
std::string emitEpilogueLayoutMembers(const ProblemView &view,
                                      StringRef indexType);
/// Statements `<lay>.argN = argN;` binding the kernel's arguments to those
/// members.
std::string emitEpilogueLayoutBinding(const ProblemView &view, StringRef lay);
/// A struct StarkStore for kernels that hand each finished sum to a store
/// (`kStore`, `store(b, m, n, x)`): with an epilogue it evaluates the
/// epilogue there and stores the chain's output; otherwise it writes
/// C_INIT + x (a problem that fills C first). `c_off(b, m, n)`, the output's
/// offset from its argument's pointer, returns `cOffBody`. Needs C_INIT.
/// With operand prologues (view.epilogue->hasPrologue()), the struct also
/// has `kPrologueA` / `kPrologueB` and `prologue_a(b, m, k, x)` /
/// `prologue_b(b, k, n, x)`, which compute the operand's element from the
/// value `x` the kernel loaded (f32) and the other inputs the prologue reads
/// at that point; without, both flags are false.
std::string emitStoreStruct(const ProblemView &view, StringRef cOffBody);
/// Statements binding a StarkStore `var` to the kernel's arguments.
std::string emitStoreBinding(const ProblemView &view, StringRef var);
/// Whether `kind` is an output the epilogue may store (f32, f16, bf16).
bool isEpilogueOutputKind(ElementKind kind);
/// "C[b, m, n] = C_INIT + sum_k A[b, m, k] * B[b, k, n]" (or "+=" when the
/// problem accumulates into C), with ", the output the epilogue of C (op)"
/// for a contraction with its epilogue: what a GEMM source says it computes.
std::string describeGemmProblem(const ProblemView &view);
/// `constexpr` M, N, K and BATCH of the contraction.
std::string emitProblemConstants(const ContractionView &c);
/// Rough merit of a BM x BN tiling with register-block `reuse`.
double tileScore(const ContractionView &c, int64_t bm, int64_t bn, double reuse,
                 const HardwareProfile &profile);

// The families over the embedded kernels of lib/Strategies/Kernels
// (GemmCommon.cpp): gemm_f32 (GemmF32.cuh) and gemm_3xtf32 (Gemm3xTf32.cuh).

/// How those kernels address a contraction. `strided`: every operand is
/// offset + strides . (b, m, k) (resp. (b, k, n), (b, m, n)) over the
/// decoded coordinates, so the kernels may take their affine copy path;
/// otherwise every address goes through the decoding a_off / b_off / c_off.
struct GemmKernelAddressing {
  bool strided = false;
  int64_t a[3] = {0, 0, 0}; // a_b, a_m, a_k
  int64_t b[3] = {0, 0, 0}; // b_b, b_k, b_n
  int64_t c[3] = {0, 0, 0}; // c_b, c_m, c_n
  int64_t aOffset = 0, bOffset = 0, cOffset = 0;
  /// A's contiguous dimension is m (stored K x M); B's is k (stored N x K).
  bool transposeA = false, transposeB = false;
};
GemmKernelAddressing getGemmKernelAddressing(const ProblemView &view);
/// The addressing of the product with A gathered first into a row-major
/// workspace of [batch][m][k] (im2col: a convolution's A, its input seen
/// through the window, is not strided in (m, k)), B and C as the view has
/// them; none where B or C is not strided.
std::optional<GemmKernelAddressing>
getIm2colGemmKernelAddressing(const ProblemView &view);
/// The addressing of the transposed product C^T = B^T A^T (m and n
/// exchanged) of a contraction addressed by `addr`.
GemmKernelAddressing
getTransposedGemmKernelAddressing(const GemmKernelAddressing &addr);
/// Whether the kernels' 16-byte path is valid (gemmStridesVectorisable of
/// GemmCommon.cuh): only for strided addressing; an operand the kernel does
/// not read or write with vectors (`needA` / `needB` / `needC` false) is not
/// checked.
bool isGemmKernelVectorisable(const GemmKernelAddressing &addr, bool needA,
                              bool needB, bool needC = true);
/// Whether every in-tile offset fits 32 bits (gemmTileOffsetsFit).
bool gemmKernelTileOffsetsFit(const GemmKernelAddressing &addr, int64_t bm,
                              int64_t bn, int64_t bk);
/// Applicability shared by both families: an f32 contraction whose sizes fit
/// the kernels' 32-bit coordinates, on a grid of batch rows.
LogicalResult checkGemmKernelApplies(const ProblemView &view, StringRef family,
                                     std::string &whyNot);
/// tileScore with two waves of blocks as full occupancy: these kernels
/// hold one or two large blocks per SM, and with a single wave nothing
/// hides a block's pipeline fill and drain (at 1024^3 the 64x64 tiles beat
/// the larger ones on the H200). The zero padding of the last `bk` slice
/// of k counts as waste like that of the edge tiles.
double gemmKernelTileScore(const ContractionView &c, int64_t bm, int64_t bn,
                           int64_t bk, double reuse,
                           const HardwareProfile &profile);
/// Below this k the embedded kernels rank after gemm: fewer than two slices
/// of their smallest bk.
constexpr int64_t kGemmKernelMinPipelinedK = 16;
/// Whether the profile's chip has cp.async (sm_80 and later; unknown chips
/// are assumed to).
bool hasAsyncCopy(const HardwareProfile &profile);
/// The whole source of a candidate over one embedded kernel: the prelude,
/// GemmCommon.cuh and `kernelText` inlined (standard headers replaced by
/// what the kernels use of them), the layout `StarkLayout` (affine when
/// `affine`), `config` as `StarkConfig`, and the entry `kernel` running
/// `stark_kernels::<block><StarkConfig, TA, TB, Vec, StarkLayout>` with
/// alpha = beta = 1 (C accumulates). With `splitK` > 1 the blocks of each
/// slice of `kPerSplit` k write their partial sums into a workspace the
/// source declares, and a second entry, `reduceKernel`, adds the slices in
/// order to C.
std::string emitGemmKernelSource(const ProblemView &view,
                                 const GemmKernelAddressing &addr, bool affine,
                                 StringRef kernelText, StringRef config,
                                 StringRef block, StringRef kernel, bool vec,
                                 int64_t minBlocks, int64_t groupM,
                                 int64_t splitK = 1, int64_t kPerSplit = 0,
                                 StringRef reduceKernel = "");
/// The embedded kernel texts.
StringRef getGemmF32KernelText();
StringRef getGemmSimtKernelText();
/// Appends an embedded kernel's text without its `#pragma once` and
/// include lines.
void appendKernelText(std::string &s, StringRef text);
StringRef getGemm3xTf32KernelText();

// Per-family applicability and parameter spaces (one file per family).
LogicalResult checkGemmApplies(const ProblemView &view, std::string &whyNot);
LogicalResult checkGemmTcApplies(const ProblemView &view, bool allowTf32,
                                 std::string &whyNot);
LogicalResult checkElementwiseApplies(const ProblemView &view,
                                      std::string &whyNot);
LogicalResult checkReduceApplies(const ProblemView &view, std::string &whyNot);
LogicalResult checkSoftmaxApplies(const ProblemView &view, std::string &whyNot);
LogicalResult checkDirectApplies(const ProblemView &view, std::string &whyNot);
/// `rms` selects rmsnorm, else layernorm.
LogicalResult checkNormApplies(const ProblemView &view, bool rms,
                               std::string &whyNot);

std::vector<GemmParams> enumerateGemm(const ProblemView &view,
                                      const HardwareProfile &profile);
std::vector<GemmTcParams> enumerateGemmTc(const ProblemView &view,
                                          const HardwareProfile &profile,
                                          bool allowTf32);
std::vector<ElementwiseParams>
enumerateElementwise(const ProblemView &view, const HardwareProfile &profile);
std::vector<ReduceRowParams> enumerateReduceRow(const ProblemView &view,
                                                const HardwareProfile &profile);
std::vector<ReduceColParams> enumerateReduceCol(const ProblemView &view,
                                                const HardwareProfile &profile);
std::vector<SoftmaxParams> enumerateSoftmax(const ProblemView &view,
                                            const HardwareProfile &profile);
std::vector<NormParams> enumerateNorm(const ProblemView &view,
                                      const HardwareProfile &profile);
std::vector<DirectParams> enumerateDirect(const ProblemView &view,
                                          const HardwareProfile &profile);

} // namespace mlir::stark::cudatpl

#endif // STARK_LIB_STRATEGIES_CUDA_CUDATEMPLATESINTERNAL_H
